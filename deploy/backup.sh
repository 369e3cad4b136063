#!/bin/sh
# Backups of the database, as pg_dump --format=custom files in BACKUP_DIR named
# torneo-YYYYMMDD-HHMMSS[-label].dump (so the newest sorts last), readable by root only.
#
#   backup.sh once [label]   one dump now (docker-compose.yml's backup-now, `make backup`)
#   backup.sh nightly        one dump every day at BACKUP_AT (HH:MM, local time), for ever (the backup service)
#   backup.sh fresh          exit 0 when the newest dump is less than 26 hours old (its health check)
#
# Environment: DATABASE_URL (postgres://user:password@host:port/name), BACKUP_DIR (default /backups),
# BACKUP_KEEP_DAYS (30: older dumps are deleted after each new one), BACKUP_AT (03:30).
set -eu

dir=${BACKUP_DIR:-/backups}
keep_days=${BACKUP_KEEP_DAYS:-30}
at=${BACKUP_AT:-03:30}

backup_once() {
    umask 077
    mkdir -p "$dir"
    name="torneo-$(date +%Y%m%d-%H%M%S)${1:+-$1}.dump"
    # Written aside and renamed when complete: a dump cut short is never taken for the newest.
    pg_dump --format=custom --dbname="$DATABASE_URL" --file="$dir/.$name.partial"
    mv "$dir/.$name.partial" "$dir/$name"
    find "$dir" -maxdepth 1 -name 'torneo-*.dump' -mmin +$((keep_days * 24 * 60)) -exec rm -f {} +
    find "$dir" -maxdepth 1 -name '.torneo-*.partial' -mmin +1440 -exec rm -f {} +
    echo "backup: $dir/$name ($(du -h "$dir/$name" | cut -f1))"
}

seconds_until() {
    now=$(date +%s)
    next=$(date -d "$1" +%s)
    [ "$next" -gt "$now" ] || next=$(date -d "tomorrow $1" +%s)
    echo $((next - now))
}

case "${1:-once}" in
    once)
        backup_once "${2:-}"
        ;;
    nightly)
        date -d "$at" +%s >/dev/null || { echo "backup: BACKUP_AT=$at is not a time of day (HH:MM)" >&2; exit 2; }
        trap 'exit 0' TERM INT
        echo "backup: every day at $at, kept $keep_days days, in $dir"
        while :; do
            sleep "$(seconds_until "$at")" &
            wait $!
            backup_once nightly || echo "backup: FAILED at $(date '+%F %T'), trying again tomorrow" >&2
        done
        ;;
    fresh)
        [ -n "$(find "$dir" -maxdepth 1 -name 'torneo-*.dump' -mmin -$((26 * 60)) 2>/dev/null)" ]
        ;;
    *)
        echo "usage: backup.sh once [label] | nightly | fresh" >&2
        exit 2
        ;;
esac

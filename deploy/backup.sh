#!/bin/sh
# Backups of the database, as pg_dump --format=custom files in BACKUP_DIR named
# torneo-YYYYMMDD-HHMMSS[-label].dump (so the newest sorts last), readable by root only, each with its
# manifest (….dump.manifest: every table's row count and checksum, taken in the dump's own snapshot,
# deploy/manifest.sql), which deploy/restore-check.sh compares with the restored copy.
#
#   backup.sh once [label]   one dump now (docker-compose.yml's backup-now, `make backup`)
#   backup.sh nightly        one dump every day at BACKUP_AT (HH:MM, local time), for ever (the backup service)
#   backup.sh fresh          exit 0 when the newest dump is less than 26 hours old (its health check)
#
# Environment: DATABASE_URL (postgres://user:password@host:port/name), BACKUP_DIR (default /backups),
# BACKUP_KEEP_DAYS (30: older dumps are deleted after each new one; 1 or more), BACKUP_AT (03:30),
# BACKUP_RCLONE_REMOTE (optional: each new dump and its manifest copied there by rclone, e.g.
# "offsite:torneo-backups", the remote configured by RCLONE_CONFIG_OFFSITE_* variables: an S3-compatible
# bucket, SFTP, Google Drive...), BACKUP_PING_URL (optional: asked after each success, its /fail after
# each failure, as healthchecks.io expects).
#
# A failure says so: exit status 1 (`once`), one line "backup: FAILED ..." on stderr, the ping's /fail.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
. "$here/pgpass.sh"  # the password in the environment, never on a command line
dir=${BACKUP_DIR:-/backups}
keep_days=${BACKUP_KEEP_DAYS:-30}
at=${BACKUP_AT:-03:30}
remote=${BACKUP_RCLONE_REMOTE:-}
ping_url=${BACKUP_PING_URL:-}
tab=$(printf '\t')

check_keep_days() {
    case "$keep_days" in
        ''|*[!0-9]*) ok=no ;;
        *) [ "$keep_days" -ge 1 ] && ok=yes || ok=no ;;
    esac
    if [ "$ok" = no ]; then
        echo "backup: BACKUP_KEEP_DAYS=$keep_days would delete the dump just written: give a whole number of days, 1 or more" >&2
        exit 2
    fi
}

ping() {
    [ -n "$ping_url" ] || return 0
    curl -fsS -m 10 --retry 3 -o /dev/null "$ping_url$1" || echo "backup: the ping $ping_url$1 did not answer" >&2
}

failed() {
    echo "backup: FAILED at $(date '+%F %T'): $1" >&2
    ping /fail
    return 1
}

# What failed, said as it is: a full disk as a full disk, else the tools' last error line.
why() {
    if grep -qi "no space left on device" "$errors" 2>/dev/null; then
        echo "the disk of $dir is full (No space left on device: $(df -h "$dir" 2>/dev/null | awk 'NR==2 {print $4 " free of " $2}')); make room, e.g. move old dumps off it"
    elif [ -s "$errors" ]; then
        echo "$1: $(grep -v '^$' "$errors" | tail -n 1)"
    else
        echo "$1${2:-}"
    fi
}

backup_once() {
    umask 077
    mkdir -p "$dir" || { failed "cannot create $dir"; return 1; }
    name="torneo-$(date +%Y%m%d-%H%M%S)${1:+-$1}.dump"
    partial="$dir/.$name.partial"
    rm -f "$partial" "$partial.done" "$partial.manifest"
    # The dump and the manifest of one snapshot (a transaction exported to pg_dump), written aside and
    # renamed when complete: a dump cut short is never taken for the newest.
    # Their errors kept aside (not beside the dump: a full disk takes that too) to say what failed.
    errors=$(mktemp)
    if ! psql -X -q -v ON_ERROR_STOP=1 -A -t -F "$tab" --dbname="$DATABASE_URL" -o "$partial.manifest" 2>"$errors" <<SQL
BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY;
SELECT pg_export_snapshot() AS snapshot \gset
\setenv TORNEO_SNAPSHOT :snapshot
\! pg_dump --format=custom --snapshot="\$TORNEO_SNAPSHOT" --dbname="\$DATABASE_URL" --file="$partial" && touch "$partial.done"
\i $here/manifest.sql
COMMIT;
SQL
    then
        cat "$errors" >&2
        rm -f "$partial" "$partial.done" "$partial.manifest"
        failed "$(why "pg_dump or the manifest of $DATABASE_URL_SHOWN failed" " (the database does not answer?)")"; rm -f "$errors"; return 1
    fi
    cat "$errors" >&2
    if [ ! -f "$partial.done" ]; then
        rm -f "$partial" "$partial.manifest"
        failed "$(why "pg_dump failed")"; rm -f "$errors"; return 1
    fi
    rm -f "$errors"
    rm -f "$partial.done"
    mv "$partial.manifest" "$dir/$name.manifest" && mv "$partial" "$dir/$name" || { failed "cannot write $dir/$name"; return 1; }
    find "$dir" -maxdepth 1 -name 'torneo-*.dump' ! -name "$name" -mmin +$((keep_days * 24 * 60)) \
        -exec rm -f {} {}.manifest \;
    find "$dir" -maxdepth 1 -name '.torneo-*.partial*' -mmin +1440 -exec rm -f {} +
    echo "backup: $dir/$name ($(du -h "$dir/$name" | cut -f1), $(wc -l < "$dir/$name.manifest") tables)"
    if [ -n "$remote" ]; then
        if rclone copyto "$dir/$name" "$remote/$name" && rclone copyto "$dir/$name.manifest" "$remote/$name.manifest"; then
            echo "backup: copied off the server to $remote/$name"
        else
            failed "the copy to $remote failed (the dump is kept in $dir)"; return 1
        fi
    fi
    ping ""
}

seconds_until() {
    now=$(date +%s)
    next=$(date -d "$1" +%s)
    [ "$next" -gt "$now" ] || next=$(date -d "tomorrow $1" +%s)
    echo $((next - now))
}

# The database's address without its password, for the messages.
DATABASE_URL_SHOWN=$(printf %s "${DATABASE_URL:-}" | sed 's#://\([^:@/]*\):[^@]*@#://\1:***@#')

case "${1:-once}" in
    once)
        check_keep_days
        backup_once "${2:-}" || exit 1
        ;;
    nightly)
        check_keep_days
        date -d "$at" +%s >/dev/null || { echo "backup: BACKUP_AT=$at is not a time of day (HH:MM)" >&2; exit 2; }
        trap 'exit 0' TERM INT
        echo "backup: every day at $at, kept $keep_days days, in $dir${remote:+, copied to $remote}"
        while :; do
            sleep "$(seconds_until "$at")" &
            wait $!
            backup_once nightly || echo "backup: trying again tomorrow at $at" >&2
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

#!/bin/sh
# Is the newest backup good? It is restored into a scratch database beside the live one, its
# migrations are checked against this version of Torneo (`migrate --check`), and every table's row
# count and checksum are compared with the dump's manifest (deploy/backup.sh writes it in the dump's
# own snapshot): a dump that lost a table's rows (circuits, roles, the audit log...) fails, naming the
# table. A dump without a manifest (written by an older backup.sh) is compared by every tournament's
# standings with the live database instead (`compare_standings`). The scratch database is dropped at
# the end, whatever happened. Exit 0 when all is well, 2 otherwise.
#
#   make restore-check                              (this machine: .venv, PostgreSQL at PG_URL)
#   docker compose run --rm restore-check           (the server: a backup taken now, then checked)
#
# Environment: DATABASE_URL (the live database, postgres://...; its user creates and drops the
# scratch database), BACKUP_DIR (where the dumps are), DUMP (a dump to check instead of the newest),
# SCRATCH_DB (default torneo_restore_check), PYTHON (default python). deploy/restore-db.sh sets
# KEEP_SCRATCH=1 (the checked copy is kept, to become the live database) and MIGRATE_CHECK=0 (an older
# dump is migrated after the restore).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
. "$here/pgpass.sh"  # the password in the environment, never on a command line
dir=${BACKUP_DIR:-backups}
scratch=${SCRATCH_DB:-torneo_restore_check}
python=${PYTHON:-python}
keep=${KEEP_SCRATCH:-0}
live=${DATABASE_URL:?DATABASE_URL: the live database}
case "$live" in
    postgres://*|postgresql://*) ;;
    *) echo "restore-check: DATABASE_URL must be a PostgreSQL database (postgres://...)" >&2; exit 2 ;;
esac
base=${live%%\?*}
scratch_url="${base%/*}/$scratch"
if [ "$scratch_url" = "$base" ] || [ "${base##*/}" = "$scratch" ]; then
    echo "restore-check: the scratch database must not be the live one" >&2; exit 2
fi

dump=${DUMP:-$(ls "$dir"/torneo-*.dump 2>/dev/null | sort | tail -n 1 || true)}
if [ -z "$dump" ]; then
    echo "restore-check: no backup (torneo-*.dump) in $dir" >&2; exit 2
fi
if [ ! -f "$dump" ]; then
    echo "restore-check: no such dump: $dump" >&2; exit 2
fi

work=$(mktemp -d)
ok=no
cleanup() {
    rm -rf "$work"
    if [ "$ok" != yes ] || [ "$keep" != 1 ]; then
        dropdb --if-exists --maintenance-db="$live" "$scratch" 2>/dev/null || true
    fi
}
trap cleanup EXIT
trap 'exit 2' INT TERM

echo "restore-check: restoring $dump into the scratch database $scratch"
dropdb --if-exists --maintenance-db="$live" "$scratch" 2>/dev/null || true
createdb --maintenance-db="$live" "$scratch"
if ! pg_restore --no-owner --no-privileges --exit-on-error --dbname="$scratch_url" "$dump"; then
    echo "restore-check: $(basename "$dump") does not restore (pg_restore failed)" >&2; exit 2
fi

if [ "${MIGRATE_CHECK:-1}" = 1 ]; then
    echo "restore-check: migrations of the restored database (migrate --check)"
    if ! DATABASE_URL="$scratch_url" "$python" manage.py migrate --check --noinput >/dev/null; then
        echo "restore-check: the backup lacks migrations of this version (a backup taken before an upgrade's migrate: the one to go back to with the previous version)" >&2
        exit 2
    fi
    echo "restore-check: migrations up to date"
fi

if [ -f "$dump.manifest" ]; then
    echo "restore-check: every table's rows, restored and in the dump's manifest"
    psql -X -q -v ON_ERROR_STOP=1 -A -t -F "$(printf '\t')" --dbname="$scratch_url" -f "$here/manifest.sql" \
        -o "$work/restored"
    # One line per table that differs: its name, then rows and checksum in the manifest and restored.
    if ! awk -F '\t' '
        NR == FNR { want[$1] = $2 "\t" $3; next }
        { got[$1] = $2 "\t" $3 }
        END {
            bad = 0
            for (t in want) {
                split(want[t], w, "\t")
                if (!(t in got)) { printf "restore-check: table %s: %s rows in the backup, missing from the restored copy\n", t, w[1]; bad++ }
                else if (got[t] != want[t]) {
                    split(got[t], g, "\t")
                    printf "restore-check: table %s: %s rows in the backup, %s restored%s\n", t, w[1], g[1], (g[1] == w[1] ? " (the rows differ)" : ""); bad++
                }
            }
            for (t in got) if (!(t in want)) { printf "restore-check: table %s: restored, not in the backup\n", t; bad++ }
            exit bad > 0
        }' "$dump.manifest" "$work/restored" >&2; then
        echo "restore-check: FAILED, $(basename "$dump") does not hold what its manifest lists" >&2
        exit 2
    fi
    tables=$(wc -l < "$work/restored" | tr -d ' ')
    rows=$(awk -F '\t' '{ n += $2 } END { print n + 0 }' "$work/restored")
    ok=yes
    echo "restore-check: OK, $(basename "$dump") restores whole: $tables tables, $rows rows, each table's rows as dumped"
else
    echo "restore-check: $(basename "$dump") has no manifest (an older backup): every tournament's standings, restored and live" >&2
    "$python" manage.py compare_standings --other-database-url "$scratch_url"
    ok=yes
    echo "restore-check: OK, $(basename "$dump") restores and holds the live standings"
fi

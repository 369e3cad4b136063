#!/bin/sh
# Is the newest backup good? It is restored into a scratch database beside the live one, its
# migrations are checked against this version of Torneo (`migrate --check`), and every tournament's
# standings, under every formula, are compared with the live database's (`compare_standings`). The
# scratch database is dropped at the end, whatever happened. Exit 0 when all is well.
#
#   make restore-check                              (this machine: .venv, PostgreSQL at PG_URL)
#   docker compose run --rm restore-check           (the server: a backup taken now, then checked)
#
# Environment: DATABASE_URL (the live database, postgres://...; its user creates and drops the
# scratch database), BACKUP_DIR (where the dumps are), SCRATCH_DB (default torneo_restore_check),
# PYTHON (default python).
set -eu

dir=${BACKUP_DIR:-backups}
scratch=${SCRATCH_DB:-torneo_restore_check}
python=${PYTHON:-python}
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

dump=$(ls "$dir"/torneo-*.dump 2>/dev/null | sort | tail -n 1 || true)
if [ -z "$dump" ]; then
    echo "restore-check: no backup (torneo-*.dump) in $dir" >&2; exit 2
fi

cleanup() { dropdb --if-exists --maintenance-db="$live" "$scratch" 2>/dev/null || true; }
trap cleanup EXIT
trap 'exit 2' INT TERM

echo "restore-check: restoring $dump into the scratch database $scratch"
cleanup
createdb --maintenance-db="$live" "$scratch"
pg_restore --no-owner --no-privileges --exit-on-error --dbname="$scratch_url" "$dump"

echo "restore-check: migrations of the restored database (migrate --check)"
if ! DATABASE_URL="$scratch_url" "$python" manage.py migrate --check --noinput >/dev/null; then
    echo "restore-check: the backup lacks migrations of this version (a backup taken before an upgrade's migrate: the one to go back to with the previous version)" >&2
    exit 2
fi
echo "restore-check: migrations up to date"

echo "restore-check: every tournament's standings, restored and live"
"$python" manage.py compare_standings --other-database-url "$scratch_url"
echo "restore-check: OK, $(basename "$dump") restores and holds the live standings"

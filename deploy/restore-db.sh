#!/bin/sh
# The database of DATABASE_URL replaced by a dump, kept aside rather than dropped:
#
#   sh deploy/restore-db.sh backups/torneo-YYYYMMDD-HHMMSS-nightly.dump
#
# 1. the dump is restored into a new database beside the live one (<name>_restoring) and checked as
#    deploy/restore-check.sh checks (every table's rows as its manifest lists them): a dump that does not
#    restore whole stops here, the live database untouched;
# 2. connections to the live database are refused and the open ones ended (every service holding it
#    should be stopped first: deploy/restore.sh does it), the live database renamed
#    <name>_before_restore_YYYYMMDD_HHMMSS and the restored one given its name;
# 3. the restored database migrated to this version (an older dump).
#
# No page of the replaced database is served afterwards: the restored database is a new one, and the
# cache generation (risiko_site/generation.py) includes the database's identity, so every cache key
# changes with it.
#
# Environment: DATABASE_URL (postgres://...; its user may create, rename and end connections to
# databases: the compose file's torneo is the server's superuser), PYTHON (default python).
# Exit 0 when restored, 2 when nothing was changed.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
. "$here/pgpass.sh"  # the password in the environment, never on a command line
python=${PYTHON:-python}
dump=${1:-}
live=${DATABASE_URL:?DATABASE_URL: the live database}
if [ -z "$dump" ] || [ ! -f "$dump" ]; then
    echo "restore: give the dump to restore (restore-db.sh backups/torneo-....dump); no such file: ${dump:-(none)}" >&2
    exit 2
fi
base=${live%%\?*}
name=${base##*/}
maintenance="${base%/*}/postgres"
restoring="${name}_restoring"
aside="${name}_before_restore_$(date +%Y%m%d_%H%M%S)"

if ! KEEP_SCRATCH=1 MIGRATE_CHECK=0 SCRATCH_DB="$restoring" DUMP="$dump" PYTHON="$python" sh "$here/restore-check.sh"; then
    echo "restore: nothing changed, $name is as it was" >&2
    exit 2
fi

echo "restore: $name set aside as $aside, the restored copy takes its place"
if ! psql -X -q -v ON_ERROR_STOP=1 --dbname="$maintenance" \
     -v live="$name" -v aside="$aside" -v restoring="$restoring" <<'SQL'
ALTER DATABASE :"live" WITH ALLOW_CONNECTIONS false;
SELECT count(pg_terminate_backend(pid, 5000)) AS ended FROM pg_stat_activity
 WHERE datname = :'live' AND pid <> pg_backend_pid() \gset
ALTER DATABASE :"live" RENAME TO :"aside";
ALTER DATABASE :"aside" WITH ALLOW_CONNECTIONS true;
ALTER DATABASE :"restoring" RENAME TO :"live";
SQL
then
    echo 'ALTER DATABASE :"live" WITH ALLOW_CONNECTIONS true;' \
        | psql -X -q --dbname="$maintenance" -v live="$name" >/dev/null 2>&1 || true
    echo "restore: the swap failed (above); $name is as it was, the restored copy is $restoring" >&2
    exit 2
fi

echo "restore: migrations of this version applied to the restored database"
DATABASE_URL="$live" DB_STATEMENT_TIMEOUT_MS=0 "$python" manage.py migrate --noinput -v 0
echo "restore: OK, $name now holds $(basename "$dump"); the database it replaced is kept as $aside"
echo "restore: (drop it once the site is checked: dropdb --maintenance-db=<the database's address> $aside)"

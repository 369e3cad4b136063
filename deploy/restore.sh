#!/bin/sh
# Restore a dump on the server, in one command (docs/admin/backups.md, "Restoring"), from the folder of the compose file:
#
#   sh deploy/restore.sh backups/torneo-YYYYMMDD-HHMMSS-nightly.dump
#
# 1. every service that holds the database stops: the proxy, both pools, the live channel, the two workers,
#    the backups;
# 2. the database and the cache run (started if they were down);
# 3. deploy/restore-db.sh, in the application's image (the compose file's restore-db): the dump restored
#    beside the database and checked against its manifest, the database set aside (kept, not dropped)
#    and the restored copy put in its place, then migrated to this version. A dump that fails its check
#    changes nothing, and the services start again on the database as it was;
# 4. everything starts again (`docker compose up -d`: a backup of the restored database first); no page
#    of the replaced database is served (the cache generation includes the database's identity);
# 5. the health page is asked until it answers "ok" (within HEALTH_WAIT_SECONDS, 180).
#
# COMPOSE: the compose command (default "docker compose"). Exit 0 when restored and healthy.
set -eu
. "$(dirname "$0")/healthy.sh"

compose=${COMPOSE:-docker compose}
wait_seconds=${HEALTH_WAIT_SECONDS:-180}
dump=${1:-}
case "$dump" in
    backups/torneo-*.dump|./backups/torneo-*.dump) ;;
    *) echo "restore: give a dump of ./backups (sh deploy/restore.sh backups/torneo-....dump), not '${dump}'" >&2; exit 2 ;;
esac
if [ ! -f "$dump" ]; then
    echo "restore: no such dump: $dump (ls backups/ shows them)" >&2; exit 2
fi
name=$(basename "$dump")


echo "restore: stopping every service that holds the database"
$compose stop proxy web web-staff live worker sender backup
$compose up -d --wait db redis
if ! $compose run --rm restore-db "/backups/$name"; then
    echo "restore: $name was not restored; starting the site again on the database as it was" >&2
    $compose up -d
    exit 2
fi
echo "restore: starting everything again"
$compose up -d
wait_healthy restore web
echo "restore: OK, the site runs on $name; /salute/ answers ok"

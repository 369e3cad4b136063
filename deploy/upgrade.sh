#!/bin/sh
# Take a new version on the server, in one command (docs/admin/upgrading.md), from the folder of the compose file:
#
#   sh deploy/upgrade.sh
#
# 1. the new version's code (git pull, fast-forward only: a server with local changes stops here);
# 2. its images built (the pinned base images, the Python packages of requirements.lock);
# 3. `docker compose up -d`: a backup (…-before-migrate.dump), the migrations, then every service whose
#    image or settings changed replaced; the new release is a new cache generation, so no page of the
#    old version (linking its stylesheets) is served;
# 4. the health page asked until it answers "ok" (within HEALTH_WAIT_SECONDS, 180).
#
# Going back: `git checkout <the previous version>`, then sh deploy/restore.sh with the
# …-before-migrate.dump this upgrade took. COMPOSE: the compose command (default "docker compose").
set -eu
. "$(dirname "$0")/healthy.sh"

compose=${COMPOSE:-docker compose}
wait_seconds=${HEALTH_WAIT_SECONDS:-180}

before=$(git rev-parse --short HEAD)
git pull --ff-only
after=$(git rev-parse --short HEAD)
echo "upgrade: $before -> $after (the changes: docs/admin/upgrading.md)"
$compose build --pull
$compose up -d
wait_healthy upgrade "migrate web" || exit 1
echo "upgrade: OK, $after runs; /salute/ answers ok. The backup taken before the migrations: $(ls backups/*-before-migrate.dump 2>/dev/null | tail -n 1)"

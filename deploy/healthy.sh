# Sourced by deploy/restore.sh and deploy/upgrade.sh: `wait_healthy WHO SERVICES` asks the health page
# (deploy/healthcheck.py in the web container) every 5 s until it answers ok, within $wait_seconds;
# otherwise says where to look (the logs of SERVICES) and returns 1. Uses $compose and $wait_seconds.
wait_healthy() {
    waited=0
    until $compose exec -T web python deploy/healthcheck.py >/dev/null 2>&1; do
        if [ "$waited" -ge "$wait_seconds" ]; then
            echo "$1: the site does not answer ok after ${wait_seconds} s: docker compose ps, docker compose logs --tail 50 $2" >&2
            return 1
        fi
        sleep 5
        waited=$((waited + 5))
    done
}

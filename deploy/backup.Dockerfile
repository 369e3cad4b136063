# The backup services' image (docker-compose.yml): the database's own PostgreSQL image (pg_dump and
# psql of the server's version) with rclone, for the copy off the server, and curl, for the ping.
FROM postgres:15.13-bookworm
RUN apt-get update && apt-get install -y --no-install-recommends rclone curl ca-certificates \
    && rm -rf /var/lib/apt/lists/*

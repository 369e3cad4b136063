# Torneo — the two commands a newcomer needs: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PG_URL ?= postgres://postgres@127.0.0.1:5432/torneo
HOST ?= 127.0.0.1:8000
BACKUP_DIR ?= backups

.PHONY: lock run install migrate demo test test-sqlite test-browser bites bench messages backup restore-check \
	restore-drill proxy-check faults env check-deploy docs clean

$(VENV)/.installed: pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[test]"
	touch $@

install: $(VENV)/.installed

# requirements.lock, which the Dockerfile installs from (--require-hashes): every package of
# pyproject.toml's dependencies and theirs, pinned with the hashes of their files. Run after changing
# the dependencies, and to take newer versions deliberately.
lock: install
	$(PY) -m pip install --quiet pip-tools
	$(PY) -m piptools compile --quiet --generate-hashes --strip-extras --allow-unsafe --no-emit-index-url \
		--no-emit-find-links --output-file requirements.lock pyproject.toml

migrate: install
	$(PY) manage.py migrate --noinput

demo: migrate
	$(PY) manage.py load_demo

run: demo
	@echo "Serving on http://$(HOST)  (Ctrl+C to stop)"
	$(PY) manage.py runserver $(HOST)

# Every test once (browser tests included), in parallel across the cores (pytest-xdist), on PostgreSQL
# as production when one answers at PG_URL (its test databases: test_<name>, test_<name>_gw0, ...),
# on SQLite otherwise. The database is migrated once per run (tests/database.py).
TEST_WORKERS ?= auto
PYTEST_PARALLEL = $(PY) -m pytest -n $(TEST_WORKERS) --dist worksteal -q
test: install node_modules/.installed
	@if $(PY) -c "import psycopg, sys; psycopg.connect('$(PG_SERVER)postgres', connect_timeout=3).close()" \
			2>/dev/null; then \
		echo "make test: on PostgreSQL at $(PG_URL)"; export DATABASE_URL="$(PG_URL)"; \
	else \
		echo "make test: no PostgreSQL answers at $(PG_URL): on SQLite"; \
	fi; \
	$(PYTEST_PARALLEL) $(PYTEST_ARGS)

# The same run on SQLite, whatever answers at PG_URL.
test-sqlite: install node_modules/.installed
	env -u DATABASE_URL $(PYTEST_PARALLEL) $(PYTEST_ARGS)

# Each fault the suite once missed, planted alone: the tests that guard it must fail.
bites: install
	$(PY) tests/bites.py

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --silent
	touch $@

# The browser tests alone (Playwright, /usr/bin/chromium).
test-browser: install node_modules/.installed
	$(PY) -m pytest -m browser -q $(PYTEST_ARGS)

# The documentation site: docs/ built by MkDocs (Material theme) into site/, any warning an error.
docs: install
	$(PY) -m pip install --quiet -e ".[docs]"
	NO_MKDOCS_2_WARNING=1 $(PY) -m mkdocs build --strict

# Every benchmark runs and prints its figures; one that misses its target makes the whole run fail
# at the end, after the others have printed theirs.
bench: install
	@command -v wrk >/dev/null || (apt-get update -qq && apt-get install -y -qq wrk)
	@missed=""; \
	$(PY) bench/bench_scoring.py || missed="$$missed scoring"; \
	$(PY) bench/bench_seating.py || missed="$$missed seating"; \
	DATABASE_URL=$(PG_URL) $(PY) bench/bench_standings.py --growth || missed="$$missed standings"; \
	DATABASE_URL=$(PG_URL) $(PY) bench/bench_standings_cost.py || missed="$$missed standings_cost"; \
	DATABASE_URL=$(PG_URL) $(PY) bench/bench_what_if.py || missed="$$missed what_if"; \
	DATABASE_URL=$(PG_URL) $(PY) bench/bench_load.py --seconds 60 --servers 2 --quiet-baseline --split-pools \
		|| missed="$$missed load"; \
	DATABASE_URL=$(PG_URL) $(PY) bench/bench_live.py --clients 1000 --seconds 30 || missed="$$missed live"; \
	DATABASE_URL=$(PG_URL) $(PY) bench/bench_national_day.py --tournaments 10 --phones 100 --seconds 30 \
		|| missed="$$missed national_day"; \
	DATABASE_URL=$(PG_URL) $(PY) bench/bench_import.py || missed="$$missed import"; \
	if [ -n "$$missed" ]; then echo "targets missed:$$missed" >&2; exit 1; fi

messages: install
	$(PY) manage.py makemessages -l it -l en --no-obsolete --no-location --ignore=.venv --ignore=tests --ignore=bench
	$(PY) manage.py compilemessages --ignore=.venv

# One pg_dump --format=custom of DATABASE_URL (or PG_URL) into BACKUP_DIR, by the script the
# compose file's backup services run (deploy/backup.sh; dumps older than BACKUP_KEEP_DAYS deleted).
backup:
	DATABASE_URL="$${DATABASE_URL:-$(PG_URL)}" BACKUP_DIR="$(BACKUP_DIR)" sh deploy/backup.sh once

# The newest dump of BACKUP_DIR restored into a scratch database beside DATABASE_URL (or PG_URL),
# `migrate --check`, and every tournament's standings compared with the live ones (deploy/restore-check.sh).
restore-check: install
	DATABASE_URL="$${DATABASE_URL:-$(PG_URL)}" BACKUP_DIR="$(BACKUP_DIR)" PYTHON=$(PY) sh deploy/restore-check.sh

# The whole chain on the local PostgreSQL (CI): a database holding the demo, a backup of it by
# deploy/backup.sh, what `make restore-check` does, then newer data written and the older dump restored
# over it by deploy/restore-db.sh (docs/admin/backups.md, "Restoring"): the public pages follow the restored data
# (deploy/restore_drill.py).
PG_SERVER := $(dir $(PG_URL))
DRILL_DB := torneo_restore_drill
DRILL_URL := $(PG_SERVER)$(DRILL_DB)
DRILL_DIR := var/restore-drill
DRILL_ENV := DATABASE_URL="$(DRILL_URL)" BACKUP_DIR=$(DRILL_DIR) PYTHON=$(PY) CACHE_URL=file://$(CURDIR)/$(DRILL_DIR)/cache
restore-drill: install
	rm -rf $(DRILL_DIR)
	for db in $(DRILL_DB) $$(psql -X -A -t --dbname="$(PG_SERVER)postgres" -c \
		"SELECT datname FROM pg_database WHERE datname LIKE '$(DRILL_DB)\\_%'"); do \
		dropdb --if-exists --maintenance-db="$(PG_SERVER)postgres" "$$db"; done
	createdb --maintenance-db="$(PG_SERVER)postgres" $(DRILL_DB)
	$(DRILL_ENV) $(PY) manage.py migrate --noinput -v 0
	$(DRILL_ENV) $(PY) manage.py load_demo >/dev/null
	$(DRILL_ENV) sh deploy/backup.sh once
	$(DRILL_ENV) SCRATCH_DB=$(DRILL_DB)_check sh deploy/restore-check.sh
	$(DRILL_ENV) DUMP=$$(ls $(DRILL_DIR)/torneo-*.dump) $(PY) deploy/restore_drill.py
	for db in $(DRILL_DB) $$(psql -X -A -t --dbname="$(PG_SERVER)postgres" -c \
		"SELECT datname FROM pg_database WHERE datname LIKE '$(DRILL_DB)\\_%'"); do \
		dropdb --maintenance-db="$(PG_SERVER)postgres" "$$db"; done
	rm -rf $(DRILL_DIR)

# The repository's Caddyfile in front of the two gunicorn pools, on loopback addresses and high
# ports with Caddy's local certificates, checked from outside (deploy/proxy_check.py); Debian's
# caddy is installed when missing.
proxy-check: install
	@command -v caddy >/dev/null || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq caddy >/dev/null)
	PG_URL=$(PG_URL) $(PY) deploy/proxy_check.py

# The faults of a bad day (docs/admin/faults.md) under saves, polls and live screens, the set-up as compose
# runs it (both pools, the live server, the worker, Caddy) on a PostgreSQL cluster and a Redis of its own
# (this restarts and freezes them; the shared server is never touched): deploy/faults.py. Needs caddy,
# redis-server and PostgreSQL's server binaries (installed when missing).
faults: install
	@command -v caddy >/dev/null && command -v redis-server >/dev/null || (apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq caddy redis-server >/dev/null)
	$(PY) deploy/faults.py

# .env for docker-compose.yml: asks the domain and an e-mail (or DOMAIN=... EMAIL=...), random secrets;
# never overwrites an existing .env.
env:
	@DOMAIN="$(DOMAIN)" EMAIL="$(EMAIL)" sh deploy/make-env.sh

check-deploy: install
	DJANGO_PRODUCTION=1 DEBUG=0 SECRET_KEY=$$(openssl rand -hex 32) ALLOWED_HOSTS=example.org DATABASE_URL=$(PG_URL) \
		$(PY) manage.py check --deploy --fail-level WARNING

clean:
	rm -rf $(VENV) staticfiles site

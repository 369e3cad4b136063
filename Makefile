# Torneo — the two commands a newcomer needs: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PG_URL ?= postgres://postgres@127.0.0.1:5432/torneo
HOST ?= 127.0.0.1:8000
BACKUP_DIR ?= backups

.PHONY: run install migrate demo test test-sqlite test-postgres test-browser bites bench messages backup restore-check \
	restore-drill proxy-check env check-deploy clean

$(VENV)/.installed: pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[test]"
	touch $@

install: $(VENV)/.installed

migrate: install
	$(PY) manage.py migrate --noinput

demo: migrate
	$(PY) manage.py load_demo

run: demo
	@echo "Serving on http://$(HOST)  (Ctrl+C to stop)"
	$(PY) manage.py runserver $(HOST)

test: install
	$(MAKE) test-sqlite
	$(MAKE) test-postgres
	$(MAKE) test-browser

test-sqlite: install
	$(PY) -m pytest -m "not browser and not postgres" -q

test-postgres: install
	DATABASE_URL=$(PG_URL) $(PY) -m pytest -m "not browser" -q

# Each fault the suite once missed, planted alone: the tests that guard it must fail.
bites: install
	$(PY) tests/bites.py

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --silent
	touch $@

test-browser: install node_modules/.installed
	$(PY) -m pytest -m browser -q

# Every benchmark runs and prints its figures; one that misses its target makes the whole run fail
# at the end, after the others have printed theirs.
bench: install
	@command -v wrk >/dev/null || (apt-get update -qq && apt-get install -y -qq wrk)
	@missed=""; \
	$(PY) bench/bench_scoring.py || missed="$$missed scoring"; \
	$(PY) bench/bench_seating.py || missed="$$missed seating"; \
	DATABASE_URL=$(PG_URL) $(PY) bench/bench_standings.py || missed="$$missed standings"; \
	DATABASE_URL=$(PG_URL) $(PY) bench/bench_standings_cost.py || missed="$$missed standings_cost"; \
	DATABASE_URL=$(PG_URL) $(PY) bench/bench_what_if.py || missed="$$missed what_if"; \
	DATABASE_URL=$(PG_URL) $(PY) bench/bench_load.py --seconds 60 --servers 2 --quiet-baseline --split-pools \
		|| missed="$$missed load"; \
	DATABASE_URL=$(PG_URL) $(PY) bench/bench_live.py --clients 1000 --seconds 30 || missed="$$missed live"; \
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
# deploy/backup.sh, then what `make restore-check` does.
PG_SERVER := $(dir $(PG_URL))
DRILL_URL := $(PG_SERVER)torneo_restore_drill
DRILL_DIR := var/restore-drill
restore-drill: install
	rm -rf $(DRILL_DIR)
	dropdb --if-exists --maintenance-db="$(PG_SERVER)postgres" torneo_restore_drill
	createdb --maintenance-db="$(PG_SERVER)postgres" torneo_restore_drill
	DATABASE_URL="$(DRILL_URL)" $(PY) manage.py migrate --noinput -v 0
	DATABASE_URL="$(DRILL_URL)" $(PY) manage.py load_demo >/dev/null
	DATABASE_URL="$(DRILL_URL)" BACKUP_DIR=$(DRILL_DIR) sh deploy/backup.sh once
	DATABASE_URL="$(DRILL_URL)" BACKUP_DIR=$(DRILL_DIR) PYTHON=$(PY) sh deploy/restore-check.sh
	dropdb --maintenance-db="$(PG_SERVER)postgres" torneo_restore_drill
	rm -rf $(DRILL_DIR)

# The repository's Caddyfile in front of the two gunicorn pools, on loopback addresses and high
# ports with Caddy's local certificates, checked from outside (deploy/proxy_check.py); Debian's
# caddy is installed when missing.
proxy-check: install
	@command -v caddy >/dev/null || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq caddy >/dev/null)
	PG_URL=$(PG_URL) $(PY) deploy/proxy_check.py

# .env for docker-compose.yml: asks the domain and an e-mail (or DOMAIN=... EMAIL=...), random secrets;
# never overwrites an existing .env.
env:
	@DOMAIN="$(DOMAIN)" EMAIL="$(EMAIL)" sh deploy/make-env.sh

check-deploy: install
	DJANGO_PRODUCTION=1 DEBUG=0 SECRET_KEY=$$(openssl rand -hex 32) ALLOWED_HOSTS=example.org DATABASE_URL=$(PG_URL) \
		$(PY) manage.py check --deploy --fail-level WARNING

clean:
	rm -rf $(VENV) staticfiles

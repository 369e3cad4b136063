# Torneo — the two commands a newcomer needs: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PG_URL ?= postgres://postgres@127.0.0.1:5432/torneo
HOST ?= 127.0.0.1:8000

.PHONY: run install migrate demo test test-sqlite test-postgres test-browser bites bench messages backup check-deploy clean

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
	DATABASE_URL=$(PG_URL) $(PY) bench/bench_load.py --seconds 60 --servers 2 --quiet-baseline --split-pools \
		|| missed="$$missed load"; \
	if [ -n "$$missed" ]; then echo "targets missed:$$missed" >&2; exit 1; fi

messages: install
	$(PY) manage.py makemessages -l it -l en --no-obsolete --no-location --ignore=.venv --ignore=tests --ignore=bench
	$(PY) manage.py compilemessages --ignore=.venv

backup:
	@mkdir -p backups
	pg_dump --format=custom --dbname="$${DATABASE_URL:-$(PG_URL)}" --file=backups/torneo-$$(date +%Y%m%d-%H%M%S).dump
	@ls -1t backups | head -n 1

check-deploy: install
	DJANGO_PRODUCTION=1 DEBUG=0 SECRET_KEY=$$(openssl rand -hex 32) ALLOWED_HOSTS=example.org DATABASE_URL=$(PG_URL) \
		$(PY) manage.py check --deploy --fail-level WARNING

clean:
	rm -rf $(VENV) staticfiles

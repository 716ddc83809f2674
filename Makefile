# prefscore: make run (the club's server) · make dev · make test · make lint · make bench
# GNU make. Everything runs in .venv, which `make install` creates from pyproject.toml.
# `make run PORT=8123` serves on another port.

PYTHON ?= python3
PY := .venv/bin/python
# Reinstall only when pyproject.toml changes. `make run` installs what the server needs
# (pip install -e .); `make install` and `make test` add the test and lint tools and the
# offline seating solver (.[dev,seating]).
RUN_STAMP := .venv/.installed-run
STAMP := .venv/.installed
PORT ?= 8000
# Where the browser tests look for them (tests/browser/conftest.py).
CHROMIUM := /usr/bin/chromium
CHROMEDRIVER := /usr/bin/chromedriver
# PostgreSQL 15's server, for the hosted route's test (it starts a throwaway cluster).
PG_BIN := /usr/lib/postgresql/15/bin

.PHONY: .venv install install-run node_modules run dev test test-database test-fast test-js screenshots check-tools lint typecheck bench messages

.venv install: $(STAMP)

install-run: $(RUN_STAMP)

$(PY):
	$(PYTHON) -m venv .venv

$(RUN_STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --disable-pip-version-check --quiet -e .
	touch $@

# The developer's install holds the runtime's too.
$(STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --disable-pip-version-check --quiet -e '.[dev,seating]'
	touch $@ $(RUN_STAMP)

# axe-core for the browser tests' accessibility checks (package.json, package-lock.json).
# npm ci installs exactly the locked versions; again only when the lock file changes.
NODE_STAMP := node_modules/.package-lock.json

node_modules: $(NODE_STAMP)

$(NODE_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

# The club's own server: DEBUG off, the site on every interface under uvicorn, its
# address and a QR code of it printed for the phones (prefscore/lan.py). Before serving,
# prefscore/startup.py checks the database, backs an older one up and migrates it (or
# refuses, saying why), and prints the owner's one-time link on a server without one;
# while serving, the task worker beside it (`manage.py run_worker`: the mail, a backup a
# day, the deferred work; docs/tasks.md), so one command still serves the club. Plain http on the LAN, or HTTPS with the club's own
# certificate: make run CERT=cert.pem KEY=key.pem [NAME=pref.club.example]. The secret
# key is made once in data/ (mode 0600); mail settings are read from data/mail.env.
run: export DEBUG = 0
run: export SECRET_KEY_FILE ?= $(CURDIR)/data/secret_key
run: export PLAIN_HTTP = 1
run: export MAIL_SETTINGS_FILE ?= $(CURDIR)/data/mail.env
run: install-run
	$(PY) -m prefscore.lan --port $(PORT) $(if $(CERT),--cert '$(CERT)') $(if $(KEY),--key '$(KEY)') $(if $(NAME),--name '$(NAME)')

# Development: DEBUG on, loopback only, reloaded on every change of the code; uvicorn,
# so the change signal works here too.
# The task worker runs beside it (docs/tasks.md), stopped with it; it is not reloaded:
# after changing a task, start make dev again. No scheduled backups of the demo data.
dev: export DEBUG = 1
dev: export BACKUP_EVERY_HOURS = 0
dev: install
	$(PY) manage.py migrate --no-input
	$(PY) manage.py createcachetable
	$(PY) manage.py load_demo
	$(PY) manage.py summarise
	@echo "prefscore (development) is at http://127.0.0.1:$(PORT) — sign in as demo / demo-pulka"
	$(PY) manage.py run_worker & worker=$$!; trap 'kill $$worker 2>/dev/null' EXIT INT TERM; \
	$(PY) -m uvicorn prefscore.asgi:application --reload --reload-dir prefscore \
		--reload-dir scoring --reload-dir templates --host 127.0.0.1 --port $(PORT) --lifespan off

# check-tools first, before anything is installed or run; then the rest in order.
# --durations: the 30 slowest tests, printed at the end (CONTRIBUTING.md, "Tests").
# -n 3 on two cores: the walks wait on the browser, the live server and timers, and a
# third worker runs tests in those waits (778 s on two, CONTRIBUTING.md, "Tests").
# --dist worksteal: a worker that runs out takes tests from another, so the long
# browser walks do not leave one idle at the end (963 s against 1,043 s).
test: check-tools
	@$(MAKE) --no-print-directory install node_modules
	$(PY) -m pytest -n 3 --dist worksteal --durations=30
	$(MAKE) --no-print-directory test-js lint typecheck

# The suite again on the database DATABASE_URL names (CI's PostgreSQL stage, .ci/run):
# pytest alone (the lint, the types and the page scripts do not depend on the database),
# and only the tests the database can change. Left out: the browser tests (they drive
# the views the rest tests, and took CI past its 30 minutes run twice), the tests that
# run the club's server on an SQLite file of their own (own_database), the engine's
# (scoring/engine imports no Django), and every test that asks pytest-django for no
# database (--database-only, tests/environment.py): no database can change those.
test-database: install
	$(PY) -m pytest -n 2 --durations=15 -m "not browser and not own_database" --database-only --ignore=tests/engine

# The fast loop while working (CONTRIBUTING.md, "Tests"): no browser, no club's server
# started on a file of its own (own_database: make test runs them), only the test files
# that import the app changed: make test-fast APP=games (clubs, tournaments, seasons,
# stats, web, scoring; APP="games clubs" for two).
test-fast: install
	@[ -n "$(APP)" ] || { echo "make test-fast APP=games (or clubs, tournaments, seasons, stats, web, scoring)" >&2; exit 2; }
	$(PY) -m pytest -n 2 -q -m "not browser and not own_database" --durations=10 $(foreach app,$(APP),--app $(app))

# The browser walks again, keeping pictures of the screens they pass through in
# artifacts/screenshots/ (the README's among them) for a person to look at. make test
# takes none: a picture asserts nothing and cost a fifth of the browser suite's time.
screenshots: export PREFSCORE_SCREENSHOTS = 1
screenshots: check-tools
	@$(MAKE) --no-print-directory install node_modules
	$(PY) -m pytest -n 2 --dist worksteal -q -m browser tests/browser tests/deploy

# The page scripts' rules (static/js/*-core.js), with node's own test runner: no build step.
test-js:
	node --test tests/js/

# What the tests need from the machine: Debian's Chromium and its driver (browser tests),
# npm (axe-core, for their accessibility checks), gettext (the catalogue test),
# redis-server (tests/test_cache_redis.py, against a real server), and for the hosted
# route's test (tests/deploy/test_topology.py) Caddy, PostgreSQL 15's server and
# certutil (libnss3-tools: the phones trust Caddy's authority through it). As root
# with CI=true the missing Debian packages are installed (npm only where there is no
# Node.js: Debian's npm conflicts with a Node.js from elsewhere, as in .ci/run);
# otherwise one line says what to install, and nothing runs.
check-tools:
	@need=""; packages=""; own_node=""; \
	if [ ! -x $(CHROMIUM) ] || [ ! -x $(CHROMEDRIVER) ]; then \
		need="$$need, Chromium"; packages="$$packages chromium chromium-driver"; fi; \
	if ! command -v npm >/dev/null; then \
		need="$$need, npm (for axe-core)"; \
		if command -v node >/dev/null; then own_node="; npm with the Node.js you have"; \
		else packages="$$packages nodejs npm"; fi; fi; \
	if ! command -v xgettext >/dev/null || ! command -v msgmerge >/dev/null; then \
		need="$$need, gettext"; packages="$$packages gettext"; fi; \
	if ! command -v redis-server >/dev/null; then \
		need="$$need, redis-server (the shared cache's tests)"; packages="$$packages redis-server"; fi; \
	if [ ! -x /usr/bin/caddy ]; then need="$$need, Caddy"; packages="$$packages caddy"; fi; \
	if [ ! -x $(PG_BIN)/initdb ]; then \
		need="$$need, PostgreSQL 15"; packages="$$packages postgresql-15"; fi; \
	if [ ! -x /usr/bin/certutil ]; then \
		need="$$need, certutil"; packages="$$packages libnss3-tools"; fi; \
	[ -z "$$need" ] && exit 0; \
	if [ "$$(id -u)" = 0 ] && [ "$${CI:-}" = true ] && [ -z "$$own_node" ] \
		&& command -v apt-get >/dev/null; then \
		echo "installing:$$packages"; \
		DEBIAN_FRONTEND=noninteractive apt-get update -q \
		&& DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $$packages; \
	else \
		echo "make test needs $${need#, }: apt-get install$$packages$$own_node" >&2; \
		exit 1; \
	fi

lint: install
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	.venv/bin/lint-imports --no-cache

# The django-stubs plugin (pyproject.toml) imports the settings, which need DEBUG=1.
typecheck: install
	DEBUG=1 $(PY) -m mypy --strict scoring/engine
	DEBUG=1 $(PY) -m mypy prefscore scoring

bench: install
	@set -e; for script in bench/*.py; do \
		[ -e "$$script" ] || continue; \
		echo "== $$script"; \
		$(PY) "$$script"; \
	done

# Needs gettext. Commit the .mo too: machines without gettext use it as it is.
messages: export DEBUG = 1
messages: install
	$(PY) manage.py makemessages -l ru --add-location file --ignore .venv --ignore staticfiles --ignore node_modules
	$(PY) manage.py compilemessages -l ru --ignore .venv

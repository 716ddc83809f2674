# prefscore: make run · make test · make lint · make bench
# GNU make. Everything runs in .venv, which `make install` creates from pyproject.toml.

PYTHON ?= python3
PY := .venv/bin/python
# Reinstall only when pyproject.toml changes.
STAMP := .venv/.installed

.PHONY: .venv install node_modules run test lint typecheck bench messages

.venv install: $(STAMP)

$(PY):
	$(PYTHON) -m venv .venv

$(STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --disable-pip-version-check --quiet -e '.[dev]'
	touch $@

# axe-core for the browser tests' accessibility checks (package.json, package-lock.json).
# npm ci installs exactly the locked versions; again only when the lock file changes.
NODE_STAMP := node_modules/.package-lock.json

node_modules: $(NODE_STAMP)

$(NODE_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

run: export DEBUG = 1
run: install
	$(PY) manage.py migrate --no-input
	$(PY) manage.py load_demo
	@echo "prefscore is at http://127.0.0.1:8000 — sign in as demo / demo-pulka"
	$(PY) manage.py runserver 127.0.0.1:8000

test: install node_modules
	$(PY) -m pytest
	$(MAKE) --no-print-directory lint typecheck

lint: install
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	.venv/bin/lint-imports --no-cache

typecheck: install
	$(PY) -m mypy --strict scoring/engine

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

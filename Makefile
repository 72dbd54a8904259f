# Trumpfbuch: `make run` to try it, `make test` to check it. GNU make.
SHELL := /bin/bash
.DEFAULT_GOAL := help

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip --disable-pip-version-check
PYTEST_ARGS ?=
HOST_PORT ?= 127.0.0.1:8000
# The front-end libraries from npm, copied for the site to serve (see the vendor target).
VENDOR := static/vendor

PO := locale/de/LC_MESSAGES/django.po
MO := $(PO:.po=.mo)
# The English catalogue holds only the rules engine's German words (marked N_), in English.
EN_PO := locale/en/LC_MESSAGES/django.po

.PHONY: help venv vendor dev-venv messages translations migrate demo run test test-tools lint bench clean gettext serve

help:
	@echo "make run    - set everything up and serve http://$(HOST_PORT)"
	@echo "make test   - run the test suite (PYTEST_ARGS=\"-k foo\" to narrow it)"
	@echo "make lint   - ruff over the whole tree"
	@echo "make translations - collect new strings into $(PO)"
	@echo "make bench  - the benchmark"
	@echo "make clean  - remove the venv and build artefacts (keeps db.sqlite3)"

# The venv is (re)installed only when a requirements file changed: stamp files.
$(PY):
	$(PYTHON) -m venv $(VENV)

$(VENV)/.runtime-installed: requirements.txt | $(PY)
	$(PIP) install -q -r requirements.txt
	touch $@

$(VENV)/.dev-installed: requirements-dev.txt requirements.txt $(VENV)/.runtime-installed
	$(PIP) install -q -r requirements-dev.txt
	touch $@

venv: $(VENV)/.runtime-installed

dev-venv: $(VENV)/.dev-installed

# System tools from Debian's packages: msgfmt (gettext) for the translations; for the tests
# also chromium (the browser tests, driven by Playwright) and pdftoppm (poppler-utils: the
# sheet tests keep page 1 of each PDF as PNG). Installed with apt-get when run as root;
# otherwise the exact command to run is printed and make stops.
define need_debian
	@missing=""; for pair in $(1); do cmd=$${pair%%:*}; pkg=$${pair#*:}; \
	  command -v $$cmd >/dev/null 2>&1 || missing="$$missing $$pkg"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing from Debian:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	  else \
	    echo "missing:$$missing. Please run: sudo apt-get install$$missing" >&2; exit 1; \
	  fi; \
	fi
endef

gettext:
	$(call need_debian,msgfmt:gettext)

test-tools: node_modules/.installed $(VENDOR)/.copied
	$(call need_debian,msgfmt:gettext chromium:chromium pdftoppm:poppler-utils)

# axe-core (pinned in package.json / package-lock.json): the browser tests inject it into every
# page for the accessibility walk; installed once from the lock file, never fetched by a test.
node_modules/.installed: package.json package-lock.json
	$(call need_debian,npm:npm)
	npm ci --no-audit --no-fund --silent
	touch $@

# The front-end libraries, pinned in package.json: htmx (every page), and the offline pack's
# Pyodide (the rules engine in the browser), Workbox (the service worker) and idb (the queue
# in IndexedDB), copied from
# node_modules into static/vendor/ (git-ignored); served by the site itself, never a CDN.
# Pyodide's standard library is written trimmed to the modules the rules and Pyodide's start
# import (protocol/offline/stdlib.txt), compiled to bytecode by Pyodide's Python in node
# (bytecode.mjs): the phone starts Python without compiling them. stdlib.py writes it the same,
# byte for byte, each time.
PYODIDE_FILES := pyodide.mjs pyodide.asm.mjs pyodide.asm.wasm pyodide-lock.json
STDLIB := protocol/offline/stdlib.py protocol/offline/stdlib.txt protocol/offline/bytecode.mjs
WORKBOX_MODULES := sw core routing strategies precaching expiration cacheable-response

$(VENDOR)/.copied: node_modules/.installed $(STDLIB)
	rm -rf $(VENDOR) && mkdir -p $(VENDOR)/htmx $(VENDOR)/pyodide $(VENDOR)/workbox $(VENDOR)/idb
	cp node_modules/htmx.org/dist/htmx.min.js $(VENDOR)/htmx/htmx.min.js
	cp $(addprefix node_modules/pyodide/,$(PYODIDE_FILES)) $(VENDOR)/pyodide/
	$(PYTHON) protocol/offline/stdlib.py node_modules/pyodide/python_stdlib.zip $(VENDOR)/pyodide/python_stdlib.zip
	for m in $(WORKBOX_MODULES); do cp node_modules/workbox-$$m/build/workbox-$$m.prod.js $(VENDOR)/workbox/ 2>/dev/null \
	  || cp node_modules/workbox-$$m/build/workbox-$$m.js $(VENDOR)/workbox/; done
	cp node_modules/idb/build/index.js $(VENDOR)/idb/index.js
	touch $@

vendor: $(VENDOR)/.copied

$(MO): $(PO) $(EN_PO) | $(VENV)/.runtime-installed
	@$(MAKE) --no-print-directory gettext
	$(PY) manage.py compilemessages -l de -l en --ignore=$(VENV)
	@touch $@

messages: $(MO)

translations: venv gettext
	$(PY) manage.py makemessages -l de --no-location --ignore=$(VENV) --ignore=staticfiles

# createcachetable: the table of CACHE_URL=db:// (does nothing for the other caches).
migrate: venv
	$(PY) manage.py migrate --noinput
	$(PY) manage.py createcachetable

# load_demo skips when the demo club exists, so this is safe on every run.
demo: migrate
	$(PY) manage.py load_demo

# The web process and, beside it, a worker for the background jobs (exports, imports, long
# sheets): db_worker (TASKS_BACKEND=database), rqworker (=rq) or none (=immediate); and the
# housekeeping that enqueues the daily backup and the removal of old jobs. All stop together (Ctrl-C).
WORKER = case "$${TASKS_BACKEND:-database}" in \
	  database) $(PY) manage.py db_worker $(1) & worker=$$!;; \
	  rq) $(PY) manage.py rqworker --job-class django_tasks_rq.Job default & worker=$$!;; \
	  *) worker="";; esac; \
	$(PY) manage.py housekeeping & keeper=$$!; \
	trap 'kill $$worker $$keeper 2>/dev/null; wait $$worker $$keeper' EXIT

run: venv vendor messages migrate demo
	$(call WORKER,--no-reload); $(PY) manage.py runserver $(HOST_PORT)

# Two passes: everything but the browser on both cores (pytest-xdist, TEST_JOBS=1 for one), then
# the browser tests, two at a time as well (each worker its own chromium, live server and
# database): one at a time they took 15 minutes of each database's run. A pass that PYTEST_ARGS
# leaves empty (pytest's exit 5) is fine; both empty is an error.
TEST_JOBS ?= 2
test: test-tools dev-venv messages
	@$(PY) -m pytest -m "not browser" -n $(TEST_JOBS) $(PYTEST_ARGS); first=$$?; \
	  [ $$first = 0 ] || [ $$first = 5 ] || exit $$first; \
	  $(PY) -m pytest -m browser -n $(TEST_JOBS) $(PYTEST_ARGS); second=$$?; \
	  [ $$second = 0 ] || { [ $$second = 5 ] && [ $$first = 0 ]; } || exit $$second

# ruff, pinned in requirements-dev.txt, configured in ruff.toml; .ci/run runs it first.
lint: dev-venv
	$(VENV)/bin/ruff check .

# The benchmark (bench/run.py): standings, saving a Spiel, the sheet, the spreadsheet against
# their floors on SQLite and, with DATABASE_URL=postgres://..., on PostgreSQL with a load test.
# Prints a table and writes bench/results.json. BENCH_ARGS="--federation-matches 1550" etc.
BENCH_ARGS ?=
bench: dev-venv messages
	$(PY) bench/run.py $(BENCH_ARGS)

clean:
	rm -rf $(VENV) $(VENDOR) staticfiles .pytest_cache .hypothesis htmlcov test-results artefacts node_modules
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
	find locale -name '*.mo' -delete

# Production-style serving: gunicorn + whitenoise on the loopback; settings from the
# environment (see README, "Betrieb"). SERVE_WORKERS=4 for more processes. One background
# worker runs beside gunicorn; more run with `manage.py db_worker` on any host.
SERVE_WORKERS ?= 2
serve: venv vendor messages migrate
	$(PY) manage.py collectstatic --noinput -v0
	$(call WORKER,--no-reload --verbosity 1); \
	  $(VENV)/bin/gunicorn config.wsgi --bind $(HOST_PORT) --workers $(SERVE_WORKERS) --access-logfile -

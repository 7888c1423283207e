# Card games: everyday commands. Needs only GNU make and Python 3.11+.
#
#   make run     serve the site on http://127.0.0.1:8000 (SQLite, in-memory channel layer, two
#                bot workers), and to the other devices of the network (friends on the same Wi-Fi)
#   make dev     the same with Django's debug pages and code reloading, for developers
#   make test    lint, format check, import layers and the whole test suite
#   make bench   engine benchmarks, a short arena, table latency, a short load test
#   make lint    ruff check
#   make format  ruff format + ruff check --fix

PYTHON ?= python3
VENV ?= .venv
HOST ?= 0.0.0.0
PORT ?= 8000
# Bot workers (processes that play the computer's moves) beside the web server.
BOTS ?= 2
# The pytest-xdist workers of `make test`: the browser and server tests mostly wait on real
# pacing, so two workers halve the run on a two-core machine.
TEST_WORKERS ?= 2

PY := $(VENV)/bin/python
BIN := $(VENV)/bin

.DEFAULT_GOAL := help
.PHONY: help run dev test bench lint format compilemessages messages migrate venv system-packages

help:
	@echo "make run              serve the site on http://127.0.0.1:$(PORT)"
	@echo "make dev              the same with debug pages and code reloading (developers)"
	@echo "make test             ruff check, ruff format --check, pytest"
	@echo "make bench            benchmarks and a short load test, into bench-report.txt"
	@echo "make lint / format    ruff check / ruff format"
	@echo "make compilemessages  compile locale/*/LC_MESSAGES/*.po (no GNU gettext needed)"
	@echo "make messages         update the fr, it and ro catalogs from the code (needs GNU gettext)"

# The virtualenv; the project is (re)installed only when pyproject.toml changes.
$(PY):
	$(PYTHON) -m venv $(VENV)

venv: $(PY)

$(VENV)/.installed-run: pyproject.toml | $(PY)
	$(PY) -m pip install --upgrade --quiet pip
	$(PY) -m pip install -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(PY)
	$(PY) -m pip install --upgrade --quiet pip
	$(PY) -m pip install -e '.[test]'
	touch $@ $(VENV)/.installed-run $(VENV)/.installed-bench

# The tools under tools/ need the bench extra (websockets, psutil); the test extra includes it.
$(VENV)/.installed-bench: pyproject.toml | $(PY)
	$(PY) -m pip install --upgrade --quiet pip
	$(PY) -m pip install -e '.[bench]'
	touch $@ $(VENV)/.installed-run

# Translation catalogs: compiled with polib when there are any, otherwise nothing happens.
compilemessages: $(VENV)/.installed-run
	@if [ -n "$$(find locale -name '*.po' 2>/dev/null)" ]; then \
		$(PY) manage.py compilepo; \
	else \
		echo "No .po catalogs under locale/: nothing to compile."; \
	fi

# Update the catalogs with the strings marked in templates and Python (GNU gettext's xgettext and
# msgmerge needed). New strings arrive untranslated; tests/web/test_translations.py fails until every
# one is translated, with no fuzzy entry left.
MESSAGES_LANGUAGES := -l fr -l it -l ro
MESSAGES_IGNORE := -i '.venv/*' -i 'tests/*' -i 'staticfiles/*' -i 'test-results/*'
messages: $(VENV)/.installed-run
	$(PY) manage.py makemessages $(MESSAGES_LANGUAGES) --no-location --no-obsolete $(MESSAGES_IGNORE)

migrate: $(VENV)/.installed-run
	$(PY) manage.py migrate --noinput

# A secret key of this clone's own, made once (make run serves with DEBUG off, which needs one).
.secret-key:
	@$(PYTHON) -c "import secrets; print(secrets.token_urlsafe(50))" > $@

# Players' pages (DEBUG off: the site's own error pages), over plain HTTP, for any host name, so
# that the other devices of a home network can play too.
run: compilemessages migrate .secret-key
	@echo "Serving on http://127.0.0.1:$(PORT)/ (Ctrl-C to stop)"
	@lan="$$(hostname -I 2>/dev/null | cut -d' ' -f1)"; \
		if [ -n "$$lan" ] && [ "$(HOST)" = "0.0.0.0" ]; then \
			echo "Other devices on this network: http://$$lan:$(PORT)/"; fi
	DEBUG=0 HTTPS=0 ALLOWED_HOSTS='*' SECRET_KEY="$$(cat .secret-key)" \
		WEB_HOST=$(HOST) WEB_PORT=$(PORT) PATH="$(abspath $(BIN)):$$PATH" \
		$(BIN)/honcho -e /dev/null -f Procfile start -c bots=$(BOTS) web bots

# Developers: Django's debug pages and a server that reloads on code changes, on this machine.
dev: compilemessages migrate
	WEB_HOST=127.0.0.1 WEB_PORT=$(PORT) PATH="$(abspath $(BIN)):$$PATH" \
		$(BIN)/honcho -e /dev/null -f Procfile start -c bots=1 dev bots

# The Debian packages the browser and catalog tests need (scripts/system-packages).
system-packages:
	@scripts/system-packages

# Runs every step even when one fails, so that one run reports everything; fails if any did.
test: system-packages $(VENV)/.installed-test compilemessages
	@failed=""; \
	echo "$$ ruff check ."; $(BIN)/ruff check . || failed="$$failed ruff-check"; \
	echo "$$ ruff format --check ."; $(BIN)/ruff format --check . || failed="$$failed ruff-format"; \
	echo "$$ lint-imports"; $(BIN)/lint-imports || failed="$$failed lint-imports"; \
	echo "$$ pytest -n $(TEST_WORKERS)"; $(PY) -m pytest -n $(TEST_WORKERS) --dist loadfile || failed="$$failed pytest"; \
	if [ -n "$$failed" ]; then echo "make test FAILED:$$failed" >&2; exit 1; fi

# The steps of `make bench`, each a Python module with its arguments.
BENCH_STEPS := "tools.durak_bench" "tools.rummy_bench" \
	"tools.arena durak medium easy --deals 50 --seed 1" "tools.tablebench --moves 200" \
	"tools.pacebench --seconds 20" "tools.loadtest --rooms 20 --duration 15 --pace 1"
BENCH_REPORT ?= bench-report.txt

# Runs every step even when one fails, so that one report holds everything; fails if any did.
# A progress line redrawn with carriage returns keeps only its last state.
bench: $(VENV)/.installed-bench
	@{ \
		failed=""; \
		echo "make bench, $$(date -u '+%Y-%m-%d %H:%M UTC'), $$(nproc) cores," \
			"load average $$(cut -d' ' -f1-3 /proc/loadavg)"; \
		for step in $(BENCH_STEPS); do \
			echo; echo "$$ python -m $$step"; \
			$(PY) -m $$step 2>&1 || failed="$$failed [$$step]"; \
		done; \
		echo; echo "load average at the end: $$(cut -d' ' -f1-3 /proc/loadavg)"; \
		if [ -n "$$failed" ]; then echo "make bench FAILED:$$failed"; fi; \
	} | sed -e "s/^.*$$(printf '\r')//" | tee $(BENCH_REPORT)
	@echo "(written to $(BENCH_REPORT))"
	@! grep -q "^make bench FAILED" $(BENCH_REPORT)

lint: $(VENV)/.installed-test
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: $(VENV)/.installed-test
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

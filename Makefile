# Card games: everyday commands. Needs only GNU make and Python 3.11+.
#
#   make run     serve the site on http://127.0.0.1:8000 (SQLite, in-memory channel layer)
#   make test    lint, format check and the whole test suite
#   make bench   the engine benchmarks and the table latency benchmark
#   make lint    ruff check
#   make format  ruff format + ruff check --fix

PYTHON ?= python3
VENV ?= .venv
HOST ?= 127.0.0.1
PORT ?= 8000

PY := $(VENV)/bin/python
BIN := $(VENV)/bin

.DEFAULT_GOAL := help
.PHONY: help run test bench lint format compilemessages messages migrate venv

help:
	@echo "make run              serve the site on http://$(HOST):$(PORT)"
	@echo "make test             ruff check, ruff format --check, pytest"
	@echo "make bench            engine benchmarks and the table latency benchmark"
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

run: compilemessages migrate
	@echo "Serving on http://$(HOST):$(PORT)/ (Ctrl-C to stop)"
	$(BIN)/daphne -b $(HOST) -p $(PORT) cardgames.asgi:application

# Runs all three steps even when one fails, so that one run reports everything; fails if any did.
test: $(VENV)/.installed-test compilemessages
	@failed=""; \
	echo "$$ ruff check ."; $(BIN)/ruff check . || failed="$$failed ruff-check"; \
	echo "$$ ruff format --check ."; $(BIN)/ruff format --check . || failed="$$failed ruff-format"; \
	echo "$$ pytest"; $(PY) -m pytest || failed="$$failed pytest"; \
	if [ -n "$$failed" ]; then echo "make test FAILED:$$failed" >&2; exit 1; fi

bench: $(VENV)/.installed-run
	$(PY) -m durak.bench
	$(PY) -m rummy.bench
	$(PY) -m durak.tablebench

lint: $(VENV)/.installed-test
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: $(VENV)/.installed-test
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

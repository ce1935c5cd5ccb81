# Two commands on a fresh machine: `make serve` and `make test`. Each installs what it needs
# into .venv first (pinned versions from pyproject.toml, installed with uv, compiled to bytecode
# at install so that the first `make serve` shows its first page without compiling thousands of
# modules first, and with the simulator's loop compiled by `python -m tutor warm`, so that the
# first simulation after an install does not spend seconds compiling).
# `make check` is the fast lane while developing: lint, types and every test not marked slow or
# browser, on two workers (CI runs `make test`, the whole suite, in one process).

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
PORT ?= 8501

.PHONY: install serve test check lint bench

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check uv==0.13.8
	$(BIN)/uv pip install --quiet --compile-bytecode -p $(BIN)/python -e '.[dev]'
	$(BIN)/python -m tutor warm
	touch $(STAMP)

install: $(STAMP)

serve: $(STAMP)
	$(BIN)/streamlit run app.py --server.port $(PORT) --browser.gatherUsageStats false

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy

test: lint
	$(BIN)/python -m pytest

# Two workers (pytest-xdist, one per core; each test file on one worker, so a module's cached
# solves and fixtures are paid once), the tests marked slow or browser left to `make test`,
# and a sample of the legality property (tests/test_legality.py reads TUTOR_FAST_LANE). mypy's
# cache (.mypy_cache) makes its second run a few seconds; the first one after a clone is slow.
check: lint
	TUTOR_FAST_LANE=1 $(BIN)/python -m pytest -q -n 2 --dist loadfile -m "not slow and not browser"

bench: $(STAMP)
	$(BIN)/python bench/engine.py

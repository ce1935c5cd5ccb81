# Two commands on a fresh machine: `make serve` and `make test`. Each installs what it needs
# into .venv first (pinned versions from pyproject.toml, installed with uv, compiled to bytecode
# at install so that the first `make serve` shows its first page without compiling thousands of
# modules first, and with the simulator's loop compiled by `python -m tutor warm`, so that the
# first simulation after an install does not spend seconds compiling).
# `make check` is the fast lane while developing: lint, types and every test not marked slow or
# browser, on two workers (CI runs `make test`, the whole suite, in one process).

# The interpreter: a 3.12 where the machine has one (scripts/python-for-venv says why not 3.11.7).
PYTHON ?= $(shell scripts/python-for-venv)
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
	$(BIN)/streamlit run serve.py --server.port $(PORT) --browser.gatherUsageStats false

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy

test: lint
	$(BIN)/python -m pytest

# Two workers (pytest-xdist, one per core) stealing work from each other: each starts on its half
# of the tests in file order, so a module's cached solves and fixtures are mostly paid once, and the
# one that finishes first takes tests from the other's end rather than waiting for a long file.
# The tests marked slow or browser are left to `make test` (the marks stand in the test files; a
# repeated test keeps a sample in this lane: tests/marks.py `sampled`), and the legality property
# runs on a sample (tests/test_legality.py reads TUTOR_FAST_LANE). Python writes its bytecode
# here even where the shell says not to (PYTHONDONTWRITEBYTECODE): pytest's rewritten test modules
# and the project's own are then compiled once, not in each worker and subprocess of every run.
# mypy's cache (.mypy_cache) makes its second run a second or two; the first one after a clone
# takes about a minute.
check: lint
	PYTHONDONTWRITEBYTECODE= TUTOR_FAST_LANE=1 $(BIN)/python -m pytest -q -n 2 --dist worksteal \
		-m "not slow and not browser"

bench: $(STAMP)
	$(BIN)/python bench/engine.py

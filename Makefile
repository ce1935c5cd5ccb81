# Two commands on a fresh machine: `make serve` and `make test`. Each installs what it needs
# into .venv first (pinned versions from pyproject.toml, installed with uv).

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
PORT ?= 8501

.PHONY: install serve test lint bench

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check uv==0.13.8
	$(BIN)/uv pip install --quiet -p $(BIN)/python -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

serve: $(STAMP)
	$(BIN)/streamlit run app.py --server.port $(PORT) --browser.gatherUsageStats false

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy

test: lint
	$(BIN)/python -m pytest

bench: $(STAMP)
	$(BIN)/python bench/engine.py

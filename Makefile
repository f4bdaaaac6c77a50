# One entry point for everything: `make demo` and `make test` set up .venv on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: install browser demo test lint format clean judge-model

$(STAMP): pyproject.toml setup.py src/memlane/embed/engine/e5.c
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@# setup.py's engine build is optional: say here, not deep in pip's log, whether it was built
	@$(BIN)/memlane doctor
	@touch $(STAMP)

install: $(STAMP) browser

# Debian's Chromium (and a Chinese font) for the memory page's browser tests, when missing
browser:
	@sh deploy/browser.sh

demo: $(STAMP)
	$(BIN)/memlane demo  # its first line says which embedding engine runs, and why

test: $(STAMP) browser
	$(BIN)/ruff check src tests
	$(BIN)/ruff format --check src tests
	$(BIN)/mypy
	$(BIN)/pytest -n auto  # one worker per core, each with its own PostgreSQL (tests/conftest.py)

# rebuild the learned judge's weights (src/memlane/write/judge/model.npz, meaning.npz) from the train split
judge-model: $(STAMP)
	$(BIN)/memlane eval judge --train

format: $(STAMP)
	$(BIN)/ruff format src tests
	$(BIN)/ruff check --fix src tests

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache build dist src/*.egg-info

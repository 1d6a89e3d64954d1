# The two commands a newcomer needs: `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test lint bench strength clean

$(STAMP): pyproject.toml setup.py kozel/_kernel.c
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/kozel serve --host 127.0.0.1 --port 8000 --db sqlite+aiosqlite:///kozel.db

lint: $(STAMP)
	$(BIN)/ruff check kozel tests bench examples
	$(BIN)/ruff format --check kozel tests bench examples
	$(BIN)/mypy --strict kozel examples

test: lint
	$(BIN)/pytest

bench: $(STAMP)
	$(BIN)/python bench/engine.py

strength: $(STAMP)
	$(BIN)/python bench/strength.py --rounds 2000

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache

# Two entry points for a fresh Linux machine: `make run` and `make test` (see README.md).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint bench bundle demo screenshots clean

$(STAMP): pyproject.toml setup.py app/autofuse_studio/core/precision/_kernel.c
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/autofuse-studio --demo

lint: $(STAMP)
	$(BIN)/ruff check app tests packaging
	$(BIN)/mypy

test: lint
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -q

bench: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -q -s -m bench tests/bench

bundle: $(STAMP)
	$(BIN)/python packaging/build_bundle.py

screenshots: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(BIN)/python packaging/screenshots.py

demo: $(STAMP)
	$(BIN)/python -m autofuse_studio.core.demo resources/demo

clean:
	rm -rf build dist $(VENV) .pytest_cache .mypy_cache .ruff_cache

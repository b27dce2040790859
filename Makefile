# Two entry points for a fresh Linux machine: `make run` and `make test` (see README.md).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint bench bundle dist demo screenshots tour clean system-deps

# The venv, and then the app, need system packages (Python's venv, the Qt runtime): checked before anything
# else (milliseconds when present), installed when run as root, else the exact apt-get command is named.
system-deps:
	@PYTHON="$(if $(wildcard $(BIN)/python),$(BIN)/python,$(PYTHON))" sh packaging/system_deps.sh

$(STAMP): pyproject.toml setup.py app/autofuse_studio/core/precision/_kernel.c app/autofuse_studio/core/att/_linescan.c \
		app/autofuse_studio/core/dumps/_mapguard.c app/autofuse_studio/core/dumps/_rawscan.c \
		app/autofuse_studio/core/dumps/_statsscan.c \
		app/autofuse_studio/core/reports/_rowjoin.c \
		app/autofuse_studio/core/precision/_transform.c | system-deps
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	# The cluster extra too: CI and `make test` run the Dask tests against a real local scheduler and workers.
	$(BIN)/python -m pip install --quiet -e '.[dev,cluster]'
	touch $(STAMP)

run: system-deps $(STAMP)
	$(BIN)/autofuse-studio --demo

lint: $(STAMP)
	$(BIN)/ruff check app tests packaging
	$(BIN)/mypy

test: system-deps lint
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -q

bench: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -q -s -m bench tests/bench

bundle: $(STAMP)
	$(BIN)/python packaging/build_bundle.py

# The bundle as dist/autofuse-studio-<version>-linux-<arch>.tar.gz, plus the wheel and sdist.
dist: $(STAMP)
	$(BIN)/python packaging/make_dist.py

screenshots: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(BIN)/python packaging/screenshots.py

# Every view at 1280x720 and 1600x1000, English and Chinese, into /tmp/autofuse-tour (look at them all);
# only the contact sheet goes into the repository.
tour: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(BIN)/python packaging/screenshots.py --tour /tmp/autofuse-tour \
		--sheet docs/images/tour-contact-sheet.png

demo: $(STAMP)
	$(BIN)/python -m tests.synth.demo resources/demo

clean:
	rm -rf build dist $(VENV) .pytest_cache .mypy_cache .ruff_cache

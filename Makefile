# kgrade — the README's commands. Each target sets up what it needs on a fresh machine.
SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
PYTHON ?= python3
TORCH_VERSION ?= 2.13.0
STAMP := $(VENV)/.kgrade-installed

.PHONY: help setup sysdeps test test-fast lint typecheck serve clean

help:
	@echo "make serve   set up and start kgrade on http://127.0.0.1:8000 (embedded default)"
	@echo "make test    set up and run the whole test suite"
	@echo "make lint    ruff + mypy + import contracts + alembic check (PostgreSQL, SQLite)"

# OS packages: bubblewrap is the sandbox. Installed only where missing, only as root.
sysdeps:
	@command -v bwrap >/dev/null || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq bubblewrap; \
	  else echo "bubblewrap is missing: sudo apt-get install bubblewrap" >&2; exit 1; fi; }

$(STAMP): pyproject.toml
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	$(PIP) install -q --upgrade pip
	# torch first and pinned: a CPU build where that is what the machine has, so that
	# nothing below pulls a multi-GB CUDA wheel.
	$(PIP) install -q "torch==$(TORCH_VERSION)"
	$(PIP) install -q -e ".[dev]"
	touch $(STAMP)

setup: sysdeps $(STAMP)

test: setup
	bash .ci/services.sh
	$(VENV)/bin/pytest -n 2 --dist loadgroup

test-fast: setup
	$(VENV)/bin/pytest -n 2 -m "not slow"

lint: setup
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check grader app
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports
	bash .ci/services.sh
	$(VENV)/bin/pytest -q -p no:cacheprovider tests/service/test_schema.py

serve: setup
	$(VENV)/bin/kgrade serve

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache

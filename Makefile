# kgrade — the README's commands. Each target sets up what it needs on a fresh machine.
SHELL := /bin/bash
# PYTHON_VERSION, TORCH_VERSION, TRITON_VERSION, …: one place for the versions, shared with the
# images (Dockerfile, Dockerfile.gpu).
include versions.env
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
PYTHON ?= python$(PYTHON_VERSION)
# torch's CPU build (no CUDA libraries); on a GPU machine outside the images:
# make setup TORCH_INDEX=$(TORCH_CUDA_INDEX)
TORCH_INDEX ?= $(TORCH_CPU_INDEX)
STAMP := $(VENV)/.kgrade-installed

.PHONY: help setup sysdeps browser test test-fast lint typecheck serve schema clean

help:
	@echo "make serve   set up and start kgrade on http://127.0.0.1:8000 (embedded default)"
	@echo "make test    set up and run the whole test suite"
	@echo "make lint    ruff + mypy + import contracts + alembic check (PostgreSQL, SQLite)"

# OS packages: bubblewrap is the sandbox. Installed only where missing, only as root.
sysdeps:
	@command -v bwrap >/dev/null || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq bubblewrap; \
	  else echo "bubblewrap is missing: sudo apt-get install bubblewrap" >&2; exit 1; fi; }

# Debian's Chromium, which the browser tests drive (tests/web). Installed where missing, as
# root; otherwise the line to run is printed, and the browser tests are skipped (listed at the
# end of the test summary; with KGRADE_REQUIRE_BROWSER=1, as in CI, the run then fails).
browser:
	@[ -x /usr/bin/chromium ] || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq chromium; \
	  else echo "Chromium is missing, so the browser tests will be skipped: sudo apt-get install chromium" >&2; fi; }

$(STAMP): pyproject.toml versions.env
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	$(PIP) install -q --upgrade pip
	# torch first, pinned, from the CPU build's index, so that nothing below pulls a
	# multi-GB CUDA wheel; Triton pinned beside it. (One retry: where that index cannot be
	# reached, pip's other configured sources answer without a minute of retries.)
	$(PIP) install -q --retries 1 --index-url "$(TORCH_INDEX)" "torch==$(TORCH_VERSION)"
	$(PIP) install -q -e ".[dev]" "torch==$(TORCH_VERSION)" "triton==$(TRITON_VERSION)"
	touch $(STAMP)

setup: sysdeps $(STAMP)

test: setup browser
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

# checkpoint.toml's JSON schema, from grader.models.CheckpointDef (docs/CHECKPOINTS.md)
schema: setup
	$(PY) -c "from grader.authoring import json_schema; print(json_schema(), end='')" > docs/checkpoint.schema.json

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache

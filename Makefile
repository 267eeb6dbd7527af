# Project tasks. The venv is (re)built only when pyproject.toml changes.
SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c

PYTHON_BOOT := $(shell command -v python3.11 2>/dev/null || command -v python3)
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
STAMP := $(VENV)/.stamp
TORCH_PIN := torch==2.13.0

.PHONY: venv test lint demo fuzz bench clean

venv: $(STAMP)

# torch goes in first and alone: pip finds the pinned 2.13.0 CPU wheel on disk
# (find-links); an unpinned torch would pull GBs of CUDA packages.
$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON_BOOT) -m venv $(VENV)
	$(PIP) install --upgrade pip
	$(PIP) install $(TORCH_PIN)
	$(PIP) install -e '.[dev]'
	touch $(STAMP)

test: $(STAMP)
	$(VENV)/bin/ruff check .
	$(PY) -m pytest -n 2

lint: $(STAMP)
	$(VENV)/bin/ruff check .

demo: $(STAMP)
	$(PY) -m evaluation.demo

fuzz: $(STAMP)
	$(PY) -m evaluation.fuzz --game strike_force_one --games 10000
	$(PY) -m evaluation.fuzz --game lost_and_found --games 5000

bench: $(STAMP)
	$(PY) -m evaluation.bench

clean:
	rm -rf $(VENV)

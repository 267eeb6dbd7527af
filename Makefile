# Project tasks. The venv is (re)built only when pyproject.toml changes.
SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c

PYTHON_BOOT := $(shell command -v python3.11 2>/dev/null || command -v python3)
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
STAMP := $(VENV)/.stamp
TORCH_PIN := torch==2.13.0

.PHONY: venv test lint demo fuzz bench strength train-shipped clean

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

# The strength bars of the shipped models: 400 games per ordered pairing (so per side).
strength: $(STAMP)
	$(VENV)/bin/fof evaluate --game strike_force_one --agents random heuristic ppo --games 400 --workers 2 --seed 7 --out reports/strength-strike_force_one --no-records
	$(VENV)/bin/fof evaluate --game lost_and_found --agents random heuristic ppo --games 400 --workers 2 --seed 7 --out reports/strength-lost_and_found --no-records
	$(VENV)/bin/fof evaluate --game strike_force_one --agents random heuristic mcts:100 ppo --games 40 --workers 2 --seed 8 --out reports/mcts-strike_force_one --no-records
	$(VENV)/bin/fof evaluate --game lost_and_found --agents random heuristic mcts:100 ppo --games 40 --workers 2 --seed 8 --out reports/mcts-lost_and_found --no-records

clean:
	rm -rf $(VENV)

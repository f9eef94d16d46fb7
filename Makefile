# Two commands set everything up: `make test` and `make play`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: test play lint typecheck pytest bench clean fuzz sweep test-network

SEED  ?= 1
JOBS  ?= 0

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

test: $(STAMP) lint typecheck pytest

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy

pytest: $(STAMP)
	$(BIN)/pytest

play: $(STAMP)
	$(BIN)/ombre play $(or $(RULESET),quadrille)

# The network test (build and install the wheel from PyPI in a fresh venv), deselected by default.
test-network: $(STAMP)
	$(BIN)/pytest -m network

# N mutated rule files and N mutated records; each failure saved as a minimal reproducer.
fuzz: $(STAMP)
	$(BIN)/python -m tests.fuzz --rules $(or $(N),10000) --records $(or $(N),10000) --seed $(SEED) --jobs $(JOBS) --out fuzz-failures

# N random and heuristic deals over every ruleset, variant and option value, on every core.
sweep: $(STAMP)
	$(BIN)/python tools/sweep.py -n $(or $(N),1000000) --seed $(SEED) --jobs $(JOBS)

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_load.py
	$(BIN)/python benchmarks/bench_referee.py

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache fuzz-failures

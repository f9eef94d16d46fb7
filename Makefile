# Two commands set everything up: `make test` and `make play`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: test play lint typecheck pytest bench docs playthroughs clean serve browser fuzz sweep test-network

SEED  ?= 1
JOBS  ?= 0

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,web,openspiel]'
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

serve: $(STAMP)
	$(BIN)/ombre serve $(if $(PORT),--port $(PORT))

# Debian's Chromium and its driver for the browser tests (tests/web); they skip without them.
browser:
	@if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; then echo "chromium and chromedriver are installed"; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null; \
	else echo "make browser: run as root on Debian (apt-get install chromium chromium-driver); the browser tests will be skipped"; fi
playthroughs: $(STAMP)
	$(BIN)/python tools/gen_playthroughs.py

docs: $(STAMP)
	$(BIN)/python tools/gen_docs.py

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_load.py
	$(BIN)/python benchmarks/bench_referee.py
	$(BIN)/python benchmarks/bench_simulate.py
	$(BIN)/python benchmarks/bench_docs.py
	$(BIN)/python benchmarks/bench_web.py
	$(BIN)/python benchmarks/bench_startup.py

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache fuzz-failures

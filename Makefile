# Two commands set everything up: `make test` and `make play`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: test check play lint typecheck pytest pytest-all bench docs playthroughs clean serve browser fuzz sweep test-network ray fast fast-clean

SEED  ?= 1
JOBS  ?= 0

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,web,openspiel]'
	touch $(STAMP)

# The quick tier: lint, types and every test a change usually needs, on both cores (at most
# about 3 minutes here). `make check` is everything (the slow tier too: sweeps, fuzz campaigns,
# the browser, property runs at full size), and is what CI runs. Each prints its parts' times.
test: $(STAMP)
	@$(BIN)/python tools/timed.py "make test" lint "$(MAKE) -s lint" types "$(MAKE) -s typecheck" tests "$(MAKE) -s pytest"

check: $(STAMP)
	@$(BIN)/python tools/timed.py "make check" lint "$(MAKE) -s lint" types "$(MAKE) -s typecheck" tests "$(MAKE) -s pytest-all"

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy

# XDIST: how many workers (both cores by default; XDIST=0 runs in one process).
XDIST ?= auto
# The compiled modules (and pytest's rewritten test modules) are kept in .venv/pycache, even
# where PYTHONDONTWRITEBYTECODE is set: without them every worker compiles every module anew
# (about 7 of the 15 seconds it takes to collect the suite).
PYTEST := env -u PYTHONDONTWRITEBYTECODE PYTHONPYCACHEPREFIX=$(CURDIR)/$(VENV)/pycache $(BIN)/pytest
pytest: $(STAMP)
	$(PYTEST) -n $(XDIST) -m "not slow and not browser and not network"

pytest-all: $(STAMP)
	$(PYTEST) -n $(XDIST)

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

# Ray, the optional extra [ray]: `ombre simulate --ray ADDRESS` plays on a cluster (docs/playing.md).
# Each node of the cluster needs the same install.
ray: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[ray]'

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

# The compiled referee: mypyc (it comes with mypy) builds engine/referee, engine/cards.py and
# engine/actions.py in place from the same sources (the extensions beside the .py files, which
# Python then imports; git ignores them). Build again after editing one of them, or clean.
# `ombre --version` says "(compiled referee)" while they are in place. Needs a C compiler.
fast: $(STAMP)
	$(BIN)/python tools/build_fast.py

# Back to the pure-Python referee: removes the extensions and build/fast.
fast-clean:
	$(PYTHON) tools/build_fast.py --clean

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_load.py
	$(BIN)/python benchmarks/bench_referee.py
	$(BIN)/python benchmarks/bench_simulate.py
	$(BIN)/python benchmarks/bench_docs.py
	$(BIN)/python benchmarks/bench_web.py
	$(BIN)/python benchmarks/bench_startup.py

clean:
	$(PYTHON) tools/build_fast.py --clean
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache fuzz-failures

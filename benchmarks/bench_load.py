"""How long loading rule files takes. Prints figures; asserts nothing.

* whole-process ``ombre --help`` (Python start-up, typer and the engine package);
* whole-process ``ombre validate`` of every rule file in ``rules/`` and ``variants/``;
* in-process read + resolve + schema + semantic checks + model + compiled tables of one
  ruleset, with a fresh :class:`engine.rules.loader.Registry` each time (the JSON Schema validator
  is built once per process and kept, as in real use), and the cold first load apart.

Run ``python benchmarks/bench_load.py [RULESET] [-n RUNS]`` (``make bench``).
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _ombre() -> list[str]:
    script = Path(sys.executable).parent / "ombre"
    if script.exists():
        return [str(script)]
    found = shutil.which("ombre")
    if found:
        return [found]
    return [sys.executable, "-c", "from engine.cli import main; main()"]


def _median_ms(action: Callable[[], object], runs: int) -> tuple[float, float]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), min(times)


def _process(args: list[str], runs: int) -> tuple[float, float]:
    def run() -> None:
        subprocess.run(args, cwd=ROOT, capture_output=True, check=True)

    run()  # warm the OS file cache and the bytecode cache
    return _median_ms(run, runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ruleset", nargs="?", default="mediateur")
    parser.add_argument("-n", "--runs", type=int, default=15)
    args = parser.parse_args()

    ombre = _ombre()
    files = len(list(ROOT.glob("rules/*.yaml"))) + len(list(ROOT.glob("variants/*.yaml")))
    baseline = _process([sys.executable, "-c", "pass"], args.runs)
    help_ = _process([*ombre, "--help"], args.runs)
    validate = _process([*ombre, "validate"], args.runs)

    # In process. The first load pays for importing jsonschema and building its validator.
    from engine.rules.loader import Registry
    from engine.rules.model import build_ruleset

    def load() -> object:
        registry = Registry()
        entry = registry.find(args.ruleset)
        assert entry is not None, f"no ruleset {args.ruleset!r}"
        ruleset = build_ruleset(registry.resolve(entry))
        return ruleset.tables()

    start = time.perf_counter()
    load()
    cold = (time.perf_counter() - start) * 1000
    warm = _median_ms(load, args.runs)

    rows = [
        ("python -c pass", baseline),
        ("ombre --help", help_),
        (f"ombre validate ({files} files)", validate),
        (f"load {args.ruleset}, first in process", (cold, cold)),
        (f"load {args.ruleset}, fresh registry", warm),
    ]
    print(f"runs per figure: {args.runs} (median ms, min in brackets)")
    for label, (median, best) in rows:
        print(f"{label:<40}{median:8.1f} ms  ({best:.1f})")


if __name__ == "__main__":
    main()

"""How fast the command line starts: ``ombre --help`` and ``ombre validate FILE`` against the
interpreter's own start (``python -c pass``), best of N runs each (a hyperfine-like loop).

    python benchmarks/bench_startup.py [--runs 10] [--root DIR]

``--root`` times another checkout of the engine (``python -m engine`` from there), e.g. the
commit before a change, so that before and after are measured in one run on one machine.
Prints figures; it is not a test (issue 17's targets: validate at most 4x, --help at most 2x).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def best(cmd: list[str], runs: int, cwd: Path) -> float:
    """Returns the shortest wall time of ``runs`` runs of ``cmd`` (after one warm-up run)."""
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, check=False)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, check=False)
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--root", type=Path, action="append", default=None)
    args = parser.parse_args()
    roots = args.root or [ROOT]
    py = sys.executable
    base = best([py, "-c", "pass"], args.runs, ROOT)
    print(f"python -c pass                      {1000 * base:7.1f} ms")
    for root in roots:
        # ``python -m engine`` is the console script's path (help cache and all); an older
        # checkout without engine/__main__.py is timed through engine.cli.
        main = "engine" if (root / "engine" / "__main__.py").exists() else "engine.cli"
        cli = [py, "-m", main]
        rule = str(root / "rules" / "quadrille.yaml")
        label = "" if root == ROOT else f"  ({root})"
        for name, cmd in (
            ("ombre --help", [*cli, "--help"]),
            ("ombre validate rules/quadrille.yaml", [*cli, "validate", rule]),
        ):
            t = best(cmd, args.runs, root)
            print(f"{name:35s} {1000 * t:7.1f} ms  {t / base:5.2f} x{label}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

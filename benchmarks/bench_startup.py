"""How fast the command line starts: ``ombre --help`` and ``ombre validate FILE`` against the
interpreter's own start (``python -c pass``), best of N runs each (a hyperfine-like loop): the
wall time, and the CPU time (user and system), which a loaded machine inflates less.

    python benchmarks/bench_startup.py [--runs 10] [--root DIR]

``--root`` times another checkout of the engine (``python -m engine`` from there), e.g. the
commit before a change, so that before and after are measured in one run on one machine.
Prints figures; it is not a test (issue 17's targets: validate at most 4x, --help at most 2x).
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def best(cmd: list[str], runs: int, cwd: Path) -> tuple[float, float]:
    """Returns the shortest wall time and the shortest CPU time (user and system, which a
    loaded machine's waits do not inflate) of ``runs`` runs of ``cmd`` (after one warm-up
    run)."""
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, check=False)
    times = []
    cpu = []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, check=False)
        times.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return min(times), min(cpu)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--root", type=Path, action="append", default=None)
    args = parser.parse_args()
    roots = args.root or [ROOT]
    py = sys.executable
    base, base_cpu = best([py, "-c", "pass"], args.runs, ROOT)
    print(
        f"python -c pass                      {1000 * base:7.1f} ms          "
        f"CPU {1000 * base_cpu:7.1f} ms"
    )
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
            t, cpu = best(cmd, args.runs, root)
            print(
                f"{name:35s} {1000 * t:7.1f} ms  {t / base:5.2f} x  "
                f"CPU {1000 * cpu:7.1f} ms  {cpu / base_cpu:5.2f} x{label}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Benchmark: ``ombre simulate`` against the checked API it drives, and ``--jobs 1`` against 2.

The figures issue 8 asks for, in one run. Alternates, ``--repeat`` times, back to back:

* the loop of ``benchmarks/bench_referee.py`` (random complete deals through
  ``Deal.legal_actions`` and the checked ``Deal.apply``, settled, one core, in this process);
* ``ombre simulate RULESET -n N --bots random --jobs 1`` and ``--jobs 2``, as whole processes;
* the same with ``--bots heuristic`` (``--heuristic-deals``; 0 leaves it out).

Each figure is given per wall second and per CPU second. The wall rate of ``ombre simulate`` is
the one it reports (start-up excluded); its CPU rate counts every process of the run (the
workers too) less the CPU of a one-deal run (start-up: Python, the imports, the ruleset). The
machine may be shared: the CPU rates say what a free core would do, the wall rates what this
run got; compare figures from the same run only. Prints every round and the best of each;
asserts nothing.

    python benchmarks/bench_simulate.py [RULESET] [-n DEALS] [--heuristic-deals N] [--repeat R]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_load import _ombre
from bench_referee import run as referee_run

ROOT = Path(__file__).resolve().parent.parent


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def simulate(
    ombre: list[str], ruleset: str, deals: int, bots: str, jobs: int
) -> tuple[float, float]:
    """Runs ``ombre simulate``; returns the rate it reports (deals per wall second, start-up
    excluded) and the CPU seconds of all its processes."""
    args = [*ombre, "simulate", ruleset, "-n", str(deals), "--bots", bots, "--jobs", str(jobs)]
    before = _children_cpu()
    out = subprocess.run(
        [*args, "--json"], cwd=ROOT, capture_output=True, check=True, text=True
    ).stdout
    return float(json.loads(out)["deals_per_second"]), _children_cpu() - before


def referee(ruleset: str, deals: int, seed: int) -> tuple[float, float]:
    """The checked API's loop: deals per wall second and per CPU second."""
    wall, cpu = time.perf_counter(), time.process_time()
    referee_run(ruleset, deals, seed)
    return deals / (time.perf_counter() - wall), deals / (time.process_time() - cpu)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ruleset", nargs="?", default="quadrille")
    parser.add_argument("-n", "--deals", type=int, default=100_000)
    parser.add_argument("--heuristic-deals", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--referee-deals", type=int, default=20_000)
    args = parser.parse_args()
    ombre = _ombre()
    referee(args.ruleset, 300, 99)  # warm: the ruleset loaded and compiled, as in a long process
    rows: dict[str, list[float]] = {}

    def note(name: str, value: float) -> float:
        rows.setdefault(name, []).append(value)
        return value

    kinds = [("random", args.deals)]
    if args.heuristic_deals > 0:
        kinds.append(("heuristic", args.heuristic_deals))
    for k in range(args.repeat):
        wall, cpu = referee(args.ruleset, args.referee_deals, k + 1)
        line = [
            f"round {k + 1} (load {os.getloadavg()[0]:.1f}): checked API {note('api', wall):.0f}/s"
        ]
        line[-1] += f" ({note('api cpu', cpu):.0f}/CPU s)"
        _, startup = simulate(ombre, args.ruleset, 1, "random", 1)
        for bots, deals in kinds:
            for jobs in (1, 2):
                rate, cpu_s = simulate(ombre, args.ruleset, deals, bots, jobs)
                # A run whose CPU is not clearly above the start-up's has no CPU rate to tell
                # (the start-up's own noise would make it anything): -n too small.
                work = cpu_s - startup
                per_cpu = deals / work if work > 0.1 * startup else math.nan
                note(f"{bots} {jobs}", rate)
                note(f"{bots} {jobs} cpu", per_cpu)
                line.append(f"{bots} --jobs {jobs} {rate:.0f}/s ({per_cpu:.0f}/CPU s)")
        print("; ".join(line), flush=True)

    best = {
        name: max((v for v in values if not math.isnan(v)), default=math.nan)
        for name, values in rows.items()
    }
    print(f"\n{args.ruleset}: best of {args.repeat} rounds (deals per second)")
    print(
        f"  checked API (bench_referee loop)   {best['api']:8.0f} wall  {best['api cpu']:8.0f} CPU"
    )
    for bots, deals in kinds:
        one, two = best[f"{bots} 1"], best[f"{bots} 2"]
        one_cpu, two_cpu = best[f"{bots} 1 cpu"], best[f"{bots} 2 cpu"]
        print(f"  simulate --bots {bots} -n {deals}:")
        against = ""
        if bots == "random":
            against = (
                f"   {100 * one / best['api']:.0f} % of the checked API "
                f"({100 * one_cpu / best['api cpu']:.0f} % per CPU second)"
            )
        print(f"    --jobs 1 {one:8.0f} wall  {one_cpu:8.0f} CPU{against}")
        # --jobs 2 spends a little more CPU per deal than --jobs 1 (the workers' results are
        # sent to the parent); on two free cores it runs at twice its CPU rate.
        print(
            f"    --jobs 2 {two:8.0f} wall  {two_cpu:8.0f} CPU   {two / one:.2f} × --jobs 1 here; "
            f"CPU efficiency {100 * two_cpu / one_cpu:.0f} %: on two free cores "
            f"{2 * two_cpu / one_cpu:.2f} × --jobs 1"
        )


if __name__ == "__main__":
    main()

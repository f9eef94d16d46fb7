"""Benchmark: ``ombre simulate`` against the checked API it drives, back to back.

Alternates, ``--repeat`` times: the loop of ``benchmarks/bench_referee.py`` (random complete
deals through ``Deal.legal_actions`` and the checked ``Deal.apply``, one core, in process), then
``ombre simulate RULESET -n N --bots random --jobs 1`` and ``--jobs 2`` as whole processes (the
rate they report, which excludes start-up). Prints every figure and the ratios of the best runs;
asserts nothing. The machine may be shared: compare figures from the same run only.

    python benchmarks/bench_simulate.py [RULESET] [-n DEALS] [--repeat R]
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_load import _ombre
from bench_referee import run as referee_rate

ROOT = Path(__file__).resolve().parent.parent


def simulate_rate(ombre: list[str], ruleset: str, deals: int, jobs: int) -> tuple[float, float]:
    """Returns the rate the run reports (deals per wall second) and deals per CPU second."""
    args = [*ombre, "simulate", ruleset, "-n", str(deals), "--bots", "random"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(
        [*args, "--jobs", str(jobs), "--json"], cwd=ROOT, capture_output=True, check=True, text=True
    ).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return float(json.loads(out)["deals_per_second"]), deals / cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ruleset", nargs="?", default="quadrille")
    parser.add_argument("-n", "--deals", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--referee-deals", type=int, default=20_000)
    args = parser.parse_args()
    ombre = _ombre()
    rows: dict[str, list[float]] = {
        "referee": [],
        "jobs 1": [],
        "cpu 1": [],
        "jobs 2": [],
        "cpu 2": [],
    }
    for k in range(args.repeat):
        rows["referee"].append(referee_rate(args.ruleset, args.referee_deals, k + 1))
        wall1, cpu1 = simulate_rate(ombre, args.ruleset, args.deals, 1)
        wall, cpu = simulate_rate(ombre, args.ruleset, args.deals, 2)
        rows["jobs 1"].append(wall1)
        rows["cpu 1"].append(cpu1)
        rows["jobs 2"].append(wall)
        rows["cpu 2"].append(cpu)
        print(
            f"round {k + 1}: referee {rows['referee'][-1]:.0f}, simulate --jobs 1 "
            f"{wall1:.0f} ({cpu1:.0f} per CPU second), --jobs 2 {wall:.0f} deals/s "
            f"({cpu:.0f} per CPU second, all processes)",
            flush=True,
        )
    best = {name: max(values) for name, values in rows.items()}
    print(f"{args.ruleset}, random bots; best of {args.repeat} (deals/s):")
    print(f"  checked API (bench_referee loop)   {best['referee']:8.0f}")
    print(
        f"  ombre simulate --jobs 1            {best['jobs 1']:8.0f}"
        f"  ({100 * best['jobs 1'] / best['referee']:.0f} % of the checked API)"
    )
    print(
        f"  ombre simulate --jobs 2            {best['jobs 2']:8.0f}"
        f"  ({best['jobs 2'] / best['jobs 1']:.2f} × --jobs 1)"
    )
    # On a busy machine the wall-clock speed-up says little; the CPU each deal costs says how
    # far two free cores would go: twice the rate, times --jobs 2's CPU efficiency.
    efficiency = best["cpu 2"] / best["cpu 1"]
    print(
        f"  per CPU second: --jobs 1 {best['cpu 1']:.0f}, --jobs 2 {best['cpu 2']:.0f} "
        f"(efficiency {100 * efficiency:.0f} %: on two free cores about "
        f"{2 * efficiency:.2f} × --jobs 1)"
    )


if __name__ == "__main__":
    main()

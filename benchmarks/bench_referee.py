"""Benchmark: random complete deals per second, per ruleset, through the checked API.

Each deal is dealt from a seed, then every action -- auction, trumps, calls and demands, the
écart, every card, the vole decision -- is drawn at random from ``Deal.legal_actions()`` and
applied with the checked ``Deal.apply``; the deal ends with its result and settlement, and the
pot carries over as in a party. Prints figures; asserts nothing.

    python benchmarks/bench_referee.py [--deals N] [--repeat R]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from engine import load_ruleset
from engine.referee import Deal
from engine.referee.settlement import TableState


def run(ruleset: str, deals: int, seed: int) -> float:
    rules = load_ruleset(ruleset)
    rules.tables()  # compile outside the timing, as a long-lived process would
    rng = random.Random(seed)
    table = TableState()
    start = time.perf_counter()
    for i in range(deals):
        deal = Deal(rules, seed=seed * 100_003 + i, dealer=i % rules.players, table=table)
        while not deal.is_over:
            legal = deal.legal_actions()
            deal.apply(legal[int(rng.random() * len(legal))])
        table = deal.settlement.table  # type: ignore[union-attr]
    return deals / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=5000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print(
        f"random complete deals per second (checked API, one core; median of {args.repeat} runs of {args.deals})"
    )
    for ruleset in ("quadrille", "mediateur", "quadrille-a-trois", "ombre"):
        rates = [run(ruleset, args.deals, seed) for seed in range(1, args.repeat + 1)]
        print(
            f"  {ruleset:18s} {statistics.median(rates):8.0f} deals/s  (min {min(rates):.0f}, max {max(rates):.0f})"
        )


if __name__ == "__main__":
    main()

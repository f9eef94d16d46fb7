"""The bots against each other: declarer win rate, codille rate, all-pass rate, counters per deal.

For each ruleset, plays seeded runs (``engine.simulate.run``, the same as ``ombre simulate``)
with every seat of one kind, and with one seat of a kind against the others of another. The
deal passes to the right, so over a run every seat, the odd one included, holds every position
(eldest, dealer…) equally often: the seats are rotated. Prints a markdown table; asserts
nothing. The search bot is slow: it plays ``--search-deals`` deals (``--all-search-deals`` with
search bots in every seat; 0 skips): say so when quoting.

    python benchmarks/bench_bots.py [-n 2000] [--search-deals 300] [--jobs K] [RULESET …]
"""

from __future__ import annotations

import argparse
import time

from engine import load_ruleset
from engine.simulate import Setup, default_jobs, run

PAIRS = [
    ("random", None),
    ("heuristic", None),
    ("search", None),
    ("heuristic", "random"),
    ("search", "heuristic"),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rulesets", nargs="*", default=["quadrille", "ombre", "mediateur"])
    parser.add_argument("-n", "--deals", type=int, default=2000)
    parser.add_argument("--search-deals", type=int, default=300)
    parser.add_argument(
        "--all-search-deals", type=int, default=None, help="deals with search bots in every seat"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=default_jobs())
    args = parser.parse_args()
    print(
        "| ruleset | seats | deals | declarer wins | codille | all pass (forced) "
        "| counters per seat-deal | declaring: won / codille | s |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for name in args.rulesets:
        rules = load_ruleset(name)
        n = rules.players
        for kind, others in PAIRS:
            kinds = (kind,) * n if others is None else (kind,) + (others,) * (n - 1)
            deals = args.search_deals if "search" in kinds else args.deals
            if others is None and kind == "search" and args.all_search_deals is not None:
                deals = args.all_search_deals
            if deals <= 0:
                continue
            start = time.perf_counter()
            doc = run(Setup(rules, kinds, args.seed), deals, jobs=args.jobs).as_json()
            seconds = time.perf_counter() - start
            seats = f"all {kind}" if others is None else f"1 {kind} v {n - 1} {others}"
            per_bot = "; ".join(
                f"{k} {b['average_per_seat_deal']:+.2f}" for k, b in doc["by_bot"].items()
            )
            declaring = "; ".join(
                f"{k} {100 * b['declarer_win_rate']:.0f} % / {100 * b['declarer_codille_rate']:.0f} %"
                for k, b in doc["by_bot"].items()
            )
            print(
                f"| {name} | {seats} | {deals} | {100 * doc['declarer_win_rate']:.1f} % "
                f"| {100 * doc['codille_rate']:.1f} % "
                f"| {100 * doc['all_pass_rate']:.1f} % ({100 * doc['forced_rate']:.1f} %) "
                f"| {per_bot} | {declaring} | {seconds:.0f} |",
                flush=True,
            )


if __name__ == "__main__":
    main()

"""The bots against each other: declarer win rate, codille rate, all-pass rate, counters per deal.

For each ruleset, plays seeded runs (``engine.simulate.run``, the same as ``ombre simulate``)
with every seat of one kind, and with one seat of a kind against the others of another. The
deal passes to the right, so over a run every seat, the odd one included, holds every position
(eldest, dealer…) equally often: the seats are rotated. Prints a markdown table; asserts
nothing. The search bot is slow: it plays ``--search-deals`` deals (``--all-search-deals`` with
search bots in every seat; 0 skips): say so when quoting.

    python benchmarks/bench_bots.py [-n 2000] [--search-deals 400] [--jobs K] [RULESET …]
    python benchmarks/bench_bots.py --paired [--ismcts-deals 400] [--ismcts ismcts:simulations=50]
    python benchmarks/bench_bots.py --paired --rows 'search v heuristic' --search-deals 400 \
        --root ../old-checkout --root-deals 400 --jobs 1

``--paired`` measures strength instead: for each pair of kinds (X against Y) on Quadrille and
Ombre, the same seeded deals are played twice, once with X in seat 0 and Y elsewhere, once with
Y everywhere; the difference of seat 0's counters deal by deal, each deal settled on an empty
table so that the pot a run carries does not swamp it (the same cards, the deal passing
to the right so that seat 0 holds every position) is X's gain over Y, with its 95 % interval
(:func:`engine.compare.paired_ci`); and the cost: seconds per deal of each seating (CPU
seconds with ``--jobs 1``, else wall seconds). The search bot is also set against its first
plan (``--old-search search:plan=fixed``, the bot as first measured), each in seat 0 among
heuristic players, on the same deals (``--old-deals``); and, with ``--root DIR``, against the
search bot of another checkout (e.g. the commit before the change), played by that checkout's
engine in a subprocess on the first ``--root-deals`` deals, so that the old code's cost is
measured in the same run. The IS-MCTS
player is OpenSpiel's (the extra ``[openspiel]``), with its settings as ``--ismcts`` gives them;
the guided rows add ``bidding=heuristic:rollout=heuristic`` to them (the heuristic bids, the
search plays the cards, and its leaves are played out by the heuristic). The defaults, 400
paired deals a row, separate the bots (the interval printed says by how much).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from engine import load_ruleset
from engine.compare import paired_ci
from engine.referee.settlement import TableState, settle_outcome
from engine.simulate import Setup, default_jobs, run, settled_deals

PAIRS = [
    ("random", None),
    ("heuristic", None),
    ("search", None),
    ("heuristic", "random"),
    ("search", "heuristic"),
]


def _seat0(
    rules_name: str, kinds: tuple[str, ...], deals: int, seed: int, jobs: int
) -> tuple[list[int], float, float]:
    """Seat 0's counters deal by deal, the seconds per deal, and how often seat 0 declared."""
    rules = load_ruleset(rules_name)
    # With one process, the CPU time it takes (a loaded machine's waits left out); else the
    # wall time.
    clock = time.process_time if jobs == 1 else time.perf_counter
    start = clock()
    # Each deal settled on an empty table: its own counters, not the pot the run carried.
    balances, declared = [], 0
    for _, played, _ in settled_deals(Setup(rules, kinds, seed), deals, jobs=jobs):
        balances.append(settle_outcome(rules, played.outcome, TableState()).balances[0])
        declared += played.outcome.declarer == 0
    return balances, clock() - start, declared / max(1, deals)


_OTHER = """
import json, sys, time
from engine import load_ruleset
from engine.referee.settlement import TableState, settle_outcome
from engine.simulate import Setup, settled_deals
name, kind, deals, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
rules = load_ruleset(name)
kinds = (kind,) + ("heuristic",) * (rules.players - 1)
start = time.process_time()
balances = [
    settle_outcome(rules, played.outcome, TableState()).balances[0]
    for _, played, _ in settled_deals(Setup(rules, kinds, seed), deals, jobs=1)
]
print(json.dumps([balances, time.process_time() - start]))
"""


def _seat0_in(
    root: Path, rules_name: str, kind: str, deals: int, seed: int
) -> tuple[list[int], float]:
    """Seat 0's counters and the CPU time of ``kind`` in seat 0 among heuristic players, as
    the engine of another checkout ``root`` plays them (a subprocess, one job)."""
    env = {**os.environ, "PYTHONPATH": str(root), "OMBRE_NO_CACHE": "1"}
    done = subprocess.run(
        [sys.executable, "-c", _OTHER, rules_name, kind, str(deals), str(seed)],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    balances, seconds = json.loads(done.stdout)
    return balances, seconds


def paired(args: argparse.Namespace) -> None:
    """X in seat 0 against Y elsewhere, and Y everywhere, on the same deals: X's gain over Y.

    The search bot is also set against its first plan (``--old-search``, by default
    ``search:plan=fixed``: the bot as it was first measured), each in seat 0 among heuristic
    players, on the same deals.
    """
    ismcts = args.ismcts
    # IS-MCTS with the heuristic's bidding and its leaves played out by the heuristic.
    guided = f"{ismcts}:bidding=heuristic:rollout=heuristic"
    old = args.old_search
    # (X, Y, others, deals): with others None, X in seat 0 and Y elsewhere against Y
    # everywhere; else X in seat 0 against Y in seat 0, the others' kind elsewhere.
    rows: list[tuple[str, str, str | None, int]] = [
        ("heuristic", "random", None, args.deals),
        ("search", "random", None, args.search_deals),
        ("search", "heuristic", None, args.search_deals),
        (old, "heuristic", None, args.old_deals),
        ("search", old, "heuristic", args.old_deals),
        (ismcts, "random", None, args.ismcts_deals),
        (ismcts, "heuristic", None, args.ismcts_deals),
        (ismcts, "search", None, args.ismcts_deals),
        (guided, "random", None, args.ismcts_deals),
        (guided, "heuristic", None, args.ismcts_deals),
        (guided, ismcts, "heuristic", args.ismcts_deals),
    ]
    print(
        "| ruleset | X v Y | others | deals | X's gain over Y, counters per deal [95 %] "
        "| s per deal: X's seating | s per deal: Y's seating | seat 0 declares: X / Y |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    only = set(args.rows.split(",")) if args.rows else None
    for name in args.rulesets:
        n = load_ruleset(name).players
        # Each seating is played once (per number of deals), shared by the rows.
        played: dict[tuple[tuple[str, ...], int], tuple[list[int], float, float]] = {}
        for x, y, others, deals in rows:
            if deals <= 0 or (only is not None and f"{x} v {y}" not in only):
                continue
            rest = (others or y,) * (n - 1)
            for kinds in ((x, *rest), (y, *rest)):
                if (kinds, deals) not in played:
                    played[kinds, deals] = _seat0(name, kinds, deals, args.seed, args.jobs)
            with_x, tx, dx = played[(x, *rest), deals]
            with_y, ty, dy = played[(y, *rest), deals]
            e = paired_ci(zip(map(float, with_y), map(float, with_x), strict=True))
            print(
                f"| {name} | {x} v {y} | {others or y} | {deals} "
                f"| {e.value:+.2f} [{e.low:+.2f}, {e.high:+.2f}] "
                f"| {tx / deals:.4f} | {ty / deals:.4f} | {100 * dx:.0f} % / {100 * dy:.0f} % |",
                flush=True,
            )
        for root in args.root or []:
            # The search bot of another checkout (the commit before, say), in seat 0 among
            # heuristic players, against this one's on the same first deals.
            deals = args.root_deals
            kinds = ("search", *("heuristic",) * (n - 1))
            if (kinds, deals) not in played:
                played[kinds, deals] = _seat0(name, kinds, deals, args.seed, args.jobs)
            with_x, tx, _ = played[kinds, deals]
            with_y, ty = _seat0_in(root, name, "search", deals, args.seed)
            e = paired_ci(zip(map(float, with_y), map(float, with_x), strict=True))
            print(
                f"| {name} | search v search of {root} | heuristic | {deals} "
                f"| {e.value:+.2f} [{e.low:+.2f}, {e.high:+.2f}] "
                f"| {tx / deals:.4f} | {ty / deals:.4f} | |",
                flush=True,
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rulesets", nargs="*", default=["quadrille", "ombre", "mediateur"])
    parser.add_argument("-n", "--deals", type=int, default=2000)
    parser.add_argument("--search-deals", type=int, default=400)
    parser.add_argument(
        "--all-search-deals", type=int, default=None, help="deals with search bots in every seat"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=default_jobs())
    parser.add_argument("--paired", action="store_true", help="paired strength and cost")
    parser.add_argument("--ismcts-deals", type=int, default=400)
    parser.add_argument("--ismcts", default="ismcts:simulations=50")
    parser.add_argument(
        "--old-search", default="search:plan=fixed", help="the search bot to set the new against"
    )
    parser.add_argument(
        "--old-deals", type=int, default=None, help="deals of the rows with --old-search"
    )
    parser.add_argument(
        "--root",
        type=Path,
        action="append",
        help="with --paired: also the search bot of this other checkout (a subprocess)",
    )
    parser.add_argument("--root-deals", type=int, default=24)
    parser.add_argument(
        "--rows",
        help="with --paired: only these rows, comma-separated as the table names them "
        "('search v heuristic,search v search:plan=fixed'); the --root rows always",
    )
    args = parser.parse_args()
    if args.paired:
        if args.old_deals is None:
            args.old_deals = args.search_deals
        if args.rulesets == ["quadrille", "ombre", "mediateur"]:
            args.rulesets = ["quadrille", "ombre"]
        paired(args)
        return
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

"""Finds seeded bot deals that illustrate a settlement, and writes them as records.

Used once to build the golden records in tests/records/ (the test checks their figures
against the rules reference, not against this script). Example:

    python tools/find_golden.py quadrille --dealer 0 --contract ask --declarer 1 --partner 3 \
        --result win --matadors 0 --out tests/records/quadrille-win.yaml
"""

from __future__ import annotations

import argparse
from pathlib import Path

from engine import load_ruleset
from engine.bots import make_bot
from engine.records import Record, record_of, write_record
from engine.referee import Deal
from engine.referee.settlement import TableState


def find(args: argparse.Namespace, table: TableState) -> Deal:
    rules = load_ruleset(args.ruleset)
    for seed in range(args.start, args.start + 200_000):
        bots = [make_bot("heuristic", seed * 31 + k) for k in range(rules.players)]
        deal = Deal(rules, seed=seed, dealer=args.dealer, table=table, options=args.option or None)
        while not deal.is_over:
            deal.apply(bots[deal.to_move].choose(deal, deal.to_move))
        if args.result and deal.result != args.result:
            continue
        if args.contract and (deal.contract is None or deal.contract.id != args.contract):
            continue
        if args.declarer is not None and deal.declarer != args.declarer:
            continue
        if args.partner is not None and deal.partner != (
            None if args.partner < 0 else args.partner
        ):
            continue
        if args.matadors is not None and deal.paid_matadors() != args.matadors:
            continue
        if (
            args.min_declarer_tricks is not None
            and deal.declarer is not None
            and deal.won[deal.declarer] < args.min_declarer_tricks
        ):
            continue
        print(
            f"seed {seed}: {deal.result} {deal.contract.id if deal.contract else None} tricks {deal.won}"
        )
        return deal
    raise SystemExit("not found")


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("ruleset")
    p.add_argument("--dealer", type=int, default=0)
    p.add_argument("--contract")
    p.add_argument("--declarer", type=int)
    p.add_argument("--partner", type=int, help="-1 for none")
    p.add_argument("--result")
    p.add_argument("--matadors", type=int)
    p.add_argument("--min-declarer-tricks", type=int)
    p.add_argument("--start", type=int, default=0)
    p.add_argument("--option", type=lambda s: dict([s.split("=", 1)]))
    p.add_argument("--title")
    p.add_argument("--out", type=Path, required=True)
    args = p.parse_args()
    deal = find(args, TableState())
    rec = record_of([deal], load_ruleset(args.ruleset).id, party=False)
    rec = Record(rec.ruleset, rec.deals, rec.options, False, title=args.title)
    args.out.write_text(write_record(rec), encoding="utf-8")


if __name__ == "__main__":
    main()

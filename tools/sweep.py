"""The conformance sweep: many seeded deals over every ruleset, variant and option value.

``make sweep N=1000000`` (or ``python tools/sweep.py -n N``) plays N deals, split evenly over
every setup -- each ruleset and variant, each combination of its setup options, with random and
with heuristic bots -- in parties of :data:`CHUNK` deals, the pot and bêtes carrying over, on
every core (``--jobs``). Deal by deal it checks:

* the cards: the hands and the talon hold every card of the pack once; every card is played at
  most once, each trick has a card from every player, the hands are empty at the end (unless
  the side laid down) and the tricks won add up;
* the moves: every open state has a legal action, and a deal ends within a bound of moves;
* the counters: every amount is an integer, the deal starts from the pot the last one left,
  and balances plus the change of the pot sum to zero;
* the replay: every :data:`REPLAY_EVERY`-th deal is played again from its hands and its record
  lines through the checked front door, and gives the same report (result, tricks, contract,
  trump, called card, payments); its record is also written, read back and refereed by
  :func:`engine.records.replay` to the same result.

It prints deals per second and every violation with the seed that reproduces it; the exit
status is 1 if there was any.
"""

from __future__ import annotations

import argparse
import itertools
import os
import sys
import time
import traceback
from collections import Counter
from typing import Any

CHUNK = 500
REPLAY_EVERY = 25
MAX_STEPS = 2000


def setups() -> list[tuple[str, dict[str, str], str]]:
    """Returns every (ruleset id, options, bots) to sweep."""
    from engine import load_ruleset
    from engine.rules.loader import Registry

    out = []
    for rid in sorted({i for i, _, _ in Registry().files()}):
        rules = load_ruleset(rid)
        items = list(rules.options.items())
        for values in itertools.product(*(o.choices for _, o in items)):
            options = {k: v.value for (k, _), v in zip(items, values, strict=True)}
            for bots in ("random", "heuristic"):
                out.append((rid, options, bots))
    return out


def _check_deal(deal: Any, rules: Any, pot_before: int) -> list[str]:
    """Returns the violations of one finished deal."""
    problems = []
    dealt = [c for h in deal.dealt for c in h] + list(deal.dealt_talon)
    if sorted(dealt) != sorted(deal.t.deck):
        problems.append("the hands and the talon are not the pack")
    played = [c for t in deal.tricks for c in t.cards]
    if len(played) != len(set(played)):
        problems.append("a card was played twice")
    # The seats that play this deal, as the referee seats them (the seat out of a four-seat
    # Tresillo has no hand, unless he takes a contract up that every seat plays, the penetro).
    playing = deal.seating.active
    if any(len(t.cards) != playing for t in deal.tricks):
        problems.append("a trick lacks a card")
    s = deal.settlement
    if s is None or deal.result is None:
        return [*problems, "a finished deal has no result or settlement"]
    if deal.result != "redeal":
        if sum(deal.won) != len(deal.tricks):
            problems.append(f"tricks won {deal.won} do not add up to {len(deal.tricks)}")
        left = [c for seat in range(rules.players) for c in deal.hand(seat)]
        if set(left) & set(played):
            problems.append("a card played is still in a hand")
        if not deal.stopped and (left or len(deal.tricks) != rules.hand_size):
            problems.append("the deal ended with cards in hand")
    numbers = [*s.balances, s.pot_before, s.pot_after]
    if not all(type(x) is int for x in numbers):
        problems.append(f"amounts are not integers: {numbers}")
    elif rules.in_points:
        # Points are scored, not paid: each seat's score is its tariff row's and its faults'.
        expected = [0] * rules.players
        tariff = rules.points.get((deal.contract.id, deal.result)) if deal.contract else None
        if tariff is not None and deal.result != "redeal" and deal.declarer is not None:
            expected[deal.declarer] += tariff.declarer
            # A seat that sits the deal out scores nothing in a game in points.
            for seat in deal.seating.playing_opponents(deal.declarer, deal.partner):
                expected[seat] += tariff.opponents
            if deal.partner is not None:
                expected[deal.partner] += tariff.partner
            if tariff.most_tricks and deal.top_taker is not None:
                # Every seat for himself: the seat the referee names for the most tricks.
                expected[deal.top_taker] += tariff.most_tricks
        for seat, fault in deal.faults:
            expected[seat] -= rules.penalties[fault].points
        if tariff is not None and tariff.codille_winner:
            expected = list(s.balances)  # the codille's winner: the settlement's own reading
        if list(s.balances) != expected or s.pot_after != s.pot_before:
            problems.append(f"points {s.balances} are not the tariff's and the faults' {expected}")
    elif sum(s.balances) + s.pot_after - s.pot_before != 0:
        problems.append(f"counters not conserved: {s.balances}, pot {s.pot_before}->{s.pot_after}")
    if s.pot_before != pot_before:
        problems.append(f"the deal started from pot {s.pot_before}, not {pot_before}")
    return problems


_SAME = ("contract", "declarer", "partners", "trump", "called", "tricks", "tricks_won", "result")


def _check_replay(deal: Any, rules: Any) -> list[str]:
    """Plays the deal again from its hands and record lines; returns the differences."""
    from engine.actions import parse_line
    from engine.records import parse_record, record_of, replay, write_record
    from engine.referee import Deal

    problems = []
    again = Deal(
        rules,
        dealer=deal.dealer,
        hands=[[_card(c) for c in h] for h in deal.dealt],
        talon=[_card(c) for c in deal.dealt_talon],
        options=deal.options or None,
        table=deal.table,
        factor=deal.factor,  # the party's multiplier (e.g. a doubled last tour)
    )
    for line in deal.record_actions():
        seat, action = parse_line(line)
        again.apply(action, seat=seat)
    if again.report() != deal.report():
        problems.append("replayed from its record lines, the deal reports differently")
    record = record_of([deal], rules.id, party=False)
    read = parse_record(write_record(record))
    if read != record:
        problems.append("its record does not survive write and read")
    report = replay(read, rules)
    if not report.complete or report.error is not None:
        problems.append(f"its record does not replay: {report.error}")
    else:
        mine = deal.report()
        theirs = report.deals[0]
        diff = [k for k in _SAME if mine.get(k) != theirs.get(k)]
        if diff:
            problems.append(f"replayed by engine.records.replay, {', '.join(diff)} differ")
    return problems


def _card(index: int) -> str:
    from engine.cards import Card

    return str(Card.from_index(index))


def run_chunk(job: tuple[str, dict[str, str], str, int, int]) -> dict[str, Any]:
    """Plays one party of deals; returns counts and violations."""
    from engine import load_ruleset
    from engine.bots import make_bot
    from engine.referee.party import Party

    rid, options, bots, first_seed, count = job
    rules = load_ruleset(rid)
    party = Party(rules, options=options or None)
    players = [make_bot(bots, first_seed * 31 + k) for k in range(rules.players)]
    results: Counter[str] = Counter()
    violations: list[str] = []
    where = f"{rid} {options or ''} {bots}".replace("  ", " ")
    for i in range(count):
        seed = first_seed + i
        pot_before = party.table.pot
        deal = None
        try:
            deal = party.new_deal(seed=seed)
            steps = 0
            while not deal.is_over:
                if not deal.legal_actions():
                    violations.append(f"{where} seed {seed}: no legal action in {deal.phase}")
                    break
                seat = deal.to_move
                deal.apply(players[seat].choose(deal, seat), seat=seat)
                steps += 1
                if steps > MAX_STEPS:
                    violations.append(f"{where} seed {seed}: more than {MAX_STEPS} moves")
                    break
            if not deal.is_over:
                continue  # reported; the party cannot go on
            found = _check_deal(deal, rules, pot_before)
            if (seed % REPLAY_EVERY) == 0:
                found += _check_replay(deal, rules)
        except Exception:
            found = [traceback.format_exc().strip().splitlines()[-1]]
        violations.extend(f"{where} seed {seed}: {v}" for v in found)
        results[(deal.result if deal is not None else None) or "unfinished"] += 1
        if deal is None or not deal.is_over:
            break
        if len(party.deals) > 50:
            # Keep memory flat: only the table state carries over.
            party = Party(
                rules, options=options or None, table=party.table, first_dealer=party.next_dealer
            )
    return {"rid": rid, "deals": count, "results": results, "violations": violations}


def main(argv: list[str] | None = None) -> int:
    import multiprocessing

    parser = argparse.ArgumentParser(prog="tools/sweep.py", description=__doc__)
    parser.add_argument("-n", "--deals", type=int, default=1_000_000, help="deals in all")
    parser.add_argument("--seed", type=int, default=1, help="the run's seed (default 1)")
    parser.add_argument("--jobs", type=int, default=0, help="worker processes (default: cores)")
    args = parser.parse_args(argv)
    os.environ.setdefault("OMBRE_NO_CACHE", "1")
    configs = setups()
    per = max(1, args.deals // len(configs))
    jobs_list = []
    for k, (rid, options, bots) in enumerate(configs):
        base = args.seed * 1_000_000_007 + k * 10_000_000
        for start in range(0, per, CHUNK):
            jobs_list.append((rid, options, bots, base + start, min(CHUNK, per - start)))
    total = per * len(configs)
    workers = args.jobs or os.cpu_count() or 1
    print(
        f"sweep: {total} deals over {len(configs)} setups "
        f"({len({c[0] for c in configs})} rulesets and variants, every option value, random and "
        f"heuristic bots), {workers} processes, seed {args.seed}",
        flush=True,
    )
    start = time.perf_counter()
    done = 0
    results: Counter[str] = Counter()
    by_ruleset: Counter[str] = Counter()
    violations: list[str] = []
    next_report = max(total // 20, CHUNK)
    from engine.simulate import progress_bar

    tty = sys.stderr.isatty()
    with (
        progress_bar(total, "deals", enabled=tty, verb="sweeping") as bar,
        multiprocessing.get_context("fork").Pool(workers) as pool,
    ):
        for out in pool.imap_unordered(run_chunk, jobs_list):
            done += out["deals"]
            results.update(out["results"])
            by_ruleset[out["rid"]] += out["deals"]
            for v in out["violations"]:
                if len(violations) < 1000:
                    print(f"VIOLATION {v}", flush=True)
                violations.append(v)
            if bar is not None:
                bar(done)
            elif done >= next_report:
                rate = done / (time.perf_counter() - start)
                print(f"  {done}/{total} deals, {rate:.0f} deals/s", flush=True)
                next_report += max(total // 20, CHUNK)
    seconds = time.perf_counter() - start
    print(f"{done} deals in {seconds:.1f} s: {done / seconds:.0f} deals/s on {workers} processes")
    print("results: " + ", ".join(f"{k} {v}" for k, v in sorted(results.items())))
    print("per ruleset: " + ", ".join(f"{k} {v}" for k, v in sorted(by_ruleset.items())))
    print(f"replayed and compared: about {done // REPLAY_EVERY} deals")
    print(f"{len(violations)} violations")
    return 1 if violations else 0


if __name__ == "__main__":
    sys.exit(main())

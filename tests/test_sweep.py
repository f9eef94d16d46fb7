"""The conformance sweep: many seeded deals with random legal actions, for every ruleset and
variant, asserting the referee's invariants (after OpenSpiel's random-simulation test)."""

from __future__ import annotations

import random

import pytest

from engine import load_ruleset
from engine.records import parse_record, record_of, replay, write_record
from engine.referee import Deal
from engine.referee.settlement import TableState
from engine.rules.loader import Registry

# slow: a sweep of random and heuristic deals over every ruleset, variant and option.
pytestmark = pytest.mark.slow

DEALS = 500
ALL_IDS = sorted({i for i, _, _ in Registry().files()})


def _options(ruleset_id: str, k: int) -> dict[str, str]:
    rules = load_ruleset(ruleset_id)
    out = {}
    for key, option in rules.options.items():
        out[key] = option.choices[k % len(option.choices)].value
    return out


@pytest.mark.parametrize("ruleset_id", ALL_IDS)
def test_random_deals_keep_the_invariants(ruleset_id: str) -> None:
    """Every card played once, tricks add up, counters conserved, every open state can move."""
    rules = load_ruleset(ruleset_id)
    rng = random.Random(ruleset_id)
    table = TableState()
    party: list[Deal] = []
    results: set[str] = set()
    replayed = 0
    for i in range(DEALS):
        options = _options(ruleset_id, i // 50)
        if party and options != party[0].options:
            table, party = TableState(), []
        deal = Deal(rules, seed=i, dealer=i % rules.players, options=options, table=table)
        dealt = set().union(*(set(h) for h in deal.dealt)) | set(deal.dealt_talon)
        assert (
            len(dealt)
            == len(deal.t.deck)
            == sum(len(h) for h in deal.dealt) + len(deal.dealt_talon)
        )
        steps = 0
        while not deal.is_over:
            legal = deal.legal_actions()
            assert legal, f"no legal action in phase {deal.phase} ({ruleset_id}, seed {i})"
            action = legal[int(rng.random() * len(legal))]
            if action.verb in ("renonce", "notice") and rng.random() < 0.8:
                # Revokes are rare: most of the time the random player follows.
                action = next(a for a in legal if a.verb not in ("renonce", "notice"))
            deal.apply(action, seat=deal.to_move)
            steps += 1
            assert steps < 2000
        assert deal.settlement is not None and deal.result is not None
        results.add(deal.result)
        s = deal.settlement
        if rules.in_points:
            # Points are scored from the tariff, not paid between seats: nothing is conserved
            # but the table, which a game in points never touches (tools/sweep.py checks the
            # tariff's rows).
            assert s.pot_after == s.pot_before == 0
        else:
            assert sum(s.balances) + s.pot_after - s.pot_before == 0
        assert s.pot_before == table.pot
        played = [c for t in deal.tricks for c in t.cards]
        assert len(played) == len(set(played))
        if deal.result != "redeal":
            assert len(deal.tricks) == rules.hand_size or deal.stopped
            assert sum(deal.won) == len(deal.tricks)
            left = set().union(*(set(deal.hand(s)) for s in range(rules.players)))
            assert not left & set(played)
            if not deal.stopped:
                assert not left
            for trick in deal.tricks:
                assert len(trick.cards) == deal.active  # a seat may sit the deal out
        table = s.table
        party.append(deal)
        if i % 23 == 0:
            # Records round-trip and replay to the same deal: the single deal is refereed
            # from an empty table, so its pot and balances may differ, nothing else.
            record = record_of([deal], rules.id, party=False)
            again = parse_record(write_record(record))
            assert again == record
            report = replay(again, rules)
            assert report.complete and report.error is None
            mine, theirs = deal.report(), report.deals[0]
            for key in ("contract", "declarer", "partners", "trump", "called", "tricks"):
                assert theirs[key] == mine[key], key
            assert theirs["tricks_won"] == mine["tricks_won"]
            assert theirs["result"] == mine["result"]
            replayed += 1
    assert results & {"win", "codille", "remise"}
    assert replayed == len(range(0, DEALS, 23))


@pytest.mark.parametrize("ruleset_id", ["quadrille", "ombre", "quadrille-a-trois", "mediateur"])
def test_party_record_replays_to_the_same_totals(ruleset_id: str) -> None:
    """A party of seeded random deals, written and replayed, gives the same results and totals."""
    rules = load_ruleset(ruleset_id)
    rng = random.Random(3)
    table = TableState()
    deals = []
    for i in range(12):
        deal = Deal(rules, seed=100 + i, dealer=i % rules.players, table=table)
        while not deal.is_over:
            deal.apply(rng.choice(deal.legal_actions()))
        assert deal.settlement is not None
        table = deal.settlement.table
        deals.append(deal)
    record = record_of(deals, rules.id)
    text = write_record(record)
    report = replay(parse_record(text), rules)
    assert report.complete and report.error is None
    assert [d["result"] for d in report.deals] == [d.result for d in deals]
    totals = [
        sum(d.settlement.balances[k] for d in deals if d.settlement) for k in range(rules.players)
    ]
    assert report.totals == totals
    assert report.deals[-1]["pot_after"] == table.pot


def test_the_sweeps_check_passes_a_penetro() -> None:
    """``tools/sweep.py`` reads the seats that play and the seat that scores the most tricks
    from the referee: a Rocambor penetro, the seat out taking it up and all four playing, is no
    violation (it had reported "a trick lacks a card" and points not the tariff's)."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
    try:
        import sweep
    finally:
        sys.path.pop(0)
    from engine.bots import make_bot

    rules = load_ruleset("tresillo-rocambor")
    for seed in range(40):
        deal = Deal(rules, seed=seed, dealer=seed % rules.players)
        bots = [make_bot("random", seed * 7 + k) for k in range(rules.players)]
        while not deal.is_over:
            offer = deal.offer
            if offer is not None:
                deal.apply(f"bid {offer.contracts[0].id}")  # the seat out takes it up
                continue
            if deal.phase == "auction" and "pass" in map(str, deal.legal_actions()):
                deal.apply("pass")  # every seat that plays passes: the penetro is offered
                continue
            seat = deal.to_move
            deal.apply(bots[seat].choose(deal, seat), seat=seat)
        if deal.contract is not None and deal.contract.id == "penetro":
            break
    else:
        raise AssertionError("no penetro in 40 seeded deals")
    assert all(len(t.cards) == 4 for t in deal.tricks)
    assert deal.settlement is not None and sum(deal.settlement.balances) > 0
    assert sweep._check_deal(deal, rules, 0) == []

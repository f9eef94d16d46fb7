"""The scorekeeper can enter every contract of every rule set, and settles it as the referee does.

For every rule file and variant of the registry and every contract it has, deals are played by
the referee (the auction steered to that contract, the rest chosen at random from the legal
actions, seeded) one after another as a party, the pot, the bêtes and the dealer carried over.
Each finished deal is written down as a scorekeeper writes it at a real table (no cards: the
contract, declarer, trumps, the card called and who held it, each seat's tricks, the matadors,
the vole and who went on for it, who won the latest trick where seats tied, the faults) and
entered in an :class:`~engine.scoresheet.Evening`; its result and every seat's balance must be
the referee's own. A new mechanism whose facts the scorekeeper cannot enter, or settles
otherwise than the referee, fails here.
"""

from __future__ import annotations

import random
from collections import defaultdict
from functools import cache

import pytest

from engine import load_ruleset
from engine.errors import IllegalActionError, NotationError
from engine.referee.auction import may_pass_out
from engine.referee.party import last_tour_factor
from engine.rules.authoring import unreachable_contracts
from engine.rules.loader import Registry
from engine.scoresheet import Evening, parse_entry
from tests.scorekeeper_helpers import steered, written_down

SEEDS = 40
"""Deals tried for each contract (the steered auction reaches most contracts at once; a
contract offered only in some deals, as the penetro when the espada lies in the talon, needs
a few)."""

QUICK = 4
"""In the quick tier, the deals steered to a contract stop once this many were played in it
(the slow tier plays every seed)."""

NOBODY = "(nobody bids)"
"""The steering of deals in which every seat passes when it may."""

RULESETS = sorted({rid for rid, _, _ in Registry().files()})


@cache
def played(rid: str, enough: int | None = None) -> dict[str, list[tuple[str, str]]]:
    """Returns, for each contract of ``rid``, the results its steered deals came to and, for
    any deal the scorekeeper refused or settled otherwise, what went wrong: :data:`SEEDS`
    deals steered to each contract, or only until ``enough`` of them ended in it."""
    rules = load_ruleset(rid)
    seen: dict[str, list[tuple[str, str]]] = defaultdict(list)
    # Each contract steered to, and deals in which nobody bids (passed out, or forced).
    for contract in (*rules.contracts, NOBODY):
        rng = random.Random(f"{rid}/{contract}")
        evening = Evening(rules)
        table = None
        reached = 0
        for seed in range(SEEDS):
            if enough is not None and reached >= enough:
                break
            if evening.over:  # a party to a target: start another
                evening, table = Evening(rules), None
            factor = last_tour_factor(rules, evening.counted)
            d = steered(
                rules,
                contract,
                rng,
                dealer=evening.next_dealer,
                seed=seed,
                table=table,
                factor=factor,
            )
            data = written_down(d)
            problem = ""
            try:
                scored = evening.score(parse_entry(data, dealer=d.dealer, n=rules.players))
            except (IllegalActionError, NotationError) as exc:  # the refusal is the finding
                problem = f"refused {data}: {exc}"
            else:
                assert d.settlement is not None
                if (scored.result, scored.settlement.balances) != (
                    d.result,
                    d.settlement.balances,
                ):
                    problem = (
                        f"{data} settled {scored.result} {list(scored.settlement.balances)}, "
                        f"the referee {d.result} {list(d.settlement.balances)}"
                    )
                table = d.settlement.table
            if problem:
                evening, table = Evening(rules), None
            key = d.contract.id if d.contract is not None and d.result != "redeal" else "passed"
            seen[key].append((str(d.result), problem))
            reached += key == contract or contract == NOBODY
    return dict(seen)


@pytest.mark.parametrize("rid", RULESETS)
def test_every_contract_is_entered_and_settled_as_the_referee_settles_it(rid: str) -> None:
    check_every_contract(rid, enough=QUICK)


# slow: SEEDS deals steered to each contract of every rule file, about 30 CPU s.
@pytest.mark.slow
@pytest.mark.parametrize("rid", RULESETS)
def test_every_contract_over_all_the_seeds(rid: str) -> None:
    check_every_contract(rid)


def check_every_contract(rid: str, enough: int | None = None) -> None:
    """The check of one rule file (an id, or a path: tests/test_authoring_examples.py runs it
    on the authoring guide's examples), over :data:`SEEDS` deals steered to each contract or
    until ``enough`` of them were played in it."""
    rules = load_ruleset(rid)
    seen = played(rid, enough)
    # A contract no deal can be played in is a warning of ombre validate, not a failure here.
    unplayable = set(unreachable_contracts({"auction": rules.value_at(("auction",))}))
    missing = [c for c in (*rules.contracts, "passed") if not seen.get(c) and c not in unplayable]
    if not may_pass_out(rules):
        missing.remove("passed")
    assert not missing, f"{rid}: no deal of {missing} was played in {SEEDS} tries"
    wrong = [f"{c}: {p}" for c, deals in seen.items() for _, p in deals if p]
    assert not wrong, "\n".join(wrong[:5])


def test_the_deals_reach_the_living_familys_results() -> None:
    # The steering reaches what the new mechanisms end in: the penetro, the contrabola made
    # and failed, the nolos and the tout, and results of the Danish points.
    results = {
        (rid, c, r)
        for rid in ("tresillo-rocambor", "dansk-lhombre")
        for c, deals in played(rid).items()
        for r, _ in deals
    }
    for wanted in (
        ("tresillo-rocambor", "penetro", "penetro"),
        ("tresillo-rocambor", "contrabola", "contrabola-failed"),
        ("dansk-lhombre", "nolo-ouvert", "codille"),
        ("dansk-lhombre", "kobe-nolo", "remise"),
    ):
        assert wanted in results, wanted

"""``simulate --against`` compares the same deals: a deal passed out and redealt in one arm is
out of both arms' roles and declarer's wins, and counted in its own row in both."""

from __future__ import annotations

from engine.compare import DealOutcome, compare, render_text
from engine.rules import load_ruleset


def _deal(index: int, declarer: int | None, balances: tuple[int, ...]) -> DealOutcome:
    return DealOutcome(
        index=index,
        result="win" if declarer is not None else "redeal",
        contract="ask" if declarer is not None else None,
        declarer=declarer,
        partner=None,
        balances=balances,
        bete=0,
        vole_undertaken=False,
        won=declarer is not None,
        vole_made=False,
    )


def _player(redealt: set[int]):  # type: ignore[no-untyped-def]
    def play(rules, options, deals, seed, bots, *, jobs=1, blocks=None):  # type: ignore[no-untyped-def]
        out = []
        for i in range(deals):
            if rules.id == "quadrille" and i in redealt:
                out.append(_deal(i, None, (0, 0, 0, 0)))
            else:
                out.append(_deal(i, i % 4, tuple(6 if s == i % 4 else -2 for s in range(4))))
        return out

    return play


def test_a_deal_redealt_in_one_arm_is_out_of_both_arms_roles() -> None:
    rules = load_ruleset("quadrille")
    other = load_ruleset("quadrille-four-trick-bete")
    report = compare(rules, other, 40, player=_player({3, 7, 11}), confirm=False).report()
    a, b = report.rulesets
    for role in ("declarer", "defender"):
        assert a.average_by_role[role].n == b.average_by_role[role].n
        assert a.average_by_role[role].n == report.difference.average_by_role[role].n
    assert a.average_by_role["declarer"].n == 37
    assert a.declarer_won.n == b.declarer_won.n == 37
    assert a.redealt.n == b.redealt.n == 40
    assert a.redealt.value > 0 and b.redealt.value == 0
    assert report.difference.redealt.value < 0


def test_the_second_run_check_is_in_words() -> None:
    report = compare(
        load_ruleset("quadrille"), load_ruleset("quadrille-four-trick-bete"), 60, seed=1
    ).report()
    text = render_text(report)
    assert "average_by_role" not in text and "contracts_played" not in text
    assert "passed out, redealt" in text

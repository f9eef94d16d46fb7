"""A defender's vole (issue 16, mechanism 10): ``vole.by: any-seat``, built from the online
Rocambor's rule tests (``roc-online-code``), in ``variants/tresillo-rocambor.yaml``:
"implied bola is not restricted to ombre" (a defender who took the first five tricks and
plays on becomes the Ombre of the bola) and "allows any eligible player to close after five
consecutive tricks" (he may lay down instead).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import load_ruleset
from engine.errors import RuleFileError
from engine.referee import Deal, Phase
from tests.referee_helpers import run

ROCAMBOR = load_ruleset("tresillo-rocambor")
STRONG = "As 2s Ac Ks Qs Js 7s 6s 5s"


def five_to_the_defender(rules: object = ROCAMBOR) -> Deal:
    """Seat 1 plays an entrada in spades; seat 2, a defender holding every high spade, takes
    the first five tricks."""
    from tests.referee_helpers import tresillo

    deal = tresillo(rules, {2: STRONG})
    run(deal, ["1 bid entrada", "2 pass", "3 pass"])
    if deal.phase is Phase.RAISE:  # where the winner may raise, he keeps his entrada
        run(deal, ["1 pass"])
    run(deal, ["1 trump spades"])
    while deal.phase is Phase.EXCHANGE:
        deal.apply(next(a for a in deal.legal_actions() if str(a) == "discard"))
    strength = deal.t.strength[deal.trump or 0]
    while len(deal.played_tricks) < 5:
        legal = deal.legal_actions()
        pick = max if deal.to_move == 2 else min
        deal.apply(pick(legal, key=lambda a: strength[a.card.index]))
    return deal


def test_a_defender_who_took_the_first_five_may_go_on_or_lay_down() -> None:
    deal = five_to_the_defender()
    assert deal.won == [0, 0, 5, 0] and deal.declarer == 1
    assert deal.phase is Phase.VOLE and deal.to_move == 2
    assert {"vole", "stop"} <= {str(a) for a in deal.legal_actions()}


def test_playing_on_makes_the_defender_the_declarer_of_the_vole() -> None:
    # "implied bola is not restricted to ombre": expect(room.state.ombre).toBe(1), the
    # defender who played the sixth card.
    deal = five_to_the_defender()
    strength = deal.t.strength[deal.trump or 0]
    deal.apply(max(deal.legal_actions()[2:], key=lambda a: strength[a.card.index]))
    assert deal.declarer == 2 and deal.vole_undertaken and deal.partner is None
    while not deal.is_over:
        legal = deal.legal_actions()
        pick = max if deal.to_move == 2 else min
        deal.apply(pick(legal, key=lambda a: strength[a.card.index]))
    assert deal.won[2] == 9 and deal.result == "vole"
    # Scored as the online table's bola made: "Bola made | Ombre +6", to the defender.
    assert deal.settlement is not None and deal.settlement.balances == (0, 0, 6, 0)


def test_a_defender_who_lays_down_gives_the_declarer_codille() -> None:
    # "allows any eligible player to close after five consecutive tricks": the hand ends with
    # the Ombre's none against his five, a codillo ("Codille | Best defender +2").
    deal = run(five_to_the_defender(), ["2 stop"])
    assert deal.is_over and deal.declarer == 1 and deal.result == "codille"
    assert deal.settlement is not None and deal.settlement.balances == (0, 0, 2, 0)


def test_where_only_the_side_goes_on_the_defender_is_not_asked() -> None:
    rules = load_ruleset("tresillo-espada-obligatoria")
    assert rules.vole_by == "side"
    deal = five_to_the_defender(rules)
    assert deal.phase is Phase.PLAY and deal.declarer == 1


def test_a_defenders_vole_cannot_be_said_with_partners(tmp_path: Path) -> None:
    path = tmp_path / "quadrille-any-vole.yaml"
    path.write_text(
        "id: quadrille-any-vole\nname: a test\nextends: quadrille\nsummary: A test file.\n"
        "vole:\n  by: any-seat\n",
        encoding="utf-8",
    )
    with pytest.raises(RuleFileError) as error:
        load_ruleset(path)
    assert "semantic/vole-by-any-seat-partners" in {p.code for p in error.value.problems}

"""Spanish Tresillo (rules/tresillo.yaml) and the mechanisms it uses from YAML: trumps turned
from the talon (the *vuelta*, ``trump_from_talon``), the vole announced with the bid (the *bola*,
``announces_vole``), the palo de favor (``trump_option`` / ``trump_not_option``), and the dealer
sitting the deal out."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import load_ruleset
from engine.bots.heuristic import HeuristicBot
from engine.cards import Card
from engine.errors import IllegalActionError
from engine.referee import Deal, Phase
from engine.rules.loader import validate_paths
from tests import referee_helpers
from tests.referee_helpers import run

RULES = load_ruleset("tresillo")


def tresillo(fixed: dict[int, str], talon: str = "", **options: str) -> Deal:
    """A Tresillo deal with the dealer (seat 0) sitting out: the seats named hold the cards
    given, the others are filled from the rest, and the talon starts with ``talon``."""
    return referee_helpers.tresillo(RULES, fixed, talon, **options)


def _refused(deal: Deal, line: str) -> IllegalActionError:
    with pytest.raises(IllegalActionError) as info:
        run(deal, [line])
    return info.value


# The vuelta: trumps are the suit of the card turned from the talon.


def test_the_vuelta_allows_only_the_turned_cards_suit() -> None:
    deal = tresillo({1: "As Kh Qh Jh Kd Qd 3c 4c 5c"}, talon="7h")
    run(deal, ["1 bid vuelta", "2 pass", "3 pass"])
    assert deal.phase is Phase.TRUMP and deal.to_move == 1
    assert [str(a) for a in deal.legal_actions()] == ["trump hearts"]
    refused = _refused(deal, "1 trump spades")
    assert refused.code == "trump/turned-card"
    assert "7h" in refused.detail and "hearts" in refused.detail
    assert refused.rule.startswith("brit")  # the vuelta's own rule and source
    assert deal.view(2).turned is None
    run(deal, ["1 trump hearts"])
    assert deal.trump == 2 and deal.phase is Phase.EXCHANGE
    assert deal.view(2).turned == Card.parse("7h") == deal.view(3).turned  # shown to all
    # The turned card is the first the Jugador draws.
    run(deal, ["1 discard 3c"])
    assert deal.hands[1] >> Card.parse("7h").index & 1


def test_a_turned_matador_fixes_its_own_suit() -> None:
    deal = tresillo({1: "Kh Qh Jh Kd Qd 3c 4c 5c 6c"}, talon="Ac")
    run(deal, ["1 bid vuelta", "2 pass", "3 pass"])
    assert [str(a) for a in deal.legal_actions()] == ["trump clubs"]


def test_other_contracts_still_choose_trumps() -> None:
    deal = tresillo({1: "As Kh Qh Jh Kd Qd 3c 4c 5c"}, talon="7h")
    run(deal, ["1 bid entrada", "2 pass", "3 pass"])
    assert sorted(str(a) for a in deal.legal_actions()) == [
        "trump diamonds",
        "trump hearts",
        "trump spades",
    ]  # clubs is the palo de favor, played as entrada-favor


def test_the_bot_values_a_vuelta_over_the_suits_that_may_turn() -> None:
    """A hand strong in one suit only is no vuelta: the turned suit is not known when bidding."""
    deal = tresillo({1: "Kh Qh Jh 2h 3h 4h Kd 3c 4c"})
    action, reason = HeuristicBot().advise(deal, 1)
    assert action.contract != "vuelta", reason


# The bola: the vole announced with the bid.


def test_the_bola_is_undertaken_from_the_first_trick() -> None:
    deal = tresillo({1: "As 2s Ac Ks Qs Js 7s 6s 5s"})
    run(deal, ["1 bid bola", "2 pass", "3 pass", "1 trump spades"])
    assert deal.phase is Phase.EXCHANGE and deal.to_move != 1  # played without exchange
    bot = HeuristicBot()
    while deal.phase is Phase.EXCHANGE:
        deal.apply(bot.choose(deal, deal.to_move))
    assert deal.phase is Phase.PLAY and deal.vole_undertaken


def test_the_bola_must_be_played_outside_the_palo_de_favor() -> None:
    deal = tresillo({1: "As 2c Ac Kc Qc Jc 7c 6c 5c"})
    run(deal, ["1 bid bola", "2 pass", "3 pass"])
    refused = _refused(deal, "1 trump clubs")
    assert refused.code == "trump/option-excluded"
    assert refused.rule == "conjecture, $.auction.contracts.bola"  # no source: our reading


def test_the_bot_bids_a_bola_only_with_every_trick() -> None:
    bot = HeuristicBot()
    sure = tresillo({1: "As 2s Ac Ks Qs Js 7s 6s 5s"})
    assert bot.choose(sure, 1).contract == "bola"
    # Eight top trumps and a low heart: a solo, never a hopeless bola.
    short = tresillo({1: "As 2s Ac Ks Qs Js 7s 6s 4h"})
    action, reason = bot.advise(short, 1)
    assert action.contract not in ("bola", "bola-favor"), reason


def test_a_plain_master_is_sure_only_for_the_player_on_lead() -> None:
    """Eight top trumps and the king of hearts: sure for the eldest, who draws the trumps
    first; not for a later hand, whose king a heart led could see ruffed."""
    from engine.bots.heuristic import sure_vole

    hand = "As 2s Ac Ks Qs Js 7s 6s Kh"
    eldest = tresillo({1: hand})
    assert HeuristicBot().choose(eldest, 1).contract == "bola"
    later = tresillo({2: hand})
    run(later, ["1 pass"])
    assert HeuristicBot().choose(later, 2).contract not in ("bola", "bola-favor")
    mask = later.hands[2]
    assert sure_vole(later.t, mask, 0, leads=True) and not sure_vole(later.t, mask, 0, leads=False)


def test_bots_announce_no_hopeless_bola() -> None:
    """Over many deals, every bola the heuristic bots announce is made."""
    from engine.compare import play

    for outcome in play(RULES, {}, 400, 3, "heuristic"):
        if outcome.contract in ("bola", "bola-favor"):
            assert outcome.vole_made, outcome


# The palo de favor.


def test_the_palo_de_favor_outranks_the_same_class_only() -> None:
    deal = tresillo({}, **{"favourite-suit": "spades"})
    run(deal, ["1 bid entrada"])
    offered = {a.contract for a in deal.legal_actions() if a.verb == "bid"}
    assert "entrada" not in offered and {"entrada-favor", "vuelta"} <= offered
    run(deal, ["2 bid entrada-favor"])
    offered = {a.contract for a in deal.legal_actions() if a.verb == "bid"}
    assert "entrada-favor" not in offered and "vuelta" in offered
    run(deal, ["3 pass"])  # each speaks once
    assert deal.declarer == 2
    assert [str(a) for a in deal.legal_actions()] == ["trump spades"]


def test_the_palo_de_favor_is_chosen_for_the_party() -> None:
    deal = tresillo({}, **{"favourite-suit": "hearts"})
    run(deal, ["1 bid solo-favor", "2 pass", "3 pass"])
    assert [str(a) for a in deal.legal_actions()] == ["trump hearts"]
    refused = _refused(deal, "1 trump clubs")
    assert refused.code == "trump/must-be-option"


# The mechanism's authoring checks.


@pytest.mark.parametrize(
    ("extends", "extra", "code", "message"),
    [
        ("quadrille", "", "semantic/trump-from-no-talon", "the deal leaves none"),
        (
            "ombre",
            "      trump_option: favourite-suit\n",
            "semantic/trump-turned-and-chosen",
            "so trump_option cannot choose them",
        ),
    ],
)
def test_trumps_turned_from_the_talon_need_a_talon_and_no_chosen_suit(
    tmp_path: Path, extends: str, extra: str, code: str, message: str
) -> None:
    options = (
        "options:\n  favourite-suit:\n    name: x\n    kind: suit\n"
        "    choices: [spades, clubs]\n    default: clubs\n    basis: {evidence: conjecture}\n"
    )
    path = tmp_path / "turned.yaml"
    path.write_text(
        f"id: turned\nname: Turned\nextends: {extends}\nsummary: s\n{options}"
        "auction:\n  contracts:\n    turned:\n      name: Turned\n      rank: 50\n"
        "      biddable: true\n      help: none\n      trump_from_talon: true\n"
        f"{extra}      basis: {{evidence: conjecture}}\n",
        encoding="utf-8",
    )
    problems, _ = validate_paths([str(path)])
    found = [p for p in problems if p.code == code]
    assert found and message in found[0].message, problems
    assert found[0].file.endswith("turned.yaml") and found[0].line is not None

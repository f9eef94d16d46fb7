"""The auction as a duel (``auction.speech: duel``) and the earlier hand's right to hold with
the same bid (``auction.equal_rank: earlier-holds-same``), tested from the three sentences
that give it, on rules/dansk-lhombre.yaml (which cites them):

* lh35 (Meldeforløbet): "Afgiver mellemhånden en melding der er højere end forhåndens melding
  kan forhånden enten sige Pas eller afgive en melding";
* jhp (Reglerne i l'hombre): "når der meldes en højere melding, falder meldingen tilbage til
  den, som hidtil havde den højeste melding"; "De 2 spillere, som nu kæmper om meldingen,
  bliver ved med at melde over hinanden, til den ene part melder pas";
* mulathing (p. 192): "Ef forhöndin segir spil og sá sem næst á að segja, segir hærra spil,
  getur forhöndin sagt það sama eða þá enn hærri sögn"; "Þennan sama rétt á millihöndin
  gagnvart bakhöndinni".
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from engine import load_ruleset
from engine.bots import make_bot
from engine.cli import app
from engine.errors import IllegalActionError
from engine.records import record_of, write_record
from engine.referee import Deal
from engine.rules.loader import validate_paths
from tests.referee_helpers import run

RULES = load_ruleset("dansk-lhombre")
FORE, MIDDLE, BACK = 1, 2, 0  # the dealer is seat 0 (four play, he deals and plays as baghånd)


def deal(seed: int = 1) -> Deal:
    return Deal(RULES, dealer=0, seed=seed)


def legal(d: Deal) -> list[str]:
    return [str(a) for a in d.legal_actions()]


def test_the_rule_file_says_duel_and_holding_with_the_same() -> None:
    assert RULES.speech == "duel" and RULES.equal_rank == "earlier-holds-same"


def test_the_forehand_overcalled_answers_before_the_next_seat() -> None:
    # lh35: overcalled by the middlehand, the forehand either passes or bids.
    d = deal()
    run(d, ["1 bid spil", "2 bid bedre-spil"])
    assert d.to_move == FORE
    assert "pass" in legal(d) and "bid tourne" in legal(d)
    with pytest.raises(IllegalActionError) as caught:
        d.apply("0 pass")  # the dealer does not speak yet
    assert caught.value.code == "pass/not-your-turn"


def test_the_two_bid_over_each_other_until_one_passes() -> None:
    # jhp: the speech falls back to the one who held the highest bid; the two go on.
    d = deal()
    run(d, ["1 bid spil", "2 bid bedre-spil", "1 bid tourne", "2 bid tourne-respekt"])
    assert d.to_move == FORE
    run(d, ["1 pass"])
    assert d.to_move == BACK  # only now does the third hand speak, against the one left
    assert d.standing_bid is not None and d.standing_bid[0] == MIDDLE
    run(d, ["0 bid solo"])
    assert d.to_move == MIDDLE  # the middlehand overcalled answers the rearhand
    with pytest.raises(IllegalActionError) as caught:
        d.apply("1 bid solo-spar")  # a pass is final
    assert caught.value.code == "bid/not-your-turn"
    run(d, ["2 pass"])
    assert d.declarer == BACK and d.contract is not None and d.contract.id == "solo"


def test_the_forehand_may_say_the_same() -> None:
    # mulathing: "getur forhöndin sagt það sama eða þá enn hærri sögn".
    d = deal()
    run(d, ["1 bid spil", "2 bid bedre-spil"])
    assert "bid bedre-spil" in legal(d)
    run(d, ["1 bid bedre-spil"])
    assert d.faults == []  # needed: spil would not hold over a bedre spil
    assert d.to_move == MIDDLE
    with pytest.raises(IllegalActionError) as caught:
        d.apply("2 bid bedre-spil")  # the later hand must go higher
    assert caught.value.code == "bid/equal-rank-later"
    assert caught.value.rule  # the refusal names the rule it applies
    run(d, ["2 pass", "0 pass"])
    assert d.declarer == FORE and d.contract is not None and d.contract.id == "bedre-spil"


def test_the_middlehand_has_the_same_right_against_the_rearhand() -> None:
    # mulathing: "Þennan sama rétt á millihöndin gagnvart bakhöndinni".
    d = deal()
    run(d, ["1 pass", "2 bid spil", "0 bid tourne"])
    assert d.to_move == MIDDLE and "bid tourne" in legal(d)
    run(d, ["2 bid tourne"])
    assert d.to_move == BACK and "bid tourne" not in legal(d)
    run(d, ["0 pass"])
    assert d.declarer == MIDDLE and d.contract is not None and d.contract.id == "tourne"


def test_all_passing_ends_the_auction_after_each_has_spoken_once() -> None:
    d = deal()
    run(d, ["1 pass", "2 pass", "0 pass"])
    assert d.is_over


def test_bots_finish_duel_auctions() -> None:
    bot = make_bot("heuristic", seed=3)
    answered = 0
    for seed in range(30):
        d = deal(seed)
        while not d.is_over:
            before = d.standing_bid
            seat = d.to_move
            action = bot.choose(d, seat)
            d.apply(action)
            if before is not None and action.verb == "bid" and d.phase == "auction":
                answered += d.to_move == before[0]
        assert d.is_over
    assert answered  # the overcalled hand was asked to answer in some deal


def test_a_danish_deal_where_the_forehand_answers_replays(tmp_path: Path) -> None:
    d = deal(5)
    run(d, ["1 bid spil", "2 bid bedre-spil", "1 bid tourne", "2 pass", "0 pass"])
    bot = make_bot("heuristic", seed=1)
    while not d.is_over:
        d.apply(bot.choose(d, d.to_move))
    path = tmp_path / "duel.yaml"
    path.write_text(write_record(record_of([d], "dansk-lhombre")), encoding="utf-8")
    result = CliRunner().invoke(app, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    assert "illegal" not in result.output.lower() and "tourne" in result.output


def test_the_schema_and_checks_accept_the_duel_and_refuse_a_match(tmp_path: Path) -> None:
    base = Path(__file__).resolve().parents[1] / "rules" / "dansk-lhombre.yaml"
    bad = tmp_path / "duel-matched.yaml"
    bad.write_text(
        f"""\
id: duel-matched
name: A duel auction with a matched overcall
extends: {base}
summary: A test that a duel auction has no match phase.
auction:
  contracts:
    spil:
      matchable: true
""",
        encoding="utf-8",
    )
    problems, _ = validate_paths([str(bad)])
    assert any(p.code.endswith("round-and-matchable") for p in problems), problems
    wrong = tmp_path / "duel-typo.yaml"
    wrong.write_text(
        f"""\
id: duel-typo
name: A misspelt speech
extends: {base}
summary: A test that the schema names the allowed speech.
auction:
  speech: duels
""",
        encoding="utf-8",
    )
    problems, _ = validate_paths([str(wrong)])
    assert problems and "duel" in " ".join(p.message for p in problems)

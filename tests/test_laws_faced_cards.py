"""Hoyle's faced last card (issue 15): "if in dealing there should be one or more faced cards,
there must be a new deal, unless it be the last card" (HOYLE-IE law 1), against the
Encyclopédie's "Il faudroit aussi refaire s'il y avoit une carte retournée, quelle qu'elle pût
être" (ENC-Q). The fault ``faced-last`` names the last card faced; a law that lists ``faced``
without it spares that card (variants/quadrille-hoyle-faced-last-card.yaml)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from engine import load_ruleset
from engine.actions import Action
from engine.errors import IllegalActionError
from engine.records import read_record
from engine.referee import Deal
from engine.scoresheet import Evening, parse_entry

ROOT = Path(__file__).resolve().parent.parent
WIN = read_record(ROOT / "tests" / "records" / "quadrille-ask-win.yaml").deals[0]
HOYLE = "quadrille-hoyle-faced-last-card"


def deal(ruleset: str) -> Deal:
    return Deal(load_ruleset(ruleset), dealer=0, hands=WIN.hands, talon=[])


def test_the_encyclopedie_voids_the_deal_for_the_last_card_too() -> None:
    """ "quelle qu'elle pût être": whichever card it is, the last too."""
    d = deal("quadrille")
    d.apply("2 misdeal faced-last")
    assert d.is_over and d.result == "misdeal"
    assert d.settlement is not None and d.settlement.balances == (0, 0, 0, 0)


def test_under_hoyle_a_faced_last_card_is_no_misdeal_and_the_deal_is_played_on() -> None:
    """ "unless it be the last card": the deal stands, and plays out as it would have."""
    d = deal(HOYLE)
    error = d.refusal("2 misdeal faced-last")
    assert error is not None and error.code == "misdeal/last-card"
    assert "the deal stands" in error.detail
    assert "hoyle-ie" in error.rule
    with pytest.raises(IllegalActionError):
        d.apply("2 misdeal faced-last")
    for line in WIN.actions:
        d.apply(line)
    assert d.result == deal_played_out("quadrille") == "win"


def deal_played_out(ruleset: str) -> str | None:
    d = deal(ruleset)
    for line in WIN.actions:
        d.apply(line)
    return d.result


def test_under_hoyle_a_card_faced_before_the_last_still_voids_the_deal() -> None:
    """ "if in dealing there should be one or more faced cards, there must be a new deal"."""
    d = deal(HOYLE)
    d.apply("1 misdeal faced")
    assert d.result == "misdeal"


def test_the_tables_offer_the_faced_last_card_only_where_it_voids() -> None:
    faced_last = Action.parse("misdeal faced-last")
    assert faced_last in deal("quadrille").declarable(1)
    offered = deal(HOYLE).declarable(1)
    assert faced_last not in offered and Action.parse("misdeal faced") in offered


def test_the_variant_says_only_what_it_changes() -> None:
    data = yaml.safe_load((ROOT / "variants" / f"{HOYLE}.yaml").read_text(encoding="utf-8"))
    assert set(data) == {"id", "name", "extends", "summary", "laws"}
    assert set(data["laws"]) == {"misdeal"} and set(data["laws"]["misdeal"]) == {"faults", "basis"}
    base, hoyle = load_ruleset("quadrille"), load_ruleset(HOYLE)
    assert set(base.laws.misdeal.faults) - set(hoyle.laws.misdeal.faults) == {"faced-last"}
    assert hoyle.laws.misdeal.redealt_by == base.laws.misdeal.redealt_by == "same"


def test_the_rule_book_says_which_faced_card_voids() -> None:
    from typer.testing import CliRunner

    from engine.cli import app

    runner = CliRunner()
    hoyle = runner.invoke(app, ["show", HOYLE])
    assert hoyle.exit_code == 0 and "other than the last (a faced last card stands)" in hoyle.output
    base = runner.invoke(app, ["show", "quadrille"])
    assert "a card faced in the deal (the last card too)" in base.output


def test_the_scorekeeper_gives_the_referees_answer_for_a_faced_last_card() -> None:
    """The scorekeeper wraps the referee's refusal, it does not work it out again: under Hoyle
    a faced last card leaves the deal standing (before the fix: its own score/misdeal-fault,
    "'faced-last' is not a misdeal under these rules")."""
    entry = parse_entry({"misdeal": "faced-last"}, dealer=0, n=4)
    with pytest.raises(IllegalActionError) as error:
        Evening(load_ruleset(HOYLE)).score(entry)
    referee = deal(HOYLE).refusal("0 misdeal faced-last")
    assert referee is not None
    assert error.value.code == "score/misdeal-last-card"
    assert error.value.detail == referee.detail and "the deal stands" in error.value.detail
    assert error.value.rule == referee.rule
    assert Evening(load_ruleset("quadrille")).score(entry).result == "misdeal"

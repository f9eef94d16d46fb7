"""Contract aliases come from the rule files and are accepted wherever a bid is read."""

from __future__ import annotations

import pytest

from engine import load_ruleset
from engine.actions import Action
from engine.records import parse_record, replay


@pytest.mark.parametrize(
    ("ruleset", "name", "expected"),
    [
        ("quadrille", "sans-appeler", "sans-prendre"),
        ("quadrille", "Sans appeller", "sans-prendre"),
        ("quadrille", "solo", "sans-prendre"),
        ("quadrille", "demander à jouer", "ask"),
        ("quadrille-a-trois", "demander", "ask"),
        ("mediateur", "médiateur", "mediateur"),
        ("mediateur", "mediateur", "mediateur"),
        ("ombre", "jouer", "entrada"),
        ("ombre", "sans-appeler", None),
    ],
)
def test_contract_id_reads_the_rule_files_aliases(
    ruleset: str, name: str, expected: str | None
) -> None:
    assert load_ruleset(ruleset).contract_id(name) == expected


def test_a_multi_word_bid_parses_as_one_contract_name() -> None:
    action = Action.parse("bid Sans Appeler")
    assert action.contract == "sans-appeler"
    assert load_ruleset("quadrille").canonical(action) == Action.parse("bid sans-prendre")


def test_a_record_may_bid_by_alias() -> None:
    record = parse_record(
        "ruleset: mediateur\nseed: 3\nactions: [1 pass, 2 pass, 3 bid médiateur, 0 pass]\n"
    )
    report = replay(record, load_ruleset("mediateur"))
    assert report.error is None
    assert report.finished == [] and report.deals[0]["contract"] == "mediateur"

"""A party over (a seat at the target) deals no more: Party.new_deal refuses, as ombre replay
refuses the record of a deal past the end (record/party-over)."""

from __future__ import annotations

import pytest

from engine import load_ruleset
from engine.errors import NotationError
from engine.referee.party import Party


def test_no_deal_is_dealt_past_the_target() -> None:
    rules = load_ruleset("tresillo-rocambor")
    assert rules.party is not None and rules.party.target is not None
    party = Party(rules)
    seed = 0
    while not party.over and len(party.deals) < 2000:
        deal = party.new_deal(seed=seed)
        while not deal.is_over:
            deal.apply(deal.legal_actions()[0])
        seed += 1
    assert party.over
    with pytest.raises(NotationError, match="party is over"):
        party.new_deal(seed=seed)

"""The bid standing is the referee's typed answer (:attr:`Deal.standing_bid`): the terminal
table's prompt reads it instead of parsing the speech's strings back. Checked against the
speech as heard (the last bid in the view's ``auction``) at every turn of the auction and of the
match phase ("forcé"), in games with a round of speech, a match and a seat that sits out."""

from __future__ import annotations

import random

import pytest

from engine import load_ruleset
from engine.referee import Deal


def _heard(deal: Deal) -> tuple[int, str] | None:
    bids = [(s, a.contract) for s, a in deal.view(deal.to_move).auction if a.verb == "bid"]
    return bids[-1] if bids else None


@pytest.mark.parametrize("game", ["ombre", "quadrille", "tresillo", "tredrille", "dansk-lhombre"])
def test_the_standing_bid_is_the_last_bid_heard(game: str) -> None:
    rules = load_ruleset(game)
    rng = random.Random(7)
    checked = matched = 0
    for index in range(60):
        deal = Deal(rules, dealer=index % rules.players, seed=index)
        while not deal.is_over and deal.phase in ("auction", "match"):
            standing = deal.standing_bid
            typed = (standing[0], standing[1].id) if standing is not None else None
            assert typed == _heard(deal), (index, deal.phase)
            checked += 1
            matched += deal.phase == "match"
            legal = deal.legal_actions()
            deal.apply(legal[rng.randrange(len(legal))])
    assert checked
    if game in ("ombre", "quadrille"):
        assert matched  # the match phase (an overcall the holder may take) was seen

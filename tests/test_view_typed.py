"""``Deal.view`` is a frozen dataclass of typed values; text only in ``View.as_json``."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

from engine import load_ruleset
from engine.actions import Action
from engine.cards import Card, Suit
from engine.referee import Deal, Trick, View
from engine.rules.values import Contract

JSON_KEYS = [
    "seat",
    "dealer",
    "eldest",
    "phase",
    "to_move",
    "hand",
    "auction",
    "declarer",
    "contract",
    "trump",
    "no_trumps",
    "called",
    "partner",
    "demanded_from",
    "given",
    "turned",
    "talon",
    "exchanges",
    "trick",
    "trick_leader",
    "tricks",
    "tricks_won",
    "vole",
    "legal",
    "declarer_hand",
]


def _views(game: str, seeds: int = 6) -> list[tuple[Deal, View]]:
    rules = load_ruleset(game)
    out = []
    for seed in range(seeds):
        rng = random.Random(seed)
        deal = Deal(rules, dealer=seed % rules.players, seed=seed)
        while not deal.is_over:
            out += [(deal, deal.view(s)) for s in range(deal.n)]
            legal = deal.legal_actions()
            deal.apply(legal[rng.randrange(len(legal))])
        out += [(deal, deal.view(s)) for s in range(deal.n)]
    return out


def test_the_view_is_frozen_and_has_slots() -> None:
    view = Deal(load_ruleset("quadrille"), dealer=0, seed=1).view(1)
    assert not hasattr(view, "__dict__")
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.seat = 2  # type: ignore[misc]


@pytest.mark.parametrize("game", ["quadrille", "ombre", "mediateur", "tresillo"])
def test_the_view_holds_typed_values(game: str) -> None:
    for _, view in _views(game, seeds=3):
        assert all(isinstance(c, Card) for c in (*view.hand, *view.trick))
        assert all(isinstance(s, int) and isinstance(a, Action) for s, a in view.auction)
        assert all(isinstance(a, Action) for a in view.legal)
        assert all(isinstance(t, Trick) for t in view.tricks)
        assert view.trump is None or isinstance(view.trump, Suit)
        assert view.contract is None or isinstance(view.contract, Contract)
        for card in (view.called, view.given, view.turned):
            assert card is None or isinstance(card, Card)


@pytest.mark.parametrize("game", ["quadrille", "quadrille-a-trois", "dansk-lhombre"])
def test_as_json_writes_the_view_as_text(game: str) -> None:
    rules = load_ruleset(game)
    for seed in range(3):
        rng = random.Random(seed)
        deal = Deal(rules, dealer=seed % rules.players, seed=seed)
        while True:
            for seat in range(deal.n):
                view = deal.view(seat)
                out = view.as_json()
                assert list(out) == JSON_KEYS  # no irregularity in these deals
                assert json.loads(json.dumps(out))["hand"] == [str(c) for c in deal.hand(seat)]
                assert out["auction"] == deal.record_actions()[: len(deal.auction)]
                assert out["trump"] == (view.trump.value if view.trump is not None else None)
                assert out["contract"] == (deal.contract.id if deal.contract is not None else None)
                assert out["tricks"] == [t.as_json() for t in deal.tricks]
                assert out["legal"] == (
                    [str(a) for a in deal.legal_actions()] if seat == deal.to_move else []
                )
            if deal.is_over:
                break
            legal = deal.legal_actions()
            deal.apply(legal[rng.randrange(len(legal))])

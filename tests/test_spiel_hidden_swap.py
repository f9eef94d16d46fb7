"""The OpenSpiel game tells a player nothing of the cards he cannot see.

At random points of random deals of every rule file, two cards hidden from a player (in the
other seats' hands, not made public, or in the talon) change places: the chance outcomes that
dealt them and every decision that names them are exchanged, and the game is played again.
Where the referee's view of that player is the same, his information state and observation,
strings and tensors, must be the same too. (The referee's own answers and the tables' pages
are swapped the same way in tests/test_referee_hidden_swap.py.)

These need the extra ``[openspiel]``, which ``make test`` installs.
"""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the [openspiel] extra is not installed")

import engine.spiel  # noqa: E402, F401  (registers the game)
from engine.cards import ALL_CARDS, PACK_SIZE  # noqa: E402
from engine.referee import Deal  # noqa: E402
from engine.rules.loader import default_registry  # noqa: E402
from engine.spiel import game_string  # noqa: E402
from engine.spiel.codec import Codec  # noqa: E402

ALL = [e.id for e in default_registry().entries()]


def _seen(state: object, p: int) -> tuple[object, ...]:
    return (
        state.information_state_string(p),  # type: ignore[attr-defined]
        list(state.information_state_tensor(p)),  # type: ignore[attr-defined]
        state.observation_string(p),  # type: ignore[attr-defined]
        list(state.observation_tensor(p)),  # type: ignore[attr-defined]
    )


def _hidden_from(d: Deal, seat: int) -> list[int]:
    cards = list(d.talon[d.talon_pos :])
    for s in range(d.rules.players):
        if s != seat:
            public = {c.index for c in d.public_cards(s)}
            cards += [c.index for c in d.hand(s) if c.index not in public]
    return cards


def _swapped_id(codec: Codec, a: int, b: int, chance: bool, action: int) -> int:
    def card(c: int) -> int:
        return b if c == a else a if c == b else c

    if chance:
        return card(action)
    for base in (codec.call_base, codec.give_base, codec.pick_base, codec.play_base):
        if base <= action < base + PACK_SIZE:
            return base + card(action - base)
    return action


def _replayed(game: object, played: list[tuple[bool, int]], a: int, b: int) -> object | None:
    """The game played again with cards ``a`` and ``b`` exchanged; None where an exchanged
    decision is not legal there (an écart's picks come lowest card first)."""
    codec = game.spec.codec  # type: ignore[attr-defined]
    state = game.new_initial_state()  # type: ignore[attr-defined]
    for chance, action in played:
        moved = _swapped_id(codec, a, b, chance, action)
        if moved not in state.legal_actions():
            return None
        state.apply_action(moved)
    return state


@pytest.mark.parametrize("ruleset", ALL)
def test_no_information_state_or_observation_tells_where_an_unseen_card_lies(
    ruleset: str,
) -> None:
    rng = random.Random(ruleset)
    checked = 0
    for dealer in range(2):
        game = pyspiel.load_game(game_string(ruleset, dealer=dealer))
        state = game.new_initial_state()
        played: list[tuple[bool, int]] = []
        while not state.is_terminal():
            deal = state.core.deal
            if deal is not None and rng.random() < 0.2:
                p = rng.randrange(game.num_players())
                hidden = _hidden_from(deal, p)
                if len(hidden) >= 2:
                    a, b = rng.sample(hidden, 2)
                    other = _replayed(game, played, a, b)
                    if other is not None and other.core.deal.view(p) == deal.view(p):
                        assert _seen(other, p) == _seen(state, p), (
                            f"{ruleset}: seat {p} told apart {ALL_CARDS[a]} <-> {ALL_CARDS[b]}"
                            f" at move {len(played)}"
                        )
                        checked += 1
            action = rng.choice(state.legal_actions())
            played.append((state.is_chance_node(), action))
            state.apply_action(action)
    assert checked > 0, f"{ruleset}: no point of the deals was checked"

"""The fast paths give the answers of the paths they shortcut (issue 17's playout speeds).

* :meth:`engine.referee.Deal.legal_plays` is the mask of the ``play`` actions
  :meth:`Deal.legal_actions` lists, in every phase, under every rule file;
* the OpenSpiel state's Python ``legal_actions`` and ``is_chance_node`` answer as OpenSpiel's
  own (C++) ones do, for every player, at every kind of node;
* the referee's shuffle (a sort of packed numbers) sorts the cards by their draw, as its
  definition says, and the compiled trick winner is the card the trick rule names.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import load_ruleset
from engine.referee import Deal
from engine.rules.loader import default_registry

ALL = [e.id for e in default_registry().entries()]


@pytest.mark.parametrize("ruleset", ALL)
def test_legal_plays_is_the_mask_of_the_legal_plays(ruleset: str) -> None:
    rules = load_ruleset(ruleset)
    rng = random.Random(5)
    checked = 0
    for i in range(12):
        deal = Deal(rules, seed=i, dealer=i % rules.players)
        while not deal.is_over:
            legal = deal.legal_actions()
            plays = 0
            for a in legal:
                if a.verb == "play":
                    plays |= 1 << a.cards[0].index
            assert deal.legal_plays() == plays, (ruleset, i, deal.phase)
            checked += deal.phase == "play"
            deal.apply(legal[rng.randrange(len(legal))])
    assert checked > 50


def test_spiel_python_answers_are_openspiels() -> None:
    pyspiel = pytest.importorskip("pyspiel", reason="the [openspiel] extra is not installed")
    import engine.spiel  # noqa: F401  (registers the game)
    from engine.spiel import game_string

    rng = random.Random(3)
    for ruleset in ("quadrille", "ombre"):
        game = pyspiel.load_game(game_string(ruleset))
        n = game.num_players()
        for _ in range(3):
            state = game.new_initial_state()
            while True:
                assert state.is_chance_node() == pyspiel.State.is_chance_node(state)
                assert state.legal_actions() == pyspiel.State.legal_actions(state)
                for p in range(n):
                    assert state.legal_actions(p) == pyspiel.State.legal_actions(state, p)
                if not state.is_chance_node() and not state.is_terminal():
                    with pytest.raises(pyspiel.SpielError):
                        state.legal_actions(-1)
                if state.is_terminal():
                    break
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    assert [a for a, _ in outcomes] == pyspiel.State.legal_actions(state)
                    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
                    state.apply_action(rng.choice(outcomes)[0])
                else:
                    state.apply_action(rng.choice(state.legal_actions()))


def _keyed_shuffle(deck: tuple[int, ...], seed: int) -> list[int]:
    """The referee's shuffle as its definition states it: one draw of 32 random bits per card,
    the cards sorted by their draw (ties in deck order)."""
    import _random
    import struct

    size = len(deck)
    raw = _random.Random(seed).getrandbits(32 * size).to_bytes(4 * size, "little")
    keys = struct.unpack(f"<{size}I", raw)
    return [deck[i] for i in sorted(range(size), key=keys.__getitem__)]


@given(
    seed=st.integers(min_value=0, max_value=2**64),
    deck=st.lists(st.integers(0, 51), min_size=1, max_size=52, unique=True),
)
def test_the_shuffle_sorts_the_cards_by_their_draw(seed: int, deck: list[int]) -> None:
    from engine.referee.deal import _shuffle_and_deal

    hands, talon = _shuffle_and_deal(tuple(deck), 1, seed, ((0, 0, len(deck)),))
    assert hands == [_keyed_shuffle(tuple(deck), seed)] and talon == []


@given(
    st.lists(st.sampled_from([0, 1, 255, 256, 2**24, 2**31, 2**32 - 1]), min_size=1, max_size=52)
)
def test_the_shuffle_breaks_equal_draws_in_place_order(draws: list[int]) -> None:
    # Equal draws are rare from the generator; these repeat often and fill every byte.
    import struct

    from engine.referee.deal import _by_draw

    raw = struct.pack(f"<{len(draws)}I", *draws)
    order = [k & 255 for k in _by_draw(raw, len(draws))]
    assert order == sorted(range(len(draws)), key=draws.__getitem__)


@pytest.mark.parametrize("ruleset", ALL)
def test_the_compiled_trick_winner_is_the_scan_of_the_trick(ruleset: str) -> None:
    """``TrickRules.winning_position`` (the compiled ``trick_strength``) names the card the
    rule names: the highest trump, else the highest card of the kind led."""
    from engine.referee.tricks import TRUMPS, TrickRules

    rules = load_ruleset(ruleset)
    tables = rules.tables()
    rng = random.Random(11)
    for trump in (*tables.trump_suits, 4):
        tr = TrickRules.of(rules, tables, trump)
        strength, follow = tables.strength[trump], tables.follow[trump]
        for _ in range(300):
            trick = rng.sample(tables.deck, rng.randint(1, rules.players))
            led = follow[trick[0]]
            best = 0
            for pos, card in enumerate(trick):
                if follow[card] in (TRUMPS, led) and strength[card] > strength[trick[best]]:
                    best = pos
            assert tr.winning_position(trick) == best, (ruleset, trump, trick)

"""The fast paths give the answers of the paths they shortcut (issue 17's playout speeds).

* :meth:`engine.referee.Deal.legal_plays` is the mask of the ``play`` actions
  :meth:`Deal.legal_actions` lists, in every phase, under every rule file;
* the OpenSpiel state's Python ``legal_actions`` and ``is_chance_node`` answer as OpenSpiel's
  own (C++) ones do, for every player, at every kind of node;
* the compiled trick winner is the card the trick rule names, and the compiled legal mask is
  the last stage of the staged play filter.
"""

from __future__ import annotations

import random

import pytest

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


@pytest.mark.parametrize("ruleset", ["quadrille", "ombre", "tresillo"])
def test_play_ids_from_tables_are_the_encoded_plays(ruleset: str) -> None:
    # The codec's per-suit id tables give, for any mask, the ids encode() gives each card's
    # play, in ascending order.
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from engine.actions import PLAY
    from engine.cards import PACK_SIZE
    from engine.spiel.codec import Codec

    codec = Codec(load_ruleset(ruleset), {}, 0)

    @settings(max_examples=300, deadline=None)
    @given(st.integers(min_value=0, max_value=(1 << PACK_SIZE) - 1))
    def check(mask: int) -> None:
        expected = [codec.encode(PLAY[c]) for c in range(PACK_SIZE) if mask >> c & 1]
        assert codec.plays(mask) == expected

    check()


def test_spiel_chance_outcomes_are_the_cards_left_equally_likely() -> None:
    pyspiel = pytest.importorskip("pyspiel", reason="the [openspiel] extra is not installed")
    import engine.spiel  # noqa: F401  (registers the game)
    from engine.spiel import game_string

    rng = random.Random(8)
    for ruleset in ("quadrille", "ombre", "quadrille-a-trois"):
        game = pyspiel.load_game(game_string(ruleset))
        state = game.new_initial_state()
        while state.is_chance_node():
            outcomes = state.chance_outcomes()
            left = pyspiel.State.legal_actions(state)
            assert outcomes == [(c, 1.0 / len(left)) for c in left]
            state.apply_action(rng.choice(left))
        assert state.chance_outcomes() == []


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


@pytest.mark.parametrize("ruleset", ALL)
def test_the_legal_mask_is_the_last_stage_of_the_play_filter(ruleset: str) -> None:
    """``TrickRules.legal`` (the compiled ``follow_need`` on the hot path) allows exactly what
    the last stage of the staged play filter allows, which names the refusals."""
    from engine.referee.tricks import TrickRules

    rules = load_ruleset(ruleset)
    tables = rules.tables()
    rng = random.Random(13)
    for trump in (*tables.trump_suits, 4):
        tr = TrickRules.of(rules, tables, trump)
        for _ in range(300):
            cards = rng.sample(tables.deck, rules.hand_size + rules.players)
            hand = 0
            for c in cards[: rng.randint(1, rules.hand_size)]:
                hand |= 1 << c
            trick = cards[rules.hand_size : rules.hand_size + rng.randint(0, rules.players - 1)]
            assert tr.legal(hand, trick) == tr.stages(hand, trick)[-1][1], (ruleset, trump)

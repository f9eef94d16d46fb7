"""The games small enough to solve (variants ombre-small and quadrille-small, research
reductions), the ``deals=K`` chance abstraction, and the perfect-information observer
(docs/openspiel.md, "Games small enough to solve").

The CFR runs that walk a whole tree are in the slow tier; the quick tier counts a tree, runs a
few iterations of external-sampling MCCFR on the unrestricted small games, and checks the
abstraction and the observers."""

from __future__ import annotations

import math
import re

import pytest

pyspiel = pytest.importorskip("pyspiel")

import engine.spiel  # noqa: E402,F401  (registers the game)
from engine.cards import Card  # noqa: E402
from engine.rules import load_ruleset  # noqa: E402
from engine.spiel import game_string  # noqa: E402

ALL_PLAYERS = pyspiel.PrivateInfoType.ALL_PLAYERS


def _count(state: object) -> tuple[int, int]:
    """Returns (histories, terminal histories) of the tree under ``state``."""
    if state.is_terminal():  # type: ignore[attr-defined]
        return 1, 1
    histories, terminals = 1, 0
    for action in state.legal_actions():  # type: ignore[attr-defined]
        h, t = _count(state.child(action))  # type: ignore[attr-defined]
        histories += h
        terminals += t
    return histories, terminals


@pytest.mark.parametrize("ruleset", ["ombre-small", "quadrille-small"])
def test_the_small_games_keep_the_mechanisms(ruleset: str) -> None:
    rules = load_ruleset(ruleset)
    assert len(rules.deck()) == 12
    assert rules.hand_size == 3
    assert rules.hand_size * rules.players + rules.talon == 12
    game = pyspiel.load_game(game_string(ruleset))
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_deals_restricts_chance_to_one_node_of_k_deals() -> None:
    game = pyspiel.load_game("ombre_workbench(ruleset=ombre-small,deals=5,deal_seed=3)")
    assert game.max_chance_outcomes() >= 5
    state = game.new_initial_state()
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert [a for a, _ in outcomes] == [0, 1, 2, 3, 4]
    assert math.isclose(sum(p for _, p in outcomes), 1.0)
    described = {state.action_to_string(pyspiel.PlayerId.CHANCE, a) for a, _ in outcomes}
    assert len(described) == 5  # five different deals
    state.apply_action(2)
    assert not state.is_chance_node()
    assert state.history() == [2]
    # The same seed deals the same five; another seed others.
    again = pyspiel.load_game("ombre_workbench(ruleset=ombre-small,deals=5,deal_seed=3)")
    other = pyspiel.load_game("ombre_workbench(ruleset=ombre-small,deals=5,deal_seed=4)")
    first = again.new_initial_state()
    assert {first.action_to_string(pyspiel.PlayerId.CHANCE, a) for a in range(5)} == described
    second = other.new_initial_state()
    assert {second.action_to_string(pyspiel.PlayerId.CHANCE, a) for a in range(5)} != described
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_the_tree_of_one_quadrille_deal_is_counted() -> None:
    # The figures docs/openspiel.md gives (dealer 0).
    game = pyspiel.load_game("ombre_workbench(ruleset=quadrille-small,deals=1)")
    assert _count(game.new_initial_state()) == (89741, 14404)
    game = pyspiel.load_game("ombre_workbench(ruleset=quadrille-small,deals=1,deal_seed=17)")
    assert _count(game.new_initial_state())[0] == 19817


@pytest.mark.parametrize("ruleset", ["ombre-small", "quadrille-small"])
def test_external_sampling_mccfr_runs_on_the_unrestricted_small_game(ruleset: str) -> None:
    from open_spiel.python.algorithms import external_sampling_mccfr as es_mccfr

    game = pyspiel.load_game(game_string(ruleset))
    solver = es_mccfr.ExternalSamplingSolver(game, es_mccfr.AverageType.SIMPLE)
    for _ in range(3):
        solver.iteration()
    policy = solver.average_policy()
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    probabilities = policy.action_probabilities(state)
    assert set(probabilities) == set(state.legal_actions())
    assert math.isclose(sum(probabilities.values()), 1.0)


def test_the_perfect_information_observer_is_used_only_when_asked() -> None:
    from open_spiel.python.observation import make_observation

    game = pyspiel.load_game("ombre_workbench(ruleset=ombre-small,deals=2)")
    state = game.new_initial_state()
    state.apply_action(0)
    deal = state.core.deal
    every_card = [(s, str(c)) for s in range(3) for c in deal.hand(s)]
    talon = [str(Card.from_index(c)) for c in deal.talon]
    for recall in (False, True):
        everything = make_observation(
            game,
            pyspiel.IIGObservationType(
                perfect_recall=recall, public_info=True, private_info=ALL_PLAYERS
            ),
        )
        for p in range(3):
            text = everything.string_from(state, p)
            assert all(re.search(rf"\b{card}\b", text) for _, card in every_card)
            assert all(re.search(rf"\b{card}\b", text) for card in talon)
            everything.set_from(state, p)
            hands = everything.dict["hands"]
            assert {(s, c) for s in range(3) for c in range(52) if hands[s][c]} == {
                (s, c.index) for s in range(3) for c in deal.hand(s)
            }
            assert [int(row.argmax()) for row in everything.dict["talon_cards"]] == list(deal.talon)
    # The default observers (the observation and the information state, string and tensor)
    # show a seat no other hand, and are those of before (no perfect-information piece).
    for p in range(3):
        for text in (state.observation_string(p), state.information_state_string(p)):
            others = [card for s, card in every_card if s != p] + talon
            assert not any(re.search(rf"\b{card}\b", text) for card in others)
    default = game.make_py_observer()
    assert "hands" not in default.dict and "talon_cards" not in default.dict
    recall = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    assert "hands" not in recall.dict
    assert game.observation_tensor_size() == default.tensor.size
    assert game.information_state_tensor_size() == recall.tensor.size


@pytest.mark.slow
def test_cfr_on_one_quadrille_deal_lowers_nash_conv() -> None:
    # One deal of the small Quadrille (deal_seed 17: its tree is 19,817 histories), whose
    # NashConv (the game is general-sum, so NashConv, not exploitability) falls under CFR.
    from open_spiel.python import policy as policy_lib
    from open_spiel.python.algorithms import cfr, exploitability

    game = pyspiel.load_game("ombre_workbench(ruleset=quadrille-small,deals=1,deal_seed=17)")
    uniform = exploitability.nash_conv(game, policy_lib.UniformRandomPolicy(game))
    solver = cfr.CFRSolver(game)
    for _ in range(2):
        solver.evaluate_and_update_policy()
    after = exploitability.nash_conv(game, solver.average_policy())
    assert 0 <= after < uniform

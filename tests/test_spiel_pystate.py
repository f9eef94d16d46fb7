"""The tensors built from the referee's masks say exactly what the views said, and the
pure-Python state (engine.spiel.pystate) is the registered game's state without C++.

``_reference`` is the observer's former construction, kept here only as the reference: every
piece filled from :meth:`engine.referee.Deal.view`'s typed fields. The engine's observer builds
the same tensor from the deal's masks (:meth:`engine.spiel.game.OmbreObserver.ones`); the first
test compares the two over random states of many rule files, every kind of observer.

These need the extra ``[openspiel]``, which ``make test`` installs.
"""

from __future__ import annotations

import pickle
import random
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the [openspiel] extra is not installed")

import engine.spiel  # noqa: E402, F401  (registers the game)
from engine.referee.state import PHASES  # noqa: E402
from engine.spiel import game_string  # noqa: E402
from engine.spiel.game import _picks_seen  # noqa: E402
from engine.spiel.pystate import PythonGame, PythonState  # noqa: E402

# Rule files with every piece the tensors hold: the open declarer's hand (Danish nolo ouvert),
# the demand (Médiateur), the suited bids (Rocambor), the called king (Quadrille), the écart of
# several cards (Ombre), the three-hand game, the given card.
RULESETS = [
    "dansk-lhombre",
    "tresillo-rocambor",
    "mediateur",
    "quadrille",
    "ombre",
    "quadrille-a-trois",
]
OBSERVERS = [
    {"perfect_recall": recall, "public_info": public, "private_info": private}
    for recall in (False, True)
    for public, private in (
        (True, pyspiel.PrivateInfoType.SINGLE_PLAYER),
        (True, pyspiel.PrivateInfoType.NONE),
        (False, pyspiel.PrivateInfoType.SINGLE_PLAYER),
    )
]


def _reference(self: Any, state: Any, player: int) -> None:
    """Fills the tensor from the state, as ``player`` sees it."""
    self.tensor.fill(0)
    d = self.dict
    core = state.core
    deal = core.deal
    if self.private:
        d["player"][player] = 1
    if deal is None:
        if self.private and self.perfect_recall:
            for seat, card in zip(self.spec.codec.slots, core.pack, strict=False):
                if seat == player:
                    d["dealt"][card] = 1
        return
    # The referee's typed view: which fields are private is fixed (_PRIVATE_FIELDS).
    view = deal.view(player)
    if self.private:
        _set_private(self, core, deal, view, player)
    if self.public:
        _set_public(self, deal, view)


def _set_private(self: Any, core: Any, deal: Any, view: Any, player: int) -> None:
    """Fills the private pieces: what only ``player``'s view shows (``core``: the state's,
    for the picks of an écart in progress)."""
    d = self.dict
    n = self.spec.rules.players
    for seen in view.hand:
        d["hand"][seen.index] = 1
    partner = view.partner
    d["partner"][n if partner is None else partner] = 1
    if view.given is not None:
        d["given"][view.given.index] = 1
    for c in _picks_seen(core, player):
        d["picked"][c] = 1
    decision_id = self.spec.codec.decision_id
    for move in view.legal:
        # The écart (one decision of the referee, its picks the game's) and the moves
        # the game does not offer (a renonce: its card, the hand and the trick tell it)
        # have no id: left out.
        action_id = decision_id(move)
        if action_id is not None:
            d["legal"][action_id] = 1
    if self.perfect_recall:
        for c in deal.dealt[player]:
            d["dealt"][c] = 1
        for s, discarded, drawn in deal.exchanges:
            if s == player:
                for c in discarded:
                    d["discarded"][c] = 1
                for c in drawn:
                    d["drawn"][c] = 1


def _set_public(self: Any, deal: Any, view: Any) -> None:
    """Fills the public pieces: what every seat's view shows alike."""
    d = self.dict
    rules = self.spec.rules
    n = rules.players
    d["phase"][PHASES.index(view.phase)] = 1
    to_move = view.to_move
    d["to_move"][n if to_move is None else to_move] = 1
    d["dealer"][view.dealer] = 1
    declarer = view.declarer
    d["declarer"][n if declarer is None else declarer] = 1
    contract = view.contract
    d["contract"][len(self._bid) if contract is None else self._bid[contract.id]] = 1
    trump = view.trump
    d["trump"][4 if trump is None else trump.index] = 1
    if view.called is not None:
        d["called"][view.called.index] = 1
    if view.turned is not None:
        d["turned"][view.turned.index] = 1
    if deal.called is not None and deal.partner_public():
        d["public_partner"][n if deal.partner is None else deal.partner] = 1
    # The seat a card was demanded of (all zeros: none), and the declarer's hand
    # where an open contract lays it on the table: what every seat's view shows.
    if view.demanded_from is not None:
        d["demanded_from"][view.demanded_from] = 1
    for seen in view.declarer_hand or ():
        d["declarer_hand"][seen.index] = 1
    d["talon"][min(view.talon, rules.talon)] = 1
    for s, count in view.exchanges:
        d["exchanges"][s][count] = 1
    leader = view.trick_leader
    d["trick_leader"][leader] = 1
    for k, seen in enumerate(view.trick):
        d["trick"][deal.seat_at(leader, k)][seen.index] = 1
    for s, won in enumerate(view.tricks_won):
        d["tricks_won"][s][min(won, rules.hand_size)] = 1
    d["vole"][0] = 1 if view.vole else 0
    for t, trick in enumerate(view.tricks):
        for k, seen in enumerate(trick.cards):
            d["played"][seen.index] = 1
            if self.perfect_recall and t < rules.hand_size:
                d["history"][t][deal.seat_at(trick.leader, k)][seen.index] = 1
        if self.perfect_recall and t < rules.hand_size:
            d["leaders"][t][trick.leader] = 1
    if self.perfect_recall:
        # The auction is public: the view's typed speech.
        for i, (seat, action) in enumerate(view.auction[: len(d["auction"])]):
            d["auction"][i][seat] = 1
            bid = action.contract if action.verb == "bid" else None
            d["auction"][i][n + (self._bid[bid] + 1 if bid is not None else 0)] = 1
            suit = action.suit.index if action.suit is not None else 4
            d["auction"][i][n + len(self._bid) + 1 + suit] = 1


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_tensor_from_the_masks_is_the_views(ruleset: str) -> None:
    rng = random.Random(17)
    game = pyspiel.load_game(game_string(ruleset))
    n = game.num_players()
    pairs = [
        (
            game.make_py_observer(pyspiel.IIGObservationType(**kind)),
            game.make_py_observer(pyspiel.IIGObservationType(**kind)),
        )
        for kind in OBSERVERS
    ]
    checked = 0
    for _ in range(15):
        state = game.new_initial_state()
        while True:
            for fast, slow in pairs:
                for p in range(n):
                    fast.set_from(state, p)
                    _reference(slow, state, p)
                    assert np.array_equal(fast.tensor, slow.tensor), (p, str(state))
                    checked += 1
            if state.is_terminal():
                break
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
    assert checked > 1000


def _walk(game: Any, rng: random.Random) -> list[int]:
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return list(state.history())


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_python_state_answers_as_the_registered_games(ruleset: str) -> None:
    """Along random deals, the pure-Python state and the registered game's state give the same
    legal actions, chance outcomes, tensors, strings, histories and returns."""
    rng = random.Random(5)
    cpp = pyspiel.load_game(game_string(ruleset))
    py = PythonGame({"ruleset": ruleset})
    n = cpp.num_players()
    for _ in range(6):
        history = _walk(cpp, rng)
        a, b = cpp.new_initial_state(), py.new_initial_state()
        for move in [*history, None]:
            assert a.current_player() == b.current_player()
            assert a.is_chance_node() == b.is_chance_node()
            assert a.is_terminal() == b.is_terminal()
            assert a.is_player_node() == b.is_player_node()
            assert a.legal_actions() == b.legal_actions()
            assert a.legal_actions_mask() == b.legal_actions_mask()
            assert a.move_number() == b.move_number()
            assert a.is_initial_state() == b.is_initial_state()
            assert a.rewards() == b.rewards() and a.returns() == b.returns()
            assert str(a) == str(b)
            if a.is_chance_node():
                assert a.chance_outcomes() == b.chance_outcomes()
            for p in range(n):
                assert a.legal_actions(p) == b.legal_actions(p)
                assert a.information_state_tensor(p) == b.information_state_tensor(p)
                assert a.observation_tensor(p) == b.observation_tensor(p)
                assert a.information_state_string(p) == b.information_state_string(p)
                assert a.observation_string(p) == b.observation_string(p)
            if move is not None:
                player = a.current_player()
                assert a.action_to_string(player, move) == b.action_to_string(player, move)
                a.apply_action(move)
                b.apply_action(move)
        assert b.history() == a.history() == history
        assert b.history_str() == a.history_str()
        assert [(x.player, x.action) for x in b.full_history()] == [
            (x.player, x.action) for x in a.full_history()
        ]


def test_the_python_state_copies_pickles_and_refuses_what_the_referee_refuses() -> None:
    rng = random.Random(2)
    game = PythonGame({"ruleset": "ombre"})
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(rng.choice(state.chance_outcomes())[0])
    copy = state.clone()
    child = state.child(state.legal_actions()[0])
    assert child.move_number() == state.move_number() + 1 == copy.move_number() + 1
    assert copy.history() == state.history()
    back = pickle.loads(pickle.dumps(child))
    assert isinstance(back, PythonState) and back.history() == child.history()
    assert str(back) == str(child)
    illegal = next(a for a in range(game.num_distinct_actions()) if a not in state.legal_actions())
    with pytest.raises(pyspiel.SpielError):
        state.apply_action(illegal)
    with pytest.raises(pyspiel.SpielError):
        state.information_state_tensor(game.num_players())
    world = state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert isinstance(world, PythonState)
    assert world.information_state_string(0) == state.information_state_string(0)
    # C++ takes no PythonState: it refuses it rather than read an empty history.
    with pytest.raises(TypeError):
        pyspiel.serialize_game_and_state(game, state)


def test_openspiels_python_algorithms_take_the_python_state() -> None:
    from open_spiel.python import rl_environment
    from open_spiel.python.algorithms import ismcts, mcts

    game = PythonGame({"ruleset": "quadrille"})
    env = rl_environment.Environment(game)
    rng = np.random.RandomState(3)
    step = env.reset()
    size = game.information_state_tensor_size()
    cpp = pyspiel.load_game(str(game))
    assert size == cpp.information_state_tensor_size()
    assert game.observation_tensor_shape() == cpp.observation_tensor_shape()
    assert env.observation_spec()["info_state"] == (size,)
    while not step.last():
        player = step.observations["current_player"]
        assert all(len(t) == size for t in step.observations["info_state"])
        legal = step.observations["legal_actions"][player]
        step = env.step([legal[rng.randint(len(legal))]])
    assert len(step.rewards) == game.num_players()
    bot = mcts.MCTSBot(game, 2.0, 8, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    assert bot.step(state) in state.legal_actions()
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    search = ismcts.ISMCTSBot(game, evaluator, 2.0, 8, random_state=rng)
    assert search.step(state) in state.legal_actions()

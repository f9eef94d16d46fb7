"""``ombre_workbench`` with states in Python alone, for OpenSpiel's Python algorithms.

A state of the registered game (:class:`engine.spiel.game.OmbreState`) is a ``pyspiel.State``:
its history lives in C++, so every ``apply_action`` goes through C++ and back into Python twice
(docs/openspiel.md, "Speed"), and every tensor is written by the observer, then copied by C++.
That is what C++ consumers need (``pyspiel.serialize_game_and_state``, C++ bots,
``random_sim_test``). A Python algorithm needs none of it:

>>> from engine.spiel.pystate import PythonGame
>>> game = PythonGame({"ruleset": "quadrille"})
>>> state = game.new_initial_state()
>>> type(state).__name__, state.is_chance_node(), len(state.chance_outcomes())
('PythonState', True, 40)

:class:`PythonGame` is the same game (a ``pyspiel.Game``: its type, sizes, bounds, observers
and parameters are :class:`~engine.spiel.game.OmbreGame`'s), whose states are
:class:`PythonState`: plain Python objects with ``pyspiel.State``'s methods, answered from the
same referee-backed core (every action checked by :meth:`engine.referee.Deal.apply`), the
history kept in a Python list. The tensors are lists of floats (as ``pyspiel.State``'s), built
from the indices of their ones (:meth:`~engine.spiel.game.OmbreObserver.ones`) without a numpy
array in between. ``open_spiel.python.rl_environment.Environment(game)``, ``mcts``, ``ismcts``
and the other Python algorithms that only call a state's methods take it. It is not a
``pyspiel.State``, so C++ refuses it outright (a ``TypeError``), rather than read an empty
history: to hand a state to C++, replay its ``history()`` into a state of
``pyspiel.load_game(str(game))``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

import pyspiel

from engine.spiel.game import (
    DEFAULTS,
    SHORT_NAME,
    Core,
    OmbreGame,
    OmbreObserver,
    StateAnswers,
)

__all__ = ["PythonGame", "PythonState"]

_CHANCE = int(pyspiel.PlayerId.CHANCE)


class PlayerAction(NamedTuple):
    """One move of :meth:`PythonState.full_history` (``pyspiel.PlayerAction``'s fields)."""

    player: int
    action: int


class PythonGame(OmbreGame):
    """``ombre_workbench`` (the same parameters) whose states are :class:`PythonState`.

    Not registered with OpenSpiel (``pyspiel.load_game`` gives the C++-backed states); built
    directly: ``PythonGame({"ruleset": "ombre", "dealer": 1})``.
    """

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        super().__init__(params)
        self.params = {**DEFAULTS, **dict(params or {})}
        self.info_state_observer = self.make_py_observer(
            pyspiel.IIGObservationType(perfect_recall=True)
        )
        self.observation_observer = self.make_py_observer(
            pyspiel.IIGObservationType(perfect_recall=False)
        )

    def new_initial_state(self) -> PythonState:  # type: ignore[override]
        """Returns the state before the deal: a chance node."""
        return PythonState(self)

    # OpenSpiel's C++ answers these from a new state, which here is no C++ state: the
    # observers' sizes instead (the same figures: flat tensors).

    def information_state_tensor_size(self) -> int:
        return self.info_state_observer.size

    def information_state_tensor_shape(self) -> list[int]:
        return [self.info_state_observer.size]

    def observation_tensor_size(self) -> int:
        return self.observation_observer.size

    def observation_tensor_shape(self) -> list[int]:
        return [self.observation_observer.size]

    def __reduce__(self) -> Any:
        return (PythonGame, (self.params,))


class PythonState(StateAnswers):
    """A state of :class:`PythonGame`: ``pyspiel.State``'s methods, in Python alone."""

    def __init__(self, game: PythonGame, core: Core | None = None) -> None:
        self.game = game
        self.core = core if core is not None else Core(game.spec)

    # Moving.

    def apply_action(self, action: int) -> None:
        """Applies a chance outcome or a seat's action (checked by the referee).

        :raises pyspiel.SpielError: if it is not legal now.
        """
        core = self.core
        if core.deal is None:
            core.deal_card(action)
        else:
            core.apply(action)

    def child(self, action: int) -> PythonState:
        """Returns a copy of the state with ``action`` applied."""
        other = self.clone()
        other.apply_action(action)
        return other

    def clone(self) -> PythonState:
        """Returns an independent copy (the referee's deal copied by :meth:`Deal.copy`)."""
        return PythonState(self.game, self.core.__deepcopy__(None))

    def __deepcopy__(self, memo: Any) -> PythonState:
        return self.clone()

    def __reduce__(self) -> Any:
        return (PythonState, (self.game, self.core))

    # The history (every move, chance outcomes included, as OpenSpiel keeps it).

    def history(self) -> list[int]:
        return list(self.core.moves)

    def history_str(self) -> str:
        return ", ".join(map(str, self.core.moves))

    def full_history(self) -> list[PlayerAction]:
        """Returns each move with the player who made it (replayed through a fresh core)."""
        core = Core(self.core.spec)
        out = []
        for move in self.core.moves:
            deal = core.deal
            out.append(PlayerAction(_CHANCE if deal is None else deal.to_move, move))
            if deal is None:
                core.deal_card(move)
            else:
                core.apply(move)
        return out

    def move_number(self) -> int:
        return len(self.core.moves)

    def is_initial_state(self) -> bool:
        return not self.core.moves

    # The node.

    def is_player_node(self) -> bool:
        deal = self.core.deal
        return deal is not None and not deal.is_over

    def is_simultaneous_node(self) -> bool:
        return False

    def is_mean_field_node(self) -> bool:
        return False

    def legal_actions_mask(self, player: int | None = None) -> list[int]:
        """Returns a 0/1 list over the actions (the chance outcomes at a chance node)."""
        size = (
            self.game.max_chance_outcomes()
            if self.core.deal is None
            else self.game.num_distinct_actions()
        )
        mask = [0] * size
        for action in self.legal_actions(player):
            mask[action] = 1
        return mask

    def action_to_string(self, player: int, action: int | None = None) -> str:
        """``action_to_string(player, action)``, or ``action_to_string(action)`` for the
        player to move, as ``pyspiel.State``'s."""
        if action is None:
            player, action = self.current_player(), player
        return self._action_to_string(player, action)

    # The returns (terminal rewards).

    def rewards(self) -> list[float]:
        """The returns at the end, zeros before (the game rewards only at the end)."""
        return self.returns()

    def player_return(self, player: int) -> float:
        return self.returns()[player]

    def player_reward(self, player: int) -> float:
        return self.rewards()[player]

    def num_players(self) -> int:
        return int(self.core.spec.rules.players)

    def num_distinct_actions(self) -> int:
        return int(self.game.num_distinct_actions())

    def get_game(self) -> PythonGame:
        return self.game

    # The observations.

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        """Returns ``player``'s (default: the player to move) information-state tensor."""
        return self._tensor(self.game.info_state_observer, player)

    def observation_tensor(self, player: int | None = None) -> list[float]:
        """Returns ``player``'s (default: the player to move) observation tensor."""
        return self._tensor(self.game.observation_observer, player)

    def information_state_string(self, player: int | None = None) -> str:
        return self.game.info_state_observer.string_from(self, self._seat(player))

    def observation_string(self, player: int | None = None) -> str:
        return self.game.observation_observer.string_from(self, self._seat(player))

    def _tensor(self, observer: OmbreObserver, player: int | None) -> list[float]:
        ones = observer.ones(self, self.current_player() if player is None else player)
        out = [0.0] * observer.size
        for i in ones:
            out[i] = 1.0
        return out

    def _seat(self, player: int | None) -> int:
        seat = self.current_player() if player is None else player
        n = self.num_players()
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise pyspiel.SpielError(f"{SHORT_NAME}: a seat is a number from 0 to {n - 1}")
        return seat

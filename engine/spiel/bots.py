"""OpenSpiel's players at the workbench's table: ``ombre simulate … --bots ismcts``.

A :class:`SpielBot` is a workbench :class:`~engine.bots.base.Bot` that, at each decision,
builds the OpenSpiel state of the deal (:mod:`engine.spiel.game`: the same cards dealt as
chance outcomes, the same actions applied through the referee), asks an OpenSpiel bot for an
action id and returns the referee's action for it (an écart is asked for card by card).

Kinds, with their settings after colons (``ismcts:simulations=200:uct_c=1.5``):

* ``ismcts``: OpenSpiel's information-set Monte-Carlo tree search
  (:class:`open_spiel.python.algorithms.ismcts.ISMCTSBot`). Settings: ``simulations`` (100),
  ``uct_c`` (2.0), ``rollouts`` (1), ``worlds`` (0: unlimited world samples), ``policy``
  (``max_visit_count`` or ``max_value``), ``rollout`` (``random``: OpenSpiel's random
  rollouts; ``heuristic``: each leaf played out by the workbench's heuristic bot in every
  seat), ``bidding`` (``search``: the search decides everything; ``heuristic``: the heuristic
  bot decides every decision before the first card is played -- the auction, trumps, the
  call, the écart -- and the search plays the cards).
* any bot OpenSpiel registers that can play the game (``pyspiel.bots_that_can_play_game``:
  ``uniform_random``, ``fixed_action_preference``), by name, without settings.

The search deals its imagined worlds from the state's ``resample_from_infostate`` (only what
the seat knows), drawing from the bot's generator, which a simulation seeds per block: a
seeded run plays the same on any machine and for any ``--jobs``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel

from engine.actions import Action
from engine.bots.base import Bot
from engine.bots.heuristic import HeuristicBot
from engine.cards import ALL_CARDS
from engine.referee import Deal, Phase
from engine.spiel.codec import DRAW_ID
from engine.spiel.game import GameSpec, OmbreGame, OmbreState

__all__ = ["SPIEL_BOTS", "SpielBot", "is_spiel_bot", "parse_kind", "spiel_bot_names"]

ISMCTS_SETTINGS: dict[str, Any] = {
    "simulations": 100,
    "uct_c": 2.0,
    "rollouts": 1,
    "worlds": 0,
    "policy": "max_visit_count",
    "rollout": "random",
    "bidding": "search",
}
_CHOICES = {
    "policy": ("max_visit_count", "max_value"),
    "rollout": ("random", "heuristic"),
    "bidding": ("search", "heuristic"),
}
"""The settings whose value is one of a few words."""
_BEFORE_PLAY = frozenset(
    (
        *(Phase.AUCTION, Phase.MATCH, Phase.RAISE, Phase.TRUMP),
        *(Phase.CALL, Phase.GIVE, Phase.SURRENDER, Phase.EXCHANGE),
    )
)
"""The phases of the decisions before the first card is played (``bidding=heuristic``)."""
SPIEL_BOTS = ("ismcts",)
"""The OpenSpiel players built here (with settings); OpenSpiel's registered bots come beside."""


def _registered() -> list[str]:
    """OpenSpiel's registered bots that can play the game."""
    return list(pyspiel.bots_that_can_play_game(_game_for(GameSpec.get("quadrille", "", 0))))


def spiel_bot_names() -> list[str]:
    """Returns every OpenSpiel player ``--bots`` accepts by name."""
    return [*SPIEL_BOTS, *(b for b in _registered() if b not in SPIEL_BOTS)]


def parse_kind(kind: str) -> tuple[str, dict[str, Any]]:
    """Splits ``NAME:key=value:key=value`` into the name and its settings (typed as the defaults).

    >>> parse_kind("ismcts:simulations=20:uct_c=1.5")
    ('ismcts', {'simulations': 20, 'uct_c': 1.5})

    :raises ValueError: for an unknown setting or a value of the wrong type.
    """
    name, *parts = kind.split(":")
    defaults = ISMCTS_SETTINGS if name == "ismcts" else {}
    settings: dict[str, Any] = {}
    for part in parts:
        key, sep, value = part.partition("=")
        if not sep or key not in defaults:
            known = ", ".join(defaults) or "none"
            raise ValueError(f"{name}: no setting {part!r} (settings: {known})")
        default = defaults[key]
        try:
            settings[key] = type(default)(value)
        except ValueError:
            raise ValueError(
                f"{name}: {key} must be a {type(default).__name__}, not {value!r}"
            ) from None
        words = _CHOICES.get(key)
        if words is not None and value not in words:
            raise ValueError(f"{name}: {key} must be {' or '.join(words)}, not {value!r}")
    return name, settings


def is_spiel_bot(kind: str) -> bool:
    """Whether ``kind`` (with settings) names an OpenSpiel player."""
    name = kind.split(":")[0]
    return name in SPIEL_BOTS or name in _registered()


class SpielBot(Bot):
    """An OpenSpiel player in a seat (see the module)."""

    def __init__(self, kind: str, seed: int | None = None) -> None:
        super().__init__(seed)
        self.kind = kind
        self.name, self.settings = parse_kind(kind)
        if not is_spiel_bot(self.name):
            raise ValueError(f"unknown OpenSpiel bot {self.name!r}")
        self._made: dict[tuple[Any, int], Any] = {}
        bidding = {**ISMCTS_SETTINGS, **self.settings}["bidding"] if self.name == "ismcts" else ""
        self._heuristic = HeuristicBot(self.rng.getrandbits(32)) if bidding == "heuristic" else None

    def _game(self, deal: Deal) -> OmbreGame:
        # The deal's setup names every option (defaults included).
        options = ";".join(f"{k}:{v}" for k, v in sorted(deal.options.items()))
        rules = deal.rules
        spec = GameSpec.get(
            rules.file if rules.kind == "file" else rules.id, options, deal.dealer, rules
        )
        return _game_for(spec)

    def _player(self, game: OmbreGame, seat: int) -> Any:
        key = (game.spec.key, seat)
        bot = self._made.get(key)
        if bot is None:
            bot = self._made[key] = self._make(game, seat)
        return bot

    def _make(self, game: OmbreGame, seat: int) -> Any:
        if self.name != "ismcts":
            return pyspiel.load_bot(self.name, game, seat)
        from open_spiel.python.algorithms import ismcts, mcts

        s = {**ISMCTS_SETTINGS, **self.settings}
        rng = np.random.RandomState(self.rng.getrandbits(32))
        final = (
            ismcts.ISMCTSFinalPolicyType.MAX_VALUE
            if s["policy"] == "max_value"
            else ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT
        )
        evaluator = (
            HeuristicRollout(s["rollouts"], self.rng.getrandbits(32))
            if s["rollout"] == "heuristic"
            else mcts.RandomRolloutEvaluator(s["rollouts"], rng)
        )
        bot = ismcts.ISMCTSBot(
            game,
            evaluator,
            s["uct_c"],
            s["simulations"],
            max_world_samples=s["worlds"] or ismcts.UNLIMITED_NUM_WORLD_SAMPLES,
            random_state=rng,
            final_policy_type=final,
        )
        bot.set_resampler(_resampler(self))
        return bot

    def choose(self, deal: Deal, seat: int) -> Action:
        if self._heuristic is not None and deal.phase in _BEFORE_PLAY:
            return self._heuristic.choose(deal, seat)
        game = self._game(deal)
        state = state_of(game, deal)
        player = self._player(game, seat)
        if self.name == "ismcts":
            # Re-seed the search from the table's generator: a deal's play depends only on the
            # run's seed and its number.
            player._random_state.seed(self.rng.getrandbits(32))
            player.reset()
        codec = game.spec.codec
        picks: list[int] = []
        while True:
            action_id = int(player.step(state))
            decoded = codec.decode(action_id)
            if isinstance(decoded, Action):
                return decoded
            if decoded is None:
                return Action("discard", cards=tuple(ALL_CARDS[c] for c in picks))
            picks.append(decoded)
            state.apply_action(action_id)


class HeuristicRollout:
    """An OpenSpiel evaluator for the search: a leaf's value is the counters of the deal played
    out from it by the workbench's heuristic bot in every seat (the mean of ``rollouts`` such
    plays), its prior uniform over the legal actions, as OpenSpiel's random rollouts have.

    A leaf in the middle of an écart entered card by card is played out from before the écart:
    the heuristic chooses the whole discard anew (the picks so far are the search's, not a
    decision of the deal yet).
    """

    def __init__(self, rollouts: int, seed: int) -> None:
        self.rollouts = max(1, rollouts)
        self.bot = HeuristicBot(seed)

    def evaluate(self, state: OmbreState) -> np.ndarray[Any, Any]:
        """Returns each seat's counters, the mean over the rollouts from ``state``."""
        deal = state.core.deal
        if deal is None:
            return np.zeros(state.get_game().num_players())
        total = np.zeros(deal.n)
        bot = self.bot
        for _ in range(self.rollouts):
            d = deal.copy()
            while not d.is_over:
                d.apply(bot.choose(d, d.to_move))
            settled = d.settlement
            assert settled is not None
            total += settled.balances
        return total / self.rollouts

    def prior(self, state: OmbreState) -> list[tuple[int, float]]:
        """Returns the uniform prior over the legal actions (the chance outcomes at a chance
        node)."""
        if state.is_chance_node():
            return list(state.chance_outcomes())
        legal = state.legal_actions(state.current_player())
        return [(a, 1.0 / len(legal)) for a in legal]


def _resampler(bot: SpielBot) -> Callable[[OmbreState, int], OmbreState]:
    def resample(state: OmbreState, player: int) -> OmbreState:
        return state.resample_from_infostate(player, bot.rng.random)

    return resample


_GAMES: dict[tuple[Any, ...], OmbreGame] = {}


def _game_for(spec: GameSpec) -> OmbreGame:
    game = _GAMES.get(spec.key)
    if game is None:
        game = _GAMES[spec.key] = OmbreGame(
            {"ruleset": spec.key[0], "options": spec.key[1], "dealer": spec.key[2]}
        )
    return game


def state_of(game: OmbreGame, deal: Deal) -> OmbreState:
    """Returns the OpenSpiel state of a deal in progress: its cards dealt as chance outcomes in
    the deal plan's order, then its actions (an écart as its cards, lowest first, and the draw).
    """
    codec = game.spec.codec
    state = game.new_initial_state()
    dealt = [list(h) for h in deal.dealt]
    talon = list(deal.dealt_talon)
    taken = [0] * deal.n
    t = 0
    for seat in codec.slots:
        if seat < 0:
            state.apply_action(talon[t])
            t += 1
        else:
            state.apply_action(dealt[seat][taken[seat]])
            taken[seat] += 1
    for _, action in deal.history:
        if action.verb == "discard":
            for c in sorted(card.index for card in action.cards):
                state.apply_action(codec.pick_base + c)
            state.apply_action(DRAW_ID)
        else:
            state.apply_action(codec.encode(action))
    return state

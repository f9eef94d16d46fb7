"""Benchmark: issue 17's playout figures in one process, one run (prints figures, asserts
nothing).

* the checked API: ``bench_referee.py``'s loop on Quadrille (random legal actions through
  ``Deal.legal_actions``/``Deal.apply``, the settlement included), deals per second;
* a minimal hand-written Quadrille card-play loop: 40 cards dealt ten each, trumps drawn,
  ten tricks of random legal cards (follow suit if you can, else anything), each trick won by
  the trump order Spadille, Manille, Basto, then the trump suit, else the highest of the suit
  led. No auction, écart or settlement: the floor any rule engine stands on;
* the OpenSpiel adapter's random playouts (``ombre_workbench(ruleset=quadrille)``, the deal's
  chance nodes included) and OpenSpiel's own C++ ``oh_hell`` (4 players, 10 tricks) driven
  from Python the same way, when ``open-spiel`` is installed;
* the floor of any Python game under that driver: a registered Python game that does nothing
  but count 40 chance nodes and 45 moves (a Quadrille deal's), answering in Python what the
  adapter answers in Python. ``apply_action`` is OpenSpiel's (C++, which keeps the history and
  calls back into Python twice), for it as for the adapter.

    python benchmarks/bench_playouts.py [--seconds S]

Issue 17's targets: checked API at least 0.8 x the hand-written loop; adapter at least 0.5 x
the checked API and faster than ``oh_hell``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_referee import run as referee_run


def rate(step: Callable[[random.Random], None], seconds: float) -> float:
    """Returns how many ``step`` calls a second are made in about ``seconds``."""
    rng = random.Random(1)
    n = 0
    start = time.perf_counter()
    while True:
        step(rng)
        n += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return n / elapsed


# Cards: suit * 10 + rank, the ranks of the 40-card pack A 2 3 4 5 6 7 J Q K (0..9).
_RANKS = "A234567JQK"
_SUITS = "sdch"


def _strength(card: int, trump: int, led: int) -> int:
    """A card's strength in a trick (higher wins): Spadille, Manille, Basto, the trumps, the
    suit led; 0 for any other card."""
    suit, rank = divmod(card, 10)
    red = suit in (1, 3)
    if card == 0:  # As, Spadille
        return 100
    manille = trump * 10 + (1 if red else 6)  # the 2 of a red trump, the 7 of a black one
    if card == manille:
        return 99
    if card == 20:  # Ac, Basto
        return 98
    if suit == trump:
        order = "KQJA34567"[::-1] if red else "KQJ65432"[::-1]  # weakest first
        return 50 + (order.index(_RANKS[rank]) if _RANKS[rank] in order else 0)
    if suit == led:
        plain = "A234567JQK" if red else "234567JQKA"
        return 1 + plain.index(_RANKS[rank])
    return 0


def hand_written_deal(rng: random.Random) -> None:
    cards = list(range(40))
    rng.shuffle(cards)
    hands = [cards[k * 10 : k * 10 + 10] for k in range(4)]
    trump = rng.randrange(4)
    leader = rng.randrange(4)
    won = [0, 0, 0, 0]
    for _ in range(10):
        trick: list[int] = []
        led = -1
        for k in range(4):
            seat = (leader + k) % 4
            hand = hands[seat]
            if led >= 0:
                follow = [c for c in hand if c // 10 == led]
                legal = follow or hand
            else:
                legal = hand
            card = legal[rng.randrange(len(legal))]
            hand.remove(card)
            if led < 0:
                led = card // 10
            trick.append(card)
        best = max(range(4), key=lambda k: _strength(trick[k], trump, led))
        leader = (leader + best) % 4
        won[leader] += 1


def spiel_playout(game: object) -> Callable[[random.Random], None]:
    def step(rng: random.Random) -> None:
        state = game.new_initial_state()  # type: ignore[attr-defined]
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])

    return step


def floor_game(pyspiel: Any) -> Any:
    """Registers and loads a Python game that does nothing: 40 chance nodes of 40 outcomes,
    then 45 moves of 5 legal actions each, over 4 players."""
    chance, moves = 40, 45
    game_type = pyspiel.GameType(
        short_name="bench_python_floor",
        long_name="bench_playouts: a Python game that does nothing",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=4,
        min_num_players=4,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=False,
        provides_observation_tensor=False,
        parameter_specification={},
    )
    outcomes = [(c, 1 / chance) for c in range(chance)]
    dealt = list(range(chance))
    legal = list(range(5))

    class State(pyspiel.State):  # type: ignore[misc]
        def __init__(self, game: Any) -> None:
            super().__init__(game)
            self.n = 0

        def current_player(self) -> int:
            n = self.n
            return -1 if n < chance else -4 if n >= chance + moves else n % 4

        def is_chance_node(self) -> bool:
            return self.n < chance

        def legal_actions(self, player: int | None = None) -> list[int]:
            return list(dealt if self.n < chance else legal)

        def _legal_actions(self, player: int) -> list[int]:
            return list(legal)

        def chance_outcomes(self) -> list[tuple[int, float]]:
            return list(outcomes)

        def _apply_action(self, action: int) -> None:
            self.n += 1

        def is_terminal(self) -> bool:
            return self.n >= chance + moves

        def returns(self) -> list[float]:
            return [0.0] * 4

    class Game(pyspiel.Game):  # type: ignore[misc]
        def __init__(self, params: Any = None) -> None:
            info = pyspiel.GameInfo(
                num_distinct_actions=chance,
                max_chance_outcomes=chance,
                num_players=4,
                min_utility=-1.0,
                max_utility=1.0,
                utility_sum=None,
                max_game_length=chance + moves,
            )
            super().__init__(game_type, info, params or {})

        def new_initial_state(self) -> State:
            return State(self)

    pyspiel.register_game(game_type, Game)
    return pyspiel.load_game("bench_python_floor")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    deals = 400
    api = max(referee_run("quadrille", deals, seed) for seed in (1, 2, 3))
    hand = rate(hand_written_deal, args.seconds)
    print(f"checked API, Quadrille (bench_referee loop)  {api:9.0f} deals/s")
    print(f"hand-written card-play loop, Quadrille       {hand:9.0f} deals/s")
    print(f"  checked API / hand-written                 {api / hand:9.2f} x  (target >= 0.8)")
    try:
        import pyspiel

        import engine.spiel  # noqa: F401  (registers ombre_workbench)
    except ImportError:
        print("open-spiel is not installed: no adapter or oh_hell figures")
        return 0
    ours = rate(
        spiel_playout(pyspiel.load_game("ombre_workbench(ruleset=quadrille)")), args.seconds
    )
    oh_hell = rate(
        spiel_playout(pyspiel.load_game("oh_hell(players=4,num_tricks_fixed=10)")), args.seconds
    )
    print(f"OpenSpiel adapter, Quadrille random playouts {ours:9.0f} deals/s")
    print(f"  adapter / checked API                      {ours / api:9.2f} x  (target >= 0.5)")
    floor = rate(spiel_playout(floor_game(pyspiel)), args.seconds)
    print(f"OpenSpiel oh_hell (C++, 4 players, 10 tricks) {oh_hell:8.0f} deals/s")
    print(f"  adapter / oh_hell                          {ours / oh_hell:9.2f} x  (target > 1)")
    print(f"a Python game doing nothing (85 moves)       {floor:9.0f} deals/s")
    print(f"  floor / oh_hell                            {floor / oh_hell:9.2f} x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Benchmark: episodes a CPU second of OpenSpiel's ``rl_environment`` with random agents,
information-state tensors on (prints figures, asserts nothing).

Each episode is one deal: ``rl_environment.Environment(game)`` resets, samples the chance
nodes itself, and at every step builds each seat's information-state tensor and legal actions;
a random agent picks the move of the seat to move. Measured on Quadrille through the
registered game (``ombre_workbench``: C++ states, each tensor copied by C++), through
:class:`engine.spiel.pystate.PythonGame` (states in Python alone, the tensors lists built from
their ones), and on OpenSpiel's C++ ``oh_hell`` (4 players, 10 tricks) in the same run.

    python benchmarks/bench_rl_environment.py [--seconds S] [--rounds R]

CPU time (``time.process_time``), the best of ``R`` rounds (2) of about ``S`` seconds (2)
a figure, the figures alternated within a round.
"""

from __future__ import annotations

import argparse
import time
from typing import Any


def episodes(game: Any, seconds: float) -> float:
    """Returns the episodes a CPU second of random agents in ``rl_environment``."""
    import numpy as np
    from open_spiel.python import rl_environment

    env = rl_environment.Environment(game)
    rng = np.random.RandomState(1)

    def episode() -> None:
        step = env.reset()
        while not step.last():
            player = step.observations["current_player"]
            legal = step.observations["legal_actions"][player]
            step = env.step([legal[rng.randint(len(legal))]])

    episode()  # warm up
    n = 0
    clock = time.process_time
    start = clock()
    while True:
        episode()
        n += 1
        elapsed = clock() - start
        if elapsed >= seconds:
            return n / elapsed


LINES = (
    ("adapter", "ombre_workbench, Quadrille (C++ states)"),
    ("python", "PythonGame, Quadrille (states in Python)"),
    ("oh_hell", "OpenSpiel oh_hell (C++, 4 players, 10 tricks)"),
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    import pyspiel

    import engine.spiel  # noqa: F401  (registers ombre_workbench)
    from engine.spiel.pystate import PythonGame

    games = {
        "adapter": pyspiel.load_game("ombre_workbench(ruleset=quadrille)"),
        "python": PythonGame({"ruleset": "quadrille"}),
        "oh_hell": pyspiel.load_game("oh_hell(players=4,num_tricks_fixed=10)"),
    }
    best: dict[str, float] = {}
    for _ in range(args.rounds):
        for key, game in games.items():
            best[key] = max(best.get(key, 0.0), episodes(game, args.seconds))
    print(
        "rl_environment episodes a CPU second, random agents, information-state tensors, "
        f"best of {args.rounds} rounds of about {args.seconds:g} s"
    )
    for key, text in LINES:
        print(f"{text:48s}{best[key]:8.1f}  episodes/s")
    print(f"{'  PythonGame / oh_hell':48s}{best['python'] / best['oh_hell']:8.2f}  x")
    print(f"{'  PythonGame / ombre_workbench':48s}{best['python'] / best['adapter']:8.2f}  x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""The OpenSpiel game hides a decision in progress: an écart entered one card at a time shows
its picks to the seat picking only, in every rule file's information states and observations.

These need the extra ``[openspiel]``, which ``make test`` installs.
"""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the [openspiel] extra is not installed")

import engine.spiel  # noqa: E402, F401  (registers the game)
from engine.rules.loader import default_registry  # noqa: E402
from engine.spiel import game_string  # noqa: E402
from engine.spiel.codec import DRAW_ID  # noqa: E402

ALL = [e.id for e in default_registry().entries()]


def _seen(state: object, p: int) -> tuple[object, ...]:
    out: list[object] = [
        state.information_state_string(p),  # type: ignore[attr-defined]
        state.information_state_tensor(p),  # type: ignore[attr-defined]
        state.observation_string(p),  # type: ignore[attr-defined]
        state.observation_tensor(p),  # type: ignore[attr-defined]
    ]
    return tuple(out)


@pytest.mark.parametrize("ruleset", ALL)
def test_the_picks_of_an_ecart_in_progress_are_the_pickers_only(ruleset: str) -> None:
    rng = random.Random(3)
    game = pyspiel.load_game(game_string(ruleset))
    n = game.num_players()
    picks_seen = picked = 0
    for _ in range(4):
        state = game.new_initial_state()
        before: dict[int, tuple[object, ...]] | None = None
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
                continue
            core = state.core
            seat = state.current_player()
            if core.picks and before is not None:
                for p in range(n):
                    if p != seat:
                        assert _seen(state, p) == before[p], (ruleset, p, core.picks)
                mine = state.information_state_string(seat)
                assert "picked=" in mine
                picks_seen += 1
            elif not core.picks:
                before = {p: _seen(state, p) for p in range(n)}
            legal = state.legal_actions()
            # Pick several cards one at a time where the écart allows it.
            picks = [a for a in legal if a != DRAW_ID]
            if core.deal is not None and core.deal.phase == "exchange" and picks:
                state.apply_action(rng.choice(picks))
                picked += 1
            else:
                state.apply_action(rng.choice(legal))
    # Every pick leaves a state with picks in progress, which was checked.
    assert picks_seen == picked

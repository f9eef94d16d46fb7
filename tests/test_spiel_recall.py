"""Perfect recall of the OpenSpiel game's information states (engine/spiel), on every canonical
rule file, along random playouts.

A seat's information state string must determine everything that seat did and saw: two
histories that give a seat the same information state give it the same sequence of its own
decisions (the information state at each and the action taken) and the same sequence of earlier
information states; and along a history the information state never forgets what it showed (the
cards dealt to the seat, the auction, the tricks, the seat's écart, the move count), nor does
its perfect-recall tensor clear a bit of the history it records.

These need the extra ``[openspiel]``, which ``make test`` installs.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the [openspiel] extra is not installed")

import engine.spiel  # noqa: E402, F401  (registers the game)
from engine.spiel import game_string  # noqa: E402

CANONICAL = ("ombre", "quadrille", "quadrille-a-trois", "mediateur")
# The perfect-recall tensor's pieces that record the history: once set, a bit stays set.
HISTORY_PIECES = ("dealt", "discarded", "drawn", "auction", "history", "leaders", "played")
_FIELD = re.compile(r" (?=[a-z_]+=)")


def _fields(text: str) -> dict[str, str]:
    """The ``key=value`` fields of an information state string."""
    return dict(part.split("=", 1) for part in _FIELD.split(text))


def _playouts(game: Any, rng: random.Random, trunks: int, branches: int) -> Iterator[list[Any]]:
    """Yields random histories, as the list of states along each, the deal's chance nodes
    included: ``trunks`` random histories, and ``branches`` random continuations of each from
    states along it (so that histories share a prefix, and some differ only by what a seat
    cannot see: a card dealt to another, another's écart)."""
    for _ in range(trunks):
        trunk = _continue(game.new_initial_state(), rng)
        yield trunk
        for _ in range(branches):
            k = rng.randrange(len(trunk) - 1)
            yield trunk[:k] + _continue(trunk[k].clone(), rng)


def _continue(state: Any, rng: random.Random) -> list[Any]:
    states = [state.clone()]
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        states.append(state.clone())
    return states


@pytest.mark.parametrize("ruleset", CANONICAL)
def test_information_state_determines_own_past(ruleset: str) -> None:
    game = pyspiel.load_game(game_string(ruleset))
    n = game.num_players()
    rng = random.Random(17)
    known: dict[tuple[int, str], tuple[Any, ...]] = {}
    met = 0  # pairs of different histories that met at one information state
    for states in _playouts(game, rng, trunks=3, branches=6):
        # Each seat's decisions (information state, action) and its information states so far
        # (a state the seat cannot tell from the one before adds nothing to what it saw).
        decisions: list[list[tuple[str, int]]] = [[] for _ in range(n)]
        seen: list[list[str]] = [[] for _ in range(n)]
        history = states[-1].history()
        for k, state in enumerate(states):
            for p in range(n):
                info = state.information_state_string(p)
                if not seen[p] or seen[p][-1] != info:
                    seen[p].append(info)
                past = (tuple(decisions[p]), tuple(seen[p]))
                here = tuple(state.history())
                before, where = known.setdefault((p, info), (past, here))
                if where != here:
                    met += 1
                    assert before == past, (
                        f"seat {p}: two histories give the information state {info!r} but "
                        "differ in what the seat did or saw before"
                    )
            if not state.is_terminal():
                player = state.current_player()
                action = history[len(state.history())]
                if player >= 0:
                    decisions[player].append((state.information_state_string(player), action))
            assert k == len(states) - 1 or len(states[k + 1].history()) == len(state.history()) + 1
    assert met > 100  # different histories met at equal information states, and agreed


@pytest.mark.parametrize("ruleset", CANONICAL)
def test_information_state_never_forgets(ruleset: str) -> None:
    game = pyspiel.load_game(game_string(ruleset))
    n = game.num_players()
    observer = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    rng = random.Random(23)
    state = game.new_initial_state()
    checked = 0
    for _ in range(6):
        state = game.new_initial_state()
        last: list[tuple[dict[str, str], dict[str, Any]] | None] = [None] * n
        while True:
            for p in range(n):
                fields = _fields(state.information_state_string(p))
                observer.set_from(state, p)
                bits = {k: observer.dict[k].copy() for k in HISTORY_PIECES}
                before = last[p]
                if before is not None:
                    old, old_bits = before
                    _assert_kept(p, old, fields)
                    for k in HISTORY_PIECES:
                        lost = old_bits[k] > bits[k]
                        assert not lost.any(), f"seat {p}: the tensor's {k} lost a bit"
                    checked += 1
                last[p] = (fields, bits)
            if state.is_terminal():
                break
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
    assert checked > 400


def _assert_kept(seat: int, old: dict[str, str], new: dict[str, str]) -> None:
    """What the seat's information state showed before, it shows now (extended, never cut)."""
    for key in ("dealt", "auction", "tricks", "ecart", "drew", "moves"):
        if key not in old:
            continue
        assert key in new, f"seat {seat}: {key}= was shown and is gone"
        was, now = old[key], new[key]
        if key == "dealt":
            assert now.split()[: len(was.split())] == was.split(), f"seat {seat}: dealt {was}"
        elif key in ("auction", "tricks"):
            assert now.startswith(was.removesuffix("]")), f"seat {seat}: {key} {was} -> {now}"
        elif key == "moves":
            assert int(now) >= int(was)
        else:
            assert now == was, f"seat {seat}: {key} {was} -> {now}"

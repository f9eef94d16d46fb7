"""OpenSpiel's conventions for the game's bounds and the card index table of docs/openspiel.md.

The bounds (OpenSpiel's ``spiel.h``): ``MaxGameLength`` counts the players' decisions, chance
nodes apart; ``MaxChanceNodesInHistory`` the chance nodes; ``MaxMoveNumber`` and
``MaxHistoryLength`` their sum. Each is checked over random deals of every rule file: a bound a
deal exceeds fails, and so does a bound that still counts the pack twice.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from engine.documents.card_index import BEGIN, END, card_index_table, with_card_index

ROOT = Path(__file__).resolve().parent.parent


def test_the_docs_card_index_table_is_the_engines() -> None:
    text = (ROOT / "docs" / "openspiel.md").read_text(encoding="utf-8")
    assert BEGIN in text and END in text
    assert with_card_index(text) == text, "run make docs: docs/openspiel.md's card index is stale"


def test_the_card_index_table_puts_each_card_at_its_index() -> None:
    from engine.cards import Card

    rows = [line for line in card_index_table().splitlines() if "---" not in line]
    header = [cell.strip() for cell in rows[0].strip("|").split("|")]
    ranks = header[1:]
    for row in rows[1:]:
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        letter = cells[0].split("`")[1]
        for rank, index in zip(ranks, cells[1:], strict=True):
            assert Card.parse(rank + letter).index == int(index)
    assert "| spades (`s`) | 0 | 1 |" in card_index_table()
    assert Card.parse("Ks").index == 1


def test_a_text_without_the_block_is_refused() -> None:
    with pytest.raises(ValueError, match="no card-index block"):
        with_card_index("# no block here\n")


def _rulesets() -> list[str]:
    from engine.rules.loader import default_registry

    return [e.id for e in default_registry().entries()]


def _play(game: object, seed: int) -> tuple[int, int, int]:
    rng = random.Random(seed)
    state = game.new_initial_state()  # type: ignore[attr-defined]
    decisions = chances = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
            chances += 1
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            decisions += 1
    return decisions, chances, state.move_number()


@pytest.mark.parametrize("ruleset", _rulesets())
def test_the_bounds_hold_and_count_chance_apart(ruleset: str) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    import engine.spiel  # noqa: F401  (registers the game)

    game = pyspiel.load_game(f"ombre_workbench(ruleset={ruleset})")
    chance_bound = game.max_chance_nodes_in_history()
    decision_bound = game.max_game_length()
    assert game.max_move_number() == decision_bound + chance_bound
    assert game.max_history_length() == decision_bound + chance_bound
    seen = [_play(game, seed) for seed in range(12)]
    for decisions, chances, moves in seen:
        assert decisions <= decision_bound
        assert chances == chance_bound, "every card of the pack is one chance node"
        assert moves <= game.max_move_number()


def test_the_zerosum_transform_plays_the_game() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    import engine.spiel  # noqa: F401

    game = pyspiel.load_game("zerosum(game=ombre_workbench(ruleset=ombre))")
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    plain = pyspiel.load_game("ombre_workbench(ruleset=ombre)")
    for seed in range(4):
        rng = random.Random(seed)
        state, base = game.new_initial_state(), plain.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                action = rng.choice([a for a, _ in state.chance_outcomes()])
            else:
                action = rng.choice(state.legal_actions())
            state.apply_action(action)
            base.apply_action(action)
        returns, raw = state.returns(), base.returns()
        assert abs(sum(returns)) < 1e-9
        mean = sum(raw) / len(raw)
        assert returns == pytest.approx([r - mean for r in raw])

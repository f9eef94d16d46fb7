"""The referee's derived answers (seating, the outcomes' kinds, the payment lines) are part of
the frozen ruleset: compiled once with it, never memoised in a global cache keyed by it."""

from __future__ import annotations

import ast
import gc
import random
import weakref
from pathlib import Path

from engine.referee import Deal, outcome_kind, outcome_kinds, seating
from engine.rules import load_ruleset
from tests.referee_helpers import fresh_ruleset

ROOT = Path(__file__).resolve().parent.parent


def test_the_answers_are_the_compiled_tables() -> None:
    rules = load_ruleset("quadrille")
    compiled = rules.compiled
    assert outcome_kinds(rules) is compiled.outcome_kinds
    assert outcome_kind(rules, "redeal") is compiled.outcome_kinds["redeal"]
    assert [seating(rules, d) for d in range(rules.players)] == list(compiled.seatings)
    assert all(seating(rules, d) is compiled.seatings[d] for d in range(rules.players))
    assert Deal(rules, dealer=2, seed=5).seating is compiled.seatings[2]
    assert compiled.payment_lines.stake[0] == "stake"


def test_a_ruleset_no_longer_used_is_freed() -> None:
    """A cache keyed by the ruleset would keep it alive after its last use."""
    rules = fresh_ruleset("ombre")
    rng = random.Random(3)
    for i in range(5):
        deal = Deal(rules, seed=i, dealer=i % rules.players)
        while not deal.is_over:
            legal = deal.legal_actions()
            deal.apply(legal[int(rng.random() * len(legal))])
        assert deal.settlement is not None and deal.settlement.payments
    assert outcome_kinds(rules)
    assert seating(rules, 0).eldest == 1
    ref = weakref.ref(rules)
    del rules, deal
    gc.collect()
    assert ref() is None


def test_no_global_cache_in_the_referee() -> None:
    """No function of the referee memoises through functools (lru_cache, cache)."""
    found = []
    for path in sorted((ROOT / "engine" / "referee").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                for dec in node.decorator_list:
                    target = dec.func if isinstance(dec, ast.Call) else dec
                    name = (
                        target.attr
                        if isinstance(target, ast.Attribute)
                        else getattr(target, "id", "")
                    )
                    if name in ("lru_cache", "cache"):
                        found.append(f"{path.name}:{node.lineno} {node.name}")
    assert found == []

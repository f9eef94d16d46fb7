"""The rule books' caches cannot go stale or collide: the worked settlements are kept per
ruleset, keyed by the RuleSet itself and held weakly, never by ``id(rules)`` (an address a later
ruleset may reuse) and never keeping a ruleset alive after its last use."""

from __future__ import annotations

import gc
import weakref

from engine.documents import book
from tests.referee_helpers import fresh_ruleset


def test_a_ruleset_whose_book_was_built_is_freed() -> None:
    rules = fresh_ruleset("quadrille")
    view = book.rule_view(rules)
    assert view.worked and view.worked_with_matadors
    assert book.rule_view(rules, worked=False).worked == ()
    ref = weakref.ref(rules)
    del rules, view
    gc.collect()
    assert ref() is None


def test_each_ruleset_has_its_own_worked_settlements() -> None:
    """Two rulesets never share an entry, whatever their addresses: each one's worked
    settlements are its own referee's, and asking again returns the kept ones."""
    first, second = fresh_ruleset("ombre"), fresh_ruleset("quadrille")
    a, b = book.worked_settlements(first), book.worked_settlements(second)
    assert book.worked_settlements(first) is a
    assert {w.contract.id for w in a} == set(first.contracts)
    assert {w.contract.id for w in b} == set(second.contracts)
    assert [w.settlement for w in a] == [w.settlement for w in book._worked(first, 0)]
    assert book.rule_view(second).worked is b

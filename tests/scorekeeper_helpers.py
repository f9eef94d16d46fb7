"""Entries for the scorekeeper's tests, shared by the test modules that score them."""

from __future__ import annotations


def quadrille_entry(**changes: object) -> dict[str, object]:
    """Returns a Quadrille deal as the scorekeeper's form takes it: seat 1 asks in clubs,
    calls the king of diamonds that seat 3 holds, and the side takes 6 tricks of 10 (no
    matadors, no vole); ``changes`` replace any field."""
    base: dict[str, object] = {
        "contract": "ask",
        "declarer": 1,
        "trump": "clubs",
        "called": "Kd",
        "holder": 3,
        "tricks": [1, 3, 3, 3],
        "matadors": 0,
        "vole": False,
    }
    base.update(changes)
    return base

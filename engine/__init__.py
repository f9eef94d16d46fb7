"""ombre-workbench: rules, referee and comparison documents for the Ombre family.

The public surface is small. Load a ruleset by id, alias or path, look at its rules, and
start a deal:

>>> from engine import Deal, Suit, load_ruleset
>>> quadrille = load_ruleset("quadrille")
>>> [str(c) for c in quadrille.trump_order(Suit.HEARTS)][:4]
['As', '7h', 'Ac', 'Ah']
>>> deal = Deal(quadrille, seed=1, dealer=0)
>>> deal.to_move, [str(a) for a in deal.legal_actions()]
(1, ['pass', 'bid ask', 'bid sans-prendre'])
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pathlib import Path

    from engine.actions import Action as Action
    from engine.cards import ALL_CARDS as ALL_CARDS
    from engine.cards import Card as Card
    from engine.cards import Colour as Colour
    from engine.cards import Rank as Rank
    from engine.cards import Suit as Suit
    from engine.cards import parse_cards as parse_cards
    from engine.errors import IllegalActionError as IllegalActionError
    from engine.errors import NotationError as NotationError
    from engine.errors import Problem as Problem
    from engine.errors import RecordError as RecordError
    from engine.errors import RuleFileError as RuleFileError
    from engine.referee import Deal as Deal
    from engine.referee.party import Party as Party
    from engine.rules.model import RuleSet as RuleSet

# The errors, the cards, the model and the referee are imported when first asked for, so that
# a command that needs none of them (``ombre --help`` printed from the cache) does not pay for
# them.
_LAZY = {
    "IllegalActionError": "engine.errors",
    "NotationError": "engine.errors",
    "Problem": "engine.errors",
    "RecordError": "engine.errors",
    "RuleFileError": "engine.errors",
    "ALL_CARDS": "engine.cards",
    "Card": "engine.cards",
    "Colour": "engine.cards",
    "Rank": "engine.cards",
    "Suit": "engine.cards",
    "parse_cards": "engine.cards",
    "Action": "engine.actions",
    "Deal": "engine.referee",
    "Party": "engine.referee.party",
    "RuleSet": "engine.rules.model",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'engine' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


__all__ = [
    "ALL_CARDS",
    "Action",
    "Card",
    "Colour",
    "Deal",
    "IllegalActionError",
    "NotationError",
    "Party",
    "Problem",
    "Rank",
    "RecordError",
    "RuleFileError",
    "RuleSet",
    "Suit",
    "load_ruleset",
    "parse_cards",
]

_CACHE: dict[str, RuleSet] = {}


def load_ruleset(name: str | Path) -> RuleSet:
    """Loads a ruleset or variant by id, alias (``hombre``, ``médiateur``) or path.

    The result is cached per process: rule files are read, resolved and checked once.

    :raises RuleFileError: with every located problem, if the file or a parent is invalid.
    :raises NotationError: if no ruleset has that name.
    """
    from engine.errors import NotationError
    from engine.rules.loader import default_registry
    from engine.rules.model import build_ruleset

    key = str(name)
    cached = _CACHE.get(key)
    if cached is not None:
        return cached
    registry = default_registry()
    entry = registry.find(key)
    if entry is None:
        import difflib

        names = registry.known_names()
        hints = difflib.get_close_matches(key.lower(), names, n=1, cutoff=0.6)
        if hints:
            raise NotationError(
                f"no ruleset or variant {key!r}; did you mean {hints[0]!r}? "
                "(ombre list shows them all)"
            )
        rulesets = ", ".join(e.id for e in registry.entries() if e.kind == "ruleset" and e.id)
        raise NotationError(
            f"no ruleset or variant {key!r} (the rulesets: {rulesets}; "
            "ombre list shows the variants too)"
        )
    ruleset = build_ruleset(registry.resolve(entry))
    _CACHE[key] = ruleset
    return ruleset

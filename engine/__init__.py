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
    from engine.rules import load_ruleset as load_ruleset
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
    "load_ruleset": "engine.rules",
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

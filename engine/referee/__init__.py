"""The referee: one deal in progress, from the deal to the settlement, driven by a RuleSet.

It knows mechanisms only -- speech in turn with precedence and "forcé" matching, an imposed
declarer when all pass, naming trumps, calling or demanding a card, the écart with a talon,
trick play with follow-suit and the matadors' privilege, the vole, the renonce, results and
settlement -- and the rule file says which a game uses.

The house has one module per phase around a small, explicit state
(:class:`~engine.referee.dealstate.DealState`, which :class:`Deal` builds on):

* :mod:`~engine.referee.auction` -- speech, bids, the "forcé" match, all passing;
* :mod:`~engine.referee.declarations` -- trumps, calls and demands, the card given back;
* :mod:`~engine.referee.exchange` -- the écart;
* :mod:`~engine.referee.play` -- tricks, the vole, the renonce;
* :mod:`~engine.referee.result` -- the result table and the settlement;
* :mod:`~engine.referee.tricks` -- following and winning a trick, shared with the bots;
* :mod:`~engine.referee.seating` -- who sits where: order of play, the seat out, opponents;
* :mod:`~engine.referee.settlement` -- the counters, the outcome's kind and the typed payment
  lines every reader shows.

Past the referee nobody works a rule out again: the deal's answers are typed values
(:class:`Seating`, :class:`OutcomeKind`, :class:`Payment` with its kind, items and bases,
:meth:`Deal.refusal`, :meth:`Deal.view` and its parts, :meth:`Deal.exchange_why`).

Each rule that constrains a decision is a staged filter written once: the legal actions are
what passes every stage, and anything else is refused by the first stage it fails, with a
stable code and the rule behind it (:class:`engine.errors.IllegalActionError`).

The same modules can run compiled (``make fast``: mypyc builds them in place from these
sources, ``make fast-clean`` removes the build); :func:`compiled` says which is in use.
"""

from __future__ import annotations

from engine.referee.deal import Deal
from engine.referee.dealstate import DealState
from engine.referee.declarations import trump_suits
from engine.referee.exchange import ExchangeLimit
from engine.referee.result import evaluate_result, match_result
from engine.referee.seating import Seating, seating
from engine.referee.settlement import (
    Alone,
    Game,
    Kind,
    OutcomeKind,
    Payment,
    PaymentKind,
    outcome_kind,
    outcome_kinds,
)
from engine.referee.state import PHASES, Phase, ResultMatch, Trick
from engine.referee.tricks import TrickRules
from engine.referee.view import View

__all__ = [
    "PHASES",
    "Alone",
    "Deal",
    "DealState",
    "ExchangeLimit",
    "Game",
    "Kind",
    "OutcomeKind",
    "Payment",
    "PaymentKind",
    "Phase",
    "ResultMatch",
    "Seating",
    "Trick",
    "TrickRules",
    "View",
    "compiled",
    "evaluate_result",
    "match_result",
    "outcome_kind",
    "outcome_kinds",
    "seating",
    "trump_suits",
]


def compiled() -> bool:
    """Checks if the referee in use is the compiled one (``make fast``; ``tools/build_fast.py``)
    rather than the pure-Python one: its classes are then mypyc's native classes, which list
    their attributes in ``__mypyc_attrs__``."""
    return hasattr(Deal, "__mypyc_attrs__")

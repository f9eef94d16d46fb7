"""What a finished deal leaves to settle: the referee's one account of a deal's end.

The referee writes an :class:`Outcome` at the end of every deal
(:func:`engine.referee.result.outcome`); the settlement reads it
(:func:`engine.referee.settlement.settle_outcome`), and nothing else is passed between them.
Both are typed tuples read by name (built by name too): one is made at the end of every deal
of every simulation, and a frozen dataclass of as many fields costs several times as much to
build.
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["Fault", "Outcome", "Transfer", "TurnedHand"]


class Transfer(NamedTuple):
    """A payment made during a deal, beside the settlement's items: a fee (the demanded card's,
    the surrendered card's) or a card held paid for."""

    payer: int
    payee: int
    amount: int
    item: str
    """The payment item's name (``FEE_DEMANDED``, ``FEE_SURRENDERED``, a held card's label)."""


class Fault(NamedTuple):
    """A fault scored in penalty points: its offender and the fault's id in
    ``settlement.penalties``."""

    seat: int
    fault: str


class TurnedHand(NamedTuple):
    """A hand turned up instead of the tricks: the offender, and the seat whose hand it was."""

    offender: int
    owner: int


class Outcome(NamedTuple):
    """What a finished deal leaves to settle, whatever lies on the table: the settlement of a
    deal is :func:`engine.referee.settlement.settle_outcome` of its outcome and the table it was dealt on."""

    dealer: int
    factor: int
    result: str
    contract: str | None
    declarer: int | None
    partner: int | None
    tricks: tuple[int, ...]
    matadors: int
    top_trump_holder: int | None
    """The seat that held the highest trump when play began (odd counters kept on the table
    go to it), None where the rules keep none or it was not asked for."""
    transfers: tuple[Transfer, ...]
    renonces: tuple[int, ...]
    trump_holders: tuple[int, ...] = ()
    """The seats that held a trump when play began, the holder of the highest first (asked for
    where the rules give a codille's odd counters to the highest trumps)."""
    penalties: tuple[Fault, ...] = ()
    """The faults committed in the deal, ``(offender, fault id of settlement.penalties)``."""
    favoured: frozenset[str] = frozenset()
    """The suit options (``kind: suit``) whose chosen suit is the deal's trump suit (the palo
    de favor's items are paid at their ``favourite_amount``)."""
    turned_hands: tuple[TurnedHand, ...] = ()
    """Each hand turned up instead of the tricks, (offender, owner): a bête borne by halves."""
    unclaimed: tuple[str, ...] = ()
    """Payment items not claimed before the next deal (``laws.claims_before_next_deal``): not
    paid."""
    extra_card: int | None = None
    """In a deal made void (``misdeal``), the seat found playing with a card too many: it makes
    a bête (``laws.eleven_cards``)."""
    top_taker: int | None = None
    """Under a contract every seat plays (``all_play``), the seat that took the most tricks,
    ties settled as the contract says: it scores the tariff's ``most_tricks``."""

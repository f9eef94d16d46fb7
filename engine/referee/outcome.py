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

__all__ = ["Outcome"]


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
    transfers: tuple[tuple[int, int, int, str], ...]
    renonces: tuple[int, ...]
    trump_holders: tuple[int, ...] = ()
    """The seats that held a trump when play began, the holder of the highest first (asked for
    where the rules give a codille's odd counters to the highest trumps)."""
    penalties: tuple[tuple[int, str], ...] = ()
    """The faults committed in the deal, ``(offender, fault id of settlement.penalties)``."""
    favoured: frozenset[str] = frozenset()
    """The suit options (``kind: suit``) whose chosen suit is the deal's trump suit (the palo
    de favor's items are paid at their ``favourite_amount``)."""
    turned_hands: tuple[tuple[int, int], ...] = ()
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

"""Who sits where: the one answer to the order of play, the seat that sits out, the seat of
each card of a trick, opponents, possible partners and the next dealer.

The referee deals, asks for speech and plays in this order, and the settlement pays the
opponents it names; every reader (documents, tables, simulation, the scorekeeper) asks a
:class:`Seating` instead of counting seats itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from engine.referee.state import Trick
from engine.rules.model import RuleSet, opponents_of

__all__ = ["Seating", "seating"]


@dataclass(frozen=True, slots=True)
class Seating:
    """The seats of one deal, by its dealer (the same for every deal he deals).

    Play goes to the right, from the eldest hand (the dealer's right). Where the rules have a
    seat sit the deal out (``players.sits_out``: the dealer, at a table of four), it is dealt
    nothing and never speaks or plays, but is an opponent in the settlement.
    """

    n: int
    """The seats at the table."""
    dealer: int
    eldest: int
    """The first to speak and to lead."""
    out: int | None
    """The seat that sits the deal out, None if every seat plays."""
    order: tuple[int, ...]
    """The seats that play, in turn from the eldest."""
    right: tuple[int, ...]
    """The seat that plays after each seat (its right-hand neighbour among those who play)."""

    @property
    def active(self) -> int:
        """Returns how many seats play."""
        return len(self.order)

    @property
    def next_dealer(self) -> int:
        """Returns the seat that deals next: the deal passes to the right."""
        return (self.dealer + 1) % self.n

    def in_turn(self, first: int) -> tuple[int, ...]:
        """Returns the seats that play, in turn from ``first`` (the seat out left out)."""
        i = self.order.index(first)
        return self.order[i:] + self.order[:i]

    def seat_of(self, trick: Trick | int, k: int) -> int:
        """Returns the seat that played the ``k``-th card (from 0) of a trick (or of the trick
        led by the seat ``trick``)."""
        seat = trick.leader if isinstance(trick, Trick) else trick
        right = self.right
        for _ in range(k):
            seat = right[seat]
        return seat

    def plays(self, trick: Trick) -> tuple[tuple[int, object], ...]:
        """Returns a finished trick's cards with the seat that played each, in play order."""
        seats = self.in_turn(trick.leader)
        return tuple(zip(seats, trick.cards, strict=False))

    def opponents(self, declarer: int, partner: int | None = None) -> tuple[int, ...]:
        """Returns the seats not on the declaring side, in turn from the declarer's right (the
        seat that sits out included: it pays and is paid as an opponent)."""
        return opponents_of(self.n, declarer, partner)

    def playing_opponents(self, declarer: int, partner: int | None = None) -> tuple[int, ...]:
        """Returns the opponents who play the deal (the seat that sits out left out)."""
        return tuple(s for s in self.opponents(declarer, partner) if s != self.out)

    def partners(self, declarer: int) -> tuple[int, ...]:
        """Returns the seats that may be the declarer's partner (whoever holds the card he
        calls): those who play, other than himself, in turn from his right."""
        return tuple(s for s in self.in_turn(declarer) if s != declarer)


@lru_cache(maxsize=256)
def seating(rules: RuleSet, dealer: int) -> Seating:
    """Returns the seating of a deal dealt by ``dealer`` under ``rules``: the public face of
    the plan compiled with the ruleset (:attr:`RuleSet.compiled`), so that who sits where is
    worked out once, in the model."""
    plan = rules.compiled.dealers[dealer]
    order = (plan.eldest, *reversed(plan.queue))
    return Seating(rules.players, dealer, plan.eldest, plan.out, order, plan.next_seat)

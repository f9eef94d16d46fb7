"""What the irregularities of a deal leave standing: the state the laws of the play keep.

A deal in which nobody broke a law keeps no such state (``DealState.irregular`` is None, and
the referee's hot paths stay as they are). Once an irregularity is declared
(:mod:`engine.referee.laws`), an :class:`Irregular` value records what it left: the cards made
public, the cards the adversaries called and the suit they named (which restrict what the seat
may play, :func:`restrict`, inside the referee's one play mask), the hands whose play they
dictate, whether the vole is barred and why, and the hands turned up (each a bête, borne by
halves). :mod:`engine.referee.remedies` applies it to the play. The value is immutable and replaced on each change, so a copied deal (a bot's
look-ahead) never shares a changing state with its original.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TypedDict

from engine.actions import Action

__all__ = ["Event", "Irregular", "IrregularView"]


class IrregularView(TypedDict):
    """What every seat sees of the irregularities of a deal (``Deal.view``'s ``irregular``)."""

    events: list[dict[str, object]]
    """The irregularities and remedies declared (:meth:`Event.as_json`)."""
    public: list[tuple[int, list[str]]]
    """Each seat's cards lying public (exposed, played out of turn, or a hand shown or turned)."""
    required: list[tuple[int, str]]
    """Cards called, each with its holder: he plays it at his first turn where he may."""
    suits: list[tuple[int, str]]
    """Suits named: that seat plays it at his next turn if he can."""
    dictated: list[int]
    """Seats whose cards the adversaries may call one by one."""
    vole_barred: str | None
    """The law that took the vole from the declaring side, if one did."""
    naming: int | None
    """The declarer who laid his hand down unnamed, until another names trumps."""


@dataclass(frozen=True, slots=True)
class Event:
    """One irregularity or remedy declared: who, what (the record's action), under which law
    (the ``laws:`` key), and at which trick (0 = the first; -1 before play)."""

    seat: int
    action: Action
    law: str
    trick: int

    def as_json(self) -> dict[str, object]:
        """Returns the event as in ``ombre replay --json`` (a deal's ``irregularities``)."""
        return {"seat": self.seat, "action": str(self.action), "law": self.law, "trick": self.trick}


@dataclass(frozen=True, slots=True)
class Irregular:
    """What the irregularities of a deal leave standing (see the module docstring)."""

    events: tuple[Event, ...] = ()
    public: tuple[tuple[int, int], ...] = ()
    """Single cards made public, still in their holder's hand: (seat, card)."""
    liable: tuple[tuple[int, int, str], ...] = ()
    """Cards the adversaries may call: (holder, card, law)."""
    required: tuple[tuple[int, int], ...] = ()
    """Cards called by an adversary: (holder, card); he plays it at his first turn where it is
    legal ("provided it does not cause a revoke")."""
    suits: tuple[tuple[int, int], ...] = ()
    """A suit an adversary named: (seat, suit 0-3); he plays it at his next turn if he can."""
    suit_remedies: tuple[int, ...] = ()
    """Offenders of a play out of turn whose adversaries may still name a suit."""
    shown: frozenset[int] = frozenset()
    """Seats whose whole hand lies shown (public)."""
    dictated: frozenset[int] = frozenset()
    """Seats whose every card the adversaries may call (cards shown before the game is won)."""
    vole_barred: str | None = None
    """The law (``laws:`` key) that took the vole from the declaring side, if one did."""
    turned: tuple[tuple[int, int], ...] = ()
    """Hands turned up instead of the tricks: (offender, owner); each makes a bête by halves."""
    naming: int | None = None
    """The declarer who laid his hand down without naming trumps, until another names them."""

    def add(self, event: Event, **changes: object) -> Irregular:
        """Returns the state with ``event`` recorded and ``changes`` made."""
        return replace(self, events=(*self.events, event), **changes)  # type: ignore[arg-type]

    def public_cards(self, hands: Sequence[int], seat: int) -> list[int]:
        """Returns the cards of ``seat``'s hand (``hands``: each seat's mask) that every seat
        may see now."""
        hand = hands[seat]
        if seat in self.shown:
            return [c for c in range(hand.bit_length()) if hand >> c & 1]
        return sorted({c for s, c in self.public if s == seat and hand >> c & 1})

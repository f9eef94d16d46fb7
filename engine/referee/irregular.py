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

from engine.actions import Action
from engine.referee.outcome import TurnedHand
from engine.referee.state import IrregularView
from engine.rules.model import PlayLaw

__all__ = [
    "Event",
    "Irregular",
    "IrregularView",
    "makes_known",
    "out_of_turn_bars_vole",
    "shown_dictated",
    "turnable",
]


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
    void: tuple[tuple[int, int], ...] = ()
    """Of :attr:`required`, the calls that bind nothing: the exposed card of a declarer who
    called his own king, called by one who could not know it before the king appeared
    (accepted, so that the answer does not tell him; conjecture, docs/decisions.md)."""
    suits: tuple[tuple[int, int], ...] = ()
    """A suit an adversary named: (seat, suit 0-3); he plays it at his next turn if he can."""
    void_suits: tuple[tuple[int, int], ...] = ()
    """Of :attr:`suits`, those that bind nothing: named by the offender's own partner, who could
    not know it before the called card appeared (accepted, so that the answer does not tell
    him; conjecture, docs/decisions.md)."""
    suit_remedies: tuple[int, ...] = ()
    """Offenders of a play out of turn whose adversaries may still name a suit."""
    shown: frozenset[int] = frozenset()
    """Seats whose whole hand lies shown (public)."""
    dictated: frozenset[int] = frozenset()
    """Seats whose every card the adversaries may call (cards shown before the game is won)."""
    vole_barred: str | None = None
    """The law (``laws:`` key) that took the vole from the declaring side, if one did."""
    turned: tuple[TurnedHand, ...] = ()
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


def shown_dictated(law: PlayLaw, on_side: bool, side_tricks: int) -> bool:
    """Checks if a hand shown by a seat (``on_side``: of the declaring side) when his side had
    ``side_tricks`` tricks is the adversaries' to dictate: shown before the game is won. The
    one statement of it, for the play (:func:`engine.referee.laws.apply`) and the
    scorekeeper (:func:`engine.referee.laws.declared_effects`); with ``bars_vole`` it takes
    the vole from the side too."""
    return on_side and side_tricks < law.before_side_tricks


def out_of_turn_bars_vole(law: PlayLaw, on_side: bool) -> bool:
    """Checks if a play out of turn by a seat (``on_side``: of the declaring side) takes the
    vole from his side (``bars_vole``, HOYLE-IE law 14)."""
    return law.bars_vole and on_side


def makes_known(seat: int, *, partner: int | None, eldest: int) -> bool:
    """Checks if ``seat``, leading one of ``laws.partner_known_no_vole``'s leads before the
    called card has appeared, makes himself known: he holds the called card (``partner``) and
    is not the eldest, whose lead is his duty."""
    return partner is not None and seat == partner and seat != eldest


def turnable(seat: int, target: int, n: int, out: int | None) -> bool:
    """Checks if ``seat`` can turn up ``target``'s hand: another seat of the deal, one that
    plays it (and, at the table, still holds cards)."""
    return target != seat and 0 <= target < n and target != out

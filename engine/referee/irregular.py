"""What the irregularities of a deal leave standing: the state the laws of the play keep.

A deal in which nobody broke a law keeps no such state (``Deal.irregular`` is None, and the
referee's hot paths stay as they are). Once an irregularity is declared
(:mod:`engine.referee.laws`), an :class:`Irregular` value records what it left: the cards made
public, the cards the adversaries called and the suit they named (which restrict what the seat
may play, :func:`restrict`, inside the referee's one play mask), the hands whose play they
dictate, whether the vole is barred and why, and the hands turned up (each a bête, borne by
halves). The value is immutable and replaced on each change, so a copied deal (a bot's
look-ahead) never shares a changing state with its original.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, TypedDict

from engine.actions import PLAY, Action
from engine.cards import Suit
from engine.referee.tricks import TRUMPS

if TYPE_CHECKING:
    from engine.referee.deal import Deal

__all__ = ["Event", "Irregular", "IrregularView", "after_lead", "after_play", "restrict", "view"]


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

    def public_cards(self, d: Deal, seat: int) -> list[int]:
        """Returns the cards of ``seat``'s hand that every seat may see now."""
        hand = d.hands[seat]
        if seat in self.shown:
            return [c for c in range(hand.bit_length()) if hand >> c & 1]
        return sorted({c for s, c in self.public if s == seat and hand >> c & 1})


def restrict(d: Deal, seat: int, mask: int) -> int:
    """Returns the cards ``seat`` may play, of the ``mask`` the trick rules allow, once the
    adversaries' remedies are applied: a called card that may be played must be; else a named
    suit, if he holds a card of it that may be played. Never empties a non-empty mask."""
    state = d.irregular
    if state is None:
        return mask
    called = 0
    for holder, card in state.required:
        if holder == seat:
            called |= 1 << card
    if called & mask:
        return called & mask
    for target, suit in state.suits:
        if target == seat and d.tr is not None and d.trump is not None:
            cls = TRUMPS if suit == d.trump else suit
            # The black aces are trumps whatever the suit: a named black suit is its plain
            # cards, a named trump suit every trump.
            same = mask & d.tr.class_mask[cls]
            if same:
                return same
    return mask


def after_play(d: Deal, seat: int, card: int) -> None:
    """Clears what a played card discharges: the call of that card, and the suit named for
    that seat (it binds his next play only)."""
    state = d.irregular
    if state is None:
        return
    required = tuple(r for r in state.required if r[1] != card)
    suits = tuple(s for s in state.suits if s[0] != seat)
    liable = tuple(x for x in state.liable if x[1] != card)
    public = tuple(x for x in state.public if x[1] != card)
    if (required, suits, liable, public) != (
        state.required,
        state.suits,
        state.liable,
        state.public,
    ):
        d.irregular = replace(state, required=required, suits=suits, liable=liable, public=public)


def after_lead(d: Deal, leader: int, led: int) -> None:
    """Applies ``laws.partner_known_no_vole`` to a finished trick led by ``leader`` with
    ``led``, before the called card's appearance in it is counted."""
    law = d.rules.play_laws.partner_known_no_vole
    if (
        law is None
        or d.partner is None
        or leader != d.partner
        or leader == d.eldest
        or d.partner_seen
        or d.trump is None
    ):
        return
    state = d.irregular if d.irregular is not None else Irregular()
    if state.vole_barred is not None:
        return
    named = d.rules.matador_names(tuple(Suit)[d.trump])
    leads = {card.index for card, name in named.items() if name in law.leads}
    if law.called_card and d.called is not None:
        leads.add(d.called)
    if led in leads:
        event = Event(leader, PLAY[led], "partner_known_no_vole", len(d._tricks))
        d.irregular = state.add(event, vole_barred="partner_known_no_vole")


def view(d: Deal) -> IrregularView | None:
    """Returns what every seat sees of the deal's irregularities (None if there are none)."""
    state = d.irregular
    if state is None:
        return None
    from engine.referee.state import SUIT_NAMES, card

    public = []
    for seat in range(d.n):
        cards = state.public_cards(d, seat)
        if cards:
            public.append((seat, [str(card(c)) for c in cards]))
    return {
        "events": [e.as_json() for e in state.events],
        "public": public,
        "required": [(h, str(card(c))) for h, c in state.required],
        "suits": [(s, SUIT_NAMES[x]) for s, x in state.suits],
        "dictated": sorted(state.dictated),
        "vole_barred": state.vole_barred,
        "naming": state.naming,
    }

"""The remedies the laws of the play leave standing, applied to the play.

The play's one legality generator (:func:`engine.referee.play.play_mask`) asks
:func:`restrict` what a card called or a suit named leaves of the cards the trick rules allow;
a card played discharges what it answers (:func:`after_play`); the referee applies
``laws.partner_known_no_vole`` at the end of each trick (:func:`after_lead`); and every seat
sees what the irregularities made public (:func:`public`, typed, for the tables' templates;
:func:`view`, its JSON in ``Deal.view``). The state is :class:`engine.referee.irregular.Irregular`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.actions import PLAY
from engine.cards import Card, Suit
from engine.referee.dealstate import DealState
from engine.referee.irregular import Event, Irregular, IrregularView, makes_known
from engine.referee.state import SUIT_NAMES, card
from engine.referee.tricks import TRUMPS

__all__ = ["PublicIrregularities", "after_lead", "after_play", "public", "restrict"]


def restrict(d: DealState, seat: int, mask: int) -> int:
    """Returns the cards ``seat`` may play, of the ``mask`` the trick rules allow, once the
    adversaries' remedies are applied: a called card that may be played must be; else a named
    suit, if he holds a card of it that may be played. Never empties a non-empty mask."""
    state = d.irregular
    if state is None:
        return mask
    called = 0
    for holder, c in state.required:
        if holder == seat and (holder, c) not in state.void:
            called |= 1 << c
    if called & mask:
        return called & mask
    for target, suit in state.suits:
        if (
            target == seat
            and (target, suit) not in state.void_suits
            and d.tr is not None
            and d.trump is not None
        ):
            cls = TRUMPS if suit == d.trump else suit
            # The black aces are trumps whatever the suit: a named black suit is its plain
            # cards, a named trump suit every trump.
            same = mask & d.tr.class_mask[cls]
            if same:
                return same
    return mask


def after_play(d: DealState, seat: int, card: int) -> None:
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
        d.irregular = replace(
            state,
            required=required,
            suits=suits,
            liable=liable,
            public=public,
            void=tuple(r for r in state.void if r[1] != card),
            void_suits=tuple(s for s in state.void_suits if s[0] != seat),
        )


def after_lead(d: DealState, leader: int, led: int) -> None:
    """Applies ``laws.partner_known_no_vole`` to a finished trick led by ``leader`` with
    ``led``, before the called card's appearance in it is counted."""
    law = d.rules.play_laws.partner_known_no_vole
    if (
        law is None
        or not makes_known(leader, partner=d.partner, eldest=d.eldest)
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
        event = Event(leader, PLAY[led], "partner_known_no_vole", len(d.played_tricks))
        d.irregular = state.add(event, vole_barred="partner_known_no_vole")


@dataclass(frozen=True, slots=True)
class PublicIrregularities:
    """What every seat sees of a deal's irregularities, typed: what the terminal and web tables
    show (:meth:`as_json` is ``Deal.view``'s ``irregular``)."""

    events: tuple[Event, ...]
    """The irregularities and remedies declared."""
    public: tuple[tuple[int, tuple[Card, ...]], ...]
    """Each seat's cards lying public (exposed, played out of turn, or a hand shown or turned)."""
    required: tuple[tuple[int, Card], ...]
    """Cards called, each with its holder: he plays it at his first turn where he may."""
    suits: tuple[tuple[int, str], ...]
    """Suits named, by seat: he plays it at his next turn if he can."""
    dictated: tuple[int, ...]
    """Seats whose cards the adversaries may call one by one."""
    vole_barred: str | None
    """The law that took the vole from the declaring side, if one did."""
    naming: int | None
    """The declarer who laid his hand down unnamed, until another names trumps."""

    def as_json(self) -> IrregularView:
        """Returns it as ``Deal.view``'s ``irregular``."""
        return {
            "events": [e.as_json() for e in self.events],
            "public": [(seat, [str(c) for c in cards]) for seat, cards in self.public],
            "required": [(h, str(c)) for h, c in self.required],
            "suits": list(self.suits),
            "dictated": list(self.dictated),
            "vole_barred": self.vole_barred,
            "naming": self.naming,
        }


def public(d: DealState) -> PublicIrregularities | None:
    """Returns what every seat sees of the deal's irregularities (None if there are none)."""
    state = d.irregular
    if state is None:
        return None
    shown = []
    for seat in range(d.n):
        cards = state.public_cards(d.hands, seat)
        if cards:
            shown.append((seat, tuple(card(c) for c in cards)))
    return PublicIrregularities(
        events=state.events,
        public=tuple(shown),
        required=tuple((h, card(c)) for h, c in state.required),
        suits=tuple((s, SUIT_NAMES[x]) for s, x in state.suits),
        dictated=tuple(sorted(state.dictated)),
        vole_barred=_public_bar(d, state),
        naming=state.naming,
    )


def _public_bar(d: DealState, state: Irregular) -> str | None:
    """Returns the law that barred the vole as every seat may know it. A play out of turn bars
    it only when made by the declaring side, so the bar would tell who the called card's holder
    is: until the called card has appeared, it is shown only when the declarer himself played
    out of turn (his side all know). The referee applies the bar all the same."""
    bar = state.vole_barred
    if bar != "out_of_turn" or d.partner_seen:
        return bar
    by = next((e.seat for e in state.events if e.law == "out_of_turn" and e.seat in d.side), None)
    return bar if by == d.declarer else None

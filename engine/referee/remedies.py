"""The remedies the laws of the play leave standing, applied to the play.

The play's one legality generator (:func:`engine.referee.play.play_mask`) asks
:func:`restrict` what a card called or a suit named leaves of the cards the trick rules allow;
a card played discharges what it answers (:func:`after_play`); the referee applies
``laws.partner_known_no_vole`` at the end of each trick (:func:`after_lead`); and every seat's
view shows what the irregularities made public (:func:`view`). The state is
:class:`engine.referee.irregular.Irregular`.
"""

from __future__ import annotations

from dataclasses import replace

from engine.actions import PLAY
from engine.cards import Suit
from engine.referee.dealstate import DealState
from engine.referee.irregular import Event, Irregular, IrregularView, makes_known
from engine.referee.state import SUIT_NAMES, card
from engine.referee.tricks import TRUMPS

__all__ = ["after_lead", "after_play", "restrict", "view"]


def restrict(d: DealState, seat: int, mask: int) -> int:
    """Returns the cards ``seat`` may play, of the ``mask`` the trick rules allow, once the
    adversaries' remedies are applied: a called card that may be played must be; else a named
    suit, if he holds a card of it that may be played. Never empties a non-empty mask."""
    state = d.irregular
    if state is None:
        return mask
    called = 0
    for holder, c in state.required:
        if holder == seat:
            called |= 1 << c
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
        d.irregular = replace(state, required=required, suits=suits, liable=liable, public=public)


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


def view(d: DealState) -> IrregularView | None:
    """Returns what every seat sees of the deal's irregularities (None if there are none)."""
    state = d.irregular
    if state is None:
        return None
    public = []
    for seat in range(d.n):
        cards = state.public_cards(d.hands, seat)
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

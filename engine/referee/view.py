"""What one seat may see of a deal (:meth:`engine.referee.Deal.view`), typed.

The view holds the engine's own values -- cards as :class:`~engine.cards.Card`, actions as
:class:`~engine.actions.Action`, suits as :class:`~engine.cards.Suit`, seats as ints, the
contract as the rule file's :class:`~engine.rules.model.Contract` -- and turns them into text
only in :meth:`View.as_json`. Nothing hidden from the seat is in it: two deals that differ
only in what the seat may not see give equal views.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NotRequired, TypedDict

from engine.actions import Action
from engine.cards import ALL_CARDS, Card, Suit
from engine.referee.remedies import PublicIrregularities
from engine.referee.state import IrregularView, Phase, Trick
from engine.rules.model import Contract

__all__ = ["View", "ViewJson"]


class ViewJson(TypedDict):
    """:meth:`View.as_json`: the view as text and numbers, seat actions as ``"SEAT VERB ..."``."""

    seat: int
    dealer: int
    eldest: int
    phase: str
    to_move: int | None
    hand: list[str]
    auction: list[str]
    declarer: int | None
    contract: str | None
    trump: str | None
    no_trumps: bool
    called: str | None
    partner: int | None
    demanded_from: int | None
    given: str | None
    turned: str | None
    talon: int
    exchanges: list[tuple[int, int]]
    trick: list[str]
    trick_leader: int
    tricks: list[dict[str, Any]]
    tricks_won: list[int]
    vole: bool
    legal: list[str]
    declarer_hand: list[str] | None
    irregular: NotRequired[IrregularView]


_NOTATION = tuple(str(c) for c in ALL_CARDS)
"""Each card's notation by its index (a look-up: the view is written often, by the OpenSpiel
observations among others)."""


def _cards(cards: tuple[Card, ...]) -> list[str]:
    notation = _NOTATION
    return [notation[c.index] for c in cards]


def _card(card: Card | None) -> str | None:
    return None if card is None else _NOTATION[card.index]


@dataclass(frozen=True, slots=True)
class View:
    """What one seat may see now: its hand, the public play, its choices."""

    seat: int
    dealer: int
    eldest: int
    phase: Phase
    to_move: int | None
    """None once the deal is over."""
    hand: tuple[Card, ...]
    """The seat's cards, highest first in the current ranking."""
    auction: tuple[tuple[int, Action], ...]
    """The speech so far, each action with the seat that spoke it (public)."""
    declarer: int | None
    contract: Contract | None
    trump: Suit | None
    """None before trumps are named, and under a contract without trumps."""
    no_trumps: bool
    """The contract is played without trumps (``trump`` is then None)."""
    called: Card | None
    partner: int | None
    """Known to the partner himself, to everybody once the called card is played."""
    demanded_from: int | None
    given: Card | None
    """The card given for a demanded one, if this seat may see it."""
    turned: Card | None
    """The card turned from the talon to fix trumps (the *vuelta*), shown to all."""
    talon: int
    """How many cards are left in the talon."""
    exchanges: tuple[tuple[int, int], ...]
    """Each écart made, as the seat and how many cards it discarded."""
    trick: tuple[Card, ...]
    """The trick on the table, in play order from its leader."""
    trick_leader: int
    tricks: tuple[Trick, ...]
    tricks_won: tuple[int, ...]
    vole: bool
    legal: tuple[Action, ...]
    """The legal actions, for the seat to move only."""
    declarer_hand: tuple[Card, ...] | None
    """The declarer's cards, shown to every seat under an open contract (*ouvert*) from the
    moment its rule says; None otherwise."""
    irregular: PublicIrregularities | None
    """The irregularities of the deal, where any was declared (the same for every seat)."""

    def as_json(self) -> ViewJson:
        """Returns the view as text and numbers (the form of records and JSON answers)."""
        trump = self.trump
        out: ViewJson = {
            "seat": self.seat,
            "dealer": self.dealer,
            "eldest": self.eldest,
            "phase": str(self.phase),
            "to_move": self.to_move,
            "hand": _cards(self.hand),
            "auction": [f"{s} {a}" for s, a in self.auction],
            "declarer": self.declarer,
            "contract": self.contract.id if self.contract is not None else None,
            "trump": trump.value if trump is not None else None,
            "no_trumps": self.no_trumps,
            "called": _card(self.called),
            "partner": self.partner,
            "demanded_from": self.demanded_from,
            "given": _card(self.given),
            "turned": _card(self.turned),
            "talon": self.talon,
            "exchanges": list(self.exchanges),
            "trick": _cards(self.trick),
            "trick_leader": self.trick_leader,
            "tricks": [t.as_json() for t in self.tricks],
            "tricks_won": list(self.tricks_won),
            "vole": self.vole,
            "legal": [str(a) for a in self.legal],
            "declarer_hand": _cards(self.declarer_hand) if self.declarer_hand is not None else None,
        }
        if self.irregular is not None:
            out["irregular"] = self.irregular.as_json()
        return out

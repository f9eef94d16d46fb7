"""The referee's small shared pieces: the phases, card masks, refusals and the finished trick.

Cards are handled as 0-39 indices and hands as bit masks (see :class:`engine.rules.model.Tables`).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, TypedDict

from engine.cards import ALL_CARDS, Card
from engine.errors import IllegalActionError
from engine.rules.model import Basis, ResultRule

__all__ = [
    "PHASES",
    "SUIT_NAMES",
    "IrregularView",
    "Phase",
    "ResultMatch",
    "Trick",
    "bits",
    "mask_of",
    "refuse",
]


class Phase(StrEnum):
    """The phase a deal is in (a ``str``: ``deal.phase == "play"`` holds)."""

    __hash__ = str.__hash__  # as fast as a str's, and equal to it

    AUCTION = "auction"
    MATCH = "match"
    TRUMP = "trump"
    CALL = "call"
    GIVE = "give"
    EXCHANGE = "exchange"
    PLAY = "play"
    VOLE = "vole"
    OVER = "over"
    SURRENDER = "surrender"
    """The holder of the called card may surrender it (*roi rendu*)."""
    RAISE = "raise"
    """The auction's winner names the contract he plays instead, or raises it (``pass``:
    he plays the contract he won)."""


PHASES: tuple[str, ...] = tuple(p.value for p in Phase)

# The members as plain names: reading an enum member off its class costs ten times more, and
# the referee compares phases on every action.
AUCTION, MATCH, TRUMP, CALL, GIVE, EXCHANGE, PLAY, VOLE, OVER, SURRENDER, RAISE = Phase

EXPECTED = {
    AUCTION: "pass or bid",
    MATCH: "pass or bid (take the overcall yourself)",
    TRUMP: "trump SUIT",
    CALL: "call CARD",
    GIVE: "give CARD",
    EXCHANGE: "discard CARD ... (or discard alone)",
    PLAY: "play CARD",
    VOLE: "vole, stop, or play CARD (which undertakes the vole)",
    OVER: "nothing: the deal is over",
    SURRENDER: "give CARD (surrender the called card) or pass (keep it)",
    RAISE: "bid CONTRACT (play it instead of the contract won) or pass (play the contract won)",
}

# The verbs each phase takes (renonce and notice only under a rule file that penalises them).
VERB_PHASES: dict[str, tuple[Phase, ...]] = {
    "pass": (Phase.AUCTION, Phase.MATCH, Phase.SURRENDER, Phase.RAISE),
    "bid": (Phase.AUCTION, Phase.MATCH, Phase.RAISE),
    "trump": (Phase.TRUMP,),
    "call": (Phase.CALL,),
    "give": (Phase.GIVE, Phase.SURRENDER),
    "discard": (Phase.EXCHANGE,),
    "defer": (Phase.EXCHANGE,),
    "play": (Phase.PLAY, Phase.VOLE),
    "vole": (Phase.VOLE,),
    "stop": (Phase.VOLE,),
    "renonce": (Phase.PLAY,),
    "notice": (Phase.PLAY, Phase.VOLE),
    # The irregularities (engine.referee.laws), written by the seat concerned at any turn.
    "misdeal": tuple(p for p in Phase if p is not Phase.OVER),
    "extra-card": (Phase.PLAY, Phase.VOLE),
    "retake": (Phase.OVER,),
}

SUIT_NAMES = ("spades", "clubs", "hearts", "diamonds")


def bits(mask: int) -> Iterator[int]:
    """Yields the card indices of a mask, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def mask_of(cards: Sequence[int]) -> int:
    """Returns the mask of some card indices."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def refuse(
    code: str, message: str, seat: int, action: object, rule: str = ""
) -> IllegalActionError:
    """Builds the refusal of ``action`` by ``seat``: a stable code, the reason, the rule."""
    return IllegalActionError(code, message, action=f"{seat} {action}", rule=rule)


@dataclass(frozen=True, slots=True)
class Trick:
    """A finished trick: its leader, the cards in play order from him, and its winner."""

    leader: int
    cards: tuple[Card, ...]
    winner: int

    def as_json(self) -> dict[str, Any]:
        """Returns the trick as in the ``ombre replay --json`` output."""
        return {"leader": self.leader, "cards": [str(c) for c in self.cards], "winner": self.winner}


@dataclass(frozen=True, slots=True)
class ResultMatch:
    """Why a deal has its result: the line of the rule file's results table that gave it (the
    first whose condition holds), and the lines above it, none of which held. The referee's
    answer to "why this result" (:attr:`engine.referee.Deal.result_match`,
    :func:`engine.referee.result.match_result`); readers show it, never look it up by name."""

    rule: ResultRule
    index: int
    """The line's position in ``results.rules`` (from 0)."""
    before: tuple[ResultRule, ...]
    """The lines above it, tried first: none of them held."""

    @property
    def result(self) -> str:
        """Returns the result's name."""
        return self.rule.result

    @property
    def basis(self) -> Basis:
        """Returns the line's basis (evidence and citations)."""
        return self.rule.basis


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


def card(index: int) -> Card:
    """Returns the card of an index."""
    return ALL_CARDS[index]

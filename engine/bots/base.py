"""The bot interface, the random bot, and what a seat knows of a deal in play.

Everything here reads only what the seat may see: its own hand, the public actions of the
deal (``Deal.history``: bids, trumps, the called card, the cards played), its own écart, the
number of cards each player holds, and the partner once the called card has been played (or
if it is the partner).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from engine.actions import Action
from engine.referee import Deal

__all__ = [
    "REMEDIES",
    "Bot",
    "Knowledge",
    "RandomBot",
    "bits",
    "honest",
    "knowledge",
    "known_adversaries",
    "played_cards",
    "take_remedies",
    "unseen",
]

REMEDIES = ("require", "require-suit")
"""The laws' verbs a bot may take as a remedy when an adversary's irregularity gives it one
(``Deal.declarable``): it never commits an irregularity itself."""


class Bot:
    """A player: given a deal and its seat, returns one of the legal actions.

    ``rng`` is the bot's random generator; a simulation gives every deal a fresh one so that a
    deal's play depends only on the run's seed and the deal's number.
    """

    name = "bot"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, deal: Deal, seat: int) -> Action:
        """Returns the action to take (one of ``deal.legal_actions()``)."""
        raise NotImplementedError

    def remedy(self, deal: Deal, seat: int) -> Action | None:
        """Returns the remedy ``seat`` takes now, of those the referee offers it against an
        adversary's irregularity (``deal.declarable(seat)``: a card called, a suit named), or
        None to take none. The tables ask every bot between two moves
        (:func:`take_remedies`); this bot takes none."""
        return None


class RandomBot(Bot):
    """Picks a uniformly random legal action (never a revoke)."""

    name = "random"

    def choose(self, deal: Deal, seat: int) -> Action:
        legal = honest(deal)
        return legal[int(self.rng.random() * len(legal))]


def honest(deal: Deal) -> Sequence[Action]:
    """The legal actions less revoking and pointing out revokes (legal only in a rule file
    that penalises them, for refereeing records): bots follow suit."""
    legal = deal.legal_actions()
    if deal.rules.renonce == "penalised":
        return [a for a in legal if a.verb not in ("renonce", "notice")]
    return legal


def known_adversaries(deal: Deal, seat: int) -> list[int]:
    """Returns the seats ``seat`` knows to be its adversaries in the deal in play, from what it
    may know (``Deal.partner_known_to``): all of them once it knows the partner; before that,
    a defender knows only the declarer, and the declarer knows nobody (his friend is hidden)."""
    if deal.declarer is None:
        return []
    if deal.partner_known_to(seat):
        side = deal.side
        mine = side if seat in side else [s for s in range(deal.n) if s not in side]
        return [s for s in range(deal.n) if s not in mine and s != deal.out]
    return [] if seat == deal.declarer else [deal.declarer]


def take_remedies(
    deal: Deal, bots: Sequence[Bot], people: Sequence[int]
) -> list[tuple[int, Action]]:
    """Asks each bot (the seats not in ``people``) for a remedy until none takes one more, and
    applies them; returns what was taken, in order (for the tables to tell)."""
    taken: list[tuple[int, Action]] = []
    while deal.irregular is not None and not deal.is_over and len(taken) < 4 * deal.n:
        for seat in range(deal.n):
            if seat in people:
                continue
            action = bots[seat].remedy(deal, seat)
            if action is not None:
                deal.apply(action, seat=seat)
                taken.append((seat, action))
                break
        else:
            break
    return taken


# The card indices of each 10-bit quarter of a mask, by quarter: one look-up a quarter.
_QUARTERS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(10 * q + i for i in range(10) if v >> i & 1) for v in range(1 << 10))
    for q in range(4)
)


def bits(mask: int) -> list[int]:
    """Returns the cards (0-39) of a mask, lowest index first."""
    if 0 <= mask < 1 << 40:
        q = _QUARTERS
        return [
            *q[0][mask & 1023],
            *q[1][mask >> 10 & 1023],
            *q[2][mask >> 20 & 1023],
            *q[3][mask >> 30],
        ]
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def played_cards(deal: Deal) -> int:
    """Returns the cards played so far (the trick in progress included), a mask: every seat
    sees them. The same cards as :attr:`Knowledge.played`, without the rest of
    :func:`knowledge`."""
    played = 0
    for _, cards, _ in deal.played_tricks:
        for c in cards:
            played |= 1 << c
    for c in deal.trick:
        played |= 1 << c
    return played


def unseen(deal: Deal, seat: int) -> int:
    """Returns the cards ``seat`` has not seen: not in its hand, not played, not in its own
    écart (the others' hands, the talon left, the others' écarts), a mask."""
    out = 0
    for who, discarded, _ in deal.exchanges:  # the écart as the referee keeps it
        if who == seat:
            for c in discarded:
                out |= 1 << c
    return deal.t.deck_mask & ~played_cards(deal) & ~deal.hands[seat] & ~out


@dataclass(slots=True)
class Knowledge:
    """What one seat knows during the play."""

    played: int
    """Cards played so far (the current trick included)."""
    played_by: list[int]
    """Per seat, the cards it has played."""
    forbidden: list[int]
    """Per seat, cards it cannot hold: suits it failed to follow (see :func:`knowledge`)."""
    located: list[int]
    """Per seat, unplayed cards known to be in its hand (the seat's own hand for itself)."""
    out: int
    """Cards known to be out of play: this seat's own écart."""
    partner_known: bool
    """Whether this seat knows who the partner is (or that there is none)."""


def knowledge(deal: Deal, seat: int) -> Knowledge:
    """Returns what ``seat`` knows of the cards, from the public play and its own hand.

    A seat that did not follow a suit led holds none of it -- except, when trumps were led, the
    privileged matadors above the trump led, which it may keep back.
    """
    n = deal.n
    played = 0
    played_by = [0] * n
    forbidden = [0] * n
    located = [0] * n
    out = 0
    trump = deal.trump
    t = deal.t
    follow = t.follow[trump] if trump is not None else None
    class_mask = t.class_mask[trump] if trump is not None else None
    exempt = t.exempt[trump] if trump is not None else None
    # The cards on the table, from the referee's record of the tricks (a renonce pointed out
    # and taken back is no longer there): its raw form, (leader, card indices, winner).
    # A player who did not follow is void there -- unless the rule file lets revokes stand
    # until noticed, when he may have revoked.
    infer = follow is not None and deal.rules.renonce != "penalised"
    seat_at = deal.seat_at
    tricks: list[tuple[int, Sequence[int]]] = [
        (lead, cards) for lead, cards, _ in deal.played_tricks
    ]
    if deal.trick:
        tricks.append((deal.leader, deal.trick))
    for leader, cards in tricks:
        led = cards[0]
        for k, card in enumerate(cards):
            who = seat_at(leader, k)  # the referee's seating
            bit = 1 << card
            played |= bit
            played_by[who] |= bit
            if k and infer and follow is not None and class_mask is not None:
                cls = follow[led]
                if follow[card] != cls:
                    lacks = class_mask[cls]
                    if cls == 4 and exempt is not None:
                        lacks &= ~exempt[led]
                    forbidden[who] |= lacks
    for who, discarded, _ in deal.exchanges:  # the écart as the referee keeps it
        if who == seat:
            for c in discarded:
                out |= 1 << c
    # What the seat may know is the referee's answer (what Deal.view shows it).
    partner_known = deal.partner_known_to(seat)
    called = deal.called
    if called is not None and not played >> called & 1:
        if deal.contract is not None and deal.contract.help == "demand":
            # A demanded card passes openly to the declarer.
            if deal.declarer is not None:
                located[deal.declarer] |= 1 << called
        elif partner_known and deal.partner is not None:
            located[deal.partner] |= 1 << called
    given = deal.given
    if (
        given is not None
        and not played >> given & 1
        and deal.demanded_from is not None
        and deal.given_visible_to(seat)
    ):
        located[deal.demanded_from] |= 1 << given
    if deal.declarer is not None and deal.declarer_shown():
        # An open contract: the declarer's hand lies on the table for all to see.
        located[deal.declarer] = deal.hands[deal.declarer]
    located[seat] = deal.hands[seat]
    return Knowledge(played, played_by, forbidden, located, out, bool(partner_known))

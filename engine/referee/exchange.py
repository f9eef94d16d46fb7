"""The écart: each exchanger in turn discards and draws as many from the talon.

Staged filter for a discard: every card named is held (``discard/not-in-hand``; a card named
twice is refused when the ``Action`` is built), and no more than the limit
(``discard/too-many``): the talon left, the first exchanger's maximum (or the contract's own
``exchange_limits.declarer_max`` for the declarer), and what a middle exchanger must leave for
the last unless he holds a matador; and, for the declarer, no fewer than his duty to buy
(``discard/must-buy``: ``exchange.declarer_min`` or the contract's own, one more where the
card turned from the talon does not count, ``besides_turned``).

Where the first defender may let the other exchange first (``exchange.defenders:
either-first``), he may ``defer`` once, and exchanges after him (``defer/not-now`` otherwise).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from collections.abc import Sequence as SequenceABC
from dataclasses import dataclass
from itertools import combinations
from math import comb
from typing import overload

from engine.actions import DEFER, Action
from engine.cards import ALL_CARDS, Card
from engine.enums import Defenders, Exchange
from engine.errors import IllegalActionError
from engine.referee import play
from engine.referee.dealstate import DealState
from engine.referee.state import EXCHANGE, bits, refuse
from engine.rules.model import Basis

__all__ = ["Discards", "ExchangeLimit", "begin", "least", "limit", "limit_of", "may_defer"]

# Enum members as plain names (reading one off its class costs far more than a global).
_EITHER_FIRST = Defenders.EITHER_FIRST
_NO_EXCHANGE = Exchange.NONE


_set = object.__setattr__


def _discard(cards: tuple[Card, ...]) -> Action:
    """A ``discard`` of distinct cards of a hand, built without the checks of ``Action``."""
    # ``Action.__new__``, not ``object.__new__``: the compiled Action (``make fast``) is made
    # only by its own; interpreted the two are the same call.
    action = Action.__new__(Action)
    _set(action, "verb", "discard")
    _set(action, "contract", None)
    _set(action, "suit", None)
    _set(action, "cards", cards)
    _set(action, "seat", None)
    _set(action, "word", None)
    return action


class Discards(SequenceABC[Action]):
    """Every legal écart, as a lazy sequence: the discards of 0 to ``most`` cards of a hand.

    There can be hundreds (2**9 for a hand of nine), so they are made only when asked for,
    like python-chess's legal-move view: ``len``, indexing (by combinatorial unranking, in
    order of size then of card), iteration and ``in`` all work without building the list.
    """

    def __init__(self, cards: list[int], most: int, least: int = 0) -> None:
        self.cards = cards
        self.most = most
        self.least = least
        self.sizes = [comb(len(cards), k) if k >= least else 0 for k in range(most + 1)]

    def __len__(self) -> int:
        return sum(self.sizes)

    @overload
    def __getitem__(self, index: int) -> Action: ...
    @overload
    def __getitem__(self, index: slice) -> list[Action]: ...
    def __getitem__(self, index: int | slice) -> Action | list[Action]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        k = 0
        while index >= self.sizes[k]:
            index -= self.sizes[k]
            k += 1
        # Unrank the index-th k-combination of the cards in lexicographic order.
        chosen: list[int] = []
        n = len(self.cards)
        start = 0
        for left in range(k, 0, -1):
            for i in range(start, n):
                count = comb(n - i - 1, left - 1)
                if index < count:
                    chosen.append(self.cards[i])
                    start = i + 1
                    break
                index -= count
        return _discard(tuple(ALL_CARDS[c] for c in chosen))

    def __iter__(self) -> Iterator[Action]:
        for k in range(self.least, self.most + 1):
            for combo in combinations(self.cards, k):
                yield _discard(tuple(ALL_CARDS[c] for c in combo))

    def __contains__(self, action: object) -> bool:
        if not isinstance(action, Action) or action.verb != "discard":
            return False
        chosen = [c.index for c in action.cards]
        return self.least <= len(chosen) <= self.most and set(chosen) <= set(self.cards)


@dataclass(frozen=True, slots=True)
class ExchangeLimit:
    """How many cards the exchanger to move may discard, and why (:meth:`Deal.exchange_why`)."""

    most: int
    talon: int
    """The cards left in the talon (he draws as many as he discards)."""
    first_max: int | None
    """The first exchanger's maximum (``exchange.first_max``), when it applies to him."""
    leave: int
    """What a middle exchanger must leave in the talon for the last (0: nothing)."""
    exempt: int | None
    """The matador (a card index) that frees a middle exchanger from leaving them, if he holds
    one (``exchange.leave_unless_matador``): he may take the whole talon."""
    basis: Basis
    """The écart's rule (``exchange``)."""
    least: int = 0
    """The fewest he may discard: the declarer's duty to buy (0: none)."""
    turned_counts: bool = True
    """False where the duty to buy does not count the card turned from the talon (he must
    take :attr:`least` cards, the turned one among them, ``besides_turned``)."""
    contract_max: int | None = None
    """The contract's own maximum for the declarer (``exchange_limits.declarer_max``)."""

    @property
    def exempt_card(self) -> Card | None:
        """Returns the matador that frees him, as a card."""
        return None if self.exempt is None else ALL_CARDS[self.exempt]


def _limit(d: DealState) -> tuple[int, int, int | None, int, int | None]:
    """The écart's limit for the player to move: (most, talon left, first maximum, cards to
    leave, the matador that frees him), each rule read once."""
    seat = d.to_move
    left = len(d.talon) - d.talon_pos
    most = min(left, d.hands[seat].bit_count())
    rules = d.rules
    first_max = None
    contract = d.contract
    if seat == d.declarer and contract is not None and contract.exchange_max is not None:
        most = min(most, contract.exchange_max)
    elif d.exchanger_index == 0 and rules.exchange_first_max is not None:
        first_max = rules.exchange_first_max
        most = min(most, first_max)
    leave = 0
    exempt = None
    if 0 < d.exchanger_index < len(d.exchangers) - 1 and rules.exchange_leave_at_least:
        leave = rules.exchange_leave_at_least
        if rules.exchange_leave_unless_matador and d.trump is not None:
            exempt = next((c for c in d.t.privileged[d.trump] if d.hands[seat] >> c & 1), None)
        if exempt is None:
            most = min(most, max(0, left - leave))
    return most, left, first_max, leave, exempt


def least(d: DealState) -> tuple[int, bool]:
    """The declarer's duty to buy: (the fewest cards he may discard now, whether the card
    turned from the talon counts toward it); (0, True) for anyone else."""
    contract = d.contract
    if d.to_move != d.declarer or contract is None:
        return 0, True
    rules = d.rules
    duty = (
        contract.exchange_min if contract.exchange_min is not None else rules.exchange_declarer_min
    )
    counts = True
    if duty and rules.exchange_besides_turned and contract.trump_from_talon:
        # The turned card is the first he draws: one more must be taken besides it.
        duty += 1
        counts = False
    return duty, counts


def limit_of(d: DealState) -> ExchangeLimit:
    """Returns how many cards the player to move may discard now, and why."""
    rules = d.rules
    most, left, first_max, leave, exempt = _limit(d)
    fewest, counts = least(d)
    contract = d.contract
    own = contract.exchange_max if contract is not None and d.to_move == d.declarer else None
    return ExchangeLimit(
        most,
        left,
        first_max,
        leave,
        exempt,
        rules.basis_at(("exchange",)),
        min(fewest, most),
        counts,
        own,
    )


def limit(d: DealState) -> int:
    """Returns how many cards the player to move may discard now (:func:`limit_of`)."""
    return _limit(d)[0]


def may_defer(d: DealState) -> bool:
    """Checks if the player to move may let the other defender exchange first: the first
    defender to exchange after the declarer, once, under ``exchange.defenders:
    either-first``."""
    return (
        d.rules.exchange_defenders is _EITHER_FIRST
        and not d.deferred
        and d.exchanger_index == 1
        and d.exchangers[0] == d.declarer
        and len(d.exchangers) > 2
    )


def legal(d: DealState) -> Sequence[Action]:
    most = limit(d)
    discards = Discards(sorted(bits(d.hands[d.to_move])), most, min(least(d)[0], most))
    if may_defer(d):
        return [DEFER, *discards]
    return discards


def refusal(d: DealState, action: Action) -> IllegalActionError | None:
    seat = d.to_move
    if action.verb == "defer":
        if may_defer(d):
            return None
        return refuse(
            "defer/not-now",
            "only the first defender to exchange after the declarer may let the other "
            "exchange first, once"
            if d.rules.exchange_defenders is Defenders.EITHER_FIRST
            else f"{d.rules.id}: the defenders exchange in turn",
            seat,
            action,
            d.rules.cite(("exchange",)),
        )
    for c in action.cards:
        if not d.hands[seat] >> c.index & 1:
            return refuse("discard/not-in-hand", f"seat {seat} does not hold {c}", seat, action)
    most = limit(d)
    if len(action.cards) > most:
        why = limit_of(d)
        left = why.talon
        reason = f"seat {seat} may discard at most {most} (talon holds {left})"
        if why.first_max is not None and most == why.first_max < left:
            reason += f": the first to exchange takes at most {why.first_max}"
        elif why.leave and why.exempt is None and most == max(0, left - why.leave):
            reason += (
                f": a middle player leaves {why.leave} for the last unless he holds a matador"
                if d.rules.exchange_leave_unless_matador
                else f": a middle player leaves {why.leave} for the last"
            )
        return refuse("discard/too-many", reason, seat, action, d.rules.cite(("exchange",)))
    fewest, counts = least(d)
    fewest = min(fewest, most)
    if len(action.cards) < fewest:
        contract = d.contract
        assert contract is not None
        path: tuple[str, ...] = (
            ("auction", "contracts", contract.id)
            if contract.exchange_min is not None
            else ("exchange",)
        )
        reason = f"seat {seat} declares {contract.id} and must take at least {fewest}"
        if not counts:
            reason += f" ({fewest - 1} besides the card turned from the talon)"
        return refuse("discard/must-buy", reason, seat, action, d.rules.cite(path))
    return None


def begin(d: DealState) -> None:
    """Starts the écart after the declarations, or the play when there is none."""
    assert d.contract is not None and d.declarer is not None
    kind = d.contract.exchange
    if kind is not _NO_EXCHANGE and d.talon:
        order = d.seating.in_turn(d.declarer)
        if kind is Exchange.DECLARER_ONLY:
            d.exchangers = [d.declarer]  # nobody else exchanges (the contrabola)
        else:
            d.exchangers = list(order[0 if kind is Exchange.DECLARER_FIRST else 1 :])
        d.exchanger_index = 0
        d.phase = EXCHANGE
        d.to_move = d.exchangers[0]
        return
    play.begin(d)


def apply(d: DealState, seat: int, action: Action) -> None:
    if action.verb == "defer":
        # He exchanges after the other defender: the two swap places in the order.
        d.deferred = True
        order = d.exchangers
        order[1], order[2] = order[2], order[1]
        d.to_move = order[1]
        return
    discards = tuple(c.index for c in action.cards)
    k = len(discards)
    drawn = tuple(d.talon[d.talon_pos : d.talon_pos + k])
    d.talon_pos += k
    for c in discards:
        d.hands[seat] &= ~(1 << c)
    for c in drawn:
        d.hands[seat] |= 1 << c
    d.exchanges.append((seat, discards, drawn))
    d.exchanger_index += 1
    if d.exchanger_index < len(d.exchangers):
        d.to_move = d.exchangers[d.exchanger_index]
        return
    play.begin(d)

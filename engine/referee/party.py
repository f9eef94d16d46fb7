"""A party: deals in a row, the deal passing to the right, the pot and bêtes carried over.

>>> from engine import load_ruleset
>>> party = Party(load_ruleset("quadrille"))
>>> deal = party.new_deal(seed=1)
>>> deal.dealer, party.next_dealer
(0, 1)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Generic, Protocol, TypeVar

from engine.cards import Card
from engine.errors import NotationError
from engine.referee import deal_laws as laws
from engine.referee.deal import Deal
from engine.referee.settlement import PaymentKind, SettlementResult, TableState
from engine.rules.model import RuleSet

__all__ = [
    "Party",
    "SettledDeal",
    "Standing",
    "deals_counted",
    "last_tour_factor",
    "party_leaders",
    "party_over",
]


def last_tour_factor(rules: RuleSet, index: int) -> int:
    """Returns the multiplier of deal ``index`` (from 0) of a party: the rule file's ``party``
    makes the last tour of each party of ``tours`` tours (a deal by each player) pay more."""
    party = rules.party
    if party is None or party.tours is None:
        return 1
    per_party = party.tours * rules.players
    last = index % per_party >= per_party - rules.players
    return party.last_tour_factor if last else 1


def deals_counted(rules: RuleSet, results: Iterable[str | None]) -> int:
    """Returns how many of the finished deals that ended in ``results`` count in a party (its
    tours, its ``deals``, ``ombre play --deals``): all but a deal made void and dealt again by
    the same dealer ("le coup seroit nul, & il faudroit refaire", ENC-Q), whose place the deal
    dealt again takes (inferred; docs/decisions.md). The one statement of it, for the party,
    the terminal table and the scorekeeper."""
    return sum(1 for result in results if not laws.dealt_again(rules, result))


def party_over(rules: RuleSet, totals: Sequence[int], finished: int) -> bool:
    """Checks if a party of the rule file's ``party`` is over after ``finished`` deals with these
    totals (the deals that count, :func:`deals_counted`): a seat has reached the ``target``
    ("The first player to reach the target score (default: 12 points) wins the match.",
    roc-online), or the ``deals`` are played."""
    party = rules.party
    if party is None or not finished:
        return False
    if party.target is not None:
        return max(totals) >= party.target
    return party.deals is not None and finished >= party.deals


def party_leaders(totals: Sequence[int]) -> list[int]:
    """Returns the seats at the highest total: the party's winners once it is over
    (:func:`party_over`). The one statement of it, for the party and the scorekeeper."""
    best = max(totals)
    return [seat for seat, total in enumerate(totals) if total == best]


class SettledDeal(Protocol):
    """What a party reads of each of its deals, played card by card (:class:`Deal`) or
    entered from a real table (the scorekeeper's deal): who dealt, how it ended, what it
    settled."""

    @property
    def dealer(self) -> int: ...

    @property
    def result(self) -> str | None:
        """The result (None while the deal is being played)."""

    @property
    def settlement(self) -> SettlementResult | None:
        """The counters it moved (None while the deal is being played)."""


D = TypeVar("D", bound=SettledDeal)


class Standing(Generic[D]):
    """A party's deals so far and what they add up to: who deals next, what lies on the table,
    the running balances, whether the party is over. The one account of it, for the party
    played at a table (:class:`Party`) and the evening entered at the scorekeeper
    (``engine.scoresheet.Evening``).

    A subclass gives ``rules``, ``first_dealer``, ``start`` (the table before the first deal)
    and ``deals``, oldest first.
    """

    rules: RuleSet
    first_dealer: int
    start: TableState
    deals: list[D]

    def factor_for(self, index: int) -> int:
        """Returns the multiplier of deal ``index`` (from 0): see :func:`last_tour_factor`. A
        deal made void and dealt again by the same dealer is not a deal of the tour: the
        deals before ``index`` count without them."""
        before = self.deals[:index]
        void = len(before) - self._counted(before)  # the deals not played yet count as deals
        return last_tour_factor(self.rules, index - void)

    def _counted(self, deals: Iterable[D]) -> int:
        return deals_counted(self.rules, (d.result for d in deals if d.result is not None))

    @property
    def counted(self) -> int:
        """Returns how many finished deals count in the party (:func:`deals_counted`): a deal
        made void and dealt again by the same dealer does not."""
        return self._counted(self.deals)

    @property
    def next_dealer(self) -> int:
        """Returns the seat that deals next (the deal passes to the right; a misdeal dealt
        again by the same dealer stays with him: :func:`~engine.referee.deal_laws.dealer_after`)."""
        if not self.deals:
            return self.first_dealer
        last = self.deals[-1]
        return laws.dealer_after(self.rules, last.dealer, last.result)

    @property
    def table(self) -> TableState:
        """Returns what lies on the table after the last finished deal."""
        for deal in reversed(self.deals):
            settled = deal.settlement
            if settled is not None:
                return settled.table
        return self.start

    @property
    def totals(self) -> list[int]:
        """Returns each seat's running balance over the finished deals."""
        totals = [0] * self.rules.players
        for deal in self.deals:
            settled = deal.settlement
            if settled is not None:
                for seat, amount in enumerate(settled.balances):
                    totals[seat] += amount
        return totals

    @property
    def penalty_points(self) -> list[int]:
        """Returns each seat's penalty points over the finished deals (``settlement.penalties``,
        the faults scored outside the deal's result), as points lost: they are in
        :attr:`totals` already, and the standing shows them beside it."""
        lost = [0] * self.rules.players
        for deal in self.deals:
            settled = deal.settlement
            if settled is not None:
                for p in settled.payments:
                    if p.kind is PaymentKind.PENALTY and p.payer_seat is not None:
                        lost[p.payer_seat] += p.amount
        return lost

    @property
    def over(self) -> bool:
        """Checks if the party the rule file plays is over: a seat's total has reached its
        ``target``, or its ``deals`` are played (a party of ``tours`` goes on: the tours only
        say which deals pay more)."""
        return party_over(self.rules, self.totals, self.counted)

    @property
    def leaders(self) -> list[int]:
        """Returns the seats at the highest total (the party's winners once it is over)."""
        return party_leaders(self.totals)


class Party(Standing[Deal]):
    """Deals played one after another under one ruleset and setup.

    Each new deal is dealt by the seat on the previous dealer's right and starts from what the
    previous deal left on the table; :attr:`totals` are the running balances.
    """

    def __init__(
        self,
        rules: RuleSet,
        *,
        options: Mapping[str, Any] | None = None,
        first_dealer: int = 0,
        table: TableState | None = None,
    ) -> None:
        self.rules = rules
        rules.resolve_options(options)  # an unknown option or choice is refused at once
        self.options = dict(options or {})
        self.first_dealer = first_dealer
        self.start = table if table is not None else TableState()
        self.deals: list[Deal] = []

    @property
    def finished(self) -> list[Deal]:
        """Returns the deals that are over."""
        return [d for d in self.deals if d.is_over]

    def new_deal(
        self,
        *,
        seed: int | None = None,
        hands: Sequence[Sequence[Card | str]] | None = None,
        talon: Sequence[Card | str] | None = None,
        dealer: int | None = None,
        machine_dealt: bool = False,
    ) -> Deal:
        """Starts the next deal (the previous one must be over).

        :raises NotationError: if the previous deal is unfinished, the party is over, the
            dealer is out of turn, or the hands do not fit the rules.
        """
        if self.deals and not self.deals[-1].is_over:
            raise NotationError("the previous deal is not finished")
        if self.over:
            # A seat reached the target, or the deals are played: no record may go on past it
            # (ombre replay refuses such a record: record/party-over).
            raise NotationError("the party is over: no deal is dealt after its end")
        expected = self.next_dealer
        if dealer is not None and dealer != expected:
            raise NotationError(
                f"the deal passes to the right: seat {expected} deals next, not seat {dealer}"
            )
        deal = Deal(
            self.rules,
            factor=self.factor_for(len(self.deals)),
            dealer=expected,
            seed=seed,
            hands=hands,
            talon=talon if talon is not None or hands is None else [],
            options=self.options or None,
            table=self.table,
            machine_dealt=machine_dealt,
        )
        self.deals.append(deal)
        return deal

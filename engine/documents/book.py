"""A ruleset as a book: the typed view ``ombre show`` and the rule books are rendered from.

:func:`rule_view` gathers what the templates need beyond the :class:`RuleSet` itself: the card
tables for every trump suit, the variant's own changes (each with its file and line), and the
worked payments. The worked payments are not written by anyone: for every contract and every
result the rule file can produce, a trick count that gives that result is found by the
referee's own result table (:func:`engine.referee.evaluate_result`) and the deal is settled by
the referee's settlement (:func:`engine.referee.settlement.settle`) on a fresh table, so a figure in a
book is what the referee would pay.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from engine.cards import Card, Suit
from engine.documents import repo_path
from engine.enums import Help
from engine.referee.play import could_undertake_vole
from engine.referee.seating import Seating, seating
from engine.referee.seating import side_tricks as count_side_tricks
from engine.referee.settlement import (
    FEE_DEMANDED,
    POT,
    PaymentKind,
    SettlementResult,
    TableState,
    outcome_kind,
    settle,
    stakes_for,
)
from engine.rules.model import Basis, Contract, RuleSet
from engine.rules.reader import json_path

__all__ = [
    "Change",
    "ContractExample",
    "RuleView",
    "TrumpCard",
    "TrumpTable",
    "Worked",
    "contract_examples",
    "rule_view",
    "show_text",
    "trump_table",
    "worked_settlements",
]


@dataclass(frozen=True, slots=True)
class TrumpCard:
    """A trump in its place: the card, its name (Spadille ...) and whether it is a matador."""

    card: Card
    name: str
    matador: bool


@dataclass(frozen=True, slots=True)
class TrumpTable:
    """Every card's rank when one suit is trumps: the trumps, then each plain suit."""

    trump: Suit
    trumps: tuple[TrumpCard, ...]
    plain: tuple[tuple[Suit, tuple[Card, ...]], ...]

    @property
    def size(self) -> int:
        """Returns how many cards the table ranks."""
        return len(self.trumps) + sum(len(cards) for _, cards in self.plain)


@dataclass(frozen=True, slots=True)
class Change:
    """A value this file itself sets over its parent: the YAML path and ``file:line``."""

    path: str
    where: str


@dataclass(frozen=True, slots=True)
class ExampleSeats:
    """Who sits where in the worked payments (the referee's seating of a deal dealt by seat 0),
    for the book to print, not to count."""

    dealer: int
    declarer: int
    """The eldest hand, who declares every worked example."""
    partner: int | None
    """The seat that holds the called card when a contract calls a partner
    (:func:`example_partner`); None when no contract gives the declarer one."""
    fee_payee: int
    """The seat paid a demanded card's fee: the declarer's first opponent."""


def example_seats(rules: RuleSet) -> ExampleSeats:
    """Returns the seats of the worked payments, as :func:`worked_settlements` seats them."""
    dealer = 0
    seats = seating(rules, dealer)
    declarer = seats.eldest
    partners = (
        example_partner(seats, declarer, c)
        for c in sorted(rules.contracts.values(), key=lambda c: (c.rank, c.id))
    )
    partner = next((p for p in partners if p is not None), None)
    return ExampleSeats(dealer, declarer, partner, seats.opponents(declarer)[0])


@dataclass(frozen=True, slots=True)
class Worked:
    """One worked settlement: a contract, a result, the tricks, and what the referee pays."""

    contract: Contract
    result: str
    dealer: int
    declarer: int
    partner: int | None
    tricks: tuple[int, ...]
    """Tricks each seat took, seat 0 (the dealer) first."""
    vole_undertaken: bool
    matadors: int
    settlement: SettlementResult
    each: tuple[int, ...]
    """What each opponent paid the declaring side in items (negative: was paid), by opponent."""
    sole: bool
    """The declarer took too few tricks to share the loss with his partner."""
    seats: Seating
    """The deal's seating (the referee's)."""

    @property
    def opponents(self) -> tuple[int, ...]:
        """Returns the defenders' seats in order of play from the declarer."""
        return self.seats.opponents(self.declarer, self.partner)

    @property
    def side_tricks(self) -> int:
        """Returns the tricks the declaring side took."""
        side = (self.declarer,) if self.partner is None else (self.declarer, self.partner)
        return count_side_tricks(self.tricks, side)

    @property
    def uniform(self) -> int | None:
        """Returns the amount every opponent paid (or was paid), None if they differ."""
        return self.each[0] if self.each and len(set(self.each)) == 1 else None


@dataclass(frozen=True)
class RuleView:
    """A ruleset and what its book shows beyond the model itself."""

    rules: RuleSet
    file: str
    """The rule file as the repository names it."""
    deck_size: int
    tables: tuple[TrumpTable, ...]
    contracts: tuple[Contract, ...]
    """The contracts, lowest first."""
    changes: tuple[Change, ...]
    worked: tuple[Worked, ...]
    matador_example: int
    """How many matadors the 'with matadors' column of the payment table counts."""
    worked_with_matadors: tuple[Worked, ...]
    codille_remainder_basis: Basis | None
    seats: ExampleSeats
    """Who deals, declares, holds the called card and is paid a fee in the worked payments."""
    no_trumps: bool = False
    """Some contract is played without trumps: the book gives the order without trumps."""


def trump_table(
    rules: RuleSet, trump: Suit, options: Mapping[str, Any] | None = None
) -> TrumpTable:
    """Returns every card's rank with ``trump`` as trumps, for a setup (``ombre cards``)."""
    names: dict[Card, tuple[str, bool]] = {}
    for top in rules.top_trumps:
        card = top.card_for(trump)
        if card is not None and card not in names:
            names[card] = (top.name, top.matador)
    present = {c.suit for c in rules.deck(options)}
    trumps = tuple(
        TrumpCard(c, *names.get(c, ("", False))) for c in rules.trump_order(trump, options)
    )
    plain = tuple(
        (s, tuple(rules.plain_order(s, trump, options)))
        for s in Suit
        if s is not trump and s in present
    )
    return TrumpTable(trump, trumps, plain)


def _tables(rules: RuleSet) -> tuple[TrumpTable, ...]:
    present = rules.tables().trump_suits
    return tuple(trump_table(rules, t) for t in Suit if t.index in present)


def _changes(rules: RuleSet) -> tuple[Change, ...]:
    listed: dict[str, str] = {}
    for path, (file, line, _column) in rules.overrides:
        # A changed citation is one change, however many of its fields are set.
        cut = path[: path.index("basis") + 1] if "basis" in path else path
        where = f"{repo_path(file)}:{line}" if line is not None else repo_path(file)
        listed.setdefault(json_path(cut), where)
    return tuple(Change(k, v) for k, v in listed.items())


# Worked settlements.


def _distributions(total: int, n: int) -> Iterator[tuple[int, ...]]:
    """Every way of sharing ``total`` tricks among ``n`` seats."""
    for bars in combinations(range(total + n - 1), n - 1):
        prev = -1
        parts = []
        for b in (*bars, total + n - 1):
            parts.append(b - prev - 1)
            prev = b
        yield tuple(parts)


def _evaluate(
    rules: RuleSet, won: tuple[int, ...], side: list[int], vole: bool, contract: str
) -> str:
    from engine.referee import evaluate_result

    return evaluate_result(
        rules, won, side, vole_undertaken=vole, played=rules.hand_size, contract=contract
    )


ContractExample = tuple[str, tuple[int, ...], bool, bool]
FEE = FEE_DEMANDED
_NOT_ITEMS = (
    PaymentKind.STAKE,
    PaymentKind.POT,
    PaymentKind.BOARD,
    PaymentKind.BETE,
    PaymentKind.FEE,
)


def example_partner(seats: Seating, declarer: int, contract: Contract) -> int | None:
    """Returns the partner a worked example gives the declarer of ``contract``: under a called
    card, one of the seats the referee lets hold it (:meth:`Seating.partners`), the middle one in
    turn from his right; None when he plays alone (no call, or too few players for a side of
    two against two)."""
    if contract.help is not Help.CALL or seats.active < 4:
        return None
    candidates = seats.partners(declarer)
    return candidates[(len(candidates) - 1) // 2]


# What the worked payments cost to find, kept as long as their ruleset lives: keyed by the
# RuleSet itself (a frozen value compared by identity, so two rulesets never share an entry),
# held weakly (the entry goes with the ruleset; the values hold no reference back to it), so an
# entry can neither outlive its ruleset nor be found again by a later one at the same address.
_EXAMPLES: weakref.WeakKeyDictionary[RuleSet, dict[str, list[ContractExample]]] = (
    weakref.WeakKeyDictionary()
)
_WORKED: weakref.WeakKeyDictionary[RuleSet, dict[int, tuple[Worked, ...]]] = (
    weakref.WeakKeyDictionary()
)


def contract_examples(rules: RuleSet, contract: Contract) -> list[ContractExample]:
    """Returns the worked examples of a contract (found once per ruleset and contract)."""
    mine = _EXAMPLES.setdefault(rules, {})
    hit = mine.get(contract.id)
    if hit is None:
        hit = mine[contract.id] = _find_examples(rules, contract)
    return hit


def worked_settlements(rules: RuleSet, matadors: int = 0) -> tuple[Worked, ...]:
    """Returns the worked settlements of every contract with ``matadors`` paid matadors, as the
    book shows them (settled once per ruleset and count, then kept while the ruleset lives)."""
    mine = _WORKED.setdefault(rules, {})
    hit = mine.get(matadors)
    if hit is None:
        hit = mine[matadors] = _worked(rules, matadors)
    return hit


def _find_examples(rules: RuleSet, contract: Contract) -> list[ContractExample]:
    """Returns ``(result, tricks, vole undertaken, sole)`` examples for one contract.

    For each result the rules can give, the example is the boundary case (the fewest tricks
    that still win, the most that still lose), the declarer taking the larger share. Where a
    declarer with too few tricks pays a loss alone, that case is shown as well. The results
    are the contract's own (a results rule may name its contracts); a contract that announces
    the vole always plays for it; a seat that sits the deal out (the dealer, seat 0) takes no
    trick.
    """
    seats = seating(rules, 0)
    declarer = seats.eldest
    partner = example_partner(seats, declarer, contract)
    side = [declarer] if partner is None else [declarer, partner]
    sole_below = rules.sole_liability_below
    can_be_sole = partner is not None and sole_below is not None and not contract.shared_liability
    chosen: dict[tuple[str, bool], tuple[tuple[int, ...], bool, tuple[Any, ...]]] = {}
    out = seats.out
    playing = seats.active
    for shared in _distributions(rules.hand_size, playing):
        won = (0, *shared) if out is not None else shared
        side_tricks = count_side_tricks(won, side)
        opponents = [won[s] for s in seats.playing_opponents(declarer, partner)]
        spread = max(opponents) - min(opponents) if opponents else 0
        if contract.announces_vole:
            voles: tuple[bool, ...] = (True,)
        else:
            voles = (False, True) if contract.vole_allowed else (False,)
        for vole in voles:
            if vole and not could_undertake_vole(rules, contract, side_tricks):
                continue
            result = _evaluate(rules, won, side, vole, contract.id)
            if result not in rules.outcomes:
                continue
            wins = outcome_kind(rules, result).won
            sole = bool(can_be_sole and sole_below is not None and won[declarer] < sole_below)
            if sole and wins:
                continue
            # The declarer takes about half the side's tricks, but enough not to pay alone.
            target = min(side_tricks, max(-(-side_tricks // 2), sole_below or 0))
            if sole:
                target = min(side_tricks, (sole_below or 1) - 1)
            key = (
                side_tricks if wins else -side_tricks,
                abs(won[declarer] - target),
                spread,
                won,
            )
            slot = (result, sole)
            if slot not in chosen or key < chosen[slot][2]:
                chosen[slot] = (won, vole, key)
    order: dict[str, int] = {}
    for i, r in enumerate(rules.results):
        order.setdefault(r.result, i)
    rows = [(result, won, vole, sole) for (result, sole), (won, vole, _) in chosen.items()]
    rows.sort(key=lambda row: (order.get(row[0], 99), row[3]))
    return rows


def _worked(rules: RuleSet, matadors: int) -> tuple[Worked, ...]:
    n = rules.players
    placed = example_seats(rules)
    dealer = placed.dealer
    seats = seating(rules, dealer)
    declarer = placed.declarer
    stakes = stakes_for(rules, dealer, n, rules.stakes)
    out = []
    for contract in sorted(rules.contracts.values(), key=lambda c: (c.rank, c.id)):
        partner = example_partner(seats, declarer, contract)
        for result, won, vole, sole in contract_examples(rules, contract):
            opponents = seats.opponents(declarer, partner)
            # A demanded card's fee is paid during the deal, here to the first opponent.
            fee = rules.demand.fee if contract.help == "demand" and rules.demand else None
            transfers = (
                [(declarer, placed.fee_payee, fee.amount, FEE)]
                if fee is not None and fee.amount
                else []
            )
            s = settle(
                rules,
                n=n,
                table=TableState(),
                stakes=stakes,
                result=result,
                contract=contract.id,
                declarer=declarer,
                partner=partner,
                tricks=won,
                matadors=matadors,
                spadille_holder=None,
                transfers=transfers,
            )
            each = []
            for o in opponents:
                net = 0
                for p in s.payments:
                    if p.kind in _NOT_ITEMS or POT in (p.payer, p.payee):
                        continue
                    if p.payer_seat == o:
                        net += p.amount
                    elif p.payee_seat == o:
                        net -= p.amount
                each.append(net)
            out.append(
                Worked(
                    contract,
                    result,
                    dealer,
                    declarer,
                    partner,
                    won,
                    vole,
                    matadors,
                    s,
                    tuple(each),
                    sole,
                    seats,
                )
            )
    return tuple(out)


def show_text(rules: RuleSet) -> str:
    """Returns ``ombre show``'s text for a ruleset (rendered once per distinct input)."""
    import json

    from engine.render import render_cached

    key = (
        json.dumps(rules.plain(), sort_keys=True, ensure_ascii=False).encode(),
        f"{rules.kind}\0{repo_path(rules.file)}\0{rules.chain}".encode(),
        repr([(p, (repo_path(f), line)) for p, (f, line, _c) in rules.overrides]).encode(),
    )
    return render_cached("show.txt.j2", key, lambda: {"view": rule_view(rules, worked=False)})


def rule_view(rules: RuleSet, *, worked: bool = True) -> RuleView:
    """Returns the book view of a ruleset (``worked=False`` skips the payment tables).

    Its costly part, the worked settlements, is kept per ruleset
    (:func:`worked_settlements`); the rest is built at each call.
    """
    remainder_basis = rules.codille_remainder_basis
    example = max(rules.paid_minimum, 1)
    return RuleView(
        rules=rules,
        file=repo_path(rules.file),
        deck_size=len(rules.deck()),
        tables=_tables(rules),
        contracts=tuple(sorted(rules.contracts.values(), key=lambda c: (c.rank, c.id))),
        changes=_changes(rules) if rules.extends else (),
        worked=worked_settlements(rules, 0) if worked else (),
        matador_example=example,
        worked_with_matadors=worked_settlements(rules, example) if worked else (),
        codille_remainder_basis=remainder_basis,
        seats=example_seats(rules),
        no_trumps=any(c.no_trumps for c in rules.contracts.values()),
    )

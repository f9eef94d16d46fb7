"""Settlement in counters: stakes, pot, bêtes and the payment items, from the rule file.

What is on the table carries from deal to deal in a :class:`TableState`: the pot (a remise's
stake, bêtes), the bête now in play and whether the game has "doubled", and any odd counters
kept for the next holder of the highest trump. :func:`settle` applies one deal's result to it:

* the pot goes to the declaring side, to the opponents (shared, odd counters kept back), to the
  single opponent who won codille, or stays;
* each opponent pays the declaring side the ``receive`` items, or is paid the ``pay`` items;
* partners share half and half, the declarer taking the odd counter, unless he took fewer
  tricks than the sole-liability threshold (and the contract does not always share);
* a lost game makes a bête that goes into the pot for the next deal.

Counters are conserved: ``sum(balances) + pot_after - pot_before == 0`` for every deal.

The counters are settled at once; the payment lines that explain them (:attr:`SettlementResult.payments`)
are written only when asked for, by the same :func:`settle` run again on the same inputs: a
simulation that needs only the balances does not pay for the lines.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from functools import partial
from typing import NamedTuple

from engine.enums import BeteCap, BeteGoing, CodilleRemainder, Pot
from engine.referee.outcome import Fault, Outcome, Transfer, TurnedHand
from engine.rules.model import (
    ELEVEN_BETE,
    FEE_DEMANDED,
    FEE_SURRENDERED,
    MISDEAL,
    Alone,
    Basis,
    Game,
    Item,
    Kind,
    OutcomeItems,
    OutcomeKind,
    OutcomeRule,
    PaymentKind,
    PaymentLines,
    RuleSet,
    held_label,
    opponents_of,
    stakes_of,
)
from engine.rules.model import PaymentLine as _Line

__all__ = [
    "FEE_DEMANDED",
    "FEE_SURRENDERED",
    "MISDEAL",
    "POINTS_LINE",
    "POT",
    "SCORE",
    "Account",
    "Alone",
    "Game",
    "Kind",
    "Outcome",
    "OutcomeKind",
    "Payment",
    "PaymentKind",
    "Roles",
    "SettlementResult",
    "TableState",
    "deal_stakes",
    "held_label",
    "outcome_kind",
    "outcome_kinds",
    "pays_alone",
    "role_balances",
    "settle",
    "settle_outcome",
    "stakes_for",
]

# Enum members as plain names (reading one off its class costs far more than a global).
_ALL = BeteGoing.ALL
_CAP_STAKES = BeteCap.STAKES
_LARGEST_FIRST = BeteGoing.LARGEST_FIRST
_NEXT_SPADILLE = CodilleRemainder.NEXT_SPADILLE
_HIGHEST_TRUMPS = CodilleRemainder.HIGHEST_TRUMPS
_SIDE, _OPPONENTS, _CODILLE_WINNER, _STAYS, _BOARD = (
    Pot.SIDE,
    Pot.OPPONENTS,
    Pot.CODILLE_WINNER,
    Pot.STAYS,
    Pot.BOARD,
)


@dataclass(frozen=True, slots=True)
class TableState:
    """What lies on the table between deals."""

    pot: int = 0
    """Counters on the table, waiting bêtes and odd counters included."""
    betes: tuple[int, ...] = ()
    """The bêtes waiting on the table (counted in :attr:`pot`), one entry per deal that made
    them, largest first: "les plus grosses bêtes passent toujours les premieres" (ENC-Q)."""
    doubled: bool = False
    """The previous bête was a first bête made by remise: the game has doubled."""
    remainder: int = 0
    """Odd counters kept for whoever holds the highest trump of the next deal."""
    redeal: bool = False
    """The last deal was passed out: the next one is a redeal, staked as the rules say."""
    stakes: int = 0
    """How many deals' stakes lie in :attr:`pot` (left there by a remise or a passed deal),
    so a bête can reckon each of them at the rule file's ``stake_value``."""

    @property
    def bete_in_play(self) -> int | None:
        """Returns the bête that goes into the next deal (the largest waiting), None if none."""
        return self.betes[0] if self.betes else None


class Account(StrEnum):
    """A payer or payee that is not a seat."""

    POT = "pot"
    """The pot (the table)."""
    SCORE = "score"
    """The score sheet, in a game scored in points (points are scored, not paid by one player
    to another)."""


POT = Account.POT
"""The payer or payee of a payment that is the pot (the table), not a seat."""
SCORE = Account.SCORE
"""The payer or payee of a line in a game scored in points: the score sheet, not a seat."""
POINTS_LINE = "points"
"""The label of the lines of points scored from the tariff."""
ODD_COUNTER = "odd counter (highest trump)"
"""A codille's odd counter given to a defender for his trump (``codille_remainder:
highest-trumps``)."""


class Payment(NamedTuple):
    """One line of the settlement: who paid whom what, why, and on what authority.

    ``item``, ``payer``, ``payee`` and ``amount`` are the line of ``ombre replay --json``; the
    rest says what it is without reading the text back.
    """

    item: str
    """The line's label: ``stake``, ``pot``, ``board``, ``bête``, the item ids joined by
    ``+`` (``jeu+consolation``), or the fee or held card paid."""
    payer: int | Account
    """The paying seat, or the pot or the score sheet."""
    payee: int | Account
    """The seat paid, or the pot or the score sheet."""
    amount: int
    kind: PaymentKind = PaymentKind.ITEMS
    items: tuple[str, ...] = ()
    """The rule file's item ids the line pays (kind ``items``); for a stake, whose stake lines
    (``dealer``, ``each``) it is made of."""
    bases: tuple[Basis, ...] = ()
    """The basis of each part (one per item id or stake line), else of the line."""
    alone: Alone | None = None
    """Set when the payer is a declarer who pays the lost game alone (his partner nothing)."""

    @property
    def payer_seat(self) -> int | None:
        """Returns the paying seat, None when the pot (or the score sheet) pays."""
        return None if isinstance(self.payer, Account) else self.payer

    @property
    def payee_seat(self) -> int | None:
        """Returns the seat paid, None when it is the pot (or the score sheet)."""
        return None if isinstance(self.payee, Account) else self.payee

    @property
    def scored(self) -> int:
        """Returns what the line adds to its seat's score in a game scored in points (negative:
        a loss or a penalty); 0 for a line of counters."""
        if self.payer == SCORE:
            return self.amount
        if self.payee == SCORE:
            return -self.amount
        return 0

    @property
    def basis(self) -> Basis | None:
        """Returns the basis of the line's first part (None if it has none)."""
        return self.bases[0] if self.bases else None

    def as_json(self) -> dict[str, object]:
        """Returns the line as JSON: the payer and payee as text (a seat's number, ``pot`` or
        ``score``)."""
        return {
            "item": self.item,
            "from": str(self.payer),
            "to": str(self.payee),
            "amount": self.amount,
        }


@dataclass(frozen=True, slots=True)
class SettlementResult:
    """The counters of one deal."""

    balances: tuple[int, ...]
    pot_before: int
    pot_after: int
    bete: int
    """The bêtes made in this deal: the loser's, and one for each renonce noticed."""
    matadors: int
    table: TableState
    """The table for the next deal."""
    alone: Alone | None = None
    """The declarer who bears the lost game alone, and why (None: the side shares)."""
    _lines: tuple[Payment, ...] | Callable[[], tuple[Payment, ...]] = field(
        default=(), compare=False, repr=False
    )

    @property
    def payments(self) -> tuple[Payment, ...]:
        """Returns the payment lines (written on first use, by :func:`settle` again)."""
        lines = self._lines
        if not isinstance(lines, tuple):
            lines = lines()
            object.__setattr__(self, "_lines", lines)
        return lines


class _Ledger:
    """The counters moved by a settlement, and the lines that say so (``lines`` None: only the
    counters, when nobody will read the lines)."""

    __slots__ = ("balances", "lines", "pot")

    def __init__(self, n: int, pot: int, lines: list[Payment] | None) -> None:
        self.balances = [0] * n
        self.pot = pot
        self.lines = lines

    def written(self, later: _Written) -> _Written:
        """The payment lines written, or ``later``, what writes them when asked for."""
        return later if self.lines is None else tuple(self.lines)

    def to_pot(self, seat: int, amount: int, line: _Line) -> None:
        if amount:
            self.balances[seat] -= amount
            self.pot += amount
            if self.lines is not None:
                self.lines.append(_payment(line, seat, POT, amount))

    def from_pot(self, seat: int, amount: int, line: _Line) -> None:
        if amount:
            self.balances[seat] += amount
            self.pot -= amount
            if self.lines is not None:
                self.lines.append(_payment(line, POT, seat, amount))

    def transfer(self, payer: int, payee: int, amount: int, line: _Line) -> None:
        if amount:
            self.balances[payer] -= amount
            self.balances[payee] += amount
            if self.lines is not None:
                self.lines.append(_payment(line, payer, payee, amount))


def _payment(line: _Line, payer: int | Account, payee: int | Account, amount: int) -> Payment:
    """The settlement's line: what ``line`` is, paid by ``payer`` to ``payee``."""
    return Payment(line.label, payer, payee, amount, line.kind, line.items, line.bases, line.alone)


_NO_LINE = _Line("", PaymentKind.ITEMS, (), (), None)
"""The line of a settlement that writes none (the counters only)."""


def outcome_kinds(rules: RuleSet) -> Mapping[str, OutcomeKind]:
    """Returns the kind of every result the rules can give, ``redeal`` included: read once
    from the rule file, with the ruleset's compiled tables (:attr:`Compiled.outcome_kinds`)."""
    return rules.compiled.outcome_kinds


def outcome_kind(rules: RuleSet, result: str) -> OutcomeKind:
    """Returns the kind of one result (``redeal`` included).

    :raises KeyError: for a result the rules do not give.
    """
    return outcome_kinds(rules)[result]


class Roles(NamedTuple):
    """A deal's balances by role: the declarer's, the partner's (None without one) and each
    defender's (every seat off the side, the one that sits out included)."""

    declarer: int
    partner: int | None
    defenders: tuple[int, ...]


def role_balances(
    balances: Sequence[int], declarer: int | None, partner: int | None
) -> Roles | None:
    """Returns a deal's balances by role, None when nobody declared."""
    if declarer is None:
        return None
    return Roles(
        balances[declarer],
        None if partner is None else balances[partner],
        tuple(b for seat, b in enumerate(balances) if seat != declarer and seat != partner),
    )


def _split(total: int, declarer: int, partner: int | None) -> list[tuple[int, int]]:
    """Splits ``total`` half and half between declarer and partner, the odd one to the declarer."""
    if partner is None:
        return [(declarer, total)]
    return [(declarer, total - total // 2), (partner, total // 2)]


def _shares(total: int, seats: Sequence[int]) -> list[int]:
    """Equal shares of ``total``; the first seats in turn take the odd counters."""
    base, extra = divmod(total, len(seats))
    return [base + (1 if i < extra else 0) for i in range(len(seats))]


def _flow(
    ledger: _Ledger, payers: list[tuple[int, int]], payees: list[tuple[int, int]], item: _Line
) -> None:
    """Moves counters from payers to payees (equal totals), matching them in order."""
    if ledger.lines is None:
        # Without the lines, only each seat's total matters, whoever it is matched with.
        balances = ledger.balances
        for seat, amount in payers:
            balances[seat] -= amount
        for seat, amount in payees:
            balances[seat] += amount
        return
    owed = [[seat, amount] for seat, amount in payers if amount]
    due = [[seat, amount] for seat, amount in payees if amount]
    i = j = 0
    while i < len(owed) and j < len(due):
        amount = min(owed[i][1], due[j][1])
        ledger.transfer(owed[i][0], due[j][0], amount, item)
        owed[i][1] -= amount
        due[j][1] -= amount
        if not owed[i][1]:
            i += 1
        if not due[j][1]:
            j += 1


def _opponents(rules: RuleSet, n: int, declarer: int, partner: int | None) -> tuple[int, ...]:
    """The seats not on the declaring side, from the declarer's right (compiled once)."""
    if n == rules.players:
        return rules.compiled.opponents[(declarer, partner)]
    return opponents_of(n, declarer, partner)


def _items(rules: RuleSet, result: str, contract: str) -> OutcomeItems:
    """The items of a result each opponent pays the side (``receive``) and the side pays each
    opponent (``pay``) under a contract, in the rule file's order (compiled once)."""
    return rules.compiled.outcome_items[(result, contract)]


def pays_alone(
    rules: RuleSet, contract: str, partner: int | None, declarer_tricks: int, *, lost: bool
) -> bool:
    """Checks if a declarer with a partner bears a lost game alone: he took fewer tricks himself
    than the rules' sole-liability threshold and the contract does not always share. Paying
    alone is for a lost game only, "tant en cas de remise que de codille" (ENC-Q)."""
    return (
        lost
        and partner is not None
        and rules.sole_liability_below is not None
        and not rules.contracts[contract].shared_liability
        and declarer_tricks < rules.sole_liability_below
    )


def stakes_for(rules: RuleSet, dealer: int, n: int, stakes: Sequence[tuple[str, int]]) -> list[int]:
    """Returns what each seat puts on the table for the given stake lines."""
    return stakes_of(tuple(stakes), dealer, n)


def deal_stakes(rules: RuleSet, dealer: int, table: TableState, factor: int = 1) -> tuple[int, ...]:
    """Returns what each seat stakes at the start of a deal dealt by ``dealer`` on ``table``.

    A redeal after all passed is staked by the all-pass rule instead (Ombre: two more jetons
    each on top of what lies there, ENC-HOM "en ajoûtant encore deux autres"); in the last
    tour of a party the dealer's stake is multiplied by ``factor`` ("le devant double", ACAD
    PA25). Compiled once with the ruleset (:attr:`engine.rules.model.Compiled.deal_stakes`).
    """
    found = rules.compiled.deal_stakes.get((dealer, bool(table.redeal), factor))
    if found is not None:
        return found
    lines = rules.all_pass_stakes if table.redeal else rules.stakes
    lines = tuple((w, a * factor if w == "dealer" else a) for w, a in lines)
    return tuple(stakes_of(lines, dealer, rules.players))


class SettlementInputs(NamedTuple):
    """What the settlement of one deal reads: :func:`settle`'s arguments by name, each sequence
    a tuple (a typed tuple read by name: built at the end of every deal, see
    :mod:`engine.referee.outcome`). The payment lines are written, when first asked for, from the same inputs."""

    n: int
    table: TableState
    stakes: tuple[int, ...]
    result: str | None
    contract: str | None = None
    declarer: int | None = None
    partner: int | None = None
    tricks: tuple[int, ...] = ()
    matadors: int = 0
    spadille_holder: int | None = None
    """The seat the odd counters kept on the table go to (the holder of the highest trump)."""
    transfers: tuple[Transfer, ...] = ()
    renonces: tuple[int, ...] = ()
    factor: int = 1
    trump_holders: tuple[int, ...] = ()
    penalties: tuple[Fault, ...] = ()
    favoured: frozenset[str] = frozenset()
    turned_hands: tuple[TurnedHand, ...] = ()
    unclaimed: tuple[str, ...] = ()
    extra_card: int | None = None
    out: int | None = None
    top_taker: int | None = None


def settle_outcome(rules: RuleSet, outcome: Outcome, table: TableState) -> SettlementResult:
    """Settles a finished deal's outcome on the table it was dealt on (what the referee does at
    the end of every deal)."""
    played = outcome.result != "redeal"
    inputs = SettlementInputs(
        n=rules.players,
        table=table,
        stakes=deal_stakes(rules, outcome.dealer, table, outcome.factor),
        result=outcome.result,
        contract=outcome.contract,
        declarer=outcome.declarer,
        partner=outcome.partner,
        tricks=outcome.tricks,
        matadors=outcome.matadors,
        spadille_holder=outcome.top_trump_holder if table.remainder and played else None,
        transfers=outcome.transfers,
        renonces=outcome.renonces,
        factor=outcome.factor,
        trump_holders=outcome.trump_holders,
        penalties=outcome.penalties,
        favoured=outcome.favoured,
        turned_hands=outcome.turned_hands,
        unclaimed=outcome.unclaimed,
        extra_card=outcome.extra_card,
        out=rules.compiled.dealers[outcome.dealer].out,
        top_taker=outcome.top_taker,
    )
    return _settle(rules, inputs, None)


def settle(
    rules: RuleSet,
    *,
    n: int,
    table: TableState,
    stakes: Sequence[int],
    result: str | None,
    contract: str | None = None,
    declarer: int | None = None,
    partner: int | None = None,
    tricks: Sequence[int] = (),
    matadors: int = 0,
    spadille_holder: int | None = None,
    transfers: Sequence[Transfer | tuple[int, int, int, str]] = (),
    renonces: Sequence[int] = (),
    factor: int = 1,
    trump_holders: Sequence[int] = (),
    penalties: Sequence[Fault | tuple[int, str]] = (),
    favoured: frozenset[str] = frozenset(),
    turned_hands: Sequence[TurnedHand | tuple[int, int]] = (),
    unclaimed: Sequence[str] = (),
    extra_card: int | None = None,
    out: int | None = None,
    top_taker: int | None = None,
) -> SettlementResult:
    """Settles one deal.

    ``stakes`` are what each seat put on the table at the start of the deal. ``result`` None or
    ``"redeal"`` settles a deal that was not played (only the stakes move, and the next deal is
    a redeal). ``tricks`` are the tricks each seat took. ``transfers`` are payments made during
    the deal, ``(payer, payee, amount, item)`` (the fee for a demanded card). ``renonces`` names
    the offender of each renonce noticed: each makes a bête. ``trump_holders`` are the seats that
    held a trump when play began, the highest first (for ``codille_remainder: highest-trumps``).
    ``penalties`` are the faults committed, ``(offender, fault id)``, each scored in penalty
    points whatever the result. ``favoured`` names the suit options whose suit is trumps.
    ``turned_hands`` are the hands turned up instead of the tricks, ``(offender, owner)``: each
    makes a bête, half paid by each, the odd counter by the offender (``laws.turned_hand``).
    ``unclaimed`` are payment items not claimed in time (``laws.claims_before_next_deal``): not
    paid. ``result`` ``"misdeal"`` settles a deal made void by a law of the table: nothing is
    staked or paid, but ``extra_card``, the seat found playing with a card too many, makes a
    bête alone (``laws.eleven_cards``).
    ``out`` is the seat that sat the deal out, if one did (in a game in points it scores
    nothing as an opponent). ``top_taker`` is, under a contract every seat plays
    (``all_play``), the seat with the most tricks (it scores the tariff's ``most_tricks``).

    The counters are settled now; the payment lines when :attr:`SettlementResult.payments` is
    first read (the same settlement again, on the same :class:`SettlementInputs`, writing them).
    """
    inputs = SettlementInputs(
        n=n,
        table=table,
        stakes=tuple(stakes),
        result=result,
        contract=contract,
        declarer=declarer,
        partner=partner,
        tricks=tuple(tricks),
        matadors=matadors,
        spadille_holder=spadille_holder,
        transfers=tuple(Transfer(*t) for t in transfers),
        renonces=tuple(renonces),
        factor=factor,
        trump_holders=tuple(trump_holders),
        penalties=tuple(Fault(*f) for f in penalties),
        favoured=frozenset(favoured),
        turned_hands=tuple(TurnedHand(*t) for t in turned_hands),
        unclaimed=tuple(unclaimed),
        extra_card=extra_card,
        out=out,
        top_taker=top_taker,
    )
    return _settle(rules, inputs, None)


def _payments(rules: RuleSet, inputs: SettlementInputs) -> tuple[Payment, ...]:
    return _settle(rules, inputs, []).payments


_Written = tuple[Payment, ...] | Callable[[], tuple[Payment, ...]]


def _settle(
    rules: RuleSet, inputs: SettlementInputs, lines: list[Payment] | None
) -> SettlementResult:
    """:func:`settle`, writing the payment lines into ``lines`` (None: the counters only)."""
    written: _Written = partial(_payments, rules, inputs) if lines is None else ()
    if rules.in_points:
        return _settle_points(rules, inputs, lines, written)
    table = inputs.table
    ledger = _Ledger(inputs.n, table.pot, lines)
    kinds = rules.compiled.payment_lines if lines is not None else None
    result = inputs.result
    if result == MISDEAL:
        return _settle_void(rules, table, inputs.stakes, inputs.extra_card, ledger, kinds, written)
    stake_line = _NO_LINE if kinds is None else kinds.redeal_stake if table.redeal else kinds.stake
    for seat, stake in enumerate(inputs.stakes):
        ledger.to_pot(seat, stake, stake_line)
    declarer, contract = inputs.declarer, inputs.contract
    if result is None or result == "redeal" or declarer is None or contract is None:
        next_table = TableState(
            ledger.pot,
            table.betes,
            table.doubled,
            table.remainder,
            redeal=result == "redeal",
            stakes=table.stakes + 1,
        )
        return SettlementResult(
            tuple(ledger.balances),
            table.pot,
            ledger.pot,
            0,
            0,
            next_table,
            None,
            ledger.written(written),
        )
    return _settle_played(rules, inputs, result, contract, declarer, ledger, kinds, written)


def _settle_played(
    rules: RuleSet,
    inputs: SettlementInputs,
    result: str,
    contract: str,
    declarer: int,
    ledger: _Ledger,
    kinds: PaymentLines | None,
    written: _Written,
) -> SettlementResult:
    """Settles a deal played to its end, once the stakes are down: the fees, the pot, the
    items, the bêtes, and the table for the next deal."""
    table, partner = inputs.table, inputs.partner
    pot_before = table.pot
    for t in inputs.transfers:
        line = _NO_LINE
        if kinds is not None:
            line = kinds.fees.get(t.item) or _Line(t.item, PaymentKind.FEE, (), (), None)
        ledger.transfer(t.payer, t.payee, t.amount, line)

    # Odd counters kept from an earlier codille go to the holder of the highest trump.
    remainder = table.remainder
    if remainder and inputs.spadille_holder is not None:
        odd = _NO_LINE if kinds is None else kinds.odd
        ledger.from_pot(inputs.spadille_holder, remainder, odd)
        remainder = 0

    outcome = rules.outcomes[result]
    opponents = _opponents(rules, inputs.n, declarer, partner)
    alone = _alone(rules, contract, declarer, partner, inputs.tricks[declarer], outcome.bete)
    pot = _open_pot(rules, table, ledger.pot, remainder)
    _pay_pot(rules, inputs, outcome, declarer, opponents, pot, ledger, kinds)
    for direction, items in _items(rules, result, contract):
        _pay_items(
            rules,
            inputs,
            contract,
            direction,
            items,
            declarer,
            opponents,
            pot,
            alone,
            ledger,
            kinds,
        )
    made = _make_betes(
        rules, inputs, outcome, declarer, alone, sum(inputs.stakes), pot, ledger, kinds
    )
    waiting = pot.waiting
    if made:
        # The bêtes made on one deal go together (ENC-Q).
        waiting.append(made)
    waiting.sort(reverse=True)
    doubled = bool(
        rules.bete_doubling_after_first_remise
        and outcome.bete
        and outcome.pot is _STAYS
        and not table.betes
    )
    next_table = TableState(
        ledger.pot,
        tuple(waiting),
        doubled,
        pot.remainder,
        stakes=table.stakes + 1 if outcome.pot is _STAYS else 0,
    )
    return SettlementResult(
        tuple(ledger.balances),
        pot_before,
        ledger.pot,
        made,
        inputs.matadors,
        next_table,
        alone,
        ledger.written(written),
    )


def _alone(
    rules: RuleSet, contract: str, declarer: int, partner: int | None, taken: int, lost: bool
) -> Alone | None:
    """The declarer who bears the side's payments alone (he took fewer tricks than the
    sole-liability threshold), and why; None where the side shares."""
    if not pays_alone(rules, contract, partner, taken, lost=lost):
        return None
    assert partner is not None and rules.sole_liability_below is not None
    return Alone(
        declarer,
        partner,
        taken,
        rules.sole_liability_below,
        rules.basis_at(("settlement", "sharing")),
    )


class _Pot:
    """What lies on the table while a played deal is settled: the whole ``board`` (odd counters
    kept back excepted), what is ``in_play`` (the bêtes still waiting excepted), the odd
    counters kept for the next deal, the bêtes waiting, and the bête that went into this one."""

    __slots__ = ("board", "going_bete", "in_play", "remainder", "waiting")

    def __init__(
        self, board: int, in_play: int, remainder: int, waiting: list[int], going_bete: int | None
    ) -> None:
        self.board = board
        self.in_play = in_play
        self.remainder = remainder
        self.waiting = waiting
        self.going_bete = going_bete


def _open_pot(rules: RuleSet, table: TableState, pot: int, remainder: int) -> _Pot:
    """What goes into this deal: the devant, and the waiting bêtes the rule lets go (the
    largest, or all). The others wait their turn and are not at stake."""
    waiting = list(table.betes)
    if rules.bete_going is _ALL:
        going = sum(waiting)
        waiting = []
    else:
        going = waiting.pop(0) if waiting else 0
    board = pot - remainder
    return _Pot(board, board - sum(waiting), remainder, waiting, going if table.betes else None)


def _pay_pot(
    rules: RuleSet,
    inputs: SettlementInputs,
    outcome: OutcomeRule,
    declarer: int,
    opponents: tuple[int, ...],
    pot: _Pot,
    ledger: _Ledger,
    kinds: PaymentLines | None,
) -> None:
    """The pot goes where the outcome sends it: to the side, the board to the side, to the
    opponents shared, to the single opponent who won codille, or it stays."""
    partner, in_play = inputs.partner, pot.in_play
    pot_line = board_line = _NO_LINE
    if kinds is not None:
        pot_line = _Line("pot", PaymentKind.POT, (), (outcome.basis,), None)
        board_line = _Line("board", PaymentKind.BOARD, (), (outcome.basis,), None)
    where = outcome.pot
    if where is _SIDE:
        for seat, share in _split(in_play, declarer, partner):
            ledger.from_pot(seat, share, pot_line)
    elif where is _BOARD:
        # The vole "sweeps the Board, let there be ever so many Stakes upon it" (CG-EN PA32).
        for seat, share in _split(pot.board, declarer, partner):
            ledger.from_pot(seat, share, board_line)
        pot.waiting = []
    elif where is _OPPONENTS:
        each, left = divmod(in_play, len(opponents))
        for seat in opponents:
            ledger.from_pot(seat, each, pot_line)
        if left and rules.codille_remainder is _NEXT_SPADILLE:
            pot.remainder += left
        elif left and rules.codille_remainder is _HIGHEST_TRUMPS:
            # "He of the four, who had the highest Trump takes up one, the second is for Him of
            # the three others, who had the next best Trump ... in Case they had neither of them
            # any Trump at all, it is let alone till the next Deal" (CG-EN PA56).
            odd_line = (
                _NO_LINE
                if kinds is None
                else kinds.odd._replace(label=ODD_COUNTER, kind=PaymentKind.ODD)
            )
            for seat in [s for s in inputs.trump_holders if s in opponents][:left]:
                ledger.from_pot(seat, 1, odd_line)
    elif where is _CODILLE_WINNER:
        tricks = inputs.tricks
        best = max(opponents, key=lambda s: tricks[s])
        ledger.from_pot(best, in_play, pot_line)
    elif pot.going_bete is not None and rules.bete_going is _LARGEST_FIRST:
        # Remise: the game stays, and the bête that went returns to wait its turn.
        pot.waiting.append(pot.going_bete)


def _pay_items(
    rules: RuleSet,
    inputs: SettlementInputs,
    contract: str,
    direction: str,
    items: Sequence[tuple[str, Item]],
    declarer: int,
    opponents: tuple[int, ...],
    pot: _Pot,
    alone: Alone | None,
    ledger: _Ledger,
    kinds: PaymentLines | None,
) -> None:
    """The items paid in one direction: by each opponent to the side (``receive``), or by the
    side to each opponent (``pay``). The direction is totalled first and then shared "par
    moitié", so an odd counter arises (and goes to the declarer) only when the total is odd."""
    # What each opponent pays (or is paid): the items worth the same for all, ``flat``, plus
    # the shares of the stake in play (``in_play`` items), summed when all are known.
    flat = 0
    shared: list[int] | None = None
    paid: list[str] = []
    unclaimed = inputs.unclaimed
    for item_id, item in items:
        if unclaimed and item_id in unclaimed:
            continue  # "your claim must be made before the next deal is finished" (HOYLE-IE)
        if item.single_stake_only and inputs.table.pot:
            continue  # "if only one stake is down" (CG-EN PA32)
        if item.in_play:
            amounts = _shares(pot.in_play, opponents)
            if not any(amounts):
                continue
            shared = (
                amounts if shared is None else [a + b for a, b in zip(shared, amounts, strict=True)]
            )
        else:
            # The last tour of a party pays double (``factor``, ACAD PA25).
            value = item.value(contract, inputs.matadors, inputs.favoured) * inputs.factor
            if not value:
                continue
            flat += value
        paid.append(item_id)
    if not paid:
        return
    per_opponent = [flat] * len(opponents) if shared is None else [flat + a for a in shared]
    total = sum(per_opponent)
    if not total:
        return
    line = _NO_LINE
    if kinds is not None:
        ids = tuple(paid)
        bases = tuple(rules.items[i].basis for i in ids)
        line = _Line("+".join(ids), PaymentKind.ITEMS, ids, bases, None)
    partner = inputs.partner
    if direction == "receive":
        side_shares = _split(total, declarer, partner)
        _flow(ledger, list(zip(opponents, per_opponent, strict=True)), side_shares, line)
    else:
        side_shares = [(declarer, total)] if alone else _split(total, declarer, partner)
        if alone and kinds is not None:
            line = line._replace(alone=alone)
        _flow(ledger, side_shares, list(zip(opponents, per_opponent, strict=True)), line)


def _make_betes(
    rules: RuleSet,
    inputs: SettlementInputs,
    outcome: OutcomeRule,
    declarer: int,
    alone: Alone | None,
    fresh: int,
    pot: _Pot,
    ledger: _Ledger,
    kinds: PaymentLines | None,
) -> int:
    """The bêtes made on the deal, paid into the pot: the lost game's, one per renonce noticed,
    one per hand turned up; returns their sum.

    Each is as large as what was at stake, with the cap of a bête made on a bête. Where the
    rules reckon a deal's stake at a value of its own ("la bête est de quatorze, encore qu'elle
    soit faite sur treize jettons seulement", ENC-Q), every deal's stake still in the pot counts
    at that value, this deal's and those a remise left ("& ainsi des autres", ACAD-2): the chain
    is Quadrille's 14, 42, 56."""
    size = _bete_size(rules, inputs.table, fresh, pot.in_play, pot.going_bete)
    made = 0
    if outcome.bete:
        bete_line = _NO_LINE if kinds is None else kinds.bete
        if alone:
            ledger.to_pot(
                declarer, size, bete_line if kinds is None else bete_line._replace(alone=alone)
            )
        else:
            for seat, share in _split(size, declarer, inputs.partner):
                ledger.to_pot(seat, share, bete_line)
        made += size
    for offender in inputs.renonces:
        # "Qui renonce fait la bête autant de fois qu'on l'en fait appercevoir" (ENC-Q).
        ledger.to_pot(offender, size, _NO_LINE if kinds is None else kinds.renonce)
        made += size
    for hand in inputs.turned_hands:
        # "fait la bête de moitié avec celui à qui appartiennent les cartes retournées" (ENC-Q).
        line = _NO_LINE if kinds is None else kinds.turned
        for seat, share in _split(size, hand.offender, hand.owner):
            ledger.to_pot(seat, share, line)
        made += size
    return made


def _settle_points(
    rules: RuleSet,
    inputs: SettlementInputs,
    lines: list[Payment] | None,
    written: _Written,
) -> SettlementResult:
    """Scores a deal of a game in points: each role scores what the tariff gives the deal's
    contract and result (``settlement.points``), and each offender loses the penalty points of
    his faults (``settlement.penalties``), whatever the result. Nothing is staked and nothing
    lies on the table: the points are scored, not paid from one seat to another, so the
    balances need not add up to nothing."""
    n, table, result = inputs.n, inputs.table, inputs.result
    contract, declarer, partner, tricks = (
        inputs.contract,
        inputs.declarer,
        inputs.partner,
        inputs.tricks,
    )
    out, top_taker = inputs.out, inputs.top_taker
    balances = [0] * n

    def score(seat: int, points: int, line: _Line) -> None:
        if not points:
            return
        balances[seat] += points
        if lines is not None:
            payer: int | Account = SCORE if points > 0 else seat
            payee: int | Account = seat if points > 0 else SCORE
            lines.append(_payment(line, payer, payee, abs(points)))

    played = result is not None and result != "redeal" and declarer is not None
    if result is not None and declarer is not None and contract is not None and played:
        tariff = rules.points.get((contract, result))
        if tariff is not None:
            line = _Line(
                POINTS_LINE,
                PaymentKind.POINTS,
                (contract, result),
                (tariff.basis,),
                None,
            )
            score(declarer, tariff.declarer, line)
            if partner is not None:
                score(partner, tariff.partner, line)
            # The opponents who played: a seat that sat the deal out scores nothing (the
            # online Rocambor's "Each defender +1" goes to the active seats only, roc-online).
            opponents = tuple(s for s in _opponents(rules, n, declarer, partner) if s != out)
            for seat in opponents:
                score(seat, tariff.opponents, line)
            if tariff.codille_winner and opponents:
                score(max(opponents, key=lambda x: tricks[x]), tariff.codille_winner, line)
            if tariff.most_tricks and top_taker is not None:
                # Every seat played for himself (``all_play``): the most tricks scores.
                score(top_taker, tariff.most_tricks, line)
    for committed in inputs.penalties:
        penalty = rules.penalties[committed.fault]
        score(
            committed.seat,
            -penalty.points,
            _Line(penalty.name, PaymentKind.PENALTY, (committed.fault,), (penalty.basis,), None),
        )
    return SettlementResult(
        tuple(balances),
        table.pot,
        table.pot,
        0,
        inputs.matadors if played else 0,
        TableState(table.pot, table.betes, redeal=result == "redeal"),
        None,
        written if lines is None else tuple(lines),
    )


def _bete_size(
    rules: RuleSet, table: TableState, fresh: int, in_play: int, going_bete: int | None
) -> int:
    """The size of a bête made on a deal: what was at stake (``in_play``, this deal's
    ``fresh`` stakes included), each deal's stake reckoned at the rules' ``stake_value`` where
    they give one, capped over a bête in play as the rules say."""
    notional = in_play
    if rules.bete_stake_value is not None:
        notional = in_play + (rules.bete_stake_value - fresh) * (table.stakes + 1)
    increment = rules.bete_stake_value if rules.bete_stake_value is not None else fresh
    size = notional
    if going_bete is not None and rules.bete_growth != "in-play":
        # A bête made while a bête is in play grows as the rule file says: twice the bête in
        # play ("should another beast succeed, pay thirty-two, and the next sixty-four",
        # HOYLE-IE p. 283), or by a fixed step; whatever else is at stake.
        step = rules.bete_step or 0
        size = going_bete * 2 if rules.bete_growth == "doubling" else going_bete + step
    elif rules.bete_cap is _CAP_STAKES and going_bete is not None and not table.doubled:
        size = min(size, going_bete + increment)
    return size


def _settle_void(
    rules: RuleSet,
    table: TableState,
    stakes: tuple[int, ...],
    extra_card: int | None,
    ledger: _Ledger,
    kinds: PaymentLines | None,
    written: _Written,
) -> SettlementResult:
    """A deal made void by a law of the table (``misdeal``): "Il n'y a point d'autre peine pour
    ceux qui donnent mal, que de refaire" (ENC-Q). Nothing is staked (the deal dealt again
    stakes), the table stays as it was; but a seat found playing with a card too many makes a
    bête alone, as large as the deal's own bête would have been (HOYLE-IE law 8)."""
    waiting = list(table.betes)
    made = 0
    if extra_card is not None:
        fresh = sum(stakes)
        if rules.bete_going is _ALL:
            going = sum(waiting)
            rest: list[int] = []
        else:
            going = waiting[0] if waiting else 0
            rest = waiting[1:]
        in_play = table.pot + fresh - table.remainder - sum(rest)
        made = _bete_size(rules, table, fresh, in_play, going if table.betes else None)
        line = _NO_LINE
        if kinds is not None:
            line = _Line(
                ELEVEN_BETE,
                PaymentKind.IRREGULARITY,
                (),
                (rules.basis_at(("laws", "eleven_cards")),),
                None,
            )
        ledger.to_pot(extra_card, made, line)
        if made:
            waiting.append(made)
            waiting.sort(reverse=True)
    return SettlementResult(
        tuple(ledger.balances),
        table.pot,
        ledger.pot,
        made,
        0,
        replace(table, pot=ledger.pot, betes=tuple(waiting)),
        None,
        ledger.written(written),
    )

"""Playing at the table: one human seat against bots, at the terminal (``ombre play``).

The table is written for a newcomer. At every turn the player sees only what the seat may see
(:meth:`Deal.view`): where everybody sits, the contract, trumps and the called card, the trick
on the table with who played what, the tricks of each seat and of each side, the hand grouped by
suit, and the numbered legal choices. Every event is told in words: a forced declarer is
explained, a called king's holder is told he is the partner, a demanded king is seen leaving its
holder's hand, the écart shows what was drawn, and the settlement lists each payment with its
parts and the rule behind it.

An answer is a number, an action in record notation (``Kd``, ``play Kd``, ``bid ask``, a
contract's alias from the rule file such as ``bid médiateur``), Enter when there is a single
choice, or a command: ``?``/``help`` (the choices, the rule that applies now, and what the
heuristic bot would do), ``last`` (the previous trick), ``tricks``, ``seats`` and ``quit``.
An illegal answer is refused with the rule it breaks, in the second person, and asked again.

Nothing entered is lost: the record is written after every answer and at the end (atomically,
so an interrupted write never leaves half a file), and ``ombre play --from RECORD`` resumes an
unfinished game or deals a finished one again.
"""

from __future__ import annotations

import dataclasses
import os
import tempfile
from collections.abc import Callable, Iterable, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.actions import LAW_VERBS, Action, parse_line, small_number
from engine.bots import Bot, make_bot
from engine.bots.base import take_remedies
from engine.cards import ALL_CARDS, Card, Suit
from engine.errors import IllegalActionError, NotationError, RequestError
from engine.records import (
    MAX_DEALS,
    DealRecord,
    Record,
    record_of,
    ruleset_sha256,
    write_record,
)
from engine.referee import Deal, ResultMatch
from engine.referee.auction import Offer
from engine.referee.deal_laws import VERBS as IRREGULARITIES
from engine.referee.exchange import ExchangeLimit
from engine.referee.irregular import Event
from engine.referee.party import Party, deals_counted
from engine.referee.remedies import public as public_irregularities
from engine.referee.result import favoured_options
from engine.referee.settlement import (
    Kind,
    Payment,
    PaymentKind,
    outcome_kind,
)
from engine.render import Format, environment, render, visible_length
from engine.rules.model import Basis, Contract, RuleSet

__all__ = [
    "EXIT_UNFINISHED",
    "PlayRequest",
    "TableGame",
    "contract_choices",
    "describe_result",
    "open_table",
    "record_path_problem",
    "seat_diagram",
]

ReadLine = Callable[[str], str | None]
Write = Callable[[str], None]

COMMANDS = ("?", "help", "last", "tricks", "seats", "quit")

EXIT_UNFINISHED = 3
"""The exit status of a game whose input ended before it was over (its record is kept)."""


class _Quit(Exception):
    """The player typed ``quit``."""


# The templates (templates/table/) own the words and the layout; this module says what to tell.


_FORMAT: ContextVar[Format] = ContextVar("table_format", default="text")
"""The table's text format while a party is played: ``ansi`` (the suits and the cards the seat
may play in colour) on a colour terminal, else ``text``."""


def _macros(name: str) -> Any:
    """Returns the macros of a template of ``templates/table/`` (its module, built once)."""
    return environment(_FORMAT.get()).get_template(name).module


def _width() -> int:
    """Returns the table's width (``templates/table/_words.j2``): longer lines are folded."""
    return int(_macros("table/_words.j2").width)


def _text(name: str, **context: Any) -> str:
    return render(name, _FORMAT.get(), **context)


def _say(write: Write, name: str, **context: Any) -> None:
    """Renders a template of ``templates/table/`` and writes its lines one by one."""
    for line in render(name, _FORMAT.get(), **context).splitlines():
        write(line)


def _message(what: str, **context: Any) -> str:
    """Returns one of the table's short messages (``templates/table/messages.txt.j2``)."""
    return render("table/messages.txt.j2", _FORMAT.get(), what=what, **context).rstrip("\n")


def _second_person(text: str, seat: int | None) -> str:
    """Rewrites a referee message about ``seat`` so that it speaks to the player: "you" (the
    ``second_person`` filter of engine.render)."""
    return str(environment("text").filters["second_person"](text, seat))


def _playable(legal: Iterable[Action]) -> list[Card]:
    """The cards among the referee's legal actions that may be played now."""
    return [a.card for a in legal if a.verb == "play" and a.card is not None]


def seat_diagram(n: int, bottom: int, labels: dict[int, str]) -> list[str]:
    """Returns the seats around the table seen from ``bottom``'s chair, play going to the right
    (counter-clockwise seen from above): the next seat sits on the right, the last on the left.
    """

    return render("table/seats.txt.j2", "text", n=n, bottom=bottom, labels=labels).splitlines()


def record_path_problem(path: Path, *, force: bool, continuing: bool = False) -> str | None:
    """Returns why a record cannot be written to ``path`` (None when it can).

    Checked before the first card so that no game is played for nothing: the folder must exist
    and be writable, the path must not be a folder, and an existing file is kept unless
    ``force`` (or ``continuing``: the game resumed from that very file).
    """
    parent = path.parent if str(path.parent) else Path(".")
    if path.is_dir():
        return _message("record-is-a-directory", path=path, example=path / "game.yaml")
    if not parent.exists():
        return _message("record-no-directory", path=path, parent=parent)
    if not parent.is_dir():
        return _message("record-parent-not-directory", path=path, parent=parent)
    if path.is_symlink() or (path.exists() and not path.is_file()):
        # A device, a FIFO, a socket or a link: --force replaces regular files only.
        return _message("record-not-regular", path=path)
    if path.exists() and not force and not continuing:
        return _message("record-exists", path=path)
    try:
        handle, probe = tempfile.mkstemp(dir=parent, prefix=".ombre-check-")
        os.close(handle)
        os.unlink(probe)
    except OSError as exc:
        return _message("record-not-writable", path=path, parent=parent, reason=exc.strerror or exc)
    return None


def _write_atomically(path: Path, text: str) -> None:
    from engine.files import write_durably

    write_durably(path, text)


def _wrapping(write: Write) -> Write:
    """Returns ``write`` folding lines wider than the table at word boundaries, the rest of a
    folded line indented under its start (the ``fold`` filter of engine.render)."""
    width = _width()
    fold = environment("text").filters["fold"]

    def folded(text: str) -> None:
        for line in text.split("\n"):
            if visible_length(line) <= width:
                write(line)
            else:
                for part in fold(line, width).split("\n"):
                    write(part)

    return folded


def _in_turn(deal: Deal, first: int) -> list[int]:
    """Returns the seats that play, in turn from ``first`` (the referee's seating: a seat that
    sits the deal out, as the dealer at a table of four in some games, is left out)."""
    return list(deal.seating.in_turn(first))


# What the templates are given.


@dataclass(frozen=True, slots=True)
class TrickView:
    """One finished trick: its number from 1, who played what in turn, who won it with what."""

    number: int
    plays: list[tuple[int, Card]]
    winner: int | None
    best: Card | None


@dataclass(frozen=True, slots=True)
class TricksView:
    """The tricks of each seat and, once the player may know them, of each side."""

    won: Sequence[int]
    declarer: int | None
    side: list[int] | None
    """The declaring side as the player knows it; None while the partner is hidden."""
    others: list[int]
    called: Card | None
    each: bool = False
    """Every seat plays for himself, no sides (``Deal.each_for_himself``)."""
    top: int | None = None
    """Then the seat with the most tricks so far, ties as the rules break them
    (``Deal.top_taker``)."""


@dataclass(frozen=True, slots=True)
class ExchangeView:
    """An écart: what was discarded and drawn (shown to the player who made it), what is left."""

    discarded: list[Card]
    drawn: list[Card]
    left: int
    limit: ExchangeLimit | None = None
    """The referee's limit for this écart and its reason, as it stood when he discarded."""

    @property
    def exempted(self) -> bool:
        """Checks if he took more than a middle exchanger may because he holds a matador."""
        lim = self.limit
        return (
            lim is not None
            and lim.exempt is not None
            and len(self.discarded) > max(0, lim.talon - lim.leave)
        )


@dataclass(frozen=True, slots=True)
class DeclarerView:
    """The declarer once the auction is over, and whether all passed and he had to play."""

    seat: int
    contract: Contract
    forced: bool
    each: bool = False
    """Every seat plays the contract for himself (``Deal.each_for_himself``)."""
    drawn: int = 0
    """The cards he took from the talon on taking it up (a contract every seat plays)."""


@dataclass(frozen=True, slots=True)
class Told:
    """What the table tells of one action (``templates/table/act.txt.j2``)."""

    phase: str
    """The phase the action was taken in."""
    action: Action
    seat: int
    human: int | None
    overcalled: int | None = None
    """The seat a bid overcalls, who may now take it himself (forcé)."""
    exchange: ExchangeView | None = None
    noticed: tuple[tuple[int, int], ...] = ()
    """The renonces a ``notice`` points out: (offender, trick number from 1)."""
    resumes: int | None = None
    """The trick play resumes from after a notice (from 1)."""
    declarer: DeclarerView | None = None
    trick: TrickView | None = None
    tricks: TricksView | None = None
    lead: int | None = None
    """The seat that leads the first trick, when play begins."""
    offer: Offer | None = None
    """The contract offered to the seat that sits out, when the action answered it
    (``Deal.offer``, asked before the action)."""
    faults: tuple[str, ...] = ()
    """The faults the action committed, scored in penalty points (the referee's
    ``Deal.faults``: a contract named without need to overcall)."""
    from_talon: bool = False
    """The trumps were fixed by a card turned from the talon (a tourné, the vuelta)."""
    turned: Card | None = None
    """That card, where the player may see it (the referee's view of his seat)."""


@dataclass(frozen=True, slots=True)
class PromptView:
    """What the player is asked now (the ``prompt`` macro of ``templates/table/turn.txt.j2``)."""

    seat: int
    phase: str
    standing: tuple[int, str] | None = None
    """The bid standing (auction) or the overcall (match): seat and contract id."""
    help: str | None = None
    demanded_from: int | None = None
    called: Card | None = None
    most: int = 0
    least: int = 0
    """The fewest he must discard (the declarer's duty to buy)."""
    may_defer: bool = False
    """He may let the other defender exchange first (``defer``)."""
    limit: ExchangeLimit | None = None
    """The referee's limit for this écart and its parts (``Deal.exchange_why``)."""
    talon: int = 0
    trick: int = 0
    led: Card | None = None
    led_trump: bool = False
    offer: Offer | None = None
    """The contract offered to him, sitting out, every seat that plays having passed
    (``Deal.offer``): he takes it up or passes, and the deal is dealt again."""
    vole_defender: bool = False
    """At the vole's decision: he is a defender who took every trick so far, and plays the
    vole as the declarer, alone, if he goes on (``Deal.vole_by_defender``)."""
    naming: int | None = None
    """The declarer who laid his hand down without naming trumps, for whom he names them
    (``laws.lay_down_unnamed``; remedies.public's ``naming``)."""


@dataclass(frozen=True, slots=True)
class TurnView:
    """What the player sees before he answers (the ``screen`` macro)."""

    seat: int
    prompt: PromptView
    hand: list[tuple[Suit | None, list[Card]]]
    """The hand in groups: a suit, or None for the trumps."""
    choices: list[Action]
    contract: Contract | None = None
    declarer: int | None = None
    trump: Suit | None = None
    called: Card | None = None
    calls: bool = False
    """The card was called (its holder a partner), not demanded."""
    side: list[int] | None = None
    demanded_from: int | None = None
    given: Card | None = None
    auction: Sequence[tuple[int, Action]] = ()
    """The speech so far, public to every seat."""
    tricks: TricksView | None = None
    table: list[tuple[int, Card]] = field(default_factory=list)
    forced_note: bool = False
    example: Sequence[Card] = ()
    no_trumps: bool = False
    """The contract is played without trumps."""
    declarer_hand: Sequence[Card] | None = None
    """The declarer's cards, open on the table (an *ouvert*), when the referee shows them."""
    each: bool = False
    """Every seat plays for himself, no sides (``Deal.each_for_himself``)."""
    public: Sequence[tuple[int, Sequence[Card]]] = ()
    """Each seat's cards an irregularity laid open (remedies.public)."""
    playable: Sequence[Card] = ()
    """The cards of the hand the seat may play now (in the play), shown bold in colour."""


@dataclass(frozen=True, slots=True)
class HelpView:
    """The answer to ``?`` (the ``help`` macro): the choices, the rules that apply now, the
    results, and the heuristic bot's advice."""

    prompt: PromptView
    choices: list[Action]
    held: int = 0
    playable: list[Card] = field(default_factory=list)
    contracts: list[tuple[Contract, list[Suit] | None]] = field(default_factory=list)
    """The biddable contracts, lowest first, each with its trumps when they are restricted."""
    rules: list[tuple[str, ...]] = field(default_factory=list)
    results: bool = False
    advice: tuple[Action, str, bool] | None = None
    recorded: bool = False
    """Whether the game is written to a record (what ``quit`` keeps)."""
    sources: bool = False
    """The second request (``??``): the rules that apply with their sources, and the results."""


@dataclass(frozen=True, slots=True)
class Move:
    """One payment: ``payer`` and ``payee`` are seats, None for the pot."""

    payer: int | str | None
    payee: int | str | None
    amount: int
    parts: tuple[str, ...] = ()
    """For a stake: whose stake lines it is made of (``dealer``, ``each``), the referee's."""


@dataclass(frozen=True, slots=True)
class PaymentGroup:
    """The payments of one settlement item, and what explains them (``payment`` macro)."""

    item: str
    kind: str
    """stake, pot, board, renonce, fee, odd, bete, items, or other."""
    moves: list[Move]
    total: int
    redeal: bool = False
    basis: Basis | None = None
    pot: str = ""
    """Where the pot goes (the outcome's ``pot``)."""
    kept: int = 0
    kept_basis: Basis | None = None
    parts: list[tuple[str, int, bool]] = field(default_factory=list)
    """For items: each item's name, value and whether it is in play."""
    item_bases: list[tuple[str, Basis]] = field(default_factory=list)
    """For items: each item's name and its own basis (evidence and citation)."""
    stake_lines: list[tuple[str, Basis]] = field(default_factory=list)
    """For stakes: whose stake line (``dealer``, ``each``) and its basis."""
    paying_side: bool = False


@dataclass(frozen=True, slots=True)
class ResultView:
    """A finished deal (``templates/table/result.txt.j2``)."""

    redeal: bool
    result: str | None
    contract: str | None
    declarer: int | None
    side: list[int]
    taken: int
    tricks: int
    stopped: bool
    match: ResultMatch | None
    """Why this result: the referee's line of the results table that gave it (None for a
    redeal)."""
    settled: bool
    matadors: int = 0
    payments: list[PaymentGroup] = field(default_factory=list)
    alone: bool = False
    declarer_won: int = 0
    partner: int | None = None
    balances: Sequence[int] = ()
    pot_after: int = 0
    table: Any = None
    each: bool = False
    """Every seat played for himself (``Deal.each_for_himself``): no side, the most tricks."""
    top: int | None = None
    """Then the seat that took the most tricks (``Deal.top_taker``)."""
    won: Sequence[int] = ()
    """The tricks each seat took."""


# The end of a deal.


def describe_result(deal: Deal, human: int | None = None) -> list[str]:
    """Returns the lines announcing a finished deal: its result and why, each payment with its
    parts and the rule behind it, who pays alone and why, balances and what stays on the table.
    """
    return _text(
        "table/result.txt.j2", r=_result_view(deal), rules=deal.rules, human=human
    ).splitlines()


def _result_view(deal: Deal) -> ResultView:
    s = deal.settlement
    # Nobody played (passed out, or a deal made void): the referee's outcome kind says so.
    redeal = deal.result is not None and outcome_kind(deal.rules, deal.result).kind is Kind.REDEAL
    side = list(deal.side) if not redeal else []
    view = ResultView(
        redeal=redeal,
        result=deal.result,
        contract=deal.contract.id if deal.contract else None,
        declarer=deal.declarer,
        side=side,
        taken=sum(deal.won[x] for x in side),
        tricks=len(deal.tricks),
        stopped=bool(deal.stopped),
        match=deal.result_match,  # why this result: the referee's own answer
        settled=s is not None,
        each=deal.each_for_himself,
        top=deal.top_taker,
        won=tuple(deal.won),
    )
    if s is None:
        return view
    alone = s.alone is not None  # the settlement says who pays alone, and why
    return dataclasses.replace(
        view,
        matadors=s.matadors,
        payments=_payment_groups(deal),
        alone=alone,
        declarer_won=deal.won[deal.declarer] if deal.declarer is not None else 0,
        partner=deal.partner,
        balances=s.balances,
        pot_after=s.pot_after,
        table=s.table,
    )


def _stake_parts(p: Payment, dealer: int) -> tuple[str, ...]:
    """Returns the stake lines one seat's stake is made of: the settlement's line names them
    all (``dealer``, ``each``), and the ``dealer`` line is the dealer's alone."""
    return tuple(x for x in p.items if x != "dealer" or p.payer_seat == dealer)


def _payment_groups(deal: Deal) -> list[PaymentGroup]:
    """Returns the settlement's payments grouped by line, each with what explains it (the
    referee's typed lines: their kind, items and bases)."""
    rules = deal.rules
    s = deal.settlement
    assert s is not None
    groups: dict[str, list[Payment]] = {}
    for p in s.payments:
        groups.setdefault(p.item, []).append(p)
    contract = deal.contract.id if deal.contract else ""
    result = deal.result or ""
    kind = outcome_kind(rules, result) if result in rules.outcomes else None
    side = set(deal.side)
    favoured = favoured_options(deal)
    out = []
    for item, payments in groups.items():
        first = payments[0]
        moves = [
            Move(
                p.payer_seat,
                p.payee_seat,
                p.amount,
                _stake_parts(p, deal.dealer) if p.kind is PaymentKind.STAKE else (),
            )
            for p in payments
        ]
        group = PaymentGroup(
            item, first.kind.value, moves, sum(p.amount for p in payments), basis=first.basis
        )
        if first.kind is PaymentKind.STAKE:
            group = dataclasses.replace(
                group,
                redeal=bool(deal.table.redeal),
                stake_lines=list(zip(first.items, first.bases, strict=True)),
            )
        elif first.kind is PaymentKind.POT:
            kept = s.table.remainder if kind is not None and kind.pot == "opponents" else 0
            group = dataclasses.replace(
                group,
                pot=kind.pot.value if kind is not None and kind.pot is not None else "",
                kept=kept,
                kept_basis=rules.codille_remainder_basis if kept else None,
            )
        elif first.kind is PaymentKind.HELD:
            group = dataclasses.replace(group, kind="other")
        elif first.kind is PaymentKind.ITEMS:
            parts = []
            for part, basis in zip(first.items, first.bases, strict=True):
                it = rules.items[part]
                parts.append((it.name, it.value(contract, s.matadors, favoured), bool(it.in_play)))
                group.item_bases.append((it.name, basis))
            group = dataclasses.replace(
                group,
                parts=parts,
                paying_side=any(p.payer_seat in side for p in payments),
                basis=kind.basis if kind is not None else first.basis,
            )
        out.append(group)
    return out


def contract_choices(deal: Deal) -> list[tuple[Contract, list[Suit] | None]]:
    """Returns the biddable contracts, lowest first, each with the trumps the referee allows
    it when they are fewer than all (None: any suit): what ``?`` at the terminal and the web
    table's bids explain. While a contract is offered to the seat that sits out
    (``Deal.offer``), only what is offered."""
    every = len(deal.trump_choices(None))
    out: list[tuple[Contract, list[Suit] | None]] = []
    offer = deal.offer
    offered = offer.contracts if offer is not None else None
    for c in sorted(deal.rules.contracts.values(), key=lambda c: c.rank):
        if offered is not None and c not in offered:
            continue
        if c.biddable:
            allowed = deal.trump_choices(c)
            suits = [x for x in Suit if x.index in allowed]
            out.append((c, suits if len(allowed) < every else None))
    return out


# The game.


@dataclass
class TableGame:
    """A party at the table: a human seat (or none, with ``auto``) and bots elsewhere.

    ``start`` is a record to go on from (``ombre play --from``): its finished deals are played
    again silently (the pot, the bêtes and the totals carried), an unfinished last deal is
    resumed where it stopped, and the party goes on from there with the next deal.
    """

    rules: RuleSet
    human: int | None = 0
    seed: int = 1
    bots: str = "heuristic"
    deals: int | None = 1
    """How many deals the party has; None: deal after deal until the player stops."""
    options: dict[str, str] = field(default_factory=dict)
    record_path: Path | None = None
    start: Record | None = None
    seed_hidden: bool = False
    """A fresh seed is told only when the party is over: it deals every deal of the party."""
    played: list[Deal] = field(default_factory=list)
    _bots: list[Bot] = field(default_factory=list, repr=False)
    _advisor: Bot | None = field(default=None, repr=False)
    _choices: list[Action] = field(default_factory=list, repr=False)
    _digest: str | None = field(default=None, repr=False)
    _kept: list[DealRecord] = field(default_factory=list, repr=False)

    # The party.

    def run(self, read: ReadLine, write: Write, *, colour: bool = False) -> int:
        """Plays the party; returns the exit status: 0, or :data:`EXIT_UNFINISHED` when the
        input ended before a deal was over, or 130 when interrupted.

        With ``deals`` None the party goes on deal after deal, the pot and the bêtes carried,
        until the player stops between two deals (``quit``, or the end of the input there).
        With ``colour`` (a colour terminal) the red suits are shown red and the cards the
        player may play bold."""
        token = _FORMAT.set("ansi" if colour else "text")
        try:
            return self._run(read, write)
        finally:
            _FORMAT.reset(token)

    def _run(self, read: ReadLine, write: Write) -> int:
        rules = self.rules
        self._bots = [make_bot(self.bots, self.seed * 7919 + k) for k in range(rules.players)]
        self._advisor = make_bot("heuristic", 0)
        party = Party(rules, options=self.options, first_dealer=self._first_dealer())
        status = 0
        write = _wrapping(write)
        self._intro(write)
        resume = self._resuming()
        self._tell_going_on(resume, write)
        try:
            if not self._play_party(party, resume, read, write):
                return self._save(write, EXIT_UNFINISHED, final=True)
            if self.deals != 1 and len(self.played) > 1:
                write(self._totals(party))
        except _Quit:
            write(_message("quit", recorded=self.record_path is not None))
            if len(party.finished) > 1 or (party.finished and self.deals != 1):
                write(self._totals(party))
        except KeyboardInterrupt:
            write(_message("interrupted"))
            status = 130
        self._tell_seed(write)
        return self._save(write, status, final=True)

    def _tell_going_on(self, resume: bool, write: Write) -> None:
        """Tells, when the party goes on from a record, which record and how many deals it
        holds, and whether its last deal is resumed or the next one dealt."""
        if self.start is not None:
            write(
                _message(
                    "going-on" if resume else "going-on-finished",
                    source=self.start.file,
                    deals=len(self.start.deals),
                )
            )

    def _play_party(self, party: Party, resume: bool, read: ReadLine, write: Write) -> bool:
        """Plays the deals of the party, a record's finished deals again in silence first;
        returns False when the input ended before a deal was over."""
        rules = self.rules
        recorded_deals = len(self.start.deals) if self.start is not None else 0
        i = 0
        # --deals counts the deals of the party as the party counts them: a deal made void
        # and dealt again by the same dealer is not one (Party.counted).
        while (self.deals is None or party.counted < self.deals) and i < MAX_DEALS:
            if party.over:
                # The rule file's party is over: a seat reached the target, or its deals
                # are played.
                write(_message("party-over", party=party, rules=rules, human=self.human))
                break
            on_table = party.table
            number = party.counted + 1  # a deal dealt again keeps the void one's number
            deal = self._new_deal(party, i)
            self.played.append(deal)
            recorded: tuple[str, ...] = ()
            if self.start is not None and i < recorded_deals:
                recorded = self.start.deals[i].actions
            if i < recorded_deals and (not resume or i < recorded_deals - 1):
                self._replay_silently(deal, number, recorded, write)
                i += 1
                continue
            if not self._play_dealt(deal, number, on_table, recorded, read, write):
                return False
            i += 1
            if self.deals is None or self.deals > 1:
                write(self._running(party))
            if party.over:
                continue  # told at the top of the loop
            if (
                self.deals is None
                and self.human is not None
                and not self._another(party, party.counted, read, write)
            ):
                break
        return True

    def _replay_silently(
        self, deal: Deal, number: int, recorded: tuple[str, ...], write: Write
    ) -> None:
        """Plays a finished deal of the record again without a word, and tells its result in
        one line."""
        rules = self.rules
        for line_text in recorded:
            seat, action = parse_line(line_text)
            deal.apply(rules.canonical(action), seat=seat)
        write(
            _message(
                "replayed",
                number=number,
                deals=self.deals,
                deal=deal,
                rules=rules,
                human=self.human,
            )
        )

    def _play_dealt(
        self,
        deal: Deal,
        number: int,
        on_table: Any,
        recorded: tuple[str, ...],
        read: ReadLine,
        write: Write,
    ) -> bool:
        """Plays a deal at the table, from where its record stopped when it has recorded
        actions, tells its result and keeps a player's game; returns False when the input
        ended before the deal was over."""
        self._header(deal, number, on_table, write)
        if recorded:
            write(_message("resuming", actions=len(recorded)))
            for line_text in recorded:
                seat, action = parse_line(line_text)
                self._act(deal, seat, self.rules.canonical(action), write)
            write(_message("goes-on"))
        if not self._play_deal(deal, read, write):
            write(
                _message(
                    "input-ended",
                    number=number,
                    deals=self.deals,
                    recorded=self.record_path is not None,
                )
            )
            return False
        for line in describe_result(deal, self.human):
            write(line)
        if self.human is not None:
            # A player's game is kept deal by deal; bots alone are kept at the end.
            self._save(write, 0, final=False)
        return True

    def _totals(self, party: Party) -> str:
        """Returns the totals of the party, and what is left in the pot."""
        return _message(
            "totals",
            totals=party.totals,
            pot=party.table.pot,
            human=self.human,
            points=self.rules.in_points,
        )

    def _tell_seed(self, write: Write) -> None:
        """Tells a seed kept hidden, once the party is over and no deal of it is in progress."""
        if self.seed_hidden and self.played and all(d.is_over for d in self.played):
            _say(
                write,
                "table/deal.txt.j2",
                what="seed",
                rules=self.rules,
                seed=self.seed,
                options=self.options,
            )

    def _running(self, party: Party) -> str:
        """Returns the running totals after a deal of a party, and what waits on the table."""
        return _message(
            "running",
            played=len(party.finished),
            totals=party.totals,
            table=party.table,
            human=self.human,
            points=self.rules.in_points,
            target=self.rules.party.target if self.rules.party is not None else None,
            penalties=party.penalty_points,
        )

    def _another(self, party: Party, number: int, read: ReadLine, write: Write) -> bool:
        """Asks, between two deals of an open party, whether to deal the next; returns False
        when the player stops (``quit``, or the end of the input: the party is whole)."""
        self._choices = []
        write(_message("another", number=number + 1, dealer=party.next_dealer, human=self.human))
        while True:
            answer = read("> ")
            if answer is None:
                return False
            word = answer.strip().lower()
            if word in ("", "y", "yes", "deal", "next", "d"):
                return True
            if word in ("quit", "q", "stop", "n", "no"):
                return False
            if word in ("?", "help", "h"):
                write(_message("another-help", recorded=self.record_path is not None))
                continue
            write(_message("another-hint"))

    def _first_dealer(self) -> int:
        if self.start is not None and self.start.deals and self.start.deals[0].dealer:
            return self.start.deals[0].dealer
        return 0

    def _resuming(self) -> bool:
        """Checks if ``start`` ends with an unfinished deal (resume), rather than being a
        finished game (deal it again)."""
        if self.start is None:
            return False
        party = Party(self.rules, options=self.options, first_dealer=self._first_dealer())
        deal = None
        for d in self.start.deals:
            deal = party.new_deal(seed=d.seed, hands=d.hands, talon=d.talon)
            for line_text in d.actions:
                seat, action = parse_line(line_text)
                deal.apply(self.rules.canonical(action), seat=seat)
        return deal is not None and not deal.is_over

    def _new_deal(self, party: Party, i: int) -> Deal:
        if self.start is not None and i < len(self.start.deals):
            d = self.start.deals[i]
            return party.new_deal(seed=d.seed, hands=d.hands, talon=d.talon)
        # Deal i of the game is dealt with the seed deal_seed(SEED, i) (engine.seeds), as a
        # party record's `seed: SEED` deals it: `--seed 5` first deals what `seed: 5` deals.
        from engine.seeds import deal_seed

        return party.new_deal(seed=deal_seed(self.seed, i))

    def _save(self, write: Write, status: int, *, final: bool) -> int:
        if self.record_path is not None and self.played:
            self._write_record()
            if final:
                unfinished = not self.played[-1].is_over or (
                    self.deals is not None and len(self.played) < self.deals
                )
                write(_message("saved", path=self.record_path, unfinished=unfinished))
        return status

    def _sha256(self) -> str:
        if self._digest is None:
            self._digest = ruleset_sha256(self.rules)
        return self._digest

    def _write_record(self) -> None:
        assert self.record_path is not None
        rules = self.rules
        folder = self.record_path.resolve().parent
        # Beside the record (or below it): relative, so the two can move together; elsewhere,
        # absolute.
        source = Path(rules.file).resolve()
        try:
            shown = str(source.relative_to(folder))
        except ValueError:
            shown = str(source)
        # An open party records the deals dealt so far: going on from it deals the next.
        count = self.deals if self.deals is not None else len(self.played)
        table: dict[str, Any] = {"seed": self.seed, "bots": self.bots, "deals": count}
        if self.human is not None:
            table = {"seat": self.human, **table}
        record = record_of(
            self.played[len(self._kept) :],
            rules.id,
            party=count > 1 or len(self.played) > 1,
            ruleset_file=Path(shown).as_posix(),
            ruleset_sha256=self._sha256(),
            table=table,
        )
        # A finished deal's record does not change: made once.
        record = dataclasses.replace(
            record, deals=(*self._kept, *record.deals), options=dict(self.played[-1].options)
        )
        self._kept = [d for d, deal in zip(record.deals, self.played, strict=True) if deal.is_over]
        _write_atomically(self.record_path, write_record(record))

    # Telling what happens.

    def _intro(self, write: Write) -> None:
        rules = self.rules
        deck = set(rules.deck(self.options))
        _say(
            write,
            "table/deal.txt.j2",
            what="intro",
            rules=rules,
            human=self.human,
            bots=self.bots,
            seed=None if self.seed_hidden else self.seed,
            options=self.options,
            chosen=rules.resolve_options(self.options),
            deck_size=len(deck),
            out=[c for c in rules.full_deck() if c not in deck],
            suits=list(Suit),
            all_cards=rules.full_deck(),
        )

    def _roles(self, deal: Deal) -> dict[int, list[str]]:
        """Returns each seat's roles this deal (dealer, eldest, declarer, out), as keys."""
        roles: dict[int, list[str]] = {}
        for seat in range(deal.n):
            roles[seat] = [
                role
                for role, holder in (
                    ("dealer", deal.dealer),
                    ("eldest", deal.eldest),
                    ("declarer", deal.declarer),
                    ("out", getattr(deal, "out", None)),
                )
                if holder == seat
            ]
        return roles

    def _header(self, deal: Deal, number: int, table: Any, write: Write) -> None:
        human = self.human
        sits_out = human is not None and human == getattr(deal, "out", None)
        shows_hand = human is not None and not sits_out and deal.to_move != human
        _say(
            write,
            "table/deal.txt.j2",
            what="header",
            in_points=deal.rules.in_points,
            number=number,
            deals=self.deals,
            dealer=deal.dealer,
            table=table,
            n=deal.n,
            bottom=human if human is not None else 0,
            roles=self._roles(deal),
            order=_in_turn(deal, deal.eldest),
            human=human,
            sits_out=sits_out,
            hand=self._hand(deal, human) if shows_hand and human is not None else None,
        )

    def _seats(self, deal: Deal, write: Write) -> None:
        bottom = self.human if self.human is not None else 0
        _say(
            write,
            "table/seats.txt.j2",
            n=deal.n,
            bottom=bottom,
            roles=self._roles(deal),
            order=_in_turn(deal, deal.eldest),
            human=self.human,
        )

    def _hand(self, deal: Deal, seat: int) -> list[tuple[Suit | None, list[Card]]]:
        """Returns ``seat``'s hand in groups: each suit, and (None) its trumps once named."""
        hand = deal.hand(seat)
        groups: list[tuple[Suit | None, list[Card]]] = []
        trump = deal.view(seat).trump
        trumps = set(deal.rules.trump_order(trump, deal.options)) if trump is not None else set()
        for card in hand:
            suit = None if card in trumps else card.suit
            if not groups or groups[-1][0] != suit:
                groups.append((suit, []))
            groups[-1][1].append(card)
        return groups

    def _side_known(self, deal: Deal) -> list[int] | None:
        """Returns the declaring side as the player knows it, or None while the partner is
        hidden from him."""
        if deal.declarer is None or deal.contract is None:
            return None
        if deal.contract.help != "call":
            return [deal.declarer]
        viewer = self.human
        # What the player may know is the referee's answer (Deal.view's): the partner, as soon
        # as the called card lies on the table, or at once to the partner himself.
        if viewer is None or deal.holder_known_to(viewer):
            return deal.side
        return None

    def _tricks_view(self, deal: Deal) -> TricksView:
        if deal.each_for_himself:
            # Every seat for himself: no side, the most tricks so far (the referee's answers).
            return TricksView(
                won=deal.won,
                declarer=deal.declarer,
                side=None,
                others=[],
                called=None,
                each=True,
                top=deal.top_taker,
            )
        side = self._side_known(deal)
        out = deal.seating.out
        return TricksView(
            won=deal.won,
            declarer=deal.declarer,
            side=side,
            others=[k for k in range(deal.n) if side is not None and k not in side and k != out],
            called=deal.view(self.human if self.human is not None else 0).called
            if deal.declarer is not None and side is None
            else None,
        )

    def _trick_view(self, deal: Deal, index: int) -> TrickView:
        trick = deal.tricks[index]
        seats = _in_turn(deal, trick.leader)
        return TrickView(
            number=index + 1,
            plays=list(zip(seats, trick.cards, strict=False)),
            winner=trick.winner,
            best=trick.cards[seats.index(trick.winner)] if trick.winner is not None else None,
        )

    def _act(self, deal: Deal, seat: int, action: Action, write: Write) -> None:
        """Applies an action and tells the table what it may see of it."""
        phase = deal.phase
        tricks_before = len(deal.tricks)
        noticed = (
            [r for r in deal.renonces if r[1] < tricks_before] if action.verb == "notice" else []
        )
        limit = deal.exchange_why()  # the écart's limit and why, before the cards change
        offer = deal.offer  # the contract offered to the seat that sits out, if this answers it
        faulted = len(deal.faults)
        deal.apply(action, seat=seat)
        human = self.human
        if action.verb in IRREGULARITIES:
            # A law of the table (a misdeal, a card too many): told, and nothing else follows.
            said = _macros("table/act.txt.j2").act(
                Told(phase=phase, action=action, seat=seat, human=human), self.rules
            )
            for line in str(said).splitlines():
                write(line)
            return
        if phase == "call":
            self._tell_call(deal, seat, action.card, write)
        elif phase == "give":
            self._tell_give(deal, seat, action.card, write)
        exchange = None
        if phase == "exchange" and action.verb != "defer":
            _, discarded, drawn = deal.exchanges[-1]
            exchange = ExchangeView(
                [ALL_CARDS[c] for c in discarded],
                [ALL_CARDS[c] for c in drawn],
                deal.view(seat).talon,
                limit,
            )
        declarer = None
        if (
            phase in ("auction", "match", "raise")
            and deal.phase not in ("auction", "match", "raise")
            and not deal.is_over
            and deal.declarer is not None
            and deal.contract is not None
        ):
            each = deal.each_for_himself
            declarer = DeclarerView(
                deal.declarer,
                deal.contract,
                bool(deal.forced),
                each=each,
                drawn=len(deal.exchanges[-1][2]) if each and deal.exchanges else 0,
            )
        trick = tricks = None
        if len(deal.tricks) > tricks_before:
            trick = self._trick_view(deal, len(deal.tricks) - 1)
            if not deal.is_over and human is None:
                tricks = self._tricks_view(deal)
        told = Told(
            phase=phase,
            action=action,
            seat=seat,
            human=human,
            overcalled=deal.to_move if phase == "auction" and deal.phase == "match" else None,
            exchange=exchange,
            noticed=tuple((offender, t + 1) for offender, t, _ in noticed),
            resumes=min(t for _, t, _ in noticed) + 1 if noticed else None,
            declarer=declarer,
            trick=trick,
            tricks=tricks,
            lead=deal.to_move
            if phase not in ("play", "vole") and deal.phase == "play" and not deal.tricks
            else None,
            offer=offer,
            faults=tuple(f for _, f in deal.faults[faulted:]),
            from_talon=phase == "trump"
            and deal.contract is not None
            and bool(deal.contract.trump_from_talon),
            turned=deal.view(seat if human is None else human).turned if phase == "trump" else None,
        )
        text = _macros("table/act.txt.j2").act(told, self.rules)
        if text:
            for line in text.splitlines():
                write(line)

    def _tell_call(self, deal: Deal, seat: int, card: Card, write: Write) -> None:
        human = self.human
        assert deal.contract is not None
        holder = deal.demanded_from
        help_ = deal.contract.help
        if help_ != "call":
            assert holder is not None
        shows_hand = help_ != "call" and human is not None and human in (seat, holder)
        _say(
            write,
            "table/events.txt.j2",
            what="call",
            help=help_,
            seat=seat,
            holder=holder,
            partner=deal.partner,
            card=card,
            human=human,
            hand=self._hand(deal, human) if shows_hand and human is not None else None,
        )

    def _tell_give(self, deal: Deal, seat: int, card: Card, write: Write) -> None:
        human = self.human
        holder = deal.demanded_from
        view = deal.view(human if human is not None else seat)
        _say(
            write,
            "table/events.txt.j2",
            what="give",
            seat=seat,
            holder=holder,
            card=card,
            called=view.called,
            shown=holder == human or view.given is not None or human is None,
            human=human,
            hand=self._hand(deal, human) if human is not None and human == holder else None,
        )

    # Turns.

    def _play_deal(self, deal: Deal, read: ReadLine, write: Write) -> bool:
        while not deal.is_over:
            self._remedies(deal, write)
            if deal.is_over:
                break
            seat = deal.to_move
            if seat == self.human:
                if self._human_turn(deal, seat, read, write) is None:
                    return False
                self._save(write, 0, final=False)
            else:
                self._act(deal, seat, self._bots[seat].choose(deal, seat), write)
        return True

    def _legal(self, deal: Deal) -> list[Action]:
        """Returns the legal actions in the order shown: cards as the hand is sorted."""
        if deal.phase == "exchange":
            return []
        legal = list(deal.legal_actions())
        if deal.phase in ("play", "give", "call"):
            order = {c: i for i, c in enumerate(deal.hand(deal.to_move))}
            # Cards as the hand is sorted; an action without a card (``notice``) last.
            legal.sort(
                key=lambda a: (
                    (order.get(a.card, 99), a.card.suit.index, a.card.rank.index)
                    if a.cards
                    else (100, 0, 0)
                )
            )
        return legal

    def _label(self, action: Action) -> str:
        return str(_macros("table/turn.txt.j2").label(action, self.rules))

    def _prompt_view(self, deal: Deal, seat: int) -> PromptView:
        view = deal.view(seat)
        phase = deal.phase
        prompt = PromptView(seat=seat, phase=phase)
        if phase in ("auction", "match"):
            standing = deal.standing_bid
            if standing is not None:
                prompt = dataclasses.replace(prompt, standing=(standing[0], standing[1].id))
            prompt = dataclasses.replace(prompt, offer=deal.offer)
        elif phase == "call":
            assert deal.contract is not None
            prompt = dataclasses.replace(prompt, help=deal.contract.help)
        elif phase == "give":
            prompt = dataclasses.replace(
                prompt, demanded_from=deal.demanded_from, called=view.called
            )
        elif phase == "exchange":
            why = deal.exchange_why()
            prompt = dataclasses.replace(
                prompt,
                most=deal.exchange_limit(),
                least=why.least if why is not None else 0,
                may_defer=deal.may_defer(),
                limit=why,
                talon=view.talon,
            )
        elif phase == "raise":
            held = deal.holder_contract
            assert deal.holder is not None and held is not None
            prompt = dataclasses.replace(prompt, standing=(deal.holder, held.id))
        elif phase == "vole":
            prompt = dataclasses.replace(prompt, vole_defender=deal.vole_by_defender)
        elif phase == "trump":
            irregular = public_irregularities(deal)
            if irregular is not None and irregular.naming is not None:
                prompt = dataclasses.replace(prompt, naming=irregular.naming)
        elif phase != "trump":
            led = view.trick[0] if view.trick else None
            trump = view.trump
            prompt = dataclasses.replace(
                prompt,
                trick=len(view.tricks) + 1,
                led=led,
                led_trump=led is not None
                and trump is not None
                and led in self.rules.trump_order(trump, deal.options),
            )
        return prompt

    def _turn_view(self, deal: Deal, seat: int) -> TurnView:
        view = deal.view(seat)
        rules = self.rules
        legal = self._choices = self._legal(deal)
        most = deal.exchange_limit() if deal.phase == "exchange" else 0
        card = rules.all_pass_card
        return TurnView(
            seat=seat,
            prompt=self._prompt_view(deal, seat),
            hand=self._hand(deal, seat),
            choices=legal,
            contract=view.contract,
            declarer=view.declarer,
            trump=view.trump,
            called=view.called,
            calls=deal.contract is not None and deal.contract.help == "call",
            side=self._side_known(deal) if view.called is not None else None,
            demanded_from=view.demanded_from,
            given=view.given,
            # The speech, public to every seat: the view's typed pairs.
            auction=view.auction,
            tricks=self._tricks_view(deal) if deal.phase in ("play", "vole") else None,
            table=list(zip(_in_turn(deal, view.trick_leader), view.trick, strict=False))
            if view.trick
            else [],
            forced_note=(
                deal.phase == "auction"
                and rules.all_pass == "forced"
                and card is not None
                and card in deal.hand(seat)
                and deal.standing_bid is None
            ),
            example=view.hand[-min(2, most) :] if most else (),
            no_trumps=view.no_trumps,
            declarer_hand=view.declarer_hand if view.declarer != seat else None,
            each=deal.each_for_himself,
            public=irregular.public if (irregular := public_irregularities(deal)) else (),
            playable=_playable(legal),
        )

    def _show(self, deal: Deal, seat: int, write: Write) -> None:
        view = self._turn_view(deal, seat)
        for line in str(_macros("table/turn.txt.j2").screen(view, self.rules)).splitlines():
            write(line)

    def completions(self) -> list[str]:
        """Returns the words a player may type now (for the terminal's Tab completion)."""
        words = [str(a) for a in self._choices] + [self._label(a) for a in self._choices]
        return sorted(set(words)) + list(COMMANDS)

    def _human_turn(self, deal: Deal, seat: int, read: ReadLine, write: Write) -> Action | None:
        self._show(deal, seat, write)
        while True:
            answer = read("> ")
            if answer is None:
                return None
            answer = answer.strip()
            legal = self._choices
            word = answer.lower()
            if not answer:
                if len(legal) == 1:
                    self._act(deal, seat, legal[0], write)
                    return legal[0]
                write(_message("empty-answer"))
                continue
            asked = word.split()
            if asked and asked[0] in ("?", "help", "h", "??"):
                # "??" or "? sources": the second request, the sources of the rules that apply
                self._help(deal, seat, write, sources=asked[0] == "??" or asked[1:] == ["sources"])
                continue
            if word == "last":
                tricks = deal.tricks
                if tricks:
                    self._say_tricks(deal, [len(tricks) - 1], False, write)
                else:
                    write(_message("no-trick"))
                continue
            if word == "tricks":
                self._say_tricks(deal, range(len(deal.tricks)), True, write)
                continue
            if word == "seats":
                self._seats(deal, write)
                continue
            if word == "quit":
                raise _Quit
            if word in ("laws", "irregularities"):
                write(_message("declarable", seat=seat, actions=deal.declarable(seat), deal=deal))
                continue
            declared = self._declare(deal, seat, answer, write)
            if declared is False:
                continue
            if isinstance(declared, Action):
                if deal.to_move != seat or deal.is_over:
                    return declared
                self._show(deal, seat, write)
                continue
            try:
                if answer.isascii() and answer.isdigit() and deal.phase != "exchange":
                    # A number of any length is a choice from the list: one too long to read
                    # (5,000 digits) is simply out of range.
                    k = small_number(answer)
                    if k is None or not 1 <= k <= len(legal):
                        write(_message("out-of-range", count=len(legal)))
                        continue
                    action = legal[k - 1]
                else:
                    if deal.phase == "exchange" and not word.startswith(("discard", "defer")):
                        answer = "discard " + answer
                    action = self.rules.canonical(Action.parse(answer))
                # The referee refuses an illegal action before anything is told, and leaves
                # the deal as it was.
                self._act(deal, seat, action, write)
                return action
            except IllegalActionError as exc:
                write(
                    _message(
                        "refused",
                        reason=exc.detail,
                        seat=seat,
                        rule=exc.rule,
                        code=exc.code,
                    )
                )
            except NotationError as exc:
                write(_message("not-understood", error=exc, exchange=deal.phase == "exchange"))

    def _declare(self, deal: Deal, seat: int, answer: str, write: Write) -> Action | bool | None:
        """Declares an irregularity of the laws of the play typed at the table (``expose Kh``,
        ``show``, or a record line ``2 out-of-turn Kh`` for another seat): the referee refuses
        or applies it and the table tells what it did. Returns the action declared, False when
        it was refused (and said so), None when the answer is no such verb."""
        words = answer.split(maxsplit=1)
        by = seat
        text = answer
        if len(words) == 2 and small_number(words[0]) is not None:
            try:
                by, parsed = parse_line(answer)
            except NotationError:
                return None
            text = str(parsed)
        verb = text.split(maxsplit=1)[0].lower() if text.split() else ""
        if verb not in LAW_VERBS:
            return None
        try:
            action = Action.parse(text)
            deal.apply(action, seat=by)
        except IllegalActionError as exc:
            write(_message("refused", reason=exc.detail, seat=seat, rule=exc.rule, code=exc.code))
            return False
        except NotationError as exc:
            write(_message("not-understood", error=exc))
            return False
        self._tell_declared(deal, deal.irregularities[-1], write)
        self._save(write, 0, final=False)
        self._remedies(deal, write)
        return action

    def _tell_declared(self, deal: Deal, event: Event, write: Write) -> None:
        """Tells an irregularity or remedy declared, and what the laws leave standing (what
        every seat sees of them, remedies.public)."""
        irregular = public_irregularities(deal)
        rule = self.rules.cite(("laws", event.law))
        write(_message("declared", event=event, human=self.human, irr=irregular, rule=rule))

    def _remedies(self, deal: Deal, write: Write) -> None:
        """Lets the bots take the remedies an irregularity gives them (``Bot.remedy``), and
        tells each."""
        if deal.irregular is None:
            return
        people = () if self.human is None else (self.human,)
        taken = take_remedies(deal, self._bots, people)
        if taken:
            for event in deal.irregularities[-len(taken) :]:
                self._tell_declared(deal, event, write)
            self._save(write, 0, final=False)

    def _say_tricks(self, deal: Deal, indexes: Iterable[int], totals: bool, write: Write) -> None:
        """Tells the tricks at ``indexes`` (``last``, ``tricks``) and, with ``totals``, the
        tricks of each seat and side."""
        macros = _macros("table/tricks.txt.j2")
        for k in indexes:
            write(str(macros.trick(self._trick_view(deal, k), self.human)))
        if totals:
            if deal.declarer is None:
                write(_message("no-trick"))
            else:
                write(str(macros.tricks(self._tricks_view(deal), self.human)).rstrip("\n"))

    def _help_view(self, deal: Deal, seat: int) -> HelpView:
        rules = self.rules
        phase = deal.phase
        legal = self._choices
        rule_paths: dict[str, list[tuple[str, ...]]] = {
            "auction": [("auction",)],
            "match": [
                ("auction", "contracts", c.id) for c in rules.contracts.values() if c.matchable
            ],
            "trump": [("declarations", "trump")],
            "give": [("declarations", "demand")],
            "exchange": [("exchange",)],
            "play": [("play",), ("matadors", "privilege")],
            "vole": [("vole",)],
        }
        paths = rule_paths.get(phase, [])
        if phase == "call" and deal.contract is not None:
            paths = [("declarations", "call" if deal.contract.help == "call" else "demand")]
        contracts = contract_choices(deal) if phase == "auction" else []
        return HelpView(
            prompt=self._prompt_view(deal, seat),
            choices=legal,
            held=len(deal.hand(seat)) if phase == "play" else 0,
            playable=_playable(legal),
            contracts=contracts,
            rules=[p for p in paths if rules.states(p)],
            results=phase in ("play", "vole") and deal.contract is not None,
            advice=self._advice(deal, seat),
            recorded=self.record_path is not None,
        )

    def _help(self, deal: Deal, seat: int, write: Write, *, sources: bool = False) -> None:
        view = dataclasses.replace(self._help_view(deal, seat), sources=sources)
        for line in str(_macros("table/turn.txt.j2").help(view, self.rules)).splitlines():
            write(line)

    def _advice(self, deal: Deal, seat: int) -> tuple[Action, str, bool] | None:
        """Returns what the heuristic bot would do now, why (or an empty reason), and whether
        the reason begins with the action (the bot's :meth:`~HeuristicBot.hint`)."""
        advisor = self._advisor
        if advisor is None:
            return None
        hint = getattr(advisor, "hint", None)
        if hint is not None:
            action, reason, names = hint(deal, seat)
            return action, str(reason), bool(names)
        return advisor.choose(deal, seat), "", False


# The session: what ``ombre play`` asked for, made into a game (the CLI only parses).


@dataclass(frozen=True, slots=True)
class PlayRequest:
    """The arguments of ``ombre play`` as given (None: not given)."""

    ruleset: str | None = None
    seat: int | None = None
    seed: int | None = None
    bots: str | None = None
    record: Path | None = None
    force: bool = False
    start: Path | None = None
    """``--from``: a record to go on with."""
    auto: bool = False
    deals: int | None = None
    options: dict[str, str] = field(default_factory=dict)
    option_given: bool = False
    interactive: bool = False
    """Whether a person answers at a terminal: the party then goes on until he stops."""


@dataclass(frozen=True, slots=True)
class _Setup:
    """The rules and setup a game is opened with: a record's (``--from``) or the arguments'."""

    rules: RuleSet
    options: dict[str, str]
    warnings: list[str] = field(default_factory=list)
    played: dict[str, Any] = field(default_factory=dict)
    """The record's table: the seat, seed, bots and deals it was played with."""
    start: Record | None = None
    record: Path | None = None
    """Where the game is recorded: ``--record``, else the ``--from`` record itself."""
    finished: int = 0
    """The record's finished deals that count in the party."""
    complete: bool = True
    """Whether the record's every deal is over."""


def open_table(
    request: PlayRequest, load: Callable[[str], RuleSet], fresh_seed: Callable[[], int]
) -> tuple[TableGame, list[str]]:
    """Returns the game ``request`` asks for, and the warnings about its record's rules.

    The policy: a record given with ``--from`` supplies the rules, setup, seat, seed, bots and
    number of deals (the arguments given override them, not the setup); an unfinished record
    is resumed, a finished one goes on with its next deal, and either is written on in its own
    file unless ``--record`` names another. Without ``--deals`` a person at a terminal plays
    deal after deal until he stops; piped input and ``--auto`` play one deal (or finish the
    record's).

    :raises RequestError: for arguments that do not fit (exit status 2) or a record that cannot
        be gone on with (1);
    :raises NotationError: for an unknown ruleset, option or choice;
    :raises RecordError: for a malformed record.
    """
    from engine.bots import BOTS

    if request.start is not None:
        setup = _recorded_setup(request, request.start)
    else:
        setup = _requested_setup(request, load)
    rules, played = setup.rules, setup.played
    bots = request.bots or played.get("bots", "heuristic")
    if bots not in BOTS:
        raise RequestError(_message("bots", kinds=BOTS, value=bots))
    seat = request.seat if request.seat is not None else played.get("seat", 0)
    if not request.auto and not 0 <= seat < rules.players:
        raise RequestError(_message("seat", rules=rules))
    seed = request.seed if request.seed is not None else played.get("seed")
    fresh = seed is None
    if seed is None:
        seed = fresh_seed()
    deals = _party_deals(request, setup)
    if setup.record is not None:
        _check_record_path(request, setup.record)
    game = TableGame(
        rules,
        human=None if request.auto else seat,
        seed=seed,
        bots=bots,
        deals=deals,
        options=setup.options,
        record_path=setup.record,
        start=setup.start,
        seed_hidden=fresh and not request.auto,
    )
    return game, setup.warnings


def _recorded_setup(request: PlayRequest, path: Path) -> _Setup:
    """Returns the setup of the record ``path`` that ``--from`` goes on with, replayed to
    check it.

    :raises RequestError: for a folder, a missing record, one that cannot be gone on with, or
        ``--option`` given with it;
    :raises RecordError: for a malformed record.
    """
    from engine.records import read_record, resolve_ruleset
    from engine.records import replay as run_replay

    if path.is_dir():
        raise RequestError(_message("start-is-a-directory", path=path))
    if not path.exists():
        raise RequestError(_message("no-such-record", path=path))
    start = read_record(path)
    rules, warnings = resolve_ruleset(start, path, request.ruleset)
    report = run_replay(start, rules)
    if report.error is not None:
        raise RequestError(_message("cannot-go-on", path=path, located=report.located), 1)
    if request.option_given:
        raise RequestError(_message("from-option"))
    return _Setup(
        rules,
        dict(start.options),
        warnings=warnings,
        played=dict(start.table or {}),
        start=start,
        # The game goes on in the same file unless --record names another.
        record=request.record if request.record is not None else path,
        # The finished deals that count in the party (a deal made void and dealt again does
        # not: Party.counted's statement), against which --deals is read.
        finished=deals_counted(rules, (d.result for d in report.finished)),
        complete=report.complete,
    )


def _requested_setup(request: PlayRequest, load: Callable[[str], RuleSet]) -> _Setup:
    """Returns the setup the arguments ask for: the ruleset named and its options.

    :raises RequestError: when no ruleset is named;
    :raises NotationError: for an unknown ruleset, option or choice.
    """
    if request.ruleset is None:
        raise RequestError(_message("play-needs-ruleset"))
    rules = load(request.ruleset)
    options = dict(request.options)
    rules.resolve_options(options)  # raises NotationError for an unknown key or choice
    return _Setup(rules, options, record=request.record)


def _party_deals(request: PlayRequest, setup: _Setup) -> int | None:
    """Returns how many deals the party has (None: deal after deal until the player stops).

    :raises RequestError: for ``--deals`` no more than the record's finished deals.
    """
    rules, finished = setup.rules, setup.finished
    open_party = request.interactive and not request.auto
    deals: int | None
    to_the_end = rules.party is not None and rules.party.tours is None
    if setup.start is None:
        # A party the rule file plays to a target or for some deals is played to its end.
        deals = request.deals or (None if open_party or to_the_end else 1)
    elif request.deals is not None:
        if request.deals <= finished:
            raise RequestError(_message("from-deals", path=request.start, finished=finished))
        deals = request.deals
    else:
        target = int(setup.played.get("deals", 1))
        if not setup.complete and target > finished + 1:
            deals = target  # a party of a fixed length, cut short: its deals are played out
        elif open_party or to_the_end:
            deals = None
        else:
            deals = finished + 1  # the unfinished deal played out, or one deal more
    return deals


def _check_record_path(request: PlayRequest, record: Path) -> None:
    """Checks that the game may be recorded at ``record``.

    :raises RequestError: when it may not (it exists without ``--force``, and is not the
        ``--from`` record the game goes on in).
    """
    # Going on in the record's own file keeps all it held, and adds to it.
    continuing = request.start is not None and record.resolve() == request.start.resolve()
    problem = record_path_problem(record, force=request.force, continuing=continuing)
    if problem:
        raise RequestError(problem)

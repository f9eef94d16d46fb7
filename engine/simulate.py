"""Simulation: bots play a long party, on as many worker processes as asked, and it is summed up.

A party is sequential only in its counters: the pot, the bêtes waiting, the odd counters and
the redeal flag (:class:`TableState`) pass from one deal to the next. The cards and the play do
not: deal ``i`` is dealt by seat ``i mod n`` from the seed :func:`engine.seeds.deal_seed`
``(S, i)`` (``S`` itself for deal 0, a mix of ``S`` and ``i`` after; as ``ombre play --seed S``
and a party record's ``seed: S`` deal it), and the bots never look at the table. Their random draws
come from one generator per *block* of consecutive deals (250, or 8 with a search bot at the
table), seeded from ``(S, block)``: a block's play depends only on the seed and the block's
number. So:

1. :func:`play_block` plays a block's deals -- in any order, on any number of processes -- and
   returns each as :class:`Played`: its :class:`~engine.referee.settlement.Outcome` (what the referee
   settles, whatever lies on the table) and a few counts, a few hundred bytes;
2. the parent process takes the blocks in order and settles each deal on the table the one
   before left (:func:`engine.referee.settlement.settle_outcome`, what the referee itself does at the
   end of a deal: the counters only, the payment lines being written only when read);
3. :class:`Tally` sums the deals up.

So the result is the same, byte for byte, as one process playing the whole party, for any
``--jobs`` (the tests check it), and the parent's serial share is the settlement's arithmetic.
One generator per block rather than per deal: seeding a Mersenne Twister costs as much as 5 %
of a random deal.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import random
import struct
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, NamedTuple, Protocol

from engine.bots import BOTS, Bot, RandomBot, make_bot
from engine.referee import Deal
from engine.referee.party import last_tour_factor
from engine.referee.result import outcome
from engine.referee.settlement import (
    Outcome,
    SettlementResult,
    TableState,
    outcome_kinds,
    role_balances,
    settle_outcome,
)
from engine.rules.model import RuleSet
from engine.seeds import deal_seed

__all__ = [
    "BLOCK",
    "Blocks",
    "Played",
    "Setup",
    "Summary",
    "Tally",
    "block_seed",
    "deal_record",
    "deal_seed",
    "default_jobs",
    "parse_bots",
    "play_block",
    "play_deal",
    "played_deal",
    "progress_bar",
    "run",
    "settled",
    "settled_deals",
    "summary_text",
]

BLOCK = 250
"""Deals per block (one generator for the bots, one task for a worker)."""
SEARCH_BLOCK = 8
"""Deals per block when a search bot is seated (slow deals: finer tasks and progress)."""

_EMPTY = TableState()


def block_seed(seed: int, block: int) -> int:
    """Returns the seed of the bots' random generator for a block of deals (shared by the seats)."""
    return (seed * 1_000_003 + block) * 7919 + 1


@dataclass(frozen=True)
class Setup:
    """What a run plays: a ruleset with its options, one bot kind per seat, and a seed."""

    rules: RuleSet
    bots: tuple[str, ...]
    seed: int = 1
    options: Mapping[str, str] = field(default_factory=dict)

    @property
    def block(self) -> int:
        """Returns the number of deals in a block for these bots."""
        slow = any(kind.partition(":")[0] == "search" or kind not in BOTS for kind in self.bots)
        return SEARCH_BLOCK if slow else BLOCK

    def make_bots(self) -> list[Bot]:
        """Returns one bot per seat (given the block's generator by :func:`play_block`): the
        workbench's by name, OpenSpiel's through :mod:`engine.spiel.bots`."""
        out: list[Bot] = []
        for kind in self.bots:
            if kind.partition(":")[0] in BOTS:
                out.append(make_bot(kind, 0))
            else:
                from engine.spiel.bots import SpielBot

                out.append(SpielBot(kind, 0))
        return out

    @cached_property
    def party(self) -> bool:
        """The rule file plays parties of some tours, the last paying more (the deal's factor)."""
        return self.rules.party is not None


class Played(NamedTuple):
    """One deal as the bots played it, before it is settled: what a worker sends back."""

    outcome: Outcome
    forced: bool
    """The declarer was forced (all passed, and the rules impose a contract)."""
    vole_undertaken: bool
    actions: int


def played_deal(
    setup: Setup,
    index: int,
    bots: Sequence[Bot] | None = None,
    rng: random.Random | None = None,
    table: TableState = _EMPTY,
) -> Deal:
    """Plays deal ``index`` of the run with bots in every seat; returns the referee's deal.

    :param bots: the seats' bots, made by :meth:`Setup.make_bots` (made afresh if omitted).
    :param rng: the bots' generator (:func:`play_block` passes its block's; a fresh one seeded
        from the deal's number if omitted).
    :param table: what lies on the table (the play does not depend on it: only what
        ``deal.settlement`` says).
    """
    rules = setup.rules
    players = list(bots) if bots is not None else setup.make_bots()
    deal = Deal(
        rules,
        dealer=index % rules.players,
        seed=deal_seed(setup.seed, index),
        options=setup.options or None,
        table=table,
        factor=last_tour_factor(rules, index) if setup.party else 1,
    )
    if rng is None:
        rng = random.Random(deal_seed(setup.seed, index) * 7919 + 2)
    apply = deal.apply
    if all(type(bot) is RandomBot for bot in players) and rules.renonce != "penalised":
        # RandomBot.choose, inlined: the same draws from the same generator.
        legal_actions = deal.legal_actions
        draw = rng.random
        while not deal.is_over:
            legal = legal_actions()
            apply(legal[int(draw() * len(legal))])
    else:
        for bot in players:
            bot.rng = rng
        while not deal.is_over:
            seat = deal.to_move
            apply(players[seat].choose(deal, seat))
    return deal


def deal_record(setup: Setup, index: int) -> dict[str, Any]:
    """Returns the record of deal ``index`` of the run as its bots played it: the ruleset, its
    options, the dealer, the deal's seed (:func:`deal_seed`) and the actions, which
    ``ombre replay`` referees again (:func:`engine.records.parse_record` reads it).

    The bots' draws come from the generator of the deal's block, so the block's deals before it
    are played again first (at most a block's worth). A deal of a party's last tour pays the
    tour's multiplier in the run; its record alone, a single deal, pays the ordinary stakes.
    """
    size = setup.block
    first = index - index % size
    bots = setup.make_bots()
    rng = random.Random(block_seed(setup.seed, index // size))
    for i in range(first, index):
        played_deal(setup, i, bots, rng)
    deal = played_deal(setup, index, bots, rng)
    return {
        "ruleset": setup.rules.id,
        "options": dict(setup.options),
        "dealer": deal.dealer,
        "seed": deal_seed(setup.seed, index),
        "actions": deal.record_actions(),
    }


def play_deal(
    setup: Setup,
    index: int,
    bots: Sequence[Bot] | None = None,
    rng: random.Random | None = None,
) -> Played:
    """Plays deal ``index`` of the run (as :func:`played_deal`) and returns it unsettled."""
    deal = played_deal(setup, index, bots, rng)
    return Played(outcome(deal), deal.forced, deal.vole_undertaken, len(deal.history))


def settled(rules: RuleSet, played: Played, table: TableState) -> SettlementResult:
    """Returns a played deal settled on ``table``: what the referee settles at its end when it is
    dealt on that table (:func:`engine.referee.settlement.settle_outcome`)."""
    return settle_outcome(rules, played.outcome, table)


def play_block(
    setup: Setup, block: int, deals: int, bots: Sequence[Bot] | None = None
) -> list[Played]:
    """Plays block ``block`` of a run of ``deals`` deals (unsettled)."""
    players = list(bots) if bots is not None else setup.make_bots()
    rng = random.Random(block_seed(setup.seed, block))
    size = setup.block
    return [
        play_deal(setup, i, players, rng)
        for i in range(block * size, min((block + 1) * size, deals))
    ]


# Worker processes.

_WORKER: tuple[Setup, list[Bot]] | None = None


def _init_worker(setup: Setup) -> None:
    global _WORKER
    setup.rules.tables(dict(setup.options) or None)  # compile once per process
    _WORKER = (setup, setup.make_bots())


def _work(task: tuple[int, int]) -> list[Played]:
    assert _WORKER is not None
    setup, bots = _WORKER
    return play_block(setup, task[0], task[1], bots)


def _played(setup: Setup, deals: int, jobs: int) -> Iterator[list[Played]]:
    """Yields the blocks in order, played by ``jobs`` processes: this one and ``jobs - 1``
    workers.

    The workers take blocks from the front; this process settles them in order (the serial
    part) and, whenever the next block is not ready yet, plays the next block nobody has taken
    instead of waiting. So ``jobs`` processes keep ``jobs`` cores busy, and none is left to
    share a core with the settlement.
    """
    blocks = -(-deals // setup.block)
    setup.rules.tables(dict(setup.options) or None)
    bots = setup.make_bots()
    if jobs <= 1 or blocks == 1:
        for b in range(blocks):
            yield play_block(setup, b, deals, bots)
        return
    import multiprocessing

    methods = multiprocessing.get_all_start_methods()
    # Fork shares the loaded ruleset with the workers; elsewhere each worker needs a copy.
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    workers = min(jobs - 1, blocks - 1)
    with context.Pool(workers, _init_worker, (setup,)) as pool:
        taken: dict[int, Any] = {}  # block -> its worker's AsyncResult, or its deals
        queued = 0  # blocks handed to the workers and not yet collected
        submitted = 0  # blocks taken, by a worker or by this process
        for b in range(blocks):
            while True:
                while submitted < blocks and queued < 2 * workers:
                    taken[submitted] = pool.apply_async(_work, ((submitted, deals),))
                    submitted += 1
                    queued += 1
                part = taken[b]
                if isinstance(part, list):
                    break
                if part.ready() or submitted == blocks:
                    part = part.get()
                    queued -= 1
                    break
                taken[submitted] = play_block(setup, submitted, deals, bots)
                submitted += 1
            del taken[b]
            yield part


class Blocks(Protocol):
    """Plays a run's blocks elsewhere than on this machine's processes (a cluster:
    :class:`engine.cluster.RayBlocks`): each block by :func:`play_block`, yielded in order, each
    once."""

    @property
    def workers(self) -> int:
        """The number of cores that play (the summary's ``jobs``)."""
        ...

    def __call__(self, setup: Setup, deals: int) -> Iterator[list[Played]]: ...


def settled_deals(
    setup: Setup,
    deals: int,
    *,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
    blocks: Blocks | None = None,
) -> Iterator[tuple[int, Played, SettlementResult]]:
    """Plays ``deals`` deals as one party on ``jobs`` processes (or, given ``blocks``, where it
    plays them); yields each in order with its number and settlement (the table carried from
    the deal before).

    What it yields is the same for any ``jobs`` and ``blocks``; ``progress`` is called with the
    number of deals done after each block.
    """
    table = _EMPTY
    number = 0
    rules = setup.rules
    parts = _played(setup, deals, jobs) if blocks is None else blocks(setup, deals)
    for part in parts:
        for played in part:
            s = settle_outcome(rules, played.outcome, table)
            yield number, played, s
            table = s.table
            number += 1
        if progress is not None:
            progress(number)


def run(
    setup: Setup,
    deals: int,
    *,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
    blocks: Blocks | None = None,
) -> Tally:
    """Plays ``deals`` deals as one party on ``jobs`` processes (or, given ``blocks``, where it
    plays them: :mod:`engine.cluster`) and returns the tally.

    The tally is the same for any ``jobs`` and ``blocks`` (but for its timing fields,
    :data:`TIMING_FIELDS`); ``progress`` is called with the number of deals done after each
    block.
    """
    count = -(-deals // setup.block)
    workers = jobs if blocks is None else blocks.workers
    tally = Tally(setup, deals, jobs=max(1, min(workers, count)))
    start = time.perf_counter()
    add = tally.add
    played_deals = settled_deals(setup, deals, jobs=jobs, progress=progress, blocks=blocks)
    for number, played, s in played_deals:
        add(number, played, s)
        tally.table = s.table
    tally.seconds = time.perf_counter() - start
    return tally


def default_jobs() -> int:
    """Returns the number of cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


# The summary.

ROLES = ("declarer", "partner", "defender", "none")


@dataclass(frozen=True)
class BotSummary:
    """How the seats of one kind of bot fared (``by_bot`` of ``ombre simulate --json``)."""

    seats: list[int]
    balance: int
    average_per_seat_deal: float
    declared: int
    declarer_won: int
    declarer_remise: int
    declarer_codille: int
    declarer_win_rate: float
    declarer_codille_rate: float


@dataclass(frozen=True)
class TableSummary:
    """What is on the table after the last deal."""

    pot: int
    bete_in_play: int | None
    betes: list[int]
    doubled: bool
    odd_counters: int
    redeal: bool


@dataclass(frozen=True)
class Summary:
    """A run's summary (:meth:`Tally.summary`): its fields, in order, are the JSON document of
    ``ombre simulate --json``; the text summary's template reads them."""

    ruleset: str
    deals: int
    seed: int
    bots: str
    seats: list[str]
    options: dict[str, str]
    results: dict[str, int]
    contracts: dict[str, int]
    totals: list[int]
    pot: int
    table: TableSummary
    average_by_seat: list[float]
    average_by_role: dict[str, float]
    seat_deals_by_role: dict[str, int]
    played: int
    declarer_won: int
    declarer_remise: int
    declarer_codille: int
    declarer_win_rate: float
    codille_rate: float
    all_passed: int
    all_pass_rate: float
    forced: int
    forced_rate: float
    vole_undertaken: int
    largest_bete: int
    largest_bete_deal: int | None
    largest_pot: int
    actions_per_deal: float
    by_bot: dict[str, BotSummary]
    digest: str
    jobs: int
    seconds: float
    deals_per_second: int | None


@dataclass
class Tally:
    """The sums of a run: what ``ombre simulate`` prints."""

    setup: Setup
    deals: int
    jobs: int = 1
    results: Counter[str] = field(default_factory=Counter)
    contracts: Counter[str] = field(default_factory=Counter)
    totals: list[int] = field(default_factory=list)
    role_balance: dict[str, int] = field(default_factory=dict)
    role_count: dict[str, int] = field(default_factory=dict)
    declared_outcome: Counter[tuple[str, str]] = field(default_factory=Counter)
    """Deals by the bot kind at the declarer's seat and their outcome: won, remise, codille."""
    forced: int = 0
    all_passed: int = 0
    vole_undertaken: int = 0
    largest_bete: int = 0
    largest_bete_deal: int | None = None
    largest_pot: int = 0
    actions: int = 0
    table: TableState = _EMPTY
    seconds: float = 0.0
    _digest: Any = None

    def __post_init__(self) -> None:
        n = self.setup.rules.players
        self.totals = [0] * n
        self.role_balance = dict.fromkeys(ROLES, 0)
        self.role_count = dict.fromkeys(ROLES, 0)
        self._digest = hashlib.sha256()
        rules = self.setup.rules
        # The game of each result, as the referee's settlement reads it (won, remise, codille).
        self._outcome = {rid: k.game.value for rid, k in outcome_kinds(rules).items()}
        self._outcome["redeal"] = "none"
        names = sorted({*rules.outcomes, "redeal", *rules.contracts})
        self._codes: dict[str | None, int] = {name: i for i, name in enumerate(names)}
        self._codes[None] = -1
        self._pack = struct.Struct(f"<4h2?h{2 * n}i").pack

    def add(self, number: int, played: Played, s: SettlementResult) -> None:
        """Counts deal ``number``, played and settled (deals must come in order)."""
        o = played.outcome
        self.results[o.result] += 1
        self.actions += played.actions
        balances = s.balances
        totals = self.totals
        for seat, amount in enumerate(balances):
            totals[seat] += amount
        declarer = o.declarer
        partner = o.partner
        role_balance = self.role_balance
        role_count = self.role_count
        if declarer is None:
            self.all_passed += 1
            role_count["none"] += len(balances)
            role_balance["none"] += sum(balances)
        else:
            assert o.contract is not None
            self.contracts[o.contract] += 1
            if played.forced:
                self.forced += 1
                self.all_passed += 1
            if played.vole_undertaken:
                self.vole_undertaken += 1
            self.declared_outcome[self.setup.bots[declarer], self._outcome[o.result]] += 1
            roles = role_balances(balances, declarer, partner)
            assert roles is not None
            role_count["declarer"] += 1
            role_balance["declarer"] += roles.declarer
            if roles.partner is not None:
                role_count["partner"] += 1
                role_balance["partner"] += roles.partner
            role_count["defender"] += len(roles.defenders)
            role_balance["defender"] += sum(roles.defenders)
        if s.bete > self.largest_bete:
            self.largest_bete = s.bete
            self.largest_bete_deal = number + 1  # from 1, as every deal's number in words
        pot = s.pot_after
        if pot > self.largest_pot:
            self.largest_pot = pot
        codes = self._codes
        fields = (
            codes[o.result],
            codes[o.contract],
            -1 if declarer is None else declarer,
            -1 if partner is None else partner,
            played.forced,
            played.vole_undertaken,
            o.matadors,
            *o.tricks,
            *balances,
        )
        try:
            packed = self._pack(*fields)
        except struct.error:
            # A doubling bête can outgrow 32 bits; such a deal is hashed as text (the same
            # deal always takes the same path, so the digest stays deterministic).
            packed = b"\x00" + repr(fields).encode()
        self._digest.update(packed)

    @property
    def digest(self) -> str:
        """Returns a SHA-256 of every deal's outcome and balances, in order (equal runs, equal hash)."""
        return str(self._digest.hexdigest())

    def as_json(self) -> dict[str, Any]:
        """Returns the summary as the spec's JSON document (``ombre simulate --json``)."""
        return dataclasses.asdict(self.summary())

    def summary(self) -> Summary:
        """Returns the summary, typed: what the JSON document and the text summary show."""
        setup = self.setup
        deals = self.deals
        kinds = sorted(set(setup.bots))
        played = deals - (self.all_passed - self.forced)

        def rate(count: int, base: int) -> float:
            return round(count / base, 4) if base else 0.0

        by_bot = {}
        for kind in kinds:
            seats = [s for s, k in enumerate(setup.bots) if k == kind]
            declared = sum(self.declared_outcome[kind, o] for o in ("won", "remise", "codille"))
            balance = sum(self.totals[s] for s in seats)
            by_bot[kind] = BotSummary(
                seats=seats,
                balance=balance,
                average_per_seat_deal=round(balance / (deals * len(seats)), 4),
                declared=declared,
                declarer_won=self.declared_outcome[kind, "won"],
                declarer_remise=self.declared_outcome[kind, "remise"],
                declarer_codille=self.declared_outcome[kind, "codille"],
                declarer_win_rate=rate(self.declared_outcome[kind, "won"], declared),
                declarer_codille_rate=rate(self.declared_outcome[kind, "codille"], declared),
            )
        won = sum(self.declared_outcome[k, "won"] for k in kinds)
        codille = sum(self.declared_outcome[k, "codille"] for k in kinds)
        remise = sum(self.declared_outcome[k, "remise"] for k in kinds)
        return Summary(
            ruleset=setup.rules.id,
            deals=deals,
            seed=setup.seed,
            bots=setup.bots[0] if len(set(setup.bots)) == 1 else ",".join(setup.bots),
            seats=list(setup.bots),
            options=dict(setup.options),
            results=dict(sorted(self.results.items())),
            contracts=dict(sorted(self.contracts.items())),
            totals=list(self.totals),
            pot=self.table.pot,
            table=TableSummary(
                pot=self.table.pot,
                bete_in_play=self.table.bete_in_play,
                betes=list(self.table.betes),
                doubled=self.table.doubled,
                odd_counters=self.table.remainder,
                redeal=self.table.redeal,
            ),
            average_by_seat=[round(t / deals, 4) for t in self.totals],
            average_by_role={
                role: round(self.role_balance[role] / self.role_count[role], 4)
                for role in ROLES
                if self.role_count[role]
            },
            seat_deals_by_role={r: c for r, c in self.role_count.items() if c},
            played=played,
            declarer_won=won,
            declarer_remise=remise,
            declarer_codille=codille,
            declarer_win_rate=rate(won, played),
            codille_rate=rate(codille, played),
            all_passed=self.all_passed,
            all_pass_rate=rate(self.all_passed, deals),
            forced=self.forced,
            forced_rate=rate(self.forced, deals),
            vole_undertaken=self.vole_undertaken,
            largest_bete=self.largest_bete,
            largest_bete_deal=self.largest_bete_deal,
            largest_pot=self.largest_pot,
            actions_per_deal=round(self.actions / deals, 3),
            by_bot=by_bot,
            digest=self.digest,
            jobs=self.jobs,
            seconds=round(self.seconds, 3),
            deals_per_second=round(deals / self.seconds) if self.seconds else None,
        )


TIMING_FIELDS = ("jobs", "seconds", "deals_per_second")
"""The JSON fields that vary from run to run; every other field depends only on the input."""


def parse_bots(text: str, players: int, known: Iterable[str]) -> tuple[str, ...]:
    """Parses ``--bots``: one kind for every seat, or a comma-separated kind per seat.

    A kind is one of ``known`` (the search bot with its settings after colons,
    ``search:plan=fixed``: :func:`engine.bots.make_bot`) or, with the extra ``[openspiel]``, an
    OpenSpiel player with its settings after colons (``ismcts:simulations=200``,
    :mod:`engine.spiel.bots`).

    :raises ValueError: naming the problem.
    """
    kinds = [k.strip() for k in text.split(",")]
    names = list(known)
    for kind in kinds:
        if kind.partition(":")[0] in names and kind not in names:
            make_bot(kind)  # a workbench bot with settings (``search:plan=fixed``): checked
        elif kind not in names:
            _check_spiel_kind(kind, names)
    if len(kinds) == 1:
        return tuple(kinds * players)
    if len(kinds) != players:
        raise ValueError(f"--bots names {len(kinds)} seats; the game has {players}")
    return tuple(kinds)


OPENSPIEL_KINDS = ("ismcts",)
"""OpenSpiel's players by name (any bot OpenSpiel registers is accepted too)."""


def _check_spiel_kind(kind: str, names: Sequence[str]) -> None:
    """Checks an OpenSpiel player's name and settings; raises ValueError naming the problem."""
    import importlib.util

    base = kind.split(":")[0]
    if importlib.util.find_spec("pyspiel") is None:
        if base in OPENSPIEL_KINDS:
            raise ValueError(
                f"--bots {base} is OpenSpiel's player: install the extra "
                "(pip install 'ombre-workbench[openspiel]')"
            )
        raise ValueError(f"--bots must be one of {', '.join(names)}, not {kind!r}")
    from engine.spiel.bots import is_spiel_bot, parse_kind, spiel_bot_names

    if not is_spiel_bot(base):
        known = ", ".join([*names, *spiel_bot_names()])
        raise ValueError(f"--bots must be one of {known}, not {kind!r}")
    parse_kind(kind)


# Presentation helpers for the command line.


class Progress(Protocol):
    """Told how far a long command has come: ``done`` of ``total`` (a new total, if given)."""

    def __call__(self, done: int, total: int | None = None) -> None: ...


@contextmanager
def progress_bar(
    total: int, label: str, *, enabled: bool, verb: str = "simulating"
) -> Iterator[Progress | None]:
    """A rich progress bar on stderr while a long command goes on (nothing when ``enabled`` is
    false): ``VERB LABEL``, the bar, done of total, the time taken and the time left. Rich
    leaves the colours out when ``NO_COLOR`` is set."""
    if not enabled:
        yield None
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    with Progress(
        TextColumn(verb + " {task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
    ) as bar:
        task = bar.add_task(label, total=total)

        def update(done: int, total: int | None = None) -> None:
            bar.update(task, completed=done, total=total)

        yield update


def summary_text(tally: Tally, rules: RuleSet) -> str:
    """Returns the readable summary (``templates/simulate/summary.txt.j2``)."""
    from engine.render import render

    return render("simulate/summary.txt.j2", "text", s=tally.summary(), name=rules.name, pct=_pct)


def _pct(value: float) -> str:
    return f"{100 * value:.1f} %"

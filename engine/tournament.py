"""A tournament evening: several tables of real cards, each kept by the scorekeeper, ranked together.

A :class:`Tournament` is a composition of :class:`~engine.scoresheet.Evening` s, one per table,
under one ruleset and setup. Each table's deals are entered, checked and settled exactly as a
single evening's (the referee does every check and every payment); the tournament adds only
what lies across tables: the players entered once (a name appears once in the whole
tournament), the party's length at each table (the rule file's ``party:`` where it sets one,
else the organiser's number of deals), a table's refusal of a deal past it, and the standings:
each player's total (his table's :attr:`Evening.totals` at his seat) with the placings.

What the DLU's tournament rules say of these things could not be read: their contents name
the sections "Start på en kamp: 2) Spillernes placering 3) Kortblanding 4) Mappernes placering"
(``dlu``, Indholdsfortegnelse), whose text is not stored. Every choice made here without a
source is labelled in ``docs/decisions.md`` ("The tournament evening").

The file (``docs/records.md``, "A tournament evening")::

    title: Club evening
    ruleset: dansk-lhombre
    options: {}
    deals_per_table: 8
    tables:
      - players: [Anne, Bo, Carl]
        deals:
          - dealer: 0
            score: {contract: spil, declarer: 1, trump: clubs, tricks: [2, 5, 2], ...}
      - players: [Dora, Erik, Finn]
        first_dealer: 0
        deals: []
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from engine.errors import IllegalActionError, NotationError, Problem, RecordError, RuleFileError
from engine.rules.emitter import Flow, document
from engine.rules.model import RuleSet
from engine.rules.reader import Document, parse_text
from engine.rules.schema_pass import document_problems, schema_problems, validator
from engine.scoresheet import (
    Entry,
    Evening,
    ScoredDeal,
    check_name,
    deal_rows,
    file_text,
    located_error,
    located_refusal,
    read_deals,
)

__all__ = [
    "MAX_DEALS",
    "MAX_TABLES",
    "Standing",
    "Table",
    "Tournament",
    "load_tournament",
    "parse_tables",
    "party_length",
    "read_tournament",
    "write_tournament",
]

MAX_TABLES = 64
"""The most tables a tournament holds (the schema's ``maxItems``; conjecture, docs/decisions.md)."""
MAX_DEALS = 1000
"""The longest party a table plays, in deals (the schema's ``maximum``)."""

CSV_FIELDS = ("placing", "player", "table", "seat", "total", "deals")
"""The columns of :meth:`Tournament.as_csv`, in order."""


def party_length(rules: RuleSet, asked: int | None) -> int | None:
    """Returns the number of deals each table plays: the rule file's party (``party:`` of
    ``tours`` or ``deals``) where it sets one, else the organiser's ``asked``; None where the
    rule file plays to a target score (the table's party ends when a seat reaches it).

    :raises NotationError: where neither gives a length, where the organiser's number differs
        from the rule file's, or is not 1 to :data:`MAX_DEALS`.
    """
    if asked is not None and not 1 <= asked <= MAX_DEALS:
        raise NotationError(f"a party is 1 to {MAX_DEALS} deals a table, not {asked}")
    party = rules.party
    if party is None:
        if asked is None:
            raise NotationError(
                f"{rules.id} sets no party length (party: unset in its rule file): give the "
                "number of deals each table plays (or of rounds, a deal by each player)"
            )
        return asked
    length = party.length(rules.players)
    if asked is not None and asked != length:
        said = (
            f"a party of {length} deals"
            if length is not None
            else f"a party to {party.target} points"
        )
        raise NotationError(
            f"{rules.id}'s rule file sets {said} (party:); the tournament plays it, "
            f"not {asked} deals"
        )
    return length


def parse_tables(text: str) -> list[list[str]]:
    """Reads the tables as the organiser types them: a table's players separated by commas,
    tables by semicolons or new lines (``"Anne,Bo,Carl; Dora,Erik,Finn"``); blank tables are
    skipped. The names are checked by :class:`Tournament`."""
    tables = []
    for part in text.replace("\n", ";").split(";"):
        if part.strip():
            tables.append([name.strip() for name in part.split(",")])
    return tables


@dataclass(frozen=True, slots=True)
class Table:
    """One table of the tournament: its number (from 1) and its evening."""

    number: int
    evening: Evening

    @property
    def players(self) -> tuple[str, ...]:
        """Returns the table's players, seat 0 first."""
        return self.evening.players


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's line of the standings: his place, name, table and seat, his total (his
    table's :attr:`Evening.totals` at his seat) and the deals his table has played that count."""

    placing: int
    player: str
    table: int
    seat: int
    total: int
    deals: int

    def as_json(self) -> dict[str, Any]:
        """Returns the line as in ``ombre score --tournament FILE --json``'s ``standings``: its
        fields, by name, in order."""
        return asdict(self)


@dataclass(frozen=True)
class Tournament:
    """Several tables under one ruleset and setup, each an :class:`Evening`, ranked together.

    ``deals_per_table`` is the party's length at each table (:func:`party_length`); None where
    the rule file plays to a target score.
    """

    rules: RuleSet
    tables: tuple[Table, ...]
    deals_per_table: int | None
    options: Mapping[str, str] = field(default_factory=dict)
    title: str | None = None

    def __post_init__(self) -> None:
        if not 1 <= len(self.tables) <= MAX_TABLES:
            raise NotationError(
                f"a tournament has 1 to {MAX_TABLES} tables, not {len(self.tables)}"
            )
        if self.title is not None:
            check_name(self.title, "the title")
        seen: dict[str, tuple[int, int]] = {}
        for table in self.tables:
            if table.evening.rules is not self.rules or dict(table.evening.options) != dict(
                self.options
            ):
                raise NotationError(f"table {table.number} plays another ruleset or setup")
            if len(table.players) != self.rules.players:
                raise NotationError(
                    f"table {table.number}: {self.rules.id} has {self.rules.players} players a "
                    f"table; name each ({len(table.players)} names given)"
                )
            for seat, name in enumerate(table.players):
                key = name.strip().casefold()
                if not key:
                    raise NotationError(
                        f"table {table.number}, seat {seat}: every player is named (the "
                        "standings rank players by name)"
                    )
                if key in seen:
                    other, other_seat = seen[key]
                    raise NotationError(
                        f"{name!r} is named twice: table {other}, seat {other_seat}, and table "
                        f"{table.number}, seat {seat}; a player's name appears once in the "
                        "tournament"
                    )
                seen[key] = (table.number, seat)

    @classmethod
    def new(
        cls,
        rules: RuleSet,
        tables: Sequence[Sequence[str]],
        *,
        deals: int | None = None,
        options: Mapping[str, str] | None = None,
        title: str | None = None,
        first_dealer: int = 0,
    ) -> Tournament:
        """Returns a tournament with no deal yet: ``tables`` are the players of each table,
        seat 0 first; ``deals`` the organiser's party length (see :func:`party_length`).

        :raises NotationError: for a length, an option or a name that will not do (why).
        """
        length = party_length(rules, deals)
        chosen = dict(options or {})
        if not 0 <= first_dealer < rules.players:
            raise NotationError(f"{rules.id} has seats 0 to {rules.players - 1}")
        made = []
        for k, names in enumerate(tables, start=1):
            try:
                made.append(
                    Table(k, Evening(rules, dict(chosen), first_dealer, players=tuple(names)))
                )
            except NotationError as exc:
                raise NotationError(f"table {k}: {exc}") from None  # which table, for the organiser
        return cls(rules, tuple(made), length, chosen, title)

    # The tables.

    def table(self, number: int) -> Table:
        """Returns table ``number`` (from 1).

        :raises NotationError: if there is none.
        """
        if not 1 <= number <= len(self.tables):
            raise NotationError(f"there are tables 1 to {len(self.tables)}, not {number}")
        return self.tables[number - 1]

    def table_of(self, text: str) -> Table | None:
        """Returns the table an organiser's answer names: its number, or one of its players'
        names (any case; the first letters are enough when they fit one player only); None if
        it names none."""
        text = text.strip()
        if text.isascii() and text.isdigit() and len(text) <= 3:
            number = int(text)
            return self.tables[number - 1] if 1 <= number <= len(self.tables) else None
        wanted = text.casefold()
        if not wanted:
            return None
        names = [(name.casefold(), t) for t in self.tables for name in t.players]
        exact = [t for name, t in names if name == wanted]
        if exact:
            return exact[0]
        starting = {t.number: t for name, t in names if name.startswith(wanted)}
        return next(iter(starting.values())) if len(starting) == 1 else None

    def complete(self, table: Table) -> bool:
        """Checks if ``table`` has played its party: its deals that count
        (:attr:`Evening.counted`) reach the party's length, or the rule file's party is over
        there (a target reached)."""
        length = self.deals_per_table
        return table.evening.over or (length is not None and table.evening.counted >= length)

    @property
    def over(self) -> bool:
        """Checks if every table has played its party."""
        return all(self.complete(t) for t in self.tables)

    def score(self, number: int, entry: Entry) -> ScoredDeal:
        """Checks and settles one deal of table ``number`` (by its evening, the referee's).

        :raises IllegalActionError: for a deal past the party's length (``score/table-complete``)
            or one that cannot have happened (the evening's refusal).
        """
        table = self.table(number)
        self.refuse_if_complete(table)
        return table.evening.score(entry)

    def refuse_if_complete(self, table: Table) -> None:
        """Refuses a deal at ``table`` once it has played its party.

        :raises IllegalActionError: ``score/table-complete``, saying how many deals it played.
        """
        if self.complete(table) and not table.evening.over:
            raise IllegalActionError(
                "score/table-complete",
                f"table {table.number} has played its {self.deals_per_table} deals, the "
                "party's length: no more deals are scored there (undo its last deal to change it)",
                action="score",
                rule="the tournament's party length",
            )
        # A party over under the rule file's own ``party:`` is refused by the evening itself
        # (``score/party-over``, with the rule's citation).

    # The standings.

    def standings(self) -> list[Standing]:
        """Returns every player's line, the highest total first; players with equal totals
        share a place and the next place is skipped (1, 2, 2, 4: conjecture,
        docs/decisions.md), listed by table and seat among themselves."""
        lines = [
            (total, t.number, seat, name, t.evening.counted)
            for t in self.tables
            for seat, (name, total) in enumerate(zip(t.players, t.evening.totals, strict=True))
        ]
        lines.sort(key=lambda line: (-line[0], line[1], line[2]))
        totals = [line[0] for line in lines]
        return [
            Standing(
                placing=1 + sum(1 for other in totals if other > total),
                player=name,
                table=number,
                seat=seat,
                total=total,
                deals=deals,
            )
            for total, number, seat, name, deals in lines
        ]

    def as_json(self) -> dict[str, Any]:
        """Returns the tournament as in ``ombre score --tournament FILE --json``: its setup,
        each table (its players, deals played, whether its party is over, and the whole
        evening as ``ombre score --json`` gives it) and the standings."""
        return {
            "title": self.title,
            "ruleset": self.rules.id,
            "options": dict(self.options),
            "deals_per_table": self.deals_per_table,
            "over": self.over,
            "tables": [
                {
                    "table": t.number,
                    "players": list(t.players),
                    "deals": t.evening.counted,
                    "complete": self.complete(t),
                    "totals": t.evening.totals,
                    "evening": t.evening.as_json(),
                }
                for t in self.tables
            ],
            "standings": [s.as_json() for s in self.standings()],
        }

    def as_csv(self) -> str:
        """Returns the standings as CSV (RFC 4180: a header line, then a line a player, the
        columns of :data:`CSV_FIELDS`). A name a spreadsheet would read as a formula (it
        begins with ``=``, ``+``, ``-`` or ``@``) is written after an apostrophe."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\r\n")
        writer.writerow(CSV_FIELDS)
        for s in self.standings():
            name = "'" + s.player if s.player[:1] in ("=", "+", "-", "@") else s.player
            writer.writerow((s.placing, name, s.table, s.seat, s.total, s.deals))
        return out.getvalue()

    @property
    def version(self) -> str:
        """Returns a token of the tournament as it stands: a change made on a page drawn from
        another version is refused, not applied."""
        import hashlib

        return hashlib.sha256(write_tournament(self).encode("utf-8")).hexdigest()[:16]


# The file.


def write_tournament(tournament: Tournament) -> str:
    """Returns the tournament as its file (YAML, written by :mod:`engine.rules.emitter`): the
    setup, then each table's players and deals as an evening's file writes them."""
    top: dict[Any, Any] = {}
    if tournament.title:
        top["title"] = tournament.title
    top["ruleset"] = tournament.rules.id
    top["options"] = Flow(dict(tournament.options))
    top["deals_per_table"] = tournament.deals_per_table
    tables = []
    for t in tournament.tables:
        row: dict[Any, Any] = {"players": Flow(list(t.players))}
        if not t.evening.deals:
            row["first_dealer"] = t.evening.first_dealer
        row["deals"] = deal_rows(t.evening)
        tables.append(row)
    top["tables"] = tables
    return document(top)


def read_tournament(text: str, file: str, load: Callable[[str], RuleSet]) -> Tournament:
    """Reads a tournament written by :func:`write_tournament` (or by hand) and scores every
    table's deals again, through the referee.

    :raises RecordError: for a malformed file, every problem located (``FILE:LINE:COL``);
    :raises IllegalActionError: for a deal that cannot have happened, or one past the party's
        length (where, and its number).
    """
    doc, problems = parse_text(file, text)
    if doc is None:
        raise RecordError(problems)
    problems = document_problems("tournament", doc)
    data = doc.data
    if not problems:
        # Each table is checked as an evening is (its players and deals), located in this file.
        for k in range(len(data["tables"])):
            problems += _table_problems(doc, k)
    if problems:
        raise RecordError(sorted(problems, key=lambda p: (p.line or 0, p.column or 0)))

    def fail(path: tuple[str | int, ...], code: str, message: str) -> RecordError:
        return located_error(doc, file, path, code, message)

    try:
        rules = load(data["ruleset"])
    except (NotationError, RuleFileError) as exc:
        raise fail(("ruleset",), "record/unknown-ruleset", str(exc)) from None
    options = {str(k): str(v) for k, v in (data.get("options") or {}).items()}
    try:
        length = party_length(rules, data.get("deals_per_table"))
    except NotationError as exc:
        raise fail(("deals_per_table",), "tournament/deals", str(exc)) from None
    tables = []
    for k, raw in enumerate(data["tables"]):
        deals = raw.get("deals") or []
        first = raw.get("first_dealer")
        if first is None and deals:
            first = deals[0].get("dealer", 0)
        first = 0 if first is None else first
        if not (isinstance(first, int) and 0 <= first < rules.players):
            raise fail(
                ("tables", k, "first_dealer"),
                "tournament/first-dealer",
                f"the first dealer is a seat from 0 to {rules.players - 1}",
            )
        try:
            evening = Evening(rules, dict(options), first, players=tuple(raw["players"]))
        except NotationError as exc:
            raise fail(("tables", k, "players"), "tournament/players", str(exc)) from None
        tables.append(Table(k + 1, evening))
    try:
        tournament = Tournament(rules, tuple(tables), length, options, data.get("title"))
    except NotationError as exc:
        raise fail(("tables",), "tournament/players", str(exc)) from None
    for table, raw in zip(tournament.tables, data["tables"], strict=True):
        at: tuple[str | int, ...] = ("tables", table.number - 1)
        for i, deal in enumerate(raw.get("deals") or []):
            try:
                tournament.refuse_if_complete(table)
            except IllegalActionError as exc:
                raise located_refusal(exc, doc, file, (*at, "deals", i), i) from None
            read_deals(table.evening, [deal], doc, file, at, first=i)
    return tournament


def _table_problems(doc: Document, k: int) -> list[Problem]:
    """Returns the problems of table ``k`` checked as an evening's file (evening.schema.json):
    its players and deals, each located in the tournament's file."""
    raw = doc.data["tables"][k]
    sub: dict[str, Any] = {"ruleset": doc.data["ruleset"]}
    for key in ("players", "first_dealer", "deals"):
        if key in raw:
            sub[key] = raw[key]

    def locate(path: tuple[str | int, ...]) -> tuple[str, int | None, int | None]:
        return (doc.file, *doc.where(("tables", k, *path)))

    problems = schema_problems(validator("evening"), sub, locate)
    return [
        Problem(p.file, p.line, p.column, _under_table(p.path, k), p.code, p.message)
        for p in problems
    ]


def _under_table(path: str, k: int) -> str:
    """``$.deals[0].score`` of a table's sub-document as ``$.tables[k].deals[0].score``."""
    return f"$.tables[{k}]" + path.removeprefix("$")


def load_tournament(path: Path, load: Callable[[str], RuleSet]) -> Tournament:
    """Reads a tournament file (see :func:`read_tournament`) as an evening's is read: a regular
    file within the records' size limit, in UTF-8 (:func:`engine.scoresheet.file_text`).

    :raises RecordError: also for a file too large, not a regular file, or not UTF-8.
    """
    return read_tournament(file_text(path, "tournament"), str(path), load)

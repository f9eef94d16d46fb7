"""Records: one deal or a party of deals, exactly enough to referee them again.

The format (``spec/interface.md``) is a YAML (or JSON) mapping::

    ruleset: quadrille          # id, alias or path; a variant is fine
    options: {}                 # setup options, e.g. {removed-suit: hearts}
    dealer: 0
    hands: [[As, 2c, ...], ...] # seat 0 first; or `seed: N` for the referee's own shuffle
    talon: []                   # top card first
    actions: ["1 pass", "2 bid ask", ...]

A party is ``{ruleset, options, deals: [{dealer, hands, talon, actions}, ...]}``; its pot and
bêtes carry from deal to deal and the deal passes to the right. ``title``, ``source`` and
``note`` may describe where a record comes from. ``ruleset_file`` and ``ruleset_sha256`` say
where the rules were read from and what they were (:func:`resolve_ruleset` finds them again);
``table`` says how ``ombre play`` was playing (seat, seed, bots, deals), for ``--from``.

:func:`parse_record` reads one (every problem located by file, line and column);
:func:`write_record` writes one back (``parse_record(write_record(r)) == r``);
:func:`replay` referees it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.actions import parse_line
from engine.cards import PACK_SIZE, Card
from engine.errors import IllegalActionError, NotationError, Problem, RecordError
from engine.referee import Deal
from engine.referee.deal_laws import cutting_seat
from engine.referee.party import Party
from engine.referee.state import Trick
from engine.rules.emitter import Flow, block, document
from engine.rules.emitter import quoted as yaml_scalar
from engine.rules.model import RuleSet
from engine.rules.reader import (
    Document,
    Growth,
    Limits,
    Path_,
    json_path,
    parse_bytes,
    parse_text,
    read_file,
)
from engine.rules.schema_pass import document_problems
from engine.seeds import deal_seed

__all__ = [
    "ActionStep",
    "DealRecord",
    "Record",
    "ReplayReport",
    "deal_record",
    "deal_text",
    "parse_record",
    "party_text",
    "read_record",
    "replay",
    "resolve_ruleset",
    "ruleset_sha256",
    "write_record",
    "yaml_scalar",
]

_SEAT = re.compile(r"^[0-9]{1,3}$")

MAX_SEATS = 6
"""The most hands a deal has: no rule file seats more than 6 players (the schema's bound)."""
MAX_ACTIONS = 2000
"""The most actions a deal of a record holds. A deal of the largest pack has 52 plays; the
auction, the exchange, the calls and the vole add a few dozen; each renonce noticed replays a
trick or more. Two thousand is far past any deal, and bounds the work a record can ask for."""
MAX_DEALS = 10000
"""The most deals in a party record (an evening is a few dozen; ``ombre simulate`` keeps no
record)."""
MAX_VALUES = 500_000
"""The most values (cards, actions, keys ...) in a record of few deals (a deal with every action
it may hold is some 2,100 values): with :data:`GROWTH`, a bound on the memory reading one takes."""
GROWTH = Growth(("deals",), bytes_each=1536, nodes_each=150, noun="deal")
"""What each deal of a party record adds to the 4 MiB and :data:`MAX_VALUES` any record may hold:
an ordinary deal is about 1,050 bytes and 105 values (Quadrille's 40 cards and some 50 actions),
so that a table's record of :data:`MAX_DEALS` deals reads back (about 10 MiB), while a record
padded far past what its deals can hold is refused. At most 4 MiB + 10,000 × 1.5 KiB."""


def _deal_limits(*at: str | int | None) -> dict[tuple[str | int | None, ...], tuple[int, str]]:
    pack = f"at most {PACK_SIZE} cards (no pack has more)"
    return {
        (*at, "hands"): (
            MAX_SEATS,
            f"a deal has at most {MAX_SEATS} hands (no game seats more players)",
        ),
        (*at, "hands", None): (PACK_SIZE, f"a hand holds {pack}"),
        (*at, "talon"): (PACK_SIZE, f"a talon holds {pack}"),
        (*at, "actions"): (MAX_ACTIONS, f"a deal has at most {MAX_ACTIONS} actions"),
    }


LIMITS = Limits(
    items={
        **_deal_limits(),
        ("deals",): (MAX_DEALS, f"a party record holds at most {MAX_DEALS} deals"),
        **_deal_limits("deals", None),
    },
    others=64,
    nodes=MAX_VALUES,
    grows=GROWTH,
)
"""What a record can hold, checked as it is read, before anything is built: no hand or talon
longer than the largest pack, no more hands than seats, no more actions than a deal can have
(``docs/records.md``, "Limits"). The ruleset's own pack and seats are checked when the deal is
set up."""


@dataclass(frozen=True)
class DealRecord:
    """One deal of a record: who dealt, what was dealt (or a seed), and the actions."""

    dealer: int | None
    hands: tuple[tuple[str, ...], ...] | None = None
    talon: tuple[str, ...] | None = None
    seed: int | None = None
    actions: tuple[str, ...] = ()
    note: str | None = None
    cut: int | None = None
    """The seat that cut the pack (checked against the rules' ``deal.cut``)."""
    packets: tuple[int, ...] | None = None
    """The packets the cards were dealt in, e.g. ``(3, 3, 4)`` (one of the rules' orders)."""
    unclaimed: tuple[str, ...] = ()
    """Payment items not claimed before the next dealer had finished dealing
    (``laws.claims_before_next_deal``): not paid."""


@dataclass(frozen=True)
class Record:
    """A record: a ruleset, its setup options, and one deal or a party of deals."""

    ruleset: str
    deals: tuple[DealRecord, ...]
    options: Mapping[str, str] = field(default_factory=dict)
    party: bool = False
    """Written as ``deals: [...]`` (a party) rather than a single deal at the top level."""
    title: str | None = None
    source: str | None = None
    note: str | None = None
    ruleset_file: str | None = None
    """The rule file's path when it was written, relative to the record's folder."""
    ruleset_sha256: str | None = None
    """:func:`ruleset_sha256` of the rules it was played under."""
    table: Mapping[str, Any] | None = None
    """How ``ombre play`` played it: ``{seat, seed, bots, deals}`` (any may be missing)."""
    file: str = field(default="<record>", compare=False)
    where: Mapping[Path_, tuple[int, int]] = field(default_factory=dict, compare=False, repr=False)

    def locate(self, path: Path_) -> tuple[int | None, int | None]:
        """Returns the (line, column) of a value of the record, when it was read from a file."""
        p = tuple(path)
        while p:
            if p in self.where:
                return self.where[p]
            p = p[:-1]
        return self.where.get((), (None, None))

    def action_path(self, deal: int, index: int) -> Path_:
        """Returns the YAML path of an action."""
        return ("deals", deal, "actions", index) if self.party else ("actions", index)


def _problem(doc: Document, path: Path_, code: str, message: str) -> Problem:
    line, col = doc.where(path)
    return Problem(doc.file, line, col, json_path(path), code, message)


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _deal_problems(doc: Document, data: dict[str, Any], path: Path_, *, top: bool) -> list[Problem]:
    """What the schema cannot say of a deal: each card's notation, each action's seat, hands or
    a seed (not both)."""
    problems = []
    hands = data.get("hands")
    lists = (
        [((*path, "hands", i), h) for i, h in enumerate(hands)] if isinstance(hands, list) else []
    )
    if "talon" in data:
        lists.append(((*path, "talon"), data["talon"]))
    for at, cards in lists:
        for i, item in enumerate(cards if isinstance(cards, list) else []):
            try:
                Card.parse(str(item))
            except NotationError as exc:
                problems.append(_problem(doc, (*at, i), "record/card", str(exc)))
    if "hands" not in data and data.get("seed") is None and not top:
        problems.append(
            _problem(doc, path, "record/no-deal", "a deal needs hands (and talon) or a seed")
        )
    if isinstance(hands, list) and _whole(data.get("seed")):
        problems.append(
            _problem(
                doc, (*path, "seed"), "record/seed-and-hands", "give hands or a seed, not both"
            )
        )
    actions = data.get("actions")
    for i, action in enumerate(actions if isinstance(actions, list) else []):
        if not isinstance(action, str):
            continue
        seat = " ".join(action.split()).split(" ", 1)[0]
        if not _SEAT.match(seat):
            problems.append(
                _problem(
                    doc,
                    (*path, "actions", i),
                    "record/seat",
                    f"an action starts with a seat number (0, 1, 2 ...), not {seat!r}",
                )
            )
    return problems


def _problems(doc: Document) -> list[Problem]:
    """Every problem of a record: the schema's (``engine/schema/record.schema.json``), then
    what a schema cannot say, each located, in the order of the file."""
    problems = document_problems("record", doc)
    data = doc.data
    if not isinstance(data, dict):
        return problems
    ruleset = data.get("ruleset")
    if isinstance(ruleset, str) and ruleset and (not ruleset.isprintable() or len(ruleset) > 1024):
        problems.append(
            _problem(
                doc,
                ("ruleset",),
                "record/ruleset-name",
                "the ruleset is named by id, alias or path: printable text without control"
                f" characters, of at most 1024 characters, not {ruleset[:40]!r}",
            )
        )
    if "deals" in data:
        deals = data["deals"]
        seeded = _whole(data.get("seed"))
        for i, deal in enumerate(deals if isinstance(deals, list) else []):
            if isinstance(deal, dict):
                if seeded and "hands" not in deal and "seed" not in deal:
                    deal = {**deal, "seed": 0}  # a party-wide seed deals it
                problems.extend(_deal_problems(doc, deal, ("deals", i), top=False))
    else:
        problems.extend(_deal_problems(doc, data, (), top=True))
        if "hands" not in data and data.get("seed") is None:
            problems.append(
                _problem(
                    doc, (), "record/no-deal", "a record needs hands (and talon), a seed, or deals"
                )
            )
    problems.sort(key=lambda p: (p.line or 0, p.column or 0))
    return problems


def _deal(data: Mapping[str, Any], *, top: bool) -> DealRecord:
    """Returns a deal the checks passed."""

    def cards(raw: list[Any]) -> tuple[str, ...]:
        return tuple(str(Card.parse(str(item))) for item in raw)

    hands = data.get("hands")
    note = data.get("note") if not top else None
    return DealRecord(
        data.get("dealer"),
        tuple(cards(h) for h in hands) if hands is not None else None,
        cards(data["talon"]) if "talon" in data else None,
        data.get("seed"),
        tuple(" ".join(a.split()) for a in data.get("actions", [])),
        note if isinstance(note, str) else None,
        data.get("cut"),
        tuple(data["packets"]) if "packets" in data else None,
        tuple(data.get("unclaimed", ())),
    )


def _from_document(doc: Document) -> Record:
    problems = _problems(doc)
    if problems:
        raise RecordError(problems)
    data: dict[str, Any] = doc.data
    deals: list[DealRecord] = []
    party = "deals" in data
    if party:
        base_seed = data.get("seed")
        for i, d in enumerate(data["deals"]):
            if isinstance(base_seed, int) and "hands" not in d and "seed" not in d:
                # A party-wide seed: deal i uses deal_seed(seed, i) (engine.seeds).
                d = {**d, "seed": deal_seed(base_seed, i)}
            deals.append(_deal(d, top=False))
    else:
        deals.append(_deal(data, top=True))
    table = data.get("table")
    return Record(
        ruleset=data["ruleset"],
        deals=tuple(deals),
        options={str(k): str(v) for k, v in (data.get("options") or {}).items()},
        party=party,
        title=data.get("title"),
        source=data.get("source"),
        note=data.get("note"),
        ruleset_file=data.get("ruleset_file"),
        ruleset_sha256=data.get("ruleset_sha256"),
        table={str(k): v for k, v in table.items()} if table is not None else None,
        file=doc.file,
        where=dict(doc.positions),
    )


def parse_record(text: str, file: str = "<record>") -> Record:
    """Parses a record from YAML or JSON text.

    :raises RecordError: with every located problem (syntax, unknown keys, bad cards ...).
    """
    doc, problems = parse_text(file, text, LIMITS)
    if doc is None:
        raise RecordError(problems)
    return _from_document(doc)


def read_record(path: str | Path) -> Record:
    """Reads a record file.

    :raises FileNotFoundError: if there is no such file.
    :raises RecordError: if it is not a well-formed record.
    """
    p = Path(path)
    if not p.exists():
        raise FileNotFoundError(2, "No such file or directory", str(path))
    raw, refused = read_file(p, str(path), LIMITS.max_bytes())
    if raw is None:
        raise RecordError([refused] if refused is not None else [])
    doc, problems = parse_bytes(str(path), raw, LIMITS)
    if doc is None:
        raise RecordError(problems)
    return _from_document(doc)


def write_record(record: Record) -> str:
    """Writes a record as YAML, in the layout ``ombre play`` uses (:mod:`engine.rules.emitter`)."""
    if record.party:
        return party_text(record, [deal_text(deal) for deal in record.deals])
    top = _record_top(record)
    top.update(_deal_map(record.deals[0]))
    return document(top)


def deal_text(deal: DealRecord) -> str:
    """Returns one deal of a party record as :func:`write_record` lays it out: an item of the
    ``deals:`` list, ending in a newline. A party's text is :func:`party_text` of its deals'
    texts, so a writer that keeps each finished deal's text writes only the deal in play."""
    return "\n".join(block([_deal_map(deal)], 2)) + "\n"


def party_text(record: Record, deal_texts: Sequence[str]) -> str:
    """Returns the party record ``record`` heads (its ``deals`` are not read) whose deals are
    ``deal_texts`` (each a :func:`deal_text`): the text :func:`write_record` gives."""
    top = _record_top(record)
    if not deal_texts:
        top["deals"] = []
        return document(top)
    return document(top) + "deals:\n" + "".join(deal_texts)


def _record_top(record: Record) -> dict[str, Any]:
    top: dict[str, Any] = {}
    for key in ("title", "source", "note"):
        if getattr(record, key) is not None:
            top[key] = getattr(record, key)
    top["ruleset"] = record.ruleset
    if record.ruleset_file is not None:
        top["ruleset_file"] = record.ruleset_file
    if record.ruleset_sha256 is not None:
        top["ruleset_sha256"] = record.ruleset_sha256
    if record.table:
        top["table"] = Flow(dict(record.table))
    top["options"] = Flow(dict(record.options))
    return top


def _deal_map(deal: DealRecord) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key in ("note", "dealer", "seed", "cut"):
        if getattr(deal, key) is not None:
            out[key] = getattr(deal, key)
    if deal.packets is not None:
        out["packets"] = Flow(deal.packets)
    if deal.hands is not None:
        out["hands"] = [Flow(h) for h in deal.hands]
    if deal.talon is not None:
        out["talon"] = Flow(deal.talon)
    out["actions"] = list(deal.actions)
    if deal.unclaimed:
        out["unclaimed"] = Flow(deal.unclaimed)
    return out


@dataclass(frozen=True, slots=True)
class ActionStep:
    """Where one applied action of a record happened, as the referee's state says: the tricks
    finished before it and after it (fewer after: cards taken back), the seats it made
    beasted (a renonce noticed), and the trick it finished (so that a trick later taken back
    is still told as it was played)."""

    tricks_before: int
    tricks_after: int
    beasted: tuple[int, ...] = ()
    finished: Trick | None = None
    """The trick this action finished (its last card), if it finished one."""


@dataclass
class ReplayReport:
    """The result of refereeing a record (the ``ombre replay --json`` document)."""

    ruleset: str | None
    """The id of the rules refereed under (None: the record could not be read)."""
    complete: bool
    error: dict[str, Any] | None
    deals: list[dict[str, Any]]
    totals: list[int]
    located: str | None = None
    """The error as ``FILE:LINE:COLUMN: ...`` for text output."""
    finished: list[Deal] = field(default_factory=list, repr=False)
    party: dict[str, Any] | None = None
    """Where the rule file plays a party to a target or of some deals: whether it is over and
    the seats at the highest total (``{"over": bool, "leaders": [...]}``)."""
    played: list[Deal] = field(default_factory=list, repr=False)
    """Every deal reached, in order (the last may be unfinished), as the referee left it."""
    steps: list[list[ActionStep]] = field(default_factory=list, repr=False)
    """For each deal reached, what the referee's state was around each action applied: where
    in the play it happened and what it left (the replay's irregularities, in place)."""

    @staticmethod
    def malformed(error: RecordError) -> ReplayReport:
        """Returns the report of a record that could not be read (``ombre replay --json``
        still prints one report): no deal, and the first located problem as the error."""
        first = error.problems[0] if error.problems else None
        return ReplayReport(
            None,
            False,
            {
                "code": first.code if first else "record/invalid",
                "message": str(first) if first else str(error),
                "problems": [p.as_json() for p in error.problems],
            },
            [],
            [],
            str(first) if first else str(error),
        )

    def as_json(self) -> dict[str, Any]:
        """Returns the report as the spec's JSON document."""
        out = {
            "ruleset": self.ruleset,
            "complete": self.complete,
            "error": self.error,
            "deals": self.deals,
            "totals": self.totals,
        }
        if self.party is not None:
            out["party"] = self.party
        return out


def replay(record: Record, rules: RuleSet) -> ReplayReport:
    """Referees a record under ``rules``: legality, tricks, results and payments.

    An illegal (or unparseable) action stops the replay there; the deals before it are still
    reported. A record that simply stops early is incomplete, not an error.

    :raises NotationError: if a deal cannot be set up (wrong hands, unknown option).
    """
    party = _replay_party(record, rules)
    deals_out: list[dict[str, Any]] = []
    steps: list[list[ActionStep]] = []
    for d_index, deal_rec in enumerate(record.deals):
        base_path: Path_ = ("deals", d_index) if record.party else ()
        deal = _replay_deal(record, party, deal_rec, base_path, d_index)
        facts = _deal_facts(record, rules, deal, deal_rec, base_path, d_index)
        deal_steps: list[ActionStep] = []
        steps.append(deal_steps)
        for index, line_text in enumerate(deal_rec.actions):
            error = _replay_action(rules, deal, line_text, index, deal_steps)
            if error is not None:
                if record.party:
                    error["deal"] = d_index
                deals_out.append({**deal.report(), **facts})
                line, col = record.locate(record.action_path(d_index, index))
                where = ":".join(str(x) for x in (record.file, line, col) if x is not None)
                located = f"{where}: {line_text!r}: {error['code']}: {error['message']}"
                return _replay_report(rules, party, deals_out, steps, False, error, located)
        if deal_rec.unclaimed:
            _forgo(record, deal, deal_rec, base_path, d_index)
        deals_out.append({**deal.report(), **facts})
        if not deal.is_over:
            return _replay_report(rules, party, deals_out, steps, False)
    return _replay_report(rules, party, deals_out, steps, True)


def _replay_party(record: Record, rules: RuleSet) -> Party:
    """Returns the party a record is replayed in, with its options, from its first dealer.

    :raises RecordError: ``record/options`` for options the rules do not offer.
    """
    first = record.deals[0].dealer if record.deals and record.deals[0].dealer is not None else 0
    try:
        return Party(rules, options=record.options, first_dealer=first)
    except NotationError as exc:
        line, col = record.locate(("options",))
        raise RecordError(
            [Problem(record.file, line, col, "$.options", "record/options", str(exc))]
        ) from None


def _replay_deal(
    record: Record, party: Party, deal_rec: DealRecord, base_path: Path_, d_index: int
) -> Deal:
    """Returns the next deal of the party, dealt as the record's deal ``d_index`` says.

    :raises RecordError: ``record/party-over`` if the party was over before it,
        ``record/dealer-order`` for a dealer out of turn, ``record/deal`` for a deal that
        cannot be set up (wrong hands).
    """
    if party.over:
        line, col = record.locate(base_path)
        raise RecordError(
            [
                Problem(
                    record.file,
                    line,
                    col,
                    json_path(base_path),
                    "record/party-over",
                    f"deal {d_index}: the party was over before it (a seat reached the"
                    " target, or the party's deals were played)",
                )
            ]
        )
    try:
        return party.new_deal(
            seed=deal_rec.seed,
            hands=deal_rec.hands,
            talon=deal_rec.talon,
            dealer=deal_rec.dealer,
        )
    except NotationError as exc:
        if deal_rec.dealer is not None and deal_rec.dealer != party.next_dealer:
            path: Path_ = (*base_path, "dealer")
            code = "record/dealer-order"
        else:
            path = (*base_path, "hands") if deal_rec.hands is not None else base_path
            code = "record/deal"
        line, col = record.locate(path)
        raise RecordError(
            [Problem(record.file, line, col, json_path(path), code, f"deal {d_index}: {exc}")]
        ) from None


def _replay_action(
    rules: RuleSet, deal: Deal, line_text: str, index: int, deal_steps: list[ActionStep]
) -> dict[str, Any] | None:
    """Applies the record's action ``index`` (``line_text``, its seat in front) to ``deal``,
    noting where it happened in ``deal_steps``; returns the error that stops the replay there
    (an illegal or unparseable action), or None if it was applied."""
    try:
        seat, action = parse_line(line_text)
        before, beasted = len(deal.played_tricks), len(deal.penalties)
        deal.apply(rules.canonical(action), seat=seat)
        after = len(deal.played_tricks)
        deal_steps.append(
            ActionStep(
                before,
                after,
                tuple(deal.penalties[beasted:]),
                deal.tricks[-1] if after > before else None,
            )
        )
    except IllegalActionError as exc:
        return {"index": index, "action": line_text, "code": exc.code, "message": str(exc)}
    except NotationError as exc:
        return {
            "index": index,
            "action": line_text,
            "code": "notation/invalid",
            "message": str(exc),
        }
    return None


def _replay_report(
    rules: RuleSet,
    party: Party,
    deals_out: list[dict[str, Any]],
    steps: list[list[ActionStep]],
    complete: bool,
    error: dict[str, Any] | None = None,
    located: str | None = None,
) -> ReplayReport:
    """Returns the report of a replay as far as it went: the deals reported (``deals_out``),
    the party's totals and standing, every deal reached and its ``steps``."""
    standing = None
    if rules.party is not None and rules.party.tours is None:
        standing = {"over": party.over, "leaders": party.leaders}
    return ReplayReport(
        rules.id,
        complete,
        error,
        deals_out,
        party.totals,
        located,
        party.finished,
        standing,
        list(party.deals),
        steps,
    )


def _deal_facts(
    record: Record,
    rules: RuleSet,
    deal: Deal,
    deal_rec: DealRecord,
    base: Path_,
    d_index: int,
) -> dict[str, Any]:
    """Checks the deal's own record (who cut, the packets) against the rules, and returns it
    for the report: ``record/cut``, ``record/packets``."""

    def fail(key: str, code: str, message: str) -> RecordError:
        path: Path_ = (*base, key)
        line, col = record.locate(path)
        return RecordError(
            [Problem(record.file, line, col, json_path(path), code, f"deal {d_index}: {message}")]
        )

    out: dict[str, Any] = {}
    if deal_rec.cut is not None:
        cutter = cutting_seat(rules, deal.dealer)
        if cutter is None:
            raise fail("cut", "record/cut", f"{rules.id} does not say who cuts (deal.cut)")
        if deal_rec.cut != cutter:
            raise fail(
                "cut",
                "record/cut",
                f"seat {cutter} cuts for dealer {deal.dealer}, on his {rules.cut_by}, not seat "
                f"{deal_rec.cut} ({rules.cite(('deal', 'cut'))})",
            )
        out["cut"] = deal_rec.cut
    if deal_rec.packets is not None:
        orders = ", ".join("-".join(map(str, p)) for p in rules.packets)
        if deal_rec.packets not in rules.packets:
            raise fail(
                "packets",
                "record/packets",
                f"the cards are dealt in packets of {orders}, not "
                f"{'-'.join(map(str, deal_rec.packets))} ({rules.cite(('deal',))})",
            )
        if deal_rec.seed is not None and deal_rec.packets != rules.packets[0]:
            raise fail(
                "packets",
                "record/packets",
                "a seeded deal is dealt in the first packet order, "
                f"{'-'.join(map(str, rules.packets[0]))}: give the hands to record another",
            )
        out["packets"] = list(deal_rec.packets)
    return out


def _forgo(record: Record, deal: Deal, deal_rec: DealRecord, base: Path_, d_index: int) -> None:
    """The deal's ``unclaimed`` items: not paid (``laws.claims_before_next_deal``)."""
    try:
        deal.forgo_claims(deal_rec.unclaimed)
    except NotationError as exc:
        path: Path_ = (*base, "unclaimed")
        line, col = record.locate(path)
        raise RecordError(
            [
                Problem(
                    record.file,
                    line,
                    col,
                    json_path(path),
                    "record/unclaimed",
                    f"deal {d_index}: {exc}",
                )
            ]
        ) from None


def deal_record(deal: Deal) -> DealRecord:
    """Returns the record of one deal played (finished or not): its dealer, hands, talon and
    actions."""
    return DealRecord(
        dealer=deal.dealer,
        hands=tuple(tuple(str(Card.from_index(c)) for c in h) for h in deal.dealt),
        talon=tuple(str(Card.from_index(c)) for c in deal.dealt_talon),
        actions=tuple(deal.record_actions()),
    )


def record_of(
    deals: Sequence[Deal],
    ruleset: str,
    *,
    party: bool | None = None,
    ruleset_file: str | None = None,
    ruleset_sha256: str | None = None,
    table: Mapping[str, Any] | None = None,
) -> Record:
    """Returns the record of deals played (finished or not), e.g. by ``ombre play``."""
    options: dict[str, str] = dict(deals[-1].options) if deals else {}
    out = [deal_record(deal) for deal in deals]
    is_party = party if party is not None else len(out) > 1
    return Record(
        ruleset=ruleset,
        deals=tuple(out),
        options=options,
        party=is_party,
        ruleset_file=ruleset_file,
        ruleset_sha256=ruleset_sha256,
        table=dict(table) if table else None,
    )


def ruleset_sha256(rules: RuleSet) -> str:
    """Returns the SHA-256 of the resolved rules (the file with all it extends), as hex.

    It is taken over the resolved document as canonical JSON, so an edit to a parent file
    changes it and a change of layout or comments does not.
    """
    import hashlib

    text = json.dumps(rules.plain(), sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def resolve_ruleset(
    record: Record, record_path: str | Path | None = None, override: str | None = None
) -> tuple[RuleSet, list[str]]:
    """Finds the rules a record was played under; returns them and any warnings.

    With ``override`` (``ombre replay --ruleset``) that ruleset is used. Otherwise the
    record's ``ruleset`` is tried first (an id, alias or path; a path is looked for beside the
    record first), then its ``ruleset_file`` (beside the record, then as written). The first
    whose :func:`ruleset_sha256` matches the record's ``ruleset_sha256`` is used; when none
    matches, the first found is used with a warning.

    :raises NotationError: for an unknown ``override``.
    :raises RecordError: ``record/unknown-ruleset`` when neither is found.
    :raises RuleFileError: when a rule file found is invalid.
    """
    from engine.rules import load_ruleset

    if override is not None:
        return load_ruleset(override), []
    folder = Path(record_path).parent if record_path is not None else Path()
    names: list[str] = []
    name = record.ruleset
    if name.endswith((".yaml", ".yml")) and (folder / name).is_file():
        names.append(str(folder / name))
    names.append(name)
    if record.ruleset_file:
        for candidate in (folder / record.ruleset_file, Path(record.ruleset_file)):
            if candidate.is_file() and str(candidate) not in names:
                names.append(str(candidate))
    found: list[RuleSet] = []
    reasons: list[str] = []
    for candidate_name in names:
        try:
            rules = load_ruleset(candidate_name)
        except NotationError as exc:
            reasons.append(str(exc))
            continue
        if record.ruleset_sha256 is None or ruleset_sha256(rules) == record.ruleset_sha256:
            return rules, []
        found.append(rules)
    if found:
        rules = found[0]
        return rules, [
            f"the rules found for {record.ruleset!r} ({rules.file}) are not those the record "
            "was played under (ruleset_sha256 differs): they have been edited since, so the "
            "replay may differ"
        ]
    line, column = record.locate(("ruleset",))
    tried = (
        f"; the ruleset_file {record.ruleset_file!r} was not found" if record.ruleset_file else ""
    )
    raise RecordError(
        [
            Problem(
                record.file,
                line,
                column,
                "$.ruleset",
                "record/unknown-ruleset",
                (reasons[0] if reasons else f"no ruleset {name!r}") + tried,
            )
        ]
    )

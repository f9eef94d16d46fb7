"""The scorekeeper: an evening of deals played with real cards, settled by the referee's code.

At a real table nobody writes down the cards. After each deal the scorekeeper enters what
decides the payments: who dealt, the contract and its declarer, trumps, the card called or
demanded and who held it, the tricks each seat took, the matadors the side was paid for and
whether the vole was undertaken: the referee's :class:`~engine.referee.summary.DealSummary`,
the very value a played deal writes (:meth:`engine.referee.Deal.summary`). :class:`Evening`
has the referee check it (:class:`~engine.referee.summary.SummaryCheck`) and settle its
outcome as a played deal's (:func:`engine.referee.settlement.settle_outcome`), carries the pot
and the bêtes to the next deal, and keeps the running totals. An entry that cannot have
happened under the rules (a queen called while kings may be, trumps the contract forbids,
tricks that do not add up) is refused with an :class:`~engine.errors.IllegalActionError`
naming the rule and its source.

An evening is saved as a party record whose deals carry ``score:`` instead of cards and
actions (``docs/records.md``, "Deals without card play")::

    ruleset: quadrille
    options: {}
    deals:
      - dealer: 0
        score: {contract: ask, declarer: 1, trump: clubs, called: Kd, holder: 3,
                tricks: [1, 3, 3, 3], matadors: 0, vole: false}
      - dealer: 1
        score: {passed: true}
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from itertools import product
from pathlib import Path
from typing import Any, TypeVar

from engine.actions import FAULTS, small_number
from engine.cards import ALL_CARDS, Card, Suit
from engine.enums import CodilleRemainder, Help
from engine.errors import IllegalActionError, NotationError, Problem, RecordError, RuleFileError
from engine.referee.held import paid_cards
from engine.referee.laws import SCORED_LAWS, Declared, DeclaredEffects
from engine.referee.outcome import Fault
from engine.referee.party import Standing
from engine.referee.seating import seating
from engine.referee.settlement import (
    SettlementResult,
    TableState,
    pays_alone,
    settle_outcome,
)
from engine.referee.summary import Checked, SummaryCheck, renonces_penalised, seat_name
from engine.referee.summary import DealSummary as Entry
from engine.rules.emitter import Comment, Flow, document
from engine.rules.model import Contract, RuleSet
from engine.rules.reader import Document, json_path, parse_text
from engine.rules.schema_pass import document_problems, schema, schema_problems, validator

_T = TypeVar("_T")

__all__ = [
    "Entry",
    "Evening",
    "ScoreError",
    "ScoredDeal",
    "deal_rows",
    "file_text",
    "load_evening",
    "located_error",
    "located_refusal",
    "parse_entry",
    "parse_irregularities",
    "read_deals",
    "read_evening",
    "score_fields",
    "score_form_fields",
    "write_evening",
]

SCORE_SCHEMA = "score"
"""The one schema of a deal's ``score:`` mapping (``engine/schema/score.schema.json``): its
fields and their types, for an evening's file, the terminal's answers and the web's form
(each field's ``x-form``: :func:`score_form_fields`)."""


@dataclass(frozen=True, slots=True)
class ScoredDeal:
    """One deal of the evening: the entry, the result and the referee's settlement."""

    entry: Entry
    result: str
    side: tuple[int, ...]
    settlement: SettlementResult
    effects: DeclaredEffects = field(default_factory=DeclaredEffects)
    """What the entry's irregularities of the play did to the score (the referee's answer)."""
    top_taker: int | None = None
    """Under a contract every seat plays (``all_play``), the seat that took the most tricks,
    the referee's answer (:func:`~engine.referee.result.top_taker_by`)."""

    @property
    def dealer(self) -> int:
        """Returns the seat that dealt it."""
        return self.entry.dealer

    @property
    def declarer(self) -> int | None:
        """Returns the declarer the deal was settled for: the defender who went on for the vole
        (``vole_by``), who became its declarer, or else the entry's declarer."""
        e = self.entry
        return e.vole_by if e.vole_by is not None else e.declarer

    def as_json(self) -> dict[str, Any]:
        """Returns the deal as in ``ombre score --json`` (shaped like ``replay``'s deals)."""
        s = self.settlement
        e = self.entry
        return {
            "dealer": e.dealer,
            "contract": e.contract,
            "declarer": e.declarer,
            "partners": [x for x in self.side if x != self.declarer],
            "trump": e.trump.value if e.trump is not None else None,
            "called": str(e.called) if e.called is not None else None,
            "tricks_won": list(e.tricks),
            "vole_undertaken": e.vole,
            **({"vole_by": e.vole_by} if e.vole_by is not None else {}),
            **({"top_taker": self.top_taker} if self.top_taker is not None else {}),
            "result": self.result,
            "pot_before": s.pot_before,
            "pot_after": s.pot_after,
            "balances": list(s.balances),
            "bete": s.bete,
            "matadors": s.matadors,
            "payments": [p.as_json() for p in s.payments],
            **({"misdeal": e.misdeal} if e.misdeal is not None else {}),
            **({"extra_card": e.extra_card} if e.extra_card is not None else {}),
            **({"unclaimed": list(e.unclaimed)} if e.unclaimed else {}),
            **(
                {"irregularities": [i.as_json() for i in e.irregularities]}
                if e.irregularities
                else {}
            ),
        }


class ScoreError(NotationError):
    """A ``score:`` mapping that is not one, and where in it (``path``, from the mapping: a
    field, an item of a list, a key of ``held``), for an evening's file to locate it."""

    def __init__(self, message: str, path: tuple[str | int, ...] = ()) -> None:
        super().__init__(message)
        self.path = path


def _seat(value: Any, n: int, what: str, at: tuple[str | int, ...] = ()) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < n:
        raise ScoreError(f"{what} must be a seat from 0 to {n - 1}, not {value!r}", at)
    return value


def _parsed(text: Any, parse: Callable[[str], _T], at: tuple[str | int, ...]) -> _T:
    """Returns ``parse(text)`` (a suit, a card), its refusal located at ``at``."""
    try:
        return parse(str(text))
    except NotationError as exc:
        raise ScoreError(str(exc), at) from None


def score_fields() -> list[str]:
    """Returns the fields a ``score:`` mapping may have, in the schema's order."""
    return list(schema(SCORE_SCHEMA)["properties"])


def score_form_fields(seats: int, rows: int) -> set[str]:
    """Returns the names of the web form's fields for a ``score:``, each field's ``x-form`` of
    the schema: ``{seat}`` stands for each of ``seats`` seats, ``{row}`` for each of ``rows``
    rows of irregularities, ``{card}`` for each card of the pack (a card paid for, held)."""
    values = {
        "seat": [str(k) for k in range(seats)],
        "row": [str(k) for k in range(rows)],
        "card": [str(card) for card in ALL_CARDS],
    }
    out: set[str] = set()
    for spec in schema(SCORE_SCHEMA)["properties"].values():
        for name in spec.get("x-form", []):
            holes = [hole for hole in values if "{" + hole + "}" in name]
            for filled in product(*(values[hole] for hole in holes)):
                out.add(name.format(**dict(zip(holes, filled, strict=True))))
    return out


_ITEM = re.compile(r"^\$\.(irregularities|penalties)\[(\d+)\]")


def _shape_refusal(data: Mapping[str, Any]) -> ScoreError | None:
    """The first problem of the ``score:`` mapping's shape against the one schema of it
    (:data:`SCORE_SCHEMA`: the fields and their types), an item of a list named by its number
    (``irregularity 2: ...``); None if it has the shape."""
    problems = schema_problems(validator(SCORE_SCHEMA), dict(data), lambda _: ("", None, None))
    if not problems:
        return None
    first = problems[0]
    item = _ITEM.match(first.path)
    if item is None:
        return ScoreError(first.message)
    what = {"irregularities": "irregularity", "penalties": "penalty"}[item.group(1)]
    return ScoreError(f"{what} {int(item.group(2)) + 1}: {first.message}")


def parse_entry(data: Mapping[str, Any], *, dealer: int, n: int) -> Entry:
    """Reads a ``score:`` mapping (from a record, a form or the terminal) into an :class:`Entry`.

    Only the shape is checked here: the fields and their types against the one schema of a
    ``score:`` (:data:`SCORE_SCHEMA`), then the seats, the cards and the fields that go
    together; whether the deal could have happened is for the referee's :class:`SummaryCheck`
    to say.

    :raises NotationError: naming the field that is malformed.
    """
    if not isinstance(data, Mapping):
        raise NotationError(
            f"a deal's score is a mapping (contract, declarer, tricks ...), not {data!r}"
        )
    refused = _shape_refusal(data)
    if refused is not None:
        raise refused
    passed = data.get("passed", False)
    penalties = _penalties(data.get("penalties", []), n)
    if passed:
        extra = [k for k in data if k not in ("passed", "penalties")]
        if extra:
            raise ScoreError(f"a deal everyone passed has no {extra[0]}", (extra[0],))
        return Entry(dealer=dealer, passed=True, penalties=penalties)
    if "misdeal" in data or "extra_card" in data:
        return _void_entry(data, dealer=dealer, n=n)
    contract, declarer = _read_contract(data, n)
    trump, called, holder = _read_call(data, n)
    vole, vole_by = _read_vole(data, n)
    latest, highest, trump_holders = _read_tie_and_trumps(data, n)
    renonces = tuple(
        _seat(r, n, "a renonce's offender", ("renonces", k))
        for k, r in enumerate(data.get("renonces", []))
    )
    return Entry(
        irregularities=_irregularities(data.get("irregularities", []), n),
        unclaimed=tuple(dict.fromkeys(data.get("unclaimed", []))),
        dealer=dealer,
        contract=contract,
        declarer=declarer,
        trump=trump,
        called=called,
        holder=holder,
        tricks=_read_tricks(data, n),
        matadors=data.get("matadors", 0),
        vole=vole,
        vole_by=vole_by,
        latest_of_tied=latest,
        highest_trump=highest,
        trump_holders=trump_holders,
        renonces=renonces,
        surrendered=data.get("surrendered", False),
        held=_read_held(data, n),
        penalties=penalties,
    )


def _void_entry(data: Mapping[str, Any], *, dealer: int, n: int) -> Entry:
    """Reads the ``score:`` mapping of a void deal (the laws of the table): the fault found
    (``misdeal``), or who had a card too many (``extra_card``), alone."""
    extra = [k for k in data if k not in ("misdeal", "extra_card")]
    if extra:
        raise ScoreError(f"a void deal (misdeal) has no {extra[0]}", (extra[0],))
    if "extra_card" in data:
        if "misdeal" in data:
            raise ScoreError("give misdeal or extra_card, not both", ("misdeal",))
        seat = _seat(data["extra_card"], n, "extra_card (who had a card too many)", ("extra_card",))
        return Entry(dealer=dealer, misdeal="extra-card", extra_card=seat)
    fault = data["misdeal"]
    if fault not in FAULTS:
        raise ScoreError(
            f"misdeal names the fault ({', '.join(FAULTS)}), not {fault!r}", ("misdeal",)
        )
    return Entry(dealer=dealer, misdeal=str(fault))


def _read_contract(data: Mapping[str, Any], n: int) -> tuple[str, int]:
    """Returns the contract (its record-notation aliases read as the referee reads them) and
    the declarer's seat of a ``score:`` mapping."""
    contract = data.get("contract")
    if not isinstance(contract, str) or not contract.strip():
        raise ScoreError(
            "contract is missing (or write passed: true when all passed)",
            ("contract",) if "contract" in data else (),
        )
    # An alias of the rules' (jouer, solo ...) is read by the referee's check
    # (RuleSet.contract_id), which knows the rules.
    contract = contract.strip()
    declarer = _seat(
        data.get("declarer"), n, "declarer", ("declarer",) if "declarer" in data else ()
    )
    return contract, declarer


def _read_call(data: Mapping[str, Any], n: int) -> tuple[Suit | None, Card | None, int | None]:
    """Returns the trump suit, the card called or demanded and the seat that held it of a
    ``score:`` mapping (each None where it is left out)."""
    raw = data.get("trump")
    trump = _parsed(raw, Suit.parse, ("trump",)) if raw is not None else None
    raw = data.get("called")
    called = _parsed(raw, Card.parse, ("called",)) if raw is not None else None
    holder = data.get("holder")
    if holder is not None:
        holder = _seat(holder, n, "holder", ("holder",))
    return trump, called, holder


def _read_tricks(data: Mapping[str, Any], n: int) -> tuple[int, ...]:
    """Returns the tricks each of the ``n`` seats took, of a ``score:`` mapping."""
    tricks = data.get("tricks")
    if not isinstance(tricks, list | tuple) or len(tricks) != n:
        raise ScoreError(
            f"tricks must list the tricks of each of the {n} seats",
            ("tricks",) if "tricks" in data else (),
        )
    return tuple(tricks)


def _read_vole(data: Mapping[str, Any], n: int) -> tuple[bool, int | None]:
    """Returns whether the vole was undertaken and the defender who went on for it (None: the
    declaring side's vole), of a ``score:`` mapping."""
    vole = bool(data.get("vole", False))
    vole_by = data.get("vole_by")
    if vole_by is not None:
        at = ("vole_by",)
        vole_by = _seat(vole_by, n, "vole_by (the defender who went on for the vole)", at)
        if not vole:
            raise ScoreError(
                "vole_by names the defender who went on for the vole: write vole: true too", at
            )
    return vole, vole_by


def _read_tie_and_trumps(
    data: Mapping[str, Any], n: int
) -> tuple[int | None, int | None, tuple[int, ...]]:
    """Returns, of a ``score:`` mapping, who of the seats tied for the most tricks won the
    latest (``latest_of_tied``), who held the highest trump (``highest_trump``) and the seats
    that held a trump, the highest first (``trump_holders``)."""
    latest = data.get("latest_of_tied")
    if latest is not None:
        latest = _seat(
            latest,
            n,
            "latest_of_tied (of the seats tied for the most tricks, who won the latest)",
            ("latest_of_tied",),
        )
    highest = data.get("highest_trump")
    if highest is not None:
        highest = _seat(highest, n, "highest_trump", ("highest_trump",))
    trump_holders = tuple(
        _seat(s, n, "a trump's holder", ("trump_holders", k))
        for k, s in enumerate(data.get("trump_holders", []))
    )
    return latest, highest, trump_holders


def _read_held(data: Mapping[str, Any], n: int) -> tuple[tuple[Card, int], ...]:
    """Returns who held each card the rules pay for whatever the result (``held``), of a
    ``score:`` mapping."""
    raw_held = data.get("held", {})
    return tuple(
        (
            _parsed(card, Card.parse, ("held", card)),
            _seat(seat, n, f"the holder of {card}", ("held", card)),
        )
        for card, seat in raw_held.items()
    )


def _irregularities(raw: Any, n: int) -> tuple[Declared, ...]:
    """Reads ``irregularities: [{seat, law, hand?, side_tricks?}, ...]`` (only the shape: whether
    each could have been committed is the referee's :func:`declared_effects`; their fields and
    types, the schema's)."""
    out = []
    for k, item in enumerate(raw):
        where = f"irregularity {k + 1}"
        law = item["law"]
        at = ("irregularities", k)
        seat = _seat(item.get("seat"), n, f"{where}'s seat (who committed it)", (*at, "seat"))
        hand = side_tricks = None
        if law == "turned_hand":
            hand = _seat(
                item.get("hand"),
                n,
                f"{where}'s hand (whose hand was turned up)",
                (*at, "hand") if "hand" in item else at,
            )
        elif "hand" in item:
            raise ScoreError(f"{where}: only a turned_hand names a hand", (*at, "hand"))
        if law == "shown_cards":
            side_tricks = item.get("side_tricks")
            if side_tricks is None:
                raise ScoreError(
                    f"{where}: side_tricks (the tricks his side had taken when he showed his "
                    "cards) is missing",
                    at,
                )
        elif "side_tricks" in item:
            raise ScoreError(f"{where}: only a shown_cards has side_tricks", (*at, "side_tricks"))
        out.append(Declared(seat, str(law), hand, side_tricks))
    return tuple(out)


_SEAT_WORD = re.compile(r"\bseat\s+(\d+)", re.IGNORECASE)


def parse_irregularities(
    text: str, seat_of: Callable[[str], int | None] = small_number
) -> list[dict[str, Any]]:
    """Reads the terminal's notation of the irregularities of the play, items separated by
    commas, each ``SEAT WORD [NUMBER]`` with the words of :data:`SCORED_LAWS`: ``0 turn-hand 2``
    (seat 0 turned up seat 2's hand), ``1 show 3`` (seat 1 showed his cards when his side had 3
    tricks), ``1 out-of-turn``, ``3 made-known``; a seat also as ``seat 2``. Returns the
    ``irregularities`` of a ``score:`` mapping (checked by :func:`parse_entry`). ``seat_of``
    reads a seat (the terminal's :meth:`Evening.seat_of` reads a player's name too).

    :raises NotationError: for an item that is not of that shape, naming it.
    """
    laws = {verb: law for law, verb in SCORED_LAWS.items()}
    out: list[dict[str, Any]] = []
    for k, part in enumerate(p for p in text.split(",") if p.strip()):
        # A seat may be written as the questions write it, ``seat 2``.
        words = _SEAT_WORD.sub(r"\1", part).split()
        seat = seat_of(words[0])
        law = laws.get(words[1]) if len(words) > 1 else None
        takes = {"turned_hand": "hand", "shown_cards": "side_tricks"}.get(law or "")
        read = seat_of if takes == "hand" else small_number
        number = read(words[2]) if len(words) == 3 else None
        if (
            seat is None
            or law is None
            or len(words) != (3 if takes else 2)
            or (takes and number is None)
        ):
            raise NotationError(
                f"irregularity {k + 1} {part.strip()!r} is not SEAT WORD [NUMBER] (words: "
                "turn-hand SEAT, show TRICKS, out-of-turn, made-known)"
            )
        item: dict[str, Any] = {"seat": seat, "law": law}
        if takes:
            item[takes] = number
        out.append(item)
    return out


def _penalties(raw: Any, n: int) -> tuple[Fault, ...]:
    """Reads ``penalties: [{seat, fault}, ...]`` (only the shape: the fault is checked against
    the rules by the referee's :class:`SummaryCheck`; its fields and types, the schema's)."""
    return tuple(
        Fault(
            _seat(item["seat"], n, "a penalty's offender", ("penalties", k, "seat")), item["fault"]
        )
        for k, item in enumerate(raw)
    )


@dataclass
class Evening(Standing["ScoredDeal"]):
    """An evening of deals scored under one ruleset and setup, the pot carried over: a party
    of deals entered (the referee's :class:`~engine.referee.party.Standing` says who deals
    next, what lies on the table, the totals and whether the party is over, as for a party
    played)."""

    rules: RuleSet
    options: dict[str, str] = field(default_factory=dict)
    first_dealer: int = 0
    title: str | None = None
    deals: list[ScoredDeal] = field(default_factory=list)
    players: tuple[str, ...] = ()
    """The players' names, seat 0 first (empty: seats are numbered only)."""
    start: TableState = field(default_factory=TableState)
    """What lies on the table before the first deal (nothing)."""

    def __post_init__(self) -> None:
        self.rules.resolve_options(self.options)  # an unknown option is refused at once
        if self.title is not None:
            check_name(self.title, "the title")
        for seat, name in enumerate(self.players):
            check_name(name, f"the name of seat {seat}")
        if self.players and len(self.players) != self.rules.players:
            raise NotationError(
                f"{self.rules.id} has {self.rules.players} players, not {len(self.players)} names"
            )

    def seat_of(self, text: str) -> int | None:
        """Returns the seat a scorekeeper's answer names: its number, or a player's name (any
        case; the first letters are enough when they fit one player only); None if it names
        none."""
        text = text.strip()
        k = small_number(text)
        if k is not None:
            return k if k < self.n else None
        wanted = text.casefold()
        if not wanted:
            return None
        names = [name.casefold() for name in self.players]
        if wanted in names:
            return names.index(wanted)
        starting = [seat for seat, name in enumerate(names) if name.startswith(wanted)]
        return starting[0] if len(starting) == 1 else None

    def name(self, seat: int) -> str:
        """Returns ``seat 2`` or ``seat 2 (Anne)``."""
        return seat_name(self.players, seat)

    @property
    def n(self) -> int:
        """Returns the number of players."""
        return self.rules.players

    @property
    def next_eldest(self) -> int:
        """Returns the eldest hand of the next deal (the referee's seating of its dealer)."""
        return seating(self.rules, self.next_dealer).eldest

    @property
    def irregularity_laws(self) -> list[str]:
        """Returns the laws of the play the rules state whose irregularity changes a deal's
        score (of :data:`SCORED_LAWS`), for the forms to offer."""
        return [law for law in SCORED_LAWS if getattr(self.rules.play_laws, law) is not None]

    @property
    def asks_renonces(self) -> bool:
        """Checks if an entry must say the renonces pointed out: the rules make each one a bête
        (``play.renonce.action: penalised``), so the forms ask for ``renonces``: the referee's
        :func:`~engine.referee.summary.renonces_penalised`."""
        return renonces_penalised(self.rules)

    def _asked_of(self, contract: Contract | None) -> tuple[Contract, ...]:
        """The contract an entry is for, or (None: the web's one form, for any contract)
        every contract of the rules: a question is asked where one of them needs it."""
        return (contract,) if contract is not None else tuple(self.rules.contracts.values())

    def asks_called(self, contract: Contract | None = None) -> bool:
        """Checks if an entry names a card called or demanded, and its holder: ``contract``
        takes a partner's help (``help: call`` or ``demand``); with no contract given (the
        web's one form), whether some contract of the rules does."""
        return any(c.help is not Help.NONE for c in self._asked_of(contract))

    def asks_matadors(self, contract: Contract | None = None) -> bool:
        """Checks if an entry says the matadors paid for: some payment item is paid per
        matador (:attr:`RuleSet.pays_matadors`; none in a game scored in points) and
        ``contract`` has trumps (with no contract given, some contract has)."""
        return self.rules.pays_matadors and any(not c.no_trumps for c in self._asked_of(contract))

    def asks_vole(self, contract: Contract | None = None) -> bool:
        """Checks if an entry says whether the vole was undertaken: ``contract`` may go on for
        it (``vole_allowed``), is played for tricks by a side, and did not undertake it with
        the bid (``announces_vole``); with no contract given, whether some contract does."""
        return any(
            c.vole_allowed and c.all_play is None and not c.no_tricks and not c.announces_vole
            for c in self._asked_of(contract)
        )

    def asks_surrendered(self, contract: Contract | None = None) -> bool:
        """Checks if an entry says whether the called card was surrendered: the rules have the
        *roi rendu* (``declarations.call.surrender``) and ``contract`` calls a partner (with no
        contract given, some contract of the rules does)."""
        rule = self.rules.call
        return (
            rule is not None
            and rule.surrender_fee is not None
            and any(c.help is Help.CALL for c in self._asked_of(contract))
        )

    @property
    def held_cards(self) -> list[Card]:
        """Returns the cards the rules pay for whoever held them, whatever the result
        (``settlement.held_cards``: the red aces), for the forms to ask who held each
        (``held``): the referee's :func:`~engine.referee.held.paid_cards`."""
        return paid_cards(self.rules)

    @property
    def asks_trump_holders(self) -> bool:
        """Checks if an entry must say who held trumps, the highest first: the rules give a
        codille's odd counters to the defenders with the highest trumps (``codille_remainder:
        highest-trumps``), so the forms ask for ``trump_holders``."""
        return self.rules.codille_remainder is CodilleRemainder.HIGHEST_TRUMPS

    def player(self, seat: int) -> str:
        """Returns the player's name as entered, or ``seat 2`` when none was given."""
        if self.players and self.players[seat]:
            return self.players[seat]
        return f"seat {seat}"

    def pays_alone(self, scored: ScoredDeal) -> bool:
        """Checks if the declarer of ``scored`` bore its loss alone, partner or not (the
        referee's :func:`~engine.referee.settlement.pays_alone`)."""
        e = scored.entry
        declarer = scored.declarer
        if e.passed or e.contract is None or declarer is None:
            return False
        partner = next((x for x in scored.side if x != declarer), None)
        outcome = self.rules.outcomes.get(scored.result)
        return pays_alone(
            self.rules,
            e.contract,
            partner,
            e.tricks[declarer],
            lost=bool(outcome is not None and outcome.bete),
        )

    def checker(self) -> SummaryCheck:
        """Returns the referee's check of the next deal's summary: these rules and setup, who
        deals next, whether the party is over, the deal's multiplier, the players' names."""
        return SummaryCheck(
            self.rules,
            self.options,
            next_dealer=self.next_dealer,
            over=self.over,
            factor=self.factor_for(len(self.deals)),
            players=self.players,
        )

    def check(self, entry: Entry) -> Checked:
        """Checks that ``entry`` could have happened (the referee's :class:`SummaryCheck`);
        returns the result, the side, the partner and the irregularities' effects.

        :raises IllegalActionError: for an impossible entry, with the rule and its source.
        """
        return self.checker().check(entry)

    def score(self, entry: Entry) -> ScoredDeal:
        """Checks and settles one deal, and adds it to the evening: the referee's check of the
        summary, its outcome, and the settlement of that outcome on the table, as at the end of
        a played deal.

        :raises IllegalActionError: for an impossible entry, with the rule and its source.
        """
        checker = self.checker()
        entry = checker.canonical(entry)
        checked = checker.check(entry)
        outcome = checker.outcome(entry, checked)
        settlement = settle_outcome(self.rules, outcome, self.table)
        scored = ScoredDeal(
            entry, checked.result, checked.side, settlement, checked.effects, outcome.top_taker
        )
        self.deals.append(scored)
        return scored

    def forgo(self, items: Sequence[str]) -> ScoredDeal:
        """The last deal's ``items`` were not claimed before this deal was dealt: it is
        settled again without them (``laws.claims_before_next_deal``; HOYLE-IE law 9).

        :raises NotationError: if no deal has been scored yet.
        :raises IllegalActionError: if an item is not one the rules have claimed (the deal is
            then kept as it was).
        """
        if not self.deals:
            raise NotationError("no deal has been scored yet: nothing was left unclaimed")
        last = self.deals.pop()
        try:
            return self.score(replace(last.entry, unclaimed=tuple(dict.fromkeys(items))))
        except (IllegalActionError, NotationError):
            self.deals.append(last)
            raise

    def undo(self) -> Entry | None:
        """Removes the last deal scored and returns its entry (None if there is none)."""
        return self.deals.pop().entry if self.deals else None

    @property
    def version(self) -> str:
        """Returns a token of the evening as it stands (its deals and setup): a change made on a
        page drawn from another version (a stale tab) is refused, not applied."""
        import hashlib

        return hashlib.sha256(write_evening(self).encode("utf-8")).hexdigest()[:16]

    def running_totals(self) -> list[list[int]]:
        """Returns each seat's running balance after each deal (the last row is the totals)."""
        running = [0] * self.n
        out = []
        for d in self.deals:
            running = [a + b for a, b in zip(running, d.settlement.balances, strict=True)]
            out.append(list(running))
        return out

    def callable_cards(self) -> list[str]:
        """Returns the cards an entry may name as called or demanded (the rank the rules call,
        and the fallback rank for a declarer who holds every card of it)."""
        ranks = {
            rank
            for rule in (self.rules.call, self.rules.demand)
            if rule is not None
            for rank in (rule.rank, rule.all_held_fallback)
            if rank is not None
        }
        return [str(c) for c in self.rules.deck(self.options) if c.rank in ranks]

    def as_json(self) -> dict[str, Any]:
        """Returns the evening as in ``ombre score --json``."""
        return {
            "ruleset": self.rules.id,
            "options": dict(self.options),
            "players": list(self.players),
            "deals": [d.as_json() for d in self.deals],
            "totals": self.totals,
            "pot": self.table.pot,
            "betes": list(self.table.betes),
            "next_dealer": self.next_dealer,
            **(
                {"party": {"over": self.over, "leaders": self.leaders}}
                if self.rules.party is not None and self.rules.party.tours is None
                else {}
            ),
        }


# What a name or title may hold: what YAML reads back as written, on one line (no C0 or C1
# control character but U+0085, no DEL, no lone surrogate, no U+FFFE or U+FFFF).
_UNSAVEABLE = re.compile("[^\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
MAX_NAME = 80
"""The longest title or player's name kept (characters)."""


def check_name(text: str, what: str) -> str:
    """Returns ``text`` if it can be saved and read back; else refuses it, saying why.

    :raises NotationError: for a character the evening's file cannot hold, or a text too long.
    """
    if not isinstance(text, str):
        raise NotationError(f"{what} must be text")
    bad = _UNSAVEABLE.search(text)
    if bad is not None:
        raise NotationError(
            f"{what} holds the character U+{ord(bad.group()):04X} (a control character or a "
            "non-character) at position "
            f"{bad.start() + 1}, which cannot be saved and read back: remove it"
        )
    if len(text) > MAX_NAME:
        raise NotationError(f"{what} is longer than {MAX_NAME} characters")
    return text


def write_evening(evening: Evening) -> str:
    """Returns the evening as a party record of deals without card play (YAML, written by
    :mod:`engine.rules.emitter`)."""
    top: dict[Any, Any] = {}
    if evening.title:
        top["title"] = evening.title
    top["ruleset"] = evening.rules.id
    if evening.players:
        top["players"] = Flow(list(evening.players))
    top["options"] = Flow(dict(evening.options))
    if not evening.deals:
        top["first_dealer"] = evening.first_dealer
    top["deals"] = deal_rows(evening)
    return document(top)


def _score_row(evening: Evening, entry: Entry) -> dict[str, Any]:
    """Returns an entry's ``score:`` mapping as the evening's file writes it: where the rule
    file pays no matadors and knows no vole (a game in points), their empty answers are left
    out, the reader taking the same by default."""
    out = entry.as_score()
    rules = evening.rules
    if out.get("matadors") == 0 and not rules.pays_matadors:
        del out["matadors"]
    if out.get("vole") is False and not rules.vole_possible:
        del out["vole"]
    return out


def deal_rows(evening: Evening) -> list[dict[Any, Any]]:
    """Returns the evening's deals as its file writes them (``{dealer, note, score}``, and a
    comment with the result, balances and, unless the game is in points, the pot), for
    :mod:`engine.rules.emitter`."""
    return [
        {
            "dealer": d.entry.dealer,
            **({"note": d.entry.note} if d.entry.note is not None else {}),
            "score": Flow(_score_row(evening, d.entry)),
            Comment(
                f"{d.result}; balances {list(d.settlement.balances)}"
                + ("" if evening.rules.in_points else f"; on the table {d.settlement.pot_after}")
            ): None,
        }
        for d in evening.deals
    ]


def read_evening(text: str, file: str, load: Callable[[str], RuleSet]) -> Evening:
    """Reads an evening written by :func:`write_evening` (or by hand) and scores it again.

    ``load`` turns the ruleset's name into a :class:`RuleSet` (``engine.load_ruleset``).

    :raises RecordError: for a malformed file, every problem located;
    :raises IllegalActionError: for a deal that cannot have happened (its index in the message).
    """
    doc, problems = parse_text(file, text)
    if doc is None:
        raise RecordError(problems)
    data = doc.data

    def fail(path: tuple[str | int, ...], code: str, message: str) -> RecordError:
        return located_error(doc, file, path, code, message)

    # Checked as rule files are (engine/schema/evening.schema.json), every problem located.
    problems = document_problems("evening", doc)
    if problems:
        raise RecordError(problems)
    ruleset = data["ruleset"]
    try:
        rules = load(ruleset)
    except (NotationError, RuleFileError) as exc:
        raise fail(("ruleset",), "record/unknown-ruleset", str(exc)) from None
    options = {str(k): str(v) for k, v in (data.get("options") or {}).items()}
    deals = data.get("deals") or []
    first = data.get("first_dealer")
    if first is None and deals:
        first = deals[0].get("dealer", 0)
    players = data.get("players") or []
    try:
        first_dealer = _seat(first if first is not None else 0, rules.players, "the first dealer")
        evening = Evening(rules, options, first_dealer, data.get("title"), players=tuple(players))
    except NotationError as exc:
        raise fail(("options",), "record/options", str(exc)) from None
    read_deals(evening, deals, doc, file)
    return evening


def read_deals(
    evening: Evening,
    deals: Sequence[Mapping[str, Any]],
    doc: Document,
    file: str,
    at: tuple[str | int, ...] = (),
    first: int = 0,
) -> None:
    """Scores the ``deals`` of an evening's file (each ``{dealer, note, score}``, checked by the
    evening's schema) into ``evening``, each refusal located in ``file``: ``doc`` is the
    :class:`~engine.rules.reader.Document` read, ``at`` the path of the mapping holding the
    deals (``()`` for an evening; a tournament's table for a tournament), ``first`` the index
    of the first of ``deals`` in the file's list (a reader that scores them one at a time).

    :raises RecordError: for a ``score:`` that is not one (located);
    :raises IllegalActionError: for a deal that cannot have happened (where, and its number).
    """
    n = evening.n
    for i, raw in enumerate(deals, start=first):
        score = raw["score"]
        dealer = raw.get("dealer", evening.next_dealer)
        try:
            entry = parse_entry(score, dealer=_seat(dealer, n, "dealer"), n=n)
        except NotationError as exc:
            # Where in the score: the field, the item of a list (a ScoreError's path).
            inside = exc.path if isinstance(exc, ScoreError) else ()
            raise located_error(
                doc, file, (*at, "deals", i, "score", *inside), "record/score", str(exc)
            ) from None
        note = raw.get("note")
        if isinstance(note, str):
            entry = replace(entry, note=note)
        try:
            evening.score(entry)
        except IllegalActionError as exc:
            raise located_refusal(exc, doc, file, (*at, "deals", i, "score"), i) from None


def located_error(
    doc: Document, file: str, path: tuple[str | int, ...], code: str, message: str
) -> RecordError:
    """Returns the error of a scorekeeper's file at ``path`` of ``doc`` (read from ``file``),
    located ``FILE:LINE:COLUMN``."""
    line, col = doc.where(path)
    return RecordError([Problem(file, line, col, json_path(path), code, message)])


def located_refusal(
    exc: IllegalActionError, doc: Document, file: str, path: tuple[str | int, ...], i: int
) -> IllegalActionError:
    """Returns the referee's refusal ``exc`` of deal ``i`` (from 0) of a scorekeeper's file,
    its detail led by where the deal is (``FILE:LINE:COLUMN: deal N:``)."""
    line, col = doc.where(path)
    where = f"{file}:{line}:{col}" if line is not None else file
    return IllegalActionError(
        exc.code, f"{where}: deal {i + 1}: {exc.detail}", action=exc.action, rule=exc.rule
    )


def load_evening(path: Path, load: Callable[[str], RuleSet]) -> Evening:
    """Reads an evening file (see :func:`read_evening`) as a record is read: a regular file
    within the records' size limit (:func:`engine.rules.reader.read_file`), in UTF-8.

    :raises RecordError: also for a file too large, not a regular file, or not UTF-8 (the
        line and column of the first byte that is not).
    """
    return read_evening(file_text(path, "evening"), str(path), load)


def file_text(path: Path, kind: str) -> str:
    """Returns the text of a scorekeeper's file (``kind``: ``evening``, ``tournament``) read as
    a record is read: a regular file within the records' size limit
    (:func:`engine.rules.reader.read_file`), in UTF-8.

    :raises RecordError: for a file too large, not a regular file, or not UTF-8 (the line and
        column of the first byte that is not; code ``KIND/not-utf8``).
    """
    from engine.rules.reader import read_file

    raw, refused = read_file(path, str(path))
    if raw is None:
        raise RecordError([refused] if refused is not None else [])
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        col = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        raise RecordError(
            [
                Problem(
                    str(path),
                    line,
                    col,
                    "$",
                    f"{kind}/not-utf8",
                    f"byte 0x{raw[exc.start]:02x} is not UTF-8: "
                    f"{'an' if kind[0] in 'aeiou' else 'a'} {kind} file is UTF-8 text",
                )
            ]
        ) from None

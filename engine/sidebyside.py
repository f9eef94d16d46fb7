"""``ombre replay RECORD --ruleset OTHER``: one record refereed under two rule sets, side by side.

The record is refereed under its own ruleset (A) and under another ruleset or variant (B), each
from the same hands and the same actions. For every deal the report says where the two part:

* an action legal under one and refused under the other (the first such action, with the code
  and the rule it breaks), after which that rule set's replay stops;
* a different contract, declarer, partner, trumps or called card (possible only when an action
  is read differently);
* a different result, different tricks, different payments (each seat's balance, and the pot).

The text is rendered by ``templates/compare/replay.txt.j2`` from the typed :class:`SideBySide`:
each deal's :class:`DealComparison` holds both sides' :class:`DealFacts` (the referee's typed
deal, read once) and the :class:`Refusal` of an action refused.
:meth:`SideBySide.as_json` is the ``--json`` document.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.records import Record, ReplayReport
    from engine.referee.deal import Deal
    from engine.rules.model import RuleSet

__all__ = [
    "DealComparison",
    "DealFacts",
    "Difference",
    "Refusal",
    "SideBySide",
    "render_text",
    "replay_against",
]

_COMPARED = (
    "contract",
    "declarer",
    "partners",
    "trump",
    "called",
    "result",
    "tricks_won",
    "renonces",
)
_MONEY = ("balances", "pot_before", "pot_after", "bete")


Value = str | int | tuple[int, ...] | None
"""A compared field's value: an id, a seat, a card or suit, an amount, seats' counts."""


def _json_value(value: Value) -> str | int | list[int] | None:
    return list(value) if isinstance(value, tuple) else value


@dataclass(frozen=True, slots=True)
class DealFacts:
    """One deal as the referee left it under one rule set (the typed deal, read once; its
    report, the ``deals`` entries of ``ombre replay --json``, shows the same values), the fields
    the side-by-side compares."""

    contract: str | None
    declarer: int | None
    partners: tuple[int, ...]
    trump: str | None
    called: str | None
    result: str | None
    tricks_won: tuple[int, ...]
    renonces: tuple[int, ...]
    """The seats that revoked (each renonce a bête), in the order they were found."""
    balances: tuple[int, ...] | None
    """Each seat's balance; None while the deal is unsettled."""
    pot_before: int | None
    pot_after: int | None
    bete: int | None
    """The bêtes made; None while the deal is unsettled."""
    tricks: tuple[tuple[str, ...], ...]
    """The cards of each finished trick, in play order."""

    @staticmethod
    def from_deal(d: Deal) -> DealFacts:
        """Returns the facts of one deal as the referee left it (the typed deal, never its
        report's text): the same values its report (:meth:`engine.referee.Deal.report`) shows."""
        s = d.settlement
        suit = d.trump_suit
        return DealFacts(
            contract=d.contract.id if d.contract is not None else None,
            declarer=d.declarer,
            partners=(d.partner,) if d.partner is not None else (),
            trump=suit.value if suit is not None else None,
            called=str(d.called_card) if d.called_card is not None else None,
            result=d.result,
            tricks_won=tuple(d.won),
            renonces=d.renonce_seats,
            balances=tuple(s.balances) if s is not None else None,
            pot_before=s.pot_before if s is not None else d.table.pot,
            pot_after=s.pot_after if s is not None else None,
            bete=s.bete if s is not None else None,
            tricks=tuple(tuple(str(c) for c in t.cards) for t in d.tricks),
        )

    def value(self, field: str) -> Value:
        """Returns one compared field's value (a name of :data:`COMPARED`)."""
        if field not in COMPARED:
            raise KeyError(field)
        value: Value = getattr(self, field)
        return value


COMPARED = (*_COMPARED, *_MONEY)
"""The fields compared, in the report's order: the play's, then the money's."""


@dataclass(frozen=True, slots=True)
class Refusal:
    """An action the referee refused in a replay (the replay's ``error``): where, and why."""

    index: int
    """The action's position in its deal (from 0)."""
    action: str
    """The record's line, as written."""
    code: str
    message: str
    deal: int | None = None
    """The deal (from 0) in a party's record; None in a one-deal record."""

    @staticmethod
    def from_json(error: Mapping[str, Any]) -> Refusal:
        """Returns the refusal of a replay's ``error`` document."""
        return Refusal(
            error["index"], error["action"], error["code"], error["message"], error.get("deal")
        )

    def as_json(self) -> dict[str, Any]:
        """Returns the refusal as the replay's ``error`` document."""
        out: dict[str, Any] = {
            "index": self.index,
            "action": self.action,
            "code": self.code,
            "message": self.message,
        }
        if self.deal is not None:
            out["deal"] = self.deal
        return out


@dataclass(frozen=True)
class Difference:
    """A field of a deal's report that the two rule sets answer differently."""

    field: str
    a: Value
    b: Value

    def as_json(self) -> dict[str, Any]:
        return {"field": self.field, "a": _json_value(self.a), "b": _json_value(self.b)}


@dataclass(frozen=True)
class DealComparison:
    """One deal under both rule sets: what differs, and which side refused an action."""

    deal: int
    differences: tuple[Difference, ...]
    illegal_a: Refusal | None
    """The action refused under the record's own rules in this deal (its replay's error)."""
    illegal_b: Refusal | None
    balance_difference: tuple[int, ...] | None
    """B's balances less A's, seat by seat, when both deals were settled."""
    tricks_same: bool | None
    """Whether the tricks hold the same cards (None when an action was refused)."""
    same: bool
    a: DealFacts | None = None
    """The deal under A (None: A's replay stopped before it)."""
    b: DealFacts | None = None

    def differs(self, field: str) -> bool:
        """Checks if the two rule sets answer ``field`` differently in this deal."""
        return any(d.field == field for d in self.differences)

    def as_json(self) -> dict[str, Any]:
        """Returns the deal as in ``ombre replay --ruleset OTHER --json`` (a key left out where
        its value is none)."""
        out: dict[str, Any] = {
            "deal": self.deal,
            "differences": [d.as_json() for d in self.differences],
        }
        if self.illegal_a is not None:
            out["illegal_a"] = self.illegal_a.as_json()
        if self.illegal_b is not None:
            out["illegal_b"] = self.illegal_b.as_json()
        if self.balance_difference is not None:
            out["balance_difference"] = list(self.balance_difference)
        if self.tricks_same is not None:
            out["tricks_same"] = self.tricks_same
        out["same"] = self.same
        return out


@dataclass(frozen=True)
class SideBySide:
    """The two replays of one record, and where they part."""

    record: str
    a: ReplayReport
    b: ReplayReport
    names: tuple[str, str]
    units: tuple[str, str] = ("", "")
    """The unit of each side's amounts: where they differ (points against counters) the
    balances are shown each in its own and never subtracted."""

    @property
    def units_differ(self) -> bool:
        """Checks if the two count in different units (their balances are not subtracted)."""
        return self.units[0] != self.units[1]

    def _deal(self, k: int) -> DealComparison:
        da = DealFacts.from_deal(self.a.played[k]) if k < len(self.a.played) else None
        db = DealFacts.from_deal(self.b.played[k]) if k < len(self.b.played) else None
        illegal = [
            Refusal.from_json(error) if error is not None and error.get("deal", 0) == k else None
            for error in (self.a.error, self.b.error)
        ]
        differences = []
        for key in COMPARED:
            va = da.value(key) if da is not None else None
            vb = db.value(key) if db is not None else None
            if va != vb:
                differences.append(Difference(key, va, vb))
        balance_difference = None
        tricks_same = None
        if da is not None and db is not None:
            ba, bb = da.balances, db.balances
            same_unit = not self.units_differ
            if same_unit and ba is not None and bb is not None and len(ba) == len(bb):
                balance_difference = tuple(y - x for x, y in zip(ba, bb, strict=True))
            if illegal == [None, None]:
                tricks_same = da.tricks == db.tricks
        return DealComparison(
            k,
            tuple(differences),
            illegal[0],
            illegal[1],
            balance_difference,
            tricks_same,
            not differences and illegal == [None, None],
            da,
            db,
        )

    @cached_property
    def deals(self) -> tuple[DealComparison, ...]:
        """Each deal under both rule sets."""
        return tuple(self._deal(k) for k in range(max(len(self.a.played), len(self.b.played))))

    @property
    def shared(self) -> int:
        """How many deals both rule sets played (the like-with-like comparison's length)."""
        return min(len(self.a.played), len(self.b.played))

    @property
    def compared(self) -> tuple[DealComparison, ...]:
        """The deals both rule sets played, and the one where either stopped (its refusal)."""
        n = self.shared
        return tuple(d for d in self.deals if d.deal < n or d.illegal_a or d.illegal_b)

    @property
    def stopped(self) -> tuple[str, int, int] | None:
        """Where one rule set's replay stopped short of the other's: ``("a" or "b", the deals it
        played, the deals the other played)``; None when both played as many."""
        la, lb = len(self.a.played), len(self.b.played)
        if la == lb:
            return None
        return ("a", la, lb) if la < lb else ("b", lb, la)

    @property
    def settled(self) -> int:
        """How many deals, from the first, both rule sets played to their settlement."""
        for k in range(self.shared):
            deal = self._deal(k)
            if deal.a is None or deal.b is None or None in (deal.a.balances, deal.b.balances):
                return k
        return self.shared

    def shared_totals(self, side: str) -> tuple[int, ...] | None:
        """One side's balances summed over the :attr:`settled` deals (None if there are none)."""
        report = self.a if side == "a" else self.b
        total: list[int] | None = None
        for k in range(self.settled):
            balances = DealFacts.from_deal(report.played[k]).balances
            assert balances is not None
            if total is None:
                total = list(balances)
            else:
                total = [x + y for x, y in zip(total, balances, strict=True)]
        return tuple(total) if total is not None else None

    @property
    def same(self) -> bool:
        """Whether the record plays and pays the same under both."""
        return all(d.same for d in self.deals) and self.a.totals == self.b.totals

    def as_json(self) -> dict[str, Any]:
        """Returns both replays (each as ``ombre replay --json``) and where they part."""
        units = {"units": list(self.units)} if self.units_differ else {}
        return {
            **units,
            "record": self.record,
            "a": self.a.ruleset,
            "b": self.b.ruleset,
            "names": list(self.names),
            "same": self.same,
            "deals": [d.as_json() for d in self.deals],
            "totals": {"a": self.a.totals, "b": self.b.totals},
            "shared_deals": self.shared,
            "settled_deals": self.settled,
            "shared_totals": {"a": self.shared_totals("a"), "b": self.shared_totals("b")},
            "replays": [self.a.as_json(), self.b.as_json()],
        }


def replay_against(record: Record, own: RuleSet, other: RuleSet) -> SideBySide:
    """Referees ``record`` under its own ruleset and under ``other``.

    :raises RecordError: when the record is malformed, or cannot be set up under one of them
        (hands that do not fit the other pack, an option it does not declare).
    """
    from engine.records import replay

    return SideBySide(
        record.file,
        replay(record, own),
        replay(record, other),
        (own.name, other.name),
        (own.amounts_unit, other.amounts_unit),
    )


def render_text(report: SideBySide) -> str:
    """Returns the side-by-side text (``templates/compare/replay.txt.j2``, fed the typed
    comparison)."""
    from engine.render import render

    return render("compare/replay.txt.j2", "text", r=report)

"""``ombre replay RECORD --ruleset OTHER``: one record refereed under two rule sets, side by side.

The record is refereed under its own ruleset (A) and under another ruleset or variant (B), each
from the same hands and the same actions. For every deal the report says where the two part:

* an action legal under one and refused under the other (the first such action, with the code
  and the rule it breaks), after which that rule set's replay stops;
* a different contract, declarer, partner, trumps or called card (possible only when an action
  is read differently);
* a different result, different tricks, different payments (each seat's balance, and the pot).

The text is rendered by ``templates/compare/replay.txt.j2`` from the typed :class:`SideBySide`;
:meth:`SideBySide.as_json` is the ``--json`` document.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.records import Record, ReplayReport
    from engine.rules.model import RuleSet

__all__ = ["DealComparison", "Difference", "SideBySide", "render_text", "replay_against"]

_COMPARED = ("contract", "declarer", "partners", "trump", "called", "result", "tricks_won")
_MONEY = ("balances", "pot_before", "pot_after", "bete")


@dataclass(frozen=True)
class Difference:
    """A field of a deal's report that the two rule sets answer differently."""

    field: str
    a: Any
    b: Any


@dataclass(frozen=True)
class DealComparison:
    """One deal under both rule sets: what differs, and which side refused an action."""

    deal: int
    differences: tuple[Difference, ...]
    illegal_a: Mapping[str, Any] | None
    """The action refused under the record's own rules in this deal (its replay's error)."""
    illegal_b: Mapping[str, Any] | None
    balance_difference: tuple[int, ...] | None
    """B's balances less A's, seat by seat, when both deals were settled."""
    tricks_same: bool | None
    """Whether the tricks hold the same cards (None when an action was refused)."""
    same: bool

    def as_json(self) -> dict[str, Any]:
        """Returns the deal as in ``ombre replay --ruleset OTHER --json`` (a key left out where
        its value is none)."""
        out: dict[str, Any] = {
            "deal": self.deal,
            "differences": [{"field": d.field, "a": d.a, "b": d.b} for d in self.differences],
        }
        if self.illegal_a is not None:
            out["illegal_a"] = self.illegal_a
        if self.illegal_b is not None:
            out["illegal_b"] = self.illegal_b
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

    def _deal(self, k: int) -> DealComparison:
        da = self.a.deals[k] if k < len(self.a.deals) else None
        db = self.b.deals[k] if k < len(self.b.deals) else None
        illegal = [
            error if error is not None and error.get("deal", 0) == k else None
            for error in (self.a.error, self.b.error)
        ]
        differences = []
        for key in (*_COMPARED, *_MONEY):
            va = da.get(key) if da is not None else None
            vb = db.get(key) if db is not None else None
            if va != vb:
                differences.append(Difference(key, va, vb))
        balance_difference = None
        tricks_same = None
        if da is not None and db is not None:
            ba, bb = da.get("balances"), db.get("balances")
            same_unit = self.units[0] == self.units[1]
            if same_unit and ba is not None and bb is not None and len(ba) == len(bb):
                balance_difference = tuple(y - x for x, y in zip(ba, bb, strict=True))
            if illegal == [None, None]:
                tricks_same = [t["cards"] for t in da["tricks"]] == [
                    t["cards"] for t in db["tricks"]
                ]
        return DealComparison(
            k,
            tuple(differences),
            illegal[0],
            illegal[1],
            balance_difference,
            tricks_same,
            not differences and illegal == [None, None],
        )

    @cached_property
    def deals(self) -> tuple[DealComparison, ...]:
        """Each deal under both rule sets."""
        return tuple(self._deal(k) for k in range(max(len(self.a.deals), len(self.b.deals))))

    @property
    def same(self) -> bool:
        """Whether the record plays and pays the same under both."""
        return all(d.same for d in self.deals) and self.a.totals == self.b.totals

    def as_json(self) -> dict[str, Any]:
        """Returns both replays (each as ``ombre replay --json``) and where they part."""
        units = {"units": list(self.units)} if self.units[0] != self.units[1] else {}
        return {
            **units,
            "record": self.record,
            "a": self.a.ruleset,
            "b": self.b.ruleset,
            "names": list(self.names),
            "same": self.same,
            "deals": [d.as_json() for d in self.deals],
            "totals": {"a": self.a.totals, "b": self.b.totals},
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

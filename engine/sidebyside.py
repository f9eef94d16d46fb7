"""``ombre replay RECORD --ruleset OTHER``: one record refereed under two rule sets, side by side.

The record is refereed under its own ruleset (A) and under another ruleset or variant (B), each
from the same hands and the same actions. For every deal the report says where the two part:

* an action legal under one and refused under the other (the first such action, with the code
  and the rule it breaks), after which that rule set's replay stops;
* a different contract, declarer, partner, trumps or called card (possible only when an action
  is read differently);
* a different result, different tricks, different payments (each seat's balance, and the pot).

The text is rendered by ``templates/compare/replay.txt.j2`` from :meth:`SideBySide.as_json`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.records import Record, ReplayReport
    from engine.rules.model import RuleSet

__all__ = ["SideBySide", "render_text", "replay_against"]

_COMPARED = ("contract", "declarer", "partners", "trump", "called", "result", "tricks_won")
_MONEY = ("balances", "pot_before", "pot_after", "bete")


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

    def _deal(self, k: int) -> dict[str, Any]:
        da = self.a.deals[k] if k < len(self.a.deals) else None
        db = self.b.deals[k] if k < len(self.b.deals) else None
        out: dict[str, Any] = {"deal": k, "differences": []}
        for which, report in (("a", self.a), ("b", self.b)):
            error = report.error
            if error is not None and error.get("deal", 0) == k:
                out[f"illegal_{which}"] = error
        for key in (*_COMPARED, *_MONEY):
            va = da.get(key) if da is not None else None
            vb = db.get(key) if db is not None else None
            if va != vb:
                out["differences"].append({"field": key, "a": va, "b": vb})
        if da is not None and db is not None:
            ba, bb = da.get("balances"), db.get("balances")
            same_unit = self.units[0] == self.units[1]
            if same_unit and ba is not None and bb is not None and len(ba) == len(bb):
                out["balance_difference"] = [y - x for x, y in zip(ba, bb, strict=True)]
        if da is not None and db is not None and not {"illegal_a", "illegal_b"} & set(out):
            out["tricks_same"] = [t["cards"] for t in da["tricks"]] == [
                t["cards"] for t in db["tricks"]
            ]
        out["same"] = not out["differences"] and not any(
            key in out for key in ("illegal_a", "illegal_b")
        )
        return out

    def as_json(self) -> dict[str, Any]:
        """Returns both replays (each as ``ombre replay --json``) and where they part."""
        n = max(len(self.a.deals), len(self.b.deals))
        deals = [self._deal(k) for k in range(n)]
        units = {"units": list(self.units)} if self.units[0] != self.units[1] else {}
        return {
            **units,
            "record": self.record,
            "a": self.a.ruleset,
            "b": self.b.ruleset,
            "names": list(self.names),
            "same": all(d["same"] for d in deals) and self.a.totals == self.b.totals,
            "deals": deals,
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


def render_text(report: dict[str, Any]) -> str:
    """Returns the side-by-side text (``templates/compare/replay.txt.j2``)."""
    from engine.render import render

    return render("compare/replay.txt.j2", "text", r=report)

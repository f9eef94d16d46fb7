"""What a house rule does to the game: two rule sets played on the same deals, compared.

``ombre simulate A --against B -n N`` plays the same seeded deals, with the same bots, under
both rule sets (*paired*: deal ``i`` is shuffled from the same seed under each), and compares:

* how often each contract is the one played, and how often it is won;
* the average balance of each role (declarer, partner, defender) per deal;
* the bêtes made (how often, how large) and the vole (undertaken, made);
* the seats' totals.

Every rate and mean carries a 95 % confidence interval; a difference between the two rule sets
is estimated on the pairs where both have a value (the same deal), which is what makes a small
effect visible in a few thousand deals. The figures are a typed :class:`ComparisonReport`
(:meth:`Comparison.report`); the table, the SVG chart and the HTML page are jinja2 templates
(``templates/compare/``) fed that report, and :meth:`ComparisonReport.as_json` is only the
``--json`` document (:meth:`ComparisonReport.from_json` reads it back, for the effects pages'
cache).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.referee.settlement import outcome_kinds, role_balances

if TYPE_CHECKING:
    from engine.rules.model import RuleSet
    from engine.simulate import Blocks

__all__ = [
    "Bar",
    "Chart",
    "ChartRow",
    "Comparison",
    "ComparisonReport",
    "Confirmation",
    "ContractRates",
    "DealOutcome",
    "Differences",
    "Estimate",
    "LegendKey",
    "Panel",
    "SideFigures",
    "TableRow",
    "Tick",
    "Verdict",
    "chart_data",
    "compare",
    "mean_ci",
    "paired_ci",
    "proportion_ci",
    "render_html",
    "render_svg",
    "render_text",
    "table_rows",
]

Z = 1.959963984540054
"""The normal quantile of a two-sided 95 % interval."""


@dataclass(frozen=True, slots=True)
class DealOutcome:
    """One deal as played and settled, reduced to what the comparison reads."""

    index: int
    result: str
    contract: str | None
    declarer: int | None
    partner: int | None
    balances: tuple[int, ...]
    bete: int
    vole_undertaken: bool
    won: bool
    """The declaring side won: the settlement's outcome kind of the result
    (:attr:`engine.rules.model.OutcomeKind.won`, read off the rule file, never off ``pot:``)."""
    vole_made: bool
    """The side made the vole (:attr:`engine.rules.model.OutcomeKind.vole_made`)."""


@dataclass(frozen=True, slots=True)
class Estimate:
    """A value with its 95 % confidence interval and the number of observations."""

    value: float
    low: float
    high: float
    n: int

    def as_json(self) -> dict[str, float | int]:
        return {
            "value": round(self.value, 4),
            "low": round(self.low, 4),
            "high": round(self.high, 4),
            "n": self.n,
        }

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> Estimate:
        """Returns the estimate of its JSON document (the inverse of :meth:`as_json` on a
        :meth:`rounded` estimate).

        :raises ValueError: for a document that is not an estimate's.
        """
        return Estimate(
            _number(data["value"]), _number(data["low"]), _number(data["high"]), _count(data["n"])
        )

    def rounded(self) -> Estimate:
        """Returns the estimate as the report gives it: the value and bounds to 4 places (what
        the JSON holds, so a report read back from it is the same)."""
        return Estimate(round(self.value, 4), round(self.low, 4), round(self.high, 4), self.n)

    @property
    def excludes_zero(self) -> bool:
        """Checks if the estimate is over some observation and its interval excludes 0 (a
        difference found)."""
        return bool(self.n) and not self.low <= 0 <= self.high


def _number(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"not a number: {value!r}")
    return value


def _count(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"not a count: {value!r}")
    return value


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError(f"not a text: {value!r}")
    return value


def proportion_ci(k: int, n: int) -> Estimate:
    """Returns ``k / n`` with its Wilson score interval (sound near 0 and 1).

    >>> e = proportion_ci(30, 100)
    >>> round(e.value, 2), round(e.low, 3), round(e.high, 3)
    (0.3, 0.219, 0.396)
    """
    if n == 0:
        return Estimate(0.0, 0.0, 0.0, 0)
    p = k / n
    denom = 1 + Z * Z / n
    centre = (p + Z * Z / (2 * n)) / denom
    half = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / denom
    return Estimate(p, max(0.0, centre - half), min(1.0, centre + half), n)


def mean_ci(values: Sequence[float]) -> Estimate:
    """Returns the mean with a normal 95 % interval (the sample standard deviation).

    >>> e = mean_ci([1, 2, 3, 4])
    >>> e.value, round(e.low, 3), round(e.high, 3)
    (2.5, 1.235, 3.765)
    """
    n = len(values)
    if n == 0:
        return Estimate(0.0, 0.0, 0.0, 0)
    mean = sum(values) / n
    if n == 1:
        return Estimate(mean, mean, mean, 1)
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = Z * math.sqrt(var / n)
    return Estimate(mean, mean - half, mean + half, n)


def paired_ci(pairs: Iterable[tuple[float, float]]) -> Estimate:
    """Returns the mean difference ``b - a`` over pairs, with its interval."""
    return mean_ci([b - a for a, b in pairs])


def _roles(deal: DealOutcome) -> dict[str, float]:
    """Returns each role's balance in a deal: declarer, partner, defender (mean per defender),
    from the referee's roles (:func:`engine.referee.settlement.role_balances`)."""
    roles = role_balances(deal.balances, deal.declarer, deal.partner)
    if roles is None:
        return {}
    out: dict[str, float] = {"declarer": roles.declarer}
    if roles.partner is not None:
        out["partner"] = roles.partner
    if roles.defenders:
        out["defender"] = sum(roles.defenders) / len(roles.defenders)
    return out


@dataclass(frozen=True, slots=True)
class ContractRates:
    """One contract under one rule set: how often it is played (over every deal) and won (over
    the deals it is played)."""

    played: Estimate
    won: Estimate

    def as_json(self) -> dict[str, Any]:
        return {"played": self.played.as_json(), "won": self.won.as_json()}

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> ContractRates:
        return ContractRates(Estimate.from_json(data["played"]), Estimate.from_json(data["won"]))


def _estimates(data: Mapping[str, Any]) -> dict[str, Estimate]:
    return {_text(k): Estimate.from_json(v) for k, v in data.items()}


def _json(estimates: Mapping[str, Estimate]) -> dict[str, dict[str, float | int]]:
    return {k: e.as_json() for k, e in estimates.items()}


@dataclass(frozen=True)
class SideFigures:
    """One rule set's figures over the deals played: a side of :class:`ComparisonReport`
    (mappings in the report's order: contracts and results by id, roles declarer, partner,
    defender)."""

    ruleset: str
    name: str
    unit: str
    """The unit of its amounts (:attr:`engine.rules.model.RuleSet.amounts_unit`)."""
    results: Mapping[str, int]
    """How many deals ended in each result, by result id."""
    contracts: Mapping[str, ContractRates]
    declarer_won: Estimate
    """How often the declaring side won, over the deals somebody declared."""
    average_by_role: Mapping[str, Estimate]
    """Each role's average balance per deal (a role left out where no deal has it)."""
    bete_rate: Estimate
    bete_size: Estimate
    """The size of a bête, over the deals that made one."""
    largest_bete: int
    vole_undertaken: Estimate
    vole_made: Estimate
    totals: tuple[int, ...]
    """Each seat's total over the deals."""
    redealt: Estimate = Estimate(0.0, 0.0, 0.0, 0)
    """How often a deal was passed out and dealt again (nobody declared), over every deal.
    Such a deal, in either arm, is left out of both arms' roles and declarer's wins."""

    def as_json(self) -> dict[str, Any]:
        return {
            "ruleset": self.ruleset,
            "name": self.name,
            "unit": self.unit,
            "results": dict(self.results),
            "contracts": {cid: c.as_json() for cid, c in self.contracts.items()},
            "declarer_won": self.declarer_won.as_json(),
            "average_by_role": _json(self.average_by_role),
            "bete_rate": self.bete_rate.as_json(),
            "bete_size": self.bete_size.as_json(),
            "largest_bete": self.largest_bete,
            "vole_undertaken": self.vole_undertaken.as_json(),
            "vole_made": self.vole_made.as_json(),
            "totals": list(self.totals),
            "redealt": self.redealt.as_json(),
        }

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> SideFigures:
        return SideFigures(
            ruleset=_text(data["ruleset"]),
            name=_text(data["name"]),
            unit=_text(data["unit"]),
            results={_text(k): _count(v) for k, v in data["results"].items()},
            contracts={_text(k): ContractRates.from_json(v) for k, v in data["contracts"].items()},
            declarer_won=Estimate.from_json(data["declarer_won"]),
            average_by_role=_estimates(data["average_by_role"]),
            bete_rate=Estimate.from_json(data["bete_rate"]),
            bete_size=Estimate.from_json(data["bete_size"]),
            largest_bete=_count(data["largest_bete"]),
            vole_undertaken=Estimate.from_json(data["vole_undertaken"]),
            vole_made=Estimate.from_json(data["vole_made"]),
            totals=tuple(_count(t) for t in data["totals"]),
            redealt=Estimate.from_json(data["redealt"])
            if "redealt" in data
            else Estimate(0.0, 0.0, 0.0, 0),
        )


@dataclass(frozen=True)
class Differences:
    """The paired differences B - A, deal by deal, over the deals that count under both; and
    how often the two agree (:attr:`same_contract`, :attr:`same_result`)."""

    contracts_played: Mapping[str, Estimate]
    declarer_won: Estimate
    average_by_role: Mapping[str, Estimate]
    """By role; empty where the two sides count in different units (never subtracted)."""
    bete_rate: Estimate
    vole_made: Estimate
    same_contract: Estimate
    same_result: Estimate
    redealt: Estimate = Estimate(0.0, 0.0, 0.0, 0)
    """The paired difference in how often a deal is passed out and dealt again."""

    def tested(self) -> Iterator[tuple[str, Estimate]]:
        """Yields each difference with its path in the JSON report, in the report's order
        (the agreements, ``same_contract`` and ``same_result``, are no differences)."""
        for cid, e in self.contracts_played.items():
            yield f"contracts_played.{cid}", e
        yield "declarer_won", self.declarer_won
        for role, e in self.average_by_role.items():
            yield f"average_by_role.{role}", e
        yield "bete_rate", self.bete_rate
        yield "vole_made", self.vole_made

    def as_json(self) -> dict[str, Any]:
        return {
            "contracts_played": _json(self.contracts_played),
            "declarer_won": self.declarer_won.as_json(),
            "average_by_role": _json(self.average_by_role),
            "bete_rate": self.bete_rate.as_json(),
            "vole_made": self.vole_made.as_json(),
            "same_contract": self.same_contract.as_json(),
            "same_result": self.same_result.as_json(),
            "redealt": self.redealt.as_json(),
        }

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> Differences:
        return Differences(
            contracts_played=_estimates(data["contracts_played"]),
            declarer_won=Estimate.from_json(data["declarer_won"]),
            average_by_role=_estimates(data["average_by_role"]),
            bete_rate=Estimate.from_json(data["bete_rate"]),
            vole_made=Estimate.from_json(data["vole_made"]),
            same_contract=Estimate.from_json(data["same_contract"]),
            same_result=Estimate.from_json(data["same_result"]),
            redealt=Estimate.from_json(data["redealt"])
            if "redealt" in data
            else Estimate(0.0, 0.0, 0.0, 0),
        )


@dataclass(frozen=True, slots=True)
class Verdict:
    """A difference the first run found (its interval excludes 0), checked on the second."""

    path: str
    """Where it is in the JSON report's ``difference`` (``average_by_role.partner``)."""
    first: Estimate
    second: Estimate | None
    """The second run's estimate (None where the second run has no such figure)."""
    confirmed: bool
    """The second run's interval excludes 0 on the same side."""

    @property
    def family(self) -> str:
        """Returns the group of figures it belongs to (``average_by_role``; the figure's own
        name for a figure alone, ``bete_rate``)."""
        return self.path.split(".", 1)[0]

    @property
    def key(self) -> str:
        """Returns the figure's name within its group (``partner``; empty for a figure
        alone)."""
        return self.path.partition(".")[2]

    def as_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "first": self.first.as_json(),
            "second": self.second.as_json() if self.second is not None else None,
            "confirmed": self.confirmed,
        }

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> Verdict:
        second = data["second"]
        confirmed = data["confirmed"]
        if not isinstance(confirmed, bool):
            raise ValueError(f"not a yes or no: {confirmed!r}")
        return Verdict(
            _text(data["path"]),
            Estimate.from_json(data["first"]),
            Estimate.from_json(second) if second is not None else None,
            confirmed,
        )


def _verdicts(first: Differences, second: Differences) -> Iterator[Verdict]:
    """Yields each paired difference of ``first`` whose interval excludes 0, with the second
    run's estimate and whether it excludes 0 on the same side."""
    again = dict(second.tested())
    for path, value in first.tested():
        if not value.excludes_zero:
            continue
        other = again.get(path)
        up = value.low > 0
        ok = other is not None and bool(other.n) and (other.low > 0 if up else other.high < 0)
        yield Verdict(path, value, other, ok)


@dataclass(frozen=True)
class Confirmation:
    """The differences found, checked on a second, independent run (another seed)."""

    seed: int
    deals: int
    differences: tuple[Verdict, ...]

    @property
    def confirmed(self) -> int:
        """Returns how many differences the second run confirms."""
        return sum(1 for f in self.differences if f.confirmed)

    def as_json(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "deals": self.deals,
            "differences": [f.as_json() for f in self.differences],
            "confirmed": self.confirmed,
        }

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> Confirmation:
        found = Confirmation(
            _count(data["seed"]),
            _count(data["deals"]),
            tuple(Verdict.from_json(f) for f in data["differences"]),
        )
        if found.confirmed != data["confirmed"]:
            raise ValueError(f"confirmed {data['confirmed']!r}, but {found.confirmed} are")
        return found


_NOT_COMPARED = ("average_by_role", "bete_size", "totals")
"""The figures in a unit, not compared where the two sides count in different units."""


@dataclass(frozen=True)
class ComparisonReport:
    """The comparison's figures, as every renderer reads them (the text table, the chart, the
    HTML page, the effects pages); :meth:`as_json` is the ``--json`` document, and
    :meth:`from_json` reads one back (``from_json(r.as_json()) == r``). Every estimate is
    :meth:`Estimate.rounded`, as the JSON holds it."""

    a: str
    b: str
    deals: int
    seed: int
    bots: str
    rulesets: tuple[SideFigures, SideFigures]
    difference: Differences
    confirmation: Confirmation | None = None
    """The second run's check of each difference found (None: no second run)."""

    @property
    def units(self) -> tuple[str, str]:
        """Returns each side's unit."""
        return (self.rulesets[0].unit, self.rulesets[1].unit)

    @property
    def units_differ(self) -> bool:
        """Checks if the two sides count in different units (their amounts never compared)."""
        return self.units[0] != self.units[1]

    @property
    def contracts(self) -> list[str]:
        """Returns the contracts either side played, by id."""
        return sorted({c for s in self.rulesets for c in s.contracts})

    def as_json(self) -> dict[str, Any]:
        """Returns the report: each rule set's figures and the paired differences (B - A); with
        a second run, ``confirmation``: each difference whose interval excludes 0, and whether
        the second run's interval excludes 0 on the same side."""
        out: dict[str, Any] = {
            "a": self.a,
            "b": self.b,
            "deals": self.deals,
            "seed": self.seed,
            "bots": self.bots,
            "paired": True,
            "confidence": 0.95,
            "rulesets": [s.as_json() for s in self.rulesets],
            "difference": self.difference.as_json(),
        }
        if self.units_differ:
            out["units_differ"] = {"units": list(self.units), "not_compared": list(_NOT_COMPARED)}
        if self.confirmation is not None:
            out["confirmation"] = self.confirmation.as_json()
        return out

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> ComparisonReport:
        """Returns the report of its JSON document (:meth:`as_json`).

        :raises ValueError: for a document that is not a comparison's report (and KeyError,
            TypeError for one that lacks a part or holds the wrong kind of value).
        """
        first, second = data["rulesets"]
        confirmation = data.get("confirmation")
        report = ComparisonReport(
            a=_text(data["a"]),
            b=_text(data["b"]),
            deals=_count(data["deals"]),
            seed=_count(data["seed"]),
            bots=_text(data["bots"]),
            rulesets=(SideFigures.from_json(first), SideFigures.from_json(second)),
            difference=Differences.from_json(data["difference"]),
            confirmation=Confirmation.from_json(confirmation) if confirmation is not None else None,
        )
        if report.units_differ != ("units_differ" in data):
            raise ValueError("units_differ does not match the sides' units")
        return report


@dataclass(frozen=True)
class Comparison:
    """Two rule sets played on the same deals; :meth:`report` is their figures."""

    a: str
    b: str
    names: tuple[str, str]
    deals: int
    seed: int
    bots: str
    outcomes: tuple[tuple[DealOutcome, ...], tuple[DealOutcome, ...]]
    check: Comparison | None = None
    """The same comparison on a second, independent run (another seed): what it confirms."""
    units: tuple[str, str] = ("", "")
    """The unit of each side's amounts (:attr:`engine.rules.model.RuleSet.amounts_unit`): where
    they differ, the balances and bêtes are reported each in its own unit and never compared;
    only the unit-free figures (rates) are."""

    @property
    def same_unit(self) -> bool:
        """Checks if both sides' amounts are in one unit (so they may be compared)."""
        return self.units[0] == self.units[1]

    def _side(self, which: int) -> SideFigures:
        deals = self.outcomes[which]
        other = self.outcomes[1 - which]
        n = len(deals)
        contracts: dict[str, ContractRates] = {}
        for cid in sorted({d.contract for d in deals if d.contract is not None}):
            played = [d for d in deals if d.contract == cid]
            contracts[cid] = ContractRates(
                proportion_ci(len(played), n).rounded(),
                proportion_ci(sum(d.won for d in played), len(played)).rounded(),
            )
        roles: dict[str, list[float]] = {"declarer": [], "partner": [], "defender": []}
        # The same deals in both arms: a role's balance counts where the deal has that role
        # under both rule sets (a deal passed out in one arm is out of both, and counted in
        # the redealt row).
        for d, o in zip(deals, other, strict=True):
            theirs = _roles(o)
            for role, value in _roles(d).items():
                if role in theirs:
                    roles[role].append(value)
        betes = [d.bete for d in deals if d.bete]
        results: dict[str, int] = {}
        for d in deals:
            results[d.result] = results.get(d.result, 0) + 1
        totals = [0] * max((len(d.balances) for d in deals), default=0)
        for d in deals:
            for seat, amount in enumerate(d.balances):
                totals[seat] += amount
        declared = [
            d for d, o in zip(deals, other, strict=True) if None not in (d.declarer, o.declarer)
        ]
        redealt = sum(d.declarer is None for d in deals)
        return SideFigures(
            ruleset=(self.a, self.b)[which],
            name=self.names[which],
            unit=self.units[which],
            results=dict(sorted(results.items())),
            contracts=contracts,
            declarer_won=proportion_ci(sum(d.won for d in declared), len(declared)).rounded(),
            average_by_role={r: mean_ci(v).rounded() for r, v in roles.items() if v},
            bete_rate=proportion_ci(len(betes), n).rounded(),
            bete_size=mean_ci(betes).rounded(),
            largest_bete=max(betes, default=0),
            vole_undertaken=proportion_ci(sum(d.vole_undertaken for d in deals), n).rounded(),
            vole_made=proportion_ci(sum(d.vole_made for d in deals), n).rounded(),
            totals=tuple(totals),
            redealt=proportion_ci(redealt, n).rounded(),
        )

    def _differences(self) -> Differences:
        a, b = self.outcomes
        pairs = list(zip(a, b, strict=True))
        contracts = sorted({d.contract for d in (*a, *b) if d.contract is not None})
        played = {
            cid: paired_ci(
                (float(x.contract == cid), float(y.contract == cid)) for x, y in pairs
            ).rounded()
            for cid in contracts
        }
        roles: dict[str, Estimate] = {}
        # Balances in different units (points and counters) are never subtracted.
        for role in ("declarer", "partner", "defender") if self.same_unit else ():
            both = [(_roles(x).get(role), _roles(y).get(role)) for x, y in pairs]
            kept = [(p, q) for p, q in both if p is not None and q is not None]
            if kept:
                roles[role] = paired_ci(kept).rounded()
        declared = [(x, y) for x, y in pairs if x.declarer is not None and y.declarer is not None]
        return Differences(
            contracts_played=played,
            declarer_won=paired_ci((float(x.won), float(y.won)) for x, y in declared).rounded(),
            average_by_role=roles,
            bete_rate=paired_ci((float(x.bete > 0), float(y.bete > 0)) for x, y in pairs).rounded(),
            vole_made=paired_ci(
                (float(x.vole_made), float(y.vole_made)) for x, y in pairs
            ).rounded(),
            same_contract=proportion_ci(
                sum(x.contract == y.contract for x, y in pairs), len(pairs)
            ).rounded(),
            same_result=proportion_ci(
                sum(x.result == y.result for x, y in pairs), len(pairs)
            ).rounded(),
            redealt=paired_ci(
                (float(x.declarer is None), float(y.declarer is None)) for x, y in pairs
            ).rounded(),
        )

    def report(self) -> ComparisonReport:
        """Returns the figures: each rule set's, the paired differences (B - A) and, with a
        second run, each difference found checked on it."""
        difference = self._differences()
        confirmation = None
        if self.check is not None:
            found = tuple(_verdicts(difference, self.check._differences()))
            confirmation = Confirmation(self.check.seed, self.check.deals, found)
        return ComparisonReport(
            self.a,
            self.b,
            self.deals,
            self.seed,
            self.bots,
            (self._side(0), self._side(1)),
            difference,
            confirmation,
        )

    def as_json(self) -> dict[str, Any]:
        """Returns the ``--json`` document (:meth:`ComparisonReport.as_json`)."""
        return self.report().as_json()


PlayFn = Callable[..., list[DealOutcome]]


def play(
    rules: RuleSet,
    options: Mapping[str, str],
    deals: int,
    seed: int,
    bots: str,
    *,
    jobs: int = 1,
    blocks: Blocks | None = None,
) -> list[DealOutcome]:
    """Plays ``deals`` deals as one party with bots in every seat (the pot carrying over), on
    ``jobs`` processes: :func:`engine.simulate.settled_deals`, the driver of ``ombre simulate``.

    Deal ``i`` is shuffled from the seed :func:`engine.seeds.deal_seed` ``(seed, i)`` and the
    bots draw from the same generators,
    as ``ombre simulate --seed`` plays them, so two rule sets with the same pack get the same
    hands, and the result is the same for any ``jobs``. ``bots``: one kind for every seat, or
    one per seat (``random,heuristic,…``). ``blocks``: where the blocks are played instead
    (a cluster, :mod:`engine.cluster`), the result the same.
    """
    from engine.bots import BOTS
    from engine.simulate import Setup, parse_bots, settled_deals

    setup = Setup(rules, parse_bots(bots, rules.players, BOTS), seed, options)
    kinds = outcome_kinds(rules)  # the referee's reading of each result: won, vole made ...
    out: list[DealOutcome] = []
    for index, played, s in settled_deals(setup, deals, jobs=jobs, blocks=blocks):
        o = played.outcome
        out.append(
            DealOutcome(
                index=index,
                result=o.result,
                contract=o.contract,
                declarer=o.declarer,
                partner=o.partner,
                balances=s.balances,
                bete=s.bete,
                vole_undertaken=played.vole_undertaken,
                won=kinds[o.result].won,
                vole_made=kinds[o.result].vole_made,
            )
        )
    return out


def compare(
    a: RuleSet,
    b: RuleSet,
    deals: int,
    *,
    seed: int = 1,
    bots: str = "heuristic",
    options_a: Mapping[str, str] | None = None,
    options_b: Mapping[str, str] | None = None,
    player: PlayFn | None = None,
    jobs: int = 1,
    blocks: Blocks | None = None,
    confirm: bool = True,
    confirm_seed: int | None = None,
) -> Comparison:
    """Plays the same ``deals`` deals under ``a`` and ``b`` and returns the comparison (the same
    for any number of worker processes ``jobs``, and played on a cluster, ``blocks``).

    :param confirm: also play a second run of ``deals`` other deals that checks each
        difference found (:attr:`Comparison.check`).
    :param confirm_seed: its seed (default ``seed + 1``: deal seeds are mixed, so the two runs
        share no deal, :mod:`engine.seeds`).
    """
    run = player or play
    first = run(a, options_a or {}, deals, seed, bots, jobs=jobs, blocks=blocks)
    second = run(b, options_b or {}, deals, seed, bots, jobs=jobs, blocks=blocks)
    check = None
    if confirm:
        other = seed + 1 if confirm_seed is None else confirm_seed
        check = compare(
            a,
            b,
            deals,
            seed=other,
            bots=bots,
            options_a=options_a,
            options_b=options_b,
            player=player,
            jobs=jobs,
            blocks=blocks,
            confirm=False,
        )
    return Comparison(
        a.id,
        b.id,
        (a.name, b.name),
        deals,
        seed,
        bots,
        (tuple(first), tuple(second)),
        check,
        (a.amounts_unit, b.amounts_unit),
    )


# Presentation: the table, the chart and the page are jinja2 templates fed the typed report.

_COLOURS = ("#7a3b2e", "#2e5a7a")
_LEFT, _PLOT, _ROW = 210, 500, 30
_NONE = Estimate(0.0, 0.0, 0.0, 0)
"""The estimate of a figure a side does not have (shown as a dash)."""


@dataclass(frozen=True, slots=True)
class Bar:
    """One side's bar in a row of the chart: the value from the axis, the interval's whiskers
    (in pixels), and its tooltip."""

    name: str
    x: float
    width: float
    y: int
    low: float
    high: float
    colour: str
    text: str


@dataclass(frozen=True, slots=True)
class ChartRow:
    """One figure of a panel (a contract, a role, ...), a bar for each side that has it."""

    label: str
    y: int
    bars: tuple[Bar, ...]


@dataclass(frozen=True, slots=True)
class Tick:
    """A mark on a panel's scale."""

    x: float
    label: str


@dataclass(frozen=True, slots=True)
class Panel:
    """One panel of the chart: its figures on one scale."""

    title: str
    top: int
    axis: float
    """Where 0 is, in pixels."""
    bottom: int
    rows: tuple[ChartRow, ...]
    ticks: tuple[Tick, ...]


@dataclass(frozen=True, slots=True)
class LegendKey:
    """A side's colour in the legend."""

    x: int
    colour: str
    text: str


@dataclass(frozen=True, slots=True)
class Chart:
    """The comparison's chart, laid out: what ``templates/compare/chart.svg.j2`` draws."""

    width: int
    height: int
    left: int
    title: str
    subtitle: str
    desc: str
    legend: tuple[LegendKey, ...]
    panels: tuple[Panel, ...]


def _ticks(low: float, high: float, percent: bool) -> list[float]:
    span = high - low
    raw = span / 5 if span > 0 else 1.0
    step = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if raw <= factor * step:
            step *= factor
            break
    first = math.ceil(low / step) * step
    out = []
    value = first
    while value <= high + 1e-9:
        out.append(round(value, 10))
        value += step
    return out


_PanelSpec = tuple[str, bool, list[tuple[str, list[Estimate | None]]]]
"""A panel before it is drawn: its title, whether its values are rates, and its rows (a label
and each side's estimate)."""


def _balance_panels(report: ComparisonReport) -> list[_PanelSpec]:
    """The balance panels: one for both sides where they count in the same unit, else one for
    each side's (balances in different units are not drawn on one scale)."""
    sides = report.rulesets
    units = [s.unit or "counters" for s in sides]
    return [
        (
            "Average balance per deal, by role ("
            + ("points" if units[0] == "points" else "counters")
            + ")"
            if units[0] == units[1]
            else f"Average balance per deal, by role: {side.ruleset} only ({unit})",
            False,
            [
                (
                    role,
                    [
                        s.average_by_role.get(role) if k in shown else None
                        for k, s in enumerate(sides)
                    ],
                )
                for role in ("declarer", "partner", "defender")
                if any(role in s.average_by_role for s in sides)
            ],
        )
        for shown, side, unit in (
            [((0, 1), sides[0], units[0])]
            if units[0] == units[1]
            else [((0,), sides[0], units[0]), ((1,), sides[1], units[1])]
        )
    ]


def _panel_specs(report: ComparisonReport) -> list[_PanelSpec]:
    """Every panel of the chart, in order: contracts played, won, the balances, bêtes and
    voles."""
    sides = report.rulesets
    contracts = report.contracts

    def played(s: SideFigures, cid: str) -> Estimate | None:
        return s.contracts[cid].played if cid in s.contracts else None

    def won(s: SideFigures, cid: str) -> Estimate | None:
        return s.contracts[cid].won if cid in s.contracts else None

    return [
        (
            "How often each contract is played",
            True,
            [(c, [played(s, c) for s in sides]) for c in contracts],
        ),
        (
            "How often it is won",
            True,
            [(c, [won(s, c) for s in sides]) for c in contracts]
            + [("any contract", [s.declarer_won for s in sides])],
        ),
        *_balance_panels(report),
        (
            "Bêtes and voles",
            True,
            [
                ("bête made", [s.bete_rate for s in sides]),
                ("vole made", [s.vole_made for s in sides]),
            ],
        ),
    ]


def _panel(spec: _PanelSpec, top: int, sides: Sequence[SideFigures]) -> Panel:
    """Draws one panel at ``top``: its scale, each row's bars with their whiskers, the ticks."""
    title, percent, rows = spec
    values = [v for _, pair in rows for e in pair if e is not None and e.n for v in (e.low, e.high)]
    low = min([0.0, *values])
    high = max([0.0, *values]) or 1.0
    if percent:
        low, high = 0.0, max(high, 0.05)
    span = high - low or 1.0

    def x(v: float) -> float:
        return round(_LEFT + (v - low) / span * _PLOT, 1)

    axis = x(max(low, 0.0))
    drawn = []
    for i, (label, pair) in enumerate(rows):
        y = 24 + i * _ROW
        bars = []
        for k, e in enumerate(pair):
            if e is None or not e.n:
                continue
            end = x(e.value)
            text = (
                f"{100 * e.value:.1f}% (95% {100 * e.low:.1f}-{100 * e.high:.1f}%, n={e.n})"
                if percent
                else f"{e.value:+.2f} (95% {e.low:+.2f} to {e.high:+.2f}, n={e.n})"
            )
            bars.append(
                Bar(
                    name=f"{'AB'[k]} {sides[k].ruleset}",
                    x=min(axis, end),
                    width=round(abs(end - axis), 1),
                    y=y + 2 + 12 * k,
                    low=x(e.low),
                    high=x(e.high),
                    colour=_COLOURS[k],
                    text=text,
                )
            )
        drawn.append(ChartRow(label, y, tuple(bars)))
    bottom = 24 + len(rows) * _ROW
    ticks = tuple(
        Tick(x(t), f"{100 * t:.0f}%" if percent else f"{t:g}") for t in _ticks(low, high, percent)
    )
    return Panel(title, top, axis, bottom, tuple(drawn), ticks)


def chart_data(report: ComparisonReport) -> Chart:
    """Returns the chart's panels with their scales in pixels, from the report."""
    sides = report.rulesets
    panels = []
    top = 72
    for spec in _panel_specs(report):
        panel = _panel(spec, top, sides)
        panels.append(panel)
        top += panel.bottom + 36
    a, b = report.a, report.b
    return Chart(
        width=_LEFT + _PLOT + 40,
        height=top,
        left=_LEFT,
        title=f"{sides[0].name} against {sides[1].name}",
        subtitle=(
            f"{report.deals} deals, the same under both (seed {report.seed}, "
            f"{report.bots} bots); bars: value, whiskers: 95% interval"
        ),
        desc=(
            f"Paired simulation of {a} (A) and {b} (B): contracts played and won, average "
            "balance by role, bêtes and voles, with 95% confidence intervals."
        ),
        legend=(
            LegendKey(_LEFT, _COLOURS[0], f"A {a}"),
            LegendKey(_LEFT + 250, _COLOURS[1], f"B {b}"),
        ),
        panels=tuple(panels),
    )


def render_text(report: ComparisonReport) -> str:
    """Returns the comparison as a text table (``templates/compare/simulate.txt.j2``)."""
    from engine.render import render

    return render("compare/simulate.txt.j2", "text", r=report, none_est=_NONE)


def render_svg(report: ComparisonReport) -> str:
    """Returns the comparison as an SVG chart (``templates/compare/chart.svg.j2``)."""
    from engine.render import render

    return render("compare/chart.svg.j2", "svg", c=chart_data(report))


def _fmt(e: Estimate | None, percent: bool, signed: bool = True) -> str:
    if e is None or not e.n:
        return "–"
    n = f" (n {e.n})"
    if percent:
        return f"{100 * e.value:.1f}% [{100 * e.low:.1f}, {100 * e.high:.1f}]{n}"
    if signed:
        return f"{e.value:+.2f} [{e.low:+.2f}, {e.high:+.2f}]{n}"
    return f"{e.value:.2f} [{e.low:.2f}, {e.high:.2f}]{n}"


@dataclass(frozen=True, slots=True)
class TableRow:
    """One row of the comparison's table, formatted: the figure, A, B and B - A."""

    label: str
    a: str
    b: str
    diff: str


def table_rows(report: ComparisonReport) -> list[TableRow]:
    """Returns the comparison's rows (label, A, B, B - A), formatted, for the HTML page and
    the effects pages."""
    a, b = report.rulesets
    d = report.difference
    rows: list[TableRow] = []

    def row(
        label: str,
        ea: Estimate | None,
        eb: Estimate | None,
        ed: Estimate | None = None,
        percent: bool = True,
        signed: bool = True,
    ) -> None:
        rows.append(
            TableRow(
                label,
                _fmt(ea, percent, signed),
                _fmt(eb, percent, signed),
                _fmt(ed, percent, signed) if ed is not None else "",
            )
        )

    for cid in report.contracts:
        ca, cb = a.contracts.get(cid), b.contracts.get(cid)
        row(
            f"{cid} played",
            ca.played if ca is not None else None,
            cb.played if cb is not None else None,
            d.contracts_played.get(cid),
        )
        row(f"{cid} won", ca.won if ca is not None else None, cb.won if cb is not None else None)
    row("declaring side won", a.declarer_won, b.declarer_won, d.declarer_won)
    for role in ("declarer", "partner", "defender"):
        if role in a.average_by_role or role in b.average_by_role:
            unit = f" ({a.unit} / {b.unit})" if report.units_differ else ""
            row(
                f"{role}, per deal{unit}",
                a.average_by_role.get(role),
                b.average_by_role.get(role),
                d.average_by_role.get(role),
                percent=False,
            )
    row("bête made", a.bete_rate, b.bete_rate, d.bete_rate)
    row("bête size (when made)", a.bete_size, b.bete_size, percent=False, signed=False)
    row("vole undertaken", a.vole_undertaken, b.vole_undertaken)
    row("vole made", a.vole_made, b.vole_made, d.vole_made)
    rows.append(TableRow("same contract, same deal", "", "", _fmt(d.same_contract, True)))
    rows.append(TableRow("same result, same deal", "", "", _fmt(d.same_result, True)))
    return rows


def render_html(report: ComparisonReport) -> str:
    """Returns the comparison as a self-contained HTML page: the table and the chart inline."""
    from pathlib import Path

    from markupsafe import Markup

    from engine.render import render, templates_dir

    a, b = report.rulesets
    return render(
        "compare/simulate.html.j2",
        "html",
        title=f"{a.name} against {b.name}",
        report=report,
        rows=table_rows(report),
        svg=Markup(render_svg(report)),
        chart_caption="Bars: the value; whiskers: its 95 % interval.",
        root="",
        inline_css=(Path(templates_dir()) / "style.css").read_text(encoding="utf-8"),
    )

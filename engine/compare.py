"""What a house rule does to the game: two rule sets played on the same deals, compared.

``ombre simulate A --against B -n N`` plays the same seeded deals, with the same bots, under
both rule sets (*paired*: deal ``i`` is shuffled from the same seed under each), and compares:

* how often each contract is the one played, and how often it is won;
* the average balance of each role (declarer, partner, defender) per deal;
* the bêtes made (how often, how large) and the vole (undertaken, made);
* the seats' totals.

Every rate and mean carries a 95 % confidence interval; a difference between the two rule sets
is estimated on the pairs where both have a value (the same deal), which is what makes a small
effect visible in a few thousand deals. The table and the SVG chart are rendered by jinja2
templates (``templates/compare/``) from :meth:`Comparison.as_json`, the JSON document.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.referee.settlement import outcome_kinds, role_balances

if TYPE_CHECKING:
    from engine.rules.model import RuleSet

__all__ = [
    "Comparison",
    "DealOutcome",
    "Estimate",
    "compare",
    "mean_ci",
    "paired_ci",
    "proportion_ci",
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
    """The declaring side won (the rule file's outcome gives it the pot)."""
    vole_made: bool


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


@dataclass(frozen=True)
class Comparison:
    """Two rule sets played on the same deals; :meth:`as_json` is the report."""

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

    def _side(self, which: int) -> dict[str, Any]:
        deals = self.outcomes[which]
        n = len(deals)
        contracts: dict[str, dict[str, Any]] = {}
        for cid in sorted({d.contract for d in deals if d.contract is not None}):
            played = [d for d in deals if d.contract == cid]
            contracts[cid] = {
                "played": proportion_ci(len(played), n).as_json(),
                "won": proportion_ci(sum(d.won for d in played), len(played)).as_json(),
            }
        roles: dict[str, list[float]] = {"declarer": [], "partner": [], "defender": []}
        for d in deals:
            for role, value in _roles(d).items():
                roles[role].append(value)
        betes = [d.bete for d in deals if d.bete]
        results: dict[str, int] = {}
        for d in deals:
            results[d.result] = results.get(d.result, 0) + 1
        totals = [0] * max((len(d.balances) for d in deals), default=0)
        for d in deals:
            for seat, amount in enumerate(d.balances):
                totals[seat] += amount
        declared = [d for d in deals if d.declarer is not None]
        return {
            "ruleset": (self.a, self.b)[which],
            "name": self.names[which],
            "unit": self.units[which],
            "results": dict(sorted(results.items())),
            "contracts": contracts,
            "declarer_won": proportion_ci(sum(d.won for d in declared), len(declared)).as_json(),
            "average_by_role": {r: mean_ci(v).as_json() for r, v in roles.items() if v},
            "bete_rate": proportion_ci(len(betes), n).as_json(),
            "bete_size": mean_ci(betes).as_json(),
            "largest_bete": max(betes, default=0),
            "vole_undertaken": proportion_ci(sum(d.vole_undertaken for d in deals), n).as_json(),
            "vole_made": proportion_ci(sum(d.vole_made for d in deals), n).as_json(),
            "totals": totals,
        }

    def _differences(self) -> dict[str, Any]:
        a, b = self.outcomes
        pairs = list(zip(a, b, strict=True))
        contracts = sorted({d.contract for d in (*a, *b) if d.contract is not None})
        played = {
            cid: paired_ci(
                (float(x.contract == cid), float(y.contract == cid)) for x, y in pairs
            ).as_json()
            for cid in contracts
        }
        roles: dict[str, Any] = {}
        # Balances in different units (points and counters) are never subtracted.
        for role in ("declarer", "partner", "defender") if self.same_unit else ():
            both = [(_roles(x).get(role), _roles(y).get(role)) for x, y in pairs]
            kept = [(p, q) for p, q in both if p is not None and q is not None]
            if kept:
                roles[role] = paired_ci(kept).as_json()
        declared = [(x, y) for x, y in pairs if x.declarer is not None and y.declarer is not None]
        return {
            "contracts_played": played,
            "declarer_won": paired_ci((float(x.won), float(y.won)) for x, y in declared).as_json(),
            "average_by_role": roles,
            "bete_rate": paired_ci(
                (float(x.bete > 0), float(y.bete > 0)) for x, y in pairs
            ).as_json(),
            "vole_made": paired_ci(
                (float(x.vole_made), float(y.vole_made)) for x, y in pairs
            ).as_json(),
            "same_contract": proportion_ci(
                sum(x.contract == y.contract for x, y in pairs), len(pairs)
            ).as_json(),
            "same_result": proportion_ci(
                sum(x.result == y.result for x, y in pairs), len(pairs)
            ).as_json(),
        }

    def as_json(self) -> dict[str, Any]:
        """Returns the report: each rule set's figures and the paired differences (B - A); with
        a second run, ``confirmation``: each difference whose interval excludes 0, and whether
        the second run's interval excludes 0 on the same side."""
        difference = self._differences()
        out: dict[str, Any] = {
            "a": self.a,
            "b": self.b,
            "deals": self.deals,
            "seed": self.seed,
            "bots": self.bots,
            "paired": True,
            "confidence": 0.95,
            "rulesets": [self._side(0), self._side(1)],
            "difference": difference,
        }
        if not self.same_unit:
            out["units_differ"] = {
                "units": list(self.units),
                "not_compared": ["average_by_role", "bete_size", "totals"],
            }
        if self.check is not None:
            again = self.check._differences()
            found = list(_verdicts(difference, again))
            out["confirmation"] = {
                "seed": self.check.seed,
                "deals": self.check.deals,
                "differences": found,
                "confirmed": sum(1 for f in found if f["confirmed"]),
            }
        return out


_NOT_DIFFERENCES = frozenset({"same_contract", "same_result"})


def _verdicts(
    first: Mapping[str, Any], second: Mapping[str, Any], path: str = ""
) -> Iterable[dict[str, Any]]:
    """Yields each paired difference of ``first`` whose interval excludes 0, with the second
    run's estimate and whether it excludes 0 on the same side."""
    for key, value in first.items():
        if key in _NOT_DIFFERENCES or not isinstance(value, Mapping):
            continue
        where = f"{path}.{key}" if path else key
        other = second.get(key) if isinstance(second, Mapping) else None
        if "value" in value and "low" in value:
            if not value.get("n") or value["low"] <= 0 <= value["high"]:
                continue
            up = value["low"] > 0
            ok = (
                isinstance(other, Mapping)
                and bool(other.get("n"))
                and (other["low"] > 0 if up else other["high"] < 0)
            )
            yield {"path": where, "first": dict(value), "second": other, "confirmed": ok}
        else:
            yield from _verdicts(value, other or {}, where)


PlayFn = Callable[..., list[DealOutcome]]


def play(
    rules: RuleSet,
    options: Mapping[str, str],
    deals: int,
    seed: int,
    bots: str,
    *,
    jobs: int = 1,
) -> list[DealOutcome]:
    """Plays ``deals`` deals as one party with bots in every seat (the pot carrying over), on
    ``jobs`` processes: :func:`engine.simulate.settled_deals`, the driver of ``ombre simulate``.

    Deal ``i`` is shuffled from the seed :func:`engine.seeds.deal_seed` ``(seed, i)`` and the
    bots draw from the same generators,
    as ``ombre simulate --seed`` plays them, so two rule sets with the same pack get the same
    hands, and the result is the same for any ``jobs``. ``bots``: one kind for every seat, or
    one per seat (``random,heuristic,…``).
    """
    from engine.bots import BOTS
    from engine.simulate import Setup, parse_bots, settled_deals

    setup = Setup(rules, parse_bots(bots, rules.players, BOTS), seed, options)
    kinds = outcome_kinds(rules)  # the referee's reading of each result: won, vole made ...
    out: list[DealOutcome] = []
    for index, played, s in settled_deals(setup, deals, jobs=jobs):
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
    confirm: bool = True,
    confirm_seed: int | None = None,
) -> Comparison:
    """Plays the same ``deals`` deals under ``a`` and ``b`` and returns the comparison (the same
    for any number of worker processes ``jobs``).

    :param confirm: also play a second run of ``deals`` other deals that checks each
        difference found (:attr:`Comparison.check`).
    :param confirm_seed: its seed (default ``seed + 1``: deal seeds are mixed, so the two runs
        share no deal, :mod:`engine.seeds`).
    """
    run = player or play
    first = run(a, options_a or {}, deals, seed, bots, jobs=jobs)
    second = run(b, options_b or {}, deals, seed, bots, jobs=jobs)
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


# Presentation: the table and the chart are jinja2 templates fed from the JSON document.

_COLOURS = ("#7a3b2e", "#2e5a7a")
_LEFT, _PLOT, _ROW = 210, 500, 30


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


def chart_data(report: Mapping[str, Any]) -> dict[str, Any]:
    """Returns the chart's panels with their scales in pixels, from :meth:`Comparison.as_json`."""
    sides = report["rulesets"]
    contracts = sorted({c for s in sides for c in s["contracts"]})
    units = [s.get("unit") or "counters" for s in sides]
    # Balances in different units are not drawn on one scale: one panel for each side's.
    balance_panels = [
        (
            "Average balance per deal, by role ("
            + ("points" if units[0] == "points" else "counters")
            + ")"
            if units[0] == units[1]
            else f"Average balance per deal, by role: {side['ruleset']} only ({unit})",
            False,
            [
                (
                    role,
                    [
                        s["average_by_role"].get(role) if k in shown else None
                        for k, s in enumerate(sides)
                    ],
                )
                for role in ("declarer", "partner", "defender")
                if any(role in s["average_by_role"] for s in sides)
            ],
        )
        for shown, side, unit in (
            [((0, 1), sides[0], units[0])]
            if units[0] == units[1]
            else [((0,), sides[0], units[0]), ((1,), sides[1], units[1])]
        )
    ]
    panels_spec: list[tuple[str, bool, list[tuple[str, list[Any]]]]] = [
        (
            "How often each contract is played",
            True,
            [(c, [s["contracts"].get(c, {}).get("played") for s in sides]) for c in contracts],
        ),
        (
            "How often it is won",
            True,
            [(c, [s["contracts"].get(c, {}).get("won") for s in sides]) for c in contracts]
            + [("any contract", [s["declarer_won"] for s in sides])],
        ),
        *balance_panels,
        (
            "Bêtes and voles",
            True,
            [
                ("bête made", [s["bete_rate"] for s in sides]),
                ("vole made", [s["vole_made"] for s in sides]),
            ],
        ),
    ]
    panels = []
    top = 72
    for title, percent, rows in panels_spec:
        values = [
            v for _, pair in rows for e in pair if e and e["n"] for v in (e["low"], e["high"])
        ]
        low = min([0.0, *values])
        high = max([0.0, *values]) or 1.0
        if percent:
            low, high = 0.0, max(high, 0.05)
        span = high - low or 1.0

        def x(v: float, low: float = low, span: float = span) -> float:
            return round(_LEFT + (v - low) / span * _PLOT, 1)

        axis = x(max(low, 0.0))
        drawn = []
        for i, (label, pair) in enumerate(rows):
            y = 24 + i * _ROW
            bars = []
            for k, e in enumerate(pair):
                if not e or not e["n"]:
                    continue
                end = x(e["value"])
                text = (
                    f"{100 * e['value']:.1f}% (95% {100 * e['low']:.1f}-{100 * e['high']:.1f}%, n={e['n']})"
                    if percent
                    else f"{e['value']:+.2f} (95% {e['low']:+.2f} to {e['high']:+.2f}, n={e['n']})"
                )
                bars.append(
                    {
                        "name": f"{'AB'[k]} {sides[k]['ruleset']}",
                        "x": min(axis, end),
                        "width": round(abs(end - axis), 1),
                        "y": y + 2 + 12 * k,
                        "low": x(e["low"]),
                        "high": x(e["high"]),
                        "colour": _COLOURS[k],
                        "text": text,
                    }
                )
            drawn.append({"label": label, "y": y, "bars": bars})
        bottom = 24 + len(rows) * _ROW
        ticks = [
            {"x": x(t), "label": f"{100 * t:.0f}%" if percent else f"{t:g}"}
            for t in _ticks(low, high, percent)
        ]
        panels.append(
            {
                "title": title,
                "top": top,
                "axis": axis,
                "bottom": bottom,
                "rows": drawn,
                "ticks": ticks,
            }
        )
        top += bottom + 36
    a, b = report["a"], report["b"]
    return {
        "width": _LEFT + _PLOT + 40,
        "height": top,
        "left": _LEFT,
        "title": f"{sides[0]['name']} against {sides[1]['name']}",
        "subtitle": (
            f"{report['deals']} deals, the same under both (seed {report['seed']}, "
            f"{report['bots']} bots); bars: value, whiskers: 95% interval"
        ),
        "desc": (
            f"Paired simulation of {a} (A) and {b} (B): contracts played and won, average "
            "balance by role, bêtes and voles, with 95% confidence intervals."
        ),
        "legend": [
            {"x": _LEFT, "colour": _COLOURS[0], "text": f"A {a}"},
            {"x": _LEFT + 250, "colour": _COLOURS[1], "text": f"B {b}"},
        ],
        "panels": panels,
    }


def render_text(report: Mapping[str, Any]) -> str:
    """Returns the comparison as a text table (``templates/compare/simulate.txt.j2``)."""
    from engine.render import render

    contracts = sorted({c for s in report["rulesets"] for c in s["contracts"]})
    empty = {"value": 0.0, "low": 0.0, "high": 0.0, "n": 0}
    return render("compare/simulate.txt.j2", "text", r=report, contracts=contracts, none_est=empty)


def render_svg(report: Mapping[str, Any]) -> str:
    """Returns the comparison as an SVG chart (``templates/compare/chart.svg.j2``)."""
    from engine.render import render

    return render("compare/chart.svg.j2", "svg", c=chart_data(report))


def _fmt(e: Mapping[str, Any] | None, percent: bool, signed: bool = True) -> str:
    if not e or not e.get("n"):
        return "–"
    n = f" (n {e['n']})"
    if percent:
        return f"{100 * e['value']:.1f}% [{100 * e['low']:.1f}, {100 * e['high']:.1f}]{n}"
    if signed:
        return f"{e['value']:+.2f} [{e['low']:+.2f}, {e['high']:+.2f}]{n}"
    return f"{e['value']:.2f} [{e['low']:.2f}, {e['high']:.2f}]{n}"


def table_rows(report: Mapping[str, Any]) -> list[dict[str, str]]:
    """Returns the comparison's rows (label, A, B, B - A), formatted, for the HTML page."""
    a, b = report["rulesets"]
    d = report["difference"]
    rows: list[dict[str, str]] = []

    def row(label: str, ea: Any, eb: Any, ed: Any = None, percent: bool = True, **kw: Any) -> None:
        rows.append(
            {
                "label": label,
                "a": _fmt(ea, percent, **kw),
                "b": _fmt(eb, percent, **kw),
                "diff": _fmt(ed, percent, **kw) if ed is not None else "",
            }
        )

    for cid in sorted({c for s in (a, b) for c in s["contracts"]}):
        ca, cb = a["contracts"].get(cid, {}), b["contracts"].get(cid, {})
        row(f"{cid} played", ca.get("played"), cb.get("played"), d["contracts_played"].get(cid))
        row(f"{cid} won", ca.get("won"), cb.get("won"))
    row("declaring side won", a["declarer_won"], b["declarer_won"], d["declarer_won"])
    for role in ("declarer", "partner", "defender"):
        if role in a["average_by_role"] or role in b["average_by_role"]:
            unit = ""
            if "units_differ" in report:
                unit = f" ({a.get('unit', '')} / {b.get('unit', '')})"
            row(
                f"{role}, per deal{unit}",
                a["average_by_role"].get(role),
                b["average_by_role"].get(role),
                d["average_by_role"].get(role),
                percent=False,
            )
    row("bête made", a["bete_rate"], b["bete_rate"], d["bete_rate"])
    row("bête size (when made)", a["bete_size"], b["bete_size"], percent=False, signed=False)
    row("vole undertaken", a["vole_undertaken"], b["vole_undertaken"])
    row("vole made", a["vole_made"], b["vole_made"], d["vole_made"])
    rows.append(
        {
            "label": "same contract, same deal",
            "a": "",
            "b": "",
            "diff": _fmt(d["same_contract"], True),
        }
    )
    rows.append(
        {"label": "same result, same deal", "a": "", "b": "", "diff": _fmt(d["same_result"], True)}
    )
    return rows


def render_html(report: Mapping[str, Any]) -> str:
    """Returns the comparison as a self-contained HTML page: the table and the chart inline."""
    from pathlib import Path

    from markupsafe import Markup

    from engine.render import render, templates_dir

    a, b = report["rulesets"]
    return render(
        "compare/simulate.html.j2",
        "html",
        title=f"{a['name']} against {b['name']}",
        report=report,
        rows=table_rows(report),
        svg=Markup(render_svg(report)),
        chart_caption="Bars: the value; whiskers: its 95 % interval.",
        root="",
        inline_css=(Path(templates_dir()) / "style.css").read_text(encoding="utf-8"),
    )

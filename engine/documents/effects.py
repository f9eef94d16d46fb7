"""What each variant does to the game, measured: the ``effects`` pages of ``ombre docs``.

For every variant (a file of ``variants/`` that extends a ruleset) the documents show a seeded,
paired ``simulate --against`` run of the parent (A) against the variant (B): the same
:data:`DEALS` deals from seed :data:`SEED`, heuristic bots in every seat. The run is
:func:`engine.compare.compare`, and the table and the chart are its own renderers
(:func:`engine.compare.table_rows`, :func:`engine.compare.render_svg`), so a page shows exactly
what ``ombre simulate PARENT --against VARIANT -n 300 --seed 1 --svg`` prints: one derivation.

A run costs about half a second, so its JSON report is kept in the workbench's cache
(:mod:`engine.rules.cache`), keyed by the bytes of both rule files' ``extends`` chains, every source
file of the engine (the referee, the bots and the settlement decide the numbers) and the run's
parameters; any change to one of them runs it again. A report read from the cache is the typed
:class:`engine.compare.ComparisonReport` again (:meth:`~engine.compare.ComparisonReport.from_json`,
the inverse of its JSON), so the pages are rendered from the same typed figures, fresh or cached.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from engine.rules.model import RuleSet

if TYPE_CHECKING:
    from engine.compare import ComparisonReport, TableRow

__all__ = ["BOTS", "DEALS", "SEED", "Effect", "effects", "measure", "measured"]

DEALS = 300
"""Deals per run: enough for the large effects, small enough that ``make docs`` stays quick."""
SEED = 1
BOTS = "heuristic"


@dataclass(frozen=True, slots=True)
class Effect:
    """One variant measured against its parent, ready for its page."""

    id: str
    parent: str
    name: str
    report: ComparisonReport
    """The run's figures (A the parent, B the variant)."""
    rows: tuple[TableRow, ...]
    svg: str

    @property
    def command(self) -> str:
        """Returns the command that prints the same run."""
        return (
            f"ombre simulate {self.parent} --against {self.id} -n {self.report.deals} "
            f"--seed {self.report.seed} --bots {self.report.bots}"
        )


def _chain_bytes(rules: RuleSet) -> bytes:
    from engine.rules import load_ruleset

    out = []
    for rid in rules.chain:
        file = Path(load_ruleset(rid).file)
        try:
            out.append(file.read_bytes())
        except OSError:
            out.append(rid.encode())
    return b"\0".join(out)


def measure_key(parent: RuleSet, variant: RuleSet, deals: int, seed: int, bots: str) -> bytes:
    """Returns the cache key of a measured effect: the package's own hash (every module and
    template it ships, :func:`engine.rules.cache.package_hash`, the key of every other cache),
    the rule files of both chains and the run's parameters."""
    from engine.rules import cache as _cache

    return b"\0".join(
        [
            _cache.package_hash().encode(),
            _chain_bytes(parent),
            _chain_bytes(variant),
            f"{parent.id}\0{variant.id}\0{deals}\0{seed}\0{bots}".encode(),
        ]
    )


def measure(
    parent: RuleSet, variant: RuleSet, deals: int = DEALS, seed: int = SEED, bots: str = BOTS
) -> ComparisonReport:
    """Returns the report of ``simulate PARENT --against VARIANT`` (its JSON cached, read back
    through :meth:`~engine.compare.ComparisonReport.from_json`; a cached document that is not a
    report is a miss)."""
    from engine.compare import ComparisonReport, compare
    from engine.rules import cache as _cache

    key = measure_key(parent, variant, deals, seed, bots)
    where = Path("simulate-against") / parent.id / variant.id
    hit = _cache.load(where, key, Path.read_bytes, "effects")
    if hit is not None and isinstance(hit.get("report"), dict):
        try:
            return ComparisonReport.from_json(hit["report"])
        except (KeyError, TypeError, ValueError):
            pass  # not a report this engine reads: run it again
    report = compare(parent, variant, deals, seed=seed, bots=bots).report()
    _cache.store(where, key, {"deps": [], "report": report.as_json()}, "effects")
    return report


def measured(rulesets: Sequence[RuleSet]) -> list[RuleSet]:
    """Returns the variants among ``rulesets`` whose effect is measured, by id."""
    return [r for r in sorted(rulesets, key=lambda r: r.id) if r.kind == "variant" and r.extends]


def effects(
    rulesets: Sequence[RuleSet], progress: Callable[[RuleSet], None] | None = None
) -> list[Effect]:
    """Returns the measured effect of every variant among ``rulesets``, by id; ``progress`` is
    told of each variant once it is measured (from the cache, or run)."""
    from engine.compare import render_svg, table_rows
    from engine.rules import load_ruleset

    out = []
    for r in measured(rulesets):
        parent = load_ruleset(r.extends or "")
        report = measure(parent, r)
        if progress is not None:
            progress(r)
        out.append(
            Effect(r.id, parent.id, r.name, report, tuple(table_rows(report)), render_svg(report))
        )
    return out

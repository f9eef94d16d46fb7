"""Two whole rule sets compared rule by rule, across the centuries (``across/A-B``).

The pairs are named in ``docs/comparisons.yaml`` (a rule set of the eighteenth century against
one played today, for instance), not in the engine: each entry gives the two ids and why they
are compared. For every aspect of the matrix (:data:`engine.documents.matrix.ASPECTS`, read
from the model, never from the raw document) the page gives each side's rule, whether the two
agree, and each side's authority where the rule carries its own basis; then the contracts of
each, lowest first. Amounts are never put side by side as numbers when the two count in
different units (points scored from a tariff against counters that change hands): each is
labelled with its own unit, as the matrix does.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.documents.matrix import ASPECTS
from engine.errors import Problem, RuleFileError
from engine.rules.model import Basis, Contract, RuleSet

__all__ = ["Across", "AspectRow", "Comparison", "across", "load_comparisons"]

_RULE_OF: Mapping[str, tuple[str, ...]] = {
    "players": ("players",),
    "pack": ("deck",),
    "hand": ("deal",),
    "talon": ("deal",),
    "packets": ("deal",),
    "trumps in red": ("ranking",),
    "trumps in black": ("ranking",),
    "matadors' privilege": ("matadors", "privilege"),
    "paid matadors": ("matadors", "payment"),
    "all pass": ("auction", "all_pass"),
    "calls": ("declarations", "call"),
    "demands": ("declarations", "demand"),
    "exchange": ("exchange",),
    "vole": ("vole",),
    "party": ("party",),
    "bêtes": ("settlement", "bete"),
    "sole liability": ("settlement", "sharing"),
    "odd counter": ("settlement", "sharing", "odd_counter"),
}
"""The rule (a mapping with its own basis) each aspect of the matrix reads, where there is one:
its evidence is shown beside it. The other aspects' evidence is per item (each contract, each
stake, each result): the rule books give it."""


@dataclass(frozen=True, slots=True)
class Comparison:
    """A pair of rule sets to compare (an entry of ``docs/comparisons.yaml``)."""

    a: str
    b: str
    why: str

    @property
    def name(self) -> str:
        """Returns the page's name, ``A-against-B``."""
        return f"{self.a}-against-{self.b}"


@dataclass(frozen=True, slots=True)
class AspectRow:
    """One aspect of the rules: what each side says, whether they agree, on what authority."""

    aspect: str
    a: str
    b: str
    same: bool
    basis_a: Basis | None
    basis_b: Basis | None


@dataclass(frozen=True, slots=True)
class Across:
    """Two rule sets, aspect by aspect, and their contracts."""

    a: RuleSet
    b: RuleSet
    why: str
    rows: tuple[AspectRow, ...]
    contracts_a: tuple[Contract, ...]
    contracts_b: tuple[Contract, ...]

    @property
    def units(self) -> tuple[str, str]:
        """Returns the unit of each side's amounts (``jetons``, ``points``)."""
        return (self.a.amounts_unit, self.b.amounts_unit)

    @property
    def same_unit(self) -> bool:
        """Checks if the two count in the same unit."""
        return self.units[0] == self.units[1]

    @property
    def agreeing(self) -> int:
        """Returns how many aspects the two state alike."""
        return sum(1 for row in self.rows if row.same)


def _basis(rules: RuleSet, path: tuple[str, ...] | None) -> Basis | None:
    if path is None:
        return None
    return rules.basis_of((*path, "basis"))


def across(a: RuleSet, b: RuleSet, why: str = "") -> Across:
    """Returns the comparison of ``a`` and ``b``, aspect by aspect."""
    rows = []
    for aspect, read in ASPECTS:
        va, vb = read(a), read(b)
        path = _RULE_OF.get(aspect)
        rows.append(AspectRow(aspect, va, vb, va == vb, _basis(a, path), _basis(b, path)))

    def ladder(r: RuleSet) -> tuple[Contract, ...]:
        return tuple(sorted(r.contracts.values(), key=lambda c: (c.rank, c.id)))

    return Across(a, b, why, tuple(rows), ladder(a), ladder(b))


def load_comparisons(path: Path) -> list[Comparison]:
    """Reads the pairs to compare (``docs/comparisons.yaml``: a list of ``{a, b, why}``); a
    missing file names none.

    :raises RuleFileError: for a file that is not such a list.
    """
    from engine.rules.reader import parse_text

    if not path.is_file():
        return []
    doc, problems = parse_text(str(path), path.read_text(encoding="utf-8"))
    if doc is None or problems:
        raise RuleFileError(problems)
    data: Any = doc.data

    def refuse(where: tuple[int, ...], code: str, message: str) -> RuleFileError:
        line, column = doc.where(where)
        at = f"$[{where[0]}]" if where else "$"
        return RuleFileError([Problem(str(path), line, column, at, code, message)])

    if not isinstance(data, list):
        raise refuse((), "comparisons/list", "the comparisons are a list of {a, b, why}")
    out = []
    for k, entry in enumerate(data):
        if not (
            isinstance(entry, Mapping)
            and set(entry) == {"a", "b", "why"}
            and all(isinstance(entry[key], str) and entry[key] for key in ("a", "b", "why"))
        ):
            raise refuse((k,), "comparisons/entry", "each comparison is {a: ID, b: ID, why: TEXT}")
        out.append(Comparison(entry["a"], entry["b"], " ".join(entry["why"].split())))
    return out

"""The structural differences between two rulesets or variants (``ombre diff A B``).

The two resolved documents are walked side by side. Mappings are compared key by key, lists
item by item when both are lists of mappings of the same length, and anything else as a whole,
so a change is reported at the deepest path where the two differ: a key only one side has is
one change whose other value is ``None``. Each side carries the file and line that set its
value (the resolved model's provenance), so a change made by a variant points at the variant.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.documents import repo_path
from engine.rules.model import Basis, RuleSet
from engine.rules.reader import Path_, json_path

__all__ = ["Change", "RuleChange", "RuleDiff", "diff_rulesets", "readable", "unit_label"]


def plain(value: Any) -> Any:
    """Returns a JSON-ready copy of a (read-only) mapping/list tree."""
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    return value


IDENTITY = ("id", "name", "aliases", "summary", "extends")
"""The keys that name a file rather than state a rule."""


def without_basis(value: Any) -> Any:
    """Returns a JSON-ready value with every ``basis`` (and ``*_basis``) key left out."""
    if isinstance(value, dict):
        return {
            k: without_basis(v)
            for k, v in value.items()
            if k != "basis" and not str(k).endswith("_basis")
        }
    if isinstance(value, list):
        return [without_basis(v) for v in value]
    return value


@dataclass(frozen=True, slots=True)
class Place:
    """Where a value was set: the file (as the repository names it) and its line, if known."""

    file: str
    line: int | None = None

    def __str__(self) -> str:
        """Returns ``file:line`` (``file`` alone where the line is unknown), as in the JSON."""
        return f"{self.file}:{self.line}" if self.line is not None else self.file


@dataclass(frozen=True, slots=True)
class Change:
    """One difference: the path, the value on each side, and where each was set."""

    path: Path_
    a: Any
    """The value in A (JSON-ready), None when A does not have it."""
    b: Any
    where_a: Place | None
    """Where A's value was set, None when A does not have it."""
    where_b: Place | None

    @property
    def json_path(self) -> str:
        """Returns the path as ``$.a.b[2]``."""
        return json_path(self.path)

    @property
    def section(self) -> str:
        """Returns the top-level section the change is in (``settlement``, ``auction`` ...)."""
        return str(self.path[0]) if self.path else "$"

    @property
    def is_basis(self) -> bool:
        """Checks if the change is to a rule's evidence (its ``basis``) rather than the rule."""
        return "basis" in self.path or any(
            isinstance(p, str) and p.endswith("_basis") for p in self.path
        )

    @property
    def a_rule(self) -> Any:
        """Returns A's value without its evidence (``basis`` keys left out)."""
        return without_basis(self.a)

    @property
    def b_rule(self) -> Any:
        """Returns B's value without its evidence (``basis`` keys left out)."""
        return without_basis(self.b)

    @property
    def a_words(self) -> str:
        """Returns A's value as a reader would say it (:func:`readable`)."""
        return readable(self.a)

    @property
    def b_words(self) -> str:
        """Returns B's value as a reader would say it (:func:`readable`)."""
        return readable(self.b)

    @property
    def is_identity(self) -> bool:
        """Checks if the change is to the file's own id, name, aliases, summary or parent."""
        return bool(self.path) and self.path[0] in IDENTITY

    def as_json(self) -> dict[str, Any]:
        """Returns the change as in ``ombre diff --json``."""
        return {
            "path": self.json_path,
            "a": self.a,
            "b": self.b,
            "where_a": None if self.where_a is None else str(self.where_a),
            "where_b": None if self.where_b is None else str(self.where_b),
        }


def _words(key: Any) -> str:
    """Returns a key of the rule file as words: ``sole_liability_below`` is "sole liability
    below"; an index of a list is "item 3" (from 1)."""
    if isinstance(key, int):
        return f"item {key + 1}"
    return str(key).replace("_", " ").replace("-", " ")


def readable(value: Any) -> str:
    """Returns a value of a rule file as a reader would say it: no quotes, no brackets, no
    JSON (``{who: dealer, amount: 10}`` is "who dealer, amount 10"; a list, its items joined
    by "; "); evidence (``basis``) left out, as the page gives it on its own."""
    value = without_basis(value)
    if value is None:
        return "(not set)"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Mapping):
        return ", ".join(f"{_words(k)} {readable(v)}" for k, v in value.items()) or "(empty)"
    if isinstance(value, list | tuple):
        return "; ".join(readable(v) for v in value) or "none"
    return str(value)


@dataclass(frozen=True, slots=True)
class RuleChange:
    """What one rule (a mapping of the rule file with its own ``basis``) changes, for the
    documents: the values that differ, and each side's authority."""

    path: Path_
    values: tuple[Change, ...]
    """The changes to the rule's values (not to its evidence)."""
    evidence_changed: bool
    basis_a: Basis | None
    """A's evidence for the rule, None when A does not have it."""
    basis_b: Basis | None

    @property
    def title(self) -> str:
        """Returns the rule's place in words: "settlement › sharing"."""
        return " › ".join(_words(k) for k in self.path) or "the whole file"

    def what(self, change: Change) -> str:
        """Returns the part of the rule ``change`` is to, in words ("sole liability below");
        empty when it is the whole rule."""
        return " › ".join(_words(k) for k in change.path[len(self.path) :])


@dataclass(frozen=True, slots=True)
class RuleDiff:
    """The differences between rulesets A and B."""

    a: RuleSet
    b: RuleSet
    changes: tuple[Change, ...]

    @property
    def rule_changes(self) -> tuple[Change, ...]:
        """Returns the changes to rules, leaving out changes of evidence alone."""
        return tuple(c for c in self.changes if not c.is_basis)

    @property
    def identity(self) -> dict[str, Change]:
        """Returns the changes to the files' own id, name, aliases, summary and parent."""
        return {str(c.path[0]): c for c in self.changes if c.is_identity}

    def by_rule(self) -> list[RuleChange]:
        """Returns the changes to rules grouped by the rule they belong to (the nearest
        mapping that carries a ``basis`` on either side), in document order."""
        order: list[Path_] = []
        values: dict[Path_, list[Change]] = {}
        evidence: dict[Path_, bool] = {}
        for c in self.changes:
            if c.is_identity:
                continue
            rule = self._rule_of(c)
            if rule not in values:
                order.append(rule)
                values[rule] = []
                evidence[rule] = False
            if c.is_basis:
                evidence[rule] = True
            else:
                values[rule].append(c)
        out = []
        for rule in order:
            out.append(
                RuleChange(
                    rule,
                    tuple(values[rule]),
                    evidence[rule],
                    self.a.basis_of((*rule, "basis")),
                    self.b.basis_of((*rule, "basis")),
                )
            )
        return out

    def _rule_of(self, change: Change) -> Path_:
        path = change.path
        for k, part in enumerate(path):
            if part == "basis" or (isinstance(part, str) and part.endswith("_basis")):
                return path[:k]
        for k in range(len(path), 0, -1):
            head = path[:k]
            if (
                self.a.basis_of((*head, "basis")) is not None
                or self.b.basis_of((*head, "basis")) is not None
            ):
                return head
        return path[:1]

    @property
    def units(self) -> tuple[str, str] | None:
        """Returns the unit of each side's amounts (``points``, ``jetons`` ...) when they
        differ, None when both count in the same unit: amounts in different units are shown
        each in its own and never subtracted (points are scored, counters change hands)."""
        a, b = unit_label(self.a), unit_label(self.b)
        return None if a == b else (a, b)

    def as_json(self) -> dict[str, Any]:
        """Returns the diff as in ``ombre diff --json`` (with ``units`` where they differ)."""
        out: dict[str, Any] = {
            "a": self.a.id,
            "b": self.b.id,
            "changes": [c.as_json() for c in self.changes],
        }
        if self.units is not None:
            out["units"] = {"a": self.units[0], "b": self.units[1]}
        return out


def unit_label(rules: RuleSet) -> str:
    """Returns the unit a ruleset's amounts are in, plural: ``points`` for a game scored from
    a tariff, else its counter (``jetons``, ``Markes``)."""
    return rules.amounts_unit


def _where(rules: RuleSet, path: Path_) -> Place:
    file, line, _column = rules.locate(path)
    return Place(repo_path(file), line)


def diff_rulesets(a: RuleSet, b: RuleSet) -> RuleDiff:
    """Returns the structural differences between two rulesets, in document order."""
    out: list[Change] = []

    def add(path: Path_, x: Any, y: Any) -> None:
        out.append(
            Change(
                path,
                plain(x),
                plain(y),
                _where(a, path) if x is not None else None,
                _where(b, path) if y is not None else None,
            )
        )

    def walk(x: Any, y: Any, path: Path_) -> None:
        if isinstance(x, Mapping) and isinstance(y, Mapping):
            for key in [*x, *(k for k in y if k not in x)]:
                if key not in y:
                    add((*path, key), x[key], None)
                elif key not in x:
                    add((*path, key), None, y[key])
                else:
                    walk(x[key], y[key], (*path, key))
            return
        if _is_records(x) and _is_records(y) and len(x) == len(y):
            for i, (u, v) in enumerate(zip(x, y, strict=True)):
                walk(u, v, (*path, i))
            return
        if plain(x) != plain(y):
            add(path, x, y)

    walk(a.plain(), b.plain(), ())
    return RuleDiff(a, b, tuple(out))


def _is_records(value: Any) -> bool:
    return (
        isinstance(value, Sequence)
        and not isinstance(value, str)
        and all(isinstance(v, Mapping) for v in value)
    )

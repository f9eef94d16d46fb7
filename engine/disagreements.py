"""The register of disagreements between the sources (``claims/disagreements.yaml``).

Each disagreement of the rules reference §3 lists the readings of its sources, and each reading
has a *home*: the canonical rule file that takes it, a variant, a setup option, a claim, or a
section of ``docs/decisions.md``. This module reads the register and checks that every home
exists; ``tools/gen_disagreements.py`` renders it as ``docs/disagreements.md`` and the
documents render it as a page.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

__all__ = ["HOME_KINDS", "Disagreement", "Home", "Reading", "check", "load", "markdown_headings"]

HOME_KINDS = ("canonical", "variant", "option", "claim", "decision")
"""Where a reading may live: a canonical rule file, a variant, a setup option
(``RULESET:OPTION``), a claim id, or a heading of ``docs/decisions.md``."""


@dataclass(frozen=True, slots=True)
class Home:
    """Where one reading lives: ``kind`` is one of :data:`HOME_KINDS`, ``ref`` names it."""

    kind: str
    ref: str


@dataclass(frozen=True, slots=True)
class Reading:
    """What one source says on the point, and where the workbench keeps it."""

    source: str
    locator: str
    reading: str
    home: Home


@dataclass(frozen=True, slots=True)
class Disagreement:
    """One disagreement: a stable ``id``, a one-line topic, where the reference lists it."""

    id: str
    topic: str
    reference: str
    readings: tuple[Reading, ...]
    note: str = ""

    @property
    def number(self) -> int | None:
        """The entry's number in the reference's §3 (``§3.24 …`` gives 24), if it has one."""
        found = re.match(r"§3\.(\d+)\b", self.reference)
        return int(found.group(1)) if found else None


def load(path: Path) -> list[Disagreement]:
    """Reads the register.

    :raises ValueError: when the file is not a register (a message names the entry).
    """
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or not isinstance(data.get("disagreements"), list):
        raise ValueError(f"{path}: expected a mapping with a list `disagreements`")
    out: list[Disagreement] = []
    for i, entry in enumerate(data["disagreements"]):
        where = f"{path}: disagreements[{i}]"
        if not isinstance(entry, dict):
            raise ValueError(f"{where}: not a mapping")
        try:
            readings = tuple(_reading(r) for r in entry["readings"])
            out.append(
                Disagreement(
                    id=str(entry["id"]),
                    topic=str(entry["topic"]),
                    reference=str(entry["reference"]),
                    readings=readings,
                    note=str(entry.get("note", "")).strip(),
                )
            )
        except (KeyError, TypeError) as exc:
            raise ValueError(f"{where}: missing or malformed {exc}") from None
    return out


def _reading(raw: Any) -> Reading:
    home = raw["home"]
    return Reading(
        source=str(raw["source"]),
        locator=str(raw["locator"]),
        reading=str(raw["reading"]),
        home=Home(kind=str(home["kind"]), ref=str(home["ref"])),
    )


def markdown_headings(text: str) -> set[str]:
    """Returns the text of every Markdown heading (``## Amounts`` gives ``Amounts``)."""
    return {m.group(1).strip() for m in re.finditer(r"^#{1,6}\s+(.+?)\s*#*\s*$", text, re.M)}


def check(
    register: Iterable[Disagreement],
    *,
    sources: set[str],
    rulesets: set[str],
    variants: set[str],
    options: set[str],
    decisions: set[str],
    claims: set[str] | None,
) -> list[str]:
    """Returns a message for every reading whose source or home does not exist.

    ``options`` holds ``RULESET:OPTION`` names; ``claims`` is None when the claims register
    does not exist yet (claim ids are then not checked).
    """
    problems: list[str] = []
    seen: set[str] = set()
    for d in register:
        if d.id in seen:
            problems.append(f"{d.id}: the id is used twice")
        seen.add(d.id)
        if not d.readings:
            problems.append(f"{d.id}: no readings")
        for r in d.readings:
            at = f"{d.id}: {r.source} ({r.locator})"
            if r.source not in sources:
                problems.append(f"{at}: no rule file's sources table has {r.source!r}")
            kind, ref = r.home.kind, r.home.ref
            known: set[str] | None = {
                "canonical": rulesets,
                "variant": variants,
                "option": options,
                "decision": decisions,
                "claim": claims,
            }.get(kind, set())
            if kind not in HOME_KINDS:
                problems.append(f"{at}: home kind {kind!r} is not one of {', '.join(HOME_KINDS)}")
            elif known is not None and ref not in known:
                problems.append(f"{at}: its home, {kind} {ref!r}, does not exist")
    return problems

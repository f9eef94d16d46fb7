"""The register of the sources' disagreements (``claims/disagreements.yaml``), typed.

Each disagreement between the sources (numbered §3.N) lists the readings side by side, each with the
source that gives it and where that reading lives in the workbench: the canonical rule file, a
variant, a setup option, a claim, or a decision of ``docs/decisions.md``::

    disagreements:
      - id: ombre-1-4-4
        topic: "..."
        reference: "§3 ..."
        readings:
          - source: acad
            locator: "..."
            reading: "..."
            home: {kind: canonical, ref: ombre}
        note: "..."

The file may be absent (it is filled by hand as the register grows); :func:`load_disagreements`
then returns ``None`` and the documents say so.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from engine.documents import data_dir, repo_path
from engine.documents._data import Reader

__all__ = ["HOME_KINDS", "Disagreement", "Home", "Reading", "load_disagreements"]

HOME_KINDS = ("canonical", "variant", "option", "claim", "decision")
"""Where a reading can live."""


@dataclass(frozen=True, slots=True)
class Home:
    """Where a reading lives: a ruleset or variant id, an option, a claim, a decision."""

    kind: str
    ref: str


@dataclass(frozen=True, slots=True)
class Reading:
    """One source's reading."""

    source: str
    locator: str
    reading: str
    home: Home


@dataclass(frozen=True, slots=True)
class Disagreement:
    """A point the sources disagree on, with every reading."""

    id: str
    topic: str
    reference: str
    readings: tuple[Reading, ...]
    note: str | None
    where: str
    """``file:line`` of the entry."""


def load_disagreements(path: Path | None = None) -> tuple[Disagreement, ...] | None:
    """Reads the register; None when the file does not exist.

    :raises RuleFileError: with every located problem of the file.
    """
    path = path if path is not None else data_dir("claims") / "disagreements.yaml"
    if not path.is_file():
        return None
    shown = repo_path(path)
    reader = Reader(path, shown)
    out: list[Disagreement] = []
    seen: set[str] = set()
    for where, entry in reader.entries("disagreements"):
        reader.check_keys(entry, where, ("id", "topic", "reference", "readings", "note"))
        did = reader.text(entry, where, "id")
        topic = reader.text(entry, where, "topic")
        reference = reader.text(entry, where, "reference")
        note = reader.text(entry, where, "note", required=False)
        if did is not None and did in seen:
            reader.problem((*where, "id"), "data/duplicate", f"{did!r} is listed twice")
        readings = []
        raw = entry.get("readings")
        if not isinstance(raw, list) or not raw:
            reader.problem((*where, "readings"), "data/type", "readings must be a non-empty list")
            raw = []
        for i, item in enumerate(raw):
            at = (*where, "readings", i)
            if not isinstance(item, dict):
                reader.problem(at, "data/type", "a reading is a mapping")
                continue
            reader.check_keys(item, at, ("source", "locator", "reading", "home"))
            source = reader.text(item, at, "source")
            locator = reader.text(item, at, "locator")
            text = reader.text(item, at, "reading")
            home = item.get("home")
            if not isinstance(home, dict):
                reader.problem((*at, "home"), "data/type", "home is {kind: ..., ref: ...}")
                continue
            reader.check_keys(home, (*at, "home"), ("kind", "ref"))
            kind = reader.text(home, (*at, "home"), "kind")
            ref = reader.text(home, (*at, "home"), "ref")
            if kind is not None and kind not in HOME_KINDS:
                reader.problem(
                    (*at, "home", "kind"),
                    "data/home-kind",
                    f"home kind {kind!r} is not one of {', '.join(HOME_KINDS)}",
                )
                continue
            if None in (source, locator, text, kind, ref):
                continue
            readings.append(
                Reading(str(source), str(locator), str(text), Home(str(kind), str(ref)))
            )
        if did is None or topic is None or reference is None:
            continue
        seen.add(did)
        out.append(
            Disagreement(
                did, topic, reference, tuple(readings), note, f"{shown}:{reader.where(where)}"
            )
        )
    reader.done()
    return tuple(out)

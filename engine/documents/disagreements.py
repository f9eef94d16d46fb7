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
from engine.errors import RuleFileError
from engine.rules.reader import parse_bytes
from engine.rules.schema_pass import document_problems, duplicate_ids

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
    doc, problems = parse_bytes(shown, path.read_bytes())
    if doc is not None:
        # Checked as rule files are: the schema (engine/schema/disagreements.schema.json),
        # every problem located; then what a schema cannot say (an id listed twice).
        problems = document_problems("disagreements", doc)
    if doc is None or problems:
        raise RuleFileError(problems)
    out: list[Disagreement] = []
    problems, repeated = duplicate_ids(
        doc, "disagreements", "data/duplicate", lambda did: f"{did!r} is listed twice"
    )
    for i, entry in enumerate(doc.data["disagreements"]):
        if i in repeated:
            continue
        where = ("disagreements", i)
        did = str(entry["id"])
        readings = tuple(
            Reading(
                str(r["source"]),
                str(r["locator"]),
                str(r["reading"]),
                Home(str(r["home"]["kind"]), str(r["home"]["ref"])),
            )
            for r in entry["readings"]
        )
        note = entry.get("note")
        out.append(
            Disagreement(
                did,
                str(entry["topic"]),
                str(entry["reference"]),
                readings,
                str(note) if note is not None else None,
                f"{shown}:{doc.where(where)[0]}",
            )
        )
    if problems:
        raise RuleFileError(problems)
    return tuple(out)

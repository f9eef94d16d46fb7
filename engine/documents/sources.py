"""The period texts in ``sources/``: each source's provenance and the passages quoted.

A quote is found in its source's passages after normalising apostrophes, whitespace and case;
"…" or "..." stands for omitted text, so each piece between ellipses must be found. The rule
books link a quote to the passage that holds it.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from engine.documents import data_dir, repo_path
from engine.errors import Problem, RuleFileError
from engine.rules.reader import parse_bytes
from engine.rules.schema_pass import document_problems

__all__ = ["Library", "Passage", "Source", "load_library", "normalise", "pieces"]

_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'"})
_SPACE = re.compile(r"\s+")
_ELLIPSIS = re.compile(r"…|\.\.\.")


def normalise(text: str) -> str:
    """Returns text for matching: NFC, plain apostrophes, single spaces, case-folded."""
    text = unicodedata.normalize("NFC", text).translate(_APOSTROPHES)
    return _SPACE.sub(" ", text).strip().casefold()


def pieces(quote: str) -> list[str]:
    """Returns the pieces of a quote between ellipses."""
    return [p.strip() for p in _ELLIPSIS.split(quote) if p.strip()]


@dataclass(frozen=True, slots=True)
class Passage:
    """A passage of a source: its anchor on the source page, locator and text."""

    anchor: str
    locator: str
    text: str


@dataclass(frozen=True)
class Source:
    """A source with its provenance and passages (a whole text is split into paragraphs)."""

    id: str
    title: str
    kind: str
    year: int | None
    address: str
    provenance: str
    passages: tuple[Passage, ...]
    whole: bool
    """The passages are the whole text, in order."""

    @cached_property
    def _normalised(self) -> tuple[str, ...]:
        return tuple(normalise(p.text) for p in self.passages)

    def find(self, quote: str) -> Passage | None:
        """Returns the passage holding the quote's first piece, if every piece is in the source."""
        found = None
        for piece in pieces(quote):
            key = normalise(piece)
            hit = next(
                (p for p, n in zip(self.passages, self._normalised, strict=True) if key in n), None
            )
            if hit is None:
                return None
            found = found or hit
        return found


@dataclass(frozen=True)
class Library:
    """Every source in ``sources/``."""

    sources: dict[str, Source]

    def find(self, source: str, quote: str | None) -> Passage | None:
        """Returns the passage of ``source`` holding ``quote`` (None if not found)."""
        s = self.sources.get(source)
        if s is None or not quote:
            return None
        return s.find(quote)


def load_library(folder: Path | None = None) -> Library:
    """Reads ``sources/*.yaml`` (the glossary and the concordance data aside).

    :raises RuleFileError: if a file is not a well-formed source.
    """
    folder = folder if folder is not None else data_dir("sources")
    out: dict[str, Source] = {}
    for path in sorted(folder.glob("*.yaml")):
        if path.name in ("glossary.yaml", "concordance.yaml"):
            continue  # the glossary and the concordance data are not sources
        doc, problems = parse_bytes(repo_path(path), path.read_bytes())
        if doc is not None:
            # Checked as rule files are: the schema (engine/schema/source.schema.json), every
            # problem located at its line and column.
            problems = document_problems("source", doc)
            if not problems and "text" in doc.data:
                whole_text = folder / str(doc.data["text"])
                if not whole_text.is_file():
                    line, column = doc.where(("text",))
                    problems = [
                        Problem(
                            doc.file,
                            line,
                            column,
                            "$.text",
                            "source/text",
                            f"no such text: {repo_path(whole_text)}",
                        )
                    ]
        if doc is None or problems:
            raise RuleFileError(problems)
        d = doc.data
        sid = str(d["id"])
        passages: list[Passage] = []
        whole = "text" in d
        if whole:
            text = (folder / str(d["text"])).read_text(encoding="utf-8")
            paragraphs = [p.strip() for p in text.split("\n\n") if p.strip()]
            passages = [Passage(f"p{i + 1}", f"¶ {i + 1}", p) for i, p in enumerate(paragraphs)]
        for i, p in enumerate(d.get("passages") or []):
            passages.append(Passage(f"q{i + 1}", str(p.get("locator", "")), str(p.get("text", ""))))
        year = d.get("year")
        out[sid] = Source(
            sid,
            str(d.get("title", sid)),
            str(d.get("kind", "")),
            int(year) if isinstance(year, int) else None,
            str(d.get("address", "")),
            str(d.get("provenance", "")),
            tuple(passages),
            whole,
        )
    return Library(out)

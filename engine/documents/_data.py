"""Reading the documents' own data files (claims, disagreements, glossary) with located errors.

Each file is YAML read by the project's safe reader (positions kept, duplicate keys refused);
a field of the wrong kind is a :class:`Problem` located at its line, and every problem of a
file is raised together as a :class:`RuleFileError`, as for rule files.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from engine.errors import Problem, RuleFileError
from engine.rules.reader import Document, Path_, json_path, parse_bytes


class Reader:
    """Collects the problems of one data file while its entries are read."""

    def __init__(self, path: Path, shown: str) -> None:
        doc, problems = parse_bytes(shown, path.read_bytes())
        if doc is None:
            raise RuleFileError(problems)
        self.doc: Document = doc
        self.problems: list[Problem] = []

    def problem(self, path: Path_, code: str, message: str) -> None:
        """Records a problem at ``path``."""
        line, column = self.doc.where(path)
        self.problems.append(Problem(self.doc.file, line, column, json_path(path), code, message))

    def where(self, path: Path_) -> int | None:
        """Returns the line of ``path``."""
        return self.doc.where(path)[0]

    def entries(self, key: str) -> list[tuple[Path_, Mapping[str, Any]]]:
        """Returns the mappings listed under top-level ``key`` with their paths."""
        data = self.doc.data
        if not isinstance(data, Mapping) or not isinstance(data.get(key), list):
            self.problem((), "data/shape", f"expected a mapping with a list under {key!r}")
            return []
        out: list[tuple[Path_, Mapping[str, Any]]] = []
        for i, entry in enumerate(data[key]):
            if isinstance(entry, Mapping):
                out.append(((key, i), entry))
            else:
                self.problem((key, i), "data/type", "each entry must be a mapping")
        return out

    def text(
        self, entry: Mapping[str, Any], path: Path_, key: str, *, required: bool = True
    ) -> str | None:
        """Returns a text field (a problem if required and missing, or not text)."""
        value = entry.get(key)
        if value is None:
            if required:
                self.problem(path, "data/missing", f"{key!r} is required")
            return None
        if not isinstance(value, str | int) or isinstance(value, bool):
            self.problem((*path, key), "data/type", f"{key!r} must be text")
            return None
        return str(value)

    def check_keys(self, entry: Mapping[str, Any], path: Path_, allowed: Sequence[str]) -> None:
        """Records a problem for every key not in ``allowed``."""
        for key in entry:
            if key not in allowed:
                self.problem(
                    (*path, key),
                    "data/unknown-key",
                    f"unknown key {key!r} (expected one of {', '.join(allowed)})",
                )

    def done(self) -> None:
        """Raises every problem found, if any.

        :raises RuleFileError: with every problem of the file.
        """
        if self.problems:
            raise RuleFileError(self.problems)

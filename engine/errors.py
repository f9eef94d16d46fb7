"""The workbench's three error families, all ``ValueError`` subclasses.

After python-chess's invalid / illegal / ambiguous split:

* :class:`RuleFileError` -- a group of located problems in rule files;
* :class:`NotationError` -- a card, suit, contract or action that does not parse;
* :class:`IllegalActionError` -- well formed, but not legal in the current state.

:class:`RecordError` (a malformed record) is a located :class:`NotationError`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Problem:
    """One located problem in a rule file or record."""

    file: str
    """The file, as the user named it (or the packaged path)."""
    line: int | None
    """1-based line, when known."""
    column: int | None
    """1-based column, when known."""
    path: str
    """A JSON path into the document, such as ``$.deal.hand_size``."""
    code: str
    """A stable code: ``yaml/syntax``, ``schema/type``, ``semantic/unknown-card`` ..."""
    message: str
    """What is wrong, in words."""

    def location(self) -> str:
        """Returns ``FILE:LINE:COLUMN`` (the parts that are known)."""
        parts = [self.file]
        if self.line is not None:
            parts.append(str(self.line))
            if self.column is not None:
                parts.append(str(self.column))
        return ":".join(parts)

    def __str__(self) -> str:
        path = f" {self.path}:" if self.path and self.path != "$" else ""
        return f"{self.location()}:{path} {self.message}"

    def as_json(self) -> dict[str, object]:
        """Returns the problem as the ``ombre validate --json`` error object."""
        return {
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "path": self.path,
            "code": self.code,
            "message": self.message,
        }


class RuleFileError(ValueError):
    """One or more located problems found while loading rule files.

    Every problem found is collected and raised together, so a user sees all of them at once.
    """

    def __init__(self, problems: Iterable[Problem]) -> None:
        self.problems: tuple[Problem, ...] = tuple(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


class NotationError(ValueError):
    """Text that does not parse as a card, suit, rank, contract or action."""


class RecordError(NotationError):
    """A record that is malformed (as opposed to one holding an illegal action)."""

    def __init__(self, problems: Iterable[Problem]) -> None:
        self.problems: tuple[Problem, ...] = tuple(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


class IllegalActionError(ValueError):
    """A well-formed action that the rules do not allow now.

    ``code`` is stable (``play/must-follow-suit``, ``bid/outranked`` ...); ``rule`` names the rule
    broken and, when there is one, its source.
    """

    def __init__(self, code: str, message: str, *, action: str = "", rule: str = "") -> None:
        self.code = code
        self.action = action
        self.rule = rule
        self.detail = message
        text = message if not rule else f"{message} ({rule})"
        super().__init__(text)


class RequestError(ValueError):
    """A request the engine cannot carry out as asked (a session's arguments that do not fit
    together, a record that cannot be gone on with), with the exit status it stands for:
    1 when the input was read but is invalid, 2 for a usage error."""

    def __init__(self, message: str, status: int = 2) -> None:
        super().__init__(message)
        self.status = status

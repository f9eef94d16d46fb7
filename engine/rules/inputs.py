"""What a validation read of the file system, noted as it was read, to be asked again later.

``ombre validate`` reports on files, on the folders they are found in, and on the files an
``extends:`` chain or a name check reaches. To print a report again without redoing the work
(:mod:`engine.startup`), every answer the loader's :class:`~engine.rules.loader.Registry` got
from the file system while it worked is noted as an :data:`Input` -- ``(question, path,
answer)`` -- and a report is reused only if every question, asked again, gets the same answer
(:func:`still_holds`):

* ``bytes``: the hash of a file's bytes as they were parsed (:func:`digest`);
* ``real``: where a path leads, symbolic links followed (:func:`real_path`);
* ``isdir``, ``isfile``, ``exists``: what is at a path (``"1"`` or ``""``);
* ``glob:PATTERN``: the names a folder holds that match ``PATTERN``, sorted, one a line.

This module imports nothing of the engine's and nothing heavy, so that asking costs little.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

__all__ = ["Input", "answer", "digest", "listing", "real_path", "still_holds"]

Input = tuple[str, str, str]
"""(question, path, answer): what the file system answered while a validation ran."""


def digest(raw: bytes) -> str:
    """Returns the hash of a file's bytes (BLAKE2, without loading OpenSSL)."""
    try:
        from _blake2 import blake2b
    except ImportError:  # pragma: no cover - an interpreter without the builtin module
        from hashlib import blake2b
    return blake2b(raw, digest_size=32).hexdigest()


def real_path(path: Path) -> Path:
    """The absolute path with symbolic links followed; a link that loops (Python raises
    RuntimeError or OSError for it) is kept as it is, for the reader to refuse it."""
    try:
        return path.resolve()
    except (OSError, RuntimeError, ValueError):
        return path.absolute()


def listing(folder: Path, pattern: str) -> str:
    """Returns the names of the files ``folder.glob(pattern)`` finds, sorted, one a line."""
    return "\n".join(sorted(p.name for p in folder.glob(pattern)))


def _flag(value: bool) -> str:
    return "1" if value else ""


def answer(question: str, path: str) -> str | None:
    """Asks the file system ``question`` about ``path`` now; None for a question it does not
    know (never the same answer)."""
    p = Path(path)
    if question == "bytes":
        try:  # a regular file only: a FIFO is never opened here
            return digest(p.read_bytes()) if p.is_file() else "unreadable"
        except OSError:
            return "unreadable"
    if question == "real":
        return str(real_path(p))
    if question == "isdir":
        return _flag(p.is_dir())
    if question == "isfile":
        return _flag(p.is_file())
    if question == "exists":
        try:
            return _flag(os.path.lexists(p))
        except (OSError, ValueError):
            return ""
    if question.startswith("glob:"):
        return listing(p, question[5:])
    return None


def still_holds(inputs: Iterable[Input]) -> bool:
    """Checks that every question noted gets the answer it got then."""
    return all(answer(question, path) == then for question, path, then in inputs)

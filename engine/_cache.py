"""A cache of validated, resolved rule files, keyed by content (like mypy's or ruff's cache).

Reading YAML with positions, resolving ``extends`` and running the JSON Schema cost several
milliseconds a file; a rule file that has not changed since it was last found valid need not
pay them again. An entry stores the resolved document and its provenance, and is used only if

* the file's bytes, and the bytes of every file of its ``extends`` chain, hash as they did;
* the schema and the loader's own source files hash as they did (so a change to the checks
  invalidates every entry).

Only valid results are stored; a file with problems is always read and reported afresh. The
cache lives in ``$OMBRE_CACHE_DIR``, else ``$XDG_CACHE_HOME/ombre-workbench``, else
``~/.cache/ombre-workbench``; ``OMBRE_NO_CACHE=1`` turns it off. Any failure to read or write
it is silently a miss.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from functools import lru_cache
from pathlib import Path
from typing import Any

FORMAT = 1
_ENGINE_FILES = ("_yaml.py", "_checks.py", "loader.py", "_cache.py")


def enabled() -> bool:
    """Checks if the cache is on (``OMBRE_NO_CACHE`` unset or empty)."""
    return not os.environ.get("OMBRE_NO_CACHE")


def cache_dir() -> Path:
    """Returns the folder that holds the cache entries."""
    explicit = os.environ.get("OMBRE_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "ombre-workbench"


@lru_cache(maxsize=1)
def _engine_hash() -> str:
    here = Path(__file__).resolve().parent
    digest = hashlib.sha256(f"format {FORMAT}".encode())
    for name in _ENGINE_FILES:
        digest.update((here / name).read_bytes())
    digest.update((here / "schema" / "ruleset.schema.json").read_bytes())
    return digest.hexdigest()


def content_hash(raw: bytes) -> str:
    """Returns the hash of a file's bytes."""
    return hashlib.sha256(raw).hexdigest()


def _entry_path(path: Path, raw_hash: str) -> Path:
    key = hashlib.sha256(f"{_engine_hash()}\0{path}\0{raw_hash}".encode()).hexdigest()
    return cache_dir() / f"{key[:40]}.json"


def load(path: Path, raw: bytes, read_bytes: Any) -> dict[str, Any] | None:
    """Returns the cached entry for ``path`` with these bytes, if it is still valid."""
    if not enabled():
        return None
    try:
        entry = json.loads(_entry_path(path, content_hash(raw)).read_text(encoding="utf-8"))
        if entry.get("format") != FORMAT:
            return None
        for dep, digest in entry["deps"]:
            if dep == str(path):
                continue
            if content_hash(read_bytes(Path(dep))) != digest:
                return None
        return entry  # type: ignore[no-any-return]
    except (OSError, ValueError, KeyError, TypeError):
        return None


def store(path: Path, raw: bytes, entry: dict[str, Any]) -> None:
    """Writes an entry (atomically); failures are ignored."""
    if not enabled():
        return
    try:
        target = _entry_path(path, content_hash(raw))
        target.parent.mkdir(parents=True, exist_ok=True)
        entry = {"format": FORMAT, **entry}
        fd, tmp = tempfile.mkstemp(dir=target.parent, suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(entry, handle, ensure_ascii=False, separators=(",", ":"))
        os.replace(tmp, target)
    except (OSError, TypeError, ValueError):
        return

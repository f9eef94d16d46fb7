"""A cache of validated, resolved rule files, keyed by content (like mypy's or ruff's cache).

Reading YAML with positions, resolving ``extends`` and running the JSON Schema cost several
milliseconds a file; a rule file that has not changed since it was last found valid need not
pay them again. An entry stores the resolved document and its provenance, and is used only if

* the file's bytes, and the bytes of every file of its ``extends`` chain, hash as they did;
* every file the package ships hashes as it did: each module and data file found below the
  ``engine`` package (the schema included) and each template (:func:`package_hash`; found,
  not listed, so a change to any check, or to code a new check calls, invalidates every entry);
* each ``extends:`` of the chain still names the same parent file (the loader checks this with
  its own registry, so a new file that an id or a relative path would now find is noticed);
* the registry's folders (``rules/``, ``variants/``) are the ones of the entry: they are part
  of the key, with the file's absolute path and its bytes' hash.

Only valid results are stored; a file with problems is always read and reported afresh. The
cache lives in ``$OMBRE_CACHE_DIR``, else ``$XDG_CACHE_HOME/ombre-workbench``, else
``~/.cache/ombre-workbench``; ``OMBRE_NO_CACHE=1`` turns it off. It is bounded: after each
write, the least recently used entries beyond :data:`MAX_ENTRIES` files or :data:`MAX_TOTAL`
bytes are removed (a hit refreshes an entry's time), and so are temporary files left by an
interrupted write. Any failure to read or write it is silently a miss.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any

FORMAT = 3
MAX_ENTRIES = 256
"""At most this many entries are kept (one per rule file and setup of folders)."""
MAX_TOTAL = 32 * 1024 * 1024
"""At most this many bytes of entries are kept (an entry is about 100 kB)."""
_STALE_TMP = 3600.0
_SKIPPED_DIRS = frozenset({"__pycache__"})
_SKIPPED_SUFFIXES = (".pyc", ".pyo")


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


def package_root() -> Path:
    """Returns the folder of the ``engine`` package."""
    return Path(__file__).resolve().parent.parent


def package_folders() -> tuple[Path, ...]:
    """Returns the folders whose files the package ships: ``engine/`` itself (its modules, the
    schema and, in an installed wheel, its data packages) and, in a source checkout, the
    top-level ``templates/`` that a wheel carries as ``engine.templates_data``."""
    root = package_root()
    folders = [root]
    checkout = root.parent
    if (checkout / "pyproject.toml").is_file() and (checkout / "templates").is_dir():
        folders.append(checkout / "templates")
    return tuple(folders)


def package_files() -> list[Path]:
    """Returns every file the package ships (found by walking :func:`package_folders`, never
    listed by hand), in a stable order; compiled bytecode and hidden files are left out."""
    return [Path(path) for folder in package_folders() for _, path in _walk(str(folder), "")]


def _walk(top: str, prefix: str) -> list[tuple[str, str]]:
    """Returns (name relative to the folder walked, path) of each file below ``top``."""
    out: list[tuple[str, str]] = []
    with os.scandir(top) as it:
        entries = sorted(it, key=lambda e: e.name)
    for entry in entries:
        name = entry.name
        if name.startswith(".") or name in _SKIPPED_DIRS:
            continue
        if entry.is_dir():
            out += _walk(entry.path, f"{prefix}{name}/")
        elif not name.endswith(_SKIPPED_SUFFIXES):
            out.append((prefix + name, entry.path))
    return out


@lru_cache(maxsize=1)
def package_hash() -> str:
    """Returns the hash of every file the package ships, names and bytes (computed once per
    process, a few milliseconds): the part of every cache key that stands for the code and the
    templates. A file that cannot be read counts as empty."""
    import hashlib  # when first needed: loading OpenSSL costs a start-up's worth

    digest = hashlib.sha256(f"format {FORMAT}".encode())
    for folder in package_folders():
        digest.update(b"\0folder\0")
        try:
            files = _walk(str(folder), "")
        except OSError:
            continue
        for name, path in files:
            try:
                with open(path, "rb") as handle:
                    data = handle.read()
            except OSError:
                data = b""
            digest.update(b"%s\0%d\0" % (name.encode("utf-8", "surrogateescape"), len(data)))
            digest.update(data)
    return digest.hexdigest()


def content_hash(raw: bytes) -> str:
    """Returns the hash of a file's bytes."""
    import hashlib

    return hashlib.sha256(raw).hexdigest()


def _entry_path(path: Path, raw_hash: str, context: str) -> Path:
    import hashlib

    key = hashlib.sha256(
        f"{package_hash()}\0{context}\0{path}\0{raw_hash}".encode("utf-8", "surrogateescape")
    ).hexdigest()
    return cache_dir() / f"{key[:40]}.json"


def load(
    path: Path, raw: bytes, read_bytes: Callable[[Path], bytes], context: str = ""
) -> dict[str, Any] | None:
    """Returns the cached entry for ``path`` with these bytes, if it is still valid.

    ``read_bytes`` reads a dependency's bytes (to check its digest); ``context`` names what else
    the result depends on (the registry's folders).
    """
    if not enabled():
        return None
    try:
        import json

        target = _entry_path(path, content_hash(raw), context)
        entry = json.loads(target.read_text(encoding="utf-8"))
        if entry.get("format") != FORMAT:
            return None
        for dep, digest in entry["deps"]:
            if dep == str(path):
                continue
            if content_hash(read_bytes(Path(dep))) != digest:
                return None
        os.utime(target)  # least recently used goes first when pruning
        return entry  # type: ignore[no-any-return]
    except (OSError, ValueError, KeyError, TypeError):
        return None


def store(path: Path, raw: bytes, entry: dict[str, Any], context: str = "") -> None:
    """Writes an entry (atomically), then prunes the cache; failures are ignored."""
    if not enabled():
        return
    try:
        import json
        import tempfile

        target = _entry_path(path, content_hash(raw), context)
        target.parent.mkdir(parents=True, exist_ok=True)
        entry = {"format": FORMAT, **entry}
        fd, tmp = tempfile.mkstemp(dir=target.parent, suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                json.dump(entry, handle, ensure_ascii=False, separators=(",", ":"))
            os.replace(tmp, target)
        except BaseException:
            os.unlink(tmp)
            raise
        prune(target.parent)
    except (OSError, TypeError, ValueError):
        return


def prune(folder: Path | None = None) -> int:
    """Removes the least recently used entries beyond the bounds; returns how many went."""
    folder = folder if folder is not None else cache_dir()
    removed = 0
    now = time.time()
    entries: list[tuple[float, int, Path]] = []
    try:
        with os.scandir(folder) as it:
            for item in it:
                if not item.is_file(follow_symlinks=False):
                    continue
                info = item.stat(follow_symlinks=False)
                if item.name.endswith(".tmp"):
                    if now - info.st_mtime > _STALE_TMP:
                        os.unlink(item.path)
                        removed += 1
                elif item.name.endswith(".json"):
                    entries.append((info.st_mtime, info.st_size, Path(item.path)))
    except OSError:
        return removed
    entries.sort(reverse=True)  # newest first
    total = 0
    for k, (_, size, entry) in enumerate(entries):
        total += size
        if k >= MAX_ENTRIES or total > MAX_TOTAL:
            try:
                entry.unlink()
                removed += 1
            except OSError:
                pass
    return removed

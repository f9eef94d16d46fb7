"""Finding, reading, resolving and validating rule files.

The pipeline (``docs/rule-format.md`` describes it for authors):

1. **Read** each file with positions (:mod:`engine.rules.reader`): UTF-8, safe tags only, no
   duplicate keys, no aliases.
2. **Resolve** ``extends:`` -- a ruleset or variant names its parent by id, alias or path; the
   parent is resolved first, then the child is merged over it:

   * mappings merge key by key, recursively;
   * a scalar or a list in the child replaces the parent's;
   * ``{$append: [...]}`` adds items to the parent's list, ``{$remove: [...]}`` takes items out
     of it (each must be there);
   * ``{$before: {NAME: [...]}}`` and ``{$after: {NAME: [...]}}`` insert rows beside the
     parent's row of that name (a row's ``id``, ``result``, ``who``, ``contract`` or ``name``;
     ``NAME#N`` for the Nth of several), ``{$replace: {NAME: row}}`` puts a row in its place,
     ``{$drop: [NAME, ...]}`` takes rows out; the rows the child writes are its changes, the
     parent's rows it keeps stay the parent's;
   * ``{$delete: true}`` removes a key the parent has;
   * ``id``, ``name``, ``aliases``, ``summary`` and ``extends`` are the file's own and are never
     inherited; ``sources`` merge like any mapping.

   Every value keeps its *provenance*: the file, line and column that set it.
3. **Validate** the resolved document against the JSON Schema (Draft 2020-12, shipped as
   ``engine/schema/ruleset.schema.json``), then run the semantic checks of
   :mod:`engine.rules.checks`. Every problem is collected; one :class:`RuleFileError` carries them all.
"""

from __future__ import annotations

import copy
import difflib
import json
import os
import re
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from engine.errors import Problem, RuleFileError
from engine.rules import cache as _cache
from engine.rules.inputs import Input, digest, listing, real_path
from engine.rules.reader import (
    Document,
    Path_,
    Where,
    json_path,
    locate,
    parse_bytes,
    read_file,
)

__all__ = [
    "Registry",
    "Resolved",
    "data_dir",
    "default_registry",
    "names_a_path",
    "noting_inputs",
    "schema_path",
    "validate_paths",
]

MAX_CHAIN = 32
"""The longest ``extends:`` chain resolved: a file and at most 31 ancestors
(``docs/rule-format.md``, "Limits"; the shipped chains have at most two files)."""
_OWN_KEYS = ("id", "name", "aliases", "summary", "extends")
_OPS = ("$append", "$remove", "$delete", "$before", "$after", "$replace", "$drop")
_ROW_KEYS = ("id", "result", "who", "contract", "name")
"""The field that names a row of a list for ``$before``/``$after``/``$replace``/``$drop``: the
first of these a row has (a results row by its ``result``, a stake by its ``who``)."""


def _row_key(item: Any) -> str | None:
    """Returns the name of a list's row (:data:`_ROW_KEYS`), or None for a row without one."""
    if isinstance(item, dict):
        for k in _ROW_KEYS:
            if isinstance(item.get(k), str):
                return str(item[k])
    return None


_WHOLE_KEYS = ("basis", "codille_remainder_basis", "unit_basis")
"""Mappings a child gives whole: they replace the parent's instead of merging with it."""


def _without_deletes(value: dict[str, Any]) -> dict[str, Any]:
    """Returns a basis without ``{$delete: true}`` entries (nothing to delete in a new whole)."""
    return {k: v for k, v in value.items() if not (isinstance(v, dict) and "$delete" in v)}


def _package_root() -> Path:
    """Returns the folder of the ``engine`` package."""
    return Path(__file__).resolve().parent.parent


def schema_path() -> Path:
    """Returns the path of the shipped rule-file JSON Schema (for editors and tools)."""
    return _package_root() / "schema" / "ruleset.schema.json"


def data_dir(name: str) -> Path:
    """Returns ``rules/``, ``variants/``, ``templates/`` (or another of the data folders:
    ``claims/``, ``sources/``, ``docs/``): the checkout's, else the installed copy.

    In a source checkout the top-level folders are used directly, so that edits take effect
    at once; an installed wheel carries copies as the packages ``engine.<name>_data``.
    """
    checkout = _package_root().parent / name
    if checkout.is_dir() and (_package_root().parent / "pyproject.toml").is_file():
        return checkout
    # The data packages are plain folders beside the code (namespace packages without an
    # __init__.py): importlib.resources would hand back a MultiplexedPath, whose str() is
    # its repr, not a path.
    return _package_root() / f"{name}_data"


def display_path(path: Path) -> str:
    """Returns ``path`` relative to the working directory when it is below it."""
    try:
        return os.path.relpath(path)
    except ValueError:  # pragma: no cover - other drive on Windows
        return str(path)


@dataclass
class Resolved:
    """A rule file after ``extends`` is resolved: data, provenance and the chain of files."""

    id: str
    file: str
    kind: str
    data: dict[str, Any]
    where: dict[Path_, Where]
    chain: tuple[str, ...]
    """The ids from the root ruleset down to this one."""
    overrides: list[tuple[Path_, Where]] = field(default_factory=list)
    """The paths this file itself sets (its changes to the parent), in file order."""
    files: tuple[Path, ...] = ()
    """The files of the chain, root first (absolute)."""

    def locate(self, path: Path_) -> Where:
        """Returns where the value at ``path`` (or its nearest ancestor) was set."""
        return locate(self.where, path, self.file)


@dataclass
class _Entry:
    path: Path
    shown: str
    kind: str
    doc: Document | None = None
    problems: list[Problem] = field(default_factory=list)
    read: bool = False
    raw: bytes | None = None

    @property
    def id(self) -> str | None:
        if self.doc is not None and isinstance(self.doc.data, dict):
            value = self.doc.data.get("id")
            return value if isinstance(value, str) else None
        if not self.read and self.raw is not None:
            return _peek_id(self.raw)
        return None

    @property
    def name(self) -> str | None:
        """Returns the file's own ``name:`` as written (None where it has none, or the file
        was not read): for a listing, which shows files without resolving them."""
        return self._own("name")

    @property
    def extends(self) -> str | None:
        """Returns the file's own ``extends:`` as written (None where it has none)."""
        return self._own("extends")

    def _own(self, key: str) -> str | None:
        if self.doc is not None and isinstance(self.doc.data, dict):
            value = self.doc.data.get(key)
            return value if isinstance(value, str) else None
        return None

    def raw_bytes(self) -> bytes | None:
        """Returns the file's bytes (read once), or None if it cannot be read."""
        if self.raw is None:
            self.raw, _ = read_file(self.path, self.shown)
        return self.raw


_ID_LINE = re.compile(rb"^id:[ \t]*['\"]?([A-Za-z0-9-]+)['\"]?[ \t]*(?:#.*)?$", re.MULTILINE)


def _peek_id(raw: bytes) -> str | None:
    """Returns the top-level ``id:`` of a rule file without parsing it (None if unsure)."""
    found = _ID_LINE.findall(raw)
    return found[0].decode() if len(found) == 1 else None


def _normalise(name: str) -> str:
    """Folds accents and case so ``Médiateur`` and ``quadrille-à-trois`` find their files."""
    import unicodedata

    decomposed = unicodedata.normalize("NFKD", name.strip().lower())
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return plain.replace("_", "-").replace(" ", "-").replace("'", "-")


def names_a_path(name: str) -> bool:
    """Checks if ``name`` is read as a file's path rather than a ruleset's id or alias (it
    ends in ``.yaml``, ``.yml`` or ``.json``, or holds a folder separator)."""
    return name.endswith((".yaml", ".yml", ".json")) or "/" in name or os.sep in name


class Registry:
    """The rule files known to the workbench: ``rules/`` and ``variants/`` plus named paths."""

    def __init__(self, rules_dir: Path | None = None, variants_dir: Path | None = None) -> None:
        self.rules_dir = rules_dir if rules_dir is not None else data_dir("rules")
        self.variants_dir = variants_dir if variants_dir is not None else data_dir("variants")
        self._entries: dict[Path, _Entry] = {}
        self._resolved: dict[Path, Resolved | list[Problem]] = {}
        self._inputs: dict[tuple[str, str], str] = {}
        for kind, folder in (("ruleset", self.rules_dir), ("variant", self.variants_dir)):
            self.note("real", folder, str(real_path(folder)))
            if self.note("isdir", folder, folder.is_dir()):
                found = sorted(folder.glob("*.yaml"))
                self.note("glob:*.yaml", folder, "\n".join(sorted(p.name for p in found)))
                for path in found:
                    self._add(path, kind)

    def note(self, question: str, path: Path | str, answer: str | bool) -> bool:
        """Notes what the file system answered (:mod:`engine.rules.inputs`); returns it as a
        truth value, so that a test can be noted where it is made."""
        text = ("1" if answer else "") if isinstance(answer, bool) else answer
        self._inputs[(question, str(path))] = text
        return bool(text)

    def inputs(self) -> list[Input] | None:
        """Returns every answer the file system gave this registry, the bytes of each file read
        among them (:mod:`engine.rules.inputs`); None if a file could not be read (a result
        that depends on why is not one to reuse)."""
        noted = [(q, p, a) for (q, p), a in self._inputs.items()]
        for entry in self._entries.values():
            if entry.raw is not None:
                noted.append(("bytes", str(entry.path), digest(entry.raw)))
            elif entry.read:
                return None
        return noted

    # Discovery.

    def _add(self, path: Path, kind: str) -> _Entry:
        key = _real_path(path)
        self.note("real", path, str(key))
        entry = self._entries.get(key)
        if entry is None:
            entry = _Entry(key, display_path(path), kind)
            self._entries[key] = entry
        return entry

    def _read(self, entry: _Entry) -> _Entry:
        if not entry.read:
            entry.read = True
            raw, refused = (
                (entry.raw, None) if entry.raw is not None else read_file(entry.path, entry.shown)
            )
            if raw is None:
                entry.problems = [refused] if refused is not None else []
                return entry
            entry.raw = raw
            entry.doc, entry.problems = parse_bytes(entry.shown, raw)
            if entry.doc is not None and not isinstance(entry.doc.data, dict):
                line, column = entry.doc.positions.get((), (1, 1))
                entry.problems = [
                    Problem(
                        entry.shown,
                        line,
                        column,
                        "$",
                        "yaml/not-a-mapping",
                        "a rule file must be a mapping of keys (id, name, ...), not a "
                        + type(entry.doc.data).__name__,
                    )
                ]
                entry.doc = None
        return entry

    def known_entries(self) -> list[_Entry]:
        """Returns every known file, without reading it."""
        return list(self._entries.values())

    def entries(self) -> list[_Entry]:
        """Returns every known file, read."""
        return [self._read(e) for e in self._entries.values()]

    def found(self) -> list[_Entry]:
        """Returns the files of ``rules/`` and ``variants/``, read: not the files named by path
        since (those stay known to :meth:`find`, but a listing must not depend on what this
        process happened to load before)."""
        return [e for e in self.entries() if e.kind in ("ruleset", "variant")]

    def files(self) -> list[tuple[str, str, Path]]:
        """Returns ``(id, kind, path)`` for every readable file of :meth:`found`, rulesets
        first."""
        out = []
        for e in self.found():
            if e.id is not None:
                out.append((e.id, e.kind, e.path))
        return sorted(out, key=lambda t: (t[1] != "ruleset", t[0]))

    def _aliases(self, entry: _Entry) -> list[str]:
        if entry.doc is None:
            return []
        raw = entry.doc.data.get("aliases", [])
        return [a for a in raw if isinstance(a, str)] if isinstance(raw, list) else []

    def find(self, name: str, *, relative_to: Path | None = None) -> _Entry | None:
        """Finds a file by id, alias, or path (a path may be relative to ``relative_to``)."""
        if not name or "\0" in name or not name.isprintable():
            return None  # no file or id holds a NUL or a control character
        if names_a_path(name):
            candidates = [Path(name)]
            if relative_to is not None and not Path(name).is_absolute():
                candidates.insert(0, relative_to / name)
            for candidate in candidates:
                if self.note("isfile", candidate, candidate.is_file()):
                    kind = (
                        "variant"
                        if candidate.resolve().parent == self.variants_dir.resolve()
                        else (
                            "ruleset"
                            if candidate.resolve().parent == self.rules_dir.resolve()
                            else "file"
                        )
                    )
                    return self._read(self._add(candidate, kind))
            return None
        wanted = _normalise(name)
        # Files are named after their ids (rules/quadrille.yaml): try that file before reading
        # every file to look for the id or an alias.
        for folder in (self.rules_dir, self.variants_dir):
            named = self._entries.get(_real_path(folder / f"{wanted}.yaml"))
            if named is not None and not named.read:
                raw = named.raw_bytes()
                if raw is not None and _peek_id(raw) == wanted:
                    return named
            named_id = self._read(named).id if named is not None else None
            if named is not None and named_id is not None and _normalise(named_id) == wanted:
                return named
        for entry in self.entries():
            if entry.id is not None and _normalise(entry.id) == wanted:
                return entry
        for entry in self.entries():
            if any(_normalise(a) == wanted for a in self._aliases(entry)):
                return entry
        return None

    def known_names(self) -> list[str]:
        """Returns the ids of every readable file (for "did you mean" hints)."""
        return [i for i, _, _ in self.files()]

    def add_path(self, path: Path) -> _Entry:
        """Registers a file named on the command line."""
        resolved = _real_path(path)
        if resolved.parent == self.variants_dir.resolve():
            kind = "variant"
        elif resolved.parent == self.rules_dir.resolve():
            kind = "ruleset"
        else:
            kind = "file"
        return self._read(self._add(path, kind))

    # Resolution.

    def resolve(self, entry: _Entry) -> Resolved:
        """Resolves one file's ``extends`` chain and validates it.

        :raises RuleFileError: with every problem found, in this file or its ancestors.
        """
        result = self._resolve(entry)
        if isinstance(result, list):
            raise RuleFileError(result)
        return result

    def _resolve(self, entry: _Entry) -> Resolved | list[Problem]:
        """Resolves a file and its ancestors, without recursion.

        Walks up the ``extends`` chain to the first file already resolved (this run or in the
        cache), a root, or a file whose own ``extends`` is wrong; then resolves back down. A
        chain of more than :data:`MAX_CHAIN` files is refused at the first file's ``extends``.
        """
        pending: list[_Entry] = []
        above: Resolved | list[Problem] | None = None
        current = entry
        while True:
            known = self._known(current)
            if known is not None:
                above = known
                break
            pending.append(current)
            parent = self._parent(current, pending)
            if parent is None:  # a root: nothing above it
                break
            if isinstance(parent, list):  # its own extends (or the file itself) is wrong
                pending.pop()
                above = parent
                break
            if len(pending) >= MAX_CHAIN:
                return self._too_long(entry, pending)
            current = parent
        if isinstance(above, Resolved) and len(pending) + len(above.files) > MAX_CHAIN:
            return self._too_long(entry, pending)
        result = above
        for child in reversed(pending):
            result = self._resolve_one(child, result)
        assert result is not None
        return result

    def _known(self, entry: _Entry) -> Resolved | list[Problem] | None:
        """Returns the file's result if it is already known: resolved this run, or cached."""
        if entry.path in self._resolved:
            return self._resolved[entry.path]
        raw = entry.raw_bytes()
        if raw is not None and not entry.problems:
            hit = _cache.load(entry.path, raw, _read_dependency, self._context())
            if hit is not None and self._links_hold(hit.get("links")):
                cached = _from_cache(hit, entry.kind)
                if cached is not None:
                    self._resolved[entry.path] = cached
                    return cached
        return None

    def _context(self) -> str:
        return f"{self.rules_dir.resolve()}\0{self.variants_dir.resolve()}"

    def _too_long(self, entry: _Entry, pending: Sequence[_Entry]) -> list[Problem]:
        line, col = entry.doc.where(("extends",)) if entry.doc is not None else (None, None)
        names = " -> ".join(e.shown for e in pending[:3])
        found = [
            Problem(
                entry.shown,
                line,
                col,
                "$.extends",
                "extends/too-deep",
                f"extends makes a chain of more than {MAX_CHAIN} files ({names} -> ...):"
                f" a rule file may have at most {MAX_CHAIN - 1} ancestors",
            )
        ]
        self._resolved[entry.path] = found
        return found

    def _parent(self, entry: _Entry, pending: Sequence[_Entry]) -> _Entry | list[Problem] | None:
        """Returns the file ``entry`` extends, None for a root, or the problems that stop it
        (unreadable, or an ``extends`` that names nothing or makes a cycle; kept as its result).
        """
        self._read(entry)
        if entry.problems or entry.doc is None:
            result = list(entry.problems)
            self._resolved[entry.path] = result
            return result
        doc = entry.doc
        parent_name = doc.data.get("extends")
        if parent_name is None:
            return None
        line, col = doc.where(("extends",))

        def fail(code: str, message: str) -> list[Problem]:
            found = [Problem(entry.shown, line, col, "$.extends", code, message)]
            self._resolved[entry.path] = found
            return found

        if not isinstance(parent_name, str):
            return fail("extends/type", "extends must name a ruleset")
        parent = self.find(parent_name, relative_to=entry.path.parent)
        if parent is None:
            hint = difflib.get_close_matches(parent_name, self.known_names(), n=1)
            more = f"; did you mean {hint[0]!r}?" if hint else ""
            return fail(
                "extends/unknown",
                f"extends {parent_name!r}, which is not a known ruleset or variant{more}",
            )
        if any(parent.path == e.path for e in pending):
            names = [e.shown for e in pending] + [parent.shown]
            return fail(
                "extends/cycle", "extends makes a cycle: " + " -> ".join(dict.fromkeys(names))
            )
        return parent

    def _links_hold(self, links: Any) -> bool:
        """Checks that each ``extends:`` of a cached chain still finds the same parent file."""
        if not isinstance(links, list):
            return False
        for link in links:
            if not (isinstance(link, list) and len(link) == 3):
                return False
            child, name, parent = link
            found = self.find(str(name), relative_to=Path(str(child)).parent)
            if found is None or str(found.path) != parent:
                return False
        return True

    def _links(self, resolved: Resolved) -> list[list[str]]:
        links = []
        for parent, child in zip(resolved.files, resolved.files[1:], strict=False):
            entry = self._entries.get(child)
            doc = self._read(entry).doc if entry is not None else None
            name = doc.data.get("extends") if doc is not None else None
            links.append([str(child), str(name), str(parent)])
        return links

    def _to_cache(self, resolved: Resolved) -> dict[str, Any]:
        shown = {e.shown: str(e.path) for e in self._entries.values()}
        files = [str(f) for f in resolved.files]
        index = {f: i for i, f in enumerate(files)}

        def place(w: Where) -> list[Any]:
            return [index.get(shown.get(w[0], ""), -1), w[1], w[2]]

        deps = []
        for f in resolved.files:
            entry = self._entries.get(f)
            raw = entry.raw_bytes() if entry is not None else None
            if raw is None:
                raw = f.read_bytes()
            deps.append([str(f), _cache.content_hash(raw)])
        return {
            "id": resolved.id,
            "chain": list(resolved.chain),
            "files": files,
            "deps": deps,
            "links": self._links(resolved),
            "data": resolved.data,
            "where": [[list(p), *place(w)] for p, w in resolved.where.items()],
            "overrides": [[list(p), *place(w)] for p, w in resolved.overrides],
        }

    def _resolve_one(
        self, entry: _Entry, base: Resolved | list[Problem] | None
    ) -> Resolved | list[Problem]:
        """Resolves one file over its parent's result (None for a root), and validates it."""
        if entry.path in self._resolved:
            return self._resolved[entry.path]
        assert entry.doc is not None  # _parent read it
        doc = entry.doc
        data = doc.data
        own_where: dict[Path_, Where] = {
            p: (entry.shown, line, col) for p, (line, col) in doc.positions.items()
        }
        parent_name = data.get("extends")
        problems: list[Problem] = []
        parent_files: tuple[Path, ...] = ()
        if base is None:
            # A root file's merge operations ($append ...) are left for the schema to refuse.
            merged = copy.deepcopy(data)
            where = own_where
            chain: tuple[str, ...] = (str(data.get("id", entry.shown)),)
            overrides: list[tuple[Path_, Where]] = [
                (p, w) for p, w in own_where.items() if len(p) == 1
            ]
        elif isinstance(base, list):
            line, col = doc.where(("extends",))
            parent = self.find(str(parent_name), relative_to=entry.path.parent)
            shown = parent.shown if parent is not None else str(parent_name)
            found = [
                Problem(
                    entry.shown,
                    line,
                    col,
                    "$.extends",
                    "extends/broken-parent",
                    f"its parent {shown} has errors (listed with that file)",
                ),
                *base,
            ]
            self._resolved[entry.path] = found
            return found
        else:
            merged, where, overrides, problems = _merge(base, data, own_where, entry.shown)
            parent_files = base.files
            chain = (*base.chain, str(data.get("id", entry.shown)))
        resolved = Resolved(
            id=str(data.get("id", entry.shown)),
            file=entry.shown,
            kind=entry.kind,
            data=merged,
            where=where,
            chain=chain,
            overrides=overrides,
            files=(*parent_files, entry.path),
        )
        problems.extend(_schema_problems(resolved))
        if not problems:
            from engine.rules.authoring import authoring_problems
            from engine.rules.checks import semantic_problems

            problems.extend(semantic_problems(resolved))
            problems.extend(authoring_problems(resolved))
        if parent_name is not None:
            from engine.rules.authoring import at_variant

            problems = at_variant(problems, resolved, doc.where(("extends",)))
        if problems:
            self._resolved[entry.path] = problems
            return problems
        self._resolved[entry.path] = resolved
        raw = entry.raw_bytes()
        if raw is not None and _cache.enabled():
            _cache.store(entry.path, raw, self._to_cache(resolved), self._context())
        return resolved

    def validate(self, entries: Iterable[_Entry]) -> list[Problem]:
        """Returns every problem in these files (and their parents), each once."""
        seen: dict[tuple[Any, ...], Problem] = {}
        for entry in entries:
            result = self._resolve(entry)
            if isinstance(result, list):
                for p in result:
                    seen.setdefault((p.file, p.line, p.column, p.code, p.message), p)
        return list(seen.values())


def _exists(path: Path) -> bool:
    """Whether anything is there: a file, a folder, a FIFO ... or a symbolic link, even one
    that leads nowhere or round in a loop (read_file then says which)."""
    try:
        return os.path.lexists(path)
    except (OSError, ValueError):
        return False


_real_path = real_path
"""The absolute path with symbolic links followed (:func:`engine.rules.inputs.real_path`)."""


def _read_dependency(path: Path) -> bytes:
    raw, refused = read_file(path)
    if raw is None:
        raise OSError(refused.message if refused is not None else "cannot read")
    return raw


def _from_cache(hit: dict[str, Any], kind: str) -> Resolved | None:
    """Rebuilds a Resolved from a cache entry (file names shown relative to the cwd)."""
    try:
        files = [Path(f) for f in hit["files"]]
        shown = [display_path(f) for f in files]

        def where(item: list[Any]) -> tuple[Path_, Where]:
            path, index, line, column = item
            return tuple(path), (shown[index] if index >= 0 else shown[-1], line, column)

        return Resolved(
            id=hit["id"],
            file=shown[-1],
            kind=kind,
            data=hit["data"],
            where=dict(where(item) for item in hit["where"]),
            chain=tuple(hit["chain"]),
            overrides=[where(item) for item in hit["overrides"]],
            files=tuple(files),
        )
    except (KeyError, TypeError, ValueError, IndexError):
        return None


def _walk_paths(value: Any, path: Path_) -> Iterator[Path_]:
    yield path
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _walk_paths(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _walk_paths(v, (*path, i))


_Rows = list[tuple[Any, dict[Path_, Where]]]
"""A list's items as they are edited, each with its provenance relative to the item."""


class _Merger:
    """One variant's merge over its parent: the merged document, its provenance, the variant's
    changes (its overrides) and the problems found, shared by the steps of :func:`_merge`."""

    def __init__(
        self, base: Resolved, data: dict[str, Any], own_where: dict[Path_, Where], file: str
    ) -> None:
        """Starts from a copy of the parent's data and provenance, without the keys that are
        each file's own (:data:`_OWN_KEYS`)."""
        self.data = data
        self.own_where = own_where
        self.file = file
        self.merged: dict[str, Any] = copy.deepcopy(base.data)
        self.where: dict[Path_, Where] = dict(base.where)
        self.problems: list[Problem] = []
        self.overrides: list[tuple[Path_, Where]] = []
        for key in _OWN_KEYS:
            self.merged.pop(key, None)
            for p in [p for p in self.where if p and p[0] == key]:
                del self.where[p]

    def loc(self, path: Path_) -> Where:
        """Returns where the variant wrote ``path`` (or its nearest ancestor it wrote), else
        its file without a line."""
        p = path
        while p not in self.own_where and p:
            p = p[:-1]
        return self.own_where.get(p, (self.file, None, None))

    def problem(self, path: Path_, code: str, message: str) -> None:
        """Records a problem at ``path``, located where the variant wrote it."""
        f, line, col = self.loc(path)
        self.problems.append(Problem(f, line, col, json_path(path), code, message))

    def replace(
        self, path: Path_, target: dict[str, Any] | list[Any], key: Any, value: Any
    ) -> None:
        """Puts a copy of ``value`` at ``target[key]`` (at ``path``), its provenance (nested
        values too) the variant's in place of the parent's."""
        old = target.get(key) if isinstance(target, dict) else None
        if isinstance(old, dict | list):
            for p in [p for p in self.where if p[: len(path)] == path]:
                del self.where[p]
        else:
            self.where.pop(path, None)  # a scalar has no nested provenance to drop
        target[key] = copy.deepcopy(value)
        for p in _walk_paths(value, path):
            self.where[p] = self.loc(p)

    def merge_into(self, target: dict[str, Any], override: dict[str, Any], path: Path_) -> None:
        """Merges ``override``, the variant's mapping at ``path``, into ``target`` key by key:
        the file's own keys, operations (list edits, ``$delete``), whole mappings, nested
        mappings (merged in turn) and values that replace the parent's."""
        for key, value in override.items():
            sub = (*path, key)
            if path == () and key in _OWN_KEYS:
                self._own_key(target, key, value, sub)
                continue
            record = True
            if isinstance(value, dict) and any(op in value for op in _OPS):
                self._operation(target, key, value, sub)
                continue
            if key in _WHOLE_KEYS and isinstance(value, dict):
                # A basis is the file's own reasons: the child's replaces the parent's whole,
                # so a parent's citation never stands beside a child's changed value.
                self.replace(sub, target, key, _without_deletes(value))
            elif isinstance(value, dict) and isinstance(target.get(key), dict):
                if not value:
                    continue
                self.merge_into(target[key], value, sub)
                record = False
            else:
                self.replace(sub, target, key, value)
            if record:
                self.overrides.append((sub, self.loc(sub)))

    def _own_key(self, target: dict[str, Any], key: str, value: Any, sub: Path_) -> None:
        """Sets one of the file's own top-level keys (:data:`_OWN_KEYS`) as the variant
        writes it, never inherited and never recorded as a change."""
        if key in self.data:
            target[key] = copy.deepcopy(value)
            for p in _walk_paths(value, sub):
                self.where[p] = self.loc(p)

    def _operation(
        self, target: dict[str, Any], key: Any, value: dict[str, Any], sub: Path_
    ) -> None:
        """Applies a mapping of operations at ``sub``: ``$delete``, or the list edits on the
        parent's list; a mapping that mixes them with other keys, or list edits where the
        parent has no list, is a problem."""
        ops = set(value) & set(_OPS)
        if set(value) - set(_OPS):
            self.problem(
                sub,
                "extends/operation",
                "a mapping of list edits ($append, $remove, $before, $after, $replace,"
                " $drop) or $delete holds nothing else",
            )
            return
        if "$delete" in ops:
            self._delete(target, key, value, sub)
            return
        current = target.get(key)
        if not isinstance(current, list):
            self.problem(
                sub,
                "extends/missing-target",
                f"{'/'.join(sorted(ops))} needs a list in the parent at {json_path(sub)}",
            )
            return
        self._edit_list(target, key, value, sub, current)

    def _delete(self, target: dict[str, Any], key: Any, value: dict[str, Any], sub: Path_) -> None:
        """Applies ``{$delete: true}``: removes the parent's key and its provenance (a wrong
        argument, or a key the parent lacks, is a problem); the deletion is a change."""
        if value["$delete"] is not True:
            self.problem(sub, "extends/operation", "$delete takes the value true")
        elif key not in target:
            self.problem(
                sub,
                "extends/missing-target",
                f"$delete of {json_path(sub)}, which the parent does not have",
            )
        else:
            del target[key]
            for p in [p for p in self.where if p[: len(sub)] == sub]:
                del self.where[p]
        self.overrides.append((sub, self.loc(sub)))

    def _edit_list(
        self,
        target: dict[str, Any],
        key: Any,
        value: dict[str, Any],
        sub: Path_,
        current: list[Any],
    ) -> None:
        """Applies the list edits of ``value`` to the parent's list at ``sub``: ``$remove``,
        then ``$replace``, ``$drop``, ``$before`` and ``$after``, then ``$append``; puts the
        edited list in place and records the variant's changes."""
        # Carry each kept item's provenance (nested values too) to its new index.
        f_where = self.loc(sub)
        per_item = self._items(current, sub)
        self._remove(per_item, value, sub)
        added = self._appended(value, sub)
        mine: _Rows = []
        """The rows this file writes (added, inserted, replacing): its changes."""
        for op_name in ("$replace", "$drop", "$before", "$after"):
            arg = value.get(op_name)
            if arg is None:
                continue
            self._named_edit(op_name, arg, per_item, mine, sub)
        per_item.extend(self._own_rows((*sub, "$append"), added, mine))
        self._place(target, key, sub, per_item, f_where)
        self._record_edit(value, sub, per_item, mine, f_where)

    def _items(self, current: list[Any], sub: Path_) -> _Rows:
        """Returns the parent's items of the list at ``sub``, each with its provenance
        (nested values too) relative to the item."""
        depth = len(sub)
        per_item: _Rows = []
        for i, item in enumerate(current):
            inner = {
                p[depth + 1 :]: w for p, w in self.where.items() if p[: depth + 1] == (*sub, i)
            }
            per_item.append((item, inner))
        return per_item

    def _remove(self, per_item: _Rows, value: dict[str, Any], sub: Path_) -> None:
        """Applies ``$remove``: takes each named item out of ``per_item`` (an argument that is
        not a list, or an item the list does not hold, is a problem)."""
        removed = value.get("$remove", [])
        if not isinstance(removed, list):
            self.problem(
                (*sub, "$remove"),
                "extends/operation",
                f"$remove takes a list of the items to take out, not {_kind(removed)}",
            )
            removed = []
        for item in removed:
            index = next((i for i, (x, _) in enumerate(per_item) if x == item), None)
            if index is None:
                self.problem(
                    (*sub, "$remove"),
                    "extends/missing-target",
                    f"$remove of {item!r}, which {json_path(sub)} does not hold",
                )
            else:
                del per_item[index]

    def _appended(self, value: dict[str, Any], sub: Path_) -> list[Any]:
        """Returns the items of ``$append`` (none, and a problem, if it is not a list)."""
        added = value.get("$append", [])
        if not isinstance(added, list):
            self.problem(
                (*sub, "$append"),
                "extends/operation",
                f"$append takes a list of the items to add, not {_kind(added)}",
            )
            added = []
        return added

    def _own_rows(self, op: Path_, rows: list[Any], mine: _Rows) -> _Rows:
        """Returns copies of the rows the variant writes at ``op``, each with the variant's
        provenance, and notes them in ``mine`` (the variant's changes)."""
        out = []
        for j, item in enumerate(rows):
            inner = {
                p[len(op) + 1 :]: w
                for p, w in self.own_where.items()
                if p[: len(op) + 1] == (*op, j)
            }
            inner.setdefault((), self.loc((*op, j)))
            out.append((copy.deepcopy(item), inner))
        mine.extend(out)
        return out

    def _find_row(self, op: Path_, name: Any, per_item: _Rows, sub: Path_) -> int | None:
        """The index in ``per_item`` of the row ``name`` names (``win``, or
        ``win#2`` for the second row named ``win``), or None (a problem told)."""
        text = str(name)
        base, _, nth = text.partition("#")
        names = [_row_key(x) for x, _ in per_item]
        hits = [i for i, n in enumerate(names) if n == base]
        if nth:
            k = int(nth) - 1 if nth.isdigit() and int(nth) > 0 else -1
            hits = hits[k : k + 1] if 0 <= k < len(hits) else []
        if len(hits) == 1:
            return hits[0]
        known = sorted({n for n in names if n is not None})
        if not hits:
            close = difflib.get_close_matches(base, known, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            self.problem(
                op,
                "extends/missing-target",
                f"no row of {json_path(sub)} is named {text!r}"
                f" (its rows: {', '.join(known) or 'none named'}){hint}",
            )
        else:
            self.problem(
                op,
                "extends/ambiguous-row",
                f"{len(hits)} rows of {json_path(sub)} are named {text!r}: name one"
                f" as {base}#1 ... {base}#{len(hits)} (in the parent's order)",
            )
        return None

    def _named_edit(self, op_name: str, arg: Any, per_item: _Rows, mine: _Rows, sub: Path_) -> None:
        """Applies one edit by the rows' names (``$replace``, ``$drop``, ``$before`` or
        ``$after``) to ``per_item``; an argument of the wrong shape is a problem."""
        op = (*sub, op_name)
        if op_name == "$drop":
            self._drop(op, arg, per_item, sub)
            return
        if not isinstance(arg, dict):
            self.problem(
                op,
                "extends/operation",
                f"{op_name} takes a mapping of a row's name to "
                f"{'the row' if op_name == '$replace' else 'a list of rows'},"
                f" not {_kind(arg)}",
            )
            return
        for name, rows in arg.items():
            self._edit_row(op_name, (*op, name), name, rows, per_item, mine, sub)

    def _drop(self, op: Path_, arg: Any, per_item: _Rows, sub: Path_) -> None:
        """Applies ``$drop``: takes each named row out of ``per_item`` (an argument that is
        not a list, or a name that finds no one row, is a problem)."""
        if not isinstance(arg, list):
            self.problem(
                op,
                "extends/operation",
                f"$drop takes a list of the rows' names, not {_kind(arg)}",
            )
            return
        for name in arg:
            index = self._find_row(op, name, per_item, sub)
            if index is not None:
                del per_item[index]

    def _edit_row(
        self,
        op_name: str,
        at: Path_,
        name: Any,
        rows: Any,
        per_item: _Rows,
        mine: _Rows,
        sub: Path_,
    ) -> None:
        """Puts the variant's ``rows`` (written at ``at``) in place of the row ``name``
        (``$replace``, one row), or before or after it (``$before``, ``$after``, a list)."""
        if op_name == "$replace":
            rows = [rows]
        elif not isinstance(rows, list):
            self.problem(
                at,
                "extends/operation",
                f"{op_name} {name}: takes a list of rows, not {_kind(rows)}",
            )
            return
        index = self._find_row(at, name, per_item, sub)
        if index is None:
            return
        if op_name == "$replace":
            inner = {p[len(at) :]: w for p, w in self.own_where.items() if p[: len(at)] == at}
            inner.setdefault((), self.loc(at))
            new = [(copy.deepcopy(rows[0]), inner)]
            mine.extend(new)
            per_item[index : index + 1] = new
        elif op_name == "$before":
            per_item[index:index] = self._own_rows(at, rows, mine)
        else:
            per_item[index + 1 : index + 1] = self._own_rows(at, rows, mine)

    def _place(
        self,
        target: dict[str, Any],
        key: Any,
        sub: Path_,
        per_item: _Rows,
        f_where: Where,
    ) -> None:
        """Puts the edited list at ``target[key]`` and each item's provenance at its new index
        (an item without its own, the list's)."""
        depth = len(sub)
        for p in [p for p in self.where if p[:depth] == sub and len(p) > depth]:
            del self.where[p]
        target[key] = [item for item, _ in per_item]
        for i, (_, inner) in enumerate(per_item):
            for rest, w in inner.items():
                self.where[(*sub, i, *rest)] = w
            self.where.setdefault((*sub, i), f_where)

    def _record_edit(
        self,
        value: dict[str, Any],
        sub: Path_,
        per_item: _Rows,
        mine: _Rows,
        f_where: Where,
    ) -> None:
        """Records the changes of a list edit: the rows the variant wrote, each at its new
        index; else the list itself, or the edit that took based rows out."""
        # The file's changes are the rows it writes, each at its new index: the
        # parent's rows it keeps stay the parent's (their basis and lines).
        ids = {id(row) for row, _ in mine}
        written = [(i, inner) for i, (row, inner) in enumerate(per_item) if id(row) in ids]
        rows = all(isinstance(per_item[i][0], dict) for i, _ in written)
        if written and rows:
            for i, inner in written:
                self.overrides.append(((*sub, i), inner[()]))
        elif written:
            self.overrides.append((sub, f_where))  # plain items: the list is the change
        elif per_item and all(isinstance(row, dict) and "basis" in row for row, _ in per_item):
            # Based rows taken out only: the change is the edit itself (the rows
            # left are the parent's, with their own basis).
            edit = next((o for o in ("$drop", "$remove") if o in value), "$append")
            self.overrides.append(((*sub, edit), self.loc((*sub, edit))))
        else:
            self.overrides.append((sub, f_where))


def _merge(
    base: Resolved, data: dict[str, Any], own_where: dict[Path_, Where], file: str
) -> tuple[dict[str, Any], dict[Path_, Where], list[tuple[Path_, Where]], list[Problem]]:
    """Merges a variant's ``data`` (its positions ``own_where``, in ``file``) over its parent's
    resolved ``base``: returns the merged data, its provenance, the variant's changes and the
    problems of its operations (see :class:`_Merger`)."""
    merger = _Merger(base, data, own_where, file)
    merger.merge_into(merger.merged, data, ())
    merger.merged["extends"] = data["extends"]
    return merger.merged, merger.where, merger.overrides, merger.problems


def _kind(value: Any) -> str:
    """Names a YAML value's type for a message: ``a number (5)``, ``text``, ``a mapping``."""
    if isinstance(value, bool) or value is None:
        return repr(value).lower()
    if isinstance(value, int | float):
        return f"a number ({value!r})"
    if isinstance(value, str):
        return "text"
    return "a mapping" if isinstance(value, dict) else type(value).__name__


def _is_integer(checker: Any, instance: Any) -> bool:
    """A whole number written as one: ``3``, never ``3.0`` (nor ``true``)."""
    return isinstance(instance, int) and not isinstance(instance, bool)


@lru_cache(maxsize=1)
def _validator() -> Any:
    from jsonschema import Draft202012Validator, validators

    schema = json.loads(schema_path().read_text(encoding="utf-8"))
    # JSON Schema counts 3.0 as an integer; a rule file's counts and amounts must be written
    # as whole numbers, or counters become floats downstream.
    checker = Draft202012Validator.TYPE_CHECKER.redefine("integer", _is_integer)
    strict = validators.extend(Draft202012Validator, type_checker=checker)  # type: ignore[no-untyped-call]
    return strict(schema)


def _schema_problems(resolved: Resolved) -> list[Problem]:
    from engine.rules.schema_pass import schema_problems

    return schema_problems(_validator(), resolved.data, resolved.locate)


_DEFAULT: Registry | None = None


def default_registry() -> Registry:
    """Returns the process-wide registry over the packaged (or checkout) rule files."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = Registry()
    return _DEFAULT


SCHEMA_LINE = re.compile(r"^# yaml-language-server: \$schema=(?P<target>\S+)$")
"""The first line of a rule file: the editors' pointer at the shipped JSON Schema."""


def schema_line_problem(path: Path, shown: str, raw: bytes | None) -> Problem | None:
    """Returns the problem of a rule file whose first line does not point at the shipped
    schema (``# yaml-language-server: $schema=`` and a path, relative to the file, to
    ``engine/schema/ruleset.schema.json``), or None.

    ``validate_paths`` refuses a file in ``rules/`` or ``variants/`` without it, as the suite
    checks every committed file's first line; a file elsewhere (a record's own rules, a
    fixture) is not held to it.
    """
    if raw is None:
        return None  # unreadable: reported by the reader
    first = raw.decode("utf-8", errors="replace").splitlines()[:1]
    match = SCHEMA_LINE.match(first[0]) if first else None
    wanted = "# yaml-language-server: $schema=" + os.path.relpath(
        schema_path().resolve(), path.parent.resolve()
    )
    if match is None:
        message = f"the file must start with the rule-file schema's line, '{wanted}'"
    elif (path.parent / match["target"]).resolve() != schema_path().resolve():
        message = (
            f"the first line's schema {match['target']!r} is not the rule-file schema; "
            f"write '{wanted}'"
        )
    else:
        return None
    return Problem(shown, 1, 1, "$", "format/schema-line", message)


def _entries_of(registry: Registry, names: list[str], problems: list[Problem]) -> list[_Entry]:
    """The rule files the named paths stand for (default: every known one): a folder's files,
    a file, a ruleset or variant by name; what names none of them is added to ``problems``."""
    note = registry.note
    entries: list[_Entry] = []
    if not names:
        entries = registry.known_entries()
        if not entries:
            problems.append(
                Problem(
                    display_path(registry.rules_dir),
                    None,
                    None,
                    "$",
                    "io/no-rule-files",
                    "no rule files found",
                )
            )
    for name in names:
        path = Path(name)
        if note("isdir", name, path.is_dir()):
            found = sorted([*path.glob("*.yaml"), *path.glob("*.yml")])
            for pattern in ("*.yaml", "*.yml"):
                note(f"glob:{pattern}", name, listing(path, pattern))
            if not found:
                problems.append(
                    Problem(
                        name,
                        None,
                        None,
                        "$",
                        "io/no-rule-files",
                        "this folder holds no rule files (*.yaml)",
                    )
                )
            entries.extend(registry.add_path(p) for p in found)
        elif note("isfile", name, path.is_file()):
            entries.append(registry.add_path(path))
        elif note("exists", name, _exists(path)):
            # A FIFO, a device or a socket: refused before it is read.
            _, refused = read_file(path, name)
            if refused is not None:
                problems.append(refused)
        else:
            entry = registry.find(name)
            if entry is None:
                problems.append(
                    Problem(
                        name,
                        None,
                        None,
                        "$",
                        "io/not-found",
                        "no such file, and no ruleset or variant by that name",
                    )
                )
            else:
                entries.append(entry)
    return entries


def _warnings_of(registry: Registry, entries: list[_Entry]) -> Iterator[Problem]:
    """What does not make a file invalid: the starter's placeholder texts left in it, a change
    that has no effect, an entry no game reaches."""
    from engine.rules.authoring import placeholder_warnings

    for entry in entries:
        if entry.doc is not None and entry.kind in ("ruleset", "variant", "file"):
            yield from placeholder_warnings(entry.doc)
            yield from _no_effect(registry, entry)
            yield from _unreachable(registry, entry)


def validate_paths(
    paths: Iterable[str], warnings: list[Problem] | None = None
) -> tuple[list[Problem], int]:
    """Validates the named files and folders (default: ``rules/`` and ``variants/``).

    Returns the problems and the number of files checked. A folder holding no rule file, or
    a path that does not exist, is itself a problem. ``warnings``, when given, receives what
    does not make a file invalid: the starter's placeholder texts left in a file
    (:func:`engine.rules.authoring.placeholder_warnings`).
    """
    registry = Registry()
    problems: list[Problem] = []
    entries = _entries_of(registry, list(paths), problems)
    problems.extend(registry.validate(entries))
    problems.extend(_name_clashes(registry, entries))
    for entry in entries:
        refused = schema_line_problem(entry.path, entry.shown, entry.raw_bytes())
        if refused is not None and entry.kind in ("ruleset", "variant"):
            problems.append(refused)
    if warnings is not None:
        warnings.extend(_warnings_of(registry, entries))
    if _NOTING:
        noted = registry.inputs()
        for sink in _NOTING:
            sink.extend(noted if noted is not None else [("unreadable", "", "")])
    return problems, len(entries)


_NOTING: list[list[Input]] = []


@contextmanager
def noting_inputs() -> Iterator[list[Input]]:
    """Collects, while it is open, what the file system answered each :func:`validate_paths`
    (:mod:`engine.rules.inputs`): ``engine.startup`` prints a report again only while every
    answer holds."""
    sink: list[Input] = []
    _NOTING.append(sink)
    try:
        yield sink
    finally:
        _NOTING.remove(sink)


def _no_effect(registry: Registry, entry: _Entry) -> list[Problem]:
    """The warnings for a valid variant's changes that no deal shows
    (:func:`engine.rules.authoring.no_effect_warnings`)."""
    from engine.rules.authoring import no_effect_warnings

    resolved = registry._resolve(entry)
    if isinstance(resolved, list) or len(resolved.chain) < 2:
        return []
    if entry.doc is None:
        return []
    parent_entry = registry.find(str(entry.doc.data.get("extends")), relative_to=entry.path.parent)
    if parent_entry is None:
        return []
    parent = registry._resolve(parent_entry)
    if isinstance(parent, list):
        return []
    return no_effect_warnings(
        resolved.file, resolved.data, resolved.overrides, parent.data, parent.id
    )


def _unreachable(registry: Registry, entry: _Entry) -> list[Problem]:
    """The warnings for a valid file's contracts that no deal can be played in
    (:func:`engine.rules.authoring.unreachable_warnings`)."""
    from engine.rules.authoring import unreachable_warnings

    resolved = registry._resolve(entry)
    if isinstance(resolved, list):
        return []
    return unreachable_warnings(resolved.file, resolved.data, resolved.locate)


def _name_clashes(registry: Registry, checked: Sequence[_Entry]) -> list[Problem]:
    """Returns a problem for each checked file of ``rules/`` or ``variants/`` whose id or alias
    is already the id or alias of another file there: a name must find one file, or
    ``ombre show NAME`` would silently pick one of them."""
    owners: dict[str, _Entry] = {}
    for entry in registry.entries():
        if entry.kind in ("ruleset", "variant") and entry.id is not None:
            for name in (entry.id, *registry._aliases(entry)):
                owners.setdefault(_normalise(name), entry)
    problems: list[Problem] = []
    for entry in checked:
        if entry.kind not in ("ruleset", "variant") or entry.id is None or entry.doc is None:
            continue
        aliases = registry._aliases(entry)
        named = [(("id",), entry.id)] + [(("aliases", k), a) for k, a in enumerate(aliases)]
        for key, name in named:
            owner = owners.get(_normalise(name))
            if owner is None or owner is entry:
                continue
            line, column = entry.doc.positions.get(key, (None, None))
            path = "$." + ".".join(str(k) if isinstance(k, str) else f"[{k}]" for k in key)
            problems.append(
                Problem(
                    entry.shown,
                    line,
                    column,
                    path.replace(".[", "["),
                    "semantic/duplicate-name",
                    f"{name!r} already names {owner.shown}; each id and alias must name one file",
                )
            )
    return problems

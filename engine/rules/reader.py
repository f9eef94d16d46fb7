"""YAML reading with positions, and with PyYAML's traps closed.

Rule files and records are read with the *safe* composer only (libyaml's when available), and
turned into plain data by our own walk over the node tree, so that:

* every value keeps its position: a side table ``{path tuple: (line, column)}`` (1-based);
* duplicate keys are an error (PyYAML silently keeps the last one);
* anchors and aliases are refused, which also closes the "billion laughs" alias bomb;
* only the core tags are accepted (``!!python/object`` and friends are an error);
* dates stay strings, and ``yes``/``no``/``on``/``off`` stay words: only ``true``/``false`` are
  booleans, so a stray ``no`` fails the schema loudly instead of becoming ``False``.

Limits (``docs/rule-format.md``, "Limits"): a file is read only if it is a regular file of at
most :data:`MAX_BYTES` bytes (a FIFO, a device or an oversized file is refused before a byte is
read); characters YAML does not allow (control characters other than tab and line breaks) are
refused with their position; and no value may be nested more than :data:`MAX_DEPTH` levels
deep, so that nothing downstream recurses without bound.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeAlias

import yaml

from engine.errors import Problem

try:  # libyaml's composer is an order of magnitude faster and gives the same marks.
    _Loader: type[Any] = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - pure-Python PyYAML
    _Loader = yaml.SafeLoader

Path_ = tuple[str | int, ...]

Plain: TypeAlias = "str | int | float | bool | Mapping[str, Plain] | Sequence[Plain] | None"
"""A value as YAML or JSON can write it: a scalar, a mapping of them or a list of them."""
Positions = dict[Path_, tuple[int, int]]
Where = tuple[str, int | None, int | None]
"""Where a value was set: the file, its line and column (None where unknown)."""


def locate(where: Mapping[Path_, Where], path: Path_, file: str) -> Where:
    """Returns the provenance of ``path`` or of its nearest ancestor (``file`` if none)."""
    p = tuple(path)
    while True:
        if p in where:
            return where[p]
        if not p:
            return (file, None, None)
        p = p[:-1]


_STR = "tag:yaml.org,2002:str"
_INT = "tag:yaml.org,2002:int"
_FLOAT = "tag:yaml.org,2002:float"
_BOOL = "tag:yaml.org,2002:bool"
_NULL = "tag:yaml.org,2002:null"
_TIMESTAMP = "tag:yaml.org,2002:timestamp"
_SEQ = "tag:yaml.org,2002:seq"
_MAP = "tag:yaml.org,2002:map"
_SCALAR_TAGS = {_STR, _INT, _FLOAT, _BOOL, _NULL, _TIMESTAMP}

MAX_BYTES = 4 * 1024 * 1024
"""The largest rule file or record read (4 MiB; the largest shipped rule file is 24 kB)."""
MAX_DEPTH = 64
"""The deepest nesting of mappings and lists accepted (rule files use about 8 levels)."""

# What YAML 1.1 accepts as printable (tab, line breaks, and the printable ranges); anything
# else (C0 and C1 controls, DEL, lone surrogates, U+FFFE/U+FFFF) makes the reader fail.
_NOT_PRINTABLE = re.compile(
    "[^\x09\x0a\x0d\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]"
)


def json_path(path: Path_) -> str:
    """Returns ``$.a.b[2].c`` for the path ``("a", "b", 2, "c")``."""
    out = "$"
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        elif part.replace("-", "").replace("_", "").isalnum():
            out += f".{part}"
        else:
            out += f"[{part!r}]"
    return out


@dataclass
class Document:
    """A YAML document read as plain data, with the position of every node."""

    file: str
    data: Any
    positions: Positions = field(default_factory=dict)

    def where(self, path: Path_) -> tuple[int | None, int | None]:
        """Returns the (line, column) of the nearest node at or above ``path``."""
        p = tuple(path)
        while True:
            if p in self.positions:
                return self.positions[p]
            if not p:
                return (None, None)
            p = p[:-1]


class _Abort(Exception):
    """Stops the walk at the first alias."""


class _Builder:
    def __init__(self, file: str) -> None:
        self.file = file
        self.positions: Positions = {}
        self.problems: list[Problem] = []
        self.seen: set[int] = set()

    def problem(self, node: yaml.Node, path: Path_, code: str, message: str) -> None:
        mark = node.start_mark
        self.problems.append(
            Problem(self.file, mark.line + 1, mark.column + 1, json_path(path), code, message)
        )

    def build(self, node: yaml.Node, path: Path_) -> Any:
        self.positions[path] = (node.start_mark.line + 1, node.start_mark.column + 1)
        if len(path) > MAX_DEPTH:
            self.problem(
                node,
                (),
                "yaml/too-deep",
                f"values are nested more than {MAX_DEPTH} levels deep here",
            )
            raise _Abort
        # An alias is the same node object met twice: refuse it (and so every alias bomb).
        if id(node) in self.seen:
            self.problem(
                node, path, "yaml/alias", "anchors and aliases (&name, *name) are not allowed here"
            )
            raise _Abort
        self.seen.add(id(node))
        if isinstance(node, yaml.ScalarNode):
            return self.scalar(node, path)
        if isinstance(node, yaml.SequenceNode):
            if node.tag != _SEQ:
                self.problem(node, path, "yaml/tag", f"tag {node.tag!r} is not allowed here")
            return [self.build(child, (*path, i)) for i, child in enumerate(node.value)]
        if isinstance(node, yaml.MappingNode):
            if node.tag != _MAP:
                self.problem(node, path, "yaml/tag", f"tag {node.tag!r} is not allowed here")
            out: dict[str, Any] = {}
            first_line: dict[str, int] = {}
            for key_node, value_node in node.value:
                if not isinstance(key_node, yaml.ScalarNode):
                    self.problem(key_node, path, "yaml/key", "a key must be a plain word")
                    continue
                key = key_node.value
                if key == "<<":
                    self.problem(
                        key_node, path, "yaml/merge-key", "merge keys (<<) are not allowed"
                    )
                    continue
                if key in out:
                    self.problem(
                        key_node,
                        (*path, key),
                        "yaml/duplicate-key",
                        f"duplicate key {key!r} (first set on line {first_line[key]})",
                    )
                    continue
                first_line[key] = key_node.start_mark.line + 1
                out[key] = self.build(value_node, (*path, key))
                # Point a key's errors at the key itself, where the reader looks for it.
                self.positions[(*path, key)] = (
                    key_node.start_mark.line + 1,
                    key_node.start_mark.column + 1,
                )
            return out
        self.problem(node, path, "yaml/node", "unsupported YAML node")  # pragma: no cover
        return None

    def scalar(self, node: yaml.ScalarNode, path: Path_) -> Any:
        tag, value = node.tag, node.value
        if tag not in _SCALAR_TAGS:
            self.problem(node, path, "yaml/tag", f"tag {tag!r} is not allowed in this file")
            return value
        if tag in (_STR, _TIMESTAMP):
            return value
        if tag == _NULL:
            return None
        if tag == _BOOL:
            low = value.lower()
            if low == "true":
                return True
            if low == "false":
                return False
            return value  # yes / no / on / off stay words
        if tag == _INT:
            try:
                return int(value.replace("_", ""), 0)
            except ValueError:
                return value
        if tag == _FLOAT:
            try:
                return float(value.replace("_", ""))
            except ValueError:
                return value
        return value  # pragma: no cover


def _mark_problem(file: str, exc: yaml.MarkedYAMLError, code: str) -> Problem:
    mark = exc.problem_mark or exc.context_mark
    line = mark.line + 1 if mark is not None else None
    column = mark.column + 1 if mark is not None else None
    what = exc.problem or str(exc)
    if exc.context:
        what = f"{exc.context}, {what}" if exc.problem else exc.context
    return Problem(file, line, column, "$", code, f"YAML syntax error: {what}")


def _decode(file: str, raw: bytes) -> tuple[str | None, Problem | None]:
    try:
        return raw.decode("utf-8-sig"), None
    except UnicodeDecodeError as exc:
        before = raw[: exc.start]
        line = before.count(b"\n") + 1
        column = exc.start - (before.rfind(b"\n") + 1) + 1
        return None, Problem(
            file,
            line,
            column,
            "$",
            "io/encoding",
            f"the file is not UTF-8 text (byte 0x{raw[exc.start]:02x})",
        )


def _at_first_alias(text: str, problems: list[Problem]) -> list[Problem]:
    """Moves the alias problem to the alias itself.

    The composed node of an alias is the anchored node, whose mark is the anchor's; the event
    stream still knows where the first alias stands (only read again on this error path).
    """
    for event in yaml.parse(text, Loader=_Loader):
        if isinstance(event, yaml.AliasEvent) and event.start_mark is not None:
            mark = event.start_mark
            return [
                Problem(p.file, mark.line + 1, mark.column + 1, p.path, p.code, p.message)
                if p.code == "yaml/alias"
                else p
                for p in problems
            ]
    return problems  # pragma: no cover - an alias problem always has an alias event


def _control_character(file: str, text: str) -> Problem | None:
    """Returns a problem at the first character YAML does not allow, if there is one."""
    bad = _NOT_PRINTABLE.search(text)
    if bad is None:
        return None
    before = text[: bad.start()]
    line = before.count("\n") + 1
    column = bad.start() - (before.rfind("\n") + 1) + 1
    return Problem(
        file,
        line,
        column,
        "$",
        "yaml/control-character",
        f"the character U+{ord(bad.group()):04X} is not allowed in a YAML file"
        " (write it as an escape, e.g. \\u0001, inside double quotes)",
    )


@dataclass(frozen=True)
class Growth:
    """A document whose size may grow with one of its lists: a record of many deals holds more
    than a rule file, in proportion to its deals, so that a long record stays readable while a
    short one padded out is refused."""

    path: tuple[str, ...]
    """The list that grows (``("deals",)``)."""
    bytes_each: int
    """The bytes each of its items may add beyond :data:`MAX_BYTES`."""
    nodes_each: int
    """The values each of its items may add beyond the document's ``nodes``."""
    noun: str
    """What one item is called in a message ("deal")."""

    def count(self, n: int) -> str:
        """Returns ``n`` items in words: "1 deal", "3 deals"."""
        return f"{n} {self.noun}" if n == 1 else f"{n} {self.noun}s"


@dataclass(frozen=True)
class Limits:
    """How large a document's lists and mappings may be, checked on the YAML event stream
    *before* any node is built, so that an input far larger than what it describes can hold
    (a hand of 1.4 million cards) is refused after reading a few of its items, in constant
    memory. ``items`` maps a path pattern (``None`` stands for any key or index) to the most
    items there and the rule in words ("a hand holds at most 52 cards ..."); any other list or
    mapping holds at most ``others``; the whole document at most ``nodes`` values."""

    items: Mapping[Path_ | tuple[str | int | None, ...], tuple[int, str]]
    others: int
    nodes: int
    grows: Growth | None = None
    """What grows with the items of one list (a record's deals): the bytes and values allowed
    beyond :data:`MAX_BYTES` and ``nodes`` for each of its items; None for a fixed size."""

    def max_bytes(self) -> int:
        """Returns the most bytes a document may hold: :data:`MAX_BYTES`, and as many more as
        the growing list's items may bring at most (checked again against the items found)."""
        grows = self.grows
        if grows is None:
            return MAX_BYTES
        return MAX_BYTES + grows.bytes_each * self.most(grows.path)[0]

    def most(self, path: Path_) -> tuple[int, str]:
        for pattern, bound in self.items.items():
            if len(pattern) == len(path) and all(
                p is None or p == q for p, q in zip(pattern, path, strict=True)
            ):
                return bound
        return self.others, f"a list or mapping here holds at most {self.others} items"


def _over_limits(file: str, text: str, limits: Limits) -> Problem | None:
    """Returns the first place where the document outgrows ``limits`` (None if it does not, or
    if it is not well-formed YAML: the composer then says why)."""
    # Each open list or mapping: [path, items so far, most, what, key awaited?, last key].
    stack: list[list[Any]] = []
    nodes = 0
    grows = limits.grows
    grown = 0  # the items of the growing list so far
    growing: list[Any] | None = None  # its frame, once open

    def problem(mark: Any, path: Path_, code: str, message: str) -> Problem:
        return Problem(file, mark.line + 1, mark.column + 1, json_path(path), code, message)

    try:
        for event in yaml.parse(text, Loader=_Loader):
            if not isinstance(event, _NODE_EVENTS):
                if isinstance(event, _END_EVENTS) and stack:
                    stack.pop()
                continue
            nodes += 1
            path: Path_ = ()
            if stack:
                frame = stack[-1]
                if frame[4] is None:  # a list: this is its next item
                    path = (*frame[0], frame[1])
                    frame[1] += 1
                elif frame[4]:  # a mapping awaits a key
                    frame[1] += 1
                    frame[4] = False
                    frame[5] = event.value if isinstance(event, yaml.ScalarEvent) else "?"
                    path = (*frame[0], frame[5])
                else:
                    frame[4] = True
                    path = (*frame[0], frame[5])
                if frame[1] > frame[2]:
                    return problem(
                        event.start_mark,
                        frame[0],
                        "yaml/too-many",
                        f"{frame[3]} (this is item {frame[1]})",
                    )
            if growing is not None and growing[4] is None:
                grown = growing[1]
            if nodes > limits.nodes + (grows.nodes_each * grown if grows else 0):
                most_nodes = limits.nodes + (grows.nodes_each * grown if grows else 0)
                whole = f"a file of {grows.count(grown)}" if grows else "a file of this kind"
                return problem(
                    event.start_mark,
                    path,
                    "yaml/too-many",
                    f"{whole} holds at most {most_nodes} values (this is one more)",
                )
            if isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
                if len(stack) >= MAX_DEPTH:
                    return None  # the composer's walk refuses the nesting, located
                most, what = limits.most(path)
                is_map = isinstance(event, yaml.MappingStartEvent)
                stack.append([path, 0, most, what, True if is_map else None, None])
                if grows is not None and path == grows.path and growing is None:
                    growing = stack[-1]
    except yaml.YAMLError:
        return None
    if grows is not None:
        if growing is not None and growing[4] is None:
            grown = growing[1]
        most_bytes = MAX_BYTES + grows.bytes_each * grown
        if len(text) > most_bytes:
            return _too_large(
                file,
                len(text),
                "characters",
                most_bytes,
                f"a file of {grows.count(grown)} holds at most {most_bytes} ({MAX_BYTES} and "
                f"{grows.bytes_each} a {grows.noun})",
            )
    return None


_NODE_EVENTS = (yaml.ScalarEvent, yaml.SequenceStartEvent, yaml.MappingStartEvent, yaml.AliasEvent)
_END_EVENTS = (yaml.SequenceEndEvent, yaml.MappingEndEvent)


def parse_text(
    file: str, text: str, limits: Limits | None = None
) -> tuple[Document | None, list[Problem]]:
    """Parses one YAML document from text; returns it with the problems found (if any).

    With ``limits``, a document whose lists or mappings outgrow them is refused (``yaml/too-many``,
    at the first item too many) before it is built.
    """
    cap = MAX_BYTES if limits is None else limits.max_bytes()
    if len(text) > cap:
        return None, [_too_large(file, len(text), "characters", cap)]
    if not text.strip() or all(
        not line.strip() or line.lstrip().startswith("#") for line in text.splitlines()
    ):
        return None, [Problem(file, 1, 1, "$", "yaml/empty", "the file is empty")]
    control = _control_character(file, text)
    if control is not None:
        return None, [control]
    if limits is not None:
        over = _over_limits(file, text, limits)
        if over is not None:
            return None, [over]
    try:
        node = yaml.compose(text, Loader=_Loader)
    except yaml.MarkedYAMLError as exc:
        return None, [_mark_problem(file, exc, "yaml/syntax")]
    except yaml.YAMLError as exc:  # e.g. a ReaderError: not marked, but still the input's fault
        return None, [Problem(file, None, None, "$", "yaml/syntax", f"YAML error: {exc}")]
    except RecursionError:  # the pure-Python composer on deep nesting
        return None, [
            Problem(
                file,
                None,
                None,
                "$",
                "yaml/too-deep",
                f"values are nested more than {MAX_DEPTH} levels deep",
            )
        ]
    if node is None:
        return None, [Problem(file, 1, 1, "$", "yaml/empty", "the file is empty")]
    builder = _Builder(file)
    try:
        data = builder.build(node, ())
    except _Abort:
        if any(p.code == "yaml/alias" for p in builder.problems):
            return None, _at_first_alias(text, builder.problems)
        return None, builder.problems
    if builder.problems:
        return None, builder.problems
    return Document(file, data, builder.positions), []


def parse_bytes(
    file: str, raw: bytes, limits: Limits | None = None
) -> tuple[Document | None, list[Problem]]:
    """Decodes UTF-8 bytes, then parses them as with :func:`parse_text`."""
    cap = MAX_BYTES if limits is None else limits.max_bytes()
    if len(raw) > cap:
        return None, [_too_large(file, len(raw), "bytes", cap)]
    text, problem = _decode(file, raw)
    if problem is not None or text is None:
        return None, [problem] if problem else []
    return parse_text(file, text, limits)


def _too_large(
    file: str, size: int, unit: str = "bytes", cap: int = MAX_BYTES, limit: str | None = None
) -> Problem:
    """The refusal of a file larger than ``cap``; ``limit`` says the limit in words (by
    default: the limit is CAP (N MiB))."""
    said = limit or f"the limit is {cap} ({cap // 1024 // 1024} MiB)"
    return Problem(file, None, None, "$", "io/too-large", f"the file holds {size} {unit}; {said}")


def read_file(
    path: Path, shown: str | None = None, cap: int = MAX_BYTES
) -> tuple[bytes | None, Problem | None]:
    """Reads a rule file or record safely: a regular file of at most ``cap`` bytes
    (:data:`MAX_BYTES`; a record's, :meth:`Limits.max_bytes`).

    A FIFO, a device (``/dev/zero``), a folder or an oversized file is refused before it is
    read, so nothing hangs or fills memory. Returns the bytes, or None and the problem.
    """
    name = shown if shown is not None else str(path)

    def refuse(code: str, message: str) -> tuple[bytes | None, Problem | None]:
        return None, Problem(name, None, None, "$", code, message)

    try:
        info = os.stat(path)
    except (OSError, ValueError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        return refuse("io/read", f"cannot read: {reason}")
    if not stat.S_ISREG(info.st_mode):
        kind = (
            "a folder"
            if stat.S_ISDIR(info.st_mode)
            else "a FIFO"
            if stat.S_ISFIFO(info.st_mode)
            else "a device"
            if stat.S_ISCHR(info.st_mode) or stat.S_ISBLK(info.st_mode)
            else "a socket"
            if stat.S_ISSOCK(info.st_mode)
            else "not a regular file"
        )
        return refuse("io/not-a-file", f"cannot read: this is {kind}, not a regular file")
    if info.st_size > cap:
        return None, _too_large(name, info.st_size, cap=cap)
    try:
        # O_NONBLOCK: should the file have been swapped for a FIFO since the stat, open does
        # not wait for a writer.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as handle:
            raw = handle.read(cap + 1)
    except OSError as exc:
        return refuse("io/read", f"cannot read: {exc.strerror or exc}")
    if len(raw) > cap:
        return None, _too_large(name, len(raw), cap=cap)
    return raw, None

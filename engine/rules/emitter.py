"""The one YAML emitter: everything the project writes (records, evenings, starter variants).

It is the reader's counterpart (:mod:`engine.rules.reader`): what it writes, the reader reads
back equal. A document is built as plain values (mappings, lists, text, whole numbers, flags,
``None``) and laid out in one style:

- block mappings, two spaces deeper for each level, a list's items indented under their key
  (``hands:`` then ``  - [...]``), a mapping in a list starting on the item's line;
- a value wrapped in :class:`Flow` (and an empty list or mapping) on one line, in flow style
  (``options: {removed-suit: hearts}``, ``tricks: [1, 3, 3, 3]``);
- a :class:`Comment` used as a key of a mapping: a comment line there (its value is ignored);
- text bare when it reads back as the same text (ids such as ``sans-prendre``, action lines
  such as ``1 play Kd``, cards), else double-quoted with escapes (:func:`quoted`).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

__all__ = ["Comment", "Flow", "block", "commented", "document", "flow", "quoted", "scalar"]


@dataclass(frozen=True)
class Flow:
    """A value written on one line, in flow style (``[As, Kd]``, ``{seat: 0}``)."""

    value: Any


@dataclass(frozen=True)
class Comment:
    """A comment line, as a key of a mapping (where it stands among the keys)."""

    text: str


# Bare: an action line (``1 play Kd``, ``0 bid ask``), an id (``sans-prendre``) or a card
# (``Kd``, ``Ts``). None of them holds a character YAML gives a meaning, in block or flow.
_PLAIN = re.compile(
    r"^[0-9]+( [a-z][a-z-]*)( [A-Za-z0-9-]+)*$|^[a-z][a-z0-9_-]*$|^[AKQJT2-9][cdhs]$"
)
# Bare words YAML reads as a flag or nothing.
_WORDS = frozenset({"true", "false", "null", "yes", "no", "on", "off", "y", "n"})

# Characters that YAML does not allow raw, or reads as a line break (U+0085, U+2028,
# U+2029) or a byte-order mark: written as \u escapes, which JSON and YAML read alike.
_ESCAPE = re.compile(
    "[^\x09\x0a\x0d\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd"
    "\U00010000-\U0010ffff]"
)


def quoted(text: str) -> str:
    """Returns text as a double-quoted YAML scalar that reads back exactly (escapes as needed)."""
    return _ESCAPE.sub(lambda m: f"\\u{ord(m.group()):04x}", json.dumps(text, ensure_ascii=False))


def scalar(value: object) -> str:
    """Returns one value as a YAML scalar: text bare when that reads back the same (else
    :func:`quoted`), whole numbers and flags as JSON writes them, ``None`` as ``null``.

    :raises TypeError: for a value the project's formats do not hold (a float that is not
        finite, an object).
    """
    if isinstance(value, str):
        if _PLAIN.fullmatch(value) and value not in _WORDS:
            return value
        return quoted(value)
    if value is None or isinstance(value, bool | int):
        return json.dumps(value)
    if isinstance(value, float) and math.isfinite(value):
        return repr(value)
    raise TypeError(f"no YAML scalar for {value!r}")


def flow(value: object) -> str:
    """Returns a value (nested lists and mappings too) on one line, in flow style."""
    if isinstance(value, Flow):
        return flow(value.value)
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{scalar(k)}: {flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(flow(v) for v in value) + "]"
    return scalar(value)


def _inline(value: Any) -> bool:
    return isinstance(value, Flow) or not isinstance(value, Mapping | list | tuple) or not value


def block(value: object, indent: int = 0) -> list[str]:
    """Returns a value laid out in block style, as lines ``indent`` spaces deep."""
    pad = " " * indent
    if _inline(value):
        return [pad + flow(value)]
    lines: list[str] = []
    if isinstance(value, Mapping):
        for key, item in value.items():
            if isinstance(key, Comment):
                lines.append(f"{pad}# {key.text}")
            elif _inline(item):
                lines.append(f"{pad}{scalar(key)}: {flow(item)}")
            else:
                lines.append(f"{pad}{scalar(key)}:")
                lines.extend(block(item, indent + 2))
        return lines
    items = cast("Sequence[object]", value)  # not a mapping, not inline: a list
    for item in items:
        if _inline(item):
            lines.append(f"{pad}- {flow(item)}")
            continue
        inner = block(item, indent + 2)
        if isinstance(item, Mapping) and not isinstance(next(iter(item)), Comment):
            lines.append(f"{pad}- {inner[0][indent + 2 :]}")
            lines.extend(inner[1:])
        else:
            lines.append(f"{pad}-")
            lines.extend(inner)
    return lines


def commented(value: object, indent: int = 0) -> list[str]:
    """Returns :func:`block` lines commented out (``# `` before each): an example to uncomment."""
    return ["# " + line for line in block(value, indent)]


def document(value: Mapping[str, object]) -> str:
    """Returns a whole YAML document: a mapping in block style, ending in a newline."""
    return "\n".join(block(value)) + "\n"

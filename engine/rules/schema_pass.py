"""The schema pass: a document checked against a JSON Schema, each problem located.

Rule files, and the project's own data files (``sources/``), go through the same pass: the
document is validated (``engine/schema/NAME.schema.json``, whole numbers written as such), and
every error becomes a :class:`Problem` at the ``FILE:LINE:COLUMN`` the reader recorded for
the value (:class:`engine.rules.reader.Document` keeps every node's position).

A schema node may name the problems it makes: ``x-code`` (e.g. ``source/type``) replaces the
default code ``schema/<keyword>`` for every error of the node, ``x-codes`` for one keyword
(``{"type": "source/shape"}``), and ``x-messages`` the validator's words for one keyword. The
message may mention ``{value}`` (the value refused), ``{key}`` (for ``additionalProperties``
the unknown key, for ``required`` the missing one) and ``{allowed}`` (the keys allowed).
``x-hint: false`` leaves out the "did you mean" of an unknown key, and ``x-at-key: true``
locates a missing key's problem at the key (``$.ruleset``) rather than at the mapping.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.errors import Problem
from engine.rules.reader import Document, Path_, Plain, json_path

if TYPE_CHECKING:
    from jsonschema.protocols import Validator

__all__ = [
    "Locate",
    "document_problems",
    "duplicate_ids",
    "schema",
    "schema_file",
    "schema_problems",
    "validator",
]

Locate = Callable[[Path_], tuple[str, int | None, int | None]]
"""Returns the file, line and column of the value at a path (or of its nearest ancestor)."""


def schema_file(name: str) -> Path:
    """Returns the path of the packaged schema ``name`` (``ruleset``, ``source`` ...)."""
    return Path(__file__).resolve().parent.parent / "schema" / f"{name}.schema.json"


@lru_cache(maxsize=16)
def schema(name: str) -> dict[str, Any]:
    """Returns the packaged schema ``name`` as read from its file (read once per process)."""
    read: dict[str, Any] = json.loads(schema_file(name).read_text(encoding="utf-8"))
    return read


def _is_integer(checker: Any, instance: Any) -> bool:
    """A whole number written as one: ``3``, never ``3.0`` (nor ``true``)."""
    return isinstance(instance, int) and not isinstance(instance, bool)


@lru_cache(maxsize=16)
def validator(name: str) -> Validator:
    """Returns the validator of schema ``name`` (built once per process).

    JSON Schema counts 3.0 as an integer; the project's counts and amounts must be written as
    whole numbers, or counters become floats downstream. A schema may refer to another of the
    folder by its file name (``{"$ref": "score.schema.json"}``: an evening's deals are checked
    against the scorekeeper's one schema of a ``score:``).
    """
    from jsonschema import Draft202012Validator, validators
    from referencing import Registry, Resource

    folder = schema_file(name).parent
    resources = [
        Resource.from_contents(schema(path.name.removesuffix(".schema.json")))
        for path in sorted(folder.glob("*.schema.json"))
    ]
    registry: Registry[Any] = Registry().with_resources(
        (str(resource.contents["$id"]), resource) for resource in resources
    )
    checker = Draft202012Validator.TYPE_CHECKER.redefine("integer", _is_integer)
    strict = validators.extend(Draft202012Validator, type_checker=checker)  # type: ignore[no-untyped-call]
    made: Validator = strict(schema(name), registry=registry)
    return made


def schema_problems(check: Validator, data: Plain, locate: Locate) -> list[Problem]:
    """Returns every problem ``check`` (a validator) finds in ``data``, located and sorted."""
    problems = []
    for error in check.iter_errors(data):
        path: Path_ = tuple(error.absolute_path)
        message = error.message
        kind = str(error.validator)
        schema = error.schema if isinstance(error.schema, dict) else {}
        code = (schema.get("x-codes") or {}).get(kind) or schema.get("x-code")
        wording = (schema.get("x-messages") or {}).get(kind)
        if kind == "additionalProperties" and isinstance(error.instance, dict):
            allowed = list((schema.get("properties") or {}).keys())
            extras = [k for k in error.instance if k not in allowed]
            for extra in extras:
                hint = difflib.get_close_matches(str(extra), allowed, n=1)
                more = f"; did you mean {hint[0]!r}?" if hint and schema.get("x-hint", True) else ""
                sub = (*path, extra)
                f, line, col = locate(sub)
                text = (
                    wording.format(key=repr(extra), allowed=", ".join(allowed), value="") + more
                    if wording
                    else f"unknown key {extra!r} (allowed here: {', '.join(allowed)}){more}"
                )
                problems.append(
                    Problem(f, line, col, json_path(sub), code or "schema/unknown-key", text)
                )
            continue
        if wording:
            key = ""
            if kind == "required":
                key = message.split(" is a required property")[0]
                if schema.get("x-at-key"):
                    wanted = error.validator_value
                    names = wanted if isinstance(wanted, list) else []
                    held = error.instance if isinstance(error.instance, dict) else {}
                    missing = [k for k in names if k not in held]
                    path = (*path, missing[0]) if missing else path
            message = wording.format(key=key, allowed="", value=repr(error.instance))
        elif kind == "oneOf" and isinstance(schema.get("oneOf"), list):
            alternatives = [a for a in schema["oneOf"] if isinstance(a, dict)]
            message = f"{error.instance!r} is none of the forms allowed here: " + "; or ".join(
                _form(alt) for alt in alternatives
            )
            message += _nearest(error.instance, [v for a in alternatives for v in _values(a)])
        elif kind == "required":
            message = message.replace("is a required property", "is required here")
        elif kind == "enum":
            values = list(error.validator_value) if isinstance(error.validator_value, list) else []
            message = f"{error.instance!r} is not one of {_listed(values)}"
            message += _nearest(error.instance, values)
        f, line, col = locate(path)
        problems.append(Problem(f, line, col, json_path(path), code or f"schema/{kind}", message))
    problems.sort(key=lambda p: (p.file, p.line or 0, p.column or 0))
    return problems


def _values(alternative: dict[str, Any]) -> list[Any]:
    """The literal values an alternative of a ``oneOf`` allows (its ``enum`` or ``const``)."""
    if isinstance(alternative.get("enum"), list):
        return list(alternative["enum"])
    return [alternative["const"]] if "const" in alternative else []


def _listed(values: list[Any]) -> str:
    return ", ".join(f"`{v}`" for v in values)


def _form(alternative: dict[str, Any]) -> str:
    """Says in words what one alternative of a ``oneOf`` takes, e.g. "one of `in-play`,
    `doubling`" or "a mapping with `step`"."""
    values = _values(alternative)
    if values:
        return f"one of {_listed(values)}" if len(values) > 1 else _listed(values)
    required = alternative.get("required")
    if alternative.get("type") == "object" or isinstance(required, list):
        keys = required if isinstance(required, list) else []
        return f"a mapping with {_listed(keys)}" if keys else "a mapping"
    kind = alternative.get("type")
    if isinstance(kind, str):
        return {"integer": "a whole number", "string": "a text", "array": "a list"}.get(
            kind, f"a {kind}"
        )
    return str(alternative.get("description") or "another form")


def _nearest(given: object, values: list[Any]) -> str:
    """ "; did you mean `X`?" for the allowed value nearest a text given, or nothing."""
    texts = [str(v) for v in values]
    if not isinstance(given, str) or not texts:
        return ""
    hint = difflib.get_close_matches(given, texts, n=1, cutoff=0.5)
    return f"; did you mean `{hint[0]}`?" if hint else ""


def document_problems(name: str, doc: Document) -> list[Problem]:
    """Returns the problems of a document read with positions against schema ``name``."""

    def locate(path: Path_) -> tuple[str, int | None, int | None]:
        return (doc.file, *doc.where(path))

    return schema_problems(validator(name), doc.data, locate)


def duplicate_ids(
    doc: Document,
    key: str,
    code: str,
    message: Callable[[str], str],
    seen: set[str] | None = None,
) -> tuple[list[Problem], frozenset[int]]:
    """Checks what a schema cannot say of the list ``doc.data[key]``: that no entry's ``id`` is
    listed twice (nor is in ``seen``, the ids of the files read before; ``seen`` gains this
    file's). Returns a problem located at each repeated ``id`` (``code``, ``message(id)``) and
    the indices of the repeated entries, which the reader skips."""
    seen = seen if seen is not None else set()
    problems: list[Problem] = []
    repeated: set[int] = set()
    entries = doc.data.get(key) if isinstance(doc.data, dict) else None
    for i, entry in enumerate(entries if isinstance(entries, list) else []):
        if not isinstance(entry, dict) or "id" not in entry:
            continue
        ident = str(entry["id"])
        if ident in seen:
            path: Path_ = (key, i, "id")
            line, column = doc.where(path)
            problems.append(Problem(doc.file, line, column, json_path(path), code, message(ident)))
            repeated.add(i)
        seen.add(ident)
    return problems, frozenset(repeated)

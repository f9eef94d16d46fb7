"""The load stage: rule files read with positions, resolved, checked and frozen.

``reader`` reads YAML with the file, line and column of every value; ``loader`` finds the rule
files, resolves ``extends:`` and runs the schema pass; ``checks`` and ``authoring`` are the
semantic checks; ``model`` is the frozen ``RuleSet`` with its compiled tables; ``cache`` keeps
checked files between runs. Nothing here knows about deals: the referee stands above it.

:func:`load_ruleset` is the stage's front door: a ruleset by id, alias or path, read, resolved,
checked and frozen once a process.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.rules.model import RuleSet

__all__ = ["all_rulesets", "load_named_ruleset", "load_ruleset"]

_CACHE: dict[str, RuleSet] = {}


def load_ruleset(name: str | Path) -> RuleSet:
    """Loads a ruleset or variant by id, alias (``hombre``, ``médiateur``) or path.

    The result is cached per process: rule files are read, resolved and checked once.

    :raises RuleFileError: with every located problem, if the file or a parent is invalid.
    :raises NotationError: if no ruleset has that name.
    """
    from engine.errors import NotationError
    from engine.rules.loader import default_registry
    from engine.rules.model import build_ruleset

    key = str(name)
    cached = _CACHE.get(key)
    if cached is not None:
        return cached
    registry = default_registry()
    entry = registry.find(key)
    if entry is None:
        import difflib

        names = registry.known_names()
        hints = difflib.get_close_matches(key.lower(), names, n=1, cutoff=0.6)
        if hints:
            raise NotationError(
                f"no ruleset or variant {key!r}; did you mean {hints[0]!r}? "
                "(ombre list shows them all)"
            )
        rulesets = ", ".join(e.id for e in registry.entries() if e.kind == "ruleset" and e.id)
        raise NotationError(
            f"no ruleset or variant {key!r} (the rulesets: {rulesets}; "
            "ombre list shows the variants too)"
        )
    ruleset = build_ruleset(registry.resolve(entry))
    _CACHE[key] = ruleset
    return ruleset


def load_named_ruleset(name: str) -> RuleSet:
    """Loads a ruleset or variant of the registry by id or alias, never by path: what a saved
    table or evening names (a file written by anyone must not make the server read any file on
    disk).

    :raises NotationError: if ``name`` is a path, or no ruleset or variant has that name.
    :raises RuleFileError: with every located problem, if the file or a parent is invalid.
    """
    from engine.errors import NotationError
    from engine.rules.loader import names_a_path

    if names_a_path(name):
        raise NotationError(f"{name[:80]!r} is a path, not the name of a ruleset or variant")
    return load_ruleset(name)


def all_rulesets() -> list[RuleSet]:
    """Returns every readable ruleset and variant of the registry, rulesets first."""
    from engine.rules.loader import default_registry

    ids = [
        (entry.kind != "ruleset", entry.id)
        for entry in default_registry().entries()
        if entry.id is not None
        and entry.doc is not None
        and entry.kind in ("ruleset", "variant")  # not files named by path elsewhere
    ]
    return [load_ruleset(i) for _, i in sorted(ids)]

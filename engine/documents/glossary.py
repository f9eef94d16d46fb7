"""The glossary, from data (``sources/glossary.yaml``): each historical term and what it is in
the model, found in the rulesets themselves (which contract, result, item, named trump, verb or
setting it is, and in which rulesets it exists)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from engine.documents import data_dir, repo_path
from engine.errors import Problem, RuleFileError
from engine.rules.model import RuleSet
from engine.rules.reader import json_path, parse_bytes
from engine.rules.schema_pass import document_problems

__all__ = ["LANGUAGES", "MODEL_KINDS", "Term", "load_glossary"]

LANGUAGES = {"fr": "French", "es": "Spanish", "en": "English", "zh": "Chinese"}
MODEL_KINDS = ("top-trump", "contract", "result", "item", "verb", "path", "none")
VERBS = ("pass", "bid", "trump", "call", "give", "discard", "play", "vole", "stop")


@dataclass(frozen=True, slots=True)
class Term:
    """A term, its language and gloss, and where it lives in the model."""

    term: str
    language: str
    also: tuple[str, ...]
    gloss: str
    kind: str
    ref: str | None
    sources: tuple[str, ...]
    present_in: tuple[str, ...]
    """The rulesets in which the model object exists."""
    detail: str | None
    """What the object is, e.g. the card a named trump is."""

    @property
    def language_name(self) -> str:
        """Returns the language in words."""
        return LANGUAGES.get(self.language, self.language)


def _where(kind: str, ref: str, rules: RuleSet) -> str | None:
    """Returns a detail if ``ref`` exists in ``rules`` (empty text if it does, no detail)."""
    if kind == "top-trump":
        for top in rules.top_trumps:
            if top.name == ref:
                if top.card is not None:
                    return str(top.card)
                return ", ".join(
                    f"{r.value} of a {c.value} trump suit" for c, r in top.rank.items()
                )
        return None
    if kind == "contract":
        c = rules.contracts.get(ref)
        return c.name if c is not None else None
    if kind == "result":
        return "" if any(r.result == ref for r in rules.results) else None
    if kind == "item":
        i = rules.items.get(ref)
        return i.name if i is not None else None
    if kind == "path":
        path = tuple(ref.split("."))
        value = rules.setting(path)
        if value is None or value is False or value == 0:
            return None  # a setting of 0 or false: the game does not have the thing
        return str(value) if isinstance(value, str | int) and not isinstance(value, bool) else ""
    return None


def _detail(details: dict[str, list[str]]) -> str | None:
    """The detail most rule files share, then those of the others: ``As; Qc in german-solo``."""
    if not details:
        return None
    ordered = sorted(details.items(), key=lambda item: -len(item[1]))
    main, *others = ordered
    return "; ".join([main[0], *(f"{text} in {', '.join(ids)}" for text, ids in others)])


def _uses_verb(rules: RuleSet, verb: str) -> bool:
    if verb == "call":
        return rules.call is not None or rules.demand is not None
    if verb == "give":
        return rules.demand is not None
    if verb == "discard":
        return rules.talon > 0
    return True


def load_glossary(rulesets: Sequence[RuleSet], path: Path | None = None) -> tuple[Term, ...]:
    """Reads the glossary and finds each term in ``rulesets``.

    :raises RuleFileError: with every located problem of the file.
    """
    path = path if path is not None else data_dir("sources") / "glossary.yaml"
    doc, problems = parse_bytes(repo_path(path), path.read_bytes())
    if doc is not None:
        # Checked as rule files are: the schema (engine/schema/glossary.schema.json), every
        # problem located; then each model object is looked for in the rule files.
        problems = document_problems("glossary", doc)
    if doc is None or problems:
        raise RuleFileError(problems)

    def problem(path: tuple[str | int, ...], code: str, message: str) -> None:
        line, column = doc.where(path)
        problems.append(Problem(doc.file, line, column, json_path(path), code, message))

    out = []
    for i, entry in enumerate(doc.data["terms"]):
        where = ("terms", i)
        term, language, gloss = str(entry["term"]), str(entry["language"]), str(entry["gloss"])
        model = entry.get("model") or {}
        kind = str(model.get("kind", "none"))
        ref = model.get("ref")
        if kind == "verb" and ref not in VERBS:
            problem((*where, "model", "ref"), "glossary/verb", f"no record verb {ref!r}")
            continue
        present: list[str] = []
        detail = None
        if kind == "verb":
            present = [r.id for r in rulesets if _uses_verb(r, str(ref))]
        elif kind != "none" and isinstance(ref, str):
            details: dict[str, list[str]] = {}
            for r in rulesets:
                found = _where(kind, ref, r)
                if found is not None:
                    present.append(r.id)
                    if found:
                        details.setdefault(found, []).append(r.id)
            detail = _detail(details)
            if not present:
                problem(
                    (*where, "model", "ref"),
                    "glossary/missing",
                    f"no ruleset has the {kind} {ref!r}",
                )
        out.append(
            Term(
                term,
                language,
                tuple(str(a) for a in entry.get("also") or []),
                gloss,
                kind,
                ref if isinstance(ref, str) else None,
                tuple(str(s) for s in entry.get("sources") or []),
                tuple(present),
                detail,
            )
        )
    if problems:
        raise RuleFileError(problems)
    return tuple(sorted(out, key=lambda t: (t.term.casefold(), t.language)))

"""The concordance: a stored source read sentence by sentence against the model.

Each sentence of a source in ``sources/`` (the *Encyclopédie* article whole, split into its
sentences; for the other sources, each stored passage) is classified:

* ``encoded``: rule-file entries quote it (each linked, with its file and line), or the
  concordance data names the entries that encode it without quoting it;
* ``read otherwise``: the rule files quote it only as the source's contrary reading
  (``against: true``): the model knowingly departs from it;
* ``checked``: a claim of ``claims/`` quotes it, and ``ombre claims`` gives its verdict;
* ``not modelled``: the data says why (silence at the table, bad faith, a law of the table
  not yet refereed, ...);
* ``no rule``: the sentence bears no rule (praise, history, a heading);
* ``missing``: none of these; ``tests/test_concordance.py`` fails on it.

A sentence whose parts the model treats differently is read clause by clause: an entry of the
data with a ``clause`` (words of the sentence) gives that clause its own status, the
citations whose quote lies in the clause are linked to it, and the sentence takes the least
settled status of its clauses (missing, not modelled, read otherwise, checked, encoded, no
rule, in that order), so that no link to one clause shows the whole sentence as encoded.

The links are found from the rule files' own citations (a quote found in the sentence, or its
first piece; a quote that is a whole sentence of its source is that sentence only, not the
longer ones it is words of), so they follow the rule files as they change; the data file
``sources/concordance.yaml`` holds only what no citation says. It is validated: each entry's
``match`` must be found in exactly one sentence of its source, its status must be one of the
data statuses, and each rule-file entry it names must exist.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.documents import data_dir, repo_path
from engine.documents.sources import Library, Source, normalise, pieces
from engine.errors import Problem, RuleFileError
from engine.rules.model import RuleSet
from engine.rules.reader import Document, Path_, json_path, parse_bytes

if TYPE_CHECKING:
    from engine.documents.claims import Claim

__all__ = [
    "DATA_STATUSES",
    "PERIOD",
    "SOURCES",
    "STATUSES",
    "Clause",
    "Concordance",
    "Entry",
    "Link",
    "Sentence",
    "build_concordance",
    "build_concordances",
    "load_entries",
    "sentences_of",
]

PERIOD = ("enc-q", "enc-qui", "cg-en", "acad", "acad-2", "hoyle-ie", "hoyle-gb")
"""The period sources first: the Encyclopédie's QUADRILLE whole, and the stored Quintille,
Académie and Hoyle passages."""


def _stored() -> tuple[str, ...]:
    """Every source stored in ``sources/`` (a file per source; the glossary and the
    concordance data aside), the period sources first, then the others by id."""
    folder = data_dir("sources")
    ids = {p.stem for p in folder.glob("*.yaml")} - {"glossary", "concordance"}
    return tuple(s for s in PERIOD if s in ids) + tuple(sorted(ids - set(PERIOD)))


SOURCES = _stored()
"""The sources read sentence by sentence: every source stored in ``sources/``, the
Encyclopédie's QUADRILLE whole and the others passage by passage (:data:`PERIOD` first)."""

STATUSES = ("encoded", "read otherwise", "checked", "not modelled", "no rule", "missing")
"""A sentence's status, in the order the concordance counts them."""

DATA_STATUSES = ("encoded", "read-otherwise", "not-modelled", "no-rule")
"""The statuses the data file may give (``encoded`` and ``read-otherwise`` name the entries
that encode the sentence, or depart from it, in ``by``)."""

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-ZÀ-ÖØ-Þ])")


@dataclass(frozen=True, slots=True)
class Link:
    """A rule-file entry that encodes a sentence: its ruleset, path and where it is set."""

    ruleset: str
    path: str
    where: str
    evidence: str
    against: bool = False
    variant: bool = False
    """The file is a variant citing the sentence itself (a citation it inherits is never a
    link): a variant reading, listed apart from the canonical files' (after them)."""


@dataclass(frozen=True, slots=True)
class ClaimLink:
    """A claim that quotes a sentence."""

    id: str
    ruleset: str


@dataclass(frozen=True, slots=True)
class Entry:
    """A sentence's status from ``sources/concordance.yaml``."""

    source: str
    match: str
    status: str
    why: str
    by: tuple[tuple[str, str], ...]
    """``(ruleset, path)`` of the entries that encode it (status ``encoded``)."""
    where: str
    clause: str | None = None
    """The words of the sentence this entry classifies, when it classifies a clause only."""


_SETTLED = ("missing", "not modelled", "read otherwise", "checked", "encoded", "no rule")
"""The statuses from the least settled to the most: a sentence read clause by clause takes
the first of its clauses' statuses in this order."""


@dataclass(frozen=True, slots=True)
class Clause:
    """A clause of a sentence with a status of its own (an entry with ``clause``)."""

    text: str
    links: tuple[Link, ...]
    entry: Entry

    @property
    def status(self) -> str:
        """Returns the clause's status (one of :data:`STATUSES` but ``checked``)."""
        if any(not link.against for link in self.links) or self.entry.status == "encoded":
            return "encoded"
        if self.links or self.entry.status == "read-otherwise":
            return "read otherwise"
        return self.entry.status.replace("-", " ")


@dataclass(frozen=True, slots=True)
class Sentence:
    """One sentence of a source, with what the model does with it."""

    number: int
    anchor: str
    passage: str
    """The anchor of the passage (paragraph) holding it, on the source's page."""
    locator: str
    text: str
    links: tuple[Link, ...]
    claims: tuple[ClaimLink, ...]
    entry: Entry | None
    clauses: tuple[Clause, ...] = ()
    """The clauses the data reads apart; :attr:`links` then holds the citations of the rest."""

    @property
    def status(self) -> str:
        """Returns the sentence's status (one of :data:`STATUSES`): read clause by clause, the
        least settled of its clauses' and the rest's."""
        if self.clauses:
            found = {c.status for c in self.clauses}
            if self.links or self.claims or self.entry is not None:
                found.add(self._whole_status())
            return next(status for status in _SETTLED if status in found)
        return self._whole_status()

    def _whole_status(self) -> str:
        if any(not link.against for link in self.links):
            return "encoded"
        if self.entry is not None and self.entry.status == "encoded":
            return "encoded"
        if self.links or (self.entry is not None and self.entry.status == "read-otherwise"):
            return "read otherwise"
        if self.claims:
            return "checked"
        if self.entry is not None:
            return self.entry.status.replace("-", " ")
        return "missing"

    def as_json(self) -> dict[str, Any]:
        """Returns the sentence as ``ombre sources ID --json`` prints it."""
        return {
            "number": self.number,
            "locator": self.locator,
            "text": self.text,
            "status": self.status,
            "links": [
                {
                    "ruleset": link.ruleset,
                    "path": link.path,
                    "where": link.where,
                    "evidence": link.evidence,
                    "against": link.against,
                    "variant": link.variant,
                }
                for link in self.links
            ],
            "claims": [{"id": c.id, "ruleset": c.ruleset} for c in self.claims],
            "why": self.entry.why if self.entry is not None else None,
            "clauses": [
                {
                    "text": c.text,
                    "status": c.status,
                    "links": [
                        {"ruleset": x.ruleset, "path": x.path, "where": x.where} for x in c.links
                    ],
                    "by": [f"{r}:{p}" for r, p in c.entry.by],
                    "why": c.entry.why,
                }
                for c in self.clauses
            ],
        }


@dataclass(frozen=True, slots=True)
class Concordance:
    """A source read sentence by sentence."""

    source: Source
    sentences: tuple[Sentence, ...]

    @property
    def counts(self) -> dict[str, int]:
        """Returns how many sentences have each status (every status listed)."""
        found = Counter(s.status for s in self.sentences)
        return {status: found.get(status, 0) for status in STATUSES}

    def as_json(self) -> dict[str, Any]:
        """Returns the concordance as ``ombre sources ID --json`` prints it."""
        return {
            "source": self.source.id,
            "title": self.source.title,
            "counts": self.counts,
            "sentences": [s.as_json() for s in self.sentences],
        }


def sentences_of(source: Source) -> list[tuple[str, str, str]]:
    """Returns ``(passage anchor, locator, sentence)`` for each sentence of a source: a whole
    text is split at each full stop followed by a capital; a stored passage is one sentence."""
    out: list[tuple[str, str, str]] = []
    for passage in source.passages:
        parts = _SENTENCE_END.split(passage.text) if source.whole else [passage.text]
        out.extend((passage.anchor, passage.locator, p.strip()) for p in parts if p.strip())
    return out


class _Reader:
    """Collects the problems of the concordance data while its entries are read (located, as
    for rule files)."""

    def __init__(self, path: Path, shown: str) -> None:
        doc, problems = parse_bytes(shown, path.read_bytes())
        if doc is None:
            raise RuleFileError(problems)
        self.doc: Document = doc
        self.problems: list[Problem] = []

    def problem(self, path: Path_, code: str, message: str) -> None:
        """Records a problem at ``path``."""
        line, column = self.doc.where(path)
        self.problems.append(Problem(self.doc.file, line, column, json_path(path), code, message))

    def where(self, path: Path_) -> int | None:
        """Returns the line of ``path``."""
        return self.doc.where(path)[0]

    def entries(self, key: str) -> list[tuple[Path_, Mapping[str, Any]]]:
        """Returns the mappings listed under top-level ``key`` with their paths."""
        data = self.doc.data
        if not isinstance(data, Mapping) or not isinstance(data.get(key), list):
            self.problem((), "data/shape", f"expected a mapping with a list under {key!r}")
            return []
        out: list[tuple[Path_, Mapping[str, Any]]] = []
        for i, entry in enumerate(data[key]):
            if isinstance(entry, Mapping):
                out.append(((key, i), entry))
            else:
                self.problem((key, i), "data/type", "each entry must be a mapping")
        return out

    def text(
        self, entry: Mapping[str, Any], path: Path_, key: str, *, required: bool = True
    ) -> str | None:
        """Returns a text field (a problem if required and missing, or not text)."""
        value = entry.get(key)
        if value is None:
            if required:
                self.problem(path, "data/missing", f"{key!r} is required")
            return None
        if not isinstance(value, str | int) or isinstance(value, bool):
            self.problem((*path, key), "data/type", f"{key!r} must be text")
            return None
        return str(value)

    def check_keys(self, entry: Mapping[str, Any], path: Path_, allowed: Sequence[str]) -> None:
        """Records a problem for every key not in ``allowed``."""
        for key in entry:
            if key not in allowed:
                self.problem(
                    (*path, key),
                    "data/unknown-key",
                    f"unknown key {key!r} (expected one of {', '.join(allowed)})",
                )

    def done(self) -> None:
        """Raises every problem found, if any.

        :raises RuleFileError: with every problem of the file.
        """
        if self.problems:
            raise RuleFileError(self.problems)


def load_entries(path: Path | None = None, library: Library | None = None) -> tuple[Entry, ...]:
    """Reads ``sources/concordance.yaml``.

    :raises RuleFileError: with every located problem (an unknown source or status, a match
        found in no sentence or in several, a rule-file entry that does not exist).
    """
    from engine.documents.sources import load_library
    from engine.rules import load_ruleset

    path = path if path is not None else data_dir("sources") / "concordance.yaml"
    library = library if library is not None else load_library()
    reader = _Reader(path, repo_path(path))
    split = {sid: sentences_of(s) for sid, s in library.sources.items() if sid in SOURCES}
    out: list[Entry] = []
    for where, entry in reader.entries("sentences"):
        reader.check_keys(entry, where, ("source", "match", "clause", "status", "why", "by"))
        sid = reader.text(entry, where, "source")
        match = reader.text(entry, where, "match")
        status = reader.text(entry, where, "status")
        why = reader.text(entry, where, "why")
        if sid is None or match is None or status is None or why is None:
            continue
        if sid not in split:
            reader.problem((*where, "source"), "concordance/source", f"{sid!r} is not read here")
            continue
        if status not in DATA_STATUSES:
            reader.problem(
                (*where, "status"),
                "concordance/status",
                f"status {status!r} is not one of {', '.join(DATA_STATUSES)}",
            )
            continue
        found = [s for _, _, s in split[sid] if normalise(match) in normalise(s)]
        if len(found) != 1:
            reader.problem(
                (*where, "match"),
                "concordance/match",
                f"{match!r} is in {len(found)} sentences of {sid}, not one",
            )
            continue
        clause = reader.text(entry, where, "clause", required=False)
        if clause is not None and normalise(clause) not in normalise(found[0]):
            reader.problem(
                (*where, "clause"),
                "concordance/clause",
                f"{clause!r} is not words of the sentence {match!r} finds",
            )
            continue
        by: list[tuple[str, str]] = []
        raw_by = entry.get("by") or []
        if status in ("encoded", "read-otherwise") and not raw_by:
            reader.problem(where, "concordance/by", "an encoded sentence names its entries (by)")
        for i, item in enumerate(raw_by if isinstance(raw_by, list) else []):
            text = str(item)
            ruleset, _, rule_path = text.partition(":")
            try:
                rules = load_ruleset(ruleset)
            except (RuleFileError, KeyError, LookupError):
                reader.problem((*where, "by", i), "concordance/by", f"no ruleset {ruleset!r}")
                continue
            keys = tuple(int(k) if k.isdigit() else k for k in rule_path.split("."))
            if not rule_path or not rules.states(keys):
                reader.problem(
                    (*where, "by", i), "concordance/by", f"{ruleset} has no entry {rule_path!r}"
                )
                continue
            by.append((ruleset, rule_path))
        out.append(
            Entry(
                sid,
                match,
                status,
                why,
                tuple(by),
                f"{repo_path(path)}:{reader.where(where)}",
                clause,
            )
        )
    reader.done()
    return tuple(out)


def _rule_citations(rulesets: Iterable[RuleSet]) -> list[tuple[RuleSet, tuple[Any, ...], Any]]:
    """Every citation with a quote that a rule file sets itself (not the ones it inherits)."""
    out: list[tuple[RuleSet, tuple[Any, ...], Any]] = []
    for rules in rulesets:
        own = rules.locate(("id",))[0]

        def walk(node: Any, path: tuple[Any, ...], rules: RuleSet = rules, own: str = own) -> None:
            if isinstance(node, Mapping):
                cited = isinstance(node.get("source"), str) and node.get("quote")
                if cited and rules.locate(path)[0] == own:
                    out.append((rules, path, node))
                for key, value in node.items():
                    walk(value, (*path, key))
            elif isinstance(node, list | tuple):
                for i, value in enumerate(node):
                    walk(value, (*path, i))

        walk(rules.plain(), ())
    return out


def _basis_path(rules: RuleSet, path: tuple[Any, ...]) -> tuple[Any, ...]:
    """The rule a citation supports: its path up to (not including) the ``basis``."""
    for i, key in enumerate(path):
        if key in ("basis", "codille_remainder_basis", "unit_basis"):
            head = path[:i]
            return (*head, key.removesuffix("_basis")) if key != "basis" else head
    return path


def _evidence(rules: RuleSet, path: tuple[Any, ...]) -> str:
    for i, key in enumerate(path):
        if key in ("basis", "codille_remainder_basis", "unit_basis"):
            basis = rules.basis_of(path[: i + 1])
            if basis is not None:
                return basis.evidence
    return ""


def build_concordance(
    source_id: str,
    *,
    library: Library | None = None,
    rulesets: Sequence[RuleSet] | None = None,
    claims: Sequence[Claim] | None = None,
    entries: Sequence[Entry] | None = None,
) -> Concordance:
    """Reads a stored source sentence by sentence against the rule files, the claims and the
    concordance data.

    :raises KeyError: if the source is not one of :data:`SOURCES` or not stored.
    :raises RuleFileError: if a rule file, the claims or the concordance data are invalid.
    """
    return build_concordances(
        (source_id,), library=library, rulesets=rulesets, claims=claims, entries=entries
    )[0]


def build_concordances(
    source_ids: Iterable[str],
    *,
    library: Library | None = None,
    rulesets: Sequence[RuleSet] | None = None,
    claims: Sequence[Claim] | None = None,
    entries: Sequence[Entry] | None = None,
) -> tuple[Concordance, ...]:
    """Reads several stored sources as :func:`build_concordance` reads one, loading the rule
    files, the claims and the concordance data once for all of them.

    :raises KeyError: if a source is not one of :data:`SOURCES` or not stored.
    :raises RuleFileError: if a rule file, the claims or the concordance data are invalid.
    """
    from engine.documents.claims import load_claims
    from engine.documents.sources import load_library
    from engine.rules import all_rulesets

    chosen = tuple(source_ids)
    for source_id in chosen:
        if source_id not in SOURCES:
            raise KeyError(source_id)
    library = library if library is not None else load_library()
    sources = [library.sources[source_id] for source_id in chosen]
    rulesets = rulesets if rulesets is not None else all_rulesets()
    claims = claims if claims is not None else load_claims()
    entries = entries if entries is not None else load_entries(library=library)
    citations = _rule_citations(rulesets)
    return tuple(_read(source, citations, claims, entries) for source in sources)


_Cite = tuple[str, RuleSet, tuple[Any, ...], Any]
"""A rule's citation of a source: its quote's first piece (normalised), the rules, the path
and the citation."""


def _sentence_links(
    key: str, whole: set[str], cites: Sequence[_Cite]
) -> dict[tuple[str, str], Link]:
    """The rule entries whose quote is words of the sentence ``key`` (normalised), by ruleset
    and rule path; a quote that is a whole sentence (``whole``) links that sentence only."""
    links: dict[tuple[str, str], Link] = {}
    for head, rules, path, node in cites:
        if head not in key or (head in whole and head != key):
            continue
        rule = _basis_path(rules, path)
        file, line, _ = rules.locate(path)
        shown = ".".join(str(k) for k in rule) or "(top)"
        links.setdefault(
            (rules.id, shown),
            Link(
                rules.id,
                shown,
                f"{repo_path(file)}:{line}" if line is not None else repo_path(file),
                _evidence(rules, path),
                bool(node.get("against", False)),
                rules.extends is not None,
            ),
        )
    return links


def _clauses(
    key: str,
    mine: Sequence[Entry],
    links: dict[tuple[str, str], Link],
    cites: Sequence[_Cite],
) -> tuple[tuple[Clause, ...], dict[tuple[str, str], Link]]:
    """The sentence's clauses (the entries of ``mine`` that name one), each with the links
    whose quote falls in it, and the links left to the sentence as a whole."""
    clauses = []
    rest = dict(links)
    for e in mine:
        if e.clause is None:
            continue
        words = normalise(e.clause)
        inside = tuple(
            link
            for (ruleset, shown), link in links.items()
            if any(
                h in words or words in h
                for h, r, p, _ in cites
                if r.id == ruleset
                and ".".join(str(k) for k in _basis_path(r, p)) == shown
                and h in key
            )
        )
        for link in inside:
            rest.pop((link.ruleset, link.path), None)
        clauses.append(Clause(e.clause, inside, e))
    return tuple(clauses), rest


def _read(
    source: Source,
    citations: Sequence[tuple[RuleSet, tuple[Any, ...], Any]],
    claims: Sequence[Claim],
    entries: Sequence[Entry],
) -> Concordance:
    """One source's concordance: each sentence with the rules, claims and entry that quote it
    (each quote's first piece found in the sentence, both normalised)."""
    source_id = source.id
    cites = []
    for rules, path, node in citations:
        if node["source"] != source_id:
            continue
        parts = pieces(str(node["quote"]))
        if parts:
            cites.append((normalise(parts[0]), rules, path, node))
    quotes = [
        (normalise(pieces(c.quote)[0]), c)
        for c in claims
        if c.source == source_id and pieces(c.quote)
    ]
    matches = [(normalise(e.match), e) for e in entries if e.source == source_id]
    split = sentences_of(source)
    # A quote that is a whole sentence (a stored passage quoted entire) is that sentence, not
    # every longer one it is words of: "Spil | 1 | 2" is not "Bedre spil | 1 | 2".
    whole = {normalise(text) for _, _, text in split}
    sentences = []
    for number, (anchor, locator, text) in enumerate(split, 1):
        key = normalise(text)
        links = _sentence_links(key, whole, cites)
        quoted = tuple(
            ClaimLink(c.id, c.ruleset)
            for head, c in quotes
            if head in key and (head not in whole or head == key)
        )
        mine = [e for match, e in matches if match in key]
        entry = next((e for e in mine if e.clause is None), None)
        clauses, rest = _clauses(key, mine, links, cites)
        sentences.append(
            Sentence(
                number,
                f"s{number}",
                anchor,
                locator,
                text,
                tuple(sorted(rest.values(), key=lambda link: link.variant)),
                quoted,
                entry,
                clauses,
            )
        )
    return Concordance(source, tuple(sentences))

"""``ombre docs``: every document for a set of rulesets, written to a folder.

The folder holds ``index``, ``books/ID``, ``diffs/ID`` (each ruleset against what it extends),
``across/A-against-B`` (two whole rule sets rule by rule, for the pairs of
``docs/comparisons.yaml``), ``effects`` and ``effects/ID`` (what each variant does to the game: a seeded, paired
``simulate --against`` run of its parent against it, the table and the SVG chart; in Markdown
the chart is ``effects/ID.svg`` beside the page), ``matrix``, ``claims``, ``disagreements``,
``glossary`` and ``sources/ID``, in Markdown or HTML; HTML adds the one stylesheet,
``style.css``. Output depends on the rule files, the claims and
the sources only (no dates, no absolute paths, sorted), so it is byte-identical run to run.
"""

from __future__ import annotations

import shutil
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.documents.handbook import Handbook, handbook_html, project_documents
from engine.render import Format, render, templates_dir
from engine.rules import all_rulesets
from engine.rules.model import RuleSet

if TYPE_CHECKING:
    from engine.documents.claims import Claim, Evaluation
    from engine.documents.concordance import Concordance
    from engine.documents.deal_page import ReplayStory
    from engine.documents.effects import Effect
    from engine.documents.sources import Library

__all__ = ["Written", "all_rulesets", "render_deal_page", "write_deal_page", "write_docs"]


@dataclass(frozen=True, slots=True)
class Written:
    """What ``ombre docs`` wrote: the folder and the files, relative to it."""

    out: Path
    files: tuple[str, ...]

    def as_json(self) -> dict[str, Any]:
        """Returns the summary as ``ombre docs --json`` prints it."""
        return {"out": str(self.out), "files": list(self.files)}


def _own_changes(rules: RuleSet, diff: Any) -> tuple[Any, ...]:
    """Returns the rule changes this file makes itself, each located at the line that makes it.

    A change is the file's own when the file sets its path, a path inside it, or a path around
    it (a list the file appends to keeps the parent's position, so the file's line is taken from
    its overrides).
    """
    from dataclasses import replace

    from engine.documents import repo_path
    from engine.documents.diff import Place

    own = []
    for change in diff.rule_changes:
        if change.is_identity:
            continue
        path = change.path
        for opath, (file, line, _column) in rules.overrides:
            n = min(len(opath), len(path))
            if tuple(opath[:n]) == tuple(path[:n]):
                own.append(replace(change, where_b=Place(repo_path(file), line)))
                break
    return tuple(own)


def _example_story(path: Path) -> Any:
    """Referees an example record of ``docs/examples/`` for its page."""
    from engine.documents import repo_path
    from engine.documents.deal_page import replay_story
    from engine.records import read_record
    from engine.rules import load_ruleset

    record = read_record(path)
    return replay_story(record, load_ruleset(record.ruleset), repo_path(path))


@dataclass(slots=True)
class _Site:
    """The folder being written, its format and what every page is rendered with.

    ``written`` collects each file written (or found unchanged), relative to the folder.
    """

    out: Path
    fmt: Format
    lib: Library
    books: set[str]
    written: list[str] = field(default_factory=list)
    docs: frozenset[str] = frozenset()
    """The project's documents the site has a page of (``docs/NAME``: HTML only)."""

    def page(self, name: str, template: str, root: str = "", **context: Any) -> None:
        """Renders ``template`` with ``context`` as the page ``name`` (unless it is unchanged)."""
        path = self.out / f"{name}.{self.fmt}"
        text = render(
            template,
            self.fmt,
            ext=self.fmt,
            root=root,
            lib=self.lib,
            books=self.books,
            project_docs=self.docs,
            **context,
        )
        _write_if_changed(path, text)
        self.written.append(f"{name}.{self.fmt}")


def write_docs(
    out: Path,
    fmt: Format,
    rulesets: Sequence[RuleSet] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Written:
    """Writes every document for ``rulesets`` (default: all) in ``fmt`` (``md`` or ``html``).

    ``progress`` is called with (steps done, steps in all) as the work goes on: one step per
    variant measured against its parent (the slow part, kept in the cache: only a variant or
    an engine that changed is run again), one per rule book, and one for the other pages. A
    page whose text has not changed is not written again.

    :raises RuleFileError: if a rule file, the claims or the sources are invalid.
    :raises OSError: if the folder cannot be written.
    """
    from engine.documents.claims import evaluate, load_claims
    from engine.documents.effects import effects
    from engine.documents.effects import measured as measured_variants
    from engine.documents.glossary import load_glossary
    from engine.documents.sources import load_library

    if fmt not in ("md", "html"):
        raise ValueError(f"docs are written as md or html, not {fmt!r}")
    chosen = list(rulesets) if rulesets else all_rulesets()
    lib = load_library()
    documents = project_documents() if fmt == "html" else []
    site = _Site(out, fmt, lib, {r.id for r in chosen}, docs=frozenset(p.stem for p in documents))
    claims = load_claims()
    evaluations = [e for r in chosen for e in evaluate(claims, r, own=True)]
    counts = Counter(e.status for e in evaluations)
    for status in ("confirmed", "contradicted", "unverifiable"):
        counts.setdefault(status, 0)

    steps = len(measured_variants(chosen)) + len(chosen) + 1
    done = 0

    def step(*_: Any) -> None:
        nonlocal done
        done += 1
        if progress is not None:
            progress(done, steps)

    out.mkdir(parents=True, exist_ok=True)
    measured = effects(chosen, step)
    _write_books(site, chosen, {e.id for e in measured}, step)
    _write_effects(site, measured)
    _write_matrix(site, chosen)
    compared = _write_across(site, chosen)
    _write_claims(site, evaluations, counts, claims)
    site.page(
        "glossary",
        "glossary.j2",
        title="Glossary",
        terms=load_glossary(all_rulesets()),
    )
    read = _write_sources(site)
    examples = _write_examples(site)
    handbooks = _write_handbooks(site, documents)
    site.page(
        "index",
        "index.j2",
        title="Rule books and comparisons",
        rulesets=chosen,
        counts=counts,
        sources=list(lib.sources.values()),
        concordances=read,
        examples=examples,
        measured=bool(measured),
        compared=compared,
        handbooks=handbooks,
    )
    if fmt == "html":
        shutil.copyfile(Path(templates_dir()) / "style.css", out / "style.css")
        site.written.append("style.css")
    step()
    return Written(out, tuple(sorted(site.written)))


def _write_books(
    site: _Site, chosen: Sequence[RuleSet], measured_ids: set[str], step: Callable[[], None]
) -> None:
    """Writes each rule book (``books/ID``) and, for a ruleset that extends another, its
    diff against the parent (``diffs/ID``); ``step`` is called once per rule book."""
    from engine.documents.book import rule_view
    from engine.documents.diff import diff_rulesets
    from engine.rules import load_ruleset

    for r in chosen:
        step()
        parent = load_ruleset(r.extends) if r.extends else None
        diff = diff_rulesets(parent, r) if parent is not None else None
        own = _own_changes(r, diff) if diff is not None else ()
        site.page(
            f"books/{r.id}",
            "book.j2",
            "../",
            title=r.name,
            view=rule_view(r),
            changes=own,
            measured=r.id in measured_ids,
        )
        if diff is not None:
            site.page(
                f"diffs/{r.id}", "diff.j2", "../", title=f"{r.id} against {r.extends}", diff=diff
            )


def _write_effects(site: _Site, measured: Sequence[Effect]) -> None:
    """Writes each measured variant's page (``effects/ID``, in Markdown with its chart beside
    it as ``effects/ID.svg``) and, if any was measured, the page of them all (``effects``)."""
    from markupsafe import Markup

    from engine.documents.effects import BOTS, DEALS, SEED

    for e in measured:
        svg = e.svg
        if site.fmt == "md":
            target = site.out / "effects" / f"{e.id}.svg"
            _write_if_changed(target, svg)
            site.written.append(f"effects/{e.id}.svg")
        site.page(
            f"effects/{e.id}",
            "effect.j2",
            "../",
            title=f"{e.id} against {e.parent}",
            e=e,
            svg=Markup(svg),
        )
    if measured:
        site.page(
            "effects",
            "effects.j2",
            title="What each variant does to the game",
            effects=measured,
            deals=DEALS,
            seed=SEED,
            bots=BOTS,
        )


def _write_matrix(site: _Site, chosen: Sequence[RuleSet]) -> None:
    """Writes the games side by side (``matrix``)."""
    from engine.documents import repo_path
    from engine.documents.matrix import build_matrix

    site.page(
        "matrix",
        "matrix.j2",
        title="The games side by side",
        matrix=build_matrix(chosen),
        files={r.id: repo_path(r.file) for r in chosen},
    )


def _write_across(site: _Site, chosen: Sequence[RuleSet]) -> list[tuple[str, RuleSet, RuleSet]]:
    """Writes two whole rule sets rule by rule (``across/NAME``) for each pair of
    ``docs/comparisons.yaml`` whose both rulesets are chosen, and returns those pairs (name,
    first ruleset, second ruleset) in the file's order."""
    from engine.documents import repo_root
    from engine.documents.across import across, load_comparisons

    by_id = {r.id: r for r in chosen}
    compared = []
    for pair in load_comparisons(repo_root() / "docs" / "comparisons.yaml"):
        if pair.a in by_id and pair.b in by_id:
            a, b = by_id[pair.a], by_id[pair.b]
            compared.append((pair.name, a, b))
            site.page(
                f"across/{pair.name}",
                "across.j2",
                "../",
                title=f"{a.name} and {b.name}, rule by rule",
                x=across(a, b, pair.why),
            )
    return compared


def _write_claims(
    site: _Site,
    evaluations: Sequence[Evaluation],
    counts: Counter[str],
    claims: Sequence[Claim],
) -> None:
    """Writes the sources' claims with their evaluations (``claims``) and where the sources
    disagree (``disagreements``)."""
    from engine.documents.disagreements import load_disagreements

    site.page(
        "claims",
        "claims.j2",
        title="The sources' claims",
        evaluations=evaluations,
        counts=counts,
    )
    site.page(
        "disagreements",
        "disagreements.j2",
        title="Where the sources disagree",
        disagreements=load_disagreements(),
        claim_ids={c.id for c in claims},
    )


def _write_sources(site: _Site) -> tuple[Concordance, ...]:
    """Writes each source's page (``sources/ID``) and each stored source read sentence by
    sentence (``concordance/ID``), and returns those concordances."""
    from engine.documents.concordance import SOURCES, build_concordances

    lib = site.lib
    for source in lib.sources.values():
        site.page(f"sources/{source.id}", "source.j2", "../", title=source.title, source=source)
    read = build_concordances((s for s in SOURCES if s in lib.sources), library=lib)
    for c in read:
        site.page(
            f"concordance/{c.source.id}",
            "concordance.j2",
            "../",
            title=f"{c.source.id}, sentence by sentence",
            concordance=c,
        )
    return read


def _write_examples(site: _Site) -> list[tuple[str, str]]:
    """Writes each refereed example record of ``docs/examples/`` (``examples/NAME``) and
    returns them as (name, title) in the order of their file names."""
    from engine.documents import repo_root

    examples = []
    folder = repo_root() / "docs" / "examples"
    for path in sorted(folder.glob("*.yaml")) if folder.is_dir() else []:
        story = _example_story(path)
        examples.append((path.stem, story.record.title or path.stem))
        site.page(
            f"examples/{path.stem}",
            "deal.j2",
            "../",
            title=story.record.title or path.stem,
            story=story,
            inline_css="",
        )
    return examples


def _write_handbooks(site: _Site, documents: Sequence[Path]) -> list[Handbook]:
    """Writes each of the project's documents as a page of the HTML site (``docs/NAME``), so
    that the notes' "docs/decisions.md" is a link; returns them for the index."""
    written = []
    for path in documents:
        doc = handbook_html(path, "../", site.books, site.docs)
        site.page(f"docs/{doc.name}", "handbook.html.j2", "../", title=doc.title, doc=doc)
        written.append(doc)
    return written


def _write_if_changed(path: Path, text: str) -> None:
    """Writes ``text`` to ``path`` unless the file already holds it (its time kept)."""
    try:
        if path.read_text(encoding="utf-8") == text:
            return
    except (OSError, UnicodeDecodeError):
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8", newline="\n")


def render_deal_page(story: ReplayStory, fmt: Format) -> str:
    """Returns one refereed record as a page (``ombre replay --html/--md``).

    The HTML page is self-contained: the stylesheet is inlined and the quotes are not linked.
    """
    from engine.documents.sources import Library

    return render(
        "deal.j2",
        fmt,
        ext=fmt,
        root="",
        lib=Library({}),
        books=set(),
        title=story.record.title or f"{story.rules.name}: a refereed record",
        story=story,
        inline_css=(Path(templates_dir()) / "style.css").read_text(encoding="utf-8")
        if fmt == "html"
        else "",
    )


def write_deal_page(story: ReplayStory, target: Path, fmt: Format) -> None:
    """Writes :func:`render_deal_page` to ``target``.

    :raises OSError: if the file cannot be written.
    """
    target.write_text(render_deal_page(story, fmt), encoding="utf-8", newline="\n")

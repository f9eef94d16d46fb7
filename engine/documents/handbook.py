"""The project's own documents (``docs/*.md``: the decisions, the disagreements, the rule
format ...) as pages of the HTML site, so that a rule book's "docs/decisions.md" is a link.

The rule files' notes point at these documents and at other rule files by path; the site links
each such path (the ``file_links`` filter of engine.render) to the page written here or to the
rule file's book. The documents are written in Markdown for the
repository; :func:`handbook_html` renders one with markdown-it (which typer's ``rich`` brings),
its links rewritten to the site's pages.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.render import site_href

__all__ = ["Handbook", "handbook_html", "project_documents"]


@dataclass(frozen=True, slots=True)
class Handbook:
    """One of the project's documents as a page of the site: ``name`` (``decisions``), its
    title (its first heading) and its body in HTML."""

    name: str
    title: str
    html: str
    contents: tuple[tuple[str, str], ...] = ()
    """Its sections (the second-level headings) as (anchor, words), for a table of contents."""


def project_documents() -> list[Path]:
    """Returns the project's documents (``docs/*.md``; the generated pages are not among
    them), sorted by name: none where the package was installed without them."""
    from engine.rules.loader import data_dir

    folder = data_dir("docs")
    return sorted(folder.glob("*.md")) if folder.is_dir() else []


def _slug(text: str) -> str:
    """A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces to
    hyphens (``When matadors must be claimed`` is ``when-matadors-must-be-claimed``)."""
    return re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", "-")


def handbook_html(path: Path, root: str, books: Collection[str], docs: Collection[str]) -> Handbook:
    """Renders the document ``path`` for the site: its headings anchored as GitHub anchors
    them, its links to other documents, to generated pages and to rule files leading to the
    site's pages, and links the site has no page for kept as their text.

    :raises OSError: if the file cannot be read.
    """
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark", {"html": False}).enable(["table", "strikethrough"])
    # A wide table scrolls in its own box, as the books' tables do (style.css ``.scroll``),
    # rather than widening the page on a phone.
    md.add_render_rule("table_open", lambda *_: '<div class="scroll"><table>\n')
    md.add_render_rule("table_close", lambda *_: "</table></div>\n")
    tokens = md.parse(path.read_text(encoding="utf-8"))
    title = path.stem
    contents: list[tuple[str, str]] = []
    seen: dict[str, int] = {}
    for i, token in enumerate(tokens):
        if token.type == "heading_open" and i + 1 < len(tokens):
            text = tokens[i + 1].content
            slug = _slug(text)
            # The title as words (a page's <title>, the index's link): code spans' text.
            words = "".join(c.content for c in tokens[i + 1].children or ())
            seen[slug] = seen.get(slug, -1) + 1
            anchor = slug if not seen[slug] else f"{slug}-{seen[slug]}"
            token.attrSet("id", anchor)
            if token.tag == "h2":
                contents.append((anchor, words))
            if token.tag == "h1" and title == path.stem:
                title = words
        if token.children:
            token.children = _site_links(token.children, root, books, docs)
    return Handbook(path.stem, title, md.renderer.render(tokens, md.options, {}), tuple(contents))


def _site_links(
    children: list[Any], root: str, books: Collection[str], docs: Collection[str]
) -> list[Any]:
    """Returns an inline run's tokens with each link leading to its page in the site, and the
    links the site has no page for taken out around their words (a link is an opening and a
    closing token around them)."""
    out: list[Any] = []
    kept: list[bool] = []
    for child in children:
        if child.type == "link_open":
            target = site_href(str(child.attrGet("href") or ""), root, books, docs)
            kept.append(target is not None)
            if target is not None:
                child.attrSet("href", target)
                out.append(child)
        elif child.type == "link_close":
            if kept.pop() if kept else True:
                out.append(child)
        else:
            out.append(child)
    return out

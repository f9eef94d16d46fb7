"""The HTML rule books: a table of contents, code spans shown as code (no raw backticks), and a
font stack that reaches for a CJK face for the Chinese quotes."""

from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

from engine.cli import app

runner = CliRunner()


def test_the_html_book_has_contents_and_no_raw_backticks(tmp_path: Path) -> None:
    result = runner.invoke(app, ["docs", "--out", str(tmp_path), "--format", "html", "quadrille"])
    assert result.exit_code == 0, result.output
    page = (tmp_path / "books" / "quadrille.html").read_text("utf-8")
    start = page.index('<nav class="toc"')
    toc = page[start : page.index("</nav>", start)]
    assert '<a href="#auction">The auction</a>' in toc
    assert '<a href="#settlement">The settlement</a>' in toc
    for anchor in ("auction", "settlement", "laws"):
        assert f'<h2 id="{anchor}">' in page
    assert "`" not in page
    assert "<code>require CARD</code>" in page
    assert "&lt;code&gt;" not in page
    # A card drawn in a rule's words shows as a card, never as its escaped HTML.
    assert "&lt;span" not in page
    assert 'the holder of <span class="card spades" title="As">A♠</span> must play' in page
    css = (tmp_path / "style.css").read_text("utf-8")
    assert "Noto Serif CJK SC" in css


def test_the_markdown_book_keeps_its_code_spans_and_has_no_contents_box(tmp_path: Path) -> None:
    result = runner.invoke(app, ["docs", "--out", str(tmp_path), "quadrille"])
    assert result.exit_code == 0, result.output
    page = (tmp_path / "books" / "quadrille.md").read_text("utf-8")
    assert "`require CARD`" in page
    assert 'class="toc"' not in page


def test_the_html_books_link_the_files_their_notes_name(tmp_path: Path) -> None:
    result = runner.invoke(
        app,
        [
            "docs",
            "--out",
            str(tmp_path),
            "--format",
            "html",
            "quadrille",
            "quadrille-hoyle-faced-last-card",
        ],
    )
    assert result.exit_code == 0, result.output
    page = (tmp_path / "books" / "quadrille.html").read_text("utf-8")
    assert '<a href="../docs/decisions.html">docs/decisions.md</a>' in page
    assert (
        '<a href="../books/quadrille-hoyle-faced-last-card.html">'
        "variants/quadrille-hoyle-faced-last-card.yaml</a>"
    ) in page
    # The documents linked to are pages of the site, their headings anchored as on GitHub.
    decisions = (tmp_path / "docs" / "decisions.html").read_text("utf-8")
    assert "<h1 id=" in decisions and "<table>" in decisions
    # A long document has its contents: each second-level heading, linked to its anchor.
    start = decisions.index('<nav class="toc"')
    toc = decisions[start : decisions.index("</nav>", start)]
    anchors = re.findall(r'<a href="#([\w-]+)">', toc)
    assert len(anchors) > 3 and all(f'<h2 id="{a}">' in decisions for a in anchors)
    assert "docs/decisions.md" in (tmp_path / "index.html").read_text("utf-8")


def test_a_document_link_the_site_has_no_page_for_is_kept_as_its_words(tmp_path: Path) -> None:
    from engine.documents.handbook import handbook_html

    doc = tmp_path / "note.md"
    doc.write_text(
        "# A note\n\nSee [the CLI](../engine/cli.py), [the book](generated/books/ombre.md#deal), "
        "[the rules](../rules/ombre.yaml) and [decisions](decisions.md#amounts).\n\n"
        "## A note\n",
        encoding="utf-8",
    )
    page = handbook_html(doc, "../", {"ombre"}, {"decisions"})
    assert page.title == "A note"
    titled = tmp_path / "cli.md"
    titled.write_text("# The command line: `ombre`\n", encoding="utf-8")
    assert handbook_html(titled, "../", (), ()).title == "The command line: ombre"
    assert "See the CLI, " in page.html
    assert '<a href="../books/ombre.html#deal">the book</a>' in page.html
    assert '<a href="../books/ombre.html">the rules</a>' in page.html
    assert '<a href="../docs/decisions.html#amounts">decisions</a>' in page.html
    assert '<h1 id="a-note">' in page.html and '<h2 id="a-note-1">' in page.html

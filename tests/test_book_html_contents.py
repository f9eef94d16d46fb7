"""The HTML rule books: a table of contents, code spans shown as code (no raw backticks), and a
font stack that reaches for a CJK face for the Chinese quotes."""

from __future__ import annotations

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
    css = (tmp_path / "style.css").read_text("utf-8")
    assert "Noto Serif CJK SC" in css


def test_the_markdown_book_keeps_its_code_spans_and_has_no_contents_box(tmp_path: Path) -> None:
    result = runner.invoke(app, ["docs", "--out", str(tmp_path), "quadrille"])
    assert result.exit_code == 0, result.output
    page = (tmp_path / "books" / "quadrille.md").read_text("utf-8")
    assert "`require CARD`" in page
    assert 'class="toc"' not in page

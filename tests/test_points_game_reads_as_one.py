"""A game scored in points reads as one (rules/dansk-lhombre.yaml: `settlement.unit: point`,
no matadors paid, no vole): `ombre show`, the rule book, `ombre replay` (text and Markdown),
the terminal scorekeeper (its screens, its report and its saved file) and the terminal table
say nothing of counters, fiches, stakes, a table's pot, bêtes, matadors paid or the vole; a
game in counters still says them. The deal replayed is the golden record of the duel auction,
tests/records/dansk-lhombre-duel-tourne.yaml."""

from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

from engine.cli import app

ROOT = Path(__file__).resolve().parent.parent
RECORD = ROOT / "tests" / "records" / "dansk-lhombre-duel-tourne.yaml"
COUNTERS = re.compile(
    r"fiche|stake|on the table|bête|matadors paid|\bvole\b|\bcounters?\b(?!-)|jeton", re.IGNORECASE
)


def invoke(*args: str, stdin: str | None = None) -> str:
    result = CliRunner().invoke(app, list(args), input=stdin)
    assert result.exit_code == 0, result.output
    return result.output


def leftovers(text: str) -> list[str]:
    return [line for line in text.splitlines() if COUNTERS.search(line)]


def test_show_says_no_counters_matadors_paid_or_vole() -> None:
    shown = invoke("show", "dansk-lhombre")
    body = shown.split("Changes from ombre", 1)[0]  # the changes list names the file's paths
    assert "Settlement   in points" in body
    assert leftovers(body) == []
    # A game in counters still shows them.
    ombre = invoke("show", "ombre")
    assert "a fiche is" in ombre and "paid: the unbroken run" in ombre and "Vole" in ombre


def test_the_book_says_no_counters_or_vole() -> None:
    # The committed book, which tests/test_generated_docs.py keeps equal to `ombre docs`.
    text = (ROOT / "docs" / "generated" / "books" / "dansk-lhombre.md").read_text(encoding="utf-8")
    auction = text.split("## The auction", 1)[1].split("## ", 1)[0]
    assert "no vole" not in auction and "Spil (alm. spil)" in auction
    assert "Matadors paid" not in text and "a fiche is" not in text


def test_replay_of_the_danish_duel_says_no_pot_or_matadors(tmp_path: Path) -> None:
    md = tmp_path / "duel.md"
    text = invoke("replay", str(RECORD), "--md", str(md))
    assert "[2] seat 1: bid tourne" in text and "[4] seat 0: pass" in text
    assert "seat 1 scores 2: points" in text and "(points)" in text
    assert leftovers(text) == []
    page = md.read_text(encoding="utf-8")
    assert "| seat 1 | 2 | scored: points |" in page
    assert leftovers(page) == [] and "seat score" not in page
    # A record in counters still tells the table and the matadors.
    ombre = invoke("replay", str(ROOT / "tests" / "records" / "ombre-entrada-win.yaml"))
    assert "on the table before:" in ombre and "matadors paid for:" in ombre


def test_the_terminal_scorekeeper_says_no_pot(tmp_path: Path) -> None:
    path = tmp_path / "evening.yaml"
    said = invoke(
        "score",
        "dansk-lhombre",
        "--evening",
        str(path),
        "--players",
        "A,B,C",
        stdin="spil\n1\nclubs\n2 5 2\n\n\n",
    )
    assert "points: the score → B 1" in said and "Totals so far: A +0 · B +1 · C +0" in said
    assert leftovers(said) == []
    saved = path.read_text(encoding="utf-8")
    assert "tricks: [2, 5, 2]}" in saved and "matadors" not in saved and "vole" not in saved
    assert "on the table" not in saved
    report = invoke("score", "--evening", str(path), "--report")
    assert "Totals after 1 deal (points):" in report and leftovers(report) == []


def test_the_terminal_table_says_no_pot() -> None:
    out = invoke("play", "dansk-lhombre", "--seed", "1", stdin="quit\n")
    assert "=== Deal 1" in out and leftovers(out) == []
    ombre = invoke("play", "ombre", "--seed", "1", stdin="quit\n")
    assert "On the table from earlier deals" in ombre

"""Names with characters a terminal acts on (LS, RLO, LRI, RLM; controls such as NEL and ESC are refused when a name is entered) are printed escaped in the
terminal report, never raw."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner


def test_the_report_escapes_control_and_bidi_characters_in_names(tmp_path: Path) -> None:
    from engine.cli import app

    evening = tmp_path / "tuesday.yaml"
    names = "Ann\u2066x,Bob\u2028y,Cy\u202eevil,Di\u200fz"
    made = CliRunner().invoke(
        app, ["score", "quadrille", "--evening", str(evening), "--players", names], input=""
    )
    assert made.exit_code == 0, made.output
    if not evening.exists():
        from engine.rules import load_ruleset
        from engine.scoresheet import Evening, write_evening

        sheet = Evening(load_ruleset("quadrille"), players=tuple(names.split(",")))
        evening.write_text(write_evening(sheet), encoding="utf-8")
    report = CliRunner().invoke(app, ["score", "--evening", str(evening), "--report"])
    assert report.exit_code == 0, report.output
    for raw in ("\u2066", "\u2028", "\u202e", "\u200f"):
        assert raw not in report.output
    assert "Cy\\u202eevil" in report.output and "Bob\\u2028y" in report.output

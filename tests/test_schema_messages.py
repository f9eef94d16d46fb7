"""The schema pass's refusals name the way out: an ``enum`` or ``oneOf`` refusal lists the
allowed forms and values and the nearest value to the one given, never an empty list."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from engine.cli import app

runner = CliRunner()

VARIANT = """\
id: house-bete
name: House bête
extends: quadrille
summary: A house rule of the bête.
settlement:
  bete:
    growth: {growth}
    basis:
      evidence: conjecture
      note: A house rule.
"""


def _validate(tmp_path: Path, growth: str) -> str:
    path = tmp_path / "house-bete.yaml"
    path.write_text(VARIANT.format(growth=growth), encoding="utf-8")
    result = runner.invoke(app, ["validate", str(path)])
    assert result.exit_code == 1, result.output
    return result.output


def test_a_one_of_refusal_lists_the_forms_and_suggests_the_nearest_value(tmp_path: Path) -> None:
    out = _validate(tmp_path, "double")
    assert "house-bete.yaml:7:" in out
    assert "one of `in-play`, `doubling`" in out
    assert "a mapping with `step`" in out
    assert "did you mean `doubling`?" in out
    assert "needs exactly one of: ," not in out


def test_a_value_far_from_every_allowed_one_gets_no_guess(tmp_path: Path) -> None:
    out = _validate(tmp_path, "zzzzzz")
    assert "one of `in-play`, `doubling`" in out
    assert "did you mean" not in out


def test_an_enum_refusal_lists_its_values_and_the_nearest(tmp_path: Path) -> None:
    path = tmp_path / "house-going.yaml"
    path.write_text(
        VARIANT.replace("growth: {growth}", "going: largest-frist").replace(
            "house-bete", "house-going"
        ),
        encoding="utf-8",
    )
    out = runner.invoke(app, ["validate", str(path)]).output
    assert "is not one of `largest-first`, `all`" in out
    assert "did you mean `largest-first`?" in out

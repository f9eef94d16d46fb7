"""A refusal of a value names the way out: an enum's or a oneOf's allowed values, and the
nearest of them to what was written (docs/rule-format.md, "Problems")."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.rules.loader import validate_paths

VARIANT = """\
id: club-hint
name: "Quadrille, a value misspelt"
extends: quadrille
summary: A test of the refusals' hints.
settlement:
  bete:
    growth: {growth}
    basis:
      evidence: conjecture
      note: A test.
"""


@pytest.mark.parametrize(
    ("growth", "code", "nearest"),
    [("double", "schema/oneOf", "doubling"), ("in-ply", "schema/oneOf", "in-play")],
)
def test_a_oneof_refusal_lists_every_form_and_the_nearest_value(
    tmp_path: Path, growth: str, code: str, nearest: str
) -> None:
    path = tmp_path / "club-hint.yaml"
    path.write_text(VARIANT.format(growth=growth), encoding="utf-8")
    problems, _ = validate_paths([str(path)])
    assert [p.code for p in problems] == [code]
    message = problems[0].message
    assert "`in-play`" in message and "`doubling`" in message and "`step`" in message
    assert message.endswith(f"did you mean `{nearest}`?")
    assert ", ," not in message and ": ," not in message and "of: ," not in message
    assert problems[0].line == 7  # the variant's own line


def test_an_enum_refusal_lists_the_values_and_the_nearest(tmp_path: Path) -> None:
    path = tmp_path / "club-hint.yaml"
    text = VARIANT.replace(
        "settlement:\n  bete:\n    growth: {growth}", "auction:\n  all_pass:\n    action: redel"
    )
    path.write_text(text, encoding="utf-8")
    problems, _ = validate_paths([str(path)])
    assert [p.code for p in problems] == ["schema/enum"]
    assert "`forced`, `redeal`" in problems[0].message
    assert problems[0].message.endswith("did you mean `redeal`?")


def test_no_hint_for_a_value_far_from_every_allowed_one(tmp_path: Path) -> None:
    path = tmp_path / "club-hint.yaml"
    path.write_text(VARIANT.format(growth="zzzzzz"), encoding="utf-8")
    problems, _ = validate_paths([str(path)])
    assert problems and "did you mean" not in problems[0].message

"""A rule file whose hand is larger than any pack is refused at once by ombre validate (it
used to run for minutes, matching results over a hand of 10**30 cards)."""

from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

RULES = Path(__file__).parent.parent / "rules" / "quadrille.yaml"


def test_a_hand_of_ten_to_the_thirty_is_refused_located(tmp_path: Path) -> None:
    from engine.cli import app

    text = re.sub(r"(?m)^  hand_size: .*$", f"  hand_size: {10**30}", RULES.read_text())
    bad = tmp_path / "huge.yaml"
    bad.write_text(text)
    result = CliRunner().invoke(app, ["validate", str(bad)])
    assert result.exit_code != 0
    # Refused by the schema, before any check runs over the hand.
    assert "$.deal.hand_size" in result.output and "maximum of 52" in result.output
    assert "1 problem" in result.output

"""Claims the model was fitted to say so: a confirmation that shows consistency."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.documents.claims import load_claims
from engine.errors import RuleFileError

FITTED = {
    # The médiateur's 13 / 12 / 17 / 16 / 17 fixed the jeu, consolation and sans-prendre.
    "enc-mediateur-win",
    "enc-mediateur-codille",
    "enc-mediateur-remise",
    "enc-sans-prendre-win",
    "enc-sans-prendre-remise",
    "enc-sans-prendre-codille",
    # The stake and the bête of 14 (on 13 at three) fixed the stakes and the stake value.
    "enc-bete-fourteen-on-thirteen",
    "enc-stakes",
    "enc-first-bete-fourteen",
    "enc-codille-pays-as-win",
    # Quintille's 15, 45 and 30.
    "cg-quintille-first-bete",
    "cg-quintille-bete-chain",
    # Circular: the double game's 28 is the variant's own reading of "à-proportion", and the
    # sans-prendre codille paid as a win is the twin of enc-codille-pays-as-win.
    "enc-double-game",
    "enc-sans-prendre-codille-as-win",
    # À trois's chain "comme au quadrille": its stakes are reckoned as 14 to give it.
    "enc-a-trois-bete-chain",
    "enc-a-trois-bete-chain-codille",
    # The summary's matador bonus has no amount: the claim takes the model's own.
    "zh-matador-bonus",
}


def test_the_fitted_claims_are_marked() -> None:
    claims = {c.id: c for c in load_claims()}
    assert {cid for cid, c in claims.items() if c.fitted} == FITTED


def test_the_report_shows_them_as_fitted() -> None:
    from typer.testing import CliRunner

    from engine.cli import app

    out = CliRunner().invoke(app, ["claims"]).output
    line = next(line for line in out.splitlines() if " enc-mediateur-win " in line)
    assert "fitted" in line
    assert "(17 of them fitted)" in out.splitlines()[-1]
    assert not any("fitted" in line for line in out.splitlines() if " enc-red-trumps " in line)


def test_fitted_must_be_a_flag(tmp_path: Path) -> None:
    (tmp_path / "x.yaml").write_text(
        "claims:\n  - id: a\n    ruleset: quadrille\n    source: enc-q\n    locator: x\n"
        "    quote: q\n    statement: {kind: deck-size, count: 40}\n    fitted: maybe\n",
        encoding="utf-8",
    )
    with pytest.raises(RuleFileError) as exc:
        load_claims(tmp_path)
    assert [p.code for p in exc.value.problems] == ["data/type"]

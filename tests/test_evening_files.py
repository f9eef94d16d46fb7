"""An evening file that is not UTF-8, or too large, is refused located (terminal) or with a
4xx page (web), as a record is: never a traceback or a 500."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

BAD = b'ruleset: quadrille\nscore: []\nplayers: ["\xff\xfe"]\n'


def test_the_terminal_report_locates_a_byte_that_is_not_utf8(tmp_path: Path) -> None:
    from engine.cli import app

    bad = tmp_path / "tuesday.yaml"
    bad.write_bytes(BAD)
    result = CliRunner().invoke(app, ["score", "--evening", str(bad), "--report"])
    assert result.exit_code != 0
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert f"{bad}:3:12" in result.output and "not UTF-8" in result.output


def test_an_evening_larger_than_a_record_may_be_is_refused(tmp_path: Path) -> None:
    from engine.cli import app

    big = tmp_path / "big.yaml"
    big.write_text("ruleset: quadrille\nscore: [" + "0, " * 2_000_000 + "0]\n")
    result = CliRunner().invoke(app, ["score", "--evening", str(big), "--report"])
    assert result.exit_code != 0 and "limit" in result.output


def test_the_web_answers_409_not_500(tmp_path: Path) -> None:
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from engine.web.app import create_app

    client = TestClient(create_app(tmp_path), headers={"origin": "http://testserver"})
    (tmp_path / "evenings" / "quadrille-bad001.yaml").write_bytes(BAD)
    r = client.get("/evenings/quadrille-bad001")
    assert 400 <= r.status_code < 500
    assert "not UTF-8" in r.text

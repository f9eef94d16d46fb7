"""The scorekeeper asks who held trumps where the rules need it (issue 15): Quintille gives a
codille's odd counters one by one to the highest trumps (CG-EN PA56)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine import load_ruleset
from engine.scoresheet import Evening


def test_the_evening_says_when_trump_holders_are_needed() -> None:
    assert Evening(load_ruleset("quintille")).asks_trump_holders
    assert not Evening(load_ruleset("quadrille")).asks_trump_holders


def test_score_at_the_terminal_asks_for_the_trump_holders(tmp_path: Path) -> None:
    evening = tmp_path / "friday.yaml"
    # Seat 1 plays sans prendre and takes 3 of 8: codille; seats 2 and 0 held trumps.
    answers = "\n".join(["sans-prendre", "1", "clubs", "", "2 3 1 1 1", "0", "n", "9 9", "2 0"])
    run = subprocess.run(
        [sys.executable, "-m", "engine.cli", "score", "quintille", "--evening", str(evening)],
        input=answers + "\n",
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert "who held a trump, the highest first?" in run.stdout
    assert "a seat from 0 to 4, please" in run.stdout  # "9 9" is refused and asked again
    report = subprocess.run(
        [sys.executable, "-m", "engine.cli", "score", "--evening", str(evening), "--json"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    data = json.loads(report.stdout)
    assert data["deals"][0]["result"] == "codille"
    assert "trump_holders: [2, 0]" in evening.read_text(encoding="utf-8").replace("\n  ", " ")


def test_the_web_scorekeeper_asks_for_the_trump_holders(tmp_path: Path) -> None:
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from engine.web.app import create_app

    client = TestClient(
        create_app(tmp_path), follow_redirects=True, headers={"origin": "http://testserver"}
    )
    r = client.post("/evenings", data={"ruleset": "quintille", "dealer": "0"})
    assert r.status_code == 200 and 'name="trump_holders"' in r.text
    path = str(r.url.path)
    version = r.text.split('name="version" value="', 1)[1].split('"', 1)[0]
    fields = {"contract": "sans-prendre", "declarer": "1", "trump": "clubs", "matadors": "0"}
    fields |= {"dealer": "0"}
    fields |= {f"tricks{k}": str(t) for k, t in enumerate((2, 3, 1, 1, 1))}
    r = client.post(
        path + "/deals", data={**fields, "trump_holders": "2 0", "version": version, "count": "0"}
    )
    assert r.status_code == 200, r.text[:400]
    saved = next((tmp_path / "evenings").glob("*.yaml")).read_text(encoding="utf-8")
    assert "trump_holders" in saved
    r = client.get("/evenings/none-such")
    assert r.status_code == 404
    quadrille = client.post("/evenings", data={"ruleset": "quadrille", "dealer": "0"})
    assert 'name="trump_holders"' not in quadrille.text

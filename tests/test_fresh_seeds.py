"""A new game's seed when none is given: from the operating system's randomness, not the clock,
and told to the player only once the party is over (``--seed`` shows it from the start)."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from engine.table import EXIT_UNFINISHED

runner = CliRunner()


def play(*args: str, stdin: str = ""):  # type: ignore[no-untyped-def]
    from engine.cli import app

    return runner.invoke(app, ["play", *args], input=stdin)


def test_a_fresh_seed_is_not_told_while_the_deal_is_played() -> None:
    result = play("quadrille", stdin="")
    assert result.exit_code == EXIT_UNFINISHED, result.output
    assert "Seed" not in result.output and "--seed" not in result.output


def test_a_fresh_seed_is_told_once_the_party_is_over() -> None:
    result = play("quadrille", "--deals", "1", stdin="1\n" * 400)
    assert result.exit_code == 0, result.output
    told = re.findall(r"--seed (\d+)` deals the same cards again", " ".join(result.output.split()))
    assert len(told) == 1
    # Told after the result, never before the first card is played.
    assert result.output.index("Seed ") > result.output.index("Your hand")


def test_a_given_seed_is_shown_from_the_start() -> None:
    result = play("quadrille", "--seed", "5", stdin="")
    assert "`ombre play quadrille --seed 5` deals the same cards again" in result.output


def test_web_tables_made_at_the_same_instant_get_unrelated_seeds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from engine.web.app import create_app

    # The attack: the clock at the table's making gave the seed away in a few tries.
    monkeypatch.setattr(time, "time", lambda: 1_700_000_000.0)
    client = TestClient(
        create_app(tmp_path), follow_redirects=True, headers={"origin": "http://testserver"}
    )
    seeds = []
    for _ in range(3):
        r = client.post("/tables", data={"ruleset": "quadrille", "mode": "bots", "seat": "0"})
        assert r.status_code == 200
        settings = (tmp_path / "tables" / f"{r.url.path.rsplit('/', 1)[1]}.json").read_text()
        match = re.search(r'"seed": (\d+)', settings)
        assert match
        seeds.append(int(match.group(1)))
    assert len(set(seeds)) == 3
    assert all(s != int(1_700_000_000.0 * 1000) % 1_000_000 for s in seeds)
    assert "seed" not in r.text.lower() or str(seeds[-1]) not in r.text

"""The referee's commands through typer's test runner: play, replay, simulate."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from engine import load_ruleset
from engine.records import read_record, replay
from tests.cli_helpers import invoke

runner = CliRunner()


@pytest.mark.parametrize("ruleset", ["quadrille", "ombre", "quadrille-a-trois", "mediateur"])
def test_simulate_json(ruleset: str) -> None:
    result = invoke("simulate", ruleset, "-n", "300", "--seed", "4", "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert {"ruleset", "deals", "seed", "results", "contracts", "totals", "pot", "seconds"} <= set(
        doc
    )
    assert doc["ruleset"] == ruleset and doc["deals"] == 300 and doc["seed"] == 4
    assert sum(doc["results"].values()) == 300
    assert sum(doc["totals"]) + doc["pot"] == 0  # counters are conserved over the party
    again = json.loads(invoke("simulate", ruleset, "-n", "300", "--seed", "4", "--json").stdout)
    timing = {"seconds", "jobs", "deals_per_second"}
    assert {k: v for k, v in again.items() if k not in timing} == {
        k: v for k, v in doc.items() if k not in timing
    }


def test_simulate_text_and_random_bots() -> None:
    result = invoke("simulate", "quadrille", "-n", "50", "--bots", "random")
    assert result.exit_code == 0, result.output
    assert "Results" in result.output and "Seat    balance" in result.output


def test_simulate_unknown_bots_is_a_usage_error() -> None:
    result = invoke("simulate", "quadrille", "--bots", "clever")
    assert result.exit_code == 2 and "--bots" in result.output


def test_play_auto(tmp_path: Path) -> None:
    record = tmp_path / "auto.yaml"
    result = invoke(
        "play", "mediateur", "--auto", "--seed", "8", "--deals", "3", "--record", str(record)
    )
    assert result.exit_code == 0, result.output
    assert result.output.count("Result:") + result.output.count("the deal is void") == 3
    assert "Totals over the party:" in result.output
    report = replay(read_record(record), load_ruleset("mediateur"))
    assert report.complete and len(report.deals) == 3


def test_play_piped_answers_by_number(tmp_path: Path) -> None:
    """The human seat answers with numbers of listed choices; the record replays to the same result."""
    record = tmp_path / "game.yaml"
    result = invoke("play", "quadrille", "--seed", "5", "--record", str(record), stdin="1\n" * 40)
    assert result.exit_code == 0, result.output
    assert "Your hand:" in result.output and "Result:" in result.output
    report = replay(read_record(record), load_ruleset("quadrille"))
    assert report.complete
    assert f"Result: {report.deals[0]['result']}" in result.output


def test_play_refuses_an_illegal_answer_and_asks_again() -> None:
    answers = "bid nonsense\nplay As\n" + "1\n" * 40
    result = invoke("play", "quadrille", "--seed", "5", stdin=answers)
    assert result.exit_code == 0, result.output
    assert "Refused:" in result.output or "Not understood:" in result.output
    assert "Result:" in result.output


def test_play_writes_the_record_when_input_ends_early(tmp_path: Path) -> None:
    record = tmp_path / "partial.yaml"
    result = invoke(
        "play", "ombre", "--seed", "2", "--seat", "1", "--record", str(record), stdin=""
    )
    assert result.exit_code == 3, result.output  # unfinished: engine.table.EXIT_UNFINISHED
    assert "Input ended" in result.output
    partial = read_record(record)
    report = replay(partial, load_ruleset("ombre"))
    assert not report.complete and report.error is None


def test_play_bad_seat_is_a_usage_error() -> None:
    result = invoke("play", "ombre", "--seat", "3")
    assert result.exit_code == 2 and "--seat" in result.output


def test_replay_text_output() -> None:
    path = Path(__file__).parent / "records" / "ombre-entrada-win.yaml"
    result = invoke("replay", str(path))
    assert result.exit_code == 0, result.output
    assert "result: win" in result.output and "totals:" in result.output

"""The simulation driver: the same results for any number of jobs, settlement chained exactly."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from engine import load_ruleset
from engine.settlement import TableState
from engine.simulate import (
    TIMING_FIELDS,
    Setup,
    parse_bots,
    play_block,
    resettle,
    run,
)

RULESETS = ["quadrille", "ombre", "quadrille-a-trois", "mediateur", "german-solo"]


def _results(doc: dict) -> dict:  # type: ignore[type-arg]
    return {k: v for k, v in doc.items() if k not in TIMING_FIELDS}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_same_results_for_any_number_of_jobs(ruleset: str) -> None:
    rules = load_ruleset(ruleset)
    kinds = ("random", "heuristic", "random", "heuristic")[: rules.players]
    setup = Setup(rules, kinds, seed=3)
    deals = 2 * setup.block + 37  # three blocks, the last one short
    one = run(setup, deals, jobs=1).as_json()
    for jobs in (2, 3):
        assert _results(run(setup, deals, jobs=jobs).as_json()) == _results(one)
    assert sum(one["totals"]) + one["pot"] == 0
    assert sum(one["results"].values()) == deals


@pytest.mark.parametrize("ruleset", RULESETS)
def test_resettling_on_the_true_table_is_what_the_referee_settles(ruleset: str) -> None:
    # A worker plays a block from an empty table; the parent settles its deals again on the
    # true table. That must give exactly what the referee gives when dealt the true table.
    rules = load_ruleset(ruleset)
    setup = Setup(rules, ("random",) * rules.players, seed=11)
    deals = 2 * setup.block
    first = play_block(setup, 0, deals)
    # Any table a party can leave will do as the true one: take one with something on it.
    start = next(d.table_after for d in reversed(first) if d.table_after != TableState())
    true = play_block(setup, 1, deals, start)
    worker = play_block(setup, 1, deals, TableState())
    differing = 0
    for mine, theirs in zip(true, worker, strict=True):
        assert resettle(rules, theirs, mine.table_before) == mine
        differing += theirs.table_before != mine.table_before
    assert differing >= 1  # the worker's table was wrong at first
    carried = sum(d.table_before != TableState() for d in true)
    assert carried > 10  # pots, bêtes, odd counters or redeals were carried


def test_parallel_run_matches_one_party_played_by_the_referee() -> None:
    rules = load_ruleset("ombre")  # redeals staked by the all-pass rule, bêtes, codilles
    setup = Setup(rules, ("random",) * 3, seed=5)
    deals = 3 * setup.block
    tally = run(setup, deals, jobs=2)
    table = TableState()
    totals = [0, 0, 0]
    for block in range(3):
        for deal in play_block(setup, block, deals, table):
            table = deal.table_after
            totals = [a + b for a, b in zip(totals, deal.balances, strict=True)]
    assert tally.totals == totals and tally.table == table


def test_parse_bots() -> None:
    known = ["random", "heuristic", "search"]
    assert parse_bots("random", 3, known) == ("random",) * 3
    assert parse_bots("search, heuristic,heuristic", 3, known) == (
        "search",
        "heuristic",
        "heuristic",
    )
    with pytest.raises(ValueError, match="3 seats; the game has 4"):
        parse_bots("random,random,random", 4, known)
    with pytest.raises(ValueError, match="clever"):
        parse_bots("random,clever", 2, known)


def test_summary_fields() -> None:
    rules = load_ruleset("quadrille")
    doc = run(Setup(rules, ("heuristic",) * 4, seed=2), 400).as_json()
    roles = doc["average_by_role"]
    assert set(roles) <= {"declarer", "partner", "defender", "none"} and "declarer" in roles
    # Balances by role add up to the seats' totals.
    counts = doc["seat_deals_by_role"]
    assert round(sum(roles[r] * counts[r] for r in roles)) == sum(doc["totals"])
    assert sum(counts.values()) == 400 * 4
    assert doc["forced"] == doc["contracts"].get("forced-spadille", 0)
    assert doc["all_pass_rate"] == round(doc["all_passed"] / 400, 4)
    assert doc["largest_bete"] >= 0 and len(doc["digest"]) == 64


runner = CliRunner()


def test_cli_jobs_and_per_seat_bots() -> None:
    from engine.cli import app

    args = ["simulate", "quadrille", "-n", "300", "--bots", "random,heuristic,random,heuristic"]
    one = runner.invoke(app, [*args, "--jobs", "1", "--json"])
    two = runner.invoke(app, [*args, "--jobs", "2", "--json"])
    assert one.exit_code == 0 and two.exit_code == 0, one.output + two.output
    doc1, doc2 = json.loads(one.stdout), json.loads(two.stdout)
    assert _results(doc1) == _results(doc2)
    assert doc2["jobs"] == 2 and doc1["jobs"] == 1
    assert set(doc1["by_bot"]) == {"random", "heuristic"}
    assert doc1["by_bot"]["random"]["seats"] == [0, 2]
    text = runner.invoke(app, [*args, "--jobs", "2"])
    assert "Bot        per seat and deal" in text.stdout
    assert "simulating" not in text.output  # no progress bar when not on a terminal


def test_cli_bad_bots_are_usage_errors() -> None:
    from engine.cli import app

    result = runner.invoke(app, ["simulate", "quadrille", "--bots", "random,random"])
    assert result.exit_code == 2 and "the game has 4" in result.output
    result = runner.invoke(app, ["simulate", "quadrille", "--jobs", "0"])
    assert result.exit_code == 2


def test_the_docs_example_is_what_the_command_prints() -> None:
    from pathlib import Path

    from engine.cli import app

    docs = (Path(__file__).resolve().parent.parent / "docs" / "playing.md").read_text("utf-8")
    command = "$ .venv/bin/ombre simulate quadrille -n 1000 --seed 1\n"
    shown = docs[docs.index(command) + len(command) :].split("```")[0].splitlines()
    out = runner.invoke(app, ["simulate", "quadrille", "-n", "1000", "--seed", "1"]).stdout
    printed = out.splitlines()
    assert len(printed) == len(shown)
    for mine, theirs in zip(printed, shown, strict=True):
        if "deals/s" not in mine:  # the timing line varies
            assert mine == theirs

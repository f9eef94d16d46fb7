"""The simulation driver: the same results for any number of jobs, settlement chained exactly."""

from __future__ import annotations

import json
import random

import pytest
from typer.testing import CliRunner

from engine import load_ruleset
from engine.referee import Deal
from engine.referee.settlement import TableState
from engine.simulate import (
    TIMING_FIELDS,
    Setup,
    block_seed,
    deal_seed,
    parse_bots,
    play_block,
    played_deal,
    run,
    settled,
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


@pytest.mark.parametrize("ruleset", [*RULESETS, "quadrille-last-tour-double"])
def test_settling_a_played_deal_is_what_the_referee_settles(ruleset: str) -> None:
    # A worker plays a block without knowing the table; the parent settles each deal on the
    # true one. That must be exactly what the referee settles when dealt that table.
    rules = load_ruleset(ruleset)
    setup = Setup(rules, ("random",) * rules.players, seed=11)
    deals = 2 * setup.block
    unsettled = play_block(setup, 1, deals)
    rng = random.Random(block_seed(setup.seed, 1))
    bots = setup.make_bots()
    table = TableState()
    carried = 0
    for k, played in enumerate(unsettled):
        deal = played_deal(setup, setup.block + k, bots, rng, table)
        mine = settled(rules, played, table)
        assert deal.settlement == mine
        assert deal.settlement is not None and deal.settlement.payments == mine.payments
        carried += table != TableState()
        table = mine.table
    assert carried > 10  # pots, bêtes, odd counters or redeals were carried


def test_parallel_run_matches_one_party_played_by_the_referee() -> None:
    from engine.referee.party import Party

    rules = load_ruleset("quadrille-last-tour-double")  # bêtes, odd counters, a last tour
    setup = Setup(rules, ("heuristic",) * 4, seed=5)
    deals = 8 * setup.block // 5  # two blocks, the second short; 400 deals, ten parties
    tally = run(setup, deals, jobs=2)
    party = Party(rules)
    bots = setup.make_bots()
    for i in range(deals):
        if i % setup.block == 0:
            rng = random.Random(block_seed(setup.seed, i // setup.block))
            for bot in bots:
                bot.rng = rng
        deal = party.new_deal(seed=deal_seed(setup.seed, i))
        while not deal.is_over:
            deal.apply(bots[deal.to_move].choose(deal, deal.to_move))
    assert tally.totals == party.totals and tally.table == party.table
    assert any(d.factor == 2 for d in party.deals)


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


def test_the_summary_is_a_typed_value_its_json_and_text_show() -> None:
    """The text summary's template is fed the typed Summary, not the JSON document; the JSON
    document is that value's fields, in order."""
    import dataclasses

    from engine.simulate import Summary, summary_text

    rules = load_ruleset("ombre")
    tally = run(Setup(rules, ("random", "heuristic", "random"), seed=4), 60)
    summary = tally.summary()
    assert isinstance(summary, Summary)
    doc = tally.as_json()
    assert list(doc) == [f.name for f in dataclasses.fields(Summary)]
    assert doc["table"] == dataclasses.asdict(summary.table)
    assert doc["by_bot"]["heuristic"]["seats"] == summary.by_bot["heuristic"].seats == [1]
    text = summary_text(tally, rules)
    assert f"{rules.name}: 60 deals with random,heuristic,random bots (seed 4)" in text
    assert f"Digest         {summary.digest[:16]}" in text


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


def test_simulate_deals_what_play_deals_for_a_seed() -> None:
    # Deal i of `ombre simulate --seed S` has the cards and dealer of deal i of
    # `ombre play --auto --seed S` (and of a party record's `seed: S`).
    from engine.referee.party import Party
    from engine.table import TableGame

    rules = load_ruleset("quadrille")
    setup = Setup(rules, ("random",) * 4, seed=5)
    game = TableGame(rules, human=None, seed=5, bots="random", deals=6)
    party = Party(rules)
    for i in range(6):
        at_table = game._new_deal(party, i)
        simulated = played_deal(setup, i)
        assert (simulated.dealer, simulated.dealt, simulated.dealt_talon) == (
            at_table.dealer,
            at_table.dealt,
            at_table.dealt_talon,
        )
        party.deals[-1] = simulated  # finished, so the party deals on


def test_runs_with_different_seeds_share_no_deal() -> None:
    # Deal i of a run seeded S was dealt from S + i: a run seeded 2 replayed all but one of the
    # deals of a run seeded 1. Mixed seeds share nothing (but by a 2**-63 chance).
    rules = load_ruleset("quadrille")
    hands = {}
    for seed in (1, 2, 77):
        hands[seed] = {Deal(rules, seed=deal_seed(seed, i)).dealt for i in range(400)}
        assert len(hands[seed]) == 400
    assert not hands[1] & hands[2] and not hands[1] & hands[77] and not hands[2] & hands[77]
    assert all(deal_seed(2, i) != deal_seed(1, i + 1) for i in range(10_000))
    assert deal_seed(5, 0) == 5  # the first deal is dealt from the seed itself


def test_different_seeds_give_different_runs() -> None:
    rules = load_ruleset("quadrille")
    results = [run(Setup(rules, ("random",) * 4, seed=s), 300).as_json()["results"] for s in (1, 2)]
    assert results[0] != results[1]


def test_any_deal_of_a_run_replays_from_its_record() -> None:
    import yaml

    from engine.records import parse_record, replay
    from engine.simulate import deal_record, settled_deals

    rules = load_ruleset("ombre")
    setup = Setup(rules, ("heuristic", "random", "heuristic"), seed=9)
    played = {i: p for i, p, _ in settled_deals(setup, 260)}
    for index in (0, 7, 251):
        record = deal_record(setup, index)
        report = replay(parse_record(yaml.safe_dump(record)), rules).as_json()
        assert report["complete"] and report["error"] is None
        deal = report["deals"][0]
        o = played[index].outcome
        assert (deal["result"], deal["declarer"], deal["tricks_won"]) == (
            o.result,
            o.declarer,
            list(o.tricks),
        )

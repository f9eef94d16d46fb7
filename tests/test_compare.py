"""``ombre simulate A --against B``: two rule sets on the same deals, paired."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from dataclasses import replace
from pathlib import Path
from typing import get_type_hints

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from engine import load_ruleset
from engine.cli import EXIT_USAGE, app
from engine.compare import (
    Comparison,
    ComparisonReport,
    DealOutcome,
    Differences,
    Estimate,
    compare,
    mean_ci,
    paired_ci,
    proportion_ci,
    render_html,
    render_svg,
    render_text,
)

runner = CliRunner()


def test_intervals() -> None:
    e = proportion_ci(0, 50)
    assert e.value == 0 and abs(e.low) < 1e-12 and 0 < e.high < 0.1
    assert proportion_ci(50, 50).high == 1.0
    wide, narrow = mean_ci([0, 10] * 5), mean_ci([0, 10] * 500)
    assert wide.value == narrow.value == 5
    assert narrow.high - narrow.low < wide.high - wide.low
    same = paired_ci([(3, 3)] * 10)
    assert (same.value, same.low, same.high) == (0, 0, 0)


def test_the_same_rules_are_paired_exactly() -> None:
    """Against itself every difference is exactly zero: the deals and bots are the same."""
    q = load_ruleset("quadrille")
    report = compare(q, q, 60, seed=3).as_json()
    d = report["difference"]
    assert d["same_contract"]["value"] == 1.0 and d["same_result"]["value"] == 1.0
    for role in d["average_by_role"].values():
        assert role["value"] == role["low"] == role["high"] == 0
    assert report["rulesets"][0] == {**report["rulesets"][1], "ruleset": "quadrille"}


def test_the_same_comparison_for_any_number_of_jobs() -> None:
    """The comparison plays through the simulate driver: the same report for any --jobs."""
    from engine.simulate import Setup, run

    a, b = load_ruleset("quadrille"), load_ruleset("quadrille-four-trick-bete")
    deals = 2 * 250 + 17  # three blocks, the last one short
    one = compare(a, b, deals, seed=4, bots="random", jobs=1)
    assert compare(a, b, deals, seed=4, bots="random", jobs=2) == one
    assert compare(a, b, deals, seed=4, bots="random", jobs=3) == one
    # Side A is what ``ombre simulate`` plays with the same seed and bots, deal for deal.
    tally = run(Setup(a, ("random",) * 4, 4), deals)
    totals = [sum(d.balances[s] for d in one.outcomes[0]) for s in range(4)]
    assert totals == tally.totals


def test_four_trick_rule_moves_losses_from_partner_to_declarer() -> None:
    """The four-trick house rule: same bids and results, but a caller with three tricks pays
    a loss alone, so the partner does better and the declarer worse, never the defenders."""
    a, b = load_ruleset("quadrille"), load_ruleset("quadrille-four-trick-bete")
    report = compare(a, b, 400, seed=1).report()
    d = report.difference
    assert d.same_result.value == 1.0
    assert d.average_by_role["partner"].low > 0
    assert d.average_by_role["declarer"].high < 0
    assert d.average_by_role["defender"].value == 0
    text = render_text(report)
    assert "quadrille-four-trick-bete" in text and "partner, per deal" in text


def test_svg_is_drawn_from_the_data() -> None:
    a, b = load_ruleset("quadrille"), load_ruleset("quadrille-seed-summary")
    report = compare(a, b, 80, seed=2).report()
    svg = render_svg(report)
    root = ET.fromstring(svg)  # well-formed XML
    assert root.tag.endswith("svg")
    titles = [t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}title")]
    assert any("dimidiator" in t for t in titles)  # a contract only B has
    played = report.rulesets[1].contracts["dimidiator"].played
    assert any(f"{100 * played.value:.1f}%" in t for t in titles)


def test_cli_json_and_chart(tmp_path: Path) -> None:
    chart = tmp_path / "chart.svg"
    result = runner.invoke(
        app,
        [
            "simulate",
            "ombre",
            "--against",
            "ombre-1-4-4-codille",
            "-n",
            "50",
            "--svg",
            str(chart),
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["a"] == "ombre" and report["b"] == "ombre-1-4-4-codille" and report["paired"]
    assert {"contracts", "average_by_role", "bete_size", "vole_made"} <= set(report["rulesets"][0])
    assert chart.read_text(encoding="utf-8").startswith("<svg")
    result = runner.invoke(app, ["simulate", "ombre", "--svg", str(chart)])
    assert result.exit_code == EXIT_USAGE


def test_html_page_holds_the_table_and_the_chart(tmp_path: Path) -> None:
    import html5lib

    page = tmp_path / "compare.html"
    result = runner.invoke(
        app,
        [
            "simulate",
            "quadrille",
            "--against",
            "quadrille-red-aces",
            "-n",
            "40",
            "--html",
            str(page),
        ],
    )
    assert result.exit_code == 0, result.output
    text = page.read_text(encoding="utf-8")
    parser = html5lib.HTMLParser(strict=True, namespaceHTMLElements=False)
    root = parser.parse(text)
    assert root.find(".//table") is not None and "<svg" in text
    assert "declarer, per deal" in text and "quadrille-red-aces" in text
    assert "http://" not in text.replace("http://www.w3.org/2000/svg", "")


def test_cli_against_takes_jobs() -> None:
    args = ["simulate", "quadrille", "--against", "quadrille-red-aces", "-n", "300", "--json"]
    one = runner.invoke(app, [*args, "--jobs", "1"])
    two = runner.invoke(app, [*args, "--jobs", "2"])
    assert one.exit_code == 0 and two.exit_code == 0, one.output + two.output
    assert json.loads(one.stdout) == json.loads(two.stdout)


def test_the_table_shows_each_figures_count_and_the_paired_difference() -> None:
    compared = compare(
        load_ruleset("ombre"), load_ruleset("ombre-spadille-force"), 150, seed=1, jobs=1
    )
    text = render_text(compared.report())
    report = compared.as_json()
    assert "B - A is the paired" in text and "left out of both" in " ".join(text.split())
    a, b = report["rulesets"]
    d = report["difference"]["declarer_won"]
    # The same deals in both arms: a deal passed out under A (played under B) is out of both
    # arms' declarer's wins, and counted in the redealt row of each ...
    assert a["declarer_won"]["n"] == b["declarer_won"]["n"] == d["n"]
    assert a["redealt"]["value"] != b["redealt"]["value"]
    line = next(x for x in text.splitlines() if x.startswith("declaring side won"))
    counts = [int(w) for w in line.split() if w.isdigit()]
    # ... and each column shows its count.
    assert counts == [a["declarer_won"]["n"], b["declarer_won"]["n"], d["n"]]
    assert d["n"] <= min(a["declarer_won"]["n"], b["declarer_won"]["n"])


def test_a_second_seed_checks_each_difference() -> None:
    from engine.compare import _verdicts

    a, b = load_ruleset("quadrille"), load_ruleset("quadrille-four-trick-bete")
    compared = compare(a, b, 200, seed=4, bots="heuristic")
    report = compared.as_json()
    c = report["confirmation"]
    assert c["seed"] == 5 and c["deals"] == 200
    for f in c["differences"]:
        first = f["first"]
        assert not first["low"] <= 0 <= first["high"]  # only differences the first run found
        second = f["second"]
        same_side = second["low"] > 0 if first["low"] > 0 else second["high"] < 0
        assert f["confirmed"] == same_side
    text = render_text(compared.report()).splitlines()
    # The table fits 100 columns (the unrounded figures are the JSON's and the page's).
    assert max(len(x) for x in text) <= 100, max(text, key=len)
    checked = next(i for i, x in enumerate(text) if x.startswith("checked on a second run"))
    assert "of 200 other deals (seed 5)" in text[checked]
    # Each difference checked stands on a line of its own below the summary line.
    listed = text[checked + 1 : checked + 1 + len(c["differences"])]
    # In words, not the JSON's paths: "partner, per deal" for average_by_role.partner.
    words = {"declarer_won": "declaring", "bete_rate": "bête", "vole_made": "vole"}
    expected = [words.get(f["path"], f["path"].split(".")[1]) for f in c["differences"]]
    assert [x.split()[0].rstrip(",") for x in listed] == expected
    assert text[checked].endswith("confirmed")
    assert "confirmation" not in compare(a, b, 50, confirm=False).as_json()

    est = Estimate(1.0, 0.5, 1.5, 9)
    zero = Estimate(0.0, 0.0, 0.0, 9)

    def differences(declarer_won: Estimate, partner: Estimate, bete_rate: Estimate) -> Differences:
        return Differences({}, declarer_won, {"partner": partner}, bete_rate, zero, zero, zero)

    found = list(
        _verdicts(
            differences(est, replace(est, low=-1.0), est),
            differences(replace(est, low=-0.1), est, est),
        )
    )
    assert [(f.path, f.confirmed) for f in found] == [("declarer_won", False), ("bete_rate", True)]


# The typed report: what every renderer reads; its JSON is only the --json document.


def _outcomes(seats: int) -> st.SearchStrategy[DealOutcome]:
    seat = st.integers(0, seats - 1)

    @st.composite
    def one(draw: st.DrawFn, index: int = 0) -> DealOutcome:
        declarer = draw(st.none() | seat)
        partner = draw(st.none() | seat) if declarer is not None else None
        return DealOutcome(
            index=index,
            result=draw(st.sampled_from(["won", "remise", "codille", "vole", "redeal"])),
            contract=draw(st.none() | st.sampled_from(["ask", "solo", "bola"])),
            declarer=declarer,
            partner=None if partner == declarer else partner,
            balances=tuple(draw(st.lists(st.integers(-40, 40), min_size=seats, max_size=seats))),
            bete=draw(st.integers(0, 30)),
            vole_undertaken=draw(st.booleans()),
            won=draw(st.booleans()),
            vole_made=draw(st.booleans()),
        )

    return one()


@st.composite
def _comparisons(draw: st.DrawFn, checked: bool = True) -> Comparison:
    seats = draw(st.integers(3, 5))
    pairs = draw(st.lists(st.tuples(_outcomes(seats), _outcomes(seats)), max_size=25))
    units = draw(st.sampled_from([("jetons", "jetons"), ("jetons", "points"), ("", "")]))
    check = draw(st.none() | _comparisons(checked=False)) if checked else None
    if check is not None:
        check = replace(check, units=units)
    return Comparison(
        "a-rules",
        "b-rules",
        ("A <rules>", "B & rules"),
        len(pairs),
        draw(st.integers(0, 10**6)),
        "heuristic",
        (tuple(x for x, _ in pairs), tuple(y for _, y in pairs)),
        check,
        units,
    )


@given(_comparisons())
def test_the_report_is_read_back_from_its_json_unchanged(compared: Comparison) -> None:
    """The effects pages' cache stores the JSON and renders what from_json reads back: the
    same typed report, the same JSON, the same table, chart and page."""
    report = compared.report()
    document = json.loads(json.dumps(report.as_json()))
    assert document == compared.as_json()
    again = ComparisonReport.from_json(document)
    assert again == report
    assert again.as_json() == document
    assert render_text(again) == render_text(report)
    assert render_html(again) == render_html(report)


def test_a_document_that_is_no_report_is_refused() -> None:
    report = compare(load_ruleset("ombre"), load_ruleset("ombre-1-4-4-codille"), 10).as_json()
    assert ComparisonReport.from_json(report).as_json() == report
    for broken in (
        {**report, "deals": "10"},
        {**report, "rulesets": [report["rulesets"][0]]},
        {**report, "units_differ": {"units": ["jetons", "points"]}},
        {k: v for k, v in report.items() if k != "difference"},
        {**report, "confirmation": {**report["confirmation"], "confirmed": 7}},
    ):
        with pytest.raises((KeyError, TypeError, ValueError)):
            ComparisonReport.from_json(broken)


def test_every_renderer_takes_the_typed_report() -> None:
    """The renderers' signatures name the typed report (mypy strict holds every caller to
    them), and they render it without a JSON document in between."""
    from engine import compare as module

    for renderer in (
        module.render_text,
        module.render_svg,
        module.render_html,
        module.table_rows,
        module.chart_data,
    ):
        assert get_type_hints(renderer)["report"] is ComparisonReport, renderer.__name__
    report = compare(load_ruleset("quadrille"), load_ruleset("quadrille-red-aces"), 12).report()
    assert isinstance(module.chart_data(report), module.Chart)
    assert all(isinstance(row, module.TableRow) for row in module.table_rows(report))


def test_the_text_table_ends_its_last_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The table ended without a newline, so ``--svg FILE`` printed ``confirmedchart: FILE``."""
    monkeypatch.chdir(tmp_path)
    report = compare(load_ruleset("quadrille"), load_ruleset("quadrille-red-aces"), 12)
    assert render_text(report.report()).endswith(" confirmed\n")
    unchecked = compare(
        load_ruleset("quadrille"), load_ruleset("quadrille-red-aces"), 12, confirm=False
    )
    assert render_text(unchecked.report()).endswith("\n")
    chart = runner.invoke(
        app,
        ["simulate", "quadrille", "--against", "quadrille-red-aces", "-n", "12", "--svg", "c.svg"],
    )
    lines = chart.stdout.splitlines()
    assert lines[-1] == "chart: c.svg" and lines[-2].endswith(" confirmed"), lines[-3:]


def test_the_effects_cache_gives_back_the_typed_report(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The effects pages keep each run's JSON in the cache; a hit is the same typed report as
    the run, and a cached document that is no report is run again."""
    import engine.compare
    from engine.documents.effects import measure

    monkeypatch.setenv("OMBRE_CACHE_DIR", str(tmp_path))
    parent, variant = load_ruleset("quadrille"), load_ruleset("quadrille-four-trick-bete")
    fresh = measure(parent, variant, deals=15)
    assert isinstance(fresh, ComparisonReport)
    assert fresh == compare(parent, variant, 15, seed=1).report()
    played = engine.compare.compare

    def refuse(*args: object, **kwargs: object) -> Comparison:
        raise AssertionError("played again")

    monkeypatch.setattr(engine.compare, "compare", refuse)
    assert measure(parent, variant, deals=15) == fresh  # from the cache
    (entry,) = [p for p in tmp_path.glob("*.json") if '"report"' in p.read_text(encoding="utf-8")]
    document = json.loads(entry.read_text(encoding="utf-8"))
    document["report"]["rulesets"] = []
    entry.write_text(json.dumps(document), encoding="utf-8")
    monkeypatch.setattr(engine.compare, "compare", played)
    assert measure(parent, variant, deals=15) == fresh  # run again

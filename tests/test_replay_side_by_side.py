"""``ombre replay RECORD --ruleset OTHER``: one record under two rule sets, side by side."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from engine import load_ruleset
from engine.cli import app
from engine.records import read_record
from engine.sidebyside import render_text, replay_against

ROOT = Path(__file__).resolve().parent.parent
RECORDS = ROOT / "tests" / "records"
runner = CliRunner()


def test_a_house_rule_changes_only_the_payments() -> None:
    """The caller (seat 1) took 2 of the pair's 5 tricks: under the four-trick rule he pays the
    remise alone, so his partner's loss moves to him; the play, the result and the pot do not
    change."""
    rec = read_record(RECORDS / "quadrille-ask-remise.yaml")
    report = replay_against(
        rec, load_ruleset("quadrille"), load_ruleset("quadrille-four-trick-bete")
    ).as_json()
    (deal,) = report["deals"]
    assert not report["same"] and not deal["same"]
    assert [d["field"] for d in deal["differences"]] == ["balances"]
    assert deal["balance_difference"] == [0, -9, 0, 9]
    assert deal["tricks_same"]
    assert sum(deal["balance_difference"]) == 0


def test_an_action_refused_under_the_other() -> None:
    rec = read_record(RECORDS / "quadrille-ask-remise.yaml")
    compared = replay_against(rec, load_ruleset("quadrille"), load_ruleset("mediateur-solitaire"))
    (deal,) = compared.as_json()["deals"]
    assert deal["illegal_b"]["index"] == 0
    assert deal["illegal_b"]["code"] == "bid/unknown-contract"
    assert "illegal_a" not in deal
    text = render_text(compared)
    assert "B (mediateur-solitaire) refuses the record's action 1 of this deal" in text
    assert "(not played out)" in text


def test_the_same_rules_agree() -> None:
    rec = read_record(RECORDS / "ombre-codille.yaml")
    report = replay_against(rec, load_ruleset("ombre"), load_ruleset("ombre-1-4-4-codille"))
    data = report.as_json()
    assert data["same"] and data["deals"][0]["balance_difference"] == [0, 0, 0]


def test_cli_side_by_side(tmp_path: Path) -> None:
    record = str(RECORDS / "ombre-codille.yaml")
    result = runner.invoke(app, ["replay", record, "--ruleset", "ombre-english-stakes", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["a"] == "ombre" and data["b"] == "ombre-english-stakes"
    assert any(d["field"] == "balances" for d in data["deals"][0]["differences"])
    assert [r["ruleset"] for r in data["replays"]] == ["ombre", "ombre-english-stakes"]
    text = runner.invoke(app, ["replay", record, "--ruleset", "ombre-english-stakes"])
    assert text.exit_code == 0 and "<- differs" in text.stdout
    # Hands that do not fit the other pack: a located record problem, exit 1.
    bad = runner.invoke(app, ["replay", record, "--ruleset", "quadrille"])
    assert bad.exit_code == 1 and "Traceback" not in bad.output


def test_each_deal_is_compared_on_the_referees_typed_report() -> None:
    """The text is rendered from typed facts (DealFacts, Refusal), each read once from the
    referee's report of the deal; they hold exactly what the report says, so the JSON of the
    differences and of a refusal is the report's own."""
    from engine.sidebyside import COMPARED, DealFacts, Refusal

    for path in sorted(RECORDS.glob("*.yaml")):
        rec = read_record(path)
        own = load_ruleset(rec.ruleset)
        compared = replay_against(rec, own, own)
        assert compared.same, path.name
        for side, replay in (("a", compared.a), ("b", compared.b)):
            assert len(compared.deals) == len(replay.deals)
            for d, report in zip(compared.deals, replay.deals, strict=True):
                facts = getattr(d, side)
                assert isinstance(facts, DealFacts)
                for key in COMPARED:
                    value = report.get(key)
                    if key == "renonces" and value is None:
                        value = []  # the report leaves out a deal's renonces when there are none
                    assert facts.value(key) == (tuple(value) if isinstance(value, list) else value)
    rec = read_record(RECORDS / "quadrille-ask-remise.yaml")
    refused = replay_against(rec, load_ruleset("quadrille"), load_ruleset("mediateur-solitaire"))
    (deal,) = refused.deals
    assert refused.b.error is not None
    assert isinstance(deal.illegal_b, Refusal) and deal.illegal_b.code == "bid/unknown-contract"
    assert deal.illegal_b.as_json() == refused.b.error
    assert deal.a is not None and deal.b is not None
    assert deal.a.result == "remise" and deal.b.result is None and deal.differs("result")
    assert {"field": "result", "a": "remise", "b": None} in deal.as_json()["differences"]


def test_only_the_deals_both_played_are_compared() -> None:
    """Under Médiateur solitaire the record's first deal is refused (no 'ask'): the three later
    deals Quadrille played are not set against nothing, the text says where B stopped, and no
    totals of four deals are compared with one."""
    rec = read_record(RECORDS / "quadrille-party-remises.yaml")
    compared = replay_against(rec, load_ruleset("quadrille"), load_ruleset("mediateur-solitaire"))
    assert compared.stopped == ("b", 1, 4)
    assert [d.deal for d in compared.compared] == [0]
    assert compared.settled == 0 and compared.shared_totals("a") is None
    text = render_text(compared)
    assert "Deal 1\n" in text  # the deals numbered from 1, as the table and the scorekeeper do
    assert "Deal 2" not in text and "Deal 4" not in text
    assert "B (mediateur-solitaire) stopped at deal 1 (refused above); A played 4 deals" in text
    assert "no deal was settled under both" in text and "\ntotals: A" not in text
    data = compared.as_json()
    assert data["shared_deals"] == 1 and data["settled_deals"] == 0


def test_shared_totals_sum_the_deals_both_settled() -> None:
    rec = read_record(RECORDS / "quadrille-ask-remise.yaml")
    compared = replay_against(
        rec, load_ruleset("quadrille"), load_ruleset("quadrille-four-trick-bete")
    )
    assert compared.stopped is None and compared.settled == 1
    assert compared.shared_totals("b") == tuple(compared.b.totals)
    assert "\ntotals: A " in render_text(compared)


def test_the_facts_compared_are_the_typed_deals_and_read_as_their_reports() -> None:
    """The side-by-side reads each deal from the referee's typed deal, never its report's text;
    the facts it reads are the very values every record's report shows."""
    from engine.records import replay
    from engine.sidebyside import COMPARED, DealFacts

    seen = 0
    for path in sorted(RECORDS.glob("*.yaml")):
        rec = read_record(path)
        report = replay(rec, load_ruleset(rec.ruleset))
        assert len(report.played) == len(report.deals)
        for d, shown in zip(report.played, report.deals, strict=True):
            facts = DealFacts.from_deal(d)
            for key in COMPARED:
                value = facts.value(key)
                want = shown.get(key, [] if key == "renonces" else None)
                assert (list(value) if isinstance(value, tuple) else value) == want, (path, key)
            assert [list(t) for t in facts.tricks] == [t["cards"] for t in shown["tricks"]]
            seen += 1
    assert seen > 20

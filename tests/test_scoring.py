"""Scores in points from a tariff, penalty points, parties to a target or a number of deals,
items paid more in the palo de favor and the bête's growth (issue 16, docs/living-family.md §4,
mechanisms 7, 8 and 11).

The tariff's numbers are the DLU's (``dlu``, Pointgivning for meldinger): Spil won 1, bet -1,
kruk -2; Solo 3, -3, -4. ``tests/rule_files/valid/ombre-in-points.yaml`` sets them on
rules/ombre.yaml's entrada and sans-prendre.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import load_ruleset
from engine.referee.settlement import SCORE, PaymentKind, TableState, outcome_kind, settle

ROOT = Path(__file__).resolve().parent.parent
POINTS = ROOT / "tests" / "rule_files" / "valid" / "ombre-in-points.yaml"


def _points(result: str, contract: str = "entrada", tricks: tuple[int, ...] = (5, 2, 2), **kw):  # type: ignore[no-untyped-def]
    rules = load_ruleset(POINTS)
    return settle(
        rules,
        n=3,
        table=TableState(),
        stakes=[0, 0, 0],
        result=result,
        contract=contract,
        declarer=0,
        tricks=tricks,
        **kw,
    )


def test_the_points_game_is_read_as_such() -> None:
    rules = load_ruleset(POINTS)
    assert rules.in_points and rules.unit == "point"
    assert rules.points[("entrada", "win")].declarer == 1
    assert outcome_kind(rules, "remise").game.value == "remise"
    assert outcome_kind(rules, "codille").pot is None  # no pot in a game of points
    assert not load_ruleset("ombre").in_points and not load_ruleset("ombre").points


@pytest.mark.parametrize(
    ("result", "tricks", "declarer"),
    [("win", (5, 2, 2), 1), ("remise", (3, 3, 3), -1), ("codille", (2, 5, 2), -2)],
)
def test_spil_scores_the_dlu_tariff(result: str, tricks: tuple[int, ...], declarer: int) -> None:
    """Spil: "Alm. spil | 1 | 1 | -1 | -2" (netlh): won 1, bet -1, kruk -2, the declarer's."""
    s = _points(result, tricks=tricks)
    assert s.balances == (declarer, 0, 0)
    assert s.pot_before == s.pot_after == 0 and s.bete == 0 and s.table.pot == 0
    (line,) = s.payments
    assert line.kind is PaymentKind.POINTS and line.items == ("entrada", result)
    assert line.scored == declarer and line.amount == abs(declarer)
    assert (line.payer, line.payee) == ((SCORE, 0) if declarer > 0 else (0, SCORE))
    assert line.payer_seat is None or line.payee_seat is None


def test_a_role_scores_besides_the_declarer() -> None:
    """The codille's winner scores as the tariff says (roc-online's "Codille | Best defender")."""
    s = _points("codille", contract="sans-prendre", tricks=(2, 3, 4))
    assert s.balances == (-4, 0, 1)
    assert sorted(p.scored for p in s.payments) == [-4, 1]


def test_penalty_points_are_scored_outside_the_result() -> None:
    """ "… kan der idømmes 1 strafpoint." (dlu, Bedre spil): a penalty line of its own."""
    s = _points("win", penalties=[(2, "without-need")])
    assert s.balances == (1, 0, -1)
    penalty = [p for p in s.payments if p.kind is PaymentKind.PENALTY]
    assert len(penalty) == 1 and penalty[0].items == ("without-need",)
    assert penalty[0].payer == 2 and penalty[0].payee == SCORE and penalty[0].scored == -1
    assert penalty[0].basis is not None and penalty[0].basis.evidence == "conjecture"
    # A deal passed out scores no points, but a fault committed in it still costs its points.
    s = _points("redeal", penalties=[(1, "without-need")])
    assert s.balances == (0, -1, 0) and s.table.redeal


def test_lines_and_counters_agree() -> None:
    s = _points(
        "codille", contract="sans-prendre", tricks=(2, 3, 4), penalties=[(0, "without-need")]
    )
    totals = [0, 0, 0]
    for p in s.payments:
        seat = p.payee_seat if p.payer == SCORE else p.payer_seat
        assert seat is not None
        totals[seat] += p.scored
    assert tuple(totals) == s.balances == (-5, 0, 1)


# A party to a target, or of some deals (mechanism 8).


def test_a_party_to_a_target_ends_when_a_seat_reaches_it() -> None:
    """ "The first player to reach the target score (default: 12 points) wins the match."
    (roc-online, Winning): the fixture plays to 12."""
    from engine.referee.party import Party, party_over

    rules = load_ruleset(POINTS)
    assert rules.party is not None and rules.party.target == 12 and rules.party.tours is None
    assert not party_over(rules, [11, 0, 0], 5) and party_over(rules, [12, -3, 0], 5)
    party = Party(rules)
    from engine.bots import make_bot

    bot = make_bot("heuristic", 1)
    seed = 0
    while not party.over:
        deal = party.new_deal(seed=seed)
        while not deal.is_over:
            deal.apply(bot.choose(deal, deal.to_move), seat=deal.to_move)
        seed += 1
    assert max(party.totals) >= 12 and max(party.totals[:]) == party.totals[party.leaders[0]]
    assert seed > 1  # more than one deal was needed


def test_the_table_plays_a_party_to_its_target_and_the_record_stops_there(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from engine.cli import app

    runner = CliRunner()
    record = tmp_path / "party.yaml"
    out = runner.invoke(
        app, ["play", str(POINTS), "--auto", "--seed", "3", "--record", str(record)]
    )
    assert out.exit_code == 0, out.output
    assert "The party is over: seat 0 reached 12" in out.output
    assert "on the table" not in out.output.split("The party is over")[1]
    replayed = runner.invoke(app, ["replay", str(record), "--json"])
    assert replayed.exit_code == 0, replayed.output
    import json

    doc = json.loads(replayed.output)
    assert doc["party"] == {"over": True, "leaders": [0]} and max(doc["totals"]) >= 12
    # A deal added after the party was over is refused, located.
    text = record.read_text(encoding="utf-8")
    first = text.split("\n  - dealer: 0\n", 1)[1].split("\n  - dealer:", 1)[0]
    dealer = len(doc["deals"]) % 3
    record.write_text(text + f"  - dealer: {dealer}\n" + first + "\n", encoding="utf-8")
    refused = runner.invoke(app, ["replay", str(record)])
    assert refused.exit_code == 1 and "record/party-over" in refused.output


def test_a_party_of_some_deals(tmp_path: Path) -> None:
    """ "… der spilles typisk et bestemt tidsrum eller et vist antal spil" (netlh): a party of
    N deals, not a whole number of tours."""
    from engine.referee.party import Party

    variant = tmp_path / "five.yaml"
    variant.write_text(
        "id: ombre-five-deals\nname: Five deals\nextends: ombre\nsummary: A test party.\n"
        "party:\n  deals: 5\n  basis: {evidence: conjecture, note: For the tests.}\n",
        encoding="utf-8",
    )
    rules = load_ruleset(variant)
    assert rules.party is not None and rules.party.length(3) == 5
    party = Party(rules)
    from engine.bots import make_bot

    bot = make_bot("random", 1)
    for seed in range(5):
        assert not party.over
        deal = party.new_deal(seed=seed)
        while not deal.is_over:
            deal.apply(bot.choose(deal, deal.to_move), seat=deal.to_move)
    assert party.over


# The scorekeeper in points.


def test_the_scorekeeper_scores_points_and_penalties() -> None:
    from engine.errors import IllegalActionError
    from engine.scoresheet import Evening, parse_entry

    rules = load_ruleset(POINTS)
    evening = Evening(rules)
    entry = parse_entry(
        {
            "contract": "entrada",
            "declarer": 1,
            "trump": "hearts",
            "tricks": [2, 5, 2],
            "penalties": [{"seat": 2, "fault": "without-need"}],
        },
        dealer=0,
        n=3,
    )
    scored = evening.score(entry)
    assert scored.result == "win" and scored.settlement.balances == (0, 1, -1)
    assert entry.as_score()["penalties"] == [{"seat": 2, "fault": "without-need"}]
    passed = parse_entry(
        {"passed": True, "penalties": [{"seat": 0, "fault": "without-need"}]}, dealer=1, n=3
    )
    assert evening.score(passed).settlement.balances == (-1, 0, 0)
    with pytest.raises(IllegalActionError) as refused:
        evening.check(
            parse_entry(
                {"passed": True, "penalties": [{"seat": 0, "fault": "naming-suit"}]},
                dealer=2,
                n=3,
            )
        )
    assert refused.value.code == "score/unknown-fault"
    doc = evening.as_json()
    assert doc["party"] == {"over": False, "leaders": [1]}


# The bête's growth (mechanism 11).


def _bete_chain(ruleset: str, results: list[str]) -> list[int]:
    """The bêtes made by successive lost games (declarer seat 1 with seat 3, dealer rotating)."""
    from engine.referee.settlement import deal_stakes

    rules = load_ruleset(ruleset)
    table = TableState()
    made = []
    for k, result in enumerate(results):
        dealer = k % 4
        declarer = (dealer + 1) % 4
        s = settle(
            rules,
            n=4,
            table=table,
            stakes=deal_stakes(rules, dealer, table),
            result=result,
            contract="ask",
            declarer=declarer,
            partner=(declarer + 2) % 4,
            tricks=[2, 2, 3, 3] if result == "remise" else [1, 1, 4, 4],
        )
        made.append(s.bete)
        table = s.table
    return made


def test_the_doubling_bete_is_fourteen_twenty_eight_fifty_six() -> None:
    """The issue's house rule, "the bête doubles each time it is made again": 14, 28, 56, where
    the Encyclopédie's in-play growth gives "la premiere bête étant de quatorze, la seconde doit
    être de quarante-deux, la troisieme de cinquante-six" (ENC-Q)."""
    assert load_ruleset("quadrille-doubling-bete").bete_growth == "doubling"
    assert _bete_chain("quadrille", ["remise", "remise", "remise"]) == [14, 42, 56]
    assert _bete_chain("quadrille-doubling-bete", ["remise", "remise", "remise"]) == [14, 28, 56]


def test_a_bete_growing_by_a_step(tmp_path: Path) -> None:
    variant = tmp_path / "step.yaml"
    variant.write_text(
        "id: quadrille-step\nname: Step\nextends: quadrille\nsummary: A test.\n"
        "settlement:\n  bete:\n    growth: {step: 10}\n"
        "    basis: {evidence: conjecture, note: For the tests.}\n",
        encoding="utf-8",
    )
    rules = load_ruleset(variant)
    assert (rules.bete_growth, rules.bete_step) == ("step", 10)
    assert _bete_chain(str(variant), ["remise", "remise", "remise"]) == [14, 24, 34]


# An item paid more in the palo de favor (mechanism 11).

FAVOUR = """id: tresillo-favour-test
name: Favour
extends: tresillo
summary: A test.
settlement:
  items:
    sans-prendre:
      favourite_option: favourite-suit
      favourite_amount: 5
      basis: {evidence: conjecture, note: For the tests; NHF gives no amount.}
"""


def test_an_item_pays_its_favourite_amount_when_trumps_are_the_favourite_suit(
    tmp_path: Path,
) -> None:
    """NHF: the palo de favor has a "mayor asignación en puntos" (no amount read: the test's
    own 5). The amount follows the deal's trump suit, whatever the contract's name."""
    from engine.referee.result import favoured_options

    variant = tmp_path / "favour.yaml"
    variant.write_text(FAVOUR, encoding="utf-8")
    rules = load_ruleset(variant)
    item = rules.items["sans-prendre"]
    assert item.value("sans-prendre", 0) == 3
    assert item.value("sans-prendre", 0, frozenset({"favourite-suit"})) == 5
    assert item.value("entrada", 0, frozenset({"favourite-suit"})) == 0  # still limited

    def paid(favoured: frozenset[str]) -> tuple[int, ...]:
        return settle(
            rules,
            n=4,
            table=TableState(),
            stakes=[3, 3, 3, 3],
            result="win",
            contract="sans-prendre",
            declarer=1,
            tricks=[0, 5, 2, 2],
            favoured=favoured,
        ).balances

    plain, favour = paid(frozenset()), paid(frozenset({"favourite-suit"}))
    assert favour[1] - plain[1] == 2 * 3  # two more from each of the three others

    from engine.referee import Deal

    deal = Deal(rules, dealer=0, seed=4, options={"favourite-suit": "hearts"})
    assert favoured_options(deal) == frozenset()
    deal.trump = 2  # hearts
    assert favoured_options(deal) == frozenset({"favourite-suit"})


def test_a_favourite_amount_without_its_option_is_refused(tmp_path: Path) -> None:
    from engine.rules.loader import validate_paths

    variant = tmp_path / "bad.yaml"
    variant.write_text(FAVOUR.replace("      favourite_option: favourite-suit\n", ""), "utf-8")
    problems, _ = validate_paths([str(variant)])
    assert [p.code for p in problems] == ["semantic/incomplete"]
    variant.write_text(FAVOUR.replace("favourite-suit\n", "no-such\n", 1), "utf-8")
    problems, _ = validate_paths([str(variant)])
    assert [p.code for p in problems] == ["semantic/unknown-option"]


# `ombre validate` warns where a variant's declared change has no effect on any deal.

SAME = """id: quadrille-same
name: Same
extends: quadrille
summary: The bête doubles each time it is made again (so the author thought).
settlement:
  bete:
    doubling_after_first_remise: true
    basis: {evidence: conjecture, note: For the tests.}
"""


def _warnings(tmp_path: Path, text: str) -> list[tuple[str, str]]:
    from engine.rules.loader import validate_paths

    variant = tmp_path / "variant.yaml"
    variant.write_text(text, encoding="utf-8")
    warnings: list = []
    problems, _ = validate_paths([str(variant)], warnings)
    assert problems == []
    return [(w.path, w.code) for w in warnings]


def test_a_value_set_to_what_it_inherits_is_warned(tmp_path: Path) -> None:
    """The issue's variant author: setting Quadrille's own doubling again changes nothing."""
    found = _warnings(tmp_path, SAME)
    assert found == [("$.settlement.bete.doubling_after_first_remise", "authoring/no-effect")]
    # Beside a real change, a rule restated with its own basis is not warned.
    assert _warnings(tmp_path, SAME + "    growth: doubling\n") == [
        ("$.settlement.bete.doubling_after_first_remise", "authoring/no-effect")
    ]  # ... but under the doubling growth that key is never read


def test_a_value_the_mechanisms_never_read_is_warned(tmp_path: Path) -> None:
    text = POINTS.read_text(encoding="utf-8").replace(
        "  penalties:\n",
        "  stakes:\n    - who: each\n      amount: 5\n"
        "      basis: {evidence: conjecture, note: For the tests.}\n  penalties:\n",
    )
    text = text.replace("extends: ombre", f"extends: {ROOT / 'rules' / 'ombre.yaml'}")
    found = _warnings(tmp_path, text)
    assert found == [("$.settlement.stakes", "authoring/no-effect")]


def test_the_shipped_files_declare_no_change_without_effect() -> None:
    from engine.rules.loader import validate_paths

    warnings: list = []
    problems, checked = validate_paths([], warnings)
    assert problems == [] and checked > 20
    assert [w for w in warnings if w.code == "authoring/no-effect"] == []


# Comparison across the centuries: points against counters, never the same unit.


def test_the_matrix_labels_each_amount_with_its_unit() -> None:
    from engine.documents.matrix import build_matrix

    matrix = build_matrix([load_ruleset("ombre"), load_ruleset(POINTS)])
    rows = {row.aspect: row for row in matrix.rows}
    assert rows["unit"].cells[0].value.startswith("jetons")
    assert rows["unit"].cells[1].value.startswith("points")
    assert rows["stakes"].cells[0].value == "each 3 (jetons)"
    assert rows["stakes"].cells[1].value == "- (scored in points)"
    assert "entrada: win +1" in rows["points tariff"].cells[1].value
    assert rows["points tariff"].cells[1].value.endswith("(points)")
    assert rows["party"].cells[1].value == "to 12 (points)"


def test_diff_names_the_units_when_they_differ() -> None:
    from engine.documents.diff import diff_rulesets

    d = diff_rulesets(load_ruleset("ombre"), load_ruleset(POINTS))
    assert d.units == ("jetons", "points")
    assert d.as_json()["units"] == {"a": "jetons", "b": "points"}
    assert diff_rulesets(load_ruleset("quadrille"), load_ruleset("quadrille-renonce")).units is None
    assert "units" not in diff_rulesets(load_ruleset("ombre"), load_ruleset("tresillo")).as_json()


def test_simulate_against_compares_only_unit_free_figures() -> None:
    """Points and jetons are reported each in their own unit; no balance is subtracted across
    them, while the rates (a contract played, a game won) are compared as usual."""
    from engine.compare import compare, render_text

    c = compare(load_ruleset("ombre"), load_ruleset(POINTS), 60, seed=1, confirm=False)
    report = c.as_json()
    a, b = report["rulesets"]
    assert (a["unit"], b["unit"]) == ("jetons", "points")
    assert report["units_differ"]["units"] == ["jetons", "points"]
    assert report["difference"]["average_by_role"] == {}
    assert a["average_by_role"] and b["average_by_role"]  # each side in its own unit
    assert report["difference"]["declarer_won"]["n"] > 0  # a rate is compared
    text = render_text(c.report())
    assert "Units: A counts in jetons, B in points" in text
    same = compare(load_ruleset("ombre"), load_ruleset("ombre-spadille-force"), 30, confirm=False)
    assert "units_differ" not in same.as_json() and same.as_json()["difference"]["average_by_role"]


def test_a_record_under_points_and_counters_is_never_subtracted(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from engine.cli import app
    from engine.records import read_record
    from engine.sidebyside import render_text, replay_against

    record = tmp_path / "one.yaml"
    runner = CliRunner()
    out = runner.invoke(
        app, ["play", str(POINTS), "--auto", "--seed", "3", "--deals", "2", "--record", str(record)]
    )
    assert out.exit_code == 0, out.output
    report = replay_against(read_record(record), load_ruleset(POINTS), load_ruleset("ombre"))
    doc = report.as_json()
    assert doc["units"] == ["points", "jetons"]
    assert all("balance_difference" not in d for d in doc["deals"])
    assert "units: A counts in points, B in jetons" in render_text(report)
    same = replay_against(read_record(record), load_ruleset(POINTS), load_ruleset(POINTS))
    assert "units" not in same.as_json()


# The page that compares two whole rule sets rule by rule (docs/comparisons.yaml).


def test_two_rule_sets_rule_by_rule_in_their_own_units() -> None:
    from engine.documents.across import across
    from engine.documents.sources import load_library
    from engine.render import render

    x = across(load_ruleset("ombre"), load_ruleset(POINTS), "A test.")
    rows = {row.aspect: row for row in x.rows}
    assert rows["players"].same and not rows["unit"].same
    assert x.units == ("jetons", "points") and not x.same_unit
    assert rows["party"].basis_b is not None and rows["party"].basis_a is None
    assert 0 < x.agreeing < len(x.rows)
    page = render(
        "across.j2", "md", ext="md", root="../", lib=load_library(), books=set(), x=x, title="T"
    )
    assert "counts in jetons, ombre-in-points in points" in page
    assert "| stakes | each 3 (jetons) | - (scored in points) |" in page
    assert "### Party" in page  # a differing rule with its own basis, its authority given
    html = render(
        "across.j2", "html", ext="html", root="../", lib=load_library(), books=set(), x=x, title="T"
    )
    assert "<script" not in html and "ombre-in-points" in html


def test_the_comparisons_file_is_read_and_checked(tmp_path: Path) -> None:
    from engine.documents.across import load_comparisons
    from engine.errors import RuleFileError

    shipped = load_comparisons(ROOT / "docs" / "comparisons.yaml")
    assert ("ombre", "dansk-lhombre") in [(c.a, c.b) for c in shipped]
    assert shipped[0].name == "ombre-against-dansk-lhombre"
    assert load_comparisons(tmp_path / "none.yaml") == []
    bad = tmp_path / "bad.yaml"
    bad.write_text("- a: ombre\n  b: quadrille\n", encoding="utf-8")
    with pytest.raises(RuleFileError) as refused:
        load_comparisons(bad)
    assert refused.value.problems[0].code == "comparisons/entry"

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
    assert (line.payer, line.payee) == ((SCORE, "0") if declarer > 0 else ("0", SCORE))
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
    assert penalty[0].payer == "2" and penalty[0].payee == SCORE and penalty[0].scored == -1
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

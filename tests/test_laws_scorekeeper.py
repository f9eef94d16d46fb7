"""The laws of the play in the scorekeeper (issue 15): the irregularities that change a deal's
score, entered without the cards, settled by the referee's own statements
(``engine.referee.laws.declared_effects``), at the terminal, in an evening file and on the web.

The deals are the golden records tests/records/quadrille-law-*.yaml (seat 1 asks leave in clubs
and calls Kd, which seat 3 holds; seat 0 deals, seat 1 is the eldest): entered without their
cards, they must settle as the referee settled them when it replayed their cards.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engine import load_ruleset
from engine.errors import IllegalActionError, NotationError, RecordError
from engine.records import read_record, replay
from engine.rules.model import RuleSet
from engine.scoresheet import (
    Evening,
    parse_entry,
    parse_irregularities,
    read_evening,
    write_evening,
)
from engine.scoreterm import run_score
from tests.scorekeeper_helpers import quadrille_entry

RECORDS = Path(__file__).parent / "records"
ASK = quadrille_entry()
# The side takes every trick: the vole, unless an irregularity barred it.
ALL = {**ASK, "tricks": [0, 9, 0, 1]}


@pytest.fixture(scope="module")
def quadrille() -> RuleSet:
    return load_ruleset("quadrille")


def score(rules: RuleSet, entry: dict[str, Any], dealer: int = 0) -> Any:
    return Evening(rules, first_dealer=dealer).score(
        parse_entry(entry, dealer=dealer, n=rules.players)
    )


def refused(rules: RuleSet, entry: dict[str, Any], dealer: int = 0) -> IllegalActionError:
    with pytest.raises(IllegalActionError) as error:
        score(rules, entry, dealer)
    return error.value


def referee(name: str) -> Any:
    record = read_record(RECORDS / name)
    deal = replay(record, load_ruleset(record.ruleset)).finished[0]
    assert deal.settlement is not None
    return deal


def test_a_hand_turned_up_is_settled_as_the_referee_settles_it(quadrille: RuleSet) -> None:
    # ENC-Q: "celui qui au lieu de tourner les levées … tourne & voit son jeu … fait la bête de
    # moitié avec celui à qui appartiennent les cartes retournées".
    played = referee("quadrille-law-turned-hand.yaml")
    entered = score(
        quadrille,
        {
            **ASK,
            "irregularities": [
                {"seat": 0, "law": "turned_hand", "hand": 2},
                {"seat": 3, "law": "partner_known_no_vole"},
            ],
        },
    )
    assert entered.settlement.balances == played.settlement.balances == (-21, 9, -11, 9)
    assert [p.as_json() for p in entered.settlement.payments] == [
        p.as_json() for p in played.settlement.payments
    ]
    halves = [p for p in entered.settlement.payments if p.item == "bête (hand turned up)"]
    assert [(str(p.payer), p.amount) for p in halves] == [("0", 7), ("2", 7)]
    # Without the irregularity, the deal of tests/records/quadrille-law-partner-known.yaml.
    plain = score(quadrille, ASK)
    assert (
        plain.settlement.balances == referee("quadrille-law-partner-known.yaml").settlement.balances
    )


@pytest.mark.parametrize(
    "irregularity",
    [
        # ENC-Q: the king's holder who, not being the eldest, leads to make himself known
        # "ne pourroit entreprendre la vole".
        {"seat": 3, "law": "partner_known_no_vole"},
        # HOYLE-IE law 14: a play out of turn by the declaring side takes the vole from it.
        {"seat": 1, "law": "out_of_turn"},
        # HOYLE-IE law 30: cards shown before the game is won (six tricks) bar the vole.
        {"seat": 3, "law": "shown_cards", "side_tricks": 5},
    ],
)
def test_an_irregularity_that_bars_the_vole_refuses_it(
    quadrille: RuleSet, irregularity: dict[str, Any]
) -> None:
    assert score(quadrille, {**ALL, "vole": True}).result == "vole"
    entry = {**ALL, "vole": True, "irregularities": [irregularity]}
    error = refused(quadrille, entry)
    assert error.code == "score/vole-barred"
    assert f"seat {irregularity['seat']}'s irregularity" in error.detail
    assert "enc-q" in error.rule or "hoyle" in error.rule.lower()
    # Every trick taken without the vole: a win, as the referee pays it.
    won = score(quadrille, {**ALL, "irregularities": [irregularity]})
    assert won.result == "win" and won.effects.vole_barred == irregularity["law"]
    # Nor may the side lay down after the first six: it is not offered to.
    stopped = {**ASK, "tricks": [0, 4, 0, 2], "irregularities": [irregularity]}
    assert score(quadrille, {**ASK, "tricks": [0, 4, 0, 2]}).result == "win"
    assert refused(quadrille, stopped).code == "score/tricks"


@pytest.mark.parametrize(
    "irregularity",
    [
        {"seat": 0, "law": "out_of_turn"},  # a defender: his side has no vole to lose
        {"seat": 2, "law": "shown_cards", "side_tricks": 0},  # a defender's hand only lies open
        {"seat": 1, "law": "shown_cards", "side_tricks": 6},  # the game was won: no bar
    ],
)
def test_an_irregularity_that_does_not_bar_the_vole_leaves_it(
    quadrille: RuleSet, irregularity: dict[str, Any]
) -> None:
    entry = {**ALL, "vole": True, "irregularities": [irregularity]}
    scored = score(quadrille, entry)
    assert scored.result == "vole" and scored.effects.vole_barred is None


def test_the_referees_refusals_come_back_as_the_scorekeepers(quadrille: RuleSet) -> None:
    def code(*irregularities: dict[str, Any], dealer: int = 0, **entry: Any) -> str:
        return refused(
            quadrille, {**ASK, **entry, "irregularities": list(irregularities)}, dealer
        ).code

    assert code({"seat": 0, "law": "turned_hand", "hand": 0}) == "score/turn-hand-not-a-hand"
    assert code({"seat": 2, "law": "partner_known_no_vole"}) == "score/made-known-not-the-partner"
    assert code({"seat": 1, "law": "partner_known_no_vole"}) == "score/made-known-not-the-partner"
    # Seat 1 is the eldest when seat 0 deals: his lead is his duty and makes him known to nobody.
    assert (
        code({"seat": 1, "law": "partner_known_no_vole"}, declarer=2, holder=1)
        == "score/made-known-the-eldest"
    )
    shown = {"seat": 1, "law": "shown_cards", "side_tricks": 7}
    assert code(shown) == "score/show-side-tricks"  # the side took 6 in all
    again = {"seat": 1, "law": "shown_cards", "side_tricks": 1}
    assert code(again, again) == "score/show-already"
    ombre = load_ruleset("ombre")
    error = refused(
        ombre,
        {
            "contract": "entrada",
            "declarer": 1,
            "trump": "clubs",
            "tricks": [2, 5, 2],
            "irregularities": [{"seat": 0, "law": "turned_hand", "hand": 2}],
        },
    )
    assert error.code == "score/turn-hand-no-law" and "laws.turned_hand" in error.detail


@pytest.mark.parametrize(
    ("irregularities", "message"),
    [
        ({"seat": 0, "law": "turned_hand"}, "lists the irregularities"),
        (["0 turn-hand 2"], r"irregularity 1: an irregularity is \{seat"),
        ([{"seat": 0, "law": "exposed_card"}], "act on the play"),
        ([{"seat": 0, "law": "turned_hand"}], "irregularity 1's hand"),
        ([{"seat": 4, "law": "out_of_turn"}], "seat from 0 to 3"),
        ([{"seat": 0, "law": "out_of_turn", "hand": 2}], "only a turned_hand names a hand"),
        ([{"seat": 0, "law": "shown_cards"}], "side_tricks"),
        ([{"seat": 0, "law": "shown_cards", "side_tricks": True}], "side_tricks"),
        ([{"seat": 0, "law": "out_of_turn", "card": "Kh"}], "unknown field 'card'"),
    ],
)
def test_a_malformed_irregularity_is_refused_naming_it(irregularities: Any, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        parse_entry({**ASK, "irregularities": irregularities}, dealer=0, n=4)


def test_a_deal_not_played_has_no_irregularities() -> None:
    item = [{"seat": 0, "law": "out_of_turn"}]
    with pytest.raises(NotationError, match="passed has no irregularities"):
        parse_entry({"passed": True, "irregularities": item}, dealer=0, n=4)
    with pytest.raises(NotationError, match="misdeal"):
        parse_entry({"misdeal": "faced", "irregularities": item}, dealer=0, n=4)


def test_an_evening_keeps_the_irregularities_and_settles_them_again(
    quadrille: RuleSet, tmp_path: Path
) -> None:
    evening = Evening(quadrille)
    items = [{"seat": 0, "law": "turned_hand", "hand": 2}, {"seat": 1, "law": "out_of_turn"}]
    evening.score(parse_entry({**ASK, "irregularities": items}, dealer=0, n=4))
    text = write_evening(evening)
    assert (
        "irregularities: [{seat: 0, law: turned_hand, hand: 2}, {seat: 1, law: out_of_turn}]"
        in text
    )
    again = read_evening(text, "thursday.yaml", load_ruleset)
    assert again.totals == evening.totals == [-21, 9, -11, 9]
    assert again.as_json()["deals"][0]["irregularities"] == items
    assert "irregularities" not in Evening(quadrille).as_json()  # the key only where entered


def test_a_hostile_evening_file_is_refused_located(tmp_path: Path) -> None:
    text = (
        "ruleset: quadrille\n"
        "deals:\n"
        "  - dealer: 0\n"
        "    score: {contract: ask, declarer: 1, trump: clubs, called: Kd, holder: 3,\n"
        "            tricks: [1, 3, 3, 3], irregularities: [{seat: -1, law: '<script>', x: 1}]}\n"
    )
    with pytest.raises(RecordError) as error:
        read_evening(text, "bad.yaml", load_ruleset)
    problems = error.value.problems
    assert {p.code for p in problems} == {"record/score"}
    assert all(p.file == "bad.yaml" and p.line == 5 for p in problems)
    assert {p.path for p in problems} >= {
        "$.deals[0].score.irregularities[0].seat",
        "$.deals[0].score.irregularities[0].law",
        "$.deals[0].score.irregularities[0].x",
    }
    # An item well formed that could not have happened: the deal, its line and the rule.
    impossible = text.replace(
        "{seat: -1, law: '<script>', x: 1}", "{seat: 3, law: turned_hand, hand: 3}"
    )
    with pytest.raises(IllegalActionError) as illegal:
        read_evening(impossible, "bad.yaml", load_ruleset)
    assert illegal.value.code == "score/turn-hand-not-a-hand"
    assert illegal.value.detail.startswith("bad.yaml:4:")


def test_the_terminal_notation() -> None:
    assert parse_irregularities("0 turn-hand 2, 1 show 3,3 made-known , 1 out-of-turn") == [
        {"seat": 0, "law": "turned_hand", "hand": 2},
        {"seat": 1, "law": "shown_cards", "side_tricks": 3},
        {"seat": 3, "law": "partner_known_no_vole"},
        {"seat": 1, "law": "out_of_turn"},
    ]
    assert parse_irregularities("") == []
    for bad in ("0 turn-hand", "x show 2", "1 expose Kh", "1 out-of-turn 2", "0 turn-hand ²"):
        with pytest.raises(NotationError, match="irregularity 1"):
            parse_irregularities(bad)


def terminal(rules: RuleSet, answers: list[str], path: Path | None = None) -> tuple[Evening, str]:
    evening = Evening(rules)
    lines = iter(answers)
    out: list[str] = []
    run_score(evening, path, lambda prompt: out.append(prompt) or next(lines, None), out.append)
    return evening, "\n".join(out)


def test_the_terminal_asks_the_irregularities_when_told_laws(
    quadrille: RuleSet, tmp_path: Path
) -> None:
    deal = ["ask", "1", "clubs", "Kd", "3", "1 3 3 3", "0", "n"]
    evening, text = terminal(
        quadrille,
        ["laws", "0 turn-hand", "0 turn-hand 2, 3 made-known", *deal],
        tmp_path / "thursday.yaml",
    )
    assert "Not understood: irregularity 1 '0 turn-hand'" in text  # asked again, not lost
    assert "seat 0 turned up seat 2's hand instead of the tricks" in text
    assert "so the side could not undertake the vole" in text
    assert evening.totals == [-21, 9, -11, 9]
    assert "law: partner_known_no_vole" in (tmp_path / "thursday.yaml").read_text()
    # Without 'laws' the questions are as they always were.
    plain, _ = terminal(quadrille, deal)
    assert plain.totals == [-14, 9, -4, 9]
    # Said, then a deal not played: refused as a whole, not dropped unsaid.
    nothing, text = terminal(quadrille, ["laws", "1 out-of-turn", "passed"])
    assert not nothing.deals and "a deal everyone passed has no irregularities" in text


def test_the_terminal_tells_a_void_deal(quadrille: RuleSet) -> None:
    # The misdeal's description quoted its rule through a macro the template did not import
    # (a traceback at the terminal).
    evening, text = terminal(quadrille, ["misdeal faced", "extra-card 2"])
    assert "Void: a misdeal (faced), with no other penalty" in text
    assert "had a card too many and makes a bête alone" in text
    assert "S'il se trouvoit plus ou moins de cartes" in text
    assert len(evening.deals) == 2


def test_the_web_scorekeeper_takes_the_irregularities(tmp_path: Path) -> None:
    pytest.importorskip("starlette")
    import re

    from starlette.testclient import TestClient

    from engine.web.app import create_app

    client = TestClient(
        create_app(tmp_path), follow_redirects=True, headers={"origin": "http://testserver"}
    )
    r = client.post("/evenings", data={"ruleset": "quadrille", "dealer": "0"})
    assert r.status_code == 200 and 'name="irr0_law"' in r.text
    assert 'value="partner_known_no_vole"' in r.text and 'value="exposed_card"' not in r.text
    path = str(r.url.path)

    def post(**fields: str) -> Any:
        page = client.get(path).text
        version = re.search(r'name="version" value="([^"]+)"', page)
        assert version
        count = str(page.count('class="deal"'))
        form = {
            "count": count,
            "dealer": "0",
            "version": version[1],
            "contract": "ask",
            "declarer": "1",
            "trump": "clubs",
            "called": "Kd",
            "holder": "3",
            **{f"tricks{k}": str(t) for k, t in enumerate([1, 3, 3, 3])},
            "matadors": "0",
            **fields,
        }
        return client.post(path + "/deals", data=form)

    # Hostile or impossible rows: a 4xx with the reason, the form given back as typed.
    r = post(irr0_law="<script>alert(1)</script>", irr0_seat="0")
    assert (
        r.status_code == 409 and "irregularity 1: an irregularity&#39;s law must be one" in r.text
    )
    assert "<script>alert(1)" not in r.text
    r = post(irr0_law="turned_hand", irr0_seat="0", irr0_hand="0")
    assert r.status_code == 409 and "score/turn-hand-not-a-hand" in r.text
    assert 'name="irr0_hand"' in r.text and '<option value="0" selected>' in r.text
    r = post(irr0_law="turned_hand", irr0_seat="zero", irr0_hand="2")
    assert r.status_code == 400
    r = post(irr0_law="shown_cards", irr0_seat="1", irr0_tricks="lots")
    assert r.status_code == 400
    assert not next((tmp_path / "evenings").glob("*.yaml")).read_text().count("score:")
    # A hand turned up, and the king's holder made known: the referee's balances.
    r = post(
        irr0_law="turned_hand",
        irr0_seat="0",
        irr0_hand="2",
        irr2_law="partner_known_no_vole",
        irr2_seat="3",
    )
    assert r.status_code == 200
    assert "seat 0 turned up seat 2's hand instead of the tricks" in r.text
    assert "so the side could not undertake the vole" in r.text
    saved = next((tmp_path / "evenings").glob("*.yaml")).read_text()
    assert (
        "irregularities: [{seat: 0, law: turned_hand, hand: 2}, {seat: 3, law: partner_known_no_vole}]"
        in saved
    )
    assert "balances [-21, 9, -11, 9]" in saved

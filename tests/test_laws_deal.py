"""The laws of the deal and the evening (issue 15): misdeals, the cut and the packets, a card
too many, several revokes, claims before the next deal. Each test is built from its source's
sentence; the figures are worked from the rule file's stakes, not read off the referee."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import load_ruleset
from engine.actions import Action
from engine.bots import make_bot
from engine.errors import IllegalActionError, NotationError, RecordError
from engine.records import parse_record, read_record, replay, write_record
from engine.referee import Deal
from engine.referee.deal_laws import cutting_seat, forgo_claims
from engine.referee.party import Party
from engine.referee.settlement import Kind, PaymentKind, outcome_kind

RECORDS = Path(__file__).parent / "records"
WIN = read_record(RECORDS / "quadrille-ask-win.yaml").deals[0]


def quadrille() -> Deal:
    return Deal(load_ruleset("quadrille"), dealer=0, hands=WIN.hands, talon=[])


def replayed(name: str) -> dict:
    record = read_record(RECORDS / name)
    report = replay(record, load_ruleset(record.ruleset))
    assert report.complete and report.error is None, report.located
    return report.as_json()


# Misdeals: "S'il se trouvoit plus ou moins de cartes, le coup seroit nul, & il faudroit refaire,
# de même que s'il y avoit deux cartes de même espece … Il faudroit aussi refaire s'il y avoit une
# carte retournée … Il n'y a point d'autre peine pour ceux qui donnent mal, que de refaire" (ENC-Q).


@pytest.mark.parametrize("fault", ["too-many", "too-few", "duplicate", "faced"])
def test_each_misdeal_voids_the_deal_with_no_other_penalty(fault: str) -> None:
    deal = quadrille()
    deal.apply("1 bid ask")
    deal.apply(f"3 misdeal {fault}")  # any seat may find it, whoever is to move
    assert deal.is_over and deal.result == "misdeal"
    s = deal.settlement
    assert s is not None and s.balances == (0, 0, 0, 0) and s.pot_after == 0 and s.bete == 0
    assert s.payments == ()  # nothing staked, nothing paid
    kind = outcome_kind(deal.rules, "misdeal")
    assert kind.kind is Kind.REDEAL and kind.basis is not None and kind.basis.cites


def test_a_misdeal_is_dealt_again_by_the_same_dealer_and_keeps_the_table() -> None:
    party = Party(load_ruleset("quadrille"), first_dealer=2)
    first = party.new_deal(seed=5)
    first.apply("0 misdeal faced")
    assert party.next_dealer == 2  # "il faudroit refaire": the same dealer
    again = party.new_deal(seed=6)
    assert again.dealer == 2 and again.stakes == (1, 1, 11, 1)
    other = Party(load_ruleset("quadrille"), first_dealer=2)
    other.new_deal(seed=1).apply("1 misdeal faced")
    with pytest.raises(NotationError, match="seat 2 deals next, not seat 3"):
        other.new_deal(seed=7, dealer=3)


def test_a_misdeal_found_in_the_play_voids_it_and_a_renonce_goes_with_it() -> None:
    deal = Deal(load_ruleset("quadrille-renonce"), dealer=0, hands=WIN.hands, talon=[])
    for line in WIN.actions[:10]:
        deal.apply(line)
    deal.apply("2 misdeal duplicate")
    assert deal.result == "misdeal" and deal.penalties == [] and deal.settlement.bete == 0


def test_after_the_deal_the_misdeal_stands() -> None:
    """ "si toutes les cartes étoient jouées, que l'on eût payé … le coup seroit bon" (ENC-Q)."""
    deal = quadrille()
    for line in WIN.actions:
        deal.apply(line)
    error = deal.refusal("2 misdeal duplicate")
    assert error is not None and error.code == "misdeal/too-late"
    with pytest.raises(IllegalActionError):
        deal.apply("2 misdeal duplicate")
    assert deal.result == "win"


def test_misdeal_refusals_are_coded_and_bots_never_misdeal() -> None:
    ombre = Deal(load_ruleset("ombre"), dealer=0, seed=3)
    error = ombre.refusal("1 misdeal faced")
    assert error is not None and error.code == "misdeal/no-law"
    with pytest.raises(NotationError):
        Action.parse("misdeal twice")
    deal = quadrille()
    assert all(a.verb not in ("misdeal", "extra-card", "retake") for a in deal.legal_actions())
    bot = make_bot("heuristic", 1)
    while not deal.is_over:
        deal.apply(bot.choose(deal, deal.to_move), seat=deal.to_move)
    assert deal.result != "misdeal"


def test_golden_misdeal_party() -> None:
    out = replayed("quadrille-misdeal-faced.yaml")
    void, again = out["deals"]
    assert void["result"] == "misdeal" and void["misdeal"] == "faced" and void["found_by"] == 2
    assert void["balances"] == [0, 0, 0, 0] and void["dealt_again_by"] == 0
    assert again["dealer"] == 0 and again["balances"] == [-14, 9, -4, 9]  # as if dealt right
    assert void["cut"] == 3 and void["packets"] == [3, 3, 4] and again["packets"] == [4, 3, 3]


# The cut and the packets: "celui qui mêle ayant fait couper à sa gauche, donne à chacun dix
# cartes par deux fois trois & une fois quatre, & non par une ou deux" (ENC-Q).


def test_the_cut_is_on_the_dealers_left() -> None:
    rules = load_ruleset("quadrille")
    # Play goes to the right (seat k+1 at seat k's right): the dealer's left is the seat before.
    assert [cutting_seat(rules, d) for d in range(4)] == [3, 0, 1, 2]
    assert cutting_seat(load_ruleset("ombre"), 0) is None


def _one_deal(extra: str) -> str:
    text = (RECORDS / "quadrille-ask-win.yaml").read_text(encoding="utf-8")
    return text.replace("dealer: 0\n", f"dealer: 0\n{extra}\n", 1)


def test_a_wrong_cutter_or_packets_of_one_or_two_are_refused_located() -> None:
    rules = load_ruleset("quadrille")
    with pytest.raises(RecordError) as cut:
        replay(parse_record(_one_deal("cut: 1"), "r.yaml"), rules)
    assert cut.value.problems[0].code == "record/cut" and "seat 3 cuts" in str(cut.value)
    with pytest.raises(RecordError) as packets:
        replay(parse_record(_one_deal("packets: [2, 2, 2, 2, 2]"), "r.yaml"), rules)
    problem = packets.value.problems[0]
    assert problem.code == "record/packets" and problem.line == 5
    assert "3-3-4, 4-3-3" in problem.message
    record = parse_record(_one_deal("cut: 3\npackets: [3, 3, 4]"), "r.yaml")
    assert parse_record(write_record(record)) == record
    assert replay(record, rules).complete


# A card too many: "Whosoever plays with eleven cards is beasted" (HOYLE-IE law 8).


def test_a_player_with_eleven_cards_is_beasted_and_the_deal_is_void() -> None:
    deal = quadrille()
    for line in WIN.actions[:8]:  # the auction, trumps, the call, two cards of the first trick
        deal.apply(line)
    assert deal.refusal("3 extra-card") is None  # not his turn: the law, not the turn
    deal.apply("3 extra-card")
    s = deal.settlement
    assert deal.result == "misdeal" and s is not None
    # The bête of the deal: the dealer's fiche (10) and jeton, a jeton each (14), by seat 3 alone.
    assert s.balances == (0, 0, 0, -14) and s.bete == 14 and s.table.betes == (14,)
    (line,) = s.payments
    assert line.kind is PaymentKind.IRREGULARITY and line.payer == 3 and line.payee == "pot"


def test_a_card_too_many_before_the_play_is_a_misdeal() -> None:
    deal = quadrille()
    error = deal.refusal("1 extra-card")
    assert error is not None and error.code == "extra-card/not-now"


def test_golden_eleven_cards() -> None:
    void, again = replayed("quadrille-eleven-cards.yaml")["deals"]
    assert void["extra_card"] == 3 and void["balances"] == [0, 0, 0, -14]
    assert void["pot_after"] == 14 and again["dealer"] == 0
    # The bête goes with the next deal's 14: 28 to the winners, 14 each, and the jeu and the
    # consolation (3) from each defender.
    assert again["balances"] == [-14, 16, -4, 16] and again["pot_after"] == 0


# Several revokes: "si toutes les cartes sont jouées, la bête n'en est pas moins faite, & on ne
# reprend point ses cartes, à-moins qu'il n'y eût plusieurs renonces sur un même coup, auquel cas
# on pourroit reprendre le jeu, pourvu que les cartes ne fussent pas brouillées" (ENC-Q).


def test_one_renonce_at_the_end_cannot_be_retaken() -> None:
    record = read_record(RECORDS / "quadrille-renonce-after-end.yaml")
    deal = Deal(load_ruleset("quadrille-renonce"), dealer=0, hands=record.deals[0].hands, talon=[])
    for line in record.deals[0].actions:
        deal.apply(line)
    error = deal.refusal("1 retake")
    assert deal.is_over and error is not None and error.code == "retake/nothing"


def test_several_renonces_the_cards_are_taken_back_and_the_betes_stand() -> None:
    out = replayed("quadrille-renonce-retake.yaml")["deals"][0]
    assert out["retaken"] == 1 and out["renonces"] == [0, 2] and out["bete"] == 28
    assert len(out["tricks"]) == 10 and out["result"] == "win"
    # The side (2 with the called king at 3) takes the 14 and 3 from each defender; each
    # offender puts a bête of 14.
    assert out["balances"] == [-11 - 3 - 14, -1 - 3, -1 + 7 + 3 - 14, -1 + 7 + 3]


def test_without_the_line_the_deal_stands_and_canonical_quadrille_refuses_retake() -> None:
    record = read_record(RECORDS / "quadrille-renonce-retake.yaml")
    lines = record.deals[0].actions
    cut = lines.index("0 retake")
    deal = Deal(load_ruleset("quadrille-renonce"), dealer=0, hands=record.deals[0].hands, talon=[])
    for line in lines[:cut]:
        deal.apply(line)
    assert deal.is_over and deal.penalties == [0, 2]
    error = quadrille().refusal("0 retake")
    assert error is not None and error.code == "retake/no-law"


# Claims: "If you play sans prendre, or have matadores, your claim must be made before the next
# deal is finished, or you lose the benefit" (HOYLE-IE law 9).


def test_unclaimed_sans_prendre_and_matadors_are_not_paid() -> None:
    out = replayed("quadrille-unclaimed.yaml")["deals"][0]
    assert out["contract"] == "sans-prendre" and out["matadors"] == 4
    # Claimed, each defender would pay 1 + 2 + 4 + 4 = 11; unclaimed, the jeu and the
    # consolation only (3): the declarer +9 and the pot of 14 less his jeton.
    assert out["unclaimed"] == ["sans-prendre", "matadors"]
    assert out["balances"] == [-11 - 3, 9 + 14 - 1, -1 - 3, -1 - 3]
    assert {p["item"] for p in out["payments"]} >= {"jeu+consolation"}


def test_claims_are_checked() -> None:
    deal = quadrille()
    with pytest.raises(NotationError, match="not over"):
        forgo_claims(deal, ["matadors"])
    for line in WIN.actions:
        deal.apply(line)
    with pytest.raises(NotationError, match="not claimed under these rules"):
        forgo_claims(deal, ["consolation"])
    ombre = Deal(load_ruleset("ombre"), dealer=0, seed=1)
    with pytest.raises(NotationError, match="no law of claims"):
        forgo_claims(ombre, ["matadors"])


# At the tables: the terminal, the browser and the scorekeeper let a person declare them.


def test_the_terminal_table_takes_a_misdeal_and_deals_again() -> None:
    from typer.testing import CliRunner

    from engine.cli import app

    result = CliRunner().invoke(
        app,
        ["play", "quadrille", "--seed", "4", "--seat", "1", "--deals", "2"],
        input="misdeal faced\n\nquit\n",
    )
    assert "You find the deal wrong (faced): it is void" in result.output
    assert "dealt again by the same dealer" in result.output
    assert result.output.count("dealer: seat 0") == 2  # the second deal: the same dealer


def test_the_web_table_offers_no_misdeal_of_the_cards_it_dealt(tmp_path: Path) -> None:
    # The server dealt: no hand has too many or too few cards, none is faced, so a misdeal
    # is neither offered nor accepted (a player about to lose could otherwise void the deal).
    pytest.importorskip("starlette")
    import re

    from starlette.testclient import TestClient

    from engine.web.app import create_app

    client = TestClient(
        create_app(tmp_path), follow_redirects=True, headers={"origin": "http://testserver"}
    )
    r = client.post(
        "/tables", data={"ruleset": "quadrille", "mode": "bots", "seat": "0", "seed": "4"}
    )
    assert 'value="misdeal' not in r.text and 'value="extra-card"' not in r.text
    turn = re.search(r'name="turn" value="([^"]+)"', r.text)
    assert turn
    path = str(r.url.path)
    r = client.post(path + "/act", data={"seat": "0", "turn": turn[1], "action": "misdeal faced"})
    assert r.status_code < 500 and "The deal is void" not in r.text
    assert "dealt by the machine" in r.text
    record = read_record(next((tmp_path / "tables").glob("*.yaml")))
    assert not any("misdeal" in a for a in record.deals[0].actions)


def test_the_scorekeeper_scores_a_void_deal_and_unclaimed_items() -> None:
    from engine.scoresheet import Evening, parse_entry

    evening = Evening(load_ruleset("quadrille"))
    void = evening.score(parse_entry({"misdeal": "faced"}, dealer=0, n=4))
    assert void.result == "misdeal" and void.settlement.balances == (0, 0, 0, 0)
    assert evening.next_dealer == 0  # the same dealer deals again
    eleven = evening.score(parse_entry({"extra_card": 2}, dealer=0, n=4))
    assert eleven.settlement.balances == (0, 0, -14, 0) and evening.next_dealer == 0
    # The sans-prendre of tests/records/quadrille-unclaimed.yaml, entered without its cards.
    entry = {
        "contract": "sans-prendre",
        "declarer": 1,
        "trump": "hearts",
        "tricks": [1, 8, 0, 1],
        "matadors": 4,
    }
    claimed = evening.score(parse_entry(entry, dealer=0, n=4))
    # The bête of 14 waiting goes with this deal: 28 to the declarer, 11 from each.
    assert claimed.settlement.balances == (-22, 28 - 1 + 33, -12, -12)
    forgone = evening.forgo(["sans-prendre", "matadors"])
    assert forgone.settlement.balances == (-14, 28 - 1 + 9, -4, -4)
    assert evening.deals[-1].entry.as_score()["unclaimed"] == ["sans-prendre", "matadors"]
    with pytest.raises(IllegalActionError):
        evening.forgo(["consolation"])
    assert evening.deals[-1].entry.unclaimed == ("sans-prendre", "matadors")


def test_the_web_scorekeeper_scores_a_void_deal(tmp_path: Path) -> None:
    pytest.importorskip("starlette")
    import re

    from starlette.testclient import TestClient

    from engine.web.app import create_app

    client = TestClient(
        create_app(tmp_path), follow_redirects=True, headers={"origin": "http://testserver"}
    )
    r = client.post("/evenings", data={"ruleset": "quadrille", "dealer": "0"})
    assert r.status_code == 200 and 'name="misdeal"' in r.text and 'name="unclaimed"' in r.text
    version = re.search(r'name="version" value="([^"]+)"', r.text)
    assert version
    path = str(r.url.path)
    data = {
        "count": "0",
        "dealer": "0",
        "version": version[1],
        "misdeal": "extra-card",
        "extra_card": "2",
    }
    page = client.post(path + "/deals", data=data).text
    assert "held a card too many" in page
    saved = next((tmp_path / "evenings").glob("*.yaml")).read_text()
    assert "extra_card: 2" in saved


# A void deal and the length of a party (docs/decisions.md: a deal made void and dealt again by
# the same dealer does not count among a party's deals, as it did not among its tours).

TWO_DEALS = """\
id: quadrille-two-deals
name: Quadrille in a party of two deals (a test variant)
extends: quadrille
summary: A test variant, a party of two deals.
party:
  deals: 2
  basis:
    evidence: conjecture
    note: A party of two deals, for the tests.
"""


def test_a_deal_dealt_again_does_not_count_in_the_party(tmp_path: Path) -> None:
    from engine.referee.party import Party, deals_counted
    from engine.scoresheet import Evening, parse_entry

    path = tmp_path / "quadrille-two-deals.yaml"
    path.write_text(TWO_DEALS)
    rules = load_ruleset(str(path))
    assert deals_counted(rules, ["misdeal", "win", "redeal"]) == 2
    party = Party(rules)
    party.new_deal(seed=1).apply("0 misdeal faced")
    assert party.counted == 0 and not party.over and party.next_dealer == 0
    from engine.bots import make_bot

    bot = make_bot("heuristic", 0)
    for _ in range(2):
        deal = party.new_deal(seed=2)
        while not deal.is_over:
            deal.apply(bot.choose(deal, deal.to_move), seat=deal.to_move)
    assert party.counted == 2 and party.over and len(party.deals) == 3
    # The scorekeeper's party the same: the void deal is not one of its two.
    evening = Evening(rules)
    evening.score(parse_entry({"misdeal": "faced"}, dealer=0, n=4))
    assert not evening.over and evening.counted == 0
    ask = {"contract": "ask", "declarer": 1, "trump": "clubs", "called": "Kd", "holder": 3}
    evening.score(parse_entry({**ask, "tricks": [1, 3, 3, 3]}, dealer=0, n=4))
    assert not evening.over
    evening.score(parse_entry({**ask, "declarer": 2, "tricks": [1, 3, 3, 3]}, dealer=1, n=4))
    assert evening.over and len(evening.deals) == 3


def test_play_deals_does_not_count_a_deal_dealt_again() -> None:
    from typer.testing import CliRunner

    from engine.cli import app

    # --deals 2: the void deal, then deal 1 dealt again by the same dealer (before the fix the
    # redeal was "deal 2 of 2", the party's last).
    result = CliRunner().invoke(
        app,
        ["play", "quadrille", "--seed", "4", "--seat", "1", "--deals", "2"],
        input="misdeal faced\n",
    )
    assert result.output.count("Deal 1 of 2") == 2 and "Deal 2 of 2" not in result.output
    assert "the game is unfinished" in result.output

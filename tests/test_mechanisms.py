"""The family's optional mechanisms, each used from a rule file: cards paid for whatever the
result (red aces), the called king naming trumps, the contre (a vole announced), results for a
contract, cards required to bid (the seed summary's Casco)."""

from __future__ import annotations

import pytest

from engine.errors import IllegalActionError
from engine.referee import Phase
from tests.referee_helpers import deal_with, run

ALL_PASS = ["1 pass", "2 pass", "3 pass", "0 pass"]


def _play_out(deal):  # type: ignore[no-untyped-def]
    """Plays the first legal card until the deal ends (answers `stop` to a vole offer)."""
    while not deal.is_over:
        legal = deal.legal_actions()
        stop = [a for a in legal if a.verb == "stop"]
        deal.apply(stop[0] if stop else legal[0])
    return deal


def test_red_aces_paid_to_their_holder_whatever_the_result() -> None:
    deal = deal_with("quadrille-red-aces", {1: "As 2c Ac Kc Qc Jc 7c 6c 5c Kd", 2: "Ah", 3: "Ad"})
    run(deal, ["1 bid ask", "2 pass", "3 pass", "0 pass", "1 trump clubs", "1 call Kh"])
    _play_out(deal)
    plain = deal_with("quadrille", {1: "As 2c Ac Kc Qc Jc 7c 6c 5c Kd", 2: "Ah", 3: "Ad"})
    run(plain, ["1 bid ask", "2 pass", "3 pass", "0 pass", "1 trump clubs", "1 call Kh"])
    _play_out(plain)
    assert deal.result == plain.result
    assert deal.settlement is not None and plain.settlement is not None
    diff = [a - b for a, b in zip(deal.settlement.balances, plain.settlement.balances, strict=True)]
    # Seats 2 and 3 each receive a fish from the three others and pay one to the other holder.
    assert diff == [-20, -20, 20, 20]
    items = [p.as_json() for p in deal.settlement.payments]
    assert any("red aces" in str(p) for p in items)


def test_the_called_king_names_trumps_under_spadille_force() -> None:
    deal = deal_with("quadrille-partner-names-trumps", {2: "As", 3: "Kh"})
    run(deal, ALL_PASS)
    assert deal.declarer == 2 and deal.phase is Phase.CALL and deal.to_move == 2
    with pytest.raises(IllegalActionError):
        deal.apply("trump hearts", seat=2)  # the call comes first
    run(deal, ["2 call Kh"])
    assert deal.phase is Phase.TRUMP and deal.to_move == 3  # the king's holder names trumps
    assert deal.partner == 3
    run(deal, ["3 trump hearts"])
    assert deal.trump is not None and deal.phase is Phase.PLAY
    _play_out(deal)
    assert deal.result is not None


def test_a_forced_player_calling_his_own_king_names_trumps() -> None:
    deal = deal_with("quadrille-partner-names-trumps", {2: "As Kh Ks Kc Kd"})
    run(deal, [*ALL_PASS, "2 call Kh"])
    assert deal.partner is None and deal.to_move == 2 and deal.phase is Phase.TRUMP


def test_the_contre_is_a_vole_undertaken_from_the_first_trick() -> None:
    weak = deal_with("quadrille-contre", {1: "As 2c Ac Kc Qc Jc 7c 6c 5c 4c"})
    run(weak, ["1 bid contre", "2 pass", "3 pass", "0 pass", "1 trump clubs"])
    assert weak.vole_undertaken and weak.phase is Phase.PLAY
    _play_out(weak)
    # Ten trumps from spadille down: every trick, the contre made.
    assert weak.result == "vole"


def test_a_failed_contre_pays_the_vole_and_takes_nothing() -> None:
    deal = deal_with("quadrille-contre", {1: "As 2c Ac Kc Qc Jc 7c 6c 5c 7d", 2: "Kd"})
    run(deal, ["1 bid contre", "2 pass", "3 pass", "0 pass", "1 trump clubs"])
    _play_out(deal)
    assert deal.result == "contre-failed" and deal.won[1] == 9
    s = deal.settlement
    assert s is not None and s.bete == 0 and s.pot_after == s.pot_before + 14
    # The declarer staked his jeton and pays each opponent the vole (20 sans appeller).
    assert s.balances[1] == -1 - 3 * 20


def test_contract_condition_keeps_ordinary_results() -> None:
    deal = deal_with("quadrille-contre", {1: "As 2c Ac Kc Qc Jc 7c 6c 5c 4c"})
    run(deal, ["1 bid ask", "2 pass", "3 pass", "0 pass", "1 trump clubs", "1 call Kh"])
    _play_out(deal)
    assert not deal.result.startswith("contre")  # type: ignore[union-attr]


def test_casco_needs_both_black_aces() -> None:
    deal = deal_with("quadrille-seed-summary", {1: "As Kh", 2: "Ac"})
    with pytest.raises(IllegalActionError, match="holding As, Ac") as info:
        run(deal, ["1 bid casco"])
    assert info.value.code == "bid/requires-cards"
    assert all(a.contract != "casco" for a in deal.legal_actions())
    both = deal_with("quadrille-seed-summary", {1: "As Ac", 3: "Kh"})
    assert any(a.contract == "casco" for a in both.legal_actions())
    run(both, ["1 bid casco", "2 pass", "3 pass", "0 pass", "1 call Kh"])
    assert both.to_move == 3 and both.phase is Phase.TRUMP


def test_roi_rendu_the_called_king_surrendered() -> None:
    deal = deal_with("quadrille-roi-rendu", {1: "As 2c Ac Kc Qc Jc 7c 6c 5c 7d", 3: "Kh 4h"})
    run(deal, ["1 bid ask", "2 pass", "3 pass", "0 pass", "1 trump clubs", "1 call Kh"])
    assert deal.phase == "surrender" and deal.to_move == 3
    with pytest.raises(IllegalActionError) as info:
        deal.apply("give 4h", seat=3)
    assert info.value.code == "surrender/not-the-called-card"
    run(deal, ["3 give Kh"])
    assert deal.partner is None and deal.to_move == 1 and deal.phase == "give"
    run(deal, ["1 give 7d"])
    assert deal.hands[1] >> deal.called & 1  # type: ignore[operator]
    _play_out(deal)
    assert deal.settlement is not None
    payments = [p.as_json() for p in deal.settlement.payments]
    assert any("surrendered" in str(p) for p in payments)
    report = deal.report()
    assert report["partners"] == [] and report["given"] == "7d"


def test_roi_rendu_kept() -> None:
    deal = deal_with("quadrille-roi-rendu", {1: "As 2c Ac Kc Qc Jc 7c 6c 5c 7d", 3: "Kh"})
    run(deal, ["1 bid ask", "2 pass", "3 pass", "0 pass", "1 trump clubs", "1 call Kh", "3 pass"])
    assert deal.partner == 3 and deal.phase == "play"


def test_the_last_tour_of_a_party_is_played_double() -> None:
    from engine import load_ruleset
    from engine.referee.party import Party

    party = Party(load_ruleset("quadrille-last-tour-double"))
    assert [party.factor_for(i) for i in (0, 35, 36, 39, 40, 76)] == [1, 1, 2, 2, 1, 2]
    assert Party(load_ruleset("quadrille")).factor_for(39) == 1
    from engine.referee import Deal

    assert Deal(load_ruleset("quadrille"), seed=1, factor=2).stakes == (21, 1, 1, 1)

    def settled(factor: int):  # type: ignore[no-untyped-def]
        deal = deal_with("quadrille", {1: "As 2c Ac Kc Qc Jc 7c 6c 5c 7d", 3: "Kh"})
        deal.factor = factor
        run(deal, ["1 bid ask", "2 pass", "3 pass", "0 pass", "1 trump clubs", "1 call Kh"])
        return _play_out(deal).settlement

    once, twice = settled(1), settled(2)
    assert once.pot_after == twice.pot_after == 0
    # Dealer (seat 0) staked a fiche more; each defender paid the jeu, consolation and matadors
    # twice over.
    paid_once = -once.balances[2] - 1
    assert -twice.balances[2] - 1 == 2 * paid_once


def test_a_36_card_pack_is_only_a_rule_file() -> None:
    from pathlib import Path

    from engine import load_ruleset
    from engine.compare import play

    path = Path(__file__).parent / "rule_files" / "valid" / "quadrille-36-cards.yaml"
    rules = load_ruleset(str(path))
    assert len(rules.deck()) == 36
    assert [str(c) for c in rules.trump_order(rules.suits[0])][:4] == ["As", "2s", "Ac", "Ks"]
    deals = play(rules, {}, 20, 1, "heuristic")
    assert len(deals) == 20 and all(len(d.balances) == 4 for d in deals)
    assert {d.result for d in deals} <= {"win", "codille", "vole", "vole-failed", "redeal"}


def test_at_a_table_of_four_the_dealer_sits_the_deal_out() -> None:
    from engine import load_ruleset
    from engine.referee import Deal

    rules = load_ruleset("tresillo")
    deal = Deal(rules, dealer=2, seed=5)
    assert deal.dealt[2] == () and all(len(deal.dealt[s]) == 9 for s in (0, 1, 3))
    assert len(deal.dealt_talon) == 13 and deal.eldest == 3
    speakers = []
    while deal.phase == "auction":
        speakers.append(deal.to_move)
        deal.apply("pass")
    assert speakers == [3, 0, 1]  # the dealer never speaks
    # Passed out: a redeal, staked by all four.
    assert deal.result == "redeal" and deal.settlement is not None
    deal = Deal(rules, dealer=2, seed=5)
    run(deal, ["3 bid entrada", "0 pass", "1 pass", "3 trump spades"])
    _play_out(deal)
    assert all(len(t.cards) == 3 for t in deal.tricks) and deal.won[2] == 0
    assert 2 not in {t.leader for t in deal.tricks}
    s = deal.settlement
    assert s is not None and len(s.balances) == 4
    # The alcalde pays and is paid like the other defenders.
    defenders = [seat for seat in (0, 1) if seat != deal.declarer]
    assert s.balances[2] != 0
    if deal.result == "win":
        assert s.balances[2] == s.balances[defenders[0]]


def test_a_record_gives_the_alcalde_an_empty_hand() -> None:
    from engine import load_ruleset
    from engine.errors import NotationError
    from engine.referee import Deal

    rules = load_ruleset("tresillo")
    full = Deal(rules, dealer=0, seed=1)
    hands = [list(h) for h in full.dealt]
    from engine.cards import ALL_CARDS

    as_text = [[str(ALL_CARDS[c]) for c in h] for h in hands]
    talon = [str(ALL_CARDS[c]) for c in full.dealt_talon]
    again = Deal(rules, dealer=0, hands=as_text, talon=talon)
    assert again.dealt == full.dealt
    with pytest.raises(NotationError, match=r"holds 0 cards|sits the deal out"):
        Deal(rules, dealer=1, hands=as_text, talon=talon)
    moved = [as_text[1], [], as_text[0], as_text[3]]
    with pytest.raises(NotationError, match="seat 0 deals and sits the deal out"):
        Deal(rules, dealer=0, hands=moved, talon=talon)


@pytest.mark.parametrize(
    ("ruleset", "fixed", "actions"),
    [
        (
            "quadrille-roi-rendu",
            {1: "As 2c Ac Kc Qc Jc 7c 6c 5c 7d", 3: "Kh 4h"},
            [
                "1 bid ask",
                "2 pass",
                "3 pass",
                "0 pass",
                "1 trump clubs",
                "1 call Kh",
                "3 give Kh",
                "1 give 7d",
            ],
        ),
        (
            "quadrille-red-aces",
            {1: "As 2c Ac Kc Qc Jc 7c 6c 5c Kd", 2: "Ah", 3: "Ad"},
            ["1 bid ask", "2 pass", "3 pass", "0 pass", "1 trump clubs", "1 call Kh"],
        ),
        (
            "quadrille-contre",
            {1: "As 2c Ac Kc Qc Jc 7c 6c 5c 7d", 2: "Kd"},
            ["1 bid contre", "2 pass", "3 pass", "0 pass", "1 trump clubs"],
        ),
    ],
)
def test_the_scoresheet_settles_the_new_mechanisms_as_the_referee(
    ruleset: str, fixed: dict[int, str], actions: list[str]
) -> None:
    """A scorekeeper who writes down the deal (no cards) gets the referee's payments."""
    from engine import load_ruleset
    from engine.scoresheet import Evening
    from tests.test_scoresheet import entry_of

    deal = _play_out(run(deal_with(ruleset, fixed), actions))
    scored = Evening(load_ruleset(ruleset)).score(entry_of(deal))
    assert deal.settlement is not None
    assert scored.result == deal.result
    assert scored.settlement.balances == deal.settlement.balances

"""Quintille (rules/quintille.yaml), built from its sentences (sources/enc-qui.yaml, ENC-QUI;
sources/cg-en.yaml, CG-EN PA56).

Five seats; seat 0 deals, so the eldest is seat 1. The stakes are the dealer's fiche (10) and a
jeton from each (5): 15 on the table.
"""

from __future__ import annotations

from engine import load_ruleset
from engine.referee.result import trump_holders
from engine.referee.settlement import TableState, settle, stakes_for
from tests.referee_helpers import deal_with, into_play

RULES = load_ruleset("quintille")


def _settle(
    result: str,
    *,
    contract: str = "ask",
    partner: int | None = 3,
    tricks: list[int],
    matadors: int = 0,
    trump_holders: tuple[int, ...] = (),
):  # type: ignore[no-untyped-def]
    return settle(
        RULES,
        n=5,
        table=TableState(),
        stakes=stakes_for(RULES, 0, 5, RULES.stakes),
        result=result,
        contract=contract,
        declarer=1,
        partner=partner,
        tricks=tricks,
        matadors=matadors,
        trump_holders=trump_holders,
    )


def test_the_ombre_who_calls_a_king_never_makes_the_bete_alone() -> None:
    """ENC-QUI: "il ne fait jamais la bête seul, lorsqu'il joue en appelant un roi, quand il ne
    ferait qu'une main"; CG-EN PA56: "he can never be beasted alone when he calls a King"."""
    assert RULES.sole_liability_below is None
    # The Ombre (seat 1) takes one trick, his called king (seat 3) two: codille.
    s = _settle("codille", tricks=[2, 1, 2, 2, 1])
    assert s.bete == 15
    # The bête half and half, the odd jeton from the Ombre ("c'est à l'hombre à le payer").
    bete = {p.payer: p.amount for p in s.payments if p.item == "bête"}
    assert bete == {1: 8, 3: 7}
    # Each of the three defenders draws 5 of the devant and is paid the consolation (2): the
    # same for each, the dealer's fiche aside.
    assert s.balances[2] == s.balances[4] == s.balances[0] + 10 == -1 + 5 + 2


def test_no_jeu_is_paid_on_top_of_the_consolation() -> None:
    """ENC-QUI: "Il n'est point question du jeu, parce que chacun doit le mettre": the winners are
    paid the consolation and the matadors, and draw the jeu from the devant."""
    assert "jeu" not in RULES.items
    s = _settle("win", tricks=[1, 3, 1, 2, 1])
    paid = {p.item for p in s.payments if p.payer not in ("pot",) and p.item != "stake"}
    assert paid == {"consolation"}
    # Each defender loses his jeton of stake and the consolation (2); nothing more.
    assert [s.balances[d] for d in (0, 2, 4)] == [-10 - 1 - 2, -1 - 2, -1 - 2]
    # The side takes the devant (15) and 3 x 2 of consolation, half and half.
    assert s.balances[1] + s.balances[3] == -2 + 15 + 6


def test_a_sans_prendre_codille_gives_its_odd_counters_to_the_highest_trumps() -> None:
    """CG-EN PA56: the odd counters go one by one to the defenders who held the highest trumps;
    "in Case they had neither of them any Trump at all, it is let alone till the next Deal"."""
    # Sans prendre lost codille: 15 on the table among four defenders, 3 each and 3 odd.
    s = _settle("codille", contract="sans-prendre", partner=None, tricks=[2, 3, 1, 1, 1])
    assert s.pot_after == 3 + s.bete  # no trump known: all three wait for the next deal
    # Seat 4 held the highest trump, seat 0 the next; seat 1 is the loser and takes none.
    s = _settle(
        "codille",
        contract="sans-prendre",
        partner=None,
        tricks=[2, 3, 1, 1, 1],
        trump_holders=(4, 1, 0),
    )
    odd = [p.payee for p in s.payments if p.item == "odd counter (highest trump)"]
    assert odd == [4, 0]
    assert s.pot_after == 1 + s.bete  # the third odd counter: no other defender held a trump


def test_the_referee_ranks_the_trump_holders() -> None:
    """The seats that held a trump when play began, the holder of the highest first."""
    deal = deal_with(
        "quintille",
        {1: "7h Ah Kh Qh Jh Kc Qc Jc", 2: "As 2h Kd Qd Jd Ad 2d 3d", 4: "Ac 3h Ks Qs Js 7s 6s 5s"},
    )
    into_play(deal, "sans-prendre", "hearts")
    assert deal.phase == "play"
    holders = trump_holders(deal)
    assert holders[:3] == (2, 1, 4)  # As (spadille), 7h (manille), Ac (basto)

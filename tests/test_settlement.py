"""Results and settlement: acceptance items 34-43 of the project's research and its worked settlements.

Seats: P1 deals (seat 0), so P2 (seat 1) is eldest, P3 is seat 2 and P4 seat 3. Amounts that
rest on the *inferred* jeu (1), consolation (2) and sans-prendre (4) are marked "inferred".
"""

from __future__ import annotations

import pytest

from engine import load_ruleset
from engine.referee import evaluate_result
from engine.referee.settlement import SettlementResult, TableState, settle, stakes_for


def deal_settlement(
    ruleset: str,
    result: str,
    *,
    contract: str = "ask",
    declarer: int = 1,
    partner: int | None = 3,
    tricks: list[int] | None = None,
    matadors: int = 0,
    table: TableState | None = None,
    dealer: int = 0,
    spadille_holder: int | None = None,
) -> SettlementResult:
    rules = load_ruleset(ruleset)
    n = rules.players
    return settle(
        rules,
        n=n,
        table=table or TableState(),
        stakes=stakes_for(rules, dealer, n, rules.stakes),
        result=result,
        contract=contract,
        declarer=declarer,
        partner=partner,
        tricks=tricks if tricks is not None else [2, 4, 2, 2][:n],
        matadors=matadors,
        spadille_holder=spadille_holder,
    )


def conserved(s: SettlementResult) -> bool:
    return sum(s.balances) + s.pot_after - s.pot_before == 0


# Thresholds (items 34-35).


@pytest.mark.parametrize(
    ("side", "expected"),
    [
        (10, "win"),
        (7, "win"),
        (6, "win"),
        (5, "remise"),
        (4, "codille"),
        (1, "codille"),
        (0, "devole"),
    ],
)
@pytest.mark.parametrize("ruleset", ["quadrille", "mediateur"])
def test_quadrille_thresholds(ruleset: str, side: int, expected: str) -> None:
    """34. The Ombre's side: 6-10 win, 5 remise, 0-4 codille, 0 dévole. [ENC-Q; ACAD PA16; HOYLE-IE 0380; ACAD-2 S_1d PA56]"""
    rules = load_ruleset(ruleset)
    declarer_tricks = min(side, 3)
    won = [0, declarer_tricks, 10 - side, side - declarer_tricks]
    assert evaluate_result(rules, won, [1, 3]) == expected


def test_quadrille_vole_results() -> None:
    """34. All ten tricks after undertaking: vole; fewer: the vole fails. [ACAD PA20]"""
    rules = load_ruleset("quadrille")
    assert evaluate_result(rules, [0, 6, 0, 4], [1, 3], vole_undertaken=True) == "vole"
    assert evaluate_result(rules, [1, 6, 0, 3], [1, 3], vole_undertaken=True) == "vole-failed"
    assert evaluate_result(rules, [0, 6, 0, 4], [1, 3], vole_undertaken=False) == "win"


@pytest.mark.parametrize(
    ("won", "expected"),
    [
        ([5, 2, 2], "win"),
        ([5, 4, 0], "win"),
        ([4, 3, 2], "win"),
        ([4, 4, 1], "remise"),
        ([4, 5, 0], "codille"),
        ([3, 3, 3], "remise"),
        ([2, 7, 0], "codille"),
        ([2, 4, 3], "codille"),
        ([2, 3, 4], "codille"),
        ([1, 4, 4], "remise"),
    ],
)
def test_ombre_thresholds(won: list[int], expected: str) -> None:
    """35. Hombre-opponent-opponent: more than each opponent wins; one opponent alone above him wins codille; else remise (1-4-4 puesta real: modern rule, our choice). [ENC-HOM; MORLEY p.228; ACAN Hombre pag.6]"""
    rules = load_ruleset("ombre")
    # The Hombre is seat 0 here.
    assert evaluate_result(rules, won, [0]) == expected


# Sole liability and partners (item 36).


def test_declarer_below_three_tricks_pays_alone() -> None:
    """36. Side loses with the caller on 2 tricks: he pays everything, the called king nothing. [ENC-Q; ACAD PA16; inferred amounts]"""
    s = deal_settlement("quadrille", "remise", tricks=[3, 2, 2, 3])
    assert s.balances[3] == -1  # the called king: his jeton only
    assert s.balances[1] == -1 - 14 - 2 * 2  # his stake, the whole bête, consolation to each
    assert conserved(s)
    shared = deal_settlement("quadrille", "remise", tricks=[3, 3, 2, 2])
    assert shared.balances[1] == shared.balances[3] == -1 - 7 - 2


def test_four_trick_houses() -> None:
    """36. In "some houses" four tricks are needed not to pay the bête alone. [ENC-Q; ACAD PA16]"""
    s = deal_settlement("quadrille-four-trick-bete", "remise", tricks=[3, 3, 2, 2])
    assert s.balances[3] == -1 and s.balances[1] == -1 - 14 - 4


def test_forced_spadille_always_shares() -> None:
    """25/36. Spadille forcé: the called king shares half even if the declarer took one trick. [ENC-Q; HOYLE-IE 0365 law 2]"""
    s = deal_settlement("quadrille", "codille", contract="forced-spadille", tricks=[5, 1, 1, 3])
    assert s.balances[1] == s.balances[3] == -1 - 3 - 7


# The bête (items 37-38).


def bete_chain(ruleset: str, results: list[str]) -> list[int]:
    """Returns the bêtes of deals settled in a row with these results, the table carried."""
    table = TableState()
    betes = []
    rules = load_ruleset(ruleset)
    for k, result in enumerate(results):
        s = deal_settlement(
            ruleset,
            result,
            table=table,
            dealer=k % rules.players,
            declarer=(k + 1) % rules.players,
            partner=None if rules.players == 3 else (k + 3) % 4,
            tricks=[3] * rules.players,
        )
        assert conserved(s)
        betes.append(s.bete)
        table = s.table
    return betes


def test_bete_chain_after_remises() -> None:
    """37. Remise, remise, remise: bêtes of 14, 42, 56; the second deal is played for 42. [ENC-Q]"""
    assert bete_chain("quadrille", ["remise", "remise", "remise"]) == [14, 42, 56]
    first = deal_settlement("quadrille", "remise", tricks=[3, 3, 2, 2])
    second = deal_settlement("quadrille", "win", table=first.table, dealer=1, declarer=2, partner=0)
    assert second.pot_before == 28 and second.balances[2] + second.balances[0] >= 42 - 2


def test_bete_chain_after_codille() -> None:
    """37. A first bête lost by codille: the second deal is played for 28, the next bête is 28. [ENC-Q]"""
    assert bete_chain("quadrille", ["codille", "codille"]) == [14, 28]
    assert bete_chain("quadrille", ["codille", "remise", "remise"]) == [14, 28, 42]


def test_quadrille_a_trois_bete_of_fourteen_on_thirteen() -> None:
    """38. À trois: 13 jetons on the table, yet the first bête is 14. [ENC-Q; CG-EN PA46]"""
    s = deal_settlement("quadrille-a-trois", "remise", partner=None, tricks=[3, 5, 2])
    assert s.pot_before == 0 and s.bete == 14
    assert s.pot_after == 13 + 14
    assert conserved(s)


# Médiateur (item 39, §4.1 d-e).


@pytest.mark.parametrize(
    ("contract", "result", "declarer_balance", "each"),
    [
        ("mediateur", "win", -1 + 14 + 39, -13),
        ("mediateur", "remise", -1 - 36 - 14, +12),
        ("mediateur", "codille", -1 - 39 - 14, +13 + 4),
        ("sans-prendre", "win", -1 + 14 + 51, -17),
        ("sans-prendre", "remise", -1 - 48 - 14, +16),
        ("sans-prendre", "codille", -1 - 51 - 14, +17 + 4),
    ],
)
def test_mediateur_settlement(contract: str, result: str, declarer_balance: int, each: int) -> None:
    """39. Médiateur 13/12/13 and sans prendre 17/16/17 from or to each of three; bête 14; codille shares 4 each. [ENC-Q]"""
    s = deal_settlement("mediateur", result, contract=contract, partner=None, tricks=[2, 6, 1, 1])
    assert s.balances[1] == declarer_balance
    # P3 and P4 staked one jeton; P1 (the dealer) staked a fiche and a jeton.
    assert s.balances[2] == s.balances[3] == -1 + each
    assert s.balances[0] == -11 + each
    assert conserved(s)
    if result == "codille":
        assert s.pot_after == 2 + 14  # two odd jetons kept for the next spadille, and the bête
    if result == "remise":
        assert s.pot_after == 14 + 14


def test_mediateur_vole_is_one_fiche() -> None:
    """39. A vole with the médiateur is paid one fiche. [ENC-Q]"""
    s = deal_settlement(
        "mediateur", "vole", contract="mediateur", partner=None, tricks=[0, 10, 0, 0]
    )
    assert s.balances[2] == -1 - 13 - 10


# The vole (item 40).


def test_vole_payments() -> None:
    """40. Vole with the called king: 1 fiche from each; sans appeller: 2 fiches. [ACAD PA20, PA25; inferred jeu and consolation]"""
    called = deal_settlement("quadrille", "vole", tricks=[0, 6, 0, 4])
    assert called.balances[0] == -11 - 3 - 10 and called.balances[2] == -1 - 3 - 10
    assert called.balances[1] == -1 + 7 + (2 * 13) // 2
    alone = deal_settlement(
        "quadrille", "vole", contract="sans-prendre", partner=None, tricks=[0, 10, 0, 0]
    )
    assert alone.balances[2] == -1 - (1 + 2 + 4) - 20


def test_failed_vole_still_wins_the_game() -> None:
    """40. A failed vole pays the vole but the undertakers take the devant and are paid their game. [ACAD PA20]"""
    s = deal_settlement("quadrille", "vole-failed", tricks=[1, 6, 0, 3])
    assert s.balances[0] == -11 - 3 + 10
    assert s.balances[1] + s.balances[3] == -2 + 14 + 2 * 3 - 2 * 10
    assert s.pot_after == 0


# Odd counters and matadors (items 42-43).


def test_codille_odd_counters_go_to_the_next_spadille() -> None:
    """42. Sans appeller lost by codille: 4 each, and the 2 left go to the next holder of spadille. [ENC-Q]"""
    first = deal_settlement(
        "quadrille", "codille", contract="sans-prendre", partner=None, tricks=[3, 3, 2, 2]
    )
    assert first.table.remainder == 2
    assert first.balances[0] == -11 + 4 + (1 + 2 + 4)
    second = deal_settlement(
        "quadrille", "win", table=first.table, dealer=1, declarer=2, partner=0, spadille_holder=3
    )
    odd = [p for p in second.payments if p.item.startswith("odd counters")]
    assert odd and odd[0].payee == 3 and odd[0].amount == 2
    assert second.table.remainder == 0 and conserved(second)


def test_matadors_paid_on_a_loss() -> None:
    """43. Remise with Spadille, Manille and Basto: the side pays each defender consolation and matadors. [ENC-Q; matador value conjecture]"""
    s = deal_settlement("quadrille", "remise", matadors=3, tricks=[2, 3, 3, 2])
    # Each defender receives consolation 2 + 3 matadors at 1 (conjecture) = 5.
    assert s.balances[0] == -11 + 5 and s.balances[2] == -1 + 5
    assert s.balances[1] == s.balances[3] == -1 - 7 - 5
    won = deal_settlement("quadrille", "win", matadors=4, tricks=[2, 3, 3, 2])
    assert won.balances[2] == -1 - 3 - 4


# The worked settlements of §4.1.


def test_worked_example_a_win() -> None:
    """4.1 (a). P2 calls K♠ held by P4 and they take 7 tricks: P2 +9, P4 +9, P1 -14, P3 -4. [ENC-Q; inferred jeu/consolation]"""
    s = deal_settlement("quadrille", "win", tricks=[1, 4, 2, 3])
    assert s.balances == (-14, 9, -4, 9)
    assert s.pot_before == 0 and s.pot_after == 0


def test_worked_example_b_remise() -> None:
    """4.1 (b). Remise: the 14 stay, the pair makes a bête of 14 and pays each defender the consolation. [ENC-Q; inferred consolation]"""
    s = deal_settlement("quadrille", "remise", tricks=[2, 3, 3, 2])
    assert s.bete == 14 and s.pot_after == 28
    assert s.balances == (-11 + 2, -1 - 7 - 2, -1 + 2, -1 - 7 - 2)


def test_worked_example_c_codille() -> None:
    """4.1 (c). Codille: P1 and P3 share the 14, are paid jeu and consolation, the pair makes a bête of 14. [ENC-Q; inferred]

    The pair pays 3 to each defender, 6 in all, "par moitié": 3 each. (The reference's
    per-defender reading, 2 and 1 to each, makes an odd counter where halves make none.)
    """
    s = deal_settlement("quadrille", "codille", tricks=[3, 3, 3, 1])
    assert s.balances == (-11 + 7 + 3, -1 - 3 - 7, -1 + 7 + 3, -1 - 3 - 7)
    assert s.pot_after == 14
    # Had P2 taken only 2 of the 4 tricks, he would pay everything, the bête included.
    alone = deal_settlement("quadrille", "codille", tricks=[3, 2, 3, 2])
    assert alone.balances[1] == -1 - 6 - 14 and alone.balances[3] == -1


def test_worked_example_f_quadrille_a_trois() -> None:
    """4.1 (f). À trois: the caller takes the 13 and is paid as in Quadrille; a remise makes a bête of 14. [ENC-Q]"""
    win = deal_settlement("quadrille-a-trois", "win", partner=None, tricks=[2, 7, 1])
    assert win.balances[1] == -1 + 13 + 2 * 3
    remise = deal_settlement("quadrille-a-trois", "remise", partner=None, tricks=[3, 5, 2])
    assert remise.bete == 14 and remise.balances[1] == -1 - 14 - 2 * 2


def test_self_call_pays_no_sans_prendre() -> None:
    """29. Calling his own king he plays alone but is not paid (and does not pay) the sans-prendre. [ENC-Q]"""
    s = deal_settlement("quadrille", "win", partner=None, tricks=[1, 6, 2, 1])
    assert s.balances[2] == -1 - 3
    sp = deal_settlement(
        "quadrille", "win", contract="sans-prendre", partner=None, tricks=[1, 6, 2, 1]
    )
    assert sp.balances[2] == -1 - 7


def test_ombre_settlement() -> None:
    """Ombre: the Hombre takes the stakes (9); a remise or codille makes a bête of the stake. [CG-EN PA24-27; ENC-HOM]"""
    win = deal_settlement(
        "ombre", "win", contract="entrada", declarer=1, partner=None, tricks=[2, 5, 2]
    )
    assert win.balances == (-3, 6, -3)
    codille = deal_settlement(
        "ombre", "codille", contract="entrada", declarer=1, partner=None, tricks=[5, 3, 1]
    )
    assert codille.balances == (6, -3 - 9, -3) and codille.pot_after == 9
    sp = deal_settlement(
        "ombre",
        "win",
        contract="sans-prendre",
        declarer=1,
        partner=None,
        tricks=[2, 5, 2],
        matadors=3,
    )
    assert sp.balances[0] == -3 - 3 - 3  # sans-prendre 3 and three matadors at 1 (Morley)

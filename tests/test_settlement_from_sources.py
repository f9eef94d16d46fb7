"""The departures from the sources mended in issue 15, each tested from the source's sentence
(sources/enc-q.yaml and the passages in sources/)."""

from __future__ import annotations

import pytest

from engine import load_ruleset
from engine.referee.settlement import SettlementResult, TableState, settle, stakes_for


def _chain(ruleset: str, results: list[str]) -> list[int]:
    """The bêtes made on deals lost in a row (seat 1 calls seat 3; seat 0 deals)."""
    rules = load_ruleset(ruleset)
    table = TableState()
    out = []
    for result in results:
        tricks = [3, 2, 3, 2] if result == "codille" else [2, 3, 3, 2]
        s: SettlementResult = settle(
            rules,
            n=4,
            table=table,
            stakes=stakes_for(rules, 0, 4, rules.stakes),
            result=result,
            contract="ask",
            declarer=1,
            partner=3,
            tricks=tricks,
        )
        out.append(s.bete)
        table = s.table
    return out


@pytest.mark.parametrize(
    ("results", "single", "double"),
    [
        (["remise", "remise", "remise"], [14, 42, 56], [28, 84, 112]),
        (["codille", "remise"], [14, 28], [28, 56]),
    ],
)
def test_the_double_game_doubles_the_betes_in_proportion(
    results: list[str], single: list[int], double: list[int]
) -> None:
    """ENC-Q: "Si l'on joue le jeu double, les bêtes augmentent à-proportion": the first bête of
    the double game is 28 (two fiches and two jetons from each), not 24."""
    assert _chain("quadrille", results) == single
    assert _chain("quadrille-jeu-double", results) == double
    assert [2 * b for b in single] == double


def test_the_last_tour_doubles_the_devant_only() -> None:
    """ACAD PA25's last tour: "le devant double", the jetons au jeu not: 24 on the table, which
    is why it is not the Encyclopédie's double game (28)."""
    rules = load_ruleset("quadrille-last-tour-double")
    from engine.referee.settlement import deal_stakes

    assert sum(deal_stakes(rules, 0, TableState(), 2)) == 24
    assert sum(deal_stakes(load_ruleset("quadrille-jeu-double"), 0, TableState())) == 28


def _win_payment(ruleset: str) -> int:
    """What each defender pays the side for a plain won game, beside his stake."""
    rules = load_ruleset(ruleset)
    s = settle(
        rules,
        n=4,
        table=TableState(),
        stakes=stakes_for(rules, 0, 4, rules.stakes),
        result="win",
        contract="ask",
        declarer=1,
        partner=3,
        tricks=[2, 4, 2, 2],
    )
    return sum(p.amount for p in s.payments if p.payer == 2 and p.item != "stake")


def test_le_jeu_has_both_readings() -> None:
    """ENC-Q: "chacun fait outre cela au jeu un jetton pour chaque coup qui se paye à ceux qui
    gagnent avec la consolation". Canonical: a jeu (1) paid beside the consolation (2), as the
    médiateur's 13 against 12 requires; variant quadrille-jeu-mise: the staked jeton is the jeu,
    taken with the devant, and only the consolation is paid."""
    assert _win_payment("quadrille") == 3
    assert _win_payment("quadrille-jeu-mise") == 2
    # The médiateur pays one jeton more at a win than at a remise: the jeu (ENC-Q 13 / 12).
    mediateur = load_ruleset("mediateur")
    assert "jeu" in mediateur.outcomes["win"].receive
    assert "jeu" not in mediateur.outcomes["remise"].pay

"""The Médiateur under both readings of "le jeu" (docs/disagreements.md §3.31): each gives the
médiateur's 13 from each opponent at a win and 12 to each at a remise (ENC-Q: "Il reçoit treize
jettons de chacun … au lieu qu'il n'en donne que 12 si elle n'est que remise")."""

from __future__ import annotations

from engine import load_ruleset
from engine.referee.settlement import TableState, settle, stakes_for

TRICKS = {"win": [1, 7, 1, 1], "remise": [2, 5, 2, 1], "codille": [3, 3, 2, 2]}


def _paid(ruleset: str, result: str) -> tuple[int, int]:
    """Returns (what opponent seat 2 hands the médiateur, seat 1, or is handed by him; what
    seat 2 loses or gains in all, his jeton au jeu included)."""
    rules = load_ruleset(ruleset)
    s = settle(
        rules,
        n=4,
        table=TableState(),
        stakes=stakes_for(rules, 0, 4, rules.stakes),
        result=result,
        contract="mediateur",
        declarer=1,
        partner=None,
        tricks=TRICKS[result],
        matadors=0,
        trump_holders=(),
    )
    hand = sum(
        p.amount if p.payee == "1" else -p.amount
        for p in s.payments
        if {p.payer, p.payee} == {"1", "2"}
    )
    return hand, s.balances[2]


def test_the_canonical_reading_pays_thirteen_hand_to_hand() -> None:
    """Canonical: 10 (the extra fiche) + 1 (the jeu) + 2 (the consolation) paid at a win; 10 + 2
    paid back at a remise, where no jeu is paid."""
    assert _paid("mediateur", "win")[0] == 13
    assert _paid("mediateur", "remise")[0] == -12


def test_the_staked_reading_gives_thirteen_with_the_jeton_on_the_table() -> None:
    """Staked jeton: 10 + 2 paid at a win, and the jeton each opponent put au jeu drawn from
    the table: 13 from each; at a remise 10 + 2 to each, the jetons au jeu staying on the table
    for the bête: 12."""
    hand, total = _paid("mediateur-jeu-mise", "win")
    assert (hand, total) == (12, -13)
    assert _paid("mediateur-jeu-mise", "remise")[0] == -12
    # The canonical reading takes 14 in all from each opponent at a win, one more.
    assert _paid("mediateur", "win")[1] == -14

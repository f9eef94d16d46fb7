"""Danish tournament l'hombre (rules/dansk-lhombre.yaml), tested from the DLU's Turneringsregler
(``dlu``), netlhombre's table of the DLU's ranks and tariffs (``netlh``), the vocabularies
(``dlu-vok``, ``stilling-vok``) and the course of the bidding (``jhp``)."""

from __future__ import annotations

import pytest

from engine import load_ruleset
from engine.cards import ALL_CARDS
from engine.errors import IllegalActionError
from engine.referee import Deal, Phase
from engine.referee.settlement import TableState, settle
from tests.referee_helpers import run

RULES = load_ruleset("dansk-lhombre")
FORE, MIDDLE, BACK = 1, 2, 0  # the dealer is seat 0: forhånd, mellemhånd, baghånd


def deal(seed: int = 1) -> Deal:
    return Deal(RULES, dealer=0, seed=seed)


def legal(d: Deal) -> list[str]:
    return [str(a) for a in d.legal_actions()]


# "Melding | Rang | Vundet | Bet | Kruk" (netlh), the rows of the DLU's rules.
TABLE = {
    "spil": (1, 1, -1, -2),
    "bedre-spil": (2, 1, -1, -2),
    "tourne": (3, 2, -2, -3),
    "tourne-respekt": (4, 3, -3, -4),
    "solo": (5, 3, -3, -4),
    "solo-spar": (6, 4, -4, -5),
}


@pytest.mark.parametrize(("cid", "row"), TABLE.items())
def test_rank_and_points_are_the_unions(cid: str, row: tuple[int, int, int, int]) -> None:
    rank, won, bet, kruk = row
    assert RULES.contracts[cid].rank == rank
    assert RULES.points[(cid, "win")].declarer == won
    assert RULES.points[(cid, "remise")].declarer == bet
    assert RULES.points[(cid, "codille")].declarer == kruk


def test_only_the_unions_bids_are_made() -> None:
    assert sorted(c.id for c in RULES.contracts.values() if c.biddable) == sorted(TABLE)
    assert RULES.in_points


def test_the_bidding_goes_round_until_two_have_passed() -> None:
    # "Forhånden siger f.eks spil, men bliver overmeldt af mellemhåndens "bedre"-spil." (dlu-vok)
    d = deal()
    run(d, ["1 bid spil", "2 bid bedre-spil", "0 pass", "1 bid tourne", "2 bid tourne-respekt"])
    assert d.to_move == FORE  # the dealer passed: he is not asked again
    run(d, ["1 bid solo", "2 pass"])
    assert d.declarer == FORE and d.contract is not None and d.contract.id == "solo"
    assert d.faults == []  # every contract was named to overcall
    assert d.phase is Phase.TRUMP and len(legal(d)) == 4  # "i en af de fire farver"


def test_a_bid_named_without_need_costs_a_penalty_point() -> None:
    # "Meldes det som bedre spil, uden det er nødvendigt for overbud, kan der idømmes 1
    # strafpoint." (dlu, Bedre spil)
    d = deal()
    run(d, ["1 bid bedre-spil"])
    assert d.faults == [(FORE, "named-without-need")]
    won = settle(
        RULES,
        n=3,
        table=TableState(),
        stakes=[0, 0, 0],
        result="win",
        contract="bedre-spil",
        declarer=FORE,
        tricks=(2, 5, 2),
        penalties=[(FORE, "named-without-need")],
    )
    assert won.balances == (0, 1 - 1, 0)


def test_solo_spar_only_to_overcall() -> None:
    # "Denne melding må kun afgives, når det er nødvendigt for at give overbud." (dlu)
    d = deal()
    run(d, ["1 bid solo-spar"])
    assert d.faults == [(FORE, "named-without-need")]
    d = deal()
    run(d, ["1 bid solo", "2 bid solo-spar"])
    assert d.faults == []


def test_the_winner_of_spil_may_turn() -> None:
    # "Spilleren må selv afgøre, om han vil spille i en bestemt farve, tournere …" (dlu, Spil)
    d = deal()
    run(d, ["1 bid spil", "2 pass", "0 pass"])
    assert d.phase is Phase.RAISE and legal(d) == ["pass", "bid tourne"]
    run(d, ["1 bid tourne"])
    assert d.contract is not None and d.contract.id == "tourne" and d.faults == []
    assert legal(d) == [f"trump {ALL_CARDS[d.talon[0]].suit.value}"]  # the turned card's


def test_the_spil_declarer_buys_one_and_the_tourne_one_besides_the_turned() -> None:
    # "Spilleren skal købe mindst èt kort fra talonen." (dlu, Spil); "Spilleren skal købe
    # mindst ét kort udover det vendte." (dlu, Tourné)
    for contract, least in (("spil", 1), ("tourne", 2)):
        d = deal()
        run(
            d,
            ["1 bid spil", "2 pass", "0 pass", "1 pass" if contract == "spil" else "1 bid tourne"],
        )
        run(d, [f"1 {legal(d)[0]}"])
        assert d.phase is Phase.EXCHANGE
        why = d.exchange_why()
        assert why is not None and why.least == least
        with pytest.raises(IllegalActionError) as caught:
            d.apply("1 discard")
        assert caught.value.code == "discard/must-buy"


def test_bedre_spil_and_solo_spar_are_played_in_spades() -> None:
    # "Spillet skal spilles med spar som trumf" (dlu, Bedre spil)
    d = deal()
    run(d, ["1 bid spil", "2 bid bedre-spil", "0 pass", "1 pass"])
    assert legal(d) == ["trump spades"]


@pytest.mark.parametrize(
    ("tricks", "result"),
    [
        ((5, 2, 2), "win"),
        ((4, 4, 1), "remise"),  # "Fordeling 4-4-1 eller 3-3-3 i trumfspil." (dlu-vok, Bet)
        ((3, 3, 3), "remise"),
        ((3, 4, 2), "codille"),  # "Færre stik end en modspiller i trumfspil." (stilling-vok)
        ((1, 4, 4), "codille"),
    ],
)
def test_won_bet_and_kruk(tricks: tuple[int, int, int], result: str) -> None:
    declarer, *opponents = tricks
    for rule in RULES.results:
        if rule.when.holds(
            contract="spil",
            side_tricks=declarer,
            opponents=opponents,
            played=9,
            hand_size=9,
            vole_undertaken=False,
        ):
            assert rule.result == result
            break


def test_bots_play_the_danish_game() -> None:
    from engine.bots import make_bot

    bots = [make_bot("heuristic", seed=s) for s in range(3)]
    played = 0
    for seed in range(40):
        d = deal(seed)
        while not d.is_over:
            d.apply(bots[d.to_move].choose(d, d.to_move))
        played += d.result != "redeal"
        assert d.faults == []
    assert played > 10

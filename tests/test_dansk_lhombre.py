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
from tests.referee_helpers import all_tricks_result, run

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
    "kobe-nolo": (3, 2, -2, -3),  # "(Købe-) Nolo | 3 | 2 | -2 | -3"
    "ren-nolo": (6, 4, -4, -5),  # "Ren Nolo | 6 | 4 | -4 | -5"
    "nolo-ouvert": (7, 6, -6, -7),  # "Nolo Ouvert | 7 | 6 | -6 | -7"
}
NOLOS = ("kobe-nolo", "ren-nolo", "nolo-ouvert")


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


def test_the_bidding_goes_on_until_two_have_passed() -> None:
    # "Forhånden siger f.eks spil, men bliver overmeldt af mellemhåndens "bedre"-spil." (dlu-vok)
    d = deal()
    run(d, ["1 bid spil", "2 bid bedre-spil", "1 bid tourne", "2 bid tourne-respekt"])
    assert d.to_move == FORE  # overcalled, the forehand answers before the dealer speaks
    run(d, ["1 bid solo", "2 pass", "0 pass"])
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
    assert d.phase is Phase.RAISE and legal(d) == ["pass", "bid kobe-nolo", "bid tourne"]
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
    run(d, ["1 bid spil", "2 bid bedre-spil", "1 pass", "0 pass"])
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


# The nolos (issue 16): "Spiltype, hvor spilføreren skal undgå at få stik." (stilling-vok, Nolo)


def test_the_nolos_are_played_without_trumps_to_take_no_trick() -> None:
    for cid in NOLOS:
        contract = RULES.contracts[cid]
        assert contract.no_trumps and contract.no_tricks
    assert RULES.contracts["nolo-ouvert"].open is not None
    assert RULES.contracts["kobe-nolo"].exchange == "declarer-first"  # "købe": he buys
    # "Þegar hrein-nóló er sögð, mega hvorki sagnhafi né mótherjar kaupa spil úr stokknum." and,
    # of the nolo ouvert, "Enginn spilamanna má kaupa úr stokknum." (mulathing, p. 195)
    assert RULES.contracts["ren-nolo"].exchange == "none"
    assert RULES.contracts["nolo-ouvert"].exchange == "none"


def test_in_a_nolo_the_black_aces_are_the_lowest_of_their_suits() -> None:
    # "De “mindste” kort i en farve. Normalt de sorte esser og de røde 7’ere i et nolo-spil."
    # (dlu-vok, Bundkort)
    from engine.cards import Card
    from engine.referee.tricks import TrickRules
    from engine.rules.model import NO_TRUMPS

    nt = TrickRules.of(RULES, RULES.tables(), NO_TRUMPS)
    strength = RULES.tables().strength[NO_TRUMPS]

    def lowest(cards: str) -> str:
        return min(cards.split(), key=lambda t: strength[Card.parse(t).index])

    assert lowest("As 2s 7s Ks") == "As"
    assert lowest("Ac 2c Jc") == "Ac"
    assert lowest("7h Ah 2h Kh") == "7h"
    assert lowest("7d 6d Ad") == "7d"
    # Spadille is a plain spade: it follows spades, not hearts.
    led = [Card.parse("Kh").index]
    hand = 1 << Card.parse("As").index | 1 << Card.parse("2h").index
    assert nt.legal(hand, led) == 1 << Card.parse("2h").index


def test_kobe_nolo_is_bid_as_spil_and_ranks_with_tourne() -> None:
    # "Spilleren må selv afgøre, om han vil spille i en bestemt farve, tournere eller spille
    # købe nolo." (dlu, Spil)
    d = deal()
    run(d, ["1 bid spil", "2 pass", "0 pass", "1 bid kobe-nolo"])
    assert d.contract is not None and d.contract.id == "kobe-nolo" and d.faults == []
    assert d.phase is Phase.EXCHANGE and d.no_trumps  # no trumps to name: he buys
    why = d.exchange_why()
    assert why is not None and why.least == 1  # "skal købe mindst èt kort"
    # "Meldes der købe nolo uden det er nødvendigt for overbud, kan der idømmes 1 strafpoint."
    d = deal()
    run(d, ["1 bid kobe-nolo"])
    assert d.faults == [(FORE, "named-without-need")]
    # "Rangerer med tourné, og forhånden får meldingen." (dlu, Købe Nolo)
    d = deal()
    run(d, ["1 bid spil", "2 bid tourne"])
    assert "bid kobe-nolo" in legal(d)  # the forehand may take it at the tourné's rank
    run(d, ["1 bid kobe-nolo"])
    assert d.faults == []  # needed: spil would not overcall a tourné
    with pytest.raises(IllegalActionError) as caught:
        d.apply("2 bid tourne")
    assert caught.value.code == "bid/equal-rank-later"
    d = deal()
    run(d, ["1 bid spil", "2 bid bedre-spil", "1 bid tourne"])
    with pytest.raises(IllegalActionError) as caught:
        d.apply("2 bid kobe-nolo")
    assert caught.value.code == "bid/equal-rank-later"


def test_ren_nolo_ranks_with_solo_spar_and_nolo_ouvert_above_all() -> None:
    d = deal()
    run(d, ["1 bid solo", "2 bid solo-spar"])
    assert "bid ren-nolo" in legal(d)  # the earlier hand holds at equal rank
    run(d, ["1 bid ren-nolo"])
    with pytest.raises(IllegalActionError) as caught:
        d.apply("2 bid solo-spar")
    assert caught.value.code == "bid/equal-rank-later"
    run(d, ["2 bid nolo-ouvert", "1 pass", "0 pass"])
    assert d.declarer == MIDDLE and d.contract is not None and d.contract.id == "nolo-ouvert"
    assert d.phase is Phase.PLAY and d.to_move == FORE  # no one buys; the forehand leads


@pytest.mark.parametrize(
    ("tricks", "result"),
    [
        ((0, 5, 4), "win"),
        ((1, 4, 4), "remise"),  # "1 stik i købenolo." (dlu-vok, Bet)
        ((2, 4, 3), "codille"),  # "2 stik eller flere i købenolo." (stilling-vok, Kruk)
        ((9, 0, 0), "codille"),
    ],
)
@pytest.mark.parametrize("cid", NOLOS)
def test_a_nolo_is_won_bet_or_kruk_by_the_tricks_taken(
    cid: str, tricks: tuple[int, int, int], result: str
) -> None:
    declarer, *opponents = tricks
    found = next(
        rule.result
        for rule in RULES.results
        if rule.when.holds(
            contract=cid,
            side_tricks=declarer,
            opponents=opponents,
            played=9,
            hand_size=9,
            vole_undertaken=False,
        )
    )
    assert found == result


@pytest.mark.parametrize(
    ("cid", "won"), [(c, row[1]) for c, row in TABLE.items() if c not in NOLOS]
)
def test_tout_scores_one_point_above_the_game_won(cid: str, won: int) -> None:
    # "Tout | 1 |" (dlu): all nine tricks, read as a point above the game won (conjecture).
    found = all_tricks_result(RULES, cid, vole=False)
    assert found == "tout"
    assert RULES.points[(cid, "tout")].declarer == won + 1


def test_a_nolo_settles_the_unions_points() -> None:
    for result, points in (("win", 6), ("remise", -6), ("codille", -7)):
        settled = settle(
            RULES,
            n=3,
            table=TableState(),
            stakes=[0, 0, 0],
            result=result,
            contract="nolo-ouvert",
            declarer=FORE,
            tricks=(4, 0, 5) if result == "win" else (4, 1, 4) if result == "remise" else (3, 3, 3),
            penalties=[],
        )
        assert settled.balances[FORE] == points
        assert settled.balances[MIDDLE] == settled.balances[BACK] == 0


def test_the_nolo_ouvert_hand_is_laid_open_after_the_first_lead() -> None:
    from engine.bots import make_bot

    d = deal(3)
    run(d, ["1 bid nolo-ouvert", "2 pass", "0 pass"])
    bots = [make_bot("heuristic", seed=s) for s in range(3)]
    while d.phase is not Phase.PLAY:
        d.apply(bots[d.to_move].choose(d, d.to_move))
    assert d.view(MIDDLE).declarer_hand is None  # not before the first card is led
    d.apply(bots[d.to_move].choose(d, d.to_move))
    assert d.view(MIDDLE).declarer_hand is not None


def test_bots_play_the_nolos_to_the_end() -> None:
    from engine.bots import make_bot

    bots = [make_bot("heuristic", seed=s) for s in range(3)]
    seen: set[str] = set()
    for seed in range(120):
        d = deal(seed)
        while not d.is_over:
            d.apply(bots[d.to_move].choose(d, d.to_move))
        if d.contract is not None:
            seen.add(d.contract.id)
        assert d.faults == []
    assert {"kobe-nolo", "ren-nolo"} <= seen


def test_the_danish_pages_name_the_bids_and_results_as_the_union_does() -> None:
    """The rule book and the page against the 1765 Ombre give the DLU's bids and results in
    Danish, glossed ("Bet", "Kruk": dlu-vok, stilling-vok), the nolos among the contracts."""
    from engine.documents.across import across
    from engine.documents.sources import load_library
    from engine.render import render

    assert RULES.outcomes["remise"].name is not None
    assert RULES.outcomes["remise"].name.startswith("Bet")
    assert RULES.outcomes["codille"].name is not None
    assert RULES.outcomes["codille"].name.startswith("Kruk")
    x = across(load_ruleset("ombre"), RULES, "A test.")
    rows = {row.aspect: row for row in x.rows}
    assert (
        "nolo-ouvert: no trumps, no tricks, open after-first-lead"
        in rows["without trumps, to take no trick, open"].b
    )
    assert [c.id for c in x.contracts_b][-1] == "nolo-ouvert"
    page = render(
        "across.j2", "md", ext="md", root="../", lib=load_library(), books=set(), x=x, title="T"
    )
    assert "`kobe-nolo` Købe nolo" in page
    assert "| `codille` | Kruk (lost by fewer tricks than an opponent" in page
    assert "| `tout` | Tout (all nine tricks) | the game is won |" in page


@pytest.mark.parametrize("cid", ["ren-nolo", "nolo-ouvert"])
def test_in_ren_nolo_and_nolo_ouvert_no_one_buys(cid: str) -> None:
    # "Þegar hrein-nóló er sögð, mega hvorki sagnhafi né mótherjar kaupa spil úr stokknum."
    # (mulathing, p. 195, Hrein-nóló); the nolo ouvert "spilast eins og hrein-nóló. Enginn
    # spilamanna má kaupa úr stokknum." (p. 195): play begins with the hands as dealt.
    d = deal(3)
    hands = [set(d.hand(seat)) for seat in range(3)]
    run(d, [f"1 bid {cid}", "2 pass", "0 pass"])
    assert d.declarer == FORE and d.contract is not None and d.contract.id == cid
    assert d.phase is Phase.PLAY and d.to_move == FORE
    assert [set(d.hand(seat)) for seat in range(3)] == hands
    assert not any(line.startswith(("1 exchange", "2 exchange", "0 exchange")) for line in legal(d))

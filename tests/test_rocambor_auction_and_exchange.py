"""The online Rocambor's auction that goes round, its raise after the auction, the volteo's duty
to take a card, the defenders' exchange and a defender's choice of exchanging first, played by
``variants/tresillo-rocambor.yaml`` itself (issue 16; docs/living-family.md §3.3).

Each test is built from the statements of one of the online table's rule tests
(``roc-online-code``: github.com/rickyghi/rocambor, server/tests/room.test.ts at b8f840d),
whose title it quotes. The table's seats are its ``auction.order`` (s0, s1, s2): here the
dealer, seat 0, rests, and speech goes 1, 2, 3. The table's bids are ours: entrada, oros =
``entrada-favor``, volteo = ``vuelta``, solo = ``sans-prendre``, solo oros = ``solo-favor``;
its "keep" in the raise is our ``pass``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import load_ruleset
from engine.cards import Card
from engine.referee import Deal, Phase
from engine.rules.loader import validate_paths
from tests.referee_helpers import run, tresillo

ROCAMBOR = load_ruleset("tresillo-rocambor")
S0, S1, S2 = 1, 2, 3


def deal_of(fixed: dict[int, str] | None = None, talon: str = "", rules: object = ROCAMBOR) -> Deal:
    return tresillo(rules, fixed or {}, talon)


def legal(d: Deal) -> list[str]:
    return [str(a) for a in d.legal_actions()]


def refused(d: Deal, line: str) -> str:
    seat, _, action = line.partition(" ")
    error = d.refusal(action, int(seat))
    assert error is not None, line
    return error.code


def standing(d: Deal) -> str | None:
    return d.holder_contract.id if d.holder_contract is not None else None


# Room - auction


def test_supports_ladder_overcalls_across_families() -> None:
    # "supports ladder overcalls across families": s0 entrada, s1 oros, s2 volteo, s0 solo,
    # s1 solo_oros, each becoming the current bid; s0 speaks again once overcalled.
    d = deal_of()
    for line, bid in [
        (f"{S0} bid entrada", "entrada"),
        (f"{S1} bid entrada-favor", "entrada-favor"),
        (f"{S2} bid vuelta", "vuelta"),
        (f"{S0} bid sans-prendre hearts", "sans-prendre"),
        (f"{S1} bid solo-favor", "solo-favor"),
    ]:
        run(d, [line])
        assert d.phase is Phase.AUCTION and standing(d) == bid
    assert d.holder == S1 and d.to_move == S2


def test_skips_passed_players_on_later_auction_turns() -> None:
    # "skips passed players on later auction turns": s0 entrada, s1 pass, s2 volteo; the
    # turn is s0's, and s1 is among the passed.
    d = deal_of()
    run(d, [f"{S0} bid entrada", f"{S1} pass", f"{S2} bid vuelta"])
    assert d.to_move == S0
    assert d.passed >> S1 & 1
    run(d, [f"{S0} bid sans-prendre hearts"])
    assert d.to_move == S2  # s1 is not asked again


def test_rejects_a_bid_from_a_player_who_already_passed() -> None:
    # "rejects a bid from a player who already passed": after s0 entrada, s1 pass, s2 volteo,
    # s1's solo is refused and the current bid stays the volteo ("Passed players cannot
    # re-enter the auction").
    d = deal_of()
    run(d, [f"{S0} bid entrada", f"{S1} pass", f"{S2} bid vuelta"])
    assert refused(d, f"{S1} bid sans-prendre hearts") == "bid/not-your-turn"
    assert standing(d) == "vuelta" and d.holder == S2
    # Nor is he asked when the others are done: the volteo is s2's once s0 passes.
    run(d, [f"{S0} pass"])
    assert d.phase is Phase.RAISE and d.to_move == S2 and standing(d) == "vuelta"


def test_single_bidder_wins_auction() -> None:
    # "single bidder wins auction": s0 entrada, s1 and s2 pass; s0 is the ombre with the
    # entrada, in the contract_upgrade phase; keeping it leads to the trump choice.
    d = deal_of()
    run(d, [f"{S0} bid entrada", f"{S1} pass", f"{S2} pass"])
    assert d.phase is Phase.RAISE and d.holder == S0 and d.to_move == S0
    assert standing(d) == "entrada"
    run(d, [f"{S0} pass"])
    assert d.phase is Phase.TRUMP and d.declarer == S0
    assert d.contract is not None and d.contract.id == "entrada"


def test_rejects_restricted_opening_bids_oros_solo_oros() -> None:
    # "rejects restricted opening bids (oros / solo_oros)": the first to speak may not open
    # with oros or solo oros; the current bid stays "pass" and the turn his ("Opening bids may
    # only be entrada, volteo, or solo.").
    d = deal_of()
    for contract in ("entrada-favor", "solo-favor"):
        assert refused(d, f"{S0} bid {contract}") == "bid/may-not-open"
        assert f"bid {contract}" not in legal(d)
    assert d.to_move == S0 and standing(d) is None
    assert {"bid entrada", "bid vuelta", "bid sans-prendre hearts"} <= set(legal(d))
    # Nor may a later hand open with them once the first has passed: no bid stands yet.
    run(d, [f"{S0} pass"])
    assert refused(d, f"{S1} bid entrada-favor") == "bid/may-not-open"


def test_oros_and_solo_oros_may_be_bid_over_any_bid_standing() -> None:
    # The table refuses them only while no bid stands ("const openingStage = a.currentBid ===
    # \"pass\";"): over a volteo the solo oros is a bid, though the solo would outrank it too
    # (a bid only to overcall, only_to_overcall, would refuse it there).
    d = deal_of()
    run(d, [f"{S0} bid vuelta"])
    assert "bid solo-favor" in legal(d) and "bid entrada-favor" not in legal(d)
    run(d, [f"{S1} bid solo-favor"])
    assert standing(d) == "solo-favor" and d.holder == S1
    assert d.faults == []


def test_the_bots_never_open_with_a_contract_that_may_not_open() -> None:
    from engine.bots import make_bot

    for bot in ("heuristic", "random"):
        players = [make_bot(bot, seed=s) for s in range(4)]
        for seed in range(60):
            d = Deal(ROCAMBOR, dealer=0, seed=seed)
            while d.phase is Phase.AUCTION and d.holder_contract is None and not d.is_over:
                action = players[d.to_move].choose(d, d.to_move)
                assert action.contract not in ("entrada-favor", "solo-favor"), (bot, seed)
                d.apply(action)


def test_the_rule_book_says_oros_may_not_open() -> None:
    from engine.documents.matrix import _kinds

    assert "entrada-favor: over-a-bid" in _kinds(ROCAMBOR)
    book = (Path(__file__).resolve().parent.parent / "docs/generated/books").joinpath(
        "tresillo-rocambor.md"
    )
    text = " ".join(book.read_text(encoding="utf-8").split())
    assert "it may not open the bidding: it is bid only over a bid standing" in text


def test_a_contract_that_may_not_open_needs_one_below_that_may(tmp_path: Path) -> None:
    path = tmp_path / "never.yaml"
    path.write_text(
        "id: never\nname: Never\nextends: tresillo\nsummary: A test file.\nauction:\n"
        "  contracts:\n    entrada:\n      biddable_when: over-a-bid\n"
        "      basis: {evidence: conjecture, note: a test}\n",
        "utf-8",
    )
    problems, _ = validate_paths([str(path)])
    assert [p.code for p in problems] == ["semantic/over-no-bid"]
    path.write_text(path.read_text("utf-8").replace("entrada:", "vuelta:"), "utf-8")
    assert validate_paths([str(path)])[0] == []


def test_the_raise_never_goes_to_a_contract_every_seat_plays(tmp_path: Path) -> None:
    # A contract offered to the seat that sits out has no declarer: no raise goes to it,
    # however high it ranks.
    path = tmp_path / "high-penetro.yaml"
    path.write_text(
        "id: high-penetro\nname: High\nextends: tresillo-rocambor\nsummary: A test file.\n"
        "auction:\n  contracts:\n    penetro:\n      rank: 50\n"
        "      basis: {evidence: conjecture, note: a test}\n",
        "utf-8",
    )
    d = deal_of(rules=load_ruleset(path))
    run(d, [f"{S0} bid entrada", f"{S1} pass", f"{S2} pass"])
    assert d.phase is Phase.RAISE
    assert "bid penetro" not in legal(d) and "bid contrabola" in legal(d)
    assert refused(d, f"{S0} bid penetro") == "raise/not-allowed"


# Room - contract_upgrade phase


def won_entrada() -> Deal:
    d = deal_of()
    run(d, [f"{S0} bid entrada", f"{S1} pass", f"{S2} pass"])
    return d


def test_upgrades_entrada_to_oros_and_sets_trump_automatically() -> None:
    # "upgrades entrada to oros and sets trump automatically": the contract becomes oros and
    # its trump is oros (the only trump the entrada-favor may name).
    d = won_entrada()
    assert "bid entrada-favor" in legal(d)
    run(d, [f"{S0} bid entrada-favor"])
    assert d.contract is not None and d.contract.id == "entrada-favor"
    assert legal(d) == ["trump diamonds"]
    run(d, [f"{S0} trump diamonds"])
    assert d.phase is Phase.EXCHANGE and d.to_move == S0
    assert d.report()["won_with"] == "entrada"


def test_upgrades_entrada_to_solo_and_enters_trump_choice() -> None:
    # "upgrades entrada to solo and enters trump_choice": the contract becomes solo, and the
    # winner names trumps.
    d = won_entrada()
    run(d, [f"{S0} bid sans-prendre"])
    assert d.contract is not None and d.contract.id == "sans-prendre"
    assert d.phase is Phase.TRUMP and d.to_move == S0
    assert set(legal(d)) == {"trump spades", "trump hearts", "trump clubs"}


def test_rejects_downgrade_same_or_lower_bid() -> None:
    # "rejects downgrade (same or lower bid)": s0 entrada, s1 oros, s2 and s0 pass; the ombre
    # (s1) may not "upgrade" to entrada, nor to oros itself ("Must upgrade to a higher bid").
    d = deal_of()
    run(d, [f"{S0} bid entrada", f"{S1} bid entrada-favor", f"{S2} pass", f"{S0} pass"])
    assert d.phase is Phase.RAISE and d.to_move == S1 and standing(d) == "entrada-favor"
    assert refused(d, f"{S1} bid entrada") == "raise/not-allowed"
    assert refused(d, f"{S1} bid entrada-favor") == "raise/not-allowed"
    assert d.phase is Phase.RAISE and d.contract is None
    # What he may do: keep it, or any higher contract, the contrabola among them ("Available
    # upgrades: ranked bids + contrabola that are higher than current").
    assert legal(d) == [
        "pass",
        "bid vuelta",
        "bid sans-prendre",
        "bid solo-favor",
        "bid bola",
        "bid contrabola",
    ]


def test_rejects_upgrade_from_non_ombre_seat() -> None:
    # "rejects upgrade from non-ombre seat": after s0 wins with the entrada, s1's oros is
    # refused; the phase and the contract are unchanged.
    d = won_entrada()
    assert refused(d, f"{S1} bid entrada-favor") == "bid/not-your-turn"
    assert d.phase is Phase.RAISE and standing(d) == "entrada" and d.to_move == S0


# Room - exchange


def test_volteo_reveals_the_top_talon_card_and_requires_ombre_to_discard_at_least_one() -> None:
    # "volteo reveals the top talon card and requires ombre to discard at least one": the
    # talon's top card (the five of bastos) fixes trumps; an exchange of no card is refused.
    d = deal_of(talon="5c 6h 7h")
    run(d, [f"{S0} bid vuelta", f"{S1} pass", f"{S2} pass", f"{S0} pass"])
    assert d.contract is not None and d.contract.id == "vuelta"
    assert legal(d) == ["trump clubs"]
    run(d, [f"{S0} trump clubs"])
    assert d.phase is Phase.EXCHANGE and d.to_move == S0
    assert d.view(S1).turned == Card.parse("5c") == d.view(S2).turned
    assert refused(d, f"{S0} discard") == "discard/must-buy"
    why = d.exchange_why()
    assert why is not None and why.least == 1 and why.turned_counts and why.most == 8
    assert "discard" not in legal(d)
    card = d.hand(S0)[0]
    run(d, [f"{S0} discard {card}"])
    assert Card.parse("5c") in d.hand(S0) and len(d.hand(S0)) == 9
    assert d.to_move == S1 and "discard" in legal(d)  # the defenders need not take a card


def test_the_ombre_takes_at_most_eight_or_six_in_oros() -> None:
    # roc-online: "Entrada / Volteo: Ombre up to 8 cards ...", "Oros: Ombre up to 6 cards".
    for contract, most in (("entrada", 8), ("entrada-favor", 6)):
        d = won_entrada()
        run(d, [f"{S0} {'pass' if contract == 'entrada' else 'bid ' + contract}"])
        run(d, [f"{S0} {legal(d)[0]}"])
        why = d.exchange_why()
        assert why is not None and why.most == most, contract
        nine = " ".join(str(c) for c in d.hand(S0))
        assert refused(d, f"{S0} discard {nine}") == "discard/too-many"


def at_the_defenders(rules: object = ROCAMBOR, discards: int = 6) -> Deal:
    """s0 wins an entrada in hearts and exchanges ``discards`` cards (the talon of 13 then
    holds 13 - discards)."""
    d = deal_of(rules=rules)
    run(d, [f"{S0} bid entrada", f"{S1} pass", f"{S2} pass"])
    if d.phase is Phase.RAISE:
        run(d, [f"{S0} pass"])
    run(d, [f"{S0} trump hearts"])
    cards = " ".join(str(c) for c in d.hand(S0)[:discards])
    run(d, [f"{S0} discard {cards}".rstrip()])
    assert d.phase is Phase.EXCHANGE and d.to_move == S1
    return d


def test_non_ombre_can_exchange_up_to_talon_availability_not_capped_at_5() -> None:
    # "non-ombre can exchange up to talon availability (not capped at 5)": with seven cards
    # left in the talon the first defender exchanges seven, and the talon is empty.
    d = at_the_defenders()
    assert len(d.talon) - d.talon_pos == 7
    why = d.exchange_why()
    assert why is not None and why.most == 7 and why.leave == 0
    seven = " ".join(str(c) for c in d.hand(S1)[:7])
    run(d, [f"{S1} discard {seven}"])
    assert len(d.hand(S1)) == 9 and d.talon_pos == len(d.talon)
    # Tresillo's middle player must leave five for the last (unless he holds a matador).
    old = at_the_defenders(load_ruleset("tresillo"))
    why = old.exchange_why()
    assert why is not None and why.leave == 5


def test_a_defender_against_a_solo_may_take_his_whole_hand() -> None:
    # roc-online: "Solo / Solo Oros: Ombre exchanges 0, defenders up to their hand size or
    # the remaining talon": no cap of eight on the first to exchange.
    d = deal_of()
    run(d, [f"{S0} bid sans-prendre spades", f"{S1} pass", f"{S2} pass", f"{S0} pass"])
    assert d.phase is Phase.EXCHANGE and d.to_move == S1
    why = d.exchange_why()
    assert why is not None and why.most == 9 and why.first_max is None
    assert "defer" not in legal(d)  # nobody defers under a solo


def test_first_defender_can_defer_and_let_second_defender_exchange_first() -> None:
    # "first defender can defer and let second defender exchange first": after the ombre,
    # s1 defers, s2 exchanges, then s1.
    d = at_the_defenders(discards=0)
    assert legal(d)[0] == "defer"
    run(d, [f"{S1} defer"])
    assert d.to_move == S2 and "defer" not in legal(d)
    run(d, [f"{S2} discard"])
    assert d.to_move == S1 and "defer" not in legal(d)
    run(d, [f"{S1} discard"])
    assert d.phase is Phase.PLAY


def test_nobody_exchanges_in_the_bola() -> None:
    # roc-online: "Bola: nobody exchanges".
    d = deal_of()
    run(d, [f"{S0} bid bola", f"{S1} pass", f"{S2} pass"])
    if d.phase is Phase.RAISE:
        run(d, [f"{S0} pass"])
    assert d.phase is Phase.PLAY


@pytest.mark.parametrize("bot", ["heuristic", "random"])
def test_bots_play_the_rocambor_auction_raise_and_exchange(bot: str) -> None:
    from engine.bots import make_bot

    players = [make_bot(bot, seed=s) for s in range(4)]
    seen: set[str] = set()
    for seed in range(80):
        d = Deal(ROCAMBOR, dealer=seed % 4, seed=seed)
        for _ in range(400):
            if d.is_over:
                break
            action = players[d.to_move].choose(d, d.to_move)
            assert d.refusal(action, d.to_move) is None
            seen.add(f"{d.phase}:{action.verb}")
            d.apply(action)
        assert d.is_over
    assert "raise:bid" in seen, seen


# The terminal table.


def test_the_terminal_table_refuses_an_opening_oros_and_offers_the_raise() -> None:
    from typer.testing import CliRunner

    from engine.cli import app

    # Seed 33: seat 1, the human, speaks first; he tries to open with oros, bids entrada, the
    # bots pass, and he is asked what he plays.
    out = (
        CliRunner()
        .invoke(
            app,
            ["play", "tresillo-rocambor", "--seed", "33", "--seat", "1", "--deals", "1"],
            input="bid entrada-favor\nbid entrada\npass\n",
        )
        .output
    )
    flat = " ".join(out.split())
    opening = flat.split("Your speech: pass, or bid a contract:", 1)[1].split(">", 1)[0]
    assert "bid entrada: " in opening and "entrada-favor" not in opening
    assert "solo-favor" not in opening and "contrabola" not in opening
    assert "Refused: entrada-favor may not open the auction" in flat
    assert "(roc-online-code, server/src/room.ts, applyBid) [bid/may-not-open]" in flat
    assert "You won the auction with Entrada (play with an exchange) [entrada]: pass" in flat
    raise_list = flat.split("You won the auction with", 1)[1]
    assert "2) bid entrada-favor: play Entrada in the palo de favor" in raise_list
    assert "bid contrabola: play Contrabola" in raise_list
    assert "You play the contract won." in flat


def test_the_terminal_table_lets_a_human_defender_defer() -> None:
    from engine.table import TableGame

    for seed in range(1, 30):
        game = TableGame(ROCAMBOR, human=2, seed=seed)  # type: ignore[arg-type]
        out: list[str] = []
        state = {"seen": 0, "offered": False}

        def read(
            prompt: str, game: TableGame = game, out: list[str] = out, state: dict = state
        ) -> str | None:
            # Pass in the auction; defer when offered; leave any other deal (end of input) at
            # the first answer refused. The screen folds long lines, so everything printed
            # since the previous answer is read as one text; the length bound only guards the
            # test against a table that would ask for ever.
            since = " ".join(" ".join(out[state["seen"] :]).split())
            state["seen"] = len(out)
            if "let the other defender exchange first" in since and not state["offered"]:
                state["offered"] = True
                return "defer"
            if game.played[-1].is_over or "Not understood" in since or len(out) > 5000:
                return None
            return "1"

        game.run(read, out.append)
        if state["offered"]:
            break
    else:
        raise AssertionError("the human was never offered the defer")
    text = " ".join(" ".join(out).split())
    after = text.split("You let the other defender exchange first.", 1)[1]
    # The other defender exchanged, and the human was asked again, from what the talon held then.
    assert after.split(".", 1)[0].startswith(" Seat ") and "discards" in after.split("Your", 1)[0]
    assert (
        "Your écart: discard up to" in after and "'defer'" not in after.split("Not understood")[0]
    )


def test_the_scorekeeper_takes_a_deal_passed_out_with_the_espada_in_the_talon() -> None:
    # "If the Spadille is in the talon, the deal passes." (roc-online): a passed deal is no
    # refusal where the forced card may lie in the talon (the scorekeeper does not see it).
    from engine.scoresheet import Entry, Evening

    for name in ("tresillo-espada-obligatoria", "tresillo-rocambor"):
        evening = Evening(load_ruleset(name))
        scored = evening.score(Entry(dealer=0, passed=True))
        assert scored.result == "redeal", name

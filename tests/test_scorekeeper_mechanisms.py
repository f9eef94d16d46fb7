"""The scorekeeper and the living family's mechanisms (issue 16): the penetro's winner, a
defender's vole, the seat that sits out, contracts reserved to one seat, a deal passed out
under a forced all-pass, the Rocambor race to 12 and the Danish tournament contracts. Each is
settled by the referee's own answers (``tied_for_most``, ``top_taker_by``,
``defender_may_go_on``, ``seating_for``, ``reserved_to``, ``may_pass_out``)."""

from __future__ import annotations

import dataclasses

import pytest

from engine import load_ruleset
from engine.errors import IllegalActionError, NotationError
from engine.scoresheet import Entry, Evening, parse_entry, read_evening, write_evening

ROCAMBOR = load_ruleset("tresillo-rocambor")


def refusal(evening: Evening, entry: Entry) -> IllegalActionError:
    with pytest.raises(IllegalActionError) as caught:
        evening.score(entry)
    return caught.value


# The penetro: every seat for himself, the most tricks score (roc-online "Penetro | Trick
# leader (most tricks) +2"), of seats tied the one that won the latest trick.


def test_the_penetros_most_tricks_score_its_tariff() -> None:
    # Dealt by seat 0, who sits out and takes the penetro up: all four play. (The scorekeeper
    # once settled it with nobody scoring: balances 0, 0, 0, 0.)
    scored = Evening(ROCAMBOR).score(
        Entry(dealer=0, contract="penetro", declarer=0, tricks=(1, 4, 2, 2))
    )
    assert scored.result == "penetro"
    assert scored.top_taker == 1
    assert scored.settlement.balances == (0, 2, 0, 0)
    assert scored.as_json()["top_taker"] == 1


def test_a_tie_for_the_penetro_asks_who_won_the_latest_trick() -> None:
    tie = Entry(dealer=0, contract="penetro", declarer=0, tricks=(3, 3, 2, 1))
    caught = refusal(Evening(ROCAMBOR), tie)
    assert caught.code == "score/tie"
    assert "seat 0, seat 1 tied for the most tricks (3)" in caught.detail
    assert refusal(Evening(ROCAMBOR), dataclasses.replace(tie, latest_of_tied=2)).code == (
        "score/tie"
    )
    scored = Evening(ROCAMBOR).score(dataclasses.replace(tie, latest_of_tied=0))
    assert scored.settlement.balances == (2, 0, 0, 0)


def test_who_won_the_latest_trick_is_refused_where_nobody_tied() -> None:
    clear = Entry(dealer=0, contract="penetro", declarer=0, tricks=(1, 4, 2, 2), latest_of_tied=2)
    assert refusal(Evening(ROCAMBOR), clear).code == "score/no-tie"
    side = Entry(
        dealer=0,
        contract="entrada",
        declarer=1,
        trump="spades",
        tricks=(0, 5, 2, 2),
        latest_of_tied=1,
    )
    assert refusal(Evening(ROCAMBOR), side).code == "score/no-tie"


def test_the_penetro_is_played_only_by_the_seat_that_sat_out() -> None:
    caught = refusal(
        Evening(ROCAMBOR), Entry(dealer=0, contract="penetro", declarer=2, tricks=(1, 4, 2, 2))
    )
    assert caught.code == "score/reserved"
    assert "the seat that sits the deal out: seat 0" in caught.detail


def test_a_contrabola_raised_to_by_the_auctions_winner_is_entered() -> None:
    # Dealt by seat 0 (who sits out), seat 1 is the eldest and seat 3 speaks last. The bid is
    # reserved to seat 3 when the others have passed, but the auction's winner may raise to it
    # (the peer's upgradeContract takes any higher bid), so seat 1 may have played it: the
    # scorekeeper, who sees no auction, takes it (before, it refused what the referee allows).
    from engine.referee.auction import reserved_to

    contrabola = ROCAMBOR.contracts["contrabola"]
    assert reserved_to(ROCAMBOR, 0, contrabola) is None
    scored = Evening(ROCAMBOR).score(
        Entry(dealer=0, contract="contrabola", declarer=1, tricks=(0, 0, 4, 5))
    )
    assert scored.result == "contrabola"


# The seat that sits the deal out (Tresillo's dealer, at a table of four) is dealt nothing.


@pytest.mark.parametrize("rid", ["tresillo", "tresillo-rocambor"])
def test_the_seat_that_sits_out_declares_and_wins_nothing(rid: str) -> None:
    rules = load_ruleset(rid)
    entrada = Entry(dealer=0, contract="entrada", declarer=1, trump="spades", tricks=(0, 5, 2, 2))
    assert Evening(rules).score(entrada).result == "win"
    for wrong in (
        dataclasses.replace(entrada, tricks=(3, 2, 2, 2)),  # once settled as a remise
        dataclasses.replace(entrada, declarer=0, tricks=(0, 5, 2, 2)),
    ):
        caught = refusal(Evening(rules), wrong)
        assert caught.code == "score/sits-out"
        assert "seat 0 sits out a deal dealt by seat 0" in caught.detail


# A defender's vole (vole.by: any-seat): "implied bola is not restricted to ombre".


def test_a_defender_who_went_on_for_the_vole_is_scored_as_its_declarer() -> None:
    # As the referee's deal in tests/test_defender_vole.py: seat 2 took all nine, 6 to him.
    entry = parse_entry(
        {
            "contract": "entrada",
            "declarer": 1,
            "trump": "spades",
            "tricks": [0, 0, 9, 0],
            "vole": True,
            "vole_by": 2,
        },
        dealer=0,
        n=4,
    )
    scored = Evening(ROCAMBOR).score(entry)
    assert scored.result == "vole" and scored.side == (2,) and scored.declarer == 2
    assert scored.settlement.balances == (0, 0, 6, 0)
    assert scored.as_json()["vole_by"] == 2
    assert scored.as_json()["partners"] == []  # the vole-taker is nobody's partner
    failed = Evening(ROCAMBOR).score(dataclasses.replace(entry, tricks=(0, 1, 8, 0)))
    assert failed.result == "vole-failed"


def test_a_defender_who_lays_down_after_five_gives_the_declarer_codille() -> None:
    scored = Evening(ROCAMBOR).score(
        Entry(dealer=0, contract="entrada", declarer=1, trump="spades", tricks=(0, 0, 5, 0))
    )
    assert scored.result == "codille"
    assert scored.settlement.balances == (0, 0, 2, 0)


def test_a_defenders_vole_is_refused_where_only_the_side_goes_on() -> None:
    entry = Entry(
        dealer=0,
        contract="entrada",
        declarer=1,
        trump="spades",
        tricks=(0, 0, 9, 0),
        vole=True,
        vole_by=2,
    )
    caught = refusal(Evening(load_ruleset("tresillo-espada-obligatoria")), entry)
    assert caught.code == "score/vole-by-defender" and "vole.by: side" in caught.detail
    short = Entry(dealer=0, contract="entrada", declarer=1, trump="spades", tricks=(0, 0, 5, 0))
    assert refusal(Evening(load_ruleset("tresillo")), short).code == "score/tricks"
    own = dataclasses.replace(entry, vole_by=1, tricks=(0, 9, 0, 0))
    assert refusal(Evening(ROCAMBOR), own).code == "score/vole-by-defender"
    early = dataclasses.replace(entry, tricks=(0, 5, 4, 0))
    caught = refusal(Evening(ROCAMBOR), early)
    assert caught.code == "score/vole-too-early" and "seat 2, the defender" in caught.detail
    penetro = Entry(
        dealer=0, contract="penetro", declarer=0, tricks=(0, 9, 0, 0), vole=True, vole_by=1
    )
    assert refusal(Evening(ROCAMBOR), penetro).code == "score/vole-by-defender"


def test_vole_by_needs_the_vole() -> None:
    with pytest.raises(NotationError, match="write vole: true too"):
        parse_entry(
            {
                "contract": "entrada",
                "declarer": 1,
                "trump": "spades",
                "tricks": [0, 0, 9, 0],
                "vole_by": 2,
            },
            dealer=0,
            n=4,
        )


def test_the_new_fields_are_saved_and_read_back() -> None:
    evening = Evening(ROCAMBOR)
    evening.score(
        Entry(dealer=0, contract="penetro", declarer=0, tricks=(3, 3, 2, 1), latest_of_tied=1)
    )
    evening.score(
        Entry(
            dealer=1,
            contract="entrada",
            declarer=2,
            trump="clubs",
            tricks=(9, 0, 0, 0),
            vole=True,
            vole_by=0,
        )
    )
    text = write_evening(evening)
    assert "latest_of_tied: 1" in text and "vole_by: 0" in text
    again = read_evening(text, "evening.yaml", load_ruleset)
    assert again.totals == evening.totals == [6, 2, 0, 0]


# A deal passed out under a forced all-pass: only when the forcing card can lie in the talon.


def test_passed_is_taken_where_the_forcing_card_may_lie_in_the_talon() -> None:
    # Ombre with the spadille forcé, 13 cards in the talon: when the spadille lies there and
    # all pass, nobody is forced and the deal is dealt again (it was refused).
    scored = Evening(load_ruleset("ombre-spadille-force")).score(Entry(dealer=0, passed=True))
    assert scored.result == "redeal"
    # Rocambor: the espada in the talon, the penetro declined.
    assert Evening(ROCAMBOR).score(Entry(dealer=0, passed=True)).result == "redeal"
    # Quadrille deals every card: the spadille's holder must play.
    caught = refusal(Evening(load_ruleset("quadrille")), Entry(dealer=0, passed=True))
    assert caught.code == "score/all-pass-forced"


# The Rocambor race to 12 and the Danish tournament contracts.


def test_the_race_to_twelve_ends_the_evening() -> None:
    evening = Evening(ROCAMBOR)
    dealer = 0
    while not evening.over:
        declarer = (dealer + 1) % 4
        tricks = [0, 0, 0, 0]
        tricks[declarer] = 9
        evening.score(
            Entry(dealer=dealer, contract="bola", declarer=declarer, tricks=tuple(tricks))
        )
        dealer = evening.next_dealer
    assert max(evening.totals) >= 12
    assert evening.as_json()["party"]["over"] is True
    caught = refusal(evening, Entry(dealer=evening.next_dealer, passed=True))
    assert caught.code == "score/party-over" and "12" in caught.detail


def test_the_danish_contracts_are_entered() -> None:
    rules = load_ruleset("dansk-lhombre")
    evening = Evening(rules)
    nolo = evening.score(Entry(dealer=0, contract="nolo-ouvert", declarer=1, tricks=(5, 0, 4)))
    assert nolo.result == "win"
    tout = evening.score(
        Entry(dealer=1, contract="solo", declarer=2, trump="hearts", tricks=(0, 0, 9))
    )
    assert tout.result == "tout"
    kruk = evening.score(
        Entry(
            dealer=2,
            contract="spil",
            declarer=0,
            trump="clubs",
            tricks=(3, 4, 2),
            penalties=((1, "naming-suit"),),
        )
    )
    assert kruk.result == "codille"
    assert any(p.kind == "penalty" for p in kruk.settlement.payments)
    trumps = Entry(dealer=0, contract="ren-nolo", declarer=1, trump="spades", tricks=(5, 0, 4))
    assert refusal(Evening(rules), trumps).code == "score/trump-not-allowed"


# At the terminal (scripted input): the questions follow the contract named.


def run_terminal(ruleset: str, answers: list[str]) -> tuple[Evening, list[str], list[str]]:
    from engine.scoreterm import run_score

    evening = Evening(load_ruleset(ruleset))
    prompts: list[str] = []
    said: list[str] = []
    lines = iter(answers)

    def read(prompt: str) -> str | None:
        prompts.append(prompt)
        return next(lines, None)

    run_score(evening, None, read, said.append)
    return evening, prompts, said


def test_a_contract_without_trumps_is_entered_at_the_terminal() -> None:
    # The contrabola: no trumps and no matadors asked (the empty answer to "trumps" was once
    # read as a suit, "Not understood", and no contract without trumps could be entered).
    evening, prompts, said = run_terminal("tresillo-rocambor", ["contrabola", "3", "", "0 4 5 0"])
    assert [d.result for d in evening.deals] == ["contrabola"]
    assert not any(p.startswith(("trumps", "matadors", "vole")) for p in prompts)
    assert any("no trumps" in line for line in said)
    danish, asked, _ = run_terminal("dansk-lhombre", ["ren-nolo", "1", "5 0 4", ""])
    assert [d.result for d in danish.deals] == ["win"]
    # A game in points without matadors, calls or the vole asks for none of them.
    assert not any(p.startswith(("trumps", "card called", "matadors", "vole")) for p in asked)


def test_a_penetro_tie_is_asked_at_the_terminal() -> None:
    evening, prompts, said = run_terminal(
        "tresillo-rocambor", ["penetro", "0", "", "3 3 2 1", "7", "1"]
    )
    assert any(p.startswith("seat 0, seat 1 tied for the most tricks") for p in prompts)
    assert any("a seat from 0 to 3" in line for line in said)  # "7" asked again
    assert evening.totals == [0, 2, 0, 0]
    assert any("seat 1 took the most tricks (of those tied" in line for line in said)


def test_a_defenders_vole_is_asked_at_the_terminal() -> None:
    evening, prompts, said = run_terminal(
        "tresillo-rocambor",
        [
            # contract, declarer, trumps, tricks, vole, the defender who went on (an entrada
            # calls no card and Rocambor pays no matador: neither is asked)
            "entrada",
            "1",
            "spades",
            "0 0 9 0",
            "y",
            "2",
            "entrada",
            "2",
            "clubs",
            "0 0 9 0",
            "y",
            "2",
        ],
    )
    assert any(p.startswith("went on for the vole: a defender") for p in prompts)
    assert [d.entry.vole_by for d in evening.deals] == [2]
    assert evening.totals == [0, 0, 6, 0]
    # Seat 2 declared the second deal: refused, located, with its code.
    assert any("Refused:" in line and "score/vole-by-defender" in line for line in said)
    _, prompts, _ = run_terminal("tresillo", ["entrada", "1", "spades", "", "0 9 0 0", "", "y"])
    assert not any(p.startswith("went on for the vole") for p in prompts)


def test_the_terminal_says_when_the_race_to_twelve_is_over() -> None:
    evening, _, said = run_terminal(
        "tresillo-rocambor",
        ["bola", "2", "", "0 0 9 0", "bola", "2", "", "0 0 9 0", "passed"],
    )
    assert evening.totals == [0, 0, 12, 0] and evening.over
    assert any("The party is over: seat 2 reached 12." in line for line in said)
    assert any("score/party-over" in line for line in said)  # the next deal is refused


def test_the_contract_prompt_is_folded_to_the_tables_width() -> None:
    """The terminal scorekeeper's contract question (its choices and every law's entry) comes
    in lines of at most 92 columns, continued lines indented, and still ends in ': '."""
    from engine import load_ruleset
    from engine.render import environment

    ask = environment("text").get_template("cli/score.txt.j2").module.ask
    text = str(ask("contract", rules=load_ruleset("quadrille")))
    lines = text.splitlines()
    assert len(lines) > 1 and max(len(line) for line in lines) <= 92
    assert lines[0].startswith("contract (") and all(x.startswith("  ") for x in lines[1:])
    assert text.endswith("'quit'): ")
    assert str(ask("declarer")) == "declarer (seat): "


def test_the_tricks_question_names_the_players_in_their_order() -> None:
    """Where the players are named, the terminal asks for their tricks by name, in the order
    the answer is read; unnamed seats are asked seat 0 first."""
    from engine import load_ruleset
    from engine.render import environment

    ask = environment("text").get_template("cli/score.txt.j2").module.ask
    named = Evening(load_ruleset("quadrille"), players=("Ann", "Bob", "Cy", "Di"))
    text = str(ask("tricks", n=4, evening=named))
    assert text == "tricks of each seat: Ann, Bob, Cy, Di, in that order (4 numbers): "
    unnamed = Evening(load_ruleset("quadrille"))
    assert str(ask("tricks", n=4, evening=unnamed)).startswith("tricks of each seat, seat 0 first")

"""A contract every seat plays, offered to the seat that sits out when all pass (issue 16,
mechanism 9: the penetro), built from the modern sources that play it, in
``variants/tresillo-rocambor.yaml``:

- the online Rocambor's rules page: "Penetro: When no active player holds the Spadille (it is
  in the talon) and all pass, a special forced game occurs." and "Penetro | Trick leader (most
  tricks) +2" (``roc-online``);
- its code and tests (``roc-online-code``): "starts penetro when resting player accepts",
  "decline in penetro_choice causes redeal", "rejects penetro decision from non-resting
  player", "quadrille all-pass with active spadille holder does not start penetro", "const can
  = Math.min(9, this.talon.length);", 'const needed = this.state.contract === "penetro" ? 4 :
  3;', "breaks penetro ties by latest winning trick".

The format: ``biddable_when: out-after-all-pass`` and ``all_play: {draw: 9, ties:
latest-trick}`` on the contract, and the tariff's role ``most_tricks``.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from engine import load_ruleset
from engine.bots.heuristic import HeuristicBot
from engine.errors import IllegalActionError, RuleFileError
from engine.referee import Deal, Phase
from engine.referee.result import top_taker
from engine.referee.settlement import TableState, settle
from tests.referee_helpers import run

ROCAMBOR = load_ruleset("tresillo-rocambor")
ALL_PASS = ["1 pass", "2 pass", "3 pass"]


def deal_of(fixed: dict[int, str], talon: str = "", rules: object = ROCAMBOR) -> Deal:
    """A Tresillo deal (the dealer, seat 0, sits out) with the cards given."""
    from tests.referee_helpers import tresillo

    return tresillo(rules, fixed, talon)


def offered() -> Deal:
    """All three who play pass, the espada lying in the talon: the penetro is offered."""
    return run(deal_of({}, talon="As"), ALL_PASS)


def test_all_pass_with_the_espada_in_the_talon_offers_the_penetro_to_the_resting_seat() -> None:
    # "When no active player holds the Spadille (it is in the talon) and all pass"; the
    # table's "enters penetro_choice in quadrille pass-out when espada obligatoria is off".
    deal = offered()
    assert deal.phase is Phase.AUCTION and not deal.is_over
    assert deal.to_move == deal.out == 0  # "expect(room.state.turn).toBe(room.restSeat())"
    assert [str(a) for a in deal.legal_actions()] == ["pass", "bid penetro"]


def test_the_espada_held_forces_the_entrada_and_offers_no_penetro() -> None:
    # "quadrille all-pass with active spadille holder does not start penetro"
    deal = run(deal_of({2: "As 3h 4h 5h 6h 3d 4d 5d 6d"}), ALL_PASS)
    assert deal.declarer == 2 and deal.contract is not None and deal.contract.id == "entrada"
    assert deal.phase is Phase.TRUMP


def test_the_resting_seat_that_accepts_takes_nine_cards_and_all_four_play() -> None:
    # "starts penetro when resting player accepts": contract penetro, phase play, the resting
    # seat its "ombre"; "Math.min(9, this.talon.length)" cards from the top of the talon.
    deal = offered()
    talon = list(deal.talon)
    run(deal, ["0 bid penetro"])
    assert deal.contract is not None and deal.contract.id == "penetro"
    assert deal.declarer == 0 and deal.phase is Phase.PLAY
    assert deal.out is None and deal.active == 4
    assert deal.hands[0] == sum(1 << c for c in talon[:9])
    assert deal.talon_pos == 9
    assert deal.trump is not None and deal.trick == [] and deal.to_move == deal.eldest == 1
    # Nobody exchanges, no trump is named ("this.state.trump = null;").
    assert deal.view(1).no_trumps is True
    # A trick takes a card from each of the four ("penetro" ? 4 : 3), in turn to the right.
    order = []
    for _ in range(4):
        order.append(deal.to_move)
        deal.apply(deal.legal_actions()[0])
    assert order == [1, 2, 3, 0]
    assert len(deal.played_tricks) == 1 and deal.trick == []


def test_the_resting_seat_that_declines_passes_the_deal_out() -> None:
    # "decline in penetro_choice causes redeal"
    deal = run(offered(), ["0 pass"])
    assert deal.is_over and deal.result == "redeal" and deal.declarer is None
    assert deal.settlement is not None and deal.settlement.balances == (0, 0, 0, 0)


def test_only_the_resting_seat_may_take_up_the_penetro() -> None:
    # "rejects penetro decision from non-resting player"
    deal = deal_of({}, talon="As")
    run(deal, ["1 pass", "2 pass"])
    assert "bid penetro" not in [str(a) for a in deal.legal_actions()]
    with pytest.raises(IllegalActionError) as refused:
        run(deal, ["3 bid penetro"])
    assert refused.value.code == "bid/offered-to-out"
    deal = offered()
    with pytest.raises(IllegalActionError) as refused:
        run(deal, ["0 bid entrada"])
    assert refused.value.code == "bid/offered-to-out"
    with pytest.raises(IllegalActionError):
        run(deal, ["1 pass"])  # not his turn: the resting seat speaks


def test_the_drawn_cards_are_the_resting_seats_alone() -> None:
    deal = run(offered(), ["0 bid penetro"])
    own = deal.view(0).hand
    assert len(own) == 9
    for seat in (1, 2, 3):
        view = deal.view(seat)
        assert not set(view.hand) & set(own)
        assert view.declarer_hand is None


def _played_out(deal: Deal, seed: int) -> Deal:
    rng = random.Random(seed)
    while not deal.is_over:
        deal.apply(rng.choice(list(deal.legal_actions())))
    return deal


@pytest.mark.parametrize("seed", range(6))
def test_the_most_tricks_score_two_and_nobody_else_scores(seed: int) -> None:
    # "Penetro | Trick leader (most tricks) +2"
    deal = _played_out(run(offered(), ["0 bid penetro"]), seed)
    assert deal.result == "penetro" and sum(deal.won) == 9
    settlement = deal.settlement
    assert settlement is not None
    winner = top_taker(deal)
    assert winner is not None and deal.won[winner] == max(deal.won)
    assert settlement.balances == tuple(2 if s == winner else 0 for s in range(4))


def test_ties_go_to_the_latest_trick_won_among_the_tied() -> None:
    # "breaks penetro ties by latest winning trick": tricks 3, 3, 2, 1 and the winners in turn
    # 0 1 2 0 3 1 0 2 1: seat 1 won the latest trick of the two tied, and scores 2.
    deal = run(offered(), ["0 bid penetro"])
    winners = [0, 1, 2, 0, 3, 1, 0, 2, 1]
    deal.played_tricks = [(w, (), w) for w in winners]
    deal.won = [winners.count(s) for s in range(4)]
    assert deal.won == [3, 3, 2, 1]
    assert top_taker(deal) == 1
    result = settle(
        ROCAMBOR,
        n=4,
        table=TableState(0, ()),
        stakes=(0, 0, 0, 0),
        result="penetro",
        contract="penetro",
        declarer=0,
        tricks=deal.won,
        out=0,
        top_taker=1,
    )
    assert result.balances == (0, 2, 0, 0)


def test_the_heuristic_bot_takes_the_penetro_up_and_plays_it_for_himself() -> None:
    deal = offered()
    bot = HeuristicBot(0)
    action, why = bot.advise(deal, 0)
    assert str(action) == "bid penetro" and "nobody can lose" in why
    deal.apply(action)
    while not deal.is_over:
        deal.apply(bot.choose(deal, deal.to_move))
    assert deal.result == "penetro"


def test_tresillo_offers_no_penetro() -> None:
    deal = run(deal_of({}, talon="As", rules=load_ruleset("tresillo-espada-obligatoria")), ALL_PASS)
    assert deal.is_over and deal.result == "redeal"


def test_the_rule_book_and_the_matrix_say_it() -> None:
    from engine.documents.matrix import _kinds

    assert "out-after-all-pass" in _kinds(ROCAMBOR) and "all play" in _kinds(ROCAMBOR)
    # The books are checked current by test_generated_docs; the phrases are these.
    book = (Path(__file__).resolve().parent.parent / "docs/generated/books").joinpath(
        "tresillo-rocambor.md"
    )
    text = book.read_text(encoding="utf-8")
    assert "the seat that sits the deal out, who takes it up or passes" in text
    assert "the seat with the most tricks +2" in text


PENETRO = """\
id: {id}
name: a test of the penetro's checks
extends: tresillo-rocambor
summary: A test file.
auction:
  contracts:
    penetro:
{extra}
"""


def codes(tmp_path: Path, name: str, extra: str) -> set[str]:
    path = tmp_path / f"{name}.yaml"
    path.write_text(PENETRO.format(id=name, extra=extra), encoding="utf-8")
    try:
        load_ruleset(path)
    except RuleFileError as error:
        return {p.code for p in error.problems}
    return set()


@pytest.mark.parametrize(
    ("extra", "code"),
    [
        ("      all_play: {$delete: true}", "semantic/offered-not-all-play"),
        ("      biddable_when: always", "semantic/all-play-not-offered"),
        ("      all_play: {draw: 8, ties: latest-trick}", "semantic/all-play-draw"),
        ("      exchange: declarer-first", "semantic/all-play-conflict"),
        ("      vole_allowed: true", "semantic/all-play-conflict"),
    ],
)
def test_the_checks_refuse_a_penetro_that_cannot_be_played(
    tmp_path: Path, extra: str, code: str
) -> None:
    assert code in codes(tmp_path, "pen-" + code.rsplit("/", 1)[1], extra)


def test_a_penetro_needs_a_seat_out_and_points(tmp_path: Path) -> None:
    path = tmp_path / "pen-seat.yaml"
    path.write_text(
        PENETRO.format(id="pen-seat", extra="      rank: 1").replace(
            "auction:", "players:\n  sits_out: {$delete: true}\nauction:"
        ),
        encoding="utf-8",
    )
    with pytest.raises(RuleFileError) as error:
        load_ruleset(path)
    assert "semantic/no-seat-out" in {p.code for p in error.value.problems}


def test_most_tricks_is_only_for_a_contract_all_play(tmp_path: Path) -> None:
    path = tmp_path / "pen-most.yaml"
    path.write_text(
        PENETRO.format(id="pen-most", extra="      rank: 1")
        + "settlement:\n  points:\n    entrada:\n      win: {most_tricks: 1}\n",
        encoding="utf-8",
    )
    with pytest.raises(RuleFileError) as error:
        load_ruleset(path)
    assert "semantic/most-tricks-not-all-play" in {p.code for p in error.value.problems}


def test_without_the_espada_obligatoria_every_pass_out_offers_the_penetro(tmp_path: Path) -> None:
    # "with espada obligatoria off, pass-out does not force spadille holder": the resting seat
    # is offered the penetro though an active seat holds the espada.
    path = tmp_path / "rocambor-no-espada.yaml"
    path.write_text(
        "id: rocambor-no-espada\nname: a test\nextends: tresillo-rocambor\nsummary: A test.\n"
        "auction:\n  all_pass:\n    action: redeal\n    card: {$delete: true}\n"
        "    contract: {$delete: true}\n    basis: {evidence: conjecture}\n",
        encoding="utf-8",
    )
    rules = load_ruleset(path)
    deal = run(deal_of({2: "As 3h 4h 5h 6h 3d 4d 5d 6d"}, rules=rules), ALL_PASS)
    assert deal.declarer is None and deal.to_move == 0
    assert [str(a) for a in deal.legal_actions()] == ["pass", "bid penetro"]

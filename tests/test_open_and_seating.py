"""Open contracts (``open``, the *ouvert*) and a seat other than the dealer sitting out
(``players.sits_out: opposite-dealer``), issue 16, mechanisms 4 and 12.

- The DLU lists a *Nolo ouvert* (“Nolo Ouvert | 6 | 7” (`dlu`, Pointgivning for meldinger)),
  whose text was not read; when the hand is laid open is the rule file's choice, and both
  moments are tested: each seat's view holds the declarer's cards from then on, none before.
- Private Danish l'hombre for four: “Oversidderen - der sidder over for kortgiveren - blander
  …” (`lh35`, Kortgivning): the seat facing the dealer sits out, the dealer plays.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import load_ruleset
from engine.bots.base import knowledge
from engine.bots.heuristic import HeuristicBot
from engine.errors import RuleFileError
from engine.referee import Deal, Phase
from engine.table import TableGame
from tests.referee_helpers import run

OPEN = """
id: {id}
name: An open contract for the test
extends: tresillo-rocambor
summary: A test variant.
auction:
  contracts:
    sans-prendre:
      open: {when}
      basis: {{evidence: conjecture}}
"""


def ruleset(tmp_path: Path, when: str) -> object:
    path = tmp_path / f"open-{when}.yaml"
    path.write_text(OPEN.format(id=f"open-{when}", when=when), encoding="utf-8")
    return load_ruleset(path)


def solo(rules: object) -> Deal:
    deal = Deal(rules, dealer=0, seed=11)  # type: ignore[arg-type]
    run(deal, ["1 bid sans-prendre hearts", "2 pass", "3 pass", "1 pass"])
    # The others exchange; then play begins.
    while deal.phase is Phase.EXCHANGE:
        deal.apply("discard")
    assert deal.phase is Phase.PLAY
    return deal


@pytest.mark.parametrize("when", ["before-first-lead", "after-first-lead"])
def test_the_declarers_hand_is_shown_to_every_seat_from_the_moment_the_rule_says(
    tmp_path: Path, when: str
) -> None:
    rules = ruleset(tmp_path, when)
    deal = Deal(rules, dealer=0, seed=11)  # type: ignore[arg-type]
    # Never during the auction or the exchange.
    run(deal, ["1 bid sans-prendre hearts", "2 pass", "3 pass", "1 pass"])
    assert all(deal.view(s).declarer_hand is None for s in range(4))
    while deal.phase is Phase.EXCHANGE:
        deal.apply("discard")
    before = [deal.view(s).declarer_hand for s in range(4)]
    if when == "before-first-lead":
        assert all(v == deal.view(1).hand for v in before)
    else:
        assert before == [None] * 4
    assert deal.to_move == 2  # the seat after the declarer leads (play.leader: after-declarer)
    first = deal.legal_actions()[0]
    deal.apply(first)
    shown = deal.view(2).declarer_hand
    assert shown == tuple(deal.hand(1)) and len(shown) == 9
    assert all(deal.view(s).declarer_hand == shown for s in range(4))
    # The other hands stay hidden: a defender sees only his own.
    assert deal.view(2).hand != deal.view(3).hand
    # A bot knows the open hand.
    kn = knowledge(deal, 3)
    assert kn.located[1] == deal.hands[1]
    assert kn.located[2] == 0


def test_a_closed_contract_never_shows_the_declarers_hand() -> None:
    deal = solo(load_ruleset("tresillo-rocambor"))
    deal.apply(deal.legal_actions()[0])
    assert all(deal.view(s).declarer_hand is None for s in range(4))
    assert knowledge(deal, 3).located[1] == 0


def test_the_terminal_table_lays_the_open_hand_out(tmp_path: Path) -> None:
    rules = ruleset(tmp_path, "before-first-lead")
    deal = solo(rules)
    lines: list[str] = []
    table = TableGame(rules, human=2)  # type: ignore[arg-type]
    table._show(deal, 2, lines.append)
    text = "\n".join(lines)
    assert (
        "Open on the table" in text
        and " ".join(str(c) for c in deal.view(2).declarer_hand or ()) in text
    )


# Sitting out opposite the dealer.

FOUR = """
id: {id}
name: Four at the table, the dealer's partner-seat out
extends: tresillo
summary: A test variant.
players:
  sits_out: opposite-dealer
  basis: {{evidence: conjecture}}
"""


def test_the_seat_opposite_the_dealer_sits_out_and_the_dealer_plays(tmp_path: Path) -> None:
    path = tmp_path / "opposite.yaml"
    path.write_text(FOUR.format(id="opposite"), encoding="utf-8")
    rules = load_ruleset(path)
    for dealer in range(4):
        deal = Deal(rules, dealer=dealer, seed=dealer)
        out = (dealer + 2) % 4
        assert deal.out == out and deal.eldest == (dealer + 1) % 4
        assert deal.hands[out] == 0 and deal.hands[dealer].bit_count() == 9
        assert out not in deal.seating.order and dealer in deal.seating.order
        bot = HeuristicBot(dealer)
        while not deal.is_over:
            assert deal.to_move != out
            deal.apply(bot.choose(deal, deal.to_move))
        # He pays and is paid as an opponent, never as a player of the tricks.
        assert deal.won[out] == 0
        s = deal.settlement
        assert s is not None and sum(s.balances) + s.pot_after - s.pot_before == 0


def test_no_seat_sits_opposite_at_a_table_of_three(tmp_path: Path) -> None:
    path = tmp_path / "odd.yaml"
    path.write_text(
        """
id: odd
name: Three, one opposite
extends: ombre
summary: A test variant.
players:
  sits_out: opposite-dealer
  basis: {evidence: conjecture}
""",
        encoding="utf-8",
    )
    with pytest.raises(RuleFileError) as caught:
        load_ruleset(path)
    assert "semantic/no-opposite-seat" in {p.code for p in caught.value.problems}

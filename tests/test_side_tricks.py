""" "The side's tricks" is one count, the referee's (:func:`engine.referee.seating.side_tricks`):
the results table, the vole, the laws, the scorekeeper, the deal pages and the rule books'
worked payments read it, none sums the seats itself. Checked here against the count a reader
would get from the referee's seating (every trick played less the opponents'), for games with a
partner (Quadrille) and with a seat that sits out (Tresillo), where a reader that forgot the
partner, or counted the seat out's place as a player's, would differ."""

from __future__ import annotations

import pytest

from engine import load_ruleset
from engine.bots import BOTS
from engine.documents.book import worked_settlements
from engine.documents.deal_page import replay_story
from engine.records import record_of
from engine.referee.seating import side_tricks
from engine.simulate import Setup, parse_bots, played_deal


def _by_opponents(won: tuple[int, ...] | list[int], opponents: tuple[int, ...]) -> int:
    return sum(won) - sum(won[o] for o in opponents)


def test_the_count_takes_each_seat_of_the_side_once() -> None:
    assert side_tricks([3, 0, 2, 4], [0, 2]) == 5
    assert side_tricks([3, 0, 2, 4], (3,)) == 4
    assert side_tricks([3, 0, 2, 4], [2, 2]) == 2
    assert side_tricks([3, 0, 2, 4], []) == 0


@pytest.mark.parametrize("game", ["quadrille", "tresillo"])
def test_the_referee_and_the_deal_pages_count_the_side_alike(game: str) -> None:
    rules = load_ruleset(game)
    setup = Setup(rules, parse_bots("heuristic", rules.players, BOTS), 3, {})
    deals = [played_deal(setup, i) for i in range(24)]
    story = replay_story(record_of(deals, rules.id), rules, f"{game}.json")
    checked = partnered = 0
    for deal, told in zip(deals, story.deals, strict=True):
        if deal.declarer is None:
            assert told.side_tricks is None
            continue
        expected = _by_opponents(deal.won, deal.seating.opponents(deal.declarer, deal.partner))
        assert side_tricks(deal.won, deal.side) == expected
        assert told.side_tricks == expected
        checked += 1
        partnered += deal.partner is not None
    assert checked
    if game == "quadrille":
        assert partnered  # the partner's tricks were counted
    else:
        assert rules.compiled.seatings[0].out is not None  # a seat sat out


@pytest.mark.parametrize("game", ["quadrille", "tresillo", "ombre"])
def test_the_books_worked_payments_count_the_side_as_the_referee(game: str) -> None:
    rules = load_ruleset(game)
    rows = worked_settlements(rules)
    assert rows
    for w in rows:
        seats = rules.compiled.seatings[w.dealer]
        expected = _by_opponents(w.tricks, seats.opponents(w.declarer, w.partner))
        assert w.side_tricks == expected

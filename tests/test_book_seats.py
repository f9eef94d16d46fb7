"""The rule book's worked payments name their seats from the book's typed view
(:class:`engine.documents.book.ExampleSeats`), the seats the worked settlements were played
with, not from a count of the template's own: Médiateur solitaire (no contract calls a
partner) once said "seat 3 holds the called card" above rows that all play alone."""

from __future__ import annotations

import pytest

from engine import load_ruleset
from engine.documents.book import rule_view
from engine.referee.seating import seating

GAMES = [
    "ombre",
    "tresillo",
    "quadrille",
    "quintille",
    "mediateur",
    "mediateur-solitaire",
    "german-solo",
    "dansk-lhombre",
]


@pytest.mark.parametrize("game", GAMES)
def test_the_books_seats_are_the_worked_payments_seats(game: str) -> None:
    rules = load_ruleset(game)
    view = rule_view(rules)
    seats = view.seats
    assert view.worked
    assert {w.dealer for w in view.worked} == {seats.dealer}
    assert {w.declarer for w in view.worked} == {seats.declarer}
    assert seats.declarer == seating(rules, seats.dealer).eldest
    partners = {w.partner for w in view.worked} - {None}
    assert partners == ({seats.partner} if seats.partner is not None else set())
    assert seats.fee_payee in seating(rules, seats.dealer).opponents(seats.declarer)


def test_no_called_card_is_claimed_where_every_worked_deal_plays_alone() -> None:
    view = rule_view(load_ruleset("mediateur-solitaire"))
    assert view.seats.partner is None
    assert all(w.partner is None for w in view.worked)


def test_a_called_partner_is_the_seat_the_worked_deals_give() -> None:
    assert rule_view(load_ruleset("quadrille")).seats.partner == 3
    assert rule_view(load_ruleset("quintille")).seats.partner == 3

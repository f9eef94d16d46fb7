"""Building specific deals from notation for the referee's scenario tests."""

from __future__ import annotations

from collections.abc import Sequence

from engine import load_ruleset
from engine.cards import ALL_CARDS, Card
from engine.referee import Deal


def deal_with(
    ruleset: str,
    fixed: dict[int, str],
    *,
    dealer: int = 0,
    options: dict[str, str] | None = None,
    talon: str | None = None,
) -> Deal:
    """Returns a deal in which the seats named hold (at least) the cards given.

    ``fixed`` maps a seat to its cards (``"As 7h Ac ..."``); a seat given fewer cards than the
    hand size, and every seat not named, is filled with the remaining cards of the pack, lowest
    index first, in seat order. The talon takes what is left (or is given).
    """
    rules = load_ruleset(ruleset)
    deck = [ALL_CARDS[i] for i in rules.tables(options).deck]
    hands: list[list[Card]] = [[] for _ in range(rules.players)]
    used: set[Card] = set()
    for seat, text in fixed.items():
        cards = [Card.parse(t) for t in text.split()]
        hands[seat] = cards
        used.update(cards)
    talon_cards = [Card.parse(t) for t in talon.split()] if talon else []
    used.update(talon_cards)
    rest = [c for c in deck if c not in used]
    for seat in range(rules.players):
        while len(hands[seat]) < rules.hand_size:
            hands[seat].append(rest.pop(0))
    if not talon:
        talon_cards = rest
    return Deal(rules, dealer=dealer, hands=hands, talon=talon_cards, options=options)


def run(deal: Deal, actions: Sequence[str]) -> Deal:
    """Applies record lines ``"SEAT VERB ..."`` with the checked front door."""
    from engine.actions import parse_line

    for line in actions:
        seat, action = parse_line(line)
        deal.apply(action, seat=seat)
    return deal


def into_play(deal: Deal, declarer_bid: str, trump: str, *, call: str | None = None) -> Deal:
    """Has the eldest bid ``declarer_bid``, everyone else pass, name ``trump`` (and call)."""
    n = deal.n
    eldest = deal.eldest
    lines = [f"{eldest} bid {declarer_bid}"]
    lines += [f"{(eldest + k) % n} pass" for k in range(1, n)]
    lines.append(f"{eldest} trump {trump}")
    if call:
        lines.append(f"{eldest} call {call}")
    return run(deal, lines)

"""Payments for cards held, whatever the result (Hoyle's red aces).

``settlement.held_cards`` lists rules such as "the holder of either red ace is entitled to a
fish for each": for each card of a rule held at the start of play, each other player pays its
holder the amount. They are paid in every deal that is played, win or lose, as transfers beside
the settlement's items (a passed-out deal pays nothing).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.cards import Card

if TYPE_CHECKING:
    from engine.referee.deal import Deal

__all__ = ["held_card_transfers"]


def held_card_transfers(d: Deal) -> list[tuple[int, int, int, str]]:
    """Returns ``(payer, payee, amount, item)`` for every card held that a rule pays for."""
    rules = d.rules.value_at(("settlement", "held_cards")) or ()
    if not rules or not d.start_hands:
        return []
    out: list[tuple[int, int, int, str]] = []
    for rule in rules:
        amount = int(rule["amount"])
        if not amount:
            continue
        for text in rule["cards"]:
            card = Card.parse(text).index
            holder = next((s for s in range(d.n) if d.start_hands[s] >> card & 1), None)
            if holder is None:
                continue
            for payer in range(d.n):
                if payer != holder:
                    out.append((payer, holder, amount, f"{rule['name']} ({text})"))
    return out

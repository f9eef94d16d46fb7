"""Payments for cards held, whatever the result (Hoyle's red aces).

``settlement.held_cards`` lists rules such as "the holder of either red ace is entitled to a
fish for each": for each card of a rule held at the start of play, each other player pays its
holder the amount. They are paid in every deal that is played, win or lose, as transfers beside
the settlement's items (a passed-out deal pays nothing). The referee asks :func:`held_card_transfers`
of a deal; the scoresheet asks :func:`transfers_for` with the holders the scorekeeper wrote down.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.cards import Card
from engine.referee.dealstate import DealState
from engine.referee.outcome import Transfer
from engine.referee.settlement import held_label
from engine.rules.model import RuleSet

__all__ = ["held_card_transfers", "paid_cards", "transfers_for"]


def paid_cards(rules: RuleSet) -> list[Card]:
    """Returns the cards some ``held_cards`` rule pays for, in the rule file's order."""
    return [card for rule in rules.held_cards for card in rule.cards]


def transfers_for(
    rules: RuleSet, n: int, holder_of: Callable[[Card], int | None]
) -> list[Transfer]:
    """Returns the payment (payer, payee, amount, item) for every paid card, given who held
    it."""
    out: list[Transfer] = []
    for rule in rules.held_cards:
        amount = rule.amount
        if not amount:
            continue
        for card in rule.cards:
            holder = holder_of(card)
            if holder is None:
                continue
            for payer in range(n):
                if payer != holder:
                    out.append(Transfer(payer, holder, amount, held_label(rule.name, str(card))))
    return out


def held_card_transfers(d: DealState) -> list[Transfer]:
    """Returns the payments for the cards held at the start of play of a deal."""
    if not d.start_hands:
        return []
    if not d.rules.held_cards:
        return []

    def holder_of(card: Card) -> int | None:
        return next((s for s in range(d.n) if d.start_hands[s] >> card.index & 1), None)

    return transfers_for(d.rules, d.n, holder_of)

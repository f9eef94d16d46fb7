"""The card index table of docs/openspiel.md, rendered from engine/cards.py (the index space is
defined there and only there), so that the researchers' decoding table cannot drift from it."""

from __future__ import annotations

from engine.cards import ALL_CARDS, Rank, Suit
from engine.render import render

__all__ = ["BEGIN", "END", "card_index_table", "with_card_index"]

BEGIN = "<!-- card-index: generated from engine/cards.py by make docs -->"
END = "<!-- card-index: end -->"


def card_index_table() -> str:
    """Returns the Markdown table of every card's index (``suit.index * 13 + rank.index``)."""
    return render(
        "card_index.md.j2", "md", suits=list(Suit), ranks=list(Rank), cards=ALL_CARDS
    ).strip()


def with_card_index(text: str) -> str:
    """Returns ``text`` with the block between :data:`BEGIN` and :data:`END` made current.

    :raises ValueError: if the text has no such block.
    """
    head, sep, rest = text.partition(BEGIN)
    _, sep2, tail = rest.partition(END)
    if not sep or not sep2:
        raise ValueError("no card-index block (BEGIN ... END markers) in the text")
    return f"{head}{BEGIN}\n{card_index_table()}\n{END}{tail}"

"""Cards of the Spanish-suited 40-card pack as played with French suits.

The Ombre family plays with a 52-card pack stripped of its 8s, 9s and 10s (ENC-Q "composé de
quarante cartes"; CG-EN PA4). A card is an identity only: its strength depends on the trump
suit and on the colour of its suit, which the rule set knows (see :mod:`engine.model`).

Notation (``spec/interface.md``): rank ``A K Q J 7 6 5 4 3 2`` + suit ``s c h d``; input also
accepts Unicode suits and either case; output is always the two-letter ASCII form.

>>> Card.parse("A♠")
Card.parse('As')
>>> str(Card.parse("7H"))
'7h'
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from engine.errors import NotationError

__all__ = ["ALL_CARDS", "Card", "Colour", "Rank", "Suit", "parse_cards"]


class Colour(enum.Enum):
    """The colour of a suit, which decides its plain order and its manille."""

    BLACK = "black"
    RED = "red"


class Suit(enum.Enum):
    """The four suits, in the fixed index order spades, clubs, hearts, diamonds."""

    SPADES = "spades"
    CLUBS = "clubs"
    HEARTS = "hearts"
    DIAMONDS = "diamonds"

    @property
    def letter(self) -> str:
        """Returns the one-letter notation, ``s c h d``."""
        return self.value[0]

    @property
    def symbol(self) -> str:
        """Returns the Unicode suit symbol."""
        return _SYMBOLS[self]

    @property
    def colour(self) -> Colour:
        """Returns black for spades and clubs, red for hearts and diamonds."""
        return Colour.BLACK if self in (Suit.SPADES, Suit.CLUBS) else Colour.RED

    @property
    def index(self) -> int:
        """Returns 0-3 in the order spades, clubs, hearts, diamonds."""
        return _SUIT_INDEX[self]

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Parses a suit name, letter or symbol.

        >>> Suit.parse("♥"), Suit.parse("C"), Suit.parse("Spades")
        (<Suit.HEARTS: 'hearts'>, <Suit.CLUBS: 'clubs'>, <Suit.SPADES: 'spades'>)

        :raises NotationError: for anything else.
        """
        key = text.strip().lower() if isinstance(text, str) else None
        if key is not None and key in _SUIT_WORDS:
            return _SUIT_WORDS[key]
        raise NotationError(
            f"not a suit: {text!r} (use spades, clubs, hearts, diamonds or s c h d)"
        )


_SYMBOLS = {Suit.SPADES: "♠", Suit.CLUBS: "♣", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦"}
_SUIT_INDEX = {s: i for i, s in enumerate(Suit)}
_SUIT_WORDS: dict[str, Suit] = {}
for _s in Suit:
    _SUIT_WORDS[_s.value] = _s
    _SUIT_WORDS[_s.letter] = _s
    _SUIT_WORDS[_s.symbol] = _s
# The white-outline symbols are common in pasted text too.
_SUIT_WORDS.update({"♤": Suit.SPADES, "♧": Suit.CLUBS, "♡": Suit.HEARTS, "♢": Suit.DIAMONDS})


class Rank(enum.Enum):
    """The ten ranks of the stripped pack; ``J`` is the valet (knave)."""

    ACE = "A"
    KING = "K"
    QUEEN = "Q"
    VALET = "J"
    SEVEN = "7"
    SIX = "6"
    FIVE = "5"
    FOUR = "4"
    THREE = "3"
    TWO = "2"

    @property
    def index(self) -> int:
        """Returns 0-9 in the order ``A K Q J 7 6 5 4 3 2``."""
        return _RANK_INDEX[self]

    @classmethod
    def parse(cls, text: str) -> Rank:
        """Parses a rank letter or digit (either case).

        :raises NotationError: for anything else (8, 9 and 10 are not in the pack).
        """
        key = str(text).strip().upper()
        try:
            return cls(key)
        except ValueError:
            raise NotationError(
                f"not a rank: {text!r} (the pack has A K Q J 7 6 5 4 3 2)"
            ) from None


_RANK_INDEX = {r: i for i, r in enumerate(Rank)}


@dataclass(frozen=True, slots=True, order=False)
class Card:
    """A card: rank and suit. Cards are interned: ``Card.parse('As') is Card.parse('A♠')``."""

    rank: Rank
    suit: Suit
    index: int = field(init=False, repr=False, compare=False, hash=False)
    """0-39: ``suit.index * 10 + rank.index`` (the engine's compiled form)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "index", _SUIT_INDEX[self.suit] * 10 + _RANK_INDEX[self.rank])

    @staticmethod
    def from_index(index: int) -> Card:
        """Returns the card with the given 0-39 index."""
        return ALL_CARDS[index]

    @staticmethod
    def parse(text: str) -> Card:
        """Parses ``As``, ``A♠``, ``7H``, ``jc`` ...

        >>> Card.parse("jc").rank
        <Rank.VALET: 'J'>

        :raises NotationError: if the text is not a card of the 40-card pack.
        """
        if isinstance(text, str):
            key = text.strip()
            card = _CARD_LOOKUP.get(key) or _CARD_LOOKUP.get(key.lower())
            if card is not None:
                return card
        if isinstance(text, str) and len(text.strip()) >= 2:
            raw = text.strip()
            if raw[:-1].upper() in {"8", "9", "10", "T"}:
                raise NotationError(f"not a card of the 40-card pack: {text!r} (no 8, 9 or 10)")
        raise NotationError(
            f"not a card: {text!r} (rank A K Q J 7 6 5 4 3 2 then suit s c h d, e.g. 'As', '7h')"
        )

    def notation(self) -> str:
        """Returns the two-letter ASCII notation, e.g. ``As``."""
        return self.rank.value + self.suit.letter

    def unicode(self) -> str:
        """Returns the notation with a suit symbol, e.g. ``A♠``."""
        return self.rank.value + self.suit.symbol

    def __str__(self) -> str:
        return self.rank.value + self.suit.letter

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


ALL_CARDS: tuple[Card, ...] = tuple(Card(r, s) for s in Suit for r in Rank)
"""The 40 cards in index order (spades A K Q J 7 ... 2, then clubs, hearts, diamonds)."""

_CARD_LOOKUP: dict[str, Card] = {}
for _c in ALL_CARDS:
    for _rank_text in {_c.rank.value, _c.rank.value.lower()}:
        for _suit_text in {_c.suit.letter, _c.suit.letter.upper(), _c.suit.symbol}:
            _CARD_LOOKUP[_rank_text + _suit_text] = _c
for _outline, _suit in (
    ("♤", Suit.SPADES),
    ("♧", Suit.CLUBS),
    ("♡", Suit.HEARTS),
    ("♢", Suit.DIAMONDS),
):
    for _c in ALL_CARDS:
        if _c.suit is _suit:
            _CARD_LOOKUP[_c.rank.value + _outline] = _c
            _CARD_LOOKUP[_c.rank.value.lower() + _outline] = _c


def parse_cards(items: str | list[str] | tuple[str, ...]) -> list[Card]:
    """Parses a list of cards, or a string of cards separated by spaces or commas.

    >>> parse_cards("As 7h, Ac")
    [Card.parse('As'), Card.parse('7h'), Card.parse('Ac')]

    :raises NotationError: naming the first card that does not parse.
    """
    if isinstance(items, str):
        items = [t for t in items.replace(",", " ").split() if t]
    return [Card.parse(t) for t in items]

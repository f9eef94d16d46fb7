"""Cards of the French 52-card pack, of which each rule set plays a part.

The Ombre family mostly plays the pack stripped of its 8s, 9s and 10s (ENC-Q "composé de
quarante cartes"; CG-EN PA4); German Solo keeps A K Q J 10 9 8 7 (the 32-card piquet pack).
Which cards are in play is the rule set's ``deck`` (:meth:`engine.rules.model.RuleSet.deck`); this
module only names the 52 cards and numbers them. A card is an identity only: its strength
depends on the trump suit and on the colour of its suit, which the rule set knows.

The card index space is defined here and only here: ``index = suit * RANKS_PER_SUIT + rank``,
suits in the order spades, clubs, hearts, diamonds, ranks ``A K Q J T 9 8 7 6 5 4 3 2``. The
index order keeps the old 40-card order (a stripped pack's cards sort as they always did), so
a seeded shuffle of any rule set's deck deals the same cards as before.

Notation (``spec/interface.md``): rank ``A K Q J T 9 8 7 6 5 4 3 2`` + suit ``s c h d``; input
also accepts ``10`` for the ten, Unicode suits and either case; output is always the two-letter
ASCII form (the ten is written ``T``).

>>> Card.parse("A♠")
Card.parse('As')
>>> str(Card.parse("7H"))
'7h'
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from engine.errors import NotationError

__all__ = [
    "ALL_CARDS",
    "FULL_MASK",
    "PACK_SIZE",
    "RANKS_PER_SUIT",
    "RANK_MASKS",
    "SUITS_IN_PACK",
    "SUIT_MASKS",
    "Card",
    "Colour",
    "Rank",
    "Suit",
    "parse_cards",
    "rank_of",
    "suit_of",
]

SUITS_IN_PACK = 4
"""The suits of the French pack."""
RANKS_PER_SUIT = 13
"""The ranks of each suit of the French pack, and the stride of the card index."""
PACK_SIZE = SUITS_IN_PACK * RANKS_PER_SUIT
"""52: the size of the card index space (a hand is a mask of ``PACK_SIZE`` bits)."""


FULL_MASK = (1 << PACK_SIZE) - 1
"""The mask of every card of the French pack."""
SUIT_MASKS = tuple(
    ((1 << RANKS_PER_SUIT) - 1) << (RANKS_PER_SUIT * s) for s in range(SUITS_IN_PACK)
)
"""``SUIT_MASKS[s]``: the mask of every card of suit ``s`` (0-3)."""
RANK_MASKS = tuple(
    sum(1 << (RANKS_PER_SUIT * s + r) for s in range(SUITS_IN_PACK)) for r in range(RANKS_PER_SUIT)
)
"""``RANK_MASKS[r]``: the mask of every card of rank index ``r`` (0-12)."""


def suit_of(index: int) -> int:
    """Returns the suit (0-3) of a card index."""
    return index // RANKS_PER_SUIT


def rank_of(index: int) -> int:
    """Returns the rank index (0-12, ``A`` to ``2``) of a card index."""
    return index % RANKS_PER_SUIT


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
    """The thirteen ranks of the French pack, highest first; ``J`` is the valet (knave) and
    ``T`` the ten (``Rank("10")`` is the ten too)."""

    ACE = "A"
    KING = "K"
    QUEEN = "Q"
    VALET = "J"
    TEN = "T"
    NINE = "9"
    EIGHT = "8"
    SEVEN = "7"
    SIX = "6"
    FIVE = "5"
    FOUR = "4"
    THREE = "3"
    TWO = "2"

    @property
    def index(self) -> int:
        """Returns 0-12 in the order ``A K Q J T 9 8 7 6 5 4 3 2``."""
        return _RANK_INDEX[self]

    @classmethod
    def _missing_(cls, value: object) -> Rank | None:
        # "10" and the lower-case letters name ranks too: Rank("10") is Rank.TEN.
        if isinstance(value, str):
            key = value.strip().upper()
            key = "T" if key == "10" else key
            for rank in cls:
                if rank.value == key:
                    return rank
        return None

    @classmethod
    def parse(cls, text: str) -> Rank:
        """Parses a rank letter or digit (either case; the ten as ``T`` or ``10``).

        >>> Rank.parse("10"), Rank.parse("t")
        (<Rank.TEN: 'T'>, <Rank.TEN: 'T'>)

        :raises NotationError: for anything else.
        """
        try:
            return cls(str(text))
        except ValueError:
            raise NotationError(
                f"not a rank: {text!r} (ranks are A K Q J T 9 8 7 6 5 4 3 2; the ten is T or 10)"
            ) from None


_RANK_INDEX = {r: i for i, r in enumerate(Rank)}


@dataclass(frozen=True, slots=True, order=False)
class Card:
    """A card: rank and suit. Cards are interned: ``Card.parse('As') is Card.parse('A♠')``."""

    rank: Rank
    suit: Suit
    index: int = field(init=False, repr=False, compare=False, hash=False)
    """0-51: ``suit.index * RANKS_PER_SUIT + rank.index`` (the engine's compiled form)."""

    def __post_init__(self) -> None:
        index = _SUIT_INDEX[self.suit] * RANKS_PER_SUIT + _RANK_INDEX[self.rank]
        object.__setattr__(self, "index", index)

    def __reduce__(self) -> tuple[object, tuple[int]]:
        """Pickles as its index: unpickled, it is the interned card itself (compiled too, where
        a frozen class's fields cannot be set again)."""
        return (card_at, (self.index,))

    @staticmethod
    def from_index(index: int) -> Card:
        """Returns the card with the given index (0 to ``PACK_SIZE - 1``)."""
        return ALL_CARDS[index]

    @staticmethod
    def parse(text: str) -> Card:
        """Parses ``As``, ``A♠``, ``7H``, ``jc``, ``Ts``, ``10♠`` ...

        Any card of the French pack parses; whether it is in a game's pack is the rule set's
        question (:meth:`engine.rules.model.RuleSet.pack_card`).

        >>> Card.parse("jc").rank
        <Rank.VALET: 'J'>
        >>> Card.parse("10h") is Card.parse("Th")
        True

        :raises NotationError: if the text is not a card.
        """
        if isinstance(text, str):
            key = text.strip()
            card = _CARD_LOOKUP.get(key) or _CARD_LOOKUP.get(key.lower())
            if card is not None:
                return card
        raise NotationError(
            f"not a card: {text!r} (rank A K Q J T 9 8 7 6 5 4 3 2, the ten also 10, then suit"
            " s c h d, e.g. 'As', '7h', 'Td')"
        )

    def notation(self) -> str:
        """Returns the two-letter ASCII notation, e.g. ``As``."""
        return self.rank.value + self.suit.letter

    def unicode(self) -> str:
        """Returns the notation with a suit symbol, e.g. ``A♠`` (the ten as ``10♠``)."""
        return ("10" if self.rank is Rank.TEN else self.rank.value) + self.suit.symbol

    def __str__(self) -> str:
        return self.rank.value + self.suit.letter

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


ALL_CARDS: tuple[Card, ...] = tuple(Card(r, s) for s in Suit for r in Rank)
"""The 52 cards of the French pack in index order (spades A K Q J T 9 ... 2, then clubs, hearts,
diamonds): a look-up from index to card. A game's pack is its rule set's ``deck``, never this."""


def card_at(index: int) -> Card:
    """Returns the card of index ``index`` (0-51)."""
    return ALL_CARDS[index]


_CARD_LOOKUP: dict[str, Card] = {}
for _c in ALL_CARDS:
    _rank_texts = {_c.rank.value, _c.rank.value.lower()}
    if _c.rank is Rank.TEN:
        _rank_texts.add("10")
    for _rank_text in _rank_texts:
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
            if _c.rank is Rank.TEN:
                _CARD_LOOKUP["10" + _outline] = _c


def parse_cards(items: str | list[str] | tuple[str, ...]) -> list[Card]:
    """Parses a list of cards, or a string of cards separated by spaces or commas.

    >>> parse_cards("As 7h, Ac")
    [Card.parse('As'), Card.parse('7h'), Card.parse('Ac')]

    :raises NotationError: naming the first card that does not parse.
    """
    if isinstance(items, str):
        items = [t for t in items.replace(",", " ").split() if t]
    return [Card.parse(t) for t in items]

"""Actions: the decisions a player makes, in the record notation ``VERB [ARGUMENTS]``.

The verbs (``spec/interface.md``): ``pass``, ``bid CONTRACT`` (``bid CONTRACT SUIT`` under a
contract whose bid names its trumps, ``trump_with_bid``), ``trump SUIT``, ``call CARD``,
``give CARD``, ``discard CARD …``, ``play CARD``, ``vole`` and ``stop``; and, under a rule file
whose revokes are penalised (``play.renonce.action: penalised``), ``renonce CARD`` (a card
played that does not follow) and ``notice`` (a renonce pointed out before the end of the
deal); and, where a defender may exchange first or second (``exchange.defenders:
either-first``), ``defer`` (the first defender lets the other exchange before him). A record
line puts the seat in front: ``"2 play 3d"``.

The irregularities of the laws of the table (``laws:`` in the rule file, ``docs/records.md``
"Irregularities") are verbs too, written by the seat that commits or remedies them, whoever is
to move: ``expose CARD``, ``out-of-turn CARD``, ``require CARD``, ``require-suit SEAT SUIT``,
``show``, ``lay-down``, ``name-trump SUIT`` and ``turn-hand SEAT``.

The irregularities, under a rule file's laws of the table (``laws``; :mod:`engine.referee.laws`, :mod:`engine.referee.deal_laws`):
``misdeal FAULT`` (the deal found wrong: ``too-many``, ``too-few``, ``duplicate``, ``faced``, or
``faced-last``, the last card dealt faced),
``extra-card`` (a player found playing with a card too many) and ``retake`` (the cards taken
back after several renonces).

Actions are small immutable values, checked when built: an ``Action`` with the wrong arguments
for its verb raises :class:`NotationError`. The common ones are interned so that the referee's
legal action lists cost nothing to build.

>>> Action.parse("play K♦")
Action.parse('play Kd')
>>> str(Action.parse("Bid  Ask"))
'bid ask'
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.cards import ALL_CARDS, Card, Suit
from engine.errors import NotationError

__all__ = ["VERBS", "Action", "parse_line", "parse_seated", "small_number"]

LAW_VERBS = (
    "expose",
    "out-of-turn",
    "require",
    "require-suit",
    "show",
    "lay-down",
    "name-trump",
    "turn-hand",
)
"""The verbs of the laws of the table (irregularities and their remedies)."""

VERBS = (
    "pass",
    "bid",
    "trump",
    "call",
    "give",
    "discard",
    "play",
    "vole",
    "stop",
    "renonce",
    "notice",
    "defer",
    *LAW_VERBS,
    "misdeal",
    "extra-card",
    "retake",
)
_BARE = frozenset(
    {"pass", "vole", "stop", "notice", "defer", "show", "lay-down", "extra-card", "retake"}
)
_ONE_CARD = frozenset({"call", "give", "play", "renonce", "expose", "out-of-turn", "require"})
_ONE_SUIT = frozenset({"trump", "name-trump"})
FAULTS = ("too-many", "too-few", "duplicate", "faced", "faced-last")
"""The faults of a deal ``misdeal`` names (``laws.misdeal.faults`` lists those that void it):
``faced`` is a card faced in the deal before the last, ``faced-last`` the last card dealt faced."""


@dataclass(frozen=True, slots=True)
class Action:
    """One decision: a verb and its argument (a contract, a suit, cards, or a seat)."""

    verb: str
    contract: str | None = None
    suit: Suit | None = None
    cards: tuple[Card, ...] = ()
    seat: int | None = None
    """The seat an irregularity names (``turn-hand SEAT``, ``require-suit SEAT SUIT``)."""
    word: str | None = None
    """The fault a ``misdeal`` names (one of :data:`FAULTS`); None for every other verb."""

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        """Pickles as its constructor's arguments (compiled too, where a frozen class's fields
        cannot be set again)."""
        return (Action, (self.verb, self.contract, self.suit, self.cards, self.seat, self.word))

    def __post_init__(self) -> None:
        verb, contract, suit, cards = self.verb, self.contract, self.suit, self.cards
        if self.word is not None and (verb != "misdeal" or self.word not in FAULTS):
            raise NotationError(f"{verb}: no such argument {self.word!r}")
        seat = self.seat
        if verb in ("turn-hand", "require-suit"):
            if type(seat) is not int or seat < 0:
                raise NotationError(f"{verb} names a seat (a number), not {seat!r}")
            ok = (
                contract is None
                and not cards
                and (suit is None if verb == "turn-hand" else type(suit) is Suit)
            )
            if not ok:
                raise NotationError(
                    f"wrong arguments for {verb!r}: {_describe(contract, suit, cards)}"
                )
            return
        if seat is not None:
            raise NotationError(f"{verb} names no seat: seat={seat!r}")
        if type(cards) is not tuple:
            raise NotationError(f"{verb}: cards must be a tuple of Card, not {cards!r}")
        for c in cards:
            if type(c) is not Card:
                raise NotationError(f"{verb}: not a Card: {c!r}")
        if verb in _ONE_CARD:
            ok = contract is None and suit is None and len(cards) == 1
        elif verb == "discard":
            ok = contract is None and suit is None and len(set(cards)) == len(cards)
        elif verb == "bid":
            # A bid may carry its trump suit (``bid solo hearts``), under a contract whose bid
            # names it (``trump_with_bid``).
            ok = type(contract) is str and bool(contract) and not cards
            ok = ok and (suit is None or type(suit) is Suit)
        elif verb in _ONE_SUIT:
            ok = contract is None and type(suit) is Suit and not cards
        elif verb in _BARE:
            ok = contract is None and suit is None and not cards
        elif verb == "misdeal":
            ok = contract is None and suit is None and not cards and self.word is not None
        else:
            raise NotationError(f"not a verb: {verb!r} (verbs: {', '.join(VERBS)})")
        if not ok:
            raise NotationError(f"wrong arguments for {verb!r}: {_describe(contract, suit, cards)}")

    @property
    def card(self) -> Card:
        """Returns the single card of ``play``, ``call`` and ``give``."""
        return self.cards[0]

    def notation(self) -> str:
        """Returns the action in record notation, e.g. ``play Kd``."""
        if self.verb == "bid":
            if self.suit is not None:
                return f"bid {self.contract} {self.suit.value}"
            return f"bid {self.contract}"
        if self.verb == "require-suit" and self.suit is not None:
            return f"require-suit {self.seat} {self.suit.value}"
        if self.verb == "turn-hand":
            return f"turn-hand {self.seat}"
        if self.verb in _ONE_SUIT and self.suit is not None:
            return f"{self.verb} {self.suit.value}"
        if self.cards:
            return self.verb + " " + " ".join(str(c) for c in self.cards)
        if self.word is not None:
            return f"{self.verb} {self.word}"
        return self.verb

    def __str__(self) -> str:
        return self.notation()

    def __repr__(self) -> str:
        return f"Action.parse({self.notation()!r})"

    @staticmethod
    def parse(text: str) -> Action:
        """Parses an action (without its seat).

        A bare card is read as ``play CARD``. A contract name is lower-cased and its words
        joined by hyphens (``bid Sans appeler`` is ``bid sans-appeler``); the rule file's aliases
        are resolved by :meth:`engine.rules.model.RuleSet.canonical` (``bid jouer`` is ``bid entrada``).

        :raises NotationError: quoting the text.
        """
        words = str(text).replace(",", " ").split()
        if not words:
            raise NotationError("empty action")
        verb = words[0].lower()
        args = words[1:]
        if verb not in VERBS:
            try:
                card = Card.parse(words[0])
            except NotationError:
                raise NotationError(
                    f"not an action: {text!r} (verbs: {', '.join(VERBS)})"
                ) from None
            if args:
                raise NotationError(f"not an action: {text!r}")
            return PLAY[card.index]
        if verb in _BARE:
            if args:
                raise NotationError(f"{verb!r} takes no argument: {text!r}")
            return _SIMPLE[verb]
        if verb == "bid":
            if not args:
                raise NotationError(f"bid takes a contract: {text!r}")
            # A last word that is a suit's name or symbol (never a bare letter, which a
            # contract's name may end with) is the suit the bid names: ``bid solo hearts``.
            suit = _BID_SUITS.get(args[-1].lower()) if len(args) > 1 else None
            if suit is not None:
                args = args[:-1]
            return Action("bid", contract="-".join(a.lower() for a in args), suit=suit)
        if verb == "trump":
            if len(args) != 1:
                raise NotationError(f"trump takes one suit: {text!r}")
            return TRUMP[Suit.parse(args[0]).index]
        if verb == "misdeal":
            fault = args[0].lower() if len(args) == 1 else ""
            if fault not in FAULTS:
                raise NotationError(f"misdeal takes one fault ({', '.join(FAULTS)}): {text!r}")
            return Action("misdeal", word=fault)
        if verb == "name-trump":
            if len(args) != 1:
                raise NotationError(f"name-trump takes one suit: {text!r}")
            return Action("name-trump", suit=Suit.parse(args[0]))
        if verb in ("turn-hand", "require-suit"):
            want = 1 if verb == "turn-hand" else 2
            number = small_number(args[0]) if args else None
            if len(args) != want or number is None:
                shape = "SEAT" if verb == "turn-hand" else "SEAT SUIT"
                raise NotationError(f"{verb} takes {shape}: {text!r}")
            suit = Suit.parse(args[1]) if verb == "require-suit" else None
            return Action(verb, suit=suit, seat=number)
        if verb == "discard":
            cards = tuple(Card.parse(a) for a in args)
            if len(set(cards)) != len(cards):
                raise NotationError(f"a card is discarded twice: {text!r}")
            return Action("discard", cards=cards)
        if len(args) != 1:
            raise NotationError(f"{verb} takes one card: {text!r}")
        card = Card.parse(args[0])
        table = {"play": PLAY, "call": CALL, "give": GIVE, "renonce": RENONCE}.get(verb)
        if table is None:
            return Action(verb, cards=(card,))
        return table[card.index]


_BID_SUITS: dict[str, Suit] = {
    word: Suit.parse(word)
    for s in Suit
    for word in (
        s.value,
        s.symbol,
        {"spades": "♤", "clubs": "♧", "hearts": "♡", "diamonds": "♢"}[s.value],
    )
}
"""The words a bid's trailing suit may be (:meth:`Action.parse`): a suit's name or symbol."""


def _describe(contract: object, suit: object, cards: object) -> str:
    parts = [f"contract={contract!r}", f"suit={suit!r}", f"cards={cards!r}"]
    return ", ".join(parts)


PASS = Action("pass")
VOLE = Action("vole")
STOP = Action("stop")
NOTICE = Action("notice")
DEFER = Action("defer")
SHOW = Action("show")
LAY_DOWN = Action("lay-down")
EXTRA_CARD = Action("extra-card")
RETAKE = Action("retake")
_SIMPLE = {
    "pass": PASS,
    "vole": VOLE,
    "stop": STOP,
    "notice": NOTICE,
    "defer": DEFER,
    "show": SHOW,
    "lay-down": LAY_DOWN,
    "extra-card": EXTRA_CARD,
    "retake": RETAKE,
}
PLAY: tuple[Action, ...] = tuple(Action("play", cards=(c,)) for c in ALL_CARDS)
RENONCE: tuple[Action, ...] = tuple(Action("renonce", cards=(c,)) for c in ALL_CARDS)
CALL: tuple[Action, ...] = tuple(Action("call", cards=(c,)) for c in ALL_CARDS)
GIVE: tuple[Action, ...] = tuple(Action("give", cards=(c,)) for c in ALL_CARDS)
TRUMP: tuple[Action, ...] = tuple(Action("trump", suit=s) for s in Suit)


def parse_line(text: str) -> tuple[int, Action]:
    """Parses a record line ``"SEAT VERB [ARGUMENTS]"``.

    >>> parse_line("2 bid ask")
    (2, Action.parse('bid ask'))

    :raises NotationError: if the seat or the action does not parse.
    """
    words = str(text).split(maxsplit=1)
    seat = words[0].removeprefix("-") if words else ""
    number = small_number(seat)
    if len(words) < 2 or number is None:
        raise NotationError(
            f"not a record action {text[:80]!r} (expected 'SEAT VERB ...', e.g. '1 play Kd')"
        )
    return (-number if words[0].startswith("-") else number), Action.parse(words[1])


def parse_seated(text: str) -> tuple[int | None, Action]:
    """Parses an action with or without its seat: a record line ``"SEAT VERB ..."`` (the seat
    a claim for the referee to check) or an action alone (the seat None).

    >>> parse_seated("2 bid ask"), parse_seated("bid ask")
    ((2, Action.parse('bid ask')), (None, Action.parse('bid ask')))

    :raises NotationError: if the seat or the action does not parse.
    """
    words = text.split(maxsplit=1)
    if len(words) == 2 and words[0].isdigit():
        return parse_line(text)
    return None, Action.parse(text)


SMALL_DIGITS = 9
"""The most digits :func:`small_number` reads (no count, seat or seed typed at a table needs
more; Python's ``int()`` refuses text of more than 4,300 digits with a ValueError)."""


def small_number(text: str) -> int | None:
    """Returns the whole number written in ASCII digits (``0``-``9``, at most
    :data:`SMALL_DIGITS` of them after leading zeros), or None for anything else: a sign, a
    space, a superscript ``²`` or another script's digits (which ``str.isdigit`` accepts and
    ``int`` refuses or reads), or a number too long to be one a person means.

    >>> small_number("12"), small_number("²"), small_number("9" * 5000), small_number("-1")
    (12, None, None, None)
    """
    if not (text.isascii() and text.isdigit()):
        return None
    digits = text.lstrip("0")
    if len(digits) > SMALL_DIGITS:
        return None
    return int(digits or "0")

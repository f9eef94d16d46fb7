"""The online Rocambor table's own rule tests of its cards and tricks (``roc-online-code``,
server/tests/engine.test.ts and the play rules of room.test.ts at commit b8f840d), each run
here against variants/tresillo-rocambor.yaml: the peer's trump suit, its hand, the card led
or the trick, and the value it expects (tests/data/peer-rocambor.yaml files each as "plays").

The peer's suits are oros = diamonds, copas = hearts, espadas = spades, bastos = clubs; its
card 12 is our K, 11 our Q, 10 our J and 1 the ace. Every test's title is quoted as the peer
gives it.
"""

from __future__ import annotations

import pytest

from engine import load_ruleset
from engine.cards import Card, Colour, Suit
from engine.referee.tricks import TRUMPS, TrickRules
from engine.rules.model import NO_TRUMPS
from engine.scoresheet import Entry, Evening

ROCAMBOR = load_ruleset("tresillo-rocambor")
TABLES = ROCAMBOR.tables()
PEER_SUITS = {
    "oros": Suit.DIAMONDS,
    "copas": Suit.HEARTS,
    "espadas": Suit.SPADES,
    "bastos": Suit.CLUBS,
}


def under(trump: str | None) -> TrickRules:
    """The variant's play rules with the peer's trump suit (None: the peer's null trump)."""
    return TrickRules.of(ROCAMBOR, TABLES, NO_TRUMPS if trump is None else PEER_SUITS[trump].index)


def cards(text: str) -> list[int]:
    return [Card.parse(t).index for t in text.split()]


def legal(trump: str | None, hand: str, led: str = "") -> set[str]:
    mask = 0
    for i in cards(hand):
        mask |= 1 << i
    allowed = under(trump).legal(mask, cards(led))
    return {t for t in hand.split() if allowed >> Card.parse(t).index & 1}


# legalPlays: (title, trump, hand, card led, the cards the peer expects legal).
LEGAL = [
    ("all cards legal when leading", "oros", "5d 3h Ks", "", "5d 3h Ks"),
    ("must follow suit when non-trump led", "oros", "3h Kh 5s", "7h", "3h Kh"),
    (
        "can discard freely when void in led suit even if holding trump",
        "oros",
        "5d 3s",
        "7h",
        "5d 3s",
    ),
    ("any card legal when void in both led suit and trump", "oros", "3s 5c", "7h", "3s 5c"),
    (
        "can discard freely when void in led suit and holding only matador trumps",
        "oros",
        "As 5c",
        "7h",
        "As 5c",
    ),
    ("must follow with trump when trump led", "oros", "5d 3h As", "Kd", "5d As"),
    ("null trump: must follow suit with same-suit cards", None, "5h Kh 3s", "7h", "5h Kh"),
    (
        "null trump: can play any card when void in led suit (no trump obligation)",
        None,
        "3s 6c",
        "7h",
        "3s 6c",
    ),
    (
        "null trump: matadors are NOT treated as trump — they follow suit normally",
        None,
        "As 5c",
        "7h",
        "As 5c",
    ),
    (
        "null trump: spadille in led suit must follow copas lead if only copas cards available",
        None,
        "4h As",
        "7h",
        "4h",
    ),
    (
        "matador (spadille) is exempt from being forced out by plain copas lead",
        "oros",
        "5h As 6c",
        "3h",
        "5h",
    ),
    ("matador (basto ace) is exempt from plain espadas lead", "copas", "5s Ac", "3s", "5s"),
    (
        "when hand has ONLY a matador vs a plain suit lead, can play anything (matador exempt)",
        "oros",
        "As 6c",
        "3h",
        "As 6c",
    ),
    (
        "void in led suit and holding a regular trump: any card is legal",
        "oros",
        "6d 4c",
        "7h",
        "6d 4c",
    ),
    (
        "void in led suit and holding only matadors as trump: any card is legal",
        "oros",
        "As 4c",
        "7h",
        "As 4c",
    ),
    ("void in led suit and void in trump: any card is legal", "oros", "4c 5s", "7h", "4c 5s"),
    (
        "spadille lead forces any lower trump, including lower matadors",
        "oros",
        "5d Ac Kh",
        "As",
        "Ac 5d",
    ),
    (
        "manille lead forces lower trumps but spadille/basto always playable",
        "oros",
        "As Ac 5d Kh",
        "7d",
        "Ac As 5d",
    ),
    (
        "a player with only higher matadors against a matador lead may discard freely",
        "oros",
        "As 7d Kh",
        "Ac",
        "As 7d Kh",
    ),
    # room.test.ts, Room - play rules: seat 1's legal cards after the lead (its legalIds).
    ("allows any card when the player is void in the led suit", "oros", "5d 3s", "Kh", "3s 5d"),
    (
        "allows a free discard when the player is void in the led suit",
        "oros",
        "5d 3s",
        "Kh",
        "3s 5d",
    ),
]


@pytest.mark.parametrize(
    ("title", "trump", "hand", "led", "expected"), LEGAL, ids=[c[0] for c in LEGAL]
)
def test_the_peers_legal_plays(
    title: str, trump: str | None, hand: str, led: str, expected: str
) -> None:
    assert legal(trump, hand, led) == set(expected.split()), title


# legalPlays - matador privilege: (title, hand, card led, the card the peer expects legal).
PRIVILEGE = [
    (
        "spadille is legal when manille leads and hand has spadille + regular trump",
        "As 5d",
        "7d",
        "As",
    ),
    (
        "spadille is legal when basto leads and hand has spadille + regular trump",
        "As 5d",
        "Ac",
        "As",
    ),
    ("basto is legal when manille leads and hand has basto + regular trump", "Ac 5d", "7d", "Ac"),
]


@pytest.mark.parametrize(("title", "hand", "led", "card"), PRIVILEGE, ids=[c[0] for c in PRIVILEGE])
def test_the_peers_matador_privilege(title: str, hand: str, led: str, card: str) -> None:
    assert card in legal("oros", hand, led), title


# trickWinner: (title, trump, the cards in the order played, the index the peer expects).
WINNER = [
    ("spadille beats everything", "oros", "Kd As Kh", 1),
    ("manille beats basto ace", "oros", "Ac 7d Kh", 1),
    ("basto ace beats regular trump", "oros", "Kd Ac 5d", 1),
    ("trump beats plain", "oros", "Kh Qh 3d", 2),
    ("highest led suit wins when no trump played", "oros", "3h Kh Ks", 1),
    ("off-suit card loses to led suit", "oros", "3h Ks 5h", 0),
    ("uses black suit plain ranking when no trump is played", "oros", "2s 7s Kh", 1),
    ("treats red-suit ace as a valid trump card", "oros", "Kh Ad Qh", 1),
    ("orders red-suit trump ace above trump two", "oros", "2d Ad Kh", 1),
    ("copas-3 beats copas-5 in a copas-led trick (red suit reversed)", "bastos", "5h 3h", 1),
    (
        "copas-ace beats copas-2 in a copas-led trick (red suit: ace rank 1 beats rank 2)",
        "bastos",
        "2h Ah",
        1,
    ),
    ("copas-king(12) beats copas-ace in plain trick (king is highest)", "bastos", "Ah Kh", 1),
    ("spadille beats manille when both in same trick", "oros", "7d As", 1),
    ("manille beats basto ace when both in same trick", "oros", "Ac 7d", 1),
    ("basto ace beats regular trump cards", "copas", "Kh Ac 5h", 1),
    ("spadille beats basto ace directly", "oros", "Ac As", 1),
    ("any trump card beats the highest plain-suit card", "oros", "Kh 7d", 1),
    ("lowest regular trump beats plain-suit king", "espadas", "Kh 4s", 1),
    ("off-suit card loses to led suit even if higher-ranked in its own suit", "oros", "5h Kc", 0),
    # room.test.ts, Room - play rules: the bola is played without trumps; seat 2's 7s wins.
    ("in bola (no trump), black-suit rank order is respected", None, "2s As 7s", 2),
]


@pytest.mark.parametrize(("title", "trump", "trick", "winner"), WINNER, ids=[c[0] for c in WINNER])
def test_the_peers_trick_winners(title: str, trump: str | None, trick: str, winner: int) -> None:
    assert under(trump).winning_position(cards(trick)) == winner, title


def test_treats_a_led_matador_as_trump_and_enforces_trump_follow() -> None:
    # "treats a led matador as trump and enforces trump follow": oros trumps, seat 0 leads
    # the spadille; seat 1 (Kh Kd) may not play Kh while holding a trump; Kd, then Ad: the
    # spadille's seat takes the trick.
    assert legal("oros", "Kh Kd", "As") == {"Kd"}
    assert under("oros").winning_position(cards("As Kd Ad")) == 0


# card classification and plainSuitValue.


def test_is_black_for_espadas_and_bastos() -> None:
    # "isBlack for espadas and bastos": the variant's plain order of a suit is its colour's.
    for peer, black in (("espadas", True), ("bastos", True), ("oros", False), ("copas", False)):
        suit = PEER_SUITS[peer]
        assert (suit.colour is Colour.BLACK) is black
        ranks = ROCAMBOR.plain_black if black else ROCAMBOR.plain_red
        assert ROCAMBOR.plain_ranks(suit) == ranks


def test_is_manille_depends_on_trump_color() -> None:
    # "isManille depends on trump color": the two of a black trump, the seven of a red one.
    manille = {t: c for t in Suit for c, n in ROCAMBOR.matador_names(t).items() if n == "Manille"}
    assert manille == {
        Suit.SPADES: Card.parse("2s"),
        Suit.CLUBS: Card.parse("2c"),
        Suit.HEARTS: Card.parse("7h"),
        Suit.DIAMONDS: Card.parse("7d"),
    }


def test_is_matador_identifies_the_three_matadors() -> None:
    # "isMatador identifies the three matadors": spadille and basto whatever the trumps,
    # the manille; Kd and 3h are not.
    oros = set(map(str, ROCAMBOR.matador_names(Suit.DIAMONDS)))
    assert oros == {"As", "7d", "Ac"}
    assert "As" in set(map(str, ROCAMBOR.matador_names(Suit.HEARTS)))
    assert "2s" in set(map(str, ROCAMBOR.matador_names(Suit.SPADES)))
    assert "3h" not in set(map(str, ROCAMBOR.matador_names(Suit.HEARTS)))
    matadors = {t.card_for(Suit.DIAMONDS) for t in ROCAMBOR.top_trumps if t.matador}
    assert {str(c) for c in matadors} == {"As", "7d", "Ac"}


def test_is_trump_includes_trump_suit_cards_and_matadors() -> None:
    # "isTrump includes trump suit cards and matadors"; with the null trump nothing is.
    trumps = set(map(str, ROCAMBOR.trump_order(Suit.DIAMONDS)))
    assert {"5d", "As", "Ac"} <= trumps and "5h" not in trumps
    assert under("oros").follow[Card.parse("As").index] == TRUMPS
    assert under(None).follow[Card.parse("Ad").index] != TRUMPS


def plain_value(peer: str, rank: str) -> int:
    """The peer's plainSuitValue: 10 for the highest card of the suit's own order, 1 for the
    lowest (the order without trumps, where the black aces are plain cards)."""
    order = [str(c) for c in ROCAMBOR.no_trumps_order(PEER_SUITS[peer])]
    return len(order) - order.index(rank + PEER_SUITS[peer].letter)


def test_red_suit_oros_lower_rank_higher_value() -> None:
    # "red suit (oros): lower rank = higher value (ace=1 beats 7)"
    assert plain_value("oros", "A") > plain_value("oros", "7")
    plain = [str(c) for c in ROCAMBOR.plain_order(Suit.DIAMONDS, Suit.CLUBS)]
    assert plain.index("Ad") < plain.index("7d")


def test_red_suit_oros_king_has_highest_plain_value() -> None:
    # "red suit (oros): king(12) has highest plain value"
    assert plain_value("oros", "K") == 10
    assert str(ROCAMBOR.plain_order(Suit.DIAMONDS, Suit.SPADES)[0]) == "Kd"


def test_red_suit_copas_rank_3_above_rank_5() -> None:
    # "red suit (copas): rank 3 has higher value than rank 5"
    assert plain_value("copas", "3") > plain_value("copas", "5")


def test_black_suit_bastos_values() -> None:
    # "black suit (bastos): rank 7 has value 7, ace has value 1"
    assert plain_value("bastos", "7") == 7 and plain_value("bastos", "A") == 1


def test_black_suit_espadas_king_highest() -> None:
    # "black suit (espadas): king(12) has highest plain value"
    assert plain_value("espadas", "K") == 10
    assert str(ROCAMBOR.plain_order(Suit.SPADES, Suit.HEARTS)[0]) == "Ks"


def test_red_suit_copas_ace_7_and_two_6() -> None:
    # "red suit (copas): ace(1) value=7, rank 2 value=6 (ace beats 2 in red)"
    assert plain_value("copas", "A") == 7 and plain_value("copas", "2") == 6


# scoring.test.ts: calculateHandScore, each hand as the peer gives it (its seats 0, 1, 2 play
# and its seat 3 rests; here the dealer, seat 0, rests and the peer's seat s is our seat s + 1),
# scored by the scorekeeper from the contract, the declarer and the tricks.
# (title, contract, trumps, the peer's ombre, its tricks, the result, the peer's deltas).
SCORING = [
    (
        "scores standard sacada hands directly from production logic",
        "entrada",
        "spades",
        0,
        (5, 2, 2),
        "win",
        {0: 1},
    ),
    ("applies oros bonus for declarer wins", "solo-favor", "diamonds", 1, (1, 5, 3), "win", {1: 2}),
    ("scores codille to the winning defender", "vuelta", "hearts", 0, (3, 5, 1), "codille", {1: 2}),
    (
        "scores sacada when ombre has the unique highest trick count below five",
        "entrada",
        "spades",
        0,
        (4, 3, 2),
        "win",
        {0: 1},
    ),
    (
        "scores codille when a defender has more tricks than ombre (below 5)",
        "entrada",
        "spades",
        0,
        (3, 4, 2),
        "codille",
        {1: 2},
    ),
    (
        "scores sacada when ombre leads individually even without five tricks",
        "entrada",
        "spades",
        0,
        (4, 3, 2),
        "win",
        {0: 1},
    ),
    (
        "scores puesta when ombre ties for the highest trick total",
        "entrada",
        "spades",
        0,
        (4, 4, 1),
        "remise",
        {1: 1, 2: 1},
    ),
    (
        "scores puesta when all active players tie on tricks",
        "entrada",
        "spades",
        0,
        (3, 3, 3),
        "remise",
        {1: 1, 2: 1},
    ),
    # "scores bola directly against the declared ombre": made, then failed.
    ("scores bola directly against the declared ombre", "bola", None, 1, (0, 9, 0), "vole", {1: 6}),
    (
        "scores bola directly against the declared ombre",
        "bola",
        None,
        1,
        (2, 7, 0),
        "vole-failed",
        {0: 2, 2: 2},
    ),
    # "scores contrabola directly from production logic": made, then failed.
    (
        "scores contrabola directly from production logic",
        "contrabola",
        None,
        2,
        (5, 4, 0),
        "contrabola",
        {2: 4},
    ),
    (
        "scores contrabola directly from production logic",
        "contrabola",
        None,
        2,
        (4, 3, 2),
        "contrabola-failed",
        {0: 1, 1: 1},
    ),
]


@pytest.mark.parametrize(
    ("title", "contract", "trump", "ombre", "tricks", "result", "deltas"),
    SCORING,
    ids=[f"{c[0]} {c[4]}" for c in SCORING],
)
def test_the_peers_hand_scores(
    title: str,
    contract: str,
    trump: str | None,
    ombre: int,
    tricks: tuple[int, int, int],
    result: str,
    deltas: dict[int, int],
) -> None:
    entry = Entry(dealer=0, contract=contract, declarer=ombre + 1, trump=trump, tricks=(0, *tricks))
    scored = Evening(ROCAMBOR).score(entry)
    assert scored.result == result, title
    expected = [0, 0, 0, 0]
    for seat, points in deltas.items():
        expected[seat + 1] = points
    assert list(scored.settlement.balances) == expected, title

"""The acceptance facts about cards and ranks (items 1-11 of the project's research).

Every fact is checked for every ruleset it applies to: Ombre, Quadrille, Médiateur, and
Quadrille à trois with either red suit removed. Each test's docstring cites its sources as the
reference does.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine import Card, RuleSet, Suit, load_ruleset, parse_cards

S, C, H, D = Suit.SPADES, Suit.CLUBS, Suit.HEARTS, Suit.DIAMONDS
RANKS = ["A", "K", "Q", "J", "7", "6", "5", "4", "3", "2"]

# (ruleset, setup options): every setup the card facts apply to.
SETUPS: list[tuple[str, dict[str, str]]] = [
    ("ombre", {}),
    ("quadrille", {}),
    ("mediateur", {}),
    ("quadrille-a-trois", {"removed-suit": "diamonds"}),
    ("quadrille-a-trois", {"removed-suit": "hearts"}),
]
FULL_PACK = [s for s in SETUPS if s[0] != "quadrille-a-trois"]


def _id(setup: tuple[str, dict[str, str]]) -> str:
    name, options = setup
    return name + "".join(f"-{v}-out" for v in options.values())


def _cards(text: str) -> list[Card]:
    return parse_cards(text)


def _suits(r: RuleSet, options: dict[str, str]) -> set[Suit]:
    return {c.suit for c in r.deck(options)}


@pytest.fixture(params=SETUPS, ids=_id)
def setup(request: pytest.FixtureRequest) -> tuple[RuleSet, dict[str, str]]:
    name, options = request.param
    return load_ruleset(name), options


@pytest.fixture(params=FULL_PACK, ids=_id)
def full(request: pytest.FixtureRequest) -> tuple[RuleSet, dict[str, str]]:
    name, options = request.param
    return load_ruleset(name), options


# 1-2. The deck.


def test_deck_of_forty(full: tuple[RuleSet, dict[str, str]]) -> None:
    """Quadrille and Ombre use exactly 40 cards, A K Q J 7 6 5 4 3 2 in each suit, no 8 9 10.

    [ENC-Q; CG-EN PA4]
    """
    r, options = full
    deck = r.deck(options)
    assert len(deck) == 40
    assert len(set(deck)) == 40
    for suit in Suit:
        assert sorted(c.rank.value for c in deck if c.suit is suit) == sorted(RANKS)
    assert not any(c.rank.value in {"8", "9", "10"} for c in deck)


@pytest.mark.parametrize("removed", [H, D])
def test_quadrille_a_trois_deck_of_thirty(removed: Suit) -> None:
    """Quadrille à trois has 30 cards: all 10 of one red suit (hearts or diamonds) removed.

    [ENC-Q]
    """
    r = load_ruleset("quadrille-a-trois")
    deck = r.deck({"removed-suit": removed.value})
    assert len(deck) == 30
    assert not any(c.suit is removed for c in deck)
    kept = {S, C, H, D} - {removed}
    for suit in kept:
        assert len([c for c in deck if c.suit is suit]) == 10
    # The deal takes every card: three hands of ten, no talon.
    assert r.players * r.hand_size + r.talon == 30


def test_quadrille_a_trois_default_removes_diamonds() -> None:
    """Either red suit may go ("n'importe"); the default is diamonds, our choice. [ENC-Q]"""
    r = load_ruleset("quadrille-a-trois")
    assert len(r.deck()) == 30
    assert D not in {c.suit for c in r.deck()}
    assert [s.value for s in r.options["removed-suit"].choices] == ["hearts", "diamonds"]


# 3-6. Trump orders.

TRUMP_ORDERS = {
    H: "As 7h Ac Ah Kh Qh Jh 2h 3h 4h 5h 6h",
    D: "As 7d Ac Ad Kd Qd Jd 2d 3d 4d 5d 6d",
    C: "As 2c Ac Kc Qc Jc 7c 6c 5c 4c 3c",
    S: "As 2s Ac Ks Qs Js 7s 6s 5s 4s 3s",
}


def _trump_case(r: RuleSet, options: dict[str, str], trump: Suit) -> list[Card]:
    if trump not in _suits(r, options):
        # Quadrille à trois: the removed suit cannot be trumps at all [ENC-Q].
        assert trump.index not in r.tables(options).trump_suits
        pytest.skip(f"{trump.value} are not in this deck")
    assert trump.index in r.tables(options).trump_suits
    return r.trump_order(trump, options)


def test_hearts_trump_order(setup: tuple[RuleSet, dict[str, str]]) -> None:
    """Hearts trump: As, 7h, Ac, Ah, Kh, Qh, Jh, 2h, 3h, 4h, 5h, 6h, which is 12 trumps.

    [ENC-Q; PARL-PEN; EB1911]
    """
    r, options = setup
    order = _trump_case(r, options, H)
    assert order == _cards(TRUMP_ORDERS[H])
    assert len(order) == 12


def test_diamonds_trump_order(setup: tuple[RuleSet, dict[str, str]]) -> None:
    """Diamonds trump: As, 7d, Ac, Ad, Kd, Qd, Jd, 2d, 3d, 4d, 5d, 6d, which is 12 trumps.

    [ENC-Q; PARL-PEN; EB1911]
    """
    r, options = setup
    order = _trump_case(r, options, D)
    assert order == _cards(TRUMP_ORDERS[D])
    assert len(order) == 12


def test_clubs_trump_order(setup: tuple[RuleSet, dict[str, str]]) -> None:
    """Clubs trump: As, 2c, Ac, Kc, Qc, Jc, 7c, 6c, 5c, 4c, 3c, which is 11 trumps.

    [ENC-Q (order); CHAMB, BEETON (count)]
    """
    r, options = setup
    order = _trump_case(r, options, C)
    assert order == _cards(TRUMP_ORDERS[C])
    assert len(order) == 11


def test_spades_trump_order(setup: tuple[RuleSet, dict[str, str]]) -> None:
    """Spades trump: As, 2s, Ac, Ks, Qs, Js, 7s, 6s, 5s, 4s, 3s, which is 11 trumps.

    [ENC-Q; EB1911]
    """
    r, options = setup
    order = _trump_case(r, options, S)
    assert order == _cards(TRUMP_ORDERS[S])
    assert len(order) == 11


def test_compiled_tables_agree_with_trump_orders(setup: tuple[RuleSet, dict[str, str]]) -> None:
    """The compiled integer tables rank the trumps as the readable model does. [derived]"""
    r, options = setup
    tables = r.tables(options)
    for t in tables.trump_suits:
        trump = list(Suit)[t]
        order = r.trump_order(trump, options)
        assert tables.trump_order[t] == tuple(c.index for c in order)
        strengths = [tables.strength[t][c.index] for c in order]
        assert strengths == sorted(strengths, reverse=True)
        assert min(strengths) > max(
            tables.strength[t][c.index] for c in r.deck(options) if c not in order
        )


# 7-8. Plain orders.


def test_red_plain_order(setup: tuple[RuleSet, dict[str, str]]) -> None:
    """A red suit that is not trumps runs K Q J A 2 3 4 5 6 7 (10 cards); with the other red
    suit trump its 7 is the lowest card of the suit, while that suit's 7 is the 2nd trump.

    [ENC-Q]
    """
    r, options = setup
    reds = [s for s in (H, D) if s in _suits(r, options)]
    assert reds
    for red in reds:
        for trump in _suits(r, options) - {red}:
            order = r.plain_order(red, trump, options)
            letter = red.letter
            assert order == _cards(" ".join(f"{x}{letter}" for x in "KQJA234567"))
            assert order[-1] == Card.parse(f"7{letter}")
        # With the suit trump, its 7 (Manille) is the second trump.
        assert r.trump_order(red, options)[1] == Card.parse(f"7{red.letter}")
    if {H, D} <= _suits(r, options):
        assert r.plain_order(D, H, options)[-1] == Card.parse("7d")
        assert r.trump_order(H, options)[1] == Card.parse("7h")


def test_black_plain_order(setup: tuple[RuleSet, dict[str, str]]) -> None:
    """Clubs not trump run K Q J 7 6 5 4 3 2 (9 cards; Ac is a trump); with clubs trump the
    2s is the lowest spade.

    [ENC-Q; CHAMB]
    """
    r, options = setup
    for trump in _suits(r, options) - {C}:
        order = r.plain_order(C, trump, options)
        assert order == _cards("Kc Qc Jc 7c 6c 5c 4c 3c 2c")
        assert Card.parse("Ac") not in order
        assert Card.parse("Ac") in r.trump_order(trump, options)
    spades_under_clubs = r.plain_order(S, C, options)
    assert spades_under_clubs == _cards("Ks Qs Js 7s 6s 5s 4s 3s 2s")
    assert spades_under_clubs[-1] == Card.parse("2s")
    # Spadille is never a plain card either.
    for trump in _suits(r, options):
        assert Card.parse("As") not in r.plain_order(S, trump, options)


# 9. Suit sizes add up.


def test_suit_sizes_add_up(setup: tuple[RuleSet, dict[str, str]]) -> None:
    """Trumps plus plain suits are the whole deck: with hearts trump 12 + 9 + 9 + 10 = 40, with
    spades trump 11 + 9 + 10 + 10 = 40 (30 in quadrille à trois, one red suit fewer).

    [derived]
    """
    r, options = setup
    deck = set(r.deck(options))
    present = _suits(r, options)
    for trump in present:
        trumps = r.trump_order(trump, options)
        plains = {s: r.plain_order(s, trump, options) for s in present - {trump}}
        everything = trumps + [c for order in plains.values() for c in order]
        assert len(everything) == len(set(everything)) == len(deck)
        assert set(everything) == deck
        expected_plain = {s: 9 if s in (S, C) else 10 for s in plains}
        assert {s: len(o) for s, o in plains.items()} == expected_plain
        assert len(trumps) == (12 if trump in (H, D) else 11)
    if {S, C, H, D} <= present:
        assert [len(r.trump_order(H, options))] + [
            len(r.plain_order(s, H, options)) for s in (S, C, D)
        ] == [12, 9, 9, 10]
        assert [len(r.trump_order(S, options))] + [
            len(r.plain_order(s, S, options)) for s in (C, H, D)
        ] == [11, 9, 10, 10]


# 10. Punto is not a matador.


def _red_trump(r: RuleSet, options: dict[str, str]) -> Suit:
    return H if H in _suits(r, options) else D


def test_punto_is_not_a_matador(setup: tuple[RuleSet, dict[str, str]]) -> None:
    """With a red suit trump (hearts: As, 7h, Ac, Ah), there are three matadors with the
    privilege; the red ace is Punto, the 4th trump, and not a privileged matador.

    [PARL-PEN; ACAD PA10]
    """
    r, options = setup
    trump = _red_trump(r, options)
    by_name = {t.name: t for t in r.top_trumps}
    assert [t.name for t in r.top_trumps if t.matador] == ["Spadille", "Manille", "Basto"]
    assert list(r.privileged) == ["Spadille", "Manille", "Basto"]
    ponto = by_name["Ponto"]
    assert not ponto.matador
    ace = Card.parse(f"A{trump.letter}")
    assert ponto.card_for(trump) == ace
    assert r.trump_order(trump, options).index(ace) == 3  # the 4th trump
    # There is no Ponto in black trumps [EB1911].
    assert ponto.card_for(C) is None and ponto.card_for(S) is None
    # The compiled privilege: to a low trump led, the three matadors are exempt, Punto is not.
    tables = r.tables(options)
    t = trump.index
    low = Card.parse(f"5{trump.letter}")
    exempt = tables.exempt[t][low.index]
    matadors = _cards(f"As 7{trump.letter} Ac")
    assert all(exempt >> c.index & 1 for c in matadors)
    assert not exempt >> ace.index & 1
    assert bin(exempt).count("1") == 3


def test_higher_matador_led_forces_lower(setup: tuple[RuleSet, dict[str, str]]) -> None:
    """Spadille led forces Manille and Basto; Manille led forces Basto but not Spadille.

    [ENC-SPA; ACAD PA10; HOYLE-IE 0365]
    """
    r, options = setup
    trump = _red_trump(r, options)
    tables = r.tables(options)
    t = trump.index
    spadille, manille, basto = _cards(f"As 7{trump.letter} Ac")
    assert tables.exempt[t][spadille.index] == 0
    manille_led = tables.exempt[t][manille.index]
    assert manille_led >> spadille.index & 1
    assert not manille_led >> basto.index & 1


# 11. Matadors counted for payment.


def _paid_matadors(r: RuleSet, trump: Suit, hand: list[Card], options: dict[str, Any]) -> int:
    """Counts the unbroken run of trumps from the paid-from trump, as the model describes it.

    The referee's own counter is tested with the referee; this checks the model exposes what
    the count needs (the trump order, where the run starts and its minimum).
    """
    order = r.trump_order(trump, options)
    start = next(t for t in r.top_trumps if t.name == r.paid_from).card_for(trump)
    assert start is not None
    run = 0
    for card in order[order.index(start) :]:
        if card not in hand:
            break
        run += 1
    return run if run >= r.paid_minimum else 0


def test_matador_count_for_payment(setup: tuple[RuleSet, dict[str, str]]) -> None:
    """With spades trump, As 2s Ac Ks without Qs are 4 matadors for payment (the three and a
    false matador in unbroken sequence); As and Ac without 2s are 0 paid matadors (configurable
    reading; no source states a broken run's payment).

    [ACAD PA10 "sans interruption"; HOYLE-IE 0379; MORLEY p.228]
    """
    r, options = setup
    assert r.paid_from == "Spadille"
    assert r.paid_minimum == 3
    hand = _cards("As 2s Ac Ks 7s 3h")
    assert _paid_matadors(r, S, hand, options) == 4
    assert _paid_matadors(r, S, _cards("As Ac Ks Qs Js"), options) == 0
    assert _paid_matadors(r, S, _cards("As 2s Ac"), options) == 3
    assert _paid_matadors(r, S, _cards("2s Ac Ks Qs"), options) == 0


def test_matadors_paid_to_whom() -> None:
    """Quadrille pays the matadors held by the declaring side (declarer and partner together);
    Ombre's Hombre plays alone and is paid his own.

    [ACAD PA10; CG-EN PA56; MORLEY p.228]
    """
    assert load_ruleset("quadrille").paid_held_by == "side"
    assert load_ruleset("mediateur").paid_held_by == "side"
    assert load_ruleset("ombre").paid_held_by == "declarer"

"""Packs other than the forty cards: the 52-card index space, its notation, the refusal of a card
that is not in a game's pack at every input, and German Solo's 32-card piquet pack as a whole
rule file (Pierer's Universal-Lexikon, 1863, art. Solo; Wikipedia, German Solo)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from engine import IllegalActionError, NotationError, load_ruleset
from engine.cards import ALL_CARDS, PACK_SIZE, RANKS_PER_SUIT, Card, Rank, Suit, parse_cards
from engine.cli import app
from engine.records import read_record, replay
from engine.referee import Deal
from engine.scoresheet import Entry, Evening

RECORDS = Path(__file__).parent / "records"
runner = CliRunner()


# The index space and the notation.


def test_every_card_of_the_french_pack_round_trips_in_two_letters() -> None:
    assert len(ALL_CARDS) == PACK_SIZE == 52 and len(set(ALL_CARDS)) == 52
    for index, card in enumerate(ALL_CARDS):
        text = str(card)
        assert len(text) == 2 and text.isascii()
        assert Card.parse(text) is card and Card.parse(card.unicode()) is card
        assert card.index == index == card.suit.index * RANKS_PER_SUIT + card.rank.index


@pytest.mark.parametrize("text", ["Ts", "ts", "TS", "10s", "10S", "10♠", "T♠", "t♤"])
def test_the_ten_is_read_as_t_or_10_and_written_t(text: str) -> None:
    card = Card.parse(text)
    assert card.rank is Rank.TEN and card.suit is Suit.SPADES
    assert str(card) == "Ts" and card.unicode() == "10♠"
    assert Rank.parse("10") is Rank("10") is Rank.TEN


def test_the_stripped_pack_keeps_its_order() -> None:
    """The 40 cards sort as they always did (A K Q J 7 … 2 of spades, clubs, hearts, diamonds),
    so every seeded deal of a 40- or 30-card game deals the same cards as before."""
    deck = load_ruleset("quadrille").deck()
    old_ranks = ["A", "K", "Q", "J", "7", "6", "5", "4", "3", "2"]
    assert [str(c) for c in deck] == [r + s for s in "schd" for r in old_ranks]
    assert [c.index for c in deck] == sorted(c.index for c in deck)


def test_unknown_text_is_not_a_card() -> None:
    with pytest.raises(NotationError, match=r"not a card: '1s'"):
        Card.parse("1s")
    with pytest.raises(NotationError, match=r"not a card: 'Xx'"):
        parse_cards("As Xx")


# A card outside the game's pack, at every input.


def test_the_rules_refuse_a_card_outside_their_pack() -> None:
    quadrille = load_ruleset("quadrille")
    with pytest.raises(NotationError) as raised:
        quadrille.pack_card("8s")
    assert "8s is not in this game's pack" in str(raised.value)
    assert "40 cards: A K Q J 7 6 5 4 3 2" in str(raised.value)
    trois = load_ruleset("quadrille-a-trois")
    message = trois.not_in_pack(Card.parse("Ah"), {"removed-suit": "hearts"})
    assert "30 cards" in message and "less the hearts" in message
    assert load_ruleset("german-solo").pack_card("10h") is Card.parse("Th")
    with pytest.raises(NotationError, match=r"6s is not in this game's pack .*32 cards"):
        load_ruleset("german-solo").pack_card("6s")


def test_the_referee_refuses_a_card_outside_the_pack_by_name() -> None:
    deal = Deal(load_ruleset("quadrille"), seed=1)
    with pytest.raises(IllegalActionError) as raised:
        deal.apply("play 8s")
    assert raised.value.code == "play/not-in-pack"
    assert "not in this game's pack (Quadrille plays 40 cards" in str(raised.value)
    solo = Deal(load_ruleset("german-solo"), seed=1)
    with pytest.raises(IllegalActionError, match=r"6h is not in this game's pack"):
        solo.apply("play 6h")


def test_hands_with_a_card_outside_the_pack_are_refused() -> None:
    rules = load_ruleset("german-solo")
    hands = [[str(c) for c in rules.deck()[8 * k : 8 * k + 8]] for k in range(4)]
    hands[2][3] = "6c"
    with pytest.raises(NotationError, match=r"seat 2: 6c is not in this game's pack .*32 cards"):
        Deal(rules, hands=hands)


def test_a_record_with_a_card_outside_the_pack_is_refused_where_it_is(tmp_path: Path) -> None:
    text = (RECORDS / "quadrille-ask-win.yaml").read_text(encoding="utf-8")
    bad = tmp_path / "bad.yaml"
    bad.write_text(text.replace("[As, 5c, 7s,", "[As, 5c, 8s,", 1), encoding="utf-8")
    result = runner.invoke(app, ["replay", str(bad)])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "8s is not in this game's pack" in result.output and f"{bad}:" in result.output


def test_the_scorekeeper_refuses_a_card_outside_the_pack() -> None:
    evening = Evening(load_ruleset("quadrille"))
    entry = Entry(
        dealer=0,
        contract="ask",
        declarer=1,
        trump="hearts",
        called="Ts",
        holder=2,
        tricks=(0, 4, 2, 4),
    )
    with pytest.raises(IllegalActionError) as raised:
        evening.check(entry)
    assert raised.value.code == "score/not-in-pack"
    assert "Ts is not in this game's pack" in str(raised.value)


# German Solo: the 32-card piquet pack as a rule file.


def test_german_solo_pack_is_the_piquet_pack() -> None:
    """32 cards, A K Q J 10 9 8 7 of each suit [WP-GS; Pierer]."""
    deck = load_ruleset("german-solo").deck()
    assert len(deck) == 32
    assert {c.rank.value for c in deck} == set("AKQJT987")
    assert {c.suit for c in deck} == set(Suit)


def test_german_solo_trump_order() -> None:
    """Spadille (Q♣), Manille (the seven of trumps), Basta (Q♠), then the trump suit in its
    natural order: with hearts trumps Q♣ 7♥ Q♠ A♥ K♥ Q♥ J♥ 10♥ 9♥ 8♥ [Pierer 1863, Solo;
    WP-GS]; ten trumps in red, nine in black (the black queens are Spadille and Basta)."""
    rules = load_ruleset("german-solo")
    assert rules.trump_order(Suit.HEARTS) == parse_cards("Qc 7h Qs Ah Kh Qh Jh Th 9h 8h")
    assert rules.trump_order(Suit.SPADES) == parse_cards("Qc 7s Qs As Ks Js Ts 9s 8s")
    assert rules.trump_order(Suit.CLUBS) == parse_cards("Qc 7c Qs Ac Kc Jc Tc 9c 8c")
    assert rules.plain_order(Suit.CLUBS, Suit.HEARTS) == parse_cards("Ac Kc Jc Tc 9c 8c 7c")
    assert rules.plain_order(Suit.DIAMONDS, Suit.HEARTS) == parse_cards("Ad Kd Qd Jd Td 9d 8d 7d")
    assert [top.name for top in rules.top_trumps] == ["Spadille", "Manille", "Basta"]


def test_german_solo_deals_eight_each_in_packets_of_three_two_three() -> None:
    """Eight cards each, dealt 3-2-3, no talon [Pierer: "zu 3,2 u. 3"]."""
    rules = load_ruleset("german-solo")
    assert rules.packets == ((3, 2, 3),) and rules.hand_size == 8 and rules.talon == 0
    for seed in range(5):
        deal = Deal(rules, seed=seed, dealer=seed % 4)
        assert [len(h) for h in deal.dealt] == [8, 8, 8, 8] and not deal.dealt_talon
        assert sorted(c for h in deal.dealt for c in h) == sorted(rules.tables().deck)


def test_german_solo_couleur_outbids_the_same_game() -> None:
    """A game in the Couleur outbids the same game in another suit; Solo outbids the Frage
    [Pierer]."""
    rules = load_ruleset("german-solo")
    ranks = {cid: c.rank for cid, c in rules.contracts.items() if c.biddable}
    assert ranks["frage"] < ranks["frage-couleur"] < ranks["solo"] < ranks["solo-couleur"]
    assert rules.contracts["frage-couleur"].trump_option == "couleur"
    assert rules.contracts["frage"].trump_not_option == "couleur"
    assert rules.call is not None and rules.call.rank is Rank.ACE


def test_german_solo_frage_won_with_the_partner() -> None:
    """Seat 3 asks with spades trumps and calls A♥ (seat 0): five tricks of eight win. Each
    partner takes half the pot of 4 and is paid the Frage's 2 by one defender."""
    deal = replay_one("german-solo-frage-win.yaml")
    assert deal["contract"] == "frage" and deal["declarer"] == 3 and deal["partners"] == [0]
    assert deal["result"] == "win" and deal["tricks_won"][3] + deal["tricks_won"][0] == 5
    assert deal["balances"] == [3, -3, -3, 3] and deal["pot_after"] == 0


def test_german_solo_lost_game_makes_a_bete() -> None:
    """A Frage in the Couleur lost with four tricks: the side pays each defender the game (4)
    and doubles what lies on the table (a bête of 4), half and half [casino]."""
    deal = replay_one("german-solo-couleur-lost.yaml")
    assert deal["contract"] == "frage-couleur" and deal["result"] == "lost"
    assert deal["bete"] == 4 and deal["pot_after"] == 8
    assert deal["balances"] == [3, -7, 3, -7]


def test_german_solo_prime_for_laying_down_after_five_tricks() -> None:
    """The side that wins the first five tricks may stop and take the prime [WP-GS]: a Frage in
    the Couleur laid down pays each partner half of the pot (2) and half of the game and prime
    (4 + 1) from both defenders."""
    deal = replay_one("german-solo-prime.yaml")
    assert deal["contract"] == "frage-couleur" and deal["result"] == "prime"
    assert sum(deal["tricks_won"]) == 5 and deal["balances"] == [6, 6, -6, -6]


def test_laid_down_condition_needs_a_short_hand() -> None:
    from engine.referee.result import evaluate_result

    rules = load_ruleset("german-solo")
    assert evaluate_result(rules, [4, 1, 0, 0], [0, 1], played=5) == "prime"
    assert evaluate_result(rules, [4, 1, 2, 1], [0, 1], played=8) == "win"
    assert evaluate_result(rules, [2, 2, 2, 2], [0, 1], played=8) == "lost"


def test_a_24_card_pack_is_only_a_variant_file() -> None:
    """The Münsterland Sollo: the skat pack without its eights and nines, six each, four tricks
    to win, the Frage always in hearts [DE-WP-SOLO]."""
    rules = load_ruleset("german-solo-muensterland")
    assert len(rules.deck()) == 24 and rules.hand_size == 6
    assert rules.trump_order(Suit.HEARTS) == parse_cards("Qc 7h Qs Ah Kh Qh Jh Th")
    assert rules.plain_order(Suit.SPADES, Suit.HEARTS) == parse_cards("As Ks Js Ts 7s")
    deal = Deal(rules, seed=3)
    assert [len(h) for h in deal.dealt] == [6, 6, 6, 6]
    from engine.referee.result import evaluate_result

    assert evaluate_result(rules, [2, 1, 2, 1], [0, 2], played=6) == "win"
    assert evaluate_result(rules, [2, 1, 1, 2], [0, 2], played=6) == "lost"
    with pytest.raises(IllegalActionError, match=r"9h is not in this game's pack .*24 cards"):
        deal.apply("play 9h")


def replay_one(name: str) -> dict:
    record = read_record(RECORDS / name)
    report = replay(record, load_ruleset(record.ruleset))
    assert report.complete and report.error is None, report.located
    deal: dict = report.as_json()["deals"][0]
    return deal


def test_german_solo_plays_through_the_command_line(tmp_path: Path) -> None:
    record = tmp_path / "solo.yaml"
    played = runner.invoke(
        app, ["play", "german-solo", "--auto", "--seed", "4", "--record", str(record)]
    )
    assert played.exit_code == 0, played.output
    replayed = runner.invoke(app, ["replay", str(record)])
    assert replayed.exit_code == 0 and "result: win" in replayed.output
    cards = runner.invoke(app, ["cards", "german-solo", "--trump", "hearts"])
    assert cards.exit_code == 0 and cards.output.rstrip().endswith("32 cards")
    assert "10♥" in cards.output and "Th" in cards.output

"""Trick play, deal and auction: acceptance items 12-33 of the project's research, each with its source."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import IllegalActionError, load_ruleset
from engine.cards import Card
from engine.referee import Deal
from tests.referee_helpers import deal_with, into_play, run, six_tricks_to_the_side


def strength(ruleset: str, trump: str, card: str) -> int:
    rules = load_ruleset(ruleset)
    return rules.tables().strength[Card.parse("A" + trump[0]).suit.index][Card.parse(card).index]


def trick_winner(deal: Deal) -> int:
    return deal.tricks[-1].winner


# Trick play (items 12-20).


def test_trump_beats_plain() -> None:
    """12. Diamonds trump; K♠ led, then 2♦, A♥, Q♠: the 2♦ wins. [derived from §2.0]"""
    deal = deal_with(
        "quadrille",
        {
            1: "Ks 7s 6s Kd Qd Jd Ad 3d 4d 5d",
            2: "2d Kc Qc Jc 7c 6c 5c 4c 3c 2c",
            3: "Ah Kh Qh Jh 2h 3h 4h 5h 6h 7h",
        },
    )
    into_play(deal, "sans-prendre", "diamonds")
    run(deal, ["1 play Ks", "2 play 2d", "3 play Ah", "0 play Qs"])
    assert trick_winner(deal) == 2
    assert [str(c) for c in deal.tricks[0].cards] == ["Ks", "2d", "Ah", "Qs"]


def test_red_plain_order_in_play() -> None:
    """13. Spades trump; 6♦ led, then 7♦, A♦, 2♦: the A♦ wins; 2♦ > 6♦ > 7♦. [ENC-Q]"""
    deal = deal_with("quadrille", {1: "6d Ks Qs Js As 2s Ac 7s 6s 5s", 2: "7d", 3: "Ad", 0: "2d"})
    into_play(deal, "sans-prendre", "spades")
    run(deal, ["1 play 6d", "2 play 7d", "3 play Ad", "0 play 2d"])
    assert trick_winner(deal) == 3
    assert strength("quadrille", "spades", "2d") > strength("quadrille", "spades", "6d")
    assert strength("quadrille", "spades", "6d") > strength("quadrille", "spades", "7d")


@pytest.mark.parametrize("ruleset", ["quadrille", "ombre", "mediateur", "quadrille-a-trois"])
def test_ace_versus_king_depends_on_trumps(ruleset: str) -> None:
    """14. Hearts trump: A♥ (Punto) beats K♥; clubs trump: K♥ beats A♥. [ENC-Q; EB1911]"""
    options = {"removed-suit": "diamonds"} if ruleset == "quadrille-a-trois" else None
    rules = load_ruleset(ruleset)
    tables = rules.tables(options)
    hearts, clubs = 2, 1
    ah, kh = Card.parse("Ah").index, Card.parse("Kh").index
    assert tables.strength[hearts][ah] > tables.strength[hearts][kh]
    assert tables.strength[clubs][kh] > tables.strength[clubs][ah]


def test_must_follow_suit_but_need_not_trump_or_beat() -> None:
    """15. Follow suit if able; void, play anything; following need not beat. [ENC-Q; ACAD PA45 XVIII]"""
    deal = deal_with(
        "quadrille",
        {
            1: "Ks 7s 6s Kd Qd Jd Ad 3d 4d 5d",
            2: "2s Kc Qc Jc 7c 6c 5c 4c 3c 2c",
            3: "Ah Kh Qh Jh 2h 3h 4h 5h 6h 7h",
        },
    )
    into_play(deal, "sans-prendre", "diamonds")
    run(deal, ["1 play 6s"])
    with pytest.raises(IllegalActionError) as refused:
        deal.apply("2 play Kc", seat=2)
    assert refused.value.code == "play/must-follow-suit"
    assert "enc-q" in refused.value.rule
    run(deal, ["2 play 2s"])  # follows low: no duty to beat
    run(deal, ["3 play 7h"])  # void in spades, not forced to trump (he holds no diamond)
    assert deal.to_move == 0
    assert all(a.card.suit.value == "spades" for a in deal.legal_actions())


def test_matador_privilege_against_lower_trump() -> None:
    """16. Hearts trump, 5♥ led: a player whose only trump is A♣ (Basto) may play K♠. [ACAD PA10; HOYLE-IE 0365]"""
    deal = deal_with(
        "quadrille",
        {1: "5h Kh Qh Jh 2h 3h 4h As 7h Ah", 2: "Ac Ks Qs Js 7s 6s Kc Qc Jc 7c"},
    )
    into_play(deal, "sans-prendre", "hearts")
    run(deal, ["1 play 5h"])
    legal = {str(a) for a in deal.legal_actions()}
    assert "play Ks" in legal and "play Ac" in legal
    run(deal, ["2 play Ks"])


def test_spadille_led_forces_manille() -> None:
    """17. Hearts trump, A♠ led: a player whose only trump is 7♥ (Manille) must play it. [ENC-SPA; ACAD PA10]"""
    deal = deal_with(
        "quadrille",
        {1: "As Kh Qh Jh 2h 3h 4h 5h Ac Ah", 2: "7h Ks Qs Js 7s 6s Kc Qc Jc 7c"},
    )
    into_play(deal, "sans-prendre", "hearts")
    run(deal, ["1 play As"])
    assert [str(a) for a in deal.legal_actions()] == ["play 7h"]
    with pytest.raises(IllegalActionError) as refused:
        deal.apply("2 play Ks")
    assert refused.value.code == "play/matador-forced"


def test_manille_led_forces_basto() -> None:
    """18. Spades trump, 2♠ led: a player whose only trump is A♣ must play it. [HOYLE-IE 0365; ACAD PA10]"""
    deal = deal_with(
        "quadrille",
        {1: "2s Ks Qs Js 7s 6s 5s 4s As 3s", 2: "Ac Kh Qh Jh 2h Kd Qd Jd Kc Qc"},
    )
    into_play(deal, "sans-prendre", "spades")
    run(deal, ["1 play 2s"])
    assert [str(a) for a in deal.legal_actions()] == ["play Ac"]


def test_spadille_played_not_led_does_not_force() -> None:
    """19. Hearts trump, 4♥ led, A♠ played second: Basto alone is not forced. [ACAD PA10; AEAV law 7]"""
    deal = deal_with(
        "quadrille",
        {
            1: "4h Kh Qh Jh 2h 3h 5h 6h Ks Qs",
            2: "As Js 7s 6s 5s 4s 3s 2s Kc Qc",
            3: "Ac Jc 7c 6c 5c 4c 3c 2c Kd Qd",
        },
    )
    into_play(deal, "sans-prendre", "hearts")
    run(deal, ["1 play 4h", "2 play As"])
    legal = {str(a) for a in deal.legal_actions()}
    assert "play Ac" in legal and "play Jc" in legal and len(legal) == 10


def test_two_matadors_kept_unless_higher_led() -> None:
    """20. Hearts trump: holding 7♥ and A♣ only, 6♥ led: keep both; A♠ led: play one. [ACAD PA10]"""
    six = deal_with(
        "quadrille",
        {1: "6h Kh Qh Jh 2h 3h 4h 5h As Ah", 2: "7h Ac Ks Qs Js 7s Kc Qc Jc 7c"},
    )
    into_play(six, "sans-prendre", "hearts")
    run(six, ["1 play 6h"])
    assert len(six.legal_actions()) == 10
    spadille = deal_with(
        "quadrille",
        {1: "As Kh Qh Jh 2h 3h 4h 5h 6h Ah", 2: "7h Ac Ks Qs Js 7s Kc Qc Jc 7c"},
    )
    into_play(spadille, "sans-prendre", "hearts")
    run(spadille, ["1 play As"])
    assert {str(a) for a in spadille.legal_actions()} == {"play 7h", "play Ac"}


# Deal and auction (items 21-33).


@pytest.mark.parametrize("ruleset", ["quadrille", "mediateur", "quadrille-a-trois"])
def test_deal_packets(ruleset: str) -> None:
    """21. Ten each in packets of 3, 3 and 4 (or 4, 3, 3), never one or two at a time. [ENC-Q; CG-EN PA47]"""
    rules = load_ruleset(ruleset)
    assert (3, 3, 4) in rules.packets and (4, 3, 3) in rules.packets
    assert all(sum(p) == 10 and min(p) >= 3 for p in rules.packets)
    deal = Deal(rules, seed=42, dealer=2)
    assert all(len(h) == 10 for h in deal.dealt)
    assert deal.dealt_talon == ()


def test_seeded_deal_is_reproducible() -> None:
    """Dealing is recorded chance: the same seed gives the same hands on any machine."""
    rules = load_ruleset("quadrille")
    a, b = Deal(rules, seed=7), Deal(rules, seed=7)
    assert a.dealt == b.dealt
    assert a.dealt != Deal(rules, seed=8).dealt
    # Pinned to literal cards: a change of the shuffle would silently change every seeded
    # record, so it must fail here first.
    hands = [" ".join(str(Card.from_index(c)) for c in h) for h in a.dealt]
    assert hands == [
        "Qh 2s 3h 7h 3c 7c Jc 2h 7d Ks",
        "5c 6s 2d Qs 6c Ad 3s Jh 4h 5d",
        "Qc 6h 6d Kh As Ac Kc Jd 4d Qd",
        "Ah 5s 4c Js 3d 2c Kd 7s 4s 5h",
    ]
    ombre = Deal(load_ruleset("ombre"), seed=7)
    assert [" ".join(str(Card.from_index(c)) for c in h) for h in ombre.dealt] == [
        "Ah 5s 4c Kh As Ac 3s Jh 4h",
        "5c 6s 2d Qh 2s 3h Js 3d 2c",
        "Qc 6h 6d Qs 6c Ad 7h 3c 7c",
    ]
    assert " ".join(str(Card.from_index(c)) for c in ombre.dealt_talon) == (
        "5d Kc Jd 4d Qd Kd 7s 4s 5h Jc 2h 7d Ks"
    )


def test_seating_order() -> None:
    """22. P1 deals: P2 (his right) speaks first and leads; order P2, P3, P4, P1. [ENC-Q; HOYLE-IE 0362]"""
    deal = Deal(load_ruleset("quadrille"), seed=3, dealer=0)
    order = []
    while deal.phase == "auction":
        order.append(deal.to_move)
        deal.apply("pass")
    assert order == [1, 2, 3, 0]
    dealt_by_3 = Deal(load_ruleset("quadrille"), seed=3, dealer=3)
    assert dealt_by_3.eldest == 0 and dealt_by_3.to_move == 0


def test_sans_appeller_outranks_asking_and_the_asker_is_preferred() -> None:
    """23. P2 asks, P3 sans appeller: P2 may play sans appeller himself and is preferred. [ENC-Q; ACAD PA45 IX-X]"""
    deal = Deal(load_ruleset("quadrille"), seed=11, dealer=0)
    run(deal, ["1 bid ask", "2 bid sans-prendre"])
    assert deal.phase == "match" and deal.to_move == 1
    assert {str(a) for a in deal.legal_actions()} == {"pass", "bid sans-prendre"}
    run(deal, ["1 bid sans-prendre", "3 pass", "0 pass"])
    assert deal.declarer == 1 and deal.contract is not None
    assert deal.contract.id == "sans-prendre"

    declined = Deal(load_ruleset("quadrille"), seed=11, dealer=0)
    run(declined, ["1 bid ask", "2 bid sans-prendre", "1 pass", "3 pass", "0 pass"])
    assert declined.declarer == 2


def test_asking_binds_and_passing_is_final() -> None:
    """24. The asker must play unless outbid; a player who passed cannot come back. [ENC-Q; ACAD PA45 VII-VIII]"""
    deal = Deal(load_ruleset("quadrille"), seed=5, dealer=0)
    run(deal, ["1 pass", "2 bid ask"])
    with pytest.raises(IllegalActionError) as refused:
        deal.apply("bid ask", seat=1)
    assert refused.value.code == "bid/not-your-turn"
    with pytest.raises(IllegalActionError) as outranked:
        deal.apply("bid ask", seat=3)
    assert outranked.value.code == "bid/outranked"
    run(deal, ["3 pass", "0 pass"])
    assert deal.declarer == 2 and deal.phase == "trump"


def _forced_spadille_deal() -> Deal:
    # Seat 2 holds spadille; everyone passes.
    deal = deal_with(
        "quadrille", {2: "As 2c 3c 4c 5c 6c 7c 2d 3d 4d", 3: "Kc Ac Jc Qc Kh Qh Jh Ah 2h 3h"}
    )
    return run(deal, ["1 pass", "2 pass", "3 pass", "0 pass"])


def test_forced_spadille() -> None:
    """25. All pass: the holder of A♠ must play, calling a king, and may not play the vole. [ENC-Q; HOYLE-IE 0365 law 2, law 16]"""
    deal = _forced_spadille_deal()
    assert deal.declarer == 2 and deal.forced
    assert deal.contract is not None and deal.contract.id == "forced-spadille"
    assert not deal.contract.vole_allowed and deal.contract.shared_liability
    run(deal, ["2 trump clubs"])
    assert deal.phase == "call"
    run(deal, ["2 call Kh"])
    assert deal.partner == 3


def test_calling_the_trump_king_is_refused() -> None:
    """26. Hearts trump: the caller may not call K♥. [ENC-Q]"""
    deal = deal_with("quadrille", {1: "As 7h Ac Ah Qh Jh 2h 3h 4h 5h"})
    run(deal, ["1 bid ask", "2 pass", "3 pass", "0 pass", "1 trump hearts"])
    with pytest.raises(IllegalActionError) as refused:
        deal.apply("call Kh")
    assert refused.value.code == "call/trump-king"
    assert {str(a) for a in deal.legal_actions()} == {"call Ks", "call Kc", "call Kd"}


def test_calling_a_queen_with_four_kings() -> None:
    """27. Four kings, diamonds trump: may call Q♠ Q♣ Q♥, not Q♦, or one of his own kings. [ENC-Q; HOYLE-IE law 12]"""
    deal = deal_with("quadrille", {1: "Ks Kc Kh Kd As Ac 7d Ad Qd Jd"})
    run(deal, ["1 bid ask", "2 pass", "3 pass", "0 pass", "1 trump diamonds"])
    legal = {str(a) for a in deal.legal_actions()}
    assert {"call Qs", "call Qc", "call Qh"} <= legal
    assert "call Qd" not in legal and "call Kd" not in legal
    assert {"call Ks", "call Kc", "call Kh"} <= legal
    run(deal, ["1 call Kc"])
    assert deal.partner is None  # his own king: he plays alone


def test_three_plain_kings_cannot_call_a_queen() -> None:
    """28. Clubs trump, holding K♠ K♥ K♦ but not K♣: no queen; call one of his own kings. [ACAD-2 Zs4D PA57]"""
    deal = deal_with("quadrille", {1: "Ks Kh Kd As Ac 2c Qc Jc 7c 6c"})
    run(deal, ["1 bid ask", "2 pass", "3 pass", "0 pass", "1 trump clubs"])
    with pytest.raises(IllegalActionError) as refused:
        deal.apply("call Qh")
    assert refused.value.code == "call/queen-needs-all-kings"
    assert {str(a) for a in deal.legal_actions()} == {"call Ks", "call Kh", "call Kd"}


def test_calling_your_own_king_plays_alone() -> None:
    """29. Calling a king he holds: he plays alone for six tricks. [ENC-Q]"""
    deal = deal_with("quadrille", {1: "Ks Qs As Ac 2c Kc Qc Jc 7c 6c"})
    run(deal, ["1 bid ask", "2 pass", "3 pass", "0 pass", "1 trump clubs", "1 call Ks"])
    assert deal.partner is None and deal.side == [1]
    assert deal.phase == "play"


def test_quadrille_a_trois_demanded_king() -> None:
    """30. À trois, spades trump, K♥ demanded: its holder hands it over and takes a card the third may see. [ENC-Q]"""
    deal = deal_with(
        "quadrille-a-trois",
        {1: "As 2s Ac Ks Qs Js 7s 6s 5c 4c", 2: "Kh Qh Jh Ah 2h 3h 4h 5h 6h 7h"},
    )
    run(deal, ["1 bid ask", "2 pass", "0 pass", "1 trump spades", "1 call Kh"])
    assert deal.demanded_from == 2
    assert deal.phase == "give"
    assert "give Kh" not in {str(a) for a in deal.legal_actions()}
    run(deal, ["1 give 4c"])
    assert Card.parse("Kh") in deal.hand(1) and Card.parse("4c") in deal.hand(2)
    assert deal.view(0).given == Card.parse("4c")  # the third player may see it
    assert deal.partner is None and deal.phase == "play"


def test_quadrille_a_trois_removed_suit_cannot_be_trumps() -> None:
    """31. Diamonds removed: naming diamonds trumps is refused. [ENC-Q]"""
    deal = deal_with("quadrille-a-trois", {}, options={"removed-suit": "diamonds"})
    run(deal, ["1 bid sans-prendre", "2 pass", "0 pass"])
    with pytest.raises(IllegalActionError) as refused:
        deal.apply("trump diamonds")
    assert refused.value.code == "trump/not-in-pack"
    assert (
        len(
            Deal(
                load_ruleset("quadrille-a-trois"), seed=1, options={"removed-suit": "hearts"}
            ).t.deck
        )
        == 30
    )


def test_mediateur_precedence() -> None:
    """32. Without a favourite suit: ask leave < médiateur < sans prendre. [HOYLE-IE 0381]"""
    deal = Deal(load_ruleset("mediateur"), seed=2, dealer=0)
    assert [str(a) for a in deal.legal_actions()] == [
        "pass",
        "bid ask",
        "bid mediateur",
        "bid sans-prendre",
    ]
    run(deal, ["1 bid ask"])
    assert [str(a) for a in deal.legal_actions()] == ["pass", "bid mediateur", "bid sans-prendre"]
    run(deal, ["2 bid mediateur"])
    assert [str(a) for a in deal.legal_actions()] == ["pass", "bid sans-prendre"]


_vole_deal = six_tricks_to_the_side


def test_vole_undertaken_only_after_the_called_king_appeared() -> None:
    """33. After six tricks the winner may undertake the vole, only once the called king has appeared. [ENC-Q; HOYLE-IE laws 11, 19]"""
    seen = _vole_deal("Kc")
    assert seen.phase == "vole" and seen.to_move == 1
    # vole, stop, or lead the seventh card, which undertakes the vole (HOYLE-IE law 11).
    assert {str(a) for a in seen.legal_actions()} == {"vole", "stop"} | {
        f"play {c}" for c in seen.hand(1)
    }
    run(seen, ["1 vole"])
    assert seen.vole_undertaken and seen.phase == "play"

    hidden = _vole_deal("Js")
    assert sum(hidden.won[s] for s in hidden.side) == 6
    assert hidden.phase == "play"  # the king has not appeared: no vole
    with pytest.raises(IllegalActionError) as refused:
        hidden.apply("vole", seat=1)
    assert refused.value.code == "vole/not-now"


def test_stop_lays_down_and_wins() -> None:
    """Laying down after six tricks ends the deal as a win. [HOYLE-IE law 20]"""
    deal = _vole_deal("Kc")
    run(deal, ["1 stop"])
    assert deal.is_over and deal.result == "win" and len(deal.tricks) == 6


def test_ombre_exchange_order_and_limits() -> None:
    """Ombre: trumps named first, the Hombre discards first, then the others in turn; first takes at most 8. [ENC-HOM; HOMB-F PA48-IA8]"""
    deal = Deal(load_ruleset("ombre"), seed=4, dealer=0)
    run(deal, ["1 bid entrada", "2 pass", "0 pass"])
    assert deal.phase == "trump"
    run(deal, ["1 trump hearts"])
    assert deal.phase == "exchange" and deal.to_move == 1
    assert deal.exchange_limit() == 8
    hand = [str(c) for c in deal.hand(1)]
    with pytest.raises(IllegalActionError) as refused:
        deal.apply("discard " + " ".join(hand))
    assert refused.value.code == "discard/too-many"
    run(deal, ["1 discard " + " ".join(hand[:4])])
    assert deal.to_move == 2 and len(deal.hand(1)) == 9
    # 9 left in the talon; the middle player must leave five for the last (unless a matador).
    holds_matador = any(c in deal.hand(2) for c in map(Card.parse, ["As", "7h", "Ac"]))
    assert deal.exchange_limit() == (9 if holds_matador else 4)


def test_ombre_sans_prendre_keeps_his_hand() -> None:
    """Ombre sans prendre: no écart for the Hombre; the player on his right discards first. [HOMB-F; CG-EN PA22]"""
    deal = Deal(load_ruleset("ombre"), seed=4, dealer=0)
    run(deal, ["1 bid sans-prendre", "2 pass", "0 pass", "1 trump spades"])
    assert deal.phase == "exchange" and deal.to_move == 2
    before = deal.hand(1)
    run(deal, ["2 discard", "0 discard"])
    assert deal.phase == "play" and deal.hand(1) == before and deal.to_move == 1


def test_ombre_all_pass_redeals_with_added_stakes() -> None:
    """Ombre: all pass, the deal is void; the redeal is staked two more jetons each. [ENC-HOM]"""
    from engine.referee.party import Party

    party = Party(load_ruleset("ombre"))
    deal = party.new_deal(seed=4)
    run(deal, ["1 pass", "2 pass", "0 pass"])
    assert deal.is_over and deal.result == "redeal"
    assert deal.settlement is not None
    assert deal.settlement.balances == (-3, -3, -3) and deal.settlement.pot_after == 9
    redeal = party.new_deal(seed=5)
    assert redeal.dealer == 1
    run(redeal, ["2 pass", "0 pass", "1 pass"])
    assert redeal.settlement is not None
    assert redeal.settlement.balances == (-2, -2, -2) and redeal.settlement.pot_after == 15
    third = party.new_deal(seed=6)
    run(third, ["0 pass", "1 pass", "2 pass"])
    assert third.settlement is not None and third.settlement.pot_after == 21


def test_mediateur_favourite_suit_precedence() -> None:
    """32. Favourite suit hearts: ask ♣ < ask ♥ < médiateur ♣ < médiateur ♥ < sans prendre ♣ < sans prendre ♥. [HOYLE-IE 0381]"""
    rules = load_ruleset("mediateur-couleur-favorite")
    deal = Deal(rules, seed=2, dealer=0, options={"favourite-suit": "hearts"})
    order = [str(a) for a in deal.legal_actions()][1:]
    assert order == [
        "bid ask",
        "bid ask-favourite",
        "bid mediateur",
        "bid mediateur-favourite",
        "bid sans-prendre",
        "bid sans-prendre-favourite",
    ]
    run(deal, ["1 bid ask", "2 bid ask-favourite", "3 pass", "0 pass"])
    assert deal.declarer == 2
    assert [str(a) for a in deal.legal_actions()] == ["trump hearts"]
    plain = Deal(rules, seed=2, dealer=0, options={"favourite-suit": "hearts"})
    run(plain, ["1 bid ask", "2 pass", "3 pass", "0 pass"])
    with pytest.raises(IllegalActionError) as refused:
        plain.apply("trump hearts")
    assert refused.value.code == "trump/option-excluded"
    assert "trump hearts" not in {str(a) for a in plain.legal_actions()}


def test_view_shows_only_what_the_seat_may_see() -> None:
    """A seat sees its own hand, the public play, and the partner only once the called king is out."""
    deal = _vole_deal("Js")  # the called Kc (seat 3) has not been played
    view0 = deal.view(0)
    assert view0.hand == tuple(deal.hand(0))
    assert "hands" not in view0.as_json() and all(k != "talon_cards" for k in view0.as_json())
    assert not hasattr(view0, "hands") and not hasattr(view0, "talon_cards")
    assert view0.partner is None and view0.called == Card.parse("Kc")
    assert deal.view(3).partner == 3  # the friend knows himself
    assert deal.view(1).partner is None  # the declarer does not know his friend yet
    assert view0.legal == () and deal.view(deal.to_move).legal
    assert list(view0.tricks_won) == deal.won
    seen = _vole_deal("Kc")
    assert seen.view(0).partner == 3


def test_a_revoke_on_a_matador_lead_is_a_revoke() -> None:
    """Basto led, a player holding ordinary trumps must follow: the code is must-follow-suit, not matador-forced."""
    deal = deal_with(
        "quadrille",
        {1: "Ac Ks Qs Js 7s 6s 5s 4s 3s 2s", 2: "3c 4c 7c Kd Qd Jd Ad 2d 3d 4d"},
    )
    into_play(deal, "sans-prendre", "clubs")
    run(deal, ["1 play Ac"])
    with pytest.raises(IllegalActionError) as refused:
        deal.apply("2 play Kd")
    assert refused.value.code == "play/must-follow-suit"


def test_demanding_ones_own_queen_is_refused_as_ones_own() -> None:
    """Holding every king, the médiateur may demand a queen, never his own."""
    deal = deal_with("mediateur", {1: "Ks Kc Kh Kd Qs As Ac 7d Ad Qd"})
    run(deal, ["1 bid mediateur", "2 pass", "3 pass", "0 pass", "1 trump diamonds"])
    legal = {str(a) for a in deal.legal_actions()}
    assert legal == {"call Qc", "call Qh"}
    with pytest.raises(IllegalActionError) as refused:
        deal.apply("call Qs")
    assert refused.value.code == "call/own-card"
    with pytest.raises(IllegalActionError) as jack:
        deal.apply("call Jh")
    assert jack.value.code == "call/not-callable"


def test_must_trump_and_must_overtake_when_a_rule_file_imposes_them(tmp_path: Path) -> None:
    """The duties no period source imposes are still mechanisms a variant may switch on."""
    from engine.rules.loader import Registry
    from engine.rules.model import build_ruleset

    path = tmp_path / "strict.yaml"
    path.write_text(
        "id: strict\nname: Strict\nextends: quadrille\nsummary: s\n"
        "play:\n  must_trump: true\n  must_overtake: true\n"
        "  basis: {evidence: conjecture, note: a test of the mechanisms}\n",
        encoding="utf-8",
    )
    registry = Registry()
    rules = build_ruleset(registry.resolve(registry.add_path(path)))
    deal = Deal(
        rules,
        hands=[
            ["Js", "5s", "4s", "3s", "Ac", "4c", "3c", "2c", "6d", "7d"],
            ["Ks", "7s", "6s", "Kd", "Qd", "Jd", "Ad", "3d", "4d", "5d"],
            ["Qs", "2s", "Kc", "Qc", "Jc", "7c", "6c", "5c", "Kh", "Qh"],
            ["As", "2d", "Ah", "Jh", "7h", "6h", "5h", "4h", "3h", "2h"],
        ],
    )
    run(deal, ["1 bid sans-prendre", "2 pass", "3 pass", "0 pass", "1 trump diamonds"])
    run(deal, ["1 play 6s"])
    # Seat 2 follows spades and must beat the 6s: only the Qs does.
    assert [str(a) for a in deal.legal_actions()] == ["play Qs"]
    with pytest.raises(IllegalActionError) as low:
        deal.apply("2 play 2s")
    assert low.value.code == "play/must-overtake"
    run(deal, ["2 play Qs"])
    # Seat 3 has no spade: he must trump (As or 2d, both beat the Qs).
    assert {str(a) for a in deal.legal_actions()} == {"play As", "play 2d"}
    with pytest.raises(IllegalActionError) as discard:
        deal.apply("3 play Ah")
    assert discard.value.code == "play/must-trump"
    run(deal, ["3 play 2d"])
    # Seat 0 follows spades; nothing of his beats a trump, so any spade will do.
    assert {str(a) for a in deal.legal_actions()} == {"play Js", "play 5s", "play 4s", "play 3s"}
    with pytest.raises(IllegalActionError) as refused:
        deal.apply("0 play 4c")
    assert refused.value.code == "play/must-follow-suit"


@pytest.mark.parametrize(
    ("declarer", "partner", "expected"),
    [
        ("As 2s Ac Ks 7s 3h 4h 5h 6h 2d", "Kc Qc Jc 7c 6c 5c 4c 3c 2c Qh", 4),
        ("As Ac Ks Qs Js 7s 3h 4h 5h 6h", "Kc Qc Jc 7c 6c 5c 4c 3c 2c 2s", 7),
        ("As Ac Ks Qs Js 7s 3h 4h 5h 6h", "Kc Qc Jc 7c 6c 5c 4c 3c 2c Qh", 0),
    ],
)
def test_referee_counts_paid_matadors(declarer: str, partner: str, expected: int) -> None:
    """11. Spades trump: As 2s Ac Ks without Qs are 4 paid matadors; the run may be split
    between the partners; Spadille and Basto without Manille pay nothing. [ACAD PA10; CG-EN PA56; MORLEY p.228]"""
    deal = deal_with("quadrille", {1: declarer, 3: partner})
    into_play(deal, "ask", "spades", call="Kc")
    assert deal.partner == 3
    assert deal.paid_matadors() == expected


def _self_caller_six_tricks(leads: str) -> Deal:
    """Quadrille: seat 1 (hearts) calls the Kc he holds himself and takes the first six tricks,
    leading ``leads`` in turn (with ``Kc`` among them the called king has appeared)."""
    deal = deal_with(
        "quadrille",
        {
            1: "As 7h Ac Ah Kh Qh Jh 2h 3h Kc",
            3: "Qc Jc 7c 6c 5c 4c Qs Js 7s 6s",
            2: "4h 5h 6h Kd Qd Jd Ad 2d 3d 4d",
        },
    )
    into_play(deal, "ask", "hearts", call="Kc")
    assert deal.partner is None and deal.declarer == 1  # he plays alone
    for lead in leads.split():
        run(deal, [f"1 play {lead}"])
        for seat in (2, 3, 0):
            deal.apply(deal.legal_actions()[0], seat=seat)
    return deal


def test_self_caller_undertakes_no_vole_before_his_king_appeared() -> None:
    """The self-caller may not undertake the vole before the king he called has been played, and a vole made so is not paid. [ENC-Q "La vole ne sauroit être entreprise que le roi appellé n'ait paru"; ACAD-2 Zs4D laws LI, LIII]"""
    hidden = _self_caller_six_tricks("As 7h Ac Ah Kh Qh")
    assert sum(hidden.won[s] for s in hidden.side) == 6
    assert not hidden.partner_seen
    assert hidden.phase == "play"  # the called king has not appeared: no vole
    with pytest.raises(IllegalActionError) as refused:
        hidden.apply("vole", seat=1)
    assert refused.value.code == "vole/not-now"
    # He takes every trick: a win, not a vole ("n'en feroient point payez", ACAD-2 law LIII).
    while not hidden.is_over:
        hidden.apply(hidden.legal_actions()[0], seat=hidden.to_move)
    assert hidden.won[1] == 10 and hidden.result == "win"

    shown = _self_caller_six_tricks("As 7h Ac Kc Ah Kh")
    assert shown.partner_seen and shown.phase == "vole" and shown.to_move == 1


def test_called_card_on_the_table_makes_its_holder_known_at_once() -> None:
    """A called king played makes its holder known to every seat as it falls (the status line
    and Deal.view's partner), while the laws that turn on the partner being known keep the
    trick's end (partner_seen is counted when the trick is gathered). [ENC-Q "La vole ne sauroit
    être entreprise que le roi appellé n'ait paru"]"""
    deal = deal_with(
        "quadrille",
        {
            1: "As 7h Ac Ah Kh Qh Jh 2h 3h Qc",
            2: "Kc 4h 5h 6h Kd Qd Jd Ad 2d 3d",
        },
    )
    into_play(deal, "ask", "hearts", call="Kc")
    assert deal.partner == 2 and deal.declarer == 1
    run(deal, ["1 play Qc"])
    assert all(deal.view(s).partner is None for s in (0, 1, 3))
    assert deal.view(2).partner == 2  # the holder knows he is the friend
    run(deal, ["2 play Kc"])
    assert not deal.partner_seen  # the law's timing: the trick is not gathered yet
    assert not deal.partner_known_to(3)
    for seat in range(4):
        assert deal.holder_known_to(seat)
        assert deal.view(seat).partner == 2
    deal.apply(deal.legal_actions()[0], seat=deal.to_move)
    deal.apply(deal.legal_actions()[0], seat=deal.to_move)
    assert len(deal.tricks) == 1 and deal.partner_seen
    assert all(deal.partner_known_to(s) for s in range(4))

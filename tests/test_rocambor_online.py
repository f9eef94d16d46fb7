"""The online Rocambor table's rules where variants/tresillo-rocambor.yaml follows it point by
point: the entrada may name oros (roc-online, Auction (table): "Entrada | 1 | Basic
declaration, choose any trump"), and the first trick is led by the seat after the Ombre
(roc-online-code, server/src/room.ts, autoAdvanceExchangeTurn: "this.state.turn =
this.nextActive(this.state.ombre);"). The mechanism (``play.leader: after-declarer``) is tested
here on that variant and on a contract every seat plays (led by the eldest)."""

from __future__ import annotations

from engine import load_ruleset
from engine.bots import make_bot
from engine.cards import Suit
from engine.referee import Deal, Phase

RULES = load_ruleset("tresillo-rocambor")


def _to_play(d: Deal) -> None:
    bot = make_bot("heuristic", seed=2)
    while not d.is_over and d.phase != Phase.PLAY:
        d.apply(bot.choose(d, d.to_move))


def test_an_entrada_may_name_oros() -> None:
    d = Deal(RULES, dealer=0, seed=3)
    eldest = d.to_move
    d.apply(f"{eldest} bid entrada")
    while d.phase == Phase.AUCTION:
        d.apply(f"{d.to_move} pass")
    while d.phase != Phase.TRUMP:
        d.apply(f"{d.to_move} pass")  # the raise offered: he keeps his entrada
    assert "trump diamonds" in [str(a) for a in d.legal_actions()]
    d.apply(f"{eldest} trump diamonds")
    assert d.contract is not None and d.contract.id == "entrada"


def test_the_seat_after_the_ombre_leads_the_first_trick() -> None:
    assert RULES.leader == "after-declarer"
    seen = set()
    for seed in range(40):
        d = Deal(RULES, dealer=seed % RULES.players, seed=seed)
        _to_play(d)
        if d.is_over or d.declarer is None or d.contract is None:
            continue
        order = d.seating.order
        if d.contract.all_play is not None:
            assert d.to_move == order[0]  # every seat plays for himself: the eldest leads
            continue
        assert d.to_move == order[(order.index(d.declarer) + 1) % len(order)]
        seen.add(order.index(d.declarer))
    assert len(seen) >= 2  # Ombres at different places in the turn were seen


def test_a_red_trump_runs_king_knight_jack_ace_after_the_matadors() -> None:
    # roc-online, Card Ranking: "After the matadores, remaining trump cards follow the suit's
    # native ranking"; red: "King > Knight > Jack > Ace > 2 > ...". The online engine's
    # trumpOrderValue ranks Kh above Ah with hearts trumps.
    order = [str(c) for c in RULES.trump_order(Suit.HEARTS)]
    assert order[:8] == ["As", "7h", "Ac", "Kh", "Qh", "Jh", "Ah", "2h"]
    assert [str(c) for c in load_ruleset("tresillo").trump_order(Suit.HEARTS)][3] == "Ah"


def test_a_higher_matador_may_be_played_under_a_basto_lead_our_reading() -> None:
    # Kept against the table (docs/decisions.md): its test "basto lead: lower trumps required,
    # spadille always playable" expects only As and 5d from As 7d 5d Kh with oros trumps; here
    # the manille, a higher matador, may be withheld but may also be played.
    from engine.cards import Card
    from engine.referee.tricks import TrickRules

    tr = TrickRules.of(RULES, RULES.tables(), Suit.DIAMONDS.index)
    hand = 0
    for text in ("As", "7d", "5d", "Kh"):
        hand |= 1 << Card.parse(text).index
    allowed = tr.legal(hand, [Card.parse("Ac").index])
    playable = {t for t in ("As", "7d", "5d", "Kh") if allowed >> Card.parse(t).index & 1}
    assert playable == {"As", "7d", "5d"}
    assert RULES.basis_at(["matadors", "privilege"]).evidence == "inferred"


def test_after_a_solo_in_oros_the_raise_is_still_offered_our_reading() -> None:
    # Kept against the table (docs/decisions.md): its applyBid goes straight on after a solo
    # oros ("// Already at highest bid, proceed directly"); here the winner is offered the
    # contracts above it, the bola and the contrabola, or keeps his solo oros.
    from tests.referee_helpers import tresillo

    d = tresillo(RULES, {}, "")
    first = d.to_move
    d.apply(f"{first} bid entrada")
    d.apply(f"{d.to_move} bid solo-favor")
    winner = d.holder
    while d.phase == Phase.AUCTION:
        d.apply(f"{d.to_move} pass")
    assert d.phase == Phase.RAISE and d.to_move == winner
    assert [str(a) for a in d.legal_actions()] == ["pass", "bid bola", "bid contrabola"]

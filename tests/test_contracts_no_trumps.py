"""Contracts without trumps and contracts to take no trick (issue 16, mechanism 3), built from
the modern source that plays them (``roc-online``: the online Rocambor's rules page and its
rule tests, re-expressed here), in ``variants/tresillo-rocambor.yaml``.

- ``trumps: none``: no trump suit and no fixed trumps; every card ranks in its suit by
  ``ranking.no_trumps`` (the black aces lowest: "For black suits (Espadas, Bastos): King >
  Knight > Jack > 7 > 6 > 5 > 4 > 3 > 2 > Ace").
- ``aim: no-tricks``: the declarer undertakes to take no trick; the results table says what a
  trick taken costs.
- ``exchange: declarer-only`` with ``exchange_limits: {declarer_min: 1, declarer_max: 1}``:
  "Contrabola: Ombre must exchange exactly 1 card, nobody else exchanges".
- ``biddable_when: last-after-all-pass``: the engine's test "rejects contrabola unless last
  active player after all-pass".
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import load_ruleset
from engine.bots.heuristic import HeuristicBot
from engine.cards import Card
from engine.errors import IllegalActionError, RuleFileError
from engine.referee import Deal, Phase
from engine.referee.tricks import TrickRules
from engine.rules.model import NO_TRUMPS
from tests.referee_helpers import run

ROCAMBOR = load_ruleset("tresillo-rocambor")


def deal_of(fixed: dict[int, str], talon: str = "", rules: object = ROCAMBOR) -> Deal:
    """A Tresillo deal (the dealer, seat 0, sits out) in which the seats named hold the cards
    given; the rest of the pack fills the other hands, then the talon (``talon`` on top)."""
    from tests.referee_helpers import tresillo

    return tresillo(rules, fixed, talon)


def mask(cards: str) -> int:
    m = 0
    for text in cards.split():
        m |= 1 << Card.parse(text).index
    return m


def legal_cards(tr: TrickRules, hand: str, led: str) -> set[str]:
    allowed = tr.legal(mask(hand), [Card.parse(led).index])
    return {t for t in hand.split() if allowed >> Card.parse(t).index & 1}


NT = TrickRules.of(ROCAMBOR, ROCAMBOR.tables(), NO_TRUMPS)


# The online engine's "null trump guard" tests (engine.test.ts), oros = diamonds, copas =
# hearts, espadas = spades, bastos = clubs; its card 12 is our K, 11 our Q, 10 our J.


def test_null_trump_must_follow_suit_with_same_suit_cards() -> None:
    assert legal_cards(NT, "5h Kh 3s", "7h") == {"5h", "Kh"}


def test_null_trump_can_play_any_card_when_void_in_the_suit_led() -> None:
    # No trump obligation: spades and clubs are plain suits.
    assert legal_cards(NT, "3s 6c", "7h") == {"3s", "6c"}


def test_null_trump_matadors_are_not_trumps() -> None:
    # Spadille is a plain spade: void in hearts, either card may go.
    assert legal_cards(NT, "As 5c", "7h") == {"As", "5c"}
    # With trumps (hearts), spadille is a trump; the same lead is then a trump lead.
    hearts = TrickRules.of(ROCAMBOR, ROCAMBOR.tables(), Card.parse("7h").suit.index)
    assert hearts.follow[Card.parse("As").index] == 4


def test_null_trump_spadille_does_not_follow_hearts() -> None:
    assert legal_cards(NT, "4h As", "7h") == {"4h"}


def test_the_black_ace_is_the_lowest_card_of_its_suit_without_trumps() -> None:
    # "black suit (espadas): higher rank = higher value (7 beats ace=1)" and "black suit
    # (bastos): rank 7 has value 7, ace has value 1": the ace is the lowest plain club.
    order = [str(c) for c in ROCAMBOR.no_trumps_order(Card.parse("As").suit)]
    assert order == ["Ks", "Qs", "Js", "7s", "6s", "5s", "4s", "3s", "2s", "As"]
    clubs = [str(c) for c in ROCAMBOR.no_trumps_order(Card.parse("Ac").suit)]
    assert clubs[0] == "Kc" and clubs[-1] == "Ac" and len(clubs) == 10
    # The red suits keep their plain order, the ace between the jack and the two.
    hearts = [str(c) for c in ROCAMBOR.no_trumps_order(Card.parse("Ah").suit)]
    assert hearts == ["Kh", "Qh", "Jh", "Ah", "2h", "3h", "4h", "5h", "6h", "7h"]
    s = NT.strength
    assert s[Card.parse("7s").index] > s[Card.parse("As").index]
    assert s[Card.parse("Kc").index] > s[Card.parse("7c").index] > s[Card.parse("Ac").index]
    # Who wins: a trick led with As is won by any higher spade, and nothing is a trump.
    trick = [Card.parse(c).index for c in ("As", "2s", "7c")]
    assert NT.winning_position(trick) == 1


# The contrabola (room.test.ts).

WEAK = "As 2c 3h 4h 5h 2d 3d 4d 5d"


def test_contrabola_is_refused_unless_last_after_all_pass() -> None:
    deal = deal_of({})
    with pytest.raises(IllegalActionError) as caught:
        deal.apply("bid contrabola", seat=1)
    assert caught.value.code == "bid/reserved-to-last"
    assert "bid contrabola" not in [str(a) for a in deal.legal_actions()]
    run(deal, ["1 pass"])
    assert deal.refusal("bid contrabola").code == "bid/reserved-to-last"  # type: ignore[union-attr]
    run(deal, ["2 pass"])
    assert "bid contrabola" in [str(a) for a in deal.legal_actions()]
    # Not once a bid stands before him.
    other = deal_of({})
    run(other, ["1 bid entrada", "2 pass"])
    assert other.refusal("bid contrabola", seat=3).code == "bid/reserved-to-last"  # type: ignore[union-attr]


def test_contrabola_forces_the_ombre_to_exchange_exactly_one_card_and_nobody_else() -> None:
    deal = deal_of({3: WEAK})
    run(deal, ["1 pass", "2 pass", "3 bid contrabola"])
    # No trumps to name: straight to the exchange, the Ombre first and alone.
    assert deal.phase is Phase.EXCHANGE and deal.to_move == 3
    assert deal.no_trumps and deal.view(1).trump is None and deal.view(1).no_trumps
    why = deal.exchange_why()
    assert why is not None and why.least == 1 and why.most == 1
    legal = list(deal.legal_actions())
    assert len(legal) == 9 and all(len(a.cards) == 1 for a in legal)
    assert deal.refusal("discard").code == "discard/must-buy"  # type: ignore[union-attr]
    assert deal.refusal("discard 5h 5d").code == "discard/too-many"  # type: ignore[union-attr]
    run(deal, ["3 discard 5h"])
    assert deal.phase is Phase.PLAY and deal.to_move == 1  # nobody else exchanges
    assert deal.report()["no_trumps"] is True and deal.report()["trump"] is None


def test_contrabola_is_made_with_no_trick_and_failed_with_one() -> None:
    bot = HeuristicBot(1)
    for hand, want in ((WEAK, None), ("Ks Kc Kh Kd Qs Qc Qh Qd Js", "contrabola-failed")):
        deal = deal_of({3: hand})
        run(deal, ["1 pass", "2 pass", "3 bid contrabola"])
        while not deal.is_over:
            deal.apply(bot.choose(deal, deal.to_move))
        taken = deal.won[3]
        assert deal.result == ("contrabola" if taken == 0 else "contrabola-failed")
        if want:
            assert deal.result == want and taken >= 1
        assert deal.paid_matadors() == 0  # no trumps, no matadors
        assert deal.vole_undertaken is False


def test_a_nolo_declarer_ducks_under_the_card_led_and_then_leads_low() -> None:
    deal = deal_of(
        {
            1: "Kh 2s 6s 7s 6c 6h 7h 6d 7d",
            2: "Jh 3s Js Qs Kc Qc Jc 7c Kd",
            3: "Qh 3h Ks As 2c 4h 5h 2d 3d",
        },
        talon="Ac",
    )
    run(deal, ["1 pass", "2 pass", "3 bid contrabola", "3 discard As"])
    assert deal.hands[3] >> Card.parse("Ac").index & 1  # drew the lowest club
    bot = HeuristicBot(1)
    run(deal, ["1 play Kh", "2 play Jh"])
    duck = bot.choose(deal, 3)
    # The highest heart that still loses to the king: the queen, not a small one.
    assert str(duck) == "play Qh"
    run(deal, ["3 play Qh", "1 play 2s", "2 play 3s", "3 play Ks"])
    assert deal.to_move == 3 and deal.won[3] == 1  # his only spade took the trick
    lead = bot.choose(deal, 3)
    # He leads a card with many higher ones out: never a card that must win.
    assert str(lead) in {"play Ac", "play 2c", "play 2d", "play 3d", "play 3h"}
    deal.apply(lead)
    while not deal.is_over:
        deal.apply(bot.choose(deal, deal.to_move))
    assert deal.result == "contrabola-failed"


def test_a_defender_lets_the_nolo_declarer_win() -> None:
    deal = deal_of(
        {
            1: "Kh 2s 6s 7s 6c 6h 7h 6d 7d",
            2: "Jh 3s Js Qs Kc Qc Jc 7c Kd",
            3: "Qh 3h Ks As 2c 4h 5h 2d 3d",
        },
        talon="Ac",
    )
    run(deal, ["1 pass", "2 pass", "3 bid contrabola", "3 discard As", "1 play 6h"])
    # Seat 2 follows under... he holds only the jack of hearts: it must go.
    run(deal, ["2 play Jh", "3 play Qh"])
    assert deal.won[3] == 1
    bot = HeuristicBot(1)
    # The Ombre leads; a defender who can stay under his card does.
    run(deal, ["3 play 3h"])
    assert str(bot.choose(deal, 1)) == "play 7h"


# The rule format's checks.


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / f"{name}.yaml"
    path.write_text(text, encoding="utf-8")
    return path


NOLO = """
id: {id}
name: A nolo for the test
extends: tresillo
summary: A test variant.
auction:
  contracts:
    nolo:
      name: Nolo
      rank: 5
      biddable: true
      help: none
      trumps: none
      aim: no-tricks
      {extra}
      basis: {{evidence: conjecture}}
"""


def codes(tmp_path: Path, name: str, text: str) -> set[str]:
    try:
        load_ruleset(write(tmp_path, name, text))
    except RuleFileError as error:
        return {p.code for p in error.problems}
    return set()


def test_a_contract_without_trumps_needs_an_order_with_every_rank(tmp_path: Path) -> None:
    # Tresillo's plain black order has no ace (the black aces are always trumps there).
    found = codes(tmp_path, "nt-order", NOLO.format(id="nt-order", extra="exchange: none"))
    assert "semantic/no-trumps-order-incomplete" in found


def test_a_contract_to_take_no_trick_needs_a_result_of_its_own(tmp_path: Path) -> None:
    found = codes(tmp_path, "nt-result", NOLO.format(id="nt-result", extra="exchange: none"))
    assert "semantic/no-tricks-result" in found


def test_no_trumps_and_a_trump_option_conflict(tmp_path: Path) -> None:
    found = codes(
        tmp_path, "nt-opt", NOLO.format(id="nt-opt", extra="trump_option: favourite-suit")
    )
    assert "semantic/no-trumps-conflict" in found


def test_exchange_limits_take_a_declarer_only_exchange(tmp_path: Path) -> None:
    extra = "exchange: declarer-only\n      exchange_limits: {declarer_min: 1, declarer_max: 1}"
    found = codes(tmp_path, "nt-ex", NOLO.format(id="nt-ex", extra=extra))
    assert "semantic/limits-without-exchange" not in found
    extra = "exchange: others-only\n      exchange_limits: {declarer_min: 1, declarer_max: 1}"
    found = codes(tmp_path, "nt-ex2", NOLO.format(id="nt-ex2", extra=extra))
    assert "semantic/limits-without-exchange" in found


def test_random_and_heuristic_bots_play_contrabolas_to_the_end() -> None:
    from engine.bots.base import RandomBot

    seen = 0
    for seed in range(40):
        deal = Deal(ROCAMBOR, dealer=seed % 4, seed=seed)
        bots = [RandomBot(seed), HeuristicBot(seed)]
        # Everyone passes to the last, who takes the contrabola.
        while deal.phase is Phase.AUCTION:
            legal = [str(a) for a in deal.legal_actions()]
            deal.apply("bid contrabola" if "bid contrabola" in legal else "pass")
        seen += deal.contract is not None and deal.contract.id == "contrabola"
        k = 0
        while not deal.is_over:
            deal.apply(bots[k % 2].choose(deal, deal.to_move))
            k += 1
        assert deal.result in ("contrabola", "contrabola-failed")
        # Scored in the online table's points: "Contrabola made | Ombre +4", "Contrabola
        # failed | Each defender +1"; the seat that rests scores nothing.
        s = deal.settlement
        assert s is not None
        balances = list(s.balances)
        ombre = deal.declarer
        assert ombre is not None and deal.out is not None
        if deal.result == "contrabola":
            assert balances[ombre] == 4 and sum(balances) == 4
        else:
            assert balances[ombre] == 0 and sum(balances) == 2
            assert all(balances[x] == 1 for x in deal.seating.playing_opponents(ombre))
        assert balances[deal.out] == 0
    assert seen == 40


# The online table's points (its scoring.ts, re-expressed: scoring.test.ts).


def played(fixed: dict[int, str], actions: list[str]) -> Deal:
    deal = deal_of(fixed)
    run(deal, actions)
    bot = HeuristicBot(0)
    while not deal.is_over:
        deal.apply(bot.choose(deal, deal.to_move))
    return deal


def test_the_points_of_each_result_follow_the_online_tariff() -> None:
    for seed in range(60):
        deal = Deal(ROCAMBOR, dealer=seed % 4, seed=seed)
        bot = HeuristicBot(seed)
        while not deal.is_over:
            deal.apply(bot.choose(deal, deal.to_move))
        s = deal.settlement
        assert s is not None
        if deal.result == "redeal":
            assert set(s.balances) == {0}
            continue
        ombre, out = deal.declarer, deal.out
        assert ombre is not None and out is not None
        defenders = deal.seating.playing_opponents(ombre)
        b = list(s.balances)
        favour = deal.contract is not None and deal.contract.id.endswith("-favor")
        if deal.result == "win":
            assert b[ombre] == 1 + favour and sum(b) == b[ombre]  # sacada
        elif deal.result == "win-seven":
            assert deal.won[ombre] >= 7 and b[ombre] == 2 + favour
        elif deal.result == "remise":
            assert all(b[x] == 1 for x in defenders) and b[ombre] == 0  # puesta
        elif deal.result == "codille":
            best = max(defenders, key=lambda x: deal.won[x])
            assert b[best] == 2 and sum(b) == 2
        elif deal.result == "vole":
            assert b[ombre] == 6
        assert b[out] == 0  # the resting seat scores nothing
    assert ROCAMBOR.party is not None and ROCAMBOR.party.target == 12

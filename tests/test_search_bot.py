"""The search bot: legal in every seat of every game, blind to the cards it cannot see, and the
heuristic's play on card indices the same as its play on the referee's action lists."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from engine import load_ruleset
from engine.bots import HeuristicBot, SearchBot, make_bot
from engine.bots.base import bits, honest, knowledge
from engine.bots.search import _deal_unseen
from engine.referee import Deal

RULESETS = [
    "quadrille",
    "ombre",
    "quadrille-a-trois",
    "mediateur",
    "german-solo",
    "dansk-lhombre",
    "tresillo",
]


def _decisions(ruleset: str, count: int, first: int = 500) -> Iterator[tuple[Deal, int]]:
    """Yields (deal, seat) at every decision of ``count`` deals played by heuristic bots."""
    rules = load_ruleset(ruleset)
    bots = [HeuristicBot(k) for k in range(rules.players)]
    for i in range(count):
        deal = Deal(rules, dealer=i % rules.players, seed=first + i)
        while not deal.is_over:
            seat = deal.to_move
            yield deal, seat
            deal.apply(bots[seat].choose(deal, seat))


def _twin(deal: Deal, seat: int, rng: random.Random) -> Deal | None:
    """A copy of ``deal`` in which the cards ``seat`` cannot see are dealt anew among the
    other seats: each keeps as many cards of each following class as it held (so that no void
    shown is broken); the called and the given card and a hand laid open stay where they are.
    None if nothing could change."""
    trump = deal.trump
    if trump is None:
        return None
    follow = deal.t.follow[trump]
    kn = knowledge(deal, seat)
    fixed = {c for c in (deal.called, deal.given) if c is not None}
    others = [s for s in range(deal.n) if s != seat]
    hands = list(deal.hands)
    for cls in set(follow[c] for s in others for c in bits(deal.hands[s])):
        held = {
            s: [
                c
                for c in bits(deal.hands[s] & ~kn.located[s])
                if follow[c] == cls and c not in fixed
            ]
            for s in others
        }
        pool = [c for cards in held.values() for c in cards]
        rng.shuffle(pool)
        for s in others:
            for c in held[s]:
                hands[s] &= ~(1 << c)
            for _ in held[s]:
                hands[s] |= 1 << pool.pop()
    if hands == deal.hands:
        return None
    twin = deal.copy()
    start = list(twin.start_hands)
    for s in others:
        start[s] = start[s] & ~deal.hands[s] | hands[s]
        twin.hands[s] = hands[s]
    twin.start_hands = tuple(start)
    return twin


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_search_bot_chooses_alike_in_deals_differing_only_in_cards_it_cannot_see(
    ruleset: str,
) -> None:
    # Two deals the seat cannot tell apart (Deal.view is the same) get the same choice from
    # two search bots seeded alike: the bot reads nothing but what the seat may know.
    checked = 0
    rng = random.Random(5)
    for deal, seat in _decisions(ruleset, 6):
        if deal.phase not in ("play", "vole") or deal.irregular is not None:
            continue
        if len(honest(deal)) < 2 or checked >= 25:
            continue
        twin = _twin(deal, seat, rng)
        if twin is None:
            continue
        assert twin.view(seat) == deal.view(seat)
        assert twin.hands != deal.hands
        first = SearchBot(7, samples=3).choose(deal, seat)
        second = SearchBot(7, samples=3).choose(twin, seat)
        assert first == second, (ruleset, seat, str(first), str(second))
        checked += 1
    assert checked >= 10


@pytest.mark.parametrize("ruleset", RULESETS)
def test_search_bots_in_every_seat_play_only_legal_moves(ruleset: str) -> None:
    rules = load_ruleset(ruleset)
    for kind in ("search:samples=2", "search:plan=fixed:samples=2"):
        bots = [make_bot(kind, k) for k in range(rules.players)]
        for i in range(2):
            deal = Deal(rules, dealer=i % rules.players, seed=70 + i)
            while not deal.is_over:
                seat = deal.to_move
                action = bots[seat].choose(deal, seat)
                if deal.phase in ("play", "vole"):
                    assert action in honest(deal)
                deal.apply(action)  # checked by the referee
            assert deal.result is not None


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_heuristic_plays_the_same_card_from_the_play_mask_as_from_the_action_list(
    ruleset: str,
) -> None:
    # decide() reads the referee's play mask; _play() takes the legal actions, as before.
    bot = HeuristicBot(0)
    checked = 0
    for deal, seat in _decisions(ruleset, 12):
        if deal.phase != "play" or deal.irregular is not None or len(honest(deal)) < 2:
            continue
        fast, why = bot.decide(deal, seat)
        slow, reason = bot._play(deal, seat, honest(deal))
        assert fast is slow and why == reason
        checked += 1
    assert checked > 30


def test_the_sampling_setting() -> None:
    assert make_bot("search").sampling == "losers"  # type: ignore[attr-defined]
    assert make_bot("search:plan=fixed").sampling == "uniform"  # type: ignore[attr-defined]
    both = make_bot("search:plan=fixed:sampling=losers")
    assert isinstance(both, SearchBot) and (both.plan, both.sampling) == ("fixed", "losers")
    with pytest.raises(ValueError, match="search: sampling must be one of losers, uniform"):
        make_bot("search:sampling=best")


def test_the_others_ecarts_are_drawn_from_their_losers() -> None:
    # Ten unseen cards, five in one hand and five out of play, all five in écarts: cards 0 and
    # 1 (kept: trumps, kings) go out far less often than the others; with no écart the draw is
    # the uniform one, card for card.
    out = [0] * 10
    for seed in range(2000):
        pool = list(range(10))
        (hand,) = _deal_unseen(pool, [5], [0], 0, random.Random(seed), discarded=5, kept=0b11)
        assert hand.bit_count() == 5
        for c in range(10):
            out[c] += not hand >> c & 1
        uniform = _deal_unseen(list(range(10)), [5], [0], 0, random.Random(seed))
        assert uniform == _deal_unseen(
            list(range(10)), [5], [0], 0, random.Random(seed), discarded=0, kept=0b11
        )
    assert max(out[:2]) < 0.5 * min(out[2:]), out


def test_the_default_samples_go_by_the_size_of_the_deal() -> None:
    # About the same cards played out a decision: more samples for a smaller deal; never by a
    # game's name, and a setting wins.
    bot = make_bot("search")
    assert isinstance(bot, SearchBot)
    for name in RULESETS:
        rules = load_ruleset(name)
        assert bot.samples_for(rules) == max(4, min(16, 240 // (rules.players * rules.hand_size)))
    assert bot.samples_for(load_ruleset("quadrille")) == 6  # four hands of 10
    assert bot.samples_for(load_ruleset("ombre")) == 8  # three hands of 9
    assert make_bot("search:samples=3").samples_for(load_ruleset("ombre")) == 3  # type: ignore[attr-defined]
    assert make_bot("search:plan=fixed").samples_for(load_ruleset("ombre")) == 16  # type: ignore[attr-defined]

"""apply() and legal_actions() never disagree: an action is accepted exactly when it is listed,
and an action that is not listed is refused with a coded IllegalActionError that changes nothing.

A property test over random deals of every ruleset and variant. At each state it tries every
listed action (on a copy), every near miss -- every card of the pack for each card verb, every
suit, every contract and an unknown one, the bare verbs, discards of cards not held or too many
-- and hand-built ``Action`` values equal to the listed ones. A refused action must raise
``IllegalActionError`` and leave the deal as it was (its phase, hands, tricks and counts after
each refusal; after all of them, everything a refusal could disturb, the full report and the
legal actions included); a listed action claimed by the wrong seat is refused as not its turn.
``Action`` values with the wrong arguments for their verb cannot be built at all.

The quick tier checks the first :data:`QUICK_DEALS` deals of each rule file; the slow tier the
rest, up to :data:`FULL_DEALS` (the same table carried on from deal to deal). The refusal codes
seen there must include a card not held, a suit not followed and a bid outranked.
"""

from __future__ import annotations

import random

import pytest

from engine import IllegalActionError, NotationError, load_ruleset
from engine.actions import CALL, GIVE, NOTICE, PASS, PLAY, RENONCE, STOP, TRUMP, VOLE, Action
from engine.cards import ALL_CARDS, Card, Suit
from engine.referee import Deal
from engine.referee.settlement import TableState
from engine.rules.loader import Registry
from tests.referee_helpers import MISTYPED

ALL_IDS = sorted({i for i, _, _ in Registry().files()})
QUICK_DEALS = 2
FULL_DEALS = 8
EVERY_KIND_OF_REFUSAL = {"play/must-follow-suit", "bid/outranked", "play/not-in-hand"}
"""Refused somewhere in the slow tier's deals of each rule file with an auction and a card
play (every one of them)."""


def _state(deal: Deal) -> tuple[object, ...]:
    return (
        deal.phase,
        deal.to_move,
        tuple(deal.hands),
        len(deal.history),
        tuple(deal.trick),
        tuple(deal.won),
        deal.result,
        len(deal.renonces),
        len(deal.penalties),
    )


def _near_misses(deal: Deal, rng: random.Random) -> list[Action]:
    out: list[Action] = [PASS, VOLE, STOP, NOTICE, *TRUMP]
    for table in (PLAY, CALL, GIVE, RENONCE):
        out += table
    out += [Action("bid", contract=c) for c in [*deal.rules.contracts, "nonsense"]]
    hand = deal.hand(deal.to_move)
    others = [c for c in ALL_CARDS if c not in hand]
    out.append(Action("discard"))
    for k in (1, 2, 5, 9):
        out.append(Action("discard", cards=tuple(rng.sample(hand, min(k, len(hand))))))
        out.append(Action("discard", cards=tuple(rng.sample(others, k))))
    out.append(Action("discard", cards=tuple(hand)))
    return out


def _listed_in_another_order(action: Action, legal: list[Action]) -> bool:
    """Checks if ``action`` is a listed écart with its cards in another order (the same
    écart: a near miss drawn at random may be one where the defenders' écart has no cap)."""
    cards = set(action.cards)
    return action.verb == "discard" and any(
        a.verb == "discard" and len(a.cards) == len(action.cards) and set(a.cards) == cards
        for a in legal
    )


def _rebuilt(action: Action) -> Action:
    """The same action built by hand (not the interned value)."""
    return Action(
        action.verb,
        contract=action.contract,
        suit=Suit(action.suit.value) if action.suit else None,
        cards=tuple(Card.parse(str(c)) for c in action.cards),
    )


def _snapshot(deal: Deal) -> tuple[object, ...]:
    """Everything a refused action could disturb: the public state and the full report."""
    return (
        _state(deal),
        tuple(deal.history),
        deal.trump,
        deal.contract.id if deal.contract is not None else None,
        deal.declarer,
        deal.called,
        deal.partner,
        tuple(deal.auction),
        deal.holder,
        deal.demanded_from,
        deal.given,
        tuple(deal.talon),
        tuple(deal.exchanges),
        deal.is_over,
        repr(deal.report()),
        tuple(deal.legal_actions()),
    )


def _check_state(deal: Deal, rng: random.Random, codes: set[str]) -> None:
    legal = deal.legal_actions()
    whole = _snapshot(deal)
    listed = (
        list(legal) if len(legal) <= 64 else [legal[rng.randrange(len(legal))] for _ in range(32)]
    )
    for action in listed:
        assert action in legal
        copy = deal.copy()
        copy.apply(action)  # a listed action is always accepted
        again = deal.copy()
        again.apply(_rebuilt(action))
        assert _state(again) == _state(copy)
    for action in _near_misses(deal, rng):
        if action in legal or _listed_in_another_order(action, legal):
            deal.copy().apply(action)
            continue
        before = _state(deal)
        with pytest.raises(IllegalActionError) as refused:
            deal.apply(action)
        assert refused.value.code and "/" in refused.value.code
        codes.add(refused.value.code)
        assert _state(deal) == before
    wrong = (deal.to_move + 1) % deal.rules.players
    with pytest.raises(IllegalActionError) as turn:
        deal.apply(legal[0], seat=wrong)  # a listed action, claimed by the wrong seat
    assert turn.value.code.endswith("/not-your-turn")
    assert _snapshot(deal) == whole


def _play(ruleset_id: str, checked: range) -> set[str]:
    """Plays deals 0 to ``checked.stop - 1`` of ``ruleset_id`` on one table at random, checking
    every state of the deals in ``checked``; returns the refusal codes seen."""
    rules = load_ruleset(ruleset_id)
    rng = random.Random(ruleset_id)
    table = TableState()
    codes: set[str] = set()
    for i in range(checked.stop):
        deal = Deal(rules, seed=1000 + i, dealer=i % rules.players, table=table)
        steps = 0
        while not deal.is_over:
            if i in checked:
                _check_state(deal, rng, codes)
            legal = deal.legal_actions()
            action = legal[rng.randrange(len(legal))]
            if action.verb in ("renonce", "notice") and rng.random() < 0.7:
                action = next(a for a in legal if a.verb not in ("renonce", "notice"))
            deal.apply(action)
            steps += 1
            assert steps < 500
        assert deal.legal_actions() == []
        with pytest.raises(IllegalActionError) as over:
            deal.apply(PASS)
        assert over.value.code == "deal/over"
        assert deal.settlement is not None
        table = deal.settlement.table
    return codes


@pytest.mark.parametrize("ruleset_id", ALL_IDS)
def test_apply_succeeds_exactly_for_listed_actions(ruleset_id: str) -> None:
    _play(ruleset_id, range(QUICK_DEALS))


# slow: every near miss at every position of six more deals of every rule file.
@pytest.mark.slow
@pytest.mark.parametrize("ruleset_id", ALL_IDS)
def test_apply_succeeds_exactly_for_listed_actions_over_more_deals(ruleset_id: str) -> None:
    codes = _play(ruleset_id, range(QUICK_DEALS, FULL_DEALS))
    assert codes >= EVERY_KIND_OF_REFUSAL, sorted(codes)


@pytest.mark.parametrize(
    "build",
    [
        lambda: Action("play"),
        lambda: Action("trump"),
        lambda: Action("call"),
        lambda: Action("give", cards=(ALL_CARDS[0], ALL_CARDS[1])),
        lambda: Action("bid"),
        lambda: Action("bid", contract="ask", cards=(ALL_CARDS[0],)),
        lambda: Action("pass", cards=(ALL_CARDS[0],)),
        lambda: Action("vole", contract="ask"),
        lambda: Action("discard", cards=(ALL_CARDS[3], ALL_CARDS[3])),
        lambda: Action("discard", cards=[ALL_CARDS[3]]),  # type: ignore[arg-type]
        lambda: Action("play", cards=("Kd",)),  # type: ignore[arg-type]
        lambda: Action("trump", suit="hearts"),  # type: ignore[arg-type]
        lambda: Action("fold"),
    ],
)
def test_malformed_actions_cannot_be_built(build: object) -> None:
    """An Action is valid when built, or refused with NotationError (never IndexError later;
    one of the wrong types, compiled, with TypeError: ``MISTYPED``)."""
    with pytest.raises(MISTYPED):
        build()  # type: ignore[operator]


def test_the_examples_of_the_issue_are_refused() -> None:
    """A discard of the same card twice, a bare play or trump: refused, documented errors."""
    deal = Deal(load_ruleset("ombre"), seed=2, dealer=0)
    for line in ["1 bid entrada", "2 pass", "0 pass", "1 trump spades"]:
        deal.apply(line)
    card = deal.hand(1)[0]
    with pytest.raises(NotationError):
        deal.apply(Action("discard", cards=(card, card)))
    with pytest.raises(NotationError):
        deal.apply("discard " + f"{card} {card}")
    assert len(deal.hand(1)) == 9
    with pytest.raises(IllegalActionError) as refused:
        deal.apply(PLAY[card.index])
    assert refused.value.code == "play/not-now"

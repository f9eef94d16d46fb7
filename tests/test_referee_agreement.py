"""apply() and legal_actions() never disagree: an action is accepted exactly when it is listed.

A property test over random deals of every ruleset and variant. At each state it tries every
listed action (on a copy), every near miss -- every card of the pack for each card verb, every
suit, every contract and an unknown one, the bare verbs, discards of cards not held or too many
-- and hand-built ``Action`` values equal to the listed ones. A refused action must raise
``IllegalActionError`` and leave the deal as it was. ``Action`` values with the wrong arguments
for their verb cannot be built at all.
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

ALL_IDS = sorted({i for i, _, _ in Registry().files()})
DEALS = 8


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


def _check_state(deal: Deal, rng: random.Random) -> None:
    legal = deal.legal_actions()
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
        assert _state(deal) == before


@pytest.mark.parametrize("ruleset_id", ALL_IDS)
def test_apply_succeeds_exactly_for_listed_actions(ruleset_id: str) -> None:
    rules = load_ruleset(ruleset_id)
    rng = random.Random(ruleset_id)
    table = TableState()
    for i in range(DEALS):
        deal = Deal(rules, seed=1000 + i, dealer=i % rules.players, table=table)
        steps = 0
        while not deal.is_over:
            _check_state(deal, rng)
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
    """An Action is valid when built, or refused with NotationError (never IndexError later)."""
    with pytest.raises(NotationError):
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

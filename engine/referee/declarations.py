"""Declarations: naming trumps, calling a partner's card or demanding one, giving a card back.

Each rule is a staged filter over the candidates (suits, or cards). The legal actions are the
candidates that pass every stage; an action that fails is refused by the first stage it fails,
with that stage's code and rule.

* trumps: the contract's favourite-suit option (``trump_option``, ``trump_not_option``), then
  the suits in the pack;
* a call or demand: the trump suit, the caller's own card, the rank, the fallback rank (only
  with every card of the rank), the pack, and for a demand a card in another player's hand;
* giving back: a card the declarer holds, other than the one just demanded.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from engine.actions import CALL, GIVE, TRUMP, Action
from engine.cards import ALL_CARDS, Suit
from engine.enums import Help, OwnCard
from engine.errors import IllegalActionError
from engine.model import Call, Contract, RuleSet, Tables
from engine.referee import exchange
from engine.referee.state import CALL as CALL_PHASE
from engine.referee.state import GIVE as GIVE_PHASE
from engine.referee.state import SUIT_NAMES, refuse
from engine.referee.state import TRUMP as TRUMP_PHASE

if TYPE_CHECKING:
    from engine.referee.deal import Deal

__all__ = ["call_choices", "declare", "trump_stages", "trump_suits"]

SUITS = tuple(Suit)


# Trumps.


def trump_stages(
    rules: RuleSet, tables: Tables, options: Mapping[str, Any], contract: Contract | None, suit: int
) -> tuple[str, str, tuple[str | int, ...]] | None:
    """Returns the first trump rule that ``suit`` breaks under ``contract`` as (code, reason,
    rule path), or None when it may be trumps."""
    name = SUIT_NAMES[suit]
    if contract is not None and contract.trump_option is not None:
        chosen = str(options[contract.trump_option])
        if chosen != name:
            return (
                "trump/must-be-option",
                f"{contract.id} must be played in {chosen}",
                ("auction", "contracts", contract.id),
            )
    if (
        contract is not None
        and contract.trump_not_option is not None
        and str(options[contract.trump_not_option]) == name
    ):
        return (
            "trump/option-excluded",
            f"{contract.id} is played in another suit than {name}",
            ("auction", "contracts", contract.id),
        )
    if suit not in tables.trump_suits:
        return (
            "trump/not-in-pack",
            f"{name} are not in the pack and cannot be trumps",
            ("declarations", "trump"),
        )
    return None


def trump_suits(
    rules: RuleSet,
    options: Mapping[str, Any] | None = None,
    contract: Contract | None = None,
) -> list[Suit]:
    """Returns the suits that may be named trumps in this setup (under ``contract``, if given).

    The one derivation of the trump choices: the referee, the bots and ``ombre cards`` ask it.
    """
    setup = rules.setup(options)
    values = setup.values
    return [
        SUITS[s] for s in range(4) if trump_stages(rules, setup.tables, values, contract, s) is None
    ]


def _trump_legal(d: Deal) -> list[Action]:
    return [TRUMP[s] for s in d.trump_choices()]


def _trump_refusal(d: Deal, action: Action) -> IllegalActionError | None:
    assert action.suit is not None
    broken = trump_stages(d.rules, d.t, d.options, d.contract, action.suit.index)
    if broken is None:
        return None
    code, reason, path = broken
    return refuse(code, reason, d.to_move, action, d.rules.cite(path))


# Calls and demands.


def call_rule(d: Deal) -> tuple[Call, tuple[str, str]]:
    assert d.contract is not None
    if d.contract.help is Help.CALL:
        assert d.rules.call is not None
        return d.rules.call, ("declarations", "call")
    assert d.rules.demand is not None
    return d.rules.demand, ("declarations", "demand")


def _call_stage(
    d: Deal, rule: Call, card: int, others: int | None = None
) -> tuple[str, str] | None:
    """Returns the first calling rule ``card`` breaks as (code, reason), or None.

    ``others`` is the mask of the cards in the other players' hands (computed if not given).
    """
    assert d.declarer is not None and d.trump is not None
    c = ALL_CARDS[card]
    hand = d.hands[d.declarer]
    if c.suit.index == d.trump and not rule.trump_suit_allowed:
        kind = "king" if c.rank == rule.rank else "card"
        return f"call/trump-{kind}", f"{c} is of the trump suit and may not be called"
    if hand >> card & 1 and rule.own_card is OwnCard.FORBIDDEN:
        return "call/own-card", f"seat {d.declarer} holds {c}: a card is demanded of another player"
    if c.rank not in (rule.rank, rule.all_held_fallback):
        return "call/not-callable", f"{c} cannot be called (call a {rule.rank.name.lower()})"
    if c.rank == rule.all_held_fallback and c.rank != rule.rank:
        kings = d.t.rank_mask[rule.rank.index]
        if hand & kings != kings:
            return (
                "call/queen-needs-all-kings",
                f"a {c.rank.name.lower()} may be called only by a player holding every "
                f"{rule.rank.name.lower()}",
            )
    if card not in d.t.deck:
        return "call/not-in-pack", f"{c} is not in the pack"
    if rule.own_card is OwnCard.FORBIDDEN:
        if others is None:
            others = _others(d)
        if not others >> card & 1:
            return (
                "call/not-held-by-another",
                f"{c} is in no other player's hand (it lies in the talon)",
            )
    return None


def _others(d: Deal) -> int:
    others = 0
    for seat, other in enumerate(d.hands):
        if seat != d.declarer:
            others |= other
    return others


def call_choices(d: Deal) -> list[int]:
    """Returns the cards the declarer may call or demand now: the candidates of the rank (and
    the fallback rank) that pass every stage of :func:`_call_stage`."""
    rule, _ = call_rule(d)
    ranks = [rule.rank.index]
    if rule.all_held_fallback is not None:
        ranks.append(rule.all_held_fallback.index)
    others = _others(d)
    return [
        c
        for r in ranks
        for c in d.t.deck
        if c % 10 == r and _call_stage(d, rule, c, others) is None
    ]


def _call_refusal(d: Deal, action: Action) -> IllegalActionError | None:
    rule, path = call_rule(d)
    broken = _call_stage(d, rule, action.card.index)
    if broken is None:
        return None
    return refuse(broken[0], broken[1], d.to_move, action, d.rules.cite(path))


def _give_choices(d: Deal) -> int:
    assert d.declarer is not None and d.called is not None
    return d.hands[d.declarer] & ~(1 << d.called)


def _give_refusal(d: Deal, action: Action) -> IllegalActionError | None:
    assert d.declarer is not None
    card = action.card.index
    if not d.hands[d.declarer] >> card & 1:
        return refuse(
            "give/not-in-hand", f"seat {d.to_move} does not hold {action.card}", d.to_move, action
        )
    if card == d.called:
        return refuse(
            "give/demanded-card",
            f"{action.card} is the card just demanded; give another",
            d.to_move,
            action,
            d.rules.cite(("declarations", "demand")),
        )
    return None


# The phase entry points.


def legal(d: Deal) -> Sequence[Action]:
    if d.phase is TRUMP_PHASE:
        return _trump_legal(d)
    if d.phase is CALL_PHASE:
        return [CALL[c] for c in call_choices(d)]
    return [GIVE[c] for c in d._sorted(_give_choices(d))]


def refusal(d: Deal, action: Action) -> IllegalActionError | None:
    if action.verb == "trump":
        return _trump_refusal(d, action)
    if action.verb == "call":
        return _call_refusal(d, action)
    return _give_refusal(d, action)


def apply(d: Deal, seat: int, action: Action) -> None:
    if action.verb == "trump":
        assert action.suit is not None
        d.trump = action.suit.index
        _after_trump(d)
    elif action.verb == "call":
        _call(d, action.card.index)
    else:
        _give(d, action.card.index)


def declare(d: Deal, seat: int, contract: Contract, *, forced: bool) -> None:
    """Makes ``seat`` the declarer of ``contract``; he names trumps next."""
    d.declarer = seat
    d.contract = contract
    d.forced = forced
    d.phase = TRUMP_PHASE
    d.to_move = seat


def _after_trump(d: Deal) -> None:
    assert d.contract is not None
    if d.contract.help is not Help.NONE and call_choices(d):
        d.phase = CALL_PHASE
        return
    # No help, or nothing can be called or demanded (every card is held): he plays alone.
    _after_declarations(d)


def _call(d: Deal, card: int) -> None:
    assert d.contract is not None and d.declarer is not None
    d.called = card
    holder = next((s for s in range(d.n) if d.hands[s] >> card & 1), None)
    if d.contract.help is Help.CALL:
        d.partner = holder if holder != d.declarer else None
        _after_declarations(d)
        return
    # A demand: the holder hands the card over and receives one of the declarer's choice.
    assert holder is not None
    d.demanded_from = holder
    d.hands[holder] &= ~(1 << card)
    d.hands[d.declarer] |= 1 << card
    rule, _ = call_rule(d)
    fee = rule.fee
    if fee is not None:
        amount = fee.amount
        if (
            fee.favourite_option is not None
            and fee.favourite_amount is not None
            and str(d.options.get(fee.favourite_option)) == ALL_CARDS[card].suit.value
        ):
            # "if the king be of the favourite suit, then two fish" (HOYLE-IE p. 281).
            amount = fee.favourite_amount
        if amount:
            d.transfers.append((d.declarer, holder, amount, "fee for the demanded card"))
    d.phase = GIVE_PHASE


def _give(d: Deal, card: int) -> None:
    assert d.declarer is not None and d.demanded_from is not None
    d.given = card
    d.hands[d.declarer] &= ~(1 << card)
    d.hands[d.demanded_from] |= 1 << card
    _after_declarations(d)


def _after_declarations(d: Deal) -> None:
    exchange.begin(d)

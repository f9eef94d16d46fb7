"""Declarations: naming trumps, calling a partner's card or demanding one, giving a card back.

Each rule is a staged filter over the candidates (suits, or cards). The legal actions are the
candidates that pass every stage; an action that fails is refused by the first stage it fails,
with that stage's code and rule.

* trumps: the contract's favourite-suit option (``trump_option``, ``trump_not_option``), its
  own suit (``trump_suit``), then the suits in the pack, then, under a contract whose trumps are turned from the talon
  (``trump_from_talon``, the Spanish *vuelta*), the suit of the talon's top card: the first
  card the declarer will draw, turned for all to see;
* a call or demand: the trump suit, the caller's own card, the rank, the fallback rank (only
  with every card of the rank), the pack, and for a demand a card in another player's hand;
* giving back: a card the declarer holds, other than the one just demanded.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.actions import CALL, GIVE, PASS, TRUMP, Action
from engine.cards import ALL_CARDS, FULL_MASK, RANK_MASKS, SUIT_MASKS, Card, Suit
from engine.enums import Help, OwnCard, TrumpNamedBy
from engine.errors import IllegalActionError
from engine.referee import exchange
from engine.referee.dealstate import DealState
from engine.referee.outcome import Transfer
from engine.referee.settlement import FEE_DEMANDED, FEE_SURRENDERED
from engine.referee.state import CALL as CALL_PHASE
from engine.referee.state import GIVE as GIVE_PHASE
from engine.referee.state import SUIT_NAMES, bits, refuse
from engine.referee.state import SURRENDER as SURRENDER_PHASE
from engine.referee.state import TRUMP as TRUMP_PHASE
from engine.rules.model import NO_TRUMPS, Call, Contract, RuleSet, Tables

__all__ = [
    "call_choices",
    "call_stage_refusal",
    "declare",
    "stages_for",
    "trump_stages",
    "trump_suits",
    "turned_card",
]

SUITS = tuple(Suit)
_NONE = Help.NONE
_CALL = Help.CALL
_FORBIDDEN = OwnCard.FORBIDDEN


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
    if (
        contract is not None
        and contract.trump_suit is not None
        and contract.trump_suit.index != suit
    ):
        return (
            "trump/contract-suit",
            f"{contract.id} is played with {contract.trump_suit.value} as trumps",
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


def turned_card(d: DealState) -> int | None:
    """Returns the card turned from the talon to fix trumps, under a contract that turns one
    (``trump_from_talon``): the talon's top card, the first the declarer will draw."""
    contract = d.contract
    if contract is None or not contract.trump_from_talon or d.talon_pos >= len(d.talon):
        return None
    return d.talon[d.talon_pos]


def _turned_stage(d: DealState, suit: int) -> tuple[str, str, tuple[str | int, ...]] | None:
    """The deal's own trump stage: under ``trump_from_talon``, only the turned card's suit."""
    card = turned_card(d)
    if card is None or ALL_CARDS[card].suit.index == suit:
        return None
    assert d.contract is not None
    return (
        "trump/turned-card",
        f"{d.contract.id}: trumps are the suit of the card turned from the talon, "
        f"{ALL_CARDS[card]}, so {SUIT_NAMES[ALL_CARDS[card].suit.index]}",
        ("auction", "contracts", d.contract.id),
    )


def trump_choices(d: DealState, contract: Contract | None = None) -> list[int]:
    """Returns the suits (0-3) that may be named trumps in this deal under ``contract``
    (default: the contract being played): those every stage of :func:`trump_stages` allows."""
    contract = contract if contract is not None else d.contract
    return [
        s for s in d.t.trump_suits if trump_stages(d.rules, d.t, d.options, contract, s) is None
    ]


def _trump_legal(d: DealState) -> list[Action]:
    return [TRUMP[s] for s in trump_choices(d) if _turned_stage(d, s) is None]


def _trump_refusal(d: DealState, action: Action) -> IllegalActionError | None:
    assert action.suit is not None
    suit = action.suit.index
    broken = trump_stages(d.rules, d.t, d.options, d.contract, suit) or _turned_stage(d, suit)
    if broken is None:
        return None
    code, reason, path = broken
    return refuse(code, reason, d.to_move, action, d.rules.cite(path))


# Calls and demands.


def call_rule(d: DealState) -> tuple[Call, tuple[str, str]]:
    assert d.contract is not None
    if d.contract.help is _CALL:
        assert d.rules.call is not None
        return d.rules.call, ("declarations", "call")
    assert d.rules.demand is not None
    return d.rules.demand, ("declarations", "demand")


def call_stages(d: DealState, rule: Call) -> list[tuple[str, int]]:
    """The calling rules in order, each as (refusal code, the cards it still allows), for the
    deal's declarer (:func:`stages_for`, knowing every hand)."""
    assert d.declarer is not None
    hand = d.hands[d.declarer]
    others = 0
    for seat, other in enumerate(d.hands):
        if seat != d.declarer:
            others |= other
    return stages_for(rule, d.t, d.trump, held=hand, may_hold=hand, others_may_hold=others)


def stages_for(
    rule: Call, t: Tables, trump: int | None, *, held: int, may_hold: int, others_may_hold: int
) -> list[tuple[str, int]]:
    """The calling rules in order, each as (refusal code, the cards it still allows).

    The trump suit (unless ``trump_suit_allowed``), the caller's own cards (when ``own_card``
    is ``forbidden``), the rank and fallback rank, the fallback only for a caller holding every
    card of the rank, the pack, and for a demand a card in another player's hand. The legal
    calls are the cards of the last mask; a refused card is refused by the first stage that
    drops it.

    ``held`` are the cards the caller surely holds, ``may_hold`` those he may hold, and
    ``others_may_hold`` those another player may hold: the referee knows every hand (the three
    are exact), the scorekeeper only what the entry says (:mod:`engine.scoresheet`).
    """
    mask = FULL_MASK
    stages: list[tuple[str, int]] = []
    # Under a contract whose partner names trumps, the call comes first: no trump suit yet.
    if not rule.trump_suit_allowed and trump is not None and trump != NO_TRUMPS:
        mask &= ~SUIT_MASKS[trump]
        stages.append(("call/trump", mask))
    if rule.own_card is _FORBIDDEN:
        mask &= ~held
        stages.append(("call/own-card", mask))
    kings = t.rank_mask[rule.rank.index]
    fallback = 0
    if rule.all_held_fallback is not None and rule.all_held_fallback != rule.rank:
        fallback = RANK_MASKS[rule.all_held_fallback.index]
    mask &= RANK_MASKS[rule.rank.index] | fallback
    stages.append(("call/not-callable", mask))
    if fallback and may_hold & kings != kings:
        mask &= ~fallback
        stages.append(("call/queen-needs-all-kings", mask))
    mask &= t.deck_mask
    stages.append(("call/not-in-pack", mask))
    if rule.own_card is _FORBIDDEN:
        mask &= others_may_hold
        stages.append(("call/not-held-by-another", mask))
    return stages


def call_stage_refusal(
    rule: Call, stages: list[tuple[str, int]], card: Card, caller: int | None
) -> tuple[str, str] | None:
    """Returns the first calling rule ``card`` breaks as (code, reason), None if it may be
    called: the one wording of the calling rules' refusals, for the referee and the
    scorekeeper."""
    code = ""
    for stage, allowed in stages:
        if not allowed >> card.index & 1:
            code = stage
            break
    if not code:
        return None
    rank = rule.rank.name.lower()
    if code == "call/trump":
        code = f"call/trump-{'king' if card.rank == rule.rank else 'card'}"
        reason = f"{card} is of the trump suit and may not be called"
    elif code == "call/own-card":
        reason = f"seat {caller} holds {card}: a card is demanded of another player"
    elif code == "call/not-callable":
        reason = f"{card} cannot be called (call a {rank})"
    elif code == "call/queen-needs-all-kings":
        reason = f"a {card.rank.name.lower()} may be called only by a player holding every {rank}"
    elif code == "call/not-in-pack":
        reason = f"{card} is not in the pack"
    else:
        reason = f"{card} is in no other player's hand (it lies in the talon)"
    return code, reason


def call_choices(d: DealState) -> list[int]:
    """Returns the cards the declarer may call or demand now (those every stage of
    :func:`call_stages` allows): the cards of the rank, then of the fallback rank."""
    rule, _ = call_rule(d)
    allowed = call_stages(d, rule)[-1][1]
    ranks = [rule.rank.index]
    if rule.all_held_fallback is not None:
        ranks.append(rule.all_held_fallback.index)
    # The deck is in index order, so each rank's cards in the deck are its mask's bits in turn
    # (the stages leave only cards of the deck).
    return [c for r in ranks for c in bits(allowed & RANK_MASKS[r])]


def _call_refusal(d: DealState, action: Action) -> IllegalActionError | None:
    rule, path = call_rule(d)
    broken = call_stage_refusal(rule, call_stages(d, rule), action.card, d.declarer)
    if broken is None:
        return None
    code, reason = broken
    return refuse(code, reason, d.to_move, action, d.rules.cite(path))


def _give_choices(d: DealState) -> int:
    assert d.declarer is not None and d.called is not None
    return d.hands[d.declarer] & ~(1 << d.called)


def _give_refusal(d: DealState, action: Action) -> IllegalActionError | None:
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


def legal(d: DealState) -> Sequence[Action]:
    if d.phase is SURRENDER_PHASE:
        assert d.called is not None
        return [PASS, GIVE[d.called]]
    if d.phase is TRUMP_PHASE:
        return _trump_legal(d)
    if d.phase is CALL_PHASE:
        return [CALL[c] for c in call_choices(d)]
    return [GIVE[c] for c in d.sorted_cards(_give_choices(d))]


def refusal(d: DealState, action: Action) -> IllegalActionError | None:
    if d.phase is SURRENDER_PHASE:
        if action.verb == "pass" or action.card.index == d.called:
            return None
        return refuse(
            "surrender/not-the-called-card",
            f"only the called card ({ALL_CARDS[d.called or 0]}) may be surrendered; "
            "or pass to keep it",
            d.to_move,
            action,
            d.rules.cite(("declarations", "call", "surrender")),
        )
    if action.verb == "trump":
        return _trump_refusal(d, action)
    if action.verb == "call":
        return _call_refusal(d, action)
    return _give_refusal(d, action)


def apply(d: DealState, seat: int, action: Action) -> None:
    if d.phase is SURRENDER_PHASE:
        _surrender(d, action.verb == "give")
        return
    if action.verb == "trump":
        assert action.suit is not None
        d.turned = turned_card(d)
        d.trump = action.suit.index
        _after_trump(d)
    elif action.verb == "call":
        _call(d, action.card.index)
    else:
        _give(d, action.card.index)


def declare(
    d: DealState, seat: int, contract: Contract, *, forced: bool, suit: int | None = None
) -> None:
    """Makes ``seat`` the declarer of ``contract``; he names trumps next, unless his bid
    named them (``suit``, under ``trump_with_bid``: the trump stage is skipped)."""
    d.declarer = seat
    d.contract = contract
    d.forced = forced
    d.phase = TRUMP_PHASE
    d.to_move = seat
    if contract.all_play is not None:
        _all_play(d, seat, contract.all_play.draw)
    if contract.no_trumps:
        # Played without trumps (``trumps: none``): nobody names them.
        d.trump = NO_TRUMPS
        _after_trump(d)
        return
    if suit is not None and contract.trump_with_bid:
        # The bid named the trump suit (``bid CONTRACT SUIT``): nobody names it again.
        d.trump = suit
        _after_trump(d)
        return
    if _partner_names_trumps(contract) and call_choices(d):
        d.phase = CALL_PHASE  # the call first; its holder then names trumps


def _all_play(d: DealState, seat: int, draw: int) -> None:
    """Every seat plays (``all_play``): the seat that sat the deal out, who took the contract
    up, draws ``draw`` cards from the top of the talon (seen by him alone, as an écart's), and
    from now on nobody sits out."""
    d.seating = d.rules.compiled.all_play_seatings[d.dealer]
    d.out = None
    d.active = d.seating.active
    d.next_seat = d.seating.right
    drawn = tuple(d.talon[d.talon_pos : d.talon_pos + draw])
    d.talon_pos += len(drawn)
    for c in drawn:
        d.hands[seat] |= 1 << c
    d.exchanges.append((seat, (), drawn))


def _partner_names_trumps(contract: Contract) -> bool:
    return contract.trump_named_by is TrumpNamedBy.PARTNER and contract.help is Help.CALL


def _after_trump(d: DealState) -> None:
    assert d.contract is not None
    if d.called is not None:  # the partner named trumps after the call
        _after_declarations(d)
        return
    if d.contract.help is not _NONE:
        choices = call_choices(d)
        if choices:
            d.phase = CALL_PHASE
            d.listed = [CALL[c] for c in choices]  # what legal_actions would list
            return
    # No help, or nothing can be called or demanded (every card is held): he plays alone.
    _after_declarations(d)


def _call(d: DealState, card: int) -> None:
    assert d.contract is not None and d.declarer is not None
    d.called = card
    holder = next((s for s in range(d.n) if d.hands[s] >> card & 1), None)
    if d.contract.help is _CALL:
        d.partner = holder if holder != d.declarer else None
        if d.trump is None:
            # The holder of the called card names trumps (and so makes himself known); a
            # declarer who called his own card names them himself.
            d.phase = TRUMP_PHASE
            if d.partner is not None:
                d.to_move = d.partner
                d.partner_seen = True
            return
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
        amount = fee.amount_for(ALL_CARDS[card].suit.value, d.options)
        if amount:
            d.transfers.append(Transfer(d.declarer, holder, amount, FEE_DEMANDED))
    d.phase = GIVE_PHASE


def _give(d: DealState, card: int) -> None:
    assert d.declarer is not None and d.demanded_from is not None
    d.given = card
    d.hands[d.declarer] &= ~(1 << card)
    d.hands[d.demanded_from] |= 1 << card
    _after_declarations(d)


def _surrender(d: DealState, given: bool) -> None:
    """*Roi rendu*: the called card's holder keeps it (pass) or hands it to the declarer, who
    pays him the rule's fee, gives him a card of his choice and plays alone."""
    if not given:
        _after_declarations(d, surrender_asked=True)
        return
    assert d.declarer is not None and d.partner is not None and d.called is not None
    holder = d.partner
    d.hands[holder] &= ~(1 << d.called)
    d.hands[d.declarer] |= 1 << d.called
    d.demanded_from = holder
    d.partner = None
    d.partner_seen = True
    fee = d.rules.call.surrender_fee if d.rules.call is not None else None
    if fee:
        d.transfers.append(Transfer(d.declarer, holder, fee, FEE_SURRENDERED))
    d.phase = GIVE_PHASE
    d.to_move = d.declarer


def _after_declarations(d: DealState, *, surrender_asked: bool = False) -> None:
    rule = d.rules.call
    if (
        not surrender_asked
        and rule is not None
        and rule.surrender_fee is not None
        and d.contract is not None
        and d.contract.help is Help.CALL
        and d.partner is not None
        and d.demanded_from is None
    ):
        # Roi rendu: the holder of the called card may surrender it before play.
        d.phase = SURRENDER_PHASE
        d.to_move = d.partner
        return
    exchange.begin(d)

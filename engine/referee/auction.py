"""The auction: speech in turn, bids by precedence, the "forcé" match, and all passing.

Speech goes once round (``auction.speech: once-each``) or round and round, a pass being final,
until all but one have passed (``round``), or as a duel (``duel``): a hand overcalled answers
before the next seat speaks, bidding higher or passing, the two bidding over each other until
one passes (a pass being final); the next seat then speaks against the one left. A bid of the
rank standing is refused, or taken by a hand that speaks earlier than its holder
(``auction.equal_rank: earlier-holds``: another contract of that rank; ``earlier-holds-same``:
the very contract held too, the earlier hand "saying the same"). A contract
named only to overcall (``only_to_overcall``) is refused, or penalised, when the lower contract
it stands for (its ``bid_as`` class, or ``instead_of``) would have outranked the bid standing.

Staged filter for a bid: the contract exists, it may be bid, in the ``match`` phase it is the
overcall being matched, and otherwise it outranks the bid standing and, where it may be named
only to overcall, it is needed. After the auction its winner may name what he plays instead
(the ``raise`` phase: ``declarer_may_play``, ``auction.raise``).
A contract reserved to the last to speak after all have passed (``biddable_when:
last-after-all-pass``, the contrabola) is bid by him only. A contract that may not open the
auction (``biddable_when: over-a-bid``) is bid only over a bid standing, any it outranks (the
raise after the auction may go to it). When every seat that plays has
passed and nobody is forced to play, a contract offered to the seat that sits out
(``biddable_when: out-after-all-pass``, the penetro) is his to take up (``bid``) or to pass
(the deal is then passed out); it is in no other seat's list.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.actions import PASS, Action
from engine.cards import Card
from engine.enums import AllPass, BiddableWhen, EqualRank, Speech
from engine.errors import IllegalActionError
from engine.referee import declarations, result
from engine.referee.deal_laws import dealer_after
from engine.referee.dealstate import DealState
from engine.referee.outcome import Fault
from engine.referee.settlement import Kind, outcome_kind
from engine.referee.state import AUCTION, MATCH, RAISE, refuse
from engine.rules.model import Contract, RuleSet

__all__ = [
    "Offer",
    "apply",
    "legal",
    "may_pass_out",
    "needed",
    "offer",
    "offered",
    "raise_choices",
    "refusal",
    "reserved_to",
    "suited",
]

SUITS = declarations.SUITS  # the suits by index, as the declarations name them
# Enum members as plain names (reading one off its class costs far more than a global).
_EARLIER_HOLDS = EqualRank.EARLIER_HOLDS
_EARLIER_HOLDS_SAME = EqualRank.EARLIER_HOLDS_SAME
_DUEL = Speech.DUEL
_ROUND = Speech.ROUND
_FORCED = AllPass.FORCED


def legal(d: DealState) -> Sequence[Action]:
    bids = _legal(d)
    if d.rules.compiled.bids_suited and d.phase is not RAISE:
        # The raise names the contract played, never a suit: its trumps are named after.
        return suited(d, bids)
    return bids


def suited(d: DealState, actions: Sequence[Action]) -> list[Action]:
    """Returns ``actions`` with each bid of a contract whose bid names its trump suit
    (``trump_with_bid``) given as one bid per suit it may be played in
    (:func:`engine.referee.declarations.trump_choices`, the one derivation of the trump
    choices: ``bid sans-prendre hearts``, ...)."""
    suited_ids = d.rules.compiled.bids_suited
    out: list[Action] = []
    for a in actions:
        if a.verb == "bid" and a.contract in suited_ids and a.suit is None:
            contract = d.rules.contracts[a.contract]
            out += [
                Action("bid", contract=a.contract, suit=SUITS[s])
                for s in declarations.trump_choices(d, contract)
            ]
        else:
            out.append(a)
    return out


def _legal(d: DealState) -> list[Action]:
    compiled = d.rules.compiled
    if d.phase is RAISE:
        return [PASS, *(Action("bid", contract=c.id) for c in raise_choices(d))]
    if offered(d):
        return [PASS, *(Action("bid", contract=c) for c in sorted(compiled.bids_offered))]
    if d.phase is MATCH:
        assert d.holder_contract is not None
        return list(compiled.match[d.holder_contract.id])
    standing = d.holder_contract
    floor = standing.rank if standing is not None else -1
    bids = compiled.bids[floor]
    if compiled.bids_reserved and not _last_after_all_pass(d):
        bids = tuple(b for b in bids if b.contract not in compiled.bids_reserved)
    rules = d.rules
    if standing is not None and rules.equal_rank is not EqualRank.REFUSED and _earlier(d):
        # An earlier hand may take a contract of the rank standing (another than the one held,
        # or, where he may say the same, that one too).
        same = [
            Action("bid", contract=c.id)
            for c in rules.contracts.values()
            if c.biddable and c.rank == standing.rank and _may_equal(rules, c, standing)
        ]
        bids = (bids[0], *same, *bids[1:])
    if compiled.bids_need_cards:
        bids = tuple(b for b in bids if b.verb == "pass" or _lacks(d, b.contract) is None)
    if compiled.named_only_to_overcall:
        bids = tuple(b for b in bids if b.verb == "pass" or _named_legally(d, b.contract))
    return list(bids)


def _last_after_all_pass(d: DealState) -> bool:
    """Checks if the player to move is the last to speak and every other has passed.

    Speech once round: no speaker is left after him and no bid stands. Speech that goes round
    (``speech: round``) keeps no queue of speakers: every other hand has passed (a pass being
    final) and no bid stands. The seat that sits the deal out, asked whether it takes up the
    contract offered (:func:`offered`), is not the last to speak."""
    if d.phase is not AUCTION or d.holder is not None or offered(d):
        return False
    if d.rules.speech is _ROUND:
        others = (s for s in d.seating.order if s != d.to_move)
        return all(d.passed >> s & 1 for s in others)
    return not d.speakers


def reserved_to(rules: RuleSet, dealer: int, contract: Contract) -> int | None:
    """Returns the seat that alone may play ``contract`` in a deal dealt by ``dealer``, where
    its ``biddable_when`` reserves it: the last to speak (``last-after-all-pass``: the last in
    turn from the eldest, since a pass is final and every other hand must have passed), or the
    seat that sits the deal out (``out-after-all-pass``). None where any seat may play it,
    as the winner of the auction may where the raise reaches it (:func:`_raised_to`). The
    auction offers such a contract to that seat only (:func:`_last_after_all_pass`,
    :func:`offered`); the scorekeeper asks this of an entry."""
    when = contract.biddable_when
    if when is BiddableWhen.LAST_AFTER_ALL_PASS and not _raised_to(rules, contract):
        return rules.compiled.seatings[dealer].order[-1]
    if when is BiddableWhen.OUT_AFTER_ALL_PASS:
        return rules.compiled.seatings[dealer].out
    return None


def may_pass_out(rules: RuleSet) -> bool:
    """Checks if a deal can end with every seat passing and nobody playing (dealt again): the
    rules redeal when all pass, or the card that forces a player to play (``all_pass:
    forced``) may lie in the talon, so that nobody holds it (:func:`_end`; the seat that sits
    out may then decline the contract offered)."""
    return rules.all_pass is AllPass.REDEAL or rules.all_pass_card is None or rules.talon > 0


def offered(d: DealState) -> bool:
    """Checks if the seat that sits the deal out is to say whether it takes up the contract
    offered when all who play have passed (``biddable_when: out-after-all-pass``): the only
    time that seat speaks."""
    return d.phase is AUCTION and d.out is not None and d.to_move == d.out


PASSED_OUT = "redeal"
"""The result of a deal passed out (every seat passed, nobody took up a contract)."""


@dataclass(frozen=True, slots=True)
class Offer:
    """A contract offered to the seat that sits the deal out, every seat that plays having
    passed (``biddable_when: out-after-all-pass``): he takes one up (``bid``), or passes and the
    deal is passed out. The referee's answer for the tables' labelled controls
    (:attr:`engine.referee.Deal.offer`); public, as the speech is."""

    seat: int
    """The seat that sits out and is asked."""
    contracts: tuple[Contract, ...]
    """The contracts he may take up, lowest first."""
    passed_out: str
    """The result a pass gives the deal (``redeal``)."""
    dealt_again: bool
    """Whether that result voids the deal and the cards are dealt again (its outcome kind)."""
    next_dealer: int
    """The seat that deals the next deal after a pass."""


def offer(d: DealState) -> Offer | None:
    """Returns the contract offered to the seat that sits out when all who play have passed,
    while he is to say whether he takes it up (:func:`offered`); None at any other time."""
    if not offered(d):
        return None
    rules = d.rules
    contracts = sorted(
        (rules.contracts[c] for c in rules.compiled.bids_offered), key=lambda c: (c.rank, c.id)
    )
    return Offer(
        d.to_move,
        tuple(contracts),
        PASSED_OUT,
        outcome_kind(rules, PASSED_OUT).kind is Kind.REDEAL,
        dealer_after(rules, d.dealer, PASSED_OUT),
    )


def _earlier(d: DealState) -> bool:
    """Checks if the player to move speaks earlier than the holder of the bid (in turn from
    the eldest)."""
    order = d.seating.order
    return d.holder is not None and order.index(d.to_move) < order.index(d.holder)


def _may_equal(rules: RuleSet, contract: Contract, standing: Contract) -> bool:
    """Checks if an earlier hand may take ``standing`` with ``contract`` of its rank: another
    contract (``equal_rank: earlier-holds``), or any, the very one held included
    (``earlier-holds-same``)."""
    if rules.equal_rank is _EARLIER_HOLDS_SAME:
        return True
    return rules.equal_rank is _EARLIER_HOLDS and contract.id != standing.id


def _outranks(d: DealState, contract: Contract) -> bool:
    """Checks if ``contract``, bid now by the player to move, outranks the bid standing."""
    standing = d.holder_contract
    if standing is None or contract.rank > standing.rank:
        return True
    return (
        contract.rank == standing.rank and _may_equal(d.rules, contract, standing) and _earlier(d)
    )


def needed(d: DealState, contract: Contract) -> bool:
    """Checks if naming ``contract`` now is needed to overcall: the lower contract it stands
    for (its class, or ``instead_of``) would not outrank the bid standing (our reading of the
    DLU's "nødvendigt for overbud"; a contract named freely is always needed)."""
    lower = contract.needs
    if lower is None:
        return True
    return not _outranks(d, d.rules.contracts[lower])


def _named_legally(d: DealState, contract_id: str | None) -> bool:
    contract = d.rules.contracts[contract_id or ""]
    rule = contract.only_to_overcall
    return rule is None or rule.penalty is not None or needed(d, contract)


def _raised_to(rules: RuleSet, contract: Contract) -> bool:
    """Checks if the auction's winner may raise to ``contract`` from a lower contract won
    (``auction.raise: {to: higher}``): any biddable contract but one offered to the seat that
    sits out (every seat plays it: there is no declarer to raise to it). Such a contract is
    then played by whoever won the auction, whatever seat its bid is reserved to."""
    return (
        rules.raise_to == "higher"
        and contract.biddable
        and contract.id not in rules.compiled.bids_offered
        and any(c.biddable and c.rank < contract.rank for c in rules.contracts.values())
    )


def raise_choices(d: DealState) -> list[Contract]:
    """Returns the contracts the auction's winner may play instead of the one he won: those
    it lets him name (``declarer_may_play``) and, under ``auction.raise: {to: higher}``, every
    higher biddable contract but one offered to the seat that sits out (every seat plays it:
    there is no declarer to raise to it), lowest first."""
    won = d.holder_contract
    if won is None:
        return []
    rules = d.rules
    names = set(won.declarer_may_play)
    if rules.raise_to == "higher":
        names |= {
            c.id for c in rules.contracts.values() if c.rank > won.rank and _raised_to(rules, c)
        }
    lacking = rules.compiled.bids_need_cards
    return sorted(
        (rules.contracts[c] for c in names if not lacking or _lacks(d, c) is None),
        key=lambda c: (c.rank, c.id),
    )


def _lacks(d: DealState, contract_id: str | None) -> Card | None:
    """Returns a card the player to move lacks for this contract (None: he may bid it)."""
    contract = d.rules.contracts[contract_id or ""]
    hand = d.hands[d.to_move]
    return next((c for c in contract.requires_cards if not hand >> c.index & 1), None)


def refusal(d: DealState, action: Action) -> IllegalActionError | None:
    """Returns why a ``pass`` or ``bid`` is refused now (None: it is legal)."""
    if action.verb == "pass":
        return None
    if d.phase is RAISE:
        return _raise_refusal(d, action) or _raise_suit_refusal(d, action)
    contract = d.rules.contracts.get(action.contract or "")
    if contract is None:
        return _unknown_contract(d, action)
    refused = _eligibility_refusal(d, action, contract)
    if refused is not None:
        return refused
    return _precedence_refusal(d, action, contract) or _suit_refusal(d, action, contract)


def _raise_suit_refusal(d: DealState, action: Action) -> IllegalActionError | None:
    """Returns the refusal of a raise that names a suit: the raise names the contract played
    (``bid CONTRACT``), and its trumps are named after it, even under ``trump_with_bid``."""
    if action.suit is None:
        return None
    return refuse(
        "raise/no-suit",
        f"the raise names the contract played only (bid {action.contract}): its trumps are "
        "named after it",
        d.to_move,
        action,
        d.rules.cite(("auction", "contracts", action.contract or "")),
    )


def _suit_refusal(d: DealState, action: Action, contract: Contract) -> IllegalActionError | None:
    """Returns why the suit of a bid (or its lack) is refused: a contract whose bid names its
    trump suit (``trump_with_bid``) is bid with one (``bid CONTRACT SUIT``) that its trump
    rules allow (the stages of ``trump SUIT``, :func:`engine.referee.declarations.trump_stages`);
    any other contract is bid without one. None if the bid's suit is right."""
    rules = d.rules
    path = ("auction", "contracts", contract.id)
    if contract.trump_with_bid and action.suit is None:
        suits = ", ".join(SUITS[s].value for s in declarations.trump_choices(d, contract))
        return refuse(
            "bid/names-suit",
            f"a bid of {contract.id} names its trump suit: bid {contract.id} SUIT ({suits})",
            d.to_move,
            action,
            rules.cite(path),
        )
    if action.suit is None:
        return None
    if not contract.trump_with_bid:
        return refuse(
            "bid/no-suit",
            f"a bid of {contract.id} names no suit"
            + ("" if contract.no_trumps else ": trumps are named after the auction"),
            d.to_move,
            action,
            rules.cite(path),
        )
    broken = declarations.trump_stages(rules, d.t, d.options, contract, action.suit.index)
    if broken is None:
        return None
    code, reason, where = broken
    return refuse(code, reason, d.to_move, action, rules.cite(where))


def _unknown_contract(d: DealState, action: Action) -> IllegalActionError:
    """Returns the refusal of a bid of a contract the rules do not have."""
    rules = d.rules
    known = ", ".join(c for c, v in rules.contracts.items() if v.biddable)
    return refuse(
        "bid/unknown-contract",
        f"{rules.id} has no contract {action.contract!r} (bids: {known})",
        d.to_move,
        action,
    )


def _eligibility_refusal(
    d: DealState, action: Action, contract: Contract
) -> IllegalActionError | None:
    """Returns why ``contract`` may not be bid by the player to move whatever stands (it is not
    bid, it is offered to another seat, he lacks its cards, it is reserved to the last to speak,
    it may not open the auction), or None if it may be."""
    rules = d.rules
    seat = d.to_move
    if not contract.biddable:
        return refuse(
            "bid/not-biddable",
            f"{contract.id} is not bid: it is imposed when all pass",
            seat,
            action,
            rules.cite(("auction", "contracts", contract.id)),
        )
    if offered(d) != (contract.id in rules.compiled.bids_offered):
        offers = ", ".join(sorted(rules.compiled.bids_offered))
        return refuse(
            "bid/offered-to-out",
            f"seat {seat} sits the deal out and may only take up {offers} or pass"
            if offered(d)
            else f"{contract.id} is offered only to the seat that sits the deal out, when all"
            " who play have passed",
            seat,
            action,
            rules.cite(("auction", "contracts", contract.id)),
        )
    lacking = _lacks(d, contract.id) if contract.requires_cards else None
    if lacking is not None:
        return refuse(
            "bid/requires-cards",
            f"{contract.id} may be bid only by a player holding {', '.join(map(str, contract.requires_cards))}"
            f" (seat {seat} lacks {lacking})",
            seat,
            action,
            rules.cite(("auction", "contracts", contract.id)),
        )
    if contract.biddable_when is BiddableWhen.LAST_AFTER_ALL_PASS and not _last_after_all_pass(d):
        return refuse(
            "bid/reserved-to-last",
            f"{contract.id} may be bid only by the last to speak, when every other has passed",
            seat,
            action,
            rules.cite(("auction", "contracts", contract.id)),
        )
    if contract.biddable_when is BiddableWhen.OVER_A_BID and d.holder_contract is None:
        return refuse(
            "bid/may-not-open",
            f"{contract.id} may not open the auction: it may be bid only over a bid standing",
            seat,
            action,
            rules.cite(("auction", "contracts", contract.id)),
        )
    return None


def _precedence_refusal(
    d: DealState, action: Action, contract: Contract
) -> IllegalActionError | None:
    """Returns why ``contract`` may not be bid over the bid standing: in the ``match`` phase it
    is not the overcall matched; otherwise it does not outrank the bid standing, or it is
    named only to overcall when it is not needed. None if it may be bid."""
    rules = d.rules
    seat = d.to_move
    standing = d.holder_contract
    if d.phase is MATCH:
        assert standing is not None
        if contract.id == standing.id:
            return None
        return refuse(
            "bid/must-match-or-pass",
            f"seat {seat} may only take the overcall himself ({standing.id}) or pass",
            seat,
            action,
            rules.cite(("auction", "contracts", standing.id)),
        )
    if standing is not None and not _outranks(d, contract):
        return _outranked(d, action, contract, standing)
    rule = contract.only_to_overcall
    if rule is not None and rule.penalty is None and not needed(d, contract):
        lower = contract.needs
        return refuse(
            "bid/not-needed",
            f"{contract.id} may be named only when needed to overcall, and {lower} would do"
            + (f" over {standing.id}" if standing is not None else ""),
            seat,
            action,
            rules.cite(("auction", "contracts", contract.id)),
        )
    return None


def _outranked(
    d: DealState, action: Action, contract: Contract, standing: Contract
) -> IllegalActionError:
    """Returns the refusal of ``contract``, which does not outrank the bid standing: of the rank
    standing, which an earlier hand holds, or lower."""
    rules = d.rules
    seat = d.to_move
    if contract.rank == standing.rank and _may_equal(rules, contract, standing):
        return refuse(
            "bid/equal-rank-later",
            f"{contract.id} ranks with {standing.id}, and seat {d.holder}, who holds it, "
            "speaks earlier: the earlier hand holds",
            seat,
            action,
            rules.cite(("auction", "equal_rank")),
        )
    return refuse(
        "bid/outranked",
        f"{contract.id} does not outrank {standing.id}",
        seat,
        action,
        rules.cite(("auction",)),
    )


def _raise_refusal(d: DealState, action: Action) -> IllegalActionError | None:
    rules = d.rules
    won = d.holder_contract
    assert won is not None
    if any(c.id == action.contract for c in raise_choices(d)):
        return None
    if action.contract not in rules.contracts:
        known = ", ".join(c.id for c in raise_choices(d))
        return refuse(
            "raise/unknown-contract",
            f"{rules.id} has no contract {action.contract!r} (he may play: {known}, or pass)",
            d.to_move,
            action,
        )
    path: tuple[str, ...] = (
        ("auction", "raise") if rules.raise_to is not None else ("auction", "contracts", won.id)
    )
    return refuse(
        "raise/not-allowed",
        f"seat {d.to_move} won with {won.id} and may not play {action.contract} instead"
        + (" (a raise must be to a higher contract)" if rules.raise_to is not None else ""),
        d.to_move,
        action,
        rules.cite(path),
    )


def apply(d: DealState, seat: int, action: Action) -> None:
    if d.phase is RAISE:
        assert d.holder is not None and d.holder_contract is not None
        chosen = d.holder_contract
        if action.verb == "bid":
            chosen = d.rules.contracts[action.contract or ""]
            d.bid_suit = None  # a contract raised to names its trumps after
        if chosen is not d.holder_contract:
            d.raised_from = d.holder_contract.id
        declarations.declare(d, d.holder, chosen, forced=False, suit=d.bid_suit)
        return
    if offered(d):
        d.auction.append((seat, action))
        if action.verb == "bid":
            contract = d.rules.contracts[action.contract or ""]
            declarations.declare(d, seat, contract, forced=False, suit=_suit_of(action))
            return
        _passed_out(d)
        return
    d.auction.append((seat, action))
    if d.rules.speech is _ROUND:
        _round(d, seat, action)
        return
    if d.rules.speech is _DUEL:
        _duel(d, seat, action)
        return
    if d.phase is MATCH:
        if action.verb == "pass":
            d.holder = d.overcaller
        else:
            d.bid_suit = _suit_of(action)  # the holder takes the overcall in his own suit
        d.overcaller = None
        d.phase = AUCTION
        _next_speaker(d)
        return
    if action.verb == "bid":
        contract = d.rules.contracts[action.contract or ""]
        holder = d.holder
        _penalise(d, seat, contract)
        d.bid_suit = _suit_of(action)
        if holder is not None and contract.matchable:
            # "Forcé": the player holding the bid may take it himself and be preferred.
            d.overcaller = seat
            d.holder_contract = contract
            d.phase = MATCH
            d.to_move = holder
            return
        d.holder = seat
        d.holder_contract = contract
    _next_speaker(d)


def _suit_of(action: Action) -> int | None:
    """Returns the trump suit (0-3) a bid names, None if it names none."""
    return action.suit.index if action.suit is not None else None


def _penalise(d: DealState, seat: int, contract: Contract) -> None:
    """Charges the fault of a contract named without need (``only_to_overcall: {penalty:
    FAULT}``) to the bidder, for the penalty ledger (``settlement.penalties``)."""
    rule = contract.only_to_overcall
    if rule is None or rule.penalty is None or needed(d, contract):
        return
    d.faults.append(Fault(seat, rule.penalty))


def _round(d: DealState, seat: int, action: Action) -> None:
    """Speech that goes round (``auction.speech: round``): a bid takes the bid standing, a
    pass is final, and the auction ends when all but the holder have passed (or all have)."""
    if action.verb == "bid":
        contract = d.rules.contracts[action.contract or ""]
        _penalise(d, seat, contract)
        d.bid_suit = _suit_of(action)
        d.holder = seat
        d.holder_contract = contract
    else:
        d.passed |= 1 << seat
    order = d.seating.order
    i = order.index(seat)
    for k in range(1, len(order) + 1):
        nxt = order[(i + k) % len(order)]
        if d.passed >> nxt & 1:
            continue
        if nxt == d.holder:
            break  # every other hand has passed: he has it
        d.to_move = nxt
        return
    _end(d)


def _duel(d: DealState, seat: int, action: Action) -> None:
    """Speech as a duel (``auction.speech: duel``): a bid over a bid standing sends the speech
    back to the hand overcalled, who bids higher (or, an earlier hand, holds: ``equal_rank``)
    or passes; the two bid over each other until one passes, a pass being final, and the next
    seat in turn then speaks against the one left. With no seat left to speak, the holder has
    it (or all passed)."""
    if action.verb == "bid":
        contract = d.rules.contracts[action.contract or ""]
        _penalise(d, seat, contract)
        d.bid_suit = _suit_of(action)
        overcalled = d.holder
        d.holder = seat
        d.holder_contract = contract
        if overcalled is not None:
            d.to_move = overcalled
            return
    else:
        d.passed |= 1 << seat
    _next_speaker(d)


def _next_speaker(d: DealState) -> None:
    if d.speakers:
        d.to_move = d.speakers.pop()
        return
    _end(d)


def _end(d: DealState) -> None:
    """The auction is over: its winner declares (or first names what he plays), or all
    passed."""
    if d.holder is not None and d.holder_contract is not None:
        if raise_choices(d):
            d.phase = RAISE
            d.to_move = d.holder
            return
        declarations.declare(d, d.holder, d.holder_contract, forced=False, suit=d.bid_suit)
        return
    rules = d.rules
    if rules.all_pass is _FORCED and rules.all_pass_card is not None:
        card = rules.all_pass_card.index
        for s in range(d.n):
            if d.hands[s] >> card & 1:
                assert rules.all_pass_contract is not None
                declarations.declare(d, s, rules.contracts[rules.all_pass_contract], forced=True)
                return
    if d.out is not None and rules.compiled.bids_offered:
        # Nobody is forced to play: the seat that sits out may take up the contract offered.
        d.to_move = d.out
        return
    _passed_out(d)


def _passed_out(d: DealState) -> None:
    """The deal is passed out: void and dealt again, staked as the all-pass rule says."""
    d.result = PASSED_OUT
    result.finish(d)

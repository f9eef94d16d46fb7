"""The auction: speech in turn, bids by precedence, the "forcé" match, and all passing.

Staged filter for a bid: the contract exists, it may be bid, the bidder holds the cards it
requires, a contract reserved to the last to speak after all have passed
(``biddable_when: last-after-all-pass``, the contrabola) is bid by him only, in the ``match``
phase it is the overcall being matched, and otherwise it outranks the bid standing.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.actions import Action
from engine.enums import AllPass, BiddableWhen
from engine.errors import IllegalActionError
from engine.referee import declarations, result
from engine.referee.dealstate import DealState
from engine.referee.state import AUCTION, MATCH, refuse

__all__ = ["apply", "legal", "refusal"]


def legal(d: DealState) -> Sequence[Action]:
    compiled = d.rules.compiled
    if d.phase is MATCH:
        assert d.holder_contract is not None
        return list(compiled.match[d.holder_contract.id])
    floor = d.holder_contract.rank if d.holder_contract is not None else -1
    bids = compiled.bids[floor]
    if compiled.bids_reserved and not _last_after_all_pass(d):
        bids = tuple(b for b in bids if b.contract not in compiled.bids_reserved)
    if compiled.bids_need_cards:
        return [b for b in bids if b.verb == "pass" or _lacks(d, b.contract) is None]
    return list(bids)


def _last_after_all_pass(d: DealState) -> bool:
    """Checks if the player to move is the last to speak and every other has passed."""
    return d.phase is AUCTION and not d.speakers and d.holder is None


def _lacks(d: DealState, contract_id: str | None) -> str | None:
    """Returns a card the player to move lacks for this contract (None: he may bid it)."""
    from engine.cards import Card

    contract = d.rules.contracts[contract_id or ""]
    hand = d.hands[d.to_move]
    for text in contract.requires_cards:
        if not hand >> Card.parse(text).index & 1:
            return text
    return None


def refusal(d: DealState, action: Action) -> IllegalActionError | None:
    """Returns why a ``pass`` or ``bid`` is refused now (None: it is legal)."""
    if action.verb == "pass":
        return None
    rules = d.rules
    seat = d.to_move
    contract = rules.contracts.get(action.contract or "")
    if contract is None:
        known = ", ".join(c for c, v in rules.contracts.items() if v.biddable)
        return refuse(
            "bid/unknown-contract",
            f"{rules.id} has no contract {action.contract!r} (bids: {known})",
            seat,
            action,
        )
    if not contract.biddable:
        return refuse(
            "bid/not-biddable",
            f"{contract.id} is not bid: it is imposed when all pass",
            seat,
            action,
            rules.cite(("auction", "contracts", contract.id)),
        )
    lacking = _lacks(d, contract.id) if contract.requires_cards else None
    if lacking is not None:
        return refuse(
            "bid/requires-cards",
            f"{contract.id} may be bid only by a player holding {', '.join(contract.requires_cards)}"
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
    if standing is not None and contract.rank <= standing.rank:
        return refuse(
            "bid/outranked",
            f"{contract.id} does not outrank {standing.id}",
            seat,
            action,
            rules.cite(("auction",)),
        )
    return None


def apply(d: DealState, seat: int, action: Action) -> None:
    d.auction.append((seat, action))
    if d.phase is MATCH:
        if action.verb == "pass":
            d.holder = d.overcaller
        d.overcaller = None
        d.phase = AUCTION
        _next_speaker(d)
        return
    if action.verb == "bid":
        contract = d.rules.contracts[action.contract or ""]
        holder = d.holder
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


def _next_speaker(d: DealState) -> None:
    if d.speakers:
        d.to_move = d.speakers.pop()
        return
    if d.holder is not None and d.holder_contract is not None:
        declarations.declare(d, d.holder, d.holder_contract, forced=False)
        return
    rules = d.rules
    if rules.all_pass is AllPass.FORCED and rules.all_pass_card is not None:
        card = rules.all_pass_card.index
        for s in range(d.n):
            if d.hands[s] >> card & 1:
                assert rules.all_pass_contract is not None
                declarations.declare(d, s, rules.contracts[rules.all_pass_contract], forced=True)
                return
    # Passed out: the deal is void and dealt again, staked as the all-pass rule says.
    d.result = "redeal"
    result.finish(d)

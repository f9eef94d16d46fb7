"""The laws of the deal: misdeals, a card too many, several revokes, and late claims.

Each is a law of the rule file's ``laws`` mapping (:class:`engine.rules.model.Laws`); a deal
whose rules do not state it refuses its verb. The verbs are irregularities, written in a record
by the seat concerned whoever is to move, and never listed by :meth:`Deal.legal_actions`, so
bots never commit one:

* ``SEAT misdeal FAULT`` (``laws.misdeal``): the deal is found wrong (``too-many``,
  ``too-few`` cards, two cards ``duplicate``, a card ``faced`` in the deal) before it is over.
  It is void: nothing is staked or paid, and the dealer the law names deals again ("Il n'y a
  point d'autre peine pour ceux qui donnent mal, que de refaire", ENC-Q). Once the deal is over
  it stands.
* ``SEAT extra-card`` (``laws.eleven_cards``): SEAT is found playing with a card too many,
  once play has begun. He makes a bête alone ("Whosoever plays with eleven cards is beasted",
  HOYLE-IE law 8) and the deal is void, as a misdeal.
* ``SEAT retake`` (``laws.revokes``, ``several: retake``): after the last trick of a deal in
  which several renonces were found at the end, the cards are taken back ("on pourroit
  reprendre le jeu, pourvu que les cartes ne fussent pas brouillées", ENC-Q): the bêtes stand
  and play resumes from the first revoked trick.
* :func:`forgo_claims` (``laws.claims_before_next_deal``): payment items not claimed before the
  next dealer has finished dealing are not paid (HOYLE-IE law 9); a record's ``unclaimed`` key.

A void deal's result is ``misdeal``, an outcome of kind ``redeal`` dealt again by the same
dealer (:func:`next_dealer`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from engine.actions import Action
from engine.errors import IllegalActionError, NotationError
from engine.referee.dealstate import NO_IRREGULARITY, Irregularities
from engine.referee.seating import seating
from engine.referee.settlement import MISDEAL
from engine.referee.state import OVER, PLAY, VOLE, refuse

if TYPE_CHECKING:
    from collections.abc import Iterable

    from engine.referee.dealstate import DealState as Deal
    from engine.rules.model import RuleSet

__all__ = [
    "MISDEAL",
    "VERBS",
    "apply",
    "at_end",
    "cutting_seat",
    "dealer_after",
    "dealt_again",
    "declarable",
    "fault_refusal",
    "forgo_claims",
    "next_dealer",
    "refusal",
    "report",
    "same_dealer",
]

VERBS = frozenset({"misdeal", "extra-card", "retake"})
"""The irregularities' verbs (:data:`engine.actions.VERBS` lists them too)."""


def fault_refusal(rules: RuleSet, fault: str) -> tuple[str, str] | None:
    """Returns why ``fault`` voids no deal under ``rules``' law of misdeals (which it
    states), as (code, reason), None if it does: the one statement of it, for the play
    (:func:`refusal`) and the scorekeeper, which wraps it."""
    law = rules.laws.misdeal
    assert law is not None
    if fault == "faced-last" and "faced-last" not in law.faults and "faced" in law.faults:
        return (
            "misdeal/last-card",
            "a faced last card is no misdeal under these rules: the deal stands",
        )
    if fault not in law.faults:
        return (
            "misdeal/fault",
            f"{fault!r} is not a misdeal under these rules (faults: {', '.join(law.faults)})",
        )
    return None


def _machine_dealt(who: int, action: Action, cite: str) -> IllegalActionError:
    """The refusal of a misdeal or a card too many in a deal a machine dealt: it deals no card
    too many or too few, no two alike and faces none, so what the law remedies cannot happen
    (and a player about to lose may not void the deal by saying it did)."""
    return refuse(
        f"{action.verb}/machine-dealt",
        "the cards were dealt by the machine, which deals every hand right and faces no card",
        who,
        action,
        cite,
    )


def refusal(d: Deal, action: Action, seat: int | None) -> IllegalActionError | None:
    """Returns why an irregularity's verb is refused now, None if it may be written."""
    verb = action.verb
    who = d.to_move if seat is None else seat
    laws = d.rules.laws
    if verb == "misdeal":
        law = laws.misdeal
        if law is None:
            return refuse(
                "misdeal/no-law",
                "this rule file states no law of misdeals (laws.misdeal)",
                who,
                action,
            )
        cite = d.rules.cite(("laws", "misdeal"))
        not_a_fault = fault_refusal(d.rules, str(action.word))
        if not_a_fault is not None:
            code, reason = not_a_fault
            return refuse(code, reason, who, action, cite)
        if d.machine_dealt:
            return _machine_dealt(who, action, cite)
        if d.is_over:
            return refuse(
                "misdeal/too-late",
                "the deal is over: found after the play, a misdeal stands",
                who,
                action,
                cite,
            )
        return None
    if verb == "extra-card":
        if laws.eleven_cards is None or laws.misdeal is None:
            return refuse(
                "extra-card/no-law",
                "this rule file states no law for a card too many (laws.eleven_cards)",
                who,
                action,
            )
        cite = d.rules.cite(("laws", "eleven_cards"))
        if d.machine_dealt:
            return _machine_dealt(who, action, cite)
        if d.is_over:
            return refuse("extra-card/too-late", "the deal is over: it stands", who, action, cite)
        if d.phase is not PLAY and d.phase is not VOLE:
            return refuse(
                "extra-card/not-now",
                "play has not begun: a card too many is a misdeal (write misdeal too-many)",
                who,
                action,
                cite,
            )
        if who == d.out:
            return refuse(
                "extra-card/sits-out", f"seat {who} sits this deal out", who, action, cite
            )
        return None
    # retake
    revokes = laws.revokes
    if revokes is None or revokes.setting != "retake":
        return refuse(
            "retake/no-law",
            "under these rules the cards are not taken back after several renonces (laws.revokes)",
            who,
            action,
        )
    if not d.is_over or d.result == MISDEAL or len(irregularities(d).late) < 2:
        return refuse(
            "retake/nothing",
            "the cards may be taken back only after the last trick of a deal in which several "
            "renonces were found at the end",
            who,
            action,
            d.rules.cite(("laws", "revokes")),
        )
    return None


def irregularities(d: Deal) -> Irregularities:
    """Returns what the laws of the table have made of the deal so far."""
    return d.deal_irregular


def apply(d: Deal, action: Action, seat: int | None) -> None:
    """Applies an irregularity after checking it (raises its refusal)."""
    error = refusal(d, action, seat)
    if error is not None:
        raise error
    who = d.to_move if seat is None else seat
    d.history.append((who, action))
    d.listed = None
    d.legal_mask = -1
    if action.verb == "misdeal":
        d.deal_irregular = replace(d.deal_irregular, fault=action.word, found_by=who)
        _void(d)
    elif action.verb == "extra-card":
        d.deal_irregular = replace(d.deal_irregular, found_by=who, extra_card=who)
        _void(d)
    else:
        _retake(d)


def _void(d: Deal) -> None:
    """The deal is void: no other penalty, no renonce's bête, nothing paid."""
    d.renonces = []
    d.penalties = []
    d.trick = []
    d.phase = OVER
    d.is_over = True
    d.listed = []
    d.result = MISDEAL


def at_end(d: Deal) -> None:
    """Called when the play ends: keeps the renonces found at the end (for ``retake``)."""
    if d.rules.laws.revokes is not None:
        d.deal_irregular = replace(d.deal_irregular, late=tuple(d.renonces))


def _retake(d: Deal) -> None:
    """The cards are taken back: play resumes from the first revoked trick; the bêtes stand."""
    snapshots = d.snapshots
    assert snapshots is not None
    late = d.deal_irregular.late
    first = min(t for _, t, _ in late)
    d.deal_irregular = replace(d.deal_irregular, late=(), retaken=d.deal_irregular.retaken + 1)
    d.resume_from(first)
    d.stopped = False
    d.is_over = False
    d.result = None
    d.listed = None
    d.legal_mask = -1


def same_dealer(d: Deal) -> bool:
    """Checks if the next deal is dealt by this deal's dealer again: a misdeal under a law
    that has the same dealer deal again."""
    return dealt_again(d.rules, d.result)


def dealt_again(rules: RuleSet, result: str | None) -> bool:
    """Checks if a deal that ended in ``result`` is dealt again by the same dealer: a misdeal
    under a law that says so ("il faudroit refaire", ENC-Q). The one statement of it, for the
    party and the scorekeeper."""
    law = rules.laws.misdeal
    return result == MISDEAL and law is not None and law.redealt_by == "same"


def next_dealer(d: Deal) -> int:
    """Returns the seat that deals after ``d``: see :func:`dealer_after`."""
    return dealer_after(d.rules, d.dealer, d.result)


def dealer_after(rules: RuleSet, dealer: int, result: str | None) -> int:
    """Returns the seat that deals after a deal dealt by ``dealer`` that ended in ``result``:
    the same dealer again after a misdeal dealt again by him, else the seat on his right (the
    referee's seating). The one statement of it, for the party and the scorekeeper."""
    if dealt_again(rules, result):
        return dealer
    return seating(rules, dealer).next_dealer


def forgo_claims(d: Deal, items: Iterable[str]) -> None:
    """Records that the payment items ``items`` of the finished deal ``d`` were not claimed
    before the next dealer had finished dealing: they are not paid (HOYLE-IE law 9).

    :raises NotationError: if the rules state no such law, the deal is not over, or an item is
        not one that must be claimed.
    """
    law = d.rules.laws.claims
    wanted = tuple(dict.fromkeys(str(i) for i in items))
    if not wanted:
        return
    if law is None:
        raise NotationError(
            "this rule file states no law of claims before the next deal "
            "(laws.claims_before_next_deal): nothing can be left unclaimed"
        )
    if not d.is_over:
        raise NotationError("the deal is not over: its claims are not yet due")
    for item in wanted:
        if item not in law.items:
            raise NotationError(
                f"{item!r} is not claimed under these rules (to be claimed: {', '.join(law.items)})"
            )
    d.deal_irregular = replace(d.deal_irregular, unclaimed=wanted)


def cutting_seat(rules: RuleSet, dealer: int) -> int | None:
    """Returns the seat that cuts for ``dealer`` (``deal.cut``): on his left, the seat before
    him in the order of play (play goes to the right); None where the rules do not say."""
    if rules.cut_by is None:
        return None
    step = -1 if rules.cut_by == "left" else 1
    return (dealer + step) % rules.players


def report(d: Deal) -> dict[str, object]:
    """Returns what the laws of the table made of the deal, for ``ombre replay --json``: only
    the fields that apply (``misdeal``, ``found_by``, ``extra_card``, ``retaken``,
    ``unclaimed``)."""
    i = d.deal_irregular
    if i is NO_IRREGULARITY:
        return {}
    out: dict[str, object] = {}
    if d.result == MISDEAL:
        out["misdeal"] = i.fault if i.fault is not None else "extra-card"
        out["found_by"] = i.found_by
        out["dealt_again_by"] = next_dealer(d)
    if i.extra_card is not None:
        out["extra_card"] = i.extra_card
    if i.retaken:
        out["retaken"] = i.retaken
    if i.unclaimed:
        out["unclaimed"] = list(i.unclaimed)
    return out


def declarable(d: Deal, seat: int) -> list[Action]:
    """Returns the irregularities ``seat`` may declare now (each accepted by :func:`refusal`),
    for the tables to offer apart from the moves: a misdeal of each fault the law names, a
    card too many, the cards taken back."""
    from engine.actions import EXTRA_CARD, FAULTS, RETAKE

    candidates = [Action("misdeal", word=f) for f in FAULTS] + [EXTRA_CARD, RETAKE]
    return [a for a in candidates if refusal(d, a, seat) is None]

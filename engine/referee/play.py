"""Trick play, the vole and the renonce.

* What may be played is asked of :class:`engine.referee.tricks.TrickRules` (the staged play
  filter), which also says who wins a trick.
* **The vole.** After ``vole.after_tricks`` tricks all won by the declaring side (with the
  called card seen, if the rules require it), its player on lead decides: ``vole`` undertakes
  the vole, ``stop`` lays down, and a plain ``play`` -- leading the next card -- *is* the
  undertaking: "if the person who won the sixth trick play the seventh card, he is obliged to
  play for the vole" (HOYLE-IE law 11; ENC-Q "lorsque l'on a jetté la carte ayant les six
  premieres mains"; ACAD law LXV for Ombre).
* **The renonce**, under ``play.renonce.action: penalised`` only. ``renonce CARD`` plays a card
  that does not follow. ``notice``, once the trick is complete and before the deal ends, points
  it out: the offender makes a bête and play resumes from the revoked trick with the cards
  taken back. A renonce not noticed before the end is taken as noticed after it: the bête
  stands and the cards stay (ENC-Q "Qui renonce fait la bête autant de fois qu'on l'en fait
  appercevoir").
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.actions import NOTICE, PLAY, RENONCE, STOP, VOLE, Action
from engine.cards import ALL_CARDS, RANKS_PER_SUIT, SUITS_IN_PACK, Suit
from engine.enums import Leader, Renonce, VoleBy
from engine.errors import IllegalActionError
from engine.referee import remedies, result
from engine.referee.dealstate import DealState
from engine.referee.seating import side_tricks as count_side_tricks
from engine.referee.state import PLAY as PLAY_PHASE
from engine.referee.state import SUIT_NAMES, bits, refuse
from engine.referee.state import VOLE as VOLE_PHASE
from engine.referee.tricks import TRUMPS, TrickRules
from engine.rules.model import Contract, RuleSet

__all__ = [
    "PLAY_SUITS",
    "RENONCE_REFUSED",
    "SUIT_BITS",
    "begin",
    "could_undertake_vole",
    "defender_may_go_on",
    "legal",
    "may_lay_down",
    "play_mask",
    "refusal",
]

SUITS = tuple(Suit)


# The play actions of each suit's bits of a hand mask (RANKS_PER_SUIT bits a suit), so a legal
# list is one look-up per suit. Each table entry extends the entry without its lowest card.
def _suit_plays(suit: int) -> tuple[tuple[Action, ...], ...]:
    base = suit * RANKS_PER_SUIT
    table: list[tuple[Action, ...]] = [()]
    for bits_ in range(1, 1 << RANKS_PER_SUIT):
        low = (bits_ & -bits_).bit_length() - 1
        table.append((PLAY[base + low], *table[bits_ & (bits_ - 1)]))
    return tuple(table)


PLAY_SUITS: tuple[tuple[tuple[Action, ...], ...], ...] = tuple(
    _suit_plays(s) for s in range(SUITS_IN_PACK)
)
"""For each suit, the ``play`` actions of every mask of that suit's ranks, in card order."""
SUIT_BITS = (1 << RANKS_PER_SUIT) - 1
"""The mask of one suit's ranks, at the lowest bits."""
_SUIT_BITS = SUIT_BITS
_S1, _S2, _S3 = RANKS_PER_SUIT, 2 * RANKS_PER_SUIT, 3 * RANKS_PER_SUIT
_P0, _P1, _P2, _P3 = PLAY_SUITS  # each suit's table as a plain name (one look-up fewer)


RENONCE_REFUSED = (
    "renonce/refused",
    "this rule file refuses revokes (play.renonce.action: refused)",
)
"""The refusal of a revoke where the rules do not penalise one (its code and reason): of a
``renonce`` played, and of a renonce entered at the scorekeeper."""


def plays(mask: int) -> list[Action]:
    """Returns the ``play`` actions of a mask, in card order."""
    m = _SUIT_BITS
    return [*_P0[mask & m], *_P1[mask >> _S1 & m], *_P2[mask >> _S2 & m], *_P3[mask >> _S3]]


def begin(d: DealState) -> None:
    """Starts the trick play."""
    assert d.trump is not None
    d.tr = TrickRules.of(d.rules, d.t, d.trump)
    d.start_hands = tuple(d.hands)
    d.phase = PLAY_PHASE
    leader = d.rules.leader
    if leader is Leader.DECLARER and d.declarer is not None:
        d.leader = d.declarer
    elif (
        leader is Leader.AFTER_DECLARER
        and d.declarer is not None
        and d.contract is not None
        and d.contract.all_play is None
    ):
        # The seat next in turn after the declarer (a contract every seat plays for himself
        # has no declarer to follow: the eldest leads it).
        order = d.seating.order
        d.leader = order[(order.index(d.declarer) + 1) % len(order)]
    d.to_move = d.leader
    if d.partner is None and (d.called is None or d.demanded_from is not None):
        # No called card, or it was handed over at the table. A declarer who called a card he
        # holds himself is alone, but that card has not "appeared" until he plays it: "La vole
        # ne sauroit être entreprise que le roi appellé n'ait paru" (ENC-Q).
        d.partner_seen = True
    if d.contract is not None and d.contract.announces_vole:
        d.vole_undertaken = True  # the contre: the vole was announced with the bid
    if d.rules.renonce is Renonce.PENALISED:
        d.snapshots = []
        _snapshot(d)


def play_mask(d: DealState) -> int:
    """Returns the mask of the cards the player to move may play now (cached)."""
    mask = d.legal_mask
    if mask < 0:
        assert d.tr is not None
        mask = d.tr.legal(d.hands[d.to_move], d.trick)
        if d.irregular is not None:
            # A card called or a suit named by the adversaries (the laws of the play).
            mask = remedies.restrict(d, d.to_move, mask)
        d.legal_mask = mask
    return mask


def _noticeable(d: DealState) -> bool:
    return any(t < len(d.played_tricks) for _, t, _ in d.renonces)


def legal(d: DealState) -> Sequence[Action]:
    hand = d.hands[d.to_move]
    if d.phase is VOLE_PHASE:
        out = [VOLE, STOP, *plays(hand)]
    else:
        mask = play_mask(d)
        out = plays(mask)
        if d.snapshots is not None:
            assert d.tr is not None
            follows = d.tr.legal(hand, d.trick)  # a renonce breaks the trick rules
            if follows != hand:
                out += [RENONCE[c] for c in bits(hand & ~follows)]
    if d.snapshots is not None and _noticeable(d):
        out.append(NOTICE)
    return out


def refusal(d: DealState, action: Action) -> IllegalActionError | None:
    verb = action.verb
    seat = d.to_move
    penalised = d.snapshots is not None
    if verb in ("vole", "stop"):
        return None  # only offered in the vole phase, where both are legal
    if verb == "notice":
        if penalised and _noticeable(d):
            return None
        return refuse(
            "notice/nothing",
            "there is no renonce in a finished trick to point out",
            seat,
            action,
            d.rules.cite(("play",)),
        )
    card = action.card.index
    hand = d.hands[seat]
    if not hand >> card & 1:
        return refuse(
            f"{verb}/not-in-hand", f"seat {seat} does not hold {action.card}", seat, action
        )
    if d.phase is VOLE_PHASE:
        if verb == "play":
            return None  # leading the next card undertakes the vole
        return refuse(
            "renonce/not-a-renonce", f"{action.card} is a lead, not a renonce", seat, action
        )
    allowed = play_mask(d)
    if d.irregular is not None:
        assert d.tr is not None
        follows = d.tr.legal(hand, d.trick)
        if verb == "renonce":
            allowed = follows
        elif follows >> card & 1 and not allowed >> card & 1:
            return _explain_law(d, action)
    if verb == "renonce":
        if not penalised:
            return refuse(*RENONCE_REFUSED, seat, action, d.rules.cite(("play",)))
        if allowed >> card & 1:
            return refuse(
                "renonce/not-a-renonce",
                f"{action.card} may be played: write play {action.card}",
                seat,
                action,
            )
        return None
    if allowed >> card & 1:
        return None
    return _explain_play(d, action)


def _explain_law(d: DealState, action: Action) -> IllegalActionError:
    """The refusal of a card the trick rules allow and the adversaries' remedy does not."""
    state = d.irregular
    assert state is not None
    seat = d.to_move
    called = [ALL_CARDS[c] for h, c in state.required if h == seat and (h, c) not in state.void]
    allowed = play_mask(d)
    if any(allowed >> c.index & 1 for c in called):
        names = ", ".join(str(c) for c in called if allowed >> c.index & 1)
        key = "exposed_card"
        for h, c, law in state.liable:
            if h == seat and ALL_CARDS[c] in called:
                key = law
        return refuse(
            "play/card-called",
            f"the adversaries called {names}: seat {seat} must play it now",
            seat,
            action,
            d.rules.cite(("laws", key)),
        )
    suit = next((x for t, x in state.suits if t == seat and (t, x) not in state.void_suits), 0)
    return refuse(
        "play/suit-named",
        f"the adversaries named {SUIT_NAMES[suit]}: seat {seat} must play {SUIT_NAMES[suit]}",
        seat,
        action,
        d.rules.cite(("laws", "out_of_turn")),
    )


def _explain_play(d: DealState, action: Action) -> IllegalActionError:
    """The refusal of a play: the first stage of the play filter that drops the card."""
    assert d.tr is not None and d.trump is not None
    seat = d.to_move
    card = action.card.index
    rules = d.rules
    code = "play/must-follow-suit"
    for stage, allowed in d.tr.stages(d.hands[seat], d.trick):
        if not allowed >> card & 1:
            code = stage
            break
    led = d.trick[0]
    led_card = ALL_CARDS[led]
    cls = d.tr.follow[led]
    if code == "play/must-trump":
        reason = f"seat {seat} cannot follow {SUIT_NAMES[cls]} and must trump"
    elif code == "play/must-overtake":
        reason = f"seat {seat} can beat the best card on the table and must"
    elif code == "play/matador-forced":
        names = rules.matador_names(SUITS[d.trump]) if d.trump < len(SUITS) else {}
        return refuse(
            code,
            f"{led_card} ({names.get(led_card, 'a matador')}) was led: a lower matador held "
            "alone must be played",
            seat,
            action,
            rules.cite(("matadors", "privilege")),
        )
    elif cls == TRUMPS:
        reason = f"a trump was led ({led_card}) and seat {seat} holds trumps that must follow"
    else:
        reason = f"{SUIT_NAMES[cls]} were led ({led_card}) and seat {seat} holds {SUIT_NAMES[cls]}"
    return refuse(code, reason, seat, action, rules.cite(("play",)))


def apply(d: DealState, seat: int, action: Action) -> None:
    verb = action.verb
    if verb == "play":
        if d.phase is VOLE_PHASE:
            # Leading the next card undertakes the vole (HOYLE-IE law 11).
            _undertake_vole(d, seat)
        play_card(d, seat, action.card.index)
    elif verb == "vole":
        _undertake_vole(d, seat)
    elif verb == "stop":
        d.stopped = True
        result.finish(d)
    elif verb == "renonce":
        d.renonces.append((seat, len(d.played_tricks), action.card.index))
        play_card(d, seat, action.card.index)
    else:
        _notice(d)


def _undertake_vole(d: DealState, seat: int) -> None:
    """``seat`` goes on for the vole. A defender who took every trick so far (``vole.by:
    any-seat``) plays it as the declarer, alone: "implied bola is not restricted to ombre"
    (roc-online-code); the results and the settlement then read his tricks as the side's."""
    d.vole_undertaken = True
    d.phase = PLAY_PHASE
    if seat not in d.side:
        d.declarer = seat
        d.partner = None
        d.partner_seen = True


def could_undertake_vole(rules: RuleSet, contract: Contract, side_tricks: int) -> bool:
    """Checks if a side that took ``side_tricks`` could have undertaken the vole: the contract
    allows it (or announces it with the bid), and the side took at least the first
    ``vole.after_tricks`` tricks, where the referee offers it. The one statement of the vole's
    threshold: the referee offers the vole when it holds (:func:`_end_trick`), the scorekeeper
    and the rule books ask it."""
    if contract.no_tricks:
        return False  # a side that undertakes to take no trick never plays for them all
    return contract.announces_vole or (contract.vole_allowed and side_tricks >= rules.vole_after)


def defender_may_go_on(rules: RuleSet, contract: Contract) -> bool:
    """Checks if a defender who took every one of the first ``vole.after_tricks`` tricks may go
    on for the vole as its declarer, or lay down (``vole.by: any-seat``), under ``contract``:
    not one every seat plays for himself (``all_play``). The one statement the referee offers
    it by (:func:`_end_trick`) and the scorekeeper asks of an entry."""
    return rules.vole_by is VoleBy.ANY_SEAT and contract.all_play is None


def may_lay_down(rules: RuleSet, contract: Contract, played: int, side_tricks: int) -> bool:
    """Checks if a side may stop (lay down its cards) after ``played`` tricks of which it took
    ``side_tricks``: exactly the first ``vole.after_tricks``, every one of them its own, short of
    the whole hand, under a contract that lets it go on for the vole without having announced
    it. The one statement of when the referee offers ``stop`` (:func:`_end_trick`), the
    scorekeeper's laid-down entries ask it too."""
    return (
        played == rules.vole_after
        and side_tricks == played
        and played < rules.hand_size
        and not contract.announces_vole
        and could_undertake_vole(rules, contract, side_tricks)
    )


def play_card(d: DealState, seat: int, card: int) -> None:
    """Plays a card the caller checked is in the hand; ends the trick when it is complete."""
    d.hands[seat] ^= 1 << card
    if d.irregular is not None:
        remedies.after_play(d, seat, card)
    trick = d.trick
    trick.append(card)
    if len(trick) < d.active:
        d.to_move = d.next_seat[seat]
        return
    _end_trick(d, trick)


def _end_trick(d: DealState, trick: list[int]) -> None:
    tr = d.tr
    assert tr is not None
    leader = d.leader
    winner = d.seat_at(leader, tr.winning_position(trick))
    rules = d.rules
    if not d.partner_seen:
        # Once the called card has appeared there is nothing more to learn of the partner
        # (and ``after_lead`` has nothing to apply): both are skipped.
        if rules.play_laws.partner_known_no_vole is not None:
            remedies.after_lead(d, leader, trick[0])
        called = d.called
        if called is not None and called in trick:
            d.partner_seen = True
    tricks = d.played_tricks
    tricks.append((leader, tuple(trick), winner))
    d.won[winner] += 1
    d.trick = []
    d.leader = d.to_move = winner
    played = len(tricks)
    if played == rules.hand_size:
        result.finish(d)
        return
    if (
        played == rules.vole_after
        and not d.vole_undertaken
        and d.contract is not None
        and (d.partner_seen or not rules.vole_requires_partner_seen)
        and (d.irregular is None or d.irregular.vole_barred is None)
    ):
        # The side took every trick so far, the first ``after_tricks``: it may go on for the
        # vole, or lay down.
        side_tricks = count_side_tricks(d.won, d.side)
        if may_lay_down(rules, d.contract, played, side_tricks) or (
            winner not in d.side
            and defender_may_go_on(rules, d.contract)
            and may_lay_down(rules, d.contract, played, d.won[winner])
        ):
            # ``vole.by: any-seat``: a defender who took every trick so far may go on too.
            d.phase = VOLE_PHASE
    if d.snapshots is not None:
        _snapshot(d)


def _snapshot(d: DealState) -> None:
    assert d.snapshots is not None
    d.snapshots.append(
        (
            tuple(d.hands),
            tuple(d.won),
            d.leader,
            d.partner_seen,
            d.vole_undertaken,
            d.phase,
            d.irregular,
        )
    )


def _notice(d: DealState) -> None:
    """A renonce is pointed out before the end: the bête, and play resumes from that trick."""
    assert d.snapshots is not None
    done = len(d.played_tricks)
    noticed = [r for r in d.renonces if r[1] < done]
    first = min(t for _, t, _ in noticed)
    d.penalties.extend(seat for seat, _, _ in noticed)
    # The cards are taken back: every renonce from that trick on is undone with them.
    d.renonces = [r for r in d.renonces if r[1] < first]
    d.resume_from(first)

"""The laws of the play: irregularities a seat commits, and the remedies the others take.

Each law is a mechanism the rule file states under ``laws:`` (``docs/rule-format.md``), with its
source. The irregularities are record verbs (``docs/records.md``, "Irregularities"), written
by the seat that commits or remedies them, whoever is to move:

* ``expose CARD`` (``laws.exposed_card``): a card separated from the hand and seen. It becomes
  public and, unless its holder is exempt (``exempt: [alone, self-caller]``: "Celui qui joue
  sans prendre n'est point du-tout sujet à cette loi, non plus que celui qui joue seul s'étant
  appellé", ENC-Q), an adversary may call it (``require CARD``): its holder must play it at his
  first turn where it may be played. Whether keeping it "peut préjudicier au jeu" is the
  adversaries' judgement: the referee lets them call it, and holds him to their call.
* ``out-of-turn CARD`` (``laws.out_of_turn``): a card played out of turn. It is taken back and
  lies exposed; the offender is not beasted, but an adversary may call the card (``require``)
  or, instead (``remedy: [call-card, require-suit]``), name the suit that the offender's partner
  or his own partner must play at his next turn (``require-suit SEAT SUIT``; HOYLE-GB laws 6 and
  11). With ``bars_vole``, a play out of turn by the declaring side takes the vole from it
  (HOYLE-IE law 14).
* ``show`` (``laws.shown_cards``): a seat shows its hand. Shown by the declaring side before it
  has ``before_side_tricks`` tricks, the adversaries may dictate each of its cards
  (``require CARD``; ENC-Q, HOYLE-IE law 26), and with ``bars_vole`` the side may no longer
  undertake the vole (HOYLE-IE law 30).
* ``lay-down`` (``laws.lay_down_unnamed``): the declarer of one of the law's ``contracts`` lays
  his hand down without naming trumps; another player names them (``name-trump SUIT``) and he
  plays in that suit, "quoiqu'il n'eût pas une triomphe de cette couleur" (ENC-Q).
* ``turn-hand SEAT`` (``laws.turned_hand``): a seat turns up another's hand instead of his
  tricks; the offender and the hand's owner make a bête together, by halves (ENC-Q).
* ``laws.partner_known_no_vole`` has no verb: the called card's holder who, not being the
  eldest, leads one of the law's ``leads`` (or the called card) before the called card has
  appeared makes himself known, and his side may not undertake the vole (ENC-Q).

Bots never commit an irregularity (none is among the legal actions); the only law action
that is ever the player to move's duty is ``name-trump`` after a hand laid down. They take the
remedies an adversary's irregularity gives them (a card called, a suit named) from
:func:`declarable`, asked by the tables between moves (``engine.bots.base.take_remedies``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.actions import TRUMP, Action
from engine.cards import ALL_CARDS, Suit
from engine.enums import Help
from engine.errors import IllegalActionError
from engine.referee import declarations
from engine.referee.dealstate import DealState
from engine.referee.irregular import (
    Event,
    Irregular,
    makes_known,
    out_of_turn_bars_vole,
    shown_dictated,
    turnable,
)
from engine.referee.outcome import TurnedHand
from engine.referee.seating import side_tricks
from engine.referee.state import PLAY as PLAY_PHASE
from engine.referee.state import TRUMP as TRUMP_PHASE
from engine.referee.state import VOLE as VOLE_PHASE
from engine.referee.state import refuse
from engine.rules.model import PlayLaw, RuleSet

__all__ = [
    "LAW_OF_VERB",
    "SCORED_LAWS",
    "Declared",
    "DeclaredEffects",
    "adversaries",
    "apply",
    "declarable",
    "declared_effects",
    "legal",
    "refusal",
]

LAW_OF_VERB = {
    "expose": "exposed_card",
    "out-of-turn": "out_of_turn",
    "require": "",  # a remedy of several laws
    "require-suit": "out_of_turn",
    "show": "shown_cards",
    "lay-down": "lay_down_unnamed",
    "name-trump": "lay_down_unnamed",
    "turn-hand": "turned_hand",
}
"""The ``laws:`` key each verb belongs to."""

_IN_PLAY = (PLAY_PHASE, VOLE_PHASE)
_SUITS = tuple(Suit)


def _law(d: DealState, key: str) -> PlayLaw | None:
    law: PlayLaw | None = getattr(d.rules.play_laws, key)
    return law


def _state(d: DealState) -> Irregular:
    return d.irregular if d.irregular is not None else Irregular()


def _trick(d: DealState) -> int:
    return len(d.played_tricks) if d.phase in _IN_PLAY else -1


def side_of(d: DealState, seat: int) -> list[int]:
    """Returns the seats on ``seat``'s side in this deal: the declarer and his partner, or the
    defenders (the referee's knowledge, not a seat's)."""
    side = d.side
    if seat in side:
        return list(side)
    return [s for s in range(d.n) if s != d.out and s not in side]


def adversaries(d: DealState, seat: int) -> list[int]:
    """Returns the seats playing against ``seat`` in this deal."""
    mine = side_of(d, seat)
    return [s for s in range(d.n) if s != d.out and s not in mine]


def _exempt(d: DealState, law: PlayLaw, seat: int) -> bool:
    if seat != d.declarer or d.contract is None:
        return False
    if "alone" in law.exempt and d.contract.help is Help.NONE:
        return True
    # The self-caller: he called a card he holds himself, and plays alone.
    return (
        "self-caller" in law.exempt
        and d.called is not None
        and d.partner is None
        and d.demanded_from is None
    )


def _no_law(d: DealState, seat: int, action: Action, key: str) -> IllegalActionError:
    return refuse(
        f"{action.verb}/no-law",
        f"{d.rules.name} states no law for this irregularity (laws.{key})",
        seat,
        action,
    )


def _not_now(d: DealState, seat: int, action: Action, when: str) -> IllegalActionError:
    return refuse(f"{action.verb}/not-now", f"{action.verb} is declared {when}", seat, action)


def _rule(d: DealState, key: str) -> str:
    return d.rules.cite(("laws", key))


def refusal(d: DealState, seat: int, action: Action) -> IllegalActionError | None:
    """Returns why ``seat`` may not declare ``action`` (a verb of :data:`LAW_VERBS`) now,
    None if it may."""
    verb = action.verb
    key = LAW_OF_VERB[verb]
    if key and _law(d, key) is None:
        return _no_law(d, seat, action, key)
    if seat == d.out:
        return refuse(f"{verb}/sits-out", f"seat {seat} sits this deal out", seat, action)
    state = _state(d)
    if verb in ("lay-down", "name-trump"):
        return _naming_refusal(d, seat, action, state)
    if d.phase not in _IN_PLAY:
        return _not_now(d, seat, action, "during the play of the cards")
    if verb in ("expose", "out-of-turn"):
        card = action.card.index
        if not d.hands[seat] >> card & 1:
            return refuse(
                f"{verb}/not-in-hand", f"seat {seat} does not hold {action.card}", seat, action
            )
        if verb == "out-of-turn" and seat == d.to_move:
            return refuse(
                "out-of-turn/your-turn",
                f"it is seat {seat}'s turn: write play {action.card}",
                seat,
                action,
            )
        return None
    if verb == "require":
        return _require_refusal(d, seat, action, state)
    if verb == "require-suit":
        return _require_suit_refusal(d, seat, action, state)
    if verb == "show":
        if seat in state.shown:
            return refuse("show/already", f"seat {seat}'s hand is shown already", seat, action)
        return None
    # turn-hand
    target = action.seat
    assert target is not None
    if not turnable(seat, target, d.n, d.out) or not d.hands[target]:
        return refuse(
            "turn-hand/not-a-hand",
            f"seat {seat} cannot turn up seat {target}'s hand: name another player holding cards",
            seat,
            action,
        )
    return None


def _public_holder(d: DealState, state: Irregular, card: int) -> int | None:
    """Returns the seat every seat can see holding ``card`` (exposed, played out of turn and
    taken back, or in a hand shown), None if no seat's view places it in a hand."""
    for holder in range(d.n):
        if d.hands[holder] >> card & 1 and card in state.public_cards(d.hands, holder):
            return holder
    return None


def _require_refusal(
    d: DealState, seat: int, action: Action, state: Irregular
) -> IllegalActionError | None:
    # Only what the asker may see is read: his own hand and the cards made public. A card he
    # cannot see is refused in the same words wherever it lies (a hand, the talon, a trick),
    # or the answer would tell him where it is.
    card = action.card.index
    if d.hands[seat] >> card & 1:
        return refuse(
            "require/not-liable",
            f"seat {seat} holds {action.card} himself: only an adversary's card may be called",
            seat,
            action,
        )
    holder = _public_holder(d, state, card)
    if holder is None:
        return _not_liable(seat, action)
    knows = holder == d.declarer or d.partner_known_to(seat)
    if knows and seat not in adversaries(d, holder):
        return refuse(
            "require/not-an-adversary",
            f"only seat {holder}'s adversaries may call his cards",
            seat,
            action,
        )
    # One who cannot know yet whether the holder is his adversary (the called card has not
    # appeared) is answered as an adversary: a refusal would tell him that the holder is his
    # partner (conjecture; docs/decisions.md).
    if (holder, card) in state.required:
        return refuse("require/already", f"{action.card} is called already", seat, action)
    if holder in state.dictated or any(h == holder and c == card for h, c, _ in state.liable):
        return None
    if _hidden_self_call(d, seat, holder, card, state):
        return None
    return _not_liable(seat, action)


def _not_liable(seat: int, action: Action) -> IllegalActionError:
    return refuse(
        "require/not-liable",
        f"{action.card} is not liable to be called: only a card exposed or played out of turn, "
        "or a card of a hand shown before the game is won",
        seat,
        action,
    )


def _hidden_self_call(d: DealState, seat: int, holder: int, card: int, state: Irregular) -> bool:
    """Checks if ``card`` is the exposed card of a declarer exempt as the self-caller (ENC-Q:
    "non plus que celui qui joue seul s'étant appellé") while ``seat`` cannot know yet that he
    called himself: the call is accepted and binds nothing (:attr:`Irregular.void`), for a
    refusal would tell him that the Ombre is alone (conjecture; docs/decisions.md)."""
    law = _law(d, "exposed_card")
    return (
        law is not None
        and holder == d.declarer
        and (holder, card) in state.public
        and _exempt(d, law, holder)
        and not (d.contract is not None and d.contract.help is Help.NONE)
        and not d.partner_known_to(seat)
    )


def _suit_offenders(d: DealState, seat: int, state: Irregular) -> list[int]:
    """Returns the offenders of a play out of turn against whom ``seat`` may name a suit: his
    adversaries, and, before the called card has appeared, any other offender whose side he
    cannot know (not the declarer's), answered as an adversary (conjecture; docs/decisions.md)."""
    known = d.partner_known_to(seat)
    return [
        o
        for o in state.suit_remedies
        if o != seat and (seat in adversaries(d, o) or not (known or o == d.declarer))
    ]


def _require_suit_refusal(
    d: DealState, seat: int, action: Action, state: Irregular
) -> IllegalActionError | None:
    law = _law(d, "out_of_turn")
    assert law is not None and action.suit is not None and action.seat is not None
    target = action.seat
    if "require-suit" not in law.remedies:
        return refuse(
            "require-suit/no-law",
            f"{d.rules.name}'s law of play out of turn lets the adversaries call the card only",
            seat,
            action,
            _rule(d, "out_of_turn"),
        )
    offenders = _suit_offenders(d, seat, state)
    if not offenders:
        return refuse(
            "require-suit/nothing",
            f"no adversary of seat {seat} has played out of turn (or the remedy was taken)",
            seat,
            action,
        )
    # The offender's partner or the asker's own: the two sides share the seats, so these are
    # every seat but the asker's, the offender's and the one sitting out, whichever side the
    # offender is on; said so, the answer tells nothing of the sides.
    targets = {s for o in offenders for s in range(d.n) if s not in (seat, o, d.out)}
    if target not in targets:
        return refuse(
            "require-suit/not-a-partner",
            f"the suit is named for the offender's partner or for seat {seat}'s own partner, "
            f"not seat {target}",
            seat,
            action,
            _rule(d, "out_of_turn"),
        )
    if action.suit not in d.rules.suits:
        return refuse(
            "require-suit/not-in-pack", f"no {action.suit.value} in this pack", seat, action
        )
    return None


def _naming_refusal(
    d: DealState, seat: int, action: Action, state: Irregular
) -> IllegalActionError | None:
    law = _law(d, "lay_down_unnamed")
    assert law is not None
    if action.verb == "lay-down":
        if (
            d.phase is not TRUMP_PHASE
            or state.naming is not None
            or seat != d.declarer
            or seat != d.to_move
            or d.contract is None
        ):
            return _not_now(d, seat, action, "by the declarer when he is to name trumps")
        if d.contract.id not in law.contracts:
            return refuse(
                "lay-down/not-this-contract",
                f"the law is of {', '.join(law.contracts)}, not {d.contract.id}",
                seat,
                action,
                _rule(d, "lay_down_unnamed"),
            )
        return None
    if state.naming is None:
        return _not_now(d, seat, action, "after a declarer laid his hand down unnamed")
    if seat == state.naming:
        return refuse(
            "name-trump/the-declarer",
            "another player names the suit for the declarer who laid down",
            seat,
            action,
            _rule(d, "lay_down_unnamed"),
        )
    assert action.suit is not None
    if action.suit.index not in declarations.trump_choices(d):
        return refuse(
            "name-trump/not-a-trump",
            f"{action.suit.value} cannot be trumps in this contract",
            seat,
            action,
        )
    return None


def apply(d: DealState, seat: int, action: Action) -> None:
    """Applies an irregularity or remedy :func:`refusal` accepted."""
    verb = action.verb
    state = _state(d)
    key = LAW_OF_VERB[verb]
    event = Event(seat, action, key, _trick(d))
    if verb == "expose":
        _apply_expose(d, seat, action, state, event)
    elif verb == "out-of-turn":
        _apply_out_of_turn(d, seat, action, state, event)
    elif verb == "require":
        _apply_require(d, seat, action, state)
    elif verb == "require-suit":
        _apply_require_suit(d, seat, action, state, event)
    elif verb == "show":
        _apply_show(d, seat, state, event)
    elif verb == "turn-hand":
        assert action.seat is not None
        d.irregular = state.add(
            event,
            turned=(*state.turned, TurnedHand(seat, action.seat)),
            shown=state.shown | {action.seat},
        )
    elif verb == "lay-down":
        d.irregular = state.add(event, shown=state.shown | {seat}, naming=seat)
        d.to_move = d.next_seat[seat]
    else:  # name-trump
        assert action.suit is not None and state.naming is not None
        d.irregular = state.add(event, naming=None)
        d.to_move = state.naming
        declarations.apply(d, state.naming, TRUMP[action.suit.index])
    d.listed = None
    d.legal_mask = -1


def _apply_expose(d: DealState, seat: int, action: Action, state: Irregular, event: Event) -> None:
    """Applies ``expose CARD``: the card becomes public and, unless its holder is exempt, liable
    to be called."""
    law = _law(d, "exposed_card")
    assert law is not None
    card = action.card.index
    liable = state.liable
    if not _exempt(d, law, seat):
        liable = (*liable, (seat, card, "exposed_card"))
    d.irregular = state.add(event, public=(*state.public, (seat, card)), liable=liable)


def _apply_out_of_turn(
    d: DealState, seat: int, action: Action, state: Irregular, event: Event
) -> None:
    """Applies ``out-of-turn CARD``: the card lies exposed, open to the law's remedies (a card
    called, a suit named), and may take the vole from the declaring side."""
    law = _law(d, "out_of_turn")
    assert law is not None
    card = action.card.index
    changes: dict[str, object] = {"public": (*state.public, (seat, card))}
    if "call-card" in law.remedies:
        changes["liable"] = (*state.liable, (seat, card, "out_of_turn"))
    if "require-suit" in law.remedies:
        changes["suit_remedies"] = (*state.suit_remedies, seat)
    if out_of_turn_bars_vole(law, seat in d.side) and state.vole_barred is None:
        changes["vole_barred"] = "out_of_turn"
    d.irregular = state.add(event, **changes)


def _apply_require(d: DealState, seat: int, action: Action, state: Irregular) -> None:
    """Applies ``require CARD``: its holder must play it; the card called, the other remedy of
    a play out of turn is gone, and a hidden self-caller's card is accepted but binds
    nothing."""
    card = action.card.index
    holder = next(s for s in range(d.n) if d.hands[s] >> card & 1)
    # The card called, the other remedy of a play out of turn is gone ("or").
    remedies = state.suit_remedies
    if any(h == holder and c == card and w == "out_of_turn" for h, c, w in state.liable):
        remedies = tuple(o for o in remedies if o != holder)
    void = state.void
    if holder not in state.dictated and not any(
        h == holder and c == card for h, c, _ in state.liable
    ):
        void = (*void, (holder, card))  # the hidden self-caller's: accepted, binds nothing
        event = Event(seat, action, "exposed_card", _trick(d))
    else:
        event = Event(seat, action, _require_law(state, holder, card), _trick(d))
    d.irregular = state.add(
        event, required=(*state.required, (holder, card)), suit_remedies=remedies, void=void
    )


def _apply_require_suit(
    d: DealState, seat: int, action: Action, state: Irregular, event: Event
) -> None:
    """Applies ``require-suit SEAT SUIT``: the suit named binds that seat at his next turn, and
    the offender's remedies are spent."""
    assert action.suit is not None and action.seat is not None
    offender = _suit_offenders(d, seat, state)[0]
    left = list(state.suit_remedies)
    left.remove(offender)
    liable = tuple(x for x in state.liable if not (x[0] == offender and x[2] == "out_of_turn"))
    named = (action.seat, action.suit.index)
    void_suits = state.void_suits
    if seat not in adversaries(d, offender):
        # Named by the offender's own partner, who could not know it: accepted, and the
        # remedy is spent, but it binds nothing (conjecture; docs/decisions.md).
        void_suits = (*void_suits, named)
    d.irregular = state.add(
        event,
        suits=(*state.suits, named),
        suit_remedies=tuple(left),
        liable=liable,
        void_suits=void_suits,
    )


def _apply_show(d: DealState, seat: int, state: Irregular, event: Event) -> None:
    """Applies ``show``: the hand is shown and, shown by the declaring side early enough, its
    cards are dictated and the vole may be barred."""
    law = _law(d, "shown_cards")
    assert law is not None
    side = d.side
    changes: dict[str, object] = {"shown": state.shown | {seat}}
    if shown_dictated(law, seat in side, side_tricks(d.won, side)):
        changes["dictated"] = state.dictated | {seat}
        if law.bars_vole and state.vole_barred is None:
            changes["vole_barred"] = "shown_cards"
    d.irregular = state.add(event, **changes)


def _require_law(state: Irregular, holder: int, card: int) -> str:
    for h, c, law in state.liable:
        if h == holder and c == card:
            return law
    return "shown_cards"


def legal(d: DealState) -> list[Action] | None:
    """Returns the legal actions of the player to move where a law decides them (another names
    trumps for a declarer who laid down unnamed), None where the phase's rules do."""
    state = d.irregular
    if state is None or state.naming is None:
        return None
    return [Action("name-trump", suit=_SUITS[s]) for s in declarations.trump_choices(d)]


def declarable(d: DealState, seat: int) -> list[Action]:
    """Returns the irregularities and remedies ``seat`` could declare now, each accepted by
    :func:`refusal` (for the tables' menus; never among the legal actions)."""
    if d.is_over or seat == d.out:
        return []
    out: list[Action] = []
    laws = d.rules.play_laws
    in_play = d.phase in _IN_PLAY
    hand = d.hands[seat]
    cards = [c for c in range(hand.bit_length()) if hand >> c & 1]
    if in_play and laws.exposed_card is not None:
        out += [Action("expose", cards=(ALL_CARDS[c],)) for c in cards]
    if in_play and laws.out_of_turn is not None and seat != d.to_move:
        out += [Action("out-of-turn", cards=(ALL_CARDS[c],)) for c in cards]
    if in_play:
        if d.irregular is not None:
            for holder in range(d.n):
                for c in d.irregular.public_cards(d.hands, holder):
                    a = Action("require", cards=(ALL_CARDS[c],))
                    if refusal(d, seat, a) is None:
                        out.append(a)
        if laws.out_of_turn is not None and d.irregular is not None:
            for target in range(d.n):
                for suit in d.rules.suits:
                    a = Action("require-suit", suit=suit, seat=target)
                    if refusal(d, seat, a) is None:
                        out.append(a)
        if laws.shown_cards is not None:
            a = Action("show")
            if refusal(d, seat, a) is None:
                out.append(a)
        if laws.turned_hand is not None:
            out += [
                a
                for a in (Action("turn-hand", seat=t) for t in range(d.n))
                if refusal(d, seat, a) is None
            ]
    if laws.lay_down_unnamed is not None:
        a = Action("lay-down")
        if refusal(d, seat, a) is None:
            out.append(a)
    return out


def events(d: DealState) -> Sequence[Event]:
    """Returns the irregularities and remedies declared in the deal, in order."""
    return d.irregular.events if d.irregular is not None else ()


SCORED_LAWS = {
    "turned_hand": "turn-hand",
    "shown_cards": "show",
    "out_of_turn": "out-of-turn",
    "partner_known_no_vole": "made-known",
}
"""The laws of the play whose irregularity can change a deal's score once it is played out,
each with the word the scorekeeper writes it with (the record's verb; ``made-known`` for the
law with no verb): a hand turned up makes a bête by halves, and the other three may take the
vole from the declaring side. The other laws act on the play only (a card called, a suit
named), so their effect is already in the tricks the scorekeeper enters."""


@dataclass(frozen=True, slots=True)
class Declared:
    """An irregularity of the play as the scorekeeper writes it down, without the cards: the
    seat that committed it, its law (a key of :data:`SCORED_LAWS`), the hand turned up
    (``turned_hand``), and the tricks the offender's side had taken when he showed his cards
    (``shown_cards``)."""

    seat: int
    law: str
    hand: int | None = None
    side_tricks: int | None = None

    @property
    def verb(self) -> str:
        """Returns the word it is written with (``turn-hand``, ``show``, ...)."""
        return SCORED_LAWS[self.law]

    def __str__(self) -> str:
        """Returns the word and its argument, as a record's action reads after its seat."""
        arg = self.hand if self.hand is not None else self.side_tricks
        return self.verb + (f" {arg}" if arg is not None else "")

    def as_json(self) -> dict[str, object]:
        """Returns the irregularity as an evening writes it (``score.irregularities``)."""
        out: dict[str, object] = {"seat": self.seat, "law": self.law}
        if self.hand is not None:
            out["hand"] = self.hand
        if self.side_tricks is not None:
            out["side_tricks"] = self.side_tricks
        return out


@dataclass(frozen=True, slots=True)
class DeclaredEffects:
    """What the irregularities a scorekeeper entered do to the deal's score: the hands turned
    up, (offender, owner), each a bête by halves; the law that took the vole from the declaring
    side (None if none did) and the seat whose irregularity it was."""

    turned: tuple[TurnedHand, ...] = ()
    vole_barred: str | None = None
    barred_by: int | None = None


def declared_effects(
    rules: RuleSet,
    declared: Sequence[Declared],
    *,
    dealer: int,
    declarer: int,
    partner: int | None,
    tricks: Sequence[int],
) -> DeclaredEffects:
    """Returns what the irregularities ``declared`` (entered after the deal, without cards) do to
    the score of a deal played out under ``rules``, by the same statements the play applies
    (:func:`apply`, :func:`engine.referee.remedies.after_lead`): a deal the scorekeeper enters
    is settled as the referee would have settled it. ``partner`` is the called card's holder
    who played with the declarer (None if he played alone); ``tricks`` each seat's tricks.

    :raises IllegalActionError: for an irregularity that could not have been committed, or
        that the rules state no law for: ``VERB/no-law``, ``VERB/sits-out``,
        ``turn-hand/not-a-hand``, ``show/already``, ``show/side-tricks``,
        ``made-known/not-the-partner``, ``made-known/the-eldest``.
    """
    seats = rules.compiled.seatings[dealer]
    n, out = rules.players, seats.out
    side = (declarer,) if partner is None else (declarer, partner)
    turned: list[TurnedHand] = []
    shown: set[int] = set()
    barred: tuple[str, int] | None = None
    for item in declared:
        seat = item.seat
        law = _declared_law(rules, item, out)
        rule = rules.cite(("laws", item.law))
        on_side = seat in side
        bars = False
        if item.law == "turned_hand":
            turned.append(_declared_turned(item, n, out, rule))
        elif item.law == "shown_cards":
            bars = _declared_shown_bars(law, item, shown, side, n, out, tricks)
        elif item.law == "out_of_turn":
            bars = out_of_turn_bars_vole(law, on_side)
        else:  # partner_known_no_vole
            _check_made_known(item, partner, seats.eldest, rule)
            bars = True
        if bars and barred is None:
            barred = (item.law, seat)
    return DeclaredEffects(
        tuple(turned),
        barred[0] if barred is not None else None,
        barred[1] if barred is not None else None,
    )


def _declared_law(rules: RuleSet, item: Declared, out: int | None) -> PlayLaw:
    """Returns the law of the play of an irregularity entered after the deal.

    :raises IllegalActionError: ``VERB/no-law`` if the rules state none, ``VERB/sits-out`` if
        its seat sits the deal out (``out``).
    """
    seat, verb = item.seat, item.verb
    law: PlayLaw | None = getattr(rules.play_laws, item.law)
    if law is None:
        raise refuse(
            f"{verb}/no-law",
            f"{rules.name} states no law for this irregularity (laws.{item.law})",
            seat,
            item,
        )
    if seat == out:
        raise refuse(f"{verb}/sits-out", f"seat {seat} sits this deal out", seat, item)
    return law


def _declared_turned(item: Declared, n: int, out: int | None, rule: str) -> TurnedHand:
    """Returns the hand turned up by an entered ``turn-hand``: (offender, owner).

    :raises IllegalActionError: ``turn-hand/not-a-hand`` if the hand named is not another
        player's of the deal (``rule`` is the law's citation).
    """
    seat = item.seat
    assert item.hand is not None
    if not turnable(seat, item.hand, n, out):
        raise refuse(
            "turn-hand/not-a-hand",
            f"seat {seat} cannot turn up seat {item.hand}'s hand: name another player of the deal",
            seat,
            item,
            rule,
        )
    return TurnedHand(seat, item.hand)


def _declared_shown_bars(
    law: PlayLaw,
    item: Declared,
    shown: set[int],
    side: tuple[int, ...],
    n: int,
    out: int | None,
    tricks: Sequence[int],
) -> bool:
    """Adds the seat of an entered ``show`` to the hands ``shown`` so far, and checks if it
    takes the vole from the declaring side (``side``).

    :raises IllegalActionError: ``show/already`` for a hand shown twice, ``show/side-tricks``
        if the offender's side had more tricks than it took in all (``tricks``).
    """
    seat = item.seat
    on_side = seat in side
    assert item.side_tricks is not None
    if seat in shown:
        raise refuse("show/already", f"seat {seat}'s hand is shown already", seat, item)
    shown.add(seat)
    mine = side if on_side else [s for s in range(n) if s != out and s not in side]
    took = side_tricks(tricks, mine)
    if item.side_tricks > took:
        raise refuse(
            "show/side-tricks",
            f"seat {seat}'s side took {took} tricks in all: it cannot have had "
            f"{item.side_tricks} when he showed his cards",
            seat,
            item,
        )
    return law.bars_vole and shown_dictated(law, on_side, item.side_tricks)


def _check_made_known(item: Declared, partner: int | None, eldest: int, rule: str) -> None:
    """Checks that the seat of an entered ``made-known`` could have made himself known by his
    lead: the called card's holder playing with the declarer (``partner``), not the eldest.

    :raises IllegalActionError: ``made-known/not-the-partner``, ``made-known/the-eldest``
        (``rule`` is the law's citation).
    """
    seat = item.seat
    if partner is None or seat != partner:
        raise refuse(
            "made-known/not-the-partner",
            "only the called card's holder playing with the declarer makes himself "
            f"known by his lead, not seat {seat}",
            seat,
            item,
            rule,
        )
    if not makes_known(seat, partner=partner, eldest=eldest):
        raise refuse(
            "made-known/the-eldest",
            f"seat {seat} is the eldest, whose lead is his duty and makes him known to nobody",
            seat,
            item,
            rule,
        )

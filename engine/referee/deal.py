"""The deal: one hand's checked front door, built on its explicit state.

A :class:`Deal` is one hand (OpenSpiel's State; the :class:`RuleSet` is its Game): a
:class:`~engine.referee.dealstate.DealState` -- the hands, the speech, the declarations, the
tricks, as public typed attributes -- with the checks and reports around it. Each phase is a
module of its own that says what is legal, why anything else is refused, and what an action
does: :mod:`~engine.referee.auction` (``auction``, ``match``),
:mod:`~engine.referee.declarations` (``trump``, ``call``, ``give``),
:mod:`~engine.referee.exchange` (``exchange``), :mod:`~engine.referee.play` (``play``, ``vole``)
and :mod:`~engine.referee.result` (the end). :meth:`Deal.legal_actions` and :meth:`Deal.apply`
ask the same phase module, so what is listed is exactly what is accepted. The phase modules
are functions of the state and stand below this module: none of them imports it.
"""

from __future__ import annotations

import _random
import struct
from collections.abc import Mapping, Sequence
from types import ModuleType
from typing import Any

from engine.actions import LAW_VERBS, Action, parse_seated
from engine.actions import PLAY as PLAY_ACTIONS
from engine.cards import ALL_CARDS, PACK_SIZE, RANKS_PER_SUIT, Card, Suit
from engine.enums import Help, OpenFrom, Visibility
from engine.errors import IllegalActionError, NotationError
from engine.referee import auction, deal_laws, declarations, exchange, laws, play, result
from engine.referee.dealstate import DealState
from engine.referee.irregular import Event
from engine.referee.play import PLAY_SUITS, SUIT_BITS, SUITS
from engine.referee.remedies import public as public_irregularities
from engine.referee.seating import seating as public_seating
from engine.referee.settlement import SettlementResult, TableState, deal_stakes
from engine.referee.state import (
    AUCTION,
    CALL,
    EXCHANGE,
    EXPECTED,
    GIVE,
    MATCH,
    OVER,
    PLAY,
    RAISE,
    SURRENDER,
    TRUMP,
    VERB_PHASES,
    VOLE,
    Phase,
    Trick,
    refuse,
)
from engine.referee.summary import DealSummary, summary_of
from engine.referee.view import View
from engine.rules.model import NO_TRUMPS, Contract, RuleSet, Setup

_SUITS = tuple(Suit)

__all__ = ["Deal"]

_MODULES: dict[Phase, ModuleType] = {
    AUCTION: auction,
    MATCH: auction,
    TRUMP: declarations,
    CALL: declarations,
    GIVE: declarations,
    SURRENDER: declarations,
    RAISE: auction,
    EXCHANGE: exchange,
    PLAY: play,
    VOLE: play,
}
# The phase modules' entry points, looked up once.
_REFUSAL = {phase: module.refusal for phase, module in _MODULES.items()}
_CARD_VERBS = {PLAY: "play", VOLE: "play", GIVE: "give"}
_APPLY = {phase: module.apply for phase, module in _MODULES.items()}
_play_card = play.play_card
# The play actions by suit, as plain names for the hot path of legal_actions (one look-up fewer).
_P0, _P1, _P2, _P3 = PLAY_SUITS
_S1, _S2, _S3 = RANKS_PER_SUIT, 2 * RANKS_PER_SUIT, 3 * RANKS_PER_SUIT
_SUIT_BITS = SUIT_BITS
# The interned ``play CARD`` actions (:data:`engine.actions.PLAY`) by identity: the card each
# plays. They live as long as the module, so no other object shares an id with one.
_PLAY_CARD: dict[int, int] = {id(a): a.cards[0].index for a in PLAY_ACTIONS}
# The history's entry for each seat playing each card, ``(seat, play CARD)``, made once (an
# entry is an immutable pair, so deals share them): the hot path appends one, allocating none.
# (Every seat holds a card, so there are fewer seats than cards.)
_SEAT_PLAYS: tuple[tuple[tuple[int, Action], ...], ...] = tuple(
    tuple((seat, a) for a in PLAY_ACTIONS) for seat in range(PACK_SIZE)
)


def _shuffle_and_deal(
    deck: Sequence[int], n: int, seed: int, plan: tuple[tuple[int, int, int], ...]
) -> tuple[list[list[int]], list[int]]:
    # The referee's own shuffle: one draw of 32 random bits per card from a Mersenne
    # Twister seeded with the record's seed, cards sorted by their draw. It depends only on
    # the seed and the deck, so a seeded record deals the same on any machine.
    size = len(deck)
    # (``_random.Random`` is ``random.Random``'s generator without its Python-level seeding
    # front: the same state for an integer seed, the same bits.)
    raw = _random.Random(seed).getrandbits(32 * size).to_bytes(4 * size, "little")
    keys = struct.unpack(f"<{size}I", raw)
    cards = [deck[i] for i in sorted(range(size), key=keys.__getitem__)]
    hands: list[list[int]] = [[] for _ in range(n)]
    for seat, start, end in plan:
        hands[seat] += cards[start:end]
    return hands, cards[plan[-1][2] if plan else 0 :]


def _check_hands(
    rules: RuleSet,
    setup: Setup,
    out_seat: int | None,
    hands: Sequence[Sequence[Card | str]],
    talon: Sequence[Card | str],
) -> tuple[list[list[int]], list[int]]:
    n = rules.players
    if len(hands) != n:
        raise NotationError(f"{rules.id} deals {n} hands, not {len(hands)}")
    deck = set(setup.tables.deck)
    seen: dict[int, str] = {}
    out: list[list[int]] = []

    def card_index(value: Card | str, where: str) -> int:
        card = value if isinstance(value, Card) else Card.parse(str(value))
        index = card.index
        if index not in deck:
            raise NotationError(f"{where}: {rules.not_in_pack(card, setup.values)}")
        if index in seen:
            raise NotationError(f"{card} is dealt twice ({seen[index]} and {where})")
        seen[index] = where
        return index

    for seat, hand in enumerate(hands):
        if seat == out_seat:
            if len(hand):
                raise NotationError(
                    f"seat {seat} deals and sits the deal out: its hand is empty, not "
                    f"{len(hand)} cards"
                )
            out.append([])
            continue
        if len(hand) != rules.hand_size:
            raise NotationError(
                f"seat {seat} holds {len(hand)} cards; {rules.id} deals {rules.hand_size}"
            )
        out.append([card_index(c, f"seat {seat}") for c in hand])
    if len(talon) != rules.talon:
        raise NotationError(f"the talon holds {len(talon)} cards; {rules.id} has {rules.talon}")
    talon_cards = [card_index(c, "talon") for c in talon]
    return out, talon_cards


class Deal(DealState):
    """One deal under a ruleset: create it, then ``apply`` actions until ``is_over``.

    Its state is a :class:`~engine.referee.dealstate.DealState` (public, typed attributes the
    phase modules work on); the deal adds the checked front door: parsing, refusals, views and
    reports.

    :param rules: the ruleset.
    :param dealer: the dealer's seat; the eldest hand is ``(dealer + 1) % n``.
    :param seed: deal with the referee's own seeded shuffle (deterministic on any machine).
    :param hands: or give each seat's cards (seat 0 first) ...
    :param talon: ... and the talon, top card first.
    :param options: setup options the ruleset declares (e.g. ``{"removed-suit": "hearts"}``).
    :param table: what lies on the table from earlier deals (a party's pot and bêtes).
    :param machine_dealt: the cards were dealt by a machine (a server), not by a player's hand.
    :param _copy_of: private: make this deal a copy of that one in its current state (what
        :meth:`copy` does; every other argument but ``rules`` is then ignored).
    :raises NotationError: if the dealer is not a seat, the hands or talon do not fit the rules
        (wrong counts, unknown or repeated cards) or an option is unknown.
    """

    __slots__ = ("_settlement",)

    def __init__(
        self,
        rules: RuleSet,
        *,
        # ``object``: the checked front door refuses a wrong type itself, with a NotationError,
        # interpreted or compiled (mypyc would raise a TypeError at the call for an ``int``).
        dealer: object = 0,
        seed: object = None,
        hands: Sequence[Sequence[Card | str]] | None = None,
        talon: Sequence[Card | str] | None = None,
        options: Mapping[str, Any] | None = None,
        table: TableState | None = None,
        factor: int = 1,
        machine_dealt: bool = False,
        _copy_of: Deal | None = None,
    ) -> None:
        if _copy_of is not None:
            # A copy is made by the constructor, not by ``object.__new__``, so that the compiled
            # referee (``make fast``: mypyc, whose classes are made only through their
            # ``__init__``) copies as the interpreted one does.
            _copy_of.copy_state(self)
            return
        if not isinstance(rules, RuleSet):
            raise NotationError(f"rules must be a RuleSet (engine.load_ruleset), not {rules!r}")
        setup = rules.setup(options)
        n = rules.players
        if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < n:
            raise NotationError(f"dealer must be a seat from 0 to {n - 1}, not {dealer!r}")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise NotationError(f"seed must be an integer, not {seed!r}")
        # The seating of a deal dealt by ``dealer``, compiled once with the ruleset.
        plan = rules.compiled.dealers[dealer]
        seats = public_seating(rules, dealer)
        if hands is None:
            dealt, talon_cards = _shuffle_and_deal(
                setup.tables.deck, n, 0 if seed is None else seed, plan.plan
            )
        else:
            dealt, talon_cards = _check_hands(rules, setup, seats.out, hands, talon or [])
        super().__init__(
            rules,
            setup,
            dealer,
            seats,
            dealt,
            talon_cards,
            plan.queue,
            table if table is not None else TableState(),
            factor,
        )
        self._settlement: SettlementResult | None = None
        self.machine_dealt = machine_dealt

    def forgo_claims(self, items: Sequence[str]) -> None:
        """Records that the payment items ``items`` of this finished deal were not claimed
        before the next dealer had finished dealing: they are not paid
        (:func:`engine.referee.deal_laws.forgo_claims`; HOYLE-IE law 9).

        :raises NotationError: if the rules state no such law, the deal is not over, or an item
            is not one that must be claimed.
        """
        deal_laws.forgo_claims(self, items)
        self._settlement = None

    def copy(self) -> Deal:
        """Returns an independent copy of the deal in its current state (for look-ahead)."""
        return Deal(self.rules, _copy_of=self)

    # Reading the state.

    def _seat(self, seat: object) -> int:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.n:
            raise NotationError(f"a seat is a number from 0 to {self.n - 1}, not {seat!r}")
        return seat

    def hand(self, seat: int) -> list[Card]:
        """Returns a seat's cards, highest first in the current ranking.

        :raises NotationError: if ``seat`` is not a seat of this deal.
        """
        return [ALL_CARDS[c] for c in self.sorted_cards(self.hands[self._seat(seat)])]

    @property
    def stakes(self) -> tuple[int, ...]:
        """Returns what each seat stakes at the start of this deal (:func:`deal_stakes`)."""
        return deal_stakes(self.rules, self.dealer, self.table, self.factor)

    @property
    def standing_bid(self) -> tuple[int, Contract] | None:
        """Returns the bid the speech has left standing, as seat and contract: in the match
        phase the overcall the holder may match (the overcaller's), otherwise the holder's bid
        (None before anyone has bid). Public: everyone heard the speech."""
        contract = self.holder_contract
        if contract is None:
            return None
        if self.phase is MATCH and self.overcaller is not None:
            return (self.overcaller, contract)
        return (self.holder, contract) if self.holder is not None else None

    @property
    def offer(self) -> auction.Offer | None:
        """Returns the contract offered to the seat that sits the deal out, every seat that
        plays having passed (``biddable_when: out-after-all-pass``), while he is to take it up
        or pass: who is asked, what he may take up, and what a pass does (the deal passed out,
        dealt again). None at any other time (:func:`engine.referee.auction.offer`)."""
        return auction.offer(self)

    @property
    def each_for_himself(self) -> bool:
        """Whether every seat plays this deal for himself, with no sides: a contract every
        seat plays (``all_play``, the penetro), the most tricks scoring. Public."""
        contract = self.contract
        return contract is not None and contract.all_play is not None

    @property
    def top_taker(self) -> int | None:
        """Returns, when every seat plays for himself (:attr:`each_for_himself`), the seat that
        has taken the most tricks so far (of seats tied, the one that won the latest trick, as
        ``all_play.ties`` says); at the end, the one the tariff's ``most_tricks`` scores. None
        under any other contract or before a trick is won
        (:func:`engine.referee.result.top_taker`). Public."""
        return result.top_taker(self)

    @property
    def vole_by_defender(self) -> bool:
        """Whether the seat that decides on the vole now (the ``vole`` phase) is a defender who
        took every trick so far (``vole.by: any-seat``): going on, he plays it as the declarer,
        alone. Told to that seat, who knows his own side."""
        return self.phase is VOLE and self.to_move not in self.side

    @property
    def settlement(self) -> SettlementResult | None:
        """Returns the counters of the finished deal (None until it is over).

        Reckoned from its result on the table it was dealt on when first asked for
        (:func:`engine.referee.result.settlement`), then kept.
        """
        s = self._settlement
        if s is None and self.is_over:
            s = self._settlement = result.settlement(self)
        return s

    @property
    def tricks(self) -> list[Trick]:
        """Returns the finished tricks, in order."""
        return [
            Trick(leader, tuple(ALL_CARDS[c] for c in cards), winner)
            for leader, cards, winner in self.played_tricks
        ]

    def trick_winner(self) -> int | None:
        """Returns the seat winning the trick in progress so far (None if it is empty)."""
        if not self.trick or self.tr is None:
            return None
        return self.seat_at(self.leader, self.tr.winning_position(self.trick))

    # The rules, asked of the phase modules.

    def legal_actions(self) -> Sequence[Action]:
        """Returns every legal action of the player to move (empty once the deal is over)."""
        legal = self.listed
        if legal is not None:
            return legal
        phase = self.phase
        if phase is PLAY and self.irregular is None and self.snapshots is None:
            # The hot path: play.plays of play.play_mask, inlined (no remedy to apply).
            mask = self.legal_mask
            if mask < 0:
                tr = self.tr
                assert tr is not None
                mask = self.legal_mask = tr.legal(self.hands[self.to_move], self.trick)
            m = _SUIT_BITS
            legal = self.listed = [
                *_P0[mask & m],
                *_P1[mask >> _S1 & m],
                *_P2[mask >> _S2 & m],
                *_P3[mask >> _S3],
            ]
            return legal
        if phase is OVER:
            legal = []
        else:
            named = laws.legal(self) if self.irregular is not None else None
            legal = named if named is not None else _MODULES[phase].legal(self)
        self.listed = legal
        return legal

    def legal_plays(self) -> int:
        """Returns the cards the player to move may play now, a mask over card indices: in the
        play, those the trick rules and the adversaries' remedies allow (the ``play`` actions
        of :meth:`legal_actions`, from the same :func:`engine.referee.play.play_mask`); in the
        vole's decision, his hand (a lead undertakes it); 0 in any other phase."""
        phase = self.phase
        if phase is PLAY:
            return play.play_mask(self)
        if phase is VOLE:
            return self.hands[self.to_move]
        return 0

    def trump_choices(self, contract: Contract | None = None) -> list[int]:
        """Returns the suits (0-3) that may be named trumps under ``contract`` (default: the
        contract being played). Asks :func:`engine.referee.declarations.trump_suits`."""
        return declarations.trump_choices(self, contract)

    def bid_needed(self, contract: Contract) -> bool:
        """Checks if naming ``contract`` now would be needed to overcall: always, unless it is
        named only to overcall (``only_to_overcall``) and the lower contract it stands for would
        outrank the bid standing (:func:`engine.referee.auction.needed`)."""
        return auction.needed(self, contract)

    def raise_choices(self) -> list[Contract]:
        """Returns the contracts the auction's winner may play instead of the one he won (empty
        outside the ``raise`` phase)."""
        return auction.raise_choices(self) if self.phase is RAISE else []

    def may_defer(self) -> bool:
        """Checks if the player to move may let the other defender exchange first
        (``exchange.defenders: either-first``)."""
        return self.phase is EXCHANGE and exchange.may_defer(self)

    def exchange_limit(self) -> int:
        """Returns how many cards the player to move may discard now (0 outside the écart)."""
        return exchange.limit(self) if self.phase is EXCHANGE else 0

    def exchange_why(self) -> exchange.ExchangeLimit | None:
        """Returns how many cards the player to move may discard now and why: the talon left,
        the first exchanger's maximum, what a middle one leaves for the last unless he holds a
        matador (and the matador he holds). None outside the écart."""
        return exchange.limit_of(self) if self.phase is EXCHANGE else None

    def paid_matadors(self) -> int:
        """Returns how many matadors the declaring side is paid for (or pays), 0 if none.

        The unbroken run of trumps from the first paid matador, held by the side (or the
        declarer alone, as the rules say) at the start of play, counted only when it is at least
        the rules' minimum (the three true matadors).
        """
        return result.paid_matadors(self)

    # Applying actions.

    def apply(self, action: object, seat: int | None = None) -> None:
        """Applies one action of the player to move, after checking it.

        :param action: an :class:`Action`, its notation (``"play Kd"``, ``"Kd"``), or a record
            line with the seat in front (``"2 play Kd"``).
        :param seat: if given, the seat that claims to act (refused if it is not its turn).
        :raises NotationError: if the text does not parse, or ``action`` is neither an Action
            nor text, or ``seat`` is not a seat.
        :raises IllegalActionError: if the action is not legal now, with the rule it breaks.
        """
        phase = self.phase
        if phase is PLAY and self.irregular is None and (seat is None or seat == self.to_move):
            # ``play CARD`` as the interned action (as listed, and as parsed), by its identity.
            card = _PLAY_CARD.get(id(action))
            if card is not None:
                mask = self.legal_mask
                if mask < 0:
                    assert self.tr is not None
                    mask = self.legal_mask = self.tr.legal(self.hands[self.to_move], self.trick)
                if mask >> card & 1:
                    # The hot path: a legal card is played without the general dispatch.
                    seat = self.to_move
                    self.history.append(_SEAT_PLAYS[seat][card])  # (seat, ``action`` itself)
                    self.listed = None
                    self.legal_mask = -1
                    _play_card(self, seat, card)
                    return
        listed = self.listed
        if (
            type(listed) is list
            and type(action) is Action
            and self.irregular is None
            and (seat is None or seat == self.to_move)
            # One of the actions just listed, the very object (an equal one takes the checked
            # path): identities compared, never the actions' fields.
            and id(action) in map(id, listed)
        ):
            # The trusted path: the very action legal_actions() just listed (it lists exactly
            # what the phase's rules accept, and _refusal accepts it unasked), applied as the
            # checked path below applies it.
            seat = self.to_move
            self.history.append((seat, action))
            self.listed = None
            self.legal_mask = -1
            _APPLY[phase](self, seat, action)
            return
        action, seat = self._parse(action, seat)
        if action.verb in deal_laws.VERBS:
            deal_laws.apply(self, action, seat)  # a law of the deal, by the seat concerned
            self._settlement = None
            return
        if action.verb in LAW_VERBS:
            # An irregularity or its remedy, by whichever seat commits or takes it.
            who = self.to_move if seat is None else seat
            error = self._refusal(action, who)
            if error is not None:
                raise error
            self.history.append((who, action))
            laws.apply(self, who, action)
            return
        if phase is PLAY and action.verb == "play" and (seat is None or seat == self.to_move):
            card = action.cards[0].index
            if play.play_mask(self) >> card & 1:
                self._apply(play, action)
                return
        error = self._refusal(action, seat)
        if error is not None:
            raise error
        seat = self.to_move
        self.history.append((seat, action))
        self.listed = None
        self.legal_mask = -1
        _APPLY[phase](self, seat, action)

    def refusal(self, action: Action | str, seat: int | None = None) -> IllegalActionError | None:
        """Returns why ``action`` would be refused now, None if it is legal: the public "why
        not?", asked of the same rules as :meth:`apply` (which raises this very error), without
        applying anything.

        :param action: as for :meth:`apply`.
        :param seat: if given, the seat that would act.
        :raises NotationError: if the text does not parse, or ``seat`` is not a seat.
        """
        action, seat = self._parse(action, seat)
        return self._refusal(action, seat)

    @property
    def card_verb(self) -> str | None:
        """Returns the verb that puts a card from the hand of the player to move in this
        phase: ``play`` in the play (and at the vole's decision, where a card played is
        refused with its reason), ``give`` when a demanded card is given; None in the other
        phases (their cards are named by other verbs: the écart's ``discard``, a ``call``)."""
        return _CARD_VERBS.get(self.phase)

    def askable(self) -> list[Action]:
        """Returns the choices of this phase that the rules name but do not offer now, each of
        which may be asked "why not?" (:meth:`refusal`): the biddable contracts in the
        auction, the four suits when trumps are named, the cards of the called (or demanded)
        rank. Empty once the deal is over."""
        if self.is_over:
            return []
        rules = self.rules
        phase = self.phase
        named: list[Action] = []
        if phase in (AUCTION, MATCH):
            named = [Action("bid", contract=c.id) for c in rules.contracts.values() if c.biddable]
        elif phase is TRUMP:
            named = [Action("trump", suit=suit) for suit in Suit]
        elif phase is CALL:
            rule = rules.call if self.contract and self.contract.help is Help.CALL else rules.demand
            if rule is not None:
                named = [
                    Action("call", cards=(c,))
                    for c in rules.deck(self.options)
                    if c.rank == rule.rank
                ]
        legal = set(self.legal_actions())
        return [a for a in named if a not in legal]

    def _parse(self, action: object, seat: int | None) -> tuple[Action, int | None]:
        if isinstance(action, str):
            # A record line "SEAT VERB ...": the seat is a claim, checked below.
            claimed, action = parse_seated(action)
            if claimed is not None:
                if seat is not None and seat != claimed:
                    raise NotationError(f"the line names seat {claimed}, not seat {seat}")
                seat = claimed
        elif not isinstance(action, Action):
            raise NotationError(f"not an action: {action!r} (an Action or its notation)")
        if seat is not None:
            self._seat(seat)
        return action, seat

    def _refusal(self, action: Action, seat: int | None) -> IllegalActionError | None:
        if action.verb in deal_laws.VERBS:
            return deal_laws.refusal(self, action, seat)
        phase = self.phase
        if phase is OVER:
            return refuse("deal/over", "the deal is over", self.to_move, action)
        deck_mask = self.t.deck_mask
        for named in action.cards:
            if not deck_mask >> named.index & 1:
                return refuse(
                    f"{action.verb}/not-in-pack",
                    self.rules.not_in_pack(named, self.options),
                    self.to_move,
                    action,
                    rule=self.rules.cite(("deck",)),
                )
        if action.verb in LAW_VERBS:
            who = self.to_move if seat is None else seat
            return laws.refusal(self, who, action)
        naming = self.irregular.naming if self.irregular is not None else None
        if naming is not None:
            return refuse(
                f"{action.verb}/name-trump",
                f"seat {naming} laid his hand down without naming trumps: another player "
                "names them (name-trump SUIT)",
                self.to_move,
                action,
                self.rules.cite(("laws", "lay_down_unnamed")),
            )
        if seat is not None and seat != self.to_move:
            return IllegalActionError(
                f"{action.verb}/not-your-turn",
                f"it is seat {self.to_move}'s turn, not seat {seat}'s",
                action=f"{seat} {action}",
                rule="speech and play go in turn to the right",
            )
        if phase not in VERB_PHASES[action.verb]:
            return refuse(
                f"{action.verb}/not-now",
                f"it is the {phase} phase: expected {EXPECTED[phase]}",
                self.to_move,
                action,
            )
        listed = self.listed
        # An action just listed by legal_actions() (which lists exactly what the phase's rules
        # accept) needs no second look; any other is asked of the rules, which say why not.
        if type(listed) is not list or action not in listed:
            result: IllegalActionError | None = _REFUSAL[phase](self, action)
            return result
        return None

    def apply_unchecked(self, action: Action) -> None:
        """Applies an action taken from :meth:`legal_actions` without checking it again.

        .. warning:: Only for code that took the action from :meth:`legal_actions` (bots,
           simulation); anything else must use :meth:`apply`.
        """
        self._apply(_MODULES[self.phase], action)

    def _apply(self, module: ModuleType, action: Action) -> None:
        seat = self.to_move
        self.history.append((seat, action))
        self.listed = None
        self.legal_mask = -1
        module.apply(self, seat, action)

    # Views and reports.

    def given_visible_to(self, seat: int) -> bool:
        """Checks if ``seat`` may see the card given back for a demanded one: the two who
        exchanged it, everybody where the rules show it (``given_card_visible: public``). Part
        of :meth:`view`."""
        return self.given is not None and (
            seat in (self.declarer, self.demanded_from)
            or (
                self.rules.demand is not None
                and self.rules.demand.given_card_visible is Visibility.PUBLIC
            )
        )

    def declarer_shown(self) -> bool:
        """Checks if the declarer's hand lies open for every seat to see: under an open
        contract (``open``, *ouvert*), once play begins (``before-first-lead``) or once the
        first card is led (``after-first-lead``), to the end of the deal. Part of
        :meth:`view`."""
        contract = self.contract
        if contract is None or contract.open is None or not self.start_hands:
            return False
        if contract.open is OpenFrom.BEFORE_FIRST_LEAD:
            return True
        return bool(self.played_tricks or self.trick)

    @property
    def no_trumps(self) -> bool:
        """Whether the deal is played without trumps (a contract with ``trumps: none``)."""
        return self.trump == NO_TRUMPS

    def declarable(self, seat: int) -> list[Action]:
        """Returns the irregularities and remedies ``seat`` could declare now under the rule
        file's laws of the play (:func:`engine.referee.laws.declarable`); never among the legal
        actions, which are what the rules ask of the player to move), and under its laws of the
        deal (a misdeal, a card too many, the cards taken back: :mod:`engine.referee.deal_laws`)."""
        seat = self._seat(seat)
        return [*deal_laws.declarable(self, seat), *laws.declarable(self, seat)]

    @property
    def irregularities(self) -> tuple[Event, ...]:
        """Returns the irregularities and remedies declared in this deal, in order (the laws
        of the play applied without a verb, such as the king's holder made known, included)."""
        return self.irregular.events if self.irregular is not None else ()

    def public_cards(self, seat: int) -> list[Card]:
        """Returns the cards of ``seat``'s hand every seat may see now (exposed, played out of
        turn, or in a hand shown or turned up)."""
        seat = self._seat(seat)
        if self.irregular is None:
            return []
        return [ALL_CARDS[c] for c in self.irregular.public_cards(self.hands, seat)]

    def view(self, seat: int) -> View:
        """Returns what ``seat`` may see now: its hand, the public play, its choices.

        :raises NotationError: if ``seat`` is not a seat of this deal.
        """
        seat = self._seat(seat)
        partner_known = self.holder_known_to(seat)
        given_visible = self.given_visible_to(seat)
        declarer = self.declarer
        trump = self.trump
        given = self.given
        return View(
            seat=seat,
            dealer=self.dealer,
            eldest=self.eldest,
            phase=self.phase,
            to_move=None if self.is_over else self.to_move,
            hand=tuple(self.hand(seat)),
            auction=tuple(self.auction),
            declarer=declarer,
            contract=self.contract,
            trump=SUITS[trump] if trump is not None and trump != NO_TRUMPS else None,
            no_trumps=trump == NO_TRUMPS,
            called=ALL_CARDS[self.called] if self.called is not None else None,
            partner=self.partner if partner_known else None,
            demanded_from=self.demanded_from,
            given=ALL_CARDS[given] if given_visible and given is not None else None,
            turned=ALL_CARDS[self.turned] if self.turned is not None else None,
            talon=len(self.talon) - self.talon_pos,
            exchanges=tuple((s, len(d)) for s, d, _ in self.exchanges),
            trick=tuple(ALL_CARDS[c] for c in self.trick),
            trick_leader=self.leader,
            tricks=tuple(self.tricks),
            tricks_won=tuple(self.won),
            vole=self.vole_undertaken,
            legal=tuple(self.legal_actions()) if seat == self.to_move else (),
            declarer_hand=tuple(self.hand(declarer))
            if declarer is not None and self.declarer_shown()
            else None,
            irregular=public_irregularities(self),
        )

    @property
    def trump_suit(self) -> Suit | None:
        """Returns the trump suit: None before trumps are named, or under a contract played
        without trumps."""
        t = self.trump
        return _SUITS[t] if t is not None and t != NO_TRUMPS else None

    @property
    def called_card(self) -> Card | None:
        """Returns the card called or demanded (None if none was)."""
        return ALL_CARDS[self.called] if self.called is not None else None

    @property
    def renonce_seats(self) -> tuple[int, ...]:
        """Returns the seat of each renonce that makes a bête: those pointed out, then those
        found at the end of the play."""
        return (*self.penalties, *(s for s, _, _ in self.renonces))

    def report(self) -> dict[str, Any]:
        """Returns the deal as in ``ombre replay --json`` (its ``deals`` entries)."""
        out: dict[str, Any] = {
            "dealer": self.dealer,
            "contract": self.contract.id if self.contract else None,
            "declarer": self.declarer,
            "partners": [self.partner] if self.partner is not None else [],
            "trump": self.trump_suit.value if self.trump_suit is not None else None,
            "called": str(self.called_card) if self.called_card is not None else None,
            "forced": self.forced,
            "vole_undertaken": self.vole_undertaken,
            "tricks": [t.as_json() for t in self.tricks],
            "tricks_won": list(self.won),
            "result": self.result,
        }
        if self.given is not None:
            out["given"] = str(ALL_CARDS[self.given])
            out["demanded_from"] = self.demanded_from
        if self.turned is not None:
            out["turned"] = str(ALL_CARDS[self.turned])
        if self.trump == NO_TRUMPS:
            out["no_trumps"] = True
        if self.raised_from is not None:
            out["won_with"] = self.raised_from
        if self.exchanges:
            out["exchanges"] = [
                {
                    "seat": s,
                    "discarded": [str(ALL_CARDS[c]) for c in d],
                    "drawn": [str(ALL_CARDS[c]) for c in t],
                }
                for s, d, t in self.exchanges
            ]
        if self.penalties or self.renonces:
            out["renonces"] = list(self.renonce_seats)
        out.update(deal_laws.report(self))
        if self.irregular is not None:
            out["irregularities"] = [e.as_json() for e in self.irregular.events]
        if self.faults:
            out["penalties"] = [{"seat": s, "fault": f} for s, f in self.faults]
        s = self.settlement
        if s is not None:
            out.update(
                pot_before=s.pot_before,
                pot_after=s.pot_after,
                balances=list(s.balances),
                bete=s.bete,
                matadors=s.matadors,
                payments=[p.as_json() for p in s.payments],
            )
        else:
            out.update(pot_before=self.table.pot, pot_after=None, balances=None)
        return out

    def summary(self) -> DealSummary:
        """Returns the finished deal as a scorekeeper writes it down (no cards): the same value
        an entry of it at a scorekeeper reads into, checked and settled the same way
        (:mod:`engine.referee.summary`)."""
        if self.result is None:
            raise NotationError("the deal is not finished: it has no summary yet")
        return summary_of(self)

    def record_actions(self) -> list[str]:
        """Returns the actions so far as record lines ``"SEAT VERB ..."``."""
        return [f"{s} {a}" for s, a in self.history]

"""The state of one deal in progress: the explicit, typed state every phase module works on.

A :class:`DealState` holds what a deal is at one moment -- the hands, the talon drawn so far,
who speaks or plays next, the standing bid, the declarations, the tricks, the renonces -- as
public, documented attributes. It stands below the phases: :mod:`~engine.referee.auction`,
:mod:`~engine.referee.declarations`, :mod:`~engine.referee.exchange`,
:mod:`~engine.referee.play` and :mod:`~engine.referee.result` are functions of a
``DealState`` (they read and change it, and nothing else), and :class:`engine.referee.Deal`
builds its checked front door on it. No phase module imports the deal; the deal imports them.

Cards are 0-39 indices and hands bit masks (:class:`engine.rules.model.Tables`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine.actions import Action
from engine.cards import PACK_SIZE, suit_of
from engine.referee.irregular import Irregular
from engine.referee.outcome import Fault, Transfer
from engine.referee.seating import Seating
from engine.referee.settlement import TableState
from engine.referee.state import AUCTION, Phase, ResultMatch, mask_of
from engine.referee.tricks import TrickRules
from engine.rules.model import Contract, RuleSet, Setup, Tables

__all__ = ["NO_IRREGULARITY", "DealState", "Irregularities", "PlayedTrick", "Snapshot"]

PlayedTrick = tuple[int, tuple[int, ...], int]
"""A finished trick as the referee keeps it: (leader, card indices in play order, winner)."""

Snapshot = tuple[tuple[int, ...], tuple[int, ...], int, bool, bool, Phase, Irregular | None]
"""The play state at the start of a trick, to resume from when a renonce is pointed out:
(hands, tricks won, leader, partner seen, vole undertaken, phase, what the irregularities of
the play had left standing)."""


@dataclass(frozen=True, slots=True)
class Irregularities:
    """What the laws of the table have made of a deal (:mod:`engine.referee.laws`); replaced,
    never changed, so that a copy of the state shares it safely."""

    fault: str | None = None
    """The misdeal found (``too-many``, ``too-few``, ``duplicate``, ``faced``, ``faced-last``),
    None if none."""
    found_by: int | None = None
    """The seat that found the misdeal, or that played with a card too many."""
    extra_card: int | None = None
    """The seat found playing with a card too many (it makes a bête), None if none."""
    late: tuple[tuple[int, int, int], ...] = ()
    """The renonces found at the end of the play, (offender, trick number, card)."""
    retaken: int = 0
    """How many times the cards were taken back after several renonces."""
    unclaimed: tuple[str, ...] = ()
    """The payment items not claimed in time: not paid."""


NO_IRREGULARITY = Irregularities()


class DealState:
    """The state of one deal: set up once by :class:`engine.referee.Deal`, then changed only
    by the phase modules' ``apply`` (and the functions they call).

    Every attribute is public and typed; the phases read and write these and nothing else.
    """

    __slots__ = (
        "active",
        "auction",
        "bid_suit",
        "called",
        "contract",
        "deal_irregular",
        "dealer",
        "dealt",
        "dealt_talon",
        "declarer",
        "deferred",
        "demanded_from",
        "eldest",
        "exchanger_index",
        "exchangers",
        "exchanges",
        "factor",
        "faults",
        "forced",
        "given",
        "hands",
        "history",
        "holder",
        "holder_contract",
        "irregular",
        "is_over",
        "leader",
        "legal_mask",
        "listed",
        "machine_dealt",
        "n",
        "next_seat",
        "options",
        "out",
        "overcaller",
        "partner",
        "partner_seen",
        "passed",
        "penalties",
        "phase",
        "played_tricks",
        "raised_from",
        "renonces",
        "result",
        "result_match",
        "rules",
        "seating",
        "setup",
        "snapshots",
        "speakers",
        "start_hands",
        "stopped",
        "t",
        "table",
        "talon",
        "talon_pos",
        "to_move",
        "tr",
        "transfers",
        "trick",
        "trump",
        "turned",
        "vole_undertaken",
        "won",
    )

    # What the deal is played under (fixed for the deal).
    rules: RuleSet
    """The ruleset."""
    setup: Setup
    """The setup options resolved, with their compiled tables."""
    options: Mapping[str, str]
    """The setup options' values (defaults filled in)."""
    t: Tables
    """The compiled tables of this setup (``setup.tables``)."""
    n: int
    """The seats at the table."""
    dealer: int
    """The dealer's seat."""
    seating: Seating
    """Who sits where in this deal: order of play, the seat out, opponents, partners."""
    eldest: int
    """The eldest hand: the first to speak and to lead."""
    out: int | None
    """The seat that sits the deal out (``players.sits_out``), None if every seat plays: dealt
    nothing, it never speaks or plays, but is an opponent in the settlement."""
    active: int
    """How many seats play."""
    next_seat: tuple[int, ...]
    """The seat that plays after each seat (the seat out skipped)."""
    table: TableState
    """What lay on the table when the deal began (a party's pot and bêtes)."""
    factor: int
    """Payments and the dealer's stake are multiplied by this (the last tour, doubled)."""
    dealt: tuple[tuple[int, ...], ...]
    """Each seat's cards as dealt."""
    dealt_talon: tuple[int, ...]
    """The talon as dealt, top card first."""

    # The cards and the turn.
    hands: list[int]
    """Each seat's hand now, a mask."""
    talon: list[int]
    """The talon as dealt, top card first (cards drawn stay listed: see ``talon_pos``)."""
    talon_pos: int
    """How many cards have been drawn from the top of the talon."""
    history: list[tuple[int, Action]]
    """Every action applied, with the seat that took it."""
    phase: Phase
    """The phase the deal is in."""
    to_move: int
    """The seat to act."""

    # The auction.
    speakers: list[int]
    """The seats still to speak after the one speaking, popped from the end."""
    holder: int | None
    """The seat holding the bid standing."""
    holder_contract: Contract | None
    """The contract standing (in the ``match`` phase, the overcall being matched)."""
    overcaller: int | None
    """The seat whose overcall the holder may match ("forcé"), in the ``match`` phase."""
    bid_suit: int | None
    """The trump suit (0-3) the bid standing names, under a contract whose bid names it
    (``trump_with_bid``); None for a bid that names none."""
    auction: list[tuple[int, Action]]
    """The speech so far."""
    passed: int
    """The seats that have passed, a mask (where speech goes round, a pass is final)."""
    raised_from: str | None
    """The contract won in the auction, where its winner then played another (the ``raise``
    phase: ``declarer_may_play``, ``auction.raise``)."""

    # The declarations and the écart.
    declarer: int | None
    contract: Contract | None
    forced: bool
    """The declarer was imposed when all passed."""
    trump: int | None
    """The trump suit's index (0-3), once named."""
    called: int | None
    """The card called or demanded."""
    partner: int | None
    """The called card's holder, the declarer's partner (None: he plays alone)."""
    demanded_from: int | None
    """The seat that handed over a demanded (or surrendered) card."""
    given: int | None
    """The card given back for a demanded one."""
    turned: int | None
    """The card turned from the talon to fix trumps (``trump_from_talon``), once turned."""
    transfers: list[Transfer]
    """Payments made during the deal: (payer, payee, amount, item)."""
    exchangers: list[int]
    """The seats that exchange, in turn."""
    exchanger_index: int
    """The position in ``exchangers`` of the seat exchanging now."""
    deferred: bool
    """The first defender has let the other exchange first (``defer``)."""
    exchanges: list[tuple[int, tuple[int, ...], tuple[int, ...]]]
    """The écart so far: (seat, discarded, drawn)."""

    # The play.
    tr: TrickRules | None
    """Following and winning a trick under the trumps named (set when play begins)."""
    leader: int
    """The seat that led the trick in progress."""
    trick: list[int]
    """The cards of the trick in progress, in play order."""
    played_tricks: list[PlayedTrick]
    """The finished tricks, in order."""
    won: list[int]
    """The tricks each seat has won."""
    partner_seen: bool
    """The called card has appeared (or there is none to wait for)."""
    vole_undertaken: bool
    stopped: bool
    """The declaring side laid down instead of going on for the vole."""
    start_hands: tuple[int, ...]
    """Each seat's hand when play began (empty before)."""
    renonces: list[tuple[int, int, int]]
    """Renonces not yet pointed out: (offender, trick number, card)."""
    penalties: list[int]
    """The offender of each renonce noticed: each makes a bête."""
    faults: list[Fault]
    """The faults scored in penalty points (``settlement.penalties``) committed in the deal:
    (offender, fault id)."""
    snapshots: list[Snapshot] | None
    """The play state at the start of each trick, kept where renonces are penalised (a
    ``notice`` resumes from one); None where they are refused."""
    irregular: Irregular | None
    """What the irregularities declared under the laws of the play leave standing (None while
    there are none; an immutable value, replaced on each change: :mod:`engine.referee.laws`)."""

    # The end.
    is_over: bool
    """The deal is finished (played out, laid down, or passed out)."""
    result: str | None
    """The result's name from the results table (``redeal`` for a deal passed out)."""
    result_match: ResultMatch | None
    """Why the result is what it is: the line of the results table that gave it, and the lines
    above it (None until the deal is over, and for a deal passed out)."""

    # What the player to move may do, worked out once per action.
    listed: Sequence[Action] | None
    """The legal actions last listed for the player to move; None once anything changes."""
    legal_mask: int
    """The cards the player to move may play, a mask; -1 until worked out."""
    deal_irregular: Irregularities
    """What the laws of the deal made of it: a misdeal, a card too many, the cards taken back,
    claims not made (:mod:`engine.referee.deal_laws`)."""

    def __init__(
        self,
        rules: RuleSet,
        setup: Setup,
        dealer: int,
        seating: Seating,
        dealt: Sequence[Sequence[int]],
        talon: Sequence[int],
        speakers: Sequence[int],
        table: TableState,
        factor: int,
    ) -> None:
        self.rules = rules
        self.setup = setup
        self.options = setup.values
        self.t = setup.tables
        self.n = rules.players
        self.dealer = dealer
        self.seating = seating
        self.eldest = seating.eldest
        self.out = seating.out
        self.active = seating.active
        self.next_seat = seating.right
        self.table = table
        self.factor = factor
        self.machine_dealt = False
        """Whether a machine dealt the cards (a web table), set by the deal: it deals no
        misdeal and no card too many, so the laws of misdeals cannot be declared."""
        self.dealt = tuple(map(tuple, dealt))
        self.dealt_talon = tuple(talon)

        self.hands = [mask_of(h) for h in dealt]
        self.talon = list(talon)
        self.talon_pos = 0
        self.history = []
        self.phase = AUCTION
        self.to_move = self.eldest

        self._init_auction(speakers)
        self._init_declarations()
        self._init_play()

    def _init_auction(self, speakers: Sequence[int]) -> None:
        """Sets the auction's fields as they stand before anyone speaks: ``speakers`` still to
        speak, no bid standing, nobody passed."""
        self.speakers = list(speakers)
        self.holder = None
        self.holder_contract = None
        self.overcaller = None
        self.bid_suit = None
        self.auction = []
        self.passed = 0
        self.raised_from = None

    def _init_declarations(self) -> None:
        """Sets the declarations' fields as they stand before the auction is won: no declarer,
        contract, trumps, call, demand or exchange yet."""
        self.declarer = None
        self.contract = None
        self.forced = False
        self.trump = None
        self.called = None
        self.partner = None
        self.demanded_from = None
        self.given = None
        self.turned = None
        self.transfers = []
        self.exchangers = []
        self.exchanger_index = 0
        self.deferred = False
        self.exchanges = []

    def _init_play(self) -> None:
        """Sets the play's and the end's fields as they stand before the first lead: the eldest
        to lead, no trick, no renonce or irregularity, the deal not over and nothing listed."""
        self.tr = None
        self.leader = self.eldest
        self.trick = []
        self.played_tricks = []
        self.won = [0] * self.n
        self.partner_seen = False
        self.vole_undertaken = False
        self.stopped = False
        self.start_hands = ()
        self.renonces = []
        self.penalties = []
        self.faults = []
        self.snapshots = None
        self.irregular = None
        self.deal_irregular = NO_IRREGULARITY

        self.is_over = False
        self.result = None
        self.result_match = None
        self.listed = None
        self.legal_mask = -1

    # Answers every phase asks.

    @property
    def side(self) -> list[int]:
        """Returns the declaring side: the declarer and his partner, if he has one."""
        if self.declarer is None:
            return []
        return [self.declarer] if self.partner is None else [self.declarer, self.partner]

    def seat_at(self, leader: int, position: int) -> int:
        """Returns the seat that played ``position`` (from 0) in a trick led by ``leader``
        (:meth:`Seating.seat_of`)."""
        if self.out is None:
            return (leader + position) % self.n
        return self.seating.seat_of(leader, position)

    def sorted_cards(self, mask: int) -> list[int]:
        """Returns the cards of a mask, highest first in the current ranking: by suit, trumps
        first once named; before trumps, each suit in its plain order."""
        cards = [c for c in range(PACK_SIZE) if mask >> c & 1]
        if self.trump is None:
            # Before trumps: by suit, each in its plain order (read off a table in which that
            # suit is not trumps; the black aces, always trumps, come first in their suits).
            strengths = self.t.strength
            return sorted(cards, key=lambda c: (suit_of(c), -strengths[(suit_of(c) + 1) % 4][c]))
        strength = self.t.strength[self.trump]
        follow = self.t.follow[self.trump]
        return sorted(cards, key=lambda c: (0 if follow[c] == 4 else 1 + follow[c], -strength[c]))

    def partner_known_to(self, seat: int) -> bool:
        """Checks if ``seat`` knows who the partner is (or that there is none): the called
        card's holder knows he is the friend; everyone else, the declarer included, learns it
        only when the called card is played (at once when he called his own). Part of
        :meth:`engine.referee.deal.Deal.view`, and what the laws' refusals may tell him."""
        return self.partner_seen or (self.partner is not None and seat == self.partner)

    def holder_known_to(self, seat: int) -> bool:
        """Checks if ``seat`` may see who holds the called card (or that the declarer is
        alone): as :meth:`partner_known_to`, and also as soon as the called card lies in the
        trick being played, before that trick ends. What the table's status lines show
        (``Deal.view``'s ``partner``); the laws that turn on the partner being known keep the
        trick's end (:attr:`partner_seen`, counted when the trick is gathered)."""
        return self.partner_public() or (self.partner is not None and seat == self.partner)

    def partner_public(self) -> bool:
        """Checks if every seat may see who holds the called card (or that the declarer is
        alone): once the card has appeared in a trick (:meth:`holder_known_to` of any seat).
        What a public observation shows of the partner."""
        return self.partner_seen or (self.called is not None and self.called in self.trick)

    def resume_from(self, first: int) -> None:
        """Takes the cards back to the start of trick ``first`` (from its snapshot): the hands,
        the tricks won, the leader, what was known of the partner and the vole, as they were;
        the tricks from ``first`` on are undone ("il faut reprendre ses cartes", ENC-Q), and with
        them the irregularities of the play declared since (:attr:`irregular` as it was)."""
        snapshots = self.snapshots
        assert snapshots is not None
        hands, won, leader, seen, vole, phase, irregular = snapshots[first]
        del snapshots[first + 1 :]
        del self.played_tricks[first:]
        self.hands = list(hands)
        self.won = list(won)
        self.leader = self.to_move = leader
        self.partner_seen = seen
        self.vole_undertaken = vole
        self.trick = []
        self.phase = phase
        # The irregularities declared from that trick on go with the cards taken back (their
        # cards, calls and bars were of play that is undone); those before it stand (inferred,
        # docs/decisions.md).
        self.irregular = irregular
        self.listed = None
        self.legal_mask = -1

    def copy_state(self, other: DealState) -> None:
        """Copies this state into ``other`` (a fresh instance of the same class): lists are
        copied, so the two go on independently (for look-ahead)."""
        for name in _slots(type(self)):
            value = getattr(self, name)
            if type(value) is list:
                value = list(value)
            setattr(other, name, value)
        other.listed = None
        other.legal_mask = -1


_SLOTS: dict[type, tuple[str, ...]] = {}


def _slots(cls: type) -> tuple[str, ...]:
    """Every slot of a class and its bases (worked out once a class). Compiled (``make fast``),
    a class keeps no ``__slots__``: mypyc lists every attribute of it and its bases in
    ``__mypyc_attrs__`` instead."""
    slots = _SLOTS.get(cls)
    if slots is None:
        native: tuple[str, ...] | None = getattr(cls, "__mypyc_attrs__", None)
        slots = _SLOTS[cls] = (
            tuple(native)
            if native is not None
            else tuple(name for klass in cls.__mro__ for name in getattr(klass, "__slots__", ()))
        )
    return slots

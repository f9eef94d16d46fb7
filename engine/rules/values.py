"""The rule model's value types: what a :class:`~engine.rules.ruleset.RuleSet` is made of.

Citations and bases, contracts, conditions, items and outcomes, the laws of the table, the
compiled tables, the seating of a deal, the kinds of outcome and of payment line. Every one is
frozen; the build (:mod:`engine.rules.build`) makes them from a resolved rule file.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import Any, NamedTuple, Protocol

from engine.actions import Action
from engine.cards import Card, Colour, Rank, Suit
from engine.enums import (
    Aim,
    AllPlayTies,
    BiddableWhen,
    Exchange,
    Help,
    OpenFrom,
    OptionKind,
    OwnCard,
    Pot,
    TrumpNamedBy,
    Trumps,
    Visibility,
    VoleWhen,
)
from engine.rules.reader import Where

POINT = "point"
"""The unit of a game scored in points from a tariff (``settlement.unit``)."""


NO_TRUMPS = 4
"""The index of the compiled tables of a contract played without trumps (``trumps: none``):
the suits' indices are 0-3, and the tables hold a fifth entry in which no card is a trump and
every card ranks in its suit by ``ranking.no_trumps``."""


@dataclass(frozen=True, slots=True)
class Cite:
    """A citation: a source id from the file's ``sources`` table, a locator, a short quote."""

    source: str
    locator: str
    quote: str | None = None
    against: bool = False
    """The passage says otherwise than the rule: the source's contrary reading, shown as such
    in the rule books, never as support."""


@dataclass(frozen=True, slots=True)
class Basis:
    """Why a rule is as it is: the evidence label, citations and a note."""

    evidence: str
    """``attested``, ``inferred``, ``disputed`` or ``conjecture``."""
    cites: tuple[Cite, ...] = ()
    note: str | None = None
    where: Where = ("", None, None)
    """The file, line and column that set this rule."""

    @property
    def supporting(self) -> tuple[Cite, ...]:
        """Returns the citations that support the rule (the contrary readings left out)."""
        return tuple(c for c in self.cites if not c.against)

    @property
    def contrary(self) -> tuple[Cite, ...]:
        """Returns the citations of passages that read otherwise than the rule."""
        return tuple(c for c in self.cites if c.against)

    @staticmethod
    def from_data(data: Mapping[str, Any] | None, where: Where) -> Basis:
        if not data:
            return Basis("conjecture", (), "no basis given", where)
        cites = tuple(
            Cite(str(c["source"]), str(c["locator"]), c.get("quote"), bool(c.get("against", False)))
            for c in data.get("cite", [])
        )
        return Basis(str(data["evidence"]), cites, data.get("note"), where)


@dataclass(frozen=True, slots=True)
class TopTrump:
    """A named trump above the rest of the trump suit (Spadille, Manille, Basto, Ponto)."""

    name: str
    card: Card | None
    """A fixed card, always a trump whatever the trump suit (e.g. ``As``)."""
    rank: Mapping[Colour, Rank]
    """Otherwise the rank of the trump suit's card, by the trump suit's colour."""
    matador: bool
    basis: Basis

    def card_for(self, trump: Suit) -> Card | None:
        """Returns the card this trump is when ``trump`` is the trump suit (None if none)."""
        if self.card is not None:
            return self.card
        rank = self.rank.get(trump.colour)
        return None if rank is None else Card(rank, trump)


@dataclass(frozen=True, slots=True)
class Option:
    """A setup option a record may set (e.g. which red suit is removed)."""

    id: str
    name: str
    kind: OptionKind
    choices: tuple[Suit, ...]
    default: Suit
    basis: Basis


@dataclass(frozen=True, slots=True)
class Contract:
    """A way of playing the deal, bid in the auction or imposed when all pass."""

    id: str
    name: str
    rank: int
    biddable: bool
    help: Help
    """``none`` (alone), ``call`` (call a partner's card) or ``demand`` (take a card for one)."""
    matchable: bool
    """An earlier bidder it overcalls may take it himself and be preferred ("forcé")."""
    vole_allowed: bool
    shared_liability: bool
    """Partners always share half and half, however few tricks the declarer took."""
    exchange: Exchange
    """``declarer-first``, ``others-only`` or ``none`` (Ombre's écart)."""
    trump_option: str | None
    """Trumps must be the suit chosen for this setup option (a favourite suit)."""
    trump_not_option: str | None
    """Trumps may not be the suit chosen for this setup option."""
    basis: Basis
    aliases: tuple[str, ...] = ()
    """Other names a player may bid it by (``bid jouer``, ``bid médiateur``), from the file."""
    announces_vole: bool = False
    """The vole is announced with the bid (the *contre*): it is undertaken from the first trick."""
    trump_named_by: TrumpNamedBy = TrumpNamedBy.DECLARER
    """Who names trumps: the declarer, or (after the call) the holder of the called card."""
    requires_cards: tuple[Card, ...] = ()
    """Cards a player must hold to bid it (the seed summary's Casco: both black aces)."""
    trump_from_talon: bool = False
    """Trumps are the suit of the first card turned from the talon (the Spanish *vuelta*)."""
    trump_with_bid: bool = False
    """The bid names the trump suit (``bid CONTRACT SUIT``): the suit is fixed by the bid, and
    nobody names trumps after the auction."""
    trumps: Trumps = Trumps.NAMED
    """``named`` (the declarer names a suit) or ``none``: played without trumps, every card in
    its suit by ``ranking.no_trumps`` (the nolo, the contrabola)."""
    aim: Aim = Aim.TRICKS
    """``tricks`` or ``no-tricks``: the declarer undertakes to take no trick (nolo, misère);
    the vole is never offered, and the results table gives its results."""
    open: OpenFrom | None = None
    """The declarer's hand is shown to every seat (*ouvert*), from before or after the first
    lead; None: it stays his own."""
    biddable_when: BiddableWhen = BiddableWhen.ALWAYS
    """``last-after-all-pass``: bid only by the last to speak, when every other has passed
    (the contrabola); ``out-after-all-pass``: offered, when all who play have passed, to the
    seat that sits the deal out, who plays it or passes (the penetro)."""
    all_play: AllPlay | None = None
    """Played by every seat, the one that sat out included, each for himself (the penetro):
    None for a contract of a declaring side against the others."""

    @property
    def no_trumps(self) -> bool:
        """Whether it is played without trumps."""
        return self.trumps is Trumps.NONE

    @property
    def no_tricks(self) -> bool:
        """Whether the declarer undertakes to take no trick."""
        return self.aim is Aim.NO_TRICKS

    trump_suit: Suit | None = None
    """The contract's own trump suit, fixed (the DLU's *bedre spil* and *solo spar*: spades)."""
    bid_as: str | None = None
    """The class contract it is bid as (the DLU's *spil*): it is named only to overcall."""
    only_to_overcall: OnlyToOvercall | None = None
    """It may be named only when needed to overcall: refused otherwise, or penalised."""
    instead_of: str | None = None
    """The lower contract whose failure to outrank the bid standing makes naming this one
    needed (default: :attr:`bid_as`)."""
    declarer_may_play: tuple[str, ...] = ()
    """Contracts the declarer who won the auction with this one may play instead, named after
    the auction (the DLU's *spil*: a suit, *tourné* or *købe nolo*)."""
    exchange_min: int | None = None
    """The declarer's duty to buy under this contract (overrides ``exchange.declarer_min``)."""
    exchange_max: int | None = None
    """The most the declarer may take under this contract (overrides ``exchange.first_max``)."""

    @property
    def needs(self) -> str | None:
        """Returns the contract whose failure to outrank the bid standing makes naming this
        one needed (None: it may always be named)."""
        if self.only_to_overcall is None:
            return None
        return self.instead_of or self.bid_as


@dataclass(frozen=True, slots=True)
class AllPlay:
    """A contract every seat plays, each for himself (``all_play``): the seat that sat the
    deal out, who took it up, draws :attr:`draw` cards from the top of the talon, nobody
    exchanges, and the seat with the most tricks scores the tariff's ``most_tricks``."""

    draw: int
    """The cards the seat that sat out draws from the top of the talon."""
    ties: AllPlayTies
    """Who of the seats tied for the most tricks takes it: ``latest-trick``, the one of them
    who won the latest trick."""


@dataclass(frozen=True, slots=True)
class OnlyToOvercall:
    """A contract named without need to overcall (``only_to_overcall``): refused, or accepted
    and the bidder charged the fault :attr:`penalty` of the penalty ledger
    (``settlement.penalties``, which gives its points)."""

    penalty: str | None
    """The fault (an id of ``settlement.penalties``) of naming it without need; None: such a
    bid is refused."""
    basis: Basis


@dataclass(frozen=True, slots=True)
class DemandFee:
    """What the declarer pays the holder of a demanded card (Hoyle's médiateur "fish")."""

    amount: int
    favourite_option: str | None
    """A setup option of kind ``suit``: a card of that suit costs ``favourite_amount``."""
    favourite_amount: int | None
    basis: Basis

    def amount_for(self, suit: str, options: Mapping[str, object]) -> int:
        """Returns the fee for a demanded card of ``suit`` (a suit name) under the chosen
        setup ``options``: "if the king be of the favourite suit, then two fish" (HOYLE-IE
        p. 281)."""
        if (
            self.favourite_option is not None
            and self.favourite_amount is not None
            and str(options.get(self.favourite_option)) == suit
        ):
            return self.favourite_amount
        return self.amount


@dataclass(frozen=True, slots=True)
class Call:
    """How a partner's card is called, or a card demanded."""

    rank: Rank
    trump_suit_allowed: bool
    own_card: OwnCard
    all_held_fallback: Rank | None
    given_card_visible: Visibility
    fee: DemandFee | None
    """Paid by the declarer to the holder of the card (demands only); None: nothing."""
    basis: Basis
    surrender_fee: int | None = None
    """*Roi rendu*: the called card's holder may surrender it for a card of the declarer's,
    who then plays alone and pays him this; None: the called card is never surrendered."""


@dataclass(frozen=True, slots=True)
class Condition:
    """When a result applies (all given parts must hold)."""

    vole: VoleWhen | None = None
    side_at_least: int | None = None
    side_at_most: int | None = None
    side_exactly: int | None = None
    more_than_each_opponent: bool = False
    single_opponent_most: bool = False
    otherwise: bool = False
    contracts: tuple[str, ...] | None = None
    """The result applies only to deals played in one of these contracts."""
    laid_down: bool = False
    """The side laid its cards down at the vole threshold (``stop``) instead of playing on."""

    def holds(
        self,
        *,
        contract: str | None,
        side_tricks: int,
        opponents: Sequence[int],
        played: int,
        hand_size: int,
        vole_undertaken: bool,
    ) -> bool:
        """Whether this condition holds for a deal that ended so: the tricks of the declaring
        side and of each opponent, how many tricks were played, and whether the vole was
        undertaken. The referee reads the results table with it, and validation proves with it
        that the table gives every way a deal can end a result."""
        if self.contracts is not None and contract not in self.contracts:
            return False
        if self.laid_down and not played < hand_size:
            return False
        if self.vole is not None:
            if not vole_undertaken:
                return False
            made = side_tricks == hand_size and played == hand_size
            if (self.vole is VoleWhen.MADE) != made:
                return False
        if self.side_exactly is not None and side_tricks != self.side_exactly:
            return False
        if self.side_at_least is not None and side_tricks < self.side_at_least:
            return False
        if self.side_at_most is not None and side_tricks > self.side_at_most:
            return False
        if self.more_than_each_opponent and not all(side_tricks > o for o in opponents):
            return False
        if self.single_opponent_most:
            top = max(opponents, default=0)
            if not (top > side_tricks and sum(1 for o in opponents if o == top) == 1):
                return False
        return True

    @property
    def catch_all(self) -> bool:
        """Checks if the line holds whenever the lines above it did not (``otherwise``, and
        no other condition)."""
        return self.otherwise and not (
            self.contracts
            or self.laid_down
            or self.vole
            or self.side_exactly is not None
            or self.side_at_least is not None
            or self.side_at_most is not None
            or self.more_than_each_opponent
            or self.single_opponent_most
        )

    def describe(self) -> str:
        """Returns the condition in words."""
        parts = []
        if self.contracts:
            parts.append("the contract is " + " or ".join(self.contracts))
        if self.laid_down:
            parts.append("the declaring side laid its cards down at the vole threshold")
        if self.vole:
            parts.append(f"the vole was undertaken and {self.vole}")
        if self.side_exactly is not None:
            parts.append(f"the declaring side takes exactly {self.side_exactly} tricks")
        if self.side_at_least is not None:
            parts.append(f"the declaring side takes at least {self.side_at_least} tricks")
        if self.side_at_most is not None:
            parts.append(f"the declaring side takes at most {self.side_at_most} tricks")
        if self.more_than_each_opponent:
            parts.append("the declarer takes more tricks than each opponent")
        if self.single_opponent_most:
            parts.append("one opponent alone takes more tricks than the declarer and the other(s)")
        if self.otherwise:
            parts.append("otherwise")
        return "; ".join(parts)


def condition_of(when: Mapping[str, Any]) -> Condition:
    """Returns the condition of a results rule's ``when`` mapping (schema-valid)."""
    st = when.get("side_tricks") or {}
    return Condition(
        vole=VoleWhen(when["vole"]) if when.get("vole") else None,
        side_at_least=st.get("at_least"),
        side_at_most=st.get("at_most"),
        side_exactly=st.get("exactly"),
        more_than_each_opponent=bool(when.get("more_than_each_opponent", False)),
        single_opponent_most=bool(when.get("single_opponent_most", False)),
        otherwise=bool(when.get("otherwise", False)),
        contracts=tuple(when["contract"]) if when.get("contract") else None,
        laid_down=bool(when.get("laid_down", False)),
    )


@dataclass(frozen=True, slots=True)
class ResultRule:
    """One line of the results table: the first whose condition holds names the result."""

    result: str
    when: Condition
    basis: Basis


@dataclass(frozen=True, slots=True)
class Item:
    """A payment item (jeu, consolation, matadors, sans-prendre, vole ...), per opponent."""

    id: str
    name: str
    amount: int | None
    per_matador: int | None
    in_play: bool
    """The amount is what is at stake on the table, shared among the payers."""
    single_stake_only: bool
    """Paid only when nothing lay on the table before this deal's stakes."""
    by_contract: Mapping[str, int]
    contracts: tuple[str, ...] | None
    """Paid only for these contracts (None: for every contract)."""
    basis: Basis
    favourite_option: str | None = None
    """A setup option of kind ``suit``: when the deal's trumps are the suit chosen for it (the
    palo de favor), the item is worth :attr:`favourite_amount` instead."""
    favourite_amount: int | None = None

    def value(self, contract: str, matadors: int, favoured: frozenset[str] = frozenset()) -> int:
        """Returns what this item is worth per opponent for a contract (in-play items: 0).

        ``favoured`` names the suit options whose chosen suit is the deal's trump suit."""
        if self.contracts is not None and contract not in self.contracts:
            return 0
        if self.per_matador is not None:
            return self.per_matador * matadors
        if self.in_play:
            return 0
        if self.favourite_option is not None and self.favourite_option in favoured:
            return self.favourite_amount or 0
        return self.by_contract.get(contract, self.amount or 0)


@dataclass(frozen=True, slots=True)
class OutcomeRule:
    """How a result is settled: where the pot goes, whether a bête is made, items paid."""

    id: str
    pot: Pot | None
    """``side`` (the declaring side), ``opponents``, ``codille-winner``, ``stays`` or ``board``
    (the declaring side sweeps everything on the table, waiting bêtes included); None in a game
    scored in points, which has no pot (:attr:`game` says what the result is)."""
    bete: bool
    receive: tuple[str, ...]
    """Items each opponent pays the declaring side."""
    pay: tuple[str, ...]
    """Items the declaring side pays each opponent."""
    basis: Basis
    game: Game | None = None
    """What the result is for the declaring side (``won``, ``remise``: lost short of codille,
    ``codille``), given where there is no pot to say it (a game scored in points)."""
    name: str | None = None
    """The result's name as the rule set's players say it (the DLU's *bet*, *kruk*), for the
    rule book; None: its id."""


@dataclass(frozen=True, slots=True)
class Points:
    """The points one result scores under one contract (``settlement.points``), by role: each
    role named scores its amount (negative: loses it), a role not named scores nothing. The
    opponent who took the most tricks scores :attr:`opponents` and :attr:`codille_winner`."""

    contract: str
    result: str
    declarer: int
    partner: int
    opponents: int
    """What each opponent scores."""
    codille_winner: int
    """What the opponent with the most tricks scores besides (ties: the first from the
    declarer's right, as the pot of ``codille-winner`` goes)."""
    basis: Basis
    most_tricks: int = 0
    """What the seat with the most tricks scores, whichever seat it is, under a contract every
    seat plays (``all_play``; ties as its ``ties`` says)."""


@dataclass(frozen=True, slots=True)
class Penalty:
    """A fault scored in penalty points outside the deal's result (``settlement.penalties``):
    the offender loses :attr:`points`."""

    id: str
    name: str
    points: int
    basis: Basis


@dataclass(frozen=True, slots=True)
class HeldCards:
    """A payment for cards held, whatever the result (``settlement.held_cards``): each other
    player pays the holder of each of :attr:`cards` the :attr:`amount` (Hoyle's red aces)."""

    name: str
    cards: tuple[Card, ...]
    amount: int
    basis: Basis


@dataclass(frozen=True, slots=True)
class PartyRule:
    """A party (``party``): of :attr:`tours` tours (a deal by each player), its last tour paying
    :attr:`last_tour_factor` times the stake; or of :attr:`deals` deals; or played until a seat's
    score reaches :attr:`target`."""

    tours: int | None
    last_tour_factor: int
    basis: Basis
    deals: int | None = None
    target: int | None = None

    def length(self, players: int) -> int | None:
        """Returns the number of deals in a party (None: played to a target)."""
        if self.tours is not None:
            return self.tours * players
        return self.deals


@dataclass(frozen=True, slots=True)
class Misdeal:
    """A deal found wrong is void and dealt again (``laws.misdeal``)."""

    faults: tuple[str, ...]
    """The faults that void it: ``too-many``, ``too-few`` (cards), ``duplicate`` (two cards
    alike), ``faced`` (a card turned in the deal before the last), ``faced-last`` (the last card
    dealt turned). A law that lists ``faced`` without ``faced-last`` spares a faced last card."""
    redealt_by: str
    """Who deals again: ``same`` (the dealer who dealt wrong) or ``next``."""
    basis: Basis


@dataclass(frozen=True, slots=True)
class LawRule:
    """A law of the table with one setting (``laws.eleven_cards``, ``laws.revokes``)."""

    setting: str
    """``eleven_cards.penalty`` (``bete``) or ``revokes.several`` (``retake``, ``stand``)."""
    basis: Basis


@dataclass(frozen=True, slots=True)
class Claims:
    """Payment items claimed before the next dealer has finished dealing, or lost
    (``laws.claims_before_next_deal``)."""

    items: tuple[str, ...]
    basis: Basis


@dataclass(frozen=True, slots=True)
class Laws:
    """The laws of the table the rule file states (``laws``); None where it states none."""

    misdeal: Misdeal | None = None
    eleven_cards: LawRule | None = None
    revokes: LawRule | None = None
    claims: Claims | None = None


@dataclass(frozen=True, slots=True)
class PlayLaw:
    """One law of the play the rule file states (``laws.KEY``): its parameters and basis.

    ``remedies`` are what the adversaries may do (``call-card``, ``require-suit``,
    ``dictate``), ``exempt`` who the law does not bind (``alone``: the declarer of a contract
    without help; ``self-caller``), ``bars_vole`` whether the irregularity takes the vole from
    the offender's side, ``before_side_tricks`` the tricks the side must have before it may show
    its cards, ``contracts`` the contracts a law is about, ``leads`` the top trumps (by name)
    whose lead makes the called card's holder known, ``called_card`` whether leading the called
    card does too, ``bete`` how a bête is borne (``halves``)."""

    key: str
    basis: Basis
    remedies: tuple[str, ...] = ()
    exempt: tuple[str, ...] = ()
    bars_vole: bool = False
    before_side_tricks: int = 0
    contracts: tuple[str, ...] = ()
    leads: tuple[str, ...] = ()
    called_card: bool = False
    bete: str = ""


@dataclass(frozen=True, slots=True)
class PlayLaws:
    """The laws of the play a rule file states (``laws:``), each None where it states none."""

    exposed_card: PlayLaw | None = None
    out_of_turn: PlayLaw | None = None
    shown_cards: PlayLaw | None = None
    lay_down_unnamed: PlayLaw | None = None
    turned_hand: PlayLaw | None = None
    partner_known_no_vole: PlayLaw | None = None

    def any(self) -> bool:
        """Checks if the file states any law of the play."""
        return any(getattr(self, k) is not None for k in PLAY_LAW_KEYS)


PLAY_LAW_KEYS = (
    "exposed_card",
    "out_of_turn",
    "shown_cards",
    "lay_down_unnamed",
    "turned_hand",
    "partner_known_no_vole",
)
"""The keys of ``laws:`` that are laws of the play."""


@dataclass(frozen=True, slots=True)
class Tables:
    """The compiled form of a ruleset for one setup: small integer tables per trump suit.

    Cards are their indices (:mod:`engine.cards`, 0-51) and sets of cards are bit masks, so that following suit and
    winning a trick are a few look-ups. Index ``t`` is the trump suit's index (0-3), or
    :data:`NO_TRUMPS` (4) for a contract played without trumps.
    """

    deck: tuple[int, ...]
    deck_mask: int
    trump_suits: tuple[int, ...]
    """The suits that may be named trumps (the suits present in the deck)."""
    strength: tuple[tuple[int, ...], ...]
    """``strength[t][c]``: trumps 100+, plain cards their place within their suit."""
    follow: tuple[tuple[int, ...], ...]
    """``follow[t][c]``: the class a card belongs to for following: its suit, or 4 (trumps)."""
    class_mask: tuple[tuple[int, ...], ...]
    """``class_mask[t][k]``: the mask of every card of class ``k``."""
    exempt: tuple[tuple[int, ...], ...]
    """``exempt[t][c]``: for a trump ``c`` led, the privileged matadors that need not follow."""
    trump_order: tuple[tuple[int, ...], ...]
    """The trumps, highest first."""
    plain_order: tuple[tuple[tuple[int, ...], ...], ...]
    """``plain_order[t][s]``: the plain cards of suit ``s``, highest first."""
    paid_run: tuple[tuple[int, ...], ...]
    """``paid_run[t]``: the trumps from the first paid matador down, for counting matadors."""
    privileged: tuple[tuple[int, ...], ...]
    """``privileged[t]``: the privileged matadors in the deck."""
    rank_mask: tuple[int, ...]
    """``rank_mask[r]``: the mask of the cards of rank index ``r`` in the deck."""
    privileged_mask: tuple[int, ...] = ()
    """``privileged_mask[t]``: :attr:`privileged` as a mask."""
    follow_need: tuple[tuple[tuple[int, int], ...], ...] = ()
    """``follow_need[t][c]``: for a card ``c`` led, (the mask of every card of its follow
    class, the privileged matadors that need not follow it): a hand holding a card of the
    class that is not exempt must follow with one (:class:`engine.referee.tricks.TrickRules`).
    (0, 0) for a card not in the deck."""
    trick_strength: tuple[tuple[tuple[int, ...], ...], ...] = ()
    """``trick_strength[t][k][c]``: what card ``c`` counts for in a trick whose led card is of
    follow class ``k`` (:attr:`follow`): its :attr:`strength` if it is a trump or of class
    ``k``, else -1 (it cannot win). The trick's winner is the card that counts for most (no two
    cards that can win count alike: trumps count 100+, a suit's cards their place in it)."""


class DealerPlan(NamedTuple):
    """Who sits where in a deal dealt by one seat: compiled once per dealer
    (:attr:`Compiled.dealers`) for the referee to start a deal with."""

    eldest: int
    out: int | None
    """The seat that sits out (the dealer, where the rule file says so), else None."""
    playing: int
    """How many seats play."""
    queue: tuple[int, ...]
    """The speakers after the eldest, last first (popped from the end)."""
    next_seat: tuple[int, ...]
    """The seat on each seat's right among those who play."""
    plan: tuple[tuple[int, int, int], ...]
    """The packets of the deal in order, each as (seat, first card, end) of the shuffled pack:
    the first packet order listed, dealt to the right from the eldest."""


OutcomeItems = tuple[tuple[str, tuple[tuple[str, "Item"], ...]], ...]
"""The items of an outcome under a contract: ``(("receive", ((id, item), ...)), ("pay", ...))``."""


def opponents_of(n: int, declarer: int, partner: int | None) -> tuple[int, ...]:
    """Returns the seats of ``n`` not on the declaring side, from the declarer's right.

    >>> opponents_of(4, 1, 3)
    (2, 0)
    """
    side = (declarer, partner)
    return tuple(s for s in ((declarer + k) % n for k in range(1, n)) if s not in side)


def stakes_of(lines: tuple[tuple[str, int], ...], dealer: int, n: int) -> list[int]:
    """Returns what each of ``n`` seats puts on the table for stake lines ``(who, amount)``
    (``who`` is ``dealer`` or ``each``).

    >>> stakes_of((("dealer", 2), ("each", 1)), 1, 3)
    [1, 3, 1]
    """
    out = [0] * n
    for who, amount in lines:
        if who == "dealer":
            out[dealer] += amount
        else:
            for seat in range(n):
                out[seat] += amount
    return out


# The referee's derived answers, compiled once with the ruleset: the seating, the outcomes'
# kinds and the payment lines (the referee and its settlement answer with them; nothing
# memoises them elsewhere).


class PaymentKind(StrEnum):
    """What a payment line is: the settlement's own kinds, named once."""

    STAKE = "stake"
    """A seat's stake into the pot at the start of the deal."""
    POT = "pot"
    """The pot (what is at stake) taken by the side, the opponents or the codille's winner."""
    BOARD = "board"
    """Everything on the table, waiting bêtes included, swept by the side (a vole)."""
    ITEMS = "items"
    """Items of the rule file (jeu, consolation, matadors, vole ...) paid per opponent."""
    BETE = "bete"
    """The bête of a lost game, put into the pot."""
    RENONCE = "renonce"
    """The bête for a renonce noticed."""
    TURNED_HAND = "turned-hand"
    """The bête, by halves, for a hand turned up instead of the tricks (``laws.turned_hand``)."""
    FEE = "fee"
    """A fee paid during the deal (a demanded or a surrendered card)."""
    HELD = "held"
    """A payment for a card held (``settlement.held_cards``)."""
    ODD = "odd"
    """Odd counters kept from an earlier codille, to the holder of the highest trump."""
    POINTS = "points"
    """Points scored from the tariff (``settlement.points``): the score sheet pays the seat
    that scores them (:data:`SCORE` the payer), a seat that loses them pays the score sheet."""
    PENALTY = "penalty"
    """Penalty points for a fault (``settlement.penalties``), scored outside the deal's
    result: the offender pays them to the score sheet."""
    IRREGULARITY = "irregularity"
    """A bête made for an irregularity by a law of the table (``laws``): a card too many."""


FEE_DEMANDED = "fee for the demanded card"
FEE_SURRENDERED = "fee for the surrendered card"
ODD_COUNTERS = "odd counters (highest trump)"
RENONCE_BETE = "bête (renonce)"
TURNED_HAND_BETE = "bête (hand turned up)"
ELEVEN_BETE = "bête (a card too many)"
MISDEAL = "misdeal"
"""The result of a deal made void by a law of the table (:mod:`engine.referee.deal_laws`)."""


@dataclass(frozen=True, slots=True)
class Alone:
    """A declarer with a partner who bears the lost game alone, and why: he took fewer tricks
    himself than the rules' sole-liability threshold (``settlement.sharing``)."""

    declarer: int
    partner: int
    tricks: int
    """The tricks he took himself."""
    below: int
    """The threshold: with fewer tricks of his own he pays alone."""
    basis: Basis


class PaymentLine(NamedTuple):
    """What a payment is, whoever pays it (the settlement's :class:`Payment` without its payer,
    payee and amount), read by name."""

    label: str
    kind: PaymentKind
    items: tuple[str, ...]
    """The rule file's item ids the line pays (kind ``items``), or the stake lines it is."""
    bases: tuple[Basis, ...]
    alone: Alone | None
    """Set when the payer is a declarer who pays the lost game alone."""


class PaymentLines(NamedTuple):
    """The lines a ruleset's settlement writes, with their bases (:attr:`Compiled.payment_lines`)."""

    stake: PaymentLine
    redeal_stake: PaymentLine
    bete: PaymentLine
    renonce: PaymentLine
    odd: PaymentLine
    turned: PaymentLine
    fees: Mapping[str, PaymentLine]


def held_label(name: str, card: str) -> str:
    """Returns the label of the payment for a card held, e.g. ``The red aces (Ah)``."""
    return f"{name} ({card})"


class Game(StrEnum):
    """How the game went for the declaring side, as the rule file's outcome settles it (a game
    in points names it, ``settlement.outcomes.<id>.game``: one of the first three, the schema's
    list, which a test holds to these members)."""

    WON = "won"
    """No bête: the side won the game (a vole made or failed included)."""
    REMISE = "remise"
    """A bête, the pot staying on the table."""
    CODILLE = "codille"
    """A bête, the pot going to the opponents (or to the one who took codille)."""
    REDEAL = "redeal"
    """Nobody played: the deal was passed out."""


class Kind(StrEnum):
    """The outcome's kind: the game, told apart for the vole."""

    WON = "won"
    VOLE_MADE = "vole made"
    VOLE_FAILED = "failed vole"
    REMISE = "remise"
    CODILLE = "codille"
    REDEAL = "redeal"


@dataclass(frozen=True, slots=True)
class OutcomeKind:
    """What a result of the rule file is: the one answer every reader asks (never ``pot:`` or
    the result's name).

    The game is read off the outcome's settlement: a bête is a lost game, by remise when the pot
    stays and by codille when it goes to the opponents; no bête, a won game (a game scored in
    points, which has no pot, names it: ``game``). The vole is read
    off the results table: a result named only by rules for a vole made (failed) is one.
    """

    result: str
    kind: Kind
    game: Game
    vole: VoleWhen | None
    """The vole made or failed, None for a result that is about no vole."""
    pot: Pot | None
    """Where the pot goes (None for a redeal)."""
    bete: bool
    basis: Basis | None

    @property
    def won(self) -> bool:
        """Checks if the declaring side won the game."""
        return self.game is Game.WON

    @property
    def vole_made(self) -> bool:
        """Checks if the side made the vole."""
        return self.vole is VoleWhen.MADE


class LedTrick(Protocol):
    """A trick as seating reads it: its leader and its cards in play order
    (:class:`engine.referee.Trick`)."""

    @property
    def leader(self) -> int: ...

    @property
    def cards(self) -> tuple[Any, ...]: ...


@dataclass(frozen=True, slots=True)
class Seating:
    """The seats of one deal, by its dealer (the same for every deal he deals): compiled once
    with the ruleset (:attr:`Compiled.seatings`); the referee answers with it
    (:func:`engine.referee.seating`).

    Play goes to the right, from the eldest hand (the dealer's right). Where the rules have a
    seat sit the deal out (``players.sits_out``: the dealer, at a table of four), it is dealt
    nothing and never speaks or plays, but is an opponent in the settlement.
    """

    n: int
    """The seats at the table."""
    dealer: int
    eldest: int
    """The first to speak and to lead."""
    out: int | None
    """The seat that sits the deal out, None if every seat plays."""
    order: tuple[int, ...]
    """The seats that play, in turn from the eldest."""
    right: tuple[int, ...]
    """The seat that plays after each seat (its right-hand neighbour among those who play)."""

    @property
    def active(self) -> int:
        """Returns how many seats play."""
        return len(self.order)

    @property
    def next_dealer(self) -> int:
        """Returns the seat that deals next: the deal passes to the right."""
        return (self.dealer + 1) % self.n

    def in_turn(self, first: int) -> tuple[int, ...]:
        """Returns the seats that play, in turn from ``first`` (the seat out left out)."""
        i = self.order.index(first)
        return self.order[i:] + self.order[:i]

    def seat_of(self, trick: LedTrick | int, k: int) -> int:
        """Returns the seat that played the ``k``-th card (from 0) of a trick (or of the trick
        led by the seat ``trick``)."""
        seat = trick if isinstance(trick, int) else trick.leader
        right = self.right
        for _ in range(k):
            seat = right[seat]
        return seat

    def plays(self, trick: LedTrick) -> tuple[tuple[int, object], ...]:
        """Returns a finished trick's cards with the seat that played each, in play order."""
        seats = self.in_turn(trick.leader)
        return tuple(zip(seats, trick.cards, strict=False))

    def opponents(self, declarer: int, partner: int | None = None) -> tuple[int, ...]:
        """Returns the seats not on the declaring side, in turn from the declarer's right (the
        seat that sits out included: it pays and is paid as an opponent)."""
        return opponents_of(self.n, declarer, partner)

    def playing_opponents(self, declarer: int, partner: int | None = None) -> tuple[int, ...]:
        """Returns the opponents who play the deal (the seat that sits out left out)."""
        return tuple(s for s in self.opponents(declarer, partner) if s != self.out)

    def partners(self, declarer: int) -> tuple[int, ...]:
        """Returns the seats that may be the declarer's partner (whoever holds the card he
        calls): those who play, other than himself, in turn from his right."""
        return tuple(s for s in self.in_turn(declarer) if s != declarer)


@dataclass(frozen=True, eq=False)
class Compiled:
    """The tables the referee looks up in every deal, compiled once from a ruleset (part of
    the frozen value: :attr:`RuleSet.compiled`; never written after it is built)."""

    contract_names: Mapping[str, str]
    """Each contract's id and aliases, in the form :meth:`RuleSet.contract_id` looks up."""
    bids: Mapping[int, tuple[Action, ...]]
    """For the rank of the contract held (-1: none yet), pass and every higher biddable
    contract, lowest first; with none held yet, none that may not open the auction
    (``biddable_when: over-a-bid``)."""
    match: Mapping[str, tuple[Action, Action]]
    """For a contract held, what the holder may answer an overcall with: pass, or match it."""
    bids_need_cards: bool
    bids_suited: frozenset[str]
    """The contracts whose bid names the trump suit (``trump_with_bid``)."""
    """Some contract may be bid only by a player holding certain cards."""
    bids_reserved: frozenset[str]
    """The contracts bid only by the last to speak after all have passed (the contrabola)."""
    named_only_to_overcall: bool
    """Some contract may be named only when needed to overcall, on pain of refusal."""
    dealers: tuple[DealerPlan, ...]
    """The seating of a deal dealt by each seat."""
    opponents: Mapping[tuple[int, int | None], tuple[int, ...]]
    """For (declarer, partner or None), the seats not on his side (:func:`opponents_of`)."""
    outcome_items: Mapping[tuple[str, str], OutcomeItems]
    """For (result, contract), the items each opponent pays the side (``receive``) and the
    side pays each opponent (``pay``), in the rule file's order."""
    deal_stakes: Mapping[tuple[int, bool, int], tuple[int, ...]]
    """For (dealer, redeal, factor), what each seat stakes at the start of a deal; factor is
    1 and, where the rule file plays parties, its last tour's factor."""
    seatings: tuple[Seating, ...]
    """Who sits where in a deal dealt by each seat."""
    all_play_seatings: tuple[Seating, ...]
    """Who sits where in a deal dealt by each seat once every seat plays (a contract
    ``all_play`` taken up by the seat that sat out): nobody sits out, play goes to the right
    from the eldest."""
    bids_offered: frozenset[str]
    """The contracts offered to the seat that sits out when all who play have passed
    (``biddable_when: out-after-all-pass``): in no bid list of the auction."""
    outcome_kinds: Mapping[str, OutcomeKind]
    """The kind of every result the rules can give, ``redeal`` included."""
    payment_lines: PaymentLines
    """The payment lines a deal can write, each with its basis."""
    result_lines: dict[tuple[str | None, int, tuple[int, ...], int, bool], int] = field(
        default_factory=dict
    )
    """The line of the results table that holds for a way a deal ended, (contract, the side's
    tricks, each opponent's, tricks played, vole undertaken), by its index: filled as the
    referee asks, each answer read off the table by the one reading of it
    (:func:`engine.referee.result.match_result`), then kept (the only field written after the
    tables are built: a memo of a pure function of the rules)."""


def freeze(mapping: dict[str, Any]) -> Mapping[str, Any]:
    return MappingProxyType(mapping)


class FrozenDict(dict[str, Any]):
    """A read-only dict (still a dict, so JSON and equality work as for the document)."""

    def _refuse(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError("a ruleset is immutable")

    __setitem__ = __delitem__ = __ior__ = _refuse
    clear = pop = popitem = setdefault = update = _refuse

    def __reduce__(self) -> Any:
        return (FrozenDict, (dict(self),))

    def __copy__(self) -> FrozenDict:
        return self

    def __deepcopy__(self, memo: Any) -> FrozenDict:
        return self


class FrozenList(list[Any]):
    """A read-only list (still a list, so JSON and equality work as for the document)."""

    def _refuse(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError("a ruleset is immutable")

    __setitem__ = __delitem__ = __iadd__ = __imul__ = _refuse
    append = clear = extend = insert = pop = remove = reverse = sort = _refuse

    def __reduce__(self) -> Any:
        return (FrozenList, (list(self),))

    def __copy__(self) -> FrozenList:
        return self

    def __deepcopy__(self, memo: Any) -> FrozenList:
        return self


def deep_freeze(value: Any) -> Any:
    """Returns a read-only copy of a document tree: no nested value can be changed in place."""
    if isinstance(value, Mapping):
        return FrozenDict({k: deep_freeze(v) for k, v in value.items()})
    if isinstance(value, list | tuple):
        return FrozenList(deep_freeze(v) for v in value)
    return value


@dataclass(frozen=True, slots=True)
class Setup:
    """A ruleset's setup options resolved once: the choices (defaults filled in) and the
    compiled tables for them. :meth:`RuleSet.setup` returns one; the referee keeps it."""

    choices: Mapping[str, Suit]
    tables: Tables
    values: Mapping[str, str]
    """The choices as option id -> suit name."""

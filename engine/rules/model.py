"""The rule model: a frozen :class:`RuleSet` built from a resolved, validated rule file.

Every reader (referee, bots, documents, the command line) works from this model, never from raw
YAML. It knows mechanisms only: which cards are trumps and in what order, which contracts can be
bid, what must be followed, which results exist and who pays what. The per-trump integer tables
the referee runs on are compiled from it once (:meth:`RuleSet.tables`), and so are the tables
the referee looks up in every deal (:attr:`RuleSet.compiled`): both are part of the frozen value,
built by this module only.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property
from types import MappingProxyType
from typing import Any, NamedTuple, Protocol, TypeVar

from engine.actions import Action
from engine.cards import ALL_CARDS, PACK_SIZE, RANKS_PER_SUIT, Card, Colour, Rank, Suit, rank_of
from engine.enums import (
    Aim,
    AllPass,
    AllPlayTies,
    BeteCap,
    BeteGoing,
    BiddableWhen,
    CodilleRemainder,
    Defenders,
    EqualRank,
    Exchange,
    HeldBy,
    Help,
    Leader,
    OpenFrom,
    OptionKind,
    OutcomeGame,
    OwnCard,
    Pot,
    Renonce,
    Speech,
    TrumpNamedBy,
    Trumps,
    Visibility,
    VoleBy,
    VoleWhen,
)
from engine.rules.reader import Path_, Where, json_path, locate

POINT = "point"
"""The unit of a game scored in points from a tariff (``settlement.unit``)."""

__all__ = [
    "ELEVEN_BETE",
    "FEE_DEMANDED",
    "FEE_SURRENDERED",
    "MISDEAL",
    "NO_TRUMPS",
    "ODD_COUNTERS",
    "POINT",
    "RENONCE_BETE",
    "TURNED_HAND_BETE",
    "Alone",
    "Basis",
    "Call",
    "Cite",
    "Compiled",
    "Condition",
    "Contract",
    "DealerPlan",
    "DemandFee",
    "Game",
    "HeldCards",
    "Item",
    "Kind",
    "Laws",
    "LedTrick",
    "OnlyToOvercall",
    "Option",
    "OutcomeKind",
    "OutcomeRule",
    "PartyRule",
    "PaymentKind",
    "PaymentLine",
    "PaymentLines",
    "Penalty",
    "PlayLaw",
    "PlayLaws",
    "Points",
    "ResolvedDocument",
    "ResultRule",
    "RuleSet",
    "Seating",
    "Setup",
    "Tables",
    "TopTrump",
    "condition_of",
    "held_label",
    "opponents_of",
    "stakes_of",
]

_T = TypeVar("_T")

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
    requires_cards: tuple[str, ...] = ()
    """Cards a player must hold to bid it (the seed summary's Casco: both black aces)."""
    trump_from_talon: bool = False
    """Trumps are the suit of the first card turned from the talon (the Spanish *vuelta*)."""
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
    game: OutcomeGame | None = None
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
    cards: tuple[str, ...]
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


def _laws(laws: Mapping[str, Any], basis: Callable[..., Basis]) -> Laws:
    """The typed laws of the table from the file's ``laws`` mapping."""
    m = laws.get("misdeal")
    e = laws.get("eleven_cards")
    r = laws.get("revokes")
    c = laws.get("claims_before_next_deal")
    return Laws(
        misdeal=Misdeal(tuple(m["faults"]), m["redealt_by"], basis("laws", "misdeal"))
        if m
        else None,
        eleven_cards=LawRule(e["penalty"], basis("laws", "eleven_cards")) if e else None,
        revokes=LawRule(r["several"], basis("laws", "revokes")) if r else None,
        claims=Claims(tuple(c["items"]), basis("laws", "claims_before_next_deal")) if c else None,
    )


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


def _play_laws(d: Mapping[str, Any], basis: Any) -> PlayLaws:
    laws = d.get("laws") or {}
    out: dict[str, PlayLaw] = {}
    for key in PLAY_LAW_KEYS:
        law = laws.get(key)
        if law is None:
            continue
        remedy = law.get("remedy", ())
        out[key] = PlayLaw(
            key=key,
            basis=basis("laws", key),
            remedies=(remedy,) if isinstance(remedy, str) else tuple(remedy),
            exempt=tuple(law.get("exempt", ())),
            bars_vole=bool(law.get("bars_vole", False)),
            before_side_tricks=int(law.get("before_side_tricks", 0)),
            contracts=tuple(law.get("contracts", ())),
            leads=tuple(law.get("leads", ())),
            called_card=bool(law.get("called_card", False)),
            bete=str(law.get("bete", "")),
        )
    return PlayLaws(**out)


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


PaymentLine = tuple[str, PaymentKind, tuple[str, ...], tuple[Basis, ...], Alone | None]
"""What a payment is, whoever pays it: label, kind, item ids, bases, sole liability."""


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
    """How the game went for the declaring side, as the rule file's outcome settles it."""

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


def _freeze(mapping: dict[str, Any]) -> Mapping[str, Any]:
    return MappingProxyType(mapping)


class _FrozenDict(dict[str, Any]):
    """A read-only dict (still a dict, so JSON and equality work as for the document)."""

    def _refuse(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError("a ruleset is immutable")

    __setitem__ = __delitem__ = __ior__ = _refuse
    clear = pop = popitem = setdefault = update = _refuse

    def __reduce__(self) -> Any:
        return (_FrozenDict, (dict(self),))

    def __copy__(self) -> _FrozenDict:
        return self

    def __deepcopy__(self, memo: Any) -> _FrozenDict:
        return self


class _FrozenList(list[Any]):
    """A read-only list (still a list, so JSON and equality work as for the document)."""

    def _refuse(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError("a ruleset is immutable")

    __setitem__ = __delitem__ = __iadd__ = __imul__ = _refuse
    append = clear = extend = insert = pop = remove = reverse = sort = _refuse

    def __reduce__(self) -> Any:
        return (_FrozenList, (list(self),))

    def __copy__(self) -> _FrozenList:
        return self

    def __deepcopy__(self, memo: Any) -> _FrozenList:
        return self


def _deep_freeze(value: Any) -> Any:
    """Returns a read-only copy of a document tree: no nested value can be changed in place."""
    if isinstance(value, Mapping):
        return _FrozenDict({k: _deep_freeze(v) for k, v in value.items()})
    if isinstance(value, list | tuple):
        return _FrozenList(_deep_freeze(v) for v in value)
    return value


@dataclass(frozen=True, slots=True)
class Setup:
    """A ruleset's setup options resolved once: the choices (defaults filled in) and the
    compiled tables for them. :meth:`RuleSet.setup` returns one; the referee keeps it."""

    choices: Mapping[str, Suit]
    tables: Tables
    values: Mapping[str, str]
    """The choices as option id -> suit name."""


@dataclass(frozen=True, eq=False)
class RuleSet:
    """A resolved, validated ruleset or variant: the single source of truth for every reader.

    Build one with :func:`engine.load_ruleset`. It is immutable, down to the nested values of
    :attr:`data`; ``engine.referee.Deal(rules, ...)`` starts a deal under it.
    """

    id: str
    name: str
    kind: str
    """``ruleset`` (in ``rules/``), ``variant`` (in ``variants/``) or ``file`` (elsewhere)."""
    file: str
    extends: str | None
    chain: tuple[str, ...]
    aliases: tuple[str, ...]
    summary: str
    sources: Mapping[str, Mapping[str, Any]]
    players: int
    direction: str
    ranks: tuple[Rank, ...]
    suits: tuple[Suit, ...]
    removed: frozenset[Card]
    options: Mapping[str, Option]
    plain_black: tuple[Rank, ...]
    plain_red: tuple[Rank, ...]
    no_trumps_black: tuple[Rank, ...]
    """The order of a black suit, highest first, in a contract without trumps
    (``ranking.no_trumps``; the plain order where the file gives none)."""
    no_trumps_red: tuple[Rank, ...]
    top_trumps: tuple[TopTrump, ...]
    privileged: tuple[str, ...]
    higher_led_forces_lower: bool
    paid_from: str
    paid_minimum: int
    paid_held_by: HeldBy
    hand_size: int
    talon: int
    packets: tuple[tuple[int, ...], ...]
    cut_by: str | None
    """Who cuts, seen from the dealer (``left``, ``right``), where the file says."""
    contracts: Mapping[str, Contract]
    all_pass: AllPass
    all_pass_card: Card | None
    all_pass_contract: str | None
    all_pass_stakes: tuple[tuple[str, int], ...]
    call: Call | None
    demand: Call | None
    exchange_first_max: int | None
    exchange_leave_at_least: int
    exchange_leave_unless_matador: bool
    exchange_declarer_min: int
    """The declarer must take at least this many cards (``exchange.declarer_min``)."""
    exchange_besides_turned: bool
    """The duty to buy does not count the card turned from the talon (``besides_turned``)."""
    exchange_defenders: Defenders
    """``in-turn``, or ``either-first``: the first defender may ``defer`` to the other."""
    speech: Speech
    """``once-each``; ``round``: speech goes round until all but one have passed; or ``duel``:
    a hand overcalled answers before the next seat speaks, a pass being final."""
    equal_rank: EqualRank
    """A bid of the rank standing: ``refused``, ``earlier-holds`` (an earlier hand's, another
    contract than the one held), or ``earlier-holds-same`` (the very contract held too)."""
    raise_to: str | None
    """``higher``: after the auction the declarer may raise his contract (``auction.raise``)."""
    leader: Leader
    """Who leads the first trick: the ``eldest``, the ``declarer``, or the seat next in turn
    after the declarer (``after-declarer``)."""
    follow_suit: bool
    must_trump: bool
    must_overtake: bool
    renonce: Renonce
    """What a revoke does: ``refused``, or ``penalised`` (a ``renonce`` makes a bête)."""
    vole_after: int
    vole_requires_partner_seen: bool
    vole_by: VoleBy
    """``side``: only the declaring side goes on for the vole; ``any-seat``: so may a defender
    who took every trick so far, who then plays it as the declarer (the online Rocambor's
    "implied bola is not restricted to ombre") or lays down."""
    results: tuple[ResultRule, ...]
    unit: str
    fiche: int
    stakes: tuple[tuple[str, int], ...]
    items: Mapping[str, Item]
    outcomes: Mapping[str, OutcomeRule]
    split: str
    odd_counter: str
    sole_liability_below: int | None
    bete_amount: str
    bete_stake_value: int | None
    bete_cap: BeteCap
    bete_doubling_after_first_remise: bool
    bete_going: BeteGoing
    """Which waiting bêtes go into a deal: the largest (with those made with it), or all."""
    bete_growth: str
    """How a bête made while a bête is in play grows: ``in-play`` (as large as what is at
    stake), ``doubling`` (twice the bête in play) or ``step`` (the bête in play and
    :attr:`bete_step`)."""
    bete_step: int | None
    codille_remainder: CodilleRemainder
    codille_remainder_basis: Basis | None
    """The basis of :attr:`codille_remainder` where the file gives one of its own."""
    sits_out: str | None
    """Who sits out of each deal (``dealer``, or ``opposite-dealer``: the seat facing him), or
    None when every seat plays."""
    held_cards: tuple[HeldCards, ...]
    """Payments for cards held, whatever the result (``settlement.held_cards``)."""
    party: PartyRule | None
    """The party of some tours, its last tour paying more, where the file plays one."""
    play_laws: PlayLaws
    """The laws of the play the file states (``laws:``: an exposed card, play out of turn ...)."""
    points: Mapping[tuple[str, str], Points]
    """For (contract, result), the points scored (``settlement.points``); empty in a game
    settled in counters."""
    penalties: Mapping[str, Penalty]
    """The faults scored in penalty points (``settlement.penalties``)."""
    laws: Laws
    """The laws of the table (misdeals, a card too many, several revokes, late claims)."""
    data: Mapping[str, Any] = field(repr=False)
    """The resolved document (read-only view)."""
    where: Mapping[Path_, Where] = field(repr=False)
    """Provenance: the file, line and column that set each value."""
    overrides: tuple[tuple[Path_, Where], ...] = field(repr=False)
    """What this file itself changes relative to its parent (empty for a root ruleset)."""
    _setups: dict[Any, Any] = field(default_factory=dict, repr=False, compare=False)
    """The setups, their compiled tables and packs, each built once the first time it is asked
    for (written by this class's own methods only: setups are a finite set of choices)."""

    @property
    def amounts_unit(self) -> str:
        """Returns the unit of the amounts a deal settles, plural: ``points`` for a game scored
        from a tariff, else its counter (``jetons``). Amounts in different units are never
        added, subtracted or compared as numbers."""
        return "points" if self.in_points else f"{self.unit}s"

    @property
    def in_points(self) -> bool:
        """Checks if deals are scored in points from a tariff (``settlement.unit: point``),
        not settled in counters."""
        return self.unit == POINT

    @cached_property
    def compiled(self) -> Compiled:
        """The tables the referee looks up in every deal (built once, then read only)."""
        return _compile_tables(self)

    def plain(self, path: Path_ = ()) -> Any:
        """Returns a plain copy (dicts, lists and scalars, ready for JSON or YAML) of the
        resolved document at ``path`` (all of it by default; None where it has nothing).

        For the readers that are about the document itself rather than a rule: its hash in a
        record, ``ombre show --json``, the diff of two files, the starter's excerpts. A rule
        is read from the typed fields.
        """
        return _plain(self.value_at(path))

    def states(self, path: Path_) -> bool:
        """Checks if the rule file states a rule at ``path`` (a section, a setting), as a
        citation names it: what the rules of a phase are, for the table's help."""
        return self.value_at(path) is not None

    def setting(self, path: Path_) -> str | int | bool | None:
        """Returns the plain setting at ``path`` (a word, a number, a flag), ``""`` for a
        section that is there, or None where the file has nothing (the glossary's test of
        whether a game has the thing a term names)."""
        value = self.value_at(path)
        if value is None or isinstance(value, str | int | bool):
            return value
        return ""

    # Provenance and citations.

    def locate(self, path: Path_) -> Where:
        """Returns where the value at ``path`` (or its nearest ancestor) was set."""
        return locate(self.where, path, self.file)

    def basis_at(self, path: Path_) -> Basis:
        """Returns the basis (evidence and citations) nearest to ``path``."""
        p = tuple(path)
        while True:
            node = self.value_at(p)
            if isinstance(node, Mapping) and "basis" in node:
                # Located at its evidence label: a variant that restates a rule's basis sets
                # that, while the basis mapping itself may still be the parent's.
                return Basis.from_data(node["basis"], self.locate((*p, "basis", "evidence")))
            if not p:
                return Basis("conjecture", (), "no basis given", (self.file, None, None))
            p = p[:-1]

    def basis_of(self, path: Path_) -> Basis | None:
        """Returns the basis the file sets at exactly ``path`` (the path of a ``basis``,
        ``codille_remainder_basis`` or ``unit_basis`` mapping), located at its evidence label;
        None where there is none. For the readers of a citation's own rule (the concordance,
        the pages that compare two games)."""
        node = self.value_at(path)
        if not isinstance(node, Mapping) or "evidence" not in node:
            return None
        return Basis.from_data(node, self.locate((*path, "evidence")))

    def value_at(self, path: Path_) -> Any:
        """Returns the resolved value at ``path`` (None when absent)."""
        node: Any = self.data
        for part in path:
            if isinstance(node, Mapping):
                if part not in node:
                    return None
                node = node[part]
            elif isinstance(node, (list, tuple)) and isinstance(part, int) and part < len(node):
                node = node[part]
            else:
                return None
        return node

    def cite(self, path: Path_) -> str:
        """Returns a short citation for the rule at ``path``, e.g. ``enc-q, QUADRILLE (Jeu)``."""
        basis = self.basis_at(path)
        if not basis.cites:
            return f"{basis.evidence}, {json_path(path)}"
        first = basis.cites[0]
        return f"{first.source}, {first.locator}" + (
            "" if basis.evidence == "attested" else f"; {basis.evidence}"
        )

    # Setup.

    def resolve_options(self, given: Mapping[str, Any] | None = None) -> dict[str, Suit]:
        """Returns the setup options with defaults filled in.

        :raises NotationError: for an unknown option or a choice the ruleset does not offer.
        """
        from engine.errors import NotationError

        chosen: dict[str, Suit] = {k: o.default for k, o in self.options.items()}
        for key, value in (given or {}).items():
            option = self.options.get(str(key))
            if option is None:
                known = ", ".join(self.options) or "none"
                raise NotationError(f"{self.id} has no option {key!r} (options: {known})")
            suit = Suit.parse(str(value))
            if suit not in option.choices:
                choices = ", ".join(s.value for s in option.choices)
                raise NotationError(f"option {key} cannot be {suit.value} (choose {choices})")
            chosen[option.id] = suit
        return chosen

    def full_deck(self) -> tuple[Card, ...]:
        """Returns the pack the file's ``deck`` names (its ranks of its suits), in index order,
        before the setup options and ``remove`` take any card out."""
        return tuple(c for c in ALL_CARDS if c.rank in self.ranks and c.suit in self.suits)

    def deck(self, options: Mapping[str, Any] | None = None) -> tuple[Card, ...]:
        """Returns the cards in play for this setup, in index order (worked out once a setup,
        then kept)."""
        return self._kept("deck", options, lambda: self._deck(options))

    def _deck(self, options: Mapping[str, Any] | None) -> tuple[Card, ...]:
        chosen = self.resolve_options(options)
        gone_suits = {
            chosen[o.id] for o in self.options.values() if o.kind is OptionKind.REMOVE_SUIT
        }
        return tuple(
            c
            for c in ALL_CARDS
            if c.rank in self.ranks
            and c.suit in self.suits
            and c.suit not in gone_suits
            and c not in self.removed
        )

    def pack_description(self, options: Mapping[str, Any] | None = None) -> str:
        """Returns what this game's pack is, for messages: ``40 cards: A K Q J 7 6 5 4 3 2 of
        spades, clubs, hearts, diamonds`` (and what the setup takes out)."""
        return self._kept("pack", options, lambda: self._pack_description(options))

    def _pack_description(self, options: Mapping[str, Any] | None) -> str:
        chosen = self.resolve_options(options)
        gone = [
            chosen[o.id].value for o in self.options.values() if o.kind is OptionKind.REMOVE_SUIT
        ]
        text = (
            f"{len(self.deck(options))} cards: {' '.join(r.value for r in self.ranks)} of "
            + ", ".join(s.value for s in self.suits)
        )
        if gone:
            text += f", less the {' and '.join(gone)}"
        if self.removed:
            text += ", less " + " ".join(str(c) for c in sorted(self.removed, key=_index))
        return text

    def pack_card(self, card: Card | str, options: Mapping[str, Any] | None = None) -> Card:
        """Returns the card named, if it is in this game's pack for these options.

        >>> from engine import load_ruleset
        >>> load_ruleset("quadrille").pack_card("8s")
        Traceback (most recent call last):
        ...
        engine.errors.NotationError: 8s is not in this game's pack (Quadrille plays 40 cards: A K Q J 7 6 5 4 3 2 of spades, clubs, hearts, diamonds)

        :raises NotationError: if the text is not a card, or the card is not in the pack.
        """
        from engine.errors import NotationError

        found = card if isinstance(card, Card) else Card.parse(card)
        if found not in self._deck_set(options):
            raise NotationError(self.not_in_pack(found, options))
        return found

    def not_in_pack(self, card: Card, options: Mapping[str, Any] | None = None) -> str:
        """Returns the message that ``card`` is not in this game's pack."""
        return (
            f"{card} is not in this game's pack ({self.name} plays "
            f"{self.pack_description(options)})"
        )

    def _deck_set(self, options: Mapping[str, Any] | None) -> frozenset[Card]:
        return self._kept("deck-set", options, lambda: frozenset(self.deck(options)))

    def _kept(self, kind: str, options: Mapping[str, Any] | None, make: Callable[[], _T]) -> _T:
        """Returns ``make()``'s answer for this setup, worked out once for each ``kind`` and
        set of options, then kept with the setups."""
        key = (kind, tuple(sorted((str(k), str(v)) for k, v in (options or {}).items())))
        found: _T | None = self._setups.get(key)
        if found is None:
            found = self._setups[key] = make()
        return found

    def setup(self, options: Mapping[str, Any] | None = None) -> Setup:
        """Returns the setup for these options, resolved and compiled once (then cached).

        :raises NotationError: for an unknown option or a choice the ruleset does not offer.
        """
        key: Any = "setup"
        if options:
            key = ("setup", tuple(sorted((str(k), str(v)) for k, v in options.items())))
        cached: Setup | None = self._setups.get(key)
        if cached is None:
            chosen = self.resolve_options(options)
            values = _freeze({k: v.value for k, v in chosen.items()})
            cached = self._setups[key] = Setup(_freeze(dict(chosen)), self.tables(options), values)
        return cached

    def tables(self, options: Mapping[str, Any] | None = None) -> Tables:
        """Returns the compiled tables for this setup (compiled once, then cached)."""
        if not options and ("tables",) in self._setups:
            return self._setups[("tables",)]  # type: ignore[no-any-return]
        chosen = self.resolve_options(options)
        key = ("tables", *sorted((k, v.value) for k, v in chosen.items()))
        cached: Tables | None = self._setups.get(key)
        if cached is None:
            cached = self._compile(chosen)
            self._setups[key] = cached
            if not options:
                self._setups[("tables",)] = cached
        return cached

    # Card orders.

    def plain_ranks(self, suit: Suit) -> tuple[Rank, ...]:
        """Returns the plain order of a suit's ranks by its colour, highest first."""
        return self.plain_black if suit.colour is Colour.BLACK else self.plain_red

    def trump_order(self, trump: Suit, options: Mapping[str, Any] | None = None) -> list[Card]:
        """Returns every trump, highest first, when ``trump`` is the trump suit."""
        return self._trump_order(trump, frozenset(self.deck(options)))

    def _trump_order(self, trump: Suit, deck: frozenset[Card]) -> list[Card]:
        out: list[Card] = []
        for top in self.top_trumps:
            card = top.card_for(trump)
            if card is not None and card in deck and card not in out:
                out.append(card)
        for rank in self.plain_ranks(trump):
            card = Card(rank, trump)
            if card in deck and card not in out:
                out.append(card)
        return out

    def plain_order(
        self, suit: Suit, trump: Suit, options: Mapping[str, Any] | None = None
    ) -> list[Card]:
        """Returns the non-trump cards of ``suit``, highest first, when ``trump`` is trumps."""
        deck = frozenset(self.deck(options))
        return self._plain_order(suit, trump, deck, set(self._trump_order(trump, deck)))

    def _plain_order(
        self, suit: Suit, trump: Suit, deck: frozenset[Card], trumps: set[Card]
    ) -> list[Card]:
        if suit is trump:
            return []
        out = []
        for rank in self.plain_ranks(suit):
            card = Card(rank, suit)
            if card in deck and card not in trumps:
                out.append(card)
        return out

    def no_trumps_order(self, suit: Suit, options: Mapping[str, Any] | None = None) -> list[Card]:
        """Returns the cards of ``suit``, highest first, in a contract without trumps
        (``ranking.no_trumps``, else the plain order)."""
        return self._no_trumps_order(suit, frozenset(self.deck(options)))

    def _no_trumps_order(self, suit: Suit, deck: frozenset[Card]) -> list[Card]:
        ranks = self.no_trumps_black if suit.colour is Colour.BLACK else self.no_trumps_red
        return [c for c in (Card(r, suit) for r in ranks) if c in deck]

    def matador_names(self, trump: Suit) -> dict[Card, str]:
        """Returns the named top trumps for this trump suit, card -> name."""
        out: dict[Card, str] = {}
        for top in self.top_trumps:
            card = top.card_for(trump)
            if card is not None:
                out.setdefault(card, top.name)
        return out

    def _compile(self, chosen: Mapping[str, Suit]) -> Tables:
        options = {k: v.value for k, v in chosen.items()}
        deck = self.deck(options)
        deck_set = frozenset(deck)
        deck_idx = tuple(c.index for c in deck)
        deck_mask = 0
        for i in deck_idx:
            deck_mask |= 1 << i
        present = sorted({c.suit.index for c in deck})
        strength_t: list[tuple[int, ...]] = []
        follow_t: list[tuple[int, ...]] = []
        mask_t: list[tuple[int, ...]] = []
        exempt_t: list[tuple[int, ...]] = []
        order_t: list[tuple[int, ...]] = []
        plain_t: list[tuple[tuple[int, ...], ...]] = []
        paid_t: list[tuple[int, ...]] = []
        priv_t: list[tuple[int, ...]] = []
        by_name = {t.name: t for t in self.top_trumps}
        for suit in Suit:
            trumps = self._trump_order(suit, deck_set)
            trump_set = set(trumps)
            strength = [-1] * PACK_SIZE
            follow = [-1] * PACK_SIZE
            masks = [0] * 5
            for pos, card in enumerate(trumps):
                strength[card.index] = 100 + len(trumps) - pos
                follow[card.index] = 4
                masks[4] |= 1 << card.index
            plains: list[tuple[int, ...]] = []
            for s in Suit:
                order = self._plain_order(s, suit, deck_set, trump_set)
                plains.append(tuple(c.index for c in order))
                for pos, card in enumerate(order):
                    strength[card.index] = len(order) - pos
                    follow[card.index] = s.index
                    masks[s.index] |= 1 << card.index
            # Matadors' privilege: for each trump led, which privileged matadors held need not
            # be played to it. A matador is exempt from a lower trump led; a higher matador
            # led forces a lower one (ACAD PA10) unless the file says otherwise.
            privileged = []
            for name in self.privileged:
                top = by_name.get(name)
                held = top.card_for(suit) if top is not None else None
                if held is not None and held.index in deck_idx:
                    privileged.append(held.index)
            exempt = [0] * PACK_SIZE
            for card in trumps:
                led = card.index
                m = 0
                for p in privileged:
                    if p == led:
                        continue
                    if not self.higher_led_forces_lower or strength[p] > strength[led]:
                        m |= 1 << p
                exempt[led] = m
            names = self.matador_names(suit)
            start = next(
                (i for i, c in enumerate(trumps) if names.get(c) == self.paid_from), len(trumps)
            )
            paid_t.append(tuple(c.index for c in trumps[start:]))
            priv_t.append(tuple(privileged))
            strength_t.append(tuple(strength))
            follow_t.append(tuple(follow))
            mask_t.append(tuple(masks))
            exempt_t.append(tuple(exempt))
            order_t.append(tuple(c.index for c in trumps))
            plain_t.append(tuple(plains))
        # The fifth entry (NO_TRUMPS): a contract played without trumps. No card is a trump
        # and none is privileged; every card ranks in its suit by ranking.no_trumps.
        strength = [-1] * PACK_SIZE
        follow = [-1] * PACK_SIZE
        masks = [0] * 5
        plains = []
        for s in Suit:
            nt_order = self._no_trumps_order(s, deck_set)
            plains.append(tuple(c.index for c in nt_order))
            for pos, card in enumerate(nt_order):
                strength[card.index] = len(nt_order) - pos
                follow[card.index] = s.index
                masks[s.index] |= 1 << card.index
        strength_t.append(tuple(strength))
        follow_t.append(tuple(follow))
        mask_t.append(tuple(masks))
        exempt_t.append(tuple([0] * PACK_SIZE))
        order_t.append(())
        plain_t.append(tuple(plains))
        paid_t.append(())
        priv_t.append(())
        return Tables(
            deck=deck_idx,
            deck_mask=deck_mask,
            trump_suits=tuple(present),
            strength=tuple(strength_t),
            follow=tuple(follow_t),
            class_mask=tuple(mask_t),
            exempt=tuple(exempt_t),
            trump_order=tuple(order_t),
            plain_order=tuple(plain_t),
            paid_run=tuple(paid_t),
            privileged=tuple(priv_t),
            privileged_mask=tuple(sum(1 << c for c in cards) for cards in priv_t),
            follow_need=tuple(
                tuple(
                    (masks[follow[c]], exempt[c] if follow[c] == 4 else 0)
                    if follow[c] >= 0
                    else (0, 0)
                    for c in range(PACK_SIZE)
                )
                for follow, masks, exempt in zip(follow_t, mask_t, exempt_t, strict=True)
            ),
            trick_strength=tuple(
                tuple(
                    tuple(
                        strength[c] if follow[c] == 4 or follow[c] == k else -1
                        for c in range(PACK_SIZE)
                    )
                    for k in range(5)
                )
                for strength, follow in zip(strength_t, follow_t, strict=True)
            ),
            rank_mask=tuple(
                sum(1 << i for i in deck_idx if rank_of(i) == r) for r in range(RANKS_PER_SUIT)
            ),
        )

    def contract_id(self, name: str) -> str | None:
        """Returns the id of the contract called ``name`` (its id or one of its aliases, in any
        case, words joined by spaces or hyphens), or None.

        >>> from engine import load_ruleset
        >>> load_ruleset("quadrille").contract_id("Sans appeler")
        'sans-prendre'
        """
        key = "-".join(name.lower().replace("_", " ").replace("-", " ").split())
        return self.compiled.contract_names.get(key)

    def canonical(self, action: Action) -> Action:
        """Returns ``action`` with a contract alias replaced by the contract's id."""
        if action.verb != "bid" or action.contract is None or action.contract in self.contracts:
            return action
        cid = self.contract_id(action.contract)
        return action if cid is None else Action("bid", contract=cid)

    def is_biddable(self, contract: str) -> bool:
        """Checks if a contract can be bid (rather than imposed when all pass)."""
        c = self.contracts.get(contract)
        return c is not None and c.biddable


def _index(card: Card) -> int:
    return card.index


def _plain(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def _compile_tables(rules: RuleSet) -> Compiled:
    """Builds :attr:`RuleSet.compiled` (once per ruleset)."""
    names: dict[str, str] = {}
    for c in rules.contracts.values():
        for alias in (c.id, *c.aliases):
            names.setdefault("-".join(alias.lower().replace("-", " ").split()), c.id)
    by_rank = sorted(rules.contracts.values(), key=lambda c: c.rank)
    pass_ = Action("pass")
    bids = {
        floor: (
            pass_,
            *(Action("bid", contract=c.id) for c in by_rank if c.biddable and c.rank > floor),
        )
        for floor in sorted({-1, *(c.rank for c in by_rank)})
    }
    # A contract bid only over a standing bid (over-a-bid) is in no list of an open auction.
    bids[-1] = tuple(
        b
        for b in bids[-1]
        if b.contract is None
        or rules.contracts[b.contract].biddable_when is not BiddableWhen.OVER_A_BID
    )
    offered = frozenset(c.id for c in by_rank if c.biddable_when is BiddableWhen.OUT_AFTER_ALL_PASS)
    if offered:
        bids = {
            floor: tuple(b for b in line if b.contract not in offered)
            for floor, line in bids.items()
        }
    match = {c.id: (pass_, Action("bid", contract=c.id)) for c in by_rank}
    n = rules.players
    dealers = []
    for dealer in range(n):
        eldest = (dealer + 1) % n
        out = (
            dealer
            if rules.sits_out == "dealer"
            else (dealer + n // 2) % n
            if rules.sits_out == "opposite-dealer"
            else None
        )
        order = [(eldest + k) % n for k in range(n) if (eldest + k) % n != out]
        plan = []
        pos = 0
        for size in rules.packets[0]:
            for seat in order:
                plan.append((seat, pos, pos + size))
                pos += size
        dealers.append(
            DealerPlan(
                eldest,
                out,
                n - (out is not None),
                tuple(reversed(order[1:])),
                tuple((s + 2) % n if (s + 1) % n == out else (s + 1) % n for s in range(n)),
                tuple(plan),
            )
        )
    opponents = {
        (declarer, partner): opponents_of(n, declarer, partner)
        for declarer in range(n)
        for partner in (None, *(p for p in range(n) if p != declarer))
    }
    items: dict[tuple[str, str], OutcomeItems] = {}
    for result, outcome in rules.outcomes.items():
        for contract in rules.contracts:
            items[(result, contract)] = tuple(
                (
                    direction,
                    tuple(
                        (item_id, rules.items[item_id])
                        for item_id in ids
                        if rules.items[item_id].contracts is None
                        or contract in (rules.items[item_id].contracts or ())
                    ),
                )
                for direction, ids in (("receive", outcome.receive), ("pay", outcome.pay))
            )
    factors = sorted({1, rules.party.last_tour_factor if rules.party else 1})
    stakes: dict[tuple[int, bool, int], tuple[int, ...]] = {}
    for dealer in range(n):
        for redeal in (False, True):
            for factor in factors:
                lines = rules.all_pass_stakes if redeal else rules.stakes
                if factor != 1:
                    lines = tuple((w, a * factor if w == "dealer" else a) for w, a in lines)
                stakes[(dealer, redeal, factor)] = tuple(stakes_of(lines, dealer, n))
    return Compiled(
        contract_names=_freeze(names),
        bids=MappingProxyType(bids),
        match=_freeze(match),
        bids_need_cards=any(c.requires_cards for c in rules.contracts.values()),
        bids_reserved=frozenset(
            c.id
            for c in rules.contracts.values()
            if c.biddable_when is BiddableWhen.LAST_AFTER_ALL_PASS
        ),
        named_only_to_overcall=any(
            c.only_to_overcall is not None and c.only_to_overcall.penalty is None
            for c in rules.contracts.values()
        ),
        dealers=tuple(dealers),
        opponents=MappingProxyType(opponents),
        outcome_items=MappingProxyType(items),
        deal_stakes=MappingProxyType(stakes),
        seatings=tuple(
            Seating(
                rules.players,
                dealer,
                plan.eldest,
                plan.out,
                (plan.eldest, *reversed(plan.queue)),
                plan.next_seat,
            )
            for dealer, plan in enumerate(dealers)
        ),
        all_play_seatings=tuple(
            Seating(
                n,
                dealer,
                plan.eldest,
                None,
                tuple((plan.eldest + k) % n for k in range(n)),
                tuple((s + 1) % n for s in range(n)),
            )
            for dealer, plan in enumerate(dealers)
        ),
        bids_offered=offered,
        outcome_kinds=_outcome_kinds(rules),
        payment_lines=_payment_lines(rules),
    )


def _only_to_overcall(value: Any, basis: Any, cid: str) -> OnlyToOvercall | None:
    """The ``only_to_overcall`` of a contract: ``refused`` or ``{penalty: N}``."""
    if value is None:
        return None
    if value == "refused":
        return OnlyToOvercall(None, basis("auction", "contracts", cid))
    where = ("auction", "contracts", cid, "only_to_overcall")
    return OnlyToOvercall(
        str(value["penalty"]), basis(*where) if "basis" in value else basis(*where[:-1])
    )


def _stake_line(rules: RuleSet, redeal: bool) -> PaymentLine:
    if redeal:
        lines = rules.all_pass_stakes
        path: tuple[str | int, ...] = ("auction", "all_pass")
        bases = tuple(rules.basis_at((*path, "add_stakes", i)) for i in range(len(lines)))
    else:
        lines = rules.stakes
        bases = tuple(rules.basis_at(("settlement", "stakes", i)) for i in range(len(lines)))
    return ("stake", PaymentKind.STAKE, tuple(who for who, _ in lines), bases, None)


def _payment_lines(rules: RuleSet) -> PaymentLines:
    """The payment lines a deal under ``rules`` can write, each with its basis (compiled once
    with the ruleset)."""
    fees: dict[str, PaymentLine] = {}
    if rules.demand is not None and rules.demand.fee is not None:
        fees[FEE_DEMANDED] = (
            FEE_DEMANDED,
            PaymentKind.FEE,
            (),
            (rules.demand.fee.basis,),
            None,
        )
    if rules.call is not None and rules.call.surrender_fee is not None:
        basis = rules.basis_at(("declarations", "call", "surrender"))
        fees[FEE_SURRENDERED] = (FEE_SURRENDERED, PaymentKind.FEE, (), (basis,), None)
    for held in rules.held_cards:
        for text in held.cards:
            label = held_label(held.name, text)
            fees[label] = (label, PaymentKind.HELD, (), (held.basis,), None)
    odd = rules.codille_remainder_basis
    return PaymentLines(
        _stake_line(rules, False),
        _stake_line(rules, True),
        ("bête", PaymentKind.BETE, (), (rules.basis_at(("settlement", "bete")),), None),
        (RENONCE_BETE, PaymentKind.RENONCE, (), (rules.basis_at(("play", "renonce")),), None),
        (ODD_COUNTERS, PaymentKind.ODD, (), (odd,) if odd is not None else (), None),
        (
            TURNED_HAND_BETE,
            PaymentKind.TURNED_HAND,
            (),
            (rules.basis_at(("laws", "turned_hand")),),
            None,
        ),
        MappingProxyType(fees),
    )


def _outcome_kinds(rules: RuleSet) -> Mapping[str, OutcomeKind]:
    """The kind of every result the rules can give, ``redeal`` included."""
    voles: dict[str, set[VoleWhen | None]] = {}
    for rule in rules.results:
        voles.setdefault(rule.result, set()).add(rule.when.vole)
    kinds = {
        "redeal": OutcomeKind(
            "redeal",
            Kind.REDEAL,
            Game.REDEAL,
            None,
            None,
            False,
            rules.basis_at(("auction", "all_pass")),
        )
    }
    if rules.laws.misdeal is not None:
        # A deal made void by a law of the table, dealt again (by the same dealer or the next).
        kinds[MISDEAL] = OutcomeKind(
            MISDEAL, Kind.REDEAL, Game.REDEAL, None, None, False, rules.laws.misdeal.basis
        )
    for rid, o in rules.outcomes.items():
        named = voles.get(rid, {None})
        vole = next(iter(named)) if len(named) == 1 else None
        if o.game is not None:
            game = Game(o.game.value)  # a game in points says what its result is
        elif not o.bete:
            game = Game.WON
        elif o.pot is Pot.STAYS:
            game = Game.REMISE
        else:
            game = Game.CODILLE
        if vole is VoleWhen.MADE:
            kind = Kind.VOLE_MADE
        elif vole is VoleWhen.FAILED and game is Game.WON:
            kind = Kind.VOLE_FAILED
        else:
            kind = Kind(game.value)
        kinds[rid] = OutcomeKind(rid, kind, game, vole, o.pot, o.bete, o.basis)
    return MappingProxyType(kinds)


def _points_of(data: Mapping[str, Any], basis: Any) -> dict[tuple[str, str], Points]:
    """The tariff of ``settlement.points``: a number is the declarer's, a mapping by role."""
    found: dict[tuple[str, str], Points] = {}
    for cid, row in (data or {}).items():
        for rid, value in row.items():
            if rid == "basis":
                continue
            roles = {"declarer": value} if isinstance(value, int) else dict(value)
            found[(cid, rid)] = Points(
                contract=cid,
                result=rid,
                declarer=int(roles.get("declarer", 0)),
                partner=int(roles.get("partner", 0)),
                opponents=int(roles.get("opponents", 0)),
                codille_winner=int(roles.get("codille_winner", 0)),
                basis=basis("settlement", "points", cid),
                most_tricks=int(roles.get("most_tricks", 0)),
            )
    return found


class ResolvedDocument(Protocol):
    """A rule file resolved and validated, as the model is built from it
    (:class:`engine.rules.loader.Resolved`)."""

    @property
    def data(self) -> Mapping[str, Any]:
        """The document after ``extends:`` is merged."""

    @property
    def kind(self) -> str: ...

    @property
    def file(self) -> str: ...

    @property
    def chain(self) -> Sequence[str]: ...

    @property
    def where(self) -> Mapping[Path_, Where]: ...

    @property
    def overrides(self) -> Sequence[tuple[Path_, Where]]: ...

    def locate(self, path: Path_) -> Where:
        """Returns where the value at ``path`` (or its nearest ancestor) was set."""


def build_ruleset(resolved: ResolvedDocument) -> RuleSet:
    """Builds the frozen model from a resolved, validated document (see :mod:`engine.rules.loader`)."""
    d: dict[str, Any] = dict(resolved.data)

    def where(*path: str | int) -> Where:
        return resolved.locate(path)

    def basis(*path: str | int) -> Basis:
        node: Any = d
        for part in path:
            node = node[part]
        return Basis.from_data(node.get("basis"), where(*path, "basis"))

    ranks = tuple(Rank(r) for r in d["deck"]["ranks"])
    suits = tuple(Suit(s) for s in d["deck"]["suits"])
    options = {
        k: Option(
            k,
            v["name"],
            OptionKind(v["kind"]),
            tuple(Suit(s) for s in v["choices"]),
            Suit(v["default"]),
            basis("options", k),
        )
        for k, v in (d.get("options") or {}).items()
    }
    tops = []
    for i, t in enumerate(d["ranking"]["trumps"]["top"]):
        tops.append(
            TopTrump(
                name=t["name"],
                card=Card.parse(t["card"]) if "card" in t else None,
                rank={Colour(c): Rank(r) for c, r in (t.get("rank") or {}).items()},
                matador=bool(t["matador"]),
                basis=basis("ranking", "trumps", "top", i),
            )
        )
    contracts = {}
    for cid, c in d["auction"]["contracts"].items():
        contracts[cid] = Contract(
            id=cid,
            name=c["name"],
            rank=int(c["rank"]),
            biddable=bool(c["biddable"]),
            help=Help(c["help"]),
            matchable=bool(c.get("matchable", False)),
            vole_allowed=bool(c.get("vole_allowed", True)),
            shared_liability=bool(c.get("shared_liability", False)),
            exchange=Exchange(c.get("exchange", "none")),
            trump_option=c.get("trump_option"),
            trump_not_option=c.get("trump_not_option"),
            basis=basis("auction", "contracts", cid),
            aliases=tuple(c.get("aliases", [])),
            announces_vole=bool(c.get("announces_vole", False)),
            trump_named_by=TrumpNamedBy(c.get("trump_named_by", "declarer")),
            requires_cards=tuple(c.get("requires_cards", ())),
            trump_from_talon=bool(c.get("trump_from_talon", False)),
            trumps=Trumps(c.get("trumps", "named")),
            aim=Aim(c.get("aim", "tricks")),
            open=OpenFrom(c["open"]) if c.get("open") else None,
            biddable_when=BiddableWhen(c.get("biddable_when", "always")),
            all_play=AllPlay(int(c["all_play"]["draw"]), AllPlayTies(c["all_play"]["ties"]))
            if c.get("all_play")
            else None,
            trump_suit=Suit(c["trump_suit"]) if c.get("trump_suit") else None,
            bid_as=c.get("bid_as"),
            only_to_overcall=_only_to_overcall(c.get("only_to_overcall"), basis, cid),
            instead_of=c.get("instead_of"),
            declarer_may_play=tuple(c.get("declarer_may_play", ())),
            exchange_min=(c.get("exchange_limits") or {}).get("declarer_min"),
            exchange_max=(c.get("exchange_limits") or {}).get("declarer_max"),
        )

    def call(key: str) -> Call | None:
        c = d["declarations"].get(key)
        if c is None:
            return None
        fee = c.get("fee")
        return Call(
            rank=Rank(c["rank"]),
            trump_suit_allowed=bool(c["trump_suit_allowed"]),
            own_card=OwnCard(c["own_card"]),
            all_held_fallback=Rank(c["all_held_fallback"]) if c.get("all_held_fallback") else None,
            given_card_visible=Visibility(c.get("given_card_visible", "private")),
            fee=DemandFee(
                amount=int(fee["amount"]),
                favourite_option=fee.get("favourite_option"),
                favourite_amount=fee.get("favourite_amount"),
                basis=basis("declarations", key, "fee"),
            )
            if fee
            else None,
            basis=basis("declarations", key),
            surrender_fee=int(c["surrender"]["fee"]) if c.get("surrender") else None,
        )

    results = []
    for i, r in enumerate(d["results"]["rules"]):
        results.append(
            ResultRule(
                result=r["result"],
                when=condition_of(r["when"]),
                basis=basis("results", "rules", i),
            )
        )
    s = d["settlement"]
    in_points = s["unit"] == POINT
    items = {
        k: Item(
            id=k,
            name=v["name"],
            amount=v.get("amount"),
            per_matador=v.get("per_matador"),
            in_play=bool(v.get("in_play", False)),
            single_stake_only=bool(v.get("single_stake_only", False)),
            by_contract=_freeze(dict(v.get("by_contract") or {})),
            contracts=tuple(v["contracts"]) if "contracts" in v else None,
            basis=basis("settlement", "items", k),
            favourite_option=v.get("favourite_option"),
            favourite_amount=v.get("favourite_amount"),
        )
        for k, v in (s.get("items") or {}).items()
    }
    outcomes = {
        k: OutcomeRule(
            id=k,
            # A game in points has no pot, bête or items: what it inherits of them is not read.
            pot=Pot(v["pot"]) if "pot" in v and not in_points else None,
            bete=bool(v.get("bete", False)) and not in_points,
            receive=() if in_points else tuple(v.get("receive", [])),
            pay=() if in_points else tuple(v.get("pay", [])),
            basis=basis("settlement", "outcomes", k),
            game=OutcomeGame(v["game"]) if "game" in v else None,
            name=v.get("name"),
        )
        for k, v in s["outcomes"].items()
    }
    ap = d["auction"]["all_pass"]
    ex = d.get("exchange") or {}
    bete = s.get("bete") or {"amount": "in-play"}
    sharing = s.get("sharing") or {"split": "halves", "odd_counter": {"to": "declarer"}}
    growth = bete.get("growth", "in-play")
    return RuleSet(
        id=d["id"],
        name=d["name"],
        kind=resolved.kind,
        file=resolved.file,
        extends=d.get("extends"),
        chain=tuple(resolved.chain),
        aliases=tuple(d.get("aliases", [])),
        summary=d["summary"],
        sources=_freeze({k: _freeze(dict(v)) for k, v in d["sources"].items()}),
        players=int(d["players"]["count"]),
        direction=d["players"]["direction"],
        ranks=ranks,
        suits=suits,
        removed=frozenset(Card.parse(c) for c in d["deck"].get("remove", [])),
        options=_freeze(options),
        plain_black=tuple(Rank(r) for r in d["ranking"]["plain"]["black"]),
        plain_red=tuple(Rank(r) for r in d["ranking"]["plain"]["red"]),
        no_trumps_black=tuple(
            Rank(r) for r in (d["ranking"].get("no_trumps") or d["ranking"]["plain"])["black"]
        ),
        no_trumps_red=tuple(
            Rank(r) for r in (d["ranking"].get("no_trumps") or d["ranking"]["plain"])["red"]
        ),
        top_trumps=tuple(tops),
        privileged=tuple(d["matadors"]["privilege"]["cards"]),
        higher_led_forces_lower=bool(d["matadors"]["privilege"]["higher_led_forces_lower"]),
        paid_from=d["matadors"]["payment"]["from"],
        paid_minimum=int(d["matadors"]["payment"]["minimum"]),
        paid_held_by=HeldBy(d["matadors"]["payment"]["held_by"]),
        hand_size=int(d["deal"]["hand_size"]),
        talon=int(d["deal"]["talon"]),
        packets=tuple(tuple(p) for p in d["deal"]["packets"]),
        cut_by=d["deal"]["cut"]["by"] if d["deal"].get("cut") else None,
        contracts=_freeze(contracts),
        all_pass=AllPass(ap["action"]),
        all_pass_card=Card.parse(ap["card"]) if ap.get("card") else None,
        all_pass_contract=ap.get("contract"),
        all_pass_stakes=()
        if in_points
        else tuple((x["who"], int(x["amount"])) for x in ap.get("add_stakes", [])),
        call=call("call"),
        demand=call("demand"),
        exchange_first_max=ex.get("first_max"),
        exchange_leave_at_least=int(ex.get("leave_at_least", 0)),
        exchange_leave_unless_matador=bool(ex.get("leave_unless_matador", False)),
        exchange_declarer_min=int(ex.get("declarer_min", 0)),
        exchange_besides_turned=bool(ex.get("besides_turned", False)),
        exchange_defenders=Defenders(ex.get("defenders", "in-turn")),
        speech=Speech(d["auction"]["speech"]),
        equal_rank=EqualRank(d["auction"].get("equal_rank", "refused")),
        raise_to=(d["auction"].get("raise") or {}).get("to"),
        leader=Leader(d["play"]["leader"]),
        follow_suit=bool(d["play"]["follow_suit"]),
        must_trump=bool(d["play"]["must_trump"]),
        must_overtake=bool(d["play"]["must_overtake"]),
        renonce=Renonce((d["play"].get("renonce") or {}).get("action", "refused")),
        vole_after=int(d["vole"]["after_tricks"]),
        vole_requires_partner_seen=bool(d["vole"].get("requires_partner_seen", False)),
        vole_by=VoleBy(d["vole"].get("by", "side")),
        results=tuple(results),
        unit=s["unit"],
        fiche=int(s.get("fiche", 1)),
        stakes=()
        if in_points
        else tuple((x["who"], int(x["amount"])) for x in s.get("stakes", ())),
        items=_freeze({} if in_points else items),
        outcomes=_freeze(outcomes),
        split=sharing["split"],
        odd_counter=sharing["odd_counter"]["to"],
        sole_liability_below=sharing.get("sole_liability_below"),
        bete_amount=bete["amount"],
        bete_stake_value=bete.get("stake_value"),
        bete_cap=BeteCap(bete.get("cap_over_bete_in_play", "none")),
        bete_doubling_after_first_remise=bool(bete.get("doubling_after_first_remise", False)),
        bete_going=BeteGoing(bete.get("going", "all")),
        bete_growth="step" if isinstance(growth, Mapping) else str(growth),
        bete_step=int(growth["step"]) if isinstance(growth, Mapping) else None,
        codille_remainder=CodilleRemainder(s.get("codille_remainder", "stays")),
        codille_remainder_basis=Basis.from_data(
            s["codille_remainder_basis"], where("settlement", "codille_remainder_basis")
        )
        if s.get("codille_remainder_basis") is not None
        else None,
        sits_out=d["players"].get("sits_out"),
        held_cards=tuple(
            HeldCards(
                name=h["name"],
                cards=tuple(h["cards"]),
                amount=int(h["amount"]),
                basis=basis("settlement", "held_cards", i),
            )
            for i, h in enumerate(s.get("held_cards") or ())
        ),
        party=PartyRule(
            tours=int(d["party"]["tours"]) if "tours" in d["party"] else None,
            last_tour_factor=int(d["party"].get("last_tour_factor", 1)),
            basis=basis("party"),
            deals=int(d["party"]["deals"]) if "deals" in d["party"] else None,
            target=int(d["party"]["target"]) if "target" in d["party"] else None,
        )
        if d.get("party")
        else None,
        play_laws=_play_laws(d, basis),
        points=MappingProxyType(_points_of(s.get("points") or {}, basis)),
        penalties=_freeze(
            {
                k: Penalty(k, v["name"], int(v["points"]), basis("settlement", "penalties", k))
                for k, v in (s.get("penalties") or {}).items()
            }
        ),
        laws=_laws(d.get("laws") or {}, basis),
        data=_deep_freeze(d),
        where=MappingProxyType(dict(resolved.where)),
        overrides=tuple(resolved.overrides),
    )

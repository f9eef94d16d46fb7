"""The :class:`RuleSet`: a resolved, validated rule file as one frozen value, with the
queries every reader asks of it (provenance and citations, setups, card orders, contracts).

The derived answers the referee looks up in every deal (seating, bids, outcome kinds,
payment lines) are compiled once with the ruleset (:attr:`RuleSet.compiled`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from itertools import product
from types import MappingProxyType
from typing import Any, NamedTuple

from engine.actions import Action
from engine.cards import ALL_CARDS, PACK_SIZE, RANKS_PER_SUIT, Card, Colour, Rank, Suit, rank_of
from engine.enums import (
    AllPass,
    BeteCap,
    BeteGoing,
    BiddableWhen,
    CodilleRemainder,
    Defenders,
    EqualRank,
    HeldBy,
    Leader,
    OptionKind,
    Pot,
    Renonce,
    Speech,
    VoleBy,
    VoleWhen,
)
from engine.rules.reader import Path_, Where, json_path, locate
from engine.rules.values import (
    FEE_DEMANDED,
    FEE_SURRENDERED,
    MISDEAL,
    ODD_COUNTERS,
    POINT,
    RENONCE_BETE,
    TURNED_HAND_BETE,
    Basis,
    Call,
    Compiled,
    Contract,
    DealerPlan,
    Game,
    HeldCards,
    Item,
    Kind,
    Laws,
    Option,
    OutcomeItems,
    OutcomeKind,
    OutcomeRule,
    PartyRule,
    PaymentKind,
    PaymentLine,
    PaymentLines,
    Penalty,
    PlayLaws,
    Points,
    ResultRule,
    Seating,
    Setup,
    Tables,
    TopTrump,
    freeze,
    held_label,
    opponents_of,
    stakes_of,
)

SetupKey = tuple[tuple[str, str], ...]
"""A setup's options as given, (option, choice) pairs in order (:attr:`RuleSet.setups`)."""


def setup_key(options: Mapping[str, Any] | None) -> SetupKey:
    """Returns the key of a setup named by ``options`` (option id -> suit name)."""
    return tuple(sorted((str(k), str(v)) for k, v in (options or {}).items()))


@dataclass(frozen=True, slots=True)
class PreparedSetup:
    """A setup prepared with its ruleset: the resolved choices and tables, the pack it plays
    (in index order and as a set) and the pack's description for messages."""

    setup: Setup
    deck: tuple[Card, ...]
    cards: frozenset[Card]
    pack: str


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
    compiled: Compiled = field(init=False, repr=False, compare=False)
    """The tables the referee looks up in every deal, compiled when the ruleset is made."""
    setups: Mapping[SetupKey, PreparedSetup] = field(init=False, repr=False, compare=False)
    """Every setup the options allow, prepared when the ruleset is made (setups are a finite
    set of choices), by every way of naming it: its options as given (``{}`` for the
    defaults), as (option, suit name) pairs in order."""

    def __post_init__(self) -> None:
        # Complete when made: the derived answers and every setup are compiled here, never
        # filled in later.
        object.__setattr__(self, "compiled", _compile_tables(self))
        object.__setattr__(self, "setups", MappingProxyType(self._prepare_setups()))

    def _prepare_setups(self) -> dict[SetupKey, PreparedSetup]:
        ids = tuple(self.options)
        found: dict[SetupKey, PreparedSetup] = {}
        for combo in product(*(o.choices for o in self.options.values())):
            chosen = dict(zip(ids, combo, strict=True))
            prepared = self._prepare(chosen)
            found[setup_key({k: v.value for k, v in chosen.items()})] = prepared
        # The same setups named by some of their options, the others left to their defaults.
        for named in product(*((None, *o.choices) for o in self.options.values())):
            given = {k: v.value for k, v in zip(ids, named, strict=True) if v is not None}
            named_all = {**{k: o.default.value for k, o in self.options.items()}, **given}
            found.setdefault(setup_key(given), found[setup_key(named_all)])
        return found

    def _prepare(self, chosen: Mapping[str, Suit]) -> PreparedSetup:
        deck = self._deck(chosen)
        values = freeze({k: v.value for k, v in chosen.items()})
        tables = self._compile(chosen, deck)
        setup = Setup(freeze(dict(chosen)), tables, values)
        return PreparedSetup(setup, deck, frozenset(deck), self._pack_description(chosen, deck))

    def prepared(self, options: Mapping[str, Any] | None = None) -> PreparedSetup:
        """Returns the setup for these options, prepared when the ruleset was made.

        :raises NotationError: for an unknown option or a choice the ruleset does not offer.
        """
        found = self.setups.get(setup_key(options))
        if found is None:
            chosen = self.resolve_options(options)
            found = self.setups[setup_key({k: v.value for k, v in chosen.items()})]
        return found

    @property
    def amounts_unit(self) -> str:
        """Returns the unit of the amounts a deal settles, plural: ``points`` for a game scored
        from a tariff, else its counter (``jetons``). Amounts in different units are never
        added, subtracted or compared as numbers."""
        return "points" if self.in_points else f"{self.unit}s"

    @property
    def vole_possible(self) -> bool:
        """Checks if some contract may go on for the vole (``vole_allowed``): where none may,
        the vole is not told."""
        return any(c.vole_allowed for c in self.contracts.values())

    @property
    def pays_matadors(self) -> bool:
        """Checks if a payment item is paid per matador held (``per_matador``): where none is
        (a game scored in points from a tariff, say), the matadors held are not told."""
        return any(item.per_matador is not None for item in self.items.values())

    @property
    def in_points(self) -> bool:
        """Checks if deals are scored in points from a tariff (``settlement.unit: point``),
        not settled in counters."""
        return self.unit == POINT

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
        return self.prepared(options).deck

    def _deck(self, chosen: Mapping[str, Suit]) -> tuple[Card, ...]:
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
        return self.prepared(options).pack

    def _pack_description(self, chosen: Mapping[str, Suit], deck: tuple[Card, ...]) -> str:
        gone = [
            chosen[o.id].value for o in self.options.values() if o.kind is OptionKind.REMOVE_SUIT
        ]
        text = f"{len(deck)} cards: {' '.join(r.value for r in self.ranks)} of " + ", ".join(
            s.value for s in self.suits
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
        if found not in self.prepared(options).cards:
            raise NotationError(self.not_in_pack(found, options))
        return found

    def not_in_pack(self, card: Card, options: Mapping[str, Any] | None = None) -> str:
        """Returns the message that ``card`` is not in this game's pack."""
        return (
            f"{card} is not in this game's pack ({self.name} plays "
            f"{self.pack_description(options)})"
        )

    def setup(self, options: Mapping[str, Any] | None = None) -> Setup:
        """Returns the setup for these options, resolved and compiled with the ruleset.

        :raises NotationError: for an unknown option or a choice the ruleset does not offer.
        """
        return self.prepared(options).setup

    def tables(self, options: Mapping[str, Any] | None = None) -> Tables:
        """Returns the compiled tables for this setup (compiled with the ruleset)."""
        return self.prepared(options).setup.tables

    # Card orders.

    def plain_ranks(self, suit: Suit) -> tuple[Rank, ...]:
        """Returns the plain order of a suit's ranks by its colour, highest first."""
        return self.plain_black if suit.colour is Colour.BLACK else self.plain_red

    def trump_order(self, trump: Suit, options: Mapping[str, Any] | None = None) -> list[Card]:
        """Returns every trump, highest first, when ``trump`` is the trump suit."""
        return self._trump_order(trump, self.prepared(options).cards)

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
        deck = self.prepared(options).cards
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
        return self._no_trumps_order(suit, self.prepared(options).cards)

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

    def _compile(self, chosen: Mapping[str, Suit], deck: tuple[Card, ...]) -> Tables:
        deck_set = frozenset(deck)
        deck_idx = tuple(c.index for c in deck)
        deck_mask = 0
        for i in deck_idx:
            deck_mask |= 1 << i
        present = sorted({c.suit.index for c in deck})
        by_name = {t.name: t for t in self.top_trumps}
        entries = [self._trump_entry(suit, deck_set, deck_idx, by_name) for suit in Suit]
        entries.append(self._no_trumps_entry(deck_set))
        return _tables_of(deck_idx, deck_mask, present, entries)

    def _trump_entry(
        self,
        suit: Suit,
        deck_set: frozenset[Card],
        deck_idx: tuple[int, ...],
        by_name: Mapping[str, TopTrump],
    ) -> _SuitEntry:
        """Returns the tables of one trump suit: every card's strength and follow class, the
        class masks, the plain orders, the matadors' privilege and the run of paid matadors."""
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
        privileged, exempt = self._privilege(suit, trumps, strength, deck_idx, by_name)
        names = self.matador_names(suit)
        start = next(
            (i for i, c in enumerate(trumps) if names.get(c) == self.paid_from), len(trumps)
        )
        return _SuitEntry(
            strength=tuple(strength),
            follow=tuple(follow),
            masks=tuple(masks),
            exempt=tuple(exempt),
            order=tuple(c.index for c in trumps),
            plains=tuple(plains),
            paid=tuple(c.index for c in trumps[start:]),
            privileged=tuple(privileged),
        )

    def _privilege(
        self,
        suit: Suit,
        trumps: list[Card],
        strength: list[int],
        deck_idx: tuple[int, ...],
        by_name: Mapping[str, TopTrump],
    ) -> tuple[list[int], list[int]]:
        """Returns the privileged matadors in the deck when ``suit`` is trumps, and for each
        trump led the mask of those held that need not be played to it."""
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
        return privileged, exempt

    def _no_trumps_entry(self, deck_set: frozenset[Card]) -> _SuitEntry:
        """Returns the tables of the fifth entry (:data:`NO_TRUMPS`), a contract played
        without trumps."""
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
        return _SuitEntry(
            strength=tuple(strength),
            follow=tuple(follow),
            masks=tuple(masks),
            exempt=tuple([0] * PACK_SIZE),
            order=(),
            plains=tuple(plains),
            paid=(),
            privileged=(),
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
        if action.verb != "bid" or action.contract is None:
            return action
        if action.contract in self.contracts and (
            action.suit is None or self.contracts[action.contract].trump_with_bid
        ):
            return action
        cid = self.contract_id(action.contract)
        if action.suit is not None and (cid is None or not self.contracts[cid].trump_with_bid):
            # A contract whose name ends with a suit's name (``bid solo hearts`` naming a
            # contract ``solo-hearts``), rather than a bid that names its suit.
            whole = self.contract_id(f"{action.contract}-{action.suit.value}")
            if whole is not None:
                return Action("bid", contract=whole)
        return action if cid is None else Action("bid", contract=cid, suit=action.suit)

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


def _contract_names(rules: RuleSet) -> dict[str, str]:
    """Each contract's id and aliases, as :meth:`RuleSet.contract_id` looks them up."""
    names: dict[str, str] = {}
    for c in rules.contracts.values():
        for alias in (c.id, *c.aliases):
            names.setdefault("-".join(alias.lower().replace("-", " ").split()), c.id)
    return names


def _bids(rules: RuleSet, offered: frozenset[str]) -> dict[int, tuple[Action, ...]]:
    """For the rank of the contract held (-1: none yet), pass and every higher biddable
    contract, lowest first (:attr:`Compiled.bids`)."""
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
    if offered:
        bids = {
            floor: tuple(b for b in line if b.contract not in offered)
            for floor, line in bids.items()
        }
    return bids


def _dealer_plan(rules: RuleSet, dealer: int) -> DealerPlan:
    """The seating and the packets of a deal dealt by ``dealer``."""
    n = rules.players
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
    return DealerPlan(
        eldest,
        out,
        n - (out is not None),
        tuple(reversed(order[1:])),
        tuple((s + 2) % n if (s + 1) % n == out else (s + 1) % n for s in range(n)),
        tuple(plan),
    )


def _outcome_items(rules: RuleSet) -> dict[tuple[str, str], OutcomeItems]:
    """For (result, contract), the items received and paid (:attr:`Compiled.outcome_items`)."""
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
    return items


def _deal_stakes(rules: RuleSet) -> dict[tuple[int, bool, int], tuple[int, ...]]:
    """For (dealer, redeal, factor), what each seat stakes (:attr:`Compiled.deal_stakes`)."""
    n = rules.players
    factors = sorted({1, rules.party.last_tour_factor if rules.party else 1})
    stakes: dict[tuple[int, bool, int], tuple[int, ...]] = {}
    for dealer in range(n):
        for redeal in (False, True):
            for factor in factors:
                lines = rules.all_pass_stakes if redeal else rules.stakes
                if factor != 1:
                    lines = tuple((w, a * factor if w == "dealer" else a) for w, a in lines)
                stakes[(dealer, redeal, factor)] = tuple(stakes_of(lines, dealer, n))
    return stakes


class _SuitEntry(NamedTuple):
    """One entry of a setup's tables (a trump suit, or :data:`NO_TRUMPS`), before
    :func:`_tables_of` gathers the entries into :class:`Tables`."""

    strength: tuple[int, ...]
    follow: tuple[int, ...]
    masks: tuple[int, ...]
    exempt: tuple[int, ...]
    order: tuple[int, ...]
    plains: tuple[tuple[int, ...], ...]
    paid: tuple[int, ...]
    privileged: tuple[int, ...]


def _tables_of(
    deck_idx: tuple[int, ...], deck_mask: int, present: list[int], entries: list[_SuitEntry]
) -> Tables:
    """Gathers the entries of a setup into its :class:`Tables`, with the lookups derived
    from them (privileged masks, what following needs, every card's strength in a trick)."""
    strength_t = [e.strength for e in entries]
    follow_t = [e.follow for e in entries]
    mask_t = [e.masks for e in entries]
    exempt_t = [e.exempt for e in entries]
    priv_t = [e.privileged for e in entries]
    return Tables(
        deck=deck_idx,
        deck_mask=deck_mask,
        trump_suits=tuple(present),
        strength=tuple(strength_t),
        follow=tuple(follow_t),
        class_mask=tuple(mask_t),
        exempt=tuple(exempt_t),
        trump_order=tuple(e.order for e in entries),
        plain_order=tuple(e.plains for e in entries),
        paid_run=tuple(e.paid for e in entries),
        privileged=tuple(priv_t),
        privileged_mask=tuple(sum(1 << c for c in cards) for cards in priv_t),
        follow_need=tuple(
            tuple(
                (masks[follow[c]], exempt[c] if follow[c] == 4 else 0) if follow[c] >= 0 else (0, 0)
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


def _compile_tables(rules: RuleSet) -> Compiled:
    """Builds :attr:`RuleSet.compiled` (once per ruleset)."""
    names = _contract_names(rules)
    by_rank = sorted(rules.contracts.values(), key=lambda c: c.rank)
    pass_ = Action("pass")
    offered = frozenset(c.id for c in by_rank if c.biddable_when is BiddableWhen.OUT_AFTER_ALL_PASS)
    bids = _bids(rules, offered)
    match = {c.id: (pass_, Action("bid", contract=c.id)) for c in by_rank}
    n = rules.players
    dealers = [_dealer_plan(rules, dealer) for dealer in range(n)]
    opponents = {
        (declarer, partner): opponents_of(n, declarer, partner)
        for declarer in range(n)
        for partner in (None, *(p for p in range(n) if p != declarer))
    }
    items = _outcome_items(rules)
    stakes = _deal_stakes(rules)
    return Compiled(
        contract_names=freeze(names),
        bids=MappingProxyType(bids),
        match=freeze(match),
        bids_need_cards=any(c.requires_cards for c in rules.contracts.values()),
        bids_suited=frozenset(c.id for c in rules.contracts.values() if c.trump_with_bid),
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


def _stake_line(rules: RuleSet, redeal: bool) -> PaymentLine:
    if redeal:
        lines = rules.all_pass_stakes
        path: tuple[str | int, ...] = ("auction", "all_pass")
        bases = tuple(rules.basis_at((*path, "add_stakes", i)) for i in range(len(lines)))
    else:
        lines = rules.stakes
        bases = tuple(rules.basis_at(("settlement", "stakes", i)) for i in range(len(lines)))
    return PaymentLine("stake", PaymentKind.STAKE, tuple(who for who, _ in lines), bases, None)


def _payment_lines(rules: RuleSet) -> PaymentLines:
    """The payment lines a deal under ``rules`` can write, each with its basis (compiled once
    with the ruleset)."""
    fees: dict[str, PaymentLine] = {}
    if rules.demand is not None and rules.demand.fee is not None:
        fees[FEE_DEMANDED] = PaymentLine(
            FEE_DEMANDED,
            PaymentKind.FEE,
            (),
            (rules.demand.fee.basis,),
            None,
        )
    if rules.call is not None and rules.call.surrender_fee is not None:
        basis = rules.basis_at(("declarations", "call", "surrender"))
        fees[FEE_SURRENDERED] = PaymentLine(FEE_SURRENDERED, PaymentKind.FEE, (), (basis,), None)
    for held in rules.held_cards:
        for card in held.cards:
            label = held_label(held.name, str(card))
            fees[label] = PaymentLine(label, PaymentKind.HELD, (), (held.basis,), None)
    odd = rules.codille_remainder_basis
    return PaymentLines(
        _stake_line(rules, False),
        _stake_line(rules, True),
        PaymentLine("bête", PaymentKind.BETE, (), (rules.basis_at(("settlement", "bete")),), None),
        PaymentLine(
            RENONCE_BETE, PaymentKind.RENONCE, (), (rules.basis_at(("play", "renonce")),), None
        ),
        PaymentLine(ODD_COUNTERS, PaymentKind.ODD, (), (odd,) if odd is not None else (), None),
        PaymentLine(
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
            game = o.game  # a game in points says what its result is
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

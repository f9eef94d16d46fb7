"""The OpenSpiel game's numbers, without OpenSpiel: action ids, the deal's chance slots, bounds.

Every decision of the referee is one action id, laid out per ruleset (``C`` its contracts, in
the rule file's order; ``P`` = 52 card indices, :data:`engine.cards.PACK_SIZE`):

=============  =========================================================================
id             decision
=============  =========================================================================
0              ``pass``
1              ``vole`` (undertake the vole)
2              ``stop`` (lay down)
3              end of an écart: draw from the talon as many as were discarded (``discard``)
4 … 4+C-1      ``bid CONTRACT``
+4             ``trump SUIT`` (spades, clubs, hearts, diamonds)
+P             ``call CARD``
+P             ``give CARD``
+P             one card of an écart (``discard`` decomposed: one card at a time, then 4)
+P             ``play CARD``
+1             ``defer`` (only under ``exchange.defenders: either-first``)
+4 per …       ``bid CONTRACT SUIT``, for each contract whose bid names its trump suit
               (``trump_with_bid``), in the rule file's order: its four suits
=============  =========================================================================

A multi-card écart is a run of single-card decisions, lowest card index first, closed by
action 3; each is offered only if the referee accepts the écart it starts
(:meth:`engine.referee.Deal.legal_actions`), and the whole is applied through
:meth:`engine.referee.Deal.apply`, checked. Chance outcomes are card indices: the deal is
dealt card by card into the slots of the referee's deal plan (each seat's packets, then the
talon), so a chance history is a shuffled pack.

Revokes are not offered: under a file that penalises them (``renonce CARD``, ``notice``) a
revoke may be made, pointed out and taken back any number of times ("autant de fois", the
Encyclopédie), while an OpenSpiel game must end within a bound; the players play honestly, as
the workbench's bots do (:func:`engine.bots.base.honest`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from engine.actions import CALL, DEFER, GIVE, PASS, PLAY, STOP, TRUMP, VOLE, Action
from engine.cards import ALL_CARDS, PACK_SIZE, RANKS_PER_SUIT, SUITS_IN_PACK, Suit
from engine.referee.settlement import stakes_for
from engine.referee.state import PHASES
from engine.rules.model import RuleSet

__all__ = ["Codec", "cards_of", "parse_options"]

PASS_ID, VOLE_ID, STOP_ID, DRAW_ID = range(4)
_FIXED = 4


# The card indices (or ids ``base + card``) of each suit's bits of a mask (RANKS_PER_SUIT bits
# a suit), lowest first, so that the ids of a mask's plays are four look-ups. Each entry
# extends the entry without its lowest card.
def _suit_cards(suit: int, base: int = 0) -> tuple[tuple[int, ...], ...]:
    first = base + suit * RANKS_PER_SUIT
    table: list[tuple[int, ...]] = [()]
    for bits in range(1, 1 << RANKS_PER_SUIT):
        low = (bits & -bits).bit_length() - 1
        table.append((first + low, *table[bits & (bits - 1)]))
    return tuple(table)


_PLAY_IDS: dict[int, tuple[tuple[tuple[int, ...], ...], ...]] = {}


def _play_id_tables(base: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """Returns, per suit, the ids ``base + card`` of each suit's bits of a mask (made once per
    base: rulesets with as many contracts share them)."""
    tables = _PLAY_IDS.get(base)
    if tables is None:
        tables = _PLAY_IDS[base] = tuple(_suit_cards(s, base) for s in range(SUITS_IN_PACK))
    return tables


_SUIT_BITS = (1 << RANKS_PER_SUIT) - 1
_S1, _S2, _S3 = RANKS_PER_SUIT, 2 * RANKS_PER_SUIT, 3 * RANKS_PER_SUIT


_CARDS = _play_id_tables(0)


def cards_of(mask: int) -> list[int]:
    """Returns the card indices of a mask, lowest first: four look-ups, one per suit."""
    t0, t1, t2, t3 = _CARDS
    m = _SUIT_BITS
    return [*t0[mask & m], *t1[mask >> _S1 & m], *t2[mask >> _S2 & m], *t3[mask >> _S3]]


def parse_options(text: str) -> dict[str, str]:
    """Parses the game's ``options`` parameter: ``key:value`` pairs joined by ``;`` (OpenSpiel's
    game strings keep ``=`` and ``,`` for themselves), e.g. ``removed-suit:hearts``.

    >>> parse_options("removed-suit:hearts; favourite-suit:clubs")
    {'removed-suit': 'hearts', 'favourite-suit': 'clubs'}

    :raises ValueError: for a pair without a ``:``.
    """
    out: dict[str, str] = {}
    for part in text.split(";"):
        part = part.strip()
        if not part:
            continue
        key, sep, value = part.partition(":")
        if not sep or not key.strip() or not value.strip():
            raise ValueError(f"options: {part!r} is not KEY:VALUE (pairs joined by ';')")
        out[key.strip()] = value.strip()
    return out


@dataclass(eq=False)
class Codec:
    """A ruleset's action ids, chance slots and bounds for one setup and dealer."""

    rules: RuleSet
    options: Mapping[str, str]
    dealer: int
    contracts: tuple[str, ...] = field(init=False)
    slots: tuple[int, ...] = field(init=False)
    """The seat each position of the shuffled pack goes to (-1: the talon)."""
    deck: tuple[int, ...] = field(init=False)
    deck_mask: int = field(init=False)
    """The pack's cards, a mask."""
    # The layout's bases, worked out once (the ids are read on every move).
    trump_base: int = field(init=False)
    call_base: int = field(init=False)
    give_base: int = field(init=False)
    pick_base: int = field(init=False)
    play_base: int = field(init=False)
    defer_id: int = field(init=False)
    """The id of ``defer``, where a defender may exchange second (else beyond the layout)."""
    suited_base: int = field(init=False)
    """The first id of the bids that name their trump suit (``bid CONTRACT SUIT``)."""
    num_actions: int = field(init=False)

    def __post_init__(self) -> None:
        rules = self.rules
        setup = rules.setup(self.options or None)
        self.deck = tuple(sorted(setup.tables.deck))
        self.deck_mask = sum(1 << c for c in self.deck)
        self.contracts = tuple(rules.contracts)
        self.defers = rules.exchange_defenders == "either-first"
        self._bid = {c: _FIXED + i for i, c in enumerate(self.contracts)}
        slots = [-1] * len(self.deck)
        for seat, start, end in rules.compiled.dealers[self.dealer].plan:
            for pos in range(start, end):
                slots[pos] = seat
        self.slots = tuple(slots)
        self.trump_base = _FIXED + len(self.contracts)
        self.call_base = self.trump_base + 4
        self.give_base = self.call_base + PACK_SIZE
        self.pick_base = self.give_base + PACK_SIZE
        self.play_base = self.pick_base + PACK_SIZE
        self.defer_id = self.play_base + PACK_SIZE
        self.suited_base = self.play_base + PACK_SIZE + (1 if self.defers else 0)
        suited = [c for c in self.contracts if rules.contracts[c].trump_with_bid]
        self._suited = {c: self.suited_base + 4 * i for i, c in enumerate(suited)}
        self.num_actions = self.suited_base + 4 * len(suited)
        # Every id's decision, looked up (decode); the bids built once.
        decoded: list[Action | int | None] = [PASS, VOLE, STOP, None]
        decoded += [Action("bid", contract=c) for c in self.contracts]
        decoded += TRUMP
        decoded += CALL
        decoded += GIVE
        decoded += range(PACK_SIZE)  # an écart's card: its index
        decoded += PLAY
        if self.defers:
            decoded.append(DEFER)
        decoded += [Action("bid", contract=c, suit=s) for c in suited for s in Suit]
        self._decoded: tuple[Action | int | None, ...] = tuple(decoded)
        self._play_ids = _play_id_tables(self.play_base)

    # The ids.

    def encode(self, action: Action) -> int:
        """Returns the id of a (single-decision) action of the referee."""
        action_id = self.decision_id(action)
        if action_id is None:
            raise ValueError(f"{action} is not a decision of the game (an écart is decomposed)")
        return action_id

    def decision_id(self, action: Action) -> int | None:
        """Returns the id of a (single-decision) action of the referee, None for a move that is
        no decision of the game (the écart whole, a renonce, a law of the table)."""
        verb = action.verb
        if verb == "play":
            return self.play_base + action.cards[0].index
        if verb == "pass":
            return PASS_ID
        if verb == "bid":
            assert action.contract is not None
            if action.suit is not None:
                return self._suited[action.contract] + action.suit.index
            return self._bid[action.contract]
        if verb == "trump":
            assert action.suit is not None
            return self.trump_base + action.suit.index
        if verb == "call":
            return self.call_base + action.cards[0].index
        if verb == "give":
            return self.give_base + action.cards[0].index
        if verb == "vole":
            return VOLE_ID
        if verb == "stop":
            return STOP_ID
        if verb == "defer" and self.defers:
            return self.defer_id
        return None

    def plays(self, mask: int) -> list[int]:
        """Returns the ids of ``play CARD`` for the cards of a mask, in card order (the
        ascending order of the ids): four look-ups in tables of ids, one per suit."""
        t0, t1, t2, t3 = self._play_ids
        m = _SUIT_BITS
        return [*t0[mask & m], *t1[mask >> _S1 & m], *t2[mask >> _S2 & m], *t3[mask >> _S3]]

    def decode(self, action_id: int) -> Action | int | None:
        """Returns the referee's action for an id; for an écart's card, the card index; for the
        écart's end, None.

        :raises ValueError: for an id outside the layout.
        """
        if not 0 <= action_id < self.num_actions:
            raise ValueError(f"action {action_id} is not an action of this game")
        return self._decoded[action_id]

    def describe(self, action_id: int) -> str:
        """Returns an action id in the record notation (an écart's card: ``discard CARD``)."""
        decoded = self.decode(action_id)
        if decoded is None:
            return "draw"
        if isinstance(decoded, int):
            return f"discard {ALL_CARDS[decoded]}"
        return str(decoded)

    # Bounds.

    def max_decisions(self) -> int:
        """An upper bound on the players' decisions in one deal, chance nodes not counted
        (OpenSpiel's ``MaxGameLength``): the auction's bound, the declarations (trump, call,
        vole, stop, give: 8 at most), the exchange (one decision per card taken from the
        talon, and each seat's draw or defer) and one card per seat per trick."""
        r = self.rules
        n = r.players
        auction = self.auction_length()
        declarations = 8
        exchange = r.talon + n
        play = r.hand_size * n
        return auction + declarations + exchange + play + 4

    def chance_nodes(self) -> int:
        """The chance nodes of one deal (OpenSpiel's ``MaxChanceNodesInHistory``): one per card
        of the pack, dealt into the deal plan's slots."""
        return len(self.deck)

    def auction_length(self) -> int:
        """An upper bound on the auction's length: each bid outbids or matches the last, and
        every seat passes at most once between two bids."""
        n = self.rules.players
        return 2 * n * (len(self.contracts) + 1)

    def utility_bound(self) -> int:
        """A bound on what one seat can win or lose in one deal on an empty table, worked from
        the rule file's amounts: every item paid by (or to) every other seat at the largest
        amount any contract gives it (matadors at the whole trump suit), every stake of the
        table twice over (the pot and a bête of its size), the demand and surrender fees, and
        the last tour's multiplier. Not the tightest bound: a safe one."""
        r = self.rules
        n = r.players
        items = 0
        for item in r.items.values():
            amounts = [item.amount or 0, *item.by_contract.values()]
            if item.per_matador is not None:
                amounts.append(item.per_matador * len(r.full_deck()))
            items += max(abs(a) for a in amounts)
        stakes = max(sum(stakes_for(r, d, n, r.stakes)) for d in range(n))
        stakes = max(stakes, max(sum(stakes_for(r, d, n, r.all_pass_stakes)) for d in range(n)))
        fees = 0
        for call in (r.call, r.demand):
            if call is not None:
                if call.fee is not None:
                    fees += max(call.fee.amount, call.fee.favourite_amount or 0)
                fees += call.surrender_fee or 0
        factor = r.party.last_tour_factor if r.party is not None else 1
        bete = r.bete_stake_value or 1
        # A game in points: the largest a tariff row scores a seat, and a fault for every bid
        # a seat can make in one auction (each bid outranks the last).
        points = max(
            (
                abs(p.declarer)
                + abs(p.partner)
                + abs(p.opponents)
                + abs(p.codille_winner)
                + abs(p.most_tricks)
                for p in r.points.values()
            ),
            default=0,
        )
        faults = max((f.points for f in r.penalties.values()), default=0) * (
            len(self.contracts) + 1
        )
        return factor * ((n - 1) * (items + fees) + 2 * (bete + 1) * (stakes + 1)) + points + faults

    # Tensors.

    def phase_index(self, phase: str) -> int:
        return PHASES.index(phase)

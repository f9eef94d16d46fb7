"""The referee: one deal in progress, from the deal to the settlement, driven by a RuleSet.

A :class:`Deal` is the mutable state of one hand (OpenSpiel's State; the :class:`RuleSet` is
its Game). It knows mechanisms only -- speech in turn with precedence and "forced" matching,
an imposed declarer when all pass, naming trumps, calling or demanding a card, the écart with
a talon, trick play with follow-suit and the matadors' privilege, the vole, results and
settlement -- and the rule file says which a game uses.

* :meth:`Deal.legal_actions` is the only place that knows what is legal.
* :meth:`Deal.apply` is the checked front door: it refuses an illegal action with an
  :class:`IllegalActionError` carrying a stable code and the rule broken, with its source.
* :meth:`Deal.view` is what one seat may see.

Cards are handled as 0-39 indices and hands as bit masks (see :class:`engine.model.Tables`).
"""

from __future__ import annotations

import random
import struct
from collections.abc import Iterator, Mapping, Sequence
from collections.abc import Sequence as SequenceABC
from dataclasses import dataclass
from itertools import combinations
from math import comb
from typing import Any, overload

from engine.actions import CALL, GIVE, PASS, PLAY, STOP, TRUMP, VOLE, Action
from engine.cards import ALL_CARDS, Card, Suit
from engine.errors import IllegalActionError, NotationError
from engine.model import Contract, RuleSet
from engine.settlement import SettlementResult, TableState, settle, stakes_for

__all__ = ["PHASES", "Deal", "Trick", "evaluate_result"]

AUCTION = "auction"
MATCH = "match"
TRUMP_PHASE = "trump"
CALL_PHASE = "call"
GIVE_PHASE = "give"
EXCHANGE = "exchange"
PLAY_PHASE = "play"
VOLE_PHASE = "vole"
OVER = "over"
PHASES = (
    AUCTION,
    MATCH,
    TRUMP_PHASE,
    CALL_PHASE,
    GIVE_PHASE,
    EXCHANGE,
    PLAY_PHASE,
    VOLE_PHASE,
    OVER,
)

_EXPECTED = {
    AUCTION: "pass or bid",
    MATCH: "pass or bid (take the overcall yourself)",
    TRUMP_PHASE: "trump SUIT",
    CALL_PHASE: "call CARD",
    GIVE_PHASE: "give CARD",
    EXCHANGE: "discard CARD ... (or discard alone)",
    PLAY_PHASE: "play CARD",
    VOLE_PHASE: "vole or stop",
    OVER: "nothing: the deal is over",
}
_VERB_PHASES = {
    "pass": (AUCTION, MATCH),
    "bid": (AUCTION, MATCH),
    "trump": (TRUMP_PHASE,),
    "call": (CALL_PHASE,),
    "give": (GIVE_PHASE,),
    "discard": (EXCHANGE,),
    "play": (PLAY_PHASE,),
    "vole": (VOLE_PHASE,),
    "stop": (VOLE_PHASE,),
}


def _bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


# The play actions of each byte of a 40-bit hand mask, so a legal list is five look-ups.
_PLAY_BYTES: tuple[tuple[tuple[Action, ...], ...], ...] = tuple(
    tuple(
        tuple(PLAY[8 * b + i] for i in range(8) if byte >> i & 1 and 8 * b + i < 40)
        for byte in range(256)
    )
    for b in range(5)
)


def _mask(cards: Sequence[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


class _Discards(SequenceABC[Action]):
    """Every legal écart, as a lazy sequence: the discards of 0 to ``most`` cards of a hand.

    There can be hundreds (2**9 for a hand of nine), so they are made only when asked for,
    like python-chess's legal-move view: ``len``, indexing (by combinatorial unranking, in
    order of size then of card), iteration and ``in`` all work without building the list.
    """

    def __init__(self, cards: list[int], most: int) -> None:
        self.cards = cards
        self.most = most
        self.sizes = [comb(len(cards), k) for k in range(most + 1)]

    def __len__(self) -> int:
        return sum(self.sizes)

    @overload
    def __getitem__(self, index: int) -> Action: ...
    @overload
    def __getitem__(self, index: slice) -> list[Action]: ...
    def __getitem__(self, index: int | slice) -> Action | list[Action]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        k = 0
        while index >= self.sizes[k]:
            index -= self.sizes[k]
            k += 1
        # Unrank the index-th k-combination of the cards in lexicographic order.
        chosen: list[int] = []
        n = len(self.cards)
        start = 0
        for left in range(k, 0, -1):
            for i in range(start, n):
                count = comb(n - i - 1, left - 1)
                if index < count:
                    chosen.append(self.cards[i])
                    start = i + 1
                    break
                index -= count
        return Action("discard", cards=tuple(ALL_CARDS[c] for c in chosen))

    def __iter__(self) -> Iterator[Action]:
        for k in range(self.most + 1):
            for combo in combinations(self.cards, k):
                yield Action("discard", cards=tuple(ALL_CARDS[c] for c in combo))

    def __contains__(self, action: object) -> bool:
        if not isinstance(action, Action) or action.verb != "discard":
            return False
        held = set(self.cards)
        chosen = [c.index for c in action.cards]
        return len(chosen) <= self.most and len(set(chosen)) == len(chosen) and set(chosen) <= held


@dataclass(frozen=True, slots=True)
class Trick:
    """A finished trick: its leader, the cards in play order from him, and its winner."""

    leader: int
    cards: tuple[Card, ...]
    winner: int

    def as_json(self) -> dict[str, Any]:
        """Returns the trick as in the ``ombre replay --json`` output."""
        return {"leader": self.leader, "cards": [str(c) for c in self.cards], "winner": self.winner}


class Deal:
    """One deal under a ruleset: create it, then ``apply`` actions until ``is_over``.

    :param rules: the ruleset.
    :param dealer: the dealer's seat; the eldest hand is ``(dealer + 1) % n``.
    :param seed: deal with the referee's own seeded shuffle (deterministic on any machine).
    :param hands: or give each seat's cards (seat 0 first) ...
    :param talon: ... and the talon, top card first.
    :param options: setup options the ruleset declares (e.g. ``{"removed-suit": "hearts"}``).
    :param table: what lies on the table from earlier deals (a party's pot and bêtes).
    :raises NotationError: if the hands or talon do not fit the rules (wrong counts, unknown or
        repeated cards) or an option is unknown.
    """

    __slots__ = (
        "_class_mask",
        "_ex_pos",
        "_exchangers",
        "_exempt",
        "_follow",
        "_follow_suit",
        "_holder_contract",
        "_legal",
        "_next_seat",
        "_overcaller",
        "_play_mask",
        "_queue",
        "_stakes",
        "_strength",
        "_strict",
        "_talon_pos",
        "_tricks",
        "auction",
        "called",
        "contract",
        "dealer",
        "dealt",
        "dealt_talon",
        "declarer",
        "demanded_from",
        "eldest",
        "exchanges",
        "forced",
        "given",
        "hands",
        "history",
        "holder",
        "is_over",
        "leader",
        "n",
        "options",
        "partner",
        "partner_seen",
        "phase",
        "result",
        "rules",
        "settlement",
        "start_hands",
        "stopped",
        "t",
        "table",
        "talon",
        "to_move",
        "trick",
        "trump",
        "vole_undertaken",
        "won",
    )

    def __init__(
        self,
        rules: RuleSet,
        *,
        dealer: int = 0,
        seed: int | None = None,
        hands: Sequence[Sequence[Card | str]] | None = None,
        talon: Sequence[Card | str] | None = None,
        options: Mapping[str, Any] | None = None,
        table: TableState | None = None,
    ) -> None:
        self.rules = rules
        if options or rules.options:
            self.options = {k: v.value for k, v in rules.resolve_options(options).items()}
            self.t = rules.tables(self.options)
        else:
            self.options = {}
            self.t = rules.tables()
        n = self.n = rules.players
        if not 0 <= dealer < n:
            raise NotationError(f"dealer must be a seat from 0 to {n - 1}, not {dealer}")
        self.dealer = dealer
        self.eldest = (dealer + 1) % n
        self.table = table if table is not None else TableState()
        if hands is None:
            dealt, talon_cards = self._shuffle_and_deal(0 if seed is None else seed)
        else:
            dealt, talon_cards = self._check_hands(hands, talon or [])
        self.dealt: tuple[tuple[int, ...], ...] = tuple(tuple(h) for h in dealt)
        self.dealt_talon: tuple[int, ...] = tuple(talon_cards)
        self.hands = [_mask(h) for h in dealt]
        self.talon = list(talon_cards)
        self._talon_pos = 0
        self.history: list[tuple[int, Action]] = []

        # Auction.
        self.phase = AUCTION
        self.to_move = self.eldest
        self._queue = [(self.eldest + k) % n for k in range(n)]
        self._queue.reverse()  # popped from the end
        self._queue.pop()
        self.holder: int | None = None
        self._holder_contract: Contract | None = None
        self._overcaller: int | None = None
        self.auction: list[tuple[int, Action]] = []

        # Declarations.
        self.declarer: int | None = None
        self.contract: Contract | None = None
        self.forced = False
        self.trump: int | None = None
        self.called: int | None = None
        self.partner: int | None = None
        self.demanded_from: int | None = None
        self.given: int | None = None
        self._exchangers: list[int] = []
        self._ex_pos = 0
        self.exchanges: list[tuple[int, tuple[int, ...], tuple[int, ...]]] = []

        # Play.
        self.leader = self.eldest
        self.trick: list[int] = []
        self._tricks: list[tuple[int, tuple[int, ...], int]] = []
        self._next_seat = [(s + 1) % n for s in range(n)]
        self.won = [0] * n
        self.partner_seen = False
        self.vole_undertaken = False
        self.stopped = False
        self.start_hands: tuple[int, ...] = ()

        # Outcome.
        self.is_over = False
        """The deal is finished (played out, laid down, or passed out)."""
        self.result: str | None = None
        self.settlement: SettlementResult | None = None
        # A redeal after all passed is staked by the all-pass rule instead (Ombre: two more
        # jetons each on top of what lies there, ENC-HOM "en ajoûtant encore deux autres").
        stake_lines = rules.all_pass_stakes if self.table.redeal else rules.stakes
        self._stakes = stakes_for(rules, dealer, n, stake_lines)
        self._legal: Sequence[Action] | None = None
        self._play_mask: int = -1

    # Dealing.

    def _shuffle_and_deal(self, seed: int) -> tuple[list[list[int]], list[int]]:
        # The referee's own shuffle: one draw of 32 random bits per card from a Mersenne
        # Twister seeded with the record's seed, cards sorted by their draw. It depends only on
        # the seed and the deck, so a seeded record deals the same on any machine.
        deck = self.t.deck
        size = len(deck)
        raw = random.Random(seed).getrandbits(32 * size).to_bytes(4 * size, "little")
        keys = struct.unpack(f"<{size}I", raw)
        cards = [deck[i] for i in sorted(range(size), key=keys.__getitem__)]
        hands: list[list[int]] = [[] for _ in range(self.n)]
        pos = 0
        # The first packet order listed; deal to the right, starting with the eldest.
        for size in self.rules.packets[0]:
            for k in range(self.n):
                seat = (self.eldest + k) % self.n
                hands[seat].extend(cards[pos : pos + size])
                pos += size
        return hands, cards[pos:]

    def _check_hands(
        self, hands: Sequence[Sequence[Card | str]], talon: Sequence[Card | str]
    ) -> tuple[list[list[int]], list[int]]:
        rules = self.rules
        if len(hands) != self.n:
            raise NotationError(f"{rules.id} deals {self.n} hands, not {len(hands)}")
        deck = set(self.t.deck)
        seen: dict[int, str] = {}
        out: list[list[int]] = []

        def card_index(value: Card | str, where: str) -> int:
            card = value if isinstance(value, Card) else Card.parse(str(value))
            index = card.index
            if index not in deck:
                raise NotationError(f"{card} ({where}) is not in the pack of this setup")
            if index in seen:
                raise NotationError(f"{card} is dealt twice ({seen[index]} and {where})")
            seen[index] = where
            return index

        for seat, hand in enumerate(hands):
            if len(hand) != rules.hand_size:
                raise NotationError(
                    f"seat {seat} holds {len(hand)} cards; {rules.id} deals {rules.hand_size}"
                )
            out.append([card_index(c, f"seat {seat}") for c in hand])
        if len(talon) != rules.talon:
            raise NotationError(f"the talon holds {len(talon)} cards; {rules.id} has {rules.talon}")
        talon_cards = [card_index(c, "talon") for c in talon]
        return out, talon_cards

    # Reading the state.

    def hand(self, seat: int) -> list[Card]:
        """Returns a seat's cards, highest first in the current ranking."""
        return [ALL_CARDS[c] for c in self._sorted(self.hands[seat])]

    def _sorted(self, mask: int) -> list[int]:
        cards = list(_bits(mask))
        if self.trump is None:
            # Before trumps: by suit, each in its plain order (read off a table in which that
            # suit is not trumps; the black aces, always trumps, come first in their suits).
            strengths = self.t.strength
            return sorted(cards, key=lambda c: (c // 10, -strengths[(c // 10 + 1) % 4][c]))
        strength = self.t.strength[self.trump]
        follow = self.t.follow[self.trump]
        return sorted(cards, key=lambda c: (0 if follow[c] == 4 else 1 + follow[c], -strength[c]))

    @property
    def side(self) -> list[int]:
        """Returns the declaring side: the declarer and his partner, if he has one."""
        if self.declarer is None:
            return []
        return [self.declarer] if self.partner is None else [self.declarer, self.partner]

    # Legal actions: the only place that knows what is legal.

    def legal_actions(self) -> Sequence[Action]:
        """Returns every legal action of the player to move (empty once the deal is over)."""
        legal = self._legal
        if legal is None:
            if self.phase == PLAY_PHASE:
                mask = self._play_mask
                if mask < 0:
                    mask = self._legal_play_mask()
                b = _PLAY_BYTES
                legal = self._legal = [
                    *b[0][mask & 255],
                    *b[1][mask >> 8 & 255],
                    *b[2][mask >> 16 & 255],
                    *b[3][mask >> 24 & 255],
                    *b[4][mask >> 32 & 255],
                ]
            else:
                legal = self._legal = self._generate()
        return legal

    def _generate(self) -> Sequence[Action]:
        # Every phase but the play (which legal_actions builds from the compiled masks).
        phase = self.phase
        if phase == AUCTION:
            floor = self._holder_contract.rank if self._holder_contract is not None else -1
            memo = self.rules._memo
            key = ("bids", floor)
            bids = memo.get(key)
            if bids is None:
                bids = memo[key] = [PASS] + [
                    Action("bid", contract=c.id)
                    for c in sorted(self.rules.contracts.values(), key=lambda c: c.rank)
                    if c.biddable and c.rank > floor
                ]
            return list(bids)
        if phase == MATCH:
            assert self._holder_contract is not None
            return [PASS, Action("bid", contract=self._holder_contract.id)]
        if phase == TRUMP_PHASE:
            return [TRUMP[s] for s in self.trump_choices()]
        if phase == CALL_PHASE:
            return [CALL[c] for c in self._call_choices()]
        if phase == GIVE_PHASE:
            assert self.declarer is not None
            hand = self.hands[self.declarer] & ~(1 << self.called) if self.called is not None else 0
            return [GIVE[c] for c in self._sorted(hand)]
        if phase == EXCHANGE:
            return _Discards(sorted(_bits(self.hands[self.to_move])), self._exchange_max())
        if phase == VOLE_PHASE:
            return [VOLE, STOP]
        return []

    def trump_choices(self, contract: Contract | None = None) -> list[int]:
        """Returns the suits (0-3) that may be named trumps under ``contract`` (default: the
        contract being played): the suits in the pack, within its favourite-suit constraints."""
        contract = contract if contract is not None else self.contract
        suits = list(self.t.trump_suits)
        if contract is not None and contract.trump_option is not None:
            chosen = Suit(self.options[contract.trump_option]).index
            return [chosen] if chosen in suits else []
        if contract is not None and contract.trump_not_option is not None:
            excluded = Suit(self.options[contract.trump_not_option]).index
            return [s for s in suits if s != excluded]
        return suits

    def _call_rule(self) -> Any:
        assert self.contract is not None
        return self.rules.call if self.contract.help == "call" else self.rules.demand

    def _call_choices(self) -> list[int]:
        rule = self._call_rule()
        assert self.declarer is not None and self.trump is not None and rule is not None
        hand = self.hands[self.declarer]
        if rule.own_card == "alone":
            allowed = self.t.deck_mask  # any card of the pack; one's own means playing alone
        else:
            # Demanded of another player: it must be in someone else's hand.
            allowed = 0
            for seat, other in enumerate(self.hands):
                if seat != self.declarer:
                    allowed |= other

        def callable_of(rank: int) -> list[int]:
            return [
                c
                for c in self.t.deck
                if c % 10 == rank
                and allowed >> c & 1
                and (rule.trump_suit_allowed or c // 10 != self.trump)
            ]

        kings = [c for c in self.t.deck if c % 10 == rule.rank.index]
        out = callable_of(rule.rank.index)
        if rule.all_held_fallback is not None and all(hand >> c & 1 for c in kings):
            out += callable_of(rule.all_held_fallback.index)
        return out

    def exchange_limit(self) -> int:
        """Returns how many cards the player to move may discard now (0 outside the écart)."""
        return self._exchange_max() if self.phase == EXCHANGE else 0

    def _exchange_max(self) -> int:
        seat = self.to_move
        left = len(self.talon) - self._talon_pos
        most = min(left, self.hands[seat].bit_count())
        rules = self.rules
        if self._ex_pos == 0 and rules.exchange_first_max is not None:
            most = min(most, rules.exchange_first_max)
        if 0 < self._ex_pos < len(self._exchangers) - 1 and rules.exchange_leave_at_least:
            holds_matador = False
            if rules.exchange_leave_unless_matador and self.trump is not None:
                holds_matador = any(
                    self.hands[seat] >> c & 1 for c in self.t.privileged[self.trump]
                )
            if not holds_matador:
                most = min(most, max(0, left - rules.exchange_leave_at_least))
        return most

    def _legal_play_mask(self) -> int:
        if self._play_mask >= 0:
            return self._play_mask
        hand = self.hands[self.to_move]
        trick = self.trick
        if not trick or not self._follow_suit:
            self._play_mask = hand
            return hand
        led = trick[0]
        cls = self._follow[led]
        same = hand & self._class_mask[cls]
        # Follow if able -- unless the only trumps held are matadors above the trump led (the
        # matadors' privilege), when any card may be played.
        privileged = cls == 4 and same == same & self._exempt[led]
        mask = same if same and not privileged else hand
        if self._strict:
            mask = self._play_stages(hand, led, cls)[-1][1]
        self._play_mask = mask
        return mask

    def _play_stages(self, hand: int, led: int, cls: int) -> list[tuple[str, int]]:
        """The play rules one after another, each with the cards it leaves playable.

        Following suit (with the matadors' privilege), then the duty to trump when void and the
        duty to overtake, for rule files that impose them. The last mask is the legal one; the
        first stage that excludes a card names the rule it breaks.
        """
        same = hand & self._class_mask[cls]
        privileged = cls == 4 and bool(same) and same == same & self._exempt[led]
        follow = same if same and not privileged else hand
        stages = [("play/must-follow-suit", follow)]
        mask = follow
        if self.rules.must_trump and not same:
            trumps = hand & self._class_mask[4]
            if trumps:
                mask = trumps
            stages.append(("play/must-trump", mask))
        if self.rules.must_overtake and not privileged:
            strength, follow_of = self._strength, self._follow
            best = max(strength[c] for c in self.trick if follow_of[c] == 4 or follow_of[c] == cls)
            beaters = 0
            for c in _bits(mask):
                if (follow_of[c] == 4 or follow_of[c] == cls) and strength[c] > best:
                    beaters |= 1 << c
            if beaters:
                mask = beaters
            stages.append(("play/must-overtake", mask))
        return stages

    # Applying actions.

    def apply(self, action: Action | str, seat: int | None = None) -> None:
        """Applies one action of the player to move, after checking it.

        :param action: an :class:`Action`, its notation (``"play Kd"``, ``"Kd"``), or a record
            line with the seat in front (``"2 play Kd"``).
        :param seat: if given, the seat that claims to act (refused if it is not its turn).
        :raises NotationError: if the text does not parse.
        :raises IllegalActionError: if the action is not legal now, with the rule it breaks.
        """
        if isinstance(action, str):
            words = action.split(maxsplit=1)
            if len(words) == 2 and words[0].isdigit():
                # A record line "SEAT VERB ...": the seat is a claim, checked below.
                from engine.actions import parse_line

                claimed, action = parse_line(action)
                if seat is not None and seat != claimed:
                    raise NotationError(f"the line names seat {claimed}, not seat {seat}")
                seat = claimed
            else:
                action = Action.parse(action)
        if (
            self.phase == PLAY_PHASE
            and action.verb == "play"
            and (seat is None or seat == self.to_move)
        ):
            card = action.cards[0].index
            mask = self._play_mask
            if mask < 0:
                mask = self._legal_play_mask()
            if mask >> card & 1:
                # The hot path: a legal card is played without the general dispatch.
                seat = self.to_move
                self.history.append((seat, action))
                self._legal = None
                self._play_mask = -1
                self._play(seat, card)
                return
            raise self._explain(action)
        if seat is not None and seat != self.to_move and self.phase != OVER:
            raise IllegalActionError(
                f"{action.verb}/not-your-turn",
                f"it is seat {self.to_move}'s turn, not seat {seat}'s",
                action=f"{seat} {action}",
                rule="speech and play go in turn to the right",
            )
        if action.verb == "discard" and self.phase == EXCHANGE:
            self._check_discard(action)
        elif action not in self.legal_actions():
            raise self._explain(action)
        self._apply(action)

    def apply_unchecked(self, action: Action) -> None:
        """Applies an action taken from :meth:`legal_actions` without checking it again.

        .. warning:: Only for code that took the action from :meth:`legal_actions` (bots,
           simulation); anything else must use :meth:`apply`.
        """
        self._apply(action)

    def _check_discard(self, action: Action) -> None:
        seat = self.to_move
        cards = [c.index for c in action.cards]
        for c in cards:
            if not self.hands[seat] >> c & 1:
                raise IllegalActionError(
                    "discard/not-in-hand",
                    f"seat {seat} does not hold {ALL_CARDS[c]}",
                    action=f"{seat} {action}",
                )
        most = self._exchange_max()
        if len(cards) > most:
            left = len(self.talon) - self._talon_pos
            raise IllegalActionError(
                "discard/too-many",
                f"seat {seat} may discard at most {most} (talon holds {left})",
                action=f"{seat} {action}",
                rule=self.rules.cite(("exchange",)),
            )

    def _explain(self, action: Action) -> IllegalActionError:
        seat = self.to_move
        rules = self.rules
        text = f"{seat} {action}"
        verb = action.verb
        if self.phase == OVER:
            return IllegalActionError("deal/over", "the deal is over", action=text)
        if self.phase not in _VERB_PHASES.get(verb, ()):
            return IllegalActionError(
                f"{verb}/not-now",
                f"it is the {self.phase} phase: expected {_EXPECTED[self.phase]}",
                action=text,
            )
        if verb == "bid":
            contract = rules.contracts.get(action.contract or "")
            if contract is None:
                known = ", ".join(c for c, v in rules.contracts.items() if v.biddable)
                return IllegalActionError(
                    "bid/unknown-contract",
                    f"{rules.id} has no contract {action.contract!r} (bids: {known})",
                    action=text,
                )
            if not contract.biddable:
                return IllegalActionError(
                    "bid/not-biddable",
                    f"{contract.id} is not bid: it is imposed when all pass",
                    action=text,
                    rule=rules.cite(("auction", "contracts", contract.id)),
                )
            if self.phase == MATCH:
                return IllegalActionError(
                    "bid/must-match-or-pass",
                    f"seat {seat} may only take the overcall himself ({self._holder_contract and self._holder_contract.id}) or pass",
                    action=text,
                    rule=rules.cite(("auction", "contracts", self._holder_contract.id))
                    if self._holder_contract
                    else "",
                )
            standing = self._holder_contract
            return IllegalActionError(
                "bid/outranked",
                f"{contract.id} does not outrank {standing.id if standing else 'nothing'}",
                action=text,
                rule=rules.cite(("auction",)),
            )
        if verb == "trump":
            assert action.suit is not None
            contract = self.contract
            if contract is not None and contract.trump_option is not None:
                return IllegalActionError(
                    "trump/must-be-option",
                    f"{contract.id} must be played in {self.options[contract.trump_option]}",
                    action=text,
                    rule=rules.cite(("auction", "contracts", contract.id)),
                )
            if (
                contract is not None
                and contract.trump_not_option is not None
                and self.options[contract.trump_not_option] == action.suit.value
            ):
                return IllegalActionError(
                    "trump/option-excluded",
                    f"{contract.id} is played in another suit than {action.suit.value}",
                    action=text,
                    rule=rules.cite(("auction", "contracts", contract.id)),
                )
            return IllegalActionError(
                "trump/not-in-pack",
                f"{action.suit.value} are not in the pack and cannot be trumps",
                action=text,
                rule=rules.cite(("declarations", "trump")),
            )
        if verb == "call":
            return self._explain_call(action, text)
        if verb == "give":
            card = action.card.index
            if self.declarer is not None and not self.hands[self.declarer] >> card & 1:
                return IllegalActionError(
                    "give/not-in-hand", f"seat {seat} does not hold {action.card}", action=text
                )
            return IllegalActionError(
                "give/demanded-card",
                f"{action.card} is the card just demanded; give another",
                action=text,
                rule=rules.cite(("declarations", "demand")),
            )
        if verb == "play":
            card = action.card.index
            if not self.hands[seat] >> card & 1:
                return IllegalActionError(
                    "play/not-in-hand", f"seat {seat} does not hold {action.card}", action=text
                )
            assert self.trump is not None
            t = self.trump
            led = self.trick[0]
            cls = self.t.follow[t][led]
            led_card = ALL_CARDS[led]
            code = "play/must-follow-suit"
            for stage, allowed in self._play_stages(self.hands[seat], led, cls):
                if not allowed >> card & 1:
                    code = stage
                    break
            if code == "play/must-trump":
                return IllegalActionError(
                    code,
                    f"seat {seat} cannot follow {_suit_name(cls)} and must trump",
                    action=text,
                    rule=rules.cite(("play",)),
                )
            if code == "play/must-overtake":
                return IllegalActionError(
                    code,
                    f"seat {seat} can beat the best card on the table and must",
                    action=text,
                    rule=rules.cite(("play",)),
                )
            if cls == 4:
                names = rules.matador_names(Suit(_suit_name(t)))
                trumps = self.hands[seat] & self.t.class_mask[t][4]
                privileged = 0
                for c in self.t.privileged[t]:
                    privileged |= 1 << c
                led_name = names.get(led_card)
                if led_name in rules.privileged and trumps & ~privileged == 0:
                    return IllegalActionError(
                        "play/matador-forced",
                        f"{led_card} ({led_name}) was led: a lower matador held alone must be played",
                        action=text,
                        rule=rules.cite(("matadors", "privilege")),
                    )
                return IllegalActionError(
                    "play/must-follow-suit",
                    f"a trump was led ({led_card}) and seat {seat} holds trumps that must follow",
                    action=text,
                    rule=rules.cite(("play",)),
                )
            return IllegalActionError(
                "play/must-follow-suit",
                f"{_suit_name(cls)} were led ({led_card}) and seat {seat} holds {_suit_name(cls)}",
                action=text,
                rule=rules.cite(("play",)),
            )
        return IllegalActionError(
            f"{verb}/illegal", f"{action} is not legal now ({_EXPECTED[self.phase]})", action=text
        )

    def _explain_call(self, action: Action, text: str) -> IllegalActionError:
        rules = self.rules
        rule = self._call_rule()
        key = "call" if self.contract is not None and self.contract.help == "call" else "demand"
        path = ("declarations", key)
        card = action.card
        assert self.declarer is not None and self.trump is not None
        if card.suit.index == self.trump and not rule.trump_suit_allowed:
            return IllegalActionError(
                f"call/trump-{'king' if card.rank == rule.rank else 'card'}",
                f"{card} is of the trump suit and may not be called",
                action=text,
                rule=rules.cite(path),
            )
        hand = self.hands[self.declarer]
        if hand >> card.index & 1 and rule.own_card == "forbidden":
            return IllegalActionError(
                "call/own-card",
                f"seat {self.declarer} holds {card}: a card is demanded of another player",
                action=text,
                rule=rules.cite(path),
            )
        if card.rank not in (rule.rank, rule.all_held_fallback):
            return IllegalActionError(
                "call/not-callable",
                f"{card} cannot be called (call a {rule.rank.name.lower()})",
                action=text,
                rule=rules.cite(path),
            )
        kings = [c for c in self.t.deck if c % 10 == rule.rank.index]
        holds_every_king = all(hand >> c & 1 for c in kings)
        if card.rank == rule.all_held_fallback and not holds_every_king:
            return IllegalActionError(
                "call/queen-needs-all-kings",
                f"a {card.rank.name.lower()} may be called only by a player holding every {rule.rank.name.lower()}",
                action=text,
                rule=rules.cite(path),
            )
        if card.index not in self.t.deck:
            return IllegalActionError(
                "call/not-in-pack", f"{card} is not in the pack", action=text, rule=rules.cite(path)
            )
        if rule.own_card == "forbidden":
            return IllegalActionError(
                "call/not-held-by-another",
                f"{card} is in no other player's hand (it lies in the talon)",
                action=text,
                rule=rules.cite(path),
            )
        return IllegalActionError(
            "call/not-callable",
            f"{card} cannot be called (call a {rule.rank.name.lower()})",
            action=text,
            rule=rules.cite(path),
        )

    def _apply(self, action: Action) -> None:
        seat = self.to_move
        self.history.append((seat, action))
        self._legal = None
        self._play_mask = -1
        phase = self.phase
        if phase == PLAY_PHASE:
            self._play(seat, action.cards[0].index)
        elif phase == AUCTION:
            self._speak(seat, action)
        elif phase == MATCH:
            self._match(seat, action)
        elif phase == TRUMP_PHASE:
            assert action.suit is not None
            self.trump = action.suit.index
            self._after_trump()
        elif phase == CALL_PHASE:
            self._call(action.cards[0].index)
        elif phase == GIVE_PHASE:
            self._give(action.cards[0].index)
        elif phase == EXCHANGE:
            self._exchange(seat, tuple(c.index for c in action.cards))
        elif phase == VOLE_PHASE:
            if action.verb == "vole":
                self.vole_undertaken = True
                self.phase = PLAY_PHASE
            else:
                self.stopped = True
                self._finish()

    # The auction.

    def _speak(self, seat: int, action: Action) -> None:
        self.auction.append((seat, action))
        if action.verb == "bid":
            contract = self.rules.contracts[action.contract or ""]
            holder = self.holder
            if holder is not None and contract.matchable:
                # "Forcé": the player holding the bid may take it himself and be preferred.
                self._overcaller = seat
                self._holder_contract = contract
                self.phase = MATCH
                self.to_move = holder
                return
            self.holder = seat
            self._holder_contract = contract
        self._next_speaker()

    def _match(self, seat: int, action: Action) -> None:
        self.auction.append((seat, action))
        if action.verb == "pass":
            self.holder = self._overcaller
        self._overcaller = None
        self.phase = AUCTION
        self._next_speaker()

    def _next_speaker(self) -> None:
        if self._queue:
            self.to_move = self._queue.pop()
            return
        if self.holder is not None and self._holder_contract is not None:
            self._declare(self.holder, self._holder_contract, forced=False)
            return
        rules = self.rules
        if rules.all_pass == "forced" and rules.all_pass_card is not None:
            card = rules.all_pass_card.index
            for s in range(self.n):
                if self.hands[s] >> card & 1:
                    assert rules.all_pass_contract is not None
                    self._declare(s, rules.contracts[rules.all_pass_contract], forced=True)
                    return
        # Passed out: the deal is void and dealt again, staked as the all-pass rule says.
        self.result = "redeal"
        self._finish()

    def _declare(self, seat: int, contract: Contract, *, forced: bool) -> None:
        self.declarer = seat
        self.contract = contract
        self.forced = forced
        self.phase = TRUMP_PHASE
        self.to_move = seat

    def _after_trump(self) -> None:
        assert self.contract is not None and self.declarer is not None
        if self.contract.help in ("call", "demand"):
            if not self._call_choices():
                # Nothing can be called or demanded (every card is held): he plays alone.
                self._after_declarations()
                return
            self.phase = CALL_PHASE
            return
        self._after_declarations()

    def _call(self, card: int) -> None:
        assert self.contract is not None and self.declarer is not None
        self.called = card
        holder = next((s for s in range(self.n) if self.hands[s] >> card & 1), None)
        if self.contract.help == "call":
            self.partner = holder if holder != self.declarer else None
            self._after_declarations()
            return
        # A demand: the holder hands the card over and receives one of the declarer's choice.
        assert holder is not None
        self.demanded_from = holder
        self.hands[holder] &= ~(1 << card)
        self.hands[self.declarer] |= 1 << card
        self.phase = GIVE_PHASE

    def _give(self, card: int) -> None:
        assert self.declarer is not None and self.demanded_from is not None
        self.given = card
        self.hands[self.declarer] &= ~(1 << card)
        self.hands[self.demanded_from] |= 1 << card
        self._after_declarations()

    def _after_declarations(self) -> None:
        assert self.contract is not None and self.declarer is not None
        exchange = self.contract.exchange
        if exchange != "none" and self.talon:
            first = 0 if exchange == "declarer-first" else 1
            self._exchangers = [(self.declarer + k) % self.n for k in range(first, self.n)]
            self._ex_pos = 0
            self.phase = EXCHANGE
            self.to_move = self._exchangers[0]
            return
        self._start_play()

    def _exchange(self, seat: int, discards: tuple[int, ...]) -> None:
        k = len(discards)
        drawn = tuple(self.talon[self._talon_pos : self._talon_pos + k])
        self._talon_pos += k
        for c in discards:
            self.hands[seat] &= ~(1 << c)
        for c in drawn:
            self.hands[seat] |= 1 << c
        self.exchanges.append((seat, discards, drawn))
        self._ex_pos += 1
        if self._ex_pos < len(self._exchangers):
            self.to_move = self._exchangers[self._ex_pos]
            return
        self._start_play()

    # Play.

    def _start_play(self) -> None:
        assert self.trump is not None
        t = self.trump
        self._follow = self.t.follow[t]
        self._strength = self.t.strength[t]
        self._class_mask = self.t.class_mask[t]
        self._exempt = self.t.exempt[t]
        self._follow_suit = self.rules.follow_suit
        self._strict = self.rules.must_trump or self.rules.must_overtake
        self.start_hands = tuple(self.hands)
        self.phase = PLAY_PHASE
        if self.rules.leader == "declarer" and self.declarer is not None:
            self.leader = self.declarer
        self.to_move = self.leader
        if self.partner is None:
            self.partner_seen = True

    def _play(self, seat: int, card: int) -> None:
        self.hands[seat] ^= 1 << card  # the caller checked the card is in the hand
        trick = self.trick
        trick.append(card)
        if len(trick) < self.n:
            self.to_move = self._next_seat[seat]
            return
        self._end_trick(trick)

    def _end_trick(self, trick: list[int]) -> None:
        strength = self._strength
        follow = self._follow
        led_cls = follow[trick[0]]
        best_pos = 0
        best = strength[trick[0]]
        for pos in range(1, len(trick)):
            c = trick[pos]
            f = follow[c]
            if (f == 4 or f == led_cls) and strength[c] > best:
                best = strength[c]
                best_pos = pos
        leader = self.leader
        winner = (leader + best_pos) % self.n
        if self.called is not None and self.called in trick:
            self.partner_seen = True
        self._tricks.append((leader, tuple(trick), winner))
        self.won[winner] += 1
        self.trick = []
        self.leader = winner
        self.to_move = winner
        played = len(self._tricks)
        if played == self.rules.hand_size:
            self._finish()
            return
        if (
            played == self.rules.vole_after
            and not self.vole_undertaken
            and self.contract is not None
            and self.contract.vole_allowed
            and (self.partner_seen or not self.rules.vole_requires_partner_seen)
        ):
            side = self.side
            if winner in side and sum(self.won[s] for s in side) == played:
                self.phase = VOLE_PHASE

    @property
    def tricks(self) -> list[Trick]:
        """Returns the finished tricks, in order."""
        return [
            Trick(leader, tuple(ALL_CARDS[c] for c in cards), winner)
            for leader, cards, winner in self._tricks
        ]

    # The end.

    def _finish(self) -> None:
        self.phase = OVER
        self.is_over = True
        self._legal = []
        rules = self.rules
        if self.result != "redeal":
            self.result = self._result()
        holder = None
        if (
            self.table.remainder
            and self.result != "redeal"
            and self.trump is not None
            and self.start_hands
        ):
            order = self.t.trump_order[self.trump]
            for c in order:
                holder = next((s for s in range(self.n) if self.start_hands[s] >> c & 1), None)
                if holder is not None:
                    break
        self.settlement = settle(
            rules,
            n=self.n,
            table=self.table,
            stakes=self._stakes,
            result=self.result,
            contract=self.contract.id if self.contract else None,
            declarer=self.declarer,
            partner=self.partner,
            tricks=self.won,
            matadors=self.paid_matadors(),
            spadille_holder=holder,
        )

    def paid_matadors(self) -> int:
        """Returns how many matadors the declaring side is paid for (or pays), 0 if none.

        The unbroken run of trumps from the first paid matador, held by the side (or the
        declarer alone, as the rules say) at the start of play, counted only when it is at least
        the rules' minimum (the three true matadors).
        """
        if self.trump is None or not self.start_hands or self.declarer is None:
            return 0
        holders = self.side if self.rules.paid_held_by == "side" else [self.declarer]
        held = 0
        for s in holders:
            held |= self.start_hands[s]
        run = 0
        for c in self.t.paid_run[self.trump]:
            if not held >> c & 1:
                break
            run += 1
        return run if run >= self.rules.paid_minimum else 0

    def _result(self) -> str:
        return evaluate_result(
            self.rules,
            self.won,
            self.side,
            vole_undertaken=self.vole_undertaken,
            played=len(self._tricks),
        )

    # Views and reports.

    def view(self, seat: int) -> dict[str, Any]:
        """Returns what ``seat`` may see now: its hand, the public play, its choices."""
        # The called king's holder knows he is the friend; everyone else, the declarer
        # included, learns it only when the called card is played.
        partner_known = self.partner_seen or (self.partner is not None and seat == self.partner)
        given_visible = self.given is not None and (
            seat in (self.declarer, self.demanded_from)
            or (self.rules.demand is not None and self.rules.demand.given_card_visible == "public")
        )
        return {
            "seat": seat,
            "dealer": self.dealer,
            "eldest": self.eldest,
            "phase": self.phase,
            "to_move": None if self.is_over else self.to_move,
            "hand": [str(c) for c in self.hand(seat)],
            "auction": [f"{s} {a}" for s, a in self.auction],
            "declarer": self.declarer,
            "contract": self.contract.id if self.contract else None,
            "trump": _suit_name(self.trump) if self.trump is not None else None,
            "called": str(ALL_CARDS[self.called]) if self.called is not None else None,
            "partner": self.partner if partner_known else None,
            "demanded_from": self.demanded_from,
            "given": str(ALL_CARDS[self.given])
            if given_visible and self.given is not None
            else None,
            "talon": len(self.talon) - self._talon_pos,
            "exchanges": [(s, len(d)) for s, d, _ in self.exchanges],
            "trick": [str(ALL_CARDS[c]) for c in self.trick],
            "trick_leader": self.leader,
            "tricks": [t.as_json() for t in self.tricks],
            "tricks_won": list(self.won),
            "vole": self.vole_undertaken,
            "legal": [str(a) for a in self.legal_actions()] if seat == self.to_move else [],
        }

    def report(self) -> dict[str, Any]:
        """Returns the deal as in ``ombre replay --json`` (its ``deals`` entries)."""
        out: dict[str, Any] = {
            "dealer": self.dealer,
            "contract": self.contract.id if self.contract else None,
            "declarer": self.declarer,
            "partners": [self.partner] if self.partner is not None else [],
            "trump": _suit_name(self.trump) if self.trump is not None else None,
            "called": str(ALL_CARDS[self.called]) if self.called is not None else None,
            "forced": self.forced,
            "vole_undertaken": self.vole_undertaken,
            "tricks": [t.as_json() for t in self.tricks],
            "tricks_won": list(self.won),
            "result": self.result,
        }
        if self.given is not None:
            out["given"] = str(ALL_CARDS[self.given])
            out["demanded_from"] = self.demanded_from
        if self.exchanges:
            out["exchanges"] = [
                {
                    "seat": s,
                    "discarded": [str(ALL_CARDS[c]) for c in d],
                    "drawn": [str(ALL_CARDS[c]) for c in t],
                }
                for s, d, t in self.exchanges
            ]
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

    def record_actions(self) -> list[str]:
        """Returns the actions so far as record lines ``"SEAT VERB ..."``."""
        return [f"{s} {a}" for s, a in self.history]


def evaluate_result(
    rules: RuleSet,
    won: Sequence[int],
    side: Sequence[int],
    *,
    vole_undertaken: bool = False,
    played: int | None = None,
) -> str:
    """Returns the result the rule file's table gives for these tricks (first rule that holds).

    ``won`` is the tricks each seat took, ``side`` the declaring side. ``played`` is how many
    tricks were played (fewer than a full hand when the side laid down).
    """
    side_tricks = sum(won[s] for s in side)
    opponents = [s for s in range(len(won)) if s not in side]
    total = sum(won) if played is None else played
    for rule in rules.results:
        w = rule.when
        if w.vole is not None:
            if not vole_undertaken:
                continue
            made = side_tricks == rules.hand_size and total == rules.hand_size
            if (w.vole == "made") != made:
                continue
        if w.side_exactly is not None and side_tricks != w.side_exactly:
            continue
        if w.side_at_least is not None and side_tricks < w.side_at_least:
            continue
        if w.side_at_most is not None and side_tricks > w.side_at_most:
            continue
        if w.more_than_each_opponent and not all(side_tricks > won[o] for o in opponents):
            continue
        if w.single_opponent_most:
            top = max((won[o] for o in opponents), default=0)
            leaders = [o for o in opponents if won[o] == top]
            if not (top > side_tricks and len(leaders) == 1):
                continue
        return rule.result
    return rules.results[-1].result  # pragma: no cover - the checks require a fallback


def _suit_name(index: int) -> str:
    return ("spades", "clubs", "hearts", "diamonds")[index]

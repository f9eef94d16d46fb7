"""Bots: players that choose among the referee's legal actions, and a party simulator.

A bot sees only what its seat may see: its own hand, the auction, the trump and the called
card, the cards played, and its partner once the called card has been played (or if it is the
partner). Every choice is one of :meth:`Deal.legal_actions`, so bots can never cheat the rules.

* ``random``: a uniformly random legal action (the referee's sweep tests use it).
* ``heuristic``: a plain player of the old school: bids on trump length and matadors, calls a
  king in a suit it holds, discards plain losers, wins tricks cheaply, and leaves its partner's
  tricks alone.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.actions import Action
from engine.cards import ALL_CARDS
from engine.model import RuleSet
from engine.party import Party
from engine.referee import Deal

__all__ = ["BOTS", "Bot", "HeuristicBot", "RandomBot", "SimulationSummary", "make_bot", "simulate"]


class Bot:
    """A player: given a deal and its seat, returns one of the legal actions."""

    name = "bot"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, deal: Deal, seat: int) -> Action:
        """Returns the action to take (one of ``deal.legal_actions()``)."""
        raise NotImplementedError


class RandomBot(Bot):
    """Picks a uniformly random legal action."""

    name = "random"

    def choose(self, deal: Deal, seat: int) -> Action:
        legal = _honest(deal)
        return legal[int(self.rng.random() * len(legal))]


def _honest(deal: Deal) -> Sequence[Action]:
    """The legal actions less revoking and pointing out revokes (legal only in a rule file
    that penalises them, for refereeing records): bots follow suit."""
    legal = deal.legal_actions()
    if deal.rules.renonce == "penalised":
        return [a for a in legal if a.verb not in ("renonce", "notice")]
    return legal


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class HeuristicBot(Bot):
    """A simple rule-of-thumb player that uses only its seat's view."""

    name = "heuristic"

    # Bidding.

    def _suit_strength(self, deal: Deal, hand: int, trump: int) -> float:
        strength = deal.t.strength[trump]
        value = 0.0
        for c in _bits(hand):
            s = strength[c]
            if s >= 100:
                value += 1.0 + (0.6 if s >= 109 else 0.0)
            elif c % 10 == 1:  # a plain king is nearly a trick
                value += 0.8
        return value

    def _best_trump(self, deal: Deal, hand: int, choices: list[int]) -> tuple[int, float]:
        scored = [(self._suit_strength(deal, hand, t), t) for t in choices]
        value, trump = max(scored)
        return trump, value

    def choose(self, deal: Deal, seat: int) -> Action:
        phase = deal.phase
        hand = deal.hands[seat]
        if phase == "exchange":
            # Not from the (long) list of every legal discard: the same limit, applied directly.
            return self._discard(deal, hand, deal.exchange_limit())
        legal = _honest(deal)
        if len(legal) == 1:
            return legal[0]
        if phase in ("auction", "match"):
            return self._bid(deal, hand, legal)
        if phase == "trump":
            trump, _ = self._best_trump(deal, hand, [a.suit.index for a in legal if a.suit])
            return next(a for a in legal if a.suit is not None and a.suit.index == trump)
        if phase == "call":
            return self._call(deal, hand, legal)
        if phase == "give":
            return self._lowest(deal, legal, seat)
        if phase == "surrender":
            return legal[0]  # roi rendu: keep the called king (pass)
        if phase == "vole":
            # Play on only with nothing but trumps left.
            trumps = deal.t.class_mask[deal.trump or 0][4]
            return legal[0] if hand & ~trumps == 0 else legal[1]
        return self._play(deal, seat, legal)

    def _bid(self, deal: Deal, hand: int, legal: Sequence[Action]) -> Action:
        tricks_needed = deal.rules.hand_size / 2 + 1
        bids = [a for a in legal if a.verb == "bid"]
        best: Action = legal[0]
        for bid in bids:
            contract = deal.rules.contracts[bid.contract or ""]
            suits = deal.trump_choices(contract)
            if not suits:
                continue
            _, value = self._best_trump(deal, hand, suits)
            helped = contract.help != "none" or contract.exchange == "declarer-first"
            need = tricks_needed + (-1.0 if helped else 1.5)
            if contract.help == "demand":
                need += 1.25
            if value >= need:
                best = bid
        return best

    def _call(self, deal: Deal, hand: int, legal: Sequence[Action]) -> Action:
        # Call the king of the suit in which we hold most cards (a guard for the partner).
        def key(action: Action) -> tuple[int, int]:
            suit = action.card.suit.index
            held = sum(1 for c in _bits(hand) if c // 10 == suit)
            own = 1 if hand >> action.card.index & 1 else 0
            return (-own, held)

        return max(legal, key=key)

    def _lowest(self, deal: Deal, legal: Sequence[Action], seat: int) -> Action:
        strength = deal.t.strength[deal.trump or 0]
        return min(legal, key=lambda a: (strength[a.card.index] >= 100, strength[a.card.index]))

    def _discard(self, deal: Deal, hand: int, most: int) -> Action:
        trump = deal.trump if deal.trump is not None else 0
        strength = deal.t.strength[trump]
        losers = sorted(
            (c for c in _bits(hand) if strength[c] < 100 and c % 10 != 1),
            key=lambda c: strength[c],
        )
        cards = tuple(ALL_CARDS[c] for c in losers[:most])
        return Action("discard", cards=cards)

    @staticmethod
    def _known_side(deal: Deal, seat: int) -> list[int | None]:
        # What this seat knows of the declaring side: the friend is known to himself, and to
        # everyone once the called card has been played.
        if deal.partner_seen or seat == deal.partner:
            return list(deal.side)
        return [deal.declarer]

    def _play(self, deal: Deal, seat: int, legal: Sequence[Action]) -> Action:
        trump = deal.trump if deal.trump is not None else 0
        strength = deal.t.strength[trump]
        follow = deal.t.follow[trump]
        trick = deal.trick
        if not trick:
            side = self._known_side(deal, seat)
            if seat in side:
                # Draw trumps with the top ones, else lead the best plain card.
                return max(legal, key=lambda a: strength[a.card.index])
            plain = [a for a in legal if strength[a.card.index] < 100]
            pool = plain or legal
            return max(pool, key=lambda a: strength[a.card.index])
        led = follow[trick[0]]
        # Who is winning the trick: asked of the referee's one trick routine.
        best_pos = deal.tr.winning_position(trick) if deal.tr is not None else 0
        best = strength[trick[best_pos]]
        winner_seat = deal.seat_at(deal.leader, best_pos)
        known_side = self._known_side(deal, seat)
        same_team = (seat in known_side) == (winner_seat in known_side)

        def beats(a: Action) -> bool:
            c = a.card.index
            return (follow[c] == 4 or follow[c] == led) and strength[c] > best

        if not same_team:
            winners = [a for a in legal if beats(a)]
            if winners:
                return min(winners, key=lambda a: strength[a.card.index])
        # Throw the cheapest card: plain before trump, low before high.
        return min(legal, key=lambda a: (strength[a.card.index] >= 100, strength[a.card.index]))


BOTS: dict[str, Callable[[int | None], Bot]] = {"random": RandomBot, "heuristic": HeuristicBot}


def make_bot(kind: str, seed: int | None = None) -> Bot:
    """Returns a bot by name (``random`` or ``heuristic``).

    :raises ValueError: for an unknown kind.
    """
    try:
        return BOTS[kind](seed)
    except KeyError:
        raise ValueError(f"unknown bot {kind!r} (choose {', '.join(BOTS)})") from None


@dataclass
class SimulationSummary:
    """What ``ombre simulate`` reports."""

    ruleset: str
    deals: int
    seed: int
    results: Counter[str] = field(default_factory=Counter)
    contracts: Counter[str] = field(default_factory=Counter)
    totals: list[int] = field(default_factory=list)
    pot: int = 0
    seconds: float = 0.0
    bots: str = "heuristic"

    def as_json(self) -> dict[str, Any]:
        """Returns the summary as the spec's JSON document."""
        return {
            "ruleset": self.ruleset,
            "deals": self.deals,
            "seed": self.seed,
            "bots": self.bots,
            "results": dict(sorted(self.results.items())),
            "contracts": dict(sorted(self.contracts.items())),
            "totals": self.totals,
            "pot": self.pot,
            "seconds": round(self.seconds, 3),
        }


def simulate(
    rules: RuleSet,
    deals: int,
    *,
    seed: int = 1,
    bots: str = "heuristic",
    options: dict[str, str] | None = None,
    progress: Callable[[int], None] | None = None,
) -> SimulationSummary:
    """Plays a party of ``deals`` deals with bots in every seat, the pot carrying over.

    Deal ``i`` is shuffled with seed ``seed * 1_000_003 + i``, so a run is reproducible.
    """
    players = [make_bot(bots, seed * 7919 + k) for k in range(rules.players)]
    summary = SimulationSummary(rules.id, deals, seed, bots=bots)
    party = Party(rules, options=options)
    start = time.perf_counter()
    for i in range(deals):
        deal = party.new_deal(seed=seed * 1_000_003 + i)
        while not deal.is_over:
            seat = deal.to_move
            deal.apply(players[seat].choose(deal, seat))
        assert deal.result is not None
        summary.results[deal.result] += 1
        if deal.contract is not None:
            summary.contracts[deal.contract.id] += 1
        if progress is not None:
            progress(i + 1)
    summary.seconds = time.perf_counter() - start
    summary.totals = party.totals
    summary.pot = party.table.pot
    return summary

"""The search bot: samples the hands it cannot see, plays each choice out, keeps the best.

In the play (and at the vole), the bot deals the cards it has not seen among the other seats
-- consistent with what its seat knows (:func:`engine.bots.base.knowledge`): the cards played,
its own écart, each player's number of cards, the suits a player failed to follow, the called
king's holder once revealed, a demanded or given card -- and, for each legal card, plays the
deal out to the end with heuristic players in every seat, through the referee's own
:meth:`Deal.apply_unchecked`. It scores each outcome by the counters its seat would win or pay
(the referee's settlement, on an empty table: bots never look at the pot) and plays the card
with the best total over the samples. Bidding, calling and
the écart are the heuristic bot's.

The number of samples is fixed (not a time budget), so a seeded run plays the same way on any
machine; with the default 16 samples a decision takes well under a second (docs/playing.md).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.actions import Action
from engine.bots.base import bits, honest, knowledge
from engine.bots.heuristic import HeuristicBot
from engine.referee import Deal
from engine.referee.settlement import TableState, settle, stakes_for

_EMPTY = TableState()

__all__ = ["SearchBot"]


class SearchBot(HeuristicBot):
    """Determinised Monte-Carlo search over the heuristic bot."""

    name = "search"
    samples = 16

    def __init__(self, seed: int | None = None, samples: int | None = None) -> None:
        super().__init__(seed)
        if samples is not None:
            self.samples = samples
        self.policy = HeuristicBot(seed)

    def choose(self, deal: Deal, seat: int) -> Action:
        if deal.phase not in ("play", "vole"):
            return super().choose(deal, seat)
        legal = honest(deal)
        if len(legal) == 1:
            return legal[0]
        scores = self.evaluate(deal, seat, legal)
        best = max(range(len(legal)), key=lambda i: (scores[i], -i))
        return legal[best]

    def evaluate(self, deal: Deal, seat: int, legal: Sequence[Action]) -> list[float]:
        """Returns each legal action's total score over the sampled deals."""
        scores = [0.0] * len(legal)
        self.policy.rng = self.rng
        for _ in range(self.samples):
            world = self._sample(deal, seat)
            for i, action in enumerate(legal):
                trial = world.copy()
                trial.apply_unchecked(action)
                scores[i] += self._rollout(trial, seat)
        return scores

    def _sample(self, deal: Deal, seat: int) -> Deal:
        """Returns a copy of the deal with the unseen cards dealt anew, consistently."""
        kn = knowledge(deal, seat)
        n = deal.n
        rng = self.rng
        world = deal.copy()
        known = 0
        for mask in kn.located:
            known |= mask
        pool = bits(deal.t.deck_mask & ~kn.played & ~known & ~kn.out)
        need = [deal.hands[s].bit_count() - kn.located[s].bit_count() for s in range(n)]
        need[seat] = 0
        hands = list(kn.located)
        partner = deal.partner
        called = deal.called
        forbidden = kn.forbidden
        in_play = 0
        hidden_partner = (
            called is not None
            and not kn.partner_known
            and deal.contract is not None
            and deal.contract.help == "call"
            and called in pool
        )
        if hidden_partner:
            # The called card is with someone other than the declarer and this seat.
            assert called is not None and deal.declarer is not None
            forbidden = list(forbidden)
            forbidden[deal.declarer] |= 1 << called
            in_play = 1 << called
            partner = None
        dealt = _deal_unseen(pool, need, forbidden, in_play, rng)
        for s in range(n):
            hands[s] |= dealt[s]
            if hidden_partner and called is not None and dealt[s] >> called & 1:
                partner = s
        for s in range(n):
            if s != seat:
                world.hands[s] = hands[s]
        if partner != deal.partner:
            world.partner = partner
        # The hands at the start of play, as sampled (the matadors are counted from them).
        world.start_hands = tuple(world.hands[s] | kn.played_by[s] for s in range(n))
        return world

    def _rollout(self, world: Deal, seat: int) -> float:
        policy = self.policy
        while not world.is_over:
            mover = world.to_move
            world.apply_unchecked(policy.choose(world, mover))
        return _score(world, seat)


def _deal_unseen(
    pool: list[int], need: list[int], forbidden: list[int], in_play: int, rng: random.Random
) -> list[int]:
    """Deals the unseen cards: ``need[s]`` to each seat, none it is known not to hold; the rest
    stay out of play (talon, écarts) -- but not the cards of ``in_play``. Cards with the fewest possible holders go first, each to
    a holder drawn in proportion to the room left; a dead end starts again (at most 20 times,
    then the voids are ignored rather than fail)."""
    n = len(need)
    spare = len(pool) - sum(need)
    seats = [s for s in range(n) if need[s] > 0]
    for _ in range(20):
        rng.shuffle(pool)
        cards = sorted(pool, key=lambda c: sum(1 for s in seats if not forbidden[s] >> c & 1))
        room = list(need)
        out_room = spare
        hands = [0] * n
        for c in cards:
            eligible = [s for s in seats if room[s] > 0 and not forbidden[s] >> c & 1]
            total = sum(room[s] for s in eligible) + (0 if in_play >> c & 1 else out_room)
            if total == 0:
                break
            r = rng.random() * total
            for s in eligible:
                if r < room[s]:
                    hands[s] |= 1 << c
                    room[s] -= 1
                    break
                r -= room[s]
            else:
                out_room -= 1
        else:
            return hands
    hands = [0] * n
    for s in seats:
        for _ in range(need[s]):
            hands[s] |= 1 << pool.pop()
    return hands


def _score(deal: Deal, seat: int) -> float:
    """The counters ``seat`` wins or loses in this outcome, settled by the referee's
    :func:`settle` on an empty table with the ordinary stakes (so that a decision never depends
    on what lies on the table), with a hundredth of a counter for each trick its side took."""
    rules = deal.rules
    result = deal.result
    if result is None or result == "redeal" or deal.declarer is None:
        return 0.0
    n = deal.n
    s = settle(
        rules,
        n=n,
        table=_EMPTY,
        stakes=stakes_for(rules, deal.dealer, n, rules.stakes),
        result=result,
        contract=deal.contract.id if deal.contract is not None else None,
        declarer=deal.declarer,
        partner=deal.partner,
        tricks=deal.won,
        matadors=deal.paid_matadors(),
        transfers=deal.transfers,
    )
    side = deal.side
    taken = sum(deal.won[x] for x in side)
    mine = taken if seat in side else sum(deal.won) - taken
    return s.balances[seat] + mine / 100

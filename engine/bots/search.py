"""The search bot: samples the hands it cannot see, plays each choice out, keeps the best.

In the play (and at the vole), the bot deals the cards it has not seen among the other seats
-- consistent with what its seat knows (:func:`engine.bots.base.knowledge`): the cards played,
its own écart, each player's number of cards, the suits a player failed to follow, the called
king's holder once revealed, a demanded or given card -- and, for each legal card, plays the
deal out to the end with heuristic players in every seat, through the referee's own
:meth:`Deal.apply_unchecked`. It scores each outcome for its side (won, remise or codille, and
the tricks taken) and plays the card with the best total over the samples. Bidding, calling and
the écart are the heuristic bot's.

The number of samples is fixed (not a time budget), so a seeded run plays the same way on any
machine; with the default 16 samples a decision takes well under a second (docs/playing.md).
"""

from __future__ import annotations

import copy
from collections.abc import Sequence

from engine.actions import Action
from engine.bots.base import bits, knowledge
from engine.bots.heuristic import HeuristicBot
from engine.referee import Deal

__all__ = ["SearchBot", "fork"]


def fork(deal: Deal) -> Deal:
    """Returns an independent copy of a deal in progress (what rollouts play on).

    A shallow copy with every list copied: the referee keeps a deal's state in lists of
    immutable values, so nothing is shared that either copy changes.
    """
    new = copy.copy(deal)
    names: list[str] = []
    for klass in type(deal).__mro__:
        names.extend(getattr(klass, "__slots__", ()))
    names.extend(getattr(deal, "__dict__", {}))
    for name in names:
        value = getattr(deal, name, None)
        if type(value) is list:
            setattr(new, name, value.copy())
    return new


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
        legal = deal.legal_actions()
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
                trial = fork(world)
                trial.apply_unchecked(action)
                scores[i] += self._rollout(trial, seat)
        return scores

    def _sample(self, deal: Deal, seat: int) -> Deal:
        """Returns a copy of the deal with the unseen cards dealt anew, consistently."""
        kn = knowledge(deal, seat)
        n = deal.n
        rng = self.rng
        world = fork(deal)
        known = 0
        for mask in kn.located:
            known |= mask
        pool = bits(deal.t.deck_mask & ~kn.played & ~known & ~kn.out)
        need = [deal.hands[s].bit_count() - kn.located[s].bit_count() for s in range(n)]
        need[seat] = 0
        hands = list(kn.located)
        partner = deal.partner
        called = deal.called
        if (
            called is not None
            and not kn.partner_known
            and deal.contract is not None
            and deal.contract.help == "call"
            and not kn.played >> called & 1
        ):
            # The called card is with someone other than the declarer and this seat.
            holders = [
                s
                for s in range(n)
                if s not in (seat, deal.declarer)
                and need[s] > 0
                and not kn.forbidden[s] >> called & 1
            ]
            if holders and called in pool:
                partner = holders[int(rng.random() * len(holders))]
                hands[partner] |= 1 << called
                need[partner] -= 1
                pool.remove(called)
        # The most constrained seats choose first; what is left over is out of play (talon).
        order = sorted(
            (s for s in range(n) if need[s] > 0),
            key=lambda s: sum(1 for c in pool if not kn.forbidden[s] >> c & 1),
        )
        rng.shuffle(pool)
        for s in order:
            allowed = [c for c in pool if not kn.forbidden[s] >> c & 1]
            if len(allowed) < need[s]:
                allowed = pool[:]  # inconsistent knowledge: fall back to any card
            take = allowed[: need[s]]
            for c in take:
                hands[s] |= 1 << c
                pool.remove(c)
        for s in range(n):
            if s != seat:
                world.hands[s] = hands[s]
        if partner != deal.partner:
            world.partner = partner
        return world

    def _rollout(self, world: Deal, seat: int) -> float:
        policy = self.policy
        while not world.is_over:
            mover = world.to_move
            world.apply_unchecked(policy.choose(world, mover))
        return _score(world, seat)


def _score(deal: Deal, seat: int) -> float:
    """The outcome for ``seat``'s side: won +1, remise -1, codille -2 (for the declaring
    side; the reverse for the defenders), and a twentieth for each trick its side took."""
    side = deal.side
    result = deal.result
    if result is None or result == "redeal" or not side:
        return 0.0
    pot = deal.rules.outcomes[result].pot
    value = 1.0 if pot == "side" else (-1.0 if pot == "stays" else -2.0)
    side_tricks = sum(deal.won[s] for s in side)
    if seat in side:
        return value + side_tricks / 20
    return -value + (deal.rules.hand_size - side_tricks) / 20

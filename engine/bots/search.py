"""The search bot: samples the hands it cannot see, plays each choice out, keeps the best.

In the play (and at the vole), the bot deals the cards it has not seen among the other seats
-- consistent with what its seat knows (:func:`engine.bots.base.knowledge`): the cards played,
its own écart, each player's number of cards, the suits a player failed to follow, the called
king's holder once revealed, a demanded or given card -- and, for each legal card, plays the
deal out to the end with heuristic players in every seat, through the referee's own
:meth:`Deal.apply_unchecked`. It scores each outcome by the counters its seat would win or pay
(the referee's settlement, on an empty table: bots never look at the pot) and plays the card
with the best total over the samples. Bidding, calling and the écart are the heuristic bot's.

The cards it has not seen that no hand holds lie in the others' écarts or the talon left (so
many of each, as everyone saw). With ``sampling=losers`` (the adaptive plan's default) the
écarts are drawn as players make them, from their losers: a trump or the top card of a suit
weighs a tenth of another card in the draw for them, the talon taking any card alike; with
``sampling=uniform`` (the fixed plan's) every card is as likely to be out of play. (A game to
take no trick throws its high cards: there the draw is uniform.) At Ombre, where 13 cards lie
in the talon and the écarts, the losers' draw gains +0.66 [+0.23, +1.08] counters a deal over
the uniform one (400 paired deals, seat 0 among heuristic players); at Quadrille nothing is
out of play and the two are the same.

Two plans (the setting ``plan``, ``--bots search:plan=fixed``):

* ``adaptive`` (the default) spends its samples where the choice is close:

  - cards that are equals -- of one suit (or both trumps), with no card between them that is
    still out against the seat (only cards it holds, or that fell in earlier tricks, or that
    it laid out itself), neither a privileged matador nor the called or given card -- win the
    same tricks whichever is played, so one of each set is played out (the heuristic bot's own
    card when it is among them, else the lowest);
  - after ``least`` samples (2), a choice is dropped as soon as the sampled deals show it
    worse than the leader beyond doubt (its mean loss more than twice its standard error), or
    as soon as it has tied with the leader in every one of ``ties`` samples (2); the search
    stops when one choice is left, or after ``samples`` samples (by default by the size of the
    deal, :meth:`SearchBot.samples_for`: 6 at four hands of 10, 8 at three of 9);
  - equal totals go to the heuristic bot's choice.

* ``fixed`` is the bot as it was first written (and measured): every legal card, every one of
  ``samples`` samples (16), equal totals to the first legal card, the uniform draw.

The samples are drawn from the bot's own generator (not a time budget), so a seeded run plays
the same way on any machine. A sampled deal is played out once for each choice but the last
(which plays on the sample itself), and each distinct outcome is settled once (a memo).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from math import sqrt

from engine.actions import Action
from engine.bots.base import Knowledge, bits, honest, knowledge
from engine.bots.heuristic import HeuristicBot
from engine.referee import Deal
from engine.referee.settlement import TableState, settle, stakes_for
from engine.rules.model import RuleSet

_EMPTY = TableState()

BUDGET = 240
"""The adaptive plan's default samples a decision, times the cards dealt into play (the
players times the hand size): a small deal, whose playouts are short, is sampled more
(:meth:`SearchBot.samples_for`)."""

__all__ = ["PLANS", "SAMPLINGS", "SETTINGS", "SearchBot", "equal_cards"]

PLANS = ("adaptive", "fixed")
"""The search plans (the setting ``plan``)."""
SAMPLINGS = ("losers", "uniform")
"""How the cards out of play are drawn (the setting ``sampling``): the others' écarts hold
their losers, or any card alike."""
SETTINGS: Mapping[str, type] = {
    "plan": str,
    "samples": int,
    "least": int,
    "ties": int,
    "sampling": str,
}
"""The settings ``--bots search:KEY=VALUE…`` takes, with their types."""


class SearchBot(HeuristicBot):
    """Determinised Monte-Carlo search over the heuristic bot."""

    name = "search"
    plan = "adaptive"
    samples: int | None = None
    """At most this many sampled deals a decision (the fixed plan: exactly 16); None: by the
    size of the deal (:meth:`samples_for`)."""
    least = 2
    """The adaptive plan drops no choice before this many samples."""
    ties = 2
    """The adaptive plan drops a choice that tied with the leader in this many samples."""
    sampling = "losers"
    """How the cards out of play are drawn (:data:`SAMPLINGS`; the fixed plan: uniform)."""
    z = 2.0
    """The adaptive plan drops a choice whose mean loss to the leader is more than this many
    standard errors."""

    def __init__(
        self,
        seed: int | None = None,
        samples: int | None = None,
        *,
        plan: str | None = None,
        least: int | None = None,
        ties: int | None = None,
        sampling: str | None = None,
    ) -> None:
        super().__init__(seed)
        if samples is not None:
            if samples < 1:
                raise ValueError(f"search: samples must be at least 1, not {samples}")
            self.samples = samples
        if plan is not None:
            if plan not in PLANS:
                raise ValueError(f"search: plan must be one of {', '.join(PLANS)}, not {plan!r}")
            self.plan = plan
            if plan == "fixed":
                if samples is None:
                    self.samples = 16
                self.sampling = "uniform"
        if least is not None:
            if least < 1:
                raise ValueError(f"search: least must be at least 1, not {least}")
            self.least = least
        if ties is not None:
            if ties < 1:
                raise ValueError(f"search: ties must be at least 1, not {ties}")
            self.ties = ties
        if sampling is not None:
            if sampling not in SAMPLINGS:
                raise ValueError(
                    f"search: sampling must be one of {', '.join(SAMPLINGS)}, not {sampling!r}"
                )
            self.sampling = sampling
        self.policy: HeuristicBot = _Player(seed)
        self.rollouts = 0
        """Deals played out so far (for the benchmarks)."""
        self._memo: dict[tuple[object, ...], tuple[int, ...]] = {}
        self._memo_rules: object = None

    def choose(self, deal: Deal, seat: int) -> Action:
        if deal.phase not in ("play", "vole"):
            return super().choose(deal, seat)
        legal = honest(deal)
        if len(legal) == 1:
            return legal[0]
        if self.plan == "fixed":
            scores = self.evaluate(deal, seat, legal)
            best = max(range(len(legal)), key=lambda i: (scores[i], -i))
            return legal[best]
        return self._adaptive(deal, seat, legal)

    def evaluate(self, deal: Deal, seat: int, legal: Sequence[Action]) -> list[float]:
        """Returns each legal action's total score over ``samples`` sampled deals (the fixed
        plan)."""
        scores = [0.0] * len(legal)
        self.policy.rng = self.rng
        kn = knowledge(deal, seat)
        for _ in range(self.samples_for(deal.rules)):
            world = self._sample(deal, seat, kn)
            last = len(legal) - 1
            for i, action in enumerate(legal):
                scores[i] += self._play_out(world, action, seat, copy=i < last)
        return scores

    def samples_for(self, rules: RuleSet) -> int:
        """The most samples a decision takes under ``rules``: the setting ``samples``, or by
        default as many as play out about :data:`BUDGET` cards in all from the first trick
        (:data:`BUDGET` over the cards dealt into play, the players times the hand size: 6 for
        four hands of 10, 8 for three of 9), from 4 to 16."""
        if self.samples is not None:
            return self.samples
        return max(4, min(16, BUDGET // (rules.players * rules.hand_size)))

    def _adaptive(self, deal: Deal, seat: int, legal: Sequence[Action]) -> Action:
        own = self.decide(deal, seat)[0]  # the heuristic bot's choice (it draws nothing)
        choices = _representatives(deal, seat, legal, own)
        if len(choices) == 1:
            return choices[0]
        self.policy.rng = self.rng
        k = len(choices)
        pref = choices.index(own) if own in choices else 0
        alive = list(range(k))
        rows: list[list[float]] = []
        kn = knowledge(deal, seat)
        for w in range(1, self.samples_for(deal.rules) + 1):
            world = self._sample(deal, seat, kn)
            row = [0.0] * k
            last = alive[-1]
            for i in alive:
                row[i] = self._play_out(world, choices[i], seat, copy=i != last)
            rows.append(row)
            if w < self.least:
                continue
            totals = [sum(r[i] for r in rows) for i in range(k)]
            lead = max(alive, key=lambda i: (totals[i], i == pref, -i))
            kept = [lead]
            for i in alive:
                if i == lead:
                    continue
                diffs = [r[lead] - r[i] for r in rows]
                if not any(diffs):
                    if w < self.ties:
                        kept.append(i)
                    continue  # tied in every sample so far: the leader stands for it
                mean = sum(diffs) / w
                var = sum((d - mean) ** 2 for d in diffs) / (w - 1) if w > 1 else 0.0
                if mean > 0 and mean > self.z * sqrt(var / w):
                    continue  # worse beyond doubt
                kept.append(i)
            alive = sorted(kept)
            if len(alive) == 1:
                break
        totals = [sum(r[i] for r in rows) for i in range(k)]
        best = max(alive, key=lambda i: (totals[i], i == pref, -i))
        return choices[best]

    def _play_out(self, world: Deal, action: Action, seat: int, *, copy: bool = True) -> float:
        """Plays ``action`` and the deal out from ``world`` (from a copy of it, unless ``copy``
        is false: the world's last use)."""
        trial = world.copy() if copy else world
        trial.apply_unchecked(action)
        return self._rollout(trial, seat)

    def _sample(self, deal: Deal, seat: int, kn: Knowledge | None = None) -> Deal:
        """Returns a copy of the deal with the unseen cards dealt anew, consistently with
        ``kn``, what the seat knows (:func:`knowledge`, worked out once a decision)."""
        if kn is None:
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
        discarded = kept = 0
        if self.sampling == "losers" and deal.trump is not None:
            # The others' écarts (so many cards, public) are their losers: a trump or the top
            # card of its suit seldom among them (the heuristic bot's own écart), where the
            # talon left holds any card. A game to take no trick throws the other way: there
            # every card is as likely.
            discarded = sum(len(d) for who, d, _ in deal.exchanges if who != seat)
            contract = deal.contract
            if discarded and not (contract is not None and contract.no_tricks):
                kept = _kept(deal)
        dealt = _deal_unseen(pool, need, forbidden, in_play, rng, discarded=discarded, kept=kept)
        for s in range(n):
            hands[s] |= dealt[s]
            if hidden_partner and called is not None and dealt[s] >> called & 1:
                # With the declarer only where no one else may hold it (the voids shown): he
                # called his own king and plays alone.
                partner = s if s != deal.declarer else None
        for s in range(n):
            if s != seat:
                world.hands[s] = hands[s]
        if partner != deal.partner:
            world.partner = partner
        # The hands at the start of play, as sampled (the matadors are counted from them).
        world.start_hands = tuple(world.hands[s] | kn.played_by[s] for s in range(n))
        return world

    def _rollout(self, world: Deal, seat: int) -> float:
        self.rollouts += 1
        decide = self.policy.decide
        apply = world.apply_unchecked
        while not world.is_over:
            apply(decide(world, world.to_move)[0])
        if world.rules is not self._memo_rules or len(self._memo) > 4096:
            self._memo_rules = world.rules
            self._memo.clear()
        return _score(world, seat, self._memo)


class _Player(HeuristicBot):
    """The heuristic bot as it plays the sampled deals out: the same choices, with the cards
    played read off the hands (what each seat held when play began, less what it holds now)
    instead of the tricks -- in a deal played out by bots, the two are the same cards."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self._start: tuple[int, ...] = ()
        self._started = 0
        self._out: dict[int, int] = {}

    def _unseen(self, deal: Deal, seat: int) -> int:
        start = deal.start_hands
        if start is not self._start:
            # A sampled deal's hands at the start of play, and each seat's own écart, are the
            # same in every copy of it played out: worked out once a sample.
            self._start = start
            self._started = 0
            for h in start:
                self._started |= h
            self._out = {}
        out = self._out.get(seat)
        if out is None:
            out = 0
            for who, discarded, _ in deal.exchanges:
                if who == seat:
                    for c in discarded:
                        out |= 1 << c
            self._out[seat] = out
        now = 0
        for h in deal.hands:
            now |= h
        return deal.t.deck_mask & ~(self._started & ~now) & ~deal.hands[seat] & ~out


def make(settings: Mapping[str, object], seed: int | None = None) -> SearchBot:
    """Returns a search bot with ``settings`` (:data:`SETTINGS`), checked."""
    return SearchBot(
        seed,
        samples=_int(settings, "samples"),
        plan=str(settings["plan"]) if "plan" in settings else None,
        least=_int(settings, "least"),
        ties=_int(settings, "ties"),
        sampling=str(settings["sampling"]) if "sampling" in settings else None,
    )


def _int(settings: Mapping[str, object], key: str) -> int | None:
    value = settings.get(key)
    return None if value is None else int(str(value))


def equal_cards(deal: Deal, seat: int, cards: Sequence[int]) -> list[list[int]]:
    """Groups the cards ``seat`` may play into sets of equals: cards of one following class
    (a suit, or the trumps) with no card between them still out against the seat -- every card
    ranked between them is in its hand, fell in an earlier trick, or lies in its own écart --
    and none of them a privileged matador, the called card or the given card. Whichever of a
    set is played, the same tricks are won. Each set lists its cards lowest first."""
    trump = deal.trump
    if trump is None:
        return [[c] for c in cards]
    t = deal.t
    strength = t.strength[trump]
    follow = t.follow[trump]
    special = t.privileged_mask[trump] if t.privileged_mask else 0
    for c in (deal.called, deal.given):
        if c is not None:
            special |= 1 << c
    gone = deal.hands[seat]
    for _, fallen, _ in deal.played_tricks:
        for c in fallen:
            gone |= 1 << c
    for who, discarded, _ in deal.exchanges:
        if who == seat:
            for c in discarded:
                gone |= 1 << c
    groups: list[list[int]] = []
    for c in sorted(cards, key=lambda c: (follow[c], strength[c])):
        last = groups[-1][-1] if groups else None
        if (
            last is not None
            and not special >> c & 1
            and not special >> last & 1
            and follow[last] == follow[c]
            and not any(
                strength[last] < strength[d] < strength[c]
                for d in bits(t.class_mask[trump][follow[c]] & t.deck_mask & ~gone)
            )
        ):
            groups[-1].append(c)
        else:
            groups.append([c])
    return groups


def _representatives(deal: Deal, seat: int, legal: Sequence[Action], own: Action) -> list[Action]:
    """The legal actions less the equals of a card kept (:func:`equal_cards`): from each set
    the heuristic bot's card if it is there, else the lowest. Actions other than playing a
    card are kept as they are."""
    plays = {a.card.index: a for a in legal if a.verb == "play" and a.card is not None}
    if len(plays) < 2:
        return list(legal)
    keep: set[int] = set()
    mine = own.card.index if own.verb == "play" and own.card is not None else None
    for group in equal_cards(deal, seat, list(plays)):
        keep.add(mine if mine in group else group[0])
    return [a for a in legal if a.verb != "play" or a.card is None or a.card.index in keep]


def _kept(deal: Deal) -> int:
    """The cards a player keeps from his écart (the heuristic bot's, :mod:`engine.bots.heuristic`):
    the trumps and the top card of each plain suit, a mask."""
    trump = deal.trump
    assert trump is not None
    t = deal.t
    top = 0
    for suit in range(4):
        cards = t.class_mask[trump][suit] & t.deck_mask
        if cards:
            strength = t.strength[trump]
            top |= 1 << max(bits(cards), key=lambda c: strength[c])
    return (t.class_mask[trump][4] & t.deck_mask) | top


_KEPT = 0.1
"""The weight of a kept card (:func:`_kept`) in the draw for the écarts, another card's being 1."""


def _deal_unseen(
    pool: list[int],
    need: list[int],
    forbidden: list[int],
    in_play: int,
    rng: random.Random,
    *,
    discarded: int = 0,
    kept: int = 0,
) -> list[int]:
    """Deals the unseen cards: ``need[s]`` to each seat, none it is known not to hold; the rest
    stay out of play (talon, écarts) -- but not the cards of ``in_play``. Cards with the fewest
    possible holders go first, each to a holder drawn in proportion to the room left; a dead
    end starts again (at most 20 times, then the voids are ignored rather than fail -- but a
    card of ``in_play`` still goes to a seat that may hold it, where one can). Of the cards out
    of play, ``discarded`` lie in écarts, where a card of ``kept`` goes :data:`_KEPT` times as
    often as another (the rest of the room out of play, the talon, takes any card alike)."""
    n = len(need)
    spare = len(pool) - sum(need)
    discarded = min(discarded, spare)
    seats = [s for s in range(n) if need[s] > 0]
    for _ in range(20):
        rng.shuffle(pool)
        cards = sorted(pool, key=lambda c: sum(1 for s in seats if not forbidden[s] >> c & 1))
        room = list(need)
        talon_room = spare - discarded
        ecart_room = discarded
        hands = [0] * n
        for c in cards:
            eligible = [s for s in seats if room[s] > 0 and not forbidden[s] >> c & 1]
            if in_play >> c & 1:
                out = 0.0
            elif kept >> c & 1:
                out = talon_room + ecart_room * _KEPT
            else:
                out = talon_room + ecart_room
            total = sum(room[s] for s in eligible) + out
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
                if r < talon_room:
                    talon_room -= 1
                else:
                    ecart_room -= 1
        else:
            return hands
    hands = [0] * n
    for s in seats:
        for _ in range(need[s]):
            hands[s] |= 1 << pool.pop()
    # Even so, a card of ``in_play`` (the called king, which the declarer cannot hold) goes to
    # a seat that may hold it, in exchange for one of that seat's other cards.
    for c in bits(in_play):
        holder = next((s for s in seats if hands[s] >> c & 1), None)
        if holder is None or not forbidden[holder] >> c & 1:
            continue
        for s in seats:
            spare_cards = hands[s] & ~in_play
            if s != holder and not forbidden[s] >> c & 1 and spare_cards:
                d = spare_cards & -spare_cards
                hands[s] ^= d | 1 << c
                hands[holder] ^= d | 1 << c
                break
    return hands


def _score(
    deal: Deal, seat: int, memo: dict[tuple[object, ...], tuple[int, ...]] | None = None
) -> float:
    """The counters ``seat`` wins or loses in this outcome, settled by the referee's
    :func:`settle` on an empty table with the ordinary stakes (so that a decision never depends
    on what lies on the table), with a hundredth of a counter for each trick its side took.
    ``memo`` keeps the balances of outcomes settled before (by everything :func:`settle` is
    given, of one rule set): the playouts of a deal end in few distinct outcomes."""
    rules = deal.rules
    result = deal.result
    if result is None or result == "redeal" or deal.declarer is None:
        return 0.0
    n = deal.n
    contract = deal.contract.id if deal.contract is not None else None
    matadors = deal.paid_matadors()
    key = (
        result,
        contract,
        deal.dealer,
        deal.declarer,
        deal.partner,
        tuple(deal.won),
        matadors,
        tuple(deal.transfers),
    )
    balances = memo.get(key) if memo is not None else None
    if balances is None:
        balances = settle(
            rules,
            n=n,
            table=_EMPTY,
            stakes=stakes_for(rules, deal.dealer, n, rules.stakes),
            result=result,
            contract=contract,
            declarer=deal.declarer,
            partner=deal.partner,
            tricks=deal.won,
            matadors=matadors,
            transfers=deal.transfers,
        ).balances
        if memo is not None:
            memo[key] = tuple(balances)
    side = deal.side
    taken = sum(deal.won[x] for x in side)
    mine = taken if seat in side else sum(deal.won) - taken
    return balances[seat] + mine / 100

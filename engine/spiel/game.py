"""Every rule file as an OpenSpiel game, ``ombre_workbench``, refereed by the workbench's referee.

``pyspiel.load_game("ombre_workbench(ruleset=quadrille)")`` (after ``import engine.spiel``)
is one deal of a ruleset or variant on an empty table, dealt by ``dealer``:

* the deal is explicit chance nodes, a card at a time (:mod:`engine.spiel.codec`);
* every decision is the referee's own: the legal actions are those of
  :meth:`engine.referee.Deal.legal_actions` and each is applied by :meth:`Deal.apply`, checked
  (an écart is decomposed into single cards, each checked against the referee's list);
* the observations show :meth:`Deal.view` -- what the seat may see -- and the public state is
  what every seat's view shows alike (the strings written from the view, the tensors read off
  the same fields of the deal, its card masks, with the referee's answers to what the seat may
  see: :meth:`OmbreObserver.ones`); the information state adds what the seat saw and no view
  keeps: the cards it was dealt, its own écart, the number of moves;
* :class:`engine.spiel.pystate.PythonGame` is the same game with states in Python alone, for
  OpenSpiel's Python algorithms;
* the returns are the deal's settlement (counters won or lost, stakes included). A remise
  leaves counters in the pot for the next deal, so the returns need not sum to zero: the game
  is general-sum.

Parameters (with defaults): ``ruleset`` (``quadrille``: an id, alias or path), ``options``
(setup options as ``key:value;key:value``, default none), ``dealer`` (0), and ``deals`` (0)
with ``deal_seed`` (0): ``deals=K`` (K > 0) restricts chance to K deals sampled once from
``deal_seed``, one chance node picking among them uniformly -- an abstraction of the game's
chance, for solvers that walk the whole tree (``deals=0``, the default, deals every card).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping
from operator import itemgetter
from typing import Any, ClassVar, TypeVar

import numpy as np
import pyspiel

from engine.actions import Action
from engine.bots.base import bits, honest, knowledge
from engine.bots.search import SearchBot
from engine.cards import ALL_CARDS, PACK_SIZE, Card
from engine.errors import IllegalActionError, NotationError
from engine.referee import Deal
from engine.referee.state import PHASES, PLAY, Phase
from engine.rules.model import NO_TRUMPS, RuleSet
from engine.spiel.codec import DRAW_ID, Codec, cards_of, parse_options

__all__ = [
    "GAME_TYPE",
    "SHORT_NAME",
    "Core",
    "GameSpec",
    "OmbreGame",
    "OmbreObserver",
    "OmbreState",
    "StateAnswers",
]

SHORT_NAME = "ombre_workbench"
DEFAULTS: dict[str, Any] = {
    "ruleset": "quadrille",
    "options": "",
    "dealer": 0,
    "deals": 0,
    "deal_seed": 0,
}

GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Ombre workbench: a deal of an Ombre-family rule file",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    # A remise leaves the stakes in the pot for the next deal: the balances do not sum to 0.
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=5,
    min_num_players=3,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    provides_factored_observation_string=True,
    parameter_specification=DEFAULTS,
)

_PUBLIC_TENSOR_KEYS = (
    "phase",
    "to_move",
    "dealer",
    "declarer",
    "contract",
    "trump",
    "called",
    "turned",
    "talon",
    "exchanges",
    "trick",
    "trick_leader",
    "tricks_won",
    "vole",
    "played",
)


_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)

_PRIVATE_FIELDS = frozenset(("seat", "hand", "partner", "given", "legal"))
# View fields that only some contracts fill (issue 16): left out while they hold their default,
# so the strings of games without such contracts stay as they were.
_DEFAULT_FIELDS = (("no_trumps", False), ("declarer_hand", None))
"""The fields of :meth:`Deal.view` that may differ from seat to seat (the rest every seat
sees alike)."""


class GameSpec:
    """A game's ruleset, setup and codec: shared by its states (never copied, pickled by name)."""

    _known: ClassVar[dict[tuple[str, str, int, int, int], GameSpec]] = {}

    def __init__(
        self,
        ruleset: str,
        options: str,
        dealer: int,
        rules: RuleSet | None = None,
        deals: int = 0,
        deal_seed: int = 0,
    ) -> None:
        from engine.rules import load_ruleset

        self.key = (ruleset, options, dealer, deals, deal_seed)
        try:
            self.rules: RuleSet = rules if rules is not None else load_ruleset(ruleset)
            self.options = parse_options(options)
            self.rules.setup(self.options or None)
        except (NotationError, ValueError) as e:
            raise ValueError(f"{SHORT_NAME}: {e}") from None
        if not 0 <= dealer < self.rules.players:
            raise ValueError(
                f"{SHORT_NAME}: dealer must be a seat from 0 to {self.rules.players - 1}"
            )
        self.codec = Codec(self.rules, self.options, dealer)
        self.dealer = dealer
        self.deals: tuple[tuple[int, ...], ...] = _sample_deals(self.codec, deals, deal_seed)
        """Under ``deals=K``: the K packs chance picks from (each in the deal plan's slot
        order); empty when every card is dealt by chance."""
        # The chance outcomes' (card, probability) pairs, made once: pairs[k][card] is the card
        # with probability 1/k, when k cards are left to deal.
        size = len(self.codec.deck)
        self.pairs: tuple[tuple[tuple[int, float], ...], ...] = (
            (),
            *(tuple((c, 1.0 / k) for c in range(PACK_SIZE)) for k in range(1, size + 1)),
        )

    @classmethod
    def get(
        cls,
        ruleset: str,
        options: str,
        dealer: int,
        rules: RuleSet | None = None,
        deals: int = 0,
        deal_seed: int = 0,
    ) -> GameSpec:
        """Returns the spec of these parameters (made once per process); ``rules``: the
        ruleset already loaded under the name ``ruleset``."""
        key = (ruleset, options, dealer, deals, deal_seed)
        spec = cls._known.get(key)
        if spec is None:
            spec = cls._known[key] = GameSpec(ruleset, options, dealer, rules, deals, deal_seed)
        return spec

    def __deepcopy__(self, memo: Any) -> GameSpec:
        return self

    def __reduce__(self) -> Any:
        return (_spec_again, self.key)


def _spec_again(
    ruleset: str, options: str, dealer: int, deals: int = 0, deal_seed: int = 0
) -> GameSpec:
    return GameSpec.get(ruleset, options, dealer, None, deals, deal_seed)


def _distinct_deals(codec: Codec) -> int:
    """The number of different deals of the pack into the deal plan's slots: each hand a set
    of cards, the talon a sequence (its order is the order of the draws)."""
    sizes = [codec.slots.count(s) for s in sorted(set(codec.slots)) if s >= 0]
    talon = codec.slots.count(-1)
    left = len(codec.deck)
    count = 1
    for size in sizes:
        count *= math.comb(left, size)
        left -= size
    return count * math.perm(left, talon)


def _sample_deals(codec: Codec, deals: int, seed: int) -> tuple[tuple[int, ...], ...]:
    """Returns ``deals`` different deals, each a pack in slot order, shuffled from ``seed``
    (none for ``deals=0``: chance deals every card)."""
    if deals < 0:
        raise ValueError(
            f"{SHORT_NAME}: deals must be 0 (every deal) or a number of deals, not {deals}"
        )
    if deals == 0:
        return ()
    most = _distinct_deals(codec)
    if deals > most:
        raise ValueError(
            f"{SHORT_NAME}: deals={deals} is more than the {most} different deals of this game"
        )
    rng = random.Random(seed)
    seen: set[tuple[Any, ...]] = set()
    out: list[tuple[int, ...]] = []
    deck = list(codec.deck)
    slots = codec.slots
    while len(out) < deals:
        rng.shuffle(deck)
        hands: dict[int, list[int]] = {}
        for seat, card in zip(slots, deck, strict=True):
            hands.setdefault(seat, []).append(card)
        for seat in hands:
            if seat >= 0:
                hands[seat].sort()
        key = tuple(sorted((seat, tuple(cards)) for seat, cards in hands.items()))
        if key in seen:
            continue
        seen.add(key)
        at = dict.fromkeys(hands, 0)
        pack = []
        for seat in slots:
            pack.append(hands[seat][at[seat]])
            at[seat] += 1
        out.append(tuple(pack))
    return tuple(out)


class Core:
    """A state's content: the pack dealt so far, then the referee's deal and a pending écart.

    Copied with :meth:`Deal.copy` (OpenSpiel deep-copies a Python state's attributes) and
    pickled as the actions that led to it (replayed through the referee on loading).
    """

    __slots__ = ("deal", "left", "moves", "pack", "picks", "resampled", "spec")

    def __init__(self, spec: GameSpec) -> None:
        self.spec = spec
        self.pack: list[int] = []
        self.left: list[int] = list(range(len(spec.deals))) if spec.deals else list(spec.codec.deck)
        """The cards not dealt yet, in index order (the chance outcomes); under ``deals=K``
        the deals to pick from, 0 to K-1, until one is picked."""
        self.deal: Deal | None = None
        self.picks: tuple[int, ...] = ()
        self.moves: list[int] = []
        self.resampled = False

    def __deepcopy__(self, memo: Any) -> Core:
        other = object.__new__(Core)
        other.spec = self.spec
        other.pack = list(self.pack)
        other.left = list(self.left)
        other.deal = self.deal.copy() if self.deal is not None else None
        other.picks = self.picks
        other.moves = list(self.moves)
        other.resampled = self.resampled
        return other

    def __reduce__(self) -> Any:
        if self.resampled:
            raise pyspiel.SpielError(
                f"{SHORT_NAME}: a resampled state stands for a world the seat imagines and "
                "has no history to serialize"
            )
        return (_replay, (self.spec, tuple(self.moves)))

    # Moving.

    def apply(self, action_id: int) -> None:
        deal = self.deal
        if deal is None:
            self.deal_card(action_id)
            return
        decoded = self.spec.codec.decode(action_id)
        try:
            if type(decoded) is Action:
                deal.apply(decoded)  # checked by the referee
            elif action_id not in self.legal():
                raise pyspiel.SpielError(
                    f"{SHORT_NAME}: {self.spec.codec.describe(action_id)} is not legal now"
                )
            elif isinstance(decoded, int):
                self.picks = (*self.picks, decoded)
            else:
                cards = tuple(ALL_CARDS[c] for c in self.picks)
                self.picks = ()
                deal.apply(Action("discard", cards=cards))
        except (NotationError, IllegalActionError, pyspiel.SpielError) as e:
            raise pyspiel.SpielError(f"{SHORT_NAME}: {e}") from None
        self.moves.append(action_id)

    def deal_card(self, card: int) -> None:
        """Deals the next card of the pack (a chance outcome), then the deal once all are;
        under ``deals=K``, ``card`` picks the whole deal."""
        left = self.left
        deals = self.spec.deals
        if deals:
            if self.pack or not 0 <= card < len(deals):
                raise pyspiel.SpielError(f"{SHORT_NAME}: chance outcome {card} not legal")
            self.pack = list(deals[card])
            self.left = []
            self.moves.append(card)
            self._deal()
            return
        try:
            left.remove(card)
        except ValueError:
            raise pyspiel.SpielError(f"{SHORT_NAME}: chance outcome {card} not legal") from None
        self.pack.append(card)
        self.moves.append(card)
        if not left:
            self._deal()

    def _deal(self) -> None:
        spec = self.spec
        n = spec.rules.players
        hands: list[list[Card]] = [[] for _ in range(n)]
        talon: list[Card] = []
        for seat, card in zip(spec.codec.slots, self.pack, strict=True):
            (talon if seat < 0 else hands[seat]).append(ALL_CARDS[card])
        self.deal = Deal(
            spec.rules,
            dealer=spec.dealer,
            hands=hands,
            talon=talon,
            options=spec.options or None,
        )

    def legal(self) -> list[int]:
        deal = self.deal
        if deal is None:
            return list(self.left)
        if deal.is_over:
            return []
        codec = self.spec.codec
        if deal.phase is PLAY and deal.irregular is None:
            # The cards the referee lets him play (its legal actions are their plays, and the
            # revokes a bot never makes: engine.bots.base.honest).
            return codec.plays(deal.legal_plays())
        legal = honest(deal)
        if deal.phase == "exchange":
            # The écart one card at a time, lowest first: a card is offered if the referee
            # accepts the écart that goes on with it; closing it is always offered (what was
            # picked so far is itself an écart the referee accepted, or none).
            low = self.picks[-1] if self.picks else -1
            picked = tuple(ALL_CARDS[c] for c in self.picks)
            why = deal.exchange_why()
            least = why.least if why is not None else 0
            hand = [c for c in bits(deal.hands[deal.to_move]) if c > low]
            # A card is offered if some écart the referee accepts goes on with it (enough
            # higher cards are left to meet a duty to buy); closing is offered once the cards
            # picked are themselves an écart it accepts.
            out = [
                codec.pick_base + c
                for k, c in enumerate(hand)
                if Action("discard", cards=(*picked, ALL_CARDS[c])) in legal
                or (
                    len(picked) + 1 < least
                    and len(hand) - k - 1 >= least - len(picked) - 1
                    and len(picked) + 1 <= deal.exchange_limit()
                )
            ]
            close = [DRAW_ID] if Action("discard", cards=picked) in legal else []
            defer = [codec.defer_id] if not picked and deal.may_defer() else []
            return [*close, *out, *defer]
        return sorted(codec.encode(a) for a in legal)


def _replay(spec: GameSpec, moves: tuple[int, ...]) -> Core:
    core = Core(spec)
    for m in moves:
        core.apply(m)
    return core


class OmbreGame(pyspiel.Game):
    """One deal of a ruleset or variant, as an OpenSpiel game."""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        given = {**DEFAULTS, **dict(params or {})}
        spec = GameSpec.get(
            str(given["ruleset"]),
            str(given["options"]),
            int(given["dealer"]),
            deals=int(given["deals"]),
            deal_seed=int(given["deal_seed"]),
        )
        codec = spec.codec
        bound = codec.utility_bound()
        info = pyspiel.GameInfo(
            num_distinct_actions=codec.num_actions,
            max_chance_outcomes=max(PACK_SIZE, len(spec.deals)),
            num_players=spec.rules.players,
            min_utility=-float(bound),
            max_utility=float(bound),
            utility_sum=None,
            max_game_length=codec.max_decisions(),
        )
        super().__init__(GAME_TYPE, info, given)
        self.spec = spec

    def max_chance_nodes_in_history(self) -> int:
        """The chance nodes of one deal: one per card of the pack (OpenSpiel's C++ side asks
        this too; ``max_move_number`` and ``max_history_length`` are this plus
        ``max_game_length``, the players' decisions); one under ``deals=K``."""
        return 1 if self.spec.deals else self.spec.codec.chance_nodes()

    def new_initial_state(self) -> OmbreState:
        """Returns the state before the deal: a chance node."""
        return OmbreState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None
    ) -> OmbreObserver:
        """Returns an observer (OpenSpiel's PyObserver interface) of the given type."""
        return OmbreObserver(
            self.spec,
            iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False),
            params,
        )


_S = TypeVar("_S", bound="StateAnswers")


class StateAnswers:
    """What a state answers in Python, from its :class:`Core` (``self.core``): shared by
    :class:`OmbreState` (OpenSpiel's C++ state keeps the history) and
    :class:`engine.spiel.python.PythonState` (a state in Python alone)."""

    core: Core
    clone: Callable[[], Any]
    """The state's copy (OpenSpiel's for :class:`OmbreState`): annotated only, not defined."""

    def current_player(self) -> int:
        """Returns the seat to move, or chance, or terminal."""
        deal = self.core.deal
        if deal is None:
            return _CHANCE
        if deal.is_over:
            return _TERMINAL
        return deal.to_move

    def is_chance_node(self) -> bool:
        """Checks if the deal is being dealt (the same answer as OpenSpiel's, asked of Python
        without a round trip through C++)."""
        return self.core.deal is None

    def legal_actions(self, player: int | None = None) -> list[int]:
        """Returns the legal actions of ``player`` (default: the player to move), as OpenSpiel's
        ``State.legal_actions`` does for a Python game -- none at the end, the chance outcomes
        at a chance node, none for a seat not to move -- without the round trip through C++
        (which C++ callers still take, to :meth:`_legal_actions`)."""
        core = self.core
        deal = core.deal
        if deal is None:
            return list(core.left)
        if player is None or player == deal.to_move:
            if deal.phase is PLAY and deal.irregular is None:
                # The cards the referee lets him play (as Core.legal answers, without the
                # second call).
                return core.spec.codec.plays(deal.legal_plays())
            return core.legal()
        if deal.is_over:
            return []
        if player < 0:
            raise pyspiel.SpielError(f"Called LegalActions for pseudo-player {player}")
        return []

    def _legal_actions(self, player: int) -> list[int]:
        return self.core.legal() if player == self.current_player() else []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Returns the cards that may come next in the pack, each equally likely."""
        left = self.core.left
        n = len(left)
        if self.core.spec.deals:
            return [(k, 1.0 / n) for k in left]
        if n > 1:
            return list(itemgetter(*left)(self.core.spec.pairs[n]))
        return [self.core.spec.pairs[1][left[0]]] if n else []

    def _apply_action(self, action: int) -> None:
        core = self.core
        if core.deal is None:
            core.deal_card(action)
        else:
            core.apply(action)

    def _action_to_string(self, player: int, action: int) -> str:
        codec = self.core.spec.codec
        if player == pyspiel.PlayerId.CHANCE:
            if self.core.spec.deals:
                return self._deal_string(action)
            slot = codec.slots[len(self.core.pack)] if len(self.core.pack) < len(codec.deck) else -1
            whom = "the talon" if slot < 0 else f"seat {slot}"
            return f"deal {ALL_CARDS[action]} to {whom}"
        return codec.describe(action)

    def _deal_string(self, action: int) -> str:
        """Describes deal ``action`` of the ``deals=K`` abstraction: each seat's hand, then
        the talon top card first."""
        spec = self.core.spec
        if not 0 <= action < len(spec.deals):
            return f"deal #{action} (not a deal of this game)"
        parts: dict[int, list[str]] = {}
        for seat, card in zip(spec.codec.slots, spec.deals[action], strict=True):
            parts.setdefault(seat, []).append(str(ALL_CARDS[card]))
        text = "; ".join(f"seat {s}: {' '.join(parts[s])}" for s in sorted(parts) if s >= 0)
        if -1 in parts:
            text += f"; talon: {' '.join(parts[-1])}"
        return f"deal #{action}: {text}"

    def is_terminal(self) -> bool:
        deal = self.core.deal
        return deal is not None and deal.is_over

    def returns(self) -> list[float]:
        """Returns each seat's counters for the deal (its stake included), 0 before the end."""
        deal = self.core.deal
        n = self.core.spec.rules.players
        if deal is None or not deal.is_over:
            return [0.0] * n
        s = deal.settlement
        assert s is not None
        return [float(b) for b in s.balances]

    def resample_from_infostate(self: _S, player_id: int, probability_sampler: Any) -> _S:
        """Returns a state the seat cannot tell from this one: the cards it has not seen dealt
        anew among the other hands and the talon, consistently with what it knows
        (:func:`engine.bots.base.knowledge`: the voids shown, the called card's holder once
        known, the demanded and given cards; in the play, the search bot's own sampler).

        The sampler's draws seed the deal (OpenSpiel's UniformProbabilitySampler).
        """
        seed = int(probability_sampler() * 2**53) if callable(probability_sampler) else 0
        rng = random.Random(seed)
        other: _S = self.clone()
        core = other.core
        deal = core.deal
        if deal is None or deal.is_over:
            return other
        core.deal = _sample_world(deal, player_id, rng)
        core.resampled = True
        return other

    def __str__(self) -> str:
        core = self.core
        deal = core.deal
        if deal is None:
            return " ".join(str(ALL_CARDS[c]) for c in core.pack)
        lines = [f"seat {s}: {' '.join(str(c) for c in deal.hand(s))}" for s in range(deal.n)]
        lines.append("talon: " + " ".join(str(ALL_CARDS[c]) for c in deal.talon[deal.talon_pos :]))
        lines.append(f"phase: {deal.phase}")
        lines.append("actions: " + ", ".join(deal.record_actions()))
        if core.picks:
            lines.append("picked: " + " ".join(str(ALL_CARDS[c]) for c in core.picks))
        return "\n".join(lines)


class OmbreState(StateAnswers, pyspiel.State):
    """A state of the deal: the referee's :class:`Deal` once dealt, the pack before."""

    def __init__(self, game: OmbreGame) -> None:
        super().__init__(game)
        self.core = Core(game.spec)


def _sample_world(deal: Deal, seat: int, rng: random.Random) -> Deal:
    """The deal with the cards ``seat`` has not seen dealt anew (see ``resample_from_infostate``)."""
    if deal.phase in ("play", "vole"):
        bot = SearchBot(0)
        bot.rng = rng
        return bot._sample(deal, seat)
    kn = knowledge(deal, seat)
    n = deal.n
    world = deal.copy()
    known = 0
    for mask in kn.located:
        known |= mask
    pool = list(bits(deal.t.deck_mask & ~kn.played & ~known & ~kn.out))
    rng.shuffle(pool)
    called = deal.called
    hands = list(kn.located)
    for s in range(n):
        if s == seat:
            continue
        need = deal.hands[s].bit_count() - kn.located[s].bit_count()
        for _ in range(need):
            hands[s] |= 1 << pool.pop()
        world.hands[s] = hands[s]
    left = len(deal.talon) - deal.talon_pos
    world.talon = list(deal.talon[: deal.talon_pos]) + [pool.pop() for _ in range(left)]
    if called is not None and not kn.partner_known:
        holder = next((s for s in range(n) if world.hands[s] >> called & 1), None)
        if deal.contract is not None and deal.contract.help == "call":
            world.partner = holder if holder != deal.declarer else None
    return world


class OmbreObserver:
    """Observations of a state for one seat, as OpenSpiel's PyObserver: a tensor and a string.

    ``perfect_recall`` adds the history (the auction, every trick, the seat's own deal and
    écart); ``public_info`` gives what every seat's view shows alike; ``private_info`` (single
    player) what only this seat's view shows. ``private_info=ALL_PLAYERS``, asked for
    explicitly, is the perfect-information observer, for tests and oracle baselines: every
    seat's hand, the talon in order, the called card's holder and an écart in progress (with
    ``perfect_recall``, every seat's dealt cards and exchange), whoever observes. No default
    observer (the observation and information state strings and tensors) is of that type.
    """

    def __init__(self, spec: GameSpec, iig_obs_type: Any, params: Mapping[str, Any] | None) -> None:
        if params:
            raise ValueError(f"{SHORT_NAME}: observation parameters are not supported: {params}")
        self.spec = spec
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.public = bool(iig_obs_type.public_info)
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.all_players = iig_obs_type.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS
        rules = spec.rules
        n = rules.players
        c = len(spec.codec.contracts)
        hs = rules.hand_size
        pieces: list[tuple[str, int, tuple[int, ...]]] = []
        if self.all_players:
            pieces += _all_pieces(n, rules.talon, self.perfect_recall)
        if self.private:
            pieces += [
                ("player", n, (n,)),
                ("hand", PACK_SIZE, (PACK_SIZE,)),
                ("partner", n + 1, (n + 1,)),
                ("given", PACK_SIZE, (PACK_SIZE,)),
                ("picked", PACK_SIZE, (PACK_SIZE,)),
                # The moves the view offers the seat (its string's ``legal``), by action id.
                ("legal", spec.codec.num_actions, (spec.codec.num_actions,)),
            ]
            if self.perfect_recall:
                pieces += [
                    ("dealt", PACK_SIZE, (PACK_SIZE,)),
                    ("discarded", PACK_SIZE, (PACK_SIZE,)),
                    ("drawn", PACK_SIZE, (PACK_SIZE,)),
                ]
        if self.public:
            pieces += [
                ("phase", len(PHASES), (len(PHASES),)),
                ("to_move", n + 1, (n + 1,)),
                ("dealer", n, (n,)),
                ("declarer", n + 1, (n + 1,)),
                ("contract", c + 1, (c + 1,)),
                ("trump", 5, (5,)),
                ("called", PACK_SIZE, (PACK_SIZE,)),
                ("turned", PACK_SIZE, (PACK_SIZE,)),
                ("public_partner", n + 1, (n + 1,)),
                ("demanded_from", n + 1, (n + 1,)),
                ("declarer_hand", PACK_SIZE, (PACK_SIZE,)),
                ("talon", rules.talon + 1, (rules.talon + 1,)),
                ("exchanges", n * (rules.talon + 1), (n, rules.talon + 1)),
                ("trick", n * PACK_SIZE, (n, PACK_SIZE)),
                ("trick_leader", n, (n,)),
                ("tricks_won", n * (hs + 1), (n, hs + 1)),
                ("vole", 1, (1,)),
                ("played", PACK_SIZE, (PACK_SIZE,)),
            ]
            if self.perfect_recall:
                length = spec.codec.auction_length()
                pieces += [
                    # Each speech: its seat, its contract (or a pass) and the suit a bid
                    # names with it (``trump_with_bid``; the last column: none).
                    ("auction", length * (n + c + 1 + 5), (length, n + c + 1 + 5)),
                    ("history", hs * n * PACK_SIZE, (hs, n, PACK_SIZE)),
                    ("leaders", hs * n, (hs, n)),
                ]
        size = sum(p[1] for p in pieces)
        self.n = n
        self.size = size
        self.tensor = np.zeros(size, np.float32)
        self.dict: dict[str, Any] = {}
        self.at: dict[str, int] = {}
        """Each piece's first index in the flat tensor."""
        at = 0
        for name, length_, shape in pieces:
            self.dict[name] = self.tensor[at : at + length_].reshape(shape)
            self.at[name] = at
            at += length_
        self._bid = {cid: i for i, cid in enumerate(spec.codec.contracts)}
        self._phase = {phase: i for i, phase in enumerate(Phase)}
        self._auction_rows = spec.codec.auction_length()

    # What the referee shows.

    def _views(self, state: StateAnswers, player: int) -> tuple[dict[str, Any], dict[str, Any]]:
        """Returns (the public state, the seat's private view) from the referee's views."""
        deal = state.core.deal
        if deal is None:
            return {}, {}
        mine = deal.view(player)
        # Which fields are private is fixed, not found by comparing the seats' views: whether
        # another seat's view differs (a self-caller knows his own king) is itself hidden.
        shown: dict[str, Any] = dict(mine.as_json())
        for key, default in _DEFAULT_FIELDS:
            if shown.get(key) == default:
                shown.pop(key, None)
        public = {k: v for k, v in shown.items() if k not in _PRIVATE_FIELDS}
        private = {k: v for k, v in shown.items() if k in _PRIVATE_FIELDS}
        if deal.called is not None and deal.partner_public():
            # The called card has appeared: who holds it is every seat's to see.
            public["public_partner"] = "none" if deal.partner is None else deal.partner
        return public, private

    def set_from(self, state: StateAnswers, player: int) -> None:
        """Fills the tensor from the state, as ``player`` sees it (:meth:`ones`: every piece
        is one-hot or a set of flags, so the tensor is its ones)."""
        tensor = self.tensor
        tensor.fill(0)
        tensor[self.ones(state, player)] = 1

    def ones(self, state: StateAnswers, player: int) -> list[int]:
        """Returns the indices of the tensor's ones for ``player`` in ``state`` (an
        :class:`OmbreState` or a :class:`~engine.spiel.python.PythonState`): read off the
        referee's deal -- its cards are masks, its tricks and auction lists -- with the
        referee's own answers to what the seat may see (:meth:`Deal.holder_known_to`,
        :meth:`Deal.given_visible_to`, :meth:`Deal.declarer_shown`,
        :meth:`Deal.partner_public`), the fields :meth:`Deal.view` shows the seat and no more.

        :raises pyspiel.SpielError: if ``player`` is not a seat of the game.
        """
        core = state.core
        deal = core.deal
        n = self.n
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < n:
            raise pyspiel.SpielError(f"{SHORT_NAME}: a seat is a number from 0 to {n - 1}")
        at = self.at
        out: list[int] = []
        if self.private:
            out.append(at["player"] + player)
        if deal is None:
            if self.private and self.perfect_recall:
                base = at["dealt"]
                out += [
                    base + card
                    for seat, card in zip(self.spec.codec.slots, core.pack, strict=False)
                    if seat == player
                ]
            if self.all_players and self.perfect_recall:
                base = at["dealt"]
                out += [
                    base + seat * PACK_SIZE + card
                    for seat, card in zip(self.spec.codec.slots, core.pack, strict=False)
                    if seat >= 0
                ]
            return out
        if self.all_players:
            self._all_ones(core, deal, out)
        if self.private:
            self._private_ones(core, deal, player, out)
        if self.public:
            self._public_ones(deal, out)
        return out

    def _private_ones(self, core: Core, deal: Deal, player: int, out: list[int]) -> None:
        """Adds the private pieces' ones: what only ``player``'s view shows (``core``: the
        state's, for the picks of an écart in progress)."""
        at = self.at
        n = self.n
        base = at["hand"]
        out += [base + c for c in cards_of(deal.hands[player])]
        partner = deal.partner if deal.holder_known_to(player) else None
        out.append(at["partner"] + (n if partner is None else partner))
        given = deal.given
        if given is not None and deal.given_visible_to(player):
            out.append(at["given"] + given)
        base = at["picked"]
        out += [base + c for c in _picks_seen(core, player)]
        if player == deal.to_move:
            # The moves the view offers (its ``legal``). The écart (one decision of the
            # referee, its picks the game's) and the moves the game does not offer (a
            # renonce: its card, the hand and the trick tell it) have no id: left out.
            base = at["legal"]
            decision_id = self.spec.codec.decision_id
            for move in deal.legal_actions():
                action_id = decision_id(move)
                if action_id is not None:
                    out.append(base + action_id)
        if self.perfect_recall:
            base = at["dealt"]
            out += [base + c for c in deal.dealt[player]]
            discarded_at, drawn_at = at["discarded"], at["drawn"]
            for s, discarded, drawn in deal.exchanges:
                if s == player:
                    out += [discarded_at + c for c in discarded]
                    out += [drawn_at + c for c in drawn]

    def _all_ones(self, core: Core, deal: Deal, out: list[int]) -> None:
        """Adds the perfect-information pieces' ones: every seat's cards, the talon, the called
        card's holder and an écart in progress (``private_info=ALL_PLAYERS`` only)."""
        at = self.at
        n = self.n
        base = at["hands"]
        for s in range(n):
            out += [base + s * PACK_SIZE + c for c in cards_of(deal.hands[s])]
        base = at["talon_cards"]
        out += [base + k * PACK_SIZE + c for k, c in enumerate(deal.talon[deal.talon_pos :])]
        out.append(at["holder"] + (n if deal.partner is None else deal.partner))
        base = at["picked"]
        out += [base + c for c in core.picks]
        if self.perfect_recall:
            base = at["dealt"]
            for s in range(n):
                out += [base + s * PACK_SIZE + c for c in deal.dealt[s]]
            discarded_at, drawn_at = at["discarded"], at["drawn"]
            for s, discarded, drawn in deal.exchanges:
                out += [discarded_at + s * PACK_SIZE + c for c in discarded]
                out += [drawn_at + s * PACK_SIZE + c for c in drawn]

    def _all_text(self, core: Core, deal: Deal) -> list[str]:
        """The perfect-information observer's string parts (see :meth:`_set_all`)."""
        n = self.spec.rules.players
        parts = [
            "hands=" + "|".join(" ".join(str(c) for c in deal.hand(s)) for s in range(n)),
            "talon_cards=" + " ".join(str(ALL_CARDS[c]) for c in deal.talon[deal.talon_pos :]),
            f"holder={'-' if deal.partner is None else deal.partner}",
        ]
        if core.picks:
            parts.append("picked=" + " ".join(str(ALL_CARDS[c]) for c in core.picks))
        if self.perfect_recall:
            parts.append(
                "dealt="
                + "|".join(" ".join(str(ALL_CARDS[c]) for c in deal.dealt[s]) for s in range(n))
            )
            for s, discarded, drawn in deal.exchanges:
                parts.append(
                    f"ecart{s}="
                    + " ".join(str(ALL_CARDS[c]) for c in discarded)
                    + " drew="
                    + " ".join(str(ALL_CARDS[c]) for c in drawn)
                )
        return parts

    def _public_ones(self, deal: Deal, out: list[int]) -> None:
        """Adds the public pieces' ones: what every seat's view shows alike."""
        at = self.at
        n = self.n
        rules = self.spec.rules
        talon, hs = rules.talon, rules.hand_size
        out.append(at["phase"] + self._phase[deal.phase])
        out.append(at["to_move"] + (n if deal.is_over else deal.to_move))
        out.append(at["dealer"] + deal.dealer)
        declarer = deal.declarer
        out.append(at["declarer"] + (n if declarer is None else declarer))
        contract = deal.contract
        out.append(
            at["contract"] + (len(self._bid) if contract is None else self._bid[contract.id])
        )
        trump = deal.trump
        out.append(at["trump"] + (4 if trump is None or trump == NO_TRUMPS else trump))
        called = deal.called
        if called is not None:
            out.append(at["called"] + called)
            if deal.partner_public():
                partner = deal.partner
                out.append(at["public_partner"] + (n if partner is None else partner))
        if deal.turned is not None:
            out.append(at["turned"] + deal.turned)
        # The seat a card was demanded of (all zeros: none), and the declarer's hand where an
        # open contract lays it on the table: what every seat's view shows.
        if deal.demanded_from is not None:
            out.append(at["demanded_from"] + deal.demanded_from)
        if declarer is not None and deal.declarer_shown():
            base = at["declarer_hand"]
            out += [base + c for c in cards_of(deal.hands[declarer])]
        out.append(at["talon"] + min(len(deal.talon) - deal.talon_pos, talon))
        base = at["exchanges"]
        out += [base + s * (talon + 1) + len(d) for s, d, _ in deal.exchanges]
        leader = deal.leader
        out.append(at["trick_leader"] + leader)
        base = at["trick"]
        seat_at = deal.seat_at
        out += [base + seat_at(leader, k) * PACK_SIZE + c for k, c in enumerate(deal.trick)]
        base = at["tricks_won"]
        out += [base + s * (hs + 1) + min(won, hs) for s, won in enumerate(deal.won)]
        if deal.vole_undertaken:
            out.append(at["vole"])
        played = at["played"]
        recall = self.perfect_recall
        history, leaders = (at["history"], at["leaders"]) if recall else (0, 0)
        for t, (first, cards, _) in enumerate(deal.played_tricks):
            out += [played + c for c in cards]
            if recall and t < hs:
                row = history + t * n * PACK_SIZE
                out += [row + seat_at(first, k) * PACK_SIZE + c for k, c in enumerate(cards)]
                out.append(leaders + t * n + first)
        if recall:
            # The auction is public: each speech's seat, contract (or a pass) and suit.
            base = at["auction"]
            width = n + len(self._bid) + 1 + 5
            suits = base + n + len(self._bid) + 1
            for i, (seat, action) in enumerate(deal.auction[: self._auction_rows]):
                row = i * width
                out.append(base + row + seat)
                bid = action.contract if action.verb == "bid" else None
                out.append(base + row + n + (self._bid[bid] + 1 if bid is not None else 0))
                suit = action.suit
                out.append(suits + row + (4 if suit is None else suit.index))

    def string_from(self, state: StateAnswers, player: int) -> str:
        """Returns what ``player`` observes, as text (its view's fields, ``key=value``)."""
        core = state.core
        deal = core.deal
        parts: list[str] = []
        if self.private:
            parts.append(f"seat={player}")
        if deal is None:
            if self.private and self.perfect_recall:
                dealt = [
                    str(ALL_CARDS[c])
                    for seat, c in zip(self.spec.codec.slots, core.pack, strict=False)
                    if seat == player
                ]
                parts.append(f"dealt={' '.join(dealt)}")
            if self.all_players and self.perfect_recall:
                n = self.spec.rules.players
                dealt_all: list[list[str]] = [[] for _ in range(n)]
                for seat, c in zip(self.spec.codec.slots, core.pack, strict=False):
                    if seat >= 0:
                        dealt_all[seat].append(str(ALL_CARDS[c]))
                parts.append("dealt=" + "|".join(" ".join(h) for h in dealt_all))
            if self.public:
                parts.append(f"dealing={len(core.pack)}/{len(self.spec.codec.deck)}")
            return " ".join(parts)
        public, private = self._views(state, player)
        if self.all_players:
            parts += self._all_text(core, deal)
        if not self.perfect_recall:
            public.pop("tricks", None)
            public.pop("auction", None)
        if self.private:
            if self.perfect_recall:
                parts.append("dealt=" + " ".join(str(ALL_CARDS[c]) for c in deal.dealt[player]))
                for s, discarded, drawn in deal.exchanges:
                    if s == player:
                        parts.append(
                            "ecart="
                            + " ".join(str(ALL_CARDS[c]) for c in discarded)
                            + " drew="
                            + " ".join(str(ALL_CARDS[c]) for c in drawn)
                        )
            parts += [f"{k}={_text(v)}" for k, v in private.items() if k != "seat"]
            picks = _picks_seen(core, player)
            if picks:
                parts.append("picked=" + " ".join(str(ALL_CARDS[c]) for c in picks))
        if self.public:
            if self.perfect_recall:
                parts.append(f"moves={len(deal.history)}")
            parts += [f"{k}={_text(v)}" for k, v in public.items()]
        return " ".join(parts)


def _all_pieces(n: int, talon: int, perfect_recall: bool) -> list[tuple[str, int, tuple[int, ...]]]:
    """The perfect-information observer's tensor pieces (``private_info=ALL_PLAYERS``)."""
    pieces: list[tuple[str, int, tuple[int, ...]]] = [
        ("hands", n * PACK_SIZE, (n, PACK_SIZE)),
        # The talon's cards left, top card first.
        ("talon_cards", talon * PACK_SIZE, (talon, PACK_SIZE)),
        ("holder", n + 1, (n + 1,)),
        ("picked", PACK_SIZE, (PACK_SIZE,)),
    ]
    if perfect_recall:
        pieces += [
            ("dealt", n * PACK_SIZE, (n, PACK_SIZE)),
            ("discarded", n * PACK_SIZE, (n, PACK_SIZE)),
            ("drawn", n * PACK_SIZE, (n, PACK_SIZE)),
        ]
    return pieces


def _picks_seen(core: Core, player: int) -> tuple[int, ...]:
    """Returns the cards of an écart in progress that ``player`` may see: the seat picking
    them sees them; the others see nothing of it until the écart is made (then its number)."""
    deal = core.deal
    if deal is None or deal.is_over or deal.to_move != player:
        return ()
    return tuple(core.picks)


def _text(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        # Most lists are of cards or actions, written already (the view's as_json).
        return "[" + ",".join(v if type(v) is str else _text(v) for v in value) + "]"
    if isinstance(value, tuple):
        return ":".join(_text(v) for v in value)
    if isinstance(value, dict):
        return "(" + " ".join(f"{k}:{_text(v)}" for k, v in value.items()) + ")"
    return str(value)


pyspiel.register_game(GAME_TYPE, OmbreGame)

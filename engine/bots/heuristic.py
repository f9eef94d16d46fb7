"""The heuristic bot: bids, calls and plays by the period's advice.

* **Bidding** counts the tricks a hand should take with its best trump suit (masters, guarded
  trumps, kings, voids). A caller bids with "a fair probability of winning three tricks, to
  prevent being beasted" (Hoyle, *Games Improved*, Quadrille, p. 265 -- the tricks below which
  he pays alone, the rule file's sole-liability threshold); a player who plays alone without
  help bids only with a hand worth the tricks he must win (the *Encyclopédie*, HOMBRE: sans
  prendre only "with a hand worth five tricks"); an écart or a demanded card counts for what it
  should bring in. "He who has spadille, with a bad hand, should pass" (Hoyle-type laws,
  JTQF p. 77): a weak hand passes, and all may pass.
* **Calling** a king of a suit in which it holds the queen or most cards, so the friend's king
  is guarded; never its own king unless it must.
* **The écart** throws plain losers and keeps trumps and kings.
* **Play**: the declaring side draws trumps with its masters and leads to the called king;
  defenders cash kings and keep trumps; a winning friend is left alone; a trick is won as
  cheaply as possible, with a master when one is held; the matadors are kept back when the
  privilege allows (a low plain card goes instead).
* **The vole** is undertaken only when every card left is a sure winner: never a hopeless vole.
  A vole announced with the bid (the *contre*, the *bola*) is bid only with a sure one
  (:func:`sure_vole`): never a hopeless announced vole.
* **Trumps turned from the talon** (the *vuelta*): the suit is not known when bidding, so the
  hand is valued at its average over the suits that may turn up, not at its best suit.
* **Contracts without trumps** are valued on the no-trump tables; **a contract to take no
  trick** (nolo, misère, contrabola) is bid only with a hand of low cards (:func:`nolo_danger`),
  its écart throws the most dangerous cards, and its declarer leads low and plays the highest
  card that still loses; the defenders never overtake a declarer who is winning the trick.

:meth:`HeuristicBot.advise` returns the action with a one-line reason in the period's terms.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.actions import DEFER, PLAY, Action
from engine.bots.base import REMEDIES, Bot, bits, honest, known_adversaries, unseen
from engine.cards import ALL_CARDS, PACK_SIZE, Suit
from engine.enums import Leader
from engine.referee import Deal
from engine.rules.model import NO_TRUMPS, Contract, RuleSet, Tables

__all__ = ["HeuristicBot", "estimate_tricks", "nolo_danger", "sure_vole", "tricks_to_win"]

SUITS = ("spades", "clubs", "hearts", "diamonds")

# (template, arguments): formatted only when a reason is asked for (``advise``).
Reason = tuple[Any, ...]


def _losers(n: int) -> str:
    """ "no plain loser", "1 plain loser", "2 plain losers": the écart's reason counts them in
    words that agree."""
    return "no plain loser" if n == 0 else f"{n} plain loser" if n == 1 else f"{n} plain losers"


_RANKS_CACHE: dict[tuple[int, int], tuple[int, ...]] = {}


def _class_rank(deal_t: Tables, trump: int) -> tuple[int, ...]:
    """``rank[c]``: how many cards of the pack outrank ``c`` within its class (0 = the top)."""
    key = (id(deal_t), trump)
    ranks = _RANKS_CACHE.get(key)
    if ranks is None:
        strength = deal_t.strength[trump]
        follow = deal_t.follow[trump]
        out = [0] * PACK_SIZE
        for c in deal_t.deck:
            out[c] = sum(
                1 for d in deal_t.deck if follow[d] == follow[c] and strength[d] > strength[c]
            )
        ranks = _RANKS_CACHE[key] = tuple(out)
    return ranks


_ABOVE_CACHE: dict[tuple[int, int], tuple[Any, tuple[int, ...]]] = {}


def _above(deal_t: Any, trump: int) -> tuple[int, ...]:
    """``above[c]``: the mask of the cards of the pack that outrank ``c`` within its class."""
    key = (id(deal_t), trump)
    entry = _ABOVE_CACHE.get(key)
    if entry is None or entry[0] is not deal_t:  # the tables kept: an id is never reused
        strength = deal_t.strength[trump]
        follow = deal_t.follow[trump]
        out = [0] * PACK_SIZE
        for c in deal_t.deck:
            for d in deal_t.deck:
                if follow[d] == follow[c] and strength[d] > strength[c]:
                    out[c] |= 1 << d
        entry = _ABOVE_CACHE[key] = (deal_t, tuple(out))
    return entry[1]


def _master(t: Tables, trump: int, c: int, outstanding: int) -> bool:
    """Checks if ``c`` is sure to win a trick of its class with ``outstanding`` still out: no
    card out outranks it there (nor, for a plain card, is any trump out)."""
    if t.follow[trump][c] != 4 and outstanding & t.class_mask[trump][4]:
        return False
    return not outstanding & _above(t, trump)[c]


def tricks_to_win(rules: RuleSet) -> float:
    """Returns the tricks the declaring side should count on to win (from the results table).

    A fixed number when the table says so (six at Quadrille); when the side must take "more
    than each opponent", halfway between the fewest that can win (4 of 9 at Ombre, when the
    others split 3-2) and a sure majority (5).
    """
    for rule in rules.results:
        if rule.when.side_at_least is not None and rule.when.vole is None:
            return float(rule.when.side_at_least)
    fewest = rules.hand_size // rules.players + 1
    return (fewest + rules.hand_size // 2 + 1) / 2


def estimate_tricks(t: Tables, hand: int, trump: int) -> float:
    """Returns the tricks a hand should take with ``trump`` as trumps (a rule of thumb).

    Each trump counts for a trick when no higher one is out, less as more higher ones are out
    and it is less guarded; long trumps count extra. A plain king counts 0.85 (0.6 in a long
    suit), a queen with her king 0.5, a guarded queen 0.3; a void or singleton beside three
    trumps makes ruffs.
    """
    value = 0.0
    order = t.trump_order[trump]
    trumps = t.class_mask[trump][4]
    k = (hand & trumps).bit_count()
    missing = 0
    seen = 0
    for c in order:
        if hand >> c & 1:
            seen += 1
            if missing == 0:
                value += 1.0
            elif k - seen + 1 > missing:
                value += 0.6 if missing == 1 else 0.35
            else:
                value += 0.1
        else:
            missing += 1
    if k >= 4:
        value += 0.35 * (k - 3)
    ranks = _class_rank(t, trump)
    class_mask = t.class_mask[trump]
    for suit in range(4):
        mask = class_mask[suit]
        if not mask:
            continue
        held = hand & mask
        length = held.bit_count()
        if length == 0:
            if k >= 2:
                value += 0.4
            continue
        if length == 1 and k >= 3:
            value += 0.2
        has_top = False
        for c in bits(held):
            r = ranks[c]
            if r == 0:
                has_top = True
                value += 0.85 if length <= 4 else 0.6
            elif r == 1:
                # The queen: the king, when held, comes first (lower card index).
                value += 0.5 if has_top else (0.3 if length >= 2 else 0.0)
    return value


def _danger(t: Tables, hand: int, trump: int, c: int) -> float:
    """How likely card ``c`` of ``hand`` is to take a trick in a game to take none: by how few
    cards of its class outside the hand rank above it (none: it wins whenever it is led)."""
    strength = t.strength[trump]
    cls = t.follow[trump][c]
    above = sum(
        1 for d in bits(t.class_mask[trump][cls] & ~hand & t.deck_mask) if strength[d] > strength[c]
    )
    # A card with some higher cards out can usually be passed under them; the more, the safer.
    return 1.0 if above == 0 else 0.5 if above == 1 else 0.2 if above <= 3 else 0.0


def nolo_danger(t: Tables, hand: int, trump: int = NO_TRUMPS) -> list[float]:
    """Returns the danger of each card of ``hand`` in a game to take no trick, highest first:
    how likely it is to win a trick (:func:`_danger`)."""
    return sorted((_danger(t, hand, trump, c) for c in bits(hand)), reverse=True)


def drawn_danger(t: Tables, hand: int, trump: int = NO_TRUMPS) -> float:
    """Returns the danger (:func:`_danger`) of a card drawn blind in place of one thrown, in a
    game to take no trick: the average over the cards outside ``hand``."""
    unseen = list(bits(t.deck_mask & ~hand))
    if not unseen:
        return 0.0
    return sum(_danger(t, hand | 1 << c, trump, c) for c in unseen) / len(unseen)


def nolo_risk(t: Tables, hand: int, trump: int, thrown: int) -> float:
    """Returns about how many tricks ``hand`` takes in a game to take none, after an écart of
    at most ``thrown`` cards: each card thrown (the most dangerous first, and only while it is
    worse than a card drawn blind) is replaced by a card of average danger."""
    danger = nolo_danger(t, hand, trump)
    if thrown <= 0:
        return sum(danger)
    drawn = drawn_danger(t, hand, trump)
    return sum(min(d, drawn) for d in danger[:thrown]) + sum(danger[thrown:])


def sure_vole(t: Tables, hand: int, trump: int, *, leads: bool = True) -> bool:
    """Checks if a hand takes every trick with ``trump`` as trumps, whatever the others hold or
    draw.

    Its trumps are the highest of the pack, unbroken, and at least as many as the trumps out
    (so leading them draws every other trump). Plain cards are sure only for a hand that
    ``leads`` the first trick, so draws the trumps before a plain suit is led (otherwise a
    plain lead could be ruffed by the other opponent), and only the highest of their suit,
    unbroken (masters once the trumps are out).
    """
    ranks = _class_rank(t, trump)
    class_mask = t.class_mask[trump]
    trumps = class_mask[4]
    held = hand & trumps
    k = held.bit_count()
    if sorted(ranks[c] for c in bits(held)) != list(range(k)):
        return False
    if k < (t.deck_mask & trumps).bit_count() - k:
        return False
    if not leads and hand & ~trumps:
        return False
    for suit in range(4):
        cards = hand & class_mask[suit]
        if sorted(ranks[c] for c in bits(cards)) != list(range(cards.bit_count())):
            return False
    return True


def _nobody_loses(rules: RuleSet, contract: Contract) -> bool:
    """Whether no seat can lose a point by a contract every seat plays for himself."""
    return all(
        min(p.declarer, p.partner, p.opponents, p.codille_winner, p.most_tricks) >= 0
        for (cid, _), p in rules.points.items()
        if cid == contract.id
    )


def _outbids(
    rules: RuleSet, contract: Contract, best: tuple[Action, Reason] | None, lowest: bool
) -> bool:
    """Whether ``contract`` is to be preferred to the best bid found so far: the lower where
    the bot bids no higher than it must, else the higher."""
    if best is None:
        return True
    best_rank = rules.contracts[best[0].contract or ""].rank
    return contract.rank < best_rank if lowest else contract.rank > best_rank


def _nolo_reason(deal: Deal, hand: int, contract: Contract, suit: int) -> Reason | None:
    """Why a game to take no trick is bid, or None where the hand is not safe for it: it must
    hold almost no card that can win, after the écart has thrown the worst of them."""
    thrown = (
        (contract.exchange_max or deal.rules.exchange_first_max or deal.rules.talon)
        if contract.exchange in ("declarer-first", "declarer-only")
        else 0
    )
    # The cards drawn for those thrown are blind, and may win tricks too.
    risk = nolo_risk(deal.t, hand, suit, thrown)
    # A hand laid open lets the defenders aim at it: it must be safer still.
    limit = 0.25 if contract.open is not None else 0.5
    if risk > limit:
        return None
    return (
        "bid {0}: his cards are low, with a risk of about {1:.1f} tricks; {2}",
        contract.id,
        risk,
        "a game to take no trick needs a hand of small cards",
    )


class HeuristicBot(Bot):
    """A player of the old school, using only its seat's view."""

    name = "heuristic"

    def choose(self, deal: Deal, seat: int) -> Action:
        return self.decide(deal, seat)[0]

    def advise(self, deal: Deal, seat: int) -> tuple[Action, str]:
        """Returns the action this bot would take and why, in one line."""
        action, reason = self.decide(deal, seat)
        return action, _format(deal, reason)

    def hint(self, deal: Deal, seat: int) -> tuple[Action, str, bool]:
        """Returns the action this bot would take, why in one line, and whether that line
        begins with the action (its template opens with it: ``"{0}: ..."``, ``"pass: ..."``,
        ``"bid {0}: ..."``), so that a hint need not name the action again."""
        action, reason = self.decide(deal, seat)
        template = str(reason[0]) if reason else ""
        opens = template.startswith(("{0}", f"{action.verb}:", f"{action.verb} "))
        return action, _format(deal, reason), opens

    def decide(self, deal: Deal, seat: int) -> tuple[Action, Reason]:
        """Returns the action and its reason (a template with arguments)."""
        phase = deal.phase
        if phase == "exchange":
            return self._discard(deal, seat)
        if phase == "play" and deal.irregular is None:
            # The cards the referee allows (its play mask: the same cards as the play actions
            # of ``honest``, without listing them).
            mask = deal.legal_plays()
            if not mask & (mask - 1):
                only = PLAY[mask.bit_length() - 1]
                return only, ("{0}: the only legal choice", only)
            c, reason = self.play_card(deal, seat, bits(mask))
            return PLAY[c], reason
        legal = honest(deal)
        if len(legal) == 1:
            return legal[0], ("{0}: the only legal choice", legal[0])
        if phase in ("auction", "match"):
            return self._bid(deal, seat, legal)
        if phase == "raise":
            return self._raise(deal, seat, legal)
        if phase == "trump":
            if legal[0].verb == "name-trump":
                return self._name_trump(deal, seat, legal)
            return self._trump(deal, seat, legal)
        if phase == "call":
            return self._call(deal, seat, legal)
        if phase == "give":
            return self._give(deal, legal)
        if phase == "surrender":
            keep = next((a for a in legal if a.verb == "pass"), legal[0])
            return keep, ("{0}: he keeps the called king and plays as the friend", keep)
        if phase == "vole":
            return self._vole(deal, seat, legal)
        return self._play(deal, seat, legal)

    # The auction.

    def _best(self, deal: Deal, hand: int, suits: Sequence[int]) -> tuple[float, int]:
        return max((estimate_tricks(deal.t, hand, s), s) for s in suits)

    def need(self, deal: Deal, contract: Contract, hand: int, trump: int) -> tuple[float, str]:
        """Returns the tricks a hand must be worth to bid ``contract``, and the advice behind."""
        rules = deal.rules
        win = tricks_to_win(rules)
        if contract.announces_vole:
            every = float(rules.hand_size)
            return every, f"a vole announced with the bid needs a sure hand of all {every:g} tricks"
        if contract.help == "call":
            # Hoyle's three tricks (of ten), whatever liability rule the house keeps.
            three = 3.0 * rules.hand_size / 10
            return three, (
                f"a caller ought to have a fair probability of winning {three:g} tricks, "
                "to prevent being beasted (Hoyle)"
            )
        if contract.help == "demand":
            # The demanded king is a trick, and the card given for it a loser gone.
            return win - 2.25, f"with the demanded king he must be worth {win:g} tricks"
        if contract.exchange == "declarer-first":
            # He improves his hand first, and may win with the fewest tricks that can win.
            gain = self._exchange_gain(deal, hand, trump)
            fewest = min(win, rules.hand_size // rules.players + 1)
            return fewest - gain, (
                f"with what the écart should bring he must be worth {fewest:g} tricks"
            )
        return float(win), f"one who plays alone without help needs a hand worth {win:g} tricks"

    def _exchange_gain(self, deal: Deal, hand: int, trump: int) -> float:
        t = deal.t
        ranks = _class_rank(t, trump)
        trumps = t.class_mask[trump][4]
        losers = sum(1 for c in bits(hand & ~trumps) if ranks[c] > 0)
        most = deal.rules.exchange_first_max or deal.rules.talon
        unseen = t.deck_mask & ~hand
        count = unseen.bit_count() or 1
        good = (unseen & trumps).bit_count() * 0.8 + sum(
            0.8 for c in bits(unseen & ~trumps) if ranks[c] == 0
        )
        return min(losers, most, deal.rules.talon) * good / count

    def _raise(self, deal: Deal, seat: int, legal: Sequence[Action]) -> tuple[Action, Reason]:
        """After winning the auction: play the highest contract open to him that the hand is
        worth, or the contract won. Where the deal is scored by a points tariff, a higher
        contract the raise allows (beyond those the contract won lets him name) is played only
        if it scores the declarer more (:func:`_scores_more`): a raise that pays no more only
        gives up the choice of trumps or adds a risk."""
        held = deal.holder_contract
        if held is not None and deal.rules.points:
            named = set(held.declarer_may_play)
            legal = [
                a
                for a in legal
                if a.verb != "bid"
                or a.contract in named
                or _scores_more(deal.rules, a.contract or "", held.id)
            ]
        action, reason = self._bid(deal, seat, legal, lowest=False)
        if action.verb == "pass":
            won = deal.auction[-1][1].contract if deal.auction else None
            held = deal.holder_contract
            return action, (
                "pass: he plays {0}, the contract he won; no other is worth more to this hand",
                held.id if held is not None else won,
            )
        return action, reason

    def _bid(
        self, deal: Deal, seat: int, legal: Sequence[Action], *, lowest: bool | None = None
    ) -> tuple[Action, Reason]:
        hand = deal.hands[seat]
        rules = deal.rules
        if lowest is None:
            # Where speech goes round he may speak again: he bids no higher than he must, and
            # names a contract only when its class would not do (never incurring a penalty).
            lowest = rules.speech in ("round", "duel")
        best: tuple[Action, Reason] | None = None
        closest: tuple[float, float, str, str] | None = None
        if rules.compiled.bids_suited:
            legal = self._suited_bids(deal, seat, legal)
        for action in legal:
            if action.verb != "bid":
                continue
            contract = rules.contracts[action.contract or ""]
            if contract.all_play is not None:
                # Offered to the seat that sits out, who has not seen a card of it: taken up
                # where no seat can lose a point by it, the most tricks scoring.
                if _nobody_loses(rules, contract):
                    return action, (
                        "bid {0}: every seat plays it for himself and nobody can lose by it; {1}",
                        contract.id,
                        "the seat with the most tricks scores",
                    )
                continue
            if (
                lowest
                and contract.only_to_overcall is not None
                and deal.phase == "auction"
                and not deal.bid_needed(contract)
            ):
                continue
            suits = [NO_TRUMPS] if contract.no_trumps else deal.trump_choices(contract)
            if action.suit is not None:
                suits = [action.suit.index]  # the suit the bid names (its trump choice)
            if not suits:
                continue
            if contract.no_tricks:
                reason = _nolo_reason(deal, hand, contract, suits[0])
                if reason is not None and _outbids(rules, contract, best, lowest):
                    best = (action, reason)
                continue
            judged = self._judge(deal, seat, hand, contract, suits)
            if judged is None:
                continue
            value, need, suit, why = judged
            if value >= need:
                if _outbids(rules, contract, best, lowest):
                    best = (
                        action,
                        (
                            "bid {0}: about {1:.1f} tricks with {2} as trumps; {3}",
                            contract.id,
                            value,
                            SUITS[suit] if suit < len(SUITS) else "no suit",
                            why,
                        ),
                    )
            elif closest is None or value - need > closest[0] - closest[1]:
                closest = (value, need, contract.id, why)
        if best is not None:
            return best
        pass_action = next(a for a in legal if a.verb == "pass")
        if closest is None:
            return pass_action, ("pass: no contract is open to this hand",)
        value, need, cid, why = closest
        return pass_action, (
            "pass: about {0:.1f} tricks, short of {1:.1f} for {2}; {3}",
            value,
            need,
            cid,
            why,
        )

    def _judge(
        self, deal: Deal, seat: int, hand: int, contract: Contract, suits: Sequence[int]
    ) -> tuple[float, float, int, str] | None:
        """Returns what the hand is worth under a trick-taking contract and what it needs (the
        tricks it would take, the tricks needed, the trump suit, why), or None for a vole
        announced that is not sure."""
        if contract.announces_vole:
            # Only a sure vole is announced: the hand is worth every trick or nothing.
            leads = self._leads_first(deal, seat)
            suits = [s for s in suits if sure_vole(deal.t, hand, s, leads=leads)]
            if not suits:
                return None
        value, suit = self._best(deal, hand, suits)
        if contract.announces_vole:
            value = float(deal.rules.hand_size)
        if contract.trump_from_talon:
            # The turned card decides: the hand is worth its average over the suits.
            value = sum(estimate_tricks(deal.t, hand, s) for s in suits) / len(suits)
        need, why = self.need(deal, contract, hand, suit)
        return value, need, suit, why

    def _suited_bids(self, deal: Deal, seat: int, legal: Sequence[Action]) -> list[Action]:
        """Keeps, of the bids that name their trump suit (``trump_with_bid``), one per
        contract: the one naming the suit he would name trumps in after the auction
        (:meth:`_trump_suit`, the same choice)."""
        by_contract: dict[str, list[Action]] = {}
        for a in legal:
            if a.verb == "bid" and a.suit is not None:
                by_contract.setdefault(a.contract or "", []).append(a)
        if not by_contract:
            return list(legal)
        contracts = deal.rules.contracts
        chosen = {
            cid: self._trump_suit(
                deal, seat, [a.suit.index for a in bids if a.suit], contracts[cid]
            )[1]
            for cid, bids in by_contract.items()
        }
        return [
            a
            for a in legal
            if a.suit is None or a.verb != "bid" or a.suit.index == chosen[a.contract or ""]
        ]

    def _trump_suit(
        self, deal: Deal, seat: int, suits: Sequence[int], contract: Contract | None
    ) -> tuple[float, int]:
        """Returns the suit he names trumps in of ``suits`` under ``contract``, with the tricks
        it is worth: the suit worth most, of those where an announced vole is sure if any."""
        if contract is not None and contract.announces_vole:
            # The vole announced: trumps in a suit where it is sure, if there is one.
            leads = self._leads_first(deal, seat)
            hand = deal.hands[seat]
            suits = [s for s in suits if sure_vole(deal.t, hand, s, leads=leads)] or suits
        return self._best(deal, deal.hands[seat], suits)

    @staticmethod
    def _leads_first(deal: Deal, seat: int) -> bool:
        """Checks if ``seat``, declaring, would lead the first trick."""
        return deal.rules.leader is Leader.DECLARER or seat == deal.eldest

    def _trump(self, deal: Deal, seat: int, legal: Sequence[Action]) -> tuple[Action, Reason]:
        suits = [a.suit.index for a in legal if a.suit is not None]
        value, suit = self._trump_suit(deal, seat, suits, deal.contract)
        action = next(a for a in legal if a.suit is not None and a.suit.index == suit)
        if deal.forced:
            return action, (
                "trumps in {0}: forced to play, he names his strongest suit (about {1:.1f} tricks)",
                SUITS[suit],
                value,
            )
        return action, (
            "trumps in {0}: the suit worth most tricks (about {1:.1f})",
            SUITS[suit],
            value,
        )

    def _name_trump(self, deal: Deal, seat: int, legal: Sequence[Action]) -> tuple[Action, Reason]:
        """Names trumps for a declarer who laid his hand down unnamed (``laws.lay_down_unnamed``):
        his hand lies open, so the suit worth fewest tricks to it, when he is an adversary (the
        most, were he a friend)."""
        declarer = deal.declarer
        assert declarer is not None
        shown = sum(1 << c.index for c in deal.public_cards(declarer))
        foe = declarer in known_adversaries(deal, seat)
        suits = [a.suit.index for a in legal if a.suit is not None]
        values = {s: estimate_tricks(deal.t, shown, s) for s in suits}
        suit = (min if foe else max)(suits, key=lambda s: values[s])
        action = next(a for a in legal if a.suit is not None and a.suit.index == suit)
        return action, (
            "names {0} for the hand laid down: the suit worth {1} tricks to it (about {2:.1f})",
            SUITS[suit],
            "fewest" if foe else "most",
            values[suit],
        )

    # The remedies of the laws of the play.

    def remedy(self, deal: Deal, seat: int) -> Action | None:
        """Takes the remedy an adversary's irregularity gives (``deal.declarable``), only
        against a seat it knows to be an adversary (``known_adversaries``): taking a choice from
        an adversary never helps him. A hand shown before the game is won: when its holder is to
        play, it dictates his cheapest card. A card exposed or played out of turn: it calls it at
        once, the strongest first (the holder must then play it at his first turn where he may,
        not when it would serve him best). A suit to name instead (where the card may not be
        called): trumps, to draw the offender's partner's."""
        if deal.is_over or deal.irregular is None:
            return None
        offered = [a for a in deal.declarable(seat) if a.verb in REMEDIES]
        if not offered:
            return None
        foes = known_adversaries(deal, seat)
        view = deal.view(seat).irregular
        if view is None:
            return None
        dictated = set(view.dictated)
        calls = {a.card.index: a for a in offered if a.verb == "require"}
        mover = deal.to_move
        if (
            deal.phase == "play"
            and mover in foes
            and mover in dictated
            and not any(holder == mover for holder, _ in view.required)
        ):
            plays = [a for a in deal.legal_actions() if a.verb == "play"]
            dictate = [a for a in plays if a.card.index in calls]
            if len(plays) > 1 and dictate:
                return calls[self._cheapest(deal, dictate).card.index]
        singles = {
            c
            for s in foes
            if s not in dictated
            for c in (card.index for card in deal.public_cards(s))
            if c in calls
        }
        if singles:
            trump = deal.trump if deal.trump is not None else 0
            strength = deal.t.strength[trump]
            return calls[max(singles, key=lambda c: (strength[c], -c))]
        named = [a for a in offered if a.verb == "require-suit" and a.seat in foes]
        if named:
            trumps = [a for a in named if a.suit is not None and a.suit.index == deal.trump]
            return (trumps or named)[0]
        return None

    def _call(self, deal: Deal, seat: int, legal: Sequence[Action]) -> tuple[Action, Reason]:
        hand = deal.hands[seat]
        t = deal.t
        trump = deal.trump if deal.trump is not None else 0
        ranks = _class_rank(t, trump)
        class_mask = t.class_mask[trump]
        follow = t.follow[trump]

        def key(action: Action) -> tuple[int, int, int]:
            c = action.card.index
            held = hand & class_mask[follow[c]]
            queen = any(ranks[d] == 1 for d in bits(held))
            own = hand >> c & 1
            return (-own, int(queen), held.bit_count())

        action = max(legal, key=key)
        c = action.card.index
        own, queen, length = key(action)
        demand = deal.contract is not None and deal.contract.help == "demand"
        verb = "demand" if demand else "call"
        if own:
            return action, ("{0} {card}: every other choice is worse; he plays alone", verb, c)
        if queen:
            return action, (
                "{0} {card}: he holds the queen of that suit, which the king guards",
                verb,
                c,
            )
        if length:
            return action, (
                "{0} {card}: he holds {1} of that suit and can lead to his king",
                verb,
                length,
                c,
            )
        return action, ("{0} {card}: he is void there and may trump that suit", verb, c)

    def _give(self, deal: Deal, legal: Sequence[Action]) -> tuple[Action, Reason]:
        action = self._cheapest(deal, legal)
        return action, ("give {card}: his least useful card", action.card.index)

    def _discard(self, deal: Deal, seat: int) -> tuple[Action, Reason]:
        hand = deal.hands[seat]
        most = deal.exchange_limit()
        t = deal.t
        trump = deal.trump if deal.trump is not None else 0
        why = deal.exchange_why()
        contract = deal.contract
        if contract is not None and contract.no_tricks and seat == deal.declarer:
            # A game to take no trick: throw the cards most likely to win one, highest first.
            strength = t.strength[trump]
            worst = sorted(bits(hand), key=lambda c: (-_danger(t, hand, trump, c), -strength[c]))
            take = sum(1 for c in worst[:most] if _danger(t, hand, trump, c) > 0)
            take = max(take, why.least if why is not None else 0)  # his duty to buy
            cards = tuple(ALL_CARDS[c] for c in worst[:take])
            return Action("discard", cards=cards), (
                "discard {0} of his highest cards: he must take no trick",
                len(cards),
            )
        strength = t.strength[trump]
        ranks = _class_rank(t, trump)
        losers = sorted(
            (c for c in bits(hand) if strength[c] < 100 and ranks[c] > 0),
            key=lambda c: (ranks[c] == 1, strength[c]),
        )
        chosen = losers[:most]
        why = deal.exchange_why()
        least = why.least if why is not None else 0
        if len(chosen) < least:
            # The duty to buy: he takes the fewest more, giving up his weakest other cards.
            rest = sorted((c for c in bits(hand) if c not in chosen), key=lambda c: strength[c])
            chosen = chosen + rest[: least - len(chosen)]
            return Action("discard", cards=tuple(ALL_CARDS[c] for c in chosen)), (
                "discard {0}: he must buy at least {1}, so his weakest cards go",
                len(chosen),
                least,
            )
        if deal.may_defer() and len(chosen) < 2:
            # Few losers: the other defender, who may need more, takes from the talon first.
            return DEFER, (
                "defer: with {0} he lets the other defender buy first",
                _losers(len(chosen)),
            )
        cards = tuple(ALL_CARDS[c] for c in chosen)
        if not cards:
            return Action("discard", cards=()), ("keep every card: none is a plain loser",)
        return Action("discard", cards=cards), (
            "discard {0}, keeping trumps and kings",
            _losers(len(cards)),
        )

    # The play.

    def _vole(self, deal: Deal, seat: int, legal: Sequence[Action]) -> tuple[Action, Reason]:
        hand = deal.hands[seat]
        outstanding = self._unseen(deal, seat)
        sure = all(self._is_master(deal, c, outstanding) for c in bits(hand))
        vole = next(a for a in legal if a.verb == "vole")
        stop = next(a for a in legal if a.verb == "stop")
        if sure:
            return vole, ("play the vole: every card left is a sure winner",)
        return stop, ("stop: the vole is not sure, and a failed vole pays",)

    def _is_master(self, deal: Deal, c: int, outstanding: int) -> bool:
        """Checks if ``c`` is sure to win a trick of its class: no card still out outranks it
        there (nor, for a plain card, is any trump still out)."""
        return _master(deal.t, deal.trump if deal.trump is not None else 0, c, outstanding)

    def _unseen(self, deal: Deal, seat: int) -> int:
        """The cards still out against ``seat`` (:func:`engine.bots.base.unseen`)."""
        return unseen(deal, seat)

    def _cheapest(self, deal: Deal, legal: Sequence[Action]) -> Action:
        """The least useful of the card actions ``legal`` (:meth:`_cheapest_card`)."""
        c = self._cheapest_card(deal, [a.card.index for a in legal])
        return next(a for a in legal if a.card.index == c)

    def _cheapest_card(self, deal: Deal, cards: Sequence[int]) -> int:
        """The least useful of ``cards``: a plain card before a trump, a plain card that is not
        the top of its suit before one that is, then the weakest (the first of equals)."""
        trump = deal.trump if deal.trump is not None else 0
        strength = deal.t.strength[trump]
        ranks = _class_rank(deal.t, trump)
        return min(cards, key=lambda c: (strength[c] >= 100, ranks[c] == 0, strength[c]))

    def _nolo(self, deal: Deal, seat: int, cards: Sequence[int]) -> tuple[int, Reason]:
        """Play in a game to take no trick: the declarer ducks, the defenders let him win."""
        t = deal.t
        trump = deal.trump if deal.trump is not None else NO_TRUMPS
        strength = t.strength[trump]
        follow = t.follow[trump]
        trick = deal.trick
        if seat == deal.declarer:
            if not trick:
                # Lead low: the card with the most of its suit above it, outside his hand.
                hand = deal.hands[seat]
                c = min(cards, key=lambda c: (_danger(t, hand, trump, c), strength[c]))
                return c, ("lead {card}: a low card, to take no trick", c)
            under = _not_taking(deal, cards, follow, strength)
            if under:
                # The highest card that still loses (a void throws its highest card).
                c = max(under, key=lambda c: strength[c])
                return c, ("play {card}: the highest card that does not take the trick", c)
            c = max(cards, key=lambda c: strength[c])
            return c, ("play {card}: every card takes the trick; he takes it with his highest", c)
        if trick and deal.tr is not None:
            winner = deal.seat_at(deal.leader, deal.tr.winning_position(trick))
            if winner == deal.declarer:
                under = _not_taking(deal, cards, follow, strength)
                if under:
                    c = max(under, key=lambda c: strength[c])
                    return c, ("play {card}: the declarer is taking the trick; he lets him", c)
        if not trick:
            # Lead low, so that the declarer cannot duck under it.
            c = min(cards, key=lambda c: strength[c])
            return c, ("lead {card}: a low card the declarer must beat", c)
        c = self._cheapest_card(deal, cards)
        return c, ("play {card}: his lowest card", c)

    def _play(self, deal: Deal, seat: int, legal: Sequence[Action]) -> tuple[Action, Reason]:
        c, reason = self.play_card(deal, seat, [a.card.index for a in legal])
        return next(a for a in legal if a.card.index == c), reason

    def play_card(self, deal: Deal, seat: int, cards: Sequence[int]) -> tuple[int, Reason]:
        """Returns the card to play of ``cards`` (the legal ones, lowest index first, at least
        two) and the reason: the play's advice, on card indices."""
        if deal.contract is not None and deal.contract.no_tricks:
            return self._nolo(deal, seat, cards)
        t = deal.t
        trump = deal.trump if deal.trump is not None else 0
        strength = t.strength[trump]
        follow = t.follow[trump]
        trumps = t.class_mask[trump][4]
        hand = deal.hands[seat]
        outstanding = self._unseen(deal, seat)
        partner_known = deal.partner_known_to(seat)  # the referee's answer, as Deal.view's
        if partner_known or seat == deal.declarer:
            side = deal.side if partner_known else [deal.declarer]
        else:
            side = [deal.declarer]
        if deal.contract is not None and deal.contract.all_play is not None:
            side = [seat]  # every seat plays for himself (``all_play``)
        on_side = seat in side
        trick = deal.trick
        if not trick:
            return self._lead(deal, seat, cards, on_side, outstanding, partner_known)
        led = follow[trick[0]]
        # Who is winning the trick: asked of the referee's one trick routine.
        best_pos = deal.tr.winning_position(trick) if deal.tr is not None else 0
        best = strength[trick[best_pos]]
        winner = deal.seat_at(deal.leader, best_pos)
        friend_wins = (winner in side) == on_side
        last = len(trick) == deal.n - 1
        if friend_wins and winner != seat:
            best_card = trick[best_pos]
            safe = last or _master(t, trump, best_card, outstanding)
            c = self._cheapest_card(deal, cards)
            if safe:
                return c, ("play {card}: the trick is his side's; throw the lowest", c)
            return c, ("play {card}: the trick stands with his side; he does not overtake", c)
        winners = [c for c in cards if (follow[c] == 4 or follow[c] == led) and strength[c] > best]
        if winners:
            if not last:
                above = _above(t, trump)
                trumps_out = outstanding & trumps
                masters = [
                    c
                    for c in winners
                    if (follow[c] == 4 or not trumps_out) and not outstanding & above[c]
                ]
                if masters:
                    c = min(masters, key=lambda c: strength[c])
                    return c, ("play {card}: a sure winner, the cheapest that takes the trick", c)
            c = min(winners, key=lambda c: strength[c])
            return c, ("play {card}: take the trick as cheaply as possible", c)
        c = self._cheapest_card(deal, cards)
        if led == 4 and strength[c] < 100 and hand & trumps:
            return c, (
                "play {card}: cannot win; he keeps his matadors back, as the privilege allows",
                c,
            )
        return c, ("play {card}: cannot win the trick; throw the lowest", c)

    def _lead(
        self,
        deal: Deal,
        seat: int,
        cards: Sequence[int],
        on_side: bool,
        outstanding: int,
        partner_known: bool,
    ) -> tuple[int, Reason]:
        t = deal.t
        trump = deal.trump if deal.trump is not None else 0
        strength = t.strength[trump]
        follow = t.follow[trump]
        trumps = t.class_mask[trump][4]
        hand = deal.hands[seat]
        trumps_out = outstanding & trumps
        my_trumps = [c for c in cards if strength[c] >= 100]
        plain = [c for c in cards if strength[c] < 100]
        above = _above(t, trump)
        plain_out = outstanding & ~trumps
        # Masters of their suit (as _is_master says of them with the trumps out of account).
        tops = [c for c in plain if not plain_out & above[c]]
        if on_side:
            if trumps_out:
                masters = [c for c in my_trumps if _master(t, trump, c, outstanding)]
                if masters:
                    c = max(masters, key=lambda c: strength[c])
                    return c, ("lead {card}: draw the trumps with a master", c)
            called = deal.called
            if seat == deal.declarer and called is not None and not partner_known:
                suit = follow[called]
                to_king = [c for c in plain if follow[c] == suit]
                if to_king:
                    c = min(to_king, key=lambda c: strength[c])
                    return c, ("lead {card}: a small card to the called king", c)
            if tops:
                c = max(tops, key=lambda c: strength[c])
                return c, ("lead {card}: the best card of its suit", c)
            if trumps_out and len(my_trumps) >= 3 and seat == deal.declarer:
                c = min(my_trumps, key=lambda c: strength[c])
                return c, ("lead {card}: a low trump to draw the others' trumps", c)
        elif tops:
            c = max(tops, key=lambda c: strength[c])
            return c, ("lead {card}: cash a king while it stands", c)
        if plain:
            # A low card of the suit he holds fewest of, to be void there and trump it later.
            class_mask = t.class_mask[trump]
            counts = {follow[c]: (hand & class_mask[follow[c]]).bit_count() for c in plain}
            c = min(plain, key=lambda c: (counts[follow[c]], strength[c]))
            return c, ("lead {card}: a small card of his shortest suit, keeping his trumps", c)
        c = min(cards, key=lambda c: strength[c])
        return c, ("lead {card}: nothing but trumps; the lowest", c)


def _not_taking(
    deal: Deal, cards: Sequence[int], follow: Sequence[int], strength: Sequence[int]
) -> list[int]:
    """Returns the legal cards that would not take the trick in progress from the card the
    referee has winning it: neither of the class led nor a trump (class 4), or lower."""
    trick = deal.trick
    assert deal.tr is not None and trick
    best = strength[trick[deal.tr.winning_position(trick)]]
    led = follow[trick[0]]
    return [c for c in cards if not ((follow[c] == led or follow[c] == 4) and strength[c] > best)]


def _card_name(deal: Deal, c: int) -> str:
    card = ALL_CARDS[c]
    if deal.trump is not None and deal.trump < len(SUITS):
        names = deal.rules.matador_names(Suit(SUITS[deal.trump]))
        name = names.get(card)
        if name:
            return f"{card} ({name})"
    return str(card)


def _format(deal: Deal, reason: Reason) -> str:
    template, *args = reason
    card_args = [a for a in args if isinstance(a, int) and not isinstance(a, bool)]
    if "{card}" in template and card_args:
        # The card is the last argument.
        return str(template.format(*args[:-1], card=_card_name(deal, args[-1])))
    return str(template.format(*args))


def _scores_more(rules: RuleSet, contract: str, than: str) -> bool:
    """Checks if ``contract`` scores its declarer more than ``than`` under the points tariff,
    by the least he scores when he wins (a bot's measure, not a rule)."""

    def least_won(cid: str) -> int:
        won = [p.declarer for (c, _), p in rules.points.items() if c == cid and p.declarer > 0]
        return min(won, default=0)

    return least_won(contract) > least_won(than)

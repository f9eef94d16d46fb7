"""Trick-taking, written once: what may be played to a trick and who is winning it.

The referee's legal plays, its refusals and the bots all ask a :class:`TrickRules`, built for
a ruleset, a setup and a trump suit. The play rules are *staged filters*: each stage keeps the
cards it allows, and the first stage that drops a card names the rule (and refusal code) that
card breaks.

1. ``play/not-in-hand``: the player's cards;
2. ``play/must-follow-suit`` (or ``play/matador-forced``), under ``play.follow_suit`` only: a
   card of the kind led if he holds one, unless his only trumps are privileged matadors exempt
   from the trump led;
3. ``play/must-trump``: when the rule file says so, a trump when void in the suit led;
4. ``play/must-overtake``: when the rule file says so, a card that beats the best so far.

The duties of stages 3 and 4 are duties of their own: they apply with ``follow_suit: false``
too (a player void in the suit led must still trump; one who can beat the best card must).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.rules.model import RuleSet, Tables

__all__ = ["TRUMPS", "TrickRules"]

TRUMPS = 4
"""The follow class of every trump (plain suits are classes 0-3)."""


class TrickRules:
    """The play rules under one trump suit, as masks over card indices."""

    __slots__ = (
        "_tables",
        "class_mask",
        "exempt",
        "follow",
        "follow_need",
        "follow_suit",
        "must_overtake",
        "must_trump",
        "plain_follow",
        "privileged_mask",
        "strength",
        "strict",
        "trick_strength",
    )

    def __init__(self, rules: RuleSet, tables: Tables, trump: int) -> None:
        self._tables = tables
        self.strength = tables.strength[trump]
        self.follow = tables.follow[trump]
        self.class_mask = tables.class_mask[trump]
        self.exempt = tables.exempt[trump]
        self.follow_suit = rules.follow_suit
        self.must_trump = rules.must_trump
        self.must_overtake = rules.must_overtake
        self.strict = rules.must_trump or rules.must_overtake
        self.follow_need = tables.follow_need[trump]
        self.plain_follow = self.follow_suit and not self.strict
        self.privileged_mask = tables.privileged_mask[trump]
        self.trick_strength = tables.trick_strength[trump]

    @staticmethod
    def of(rules: RuleSet, tables: Tables, trump: int) -> TrickRules:
        """Returns the play rules of a ruleset's setup under a trump suit (a few look-ups into
        the compiled tables, once per deal)."""
        return TrickRules(rules, tables, trump)

    def winning_position(self, trick: Sequence[int]) -> int:
        """Returns the position in ``trick`` of the card winning it so far: the highest trump,
        else the highest card of the kind led."""
        # What each card counts for in a trick of the kind led (compiled with the tables:
        # -1 for a card that can win nothing, the card led at least 1); no two cards that can
        # win count alike.
        counts = self.trick_strength[self.follow[trick[0]]]
        best_pos = 0
        best = -2
        for pos, c in enumerate(trick):
            count = counts[c]
            if count > best:
                best = count
                best_pos = pos
        return best_pos

    def _follow(self, hand: int, led: int) -> tuple[int, bool, bool]:
        """The follow stage: (cards allowed, the player holds the kind led, privileged)."""
        same_kind, exempt = self.follow_need[led]
        same = hand & same_kind
        # The matadors' privilege: a player whose only trumps are matadors exempt from the
        # trump led need not play them (``exempt`` is empty unless a trump is led).
        privileged = bool(same) and not same & ~exempt
        return (same if same and not privileged else hand), bool(same), privileged

    def legal(self, hand: int, trick: Sequence[int]) -> int:
        """Returns the mask of the cards of ``hand`` that may be played to ``trick``."""
        if not trick:
            return hand
        if self.plain_follow:
            # The follow stage of _follow alone (no duty to trump or overtake), inlined: this
            # is the referee's hot path. A card of the kind led, not exempt, must follow.
            same_kind, exempt = self.follow_need[trick[0]]
            same = hand & same_kind
            return same if same & ~exempt else hand
        if self.strict:
            return self.stages(hand, trick)[-1][1]
        return hand

    def stages(self, hand: int, trick: Sequence[int]) -> list[tuple[str, int]]:
        """Returns the stages in order, each as (refusal code, cards still allowed)."""
        stages = [("play/not-in-hand", hand)]
        if not trick:
            return stages
        led = trick[0]
        mask, holds_led, privileged = self._follow(hand, led)
        if not self.follow_suit:
            # No duty to follow: every card stays, but the duties to trump and to overtake
            # are duties of their own (docs/rule-format.md, "play") and still apply.
            mask = hand
        else:
            code = "play/must-follow-suit"
            if (
                self.follow[led] == TRUMPS
                and mask != hand
                and self.exempt[led] != self.exempt_all(led)
                and hand & self.class_mask[TRUMPS] & ~self.privileged_mask == 0
            ):
                # A higher matador led forces a lower one held alone.
                code = "play/matador-forced"
            stages.append((code, mask))
        if self.must_trump and not holds_led:
            trumps = mask & self.class_mask[TRUMPS]
            if trumps:
                mask = trumps
            stages.append(("play/must-trump", mask))
        if self.must_overtake and not privileged:
            strength, follow = self.strength, self.follow
            cls = follow[led]
            best = strength[trick[self.winning_position(trick)]]
            beaters = 0
            m = mask
            while m:
                low = m & -m
                c = low.bit_length() - 1
                m ^= low
                if (follow[c] == TRUMPS or follow[c] == cls) and strength[c] > best:
                    beaters |= low
            if beaters:
                mask = beaters
            stages.append(("play/must-overtake", mask))
        return stages

    def exempt_all(self, led: int) -> int:
        """Returns the privileged matadors other than ``led`` (all exempt from a plain trump)."""
        return self.privileged_mask & ~(1 << led)

"""The rule format's mechanism selectors as enums (generated: do not edit).

Written by ``python tools/gen_schema.py`` from the same lists as the JSON Schema, so a
value the schema accepts is always a member here; a test checks the file is current.
"""

from enum import StrEnum

__all__ = [
    "Aim",
    "AllPass",
    "AllPlayTies",
    "BeteCap",
    "BeteGoing",
    "BiddableWhen",
    "CodilleRemainder",
    "Defenders",
    "EqualRank",
    "Evidence",
    "Exchange",
    "HeldBy",
    "Help",
    "Leader",
    "OpenFrom",
    "OptionKind",
    "OwnCard",
    "Pot",
    "Renonce",
    "SitsOut",
    "SourceKind",
    "Speech",
    "TrumpNamedBy",
    "Trumps",
    "Visibility",
    "VoleBy",
    "VoleWhen",
]


class Evidence(StrEnum):
    """Evidence label of a basis."""

    ATTESTED = "attested"
    INFERRED = "inferred"
    DISPUTED = "disputed"
    CONJECTURE = "conjecture"


class SourceKind(StrEnum):
    """Kind of a source."""

    PRIMARY = "primary"
    SECONDARY = "secondary"
    MODERN = "modern"
    HOUSE = "house"


class OptionKind(StrEnum):
    """Kind of a setup option."""

    REMOVE_SUIT = "remove-suit"
    SUIT = "suit"


class HeldBy(StrEnum):
    """Holders whose matadors are paid."""

    SIDE = "side"
    DECLARER = "declarer"


class Help(StrEnum):
    """The help a contract takes."""

    NONE = "none"
    CALL = "call"
    DEMAND = "demand"


class Exchange(StrEnum):
    """Who exchanges under a contract."""

    DECLARER_FIRST = "declarer-first"
    OTHERS_ONLY = "others-only"
    DECLARER_ONLY = "declarer-only"
    NONE = "none"


class AllPass(StrEnum):
    """What happens when all pass."""

    FORCED = "forced"
    REDEAL = "redeal"


class OwnCard(StrEnum):
    """Calling or demanding a card one holds."""

    ALONE = "alone"
    FORBIDDEN = "forbidden"


class Visibility(StrEnum):
    """Who sees the card given back."""

    PUBLIC = "public"
    PRIVATE = "private"


class Leader(StrEnum):
    """Who leads the first trick."""

    ELDEST = "eldest"
    DECLARER = "declarer"
    AFTER_DECLARER = "after-declarer"


class Renonce(StrEnum):
    """What a revoke does."""

    REFUSED = "refused"
    PENALISED = "penalised"


class VoleWhen(StrEnum):
    """The vole condition of a result."""

    MADE = "made"
    FAILED = "failed"


class Pot(StrEnum):
    """Where the pot goes."""

    SIDE = "side"
    OPPONENTS = "opponents"
    CODILLE_WINNER = "codille-winner"
    STAYS = "stays"
    BOARD = "board"


class BeteGoing(StrEnum):
    """Which bêtes go into a deal."""

    LARGEST_FIRST = "largest-first"
    ALL = "all"


class BeteCap(StrEnum):
    """Cap on a bête made on a bête."""

    STAKES = "stakes"
    NONE = "none"


class CodilleRemainder(StrEnum):
    """Odd counters of a shared pot."""

    NEXT_SPADILLE = "next-spadille"
    STAYS = "stays"
    HIGHEST_TRUMPS = "highest-trumps"


class TrumpNamedBy(StrEnum):
    """Who names trumps."""

    DECLARER = "declarer"
    PARTNER = "partner"


class Trumps(StrEnum):
    """Whether a contract has trumps."""

    NAMED = "named"
    NONE = "none"


class Aim(StrEnum):
    """What the declaring side undertakes."""

    TRICKS = "tricks"
    NO_TRICKS = "no-tricks"


class OpenFrom(StrEnum):
    """When an open contract's hand is shown."""

    BEFORE_FIRST_LEAD = "before-first-lead"
    AFTER_FIRST_LEAD = "after-first-lead"


class BiddableWhen(StrEnum):
    """When a contract may be bid."""

    ALWAYS = "always"
    LAST_AFTER_ALL_PASS = "last-after-all-pass"
    OUT_AFTER_ALL_PASS = "out-after-all-pass"
    OVER_A_BID = "over-a-bid"


class SitsOut(StrEnum):
    """Who sits out of each deal."""

    DEALER = "dealer"
    OPPOSITE_DEALER = "opposite-dealer"


class VoleBy(StrEnum):
    """Who may go on for the vole."""

    SIDE = "side"
    ANY_SEAT = "any-seat"


class AllPlayTies(StrEnum):
    """Who of the seats tied for most tricks in a contract all play takes it."""

    LATEST_TRICK = "latest-trick"


class Speech(StrEnum):
    """How speech goes in the auction."""

    ONCE_EACH = "once-each"
    ROUND = "round"
    DUEL = "duel"


class EqualRank(StrEnum):
    """A bid of the rank standing."""

    REFUSED = "refused"
    EARLIER_HOLDS = "earlier-holds"
    EARLIER_HOLDS_SAME = "earlier-holds-same"


class Defenders(StrEnum):
    """The defenders' order of exchange."""

    IN_TURN = "in-turn"
    EITHER_FIRST = "either-first"

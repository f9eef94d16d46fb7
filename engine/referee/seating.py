"""Who sits where: the one answer to the order of play, the seat that sits out, the seat of
each card of a trick, opponents, possible partners and the next dealer.

The referee deals, asks for speech and plays in this order, and the settlement pays the
opponents it names; every reader (documents, tables, simulation, the scorekeeper) asks a
:class:`Seating` instead of counting seats itself.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.rules.model import Contract, RuleSet, Seating

__all__ = ["Seating", "seating", "seating_for", "side_tricks"]


def seating(rules: RuleSet, dealer: int) -> Seating:
    """Returns the seating of a deal dealt by ``dealer`` under ``rules``: the public face of
    the plan compiled with the ruleset (:attr:`RuleSet.compiled`), so that who sits where is
    worked out once, in the model."""
    return rules.compiled.seatings[dealer]


def seating_for(rules: RuleSet, dealer: int, contract: Contract | None) -> Seating:
    """Returns who sits where once ``contract`` is played in a deal dealt by ``dealer``: under a
    contract every seat plays (``all_play``, taken up by the seat that sat out) nobody sits
    out; under any other, the deal's :func:`seating`."""
    if contract is not None and contract.all_play is not None:
        return rules.compiled.all_play_seatings[dealer]
    return rules.compiled.seatings[dealer]


def side_tricks(won: Sequence[int], side: Iterable[int]) -> int:
    """Returns the tricks a side took: the sum of ``won`` (the tricks each seat took, the seat
    that sits out included, at 0) over the side's seats, each counted once. The one count the
    results table, the vole, the laws, the scorekeeper and the documents read as "the side's
    tricks"."""
    return sum(won[s] for s in set(side))

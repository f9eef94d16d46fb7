"""The seed each deal of a run (or a game, or a party record) is dealt from.

Deal ``i`` of a run seeded ``S`` is shuffled from :func:`deal_seed` ``(S, i)``: ``S`` itself for
the first deal (so ``ombre play --seed 5`` deals first what a record's ``seed: 5`` deals), and
for every later deal a 63-bit number mixed from ``S`` and ``i`` (SplitMix64's finaliser, twice).
Two runs with different seeds so share no deal (but by a 2**-63 chance), where ``S + i`` made
a run seeded 2 replay all but one of the deals of a run seeded 1.

>>> deal_seed(5, 0)
5
>>> deal_seed(1, 1) == deal_seed(2, 0) or deal_seed(1, 2) == deal_seed(2, 1)
False
"""

from __future__ import annotations

import secrets

__all__ = ["deal_seed", "fresh_seed"]

_M64 = (1 << 64) - 1


def _mix64(x: int) -> int:
    """SplitMix64's output function: a bijection of 64-bit integers that scatters every bit."""
    x = (x + 0x9E3779B97F4A7C15) & _M64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _M64
    return x ^ (x >> 31)


def deal_seed(seed: int, index: int) -> int:
    """Returns the seed that deals deal ``index`` (from 0) of a run, game or party seeded ``seed``.

    Deal 0 is dealt from ``seed`` itself; deal ``i > 0`` from ``mix(mix(seed) ^ i)`` (63 bits,
    never negative). Any integer seed works: it is taken modulo 2**64 before mixing.
    """
    if index == 0:
        return seed
    return _mix64(_mix64(seed & _M64) ^ (index & _M64)) >> 1


def fresh_seed() -> int:
    """Returns a seed for a new game from the operating system's randomness (63 bits).

    Never the clock: a player who knows his own hand and roughly when the game began could
    otherwise try the few seeds of that moment and read every other hand and the talon.
    """
    return secrets.randbits(63)

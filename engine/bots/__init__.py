"""Bots: players that choose among the referee's legal actions.

A bot sees only what its seat may see: its own hand, the auction, the trump and the called
card, the cards played, and its partner once the called card has been played (or if it is the
partner). Every choice is one of :meth:`Deal.legal_actions`, so bots can never cheat the rules.

* ``random``: a uniformly random legal action (the referee's sweep tests use it).
* ``heuristic``: bids, calls and plays by the period's advice (:mod:`engine.bots.heuristic`);
  :func:`advise` gives its choice with a one-line reason.
* ``search``: samples the unseen hands, plays each card out, and keeps the best
  (:mod:`engine.bots.search`).

Bots never look at the table (the pot and the bêtes), so a deal's play depends only on its
cards and the bots' random generator: :mod:`engine.simulate` relies on it.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.actions import Action
from engine.bots.base import Bot, RandomBot
from engine.bots.heuristic import HeuristicBot
from engine.bots.search import SearchBot
from engine.referee import Deal

__all__ = ["BOTS", "Bot", "HeuristicBot", "RandomBot", "SearchBot", "advise", "make_bot"]

BOTS: dict[str, Callable[[int | None], Bot]] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
    "search": SearchBot,
}


def make_bot(kind: str, seed: int | None = None) -> Bot:
    """Returns a bot by name (``random``, ``heuristic`` or ``search``), the search bot with
    its settings after colons (``search:plan=fixed``, ``search:samples=12``:
    :data:`engine.bots.search.SETTINGS`).

    :raises ValueError: for an unknown kind or setting, or a setting's bad value.
    """
    name, _, rest = kind.partition(":")
    if name not in BOTS:
        raise ValueError(f"unknown bot {kind!r} (choose {', '.join(BOTS)})")
    if not rest:
        return BOTS[name](seed)
    if name != "search":
        raise ValueError(f"the {name} bot takes no settings, not {rest!r}")
    from engine.bots.search import SETTINGS, make

    settings: dict[str, object] = {}
    for item in rest.split(":"):
        key, sep, value = item.partition("=")
        if not sep or key not in SETTINGS:
            raise ValueError(
                f"search: a setting is KEY=VALUE with KEY one of {', '.join(SETTINGS)}, "
                f"not {item!r}"
            )
        if SETTINGS[key] is int:
            try:
                settings[key] = int(value)
            except ValueError:
                raise ValueError(f"search: {key} is a whole number, not {value!r}") from None
        else:
            settings[key] = value
    return make(settings, seed)


_ADVISER = HeuristicBot(0)


def advise(deal: Deal, seat: int) -> tuple[Action, str]:
    """Returns what the heuristic bot would do for ``seat`` now, and why, in one line.

    >>> from engine import load_ruleset
    >>> deal = Deal(load_ruleset("quadrille"), seed=3)
    >>> action, reason = advise(deal, deal.to_move)
    >>> action in deal.legal_actions() and bool(reason)
    True
    """
    return _ADVISER.advise(deal, seat)

"""The workbench's rule files as an OpenSpiel game (the optional extra ``[openspiel]``).

``import engine.spiel`` registers the game ``ombre_workbench`` with OpenSpiel; then

>>> import pyspiel
>>> game = pyspiel.load_game("ombre_workbench(ruleset=quadrille)")
>>> game.num_players()
4

loads one deal of any ruleset or variant (``options=removed-suit:hearts``, ``dealer=1``),
refereed by the workbench's own referee (:mod:`engine.spiel.game`; the action ids in
:mod:`engine.spiel.codec`). OpenSpiel's players sit at the workbench's table through
:mod:`engine.spiel.bots`; :mod:`engine.spiel.pystate` gives the same game with states in Python
alone, for OpenSpiel's Python algorithms. This package is the only one that imports ``pyspiel``.
"""

from __future__ import annotations

from engine.spiel.game import GAME_TYPE, SHORT_NAME, OmbreGame, OmbreObserver, OmbreState

__all__ = ["GAME_TYPE", "SHORT_NAME", "OmbreGame", "OmbreObserver", "OmbreState", "game_string"]


def game_string(ruleset: str, options: dict[str, str] | None = None, dealer: int = 0) -> str:
    """Returns the OpenSpiel game string of a ruleset, its setup options and dealer.

    >>> game_string("quadrille-a-trois", {"removed-suit": "hearts"})
    'ombre_workbench(ruleset=quadrille-a-trois,options=removed-suit:hearts)'
    """
    parts = [f"ruleset={ruleset}"]
    if options:
        parts.append("options=" + ";".join(f"{k}:{v}" for k, v in options.items()))
    if dealer:
        parts.append(f"dealer={dealer}")
    return f"{SHORT_NAME}({','.join(parts)})"

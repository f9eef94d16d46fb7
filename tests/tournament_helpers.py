"""A four-table Danish evening of eight deals a table (the issue's evening), shared by the
tournament's tests of the model, the terminal and the web."""

from __future__ import annotations

from typing import Any

TABLES = [
    ["Anne", "Bo", "Carl"],
    ["Dora", "Erik", "Finn"],
    ["Gitte", "Hans", "Ida"],
    ["Jens", "Karen", "Lars"],
]
"""The players, table 1 first, seat 0 first."""

DEALS = 8

_PLAYS: list[tuple[str, str | None, tuple[int, int, int]]] = [
    # contract, trumps, tricks (declarer's first, then the seats after him)
    ("spil", "clubs", (5, 2, 2)),
    ("spil", "hearts", (3, 4, 2)),  # kruk: an opponent took more
    ("solo", "diamonds", (6, 2, 1)),
    ("tourne", "spades", (4, 4, 1)),  # bet: a tie
    ("bedre-spil", "spades", (5, 3, 1)),
]


def danish_deal(table: int, k: int, dealer: int) -> dict[str, Any]:
    """Returns deal ``k`` (from 0) of ``table`` (from 1) as a ``score:`` mapping: its contract,
    declarer, trumps and tricks, varied from table to table so that the totals differ."""
    contract, trump, tricks = _PLAYS[(k * 3 + table) % len(_PLAYS)]
    declarer = (dealer + 1 + (k + table) % 3) % 3
    by_seat = [tricks[(seat - declarer) % 3] for seat in range(3)]
    data: dict[str, Any] = {"contract": contract, "declarer": declarer, "tricks": by_seat}
    if trump is not None:
        data["trump"] = trump
    return data


def terminal_answers(data: dict[str, Any]) -> list[str]:
    """Returns the answers ``ombre score`` asks for a Danish deal, in its order: contract,
    declarer, trumps (under a contract with trumps), the tricks of each seat, the penalty
    points (none). Danish l'hombre calls no card and pays no matadors or vole: not asked."""
    answers = [data["contract"], str(data["declarer"])]
    if "trump" in data:
        answers.append(data["trump"])
    return [*answers, " ".join(str(t) for t in data["tricks"]), ""]

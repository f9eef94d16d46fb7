"""The scorekeeper at the terminal (``ombre score``): one deal after another, asked field by field.

Each deal is asked for in the order a scorekeeper hears it at the table: the contract (or
``passed``), the declarer, trumps, the card called or demanded and who held it, the tricks of
each seat, the matadors paid and the vole. The :class:`~engine.scoresheet.Evening` checks and
settles it; a refused entry is shown with its rule and asked again from the start. The evening
file is written after every deal. ``undo`` takes back the last deal, ``quit`` (or the end of
input) stops.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from engine.errors import IllegalActionError, NotationError
from engine.scoresheet import Evening, ScoredDeal, parse_entry, write_evening

__all__ = ["describe_deal", "run_score"]

ReadLine = Callable[[str], str | None]
Write = Callable[[str], None]


class _Stop(Exception):
    """The user typed quit, or the input ended."""


def describe_deal(number: int, scored: ScoredDeal, totals: list[int]) -> list[str]:
    """Returns the lines telling a scored deal: result, payments, balances, running totals."""
    e, s = scored.entry, scored.settlement
    lines = [f"Deal {number}: dealer seat {e.dealer}: {scored.result}"]
    if not e.passed:
        with_ = f" with seat {scored.side[1]}" if len(scored.side) > 1 else ""
        lines.append(
            f"  {e.contract} by seat {e.declarer}{with_}; trumps {e.trump}; "
            f"tricks {' '.join(str(t) for t in e.tricks)}"
            + (f"; {e.matadors} matadors" if e.matadors else "")
        )
    for p in s.payments:
        payer = "the pot" if p.payer == "pot" else f"seat {p.payer}"
        payee = "the pot" if p.payee == "pot" else f"seat {p.payee}"
        lines.append(f"  {p.item}: {payer} → {payee} {p.amount}")
    lines.append(
        "  balances: "
        + ", ".join(f"seat {k} {b:+d}" for k, b in enumerate(s.balances))
        + f"; on the table {s.pot_before} → {s.pot_after}"
        + (f"; bête {s.bete}" if s.bete else "")
    )
    lines.append("  totals:   " + ", ".join(f"seat {k} {t:+d}" for k, t in enumerate(totals)))
    return lines


def _ask(read: ReadLine, prompt: str) -> str:
    answer = read(prompt)
    if answer is None:
        raise _Stop
    answer = answer.strip()
    if answer.lower() in ("quit", "q", "exit"):
        raise _Stop
    return answer


def _read_entry(evening: Evening, read: ReadLine, write: Write) -> dict[str, Any] | str:
    rules = evening.rules
    n = evening.n
    contracts = ", ".join(rules.contracts)
    first = _ask(read, f"contract ({contracts}; 'passed' if all passed; 'undo'; 'quit'): ").lower()
    if first in ("undo", "passed"):
        return first
    data: dict[str, Any] = {"contract": first}

    def seat(prompt: str, optional: bool = False) -> int | None:
        while True:
            text = _ask(read, prompt)
            if optional and not text:
                return None
            if text.isdigit() and int(text) < n:
                return int(text)
            write(f"  a seat from 0 to {n - 1}, please")

    data["declarer"] = seat("declarer (seat): ")
    data["trump"] = _ask(read, "trumps (spades clubs hearts diamonds): ")
    called = _ask(read, "card called or demanded (Enter: none): ")
    if called:
        data["called"] = called
        data["holder"] = seat(f"held by seat (0-{n - 1}): ")
    while True:
        text = _ask(read, f"tricks of each seat, seat 0 first ({n} numbers): ")
        parts = text.replace(",", " ").split()
        if len(parts) == n and all(p.isdigit() for p in parts):
            data["tricks"] = [int(p) for p in parts]
            break
        write(f"  {n} whole numbers, e.g. {' '.join(['2'] * n)}")
    while True:
        text = _ask(read, "matadors paid (Enter: 0): ") or "0"
        if text.isdigit():
            data["matadors"] = int(text)
            break
        write("  a whole number, please")
    data["vole"] = _ask(read, "vole undertaken? (y/N): ").lower() in ("y", "yes")
    if evening.table.remainder:
        highest = seat("odd counters wait: who held the highest trump? (seat, Enter: none): ", True)
        if highest is not None:
            data["highest_trump"] = highest
    return data


def run_score(evening: Evening, path: Path | None, read: ReadLine, write: Write) -> None:
    """Scores deals until the input ends or the user quits, saving after each deal."""
    write(
        f"{evening.rules.name}: {len(evening.deals)} deal(s) so far; "
        f"on the table {evening.table.pot}" + (f"; saved in {path}" if path is not None else "")
    )
    while True:
        number = len(evening.deals) + 1
        write(f"\nDeal {number}: seat {evening.next_dealer} deals.")
        try:
            answer = _read_entry(evening, read, write)
        except _Stop:
            break
        if answer == "undo":
            gone = evening.undo()
            write("Nothing to undo." if gone is None else f"Deal {number - 1} taken back.")
            _save(evening, path)
            continue
        data = {"passed": True} if answer == "passed" else answer
        assert isinstance(data, dict)
        try:
            entry = parse_entry(data, dealer=evening.next_dealer, n=evening.n)
            scored = evening.score(entry)
        except IllegalActionError as exc:
            write(f"Refused: {exc.detail} [{exc.code}]" + (f" ({exc.rule})" if exc.rule else ""))
            continue
        except NotationError as exc:
            write(f"Not understood: {exc}")
            continue
        for line in describe_deal(number, scored, evening.totals):
            write(line)
        _save(evening, path)
    write(
        "\nTotals after "
        f"{len(evening.deals)} deal(s): "
        + ", ".join(f"seat {k} {t:+d}" for k, t in enumerate(evening.totals))
        + f"; on the table {evening.table.pot}"
    )


def _save(evening: Evening, path: Path | None) -> None:
    if path is not None:
        tmp = path.with_name(f".{path.name}.tmp")
        tmp.write_text(write_evening(evening), encoding="utf-8")
        tmp.replace(path)

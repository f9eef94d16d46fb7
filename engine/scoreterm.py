"""The scorekeeper at the terminal (``ombre score``): one deal after another, asked field by field.

Each deal is asked for in the order a scorekeeper hears it at the table: the contract (or
``passed``), the declarer, trumps, the card called or demanded and who held it (and whether he
surrendered it, under a roi rendu), who held each card paid for whatever the result, the tricks of
each seat, the matadors paid and the vole, and the penalty points where the rules score
faults in them. Where the rules state the laws of the play, ``laws`` typed first asks for the
irregularities that change the score (``0 turn-hand 2, 3 made-known``), then the deal as usual.
The :class:`~engine.scoresheet.Evening` checks and
settles it; a refused entry is shown with its rule and asked again from the start. The evening
file is written after every deal. ``undo`` takes back the last deal, ``quit`` (or the end of
input) stops.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from engine.actions import small_number
from engine.cards import Card, Suit
from engine.errors import IllegalActionError, NotationError
from engine.files import write_durably
from engine.referee.play import defender_may_go_on
from engine.referee.result import tied_for_most
from engine.scoresheet import (
    Entry,
    Evening,
    ScoredDeal,
    parse_entry,
    parse_irregularities,
    write_evening,
)
from engine.tournament import Table, Tournament, write_tournament

__all__ = ["describe_deal", "report_text", "run_score", "run_tournament", "tournament_report"]

ReadLine = Callable[[str], str | None]
Write = Callable[[str], None]


class _Stop(Exception):
    """The user typed quit, or the input ended."""


class _Back(Exception):
    """The user typed back in a tournament's deal: it returns to the table question."""


def _macros() -> Any:
    """Returns the macros of ``templates/cli/score.txt.j2``, where the scorekeeper's words are."""
    from engine.render import environment

    return environment("text").get_template("cli/score.txt.j2").module


def describe_deal(
    evening: Evening, number: int, scored: ScoredDeal, totals: list[int]
) -> list[str]:
    """Returns the lines telling a scored deal: result, payments, balances, running totals,
    the players by name."""
    return str(_macros().deal(evening, number, scored, totals)).splitlines()


def report_text(evening: Evening, path: Path | None = None) -> str:
    """Returns the whole evening (``ombre score --report``): the players, every deal, and the
    totals after each deal under the players' names."""
    from engine.render import render

    return render(
        "cli/score-report.txt.j2",
        "text",
        evening=evening,
        path=path,
        running=evening.running_totals(),
    )


def _say(write: Write, what: str, **context: Any) -> None:
    write(str(_macros().say(what, **context)))


def _ask(read: ReadLine, prompt: str) -> str:
    answer = read(prompt)
    if answer is None:
        raise _Stop
    answer = answer.strip()
    if answer.lower() in ("quit", "q", "exit"):
        raise _Stop
    return answer


def _said(evening: Evening, first: str) -> dict[str, Any] | str | None:
    """Returns what the first answer of a deal says when it is not a contract: ``undo``,
    ``passed``, a void deal or the last deal's items unclaimed (None for a contract)."""
    if first in ("undo", "passed"):
        return first
    words = first.split()
    if words and words[0] == "misdeal":
        return {"misdeal": words[1] if len(words) == 2 else ""}  # the laws of the table
    if words and words[0] == "extra-card":
        # The seat by number or name (a name of several words read whole).
        return {"extra_card": evening.seat_of(" ".join(words[1:])) if len(words) > 1 else None}
    if words and words[0] == "unclaimed":
        return {"unclaimed": words[1:]}  # of the deal just scored, said before this one is dealt
    return None


def _read_entry(evening: Evening, read: ReadLine, write: Write) -> dict[str, Any] | str:
    first, irregularities = _contract_and_irregularities(evening, read, write)
    said = _said(evening, first)
    if said is not None:
        if said == "passed":
            said = _with_penalties(evening, {"passed": True}, read, write)
        if isinstance(said, dict) and irregularities:
            # Kept with the answer, so that the entry is refused as a whole (a deal not played
            # has no irregularities of the play) rather than the irregularities dropped unsaid.
            return {**said, "irregularities": irregularities}
        return said
    data = _played_deal(evening, first, read, write)
    if irregularities:
        data["irregularities"] = irregularities
    return _with_penalties(evening, data, read, write)


def _contract_and_irregularities(
    evening: Evening, read: ReadLine, write: Write
) -> tuple[str, list[dict[str, Any]]]:
    """Asks for the deal's first answer (a contract, ``passed``, ``undo`` …), lower-cased, and
    the irregularities of the play said before it when the answer is ``laws``."""
    rules = evening.rules
    ask = _macros().ask
    first = _contract_answer(evening, read, write)
    irregularities: list[dict[str, Any]] = []
    laws = evening.irregularity_laws
    while first == "laws" and laws:
        # The irregularities of the play that change the score (the laws of the play), asked
        # first when the scorekeeper says there were some; then the deal as usual.
        text = _ask(read, str(ask("irregularities", rules, laws=laws, evening=evening)))
        try:
            irregularities = parse_irregularities(text, evening.seat_of)
        except NotationError as exc:
            _say(write, "not-understood", error=exc)
            continue
        first = _contract_answer(evening, read, write)
    return first, irregularities


def _contract_answer(evening: Evening, read: ReadLine, write: Write) -> str:
    """Asks the deal's first question until the answer is a contract of the rules (by id or
    alias: :meth:`RuleSet.contract_id`), ``laws``, or another first answer :func:`_said`
    reads: a name that is no contract is said at once, with the contracts, before the rest of
    the deal is asked."""
    rules = evening.rules
    while True:
        first = _ask(read, str(_macros().ask("contract", rules))).lower()
        if first == "laws" or rules.contract_id(first) is not None or _said(evening, first):
            return first
        _say(write, "contract", evening=evening, answer="" if first in ("?", "help") else first)


def _ask_parsed(
    read: ReadLine,
    write: Write,
    prompt: str,
    parse: Callable[[str], object],
    what: str,
    evening: Evening,
) -> str:
    """Asks until the answer reads (``parse``: a suit, a card) or is empty; ``?`` or a
    wrong answer is told at once what is wanted (the ``what`` help), before the next question."""
    while True:
        text = _ask(read, prompt)
        if not text:
            return text
        if text in ("?", "help"):
            _say(write, what, evening=evening)
            continue
        try:
            parse(text)
        except NotationError as exc:
            _say(write, "not-understood", error=exc)
        else:
            return text


def _ask_yes(read: ReadLine, write: Write, prompt: str) -> bool:
    """Asks a yes-or-no question until the answer is one (Enter: no)."""
    while True:
        text = _ask(read, prompt).lower()
        if text in ("y", "yes", "n", "no", ""):
            return text in ("y", "yes")
        _say(write, "yes-no")


def _ask_seat(
    evening: Evening, read: ReadLine, write: Write, prompt: str, optional: bool = False
) -> int | None:
    """Asks for a seat, by number or name, until one is given; None for no answer when the
    question is ``optional``."""
    while True:
        text = _ask(read, prompt)
        if optional and not text:
            return None
        k = evening.seat_of(text)
        if k is not None:
            return k
        _say(write, "seat", n=evening.n, evening=evening)


def _played_deal(evening: Evening, first: str, read: ReadLine, write: Write) -> dict[str, Any]:
    """Asks for the fields of a deal played in the contract ``first``, in the order a
    scorekeeper hears them; returns them as the entry's data."""
    rules = evening.rules
    n = evening.n
    ask = _macros().ask
    data: dict[str, Any] = {"contract": first}
    # The contract named (an alias read as the record notation reads it): the questions that
    # do not apply to it are not asked (no trumps, no matadors, no vole where it has none).
    # (RuleSet.contract_id; a name that is none is refused, located, by parse_entry).
    contract = rules.contracts.get(rules.contract_id(first) or "")
    data["declarer"] = _ask_seat(evening, read, write, str(ask("declarer", evening=evening)))
    if contract is None or not contract.no_trumps:
        trump = _ask_parsed(read, write, str(ask("trump")), Suit.parse, "trump", evening)
        if trump:
            data["trump"] = trump
    called = (
        _ask_parsed(read, write, str(ask("called")), Card.parse, "called", evening)
        if evening.asks_called(contract)
        else ""
    )
    if called:
        data["called"] = called
        data["holder"] = _ask_seat(evening, read, write, str(ask("holder", n=n, evening=evening)))
        # The roi rendu: the holder may have surrendered the called card (he then plays no
        # part, and the declarer pays him the fee).
        asked = evening.asks_surrendered(contract) and data["holder"] != data["declarer"]
        if asked and _ask_yes(read, write, str(ask("surrendered"))):
            data["surrendered"] = True
    held = _held(evening, read, write)
    if held:
        data["held"] = held
    data["tricks"] = _ask_tricks(evening, read, write)
    while evening.asks_matadors(contract):
        text = _ask(read, str(ask("matadors"))) or "0"
        matadors = small_number(text)
        if matadors is not None:
            data["matadors"] = matadors
            break
        _say(write, "number")
    tied = tied_for_most(contract, data["tricks"]) if len(data["tricks"]) == n else ()
    if len(tied) > 1:
        # Every seat played for himself and some tied for the most tricks: the tie goes to the
        # one of them who won the latest trick (``all_play.ties``).
        prompt = str(ask("latest_of_tied", tied=tied, evening=evening))
        data["latest_of_tied"] = _ask_seat(evening, read, write, prompt)
    if evening.asks_vole(contract):
        # (A contract announcing the vole undertook it with the bid: not asked.)
        data["vole"] = _ask_yes(read, write, str(ask("vole")))
    if data.get("vole") and contract is not None and defender_may_go_on(rules, contract):
        # A defender who took the first tricks may go on for the vole (``vole.by: any-seat``).
        prompt = str(ask("vole_by", n=n, evening=evening))
        data["vole_by"] = _ask_seat(evening, read, write, prompt, True)
        if data["vole_by"] is None:
            del data["vole_by"]
    data.update(_trumps_and_renonces(evening, read, write))
    return data


def _held(evening: Evening, read: ReadLine, write: Write) -> dict[str, int]:
    """Asks who held each card the rules pay for whatever the result (``held_cards``: the red
    aces); Enter: nobody (the talon). Returns the cards held and their holders."""
    held: dict[str, int] = {}
    for card in evening.held_cards:
        prompt = str(_macros().ask("held", card=card, evening=evening))
        seat = _ask_seat(evening, read, write, prompt, True)
        if seat is not None:
            held[str(card)] = seat
    return held


def _ask_tricks(evening: Evening, read: ReadLine, write: Write) -> list[int | None]:
    """Asks for the tricks of every seat, in seat order, until there is a number for each."""
    n = evening.n
    while True:
        text = _ask(read, str(_macros().ask("tricks", n=n, evening=evening)))
        parts = text.replace(",", " ").split()
        counts = [small_number(p) for p in parts]
        if len(parts) == n and all(c is not None for c in counts):
            return counts
        _say(write, "numbers", n=n)


def _trumps_and_renonces(evening: Evening, read: ReadLine, write: Write) -> dict[str, Any]:
    """Asks, where the rules need them, who held trumps (the highest first), who held the
    highest trump and who renounced; returns the fields answered."""
    n = evening.n
    ask = _macros().ask
    data: dict[str, Any] = {}
    if evening.asks_trump_holders:
        # A codille's odd counters go to the defenders with the highest trumps (the rules'
        # codille_remainder): who held a trump, the highest first.
        while True:
            text = _ask(read, str(ask("trump_holders", n=n, evening=evening)))
            parts = text.replace(",", " ").split()
            holders = [evening.seat_of(p) for p in parts]
            if all(h is not None for h in holders):
                if holders:
                    data["trump_holders"] = holders
                break
            _say(write, "seat", n=n, evening=evening)
    if evening.table.remainder:
        highest = _ask_seat(evening, read, write, str(ask("highest", evening=evening)), True)
        if highest is not None:
            data["highest_trump"] = highest
    if evening.asks_renonces:
        renonces = _seats(evening, str(ask("renonces", evening=evening)), read, write)
        if renonces:
            data["renonces"] = renonces
    return data


def _seats(evening: Evening, prompt: str, read: ReadLine, write: Write) -> list[int]:
    """Asks for seats, by number or name, separated by commas (a seat may come again); Enter:
    none."""
    while True:
        parts = [p for p in _ask(read, prompt).split(",") if p.strip()]
        seats = [evening.seat_of(p) for p in parts]
        if all(k is not None for k in seats):
            return [k for k in seats if k is not None]
        _say(write, "seat", n=evening.n, evening=evening)


def _with_penalties(
    evening: Evening, data: dict[str, Any], read: ReadLine, write: Write
) -> dict[str, Any]:
    """Asks for the penalty points of the deal, where the rules score faults in them
    (``settlement.penalties``): ``SEAT FAULT``, several separated by commas. Only the shape is
    read here; the scoresheet checks each fault against the rules."""
    rules = evening.rules
    if not rules.penalties:
        return data
    ask = _macros().ask
    while True:
        text = _ask(read, str(ask("penalties", rules, n=evening.n)))
        faults: list[dict[str, Any]] = []
        for part in (p.rsplit(None, 1) for p in text.split(",") if p.strip()):
            seat = evening.seat_of(part[0]) if len(part) == 2 else None
            if seat is None:
                faults = []
                break
            faults.append({"seat": seat, "fault": part[1]})
        else:
            if faults:
                data["penalties"] = faults
            return data
        _say(write, "penalty-form", n=evening.n, evening=evening)


def run_score(evening: Evening, path: Path | None, read: ReadLine, write: Write) -> None:
    """Scores deals until the input ends or the user quits, saving after each deal."""
    _say(write, "start", evening=evening, path=path)
    while True:
        number = len(evening.deals) + 1
        _say(write, "next", number=number, evening=evening)
        try:
            answer = _read_entry(evening, read, write)
        except _Stop:
            break
        before = list(evening.deals)
        if answer == "undo":
            gone = evening.undo()
            if _save(evening, path, before, write):
                _say(write, "undone", number=None if gone is None else number - 1)
            continue
        assert isinstance(answer, dict)
        settled = _settle(evening, answer, evening.score, write)
        if settled is None or not _save(evening, path, before, write):
            continue
        scored, number = settled
        for line in describe_deal(evening, number, scored, evening.totals):
            write(line)
        if evening.over:
            _say(write, "party-over", evening=evening)
    _say(write, "totals", evening=evening)


def _settle(
    evening: Evening,
    data: dict[str, Any],
    score: Callable[[Entry], ScoredDeal],
    write: Write,
) -> tuple[ScoredDeal, int] | None:
    """Scores the answers ``data`` of a deal by ``score`` (the evening's, or the tournament's
    for one of its tables), or the last deal again without the items it says were unclaimed;
    returns the deal and its number, or None (and says why) where it is refused."""
    try:
        items = data.get("unclaimed")
        if set(data) == {"unclaimed"} and isinstance(items, list):
            return evening.forgo([str(item) for item in items]), len(evening.deals)
        entry = parse_entry(data, dealer=evening.next_dealer, n=evening.n)
        return score(entry), len(evening.deals)
    except IllegalActionError as exc:
        _say(write, "refused", error=exc)
    except NotationError as exc:
        _say(write, "not-understood", error=exc)
    return None


def _save(evening: Evening, path: Path | None, before: list[ScoredDeal], write: Write) -> bool:
    """Saves the evening; if the disk refuses, puts the deals back as they were and says so."""
    if path is None:
        return True
    try:
        write_durably(path, write_evening(evening))
    except OSError as exc:
        evening.deals[:] = before
        _say(write, "not-saved", path=path, error=exc.strerror or exc)
        return False
    return True


# A tournament evening (``ombre score --tournament``): the table asked first, then its deal.


def _tournament_macros() -> Any:
    """Returns the macros of ``templates/cli/tournament.txt.j2``."""
    from engine.render import environment

    return environment("text").get_template("cli/tournament.txt.j2").module


def tournament_report(tournament: Tournament, path: Path | None = None) -> str:
    """Returns the tournament (``ombre score --tournament FILE --report``): the standings
    (placing, player, table, seat, total, deals), then each table's totals."""
    from engine.render import render

    return render("cli/tournament-report.txt.j2", "text", tournament=tournament, path=path)


def _tell(write: Write, what: str, **context: Any) -> None:
    write(str(_tournament_macros().say(what, **context)))


def run_tournament(tournament: Tournament, path: Path | None, read: ReadLine, write: Write) -> None:
    """Scores the deals of a tournament's tables until the input ends or the user quits: the
    table each deal is for (by number or a player's name), then the deal as :func:`run_score`
    asks it; each deal goes through :meth:`Tournament.score` (the party's length, then the
    table's evening, the referee's), and the whole tournament is saved after each deal."""
    _tell(write, "start", tournament=tournament, path=path)
    ask = str(_tournament_macros().ask("table", tournament=tournament))

    def read_deal(prompt: str) -> str | None:
        answer = read(prompt)
        if answer is not None and answer.strip().lower() == "back":
            raise _Back
        return answer

    while True:
        try:
            answer = _ask(read, ask)
        except _Stop:
            break
        words = answer.split(None, 1)  # ``undo TABLE``: the table by number or a name
        if not answer:
            continue
        if answer.lower() in ("help", "?"):
            _tell(write, "help")
            continue
        if answer.lower() == "standings":
            _tell(write, "standings", tournament=tournament)
            continue
        if answer.lower() == "tables":
            _tell(write, "tables", tournament=tournament)
            continue
        if len(words) == 2 and words[0].lower() == "undo":
            table = _table_named(tournament, words[1], write)
            if table is not None:
                _undo(tournament, table, path, write)
            continue
        table = _table_named(tournament, answer, write)
        if table is None:
            continue
        try:
            # The library's refusal, said before the deal's questions rather than after them.
            tournament.refuse_if_complete(table)
        except IllegalActionError as exc:
            _say(write, "refused", error=exc)
            continue
        try:
            _tournament_deal(tournament, table, path, read_deal, write)
        except _Back:
            _tell(write, "back", t=table)
        except _Stop:
            break
    _tell(write, "standings", tournament=tournament)


def _table_named(tournament: Tournament, text: str, write: Write) -> Table | None:
    """Returns the table ``text`` names (its number or a player's name), or None, saying so."""
    table = tournament.table_of(text)
    if table is None:
        _tell(write, "no-table", tournament=tournament, text=text.strip())
    return table


def _tournament_deal(
    tournament: Tournament, table: Table, path: Path | None, read: ReadLine, write: Write
) -> None:
    """Asks for one deal of ``table`` and scores it, or takes back its last deal (``undo``)."""
    evening = table.evening
    _tell(write, "next", tournament=tournament, t=table)
    answer = _read_entry(evening, read, write)
    if answer == "undo":
        _undo(tournament, table, path, write)
        return
    assert isinstance(answer, dict)
    before = list(evening.deals)
    settled = _settle(evening, answer, lambda entry: tournament.score(table.number, entry), write)
    if settled is None or not _save_tournament(tournament, table, path, before, write):
        return
    scored, number = settled
    for line in describe_deal(evening, number, scored, evening.totals):
        write(line)
    if tournament.over:
        _tell(write, "over")
    elif tournament.complete(table):
        _tell(write, "table-complete", tournament=tournament, t=table)
    _tell(write, "standings", tournament=tournament)


def _undo(tournament: Tournament, table: Table, path: Path | None, write: Write) -> None:
    """Takes back the last deal of ``table`` and saves the tournament."""
    evening = table.evening
    before = list(evening.deals)
    gone = evening.undo()
    if _save_tournament(tournament, table, path, before, write):
        number = None if gone is None else len(before)
        _tell(write, "undone", t=table, number=number)


def _save_tournament(
    tournament: Tournament,
    table: Table,
    path: Path | None,
    before: list[ScoredDeal],
    write: Write,
) -> bool:
    """Saves the whole tournament; if the disk refuses, puts ``table``'s deals back as they
    were and says so."""
    if path is None:
        return True
    try:
        write_durably(path, write_tournament(tournament))
    except OSError as exc:
        table.evening.deals[:] = before
        _tell(write, "not-saved", t=table, path=path, error=exc.strerror or exc)
        return False
    return True

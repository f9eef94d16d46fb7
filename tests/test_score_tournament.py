"""``ombre score --tournament``: a four-table Danish evening of eight deals a table entered at the
terminal (the table asked, then the deal as at one table), its report, JSON and CSV, resumed,
and its refusals (a deal past the party, an unknown table, --evening with it, a damaged file)."""

from __future__ import annotations

import csv
import io
import json
import os
from pathlib import Path

from engine import load_ruleset
from engine.files import hold_lock, lock_for
from engine.scoresheet import parse_entry
from engine.tournament import Tournament, load_tournament
from tests.cli_helpers import invoke
from tests.tournament_helpers import DEALS, TABLES, danish_deal, terminal_answers

DANISH = load_ruleset("dansk-lhombre")
TABLES_ARG = ";".join(",".join(names) for names in TABLES)


def script() -> tuple[list[list[str]], Tournament]:
    """Returns the answers of the 32 deals, table after table in turn (deal 1 of each table,
    then deal 2 …), each led by its table (by number, or by a player's name every other
    time), and the same evening entered through the model, to compare with."""
    model = Tournament.new(DANISH, TABLES, deals=DEALS)
    deals = []
    for k in range(DEALS):
        for table in model.tables:
            dealer = table.evening.next_dealer
            data = danish_deal(table.number, k, dealer)
            model.score(table.number, parse_entry(data, dealer=dealer, n=3))
            which = str(table.number) if k % 2 == 0 else table.players[k % 3]
            deals.append([which, *terminal_answers(data)])
    return deals, model


def lines(deals: list[list[str]], *extra: str) -> str:
    return "\n".join([*(a for d in deals for a in d), *extra]) + "\n"


def start(path: Path, stdin: str) -> object:
    return invoke(
        "score",
        "dansk-lhombre",
        "--tournament",
        str(path),
        "--tables",
        TABLES_ARG,
        "--deals",
        str(DEALS),
        stdin=stdin,
    )


def expected(model: Tournament) -> list[dict[str, object]]:
    """The standings worked out here from each table's Evening.totals alone."""
    rows = [
        (total, t.number, seat, name)
        for t in model.tables
        for seat, (name, total) in enumerate(zip(t.players, t.evening.totals, strict=True))
    ]
    rows.sort(key=lambda r: (-r[0], r[1], r[2]))
    return [
        {
            "placing": 1 + sum(o[0] > r[0] for o in rows),
            "player": r[3],
            "table": r[1],
            "seat": r[2],
            "total": r[0],
            "deals": DEALS,
        }
        for r in rows
    ]


def test_a_four_table_evening_entered_at_the_terminal_is_ranked(tmp_path: Path) -> None:
    path = tmp_path / "club.yaml"
    deals, model = script()
    result = start(path, lines(deals))
    assert result.exit_code == 0, result.output
    assert "Every table has played its party" in result.output
    assert result.output.count("Refused") == 0 and "Not understood" not in result.output
    held = load_tournament(path, load_ruleset)
    assert held.over and [len(t.evening.deals) for t in held.tables] == [8, 8, 8, 8]
    for mine, theirs in zip(held.tables, model.tables, strict=True):
        assert mine.evening.totals == theirs.evening.totals

    shown = invoke("score", "--tournament", str(path), "--json")
    assert shown.exit_code == 0, shown.output
    document = json.loads(shown.stdout)
    assert document["standings"] == expected(model)
    assert [t["totals"] for t in document["tables"]] == [t.evening.totals for t in held.tables]
    assert all(t["complete"] and t["deals"] == 8 for t in document["tables"])

    table = invoke("score", "--tournament", str(path), "--csv")
    assert table.exit_code == 0, table.output
    rows = list(csv.DictReader(io.StringIO(table.stdout)))
    assert [(int(r["placing"]), r["player"], int(r["total"])) for r in rows] == [
        (s["placing"], s["player"], s["total"]) for s in expected(model)
    ]

    report = invoke("score", "--tournament", str(path), "--report")
    assert report.exit_code == 0, report.output
    assert "Standings" in report.output and "a tournament of 4 tables, 8 deals a table" in (
        report.output
    )
    for t in held.tables:
        values = " · ".join(
            f"{name} {total:+d}" for name, total in zip(t.players, t.evening.totals, strict=True)
        )
        assert f"Table {t.number} (8 of 8 deals, complete): {values}" in report.output
    first = expected(model)[0]
    assert f"{first['player']}" in report.output.split("Tables:")[0]


def test_an_evening_is_resumed_where_it_stopped(tmp_path: Path) -> None:
    path = tmp_path / "club.yaml"
    deals, model = script()
    first = start(path, lines(deals[:13], "quit"))
    assert first.exit_code == 0, first.output
    assert sum(len(t.evening.deals) for t in load_tournament(path, load_ruleset).tables) == 13
    # The same start command goes on with the file; so does --tournament alone.
    again = start(path, lines(deals[13:20]))
    assert again.exit_code == 0, again.output
    rest = invoke("score", "--tournament", str(path), stdin=lines(deals[20:]))
    assert rest.exit_code == 0, rest.output
    shown = json.loads(invoke("score", "--tournament", str(path), "--json").stdout)
    assert shown["over"] and shown["standings"] == expected(model)


def test_the_tables_are_kept_before_the_first_deal(tmp_path: Path) -> None:
    path = tmp_path / "club.yaml"
    result = start(path, "")
    assert result.exit_code == 0, result.output
    held = load_tournament(path, load_ruleset)
    assert [list(t.players) for t in held.tables] == TABLES and held.deals_per_table == 8


def test_undo_back_standings_and_help_at_the_table_question(tmp_path: Path) -> None:
    path = tmp_path / "club.yaml"
    deals, _ = script()
    stdin = lines(
        deals[:2], "help", "standings", "tables", "Dora", "back", "undo 2", "1", "undo", "quit"
    )
    result = start(path, stdin)
    assert result.exit_code == 0, result.output
    assert "Table 2: nothing entered." in result.output
    assert "Table 2: deal 1 taken back." in result.output
    assert "Table 1: deal 1 taken back." in result.output
    assert "'undo TABLE' takes back a table's last deal" in result.output
    held = load_tournament(path, load_ruleset)
    assert [len(t.evening.deals) for t in held.tables] == [0, 0, 0, 0]


def test_an_unknown_table_is_asked_again(tmp_path: Path) -> None:
    path = tmp_path / "club.yaml"
    deals, _ = script()
    result = start(path, lines([["9"], ["Zed"], *deals[:1]]))
    assert result.exit_code == 0, result.output
    assert "no table 9: a table from 1 to 4" in result.output
    assert "no table Zed" in result.output
    assert len(load_tournament(path, load_ruleset).table(1).evening.deals) == 1


def test_a_deal_past_the_party_and_a_refused_entry_leave_the_file_unchanged(
    tmp_path: Path,
) -> None:
    path = tmp_path / "club.yaml"
    deals, _ = script()
    assert start(path, lines(deals)).exit_code == 0
    before = path.read_bytes()
    past = invoke("score", "--tournament", str(path), stdin="2\nErik\n")
    assert past.exit_code == 0, past.output
    assert past.output.count("[score/table-complete]") == 2
    assert path.read_bytes() == before
    # A deal the referee refuses (nine tricks that are ten) is not saved either.
    other = tmp_path / "other.yaml"
    assert start(other, "").exit_code == 0
    kept = other.read_bytes()
    refused = invoke(
        "score", "--tournament", str(other), stdin="1\nsolo\n0\nspades\n6 3 1\n\nquit\n"
    )
    assert refused.exit_code == 0, refused.output
    assert "Refused:" in refused.output
    assert other.read_bytes() == kept


def test_usage_errors(tmp_path: Path) -> None:
    path = tmp_path / "club.yaml"
    both = invoke("score", "--tournament", str(path), "--evening", str(tmp_path / "e.yaml"))
    assert both.exit_code == 2 and "exclusive" in both.output
    alone = invoke("score", "dansk-lhombre", "--tables", TABLES_ARG)
    assert alone.exit_code == 2 and "--tournament FILE" in alone.output
    twice = invoke(
        "score",
        "dansk-lhombre",
        "--tournament",
        str(path),
        "--tables",
        "A,B,C;a,D,E",
        "--deals",
        "8",
    )
    assert twice.exit_code == 2 and "named twice" in twice.output
    no_length = invoke("score", "dansk-lhombre", "--tournament", str(path), "--tables", "A,B,C")
    assert no_length.exit_code == 2 and "party length" in no_length.output
    missing = invoke("score", "--tournament", str(path), "--report")
    assert missing.exit_code == 2 and "does not exist" in missing.output
    as_json = invoke("score", "--tournament", str(path), "--json")
    assert as_json.exit_code == 2 and json.loads(as_json.stdout)["error"]["code"] == "usage"
    assert not path.exists()
    assert start(path, "").exit_code == 0
    other = invoke(
        "score", "dansk-lhombre", "--tournament", str(path), "--tables", "A,B,C", "--deals", "8"
    )
    assert other.exit_code == 2 and "the tables" in other.output


def test_a_tournament_kept_elsewhere_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "club.yaml"
    assert start(path, "").exit_code == 0
    held = hold_lock(lock_for(path))
    try:
        result = invoke("score", "--tournament", str(path), stdin="quit\n")
    finally:
        os.close(held)
    assert result.exit_code == 2 and "being kept by another" in result.output


def test_a_damaged_file_is_located_and_exits_1(tmp_path: Path) -> None:
    path = tmp_path / "club.yaml"
    deals, _ = script()
    assert start(path, lines(deals[:5])).exit_code == 0
    good = path.read_text(encoding="utf-8")

    path.write_bytes(good.encode() + b"title: \xff\n")
    bad = invoke("score", "--tournament", str(path), "--report")
    assert bad.exit_code == 1 and "tournament/not-utf8" in bad.output
    assert "Traceback" not in bad.output

    path.write_text(good.replace("tables:", "tables: [", 1), encoding="utf-8")
    broken = invoke("score", "--tournament", str(path), stdin="quit\n")
    assert broken.exit_code == 1 and str(path) in broken.output

    path.write_text("ruleset: dansk-lhombre\n# " + "x" * (5 * 1024 * 1024) + "\n")
    big = invoke("score", "--tournament", str(path), "--csv")
    assert big.exit_code == 1 and big.stdout == ""

    nine = good.replace("deals_per_table: 8", "deals_per_table: 1")
    assert nine != good
    path.write_text(nine, encoding="utf-8")
    past = invoke("score", "--tournament", str(path), "--json")
    assert past.exit_code == 1
    assert json.loads(past.stdout)["error"]["code"] == "score/table-complete"
    assert path.read_text(encoding="utf-8") == nine  # a damaged file is never written over


def test_a_tournament_in_a_server_folder_takes_the_servers_lock(tmp_path: Path) -> None:
    (tmp_path / "tournaments").mkdir()
    assert lock_for(tmp_path / "tournaments" / "club.yaml") == tmp_path / ".lock"
    assert lock_for(tmp_path / "club.yaml") == tmp_path / ".club.yaml.lock"

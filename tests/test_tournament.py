"""The tournament evening (engine.tournament): four Danish tables of eight deals each, entered
through the model, ranked across tables from each table's own Evening.totals(), saved and read
back, its damaged files located, its exports."""

from __future__ import annotations

import csv
import io
import itertools
import json
from pathlib import Path

import pytest

from engine import load_ruleset
from engine.errors import IllegalActionError, NotationError, RecordError
from engine.scoresheet import Entry, parse_entry
from engine.tournament import (
    CSV_FIELDS,
    Tournament,
    load_tournament,
    parse_tables,
    party_length,
    read_tournament,
    write_tournament,
)
from tests.tournament_helpers import DEALS, TABLES, danish_deal

DANISH = load_ruleset("dansk-lhombre")


def played() -> Tournament:
    """The issue's evening: four tables of three, eight deals each, entered table by table."""
    tournament = Tournament.new(DANISH, TABLES, deals=DEALS)
    for table in tournament.tables:
        for k in range(DEALS):
            dealer = table.evening.next_dealer
            entry = parse_entry(danish_deal(table.number, k, dealer), dealer=dealer, n=3)
            tournament.score(table.number, entry)
    return tournament


def expected_standings(tournament: Tournament) -> list[tuple[int, str, int]]:
    """(placing, player, total) computed here from each table's Evening.totals alone."""
    lines = [
        (total, t.number, seat, name)
        for t in tournament.tables
        for seat, (name, total) in enumerate(zip(t.players, t.evening.totals, strict=True))
    ]
    lines.sort(key=lambda x: (-x[0], x[1], x[2]))
    return [(1 + sum(o[0] > x[0] for o in lines), x[3], x[0]) for x in lines]


def test_a_four_table_danish_evening_is_entered_and_ranked() -> None:
    tournament = played()
    assert tournament.deals_per_table == 8 and tournament.over
    assert [len(t.evening.deals) for t in tournament.tables] == [8, 8, 8, 8]
    standings = tournament.standings()
    assert len(standings) == 12
    assert [(s.placing, s.player, s.total) for s in standings] == expected_standings(tournament)
    for s in standings:
        table = tournament.table(s.table)
        assert table.players[s.seat] == s.player
        assert table.evening.totals[s.seat] == s.total  # the referee's totals, not ours
        assert s.deals == 8
    # Ties share a place and the next place is skipped (1, 1, …, 6).
    placings = [s.placing for s in standings]
    assert placings[0] == 1 and placings == sorted(placings)
    for a, b in itertools.pairwise(standings):
        if a.total == b.total:
            assert a.placing == b.placing
        else:
            assert b.placing == standings.index(b) + 1


def test_a_ninth_deal_is_refused_and_nothing_changes() -> None:
    tournament = played()
    table = tournament.table(2)
    before = list(table.evening.deals)
    dealer = table.evening.next_dealer
    with pytest.raises(IllegalActionError) as caught:
        tournament.score(2, parse_entry(danish_deal(2, 8, dealer), dealer=dealer, n=3))
    assert caught.value.code == "score/table-complete"
    assert "table 2 has played its 8 deals" in caught.value.detail
    assert table.evening.deals == before
    # A deal taken back may be entered again.
    table.evening.undo()
    assert not tournament.complete(table) and not tournament.over
    dealer = table.evening.next_dealer
    tournament.score(2, parse_entry(danish_deal(2, 7, dealer), dealer=dealer, n=3))
    assert tournament.complete(table)


def test_an_impossible_deal_is_refused_by_the_referee() -> None:
    tournament = Tournament.new(DANISH, TABLES, deals=DEALS)
    with pytest.raises(IllegalActionError) as caught:
        tournament.score(
            1, Entry(dealer=0, contract="spil", declarer=1, trump="clubs", tricks=(5, 5, 5))
        )
    assert caught.value.code.startswith("score/")
    assert tournament.table(1).evening.deals == []


def test_the_party_length_is_the_rule_files_else_the_organisers() -> None:
    # The Danish rule file sets none (party: unset): the organiser's number is needed.
    with pytest.raises(NotationError, match="sets no party length"):
        party_length(DANISH, None)
    assert party_length(DANISH, 8) == 8
    with pytest.raises(NotationError, match="1 to 1000"):
        party_length(DANISH, 0)
    # A rule file with a party of ten tours: forty deals at four, the organiser's other number
    # refused.
    tours = load_ruleset("quadrille-last-tour-double")
    assert party_length(tours, None) == 40
    with pytest.raises(NotationError, match="sets a party of 40 deals"):
        party_length(tours, 8)
    # A race to a target: no length in deals.
    target = load_ruleset("tresillo-rocambor")
    assert party_length(target, None) is None


def test_a_name_appears_once_in_the_whole_tournament() -> None:
    with pytest.raises(NotationError, match=r"'anne' is named twice: table 1, seat 0, and table 2"):
        Tournament.new(DANISH, [["Anne", "Bo", "Carl"], ["anne", "Erik", "Finn"]], deals=8)
    with pytest.raises(NotationError, match="every player is named"):
        Tournament.new(DANISH, [["Anne", "", "Carl"]], deals=8)
    with pytest.raises(NotationError, match="has 3 players, not 2 names"):
        Tournament.new(DANISH, [["Anne", "Bo"]], deals=8)


def test_tables_are_typed_as_the_organiser_types_them() -> None:
    assert parse_tables("A, B ,C; D,E,F\nG,H,I;") == [
        ["A", "B", "C"],
        ["D", "E", "F"],
        ["G", "H", "I"],
    ]
    tournament = Tournament.new(DANISH, parse_tables("Anne,Bo,Carl;Dora,Erik,Finn"), deals=8)
    assert tournament.table_of("2") is tournament.table(2)
    assert tournament.table_of("erik") is tournament.table(2)
    assert tournament.table_of("Ca") is tournament.table(1)
    assert tournament.table_of("3") is None and tournament.table_of("Zoe") is None


def test_the_whole_evening_is_saved_and_read_back(tmp_path: Path) -> None:
    tournament = played()
    path = tmp_path / "club.yaml"
    path.write_text(write_tournament(tournament), encoding="utf-8")
    again = load_tournament(path, load_ruleset)
    assert again.as_json() == tournament.as_json()
    assert write_tournament(again) == write_tournament(tournament)
    # A tournament with no deal keeps each table's first dealer.
    fresh = Tournament.new(DANISH, TABLES, deals=8, first_dealer=2, title="Club night")
    back = read_tournament(write_tournament(fresh), "t.yaml", load_ruleset)
    assert [t.evening.first_dealer for t in back.tables] == [2, 2, 2, 2]
    assert back.title == "Club night"


def _problems(text: str) -> list[tuple[int | None, int | None, str]]:
    with pytest.raises(RecordError) as caught:
        read_tournament(text, "club.yaml", load_ruleset)
    return [(p.line, p.column, p.code) for p in caught.value.problems]


GOOD = """\
ruleset: dansk-lhombre
deals_per_table: 2
tables:
  - players: [Anne, Bo, Carl]
    deals:
      - dealer: 0
        score: {contract: spil, declarer: 1, trump: clubs, tricks: [2, 5, 2]}
  - players: [Dora, Erik, Finn]
"""


def test_a_damaged_file_is_located() -> None:
    assert read_tournament(GOOD, "club.yaml", load_ruleset).table(1).evening.totals == [0, 1, 0]
    # An unknown key of a table, and a deal's unknown key (the evening's own schema).
    assert (4, 5, "tournament/unknown-key") in _problems(
        GOOD.replace("  - players: [Anne", "  - playrs: [X]\n    players: [Anne")
    )
    assert (7, 9, "record/unknown-key") in _problems(
        GOOD.replace("        score: {", "        scor: 1\n        score: {")
    )
    # A length that is not one, located at its value.
    assert _problems(GOOD.replace("deals_per_table: 2", "deals_per_table: many")) == [
        (2, 1, "tournament/deals")
    ]
    # No tables.
    assert (3, 1, "tournament/tables") in _problems(GOOD.split("tables:")[0] + "tables: []\n")
    # A name twice, and a score that is not one.
    twice = _problems(GOOD.replace("Dora", "Anne"))
    assert twice and twice[0][2] == "tournament/players"
    assert _problems(GOOD.replace("declarer: 1", "declarer: 7"))[0][2] == "record/score"
    # YAML that is not.
    assert _problems(GOOD + "  - players: [\n")[0][2] == "yaml/syntax"


def test_a_deal_past_the_length_or_impossible_in_the_file_is_refused_located() -> None:
    third = GOOD.replace(
        "  - players: [Dora",
        "      - dealer: 1\n        score: {contract: spil, declarer: 2, trump: clubs, tricks: [2, 2, 5]}\n"
        "      - dealer: 2\n        score: {contract: spil, declarer: 0, trump: clubs, tricks: [5, 2, 2]}\n"
        "  - players: [Dora",
    )
    with pytest.raises(IllegalActionError) as caught:
        read_tournament(third, "club.yaml", load_ruleset)
    assert caught.value.code == "score/table-complete"
    assert str(caught.value).startswith("club.yaml:10:9: deal 3: table 1 has played its 2 deals")
    with pytest.raises(IllegalActionError) as caught:
        read_tournament(GOOD.replace("[2, 5, 2]", "[2, 5, 5]"), "club.yaml", load_ruleset)
    assert str(caught.value).startswith("club.yaml:7:9: deal 1: the tricks must add up to 9")


def test_a_file_too_large_or_not_utf8_is_refused(tmp_path: Path) -> None:
    from engine.rules.reader import MAX_BYTES

    big = tmp_path / "big.yaml"
    big.write_bytes(b"#" * (MAX_BYTES + 1))
    with pytest.raises(RecordError) as caught:
        load_tournament(big, load_ruleset)
    assert "limit" in caught.value.problems[0].message
    bad = tmp_path / "bad.yaml"
    bad.write_bytes(GOOD.encode().replace(b"Carl", b"Carl\xff"))
    with pytest.raises(RecordError) as caught:
        load_tournament(bad, load_ruleset)
    assert [(p.line, p.code) for p in caught.value.problems] == [(4, "tournament/not-utf8")]


def test_the_standings_are_exported_as_csv_and_json() -> None:
    tournament = played()
    rows = list(csv.reader(io.StringIO(tournament.as_csv())))
    assert tuple(rows[0]) == CSV_FIELDS
    standings = tournament.standings()
    assert rows[1:] == [
        [str(s.placing), s.player, str(s.table), str(s.seat), str(s.total), str(s.deals)]
        for s in standings
    ]
    document = json.loads(json.dumps(tournament.as_json()))
    assert document["ruleset"] == "dansk-lhombre" and document["deals_per_table"] == 8
    assert document["over"] is True
    assert [t["totals"] for t in document["tables"]] == [
        t.evening.totals for t in tournament.tables
    ]
    assert [t["evening"]["deals"] for t in document["tables"]] == [
        [d.as_json() for d in t.evening.deals] for t in tournament.tables
    ]
    assert document["standings"][0] == standings[0].as_json()
    assert set(document["standings"][0]) == set(CSV_FIELDS)


def test_a_name_a_spreadsheet_would_run_is_written_as_text() -> None:
    tournament = Tournament.new(DANISH, [["=SUM(A1)", "Bo", "Carl"]], deals=1)
    assert ",'=SUM(A1)," in tournament.as_csv()


def test_the_documented_example_reads_back() -> None:
    """docs/records.md's tournament file is read as written: one deal at the first table, the
    standings from its settlement."""
    from pathlib import Path

    from engine import load_ruleset
    from engine.tournament import read_tournament

    page = (Path(__file__).resolve().parent.parent / "docs" / "records.md").read_text("utf-8")
    example = page.split("### A tournament evening")[1].split("```yaml\n")[1].split("```")[0]
    tournament = read_tournament(example, "records.md", load_ruleset)
    assert [t.evening.counted for t in tournament.tables] == [1, 0]
    assert tournament.standings()[0].player == "Bo"

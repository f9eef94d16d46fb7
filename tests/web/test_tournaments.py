"""A tournament evening in the browser's scorekeeper (``ombre serve``): four Danish tables of
eight deals each started and entered through the forms, every deal over HTTP, the standings
page, its CSV and JSON checked against each table's own ``Evening.totals``, read back by a new
server on the same folder; and what a hostile or mistaken request gets (no 500)."""

from __future__ import annotations

import csv
import errno
import io
import json
import os
import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed (pip install '.[web]')")

from starlette.testclient import TestClient

import engine.web.store
from engine import load_ruleset
from engine.scoresheet import Evening, parse_entry
from engine.web.app import create_app
from tests.tournament_helpers import DEALS, TABLES, danish_deal
from tests.web.test_app import SAME_ORIGIN

DANISH = load_ruleset("dansk-lhombre")
TABLES_TEXT = "\n".join(", ".join(names) for names in TABLES)


def _client(folder: Path) -> TestClient:
    return TestClient(create_app(folder), follow_redirects=True, headers=SAME_ORIGIN)


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    return _client(tmp_path)


def start(client: TestClient, **fields: str) -> Any:
    data = {
        "ruleset": "dansk-lhombre",
        "title": "Club evening",
        "tables": TABLES_TEXT,
        "deals": str(DEALS),
        "dealer": "0",
    }
    return client.post("/tournaments", data={**data, **fields})


def table_form(page: str, number: int) -> dict[str, str]:
    """The hidden fields of table ``number``'s form for its next deal (count, version, dealer)."""
    form = page.split(f'id="entry-{number}">', 1)[1].split("</form>", 1)[0]
    return dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)">', form))


def deal_fields(data: dict[str, Any]) -> dict[str, str]:
    """A ``score:`` mapping as the form sends it."""
    fields = {
        "contract": data["contract"],
        "declarer": str(data["declarer"]),
        "trump": data.get("trump", ""),
    }
    fields |= {f"tricks{k}": str(t) for k, t in enumerate(data["tricks"])}
    return fields


def enter(client: TestClient, path: str, page: str, number: int, k: int) -> Any:
    """Enters deal ``k`` of table ``number`` from its form on ``page``."""
    hidden = table_form(page, number)
    data = danish_deal(number, k, int(hidden["dealer"]))
    return client.post(f"{path}/tables/{number}/deals", data={**hidden, **deal_fields(data)})


def expected_totals() -> list[list[int]]:
    """Each table's totals, scored here by an Evening of its own, deal by deal."""
    out = []
    for number, names in enumerate(TABLES, start=1):
        evening = Evening(DANISH, players=tuple(names))
        for k in range(DEALS):
            dealer = evening.next_dealer
            evening.score(parse_entry(danish_deal(number, k, dealer), dealer=dealer, n=3))
        out.append(evening.totals)
    return out


def placings(lines: list[tuple[str, int]]) -> dict[str, int]:
    """Each player's place from the totals (1, 2, 2, 4)."""
    return {name: 1 + sum(other > total for _, other in lines) for name, total in lines}


def standings_rows(page: str) -> list[tuple[str, ...]]:
    body = page.split('id="standings">', 1)[1].split("</tbody>", 1)[0]
    return re.findall(
        r'<td class="placing">(\d+)</td><td class="player">([^<]+)</td><td class="table">'
        r'<a href="#table-\d+">(\d+)</a></td><td class="seat">(\d)</td>'
        r'<td class="total">([^<]+)</td><td class="deals">(\d+)</td>',
        body,
    )


def played(client: TestClient) -> tuple[str, str]:
    """The four tables' 32 deals entered through HTTP; returns the page's path and last page."""
    r = start(client)
    assert r.status_code == 200, r.text
    path, page = str(r.url.path), r.text
    for number in range(1, len(TABLES) + 1):
        for k in range(DEALS):
            r = enter(client, path, page, number, k)
            assert r.status_code == 200, r.text
            page = r.text
    return path, page


def test_a_four_table_danish_tournament_through_the_forms(tmp_path: Path) -> None:
    client = _client(tmp_path)
    path, page = played(client)
    assert re.fullmatch(r"/tournaments/dansk-lhombre-tournament-[0-9a-f]{6}", path)
    saved = list((tmp_path / "tournaments").glob("*.yaml"))
    assert [p.stem for p in saved] == [path.rsplit("/", 1)[1]]
    totals = expected_totals()
    assert len({tuple(t) for t in totals}) > 1  # the tables' totals differ
    # Each table's totals on the page, its progress, and no form past the party's length.
    for number, expected in enumerate(totals, start=1):
        cells = re.findall(rf'data-table="{number}" data-seat="\d">([^<]+)<', page)
        assert [int(c) for c in cells] == expected
        assert f'id="progress-{number}">8 of 8 deals entered' in page
        assert f'id="entry-{number}"' not in page and f'id="complete-{number}"' in page
    assert 'id="tournament-over"' in page
    # The standings: every player once, his table's total at his seat, placed 1, 2, 2, 4.
    lines = [
        (name, totals[t][seat]) for t, names in enumerate(TABLES) for seat, name in enumerate(names)
    ]
    places = placings(lines)
    rows = standings_rows(page)
    assert len(rows) == 12
    for placing, name, table, seat, total, deals in rows:
        assert TABLES[int(table) - 1][int(seat)] == name
        assert int(total) == totals[int(table) - 1][int(seat)]
        assert int(placing) == places[name] and deals == "8"
    assert [int(r[4]) for r in rows] == sorted((t for _, t in lines), reverse=True)
    # The JSON: each table's totals, and the standings.
    r = client.get(path + "/standings.json")
    assert r.status_code == 200 and r.headers["content-type"] == "application/json"
    assert r.headers["cache-control"] == "no-store"
    data = r.json()
    assert data["ruleset"] == "dansk-lhombre" and data["title"] == "Club evening"
    assert data["deals_per_table"] == 8 and data["over"] is True
    assert [t["totals"] for t in data["tables"]] == totals
    assert [t["players"] for t in data["tables"]] == TABLES
    assert [t["deals"] for t in data["tables"]] == [8, 8, 8, 8]
    assert [(s["player"], s["total"], s["placing"]) for s in data["standings"]] == [
        (r[1], int(r[4]), int(r[0])) for r in rows
    ]
    # The CSV parses, a line a player, the same standings.
    r = client.get(path + "/standings.csv")
    assert r.status_code == 200 and r.headers["content-type"] == "text/csv; charset=utf-8"
    assert r.headers["content-disposition"].startswith("attachment; filename=")
    assert r.headers["cache-control"] == "no-store"
    read = list(csv.DictReader(io.StringIO(r.text)))
    assert list(read[0]) == ["placing", "player", "table", "seat", "total", "deals"]
    assert [(d["placing"], d["player"], d["table"], d["seat"]) for d in read] == [
        r[:4] for r in rows
    ]
    assert [int(d["total"]) for d in read] == [int(r[4]) for r in rows]
    # The file downloads as saved.
    r = client.get(path + "/tournament.yaml")
    assert r.status_code == 200 and r.text == saved[0].read_text(encoding="utf-8")
    # A new server on the same folder reads it back (every deal scored again).
    fresh = _client(tmp_path)
    again = fresh.get(path)
    assert again.status_code == 200 and standings_rows(again.text) == rows
    assert fresh.get(path + "/standings.json").json() == data
    # The scorekeeper's first page lists it.
    home = fresh.get("/score").text
    assert f'<a href="{path}">' in home and 'href="/tournaments/new"' in home
    # No page of a tournament is kept by the browser.
    for url in (path, "/tournaments/new", path + "/tournament.yaml"):
        assert fresh.get(url).headers["cache-control"] == "no-store", url


def test_a_deal_past_the_length_refused_and_undo_reopens_the_table(tmp_path: Path) -> None:
    client = _client(tmp_path)
    r = start(client, tables="Anne,Bo,Carl", deals="2")
    path, page = str(r.url.path), r.text
    for k in range(2):
        page = enter(client, path, page, 1, k).text
    assert 'id="complete-1"' in page and 'id="entry-1"' not in page
    # A deal sent anyway, from a page of the current version: 400, the reason, nothing scored.
    undo = page.split('action="' + path + '/tables/1/undo"', 1)[1].split("</form>", 1)[0]
    hidden = dict(re.findall(r'name="(\w+)" value="([^"]*)"', undo))
    data = {**hidden, "dealer": "2", **deal_fields(danish_deal(1, 2, 2))}
    r = client.post(path + "/tables/1/deals", data=data)
    assert r.status_code == 400 and 'id="refusal"' in r.text
    assert "has played its 2 deals" in r.text and "score/table-complete" in r.text
    assert client.get(path + "/standings.json").json()["tables"][0]["deals"] == 2
    # Undo takes the last deal back: the table's form is there again, for deal 2.
    r = client.post(path + "/tables/1/undo", data=hidden)
    assert r.status_code == 200 and 'id="entry-1"' in r.text
    assert "Table 1, deal 2" in r.text and 'id="progress-1">1 of 2 deal entered' in r.text
    # The same Undo sent again (a second click): the table has moved on, nothing changed.
    r = client.post(path + "/tables/1/undo", data=hidden)
    assert r.status_code == 409 and "table 1 has moved on" in r.text.lower()
    assert client.get(path + "/standings.json").json()["tables"][0]["deals"] == 1


def test_a_refused_deal_keeps_what_was_typed_and_says_why(client: TestClient) -> None:
    r = start(client)
    path, page = str(r.url.path), r.text
    hidden = table_form(page, 3)
    bad = {**hidden, "contract": "spil", "declarer": "1", "trump": "clubs"}
    bad |= {"tricks0": "7", "tricks1": "1", "tricks2": "3"}  # 11 tricks of 9
    r = client.post(path + "/tables/3/deals", data=bad)
    assert r.status_code == 409 and 'id="refusal"' in r.text
    refusal = r.text.split('id="refusal"', 1)[1].split("</div>", 1)[0]
    assert "table 3, deal 1" in refusal
    # What was typed is back in table 3's form, and only there.
    form = r.text.split('id="entry-3">', 1)[1].split("</form>", 1)[0]
    assert 'name="tricks0" min="0" max="9" value="7"' in form
    assert '<option value="spil" selected>' in form
    other = r.text.split('id="entry-2">', 1)[1].split("</form>", 1)[0]
    assert 'value="7"' not in other and " selected>" not in other.replace('value="0" selected', "")
    assert client.get(path + "/standings.json").json()["tables"][2]["deals"] == 0
    # The same deal sent twice (a second click) is scored once.
    good = {**hidden, **deal_fields(danish_deal(3, 0, int(hidden["dealer"])))}
    assert client.post(path + "/tables/3/deals", data=good).status_code == 200
    r = client.post(path + "/tables/3/deals", data=good)
    assert r.status_code == 409 and "already entered" in r.text
    assert client.get(path + "/standings.json").json()["tables"][2]["deals"] == 1
    # Tables are entered independently: table 1's page drawn before is still current.
    first = {**table_form(page, 1), **deal_fields(danish_deal(1, 0, 0))}
    assert client.post(path + "/tables/1/deals", data=first).status_code == 200


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"tables": "Anne,Bo,Carl; Dora,anne,Finn"}, "&#39;anne&#39; is named twice"),
        (
            {"tables": ";".join(f"a{k},b{k},c{k}" for k in range(65))},
            "a tournament has 1 to 64 tables, not 65",
        ),
        ({"tables": "Anne,Bo,Carl; Dora,Erik"}, "table 2: dansk-lhombre has 3 players"),
        ({"tables": "Anne,,Carl"}, "every player is named"),
        ({"tables": ""}, "1 to 64 tables, not 0"),
        ({"deals": "1001"}, "a party is 1 to 1000 deals"),
        ({"deals": "0"}, "a party is 1 to 1000 deals"),
        ({"deals": ""}, "sets no party length"),
        ({"deals": "٣"}, "the deals a table are a number"),
        ({"title": "Club\x85\x81"}, "the title"),
    ],
)
def test_a_tournament_that_will_not_do_is_refused_with_the_form_kept(
    tmp_path: Path, fields: dict[str, str], message: str
) -> None:
    client = _client(tmp_path)
    r = start(client, **fields)
    assert r.status_code == 400 and 'id="refusal"' in r.text
    assert message in r.text
    assert not list((tmp_path / "tournaments").glob("*"))
    # The form comes back as typed, open.
    if fields.get("tables"):
        typed = fields["tables"].replace("'", "&#39;")
        assert f">{typed}</textarea>" in r.text


@pytest.mark.parametrize(
    "fields",
    [
        {"ruleset": "no-such-game"},
        {"dealer": "3"},
        {"option-nothing": "x"},
        {"extra": "1"},
        {"tables": "x" * 9000},
    ],
)
def test_a_malformed_tournament_form_is_not_understood(
    tmp_path: Path, fields: dict[str, str]
) -> None:
    r = start(_client(tmp_path), **fields)
    assert r.status_code == 400 and "Not understood" in r.text
    assert not list((tmp_path / "tournaments").glob("*"))


def test_a_rule_file_that_sets_the_party_gives_the_length(client: TestClient) -> None:
    page = client.get("/tournaments/new").text

    def form(ruleset: str) -> str:
        return page.split(f'name="ruleset" value="{ruleset}"', 1)[1].split("</form>", 1)[0]

    assert 'name="deals"' in form("dansk-lhombre")  # it sets no party: the organiser says
    fixed = form("quadrille-last-tour-double")
    assert 'name="deals"' not in fixed and "the rule file's party: 40 deals" in fixed
    target = form("tresillo-rocambor")
    assert 'name="deals"' not in target and "the rule file's party: to 12 points" in target
    tables = "A,B,C,D\nE,F,G,H"
    r = client.post(
        "/tournaments",
        data={"ruleset": "quadrille-last-tour-double", "tables": tables, "deals": "7"},
    )
    assert r.status_code == 400 and "sets a party of 40 deals" in r.text
    r = client.post(
        "/tournaments", data={"ruleset": "quadrille-last-tour-double", "tables": tables}
    )
    assert r.status_code == 200 and "2 tables · 40 deals a table" in r.text
    assert 'id="progress-2">0 of 40 deals entered' in r.text
    r = client.post("/tournaments", data={"ruleset": "tresillo-rocambor", "tables": tables})
    assert r.status_code == 200 and "each table's party to 12 points" in r.text


def test_unknown_tournaments_and_tables_are_not_found(client: TestClient) -> None:
    path = str(start(client).url.path)
    for url in (
        "/tournaments/nothing-here",
        "/tournaments/UPPER",
        "/tournaments/..%2Fevenings",
        "/tournaments/nothing-here/standings.csv",
        "/tournaments/nothing-here/standings.json",
    ):
        r = client.get(url)
        assert r.status_code == 404, url
        assert r.headers["cache-control"] == "no-store"
    hidden = table_form(client.get(path).text, 1)
    for number in ("0", "5", "x", "٣", "0001"):
        r = client.post(f"{path}/tables/{number}/deals", data=hidden)
        assert r.status_code == 404, number
    undo = {"count": hidden["count"], "version": hidden["version"]}
    assert client.post("/tournaments/nothing-here/tables/1/undo", data=undo).status_code == 404
    assert client.post(f"{path}/tables/9/undo", data=undo).status_code == 404


def test_a_change_needs_a_same_origin_signal(tmp_path: Path) -> None:
    client = _client(tmp_path)
    r = start(client)
    path, page = str(r.url.path), r.text
    data = {**table_form(page, 1), **deal_fields(danish_deal(1, 0, 0))}
    bare = TestClient(create_app(tmp_path), follow_redirects=True)
    for headers in ({}, {"origin": "null"}, {"origin": "http://evil.example"}):
        assert bare.post(path + "/tables/1/deals", data=data, headers=headers).status_code == 403
        assert bare.post(path + "/tables/1/undo", data=data, headers=headers).status_code == 403
        r = bare.post("/tournaments", data={"ruleset": "dansk-lhombre"}, headers=headers)
        assert r.status_code == 403
    assert len(list((tmp_path / "tournaments").glob("*.yaml"))) == 1
    assert client.get(path + "/standings.json").json()["tables"][0]["deals"] == 0
    # Not URL-encoded, or too large: not understood.
    r = client.post(path + "/tables/1/deals", files={"count": ("x", b"0")})
    assert r.status_code == 400
    r = client.post(path + "/tables/1/deals", data={**data, "note": "x" * 9000})
    assert r.status_code == 400 and "too large" in r.text


@pytest.mark.parametrize(
    "text",
    [
        b"ruleset: dansk-lhombre\ntitle: \xff\xfe\n",  # not UTF-8
        b"ruleset: [\n",  # not YAML
        b"[" * 100_000 + b"]" * 100_000,
        b"ruleset: dansk-lhombre\ndeals_per_table: 8\ntables: nothing\n",
        b"ruleset: no-such-game\ndeals_per_table: 8\ntables:\n  - players: [A, B, C]\n",
        b"ruleset: dansk-lhombre\ndeals_per_table: 8\ntables:\n  - players: [A, B]\n",
        b"ruleset: dansk-lhombre\ndeals_per_table: 1\ntables:\n  - players: [A, B, C]\n"
        b"    deals:\n      - {dealer: 0, score: {passed: true}}\n"
        b"      - {dealer: 1, score: {passed: true}}\n",  # a deal past the length
        b"ruleset: dansk-lhombre\ndeals_per_table: 8\ntables:\n  - players: [A, B, C]\n"
        b"    deals:\n      - {dealer: 0, score: {contract: spil, declarer: 1, tricks: [9, 9, 9]}}\n",
        # The evening schema's words for irregularities hold braces (once read as a format).
        b"ruleset: dansk-lhombre\ndeals_per_table: 8\ntables:\n  - players: [A, B, C]\n"
        b"    deals:\n      - {dealer: 0, score: {passed: true, irregularities: 5}}\n",
    ],
)
def test_a_damaged_tournament_file_is_named(tmp_path: Path, text: bytes) -> None:
    client = _client(tmp_path)
    path = str(start(client).url.path)
    target = next((tmp_path / "tournaments").glob("*.yaml"))
    target.write_bytes(text)
    fresh = _client(tmp_path)
    for url in (path, path + "/standings.csv", path + "/standings.json"):
        r = fresh.get(url)
        assert r.status_code == 409, (url, r.text)
        assert "A saved file is damaged" in r.text and str(target) in r.text
    hidden = {"count": "0", "version": "x", "dealer": "0"}
    assert fresh.post(path + "/tables/1/deals", data=hidden).status_code == 409


def test_a_save_the_disk_refuses_changes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    client = _client(tmp_path)
    r = start(client)
    path, page = str(r.url.path), r.text
    data = {**table_form(page, 2), **deal_fields(danish_deal(2, 0, 0))}

    def refuse(target: Path, text: str) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(target))

    with monkeypatch.context() as patch:
        patch.setattr(engine.web.store, "write_durably", refuse)
        r = client.post(path + "/tables/2/deals", data=data)
        assert r.status_code == 503 and 'id="not-saved"' in r.text
        assert os.strerror(errno.ENOSPC) in r.text
        assert 'name="tricks0" min="0" max="9" value="' + data["tricks0"] + '"' in r.text
        r = start(client, title="Another")
        assert r.status_code == 503 and len(list((tmp_path / "tournaments").glob("*"))) == 1
    assert client.get(path + "/standings.json").json()["tables"][1]["deals"] == 0
    # Sent again once there is room: scored, and saved.
    assert client.post(path + "/tables/2/deals", data=data).status_code == 200
    assert _client(tmp_path).get(path + "/standings.json").json()["tables"][1]["deals"] == 1
    assert not list(tmp_path.rglob("*.tmp"))


def test_names_are_escaped_and_a_formula_is_not_one_in_the_csv(client: TestClient) -> None:
    r = start(client, tables="=HYPERLINK(1),<b>Bo</b>,Carl")
    assert r.status_code == 200
    assert "<b>Bo</b>" not in r.text and "&lt;b&gt;Bo&lt;/b&gt;" in r.text
    path = str(r.url.path)
    read = list(csv.DictReader(io.StringIO(client.get(path + "/standings.csv").text)))
    assert [d["player"] for d in read] == ["'=HYPERLINK(1)", "<b>Bo</b>", "Carl"]
    data = json.loads(client.get(path + "/standings.json").text)
    assert data["tables"][0]["players"] == ["=HYPERLINK(1)", "<b>Bo</b>", "Carl"]


def test_the_home_page_lists_the_tournaments_with_the_evenings(client: TestClient) -> None:
    home = client.get("/").text
    assert 'id="scored"' not in home and 'href="/tournaments/new"' in home
    r = start(client)
    assert r.status_code == 200
    path = str(r.url.path)
    evening = client.post(
        "/evenings", data={"ruleset": "dansk-lhombre", "dealer": "0", "title": "Tuesday"}
    )
    assert evening.status_code == 200
    home = client.get("/").text
    listed = home.split('id="scored"', 1)[1].split("</section>", 1)[0]
    assert f'<a href="{path}">' in listed.split('id="tournaments"', 1)[1]
    assert f'<a href="{evening.url.path}">' in listed.split('id="evenings"', 1)[1]
    assert "<code>tournaments/</code>" in home

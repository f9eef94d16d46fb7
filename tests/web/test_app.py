"""The server without a browser: only well-formed requests are accepted, the referee decides,
and tables and evenings are saved as records; ``ombre score`` at the terminal."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed (pip install '.[web]')")

from starlette.testclient import TestClient

from engine.records import read_record
from engine.web.app import create_app, site_books

# What a browser sends with a form from the server's own page (the tests' server is
# http://testserver).
SAME_ORIGIN = {"origin": "http://testserver"}


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    return TestClient(create_app(tmp_path), follow_redirects=True, headers=SAME_ORIGIN)


def new_table(client: TestClient, seed: int = 4) -> tuple[str, str]:
    r = client.post(
        "/tables", data={"ruleset": "quadrille", "mode": "bots", "seat": "0", "seed": str(seed)}
    )
    assert r.status_code == 200
    return str(r.url.path), r.text


def version_of(page: str) -> str:
    match = re.search(r'name="version" value="([^"]+)"', page)
    assert match
    return match.group(1)


def turn_of(page: str) -> str:
    match = re.search(r'name="turn" value="([^"]+)"', page)
    assert match
    return match.group(1)


def test_a_table_is_saved_as_a_record_after_every_move(client: TestClient, tmp_path: Path) -> None:
    path, page = new_table(client)
    ident = path.rsplit("/", 1)[1]
    record = read_record(tmp_path / "tables" / f"{ident}.yaml")
    before = len(record.deals[0].actions)
    action = re.search(r'name="action" value="([^"]+)"', page)
    assert action
    r = client.post(path + "/act", data={"seat": "0", "turn": turn_of(page), "action": action[1]})
    assert r.status_code == 200
    after = read_record(tmp_path / "tables" / f"{ident}.yaml")
    assert len(after.deals[0].actions) > before
    # The saved record holds every hand; it is handed out once the deal is over.
    page = play_out(client, path, r.text, {"0"})
    assert (
        client.get(path + "/record.yaml").text
        == (tmp_path / "tables" / f"{ident}.yaml").read_text()
    )


def test_the_referee_refuses_and_the_deal_is_unchanged(client: TestClient, tmp_path: Path) -> None:
    path, page = new_table(client)
    saved = next((tmp_path / "tables").glob("*.yaml")).read_text()
    r = client.post(path + "/act", data={"seat": "0", "turn": turn_of(page), "action": "play As"})
    assert r.status_code == 409
    assert "Not allowed" in r.text
    assert next((tmp_path / "tables").glob("*.yaml")).read_text() == saved
    # A card that is not in the game's pack is refused as such.
    r = client.post(path + "/act", data={"seat": "0", "turn": turn_of(page), "action": "play 9s"})
    assert r.status_code == 409 and "9s is not in this game&#39;s pack" in r.text
    assert next((tmp_path / "tables").glob("*.yaml")).read_text() == saved
    # A seat played by a bot, a stale page, an action that does not parse.
    assert (
        client.post(
            path + "/act", data={"seat": "2", "turn": turn_of(page), "action": "pass"}
        ).status_code
        == 400
    )
    assert (
        client.post(path + "/act", data={"seat": "0", "turn": "9.9", "action": "pass"}).status_code
        == 409
    )
    assert (
        client.post(
            path + "/act", data={"seat": "0", "turn": turn_of(page), "action": "fly"}
        ).status_code
        == 400
    )


@pytest.mark.parametrize(
    ("headers", "body", "status"),
    [
        ({"content-type": "application/json"}, b'{"seat": 0}', 400),
        ({"content-type": "application/x-www-form-urlencoded"}, b"seat=0&evil=1", 400),
        (
            {"content-type": "application/x-www-form-urlencoded"},
            b"seat=0&seat=1&turn=1.1&action=pass",
            400,
        ),
        ({"content-type": "application/x-www-form-urlencoded"}, b"x" * 10000, 400),
        ({"content-type": "application/x-www-form-urlencoded", "host": "evil.example"}, b"", 421),
        (
            {"content-type": "application/x-www-form-urlencoded", "origin": "http://evil.example"},
            b"seat=0&turn=1.1&action=pass",
            403,
        ),
    ],
)
def test_only_well_formed_requests_are_accepted(
    client: TestClient, headers: dict[str, str], body: bytes, status: int
) -> None:
    path, _ = new_table(client)
    assert client.post(path + "/act", content=body, headers=headers).status_code == status


def test_unknown_or_malformed_ids_are_not_found(client: TestClient) -> None:
    assert client.get("/tables/nothing-here").status_code == 404
    assert client.get("/tables/..%2F..%2Fetc").status_code == 404
    assert client.get("/evenings/NOPE").status_code == 404


def test_a_restarted_server_resumes_the_table(tmp_path: Path) -> None:
    first = TestClient(create_app(tmp_path), follow_redirects=True, headers=SAME_ORIGIN)
    path, page = new_table(first, seed=9)
    hand = re.findall(r'data-card="(\w\w)"', page.split('id="hand"')[1])
    second = TestClient(create_app(tmp_path), follow_redirects=True, headers=SAME_ORIGIN)
    again = second.get(path).text
    assert re.findall(r'data-card="(\w\w)"', again.split('id="hand"')[1]) == hand
    assert turn_of(again) == turn_of(page)


def test_score_at_the_terminal(tmp_path: Path) -> None:
    evening = tmp_path / "thursday.yaml"
    answers = (
        "\n".join(
            [
                "ask",
                "1",
                "clubs",
                "Kd",
                "3",
                "1 3 3 3",
                "0",
                "n",  # the worked settlement 4.1 (a)
                "ask",
                "2",
                "hearts",
                "Kh",
                "0",
                "2 1 3 4",
                "0",
                "n",  # a trump king: refused
                "ask",
                "2",
                "hearts",
                "Ks",
                "0",
                "2 1 3 4",
                "0",
                "n",  # a remise
            ]
        )
        + "\n"
    )
    run = subprocess.run(
        [sys.executable, "-m", "engine.cli", "score", "quadrille", "--evening", str(evening)],
        input=answers,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert "Balances: seat 0 -14 · seat 1 +9 · seat 2 -4 · seat 3 +9" in run.stdout
    assert "Refused:" in run.stdout and "score/call-trump" in run.stdout
    assert ": remise" in run.stdout
    report = subprocess.run(
        [sys.executable, "-m", "engine.cli", "score", "--evening", str(evening), "--json"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    import json

    data = json.loads(report.stdout)
    assert [d["result"] for d in data["deals"]] == ["win", "remise"]
    assert sum(data["totals"]) + data["pot"] == 0


def play_out(client: TestClient, path: str, page: str, seats: set[str]) -> str:
    """Answers every turn with the first choice offered (the écart: keep the hand)."""
    for _ in range(300):
        if 'id="result"' in page:
            return page
        seat = re.search(r'name="seat" value="(\d)"', page)
        assert seat and seat[1] in seats
        if 'name="verb" value="discard"' in page:
            data = {"seat": seat[1], "turn": turn_of(page), "verb": "discard"}
        else:
            action = re.search(r'name="action" value="([^"]+)"', page)
            assert action, page
            data = {"seat": seat[1], "turn": turn_of(page), "action": action[1]}
        r = client.post(path + "/act", data=data)
        assert r.status_code == 200, r.text
        page = r.text
    raise AssertionError("the deal did not end")


@pytest.mark.parametrize("ruleset", ["ombre", "quadrille-a-trois", "mediateur", "german-solo"])
def test_a_deal_of_each_game_is_played_to_its_end(client: TestClient, ruleset: str) -> None:
    r = client.post("/tables", data={"ruleset": ruleset, "mode": "bots", "seat": "1", "seed": "2"})
    page = play_out(client, str(r.url.path), r.text, {"1"})
    assert "running totals" in page


def test_hot_seat_passes_the_screen_to_each_seat(client: TestClient) -> None:
    r = client.post("/tables", data={"ruleset": "quadrille", "mode": "hotseat", "seed": "8"})
    assert "(bot)" not in r.text
    page = play_out(client, str(r.url.path), r.text, {"0", "1", "2", "3"})
    assert "Next deal" in page


def test_a_choice_not_offered_says_why_not(client: TestClient) -> None:
    # Everyone passes: the holder of Spadille must play, names spades, and may not call Ks.
    r = client.post("/tables", data={"ruleset": "quadrille", "mode": "hotseat", "seed": "8"})
    page, path = r.text, str(r.url.path)
    for _ in range(10):
        if 'class="whynot"' in page:
            break
        seat = re.search(r'name="seat" value="(\d)"', page)
        action = re.search(r'name="action" value="([^"]+)"', page)
        assert seat and action
        page = client.post(
            path + "/act", data={"seat": seat[1], "turn": turn_of(page), "action": action[1]}
        ).text
    asked = re.search(r'class="whynot" href="\?why=([^"#]+)', page)
    assert asked, page
    answer = client.get(path, params={"why": asked[1].replace("%20", " ")}).text
    assert "Not allowed" in answer
    assert re.search(r'<code class="code">[a-z]+/[a-z-]+</code>', answer)


def test_an_evening_with_the_players_names(client: TestClient, tmp_path: Path) -> None:
    r = client.post(
        "/evenings",
        data={
            "ruleset": "quadrille",
            "dealer": "0",
            "title": "Longbourn",
            "player0": "Mr Bennet",
            "player1": "Elizabeth",
            "player2": "Jane",
            "player3": "Mary",
        },
    )
    assert "seat 1 (Elizabeth)" in r.text
    path = str(r.url.path)
    data = {
        "count": "0",
        "dealer": "0",
        "contract": "ask",
        "declarer": "1",
        "trump": "clubs",
        "called": "Kd",
        "holder": "3",
        "matadors": "0",
        "tricks0": "1",
        "tricks1": "3",
        "tricks2": "3",
        "tricks3": "3",
    }
    data["version"] = version_of(r.text)
    page = client.post(path + "/deals", data=data).text
    assert re.findall(r'data-seat="\d">([^<]+)<', page) == ["-14", "+9", "-4", "+9"]
    # The history's payment rows name the players too.
    rows = page.split('<table class="payments">')[1].split("</table>")[0]
    assert "seat 1 (Elizabeth)" in rows and not re.search(r"<td>(→ )?seat \d</td>", rows)
    # The same form sent twice (a second click) is not scored twice.
    assert client.post(path + "/deals", data=data).status_code == 409
    saved = next((tmp_path / "evenings").glob("*.yaml")).read_text()
    assert 'players: ["Mr Bennet", "Elizabeth", "Jane", "Mary"]' in saved
    assert client.get(path + "/evening.yaml").text == saved
    # The evening survives a restart of the server.
    again = (
        TestClient(create_app(tmp_path), follow_redirects=True, headers=SAME_ORIGIN).get(path).text
    )
    assert re.findall(r'data-seat="\d">([^<]+)<', again) == ["-14", "+9", "-4", "+9"]


def test_the_rule_is_the_rule_book_of_the_documents(client: TestClient, small_books: Path) -> None:
    r = client.get("/rules/quadrille")
    assert r.status_code == 200 and r.url.path == "/book/books/quadrille.html"
    assert 'id="play"' in r.text and 'id="settlement"' in r.text
    assert client.get("/book/style.css").headers["content-type"].startswith("text/css")
    assert client.get("/book/%2E%2E/%2E%2E/etc/passwd").status_code == 404
    assert client.get("/book/books/nothing.html").status_code == 404
    assert client.get("/rules/nothing").status_code == 400


# slow: the whole documents site, 26 variants measured against their parents, about 40 CPU s.
@pytest.mark.slow
def test_the_whole_site_is_written_in_the_background_and_served(client: TestClient) -> None:
    folder = site_books(wait=600)  # written once per process, in the background
    assert folder is not None
    for book in sorted((folder / "books").glob("*.html")):
        r = client.get(f"/rules/{book.stem}")
        assert r.status_code == 200 and r.url.path == f"/book/books/{book.stem}.html"
    assert client.get("/book/index.html").status_code == 200


def test_hot_seat_cards_are_covered_until_opened(client: TestClient) -> None:
    r = client.post("/tables", data={"ruleset": "ombre", "mode": "hotseat", "seed": "1"})
    page = r.text
    cover = page.index('<details class="cover" id="cover">')
    assert cover < page.index('id="hand"') < page.index("</details>", cover)


def test_a_damaged_saved_table_is_reported_not_crashed(tmp_path: Path) -> None:
    client = TestClient(create_app(tmp_path), follow_redirects=True, headers=SAME_ORIGIN)
    path, _ = new_table(client)
    record = next((tmp_path / "tables").glob("*.yaml"))
    record.write_text(record.read_text() + "      - 0 play Zz\n")
    fresh = TestClient(create_app(tmp_path), follow_redirects=True, headers=SAME_ORIGIN)
    r = fresh.get(path)
    assert r.status_code == 409
    assert "A saved file is damaged" in r.text and f"{record}" in r.text


def test_the_ecart_is_one_form_of_tick_boxes(client: TestClient) -> None:
    # The first seed whose deal reaches seat 1's écart with fewer cards allowed than it holds
    # (whether it does depends on the bots' bids: a deal all pass is dealt again).
    def limited(page: str) -> bool:
        limit = re.search(r"\(up to (\d+);", page)
        cards = re.findall(r'name="card" value="(\w\w)"', page)
        return limit is not None and int(limit[1]) < len(cards)

    for seed in range(1, 60):
        r = client.post(
            "/tables", data={"ruleset": "ombre", "mode": "bots", "seat": "1", "seed": str(seed)}
        )
        page, path = r.text, str(r.url.path)
        for _ in range(6):
            if 'name="verb" value="discard"' in page:
                break
            action = re.search(r'name="action" value="([^"]+)"', page)
            if not action:
                break
            page = client.post(
                path + "/act", data={"seat": "1", "turn": turn_of(page), "action": action[1]}
            ).text
        if 'name="verb" value="discard"' in page and limited(page):
            break
    assert 'name="verb" value="discard"' in page and limited(page)
    assert 'value="discard ' not in page  # no button per set of cards
    hand = re.findall(r'name="card" value="(\w\w)"', page)
    # More cards than the rules allow are refused by the referee, the hand unchanged.
    r = client.post(
        path + "/act",
        data={"seat": "1", "turn": turn_of(page), "verb": "discard", "card": hand},
    )
    assert r.status_code == 409 and "Not allowed" in r.text
    r = client.post(
        path + "/act",
        data={"seat": "1", "turn": turn_of(page), "verb": "discard", "card": hand[-2:]},
    )
    assert r.status_code == 200 and 'name="verb" value="discard"' not in r.text


def test_every_page_links_the_rule_books_and_the_glossary(
    client: TestClient, small_books: Path
) -> None:
    for path in ("/", "/score", new_table(client)[0]):
        page = client.get(path).text
        for link in ("/book/index.html", "/book/glossary.html"):
            assert f'href="{link}"' in page
            assert client.get(link).status_code == 200


# What a newcomer sees: the bids explained, one pot, the main games first.


def test_the_bids_are_explained_with_the_terminals_words(client: TestClient) -> None:
    from engine import load_ruleset
    from engine.referee import Deal
    from engine.render import environment
    from engine.table import contract_choices

    _, page = new_table(client, seed=3)
    assert 'id="bids"' in page
    rules = load_ruleset("quadrille")
    words = environment("text").get_template("table/_words.j2").module
    # The same words as `?` at the terminal, from the same macro, for every bid offered.
    for c, suits in contract_choices(Deal(rules, seed=3)):
        if f'value="bid {c.id}"' in page:
            assert str(words.contract_explained(c, suits)) in page.replace("&#39;", "'")
            assert f"Bid {c.name}</button>" in page
    # Seats by name, and the auction told in words, not "1 bid ask".
    auction = page.split('id="auction"')[1].split("</ol>")[0]
    spoken = re.findall(r"<li>([^<]*)</li>", auction)
    assert spoken and all(
        re.fullmatch(r"(you|seat \d \(bot\)): (passes|bids [A-Z].*)", x) for x in spoken
    ), spoken
    assert not re.search(r"<li>\d ", auction)


def test_the_moves_since_your_last_turn_read_as_at_the_terminal(client: TestClient) -> None:
    import html

    from engine import load_ruleset
    from engine.actions import Action
    from engine.render import environment

    rules = load_ruleset("quadrille")
    words = environment("text").get_template("table/_words.j2").module
    seen: list[str] = []
    for seed in (3, 4, 5):
        path, page = new_table(client, seed=seed)
        for _ in range(60):
            if 'id="events"' in page:
                events = page.split('id="events"')[1].split("</section>")[0]
                seen += html.unescape(events.split("</b>", 1)[1]).strip().split(" · ")
            if 'id="result"' in page or 'name="action" value="' not in page:
                break
            action = re.search(r'name="action" value="([^"]+)"', page)
            assert action
            data = {"seat": "0", "turn": turn_of(page), "action": action[1]}
            page = client.post(path + "/act", data=data).text
    seen = [x for x in seen if x]
    assert seen
    for x in seen:
        # Never the record's notation ("seat 1 (bot): bid ask"): the seat's name, then the
        # action in the terminal table's words, from the same macro.
        found = re.fullmatch(r"Seat (\d) \(bot\) (.*)", x)
        assert found, x
        verb = found[2].split()[0]
        assert verb in {
            "passes",
            "bids",
            "names",
            "discards",
            "gives",
            "calls",
            "plays",
            "lays",
            "undertakes",
        }, x
    bids = {
        f"Seat {s} (bot) " + str(words.deed(rules, Action.parse(f"bid {c}")))
        for s in range(1, 4)
        for c in rules.contracts
    }
    assert any(x in bids for x in seen) and all(x in bids for x in seen if " bids " in x)
    assert any("[" in x for x in seen if " bids " in x)  # "Demander à jouer (ask leave) [ask]"


def test_the_result_page_shows_one_pot(client: TestClient) -> None:
    path, page = new_table(client, seed=4)
    page = play_out(client, path, page, {"0"})
    header = page.split('id="status"')[1].split("</section>")[0]
    assert "Pot " not in header and "On the table for the next deal" in header
    pot = re.search(r'id="pot">(\d+)<', header)
    assert pot
    row = page.split("<td>this deal</td>")[1].split("</tr>")[0]
    assert re.findall(r"<td>([^<]*)</td>", row)[-1] == pot[1]  # the same number below


def test_the_result_page_says_why_with_the_referees_results_line(client: TestClient) -> None:
    from engine import load_ruleset
    from engine.referee import ResultMatch
    from engine.render import environment

    path, page = new_table(client, seed=4)
    page = play_out(client, path, page, {"0"})
    why = re.search(r'<p class="why" id="why-result">Why ([a-z-]+): ([^<]*)\.</p>', page)
    assert why, "the result page explains the result"
    rules = load_ruleset("quadrille")
    words = environment("text").get_template("table/_words.j2").module
    # The line the referee matched (one of the results table's), in the terminal's words.
    lines = [r for r in rules.results if r.result == why[1]]
    assert lines
    assert any(
        why[2].replace("&#39;", "'") == str(words.why_result(ResultMatch(r, i, rules.results[:i])))
        for i, r in enumerate(rules.results)
        if r in lines
    )


def test_the_home_page_puts_tables_in_progress_and_the_four_games_first(
    client: TestClient,
) -> None:
    new_table(client)
    page = client.get("/").text
    at = {key: page.index(key) for key in ("Tables in progress", 'id="games"', 'id="family"')}
    assert at["Tables in progress"] < at['id="games"'] < at['id="family"']
    games = page.split('id="games"')[1].split('id="family"')[0]
    found = re.findall(r'id="game-([a-z-]+)"', games)
    assert found == ["ombre", "quadrille", "quadrille-a-trois", "mediateur"]
    # The family and the variants are a click away (closed), every one of them still there.
    rest = page.split('id="family"')[1]
    assert re.search(r'<details class="panel more" id="family">', page)
    assert re.search(r'<details class="panel more" id="variants">', page)
    assert 'id="game-german-solo"' in rest and 'id="game-quadrille-renonce"' in rest


def test_trick_labels_skip_the_seat_that_sits_out() -> None:
    # Tresillo: the dealer sits the deal out. In a trick led by seat 3 the second card is seat
    # 1's (the referee's order), not seat 0's, the dealer who sits out.
    from engine import load_ruleset
    from engine.web.app import _table_context
    from engine.web.tables import WebTable

    checked = 0
    for seed in range(12):
        table = WebTable("t", load_ruleset("tresillo"), {}, humans=(1, 2, 3))
        deal = table.party.new_deal(seed=seed)
        assert deal.out == 0
        while not deal.is_over:
            if deal.phase == "play" and len(deal.trick) >= 2:
                context = _table_context(table, None)
                seats = [c["seat"] for c in context["trick"]]
                assert seats == [deal.seat_at(deal.leader, k) for k in range(len(deal.trick))]
                assert 0 not in seats
                checked += deal.leader == 3
            if deal.tricks:
                context = _table_context(table, None)
                last = deal.tricks[-1]
                assert [c["seat"] for c in context["last_trick"]["cards"]] == [
                    s for s, _ in deal.seating.plays(last)
                ]
            deal.apply(deal.legal_actions()[seed % len(deal.legal_actions())])
    assert checked


# The raise and the defender's choice of order (issue 16): controls of their own, from the
# referee's legal actions.


def test_the_auctions_winner_is_offered_what_he_may_play(client: TestClient) -> None:
    r = client.post("/tables", data={"ruleset": "dansk-lhombre", "mode": "hotseat", "seed": "1"})
    assert r.status_code == 200
    path, page = str(r.url.path), r.text
    for seat, action in (("1", "bid spil"), ("2", "pass"), ("0", "pass")):
        r = client.post(path + "/act", data={"seat": seat, "turn": turn_of(page), "action": action})
        assert r.status_code == 200, r.text
        page = r.text
    assert 'id="raise"' in page
    assert "won the auction with <b>Spil (alm. spil)</b>" in page
    assert '<button name="action" value="pass">Play Spil (alm. spil) (the contract won)' in page
    assert '<button name="action" value="bid kobe-nolo">Play Købe nolo' in page
    assert '<button name="action" value="bid tourne">Play Tourné' in page
    assert 'id="choices"' not in page  # no generic buttons beside them
    r = client.post(
        path + "/act", data={"seat": "1", "turn": turn_of(page), "action": "bid kobe-nolo"}
    )
    assert r.status_code == 200 and 'id="raise"' not in r.text
    assert 'name="verb" value="discard"' in r.text  # he plays købe nolo: he buys


def test_a_defender_may_let_the_other_exchange_first(tmp_path: Path) -> None:
    from engine import load_ruleset
    from engine.render import render
    from engine.web.app import _table_context
    from engine.web.tables import WebTable

    rules_path = tmp_path / "test-either.yaml"
    rules_path.write_text(
        "id: test-either-web\nname: Either\nextends: tresillo\nsummary: A test of defer.\n"
        "exchange:\n  defenders: either-first\n  basis: {evidence: conjecture, note: a test}\n",
        "utf-8",
    )
    table = WebTable("t1", load_ruleset(rules_path), {}, humans=(1, 2, 3), seed=4)
    table.start()
    for seat, action in ((1, "bid entrada"), (2, "pass"), (3, "pass")):
        table.act(seat, action, table.turn)
    table.act(1, str(table.deal.legal_actions()[0]), table.turn)  # trumps
    table.act(1, "discard", table.turn)
    page = render("web/table.j2", "html", **_table_context(table, None))
    assert 'id="defer"' in page
    assert '<button name="action" value="defer">Let the other defender exchange first' in page
    assert 'value="defer">Defer' not in page  # not a generic button as well
    table.act(2, "defer", table.turn)
    page = render("web/table.j2", "html", **_table_context(table, None))
    assert 'id="defer"' not in page  # once only, and not for the other defender


def test_penalty_points_are_entered_on_the_web_scoresheet(client: TestClient) -> None:
    r = client.post("/evenings", data={"ruleset": "dansk-lhombre", "dealer": "0"})
    assert r.status_code == 200 and 'id="penalties"' in r.text
    assert '<option value="named-without-need">' in r.text
    path = str(r.url.path)
    base = {
        "count": "0",
        "dealer": "0",
        "contract": "bedre-spil",
        "declarer": "1",
        "trump": "spades",
        "matadors": "0",
        "tricks0": "2",
        "tricks1": "5",
        "tricks2": "2",
    }

    def post(rows: list[tuple[str, str]], page: str) -> object:
        data: dict[str, object] = dict(base, version=version_of(page))
        data["penalty_seat"] = [s for s, _ in rows]
        data["penalty_fault"] = [f for _, f in rows]
        return client.post(path + "/deals", data=data)

    # Malformed: a row with a seat and no fault, a seat that is not a number: 400, located.
    bad = post([("1", ""), ("", "")], r.text)
    assert bad.status_code == 400 and "penalty row 1" in bad.text  # type: ignore[attr-defined]
    bad = post([("x", "named-without-need")], r.text)
    assert bad.status_code == 400 and "penalty row 1" in bad.text  # type: ignore[attr-defined]
    # An unknown fault: the scoresheet refuses it with the rules' faults (409), nothing scored.
    bad = post([("1", "no-such-fault")], r.text)
    assert bad.status_code == 409  # type: ignore[attr-defined]
    assert "no fault &#39;no-such-fault&#39;" in bad.text  # type: ignore[attr-defined]
    # Two rows, one left empty: scored from the referee's penalty line.
    good = post([("1", "named-without-need"), ("", "")], r.text)
    assert good.status_code == 200  # type: ignore[attr-defined]
    page = good.text  # type: ignore[attr-defined]
    assert "Penalty points: seat 1 1 (A bid named without need to overcall (strafpoint))" in page
    assert re.findall(r'data-seat="\d">([^<]+)<', page) == ["0", "0", "0"]


def test_the_result_page_says_where_each_seats_counters_went(client: TestClient) -> None:
    path, page = new_table(client, seed=4)
    page = play_out(client, path, page, {"0"})
    ledger = page.split('id="ledger">')[1].split("</ul>")[0]
    rows = re.findall(r"<li>([^<]*)</li>", ledger)
    assert len(rows) == 4 and rows[0].startswith("You: ")
    assert all(r.startswith(("You: ", "Seat ")) for r in rows)
    balances = page.split("<td>this deal</td>")[1].split("</tr>")[0]
    figures = re.findall(r"<td>([^<]*)</td>", balances)[:4]
    for row, figure in zip(rows, figures, strict=True):
        assert row.endswith(f": {figure}.") or f": {figure}, below zero" in row
        assert "You was" not in row and "you has" not in row


def test_the_scorekeeper_start_page_puts_the_common_games_first(client: TestClient) -> None:
    page = client.get("/score").text
    first = page.split('id="games">')[1].split("</section>")[0]
    assert re.findall(r'name="ruleset" value="([^"]+)"', first) == [
        "ombre",
        "quadrille",
        "quadrille-a-trois",
        "mediateur",
    ]
    folded = page.split('id="games">')[1].split("</section>", 1)[1]
    assert '<details class="panel more" id="family">' in folded
    assert '<details class="panel more" id="variants">' in folded
    assert 'value="tresillo"' in folded  # the rest is there, folded

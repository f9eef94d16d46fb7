"""End-to-end tests in a real headless Chromium: the page is clicked as a person would.

Skipped, with the reason, where Debian's chromium and chromedriver are not installed
(``make browser`` installs them).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engine import load_ruleset
from engine.bots import make_bot
from engine.referee import Deal
from engine.referee.party import Party
from engine.scoresheet import Evening, parse_entry
from engine.web.app import site_books
from tests.test_scoresheet import entry_of
from tests.web.conftest import LiveServer

pytestmark = [pytest.mark.filterwarnings("ignore::ResourceWarning"), pytest.mark.browser]


def _by(kind: str) -> Any:
    from selenium.webdriver.common.by import By

    return getattr(By, kind)


def css(driver: Any, selector: str) -> list[Any]:
    return list(driver.find_elements(_by("CSS_SELECTOR"), selector))


def click(driver: Any, element: Any) -> None:
    """Clicks an element that loads a new page, and waits for it."""
    from selenium.common.exceptions import WebDriverException
    from selenium.webdriver.support import expected_conditions
    from selenium.webdriver.support.ui import WebDriverWait

    page = driver.find_element(_by("TAG_NAME"), "html")
    element.click()
    wait = WebDriverWait(driver, 20)

    def replaced(_: Any) -> bool:
        # Chromium reports a replaced page either as a stale element or, mid-navigation, as
        # "Node with given id does not belong to the document": both mean the page is gone.
        try:
            return bool(expected_conditions.staleness_of(page)(driver))
        except WebDriverException:
            return True

    wait.until(replaced)
    wait.until(lambda d: d.execute_script("return document.readyState") == "complete")


def new_table(driver: Any, server: LiveServer, ruleset: str, seed: int, seat: int = 0) -> str:
    """Sits down at a table from the home page, as a person would; returns its address."""
    from selenium.webdriver.support.ui import Select

    driver.get(server.url + "/")
    form = next(
        f
        for f in css(driver, "form.ruleset")
        if f.find_element(_by("NAME"), "ruleset").get_attribute("value") == ruleset
    )
    # The seat, the bots, the options and the seed are one click away, under the game.
    form.find_element(_by("CSS_SELECTOR"), "details.settings summary").click()
    Select(form.find_element(_by("NAME"), "seat")).select_by_value(str(seat))
    form.find_element(_by("NAME"), "seed").send_keys(str(seed))
    click(driver, form.find_element(_by("CSS_SELECTOR"), "button[value=bots]"))
    assert "/tables/" in driver.current_url
    return str(driver.current_url)


def step(driver: Any) -> bool:
    """Clicks the first allowed choice; returns False once the deal is over."""
    from selenium.common.exceptions import WebDriverException

    for attempt in range(3):
        try:
            if css(driver, "#result"):
                return False
            for selector in ("button.cardbutton.legal", "#choices button", "#hand button"):
                found = css(driver, selector)
                if found:
                    click(driver, found[0])
                    return True
        except WebDriverException:
            # The page was being replaced while we looked (a slow machine): look again.
            if attempt == 2:
                raise
            continue
        break
    raise AssertionError("nothing to click, and the deal is not over:\n" + driver.page_source)


def test_a_complete_deal_played_by_clicking(browser: Any, live_server: LiveServer) -> None:
    url = new_table(browser, live_server, "quadrille", seed=11)
    for _ in range(80):
        if not step(browser):
            break
    result = browser.find_element(_by("ID"), "result").text
    assert "Result" in result or "All passed" in result
    # Every payment with its reason, the balances and running totals, the next deal.
    rows = css(browser, "#result table.payments tbody tr")
    assert any("stake" in r.text for r in rows)
    assert css(browser, "#result tr.running")
    # The record offered for download is the one saved, and the referee replays it complete.
    ident = url.rsplit("/", 1)[1]
    saved = live_server.folder / "tables" / f"{ident}.yaml"
    from engine.records import read_record, replay

    record = read_record(saved)
    report = replay(record, load_ruleset(record.ruleset))
    assert report.complete and report.error is None
    totals = [int(t.text) for t in css(browser, "#result tr.running td")[1:-1]]
    assert totals == report.totals
    click(browser, browser.find_element(_by("ID"), "next-deal"))
    assert "deal 2" in browser.find_element(_by("ID"), "status").text


def play_until_illegal_card(driver: Any) -> Any:
    for _ in range(200):
        illegal = css(driver, "a.cardbutton.illegal")
        if illegal:
            return illegal[0]
        if not step(driver):
            click(driver, css(driver, "#next-deal")[0])
    raise AssertionError("no card was ever refused in 200 clicks")


def test_an_illegal_click_is_refused_with_the_rule(browser: Any, live_server: LiveServer) -> None:
    new_table(browser, live_server, "quadrille", seed=3)
    card = play_until_illegal_card(browser)
    code = card.find_element(_by("CSS_SELECTOR"), ".card").get_attribute("data-card")
    hand_before = [c.get_attribute("data-card") for c in css(browser, "#hand .card")]
    click(browser, card)
    refusal = browser.find_element(_by("ID"), "refusal").text
    assert "Not allowed" in refusal and f"play {code}" in refusal
    assert "play/" in refusal  # the referee's code
    rule_link = browser.find_element(_by("LINK_TEXT"), "the rule").get_attribute("href")
    assert "/rules/quadrille#play" in rule_link
    assert [c.get_attribute("data-card") for c in css(browser, "#hand .card")] == hand_before
    # A forged request for the same card is refused by the server, the deal unchanged.
    turn = css(browser, "input[name=turn]")[0].get_attribute("value")
    status = browser.execute_async_script(
        """const done = arguments[arguments.length - 1];
        fetch(location.pathname + '/act', {method: 'POST',
          headers: {'content-type': 'application/x-www-form-urlencoded'},
          body: 'seat=0&turn=' + arguments[0] + '&action=play%20' + arguments[1]})
        .then(r => done(r.status));""",
        turn,
        code,
    )
    assert status == 409
    browser.refresh()
    assert [c.get_attribute("data-card") for c in css(browser, "#hand .card")] == hand_before
    # The rule is one click away (the books are written once per process, in a thread from the
    # server's start; until then a page is answered 503 with Retry-After, so wait for them).
    assert site_books(wait=300) is not None
    browser.get(rule_link)
    assert browser.find_element(_by("ID"), "play").is_displayed()


def test_a_reload_and_a_server_restart_resume_the_deal(
    browser: Any, live_server: LiveServer, records_folder: Path
) -> None:
    url = new_table(browser, live_server, "quadrille", seed=5)
    while not css(browser, "button.cardbutton.legal") or len(css(browser, "#hand .card")) > 8:
        assert step(browser)
    hand = [c.get_attribute("data-card") for c in css(browser, "#hand .card")]
    status = browser.find_element(_by("ID"), "status").text
    browser.refresh()
    assert [c.get_attribute("data-card") for c in css(browser, "#hand .card")] == hand
    # Another server on the same folder (the first one stopped) resumes it from the records.
    live_server.stop()
    other = LiveServer(records_folder).start()
    try:
        browser.get(url.replace(live_server.url, other.url))
        assert [c.get_attribute("data-card") for c in css(browser, "#hand .card")] == hand
        assert browser.find_element(_by("ID"), "status").text == status
        while step(browser):
            pass
        assert css(browser, "#result")
    finally:
        other.stop()
        live_server.start()


def three_deals_with_remise_and_codille() -> Party:
    """A party the referee played (random bots) whose first three deals hold both results."""
    rules = load_ruleset("quadrille")
    for seed in range(1, 400):
        party = Party(rules)
        bots = [make_bot("random", seed * 10 + k) for k in range(4)]
        for i in range(3):
            deal: Deal = party.new_deal(seed=seed * 100 + i)
            while not deal.is_over:
                deal.apply(bots[deal.to_move].choose(deal, deal.to_move))
        results = {d.result for d in party.deals}
        if {"remise", "codille"} <= results and not any(d.penalties for d in party.deals):
            return party
    raise AssertionError("no such party in 400 seeds")


def test_a_scorekeeper_evening_matches_the_referee(browser: Any, live_server: LiveServer) -> None:
    from selenium.webdriver.support.ui import Select

    party = three_deals_with_remise_and_codille()
    browser.get(live_server.url + "/score")
    form = next(
        f
        for f in css(browser, "form.ruleset")
        if f.find_element(_by("NAME"), "ruleset").get_attribute("value") == "quadrille"
    )
    form.find_element(_by("NAME"), "title").send_keys("Three deals")
    click(browser, form.find_element(_by("TAG_NAME"), "button"))
    from selenium.common.exceptions import WebDriverException

    for deal in party.deals:
        entry = entry_of(deal)

        def fill(entry: Any) -> Any:
            form = browser.find_element(_by("ID"), "entry")
            if entry.passed:
                form.find_element(_by("NAME"), "passed").click()
            else:
                Select(form.find_element(_by("NAME"), "contract")).select_by_value(
                    str(entry.contract)
                )
                Select(form.find_element(_by("NAME"), "declarer")).select_by_value(
                    str(entry.declarer)
                )
                Select(form.find_element(_by("NAME"), "trump")).select_by_visible_text(
                    entry.trump.value
                )
                if entry.called is not None:
                    Select(form.find_element(_by("NAME"), "called")).select_by_visible_text(
                        str(entry.called)
                    )
                    Select(form.find_element(_by("NAME"), "holder")).select_by_value(
                        str(entry.holder)
                    )
                for k, t in enumerate(entry.tricks):
                    box = form.find_element(_by("NAME"), f"tricks{k}")
                    box.clear()
                    box.send_keys(str(t))
                box = form.find_element(_by("NAME"), "matadors")
                box.clear()
                box.send_keys(str(entry.matadors))
                if entry.vole:
                    form.find_element(_by("NAME"), "vole").click()
                if entry.highest_trump is not None:
                    # Odd counters from a codille wait for the holder of the highest trump.
                    Select(form.find_element(_by("NAME"), "highest_trump")).select_by_value(
                        str(entry.highest_trump)
                    )
            return form

        for attempt in range(3):
            # A page still being replaced after the last deal (a slow machine) can detach the
            # form under our hands: load the page afresh (an empty form) and fill it again.
            try:
                form = fill(entry)
                break
            except WebDriverException:
                if attempt == 2:
                    raise
                browser.get(browser.current_url)
        click(browser, form.find_element(_by("ID"), "score-deal"))
        assert not css(browser, "#refusal"), browser.find_element(_by("ID"), "refusal").text
    cells = css(browser, "#totals td[data-seat]")
    assert [int(c.text) for c in cells] == party.totals
    assert int(browser.find_element(_by("ID"), "pot").text) == party.table.pot
    results = [r.text.lower() for r in css(browser, ".deal .result")]
    assert "remise" in results and "codille" in results
    # An impossible entry is refused with the rule, and nothing is scored.
    form = browser.find_element(_by("ID"), "entry")
    Select(form.find_element(_by("NAME"), "contract")).select_by_value("ask")
    Select(form.find_element(_by("NAME"), "declarer")).select_by_value("1")
    Select(form.find_element(_by("NAME"), "trump")).select_by_visible_text("clubs")
    Select(form.find_element(_by("NAME"), "called")).select_by_visible_text("Kc")
    Select(form.find_element(_by("NAME"), "holder")).select_by_value("2")
    click(browser, form.find_element(_by("ID"), "score-deal"))
    refusal = browser.find_element(_by("ID"), "refusal").text
    assert "score/call-trump" in refusal and "enc-q" in refusal.lower()
    assert [int(c.text) for c in css(browser, "#totals td[data-seat]")] == party.totals
    # The same evening, settled by the scorekeeper's Python code, agrees.
    evening = Evening(party.rules)
    for deal in party.deals:
        evening.score(parse_entry(entry_of(deal).as_score(), dealer=deal.dealer, n=4))
    assert evening.totals == party.totals


def test_on_a_phone_the_main_games_come_first(browser: Any, live_server: LiveServer) -> None:
    new_table(browser, live_server, "ombre", seed=2)  # a table in progress
    browser.set_window_size(390, 844)
    try:
        browser.get(live_server.url + "/")
        top = {
            key: browser.find_element(_by("CSS_SELECTOR"), selector).location["y"]
            for key, selector in (
                ("tables", "#in-progress"),
                ("quadrille", "#game-quadrille"),
                ("mediateur", "#game-mediateur"),
                ("family", "#family"),
            )
        }
        assert top["tables"] < top["quadrille"] < top["mediateur"] < top["family"]
        assert top["quadrille"] < 1500  # was 1,781 px down an 11,803 px page
        height = browser.execute_script("return document.body.scrollHeight")
        assert height < 4000
        # Nothing is wider than the phone: no sideways scrolling.
        assert browser.execute_script("return document.documentElement.scrollWidth") <= 390
    finally:
        browser.set_window_size(1280, 900)


def test_the_record_is_offered_only_once_the_deal_is_over(
    browser: Any, live_server: LiveServer
) -> None:
    url = new_table(browser, live_server, "ombre", seed=7, seat=0)
    ident = url.rsplit("/", 1)[1]
    saved = live_server.folder / "tables" / f"{ident}.yaml"
    from engine.records import read_record

    hidden = {c for h in read_record(saved).deals[0].hands[1:] for c in h}
    # In the middle of the deal: no link, and the address itself gives no hand away.
    assert not css(browser, "#record")
    assert "once the deal is over" in browser.find_element(_by("CSS_SELECTOR"), ".links").text
    status, text = browser.execute_async_script(
        """const done = arguments[arguments.length - 1];
        fetch(location.pathname + '/record.yaml').then(r => r.text().then(t => done([r.status, t])));"""
    )
    assert status == 409 and not any(c in text.split() for c in hidden)
    assert not any(f'data-card="{c}"' in browser.page_source for c in hidden)
    while step(browser):
        pass
    link = browser.find_element(_by("ID"), "record")
    status, text = browser.execute_async_script(
        """const done = arguments[arguments.length - 1];
        fetch(arguments[0]).then(r => r.text().then(t => done([r.status, t])));""",
        link.get_attribute("href"),
    )
    assert status == 200 and text == saved.read_text()


def test_a_failed_save_is_told_in_the_page_and_nothing_is_lost(
    browser: Any, live_server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    import errno
    import os

    from selenium.webdriver.support.ui import Select

    import engine.web.store

    browser.get(live_server.url + "/score")
    form = next(
        f
        for f in css(browser, "form.ruleset")
        if f.find_element(_by("NAME"), "ruleset").get_attribute("value") == "quadrille"
    )
    click(browser, form.find_element(_by("TAG_NAME"), "button"))
    evening_url = browser.current_url

    def fill() -> Any:
        form = browser.find_element(_by("ID"), "entry")
        Select(form.find_element(_by("NAME"), "contract")).select_by_value("ask")
        Select(form.find_element(_by("NAME"), "declarer")).select_by_value("1")
        Select(form.find_element(_by("NAME"), "trump")).select_by_visible_text("clubs")
        Select(form.find_element(_by("NAME"), "called")).select_by_visible_text("Kd")
        Select(form.find_element(_by("NAME"), "holder")).select_by_value("3")
        for k, t in enumerate((1, 3, 3, 3)):
            box = form.find_element(_by("NAME"), f"tricks{k}")
            box.clear()
            box.send_keys(str(t))
        return form

    def full(path: Any, text: str) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))

    with monkeypatch.context() as patch:
        patch.setattr(engine.web.store, "write_durably", full)
        click(browser, fill().find_element(_by("ID"), "score-deal"))
        notice = browser.find_element(_by("ID"), "not-saved").text
        assert "Not saved" in notice and os.strerror(errno.ENOSPC) in notice
        assert "nothing was changed" in notice
        # What was typed is still there, and nothing was scored.
        form = browser.find_element(_by("ID"), "entry")
        assert [
            form.find_element(_by("NAME"), f"tricks{k}").get_attribute("value") for k in range(4)
        ] == ["1", "3", "3", "3"]
        assert Select(form.find_element(_by("NAME"), "holder")).first_selected_option.text
        assert [c.text for c in css(browser, "#totals td[data-seat]")] == ["0"] * 4
    # The disk has room again: the same form, sent again, is scored and saved.
    click(browser, browser.find_element(_by("ID"), "score-deal"))
    assert not css(browser, "#not-saved") and not css(browser, "#refusal")
    assert [c.text for c in css(browser, "#totals td[data-seat]")] == ["-14", "+9", "-4", "+9"]
    browser.get(evening_url)
    assert [c.text for c in css(browser, "#totals td[data-seat]")] == ["-14", "+9", "-4", "+9"]


def test_the_matrix_picker_hides_and_shows_a_rule_sets_columns(
    browser: Any, tmp_path: Path
) -> None:
    # The documents' matrix (issue 19, item 14): a reader unticks a rule set and its columns
    # go from every table, with no script on the page; "show every rule set" brings them back.
    from engine.documents.site import write_docs

    ids = ["quadrille", "quadrille-four-trick-bete", "quadrille-contre", "ombre"]
    write_docs(tmp_path, "html", [load_ruleset(i) for i in ids])
    browser.get((tmp_path / "matrix.html").as_uri())
    assert css(browser, "#picker")[0].is_displayed()

    def shown(ident: str) -> int:
        return sum(1 for e in css(browser, f".c-{ident}") if e.is_displayed())

    before = {i: shown(i) for i in ids}
    assert all(before.values())
    css(browser, "#show-quadrille-contre")[0].click()
    assert shown("quadrille-contre") == 0
    assert {i: shown(i) for i in ids if i != "quadrille-contre"} == {
        i: n for i, n in before.items() if i != "quadrille-contre"
    }
    css(browser, "#show-quadrille")[0].click()  # in both tables: the games and its family
    assert shown("quadrille") == 0 and shown("ombre") == before["ombre"]
    css(browser, 'button[type="reset"]')[0].click()
    assert {i: shown(i) for i in ids} == before

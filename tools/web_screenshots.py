"""Takes the screenshots of docs/web.md: the table and the scorekeeper, at phone and desk widths.

Run ``.venv/bin/python tools/web_screenshots.py`` (needs ``make browser``). It serves a fresh
folder on a free port, plays into a deal and scores three deals, and writes
``docs/images/web-{table,result,score}-{phone,desk}.png``.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.web.conftest import CHROMEDRIVER, CHROMIUM, LiveServer  # noqa: E402
from tests.web.test_browser import click, css, new_table, step  # noqa: E402

WIDTHS = {"phone": (390, 844), "desk": (1280, 900)}


def shoot(driver: object, name: str) -> None:
    for label, (width, height) in WIDTHS.items():
        driver.set_window_size(width, height)  # type: ignore[attr-defined]
        full = driver.execute_script("return document.documentElement.scrollHeight")  # type: ignore[attr-defined]
        driver.set_window_size(width, min(int(full) + 120, 3000))  # type: ignore[attr-defined]
        driver.execute_script("window.scrollTo(0, 0)")  # type: ignore[attr-defined]
        out = ROOT / "docs" / "images" / f"web-{name}-{label}.png"
        driver.save_screenshot(str(out))  # type: ignore[attr-defined]
        print(out.relative_to(ROOT))


def main() -> None:
    import os

    os.environ["SE_OFFLINE"] = "true"
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    with tempfile.TemporaryDirectory() as tmp:
        server = LiveServer(Path(tmp) / "home").start()
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for arg in (
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--no-first-run",
            "--disable-background-networking",
            "--hide-scrollbars",
            "--disable-component-update",
            "--disable-sync",
            f"--user-data-dir={tmp}/p",
        ):
            options.add_argument(arg)
        driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
        try:
            driver.set_window_size(1280, 900)
            new_table(driver, server, "quadrille", seed=21)
            # Into the play, a few tricks on, with a trick on the table.
            while len(css(driver, "#hand .card")) > 7 or not css(driver, "#trick .card"):
                if not step(driver):
                    break
            illegal = css(driver, "a.cardbutton.illegal")
            if illegal:
                click(driver, illegal[0])
            shoot(driver, "table")
            while step(driver):
                pass
            shoot(driver, "result")
            driver.set_window_size(1280, 900)
            driver.get(server.url + "/score")
            form = next(
                f
                for f in css(driver, "form.ruleset")
                if f.find_element(By.NAME, "ruleset").get_attribute("value") == "quadrille"
            )
            form.find_element(By.NAME, "title").send_keys("Thursday at the Assembly Rooms")
            click(driver, form.find_element(By.TAG_NAME, "button"))
            deals = [
                ("ask", "1", "clubs", "Kd", "3", [1, 3, 3, 3]),
                ("ask", "2", "hearts", "Ks", "0", [2, 1, 3, 4]),
                ("ask", "3", "spades", "Kh", "1", [6, 1, 1, 2]),
            ]
            for contract, declarer, trump, called, holder, tricks in deals:
                form = driver.find_element(By.ID, "entry")
                Select(form.find_element(By.NAME, "contract")).select_by_value(contract)
                Select(form.find_element(By.NAME, "declarer")).select_by_value(declarer)
                Select(form.find_element(By.NAME, "trump")).select_by_visible_text(trump)
                Select(form.find_element(By.NAME, "called")).select_by_visible_text(called)
                Select(form.find_element(By.NAME, "holder")).select_by_value(holder)
                for k, t in enumerate(tricks):
                    box = form.find_element(By.NAME, f"tricks{k}")
                    box.clear()
                    box.send_keys(str(t))
                click(driver, form.find_element(By.ID, "score-deal"))
            shoot(driver, "score")
        finally:
            driver.quit()
            server.stop()


if __name__ == "__main__":
    main()

"""Fixtures for the web tests: the app on a temporary folder, a live server, a headless Chromium.

The browser is Debian's ``chromium`` driven by Selenium through Debian's ``chromedriver``
(installed by ``make browser``). Where either is missing the browser tests are skipped with a
message saying so; nothing is ever downloaded.
"""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed (pip install '.[web]')")

import uvicorn

from engine.web.app import create_app
from engine.web.server import config as server_config

CHROMIUM = os.environ.get("OMBRE_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("OMBRE_CHROMEDRIVER", "/usr/bin/chromedriver")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class LiveServer:
    """A uvicorn server on 127.0.0.1 in a thread, keeping its records in ``folder``."""

    folder: Path
    port: int = 0
    server: Any = None
    thread: threading.Thread | None = None
    request_seconds: float = 10.0
    send_seconds: float = 30.0
    """How long an unread answer may wait (``engine.web.server.SEND_SECONDS``)."""
    per_client: int = 64
    """The most connections one address may hold (``engine.web.server.PER_CLIENT``)."""
    send_buffer: int = 0
    """The kernel's send buffer of each connection, in bytes (0: the kernel's own, which grows
    to megabytes): small, an unread answer fills it at once."""
    warm_books: bool = False
    """Start writing the rule books at once, as ``ombre serve`` does (the browser tests)."""

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> LiveServer:
        self.port = _free_port()
        # The configuration `ombre serve` runs (its deadline for slow clients included).
        config = server_config(
            create_app(self.folder, warm_books=self.warm_books),
            "127.0.0.1",
            self.port,
            request_seconds=self.request_seconds,
            send_seconds=self.send_seconds,
            per_client=self.per_client,
        )
        self.server = uvicorn.Server(config)
        sockets = None
        if self.send_buffer:  # an accepted connection takes the listening socket's buffer
            listening = socket.socket()
            listening.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, self.send_buffer)
            listening.bind(("127.0.0.1", self.port))
            sockets = [listening]
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": sockets}, daemon=True
        )
        self.thread.start()
        deadline = time.monotonic() + 15
        while not self.server.started:
            if time.monotonic() > deadline:  # pragma: no cover - the machine is stuck
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        assert self.thread is not None
        self.thread.join(10)


@pytest.fixture(scope="module")
def records_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("ombre-home")


@pytest.fixture(scope="module")
def live_server(records_folder: Path) -> Iterator[LiveServer]:
    server = LiveServer(records_folder, warm_books=True).start()
    yield server
    server.stop()


def _no_browser_reason() -> str | None:
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install '.[test]')"
    for path, package in ((CHROMIUM, "chromium"), (CHROMEDRIVER, "chromium-driver")):
        if not (shutil.which(path) or os.access(path, os.X_OK)):
            return (
                f"no headless browser: {path} is missing; `make browser` installs Debian's "
                f"{package} (apt-get, as root)"
            )
    return None


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    reason = _no_browser_reason()
    if reason is not None:
        pytest.skip(reason)
    # Selenium must not try to fetch a driver of its own: there is no network for that.
    os.environ["SE_OFFLINE"] = "true"
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    profile = tmp_path_factory.mktemp("chromium-profile")
    for arg in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--user-data-dir={profile}",
        "--window-size=1280,900",
    ):
        options.add_argument(arg)
    try:
        driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    except Exception as exc:  # pragma: no cover - depends on the machine
        pytest.skip(f"headless Chromium would not start: {exc}")
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()


@pytest.fixture(scope="session")
def small_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The documents in HTML for Quadrille alone (its rule book, the index, the glossary and
    the pages across rule files), written once per test process: what ``/book`` serves, in
    seconds rather than the whole site's minute of simulations."""
    from engine import load_ruleset
    from engine.documents.site import write_docs

    folder = tmp_path_factory.mktemp("small-site")
    write_docs(folder, "html", [load_ruleset("quadrille")])
    return folder


@pytest.fixture
def small_books(small_site: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The web's rule books as once written, being :func:`small_site` (the whole site is
    served by the slow tier's tests)."""
    import engine.web.app as web_app

    monkeypatch.setattr(web_app, "_BOOKS", {"thread": None, "folder": small_site})
    return small_site

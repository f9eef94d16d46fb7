"""The web's rule books (``/book``): written once per process by a child process a background
thread waits for, never
inside a request; until they are ready a page is answered 503 with ``Retry-After``, and a path
that cannot name a page is not found without waiting for them."""

from __future__ import annotations

from pathlib import Path

import pytest
from starlette.testclient import TestClient

import engine.web.app as web_app
from engine.web.app import create_app


@pytest.fixture
def unwritten(monkeypatch: pytest.MonkeyPatch) -> None:
    """The books as they are while the background thread (its child process) is still writing
    them."""
    monkeypatch.setattr(web_app, "_BOOKS", {"thread": None})


def test_a_page_asked_while_the_books_are_written_is_503_with_retry_after(
    tmp_path: Path, unwritten: None
) -> None:
    client = TestClient(create_app(tmp_path))
    r = client.get("/book/books/quadrille.html")
    assert r.status_code == 503
    assert int(r.headers["retry-after"]) > 0
    assert "try again" in r.text


@pytest.mark.parametrize(
    "path",
    ["/book/%00", "/book/books/%00.html", "/book/%C0%AE", "/book/%2E%2E/b.html", "/book/x.py"],
)
def test_a_path_that_names_no_page_is_not_found_before_the_books_are_written(
    tmp_path: Path, unwritten: None, path: str
) -> None:
    assert TestClient(create_app(tmp_path)).get(path).status_code == 404


def test_a_failure_to_write_the_books_is_reported_not_retried_for_ever(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(web_app, "_BOOKS", {"thread": None, "error": RuntimeError("no disk")})
    client = TestClient(create_app(tmp_path), raise_server_exceptions=False)
    assert client.get("/book/index.html").status_code == 500


@pytest.fixture
def fresh_books(monkeypatch: pytest.MonkeyPatch) -> dict[str, object]:
    """The books not yet started, with an event of their own (the process's stays untouched)."""
    import threading

    books: dict[str, object] = {}
    monkeypatch.setattr(web_app, "_BOOKS", books)
    monkeypatch.setattr(web_app, "_BOOKS_DONE", threading.Event())
    return books


def test_the_books_are_written_by_a_child_process(
    fresh_books: dict[str, object], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The writing runs in another process (another core, not under this one's interpreter
    lock, so that the tables are answered as fast meanwhile); the folder it wrote is served."""
    import os

    monkeypatch.setattr(
        web_app,
        "_BOOKS_PROGRAM",
        "import os, sys, pathlib; "
        "pathlib.Path(sys.argv[1], 'index.html').write_text(str(os.getpid()))",
    )
    web_app._write_site_books()
    folder = fresh_books["folder"]
    assert isinstance(folder, Path) and web_app._BOOKS_DONE.is_set()
    child = int((folder / "index.html").read_text())
    assert child != os.getpid()


def test_a_child_that_fails_reports_its_last_words(
    fresh_books: dict[str, object], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(web_app, "_BOOKS_PROGRAM", "raise SystemExit('no space left on device')")
    web_app._write_site_books()
    error = fresh_books["error"]
    assert isinstance(error, RuntimeError) and "folder" not in fresh_books
    assert "exit status 1" in str(error) and "no space left on device" in str(error)

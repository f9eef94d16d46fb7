"""The web's rule books (``/book``): written once per process in a background thread, never
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
    """The books as they are while the background thread is still writing them."""
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

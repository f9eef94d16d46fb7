"""What a kill mid-write or a stranger leaves in the saved-files folder (a dangling symbolic
link breaks no page, a stray temporary file is removed), and what the browser may keep (no
table page or record)."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed (pip install '.[web]')")

from starlette.testclient import TestClient

from engine.web.app import create_app
from engine.web.store import Store


def test_a_dangling_link_among_the_saved_files_breaks_neither_page(tmp_path: Path) -> None:
    client = TestClient(create_app(tmp_path), headers={"origin": "http://testserver"})
    (tmp_path / "tables" / "quadrille-dead01.yaml").symlink_to(tmp_path / "gone.yaml")
    (tmp_path / "evenings" / "quadrille-dead02.yaml").symlink_to(tmp_path / "gone2.yaml")
    for page in ("/", "/score"):
        r = client.get(page)
        assert r.status_code == 200, page
        assert "dead01" not in r.text and "dead02" not in r.text


def test_stray_temporary_files_are_removed_when_the_folder_is_taken(tmp_path: Path) -> None:
    store = Store(tmp_path)
    store.ensure()
    stray = tmp_path / "tables" / ".quadrille-abc123.yaml.k3j2h1.tmp"
    stray.write_text("half a record")
    kept = tmp_path / "evenings" / "quadrille-abc124.yaml"
    kept.write_text("score: []\n")
    handle = store.lock()
    try:
        assert not stray.exists()
        assert kept.read_text() == "score: []\n"
    finally:
        handle.close()


def test_table_pages_and_records_are_never_cached(tmp_path: Path) -> None:
    # In hot-seat, Back must not show the previous seat's hand from the browser's cache.
    client = TestClient(
        create_app(tmp_path), follow_redirects=True, headers={"origin": "http://testserver"}
    )
    r = client.post("/tables", data={"ruleset": "quadrille", "mode": "hotseat", "seed": "8"})
    assert r.status_code == 200 and r.headers["cache-control"] == "no-store"
    path = str(r.url.path)
    for page in (path, path + "?seat=1", path + "/record.yaml"):
        assert client.get(page).headers.get("cache-control") == "no-store", page

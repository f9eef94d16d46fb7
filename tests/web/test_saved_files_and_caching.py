"""What a kill mid-write or a stranger leaves in the saved-files folder (a dangling symbolic
link breaks no page, a stray temporary file is removed), what the browser may keep (no table
page or record), and a full disk at a new evening (503, as documented)."""

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


def test_a_new_evening_on_a_full_disk_is_503_not_400(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import errno
    import os

    import engine.web.store

    client = TestClient(
        create_app(tmp_path), follow_redirects=True, headers={"origin": "http://testserver"}
    )

    def refuse(path: Path, text: str) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))

    monkeypatch.setattr(engine.web.store, "write_durably", refuse)
    r = client.post("/evenings", data={"ruleset": "quadrille", "dealer": "0"})
    assert r.status_code == 503 and os.strerror(errno.ENOSPC) in r.text
    assert not list((tmp_path / "evenings").iterdir())


def test_a_saved_table_or_evening_naming_a_path_is_damaged_not_read(tmp_path: Path) -> None:
    """A saved file names its rules by id: a path written into it (here a valid rule file
    outside the registry, which the loader would read) is refused as damaged, never loaded."""
    import json
    import shutil

    elsewhere = tmp_path / "elsewhere" / "mine.yaml"
    elsewhere.parent.mkdir()
    shutil.copy(Path(__file__).parents[2] / "rules" / "quadrille.yaml", elsewhere)
    folder = tmp_path / "saved"
    client = TestClient(
        create_app(folder), follow_redirects=True, headers={"origin": "http://testserver"}
    )
    r = client.post("/tables", data={"ruleset": "quadrille", "mode": "bots", "seat": "0"})
    assert r.status_code == 200
    table = str(r.url.path)
    r = client.post("/evenings", data={"ruleset": "quadrille", "dealer": "0"})
    assert r.status_code == 200
    evening = str(r.url.path)
    (settings,) = (folder / "tables").glob("*.json")
    data = json.loads(settings.read_text(encoding="utf-8"))
    settings.write_text(json.dumps({**data, "ruleset": str(elsewhere)}), encoding="utf-8")
    (sheet,) = (folder / "evenings").glob("*.yaml")
    sheet.write_text(f"ruleset: {elsewhere}\ndeals: []\n", encoding="utf-8")
    fresh = TestClient(create_app(folder), headers={"origin": "http://testserver"})
    for page in (table, evening):
        r = fresh.get(page)
        assert r.status_code == 409, (page, r.status_code)
        assert "is a path, not the name of a ruleset" in r.text


def test_a_long_tables_record_is_kept_in_parts_each_readable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past :data:`PART_DEALS` deals the record is kept in parts, each a record within the
    reader's limits; the table read back is the same table (every deal and balance)."""
    import engine.web.tables as tables
    from engine import load_ruleset
    from engine.records import read_record
    from engine.web.tables import WebTable

    monkeypatch.setattr(tables, "PART_DEALS", 3)
    store = Store(tmp_path)
    store.ensure()
    table = WebTable("quadrille-long01", load_ruleset("quadrille"), {}, (), seed=5)
    table.start()
    table.save(store, settings=True)
    while len(table.party.deals) < 8:
        table.next_deal(table.turn)
        table.save(store)
    parts = sorted((tmp_path / "tables").glob("quadrille-long01.part-*.yaml"))
    assert [p.name for p in parts] == [
        "quadrille-long01.part-0001.yaml",
        "quadrille-long01.part-0002.yaml",
    ]
    assert [len(read_record(p).deals) for p in parts] == [3, 3]
    assert len(read_record(tmp_path / "tables" / "quadrille-long01.yaml").deals) == 2
    again = WebTable.load(store, "quadrille-long01")
    assert [d.history for d in again.party.deals] == [d.history for d in table.party.deals]
    assert again.party.totals == table.party.totals
    # Stopped after a part was written, before the record was cut short: read once, not twice.
    whole = table.record_text(3)  # the record as it was before the second part was sealed
    (tmp_path / "tables" / "quadrille-long01.yaml").write_text(whole, encoding="utf-8")
    again = WebTable.load(store, "quadrille-long01")
    assert len(again.party.deals) == len(table.party.deals)
    # A table saved whole (no parts yet, as an older version saved it) gets every part at its
    # next save, oldest first, and reads back the same.
    for part in parts:
        part.unlink()
    (tmp_path / "tables" / "quadrille-long01.yaml").write_text(
        table.record_text(), encoding="utf-8"
    )
    table.save(store)
    assert [len(read_record(p).deals) for p in parts] == [3, 3]
    again = WebTable.load(store, "quadrille-long01")
    assert [d.history for d in again.party.deals] == [d.history for d in table.party.deals]
    # The listing shows the table once, not its parts.
    assert [ident for ident, _ in store.listing("table")] == ["quadrille-long01"]


def test_the_kept_deal_texts_write_the_record_the_whole_party_writes(tmp_path: Path) -> None:
    """A save writes only the deal in play anew (the others' texts are kept); what it writes is
    the record written from every deal at once, at every move, parts and public record too."""
    from engine import load_ruleset
    from engine.records import read_record, record_of, write_record
    from engine.web.tables import WebTable

    store = Store(tmp_path)
    store.ensure()
    rules = load_ruleset("quadrille")
    table = WebTable("quadrille-kept01", rules, {}, (0,), seed=9)
    table.start()
    moves = 0
    while len(table.party.deals) < 4:
        deal = table.deal
        if deal.is_over:
            assert table.public_record() == write_record(
                record_of(table.party.deals, rules.id, party=True)
            )
            table.next_deal(table.turn)
            continue
        table.act(0, str(deal.legal_actions()[-1]), table.turn)
        moves += 1
        whole = write_record(record_of(table.party.deals, rules.id, party=True))
        assert table.record_text() == whole, moves
        if len(table.party.deals) >= 3:
            assert table.record_text(1, 3) == write_record(
                record_of(table.party.deals[1:3], rules.id, party=True)
            )
        if moves % 7 == 0:
            table.save(store)
            saved = read_record(tmp_path / "tables" / "quadrille-kept01.yaml")
            assert len(saved.deals) == len(table.party.deals)
    finished = table.party.deals[:-1]
    assert table.public_record() == write_record(record_of(finished, rules.id, party=True))


def test_a_table_plays_no_deal_past_what_one_record_holds(monkeypatch: pytest.MonkeyPatch) -> None:
    """The record a table hands out holds at most :data:`engine.records.MAX_DEALS` deals: the
    table refuses the next deal there, saying so, rather than write a record no one can read."""
    import engine.web.tables as tables
    from engine import load_ruleset
    from engine.errors import NotationError
    from engine.web.tables import WebTable

    monkeypatch.setattr(tables, "MAX_DEALS", 3)
    table = WebTable("quadrille-most01", load_ruleset("quadrille"), {}, (), seed=5)
    table.start()
    while len(table.party.deals) < 3:
        table.next_deal(table.turn)
    assert table.deal.is_over
    with pytest.raises(NotationError, match="this table has played 3 deals, the most one record"):
        table.next_deal(table.turn)
    assert len(table.party.deals) == 3

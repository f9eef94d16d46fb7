"""One lock for every writer of an evening or table file, never following a symbolic link:
the server's folder lock and ``ombre score --evening`` take the same one."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from engine.files import FileInUse, NotARegularFile, hold_lock, lock_for

runner = CliRunner()


def score(*args: str, stdin: str = ""):  # type: ignore[no-untyped-def]
    from engine.cli import app

    return runner.invoke(app, ["score", *args], input=stdin)


def test_a_symbolic_link_at_the_lock_is_refused_and_its_target_untouched(tmp_path: Path) -> None:
    pytest.importorskip("starlette")
    from engine.web.store import FolderInUse, Store

    target = tmp_path / "precious.txt"
    target.write_text("keep me\n")
    folder = tmp_path / "saved"
    folder.mkdir()
    (folder / ".lock").symlink_to(target)
    with pytest.raises(FolderInUse):
        Store(folder).lock()
    assert target.read_text() == "keep me\n"
    dangling = tmp_path / "other"
    dangling.mkdir()
    (dangling / ".lock").symlink_to(tmp_path / "nothing-here")
    with pytest.raises(NotARegularFile):
        hold_lock(dangling / ".lock")
    assert not (tmp_path / "nothing-here").exists()


def test_a_lock_file_is_created_private(tmp_path: Path) -> None:
    fd = hold_lock(tmp_path / ".lock")
    try:
        assert (os.stat(tmp_path / ".lock").st_mode & 0o777) == 0o600
        with pytest.raises(FileInUse):
            hold_lock(tmp_path / ".lock")
    finally:
        os.close(fd)


def test_the_terminal_scorekeeper_waits_for_no_one_and_overwrites_no_one(tmp_path: Path) -> None:
    evening = tmp_path / "tuesday.yaml"
    first = score("quadrille", "--evening", str(evening), stdin="")
    assert first.exit_code == 0, first.output
    kept = evening.read_text() if evening.exists() else None
    held = hold_lock(lock_for(evening))  # another terminal keeps the same evening
    try:
        second = score("quadrille", "--evening", str(evening), stdin="")
        assert second.exit_code != 0
        assert "being kept by another" in second.output
        assert (evening.read_text() if evening.exists() else None) == kept
    finally:
        os.close(held)
    assert score("quadrille", "--evening", str(evening), stdin="").exit_code == 0


def test_the_terminal_scorekeeper_is_refused_a_served_folder(tmp_path: Path) -> None:
    pytest.importorskip("starlette")
    from engine.web.store import Store

    store = Store(tmp_path)
    store.ensure()
    handle = store.lock()  # ombre serve holds the folder
    try:
        served = tmp_path / "evenings" / "quadrille-abc123.yaml"
        result = score("quadrille", "--evening", str(served), stdin="")
        assert result.exit_code != 0 and "being kept by another" in result.output
        assert not served.exists()
    finally:
        handle.close()

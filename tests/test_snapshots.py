"""Snapshot tests of the documents: a deal page (Belinda's game), the replay text, ``ombre
show``, the claims report and a diff, each compared with its file in ``tests/snapshots/``.

The books, the matrix and every other generated page are compared in full with the committed
``docs/generated/`` by tests/test_generated_docs.py. When a change is meant, regenerate both
with ``make docs`` (``python tools/gen_docs.py``) and review the diff.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.snapshots import SNAPSHOTS

FOLDER = Path(__file__).resolve().parent / "snapshots"
ROOT = FOLDER.parent.parent


@pytest.mark.parametrize("name", sorted(SNAPSHOTS))
def test_snapshot(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    expected = (FOLDER / name).read_text(encoding="utf-8")
    actual = SNAPSHOTS[name]()
    assert actual == expected, (
        f"tests/snapshots/{name} differs from what the templates render now; if the change is "
        "meant, regenerate with `make docs` (python tools/gen_docs.py) and review the diff"
    )


def test_snapshots_cover_the_kinds_of_document() -> None:
    assert {"belinda.md", "belinda.html", "belinda-replay.txt", "claims.txt"} <= set(SNAPSHOTS)
    assert all((FOLDER / name).is_file() for name in SNAPSHOTS), os.listdir(FOLDER)

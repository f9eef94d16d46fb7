"""The Markdown committed in ``docs/generated/`` is what ``ombre docs`` writes now.

A stale page fails this test with the command that regenerates it: ``make docs`` (which runs
``python tools/gen_docs.py``, the same as ``ombre docs --out docs/generated``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.documents.site import write_docs

ROOT = Path(__file__).resolve().parent.parent
COMMITTED = ROOT / "docs" / "generated"
REGENERATE = "make docs (python tools/gen_docs.py)"


def _files(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()
    }


def test_generated_docs_are_current(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    write_docs(tmp_path, "md")
    fresh, committed = _files(tmp_path), _files(COMMITTED)
    missing = sorted(set(fresh) - set(committed))
    extra = sorted(set(committed) - set(fresh))
    stale = sorted(name for name in set(fresh) & set(committed) if fresh[name] != committed[name])
    assert not (missing or extra or stale), (
        f"docs/generated is stale: run `{REGENERATE}` and commit the result. "
        f"missing: {missing}; not generated any more: {extra}; changed: {stale}"
    )

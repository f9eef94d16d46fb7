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


# slow: the whole documents site, 26 variants measured against their parents (about 40 CPU s
# cold); `make docs` writes the same pages, and `make check` (CI) runs this test.
@pytest.mark.slow
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


def test_the_authoring_guide_says_to_run_make_docs_before_committing() -> None:
    guide = (ROOT / "docs" / "authoring.md").read_text(encoding="utf-8")
    before = guide.split("## 8. Before you commit")[1]
    assert "make docs" in before.split("\n- ")[1]  # the first step
    assert "docs/generated is stale" in before


def test_write_docs_reports_its_progress_and_keeps_unchanged_pages(tmp_path: Path) -> None:
    from engine import load_ruleset

    chosen = [load_ruleset("quadrille"), load_ruleset("quadrille-renonce")]
    seen: list[tuple[int, int]] = []
    write_docs(tmp_path, "md", chosen, progress=lambda done, total: seen.append((done, total)))
    # One step per variant measured, one per rule book, one for the rest; the last is all.
    assert seen[-1] == (4, 4) and [d for d, _ in seen] == [1, 2, 3, 4]
    book = tmp_path / "books" / "quadrille.md"
    stamp = book.stat().st_mtime_ns
    import os

    os.utime(book, ns=(stamp - 10**9, stamp - 10**9))
    write_docs(tmp_path, "md", chosen)
    assert book.stat().st_mtime_ns == stamp - 10**9  # the same text: not written again

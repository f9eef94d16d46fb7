"""Regenerates the committed documents and the documents' test snapshots.

    python tools/gen_docs.py        (or: make docs)

Only what changed is recomputed: each variant's measured effect comes from the cache unless
the variant, its parent or the engine changed, and a page whose text is the same is not
written again; files no longer generated are removed. A progress bar shows on a terminal.

* ``docs/generated/``: every document for every ruleset and variant, in Markdown
  (``ombre docs --out docs/generated``), checked for staleness by tests/test_generated_docs.py;
* ``docs/openspiel.md``'s card index table, from engine/cards.py;
* ``tests/snapshots/``: the outputs the snapshot tests compare (tests/test_snapshots.py).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.documents.card_index import with_card_index  # noqa: E402
from engine.documents.site import write_docs  # noqa: E402
from engine.simulate import progress_bar  # noqa: E402
from tests.snapshots import SNAPSHOTS  # noqa: E402


def main() -> int:
    os.chdir(ROOT)
    out = ROOT / "docs" / "generated"
    with progress_bar(1, "docs/generated", enabled=sys.stderr.isatty(), verb="writing") as bar:
        written = write_docs(out, "md", progress=bar)
    kept = {out / name for name in written.files}
    stale = [p for p in out.rglob("*") if p.is_file() and p not in kept]
    for path in stale:
        path.unlink()
    for folder in sorted((p for p in out.rglob("*") if p.is_dir()), reverse=True):
        if not any(folder.iterdir()):
            folder.rmdir()
    print(f"docs/generated: {len(written.files)} files ({len(stale)} no longer made, removed)")
    spiel_doc = ROOT / "docs" / "openspiel.md"
    text = spiel_doc.read_text(encoding="utf-8")
    if with_card_index(text) != text:
        spiel_doc.write_text(with_card_index(text), encoding="utf-8", newline="\n")
        print("docs/openspiel.md: the card index table")
    folder = ROOT / "tests" / "snapshots"
    for name, make in SNAPSHOTS.items():
        (folder / name).write_text(make(), encoding="utf-8", newline="\n")
        print(f"tests/snapshots/{name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

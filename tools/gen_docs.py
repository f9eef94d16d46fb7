"""Regenerates the committed documents and the documents' test snapshots.

    python tools/gen_docs.py        (or: make docs)

* ``docs/generated/``: every document for every ruleset and variant, in Markdown
  (``ombre docs --out docs/generated``), checked for staleness by tests/test_generated_docs.py;
* ``tests/snapshots/``: the outputs the snapshot tests compare (tests/test_snapshots.py).
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.documents.site import write_docs  # noqa: E402
from tests.snapshots import SNAPSHOTS  # noqa: E402


def main() -> int:
    os.chdir(ROOT)
    out = ROOT / "docs" / "generated"
    if out.exists():
        shutil.rmtree(out)
    written = write_docs(out, "md")
    print(f"docs/generated: {len(written.files)} files")
    folder = ROOT / "tests" / "snapshots"
    for name, make in SNAPSHOTS.items():
        (folder / name).write_text(make(), encoding="utf-8", newline="\n")
        print(f"tests/snapshots/{name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

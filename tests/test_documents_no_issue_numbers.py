"""No document names the project's work items: a reader needs the feature, the file or the
rule, not the history of its making."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = ("docs", "templates", "rules", "variants", "claims", "sources")
ISSUE = re.compile(r"\bissues?\s+\d+", re.I)


def test_no_document_names_an_issue_number() -> None:
    found = []
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix not in (".md", ".yaml", ".j2", ".txt", ".html") or not path.is_file():
                continue
            for n, line in enumerate(path.read_text("utf-8").splitlines(), 1):
                if ISSUE.search(line):
                    found.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()[:80]}")
    assert found == []

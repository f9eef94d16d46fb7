"""Every source id that a rule file, a variant or a claim cites has an entry in sources/."""

from __future__ import annotations

import re
from pathlib import Path

from engine.documents.sources import load_library

ROOT = Path(__file__).resolve().parents[1]
LIBRARY = load_library()


def _cited(folder: str) -> set[str]:
    found: set[str] = set()
    for path in (ROOT / folder).glob("*.yaml"):
        found |= set(re.findall(r"^\s*-?\s*source:\s*([\w-]+)", path.read_text("utf-8"), re.M))
    return found


def test_every_cited_source_resolves() -> None:
    cited = _cited("rules") | _cited("variants") | _cited("claims")
    assert cited and cited - set(LIBRARY.sources) == set()


def test_the_unquoted_sources_say_why_no_passage_is_stored() -> None:
    for sid in ("cz", "dk", "emil", "pokw"):
        source = LIBRARY.sources[sid]
        assert source.kind == "modern" and not source.passages
        assert "No passage is stored" in source.provenance

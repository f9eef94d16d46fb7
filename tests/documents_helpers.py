"""What several document tests read: the stored sources and every source's concordance, each
built once per test process and only when a test first asks (not while the tests are
collected)."""

from __future__ import annotations

from functools import lru_cache

from engine.documents.concordance import SOURCES, Concordance, build_concordances
from engine.documents.sources import Library, load_library


@lru_cache(maxsize=1)
def library() -> Library:
    """The stored sources (``sources/``)."""
    return load_library()


@lru_cache(maxsize=1)
def concordances() -> dict[str, Concordance]:
    """Every stored source read against the rule files, the claims and the concordance data."""
    return dict(zip(SOURCES, build_concordances(SOURCES, library=library()), strict=True))

"""The concordance (engine/documents/concordance.py, ``ombre sources``): every sentence of the
stored sources has a status, the data behind it is valid and current, and the command shows it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from engine.cli import EXIT_USAGE, app
from engine.documents.concordance import (
    PERIOD,
    SOURCES,
    Concordance,
    load_entries,
    sentences_of,
)
from engine.documents.sources import load_library
from engine.errors import RuleFileError
from tests.documents_helpers import concordances

LIBRARY = load_library()
runner = CliRunner()


@pytest.mark.parametrize("sid", SOURCES)
def test_every_sentence_has_a_status(sid: str) -> None:
    """A rule-bearing sentence no rule file quotes, no claim checks and the data does not
    classify fails here: give it an entry in sources/concordance.yaml."""
    missing = [
        f"{s.number}: {s.text[:80]}" for s in concordances()[sid].sentences if s.status == "missing"
    ]
    assert missing == [], f"{sid}: sentences with no status:\n" + "\n".join(missing)


def test_every_stored_source_is_read() -> None:
    """The test above covers every source stored in sources/, the period sources first: a
    passage added to any source (or a new source) gets a status or fails there."""
    assert set(SOURCES) == set(LIBRARY.sources)
    assert SOURCES[:7] == PERIOD
    for sid in ("jxci", "lal", "beeton", "zh", "dlu"):
        assert concordances()[sid].sentences, sid


def test_the_encyclopedie_is_read_whole() -> None:
    """The article is split into its sentences (about seventy); every other source is read
    passage by passage."""
    enc = concordances()["enc-q"]
    assert enc.source.whole and len(enc.sentences) >= 60
    assert sum(len(p.text) for p in enc.source.passages) <= sum(
        len(s.text) for s in enc.sentences
    ) + 2 * len(enc.sentences)
    assert len(concordances()["cg-en"].sentences) == len(LIBRARY.sources["cg-en"].passages)


def test_no_entry_is_stale() -> None:
    """An entry that says a sentence is not modelled (or bears no rule) while a rule file now
    quotes it in support is stale: the rule file has overtaken it."""
    stale = [
        f"{s.entry.where}: {s.entry.match!r}"
        for c in concordances().values()
        for s in c.sentences
        if s.entry is not None
        and s.entry.status in ("not-modelled", "no-rule")
        and any(not link.against for link in s.links)
    ]
    assert stale == []


def test_a_linked_sentence_names_its_rule_entries() -> None:
    """The vole sentence of the Encyclopédie is linked to the Quadrille vole rule, at its line."""
    vole = next(s for s in concordances()["enc-q"].sentences if "roi appellé n’ait paru" in s.text)
    assert vole.status == "encoded"
    assert any(
        link.ruleset == "quadrille"
        and link.path == "vole"
        and link.where.startswith("rules/quadrille.yaml:")
        for link in vole.links
    )
    # The revoke is quoted against the canonical rule and for the variant that penalises it.
    renonce = next(s for s in concordances()["enc-q"].sentences if s.text.startswith("Qui renonce"))
    assert {(link.ruleset, link.against) for link in renonce.links} >= {
        ("quadrille", True),
        ("quadrille-renonce", False),
    }
    silence = next(s for s in concordances()["enc-q"].sentences if "silence exact" in s.text)
    assert silence.status == "not modelled" and silence.entry is not None


def _data(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "concordance.yaml"
    path.write_text("sentences:\n" + body, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("body", "code"),
    [
        (
            "  - {source: enc-q, match: 'no such words here', status: no-rule, why: x}\n",
            "concordance/match",
        ),
        ("  - {source: enc-q, match: 'Le jeu', status: no-rule, why: x}\n", "concordance/match"),
        (
            "  - {source: enc-q, match: 'Le jeu de quadrille.', status: maybe, why: x}\n",
            "concordance/status",
        ),
        ("  - {source: nosuch, match: 'x', status: no-rule, why: x}\n", "concordance/source"),
        (
            "  - {source: enc-q, match: 'Le jeu de quadrille.', status: encoded, why: x}\n",
            "concordance/by",
        ),
        (
            "  - {source: enc-q, match: 'Le jeu de quadrille.', status: encoded, why: x, by: ['quadrille:nowhere']}\n",
            "concordance/by",
        ),
        (
            "  - {source: enc-q, match: 'Le jeu de quadrille.', status: no-rule, why: x, what: y}\n",
            "data/unknown-key",
        ),
    ],
)
def test_bad_data_is_refused_with_its_line(tmp_path: Path, body: str, code: str) -> None:
    with pytest.raises(RuleFileError) as refused:
        load_entries(_data(tmp_path, body), LIBRARY)
    problems = refused.value.problems
    assert [p.code for p in problems] == [code]
    assert problems[0].line == 2


def test_the_shipped_data_loads() -> None:
    entries = load_entries(library=LIBRARY)
    assert len(entries) >= 20  # the sentences the laws of the play quote left the data
    assert all(e.why for e in entries)


def test_sentences_of_a_passage_source_are_its_passages() -> None:
    qui = LIBRARY.sources["enc-qui"]
    assert [t for _, _, t in sentences_of(qui)] == [p.text for p in qui.passages]


def test_ombre_sources_lists_and_reads() -> None:
    listed = runner.invoke(app, ["sources"])
    assert listed.exit_code == 0, listed.output
    assert "enc-q" in listed.output and "hoyle-ie" in listed.output
    read = runner.invoke(app, ["sources", "enc-q"])
    assert read.exit_code == 0, read.output
    assert "[not modelled] Ce jeu perd beaucoup de son agrément" in read.output
    assert "encoded: quadrille vole" in read.output
    data = json.loads(runner.invoke(app, ["sources", "enc-q", "--json"]).output)
    assert data["source"] == "enc-q" and data["counts"]["missing"] == 0
    assert {"number", "text", "status", "links", "claims", "why"} <= set(data["sentences"][0])
    bad = runner.invoke(app, ["sources", "nosuch"])
    assert bad.exit_code == EXIT_USAGE
    assert "no stored source 'nosuch'" in bad.output


def test_concordance_counts_cover_every_sentence() -> None:
    for c in concordances().values():
        assert isinstance(c, Concordance)
        assert sum(c.counts.values()) == len(c.sentences)

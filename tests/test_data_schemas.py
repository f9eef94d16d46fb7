"""The project's own data files (sources/) are checked as rule files are: a JSON Schema and
problems located at FILE:LINE:COLUMN (engine.rules.schema_pass)."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.documents.sources import load_library
from engine.errors import RuleFileError
from engine.rules.reader import parse_text
from engine.rules.schema_pass import document_problems

ROOT = Path(__file__).resolve().parent.parent

_GOOD = """\
id: my-source
title: A book
kind: modern
address: https://example.org
provenance: read by us
passages:
- locator: p. 3
  text: the first sentence
"""


def _problems(text: str) -> list[tuple[int | None, int | None, str, str]]:
    doc, problems = parse_text("s.yaml", text)
    assert doc is not None and not problems
    return [(p.line, p.column, p.code, p.message) for p in document_problems("source", doc)]


def test_every_source_of_the_checkout_is_valid() -> None:
    for path in sorted((ROOT / "sources").glob("*.yaml")):
        if path.name in ("glossary.yaml", "concordance.yaml"):
            continue  # data files of their own, not sources
        doc, _ = parse_text(path.name, path.read_text(encoding="utf-8"))
        assert doc is not None and document_problems("source", doc) == [], path


def test_a_good_source_has_no_problem() -> None:
    assert _problems(_GOOD) == []


@pytest.mark.parametrize(
    ("edit", "expected"),
    [
        (("kind: modern", "kind: modren"), (3, 1, "source/kind")),
        (("title: A book", "titel: A book"), (2, 1, "schema/unknown-key")),
        (("  text: the first sentence", "  text: 5"), (8, 3, "source/type")),
        (("- locator: p. 3", "- locater: p. 3"), (7, 3, "schema/unknown-key")),
        (("id: my-source", "id: My Source"), (1, 1, "source/id")),
    ],
)
def test_a_bad_field_is_located(edit: tuple[str, str], expected: tuple[int, int, str]) -> None:
    found = _problems(_GOOD.replace(*edit))
    assert expected in [(line, col, code) for line, col, code, _ in found]


def test_the_unknown_key_message_suggests_the_known_one() -> None:
    (problem,) = [p for p in _problems(_GOOD.replace("title:", "titel:")) if "unknown" in p[3]]
    assert "did you mean 'title'?" in problem[3]


def test_a_missing_field_and_a_non_mapping() -> None:
    missing = _problems(_GOOD.replace("provenance: read by us\n", ""))
    assert [(c, m) for _, _, c, m in missing] == [
        ("schema/required", "'provenance' is required here")
    ]
    assert [c for _, _, c, _ in _problems("- a list\n")] == ["source/shape"]


def test_load_library_refuses_a_bad_source_with_its_location(tmp_path: Path) -> None:
    (tmp_path / "bad.yaml").write_text(_GOOD.replace("kind: modern", "kind: 7"), encoding="utf-8")
    with pytest.raises(RuleFileError) as raised:
        load_library(tmp_path)
    (problem,) = raised.value.problems
    assert (problem.line, problem.column, problem.code) == (3, 1, "source/kind")
    assert problem.file.endswith("bad.yaml")


def test_load_library_refuses_a_missing_whole_text(tmp_path: Path) -> None:
    (tmp_path / "whole.yaml").write_text(_GOOD + "text: texts/nowhere.txt\n", encoding="utf-8")
    with pytest.raises(RuleFileError) as raised:
        load_library(tmp_path)
    assert [(p.line, p.code) for p in raised.value.problems] == [(9, "source/text")]


_CLAIM = (
    "claims:\n  - id: x\n    ruleset: quadrille\n    source: enc-q\n    locator: L\n"
    "    quote: q\n    statement: {kind: trump-count, colour: red, count: 12}\n"
)


def _claim_problems(text: str, tmp_path: Path) -> list[tuple[int | None, str, str]]:
    from engine.documents.claims import load_claims

    (tmp_path / "c.yaml").write_text(text, encoding="utf-8")
    try:
        load_claims(tmp_path)
    except RuleFileError as exc:
        return [(p.line, p.code, p.message) for p in exc.problems]
    return []


@pytest.mark.parametrize(
    ("edit", "expected"),
    [
        (("kind: trump-count", "kind: trump-total"), (7, "claim/kind")),
        (("colour: red", "colour: blue"), (7, "claim/colour")),
        (("colour: red, ", ""), (7, "claim/missing")),
        (("count: 12", "count: 12, side: left"), (7, "data/unknown-key")),
        (("    quote: q\n", ""), (2, "data/missing")),
        (("locator: L", "locator: [L]"), (5, "data/type")),
        (
            ("statement: {kind: trump-count, colour: red, count: 12}", "statement: 3"),
            (7, "claim/statement"),
        ),
        (("ruleset:", "rulset:"), (3, "data/unknown-key")),
    ],
)
def test_a_bad_claim_is_located_with_its_code(
    edit: tuple[str, str], expected: tuple[int, str], tmp_path: Path
) -> None:
    assert _claim_problems(_CLAIM, tmp_path) == []
    found = _claim_problems(_CLAIM.replace(*edit), tmp_path)
    assert expected in [(line, code) for line, code, _ in found], found


def test_the_claim_messages_are_kept(tmp_path: Path) -> None:
    def words(edit: tuple[str, str]) -> list[str]:
        return [m for _, _, m in _claim_problems(_CLAIM.replace(*edit), tmp_path)]

    assert words(("    quote: q\n", "")) == ["'quote' is required"]
    assert words(("colour: red, ", "")) == ["a trump-count statement needs 'colour'"]
    assert words(("locator: L", "locator: [L]")) == ["'locator' must be text"]
    assert words(("kind: trump-count", "kind: trump-total"))[0].startswith(
        "unknown kind 'trump-total' (one of trump-count, deck-size, "
    )
    assert words(("count: 12", "count: 12, side: left")) == [
        "unknown key 'side' (expected one of colour, count)"
    ]


def test_a_claim_listed_twice(tmp_path: Path) -> None:
    twice = _CLAIM + _CLAIM.split("\n", 1)[1]
    assert [(line, code) for line, code, _ in _claim_problems(twice, tmp_path)] == [
        (8, "claim/duplicate")
    ]


_DISAGREEMENT = (
    "disagreements:\n  - id: d\n    topic: T\n    reference: R\n    readings:\n"
    "      - source: enc-q\n        locator: L\n        reading: r\n"
    "        home: {kind: canonical, ref: quadrille}\n"
)


@pytest.mark.parametrize(
    ("edit", "expected"),
    [
        (("kind: canonical", "kind: law"), (9, "data/home-kind")),
        (("    topic: T\n", ""), (2, "data/missing", "'topic' is required")),
        (("reading: r", "reading: r\n        page: 3"), (9, "data/unknown-key")),
        (("home: {kind: canonical, ref: quadrille}", "home: canonical"), (9, "data/type")),
    ],
)
def test_a_bad_disagreement_is_located(
    edit: tuple[str, str], expected: tuple[object, ...], tmp_path: Path
) -> None:
    from engine.documents.disagreements import load_disagreements

    path = tmp_path / "disagreements.yaml"
    path.write_text(_DISAGREEMENT, encoding="utf-8")
    assert load_disagreements(path)
    path.write_text(_DISAGREEMENT.replace(*edit), encoding="utf-8")
    with pytest.raises(RuleFileError) as raised:
        load_disagreements(path)
    found = [(p.line, p.code, p.message)[: len(expected)] for p in raised.value.problems]
    assert expected in found, found


def test_a_disagreement_listed_twice_is_located_at_its_second_id(tmp_path: Path) -> None:
    from engine.documents.disagreements import load_disagreements

    path = tmp_path / "disagreements.yaml"
    path.write_text(_DISAGREEMENT + _DISAGREEMENT.split("\n", 1)[1], encoding="utf-8")
    with pytest.raises(RuleFileError) as raised:
        load_disagreements(path)
    assert [(p.line, p.column, p.code, p.message) for p in raised.value.problems] == [
        (10, 5, "data/duplicate", "'d' is listed twice")
    ]


def test_a_claim_listed_in_two_files_is_located_in_the_second(tmp_path: Path) -> None:
    from engine.documents.claims import load_claims

    (tmp_path / "a.yaml").write_text(_CLAIM, encoding="utf-8")
    (tmp_path / "b.yaml").write_text(_CLAIM, encoding="utf-8")
    with pytest.raises(RuleFileError) as raised:
        load_claims(tmp_path)
    [problem] = raised.value.problems
    assert (Path(problem.file).name, problem.line, problem.code) == ("b.yaml", 2, "claim/duplicate")


@pytest.mark.parametrize(
    ("entry", "expected"),
    [
        ("{term: t, language: fr, gloss: g, model: {kind: law, ref: x}}", "glossary/kind"),
        ("{term: t, language: fr, gloss: g, model: {kind: contract}}", "glossary/ref"),
        ("{term: t, language: fr, gloss: g, model: {kind: verb, ref: fly}}", "glossary/verb"),
        (
            "{term: t, language: fr, gloss: g, model: {kind: contract, ref: nope}}",
            "glossary/missing",
        ),
        ("{term: t, gloss: g}", "data/missing"),
        ("{term: t, language: fr, gloss: g, colour: red}", "data/unknown-key"),
    ],
)
def test_a_bad_glossary_term_is_located(entry: str, expected: str, tmp_path: Path) -> None:
    from engine import load_ruleset
    from engine.documents.glossary import load_glossary

    path = tmp_path / "glossary.yaml"
    path.write_text(f"terms:\n  - {{term: t, language: fr, gloss: g}}\n  - {entry}\n", "utf-8")
    with pytest.raises(RuleFileError) as raised:
        load_glossary([load_ruleset("quadrille")], path)
    assert [(p.line, p.code) for p in raised.value.problems] == [(3, expected)]

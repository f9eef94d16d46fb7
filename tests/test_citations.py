"""Every quote in a rule file is found verbatim in our copies of the sources.

The corpus is the project's rule reference, the Encyclopédie article QUADRILLE and the Chinese
summary of Quadrille (the seeds), in ``../shared`` beside the checkout (CI has a read-only copy there). A quote is matched after
normalising apostrophes (’ ‘ ʼ to '), whitespace and case; "…" or "..." stands for omitted text,
so each piece between ellipses must be found. Pieces are matched anywhere in the corpus: this
test does not check that a quote is attributed to the right source, only that nobody invented
it. That every cited source is in the file's sources table is checked by the loader
(``unknown-source``) and is not repeated here.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
CORPUS_FILES = (
    SHARED / "rules-reference.md",
    SHARED / "seeds" / "002_69bdd0d0feef7afc.txt",
    SHARED / "seeds" / "000_22da23224b53a882.txt",  # the Chinese summary (ZH)
)
RULE_FILES = sorted([*ROOT.glob("rules/*.yaml"), *ROOT.glob("variants/*.yaml")])

_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'"})
_SPACE = re.compile(r"\s+")
_ELLIPSIS = re.compile(r"…|\.\.\.")


def _normalise(text: str) -> str:
    text = unicodedata.normalize("NFC", text).translate(_APOSTROPHES)
    return _SPACE.sub(" ", text).strip().casefold()


@functools.cache
def _corpus() -> str:
    if not SHARED.is_dir():
        pytest.skip(f"the source corpus {SHARED} is missing; the quotes cannot be checked")
    missing = [str(path) for path in CORPUS_FILES if not path.is_file()]
    assert not missing, f"the source corpus is incomplete: {', '.join(missing)} not found"
    return "\n".join(_normalise(path.read_text(encoding="utf-8")) for path in CORPUS_FILES)


def _missing_pieces(quote: str) -> list[str]:
    """The pieces of a quote (split on ellipses) not found in the corpus."""
    pieces = [piece.strip() for piece in _ELLIPSIS.split(quote)]
    pieces = [piece for piece in pieces if piece]
    if not pieces:
        return [quote]
    corpus = _corpus()
    return [piece for piece in pieces if _normalise(piece) not in corpus]


def _cites(node: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[str, Mapping[str, Any]]]:
    """Every citation in a file's own YAML, with its path, e.g. ``deal.basis.cite[1]``."""
    if isinstance(node, Mapping):
        cite = node.get("cite")
        if isinstance(cite, Mapping):  # a variant's {$append: [...]}
            cite = cite.get("$append")
        if isinstance(cite, list):
            for i, entry in enumerate(cite):
                if isinstance(entry, Mapping):
                    yield f"{'.'.join(path)}.cite[{i}]", entry
        for key, value in node.items():
            yield from _cites(value, (*path, str(key)))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _cites(value, (*path, str(i)))


def _quotes(path: Path) -> list[tuple[str, str, str]]:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    return [
        (where, str(cite.get("source")), cite["quote"])
        for where, cite in _cites(data)
        if cite.get("quote") is not None
    ]


def test_rule_files_have_quotes() -> None:
    assert RULE_FILES
    assert sum(len(_quotes(path)) for path in RULE_FILES) > 50


@pytest.mark.parametrize("path", RULE_FILES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_quotes_are_verbatim(path: Path) -> None:
    problems = []
    for where, source, quote in _quotes(path):
        if not isinstance(quote, str):
            problems.append(f"{where} ({source}): the quote is not a string: {quote!r}")
            continue
        for piece in _missing_pieces(quote):
            problems.append(f"{where} ({source}): not in the corpus: {piece!r}")
    assert not problems, "quotes not found verbatim in ../shared:\n" + "\n".join(problems)


@pytest.mark.parametrize(
    "quote",
    [
        "Celui qui a une fois passé, ne peut plus être reçu à jouer",
        "CELUI QUI A UNE FOIS PASSÉ,\n   NE PEUT PLUS être reçu à jouer",
        "l’as de trefle la troisieme",
        "La vole se paye une fiche, qui vaut dix jettons … & elle est payée double",
        "throw out all the Eights, Nines, and tens ... there will remain 40",
    ],
)
def test_matcher_accepts_the_allowed_differences(quote: str) -> None:
    assert _missing_pieces(quote) == []


@pytest.mark.parametrize(
    "quote",
    [
        "il se joue en tout comme le véritable jeu de l'hombre",
        "la premiere bête étant de quinze",
        "Celui qui a une fois passé … ne peut jamais jouer",
        "…",
    ],
)
def test_matcher_rejects_what_is_not_in_the_sources(quote: str) -> None:
    assert _missing_pieces(quote) != []

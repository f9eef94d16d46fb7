"""docs/decisions.md agrees with the rule files: each decision it lists that names where it is
encoded (``Where: `rules/FILE.yaml: dotted.path` ``) exists there, and carries there one of the
labels the page gives it. A row's label cell may name several (``attested / inferred``); the
rule's nearest basis must carry one of them, as its evidence or, for a reading inside an
attested rule, named in its note.

And the reverse: every basis in rules/ and variants/ labelled ``inferred`` or ``conjecture``
is named by some row's ``Where:`` (a place named covers itself and the nodes under it), so
that the page lists every choice the rule files make without a source."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
DECISIONS = ROOT / "docs" / "decisions.md"
REF = re.compile(r"`((?:rules|variants)/[\w.-]+\.yaml): ([\w.\-]+)`")
LABELS = ("attested", "inferred", "conjecture", "disputed", "modern")


def _cells(line: str) -> list[str]:
    # A cell may hold an escaped bar ("Tout \| 1 \|"), which does not end it.
    return [c.strip() for c in re.split(r"(?<!\\)\|", line.strip().strip("|"))]


def _rows() -> list[tuple[int, str, list[str], list[tuple[str, str]]]]:
    """Returns each table row with references: (line number, label cell, its labels, refs)."""
    out = []
    label_col: int | None = None
    for number, line in enumerate(DECISIONS.read_text(encoding="utf-8").splitlines(), 1):
        if not line.startswith("|"):
            label_col = None
            continue
        cells = _cells(line)
        if label_col is None:
            label_col = cells.index("label") if "label" in cells else -1
            continue
        if set(line) <= set("|- "):
            continue
        refs = REF.findall(line)
        if not refs:
            continue
        assert label_col >= 0, f"decisions.md:{number}: a reference in a table without a label"
        cell = cells[label_col]
        labels = [w for w in LABELS if w in cell]
        out.append((number, cell, labels, refs))
    return out


_DOCS: dict[str, Any] = {}


def _evidence(file: str, dotted: str) -> str:
    """Returns the evidence label of the basis nearest to ``dotted`` in ``file``."""
    return _basis(file, dotted)[0]


def _basis(file: str, dotted: str) -> tuple[str, str]:
    """Returns the evidence label and the note of the basis nearest to ``dotted``."""
    doc = _DOCS.setdefault(file, yaml.safe_load((ROOT / file).read_text(encoding="utf-8")))
    chain = [doc]
    node = doc
    for key in dotted.split("."):
        if isinstance(node, list) and key.isdigit() and int(key) < len(node):
            node = node[int(key)]
        elif isinstance(node, dict) and key in node:
            node = node[key]
        else:
            raise AssertionError(f"{file} has no {dotted} (no {key!r})")
        chain.append(node)
    for node in reversed(chain):
        if isinstance(node, dict):
            if isinstance(node.get("evidence"), str):
                return str(node["evidence"]), str(node.get("note", ""))
            basis = node.get("basis")
            if isinstance(basis, dict) and isinstance(basis.get("evidence"), str):
                return str(basis["evidence"]), str(basis.get("note", ""))
    raise AssertionError(f"{file}: no basis at or above {dotted}")


ROWS = _rows()


def test_decisions_name_where_they_are_encoded() -> None:
    # The page's references are many; a page that lost them would pass the next test vacuously.
    assert len(ROWS) >= 20


@pytest.mark.parametrize(("number", "cell", "labels", "refs"), ROWS, ids=[str(r[0]) for r in ROWS])
def test_each_decision_is_in_its_rule_file_as_labelled(
    number: int, cell: str, labels: list[str], refs: list[tuple[str, str]]
) -> None:
    assert labels, f"decisions.md:{number}: label {cell!r} names none of {LABELS}"
    for file, dotted in refs:
        found, note = _basis(file, dotted)
        # A basis carries one label; a reading inside an attested rule is labelled in its note
        # ("our reading (inferred)"), which the page's label must then name.
        in_note = [w for w in labels if re.search(rf"\b{w}\b", note)]
        assert found in labels or in_note, (
            f"decisions.md:{number}: {file}: {dotted} is {found} (its note labels none of "
            f"{labels}), the page says {cell!r}"
        )


def test_a_mislabelled_reference_is_caught() -> None:
    # rules/quadrille.yaml's matadors item is a conjecture: calling it attested must fail.
    assert _evidence("rules/quadrille.yaml", "settlement.items.matadors") == "conjecture"
    with pytest.raises(AssertionError):
        _evidence("rules/quadrille.yaml", "settlement.items.no-such-item")


UNSOURCED = ("inferred", "conjecture")


def _bases(node: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[str, str]]:
    """Yields (dotted path, evidence) of every basis in a rule file's tree, as ``_basis`` finds
    them: a node carrying ``evidence`` itself, or a ``basis`` with one."""
    if isinstance(node, dict):
        if isinstance(node.get("evidence"), str):
            yield ".".join(path), str(node["evidence"])
        basis = node.get("basis")
        if isinstance(basis, dict) and isinstance(basis.get("evidence"), str):
            yield ".".join(path), str(basis["evidence"])
        for key, value in node.items():
            if key != "basis":
                yield from _bases(value, (*path, str(key)))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _bases(value, (*path, str(i)))


def _unlisted(named: set[tuple[str, str]]) -> list[str]:
    """Returns each inferred or conjectured basis that no place in ``named`` covers."""
    out = []
    for path in sorted([*ROOT.glob("rules/*.yaml"), *ROOT.glob("variants/*.yaml")]):
        file = path.relative_to(ROOT).as_posix()
        doc = _DOCS.setdefault(file, yaml.safe_load(path.read_text(encoding="utf-8")))
        places = [d for f, d in named if f == file]
        for dotted, evidence in _bases(doc):
            if evidence not in UNSOURCED:
                continue
            if not any(dotted == d or dotted.startswith(d + ".") for d in places):
                out.append(f"{file}: {dotted} ({evidence})")
    return out


NAMED = {(file, dotted) for _, _, _, refs in ROWS for file, dotted in refs}


def test_every_unsourced_basis_is_listed() -> None:
    missing = _unlisted(NAMED)
    assert missing == [], (
        "inferred or conjectured rules that no row of docs/decisions.md names in its Where: "
        f"(add a row, its why from the rule's note): {missing}"
    )


def test_an_unlisted_basis_is_caught() -> None:
    # Without the reference to the Quadrille matadors' amount, that conjecture is unlisted; a
    # place covers the nodes under it, so naming the items covers it again.
    place = ("rules/quadrille.yaml", "settlement.items.matadors")
    assert place in NAMED
    assert _unlisted(NAMED - {place}) == [
        "rules/quadrille.yaml: settlement.items.matadors (conjecture)"
    ]
    assert _unlisted((NAMED - {place}) | {("rules/quadrille.yaml", "settlement.items")}) == []


def test_no_document_cites_the_shared_rules_reference() -> None:
    """The documents cite the sources themselves, never the research's own rules reference
    (its worked examples included): docs/decisions.md and docs/referee.md once did."""
    texts = [*(ROOT / "docs").rglob("*.md"), ROOT / "README.md"]
    found = [
        str(p.relative_to(ROOT))
        for p in texts
        if re.search("the reference's|rules" + "-reference", p.read_text(encoding="utf-8"), re.I)
    ]
    assert found == []

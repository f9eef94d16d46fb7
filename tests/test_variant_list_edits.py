"""A variant edits its parent's lists by the rows' names: ``$before``/``$after`` a named row,
``$replace`` one row, ``$drop`` rows (docs/rule-format.md, "Editing a parent's list"), with its
errors located in the variant's own lines and the rows it writes carrying its own basis."""

from __future__ import annotations

from pathlib import Path

from engine.rules.loader import Registry, validate_paths

HEAD = """\
id: club-edit
name: "Quadrille, a list edited"
extends: quadrille
summary: A test of the list edits.
sources:
  club:
    title: "The rules of our club"
    kind: house
"""

ROW = """\
        - result: {result}
          when: {{side_tricks: {{exactly: 7}}}}
          basis:
            evidence: conjecture
            cite:
              - source: club
                locator: "rule 1"
"""


def _write(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "club-edit.yaml"
    path.write_text(HEAD + body, encoding="utf-8")
    return path


def _resolved(path: Path) -> tuple[list[str], list[tuple[str, str]]]:
    """The results rows' names, and where each row's basis was set (file, first citation)."""
    registry = Registry()
    resolved = registry.resolve(registry.add_path(path))
    rows = resolved.data["results"]["rules"]
    where = [
        (resolved.locate(("results", "rules", i, "basis"))[0], row["basis"]["cite"][0]["source"])
        for i, row in enumerate(rows)
    ]
    return [row["result"] for row in rows], where


def _parent_rows() -> list[str]:
    registry = Registry()
    entry = registry.find("quadrille")
    assert entry is not None
    return [r["result"] for r in registry.resolve(entry).data["results"]["rules"]]


def test_before_and_after_a_named_row(tmp_path: Path) -> None:
    body = "results:\n  rules:\n    $before:\n      devole:\n" + ROW.format(result="win")
    body += "    $after:\n      vole:\n" + ROW.format(result="remise")
    path = _write(tmp_path, body)
    assert validate_paths([str(path)]) == ([], 1)
    names, where = _resolved(path)
    parent = _parent_rows()
    d = parent.index("devole")
    v = parent.index("vole")
    expected = [*parent[: v + 1], "remise", *parent[v + 1 : d], "win", *parent[d:]]
    assert names == expected
    # The inserted rows are the variant's, with its basis; the parent's keep theirs.
    assert where[v + 1][0].endswith("club-edit.yaml") and where[v + 1][1] == "club"
    assert where[d + 1][0].endswith("club-edit.yaml") and where[d + 1][1] == "club"
    assert where[0][0].endswith("rules/quadrille.yaml") and where[0][1] != "club"


def test_replace_and_drop(tmp_path: Path) -> None:
    body = """\
results:
  rules:
    $replace:
      remise:
        result: remise
        when: {side_tricks: {exactly: 5}}
        basis:
          evidence: conjecture
          cite:
            - source: club
              locator: "rule 2"
    $drop: [devole]
"""
    path = _write(tmp_path, body)
    problems, _ = validate_paths([str(path)])
    assert problems == []
    names, where = _resolved(path)
    parent = _parent_rows()
    assert names == [n for n in parent if n != "devole"]
    assert where[names.index("remise")][1] == "club"


def test_an_unknown_row_is_named_in_the_variant_with_a_suggestion(tmp_path: Path) -> None:
    body = "results:\n  rules:\n    $before:\n      devol:\n" + ROW.format(result="win")
    path = _write(tmp_path, body)
    problems, _ = validate_paths([str(path)])
    assert [p.code for p in problems] == ["extends/missing-target"]
    (p,) = problems
    assert p.file.endswith("club-edit.yaml") and p.line == 12
    assert "did you mean 'devole'?" in p.message


def test_an_ambiguous_row_asks_for_its_number(tmp_path: Path) -> None:
    body = "results:\n  rules:\n    $after:\n      win:\n" + ROW.format(result="win")
    _write(tmp_path, body)
    child = tmp_path / "club-child.yaml"
    text = """\
id: club-child
name: "Quadrille, a list edited twice"
extends: ./club-edit.yaml
summary: A test of the list edits.
results:
  rules:
    $drop: [{row}]
"""
    child.write_text(text.format(row="win"), encoding="utf-8")
    problems, _ = validate_paths([str(child)])
    assert [p.code for p in problems] == ["extends/ambiguous-row"]
    assert "win#1 ... win#2" in problems[0].message
    assert problems[0].file.endswith("club-child.yaml") and problems[0].line == 7
    child.write_text(text.format(row="win#2"), encoding="utf-8")
    assert validate_paths([str(child)]) == ([], 1)
    names, _ = _resolved(child)
    assert names == _parent_rows()


def test_appending_needs_no_basis_for_the_parents_rows(tmp_path: Path) -> None:
    # $append once gave a false change-without-basis for each of the parent's rows.
    body = """\
results:
  rules:
    $append:
      - result: win
        when: {side_tricks: {exactly: 7}}
        basis:
          evidence: conjecture
          cite:
            - source: club
              locator: "rule 1"
"""
    path = _write(tmp_path, body)
    problems, _ = validate_paths([str(path)])
    assert problems == [], [str(p) for p in problems]

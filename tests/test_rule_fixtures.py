"""Negative and positive rule-file fixtures, run through ``ombre validate``.

Each file under ``tests/rule_files/invalid/`` declares the problems it must produce in header
comments, one per line::

    # expect: [FILE:]LINE:COLUMN CODE PATH

``FILE`` (a name beside the fixture) is given only when the problem is reported in another
file, as with an ``extends`` cycle. The problems reported must be exactly those declared, both
in ``--json`` mode and in text mode, with exit status 1 and no traceback. The few cases that
cannot be committed as a file (bytes that are not UTF-8, a missing file, an empty folder) are
made in a temporary folder.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from engine.cli import app

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "rule_files"
INVALID = sorted((FIXTURES / "invalid").rglob("*.yaml"))
VALID = sorted((FIXTURES / "valid").glob("*.yaml"))
EXPECT = re.compile(
    r"^# expect: (?:(?P<file>[^:\s]+):)?(?P<line>\d+):(?P<column>\d+) (?P<code>\S+) (?P<path>\S+)$"
)

runner = CliRunner()


@dataclass(frozen=True)
class Expected:
    file: Path
    line: int
    column: int
    code: str
    path: str


def _expectations(fixture: Path) -> set[Expected]:
    found = set()
    for text in fixture.read_text(encoding="utf-8").splitlines():
        if text.startswith("# expect:"):
            match = EXPECT.match(text)
            assert match, f"malformed expectation in {fixture.name}: {text!r}"
            file = fixture.parent / match["file"] if match["file"] else fixture
            found.add(
                Expected(
                    file.resolve(),
                    int(match["line"]),
                    int(match["column"]),
                    match["code"],
                    match["path"],
                )
            )
    return found


def _no_traceback(result: Result) -> None:
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )


def _shown(path: Path) -> str:
    return os.path.relpath(path)


def _rel(path: Path) -> str:
    return path.relative_to(FIXTURES).as_posix()


def test_there_are_enough_negative_fixtures() -> None:
    assert len(INVALID) >= 15
    codes = {e.code for fixture in INVALID for e in _expectations(fixture)}
    for code in (
        "yaml/syntax",
        "yaml/duplicate-key",
        "yaml/tag",
        "yaml/alias",
        "yaml/empty",
        "yaml/not-a-mapping",
        "schema/type",
        "schema/unknown-key",
        "semantic/unknown-card",
        "semantic/not-a-permutation",
        "extends/cycle",
        "extends/unknown",
    ):
        assert code in codes, f"no negative fixture produces {code}"


@pytest.mark.parametrize("fixture", INVALID, ids=_rel)
def test_invalid_fixture_json(fixture: Path) -> None:
    expected = _expectations(fixture)
    assert expected, f"{fixture.name} declares no '# expect:' line"
    result = runner.invoke(app, ["validate", "--json", str(fixture)])
    _no_traceback(result)
    assert result.exit_code == 1, result.output
    document = json.loads(result.stdout)
    assert document["valid"] is False
    for error in document["errors"]:
        assert set(error) == {"file", "line", "column", "path", "code", "message"}
        assert error["message"]
    got = {
        Expected(Path(e["file"]).resolve(), e["line"], e["column"], e["code"], e["path"])
        for e in document["errors"]
    }
    assert got == expected


@pytest.mark.parametrize("fixture", INVALID, ids=_rel)
def test_invalid_fixture_text(fixture: Path) -> None:
    expected = _expectations(fixture)
    result = runner.invoke(app, ["validate", str(fixture)])
    _no_traceback(result)
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    for e in expected:
        prefix = f"{_shown(e.file)}:{e.line}:{e.column}:"
        matching = [text for text in lines if text.startswith(prefix)]
        assert matching, f"no line starts with {prefix!r} in:\n{result.stdout}"
        assert any(text.endswith(f"[{e.code}]") for text in matching)
        if e.path != "$":
            assert any(f" {e.path}: " in text for text in matching)
    n = len(expected)
    files = len({e.file for e in expected})
    assert lines[-1] == (
        f"{n} problem{'s' if n > 1 else ''} in {files} file{'s' if files > 1 else ''}"
    )


def test_misspelt_key_suggests_the_right_one() -> None:
    result = runner.invoke(app, ["validate", str(FIXTURES / "invalid" / "misspelt-key.yaml")])
    assert "did you mean 'hand_size'?" in result.stdout


def test_unknown_parent_suggests_the_right_one() -> None:
    result = runner.invoke(app, ["validate", str(FIXTURES / "invalid" / "unknown-parent.yaml")])
    assert "did you mean 'quadrille'?" in result.stdout


def test_cycle_names_both_files() -> None:
    result = runner.invoke(app, ["validate", str(FIXTURES / "invalid" / "cycle")])
    assert result.exit_code == 1
    assert "extends makes a cycle" in result.stdout
    assert "cycle-a.yaml" in result.stdout and "cycle-b.yaml" in result.stdout


def test_alias_bomb_is_refused_quickly() -> None:
    """The alias bomb is refused at its first alias, before anything is expanded."""
    result = runner.invoke(
        app, ["validate", "--json", str(FIXTURES / "invalid" / "alias-bomb.yaml")]
    )
    errors = json.loads(result.stdout)["errors"]
    assert [e["code"] for e in errors] == ["yaml/alias"]


def test_every_invalid_fixture_at_once() -> None:
    """Every problem of every file is reported, not just the first.

    (The two halves of the cycle are left out: which of them reports the cycle and which its
    broken parent depends on which is resolved first.)
    """
    fixtures = [f for f in INVALID if f.parent.name != "cycle"]
    result = runner.invoke(app, ["validate", "--json", *map(str, fixtures)])
    assert result.exit_code == 1
    got = {(Path(e["file"]).resolve(), e["code"]) for e in json.loads(result.stdout)["errors"]}
    wanted = {(e.file, e.code) for fixture in fixtures for e in _expectations(fixture)}
    assert got == wanted


# Cases made on the fly.


def test_not_utf8(tmp_path: Path) -> None:
    bad = tmp_path / "latin1.yaml"
    bad.write_bytes(b"id: latin1\nname: Caf\xe9\n")
    result = runner.invoke(app, ["validate", "--json", str(bad)])
    _no_traceback(result)
    assert result.exit_code == 1
    [error] = json.loads(result.stdout)["errors"]
    assert (error["line"], error["column"], error["code"]) == (2, 10, "io/encoding")
    assert "0xe9" in error["message"]
    text = runner.invoke(app, ["validate", str(bad)])
    assert text.exit_code == 1
    assert text.stdout.startswith(f"{_shown(bad)}:2:10: ")


def test_missing_file_is_a_usage_error() -> None:
    result = runner.invoke(app, ["validate", "nosuchfile.yaml"])
    _no_traceback(result)
    assert result.exit_code == 2
    assert "nosuchfile.yaml" in result.stderr
    assert result.stdout == ""
    as_json = runner.invoke(app, ["validate", "--json", "nosuchfile.yaml"])
    assert as_json.exit_code == 2
    assert json.loads(as_json.stdout)["error"]["code"] == "usage"


def test_folder_without_rule_files(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("not a rule file\n", encoding="utf-8")
    result = runner.invoke(app, ["validate", "--json", str(tmp_path)])
    _no_traceback(result)
    assert result.exit_code == 1
    [error] = json.loads(result.stdout)["errors"]
    assert error["code"] == "io/no-rule-files"
    text = runner.invoke(app, ["validate", str(tmp_path)])
    assert text.exit_code == 1
    assert "no rule files" in text.stdout


def test_unreadable_parent_is_reported_once(tmp_path: Path) -> None:
    """A variant of a broken parent points at its own extends and lists the parent's problem."""
    parent = tmp_path / "parent.yaml"
    parent.write_text("id: parent\nname: [unclosed\n", encoding="utf-8")
    child = tmp_path / "child.yaml"
    child.write_text(
        "id: child\nname: Child\nextends: ./parent.yaml\nsummary: A child.\n", encoding="utf-8"
    )
    result = runner.invoke(app, ["validate", "--json", str(child), str(parent)])
    assert result.exit_code == 1
    errors = json.loads(result.stdout)["errors"]
    codes = sorted(e["code"] for e in errors)
    assert codes == ["extends/broken-parent", "yaml/syntax"]


# Positive fixtures.


@pytest.mark.parametrize("fixture", VALID, ids=_rel)
def test_valid_fixture(fixture: Path) -> None:
    result = runner.invoke(app, ["validate", "--json", str(fixture)])
    _no_traceback(result)
    assert result.exit_code == 0, result.stdout
    assert json.loads(result.stdout) == {"valid": True, "errors": []}
    text = runner.invoke(app, ["validate", str(fixture)])
    assert text.exit_code == 0
    assert text.stdout == "1 file valid\n"


def test_valid_fixtures_together() -> None:
    result = runner.invoke(app, ["validate", str(FIXTURES / "valid")])
    assert result.exit_code == 0
    assert result.stdout == f"{len(VALID)} files valid\n"

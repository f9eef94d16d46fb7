"""``ombre new NAME --extends PARENT``: a starter variant that validates, and is ready to edit."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.cli import EXIT_INVALID, EXIT_USAGE
from tests.cli_helpers import invoke


def _uncomment_example(text: str, source: str) -> str:
    """Uncomments the starter's "Change one value" example and a house source for it."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if "Change one value" in line) + 1
    end = next(i for i in range(start, len(lines)) if not lines[i].startswith("#"))
    example = [line[2:] for line in lines[start:end]]
    house = ["sources:", "  my-house:", f'    title: "{source}"', "    kind: house"]
    return "\n".join([*lines[:start], *example, *lines[end:], *house]) + "\n"


@pytest.mark.parametrize("parent", ["quadrille", "hombre", "mediateur-couleur-favorite"])
def test_starter_validates_and_its_example_too(tmp_path: Path, parent: str) -> None:
    target = tmp_path / "house" / "my-house.yaml"
    result = invoke("new", "my-house", "--extends", parent, "--out", str(target))
    assert result.exit_code == 0, result.output
    text = target.read_text(encoding="utf-8")
    assert text.startswith("# yaml-language-server: $schema=")
    schema = (target.parent / text.splitlines()[0].split("$schema=")[1]).resolve()
    assert schema.name == "ruleset.schema.json" and schema.is_file()
    assert "extends: " in text and "id: my-house" in text
    assert invoke("validate", str(target)).exit_code == 0
    # The example, uncommented, is a valid change with its own basis.
    edited = _uncomment_example(text, "The rules of our club")
    target.write_text(edited, encoding="utf-8")
    result = invoke("validate", str(target))
    assert result.exit_code == 0, result.output
    shown = invoke("show", str(target))
    assert "Changes from" in shown.output


def test_starter_without_basis_is_refused(tmp_path: Path) -> None:
    """Dropping the example's basis is the authoring error the guide warns of."""
    target = tmp_path / "x.yaml"
    assert invoke("new", "x", "--extends", "quadrille", "--out", str(target)).exit_code == 0
    edited = _uncomment_example(target.read_text(encoding="utf-8"), "club")
    edited = edited.split("    basis:")[0] + "sources:" + edited.split("sources:")[-1]
    target.write_text(edited, encoding="utf-8")
    result = invoke("validate", str(target))
    assert result.exit_code == EXIT_INVALID
    assert "semantic/change-without-basis" in result.output


def test_never_overwrites(tmp_path: Path) -> None:
    target = tmp_path / "mine.yaml"
    target.write_text("keep me\n", encoding="utf-8")
    result = invoke("new", "mine", "--extends", "quadrille", "--out", str(target))
    assert result.exit_code == EXIT_USAGE
    assert "not overwritten" in result.output
    assert target.read_text(encoding="utf-8") == "keep me\n"


def test_bad_names_and_parents_are_usage_errors(tmp_path: Path) -> None:
    out = str(tmp_path / "a.yaml")
    result = invoke("new", "Mon Quadrille", "--extends", "quadrille", "--out", out)
    assert result.exit_code == EXIT_USAGE and "try 'mon-quadrille'" in result.output
    result = invoke("new", "quadrille", "--extends", "quadrille", "--out", out)
    assert result.exit_code == EXIT_USAGE and "already exists" in result.output
    result = invoke("new", "mine", "--extends", "quadrile", "--out", out)
    assert result.exit_code == EXIT_USAGE and "did you mean 'quadrille'" in result.output
    assert not Path(out).exists()


def test_json(tmp_path: Path) -> None:
    out = tmp_path / "j.yaml"
    result = invoke("new", "j", "--extends", "médiateur", "--out", str(out), "--json")
    assert result.exit_code == 0
    assert json.loads(result.stdout) == {"id": "j", "extends": "mediateur", "path": str(out)}


def test_validate_warns_on_the_starters_placeholder_summary_and_note(tmp_path: Path) -> None:
    target = tmp_path / "my-house.yaml"
    assert invoke("new", "my-house", "--extends", "quadrille", "--out", str(target)).exit_code == 0
    target.write_text(_uncomment_example(target.read_text("utf-8"), "club"), encoding="utf-8")
    result = invoke("validate", str(target))
    assert result.exit_code == 0  # valid: warned, not refused
    assert "$.summary: warning: the summary is still the starter's" in result.output
    assert "warning: the note is still the starter's" in result.output
    assert "[authoring/placeholder-note]" in result.output
    assert result.output.splitlines()[-1] == "1 file valid, 2 warnings"
    document = json.loads(invoke("validate", "--json", str(target)).stdout)
    assert document["valid"] is True and document["errors"] == []
    codes = [w["code"] for w in document["warnings"]]
    assert codes == ["authoring/placeholder-summary", "authoring/placeholder-note"]
    assert document["warnings"][0]["line"] is not None
    # Written in the author's own words, the warnings go.
    text = target.read_text("utf-8")
    text = text.replace("say here, in a sentence or two, what this variant changes\n", "x\n")
    text = text.replace("Why the rule is read this way.", "Our club's rule 7 says so.")
    target.write_text(text, encoding="utf-8")
    result = invoke("validate", str(target))
    assert "warning" not in result.output and result.output.endswith("1 file valid\n")


def test_the_repositorys_rule_files_have_no_placeholder_left() -> None:
    result = invoke("validate", "--json")
    warnings = json.loads(result.stdout).get("warnings", [])
    assert not [w for w in warnings if w["code"].startswith("authoring/placeholder")]

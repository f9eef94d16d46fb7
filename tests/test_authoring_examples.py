"""What ``ombre validate`` accepts passes the suite's per-file checks: the authoring guide's
worked examples (docs/authoring.md, each file written whole there) and every ``ombre new``
starter, each written into a temporary folder, validated, run through the checks the suite
runs on every file of ``variants/``, and the examples measured against their parent."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from engine.cli import app
from engine.compare import SideFigures, compare
from engine.errors import Problem
from engine.rules import load_ruleset
from engine.rules.loader import schema_path, validate_paths
from tests import test_citations, test_rule_format
from tests.test_scorekeeper_every_contract import check_every_contract

ROOT = Path(__file__).resolve().parent.parent
GUIDE = ROOT / "docs" / "authoring.md"
_WHOLE = re.compile(r"```yaml\n(# yaml-language-server: \$schema=[^\n]*\n.*?)```", re.DOTALL)


def _examples() -> dict[str, str]:
    found = {}
    for text in _WHOLE.findall(GUIDE.read_text(encoding="utf-8")):
        match = re.search(r"^id: (\S+)$", text, re.MULTILINE)
        assert match, "a whole file in the guide without its id"
        found[match[1]] = text
    return found


EXAMPLES = _examples()
PARENTS = sorted(p.stem for p in (ROOT / "rules").glob("*.yaml"))


def _folder(tmp_path: Path) -> Path:
    """A folder laid out as the checkout (``variants/`` beside ``engine/schema``), so that a
    file's schema line points at the shipped schema as it does in ``variants/``."""
    (tmp_path / "engine").mkdir()
    (tmp_path / "engine" / "schema").symlink_to(schema_path().parent)
    variants = tmp_path / "variants"
    variants.mkdir()
    return variants


def _per_file_checks(path: Path) -> None:
    """The checks the suite runs on each file of ``variants/``, on this one."""
    problems, checked = validate_paths([str(path)])
    assert (problems, checked) == ([], 1), [str(p) for p in problems]
    test_rule_format.test_rule_file_header_points_at_the_schema(path)
    test_rule_format.test_rule_file_validates(path)
    test_rule_format.test_variant_changes_carry_a_basis(path)
    test_citations.test_quotes_are_verbatim_in_their_source(path)
    test_citations.test_every_cited_source_has_its_passage_stored(path)
    check_every_contract(str(path))


def test_the_guide_has_the_three_house_rules() -> None:
    assert set(EXAMPLES) == {
        "club-quadrille-doubling-bete",
        "club-quadrille-redeal",
        "club-quadrille-nolo",
    }
    for text in EXAMPLES.values():
        # House rules: a house source, labelled conjecture (docs/decisions.md's rule).
        assert "kind: house" in text and "evidence: conjecture" in text
        assert "evidence: attested" not in text


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_a_worked_example_validates_and_passes_the_per_file_checks(
    name: str, tmp_path: Path
) -> None:
    path = _folder(tmp_path) / f"{name}.yaml"
    path.write_text(EXAMPLES[name], encoding="utf-8")
    warnings: list[Problem] = []
    assert validate_paths([str(path)], warnings) == ([], 1)
    assert warnings == []
    _per_file_checks(path)


def test_the_redeal_example_without_its_deletion_is_warned_and_still_passes(
    tmp_path: Path,
) -> None:
    text = EXAMPLES["club-quadrille-redeal"].replace(
        "  contracts:\n    forced-spadille: {$delete: true}\n", ""
    )
    assert text != EXAMPLES["club-quadrille-redeal"]
    path = _folder(tmp_path) / "club-quadrille-redeal.yaml"
    path.write_text(text, encoding="utf-8")
    warnings: list[Problem] = []
    assert validate_paths([str(path)], warnings) == ([], 1)
    assert [w.code for w in warnings] == ["authoring/unreachable"]
    assert warnings[0].file.endswith("club-quadrille-redeal.yaml")
    _per_file_checks(path)


@pytest.mark.parametrize("parent", PARENTS)
def test_an_ombre_new_starter_passes_the_per_file_checks(parent: str, tmp_path: Path) -> None:
    path = _folder(tmp_path) / f"club-{parent}.yaml"
    result = CliRunner().invoke(
        app, ["new", f"club-{parent}", "--extends", parent, "--out", str(path)]
    )
    assert result.exit_code == 0, result.output
    # The starter holds no rule of its own, only the file's own keys: its per-file checks are
    # those that read any file (the scorekeeper's is the parent's own, run on the parent).
    problems, checked = validate_paths([str(path)])
    assert (problems, checked) == ([], 1), [str(p) for p in problems]
    test_rule_format.test_rule_file_header_points_at_the_schema(path)
    test_citations.test_quotes_are_verbatim_in_their_source(path)
    test_citations.test_every_cited_source_has_its_passage_stored(path)


def _measured(name: str, tmp_path: Path) -> tuple[SideFigures, SideFigures]:
    path = _folder(tmp_path) / f"{name}.yaml"
    path.write_text(EXAMPLES[name], encoding="utf-8")
    report = compare(
        load_ruleset("quadrille"), load_ruleset(path), 300, seed=1, confirm=False
    ).report()
    return report.rulesets


def test_the_redeal_example_redeals_and_never_forces(tmp_path: Path) -> None:
    a, b = _measured("club-quadrille-redeal", tmp_path)
    assert "redeal" not in a.results and b.results.get("redeal", 0) > 0
    assert "forced-spadille" in a.contracts
    assert "forced-spadille" not in b.contracts


def test_the_nolo_example_is_played_and_scored(tmp_path: Path) -> None:
    a, b = _measured("club-quadrille-nolo", tmp_path)
    assert "nolo" not in a.contracts and "nolo" in b.contracts


def test_the_doubling_example_changes_the_betes_only(tmp_path: Path) -> None:
    a, b = _measured("club-quadrille-doubling-bete", tmp_path)
    assert a.results == b.results
    assert a.bete_size != b.bete_size

"""The rule-file format: the JSON Schema, the committed rule files, provenance and aliases."""

from __future__ import annotations

import importlib.util
import json
import re
from collections.abc import Mapping
from pathlib import Path
from types import ModuleType

import pytest
from jsonschema import Draft202012Validator

from engine import NotationError, load_ruleset
from engine.errors import Problem
from engine.rules import loader
from engine.rules.loader import Registry, schema_line_problem, schema_path, validate_paths

ROOT = Path(__file__).resolve().parent.parent
RULE_FILES = sorted([*ROOT.glob("rules/*.yaml"), *ROOT.glob("variants/*.yaml")])
VALID_FIXTURES = sorted((ROOT / "tests" / "rule_files" / "valid").glob("*.yaml"))
HEADER = re.compile(r"^# yaml-language-server: \$schema=(?P<target>\S+)$")


def _gen_schema() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gen_schema", ROOT / "tools" / "gen_schema.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


# The schema.


def test_schema_is_valid_draft_2020_12() -> None:
    schema = json.loads(schema_path().read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_committed_schema_is_current() -> None:
    committed = schema_path().read_text(encoding="utf-8")
    assert _gen_schema().render() == committed, (
        "engine/schema/ruleset.schema.json is out of date with tools/gen_schema.py; "
        "regenerate it with `python tools/gen_schema.py`"
    )


def test_schema_ships_inside_the_package() -> None:
    assert schema_path() == ROOT / "engine" / "schema" / "ruleset.schema.json"
    assert schema_path().is_file()


# The committed rule files.


def test_there_are_rulesets_and_variants() -> None:
    names = {p.stem for p in RULE_FILES}
    assert {"ombre", "quadrille", "quadrille-a-trois", "mediateur"} <= names
    assert {
        "quadrille-four-trick-bete",
        "quadrille-parlett-packets",
        "quadrille-dealer-stakes-four",
        "ombre-spadille-force",
    } <= names


@pytest.mark.parametrize("path", RULE_FILES + VALID_FIXTURES, ids=_rel)
def test_rule_file_header_points_at_the_schema(path: Path) -> None:
    first = path.read_text(encoding="utf-8").splitlines()[0]
    match = HEADER.match(first)
    assert match, f"{_rel(path)} must start with '# yaml-language-server: $schema=…'"
    assert (path.parent / match["target"]).resolve() == schema_path().resolve()
    # The same check as `ombre validate`'s, so that the two agree.
    assert schema_line_problem(path, str(path), path.read_bytes()) is None


def _checkout(tmp_path: Path, text: str) -> Path:
    """A checkout's layout in a tmp folder (rules/ and engine/schema linked, a real variants/
    holding one file), so that validate reads the file as a committed variant."""
    (tmp_path / "engine").mkdir()
    (tmp_path / "engine" / "schema").symlink_to(schema_path().parent)
    (tmp_path / "rules").symlink_to(ROOT / "rules")
    (tmp_path / "variants").mkdir()
    path = tmp_path / "variants" / "club-headless.yaml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("first", "refused"),
    [
        ("", True),
        ("# yaml-language-server: $schema=../elsewhere/ruleset.schema.json\n", True),
        ("# yaml-language-server: $schema=../engine/schema/ruleset.schema.json\n", False),
    ],
)
def test_validate_refuses_a_committed_file_without_the_schema_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, first: str, refused: bool
) -> None:
    """A variant in variants/ without the line the suite checks is refused at validate, with
    the suite's reason; a file elsewhere is not held to it."""
    body = (ROOT / "variants" / "quadrille-four-trick-bete.yaml").read_text(encoding="utf-8")
    body = body.split("\n", 1)[1].replace("id: quadrille-four-trick-bete", "id: club-headless")
    path = _checkout(tmp_path, first + body)
    monkeypatch.setattr(loader, "data_dir", lambda name: tmp_path / name)
    warnings: list[Problem] = []
    problems, checked = validate_paths([str(path)], warnings)
    assert checked == 1
    assert [p.code for p in problems] == (["format/schema-line"] if refused else [])
    assert "format/schema-line" not in [w.code for w in warnings]
    if refused:
        assert problems[0].line == 1 and "yaml-language-server" in problems[0].message
    # Outside rules/ and variants/ the same file is not refused.
    elsewhere = tmp_path / "club-headless.yaml"
    elsewhere.write_text(body, encoding="utf-8")
    assert validate_paths([str(elsewhere)]) == ([], 1)


@pytest.mark.parametrize("path", RULE_FILES + VALID_FIXTURES, ids=_rel)
def test_rule_file_validates(path: Path) -> None:
    problems, checked = validate_paths([str(path)])
    assert checked == 1
    assert problems == [], "\n".join(str(p) for p in problems)


@pytest.mark.parametrize("path", RULE_FILES, ids=_rel)
def test_rule_file_id_is_its_file_name(path: Path) -> None:
    ruleset = load_ruleset(path.stem)
    assert ruleset.id == path.stem
    assert Path(ruleset.file).resolve() == path


def _has_basis(value: object) -> bool:
    return isinstance(value, Mapping) and "basis" in value


@pytest.mark.parametrize("path", sorted(ROOT.glob("variants/*.yaml")), ids=_rel)
def test_variant_changes_carry_a_basis(path: Path) -> None:
    """A variant states only what it changes, and every change has a basis in the variant."""
    ruleset = load_ruleset(path)
    # A file outside variants/ (tests/test_authoring_examples.py) is loaded as a file.
    assert ruleset.kind == ("variant" if path.parent == ROOT / "variants" else "file")
    assert ruleset.extends is not None
    assert ruleset.overrides, "a variant that changes nothing"
    for change, where in ruleset.overrides:
        assert Path(where[0]).resolve() == path
        if change[0] == "sources":
            continue  # a source the variant adds is cited, not itself based on one
        if change in (("settlement", "unit"), ("settlement", "unit_basis")):
            # The unit's evidence is its own key (settlement.unit_basis), given with it.
            assert ruleset.locate(("settlement", "unit_basis", "evidence"))[0] == where[0]
            continue
        value = ruleset.value_at(change)
        if value is None:
            # A deletion: nothing is left to justify (docs/rule-format.md, "Deleting a key
            # needs no basis of its own"; engine/rules/authoring.py skips it too).
            continue
        if isinstance(value, list) and value and all(_has_basis(v) for v in value):
            holders = [(*change, i) for i in range(len(value))]  # a list of based items
        elif (
            isinstance(value, Mapping)
            and value
            and not _has_basis(value)
            and all(_has_basis(v) for v in value.values())
        ):
            holders = [(*change, k) for k in value]  # a new map of based entries (options)
        else:
            # The nearest basis at or above the change.
            holder = change
            while holder and not _has_basis(ruleset.value_at(holder)):
                holder = holder[:-1]
            assert holder, f"{'.'.join(map(str, change))} has no basis at all"
            holders = [holder]
        for holder in holders:
            evidence_file = ruleset.locate((*holder, "basis", "evidence"))[0]
            assert Path(evidence_file).resolve() == path, (
                f"{'.'.join(map(str, change))} is changed without a basis of its own"
            )
            basis = ruleset.basis_at(holder)
            if basis.evidence in ("attested", "disputed"):
                assert basis.cites
            for cite in basis.cites:
                assert cite.source in ruleset.sources


def test_variants_mean_what_they_say() -> None:
    quadrille = load_ruleset("quadrille")
    assert quadrille.sole_liability_below == 3
    assert load_ruleset("quadrille-four-trick-bete").sole_liability_below == 4

    packets = load_ruleset("quadrille-parlett-packets").packets
    assert packets == ((3, 3, 4), (4, 3, 3), (3, 4, 3))
    assert quadrille.packets == ((3, 3, 4), (4, 3, 3))

    assert quadrille.stakes == (("dealer", 10), ("each", 1))
    assert load_ruleset("quadrille-dealer-stakes-four").stakes == (("dealer", 4),)

    ombre = load_ruleset("ombre")
    forced = load_ruleset("ombre-spadille-force")
    assert ombre.all_pass == "redeal" and ombre.all_pass_stakes == (("each", 2),)
    assert forced.all_pass == "forced"
    assert str(forced.all_pass_card) == "As"
    assert forced.all_pass_contract == "forced-spadille"
    assert forced.all_pass_stakes == ()
    contract = forced.contracts["forced-spadille"]
    assert (contract.biddable, contract.help, contract.exchange, contract.rank) == (
        False,
        "none",
        "declarer-first",
        0,
    )
    # Everything else is the parent's.
    assert forced.contracts["entrada"] == ombre.contracts["entrada"]
    assert forced.talon == ombre.talon == 13


# Provenance.


def _line_of(path: Path, pattern: str, after: str | None = None) -> int:
    lines = path.read_text(encoding="utf-8").splitlines()
    start = 0
    if after is not None:
        start = next(i for i, text in enumerate(lines) if re.search(after, text))
    return next(i + 1 for i in range(start, len(lines)) if re.search(pattern, lines[i]))


def test_overridden_value_is_located_in_the_variant() -> None:
    ruleset = load_ruleset("quadrille-four-trick-bete")
    variant = ROOT / "variants" / "quadrille-four-trick-bete.yaml"
    file, line, column = ruleset.locate(("settlement", "sharing", "sole_liability_below"))
    assert Path(file).resolve() == variant
    assert line == _line_of(variant, r"^\s+sole_liability_below: 4")
    assert column == 5


def test_inherited_value_is_located_in_the_parent() -> None:
    ruleset = load_ruleset("quadrille-four-trick-bete")
    parent = ROOT / "rules" / "quadrille.yaml"
    file, line, _ = ruleset.locate(("settlement", "sharing", "split"))
    assert Path(file).resolve() == parent
    assert line == _line_of(parent, r"^\s+split: halves")
    file, line, _ = ruleset.locate(("auction", "contracts", "ask"))
    assert Path(file).resolve() == parent
    assert line == _line_of(parent, r"^    ask:$")


def test_appended_item_is_located_where_it_was_added() -> None:
    ruleset = load_ruleset("quadrille-parlett-packets")
    variant = ROOT / "variants" / "quadrille-parlett-packets.yaml"
    parent = ROOT / "rules" / "quadrille.yaml"
    file, line, _ = ruleset.locate(("deal", "packets", 2))
    assert Path(file).resolve() == variant
    assert line == _line_of(variant, r"packets: \{\$append")
    file, line, _ = ruleset.locate(("deal", "packets", 0))
    assert Path(file).resolve() == parent
    assert line == _line_of(parent, r"- \[3, 3, 4\]")


def test_grandparent_value_is_located_in_the_grandparent() -> None:
    """A variant of a variant: values come from each of the three files in the chain."""
    path = ROOT / "tests" / "rule_files" / "valid" / "ombre-chain.yaml"
    ruleset = load_ruleset(str(path))
    assert ruleset.chain == ("ombre", "ombre-spadille-force", "ombre-chain")
    where = {
        ("auction", "contracts", "forced-spadille", "vole_allowed"): path,
        ("auction", "contracts", "forced-spadille", "exchange"): ROOT
        / "variants"
        / "ombre-spadille-force.yaml",
        ("deal", "talon"): ROOT / "rules" / "ombre.yaml",
    }
    for value_path, expected in where.items():
        assert Path(ruleset.locate(value_path)[0]).resolve() == expected
    assert "sans-prendre" not in ruleset.contracts
    assert "sans-prendre" not in ruleset.outcomes["win"].receive


def test_a_file_changes_only_its_own_keys() -> None:
    """``id``, ``name``, ``aliases`` and ``summary`` are never inherited."""
    variant = load_ruleset("quadrille-four-trick-bete")
    quadrille = load_ruleset("quadrille")
    assert variant.aliases == ()
    assert quadrille.aliases
    assert variant.name != quadrille.name and variant.summary != quadrille.summary


# Names.


@pytest.mark.parametrize(
    ("alias", "ruleset_id"),
    [
        ("hombre", "ombre"),
        ("l-hombre", "ombre"),
        ("L'Hombre", "ombre"),
        ("médiateur", "mediateur"),
        ("Médiateur", "mediateur"),
        ("quadrille-à-trois", "quadrille-a-trois"),
        ("quadrille_a_trois", "quadrille-a-trois"),
        ("spadille-force", "ombre-spadille-force"),
        ("rules/quadrille.yaml", "quadrille"),
    ],
)
def test_aliases_resolve(alias: str, ruleset_id: str) -> None:
    if alias.endswith(".yaml"):
        alias = str(ROOT / alias)
    assert load_ruleset(alias).id == ruleset_id


def test_unknown_name_is_a_notation_error_with_a_hint() -> None:
    with pytest.raises(NotationError, match="did you mean 'quadrille'"):
        load_ruleset("quadrile")


def test_registry_lists_rulesets_first() -> None:
    files = Registry().files()
    kinds = [kind for _, kind, _ in files]
    assert kinds == sorted(kinds, key=lambda k: k != "ruleset")
    assert {i for i, k, _ in files if k == "ruleset"} == {
        *(p.stem for p in ROOT.glob("rules/*.yaml")),
        "ombre",
        "quadrille",
        "quadrille-a-trois",
        "mediateur",
    }

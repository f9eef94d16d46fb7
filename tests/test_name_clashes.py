"""A name (id or alias) must find one rule file: a variant that reuses a ruleset's id or alias
is refused at its own line, since ``ombre show NAME`` would otherwise silently pick one."""

from __future__ import annotations

import shutil
from pathlib import Path

from engine.rules.loader import Registry, _name_clashes

ROOT = Path(__file__).resolve().parent.parent


def _registry(tmp_path: Path, variant: str) -> Registry:
    rules, variants = tmp_path / "rules", tmp_path / "variants"
    rules.mkdir()
    variants.mkdir()
    shutil.copy(ROOT / "rules" / "quadrille.yaml", rules / "quadrille.yaml")
    (variants / "club.yaml").write_text(variant, encoding="utf-8")
    return Registry(rules, variants)


def test_a_variant_reusing_an_id_is_refused_at_its_id(tmp_path: Path) -> None:
    registry = _registry(tmp_path, "id: quadrille\nname: Club\nextends: quadrille\n")
    problems = _name_clashes(registry, registry.entries())
    assert [(p.file.rsplit("/", 1)[-1], p.line, p.column, p.code) for p in problems] == [
        ("club.yaml", 1, 1, "semantic/duplicate-name")
    ]
    assert "quadrille.yaml" in problems[0].message


def test_a_variant_reusing_an_alias_is_refused_at_the_alias(tmp_path: Path) -> None:
    registry = _registry(
        tmp_path, "id: club\nname: Club\nextends: quadrille\naliases: [x, quadrille-jeu]\n"
    )
    problems = _name_clashes(registry, registry.entries())
    assert [(p.path, p.line, p.code) for p in problems] == [
        ("$.aliases[1]", 4, "semantic/duplicate-name")
    ]


def test_distinct_names_pass(tmp_path: Path) -> None:
    registry = _registry(tmp_path, "id: club\nname: Club\nextends: quadrille\n")
    assert _name_clashes(registry, registry.entries()) == []

"""The cache of validated rule files: used only while every file of the chain is unchanged."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import _cache
from engine.errors import RuleFileError
from engine.loader import Registry

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("OMBRE_CACHE_DIR", str(folder))
    monkeypatch.delenv("OMBRE_NO_CACHE", raising=False)
    return folder


def _resolve(path: Path):  # type: ignore[no-untyped-def]
    registry = Registry()
    return registry.resolve(registry.add_path(path))


@pytest.mark.parametrize(
    "name",
    ["rules/quadrille.yaml", "rules/mediateur.yaml", "variants/quadrille-four-trick-bete.yaml"],
)
def test_cached_result_equals_fresh_result(name: str, private_cache: Path) -> None:
    fresh = _resolve(ROOT / name)
    assert any(private_cache.glob("*.json"))
    cached = _resolve(ROOT / name)
    assert cached.data == fresh.data
    assert cached.where == fresh.where
    assert cached.overrides == fresh.overrides
    assert cached.chain == fresh.chain and cached.file == fresh.file


def test_a_changed_parent_invalidates_the_child(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    parent = tmp_path / "parent.yaml"
    child = tmp_path / "child.yaml"
    parent.write_text(
        (ROOT / "rules" / "quadrille.yaml")
        .read_text(encoding="utf-8")
        .replace("id: quadrille", "id: parent-q"),
        encoding="utf-8",
    )
    child.write_text(
        "id: child-q\nname: Child\nextends: ./parent.yaml\nsummary: s\n"
        "deal:\n  hand_size: 10\n  talon: 0\n  packets: [[4, 3, 3]]\n  basis: {evidence: conjecture}\n",
        encoding="utf-8",
    )
    assert _resolve(child).data["deal"]["packets"] == [[4, 3, 3]]
    # Break the parent: the child's cached result must not be used.
    parent.write_text(
        parent.read_text(encoding="utf-8").replace("hand_size: 10", "hand_size: ten"),
        encoding="utf-8",
    )
    with pytest.raises(RuleFileError) as caught:
        _resolve(child)
    assert any(p.code == "schema/type" for p in caught.value.problems)


def test_a_changed_file_is_read_again(tmp_path: Path) -> None:
    child = tmp_path / "v.yaml"
    child.write_text("id: v\nname: V\nextends: quadrille\nsummary: s\n", encoding="utf-8")
    assert _resolve(child).data["name"] == "V"
    child.write_text("id: v\nname: W\nextends: quadrille\nsummary: s\n", encoding="utf-8")
    assert _resolve(child).data["name"] == "W"


def test_the_cache_can_be_turned_off(private_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OMBRE_NO_CACHE", "1")
    _resolve(ROOT / "rules" / "ombre.yaml")
    assert not private_cache.exists() or not any(private_cache.glob("*.json"))


def test_a_corrupt_entry_is_a_miss(private_cache: Path) -> None:
    _resolve(ROOT / "rules" / "ombre.yaml")
    for entry in private_cache.glob("*.json"):
        entry.write_text("{not json", encoding="utf-8")
    assert _resolve(ROOT / "rules" / "ombre.yaml").id == "ombre"
    assert _cache.enabled()

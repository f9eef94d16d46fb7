"""The cache of validated rule files: used only while every file of the chain is unchanged."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.errors import RuleFileError
from engine.rules import cache as _cache
from engine.rules.loader import Registry

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


def test_the_session_cache_is_a_temporary_folder() -> None:
    """conftest.py points the cache (and HOME) away from the user's own folders."""
    import os
    import tempfile

    folder = _cache.cache_dir().resolve()
    assert folder.is_relative_to(Path(tempfile.gettempdir()).resolve())
    assert (
        Path(os.path.expanduser("~"))
        .resolve()
        .is_relative_to(Path(tempfile.gettempdir()).resolve())
    )


def test_the_cache_is_pruned_to_its_bounds(
    private_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import os

    private_cache.mkdir(parents=True)
    for k in range(12):
        entry = private_cache / f"{k:040d}.json"
        entry.write_text("{}" + " " * 1000, encoding="utf-8")
        os.utime(entry, (1000 + k, 1000 + k))
    stale = private_cache / "x.tmp"
    stale.write_text("", encoding="utf-8")
    os.utime(stale, (0, 0))
    monkeypatch.setattr(_cache, "MAX_ENTRIES", 5)
    assert _cache.prune(private_cache) == 8
    left = sorted(p.name for p in private_cache.iterdir())
    assert left == [f"{k:040d}.json" for k in range(7, 12)]
    monkeypatch.setattr(_cache, "MAX_TOTAL", 2500)
    _cache.prune(private_cache)
    assert sorted(p.name for p in private_cache.iterdir()) == [
        f"{k:040d}.json" for k in range(10, 12)
    ]


def test_a_storing_run_prunes(private_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_cache, "MAX_ENTRIES", 2)
    for name in ("rules/ombre.yaml", "rules/quadrille.yaml", "rules/mediateur.yaml"):
        _resolve(ROOT / name)
    assert len(list(private_cache.glob("*.json"))) == 2


def test_a_new_file_an_id_would_find_is_noticed(tmp_path: Path) -> None:
    """A cached child whose `extends: parent-q` would now find another file is not served."""
    rules = tmp_path / "rules"
    rules.mkdir()
    text = (ROOT / "rules" / "quadrille.yaml").read_text(encoding="utf-8")
    (rules / "older.yaml").write_text(text.replace("id: quadrille", "id: parent-q"), "utf-8")
    child = tmp_path / "child.yaml"
    child.write_text("id: child-q\nname: Child\nextends: parent-q\nsummary: s\n", "utf-8")
    first = Registry(rules_dir=rules, variants_dir=tmp_path / "none")
    assert first.resolve(first.add_path(child)).data["players"]["count"] == 4
    # A file named after the id now comes first; the old parent and the child are unchanged.
    broken = text.replace("id: quadrille", "id: parent-q").replace("count: 4", "count: 40")
    (rules / "parent-q.yaml").write_text(broken, "utf-8")
    second = Registry(rules_dir=rules, variants_dir=tmp_path / "none")
    with pytest.raises(RuleFileError):
        second.resolve(second.add_path(child))

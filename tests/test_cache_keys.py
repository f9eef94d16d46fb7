"""The caches' keys cannot go stale: they stand for every file the package ships, found by
walking the package (not listed by hand), and the rule files.

Each test copies the package (``engine/``, the templates, rule files and variants) into a
temporary folder, runs it there in a fresh process with a cache of its own, edits one file of
the copy, and runs it again.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from engine.rules import cache as _cache

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    target = tmp_path / "pkg"
    target.mkdir()
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for name in ("engine", "templates", "rules", "variants"):
        shutil.copytree(ROOT / name, target / name, ignore=ignore)
    shutil.copy2(ROOT / "pyproject.toml", target / "pyproject.toml")
    return target


def _run(copy: Path, code: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(copy)
    env["OMBRE_CACHE_DIR"] = str(copy.parent / "cache")
    env.pop("OMBRE_NO_CACHE", None)
    prelude = (
        "import engine, pathlib, sys\n"
        f"assert pathlib.Path(engine.__file__).is_relative_to({str(copy)!r}), engine.__file__\n"
    )
    return subprocess.run(
        [sys.executable, "-c", prelude + code],
        cwd=copy,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


_LOAD = (
    "from engine.errors import RuleFileError\n"
    "from engine import load_ruleset\n"
    "try:\n"
    "    load_ruleset('quadrille')\n"
    "except RuleFileError as e:\n"
    "    print('refused', e.problems[0].code)\n"
    "else:\n"
    "    print('loaded')\n"
)


def test_a_module_edited_in_a_copy_of_the_package_misses_the_rule_cache(copy: Path) -> None:
    first = _run(copy, _LOAD)
    assert first.stdout.strip() == "loaded", first.stderr
    assert any((copy.parent / "cache").glob("*.json"))  # the warm cache holds Quadrille
    assert _run(copy, _LOAD).stdout.strip() == "loaded"
    # authoring.py was never listed among the files the key hashed: now it cannot be left out.
    authoring = copy / "engine" / "rules" / "authoring.py"
    authoring.write_text(
        authoring.read_text(encoding="utf-8") + "\n\n_real = authoring_problems\n\n\n"
        "def authoring_problems(resolved):\n"
        "    from engine.errors import Problem\n"
        "    return [*_real(resolved), Problem(resolved.file, 1, 1, '$', 'authoring/test', 'x')]\n",
        encoding="utf-8",
    )
    again = _run(copy, _LOAD)
    assert again.stdout.strip() == "refused authoring/test", again.stderr


_KEYS = (
    "from engine.rules import cache\n"
    "from engine.render import _inputs_hash\n"
    "print(cache.package_hash(), _inputs_hash([b'rule file']))\n"
)


@pytest.mark.parametrize(
    "edited",
    [
        "engine/documents/book.py",  # a module the rendered texts' views come from
        "engine/referee/settlement.py",  # a module no list ever named
        "templates/cli/problems.txt.j2",  # a nested template (the old glob saw the top only)
        "templates/show.txt.j2",
        "engine/schema/ruleset.schema.json",
    ],
)
def test_any_shipped_file_edited_changes_both_keys(copy: Path, edited: str) -> None:
    before = _run(copy, _KEYS)
    assert before.returncode == 0, before.stderr
    assert _run(copy, _KEYS).stdout == before.stdout  # the same files give the same keys
    path = copy / edited
    path.write_bytes(path.read_bytes() + b"\n")
    after = _run(copy, _KEYS)
    assert after.returncode == 0, after.stderr
    old, new = before.stdout.split(), after.stdout.split()
    assert old[0] != new[0] and old[1] != new[1]


def test_a_new_module_changes_the_key(copy: Path) -> None:
    before = _run(copy, _KEYS).stdout
    (copy / "engine" / "rules" / "extra.py").write_text("X = 1\n", encoding="utf-8")
    assert _run(copy, _KEYS).stdout.split()[0] != before.split()[0]


def test_the_package_files_are_found_not_listed() -> None:
    files = {p.resolve() for p in _cache.package_files()}
    engine = ROOT / "engine"
    for module in engine.rglob("*.py"):
        if "__pycache__" not in module.parts:
            assert module.resolve() in files
    for template in (ROOT / "templates").rglob("*.j2"):
        assert template.resolve() in files
    assert (engine / "schema" / "ruleset.schema.json").resolve() in files
    assert not any(p.suffix == ".pyc" for p in files)


def test_the_package_is_hashed_once_per_process() -> None:
    _cache.package_hash()
    before = _cache.package_hash.cache_info().hits
    _cache.package_hash()
    assert _cache.package_hash.cache_info().hits == before + 1


def test_the_measured_effects_key_is_the_package_hash(monkeypatch: pytest.MonkeyPatch) -> None:
    # The effects cache keyed itself by a hash of its own (engine/*.py only, no template);
    # it now takes the one package hash, which finds every module and template shipped.
    from engine import load_ruleset
    from engine.documents import effects
    from engine.rules import cache

    parent, variant = load_ruleset("quadrille"), load_ruleset("quadrille-contre")
    key = effects.measure_key(parent, variant, 10, 1, "heuristic")
    assert key.startswith(cache.package_hash().encode() + b"\0")
    monkeypatch.setattr(cache, "package_hash", lambda: "0" * 64)
    assert effects.measure_key(parent, variant, 10, 1, "heuristic") != key

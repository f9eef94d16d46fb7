"""The compiled referee (``make fast``): the same sources built with mypyc, and a way to tell.

The quick tier checks that the checkout says truly which referee is in use. The slow tier
builds a copy of the checkout in a temporary folder with ``tools/build_fast.py`` and runs the
referee's, the settlement's, the OpenSpiel adapter's and the entered-equals-played tests
against the compiled modules in a child process (skipped where mypyc or a C compiler is
missing).
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

import engine
from engine import load_ruleset
from engine.referee import Deal, compiled
from tests.cli_helpers import invoke

ROOT = Path(engine.__file__).resolve().parent.parent

# What the compiled copy runs: the referee, the settlement, the OpenSpiel adapter (the
# copies of Deal.copy), entered-equals-played, the deal's answers and the bots' look-ahead.
COMPILED_TESTS = (
    "tests/test_referee_*.py",
    "tests/test_settlement*.py",
    "tests/test_spiel*.py",
    "tests/test_entered_equals_played.py",
    "tests/test_deal_result.py",
    "tests/test_laws_of_play.py",
    "tests/test_bots.py",
    "tests/test_search_bot.py",
    "tests/test_compiled.py",
    "tests/test_bad_input.py",
)


def _build_fast() -> ModuleType:
    spec = importlib.util.spec_from_file_location("build_fast", ROOT / "tools" / "build_fast.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_checkout_says_which_referee_is_in_use() -> None:
    # Compiled exactly where the build's extensions lie beside the sources.
    assert compiled() == bool(_build_fast().extensions(ROOT))
    said = invoke("--version").stdout
    assert said.startswith("ombre-workbench ")
    assert ("(compiled referee)" in said) == compiled()


def test_a_copy_goes_on_independently() -> None:
    deal = Deal(load_ruleset("quadrille"), seed=3)
    while deal.phase != "play":
        deal.apply(deal.legal_actions()[0])
    deal.apply(deal.legal_actions()[0])
    other = deal.copy()
    assert type(other) is Deal and other.history == deal.history
    assert other.hands == deal.hands and other.hands is not deal.hands
    other.apply(other.legal_actions()[0])
    assert len(other.history) == len(deal.history) + 1
    assert other.trick != deal.trick


def _ignore(folder: str, names: list[str]) -> set[str]:
    skip = {".git", ".venv", "build", "__pycache__", ".mypy_cache", ".pytest_cache"}
    skip |= {".ruff_cache", ".hypothesis", "out", "fuzz-failures"}
    return {n for n in names if n in skip or n.endswith((".so", ".pyd", ".pyc"))}


@pytest.mark.slow
@pytest.mark.timeout(1800)  # a build (a minute or two) and a few hundred tests, one core
def test_the_compiled_referee_passes_the_referee_tests(tmp_path: Path) -> None:
    if importlib.util.find_spec("mypyc") is None or shutil.which("cc") is None:
        pytest.skip("mypyc (mypy) or a C compiler is missing")
    copy = tmp_path / "checkout"
    shutil.copytree(ROOT, copy, ignore=_ignore)
    env = {**os.environ, "PYTHONPATH": str(copy), "OMBRE_CACHE_DIR": str(tmp_path / "cache")}
    env.pop("PYTHONPYCACHEPREFIX", None)
    built = subprocess.run(
        [sys.executable, "tools/build_fast.py"], cwd=copy, env=env, capture_output=True, text=True
    )
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    said = subprocess.run(
        [sys.executable, "-m", "engine", "--version"], cwd=copy, env=env, capture_output=True
    )
    assert b"(compiled referee)" in said.stdout, said
    tests = sorted(str(p.relative_to(copy)) for g in COMPILED_TESTS for p in copy.glob(g))
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-m",
            "not slow and not browser and not network",
            *tests,
        ],
        cwd=copy,
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout[-5000:] + done.stderr[-2000:]
    assert "[100%]" in done.stdout  # they ran (the suite's -q twice prints no summary line)

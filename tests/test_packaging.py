"""A real, non-editable install: the wheel must carry the rule files, variants and schema.

Builds and installs the project into a fresh virtual environment (``pip install .`` from a copy
of the sources, so the checkout is left untouched), then runs the installed ``ombre`` from
another folder. It needs PyPI for the build backend and the dependencies, so it is marked
``network``: deselect it offline with ``pytest -m "not network"``.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SOURCES = [
    "engine",
    "rules",
    "variants",
    "templates",
    "claims",
    "sources",
    "pyproject.toml",
    "README.md",
]


def _run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, capture_output=True, text=True, cwd=cwd, timeout=240, check=False)


@pytest.mark.network
def test_wheel_install_finds_rulesets_and_schema(tmp_path: Path) -> None:
    source = tmp_path / "src"
    source.mkdir()
    for name in SOURCES:
        path = ROOT / name
        if path.is_dir():
            shutil.copytree(path, source / name, ignore=shutil.ignore_patterns("__pycache__"))
        elif path.exists():
            shutil.copy2(path, source / name)
    venv = tmp_path / "venv"
    base = getattr(sys, "_base_executable", sys.executable)
    made = _run([base, "-m", "venv", "--without-pip", str(venv)], tmp_path)
    assert made.returncode == 0, made.stderr
    python = venv / "bin" / "python"
    # The test environment's pip installs into the fresh venv (pip >= 22.3: --python).
    installed = _run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet", str(source)],
        tmp_path,
    )
    if installed.returncode != 0 and "connection" in installed.stderr.lower():
        pytest.skip("PyPI is not reachable")
    assert installed.returncode == 0, installed.stderr

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    ombre = venv / "bin" / "ombre"
    listed = _run([str(ombre), "list", "--json"], elsewhere)
    assert listed.returncode == 0, listed.stderr
    rows = json.loads(listed.stdout)
    by_id = {row["id"]: row for row in rows}
    assert {"ombre", "quadrille", "quadrille-a-trois", "mediateur"} <= set(by_id)
    assert by_id["quadrille"]["kind"] == "ruleset"
    assert "quadrille-four-trick-bete" in by_id
    site = Path(by_id["quadrille"]["path"])
    assert site.is_file() and site.is_relative_to(venv)

    validated = _run([str(ombre), "validate", "--json"], elsewhere)
    assert validated.returncode == 0, validated.stdout + validated.stderr
    assert json.loads(validated.stdout) == {"valid": True, "errors": []}

    probe = _run(
        [
            str(python),
            "-c",
            "import engine, engine.rules.loader as l; print(engine.__file__); print(l.schema_path())",
        ],
        elsewhere,
    )
    assert probe.returncode == 0, probe.stderr
    package_file, schema = probe.stdout.splitlines()
    assert Path(package_file).is_relative_to(venv), "the editable checkout was imported"
    assert Path(schema).is_file()
    assert json.loads(Path(schema).read_text(encoding="utf-8"))["title"]

    cards = _run([str(ombre), "cards", "l-hombre", "--trump", "spades", "--json"], elsewhere)
    assert cards.returncode == 0, cards.stderr
    assert json.loads(cards.stdout)["trumps"][:3] == ["As", "2s", "Ac"]

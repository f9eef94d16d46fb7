"""The command's start (engine/startup.py): a help screen asked for again is printed from the
cache, byte for byte and with its exit status, without importing typer; any other command, a
completion request or ``OMBRE_NO_CACHE`` goes the usual way. (Its speed is measured by
benchmarks/bench_startup.py, not here.)"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine import startup

# slow: starts fresh interpreters to measure what the command line loads and keeps.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent


def _run(
    args: list[str], cache: Path, cwd: Path = ROOT, **env: str
) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "engine", *args],
        capture_output=True,
        cwd=cwd,
        env={**os.environ, "OMBRE_CACHE_DIR": str(cache), **env},
        timeout=120,
        check=False,
    )


def _probe(code: str, cache: Path) -> subprocess.CompletedProcess[str]:
    """Runs ``code`` in a fresh interpreter with the cache folder ``cache``."""
    return subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "OMBRE_CACHE_DIR": str(cache)},
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize("args", [["--help"], [], ["validate", "--help"], ["nosuch", "-h"]])
def test_a_help_screen_seen_before_is_the_same_bytes_and_status(
    tmp_path: Path, args: list[str]
) -> None:
    first = _run(args, tmp_path)
    again = _run(args, tmp_path)
    plain = _run(args, tmp_path, OMBRE_NO_CACHE="1")
    assert (again.returncode, again.stdout, again.stderr) == (
        first.returncode,
        first.stdout,
        first.stderr,
    )
    assert (plain.returncode, plain.stdout, plain.stderr) == (
        first.returncode,
        first.stdout,
        first.stderr,
    )
    assert (first.returncode == 0) == (args in (["--help"], ["validate", "--help"]))
    assert b"Usage" in first.stdout + first.stderr
    assert list((tmp_path / "help").iterdir())


def test_the_second_time_typer_is_not_imported(tmp_path: Path) -> None:
    _run(["--help"], tmp_path)
    probe = (
        "import atexit, sys\n"
        "atexit.register(lambda: print('typer' in sys.modules, file=sys.stderr))\n"
        "sys.argv = ['ombre', '--help']\n"
        "from engine.startup import replay_cached\n"
        "replay_cached()\n"
        "print('not kept')\n"
    )
    done = _probe(probe, tmp_path)
    assert done.returncode == 0 and "Usage" in done.stdout and "not kept" not in done.stdout
    assert done.stderr.strip() == "False"


def test_only_help_requests_are_kept(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("OMBRE_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("OMBRE_NO_CACHE", raising=False)
    assert startup.help_key(["--help"]) is not None
    assert startup.help_key(["show", "-h"]) == startup.help_key(["show", "-h"])
    for argv in (["validate"], ["show", "quadrille"], ["list", "--json"], ["--version"]):
        assert startup.help_key(argv) is None, argv
    assert startup.help_key(["--json", "--help"]) is None  # an option: the usual way
    # Every input the screen depends on is in the key: the width, the colour, the folder.
    key = startup.help_key(["--help"])
    monkeypatch.setenv("COLUMNS", "57")
    assert startup.help_key(["--help"]) != key
    monkeypatch.setenv("NO_COLOR", "1")
    narrow = startup.help_key(["--help"])
    monkeypatch.chdir(tmp_path)
    assert startup.help_key(["--help"]) != narrow
    monkeypatch.setenv("_OMBRE_COMPLETE", "complete_bash")  # shell completion: never kept
    assert startup.help_key(["--help"]) is None
    monkeypatch.delenv("_OMBRE_COMPLETE")
    monkeypatch.setenv("OMBRE_NO_CACHE", "1")
    assert startup.help_key(["--help"]) is None


def test_a_failure_is_never_kept(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("OMBRE_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("OMBRE_NO_CACHE", raising=False)

    def broken() -> None:
        print("half a screen")
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError):
        startup.run(broken, ["--help"])
    assert not (tmp_path / "help").exists() or not list((tmp_path / "help").iterdir())

    def fine() -> None:
        print("a screen")
        raise SystemExit(0)

    with pytest.raises(SystemExit):
        startup.run(fine, ["--help"])
    with pytest.raises(SystemExit) as again:
        startup.run(broken, ["--help"])  # printed from the cache: broken is not called
    assert again.value.code == 0


# ombre validate: a report of every file valid, asked for again, is printed from the cache --
# only while every file it read, and every folder it looked in, is as it was.

VALID = "tests/rule_files/valid/quadrille-small-change.yaml"
INVALID = "tests/rule_files/invalid/delete-missing.yaml"


def _same(a: subprocess.CompletedProcess[bytes], b: subprocess.CompletedProcess[bytes]) -> bool:
    return (a.returncode, a.stdout, a.stderr) == (b.returncode, b.stdout, b.stderr)


@pytest.mark.parametrize(
    ("args", "status"),
    [
        (["validate", "rules/quadrille.yaml"], 0),
        (["validate", VALID], 0),
        (["validate", "--json", VALID], 0),
        (["validate", "tests/rule_files/valid"], 0),
        (["validate", "ombre"], 0),
        (["validate", INVALID], 1),
        (["validate", INVALID, "--json"], 1),
        (["validate", "tests/rule_files/invalid/no-such-file.yaml"], 2),
        (["validate", "--json", "no-such-ruleset"], 2),
        (["validate", "rules/quadrille.yaml", "--strict"], 2),
    ],
)
def test_a_validation_asked_again_is_the_same_bytes_and_status(
    tmp_path: Path, args: list[str], status: int
) -> None:
    first = _run(args, tmp_path)
    again = _run(args, tmp_path)
    plain = _run(args, tmp_path, OMBRE_NO_CACHE="1")
    assert first.returncode == status, first.stderr
    assert _same(again, first) and _same(plain, first)
    kept = list((tmp_path / "validate").glob("*.bin")) if (tmp_path / "validate").exists() else []
    # Only a report of every file valid is kept; problems and usage errors are made afresh.
    assert bool(kept) == (status == 0)


def _validate_twice(path: Path, cache: Path) -> tuple[int, bytes]:
    """Validates ``path`` through the cache, then without it; the two must agree."""
    through = _run(["validate", str(path)], cache)
    plain = _run(["validate", str(path)], cache, OMBRE_NO_CACHE="1")
    assert _same(through, plain)
    return through.returncode, through.stdout + through.stderr


def test_a_kept_validation_is_not_used_once_a_file_it_read_has_changed(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    parent = tmp_path / "parent.yaml"
    child = tmp_path / "child.yaml"
    parent.write_bytes(
        (ROOT / VALID).read_bytes().replace(b"../../../engine", str(ROOT / "engine").encode())
    )
    child.write_text(
        "id: child-of-small-change\nname: A child\nextends: ./parent.yaml\n"
        "summary: A test variant over a file beside it.\n",
        encoding="utf-8",
    )
    assert _validate_twice(child, cache)[0] == 0
    assert list((cache / "validate").glob("*.bin"))
    assert _validate_twice(child, cache)[0] == 0  # printed from the cache
    # The parent (read through the extends chain, not named) changes: the report is made again.
    parent.write_text(parent.read_text(encoding="utf-8") + "bogus_key: 1\n", encoding="utf-8")
    status, text = _validate_twice(child, cache)
    assert status == 1 and b"bogus_key" in text


def test_a_kept_validation_is_not_used_once_a_path_would_find_another_file(
    tmp_path: Path,
) -> None:
    # ``extends: p.yaml`` looks beside the file first, then in the working folder: the report
    # kept while only the second existed no longer holds once the first appears.
    cache, work = tmp_path / "cache", tmp_path / "work"
    (work / "sub").mkdir(parents=True)
    (work / "p.yaml").write_bytes((ROOT / VALID).read_bytes())
    child = work / "sub" / "child.yaml"
    child.write_text(
        "id: child-of-small-change\nname: A child\nextends: p.yaml\n"
        "summary: A test variant over a file in the working folder.\n",
        encoding="utf-8",
    )

    def status() -> int:
        through = _run(["validate", str(child)], cache, cwd=work)
        assert _same(through, _run(["validate", str(child)], cache, cwd=work, OMBRE_NO_CACHE="1"))
        return through.returncode

    assert status() == 0 and status() == 0
    (work / "sub" / "p.yaml").write_bytes((ROOT / INVALID).read_bytes())
    assert status() == 1


def test_a_kept_validation_of_a_folder_sees_a_new_file(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    folder = tmp_path / "rules"
    folder.mkdir()
    (folder / "a.yaml").write_bytes((ROOT / VALID).read_bytes())
    assert _validate_twice(folder, cache) == _validate_twice(folder, cache)
    (folder / "b.yml").write_bytes((ROOT / INVALID).read_bytes())
    status, text = _validate_twice(folder, cache)
    assert status == 1 and b"b.yml" in text


def test_a_kept_validation_imports_neither_typer_nor_the_reader(tmp_path: Path) -> None:
    _run(["validate", VALID], tmp_path)
    probe = (
        "import atexit, sys\n"
        "heavy = ('typer', 'click', 'rich', 'yaml', 'jsonschema', 'jinja2', 'engine.rules.loader',"
        " 'engine.web', 'pyspiel')\n"
        "atexit.register(lambda: print(sorted(m for m in heavy if m in sys.modules),"
        " file=sys.stderr))\n"
        "from engine.startup import run\n"
        f"run(lambda: print('not kept'), ['validate', {VALID!r}])\n"
    )
    done = _probe(probe, tmp_path)
    assert done.returncode == 0 and done.stdout == "1 file valid\n", done.stdout
    assert done.stderr.strip() == "[]"


def test_only_validations_without_other_options_are_keyed(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("OMBRE_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("OMBRE_NO_CACHE", raising=False)
    assert startup.validate_key(["validate", "x.yaml"]) is not None
    assert startup.validate_key(["validate"]) is not None
    assert startup.validate_key(["validate", "x.yaml"]) != startup.validate_key(["validate", "y"])
    assert startup.validate_key(["validate", "--json"]) != startup.validate_key(["validate"])
    for argv in (["validate", "-h"], ["validate", "--", "x"], ["show", "x"], ["validate", "-x"]):
        assert startup.validate_key(argv) is None, argv
    key = startup.validate_key(["validate"])
    monkeypatch.chdir(tmp_path)
    assert startup.validate_key(["validate"]) != key  # the names are shown relative to it
    monkeypatch.setenv("OMBRE_NO_CACHE", "1")
    assert startup.validate_key(["validate"]) is None

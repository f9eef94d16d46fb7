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

ROOT = Path(__file__).resolve().parent.parent


def _run(args: list[str], cache: Path, **env: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "engine", *args],
        capture_output=True,
        cwd=ROOT,
        env={**os.environ, "OMBRE_CACHE_DIR": str(cache), **env},
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
    done = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "OMBRE_CACHE_DIR": str(tmp_path)},
        timeout=120,
        check=False,
    )
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

"""Every output option refuses a symbolic link, a device or a FIFO unless --force, as
--record does: no page is written into a link's target, a device, or a FIFO (where the
write would wait for ever)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

runner = CliRunner()
RECORD = Path(__file__).parent / "records" / "quadrille-misdeal-faced.yaml"


def ombre(*args: str):  # type: ignore[no-untyped-def]
    from engine.cli import app

    return runner.invoke(app, list(args))


def _commands(target: Path) -> list[list[str]]:
    return [
        ["replay", str(RECORD), "--html", str(target)],
        ["replay", str(RECORD), "--md", str(target)],
        [
            "simulate",
            "quadrille",
            "--against",
            "quadrille-a-trois",
            "-n",
            "2",
            "--svg",
            str(target),
        ],
        [
            "simulate",
            "quadrille",
            "--against",
            "quadrille-a-trois",
            "-n",
            "2",
            "--html",
            str(target),
        ],
        ["docs", "--out", str(target), "quadrille"],
    ]


@pytest.mark.parametrize("index", range(5))
def test_a_symbolic_link_is_refused_and_its_target_untouched(tmp_path: Path, index: int) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me\n")
    link = tmp_path / "out"
    link.symlink_to(victim)
    result = ombre(*_commands(link)[index])
    assert result.exit_code != 0 and "symbolic link" in result.output
    assert victim.read_text() == "keep me\n"


@pytest.mark.parametrize("index", range(4))
def test_a_fifo_is_refused_at_once(tmp_path: Path, index: int) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    result = ombre(*_commands(fifo)[index])  # before the fix: blocked for ever
    assert result.exit_code != 0 and "a FIFO" in result.output


def test_a_device_is_refused_and_force_writes_through_a_link(tmp_path: Path) -> None:
    result = ombre("replay", str(RECORD), "--md", "/dev/null")
    assert result.exit_code != 0 and "a device" in result.output
    victim = tmp_path / "page.md"
    victim.write_text("old\n")
    link = tmp_path / "link.md"
    link.symlink_to(victim)
    forced = ombre("replay", str(RECORD), "--md", str(link), "--force")
    assert forced.exit_code == 0, forced.output
    assert victim.read_text() != "old\n"

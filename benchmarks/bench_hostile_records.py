"""Hostile records: how long ``ombre replay`` takes, and how much memory, to refuse a record far
larger than any game (issue 20), next to an ordinary record.

Writes each record into a temporary folder and runs ``ombre replay`` on it in a fresh process,
reporting wall-clock seconds and that process's peak resident memory (``ru_maxrss``). Prints a
markdown table; asserts nothing.

    python benchmarks/bench_hostile_records.py
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CARDS = ["As", "Kh", "Qd", "Jc", "7s", "5h"]


def _hand(n: int) -> str:
    return "[" + ",".join(CARDS[i % len(CARDS)] for i in range(n)) + "]"


def records() -> dict[str, str]:
    """Returns the records measured, by name: each just under the 4 MiB limit but the first."""
    one_hand = (
        "ruleset: quadrille\ndealer: 0\nhands:\n- "
        + _hand(1_390_000)
        + "\n- []\n- []\n- []\ntalon: []\nactions: []\n"
    )
    many_actions = (
        "ruleset: quadrille\nseed: 1\nactions: [" + ",".join(["'1 pass'"] * 400_000) + "]\n"
    )
    many_deals = "ruleset: quadrille\nseed: 1\ndeals:\n" + "".join(
        "- {actions: ['1 pass', '2 pass', '3 pass', '0 pass']}\n" for _ in range(70_000)
    )
    return {
        "shipped record (ombre-entrada-win)": (
            ROOT / "tests" / "records" / "ombre-entrada-win.yaml"
        ).read_text(encoding="utf-8"),
        "a hand of 1,390,000 cards": one_hand,
        "a deal of 400,000 actions": many_actions,
        "a party of 70,000 deals": many_deals,
    }


def measure(path: Path) -> tuple[float, float, int, str]:
    """Runs ``ombre replay`` on a file; returns seconds, peak MiB, exit status, first line."""
    start = time.perf_counter()
    with tempfile.TemporaryFile() as out:
        child = subprocess.Popen(
            [sys.executable, "-m", "engine.cli", "replay", str(path)],
            stdout=out,
            stderr=subprocess.STDOUT,
        )
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
        seconds = time.perf_counter() - start
        out.seek(0)
        lines = out.read().decode("utf-8", "replace").strip().splitlines()
    return seconds, usage.ru_maxrss / 1024, child.returncode, lines[0] if lines else ""


def main() -> None:
    print("| record | bytes | seconds | peak MiB | exit | first line |")
    print("| --- | ---: | ---: | ---: | ---: | --- |")
    with tempfile.TemporaryDirectory(prefix="ombre-bench-") as tmp:
        for name, text in records().items():
            path = Path(tmp) / "record.yaml"
            path.write_text(text, encoding="utf-8")
            seconds, mib, status, first = measure(path)
            shown = first.replace(str(path), "record.yaml")[:110]
            print(
                f"| {name} | {len(text.encode())} | {seconds:.2f} | {mib:.0f} | {status} | {shown} |"
            )


if __name__ == "__main__":
    main()

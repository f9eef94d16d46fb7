"""Runs the steps of a test tier one after another and prints how long each took, so that a
slowdown shows at the end of every run (``make test``, ``make check``).

    python tools/timed.py TIER NAME 'COMMAND' [NAME 'COMMAND' ...]

Stops at the first step that fails and exits with its status; the timings of the steps that ran
are printed either way.
"""

from __future__ import annotations

import shlex
import subprocess
import sys
import time


def main(argv: list[str]) -> int:
    if len(argv) < 3 or len(argv) % 2 == 0:
        print("usage: timed.py TIER NAME COMMAND [NAME COMMAND ...]", file=sys.stderr)
        return 2
    tier, steps = argv[0], list(zip(argv[1::2], argv[2::2], strict=True))
    took: list[tuple[str, float, int]] = []
    status = 0
    for name, command in steps:
        start = time.monotonic()
        status = subprocess.call(shlex.split(command))
        took.append((name, time.monotonic() - start, status))
        if status != 0:
            break
    total = sum(seconds for _, seconds, _ in took)
    print(
        f"\n{tier}: " + ", ".join(f"{n} {s:.0f} s" for n, s, _ in took) + f"; total {total:.0f} s"
    )
    if status != 0:
        print(f"{tier}: {took[-1][0]} failed (exit {status})")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""Prints the whole-process time of the documents: every document for every ruleset and variant
in both formats (``ombre docs`` twice), and ``ombre show`` (the issue's targets: under 2 s for
all the documents; ``show`` as fast as before it was rendered from templates).

    python benchmarks/bench_docs.py [RUNS]

Each figure is the best and the median of RUNS runs (default 5): the machine is shared, so the
best run is the one least disturbed.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OMBRE = [sys.executable, "-m", "engine.cli"]


def timed(args: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(args, check=True, capture_output=True, cwd=ROOT)
    return time.perf_counter() - start


def report(label: str, samples: list[float]) -> None:
    print(f"{label:<40} best {min(samples):.3f} s   median {statistics.median(samples):.3f} s")


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    with tempfile.TemporaryDirectory() as tmp:
        both, md, html = [], [], []
        for _ in range(runs):
            a = timed([*OMBRE, "docs", "--out", f"{tmp}/md"])
            b = timed([*OMBRE, "docs", "--out", f"{tmp}/html", "--format", "html"])
            md.append(a)
            html.append(b)
            both.append(a + b)
        report("ombre docs (md)", md)
        report("ombre docs --format html", html)
        report("all documents, both formats", both)
        pages = len(list(Path(tmp).rglob("*.md"))) + len(list(Path(tmp).rglob("*.html")))
        print(f"{'pages written':<40} {pages}")
    report("ombre show quadrille", [timed([*OMBRE, "show", "quadrille"]) for _ in range(runs)])


if __name__ == "__main__":
    main()

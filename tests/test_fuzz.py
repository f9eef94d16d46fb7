"""A bounded fuzzing run inside `make test`: a few hundred mutated rule files and records.

Every case must be refused cleanly or play (``tests/fuzz.py`` gives the oracles); the long run
is ``make fuzz N=10000``. The seed is fixed, so a failure here is reproducible with
``python -m tests.fuzz --seed 20261130 --rules 200 --records 200 --jobs 1``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests import fuzz

# slow: a fuzz campaign of mutated rule files and records.
pytestmark = pytest.mark.slow

SEED = 20261130
CASES = 200


@pytest.mark.parametrize("kind", ["rules", "records"])
def test_fuzzed_inputs_are_refused_cleanly_or_play(kind: str, tmp_path: Path) -> None:
    make = fuzz.rule_case if kind == "rules" else fuzz.record_case
    verdicts: dict[str, int] = {}
    failures = []
    for index in range(CASES):
        case = make(SEED, index)
        verdict, trace = fuzz.run_case(case, tmp_path)
        verdicts[verdict] = verdicts.get(verdict, 0) + 1
        if trace is not None:
            failures.append(f"case {index}:\n{trace}")
    assert not failures, "\n".join(failures[:3])
    # The generators reach both sides of the oracle.
    assert verdicts.get("refused", 0) > CASES // 10
    accepted = verdicts.get("plays", 0) + verdicts.get("replayed", 0) + verdicts.get("illegal", 0)
    assert accepted > CASES // 10, verdicts


def test_a_failure_is_shrunk_to_a_small_reproducer(tmp_path: Path) -> None:
    """The shrinker keeps a failing input failing the same way while making it smaller."""
    bad = "id: x\nname: y\n" + "padding: 1\n" * 40 + "boom: \x00\n" + "more: 2\n" * 40
    original = fuzz.ORACLES["rules"]

    def oracle(path: Path, fresh: bool = False) -> str:
        if b"\x00" in path.read_bytes():
            raise ZeroDivisionError("planted")
        return "refused"

    fuzz.ORACLES["rules"] = oracle
    try:
        small = fuzz.shrink(fuzz.Case("rules", "planted", bad), tmp_path)
    finally:
        fuzz.ORACLES["rules"] = original
    assert small.text == b"\x00"

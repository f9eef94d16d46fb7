"""The command line against inputs built to break it (issue 20): a deep ``extends:`` chain, a
symbolic-link loop, a record far larger than any game, and a number too long for ``int()``.
Each is refused with a located message, never a traceback."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine.rules.loader import MAX_CHAIN
from tests.cli_helpers import invoke

ROOT = Path(__file__).resolve().parent.parent


def _chain(folder: Path, length: int) -> Path:
    """Writes c0 ... c{length-1}, each extending the one before (c0 extends Quadrille)."""
    for i in range(length):
        parent = ROOT / "rules" / "quadrille.yaml" if i == 0 else f"c{i - 1}.yaml"
        (folder / f"c{i}.yaml").write_text(
            f"id: c{i}\nname: Chain {i}\nextends: {parent}\nsummary: Link {i}.\n",
            encoding="utf-8",
        )
    return folder / f"c{length - 1}.yaml"


def test_a_500_deep_extends_chain_is_refused_at_its_extends(tmp_path: Path) -> None:
    # It ran into a RecursionError from about 450 deep (OMBRE_NO_CACHE=1 ombre validate).
    last = _chain(tmp_path, 500)
    env = {**os.environ, "OMBRE_NO_CACHE": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "engine.cli", "validate", "--json", str(last)],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert "Traceback" not in done.stderr, done.stderr[-2000:]
    assert done.returncode == 1
    (error,) = json.loads(done.stdout)["errors"]
    assert error["code"] == "extends/too-deep"
    assert error["file"].endswith("c499.yaml")
    assert (error["line"], error["column"]) == (3, 1)
    assert f"more than {MAX_CHAIN} files" in error["message"]


def test_a_chain_at_the_limit_is_resolved(tmp_path: Path) -> None:
    # quadrille.yaml and c0 ... c30: MAX_CHAIN files in all.
    last = _chain(tmp_path, MAX_CHAIN - 1)
    assert invoke("validate", str(last)).exit_code == 0
    longer = _chain(tmp_path, MAX_CHAIN)
    result = invoke("validate", "--json", str(longer))
    assert result.exit_code == 1
    assert [e["code"] for e in json.loads(result.stdout)["errors"]] == ["extends/too-deep"]


def test_a_symbolic_link_loop_in_a_folder_is_located(tmp_path: Path) -> None:
    # ombre validate DIR ended in "RuntimeError: Symlink loop".
    (tmp_path / "a.yaml").symlink_to(tmp_path / "b.yaml")
    (tmp_path / "b.yaml").symlink_to(tmp_path / "a.yaml")
    (tmp_path / "ok.yaml").write_bytes((ROOT / "rules" / "quadrille.yaml").read_bytes())
    result = invoke("validate", "--json", str(tmp_path))
    assert result.exit_code == 1
    errors = json.loads(result.stdout)["errors"]
    assert sorted(Path(e["file"]).name for e in errors) == ["a.yaml", "b.yaml"]
    assert all(e["code"] == "io/read" and "symbolic links" in e["message"] for e in errors)
    # Named on its own, the loop is refused the same way (not "no such file").
    result = invoke("validate", "--json", str(tmp_path / "a.yaml"))
    assert result.exit_code == 1
    assert json.loads(result.stdout)["errors"][0]["code"] == "io/read"


def test_a_loop_among_the_rule_files_does_not_break_the_registry(tmp_path: Path) -> None:
    from engine.rules.loader import Registry

    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "quadrille.yaml").write_bytes((ROOT / "rules" / "quadrille.yaml").read_bytes())
    (rules / "loop.yaml").symlink_to(rules / "loop.yaml")
    registry = Registry(rules, tmp_path / "variants")
    assert registry.find("quadrille") is not None
    assert registry.find("loop") is None
    problems = registry.validate(registry.known_entries())
    assert [p.code for p in problems] == ["io/read"]


# Numbers typed at the table and to the scorekeeper.

HUGE = "9" * 5000  # int() refuses more than 4,300 digits with a ValueError


@pytest.mark.parametrize("answer", [HUGE, "0" * 5000 + "99", "1" + "0" * 40])
def test_a_huge_number_at_the_table_is_answered_with_a_hint(answer: str) -> None:
    from engine.table import EXIT_UNFINISHED

    result = invoke("play", "quadrille", "--seed", "1", stdin=f"{answer}\n")
    assert result.exit_code == EXIT_UNFINISHED  # the input ended, with the answer refused
    assert "Choose 1 to" in result.stdout


def test_small_number_reads_only_ascii_digits_of_a_sensible_length() -> None:
    from engine.actions import SMALL_DIGITS, small_number

    assert small_number("0") == 0 and small_number("007") == 7
    assert small_number("9" * SMALL_DIGITS) == int("9" * SMALL_DIGITS)
    for text in ("", "-1", "+1", " 1", "1.0", "²", "⁵", "٣", "１", "9" * (SMALL_DIGITS + 1), HUGE):
        assert small_number(text) is None, text


@pytest.mark.parametrize("line", [f"{HUGE} pass", "² pass", "⁵ play Kd"])
def test_a_record_action_with_a_hostile_seat_is_a_notation_error(line: str) -> None:
    from engine.actions import parse_line
    from engine.errors import NotationError

    with pytest.raises(NotationError):
        parse_line(line)


@pytest.mark.parametrize("bad", ["²", "⁵", HUGE])
def test_the_scorekeeper_asks_again_for_a_hostile_number(bad: str) -> None:
    # isdigit() accepts "²" and int() then fails; 5,000 digits fail int() too.
    from engine import load_ruleset
    from engine.scoresheet import Evening
    from engine.scoreterm import run_score

    evening = Evening(load_ruleset("quadrille"), {}, 0)
    said: list[str] = []
    answers = iter(
        # contract, declarer (hostile, then 1), trumps, called, holder (hostile, then 3),
        # tricks (hostile, then good), matadors (hostile, then 0), vole
        ["ask", bad, "1", "clubs", "Kd", bad, "3", f"{bad} 3 3 3", "0 3 3 4", bad, "0", "n"]
    )
    run_score(evening, None, lambda prompt: next(answers, None), said.append)
    assert len(evening.deals) == 1
    assert evening.deals[0].result == "win"


# Records bounded by what a game can hold.


def _record_with_hand(cards: int) -> str:
    hand = ",".join(["As", "Kh", "Qd", "Jc"][i % 4] for i in range(cards))
    return f"ruleset: quadrille\ndealer: 0\nhands:\n- [{hand}]\n- []\n- []\n- []\ntalon: []\n"


def _refusal(text: str) -> tuple[str, int | None, int | None, str]:
    from engine.errors import RecordError
    from engine.records import parse_record

    with pytest.raises(RecordError) as caught:
        parse_record(text, "r.yaml")
    (p,) = caught.value.problems
    return p.code, p.line, p.column, p.message


def test_a_hand_longer_than_any_pack_is_refused_as_it_is_read() -> None:
    from engine.cards import PACK_SIZE

    code, line, column, message = _refusal(_record_with_hand(PACK_SIZE + 1))
    assert code == "yaml/too-many"
    assert (line, column) == (4, 4 + 3 * PACK_SIZE)  # the 53rd card
    assert f"at most {PACK_SIZE} cards" in message


def test_a_four_mebibyte_hand_is_refused_without_building_it() -> None:
    # 1.39 million cards: it took 967 MiB and 8.8 s to refuse (at the deal's setup).
    import tracemalloc

    text = _record_with_hand(1_390_000)
    tracemalloc.start()
    try:
        code, _, _, _ = _refusal(text)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert code == "yaml/too-many"
    assert peak < 64 * 2**20, f"{peak / 2**20:.0f} MiB"


@pytest.mark.parametrize(
    ("text", "where"),
    [
        (
            "ruleset: quadrille\nseed: 1\nactions: [" + ",".join(["'1 pass'"] * 2001) + "]\n",
            "2000 actions",
        ),
        (
            "ruleset: quadrille\ndeals:\n" + "- {seed: 1}\n" * 10_001,
            "10000 deals",
        ),
        ("ruleset: quadrille\ndealer: 0\nhands: [" + ",".join(["[]"] * 7) + "]\n", "6 hands"),
        (
            "ruleset: quadrille\ndealer: 0\ntalon: [" + ",".join(["As"] * 53) + "]\nseed: 1\n",
            "52 cards",
        ),
        ("ruleset: quadrille\nseed: 1\nextra: [" + ",".join(["1"] * 65) + "]\n", "64 items"),
        (
            "ruleset: quadrille\ndeals:\n- seed: 1\n  actions: ["
            + ",".join(["'1 pass'"] * 2001)
            + "]\n",
            "2000 actions",
        ),
    ],
)
def test_record_limits(text: str, where: str) -> None:
    code, line, _, message = _refusal(text)
    assert code == "yaml/too-many" and line is not None
    assert where in message


def test_records_at_the_limits_are_read() -> None:
    from engine.records import MAX_ACTIONS, parse_record

    actions = ",".join(["'1 pass'"] * MAX_ACTIONS)
    record = parse_record(f"ruleset: quadrille\nseed: 1\nactions: [{actions}]\n")
    assert len(record.deals[0].actions) == MAX_ACTIONS

"""Hostile input: every file, record, command line and API call a hostile user might try is
refused with a clear, located message and exit status 1 or 2 (or the documented error from the
API), never a traceback; and what ``ombre validate`` accepts, the referee can play."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from typer.testing import Result

from engine import load_ruleset
from engine.errors import NotationError, RecordError
from engine.records import LIMITS as RECORD_LIMITS
from engine.records import DealRecord, Record, parse_record, read_record, write_record
from engine.referee import Deal
from engine.rules.loader import Registry
from engine.rules.reader import MAX_BYTES, MAX_DEPTH
from tests.cli_helpers import invoke

ROOT = Path(__file__).resolve().parent.parent
RECORD = (ROOT / "tests" / "records" / "ombre-entrada-win.yaml").read_text(encoding="utf-8")


def problems(path: Path) -> list[dict[str, object]]:
    """Validates one file; returns its problems (the command must exit 1 with JSON errors)."""
    result = invoke("validate", str(path), "--json")
    assert result.exit_code == 1, result.output
    errors = json.loads(result.stdout)["errors"]
    assert errors
    return errors  # type: ignore[no-any-return]


def variant(tmp_path: Path, body: str, name: str = "v.yaml") -> Path:
    path = tmp_path / name
    path.write_text(body, encoding="utf-8")
    return path


# Validation guarantees play.


@pytest.mark.parametrize(
    ("body", "path"),
    [
        ("extends: quadrille\ndeal:\n  talon: 0.0\n", "$.deal.talon"),
        ("extends: quadrille\ndeal:\n  packets: [[4.0, 3, 3]]\n", "$.deal.packets[0][0]"),
        ("extends: ombre\nexchange:\n  first_max: 8.0\n", "$.exchange.first_max"),
        ("extends: quadrille\nplayers:\n  count: 4.0\n", "$.players.count"),
    ],
)
def test_an_integer_is_written_as_one(tmp_path: Path, body: str, path: str) -> None:
    """JSON Schema counts 3.0 as an integer; the workbench does not (counters stay ints)."""
    head = "id: v\nname: V\nsummary: s\n"
    errors = problems(variant(tmp_path, head + body))
    found = [e for e in errors if e["path"] == path]
    assert found and found[0]["code"] == "schema/type", errors
    assert found[0]["line"] is not None and "integer" in str(found[0]["message"])


def _check(tmp_path: Path, body: str, code: str) -> dict[str, object]:
    errors = problems(variant(tmp_path, "id: v\nname: V\nsummary: s\n" + body))
    found = [e for e in errors if e["code"] == code]
    assert found, errors
    assert found[0]["line"] is not None and found[0]["column"] is not None
    return found[0]


def test_trumps_required_in_a_suit_out_of_the_pack_are_refused(tmp_path: Path) -> None:
    """The favourite suit may be the suit a remove-suit option takes out: no trump to name."""
    body = (
        "extends: mediateur-couleur-favorite\n"
        "players:\n  count: 3\n"
        "options:\n"
        "  removed-suit:\n    name: Red suit out\n    kind: remove-suit\n"
        "    choices: [hearts, diamonds]\n    default: diamonds\n"
        "    basis: {evidence: conjecture}\n"
        "deal:\n  hand_size: 10\n  talon: 0\n  packets: [[4, 3, 3]]\n"
        "  basis: {evidence: conjecture}\n"
    )
    found = _check(tmp_path, body, "semantic/no-trump-suit")
    assert "removed-suit=hearts" in str(found["message"]) or "hearts" in str(found["message"])


def test_a_contract_in_a_suit_an_option_may_take_out_is_refused(tmp_path: Path) -> None:
    """A contract played in its own suit (``trump_suit``) where a remove-suit option may take
    that suit out of the pack: with it out, the deal would stop with no trump to name (found by
    the rule-file fuzzer, tests/test_properties.py, case 46842 of run 7)."""
    body = (
        "extends: quadrille-a-trois\n"
        "auction:\n  contracts:\n    sans-prendre:\n      trump_suit: hearts\n"
    )
    found = _check(tmp_path, body, "semantic/no-trump-suit")
    assert "removed-suit=hearts" in str(found["message"])
    assert str(found["path"]).endswith("sans-prendre.trump_suit")


def test_a_call_with_two_players_is_refused(tmp_path: Path) -> None:
    """Two players and a call could leave no opponent to pay or be paid (a division by zero)."""
    body = (
        "extends: quadrille\nplayers:\n  count: 2\n"
        "deal:\n  hand_size: 20\n  talon: 0\n  packets: [[10, 10]]\n"
        "  basis: {evidence: conjecture}\n"
    )
    _check(tmp_path, body, "semantic/no-opponent")


def test_a_demand_that_could_take_a_talon_card_is_refused(tmp_path: Path) -> None:
    body = "extends: mediateur\ndeclarations:\n  demand:\n    own_card: alone\n"
    found = _check(tmp_path, body, "semantic/demand-outside-hands")
    assert found["path"] == "$.declarations.demand.own_card"


def test_two_remove_suit_options_must_still_add_up(tmp_path: Path) -> None:
    """Each combination of option values is checked, not only the last option's choices."""
    body = (
        "extends: quadrille-a-trois\n"
        "options:\n"
        "  second-out:\n    name: Another suit out\n    kind: remove-suit\n"
        "    choices: [spades, clubs]\n    default: clubs\n"
        "    basis: {evidence: conjecture}\n"
    )
    found = _check(tmp_path, body, "semantic/deal-does-not-add-up")
    assert " and " in str(found["message"])


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("extends: quadrille\ndeal:\n  packets: {$remove: 5}\n", "not a number (5)"),
        ("extends: quadrille\ndeal:\n  packets: {$append: 5}\n", "not a number (5)"),
        ("extends: quadrille\ndeal:\n  packets: {$remove: " + "x" * 100_000 + "}\n", "not text"),
        ("extends: quadrille\ndeal:\n  packets: {$remove: {a: 1}}\n", "not a mapping"),
    ],
)
def test_merge_operations_are_type_checked(tmp_path: Path, body: str, message: str) -> None:
    found = _check(tmp_path, body, "extends/operation")
    assert message in str(found["message"])


# YAML: control characters, depth, size.


def test_control_characters_are_located(tmp_path: Path) -> None:
    text = (ROOT / "rules" / "ombre.yaml").read_text(encoding="utf-8")
    path = variant(tmp_path, text.replace("name:", "name: \x01", 1), "o.yaml")
    (error,) = problems(path)
    assert error["code"] == "yaml/control-character" and error["line"] == 1 + text[
        : text.index("name:")
    ].count("\n")
    assert "U+0001" in str(error["message"])


def test_control_characters_in_a_record(tmp_path: Path) -> None:
    path = tmp_path / "r.yaml"
    path.write_text(RECORD.replace("dealer:", "dealer:\x1b", 1), encoding="utf-8")
    result = invoke("replay", str(path))
    assert result.exit_code == 1 and "yaml/control-character" in result.output


@pytest.mark.parametrize("shape", ["flow", "block"])
def test_deep_nesting_is_refused_at_the_limit(tmp_path: Path, shape: str) -> None:
    depth = 900
    if shape == "flow":
        text = "id: x\nname: " + "[" * depth + "]" * depth + "\n"
    else:
        text = "id: x\n" + "".join(" " * i + "a:\n" for i in range(depth))
    (error,) = problems(variant(tmp_path, text, "deep.yaml"))
    assert error["code"] == "yaml/too-deep" and str(MAX_DEPTH) in str(error["message"])
    record = tmp_path / "deep-record.yaml"
    record.write_text(text.replace("id: x", "ruleset: ombre"), encoding="utf-8")
    with pytest.raises(RecordError):
        read_record(record)


def test_an_oversized_file_is_refused_before_it_is_read(tmp_path: Path) -> None:
    path = tmp_path / "huge.yaml"
    with path.open("wb") as handle:
        handle.truncate(MAX_BYTES + 1)  # sparse: nothing is written
    (error,) = problems(path)
    assert error["code"] == "io/too-large"
    # A record may be longer, as it grows with its deals (engine/records.py: GROWTH), but no
    # record is larger than its most deals allow.
    record = tmp_path / "huge-record.yaml"
    with record.open("wb") as handle:
        handle.truncate(RECORD_LIMITS.max_bytes() + 1)
    result = invoke("replay", str(record))
    assert result.exit_code == 1 and "io/too-large" in result.output


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_special_files_are_refused_without_hanging(tmp_path: Path) -> None:
    folder = tmp_path / "dir"
    folder.mkdir()
    os.mkfifo(folder / "fifo.yaml")
    (folder / "zero.yaml").symlink_to("/dev/zero")
    outcome: list[Result] = []
    worker = threading.Thread(
        target=lambda: outcome.append(invoke("validate", str(folder), "--json")), daemon=True
    )
    worker.start()
    worker.join(timeout=60)
    assert outcome, "ombre validate hung on a FIFO or /dev/zero"
    assert outcome[0].exit_code == 1
    codes = {e["code"] for e in json.loads(outcome[0].stdout)["errors"]}
    assert codes == {"io/not-a-file"}
    fifo = invoke("validate", str(folder / "fifo.yaml"), "--json")
    assert fifo.exit_code == 1 and "FIFO" in fifo.stdout
    replayed = invoke("replay", str(folder / "fifo.yaml"))
    assert replayed.exit_code == 1 and "FIFO" in replayed.output


# Records: seats, names, text.


@pytest.mark.parametrize("seat", ["²", "--1", "٣", "1.0"])
def test_record_seats_must_be_numbers(tmp_path: Path, seat: str) -> None:
    path = tmp_path / "r.yaml"
    path.write_text(RECORD.replace("- 1 ", f"- {seat} ", 1), encoding="utf-8")
    result = invoke("replay", str(path))
    assert result.exit_code == 1 and "record/seat" in result.output
    assert f"{path}:" in result.output


@pytest.mark.parametrize("name", ["a\\0b", "quadrille\\u0085", "\\x07"])
def test_record_ruleset_names_must_be_printable(tmp_path: Path, name: str) -> None:
    path = tmp_path / "r.yaml"
    path.write_text(RECORD.replace("ruleset: ombre", f'ruleset: "{name}"'), encoding="utf-8")
    result = invoke("replay", str(path))
    assert result.exit_code == 1 and "record/ruleset-name" in result.output


def test_a_ruleset_name_with_a_nul_is_unknown() -> None:
    with pytest.raises(NotationError):
        load_ruleset("quad\0rille")
    assert Registry().find("a\0b.yaml") is None


@pytest.mark.parametrize("text", ["a\x85b", "line\u2028sep\u2029para", "\ufeffbom", "\x7f\x01"])
def test_record_text_survives_write_and_read(text: str) -> None:
    record = Record(
        "quadrille", (DealRecord(0, seed=3, actions=("1 pass",)),), note=text, title=text
    )
    assert parse_record(write_record(record)) == record


# The command line: closed stdout, stdin that is not text.


def _ombre(*args: str, **kwargs: object) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "engine.cli", *args],
        capture_output=True,
        timeout=120,
        check=False,
        **kwargs,  # type: ignore[arg-type]
    )


@pytest.mark.parametrize(
    "args",
    [
        ["show", "quadrille"],
        # More than a pipe's buffer (64 kB), so the write after the reader left must fail.
        ["play", "quadrille", "--auto", "--deals", "60", "--seed", "1"],
    ],
)
def test_a_closed_stdout_exits_quietly(args: list[str]) -> None:
    """`ombre show quadrille | head -1` exits 0 and prints nothing on stderr."""
    with subprocess.Popen(
        [sys.executable, "-m", "engine.cli", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    ) as proc:
        assert proc.stdout is not None and proc.stderr is not None
        first = proc.stdout.readline()
        proc.stdout.close()  # the reader goes away, as `head -1` does
        err = proc.stderr.read()
        status = proc.wait(timeout=120)
    assert status == 0, err
    assert first and err == b""


def test_stdin_that_is_not_utf8_is_read_leniently() -> None:
    env = {**os.environ, "LC_ALL": "C.UTF-8", "PYTHONIOENCODING": "utf-8:strict"}
    done = _ombre("play", "ombre", "--seed", "1", input=b"\xff\xfe\x80 pass\n" * 3, env=env)
    assert b"Traceback" not in done.stderr, done.stderr.decode(errors="replace")
    assert done.returncode in (0, 1, 2, 3)


@pytest.mark.parametrize(
    "answers",
    [
        "²\n",
        "٣\n",
        "\x00\n",
        "\x1b[2J\n",
        "99999999999999999999\n",
        "-1\n",
        "1.5\n",
        "\ufeffpass\n",
        "\r\n\r\n",
        "bid\n",
        "discard As As\n",
        "x" * 100_000 + "\n",
        "",
    ],
)
def test_hostile_answers_at_the_table(answers: str) -> None:
    """Whatever is typed at `ombre play`, the table answers in words or stops cleanly."""
    result = invoke("play", "ombre", "--seed", "3", stdin=answers)
    # 3: the input ended before the game was over (the game is unfinished).
    assert result.exit_code in (0, 1, 3)


# The API on misuse: the documented error, never an IndexError, AttributeError or TypeError.


@pytest.mark.parametrize("seat", [99, 4, -1])
def test_view_of_a_seat_out_of_range_is_refused(seat: int) -> None:
    deal = Deal(load_ruleset("quadrille"), seed=1)
    with pytest.raises(NotationError):
        deal.view(seat)


def test_apply_none_is_refused() -> None:
    deal = Deal(load_ruleset("quadrille"), seed=1)
    with pytest.raises(NotationError):
        deal.apply(None)  # type: ignore[arg-type]


@pytest.mark.parametrize("dealer", [1.0, "1", True])
def test_a_dealer_that_is_not_a_seat_number_is_refused(dealer: object) -> None:
    with pytest.raises(NotationError):
        Deal(load_ruleset("quadrille"), seed=1, dealer=dealer)  # type: ignore[arg-type]

"""The command line: ``ombre list``, ``validate``, ``show`` and ``cards``, text and ``--json``.

The JSON shapes are the public contract of ``spec/interface.md``; exit statuses are 0 (ok),
1 (input read but invalid) and 2 (usage error), never a traceback.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner, Result

from engine import load_ruleset
from engine.cli import EXIT_INVALID, EXIT_USAGE, CliError, _boundary, app
from engine.errors import (
    IllegalActionError,
    NotationError,
    Problem,
    RecordError,
    RuleFileError,
)
from tests.cli_helpers import invoke

ROOT = Path(__file__).resolve().parent.parent
RULESETS = ["ombre", "quadrille", "quadrille-a-trois", "mediateur"]
VARIANTS = sorted(p.stem for p in (ROOT / "variants").glob("*.yaml"))
# The canonical four and the other games of the family (rules/quintille.yaml ...).
GAMES = sorted(p.stem for p in (ROOT / "rules").glob("*.yaml"))

runner = CliRunner()


def as_json(*args: str) -> object:
    result = invoke(*args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


# ombre --help, --version


def test_help_lists_the_commands() -> None:
    result = invoke("--help")
    assert result.exit_code == 0
    # Every command of ../shared/spec/interface.md and the issues, as a row of the listing.
    listed = {line.strip(" │").split(" ")[0] for line in result.stdout.splitlines()}
    commands = "list validate show cards play replay simulate docs diff claims new serve score"
    for command in commands.split():
        assert command in listed, command


def test_no_arguments_shows_help() -> None:
    result = invoke()
    assert result.exit_code in (0, 2)
    assert "Usage" in result.output


def test_version() -> None:
    result = invoke("--version")
    assert result.exit_code == 0
    assert result.stdout.startswith("ombre-workbench ")


def test_unknown_command_and_option_are_usage_errors() -> None:
    assert invoke("nosuchcommand").exit_code == 2
    assert invoke("list", "--nosuchoption").exit_code == 2


# ombre list


def test_list_json_shape() -> None:
    rows = as_json("list")
    assert isinstance(rows, list)
    by_id = {row["id"]: row for row in rows}
    assert set(RULESETS) <= set(by_id)
    assert set(VARIANTS) <= set(by_id)
    for row in rows:
        assert {"id", "name", "kind", "extends", "path"} <= set(row)
    assert by_id["quadrille"] == {
        "id": "quadrille",
        "name": "Quadrille",
        "kind": "ruleset",
        "extends": None,
        "path": "rules/quadrille.yaml",
    }
    assert by_id["mediateur"]["extends"] == "quadrille"
    assert by_id["mediateur"]["name"] == "Médiateur"
    assert by_id["quadrille-a-trois"]["extends"] == "quadrille"
    assert by_id["ombre"]["extends"] is None
    for variant in VARIANTS:
        assert by_id[variant]["kind"] == "variant"
        assert by_id[variant]["path"] == f"variants/{variant}.yaml"
    kinds = [row["kind"] for row in rows]
    assert kinds == sorted(kinds, key=lambda k: k != "ruleset")


def test_list_text() -> None:
    result = invoke("list")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["ID", "KIND", "EXTENDS", "NAME", "FILE"]
    assert len(lines) == 1 + len(GAMES) + len(VARIANTS)
    assert any(line.startswith("quadrille-a-trois ") and "quadrille " in line for line in lines)


def test_list_does_not_depend_on_files_loaded_before_in_the_process(tmp_path: Path) -> None:
    # The registry is process-wide: a file named by path (a house rule played from a club's
    # folder) stays known to it, but `list` shows rules/ and variants/ only, whatever ran
    # before it (tests/test_table_records.py used to add three rows to test_list_text).
    variant = (ROOT / "variants" / "quadrille-four-trick-bete.yaml").read_text(encoding="utf-8")
    house = tmp_path / "house.yaml"
    house.write_text(variant.replace("id: quadrille-four-trick-bete", "id: our-house"), "utf-8")
    assert invoke("show", str(house)).exit_code == 0
    assert load_ruleset(str(house)).id == "our-house"
    listed = invoke("list", "--json")
    ids = [row["id"] for row in json.loads(listed.stdout)]
    assert "our-house" not in ids and len(ids) == len(GAMES) + len(VARIANTS)
    assert "our-house" not in invoke("list").stdout


# ombre validate


def test_validate_everything() -> None:
    result = invoke("validate")
    assert result.exit_code == 0, result.stdout
    assert result.stdout == f"{len(GAMES) + len(VARIANTS)} files valid\n"
    assert as_json("validate") == {"valid": True, "errors": []}


def test_validate_by_id_and_folder() -> None:
    assert invoke("validate", "médiateur").stdout == "1 file valid\n"
    assert invoke("validate", str(ROOT / "variants")).stdout == f"{len(VARIANTS)} files valid\n"


# ombre show


def test_show_text_has_every_section_with_evidence() -> None:
    result = invoke("show", "quadrille")
    assert result.exit_code == 0
    text = result.stdout
    for head in (
        "Players",
        "Deck",
        "Plain order",
        "Trumps",
        "Matadors",
        "Deal",
        "Contracts",
        "All pass",
        "Declare",
        "Play",
        "Vole",
        "Results",
        "Settlement",
    ):
        assert f"\n{head}" in text, head
    assert "hearts   12: As Spadille*, 7h Manille*, Ac Basto*, Ah Ponto, Kh" in text
    assert "clubs    11: As Spadille*, 2c Manille*, Ac Basto*, Kc" in text
    assert "[attested: enc-q, QUADRILLE (Jeu)]" in text
    assert "[disputed: acad, PA16]" in text  # the codille threshold
    assert "[inferred: enc-q" in text  # the jeu's amount
    assert "[conjecture: morley, p. 228]" in text  # the matadors' amount
    assert "Changes from" not in text


def test_show_a_points_game_tells_no_counters_stakes_bete_or_vole() -> None:
    """A game scored in points, where no contract may go on for the vole, reads as one."""
    text = invoke("show", "dansk-lhombre").stdout
    rules_part = text.split("Changes from")[0]
    assert "\nSettlement   in points\n" in rules_part
    for word in ("fiche", "stakes:", "sharing:", "bête:", "\nVole", "items, per opponent"):
        assert word not in rules_part, word
    counters = invoke("show", "quadrille").stdout
    assert "a fiche is" in counters and "stakes:" in counters and "\nVole" in counters


def test_show_variant_lists_its_changes_with_lines() -> None:
    result = invoke("show", "quadrille-four-trick-bete")
    assert result.exit_code == 0
    text = result.stdout
    assert "fewer than 4 tricks pays alone" in text
    assert "Changes from quadrille" in text
    lines = (ROOT / "variants" / "quadrille-four-trick-bete.yaml").read_text().splitlines()
    line = next(i + 1 for i, t in enumerate(lines) if "sole_liability_below" in t)
    assert f"variants/quadrille-four-trick-bete.yaml:{line}" in text


def test_show_quadrille_a_trois_offers_three_trump_suits() -> None:
    text = invoke("show", "quadrille-à-trois").stdout
    assert "diamonds 12" not in text
    assert "hearts   12" in text
    assert "removed-suit" in text


def test_show_json_is_the_resolved_model() -> None:
    document = as_json("show", "mediateur")
    assert isinstance(document, dict)
    assert document["id"] == "mediateur"
    assert document["kind"] == "ruleset"
    assert document["file"] == "rules/mediateur.yaml"
    assert document["extends"] == "quadrille"
    assert document["chain"] == ["quadrille", "mediateur"]
    ruleset = load_ruleset("mediateur")
    for key in ("players", "deck", "ranking", "matadors", "auction", "results", "settlement"):
        assert document[key] == json.loads(json.dumps(ruleset.data[key]))
    assert "mediateur" in document["auction"]["contracts"]  # the variant's own contract
    assert "ask" in document["auction"]["contracts"]  # inherited
    override = next(
        o for o in document["overrides"] if o["path"] == "$.auction.contracts.mediateur"
    )
    assert override["file"] == "rules/mediateur.yaml" and override["line"] > 0


@pytest.mark.parametrize("name", GAMES + VARIANTS)
def test_show_every_ruleset(name: str) -> None:
    assert invoke("show", name).exit_code == 0
    document = as_json("show", name)
    assert isinstance(document, dict)
    assert document["id"] == name


def test_show_by_path() -> None:
    document = as_json("show", str(ROOT / "tests" / "rule_files" / "valid" / "ombre-chain.yaml"))
    assert isinstance(document, dict)
    assert document["kind"] == "file"
    assert document["chain"] == ["ombre", "ombre-spadille-force", "ombre-chain"]


def test_show_unknown_ruleset_is_a_usage_error() -> None:
    result = invoke("show", "quadrile")
    assert result.exit_code == 2
    assert "did you mean 'quadrille'" in result.stderr
    assert result.stdout == ""
    result = invoke("show", "nosuch.yaml", "--json")
    assert result.exit_code == 2
    assert _json_error(result)["code"] == "usage"
    assert "no such file" in result.stderr


def test_show_invalid_file_exits_1_with_located_problems() -> None:
    fixture = ROOT / "tests" / "rule_files" / "invalid" / "wrong-type.yaml"
    result = invoke("show", str(fixture), "--json")
    assert result.exit_code == 1
    error = _json_error(result)
    assert error["code"] == "rule-file" and error["problems"][0]["line"] == 8
    assert "wrong-type.yaml:8:3: $.deal.hand_size:" in result.stderr
    assert "[schema/type]" in result.stderr


# ombre cards


def test_cards_json_is_exactly_the_spec() -> None:
    assert as_json("cards", "quadrille", "--trump", "hearts") == {
        "ruleset": "quadrille",
        "trump": "hearts",
        "trumps": ["As", "7h", "Ac", "Ah", "Kh", "Qh", "Jh", "2h", "3h", "4h", "5h", "6h"],
        "plain": {
            "spades": ["Ks", "Qs", "Js", "7s", "6s", "5s", "4s", "3s", "2s"],
            "clubs": ["Kc", "Qc", "Jc", "7c", "6c", "5c", "4c", "3c", "2c"],
            "diamonds": ["Kd", "Qd", "Jd", "Ad", "2d", "3d", "4d", "5d", "6d", "7d"],
        },
    }


@pytest.mark.parametrize("suit", ["s", "♣", "Hearts", "DIAMONDS"])
def test_cards_accepts_any_suit_notation(suit: str) -> None:
    document = as_json("cards", "hombre", "--trump", suit)
    assert isinstance(document, dict)
    assert document["ruleset"] == "ombre"
    assert document["trump"] in ("spades", "clubs", "hearts", "diamonds")
    assert len(document["trumps"]) + sum(len(v) for v in document["plain"].values()) == 40


def test_cards_text_names_the_matadors() -> None:
    result = invoke("cards", "quadrille", "--trump", "hearts")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert any("As" in line and "Spadille (matador)" in line for line in lines)
    assert any("7h" in line and "Manille (matador)" in line for line in lines)
    ponto = next(line for line in lines if "Ponto" in line)
    assert "Ah" in ponto and "matador" not in ponto
    assert "diamonds (10): Kd Qd Jd Ad 2d 3d 4d 5d 6d 7d" in lines
    assert lines[-1] == "40 cards"


def test_cards_quadrille_a_trois_options() -> None:
    default = as_json("cards", "quadrille-a-trois", "--trump", "spades")
    assert isinstance(default, dict)
    assert list(default["plain"]) == ["clubs", "hearts"]
    hearts_out = as_json(
        "cards", "quadrille-a-trois", "--trump", "diamonds", "--option", "removed-suit=hearts"
    )
    assert isinstance(hearts_out, dict)
    assert hearts_out["trumps"] == [
        "As", "7d", "Ac", "Ad", "Kd", "Qd", "Jd", "2d", "3d", "4d", "5d", "6d",
    ]  # fmt: skip
    assert list(hearts_out["plain"]) == ["spades", "clubs"]


def test_cards_trumps_not_in_the_deck_is_an_error() -> None:
    result = invoke("cards", "quadrille-a-trois", "--trump", "diamonds", "--json")
    assert result.exit_code == 1
    assert "diamonds cannot be trumps" in _json_error(result)["message"]
    assert "diamonds cannot be trumps" in result.stderr
    assert "spades, clubs, hearts" in result.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["cards", "quadrille", "--trump", "roses"],
        ["cards", "quadrille", "--trump", "hearts", "--option", "removed-suit=hearts"],
        ["cards", "quadrille-a-trois", "--trump", "spades", "--option", "removed-suit=clubs"],
        ["cards", "quadrille-a-trois", "--trump", "spades", "--option", "removed-suit"],
        ["cards", "nosuch", "--trump", "hearts"],
        ["cards", "quadrille"],
    ],
)
def test_cards_usage_errors(args: list[str]) -> None:
    result = invoke(*args, "--json")
    assert result.exit_code == 2
    # Typer's own usage errors come before any output; the engine's give one JSON error.
    assert result.stdout == "" or _json_error(result)["code"] == "usage"
    assert result.stderr.strip()


# The installed console script, as a user runs it.


def test_console_script_runs() -> None:
    script = Path(sys.executable).parent / "ombre"
    if not script.exists():
        pytest.skip("the ombre console script is not installed in this environment")
    done = subprocess.run(
        [str(script), "cards", "hombre", "--trump", "clubs", "--json"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["trumps"][:3] == ["As", "2c", "Ac"]
    bad = subprocess.run(
        [str(script), "validate", str(ROOT / "tests" / "rule_files" / "invalid" / "empty.yaml")],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    assert bad.returncode == 1
    assert "Traceback" not in bad.stdout + bad.stderr


# The boundary, for the errors the commands above do not raise yet.

_PROBLEM = Problem("game.yaml", 3, 7, "$.actions[2]", "record/card", "not a card: 'Xx'")
_RAISED: dict[str, tuple[Exception, int, str]] = {
    "rule-file": (RuleFileError([_PROBLEM]), EXIT_INVALID, "game.yaml:3:7: $.actions[2]:"),
    "record": (RecordError([_PROBLEM]), EXIT_INVALID, "[record/card]"),
    "illegal": (
        IllegalActionError("play/must-follow-suit", "you hold a heart", action="3 play 5s"),
        EXIT_INVALID,
        "[play/must-follow-suit]",
    ),
    "notation": (NotationError("not a suit: 'roses'"), EXIT_USAGE, "not a suit: 'roses'"),
    "missing": (FileNotFoundError(2, "No such file or directory", "x.yaml"), EXIT_USAGE, "x.yaml"),
    "cli-invalid": (CliError("no diamonds", EXIT_INVALID), EXIT_INVALID, "no diamonds"),
}


@pytest.mark.parametrize("kind", sorted(_RAISED))
def test_boundary_turns_errors_into_exit_statuses(kind: str) -> None:
    error, status, shown = _RAISED[kind]
    probe = typer.Typer()

    @probe.command()
    @_boundary
    def fail(json_out: bool = False) -> None:
        raise error

    @probe.command()
    @_boundary
    def succeed() -> None:
        typer.echo("ok")

    result = runner.invoke(probe, ["fail"])
    assert result.exit_code == status
    assert isinstance(result.exception, SystemExit)
    assert shown in result.stderr
    assert result.stdout == ""
    assert "Traceback" not in result.output
    assert runner.invoke(probe, ["succeed"]).stdout == "ok\n"


def test_boundary_lets_bugs_through() -> None:
    """A bug is not bad input: it is not disguised as a usage error."""
    probe = typer.Typer()

    @probe.command()
    @_boundary
    def fail() -> None:
        raise KeyError("bug")

    @probe.command()
    def other() -> None:
        pass

    result = runner.invoke(probe, ["fail"])
    assert isinstance(result.exception, KeyError)


def _json_error(result: Result) -> dict[str, Any]:
    """Returns the error of the one JSON document a failing --json command prints."""
    document = json.loads(result.stdout)
    assert set(document) == {"error"}
    return document["error"]  # type: ignore[no-any-return]


# The command line as typer users expect it.

COMMANDS = "list validate show cards replay docs diff claims play simulate new serve score"


@pytest.mark.parametrize("command", COMMANDS.split())
def test_help_has_examples_and_no_python_types(command: str) -> None:
    result = runner.invoke(app, [command, "--help"], env={"NO_COLOR": "1"})
    assert result.exit_code == 0
    text = result.stdout
    for python in ("<str>", "<int", "<bool>", "<list", "<path>", "None", "x>="):
        assert python not in text, (command, python)
    assert "Examples:" in text and f"$ ombre {command}" in text


def test_shell_completion_is_offered() -> None:
    text = runner.invoke(app, ["--help"], env={"NO_COLOR": "1"}).stdout
    assert "--install-completion" in text and "--show-completion" in text


def test_a_misspelt_ruleset_gets_one_suggestion_and_no_list_of_ids() -> None:
    result = runner.invoke(app, ["show", "quadrlle"])
    assert result.exit_code == 2
    assert "did you mean 'quadrille'?" in result.stderr
    assert "quadrille-roi-rendu" not in result.stderr  # not a dump of every id
    far = runner.invoke(app, ["show", "xyzzy"])
    assert "the rulesets: " in far.stderr and "ombre list shows the variants too" in far.stderr
    assert "quadrille-roi-rendu" not in far.stderr


def test_no_colour_when_piped_or_with_no_color(monkeypatch: pytest.MonkeyPatch) -> None:
    from engine import cli

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    assert cli._colour(Tty()) is True
    assert cli._colour(io.StringIO()) is False  # piped
    monkeypatch.setenv("NO_COLOR", "1")
    assert cli._colour(Tty()) is False
    result = runner.invoke(app, ["show", "xyzzy"])
    assert "\x1b[" not in result.stderr

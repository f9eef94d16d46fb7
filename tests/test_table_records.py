"""Nothing a player enters is lost: the record path is checked first, files are kept, records
carry their rules' path and hash, and ``ombre play --from`` goes on or deals again."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from engine import load_ruleset
from engine.records import parse_record, read_record, replay, resolve_ruleset, ruleset_sha256
from engine.table import EXIT_UNFINISHED
from tests.cli_helpers import invoke

ROOT = Path(__file__).resolve().parent.parent


# The record path, before the first card.


def test_a_missing_directory_is_refused_before_playing(tmp_path: Path) -> None:
    result = invoke("play", "quadrille", "--record", str(tmp_path / "no" / "x.yaml"), stdin="1\n")
    assert result.exit_code == 2
    assert "there is no directory" in result.output
    assert "Your hand" not in result.output  # not a card was dealt


def test_a_directory_as_record_is_refused(tmp_path: Path) -> None:
    result = invoke("play", "quadrille", "--record", str(tmp_path))
    assert result.exit_code == 2 and "is a directory" in result.output


def test_a_file_as_the_records_folder_is_refused(tmp_path: Path) -> None:
    (tmp_path / "plain").write_text("x")
    result = invoke("play", "quadrille", "--record", str(tmp_path / "plain" / "x.yaml"))
    assert result.exit_code == 2 and "is not a directory" in result.output


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write anywhere")
def test_an_unwritable_directory_is_refused(tmp_path: Path) -> None:  # pragma: no cover
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        result = invoke("play", "quadrille", "--record", str(locked / "x.yaml"))
        assert result.exit_code == 2 and "cannot write the record" in result.output
    finally:
        locked.chmod(0o700)


def test_an_existing_record_is_kept_without_force(tmp_path: Path) -> None:
    record = tmp_path / "game.yaml"
    record.write_text("precious\n")
    result = invoke("play", "quadrille", "--record", str(record), stdin="1\n")
    assert result.exit_code == 2 and "already exists: add --force" in result.output
    assert record.read_text() == "precious\n"
    result = invoke("play", "quadrille", "--seed", "3", "--record", str(record), "--force")
    assert result.exit_code == EXIT_UNFINISHED, result.output
    assert read_record(record).ruleset == "quadrille"


def test_the_record_is_written_after_every_answer(tmp_path: Path) -> None:
    record = tmp_path / "game.yaml"
    result = invoke("play", "quadrille", "--seed", "5", "--record", str(record), stdin="1\n1\n")
    assert result.exit_code == EXIT_UNFINISHED
    actions = read_record(record).deals[0].actions
    assert "0 pass" in actions and "0 play 5c" in actions


def test_input_that_ends_early_keeps_the_record_and_exits_3(tmp_path: Path) -> None:
    # A script that pipes too few answers learns that the game is unfinished (status 3, not
    # success), where its record is and how to go on; a game that was over exits 0.
    record = tmp_path / "game.yaml"
    args = ("play", "quadrille", "--seed", "5", "--deals", "2", "--record", str(record))
    result = invoke(*args, stdin="1\n1\n")
    assert result.exit_code == EXIT_UNFINISHED == 3, result.output
    out = " ".join(result.output.split())
    assert "Input ended before the deal was finished (deal 1 of 2): the game is unfinished." in out
    assert f"Record written to {record} (go on with: ombre play --from {record})" in out
    assert not replay(read_record(record), load_ruleset("quadrille")).complete
    unrecorded = invoke("play", "quadrille", "--seed", "5", stdin="1\n")
    assert unrecorded.exit_code == EXIT_UNFINISHED
    assert "Nothing was recorded: play with --record FILE" in " ".join(unrecorded.output.split())
    finished = invoke("play", "--from", str(record), stdin="1\n" * 80)
    assert finished.exit_code == 0, finished.output
    assert "Input ended" not in finished.output and "go on with" not in finished.output


def test_quit_keeps_the_record_and_says_how_to_go_on(tmp_path: Path) -> None:
    record = tmp_path / "game.yaml"
    result = invoke("play", "ombre", "--seed", "3", "--record", str(record), stdin="quit\n")
    assert result.exit_code == 0
    assert "You left the table." in result.output
    assert f"(go on with: ombre play --from {record})" in " ".join(result.output.split())


# What a record stores.


def test_a_record_stores_the_rule_files_path_and_hash(tmp_path: Path) -> None:
    record = tmp_path / "game.yaml"
    invoke("play", "ombre", "--seed", "3", "--record", str(record), stdin="")
    rec = read_record(record)
    rules = load_ruleset("ombre")
    assert rec.ruleset == "ombre"
    assert Path(rec.ruleset_file or "") == (ROOT / "rules" / "ombre.yaml")
    assert rec.ruleset_sha256 == ruleset_sha256(rules) and len(rec.ruleset_sha256) == 64
    assert rec.table == {"seat": 0, "seed": 3, "bots": "heuristic", "deals": 1}


def _house_rules(folder: Path, below: int = 4) -> Path:
    path = folder / "house.yaml"
    variant = (ROOT / "variants" / "quadrille-four-trick-bete.yaml").read_text(encoding="utf-8")
    variant = variant.replace("id: quadrille-four-trick-bete", "id: our-house")
    variant = variant.replace("sole_liability_below: 4", f"sole_liability_below: {below}")
    path.write_text(variant, encoding="utf-8")
    return path


def test_a_record_of_rules_outside_the_repository_replays_from_its_path(tmp_path: Path) -> None:
    folder = tmp_path / "club"
    folder.mkdir()
    rules_file = _house_rules(folder)
    record = folder / "game.yaml"
    result = invoke(
        "play", str(rules_file), "--seed", "3", "--record", str(record), stdin="1\n" * 40
    )
    assert result.exit_code == 0, result.output
    rec = read_record(record)
    assert rec.ruleset == "our-house" and rec.ruleset_file == "house.yaml"
    # Replayed from elsewhere: found beside the record by its ruleset_file.
    cwd = Path.cwd()
    try:
        os.chdir(tmp_path)
        replayed = invoke("replay", str(record))
    finally:
        os.chdir(cwd)
    assert replayed.exit_code == 0, replayed.output
    assert "warning" not in replayed.output


def test_replay_warns_when_the_rules_changed_since(tmp_path: Path) -> None:
    import subprocess
    import sys

    rules_file = _house_rules(tmp_path)
    record = tmp_path / "game.yaml"
    invoke("play", str(rules_file), "--seed", "3", "--record", str(record), stdin="1\n" * 40)
    _house_rules(tmp_path, below=5)
    # Another process, as in real use: the edited rules are read afresh.
    env = {**os.environ, "OMBRE_CACHE_DIR": str(tmp_path / "cache")}
    done = subprocess.run(
        [sys.executable, "-m", "engine.cli", "replay", str(record)],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "ombre: warning:" in done.stderr and "ruleset_sha256 differs" in done.stderr


def test_resolve_prefers_the_candidate_whose_hash_matches(tmp_path: Path) -> None:
    rules_file = _house_rules(tmp_path)
    text = (
        "ruleset: quadrille\n"
        f"ruleset_file: {rules_file.name}\n"
        f"ruleset_sha256: {ruleset_sha256(load_ruleset(str(rules_file)))}\n"
        "seed: 1\n"
    )
    record = parse_record(text, str(tmp_path / "r.yaml"))
    rules, warnings = resolve_ruleset(record, tmp_path / "r.yaml")
    assert rules.id == "our-house" and warnings == []


def test_an_unknown_ruleset_and_no_file_is_a_located_record_error(tmp_path: Path) -> None:
    path = tmp_path / "r.yaml"
    path.write_text("ruleset: nowhere\nruleset_file: gone.yaml\nseed: 1\n")
    result = invoke("replay", str(path))
    assert result.exit_code == 1
    assert "r.yaml:1:" in result.output and "record/unknown-ruleset" in result.output
    assert "gone.yaml" in result.output


def test_the_table_key_is_checked(tmp_path: Path) -> None:
    path = tmp_path / "r.yaml"
    path.write_text("ruleset: ombre\nseed: 1\ntable: {seat: one, colour: red}\n")
    result = invoke("replay", str(path))
    assert result.exit_code == 1
    assert "table.seat must be a whole number" in result.output
    assert "unknown key 'colour' in table" in result.output


def test_replay_of_a_directory_says_so(tmp_path: Path) -> None:
    result = invoke("replay", str(tmp_path))
    assert result.exit_code == 2
    assert "is a directory: give a record file" in result.output


# --from.


def test_from_resumes_an_unfinished_game_in_the_same_file(tmp_path: Path) -> None:
    record = tmp_path / "game.yaml"
    first = invoke("play", "quadrille", "--seed", "5", "--record", str(record), stdin="1\n1\n")
    assert "Input ended" in first.output
    before = read_record(record).deals[0].actions
    result = invoke("play", "--from", str(record), stdin="1\n" * 40)
    assert result.exit_code == 0, result.output
    assert "Going on with the unfinished game of" in result.output
    assert f"Resuming from the record: {len(before)} actions so far." in result.output
    assert "— now the game goes on —" in result.output and "Result:" in result.output
    after = read_record(record)
    assert after.deals[0].actions[: len(before)] == before
    report = replay(after, load_ruleset("quadrille"))
    assert report.complete
    # The same game played straight through gives the same record.
    straight = tmp_path / "straight.yaml"
    invoke("play", "quadrille", "--seed", "5", "--record", str(straight), stdin="1\n" * 40)
    assert read_record(straight).deals == after.deals


def test_from_resumes_a_party_after_its_finished_deals(tmp_path: Path) -> None:
    record = tmp_path / "party.yaml"
    invoke("play", "ombre", "--auto", "--seed", "4", "--deals", "3", "--record", str(record))
    full = read_record(record)
    # Cut the record in the middle of the second deal.
    cut = tmp_path / "cut.yaml"
    text = record.read_text()
    second = text.index("  - dealer: 1")
    lines = text[second:].splitlines()
    kept = lines[: lines.index("    actions:") + 5]
    cut.write_text(text[:second] + "\n".join(kept) + "\n")
    result = invoke("play", "--from", str(cut), "--auto")
    assert result.exit_code == 0, result.output
    assert "Deal 1 of 3 (from the record):" in result.output
    assert "=== Deal 2 of 3" in result.output and "=== Deal 3 of 3" in result.output
    assert read_record(cut).deals == full.deals


def test_from_a_finished_game_goes_on_with_its_next_deal(tmp_path: Path) -> None:
    record = tmp_path / "game.yaml"
    invoke("play", "quadrille", "--seed", "4", "--record", str(record), stdin="1\n" * 40)
    first = read_record(record)
    result = invoke("play", "--from", str(record), stdin="1\n" * 60)
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "its 1 deal is played again without a word" in text and "then deal 2 is dealt" in text
    assert "Deal 1 of 2 (from the record):" in text and "=== Deal 2 of 2 — dealer: seat 1" in text
    assert "Totals over the party:" in text
    after = read_record(record)  # the same file, gone on with
    assert after.deals[0] == first.deals[0] and len(after.deals) == 2
    assert after.table is not None and after.table["deals"] == 2
    assert replay(after, load_ruleset("quadrille")).complete
    # Deal 2 is dealt with the seed 4 + 1, as in a party of two played straight through.
    straight = tmp_path / "straight.yaml"
    invoke(
        "play",
        "quadrille",
        "--seed",
        "4",
        "--deals",
        "2",
        "--record",
        str(straight),
        stdin="1\n" * 80,
    )
    assert read_record(straight).deals[1].hands == after.deals[1].hands


def test_from_a_finished_game_with_too_few_deals_is_refused(tmp_path: Path) -> None:
    record = tmp_path / "game.yaml"
    invoke("play", "quadrille", "--seed", "4", "--record", str(record), stdin="1\n" * 40)
    result = invoke("play", "--from", str(record), "--deals", "1")
    assert result.exit_code == 2 and "already holds 1 finished deal" in result.output


def test_from_an_illegal_record_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text("ruleset: quadrille\nseed: 1\nactions: [3 pass]\n")
    result = invoke("play", "--from", str(path))
    assert result.exit_code == 1 and "cannot go on from" in result.output


def test_from_a_missing_file_or_a_directory(tmp_path: Path) -> None:
    assert invoke("play", "--from", str(tmp_path / "none.yaml")).exit_code == 2
    result = invoke("play", "--from", str(tmp_path))
    assert result.exit_code == 2 and "is a directory" in result.output


def test_play_without_a_ruleset_or_from_is_a_usage_error() -> None:
    result = invoke("play")
    assert result.exit_code == 2 and "name a RULESET" in result.output


def test_a_deal_is_counted_from_zero_in_messages_as_in_paths(tmp_path: Path) -> None:
    path = tmp_path / "party.yaml"
    path.write_text(
        "ruleset: ombre\n"
        "deals:\n"
        "  - {seed: 1, actions: [1 pass, 2 pass, 0 pass]}\n"
        "  - hands: [[As], [Ks], [Qs]]\n"
    )
    result = invoke("replay", str(path))
    assert result.exit_code == 1
    assert "$.deals[1].hands: deal 1: " in result.output


def test_going_on_in_another_file_keeps_an_existing_one(tmp_path: Path) -> None:
    record = tmp_path / "game.yaml"
    other = tmp_path / "other.yaml"
    invoke("play", "quadrille", "--seed", "4", "--record", str(record), stdin="1\n" * 40)
    other.write_text("kept")
    result = invoke("play", "--from", str(record), "--record", str(other), stdin="1\n")
    assert result.exit_code == 2 and "already exists: add --force" in result.output
    assert other.read_text() == "kept"


# A party at the terminal: deal after deal until the player stops.


def _scripted(lines: list[str], between: list[str]):  # type: ignore[no-untyped-def]
    """Returns a reader and a writer: "1" (or Enter) at every turn, and the answers in
    ``between`` one by one when the table asks whether to deal the next deal."""
    written: list[str] = []

    def read(prompt: str) -> str | None:
        last = written[-1].lower() if written else ""
        if any(w in last for w in ("press enter to deal", "ends the party")):
            return between.pop(0) if between else None
        if written and written[-1].startswith("  only one choice"):
            return ""
        return lines.pop(0) if lines else None

    return read, written.append, written


def test_an_open_party_goes_on_until_the_player_stops(tmp_path: Path) -> None:
    from engine.table import PlayRequest, open_table

    record = tmp_path / "party.yaml"
    request = PlayRequest(ruleset="quadrille", seed=3, record=record, interactive=True)
    game, warnings = open_table(request, load_ruleset, lambda: 0)
    assert game.deals is None and warnings == []
    read, write, written = _scripted(["1"] * 400, ["", "yes", "quit"])
    assert game.run(read, write) == 0
    text = "\n".join(written)
    assert "=== Deal 3 — dealer: seat 2 ===" in text and "=== Deal 4 —" not in text
    assert "After 2 deals:" in text and "Totals over the party:" in text
    assert "Deal 2, seat 1 deals: press Enter to deal it, or type quit to stop." in text
    kept = read_record(record)
    assert len(kept.deals) == 3 and kept.table is not None and kept.table["deals"] == 3
    report = replay(kept, load_ruleset("quadrille"))
    assert report.complete and report.totals == game_totals(game)
    # Going on from it deals the fourth deal, the pot and the bêtes carried.
    again, _ = open_table(PlayRequest(start=record, interactive=True), load_ruleset, lambda: 0)
    read, write, written = _scripted(["1"] * 200, [])
    assert again.run(read, write) == 0  # the input ends between two deals: the party is whole
    text = "\n".join(written)
    assert "Deal 3 (from the record):" in text and "=== Deal 4 — dealer: seat 3 ===" in text
    assert len(read_record(record).deals) == 4


def game_totals(game) -> list[int]:  # type: ignore[no-untyped-def]
    totals = [0] * game.rules.players
    for deal in game.played:
        for seat, amount in enumerate(deal.settlement.balances):
            totals[seat] += amount
    return totals


def test_the_between_deals_prompt_explains_itself() -> None:
    from engine.table import PlayRequest, open_table

    game, _ = open_table(
        PlayRequest(ruleset="quadrille", seed=3, interactive=True), load_ruleset, int
    )
    read, write, written = _scripted(["1"] * 200, ["what", "?", "n"])
    assert game.run(read, write) == 0
    text = " ".join(" ".join(written).split())
    assert "Press Enter to deal the next deal, or type quit to stop." in text
    assert "quit (or no, stop, or the end of the input) ends the party" in text
    assert "=== Deal 2" not in text


def test_quit_without_a_record_says_nothing_was_kept() -> None:
    result = invoke("play", "quadrille", "--seed", "3", stdin="?\nquit\n")
    assert result.exit_code == 0
    assert "quit (nothing is recorded without --record FILE)" in " ".join(result.output.split())
    assert "You left the table.\nNothing was recorded: play with --record FILE" in result.output
    assert "Record written" not in result.output


def test_piped_input_and_auto_play_one_deal_and_a_terminal_a_party() -> None:
    from engine.table import PlayRequest, open_table

    def deals(**kw: object) -> int | None:
        return open_table(PlayRequest(ruleset="ombre", **kw), load_ruleset, int)[0].deals  # type: ignore[arg-type]

    assert deals() == 1
    assert deals(interactive=True) is None
    assert deals(interactive=True, auto=True) == 1
    assert deals(interactive=True, deals=4) == 4

"""What the scorekeeper tells after each deal, in the players' words: each payment by the
items it pays, and the counters that stay on the table and why."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from engine.cli import app

runner = CliRunner()


def scored(tmp_path: Path, answers: str, ruleset: str = "quadrille") -> str:
    """What ``ombre score`` prints for ``answers`` (an evening of Ann, Bob, Cy and Di), its
    lines joined."""
    result = runner.invoke(
        app,
        ["score", ruleset, "--evening", str(tmp_path / "e.yaml"), "--players", "Ann,Bob,Cy,Di"],
        input=answers,
    )
    return " ".join(result.output.split())


def test_a_codille_names_its_items_and_the_odd_counters_left_on_the_table(tmp_path: Path) -> None:
    # Cy's sans-prendre loses codille: the pot of 14 goes to the three defenders, 4 each, and
    # the 2 that cannot be shared equally stay on the table.
    answers = "sans-prendre\nCy\nspades\n3 2 4 1\n\n\n"
    out = scored(tmp_path, answers)
    assert "Le jeu + La consolation + Le sans-prendre: Cy → Di 7" in out
    assert "jeu+consolation" not in out
    assert "On the table: 0 before, 16 after (of which 2 odd counters of the pot" in out
    assert "kept for whoever holds the highest trump next deal); a bête of 14 made" in out


def test_a_name_that_is_no_contract_is_said_at_once_and_asked_again(tmp_path: Path) -> None:
    # 'asc' is refused before the declarer is asked; '?' lists the contracts; nothing typed
    # after the contract is lost to a refusal at the end.
    answers = "asc\n?\nask\nBob\nspades\nKc\nAnn\n4 2 2 2\n\n\n"
    out = scored(tmp_path, answers)
    said = out.index("'asc' is not a contract of Quadrille. The contracts: ask — Demander à jouer")
    assert said < out.index("declarer (")
    assert "Which contract was played? The contracts:" in out
    assert "Refused" not in out
    assert "Deal 1 — Ann deals: win" in out


def test_the_scorekeepers_questions_name_the_players(tmp_path: Path) -> None:
    out = scored(tmp_path, "laws\n\nask\nBob\n", "quadrille-renonce")
    assert "declarer (Ann, Bob, Cy or Di, or seat 0-3)" in out
    assert "e.g. 'Ann turn-hand Bob'" in out
    assert "(he " not in out


def test_the_notes_read_at_the_terminal_carry_no_markdown(tmp_path: Path) -> None:
    # The card too many's note is written for the books ("Written `SEAT extra-card` ..."):
    # at the terminal its code spans are quoted, not shown as backticks.
    out = scored(tmp_path, "extra-card Bob\n")
    assert "'SEAT extra-card'" in out
    assert "`" not in out


def test_at_a_narrow_terminal_the_questions_fold_at_its_width(tmp_path: Path) -> None:
    """At a terminal of 60 columns the scorekeeper folds its questions at 59 (a real pseudo
    terminal, its window size set); piped, it keeps the usual width (the tests above)."""
    import fcntl
    import os
    import pty
    import select
    import struct
    import subprocess
    import sys
    import termios
    import time

    main, side = pty.openpty()
    fcntl.ioctl(side, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 60, 0, 0))
    command = [sys.executable, "-m", "engine.cli", "score", "quadrille"]
    command += ["--evening", str(tmp_path / "e.yaml"), "--players", "Ann,Bob,Cy,Di"]
    env = {**os.environ, "NO_COLOR": "1", "TERM": "xterm"}
    env.pop("COLUMNS", None)
    child = subprocess.Popen(command, stdin=side, stdout=side, stderr=side, env=env)
    os.close(side)
    seen = b""
    deadline = time.monotonic() + 30
    try:
        while b"'quit'):" not in seen.replace(b"\r\n", b"\n").replace(b"\n  ", b" "):
            ready, _, _ = select.select([main], [], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                break
            seen += os.read(main, 4096)
        os.write(main, b"quit\n")
    finally:
        child.wait(10)
        os.close(main)
    lines = seen.decode("utf-8", "replace").replace("\r", "").splitlines()
    question = [line for line in lines if line.startswith(("contract (", "  "))]
    assert question and max(len(line) for line in question) <= 59, lines
    assert len(question) > 4  # folded at 59, the question takes more lines than at 92


def test_a_suit_a_card_or_a_yes_no_answer_that_does_not_read_is_asked_again_at_once(
    tmp_path: Path,
) -> None:
    # '?' at the trumps tells the suits, 'spadez' is said not to be one, and the question comes
    # again; the same for the card called and the vole's y/N: the deal is then settled, nothing
    # typed lost to a refusal at the end.
    answers = "ask\nBob\n?\nspadez\nspades\n?\nK?\nKc\nAnn\n4 2 2 2\n\nmaybe\nn\n\n"
    out = scored(tmp_path, answers)
    assert "the trump suit: spades, clubs, hearts or diamonds" in out
    assert "Not understood: not a suit: 'spadez'" in out
    assert "the cards that may be: Ks, Qs, Kc" in out
    assert "Not understood: not a card: 'K?'" in out
    assert "y or n, please" in out
    assert "Refused" not in out
    assert "Deal 1 — Ann deals: win" in out

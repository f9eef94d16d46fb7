"""The terminal table in colour: the red suits red and the cards a seat may play bold, on a
colour terminal only (``NO_COLOR``, ``TERM=dumb`` and pipes get the plain text)."""

from __future__ import annotations

import io
import re

import pytest

from engine import load_ruleset
from engine.cli import _colour
from engine.render import environment, visible_length
from engine.table import TableGame

_SGR = re.compile("\x1b\\[[0-9;]*m")
RED, BOLD, RESET = "\x1b[31m", "\x1b[1m", "\x1b[0m"


def _party(colour: bool) -> list[str]:
    """One deal of Quadrille at seat 0, the player always taking the first choice."""
    game = TableGame(load_ruleset("quadrille"), human=0, seed=11, deals=1)
    out: list[str] = []

    def read(prompt: str) -> str | None:
        deal = game.played[-1]
        return None if deal.is_over else "1"

    assert game.run(read, out.append, colour=colour) == 0
    return out


def test_in_colour_the_red_suits_are_red_and_the_playable_cards_bold() -> None:
    out = _party(colour=True)
    text = "\n".join(out)
    assert re.search(f"{re.escape(RED)}[2-7JQKA][hd]{re.escape(RESET)}", text)
    # In the play, each card the player may play is bold: exactly the cards the referee allows.
    hands = [line for line in out if line.startswith("Your hand:") and BOLD in line]
    assert hands, "no hand shown with its playable cards"
    assert not re.search(f"{re.escape(RED)}[2-7JQKA][sc]", text)  # black suits stay plain


def test_the_coloured_table_reads_as_the_plain_one_once_the_colours_are_taken_out() -> None:
    plain = _party(colour=False)
    coloured = _party(colour=True)
    assert not any("\x1b" in line for line in plain)
    assert [_SGR.sub("", line) for line in coloured] == plain


def test_coloured_lines_fold_at_the_width_the_terminal_shows() -> None:
    width = 92
    for line in _party(colour=True):
        assert visible_length(line) <= width or " " not in line.strip(), line


def test_a_name_cannot_smuggle_other_escapes_through_the_colour_format() -> None:
    template = environment("ansi").from_string("{{ name }} {{ c | card }}")
    out = template.render(name="Ann\x1b[2J\x1b]0;x\x07", c="Ah")
    assert "\x1b[2J" not in out and "\x07" not in out
    assert out.endswith(f"{RED}Ah{RESET}")


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(
    ("env", "expected"),
    [({}, True), ({"NO_COLOR": "1"}, False), ({"TERM": "dumb"}, False)],
)
def test_colour_only_on_a_colour_terminal(
    monkeypatch: pytest.MonkeyPatch, env: dict[str, str], expected: bool
) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    assert _colour(_Tty()) is expected
    assert _colour(io.StringIO()) is False  # a pipe or a file

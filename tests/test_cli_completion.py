"""The shell completes ruleset names, for the arguments and the options that take one."""

from __future__ import annotations

import click
import typer.main

from engine.cli import app


def _complete(command: str, param: str, incomplete: str) -> list[str]:
    cmd = typer.main.get_command(app).commands[command]  # type: ignore[attr-defined]
    (p,) = [x for x in cmd.params if x.name == param]
    return [c.value for c in p.shell_complete(click.Context(cmd), incomplete)]


def test_ruleset_names_complete_for_play_show_and_replay() -> None:
    assert "quadrille" in _complete("play", "ruleset", "quad")
    assert "quadrille-a-trois" in _complete("show", "ruleset", "quadrille-a")
    assert "ombre" not in _complete("play", "ruleset", "quad")
    assert _complete("replay", "ruleset", "tresillo-r") == ["tresillo-rocambor"]


def test_an_unknown_prefix_completes_to_nothing() -> None:
    assert _complete("play", "ruleset", "zzz") == []


def test_diff_and_new_complete_their_rulesets_too() -> None:
    assert "ombre" in _complete("diff", "a", "omb") and "ombre" in _complete("diff", "b", "omb")
    assert "ombre" in _complete("new", "extends", "omb")

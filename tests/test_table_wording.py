"""The table's words to the player: why every counter moved, `?` before `??`, the écart's limit
with its reason, and help texts whose brackets survive the markup."""

from __future__ import annotations

import re

from typer.testing import CliRunner

from engine import load_ruleset
from engine.referee.exchange import ExchangeLimit
from engine.rules.model import Basis
from engine.table import PromptView, TableGame, _macros

runner = CliRunner()


def flat(text: str) -> str:
    return " ".join(text.split())


def auto(ruleset: str, seed: int) -> str:
    from engine.cli import app

    result = runner.invoke(app, ["play", ruleset, "--seed", str(seed), "--auto"])
    assert result.exit_code == 0, result.output
    return flat(result.output)


def test_the_stakes_say_whose_fiche_and_whose_stake_each_counter_is() -> None:
    out = auto("quadrille", 3)
    assert (
        "Stakes into the pot, 14 in all: seat 0 11 (the dealer's fiche of 10 and the player's"
        " stake of 1), seat 1 1 (each player's stake of 1)"
    ) in out
    assert "(A fiche is 10 jetons;" in out
    # the non-dealers' stakes never name the dealer's stake
    assert "seat 1 1 (the dealer's" not in out
    # the player's words come before the quote
    assert out.index("in all:") < out.index("Le jeu est marqué")


def test_every_seat_is_told_where_its_counters_went() -> None:
    out = auto("quadrille", 3)
    assert "Seat 0: put 11 into the pot; took 7 from the pot and 7 from seat 2: +3." in out
    assert "Seat 2: put 1 into the pot, paid 7 to seat 0; took nothing: -8." in out


def test_a_paid_seat_below_zero_is_told_why() -> None:
    # every seat's ledger adds up to its balance, and a paid seat below zero is explained
    for seed in range(1, 30):
        out = auto("quadrille", seed)
        for m in re.finditer(r"(Seat \d|You): [^:]*took (\d+)[^:]*: (-\d+)([,.])", out):
            assert m.group(4) == ","
            assert "more went in than came back" in out[m.end() : m.end() + 60]
            return
    raise AssertionError("no paid seat ended below zero in 29 deals")


def _help(word: str) -> str:
    game = TableGame(load_ruleset("dansk-lhombre"), human=0, seed=3)
    out: list[str] = []
    answers = iter(["pass", word, "quit"])
    game.run(lambda prompt: next(answers, None), out.append)
    return "\n".join(out)


def test_help_puts_the_choices_and_the_hint_before_the_rule_and_no_sources() -> None:
    text = _help("?")
    help_ = text[text.index("Help —") :]
    assert help_.index("The heuristic bot would") < help_.index("The rule (exchange)")
    assert "[attested; dlu" not in help_
    assert "?? (the sources of the rules that apply)" in flat(help_)


def test_a_second_question_mark_gives_the_sources() -> None:
    for word in ("??", "? sources"):
        text = _help(word)
        sources = text[text.index("Sources —") :]
        assert "[attested; dlu, Spil:" in flat(sources)
        assert "Help —" not in text


def _prompt(limit: ExchangeLimit, most: int) -> str:
    rules = load_ruleset("ombre")
    view = PromptView(seat=1, phase="exchange", most=most, limit=limit, talon=limit.talon)
    return flat(str(_macros("table/turn.txt.j2").prompt(view, rules)))


def test_the_ecart_prompt_gives_its_limit_and_reason_in_one_line() -> None:
    basis = Basis("attested")
    middle = ExchangeLimit(5, 10, None, 5, None, basis)
    assert (
        "discard up to 5 and draw as many from the talon (10 there), since a middle player"
        " leaves 5 for the last unless he holds a matador"
    ) in _prompt(middle, 5)
    first = ExchangeLimit(8, 13, 8, 0, None, basis)
    assert "(13 there), the most the first to exchange may take" in _prompt(first, 8)
    whole = ExchangeLimit(6, 6, None, 0, None, basis)
    assert "(6 there)" in _prompt(whole, 6) and "since" not in _prompt(whole, 6)


def test_help_texts_keep_their_bracketed_words() -> None:
    from engine.cli import app

    result = runner.invoke(app, ["simulate", "--help"], env={"COLUMNS": "200"})
    assert "with the [openspiel] extra" in result.output
    assert "with the  extra" not in result.output


def test_no_help_text_loses_a_bracketed_word_to_markup() -> None:
    """Every command's --help shows each [word] its help strings hold (rich markup would eat
    it), and no sentence of them shows two spaces where such a word was."""
    import typer.main

    from engine.cli import app

    commands = typer.main.get_command(app).commands  # type: ignore[attr-defined]
    assert "simulate" in commands
    checked = 0
    for name, command in commands.items():
        texts = [command.help or ""] + [getattr(p, "help", None) or "" for p in command.params]
        words = {w for t in texts for w in re.findall(r"\[[A-Za-z][\w.,-]*\]", t)}
        result = runner.invoke(app, [name, "--help"], env={"COLUMNS": "250"})
        assert result.exit_code == 0, (name, result.output)
        shown = " ".join(result.output.split())
        for word in words:
            assert word in shown, (name, word)
            checked += 1
        assert not re.search(r"\b(the|a|with)  (extra|option)\b", result.output), name
    assert checked, "no bracketed word in any help text: the test checks nothing"


def test_each_usage_line_brackets_an_argument_once() -> None:
    """The usage line writes a required argument bare and an optional one in one pair of
    brackets: never ``[[RULESET]]``, ``[RULESET...]...`` or typer's ``{RULESET}``."""
    import typer.main

    from engine.cli import app

    commands = typer.main.get_command(app).commands  # type: ignore[attr-defined]
    seen = {}
    for name in commands:
        result = runner.invoke(app, [name, "--help"], env={"COLUMNS": "200"})
        usage = next(line for line in result.output.splitlines() if "Usage:" in line).strip()
        assert not re.search(r"\[\[|\]\]|[{}]|\.\.\.\]", usage), usage
        seen[name] = usage
    assert seen["show"].endswith("ombre show [OPTIONS] RULESET")
    assert seen["score"].endswith("ombre score [OPTIONS] [RULESET]")
    assert seen["docs"].endswith("ombre docs [OPTIONS] [RULESET]...")


def test_help_gives_the_bots_hint_first_and_speaks_to_you() -> None:
    # Seat 1 speaks first: the bot passes, short of what the écart should bring "him".
    game = TableGame(load_ruleset("dansk-lhombre"), human=1, seed=4)
    out: list[str] = []
    answers = iter(["?", "quit"])
    game.run(lambda prompt: next(answers, None), out.append)
    text = "\n".join(out)
    help_ = text[text.index("Help —") :].splitlines()
    # The line after the question is the hint, its reason once, in the second person.
    assert help_[1].startswith("  The heuristic bot would ")
    hint = flat("\n".join(help_[1:4]))
    assert not re.search(r"\bhe (must|plays|keeps|holds)\b|\bhis\b", hint)
    assert not re.search(r"would (\w+): \1:", hint)
    assert "you must be worth" in hint


def test_a_trump_turned_from_the_talon_is_told_as_turned_not_named() -> None:
    # A tourné: the declarer does not choose the trumps, the card turned from the talon does.
    game = TableGame(load_ruleset("dansk-lhombre"), human=None, seed=3, deals=1)
    out: list[str] = []
    game.run(lambda prompt: None, out.append)
    text = "\n".join(out)
    assert "Seat 1 turns 3s from the talon: spades are trumps." in text
    assert "names spades trumps" not in text


def play(*args: str, stdin: str = "") -> object:
    from engine.cli import app

    return runner.invoke(app, ["play", *args], input=stdin)


def test_a_wrong_answer_is_told_what_this_question_takes() -> None:
    # At the écart a number is no answer: the table says what is (the cards to discard).
    out = play("ombre", "--seed", "5", stdin="1\n1\n1\n").output  # type: ignore[attr-defined]
    assert "Type the cards to discard (e.g. 'discard 5c 4d'), 'discard' alone to keep" in flat(out)
    # With a single card to play, another number is told there is only one choice.
    out = play("quadrille", "--seed", "2", "--deals", "1", stdin="2\n" * 60).output  # type: ignore[attr-defined]
    assert "There is only one choice: type 1, or press Enter." in out
    assert "Choose 1 to 1." not in out

"""The table as a newcomer meets it: piped answers, and the lines he must be able to read."""

from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

from engine import load_ruleset
from engine.referee import Deal
from engine.table import EXIT_UNFINISHED, TableGame, _second_person, seat_diagram

runner = CliRunner()


def play(*args: str, stdin: str = ""):  # type: ignore[no-untyped-def]
    from engine.cli import app

    return runner.invoke(app, ["play", *args], input=stdin)


def lines_of(output: str) -> list[str]:
    return [line.rstrip() for line in output.splitlines()]


def flat(output: str) -> str:
    """The output with its lines folded back: long lines are wrapped at the table's width."""
    return " ".join(output.split())


# The opening screen.


def test_the_opening_screen_shows_the_seats_the_seed_and_the_commands() -> None:
    result = play("quadrille", "--seed", "5", stdin="")
    assert result.exit_code == EXIT_UNFINISHED, result.output
    out = result.output
    assert "You are seat 0; bots (heuristic) play the other seats." in out
    assert "`ombre play quadrille --seed 5` deals the same cards again" in out
    assert "? or help" in out and "last (the previous trick)" in out
    # The seat diagram, from the player's chair: the next seat on the right.
    assert "seat 3                               seat 1 [eldest]" in out
    assert "you (seat 0) [dealer]" in out
    assert "Speech and play go to the right: seat 1 → seat 2 → seat 3 → you." in out
    assert "Your hand: spades As Ks 5s · clubs Ac 5c 4c 3c · diamonds Kd Ad 3d" in out


def test_setup_options_and_the_cards_taken_out_are_shown() -> None:
    result = play("quadrille-a-trois", "--seed", "2", "-o", "removed-suit=hearts")
    out = result.output
    assert "Setup: The red suit taken out of the pack: hearts [option removed-suit]." in out
    assert "The pack has 30 cards; taken out: all the hearts." in out


def test_the_seat_diagram_for_three_and_four_players() -> None:
    four = seat_diagram(4, 2, {2: "you"})
    assert four[0].strip() == "seat 0" and four[-1].strip() == "you"
    assert four[1].split() == ["seat", "1", "seat", "3"]  # seat 3, the next, on the right
    three = seat_diagram(3, 0, {})
    assert three[0].split() == ["seat", "2", "seat", "1"]


# Events told in words.


def test_the_called_kings_holder_is_told_he_is_the_partner() -> None:
    out = flat(play("quadrille", "--seed", "5", stdin="1\n" * 40).output)
    assert "Seat 3 calls Kd: its holder is the partner" in out
    assert "You hold Kd: you are seat 3's partner." in out
    assert "called Kd (partner: you)" in out
    # Tricks with seat labels and the side's total against the defenders'.
    assert "Trick 1: seat 1 2c · seat 2 6c · seat 3 Kc · you 5c — seat 3 won it with Kc." in out
    assert (
        "Tricks: you 0 · seat 1 0 · seat 2 0 · seat 3 1 declaring side (seat 3 and you) 1 "
        "— defenders (seat 1 and seat 2) 0" in out
    )


def test_the_status_line_names_the_partner_once_the_called_card_is_on_the_table() -> None:
    """The called Kc lies in the trick before it is gathered: the contract line names its holder
    at once, never "partner not known yet" beside the card itself."""
    out = play("quadrille", "--seed", "3", stdin="1\n" * 60).output
    screens = [s for s in out.split("Contract:")[1:] if re.search(r"On the table:[^\n]*\bKc\b", s)]
    assert screens, "the called king is never on the table at this seed"
    for screen in screens:
        assert "called Kc (partner: seat 1)" in screen.splitlines()[0]
        assert "partner not known yet" not in screen


def test_forced_spadille_is_explained_before_and_when_it_happens() -> None:
    out = flat(play("quadrille", "--seed", "312", stdin="1\n" * 40).output)
    assert "Note: you hold As (Spadille). If everybody passes, you must play Spadille forcé" in out
    assert "Everybody passed, and you hold As (Spadille): you must play — Spadille forcé" in out
    assert "You name trumps, then call a king as partner." in out


def test_a_bots_forced_spadille_is_shown_by_name() -> None:
    out = flat(play("quadrille", "--seed", "211", stdin="1\n" * 40).output)
    line = out.split("Everybody passed. ")[1]
    assert "holds As (Spadille) and must play: Spadille forcé" in line
    assert "Contract: Spadille forcé by seat" in out


def test_a_demanded_king_is_seen_leaving_its_holders_hand() -> None:
    out = flat(play("mediateur", "--seed", "1", stdin="1\n" * 40).output)
    assert (
        "Seat 3 demands Ks of you: Ks leaves your hand and goes to seat 3, who gives you a card"
        in out
    )
    after = out.split("Seat 3 demands Ks of you")[1]
    hand = after.split("Your hand: ")[1].split("Seat 3 gives")[0]
    assert "Ks" not in hand
    assert "Seat 3 gives 6d to you for Ks." in out


def test_the_declarer_demanding_a_king_sees_it_come_in() -> None:
    out = flat(
        play("mediateur", "--seed", "1", "--seat", "3", stdin="bid médiateur\n1\n1\n").output
    )
    assert "You bid Le médiateur" in out
    assert "You demand Kh of seat 2: it comes into your hand." in out
    assert "Give seat 2 a card for Kh:" in out


def test_ombre_shows_what_you_drew() -> None:
    rules = load_ruleset("ombre")
    game = TableGame(rules, human=1, seed=3)
    out: list[str] = []

    def read(prompt: str) -> str | None:
        deal = game.played[-1]
        if deal.is_over:
            return None
        if deal.phase == "auction":
            return "bid jouer" if any(a.verb == "bid" for a in deal.legal_actions()) else "pass"
        if deal.phase == "exchange":
            return " ".join(str(c) for c in deal.hand(1)[-3:])
        return "1"

    assert game.run(read, out.append) == 0
    text = flat("\n".join(out))
    drew = text.split("You discard ")[1].split(".")[0]
    assert " and draw " in drew and "left in the talon" in text
    assert "Seat 2 discards" in text or "Seat 0 discards" in text  # the others' count only


# Answers.


def test_help_shows_the_choices_the_rule_and_the_bots_choice() -> None:
    out = flat(play("quadrille", "--seed", "5", stdin="?\n").output)
    assert "Help — Your speech" in out
    assert "Your choices: 1) pass 2) bid sans-prendre" in out
    sources = flat(play("quadrille", "--seed", "5", stdin="??\n").output)
    assert "The rule (auction):" in sources and "[attested; enc-q, QUADRILLE (Jeu)" in sources
    assert "The heuristic bot would " in out
    assert "bid sans-prendre — Sans appeller (sans prendre): you play alone" in out
    assert "also: bid sans-appeller, bid sans-appeler, bid solo" in " ".join(out.split())


def test_last_shows_the_previous_trick() -> None:
    out = flat(play("quadrille", "--seed", "5", stdin="last\n1\n1\nlast\n").output)
    assert "No trick yet." in out
    assert out.count("Trick 1: seat 1 2c · seat 2 6c · seat 3 Kc · you 5c") == 2


def test_a_refusal_speaks_to_you_and_names_the_rule() -> None:
    out = flat(play("quadrille", "--seed", "5", stdin="1\n5s\n").output)
    refusal = out.split("Refused: ")[1].split("Type ?")[0]
    assert "clubs were led (2c) and you hold clubs" in refusal
    assert "(enc-q, QUADRILLE (Jeu))" in refusal and "[play/must-follow-suit]" in refusal
    assert "seat 0" not in refusal


def test_second_person_rewrites_every_mention_of_the_seat() -> None:
    assert (
        _second_person("it is seat 1's turn, not seat 0's", 0) == "it is seat 1's turn, not yours"
    )
    assert _second_person("seat 2 does not hold Kd", 2) == "you do not hold Kd"
    assert _second_person("seat 12 holds x; seat 1 holds y", 1) == "seat 12 holds x; you hold y"


def test_second_person_speaks_grammatically_to_the_seat() -> None:
    # The verb after the seat, "his" and "himself" in its clause, and "of seat 2".
    assert (
        _second_person("bid only holding Ah (seat 2 lacks Ah)", 2)
        == "bid only holding Ah (you lack Ah)"
    )
    assert (
        _second_person("seat 1 holds Kd himself: only an adversary's card may be called", 1)
        == "you hold Kd yourself: only an adversary's card may be called"
    )
    assert (
        _second_person("seat 0 is the eldest, whose lead is his duty and makes him known", 0)
        == "you are the eldest, whose lead is your duty and makes you known"
    )
    assert (
        _second_person("seat 3 deals and sits the deal out", 3) == "you deal and sit the deal out"
    )
    assert (
        _second_person("no adversary of seat 1 has played", 1) == "no adversary of yours has played"
    )
    assert (
        _second_person("seat 2 cannot turn up seat 2's hand: name another", 2)
        == "you cannot turn up your own hand: name another"
    )
    # Another seat's "his" is left alone, and so is a "he" of another clause.
    assert _second_person("seat 1 laid his hand down", 0) == "seat 1 laid his hand down"
    assert (
        _second_person("seat 1 may discard 5: a middle player leaves 3 unless he holds one", 1)
        == "you may discard 5: a middle player leaves 3 unless he holds one"
    )
    assert (
        _second_person("only the holder makes himself known by his lead, not seat 2", 2)
        == "only the holder makes himself known by his lead, not you"
    )


def test_a_single_choice_is_still_asked_and_enter_takes_it() -> None:
    for seed in range(1, 40):
        game = TableGame(load_ruleset("quadrille"), human=0, seed=seed)
        out: list[str] = []

        def read(prompt: str, game: TableGame = game) -> str | None:
            if game.played[-1].is_over:
                return None
            return "" if len(game._choices) == 1 else "1"

        game.run(read, out.append)
        single = [k for k, line in enumerate(out) if "only one choice:" in line]
        if single:
            break
    at = single[0]
    card = out[at].split("only one choice: ")[1].split(" ")[0]
    assert out[at].endswith("press Enter to take it")
    assert f"You play {card}." in out[at + 1 :]


def test_enter_with_several_choices_asks_again() -> None:
    out = flat(play("quadrille", "--seed", "5", stdin="\n").output)
    assert "Type a number, an action, or ? for help." in out


def test_the_glossarys_contract_names_are_accepted_at_the_table() -> None:
    out = flat(play("quadrille", "--seed", "5", stdin="bid sans appeler\n").output)
    assert "You bid Sans appeller (sans prendre) [sans-prendre]." in out
    out = flat(play("mediateur", "--seed", "1", "--seat", "3", stdin="bid MÉDIATEUR\n").output)
    assert "You bid Le médiateur" in out


# The end of a deal.


def test_payments_show_their_parts_and_the_rule() -> None:
    out = flat(play("quadrille", "--seed", "5", stdin="1\n" * 40).output)
    assert "Stakes into the pot, 14 in all: you 11 (the dealer's fiche of 10" in out
    assert "Le jeu 1 + La consolation 2 + Les matadors 4 = 7: each defender pays the side" in out
    assert "[attested; enc-q, QUADRILLE (Jeu): “on leur paie le jeu" in out
    assert "Balances for this deal: you +3 · seat 1 -8 · seat 2 -8 · seat 3 +13" in out


def test_a_declarer_paying_alone_is_told_why() -> None:
    out = flat(play("quadrille", "--auto", "--seed", "17").output)
    assert (
        "Seat 3 took only 2 tricks himself, fewer than 3: the declarer pays the loss alone, and"
        in out
    )
    assert "“se paye par moitié entre le joueur & le roi appellé" in out


def test_odd_counters_kept_on_the_table_are_shown() -> None:
    out = flat(play("quadrille", "--auto", "--seed", "21", "--deals", "3").output)
    assert "2 odd counters that cannot be shared equally stay on the table" in out
    assert "(2 odd counters of it kept for whoever holds the highest" in out


# Records and seeds.


def test_play_seed_and_a_records_seed_deal_the_same_cards(tmp_path: Path) -> None:
    from engine.cards import ALL_CARDS
    from engine.records import parse_record, read_record, replay

    record = tmp_path / "game.yaml"
    play("ombre", "--seed", "5", "--record", str(record), stdin="")
    written = read_record(record)
    seeded = replay(parse_record("ruleset: ombre\nseed: 5\n"), load_ruleset("ombre"))
    assert seeded.complete is False and seeded.error is None
    deal = Deal(load_ruleset("ombre"), seed=5)
    assert written.deals[0].hands == tuple(tuple(str(ALL_CARDS[c]) for c in h) for h in deal.dealt)
    assert written.deals[0].talon == tuple(str(ALL_CARDS[c]) for c in deal.dealt_talon)
    assert written.table == {"seat": 0, "seed": 5, "bots": "heuristic", "deals": 1}


def test_the_session_in_the_docs_is_what_the_table_prints() -> None:
    doc = (Path(__file__).resolve().parent.parent / "docs" / "playing.md").read_text("utf-8")
    part = doc.split("### A session")[1]
    command = part.split("`printf '")[1].split("'")[0].replace("\\n", "\n")
    shown = part.split("```\n")[1].split("```")[0].splitlines()
    printed = lines_of(play("quadrille", "--seed", "5", stdin=command).output)
    at = 0
    for line in shown:
        if line == "…":
            continue
        assert line.rstrip() in printed[at:], f"docs/playing.md: not printed next: {line!r}"
        at = printed.index(line.rstrip(), at) + 1


def test_an_overcalled_player_is_told_he_may_take_it_himself(tmp_path: Path) -> None:
    record = tmp_path / "overcall.yaml"
    record.write_text(
        "ruleset: quadrille\nseed: 5\ntable: {seat: 1}\n"
        "actions: [1 bid ask, 2 pass, 3 pass, 0 bid sans-prendre]\n"
    )
    out = flat(play("--from", str(record), stdin="2\n").output)
    assert "That overcalls you: you may take it yourself (forcé) and be preferred, or pass." in out
    assert "Seat 0 overcalled you with Sans appeller (sans prendre): take it yourself" in out
    assert "You take it yourself (forcé): Sans appeller (sans prendre) [sans-prendre]" in out


def test_a_seat_that_sits_the_deal_out_is_left_out_of_the_tricks() -> None:
    result = play("tresillo", "--auto", "--seed", "2")
    assert result.exit_code == 0, result.output
    out = flat(result.output)
    assert "seat 0 [dealer, sits this deal out]" in out
    assert "Speech and play go to the right: seat 1 → seat 2 → seat 3." in out
    assert "Trick 1: seat 1 Jd · seat 2 2d · seat 3 6d — seat 1 won it with Jd." in out
    mine = flat(play("tresillo", "--seed", "2", stdin="").output)
    assert "You sit this deal out" in mine


def test_a_renonce_and_its_notice_are_told_at_the_table() -> None:
    # quadrille-renonce lists `renonce CARD` and `notice` among the legal choices: the table
    # sorts and tells them (it used to fail on `notice`, an action without a card).
    answers = "6c\n1\nseats\nAc\npass\nhelp\nlast\n1\nrenonce 2c\n1\n1\nnotice\n" + "1\n" * 40
    result = play("variants/quadrille-renonce.yaml", "--seed", "1", stdin=answers)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    out = flat(result.output)
    assert "You play 2c without following suit: a renonce." in out
    assert "You point out your own renonce in trick 1: you make a bête;" in out
    assert "play resumes from trick 1." in out
    assert "Bête for a renonce (a revoke noticed): you → the pot" in out


def test_the_tables_words_are_in_its_templates() -> None:
    """engine/table.py and engine/scoreterm.py say what to tell; templates/ say it: no
    sentence and no f-string in them outside docstrings (the settlement's item names they
    match on are data, not words)."""
    import ast

    root = Path(__file__).resolve().parent.parent
    keys = {"bête (renonce)", "fee for", "odd counters"}
    for name in ("engine/table.py", "engine/scoreterm.py"):
        tree = ast.parse((root / name).read_text(encoding="utf-8"))
        docs = {
            id(node.value)
            for node in ast.walk(tree)
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
        }
        words = [
            (node.lineno, node.value)
            for node in ast.walk(tree)
            if isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in docs
            and " " in node.value.strip()
            and node.value not in keys
        ]
        assert words == [], f"{name}: words belong in templates/: {words}"
        formatted = [node.lineno for node in ast.walk(tree) if isinstance(node, ast.JoinedStr)]
        assert formatted == [], f"{name}: f-strings at lines {formatted}"

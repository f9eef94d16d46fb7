"""The living family's mechanisms at the terminal table (issue 16), with scripted answers as a
player types them: each is offered readably (what the choice is, what passing does) and shown
from the referee's typed answers (``Deal.offer``, ``Deal.each_for_himself``,
``Deal.top_taker``, ``Deal.vole_by_defender``, ``Deal.exchange_why``, ``Deal.view``'s
``declarer_hand``, ``Party.penalty_points``), each deal is played to its end, and everything
the table writes before an answer is checked for cards the player may not see: another
seat's hand, the talon, the open (*ouvert*) hand before the referee shows it.

Rule sets: ``rules/dansk-lhombre.yaml`` and ``variants/tresillo-rocambor.yaml``. A deal with the
cards given is started from its record (``ombre play --from``), as a player goes on with one.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from engine import load_ruleset
from engine.cards import ALL_CARDS, Suit
from engine.records import read_record, record_of, write_record
from engine.referee import Deal, Phase
from engine.seeds import deal_seed
from engine.table import TableGame
from tests.referee_helpers import run

ROCAMBOR = load_ruleset("tresillo-rocambor")
DANSK = load_ruleset("dansk-lhombre")
CARD = re.compile(r"(?<![A-Za-z0-9])([AKQJT2-7][schd])(?![A-Za-z0-9])")


def from_record(deal: Deal, seat: int, tmp_path: Path, deals: int = 1) -> TableGame:
    """The game that goes on from ``deal`` as it stands, the player in ``seat``."""
    table = {"seat": seat, "seed": 1, "bots": "heuristic", "deals": deals}
    path = tmp_path / "start.yaml"
    path.write_text(write_record(record_of([deal], deal.rules.id, table=table)), "utf-8")
    return TableGame(deal.rules, human=seat, seed=1, deals=deals, start=read_record(path))


def leaks(deal: Deal, human: int, text: str) -> list[str]:
    """The cards named in ``text`` that the player may not see now: another seat's (unless it
    is the declarer's hand the referee shows open, or a card an irregularity made public) and
    the talon's (but the card turned)."""
    hidden: set[str] = set()
    for seat in range(deal.n):
        if seat == human or (seat == deal.declarer and deal.declarer_shown()):
            continue
        hidden |= {str(c) for c in deal.hand(seat)} - {str(c) for c in deal.public_cards(seat)}
    turned = deal.view(human).turned
    hidden |= {str(ALL_CARDS[c]) for c in deal.talon[deal.talon_pos :]}
    hidden -= {str(turned)}  # the card turned is shown to all, wherever it goes after
    return sorted(set(CARD.findall(_without_rules(deal, text))) & hidden)


def _without_rules(deal: Deal, text: str) -> str:
    """``text`` without the rules ``?`` states, which name cards whoever holds them ("if all
    pass, the holder of As must play"): the same words in every deal."""
    from engine.render import environment

    say = environment("text").get_template("_phrases.j2").module
    text = " ".join(text.split())
    for path in (("auction",), ("declarations", "call"), ("declarations", "demand")):
        text = text.replace(" ".join(str(say.rule_now(deal.rules, path)).split()), "")
    return text


def first_answer(deal: Deal) -> str:
    """The first choice offered (the écart: the fewest cards allowed, first in the hand)."""
    if deal.phase is Phase.EXCHANGE:
        why = deal.exchange_why()
        least = why.least if why is not None else 0
        return " ".join(["discard", *(str(c) for c in deal.hand(deal.to_move)[:least])])
    return "1"


def drive(game: TableGame, answers: Iterable[str] = ()) -> tuple[int, str]:
    """Plays the game with ``answers`` first, then the first choice at every turn; checks
    before each answer that nothing the player may not see was written. Returns the exit
    status and everything written."""
    out: list[str] = []
    queue = list(answers)
    seen = 0

    def read(prompt: str) -> str | None:
        nonlocal seen
        assert game.played, "asked before a deal"
        deal = game.played[-1]
        assert game.human is not None
        new = "\n".join(out[seen:])
        seen = len(out)
        if "=== Deal" in new:
            new = new[new.rindex("=== Deal") :]  # what was told of an earlier deal is over
        assert not leaks(deal, game.human, new), (leaks(deal, game.human, new), new)
        if len(out) > 20_000:
            return None
        if queue:
            return queue.pop(0)
        if deal.is_over:
            return "quit"
        return first_answer(deal)

    status = game.run(read, out.append)
    return status, "\n".join(out)


def flat(text: str) -> str:
    """The output with its folded lines joined (the table folds lines at its width)."""
    return " ".join(text.split())


def penetro_offered() -> Deal:
    """A Rocambor deal (seat 0 deals and sits out), the espada in the talon; the three who play
    have passed: the penetro is offered to seat 0."""
    from tests.referee_helpers import tresillo

    return run(tresillo(ROCAMBOR, {}, talon="As"), ["1 pass", "2 pass", "3 pass"])


# The penetro (mechanism 9).


def test_the_penetro_is_offered_to_the_player_sitting_out_with_what_passing_does(
    tmp_path: Path,
) -> None:
    status, out = drive(from_record(penetro_offered(), 0, tmp_path), ["2"])
    text = flat(out)
    assert status == 0
    assert "Everyone who plays has passed. You sit this deal out: take up Penetro" in text
    assert "or pass, and the deal is void and dealt again (seat 1 deals):" in text
    assert "1) pass: do not take it up (the deal is void and dealt again)" in text
    assert "2) bid penetro: take up Penetro" in text
    assert "You take up Penetro" in text
    assert "you take 9 cards from the talon and play too. The most tricks score." in text
    # All against all: each seat's tricks, no declarer's side.
    assert "taken up by you · every seat for himself · no trumps" in text
    assert "every seat for himself: seat" in text and "has the most tricks so far" in text
    assert "declarer (you)" not in text and "defenders (" not in text
    assert "Result: penetro." in text and "every seat for himself: seat" in text
    assert "took the most tricks" in text


def test_the_help_names_only_the_contract_offered(tmp_path: Path) -> None:
    _, out = drive(from_record(penetro_offered(), 0, tmp_path), ["?", "1"])
    text = flat(out)
    assert (
        "The contract offered to you, sitting out, now that every seat that plays has passed:"
        in text
    )
    assert "bid penetro — Penetro" in text and "every seat plays for himself, no sides" in text
    assert "bid entrada —" not in text  # not what he may bid now


def test_declining_the_penetro_passes_the_deal_out(tmp_path: Path) -> None:
    status, out = drive(from_record(penetro_offered(), 0, tmp_path), ["1"])
    text = flat(out)
    assert status == 0
    assert "You do not take up Penetro" in text
    assert "the deal is void and dealt again, seat 1 dealing." in text
    assert "Everybody passed: the deal is void, and the cards are dealt again." in text


def test_a_bot_that_takes_up_the_penetro_is_told_and_its_cards_stay_hidden(
    tmp_path: Path,
) -> None:
    # The heuristic bot at seat 0 takes it up where nobody can lose by it; the player, seat 1,
    # sees its nine cards from the talon counted, never named (checked by drive).
    status, out = drive(from_record(penetro_offered(), 1, tmp_path))
    text = flat(out)
    assert status == 0
    assert "Seat 0 takes up Penetro" in text
    assert "seat 0 takes 9 cards from the talon and plays too." in text
    assert "taken up by seat 0 · every seat for himself" in text
    assert "Result: penetro." in text


# The nolos and nolo ouvert (dansk-lhombre).


def test_nolo_ouvert_shows_the_declarers_hand_only_once_the_first_card_is_led(
    tmp_path: Path,
) -> None:
    # Seat 0 bids nolo ouvert after the two others passed; the player is seat 1, the eldest.
    deal = run(Deal(DANSK, dealer=0, seed=deal_seed(2, 0)), ["1 pass", "2 pass"])
    deal.apply("0 bid nolo-ouvert")
    game = from_record(deal, 1, tmp_path)
    status, out = drive(game)
    assert status == 0
    deal = game.played[-1]
    assert deal.contract is not None and deal.contract.id == "nolo-ouvert"
    lead = out.index("Your lead (trick 1):")
    assert "Open on the table" not in out[:lead]  # not before the first card (checked: drive)
    after = out[lead:]
    assert "Open on the table, seat 0's hand:" in after
    assert "no trumps" in out and "Result:" in out


def test_a_nolo_is_played_to_its_end_without_trumps(tmp_path: Path) -> None:
    deal = run(Deal(DANSK, dealer=0, seed=deal_seed(2, 0)), ["1 bid kobe-nolo", "2 pass", "0 pass"])
    status, out = drive(from_record(deal, 1, tmp_path))
    text = flat(out)
    assert status == 0
    assert "Contract: Købe nolo" in text and "· no trumps" in text
    assert "Result:" in text


# The contrabola: exactly one card.


def test_the_contrabola_asks_for_exactly_one_card(tmp_path: Path) -> None:
    from tests.referee_helpers import tresillo

    deal = run(tresillo(ROCAMBOR, {}), ["1 pass", "2 pass"])
    game = from_record(deal, 3, tmp_path)
    status, out = drive(game, ["bid contrabola", "discard"])
    text = flat(out)
    assert status == 0
    assert "Your écart: discard exactly 1 and draw as many from the talon" in text
    assert "Refused:" in text  # discarding nothing is not the contrabola's one card
    assert [len(d) for _, d, _ in game.played[-1].exchanges] == [1]
    assert "Result: contrabola" in text


# The bola, and a defender who goes on for the vole (vole.by: any-seat).


def test_the_bola_is_played_to_its_end(tmp_path: Path) -> None:
    from tests.referee_helpers import tresillo

    deal = tresillo(ROCAMBOR, {1: "As Ac 2s Ks Qs Js 7s 6s 5s"})
    status, out = drive(from_record(deal, 1, tmp_path), ["bid bola"])
    text = flat(out)
    assert status == 0
    assert "You bid Bola" in text and "Result:" in text


def test_a_defender_who_took_the_first_five_is_asked_readably(tmp_path: Path) -> None:
    from tests.test_defender_vole import five_to_the_defender

    game = from_record(five_to_the_defender(), 2, tmp_path)
    status, out = drive(game, ["vole"])
    text = flat(out)
    assert status == 0
    assert "You have taken every trick so far, a defender: 'vole' to go on for all of them" in text
    assert "as the declarer, alone" in text
    assert "1) vole: go on for every trick as the declarer, alone" in text
    assert "2) stop: lay down" in text
    deal = game.played[-1]
    assert deal.declarer == 2 and deal.vole_undertaken and deal.is_over


def test_the_sides_vole_decision_is_worded_for_the_side(tmp_path: Path) -> None:
    from tests.referee_helpers import tresillo

    deal = run(
        tresillo(ROCAMBOR, {1: "As Ac 2s Ks Qs Js 7s 6s 5s"}),
        ["1 bid sans-prendre spades", "2 pass", "3 pass"],
    )
    if deal.phase is Phase.RAISE:
        deal.apply("1 pass")  # where the variant lets the winner raise: he keeps his solo
    assert deal.trump == Suit.SPADES.index  # named with the bid: nobody names trumps after
    while deal.phase is Phase.EXCHANGE:
        deal.apply(first_answer(deal))
    while deal.phase is Phase.PLAY:
        strength = deal.t.strength[deal.trump or 0]
        pick = max if deal.to_move == 1 else min
        deal.apply(pick(deal.legal_actions(), key=lambda a: strength[a.card.index]))
    assert deal.phase is Phase.VOLE
    status, out = drive(from_record(deal, 1, tmp_path), ["stop"])
    text = flat(out)
    assert status == 0
    assert "Your side has taken every trick so far" in text and "a defender" not in text
    assert "2) stop: lay down and take the game as it stands" in text


# The raise and a defender's choice of exchanging first.


def test_the_raise_is_offered_readably(tmp_path: Path) -> None:
    deal = run(Deal(DANSK, dealer=0, seed=deal_seed(1, 0)), ["1 bid spil", "2 pass", "0 pass"])
    assert deal.phase is Phase.RAISE
    choices = [str(a) for a in deal.legal_actions()]
    pick = choices.index("bid kobe-nolo") + 1
    status, out = drive(from_record(deal, 1, tmp_path), [str(pick)])
    text = flat(out)
    assert status == 0
    assert "You won the auction with Spil (alm. spil) [spil]: pass to play it" in text
    assert "1) pass: play Spil (alm. spil) (the contract won)" in text
    assert f"{pick}) bid kobe-nolo: play Købe nolo" in text and "instead" in text
    assert "You play Købe nolo" in text and "instead." in text
    assert "Contract: Købe nolo" in text


def test_a_defender_types_defer_to_let_the_other_exchange_first(tmp_path: Path) -> None:
    # 'defer' was read as a card to discard ("discard defer") and never reached the referee.
    rules_path = tmp_path / "test-either.yaml"
    rules_path.write_text(
        "id: test-either-term\nname: Either\nextends: tresillo\nsummary: A test of defer.\n"
        "exchange:\n  defenders: either-first\n  basis: {evidence: conjecture, note: a test}\n",
        "utf-8",
    )
    rules = load_ruleset(rules_path)
    from tests.referee_helpers import tresillo

    deal = run(tresillo(rules, {}), ["1 bid entrada", "2 pass", "3 pass"])
    deal.apply(str(deal.legal_actions()[0]), seat=1)  # trumps
    deal.apply("1 discard")
    assert deal.may_defer() and deal.to_move == 2
    status, out = drive(from_record(deal, 2, tmp_path), ["defer"])
    text = flat(out)
    assert status == 0
    assert "or 'defer' to let the other defender exchange first" in text
    assert "You let the other defender exchange first." in text
    assert "Not understood" not in text


# Points, a race to a target, penalty points in the party's standing.


def test_penalty_points_stand_beside_the_points_in_the_standing() -> None:
    game = TableGame(DANSK, human=1, seed=2, deals=2)
    status, out = drive(game, ["bid bedre-spil"])
    text = flat(out)
    assert status == 0
    # Told when the bid is made, and scored at the end.
    assert "You bid Bedre spil (spil in spades) [bedre-spil]. A bid named without need to" in text
    assert "(strafpoint): 1 penalty point for you, scored whatever the result." in text
    assert "Penalty points, A bid named without need to overcall (strafpoint): you -1." in text
    # The standing after the deal: the points, and the penalty points in them.
    assert re.search(
        r"After 1 deal: seat 0 [+-]\d+ · you -?\d+ · seat 2 [+-]\d+\. Penalty points in these: you -1\.",
        text,
    )


def test_the_race_to_twelve_is_in_the_standing(tmp_path: Path) -> None:
    game = from_record(penetro_offered(), 0, tmp_path, deals=2)
    status, out = drive(game, ["2"])
    assert status == 0
    assert "After 1 deal (points; the first to 12 wins the party):" in flat(out)


# The laws of the table: a hand laid down without naming trumps, and trumps named for it.


def test_a_hand_laid_down_unnamed_is_declared_and_another_names_trumps(tmp_path: Path) -> None:
    quadrille = load_ruleset("quadrille")
    record = read_record(Path(__file__).parent / "records" / "quadrille-law-lay-down-unnamed.yaml")
    first = record.deals[0]
    deal = Deal(quadrille, dealer=first.dealer, hands=first.hands, talon=first.talon)
    run(deal, ["1 bid sans-prendre", "2 pass", "3 pass", "0 pass"])
    # The declarer lays down at the terminal (as typed); the bot after him names trumps.
    game = from_record(deal, 1, tmp_path)
    status, out = drive(game, ["laws", "lay-down"])
    text = flat(out)
    assert status == 0
    assert "Irregularities you may declare now" in text and "lay-down" in text
    assert "You: lay-down (the law of the play lay down unnamed;" in text
    assert "Seat 2 names clubs trumps for the hand laid down unnamed." in text
    # The seat after him is asked in words what the choice is.
    run(deal, ["1 lay-down"])
    status, out = drive(from_record(deal, 2, tmp_path), ["2"])
    text = flat(out)
    assert status == 0
    assert "Seat 1 laid his hand down without naming trumps: name the suit he must play in" in text
    assert "1) name-trump spades 2) name-trump clubs" in text
    assert "Lying open: seat 1 " in text  # the hand laid down, on his screen
    assert "You name clubs trumps for the hand laid down unnamed." in text


def test_a_party_played_to_its_target_ends_at_the_terminal(tmp_path: Path) -> None:
    from tests.referee_helpers import tresillo

    path_rules = tmp_path / "race.yaml"
    path_rules.write_text(
        "id: test-race-term\nname: Race\nextends: tresillo-rocambor\nsummary: A test race.\n"
        "party:\n  target: 1\n  basis: {evidence: conjecture, note: a test}\n",
        "utf-8",
    )
    rules = load_ruleset(path_rules)
    deal = run(
        tresillo(rules, {1: "As Ac 2s Ks Qs Js 7s 6s 5s"}),
        ["1 bid sans-prendre spades", "2 pass", "3 pass"],
    )
    game = from_record(deal, 1, tmp_path)
    game.deals = None  # the party is played to its end (ombre play: to the target)
    status, out = drive(game)
    text = flat(out)
    assert status == 0
    assert "After 1 deal (points; the first to 1 wins the party):" in text
    assert "The party is over: you reached 1" in text
    assert len(game.played) == 1

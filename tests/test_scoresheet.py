"""The scorekeeper settles like the referee: bot parties under every rule file, entered deal by
deal without their cards, give the same balances, pots and bêtes; impossible entries are refused
with a code and the rule."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine import IllegalActionError, NotationError, load_ruleset
from engine.bots import make_bot
from engine.referee import Deal
from engine.referee.held import paid_cards
from engine.referee.party import Party
from engine.rules.loader import default_registry
from engine.scoresheet import Entry, Evening, load_evening, parse_entry, write_evening
from tests.scorekeeper_helpers import quadrille_entry

RULESETS = [i for i, _, _ in default_registry().files()]


def entry_of(deal: Deal) -> Entry:
    """What a scorekeeper at the table would have written down for a deal the referee played."""
    faults = tuple(deal.faults)  # the penalty points a director writes down
    if deal.result == "redeal":
        return Entry(dealer=deal.dealer, passed=True, penalties=faults)
    assert deal.declarer is not None and deal.contract is not None
    holder = None
    if deal.called is not None:
        holder = deal.demanded_from if deal.demanded_from is not None else deal.partner
        if holder is None:
            holder = deal.declarer
    highest = None
    if deal.table.remainder and deal.trump is not None:
        for c in deal.t.trump_order[deal.trump]:
            highest = next((s for s in range(deal.n) if deal.start_hands[s] >> c & 1), None)
            if highest is not None:
                break
    report = deal.report()
    from engine.referee.result import trump_holders

    holders = trump_holders(deal) if deal.rules.codille_remainder == "highest-trumps" else ()
    return Entry(
        dealer=deal.dealer,
        contract=deal.contract.id,
        declarer=deal.declarer,
        trump=report["trump"],
        called=report["called"],
        holder=holder,
        tricks=tuple(deal.won),
        matadors=deal.paid_matadors(),
        vole=deal.vole_undertaken and not deal.contract.announces_vole,
        highest_trump=highest,
        trump_holders=holders,
        renonces=tuple(deal.penalties),
        penalties=faults,
        # Roi rendu: the called card went to the declarer, who played alone.
        surrendered=deal.contract.help == "call" and deal.demanded_from is not None,
        held=tuple(
            (str(paid), next(s for s in range(deal.n) if deal.start_hands[s] >> card & 1))
            for paid in paid_cards(deal.rules)
            for card in [paid.index]
            if any(h >> card & 1 for h in deal.start_hands)
        ),
    )


def bot_party(ruleset: str, deals: int, seed: int) -> Party:
    rules = load_ruleset(ruleset)
    party = Party(rules)
    bots = [make_bot("random", seed + k) for k in range(rules.players)]
    for i in range(deals):
        deal = party.new_deal(seed=seed * 1000 + i)
        while not deal.is_over:
            deal.apply(bots[deal.to_move].choose(deal, deal.to_move))
    return party


@pytest.mark.parametrize("ruleset", RULESETS)
def test_scored_evening_matches_the_referee(ruleset: str, tmp_path: Path) -> None:
    party = bot_party(ruleset, 12, 7)
    evening = Evening(party.rules)
    for deal in party.deals:
        scored = evening.score(entry_of(deal))
        assert deal.settlement is not None
        assert scored.result == deal.result
        assert scored.settlement.balances == deal.settlement.balances
        assert scored.settlement.pot_after == deal.settlement.pot_after
        assert scored.settlement.table == deal.settlement.table
    assert evening.totals == party.totals
    # The record form reads back to the same evening.
    path = tmp_path / "evening.yaml"
    path.write_text(write_evening(evening), encoding="utf-8")
    again = load_evening(path, load_ruleset)
    assert again.totals == party.totals
    assert [d.entry for d in again.deals] == [d.entry for d in evening.deals]


def test_the_last_tour_is_scored_as_the_referee_plays_it() -> None:
    # The last tour of a party (deals 36-39 here) doubles the dealer's stake and the payments.
    party = bot_party("quadrille-last-tour-double", 40, 3)
    evening = Evening(party.rules)
    for deal in party.deals:
        scored = evening.score(entry_of(deal))
        assert deal.settlement is not None
        assert scored.settlement.balances == deal.settlement.balances
        assert scored.settlement.table == deal.settlement.table
    assert party.deals[-1].factor == 2 and evening.totals == party.totals


@pytest.mark.parametrize(
    ("changes", "code"),
    [
        ({"called": "Kc"}, "score/call-trump"),
        ({"called": "Jd"}, "score/not-callable"),
        ({"contract": "sans-prendre"}, "score/no-call"),
        ({"tricks": [1, 3, 3, 4]}, "score/tricks"),
        ({"matadors": 2}, "score/matadors"),
        ({"vole": True, "tricks": [3, 2, 2, 3]}, "score/vole-too-early"),
        ({"contract": "mediateur"}, "score/unknown-contract"),
    ],
)
def test_impossible_entries_are_refused_with_the_rule(
    changes: dict[str, object], code: str
) -> None:
    evening = Evening(load_ruleset("quadrille"))
    entry = parse_entry(quadrille_entry(**changes), dealer=0, n=4)
    with pytest.raises(IllegalActionError) as info:
        evening.score(entry)
    assert info.value.code == code
    assert info.value.rule  # the rule and its source
    assert not evening.deals


def test_dealer_out_of_turn_is_refused() -> None:
    evening = Evening(load_ruleset("quadrille"))
    with pytest.raises(IllegalActionError) as info:
        evening.score(parse_entry(quadrille_entry(), dealer=2, n=4))
    assert info.value.code == "score/dealer-order"


def test_worked_settlement_4_1_a() -> None:
    # tests/records/quadrille-ask-win.yaml, scored without its cards: [-14, 9, -4, 9].
    evening = Evening(load_ruleset("quadrille"))
    scored = evening.score(parse_entry(quadrille_entry(), dealer=0, n=4))
    assert scored.result == "win"
    assert list(scored.settlement.balances) == [-14, 9, -4, 9]


@pytest.mark.parametrize(
    "data",
    [
        {"contract": "ask"},
        {"passed": True, "contract": "ask"},
        {**quadrille_entry(), "tricks": [1, 2]},
        {**quadrille_entry(), "declarer": 7},
        {**quadrille_entry(), "colour": "red"},
        {**quadrille_entry(), "called": "Zz"},
    ],
)
def test_malformed_entries_are_notation_errors(data: dict[str, object]) -> None:
    with pytest.raises(NotationError):
        parse_entry(data, dealer=0, n=4)


def run_score(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine.cli", "score", *args],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_an_impossible_evening_file_is_refused_with_its_place(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        "ruleset: quadrille\noptions: {}\ndeals:\n  - dealer: 0\n"
        "    score: {contract: ask, declarer: 1, trump: clubs, called: Kc, holder: 3,"
        " tricks: [1, 3, 3, 3]}\n",
        encoding="utf-8",
    )
    run = run_score("--evening", str(bad), "--report")
    assert run.returncode == 1
    assert f"{bad}:5:" in run.stderr and "deal 1" in run.stderr and "score/call-trump" in run.stderr
    typo = tmp_path / "typo.yaml"
    typo.write_text("ruleset: quadrille\ndeals:\n  - dealer: 0\n    scor: {}\n", encoding="utf-8")
    run = run_score("--evening", str(typo), "--json")
    assert run.returncode == 1
    assert json.loads(run.stdout)["error"]["code"] == "record"
    assert run_score("--report").returncode == 2


def test_the_report_names_the_players_and_says_why_one_pays_alone(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from engine.cli import app

    path = tmp_path / "evening.yaml"
    path.write_text(
        "ruleset: quadrille\nplayers: [Anne, Bertrand, Claire, Denis]\ndeals:\n"
        "  - dealer: 0\n    score: {contract: ask, declarer: 1, trump: hearts, called: Kc,"
        " holder: 3, tricks: [2, 2, 3, 3]}\n"
        "  - dealer: 1\n    score: {contract: ask, declarer: 2, trump: spades, called: Kd,"
        " holder: 0, tricks: [1, 3, 1, 5]}\n",
        encoding="utf-8",
    )
    result = CliRunner().invoke(app, ["score", "--evening", str(path), "--report"])
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert "Players: seat 0 Anne, seat 1 Bertrand, seat 2 Claire, seat 3 Denis" in text
    assert "Deal 2 — Bertrand deals: codille" in text
    assert "bête: Claire → the pot 42" in text
    assert "Why Claire pays alone: the declarer took only 1 trick" in text
    assert "seat 0" not in text.split("Players:")[1].split("\n", 1)[1]  # names, not numbers
    assert "[" not in text.splitlines()[-1] and "totals: [" not in text  # no Python list
    table = text.split("Totals after 2 deals")[1].splitlines()
    assert table[1].split() == ["deal", "Anne", "Bertrand", "Claire", "Denis"]
    evening = load_evening(path, load_ruleset)
    assert table[3].split()[1:] == [f"{v:+d}" for v in evening.totals]
    assert evening.running_totals()[-1] == evening.totals


def test_the_report_gives_each_payment_its_own_basis_from_the_referees_lines(
    tmp_path: Path,
) -> None:
    from typer.testing import CliRunner

    from engine.cli import app

    path = tmp_path / "evening.yaml"
    path.write_text(
        "ruleset: quadrille\nplayers: [Anne, Bertrand, Claire, Denis]\ndeals:\n"
        "  - dealer: 1\n    score: {contract: ask, declarer: 2, trump: spades, called: Kd,"
        " holder: 0, tricks: [1, 3, 1, 5]}\n",
        encoding="utf-8",
    )
    result = CliRunner().invoke(app, ["score", "--evening", str(path), "--report"])
    assert result.exit_code == 0, result.output
    flat = " ".join(result.stdout.split())  # the bases are folded at the table's width
    (scored,) = load_evening(path, load_ruleset).deals
    lines = scored.settlement.payments
    assert {p.kind for p in lines} >= {"stake", "pot", "items", "bete"}
    rules = load_ruleset("quadrille")
    for p in lines:
        assert p.bases, p
        for part, basis in zip(p.items or (p.item,), p.bases, strict=False):
            told = basis.evidence
            if basis.cites:
                cite = basis.cites[0]
                told += f"; {cite.source}, {cite.locator}"
                if cite.quote:
                    told += f": “{' '.join(cite.quote.split())}”"
            if p.kind == "stake":
                told = {"dealer": "the dealer's stake", "each": "each player's stake"}[part] + (
                    f": [{told}]"
                )
            elif len(p.items) > 1:
                told = f"{rules.items[part].name}: [{told}]"
            else:
                told = f"[{told}]"
            assert told in flat, (p, told)
    # Who pays alone and why: the settlement's own answer, with its basis.
    alone = scored.settlement.alone
    assert alone is not None and alone.declarer == 2 and alone.tricks == 1
    assert (
        f"Claire pays alone: the declarer took only 1 trick himself, fewer than {alone.below}"
        in flat
    )
    assert alone.basis.cites and alone.basis.cites[0].locator in flat


def test_a_queen_called_without_every_king_is_refused_with_the_referees_reason() -> None:
    # Quadrille's call falls back to a queen only for a caller holding all four kings. The
    # entry says seat 2 held the king of spades: the declarer, seat 1, cannot call a queen.
    from engine.referee import Deal

    rules = load_ruleset("quadrille")
    evening = Evening(rules)
    entry = parse_entry(quadrille_entry(called="Qd", held={"Ks": 2}), dealer=0, n=4)
    with pytest.raises(IllegalActionError) as info:
        evening.score(entry)
    assert info.value.code == "score/queen-needs-all-kings"
    assert not evening.deals
    # The same reason as the referee's, for a caller at the table without every king.
    deal = Deal(rules, seed=1)
    while deal.phase != "call":
        legal = deal.legal_actions()
        bids = [a for a in legal if str(a) == "bid ask"]
        trumps = [a for a in legal if a.verb == "trump"]
        deal.apply(bids[0] if bids else trumps[0] if trumps else legal[0])
    kings = sum(1 for c in deal.hand(deal.to_move) if c.rank.name == "KING")
    assert kings < 4
    why = deal.refusal("call Qd")
    assert why is not None and why.code == "call/queen-needs-all-kings"
    assert info.value.detail == why.detail
    # With nothing in the entry against it (the kings' holder unknown), the queen stands.
    fine = parse_entry(quadrille_entry(called="Qd"), dealer=0, n=4)
    assert evening.score(fine).result


def test_an_evening_is_written_in_the_documented_form_and_keeps_a_deals_note() -> None:
    """The evening is written by the one emitter (engine.rules.emitter): bare ids and cards, as
    docs/records.md shows it; a note on a deal, read from the file, is written back (it was
    dropped when the evening was saved again)."""
    from engine.scoresheet import read_evening

    text = (
        'title: "Thursday at the Assembly Rooms"\nruleset: quadrille\n'
        'players: ["Anne", "Bea", "Cass", "Dora"]\noptions: {}\ndeals:\n  - dealer: 0\n'
        '    note: "Bea swears the king was led"\n'
        "    score: {contract: ask, declarer: 1, trump: clubs, called: Kd, holder: 3,"
        " tricks: [1, 3, 3, 3], matadors: 0, vole: false}\n"
        "    # win; balances [-14, 9, -4, 9]; on the table 0\n"
    )
    evening = read_evening(text, "evening.yaml", load_ruleset)
    assert evening.deals[0].entry.note == "Bea swears the king was led"
    assert write_evening(evening) == text
    again = read_evening(write_evening(evening), "evening.yaml", load_ruleset)
    assert [d.entry for d in again.deals] == [d.entry for d in evening.deals]


def test_an_evening_file_is_checked_as_rule_files_are() -> None:
    """engine/schema/evening.schema.json: every problem at once, located, with the codes and
    words the scorekeeper gave one at a time."""
    from engine.errors import RecordError
    from engine.scoresheet import read_evening

    text = (
        "ruleset: quadrille\nplayers: [Anne, 3]\ncolour: red\ndeals:\n  - dealer: 0\n"
        "    scor: {}\n  - 7\n"
    )
    with pytest.raises(RecordError) as caught:
        read_evening(text, "evening.yaml", load_ruleset)
    found = [(p.line, p.code, p.message) for p in caught.value.problems]
    assert found == [
        (2, "record/type", "players must be a list of names"),
        (3, "record/unknown-key", "unknown key 'colour'"),
        (5, "record/no-score", "a deal without card play has score:"),
        (6, "record/unknown-key", "unknown key 'scor'"),
        (7, "record/type", "a deal is a mapping (dealer, score)"),
    ]
    with pytest.raises(RecordError) as caught:
        read_evening("deals: []\n", "evening.yaml", load_ruleset)
    [problem] = caught.value.problems
    assert (problem.path, problem.code) == ("$.ruleset", "record/no-ruleset")


def test_a_laid_down_entry_is_checked_by_the_referees_own_rule() -> None:
    """The referee offers to lay down only after exactly the first ``vole.after_tricks`` tricks,
    all the side's; an entry with the side stopping later was accepted by the scorekeeper's own
    reading of the threshold."""
    from engine.referee.play import may_lay_down

    rules = load_ruleset("ombre")
    after = rules.vole_after
    contract = rules.contracts["entrada"]
    assert may_lay_down(rules, contract, after, after)
    assert not may_lay_down(rules, contract, after + 1, after + 1)

    def entry(tricks: tuple[int, ...]) -> Entry:
        return Entry(dealer=0, contract="entrada", declarer=1, trump="spades", tricks=tricks)

    evening = Evening(rules)
    result = evening.check(entry((0, after, 0))).result  # laid down after the first five
    assert result == evening.check(entry((2, after, 2))).result  # as won as a hand played out
    with pytest.raises(IllegalActionError) as refused:
        evening.check(entry((0, after + 1, 0)))  # no stopping after the sixth
    assert refused.value.code == "score/tricks"


def test_a_contract_without_trumps_is_entered_without_a_suit() -> None:
    """Rocambor's contrabola is played without trumps (``trumps: none``): the scorekeeper takes
    it with no suit named and no matadors, scores it from the tariff (4 made), and refuses a
    suit named for it (it once asked for one, and then could not score the deal)."""
    rules = load_ruleset("tresillo-rocambor")
    made = Entry(dealer=0, contract="contrabola", declarer=3, tricks=(0, 4, 5, 0))
    scored = Evening(rules).score(made)
    assert scored.result == "contrabola"
    assert scored.settlement.balances[3] == 4
    with pytest.raises(IllegalActionError) as caught:
        Evening(rules).score(dataclasses.replace(made, trump="hearts"))
    assert "without trumps" in str(caught.value)


def test_penalty_points_are_entered_at_the_terminal_and_scored_from_the_referees_lines() -> None:
    """The DLU's "… kan der idømmes 1 strafpoint." (dlu, Bedre spil): the scorekeeper asks for
    the faults of a game in penalty points, asks again for a malformed answer, refuses an
    unknown fault with the rules' list, and tells the points from the settlement's typed
    penalty line."""
    from engine.scoreterm import run_score

    evening = Evening(load_ruleset("dansk-lhombre"))
    said: list[str] = []
    answers = iter(
        [
            # contract, declarer, trumps, tricks, penalties (malformed twice, then an unknown
            # fault: refused, and the deal asked again); no card is called, no matador paid
            # and no vole played in this game: none is asked
            *("bedre-spil", "1", "spades", "2 5 2", "one fault", "7 named-without-need"),
            "1 no-such-fault",
            *("bedre-spil", "1", "spades", "2 5 2", "1 named-without-need"),
            # a deal passed out still scores its faults
            *("passed", "2 naming-suit"),
        ]
    )
    run_score(evening, None, lambda prompt: next(answers, None), said.append)
    text = "\n".join(said)
    assert text.count("each penalty is a seat (0 to 2) and a fault") == 2
    assert "no fault 'no-such-fault' is scored in penalty points" in text
    assert len(evening.deals) == 2
    first, passed = evening.deals
    assert first.entry.penalties == ((1, "named-without-need"),)
    assert first.settlement.balances == (0, 1 - 1, 0)  # won 1, a penalty point 1
    assert passed.settlement.balances == (0, 0, -1)
    assert "Penalty points: seat 1 1 (A bid named without need to overcall (strafpoint))" in text
    assert "Penalty points: seat 2 1 (A suit named before the bid is won (strafpoint))" in text


def test_a_game_without_penalty_points_is_not_asked_for_them() -> None:
    from engine.scoreterm import run_score

    evening = Evening(load_ruleset("quadrille"), {}, 0)
    prompts: list[str] = []

    answers = iter(["ask", "1", "clubs", "Kd", "3", "0 3 3 4", "0", "n"])

    def read(prompt: str) -> str | None:
        prompts.append(prompt)
        return next(answers, None)

    run_score(evening, None, read, lambda _: None)
    assert len(evening.deals) == 1
    assert not any("penalty" in p for p in prompts)


def test_a_contract_entered_by_an_alias_of_the_rules_is_the_contract_its_id_names() -> None:
    """``jouer`` is Ombre's entrada (the rule file's alias, RuleSet.contract_id): the evening
    keeps the id, as a played deal's summary names it; a name that is no alias is refused."""
    rules = load_ruleset("ombre")
    evening = Evening(rules)
    data = {"contract": "jouer", "declarer": 1, "trump": "spades", "tricks": [2, 5, 2]}
    scored = evening.score(parse_entry(data, dealer=0, n=3))
    assert scored.entry.contract == "entrada" and scored.result == "win"
    quadrille = Evening(load_ruleset("quadrille"))
    bad = {"contract": "ask clubs", "declarer": 1, "trump": "clubs", "tricks": [1, 6, 2, 1]}
    with pytest.raises(IllegalActionError) as caught:
        quadrille.score(parse_entry(bad, dealer=0, n=4))
    assert caught.value.code == "score/unknown-contract"


def test_a_surrender_with_no_card_called_is_refused_not_a_crash() -> None:
    evening = Evening(load_ruleset("quadrille-roi-rendu"))
    data = {
        "contract": "sans-prendre",
        "declarer": 1,
        "trump": "clubs",
        "tricks": [1, 6, 2, 1],
        "surrendered": True,
    }
    with pytest.raises(IllegalActionError) as caught:
        evening.score(parse_entry(data, dealer=0, n=4))
    assert caught.value.code == "score/no-surrender" and not evening.deals


def test_the_irregularities_read_a_seat_as_the_question_writes_it() -> None:
    from engine.scoresheet import parse_irregularities

    assert parse_irregularities("seat 0 turn-hand seat 1, Seat 2 show 3") == [
        {"seat": 0, "law": "turned_hand", "hand": 1},
        {"seat": 2, "law": "shown_cards", "side_tricks": 3},
    ]
    assert parse_irregularities("0 turn-hand 1") == parse_irregularities("seat 0 turn-hand seat 1")

"""The typed deal-result layer: every reader asks the referee's answers, and the copies that
once worked them out again (and got them wrong) are caught here."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import load_ruleset
from engine.bots import BOTS
from engine.compare import play as compare_play
from engine.documents.book import _find_examples, example_partner
from engine.referee import Deal
from engine.referee.seating import seating
from engine.referee.settlement import (
    Game,
    Kind,
    PaymentKind,
    TableState,
    outcome_kind,
    outcome_kinds,
)
from engine.simulate import Setup, Tally, parse_bots, play_deal, settled
from tests.referee_helpers import first_holding

# Deal 1087 of an Ombre party with heuristic bots from seed 1 is a vole made (Ombre's vole
# sweeps the board: `pot: board`).
OMBRE_VOLE = 1087


def test_every_outcome_has_a_kind_read_from_the_rule_file() -> None:
    ombre = load_ruleset("ombre")
    kinds = outcome_kinds(ombre)
    assert set(kinds) == {*ombre.outcomes, "redeal"}
    assert kinds["vole"].kind is Kind.VOLE_MADE and kinds["vole"].won
    assert kinds["vole-failed"].kind is Kind.VOLE_FAILED and kinds["vole-failed"].won
    assert kinds["codille"].game is Game.CODILLE and not kinds["codille"].won
    assert kinds["remise"].game is Game.REMISE
    assert kinds["redeal"].game is Game.REDEAL
    # A remise reached by a failed bola is a remise, and a failed vole.
    tresillo = outcome_kind(load_ruleset("tresillo"), "bola-puesta")
    assert tresillo.game is Game.REMISE and tresillo.vole == "failed"
    # The contre failed, the game won (variants/quadrille-contre.yaml): won, not a remise.
    assert outcome_kind(load_ruleset("quadrille-contre"), "contre-failed").won


def test_an_ombre_vole_is_counted_as_won_by_simulate() -> None:
    rules = load_ruleset("ombre")
    setup = Setup(rules, parse_bots("heuristic", 3, BOTS), 1, {})
    played = play_deal(setup, OMBRE_VOLE)
    assert played.outcome.result == "vole"
    tally = Tally(setup, 1)
    tally.add(0, played, settled(rules, played, TableState()))
    doc = tally.as_json()
    assert doc["declarer_won"] == 1
    assert doc["declarer_codille"] == 0


def test_an_ombre_vole_is_counted_as_won_by_compare() -> None:
    rules = load_ruleset("ombre")
    deals = compare_play(rules, {}, OMBRE_VOLE + 1, 1, "heuristic")
    vole = deals[OMBRE_VOLE]
    assert vole.result == "vole"
    assert vole.won and vole.vole_made
    # ... and so does its report, which every renderer reads (won, not a codille).
    from engine.compare import compare, render_text

    report = compare(rules, rules, 1, player=lambda *_a, **_k: [vole], confirm=False).report()
    side = report.rulesets[0]
    assert side.results == {"vole": 1}
    assert side.declarer_won.value == 1.0 and side.vole_made.value == 1.0
    assert side.bete_rate.value == 0.0
    line = next(x for x in render_text(report).splitlines() if x.startswith("declaring side"))
    assert line.split()[3] == "100.0%"


def test_the_eldest_is_the_referees_in_the_deal_pages_and_the_evening() -> None:
    """The replay, the deal pages and the web evening name the eldest from the referee's
    seating, never as the dealer's next seat worked out again."""
    from engine.documents.deal_page import replay_story
    from engine.records import read_record
    from engine.render import render
    from engine.scoresheet import Evening

    records = Path(__file__).resolve().parent / "records"
    for path in sorted(records.glob("*.yaml")):
        rec = read_record(path)
        rules = load_ruleset(rec.ruleset)
        story = replay_story(rec, rules, path.name)
        text = render("replay.txt.j2", "text", story=story)
        for d, deal in zip(story.deals, story.report.played, strict=True):
            assert d.number == d.index + 1  # replays number deals from 1; the JSON index from 0
            assert d.eldest == deal.eldest == seating(rules, deal.dealer).eldest
            # (a game in counters goes on with what was on the table before; one in points not)
            head = f"Deal {d.number}: dealer seat {deal.dealer}, eldest seat {deal.eldest}"
            assert f"{head};" in text or f"{head}\n" in text
    for rid in ("tresillo", "quadrille", "ombre"):
        rules = load_ruleset(rid)
        for first in range(rules.players):
            evening = Evening(rules, first_dealer=first)
            assert evening.next_eldest == seating(rules, first).eldest


def test_a_board_vole_is_a_won_game_in_the_book(tmp_path: Path) -> None:
    # A won game is never borne alone: with a vole that sweeps the board, the book must not
    # show a vole "paid alone" by a declarer with few tricks of his own.
    variant = tmp_path / "board-vole.yaml"
    variant.write_text(
        "id: board-vole\nname: Board vole\nextends: quadrille\nsummary: a test variant\n"
        "settlement:\n  outcomes:\n    vole:\n      pot: board\n"
        "      basis: {evidence: conjecture, note: a test}\n",
        encoding="utf-8",
    )
    rules = load_ruleset(str(variant))
    assert outcome_kind(rules, "vole").won
    rows = _find_examples(rules, rules.contracts["ask"])
    vole_rows = [row for row in rows if row[0] == "vole"]
    assert vole_rows and not any(sole for _r, _won, _vole, sole in vole_rows)


def test_seating_with_a_seat_that_sits_out() -> None:
    rules = load_ruleset("tresillo")
    seats = seating(rules, 0)
    assert seats.out == 0 and seats.order == (1, 2, 3)
    # Tresillo, leader 3: the trick's second card is seat 1's, not seat 0's.
    assert seats.seat_of(3, 1) == 1
    assert seats.in_turn(3) == (3, 1, 2)
    assert seats.partners(1) == (2, 3)
    assert seats.opponents(1) == (2, 3, 0)
    assert seats.playing_opponents(1) == (2, 3)
    assert seats.next_dealer == 1


def test_the_referee_and_the_seating_agree_on_every_trick() -> None:
    rules = load_ruleset("tresillo")
    for seed in range(6):
        deal = Deal(rules, dealer=seed % 4, seed=seed)
        while not deal.is_over:
            deal.apply(deal.legal_actions()[0])
        for trick in deal.tricks:
            plays = deal.seating.plays(trick)
            # The winner is the seat whose card the referee's own trick rules say won.
            assert trick.winner in [seat for seat, _ in plays]
            assert deal.seating.out not in [seat for seat, _ in plays]
            assert [deal.seat_at(trick.leader, k) for k in range(len(trick.cards))] == [
                seat for seat, _ in plays
            ]


def test_the_book_partner_is_a_seat_that_may_hold_the_called_card() -> None:
    for name in ("quadrille", "quintille", "tresillo"):
        rules = load_ruleset(name)
        seats = seating(rules, 0)
        for contract in rules.contracts.values():
            partner = example_partner(seats, seats.eldest, contract)
            if partner is not None:
                assert partner in seats.partners(seats.eldest)


def _finished(rules_id: str, seed: int, table: TableState | None = None) -> Deal:
    deal = Deal(load_ruleset(rules_id), seed=seed, table=table)
    while not deal.is_over:
        deal.apply(deal.legal_actions()[-1])
    return deal


@pytest.mark.parametrize("rules_id", ["quadrille", "ombre", "tresillo", "german-solo"])
def test_every_payment_line_is_typed_with_its_own_basis(rules_id: str) -> None:
    for seed in range(8):
        deal = _finished(rules_id, seed)
        s = deal.settlement
        assert s is not None
        for p in s.payments:
            assert isinstance(p.kind, PaymentKind)
            assert p.payer_seat is None or 0 <= p.payer_seat < deal.n
            if p.kind is PaymentKind.ITEMS:
                assert p.items and "+".join(p.items) == p.item
                # Each item its own basis, not the first item's for all.
                assert [b.where for b in p.bases] == [
                    deal.rules.items[i].basis.where for i in p.items
                ]
            if p.kind is PaymentKind.STAKE:
                # The stake names its stake lines (the dealer's, each player's) with theirs.
                assert p.bases and len(p.bases) == len(p.items)
                assert all(b.evidence for b in p.bases)
                if rules_id == "quadrille":  # the dealer's fiche and the jetons, both quoted
                    assert p.items == ("dealer", "each") and all(b.cites for b in p.bases)


def _to_play(rules_id: str, want: object) -> Deal:
    """The first seeded deal whose bots reach the play in the state ``want`` accepts."""
    import random

    rules = load_ruleset(rules_id)
    for seed in range(400):
        deal = Deal(rules, seed=seed)
        rng = random.Random(seed)
        while not deal.is_over and deal.phase not in ("play", "vole"):
            deal.apply(rng.choice(deal.legal_actions()))
        if not deal.is_over and want(deal):  # type: ignore[operator]
            return deal
    raise AssertionError("no such deal")


def test_the_bots_know_what_the_view_shows_of_a_given_card() -> None:
    from engine.bots.base import knowledge

    # Quadrille à trois shows the card given for a demanded one to everybody.
    deal = _to_play("quadrille-a-trois", lambda d: d.given is not None)
    assert deal.given is not None and deal.demanded_from is not None
    for seat in range(deal.n):
        shown = deal.view(seat).given is not None
        assert shown == deal.given_visible_to(seat)
        located = knowledge(deal, seat).located[deal.demanded_from] >> deal.given & 1
        assert bool(located) == shown
    assert all(deal.view(s).given for s in range(deal.n))


@pytest.mark.parametrize("rules_id", ["quadrille", "ombre", "tresillo"])
def test_refusal_is_the_error_apply_raises_and_changes_nothing(rules_id: str) -> None:
    from engine.cards import ALL_CARDS
    from engine.errors import IllegalActionError

    rules = load_ruleset(rules_id)
    deal = Deal(rules, seed=5)
    asked = 0
    while not deal.is_over:
        legal = deal.legal_actions()
        for action in legal:
            assert deal.refusal(action) is None
        for text in ("pass", "bid ask", "trump hearts", *(f"play {c}" for c in ALL_CARDS[:12])):
            before = deal.record_actions()
            why = deal.refusal(text)
            assert deal.record_actions() == before
            if why is None:
                continue
            asked += 1
            with pytest.raises(IllegalActionError) as caught:
                deal.copy().apply(text)
            assert (caught.value.code, str(caught.value)) == (why.code, str(why))
        deal.apply(legal[-1])
    assert asked


def test_terminal_trick_labels_skip_the_seat_that_sits_out() -> None:
    from engine.table import TableGame

    rules = load_ruleset("tresillo")
    game = TableGame(rules, human=None)
    led_by_3 = 0
    for seed in range(8):
        deal = Deal(rules, dealer=0, seed=seed)
        while not deal.is_over:
            deal.apply(deal.legal_actions()[seed % len(deal.legal_actions())])
        for index, trick in enumerate(deal.tricks):
            shown = game._trick_view(deal, index)
            assert [seat for seat, _ in shown.plays] == list(deal.seating.in_turn(trick.leader))
            assert 0 not in [seat for seat, _ in shown.plays]
            assert shown.winner == trick.winner
            led_by_3 += trick.leader == 3
    assert led_by_3


def test_replay_shows_every_items_own_label() -> None:
    from engine.documents.deal_page import replay_story
    from engine.records import record_of
    from engine.render import render

    rules = load_ruleset("quadrille")
    deal = _finished("quadrille", 5)
    story = replay_story(record_of([deal], rules.id), rules, "test.yaml")
    lines = [p for d in story.deals for p in d.payments if len(p.parts) > 1]
    assert lines
    for line in lines:
        assert [part.basis.evidence for part in line.parts] == [
            b.evidence
            for b in next(p.bases for p in deal.settlement.payments if p.item == line.label)  # type: ignore[union-attr]
        ]
    text = render("replay.txt.j2", "text", story=story)
    multi = next(line for line in lines if len({p.basis.evidence for p in line.parts}) > 1)
    shown = next(t for t in text.splitlines() if " + ".join(p.name for p in multi.parts) in t)
    for part in multi.parts:
        assert f"{part.name}: {part.basis.evidence}" in shown


def test_the_ecart_says_why_a_middle_player_may_take_more() -> None:
    # Ombre, seed 1: seat 1, the middle exchanger, holds a matador (Basto, Ac) and discards six
    # with ten cards in the talon, leaving four for the last: the table says why, where it
    # happens, and names the matador only to those who may see it.
    from typer.testing import CliRunner

    from engine.cli import app

    auto = CliRunner().invoke(app, ["play", "ombre", "--auto", "--seed", "1"]).output
    flat = " ".join(auto.split())
    assert (
        "A middle player must leave 5 cards for the last unless he holds a matador: he holds Ac,"
        " so he may take more." in flat
    )
    seat2 = (
        CliRunner()
        .invoke(app, ["play", "ombre", "--seat", "2", "--seed", "1"], input="1\n" * 30)
        .output
    )
    flat = " ".join(seat2.split())
    assert "unless he holds a matador: he holds one, so he may take more." in flat
    assert "he holds Ac" not in flat


def test_a_discard_over_the_limit_is_refused_with_its_reason() -> None:
    rules = load_ruleset("ombre")
    for seed in range(40):
        deal = Deal(rules, seed=seed)
        while not deal.is_over and deal.phase != "exchange":
            legal = deal.legal_actions()
            bids = [a for a in legal if str(a) == "bid entrada"]
            deal.apply(bids[0] if bids else legal[0])  # an entrada: every seat exchanges
        while not deal.is_over and deal.phase == "exchange":
            why = deal.exchange_why()
            assert why is not None and why.most == deal.exchange_limit()
            if why.leave and why.exempt is None and why.most < len(deal.hand(deal.to_move)):
                cards = " ".join(str(c) for c in deal.hand(deal.to_move)[: why.most + 1])
                error = deal.refusal(f"discard {cards}")
                assert error is not None and error.code == "discard/too-many"
                assert f"a middle player leaves {why.leave} for the last" in str(error)
                return
            deal.apply(deal.legal_actions()[0])
    raise AssertionError("no middle exchanger bound to leave cards")


def _tresillo_failed_vole() -> Deal:
    """Deal 121 of Tresillo, the vole always undertaken when offered: a failed vole under solo
    in the palo de favor, the second ``vole-failed`` line of the results table (the first is
    for bola only)."""
    import random

    rules = load_ruleset("tresillo")
    rng = random.Random(121)
    deal = Deal(rules, seed=121)
    while not deal.is_over:
        legal = deal.legal_actions()
        names = [str(a) for a in legal]
        pick = names.index("vole") if "vole" in names else int(rng.random() * len(legal))
        deal.apply(legal[pick])
    return deal


def test_the_referee_says_which_results_line_gave_the_result() -> None:
    from engine.referee import match_result

    deal = _tresillo_failed_vole()
    rules = deal.rules
    assert deal.result == "vole-failed" and deal.contract is not None
    assert deal.contract.id not in ("bola", "bola-favor")
    match = deal.result_match
    assert match is not None and match.result == deal.result
    assert match.rule is rules.results[match.index]
    first = next(i for i, r in enumerate(rules.results) if r.result == "vole-failed")
    assert match.index > first  # not the first line of that name
    assert match.before == rules.results[: match.index]
    again = match_result(
        rules,
        deal.won,
        deal.side,
        vole_undertaken=deal.vole_undertaken,
        played=len(deal.tricks),
        contract=deal.contract.id,
    )
    assert again == match


def test_the_terminal_explains_the_result_by_the_line_that_gave_it() -> None:
    from engine.table import describe_result

    deal = _tresillo_failed_vole()
    text = " ".join(" ".join(describe_result(deal)).split())
    assert "vole-failed: the vole was undertaken and failed [" in text
    assert "the contract is bola or bola-favor" not in text


@pytest.mark.parametrize("name", ["quadrille", "ombre", "tresillo", "hombre"])
def test_the_referee_names_what_may_be_asked_why_not(name: str) -> None:
    """The web table's "why not?" choices and the verb of a card from the hand are the
    referee's answers (Deal.askable, Deal.card_verb), not the page's own phase knowledge: each
    choice named is refused now with its reason, and a card played by the legal actions goes
    by the verb the referee names."""
    import random

    rules = load_ruleset(name)
    rng = random.Random(4)
    asked = 0
    for seed in range(6):
        deal = Deal(rules, seed=seed, dealer=seed % rules.players)
        while not deal.is_over:
            legal = deal.legal_actions()
            for action in deal.askable():
                asked += 1
                assert action not in legal
                assert deal.refusal(action) is not None
            verbs = {a.verb for a in legal if a.cards}
            if deal.phase in ("play", "give"):
                assert deal.card_verb in verbs
            elif verbs and deal.phase != "exchange":
                assert deal.card_verb is None or deal.card_verb in verbs
            deal.apply(legal[int(rng.random() * len(legal))])
        assert deal.askable() == [] and deal.card_verb is None
    assert asked


@pytest.mark.parametrize("rules_id", ["quadrille", "ombre", "tresillo-rocambor", "mediateur"])
def test_the_results_memo_answers_as_the_table_read_afresh(rules_id: str) -> None:
    """The results table's answers kept per way a deal ends (``Compiled.result_lines``) are
    those of reading the table each time: asked twice, in any order, for every split of the
    tricks, each answer is the first line whose condition holds."""
    import itertools

    from engine.referee.result import match_result

    rules = load_ruleset(rules_id)
    n, size = rules.players, rules.hand_size
    contracts = [None, *rules.contracts]
    splits = [w for w in itertools.product(range(size + 1), repeat=n) if sum(w) <= size]
    for contract, vole in itertools.product(contracts[:4], (False, True)):
        for won in splits[:: max(1, len(splits) // 300)]:
            side = [0, 1] if n == 4 else [0]
            for _ in range(2):
                match = match_result(
                    rules, won, side, vole_undertaken=vole, played=sum(won), contract=contract
                )
                first = first_holding(
                    rules,
                    contract=contract,
                    side_tricks=sum(won[s] for s in side),
                    opponents=[won[s] for s in range(n) if s not in side],
                    played=sum(won),
                    vole=vole,
                )
                assert match.index == first
                assert match.rule is rules.results[first]
                assert match.before == tuple(rules.results[:first])

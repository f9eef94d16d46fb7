"""The auction that goes round, class bids, bids only to overcall, the raise, a contract's own
trumps, the duty to buy and a defender's choice of order (issue 16, docs/living-family.md §4,
mechanisms 1, 2, 5 and 6).

The sequences are the sources' own: the DLU's Turneringsregler (``dlu``), its vocabulary
(``dlu-vok``), the course of the bidding at ``jhp`` and ``lh35``, and the rule tests of the
online Rocambor (``roc-online``). The rule set is a small test variant of Ombre built here, so
that each mechanism is tested alone; ``rules/dansk-lhombre.yaml`` has its own tests.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import load_ruleset
from engine.bots import make_bot
from engine.errors import IllegalActionError
from engine.referee import Deal, Phase
from engine.referee.settlement import PaymentKind
from engine.rules.loader import validate_paths
from tests.referee_helpers import run

POINTS = Path(__file__).resolve().parent / "rule_files" / "valid" / "ombre-in-points.yaml"
TARIFF = "".join(
    f"    {cid}: {{win: 1, vole: 1, vole-failed: 1, remise: -1, codille: -2, basis: "
    "{evidence: conjecture, note: a test}}\n"
    for cid in ("spil", "bedre-spil", "tourne", "kobe", "solo-spar")
)
TEST = f"""\
id: test-round
name: A test of the auction that goes round
extends: {POINTS}
summary: A test variant of Ombre for the mechanisms of the auction that goes round.
auction:
  speech: round
  equal_rank: earlier-holds
  basis: {{evidence: conjecture, note: a test}}
  contracts:
    entrada:
      biddable: false
      basis: {{evidence: conjecture, note: a test}}
    sans-prendre:
      rank: 5
      matchable: false
      basis: {{evidence: conjecture, note: a test}}
    spil:
      name: Spil
      rank: 1
      biddable: true
      help: none
      exchange: declarer-first
      declarer_may_play: [tourne, kobe]
      basis: {{evidence: conjecture, note: a test}}
    bedre-spil:
      name: Bedre spil
      rank: 2
      biddable: true
      help: none
      exchange: declarer-first
      trump_suit: spades
      bid_as: spil
      only_to_overcall: {{penalty: without-need}}
      basis: {{evidence: conjecture, note: a test}}
    tourne:
      name: Tourné
      rank: 3
      biddable: true
      help: none
      exchange: declarer-first
      trump_from_talon: true
      bid_as: spil
      only_to_overcall: {{penalty: without-need}}
      basis: {{evidence: conjecture, note: a test}}
    kobe:
      name: A contract of tourné's rank
      rank: 3
      biddable: true
      help: none
      exchange: declarer-first
      exchange_limits: {{declarer_max: 3}}
      bid_as: spil
      only_to_overcall: {{penalty: without-need}}
      basis: {{evidence: conjecture, note: a test}}
    solo-spar:
      name: Solo spar
      rank: 6
      biddable: true
      help: none
      exchange: others-only
      trump_suit: spades
      instead_of: sans-prendre
      only_to_overcall: refused
      basis: {{evidence: conjecture, note: a test}}
exchange:
  declarer_min: 1
  besides_turned: true
  basis: {{evidence: conjecture, note: a test}}
settlement:
  points:
{TARIFF}"""

# Ombre's seats: the dealer is seat 0, the forehand (eldest) seat 1, the middle hand seat 2,
# the dealer (baghånd) seat 0; speech goes to the right, 1, 2, 0.
FORE, MIDDLE, BACK = 1, 2, 0


@pytest.fixture(scope="module")
def rules(tmp_path_factory: pytest.TempPathFactory) -> object:
    path = tmp_path_factory.mktemp("round") / "test-round.yaml"
    path.write_text(TEST, encoding="utf-8")
    return load_ruleset(path)


def deal(rules: object, seed: int = 1) -> Deal:
    return Deal(rules, dealer=0, seed=seed)  # type: ignore[arg-type]


def refused(d: Deal, line: str) -> str:
    seat, _, action = line.partition(" ")
    error = d.refusal(action, int(seat))
    assert error is not None, line
    with pytest.raises(IllegalActionError):
        d.apply(action, int(seat))
    return error.code


def legal(d: Deal) -> list[str]:
    return [str(a) for a in d.legal_actions()]


# 1. The auction that goes round.


def test_an_overcalled_bidder_may_bid_again(rules: object) -> None:
    # "… når der meldes en højere melding, falder meldingen tilbage til den, som hidtil havde
    # den højeste melding. De 2 spillere, som nu kæmper om meldingen, bliver ved med at melde
    # over hinanden, til den ene part melder pas." (jhp)
    d = deal(rules)
    run(d, ["1 bid spil", "2 bid bedre-spil", "0 pass", "1 bid tourne", "2 pass"])
    assert d.phase is not Phase.AUCTION
    assert d.declarer == FORE and d.contract is not None and d.contract.id == "tourne"
    assert d.faults == []  # each was named to overcall


def test_a_pass_is_final_and_speech_skips_who_passed(rules: object) -> None:
    d = deal(rules)
    run(d, ["1 pass", "2 bid spil", "0 bid bedre-spil"])
    assert d.to_move == MIDDLE  # the forehand, who passed, is not asked again
    assert refused(d, "1 bid tourne") == "bid/not-your-turn"
    run(d, ["2 bid tourne"])
    assert d.to_move == BACK


def test_the_auction_ends_when_two_have_passed(rules: object) -> None:
    # "Der fortsættes med at melde til 2 af spillerne har meldt pas" (jhp)
    d = deal(rules)
    run(d, ["1 bid spil", "2 pass"])
    assert d.phase is Phase.AUCTION and d.to_move == BACK
    run(d, ["0 pass"])
    assert d.phase is Phase.RAISE and d.to_move == FORE  # he now says what he plays


def test_when_all_pass_the_deal_is_passed_out(rules: object) -> None:
    d = deal(rules)
    run(d, ["1 pass", "2 pass", "0 pass"])
    assert d.is_over and d.result == "redeal"


def test_the_last_hand_may_still_bid_after_two_passes(rules: object) -> None:
    d = deal(rules)
    run(d, ["1 pass", "2 pass"])
    assert d.to_move == BACK and "bid spil" in legal(d)
    run(d, ["0 bid spil"])
    assert d.phase is Phase.RAISE and d.to_move == BACK


# Equal rank: "Købe nolo: Rangerer med tourné, og forhånden får meldingen." (dlu)


def test_at_equal_rank_the_earlier_hand_takes_the_bid(rules: object) -> None:
    d = deal(rules)
    run(d, ["1 bid spil", "2 bid tourne", "0 pass"])
    assert "bid kobe" in legal(d) and "bid tourne" not in legal(d)
    run(d, ["1 bid kobe"])
    assert d.holder == FORE


def test_at_equal_rank_a_later_hand_is_refused(rules: object) -> None:
    d = deal(rules)
    run(d, ["1 bid spil", "2 bid bedre-spil", "0 pass", "1 bid tourne"])
    assert "bid kobe" not in legal(d)
    assert refused(d, "2 bid kobe") == "bid/equal-rank-later"
    # The same contract is no overcall, whoever bids it.
    assert refused(d, "2 bid tourne") == "bid/outranked"


def test_without_earlier_holds_an_equal_rank_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "test-refused.yaml"
    path.write_text(TEST.replace("equal_rank: earlier-holds", "equal_rank: refused"), "utf-8")
    d = deal(load_ruleset(path))
    run(d, ["1 bid spil", "2 bid tourne", "0 pass"])
    assert refused(d, "1 bid kobe") == "bid/outranked"


# 2. Class bids and bids only to overcall.


def test_a_better_bid_named_without_need_costs_a_penalty_point(rules: object) -> None:
    # "Meldes det som bedre spil, uden det er nødvendigt for overbud, kan der idømmes 1
    # strafpoint." (dlu, Bedre spil)
    d = deal(rules)
    run(d, ["1 bid bedre-spil"])
    assert d.faults == [(FORE, "without-need")]
    assert d.holder == FORE  # the bid stands as named


def test_a_better_bid_to_overcall_costs_nothing(rules: object) -> None:
    # "Forhånden siger f.eks spil, men bliver overmeldt af mellemhåndens "bedre"-spil." (dlu-vok)
    d = deal(rules)
    run(d, ["1 bid spil", "2 bid bedre-spil", "0 bid tourne"])
    assert d.faults == []


def test_the_penalty_is_a_typed_line_of_the_settlement_and_the_report(rules: object) -> None:
    d = deal(rules, seed=5)
    run(d, ["1 bid tourne", "2 pass", "0 pass"])
    assert d.phase is Phase.TRUMP  # tourne names nothing else to play
    for _ in range(200):
        if d.is_over:
            break
        d.apply(d.legal_actions()[-1 if d.phase is Phase.PLAY else 0])
    assert d.is_over and d.settlement is not None
    (line,) = [p for p in d.settlement.payments if p.kind is PaymentKind.PENALTY]
    assert (line.payer, line.amount, line.items) == (FORE, 1, ("without-need",))
    assert d.report()["penalties"] == [{"seat": FORE, "fault": "without-need"}]


def test_a_bid_only_to_overcall_is_refused_when_not_needed(rules: object) -> None:
    # "Denne melding må kun afgives, når det er nødvendigt for at give overbud." (dlu, Solo
    # Spar); roc-online's "rejects restricted opening bids (oros / solo_oros)".
    d = deal(rules)
    assert "bid solo-spar" not in legal(d)
    assert refused(d, "1 bid solo-spar") == "bid/not-needed"
    run(d, ["1 bid sans-prendre"])
    assert "bid solo-spar" in legal(d)
    run(d, ["2 bid solo-spar"])
    assert d.holder == MIDDLE and d.faults == []


# The declarer of the class names what he plays: "Spilleren må selv afgøre, om han vil spille
# i en bestemt farve, tournere eller spille købe nolo." (dlu, Spil)


def test_the_winner_of_spil_says_what_he_plays(rules: object) -> None:
    d = deal(rules)
    run(d, ["1 bid spil", "2 pass", "0 pass"])
    assert d.phase is Phase.RAISE
    assert legal(d) == ["pass", "bid kobe", "bid tourne"]
    assert refused(d, "1 bid bedre-spil") == "raise/not-allowed"
    assert refused(d, "2 bid tourne") == "bid/not-your-turn"
    run(d, ["1 bid tourne"])
    assert d.contract is not None and d.contract.id == "tourne" and d.declarer == FORE
    assert d.report()["won_with"] == "spil"
    assert d.faults == []  # naming it after the auction is no fault


def test_passing_plays_the_contract_won(rules: object) -> None:
    d = deal(rules)
    run(d, ["1 bid spil", "2 pass", "0 pass", "1 pass"])
    assert d.contract is not None and d.contract.id == "spil" and d.phase is Phase.TRUMP
    assert "won_with" not in d.report()


def test_raise_to_higher(tmp_path: Path) -> None:
    # roc-online: "upgrades entrada to solo and enters trump_choice", "rejects downgrade (same
    # or lower bid)", "rejects upgrade from non-ombre seat".
    path = tmp_path / "test-raise.yaml"
    path.write_text(
        "id: test-raise\nname: Raise\nextends: tresillo\nsummary: A test of the raise.\n"
        "auction:\n  speech: round\n  raise: {to: higher, basis: {evidence: conjecture}}\n"
        "  basis: {evidence: conjecture, note: a test}\n",
        "utf-8",
    )
    d = Deal(load_ruleset(path), dealer=0, seed=2)
    run(d, ["1 bid entrada", "2 pass", "3 pass"])
    assert d.phase is Phase.RAISE and d.to_move == 1
    assert legal(d)[:3] == ["pass", "bid entrada-favor", "bid vuelta"]
    assert refused(d, "1 bid entrada") == "raise/not-allowed"
    assert refused(d, "2 bid sans-prendre") == "bid/not-your-turn"
    run(d, ["1 bid sans-prendre"])
    assert d.contract is not None and d.contract.id == "sans-prendre"
    assert d.phase is Phase.TRUMP


# 5. A contract's own trumps, the duty to buy.


def test_better_spil_is_played_in_spades(rules: object) -> None:
    # "Spillet skal spilles med spar som trumf" (dlu, Bedre spil)
    d = deal(rules)
    run(d, ["1 bid spil", "2 bid bedre-spil", "0 pass", "1 pass"])
    assert d.phase is Phase.TRUMP and d.declarer == MIDDLE
    assert legal(d) == ["trump spades"]
    assert refused(d, "2 trump hearts") == "trump/contract-suit"


def _to_exchange(rules: object, contract: str) -> Deal:
    d = deal(rules)
    if contract == "spil":
        run(d, ["1 bid spil", "2 pass", "0 pass", "1 pass"])
    else:
        run(d, ["1 bid spil", "2 pass", "0 pass", f"1 bid {contract}"])
    trump = legal(d)[0]
    run(d, [f"1 {trump}"])
    assert d.phase is Phase.EXCHANGE and d.to_move == FORE
    return d


def test_the_declarer_must_buy_a_card(rules: object) -> None:
    # "Spilleren skal købe mindst èt kort fra talonen." (dlu, Spil)
    d = _to_exchange(rules, "spil")
    assert refused(d, "1 discard") == "discard/must-buy"
    why = d.exchange_why()
    assert why is not None and why.least == 1 and why.turned_counts
    assert all(len(a.cards) >= 1 for a in d.legal_actions())
    card = d.hand(FORE)[-1]
    run(d, [f"1 discard {card}"])
    assert d.to_move == MIDDLE and "discard" in legal(d)  # the others need not buy


def test_under_tourne_he_buys_one_besides_the_turned_card(rules: object) -> None:
    # "Spilleren skal købe mindst ét kort udover det vendte." (dlu, Tourné)
    d = _to_exchange(rules, "tourne")
    assert d.turned is not None
    one = d.hand(FORE)[-1]
    assert refused(d, f"1 discard {one}") == "discard/must-buy"
    why = d.exchange_why()
    assert why is not None and why.least == 2 and not why.turned_counts
    two = d.hand(FORE)[-2:]
    run(d, [f"1 discard {two[0]} {two[1]}"])
    assert d.to_move == MIDDLE


def test_a_contract_limits_the_declarers_exchange(rules: object) -> None:
    d = _to_exchange(rules, "kobe")
    why = d.exchange_why()
    assert why is not None and why.most == 3 and why.contract_max == 3
    four = " ".join(str(c) for c in d.hand(FORE)[-4:])
    assert refused(d, f"1 discard {four}") == "discard/too-many"


# 6. A defender's choice of order: "… either defender may choose to exchange first."
# (roc-online, Exchange); test "first defender can defer and let second defender exchange
# first".


@pytest.fixture(scope="module")
def either(tmp_path_factory: pytest.TempPathFactory) -> object:
    path = tmp_path_factory.mktemp("either") / "test-either.yaml"
    path.write_text(
        "id: test-either\nname: Either\nextends: tresillo\nsummary: A test of defer.\n"
        "exchange:\n  defenders: either-first\n  basis: {evidence: conjecture, note: a test}\n",
        "utf-8",
    )
    return load_ruleset(path)


def test_the_first_defender_may_defer(either: object) -> None:
    d = Deal(either, dealer=0, seed=4)  # type: ignore[arg-type]
    run(d, ["1 bid entrada", "2 pass", "3 pass"])
    run(d, [f"1 {legal(d)[0]}", "1 discard"])
    assert d.to_move == 2 and legal(d)[0] == "defer" and d.may_defer()
    run(d, ["2 defer"])
    assert d.to_move == 3 and "defer" not in legal(d)
    assert refused(d, "3 defer") == "defer/not-now"
    run(d, ["3 discard"])
    assert d.to_move == 2 and "defer" not in legal(d)
    run(d, ["2 discard"])
    assert d.phase is Phase.PLAY


def test_in_turn_nobody_defers() -> None:
    d = Deal(load_ruleset("tresillo"), dealer=0, seed=4)
    run(d, ["1 bid entrada", "2 pass", "3 pass"])
    run(d, [f"1 {legal(d)[0]}", "1 discard"])
    assert "defer" not in legal(d)
    assert refused(d, "2 defer") == "defer/not-now"


# Semantic checks.


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ("      matchable: false\n", "semantic/round-and-matchable"),
        ("  equal_rank: earlier-holds\n", "semantic/equal-rank-unsettled"),
        (
            "      bid_as: spil\n      only_to_overcall: {penalty: without-need}\n      basis: {evidence: "
            "conjecture, note: a test}\n    kobe:",
            "semantic/overcall-of-what",
        ),
        ("      instead_of: sans-prendre\n", "semantic/overcall-of-what"),
        ("      trump_suit: spades\n      bid_as: spil", "semantic/trump-fixed-and-chosen"),
    ],
)
def test_semantic_checks(tmp_path: Path, change: str, code: str) -> None:
    replacement = {
        "semantic/round-and-matchable": "      matchable: true\n",
        "semantic/equal-rank-unsettled": "",
        "semantic/overcall-of-what": "",
        "semantic/trump-fixed-and-chosen": "      trump_suit: spades\n      trump_from_talon: "
        "true\n      bid_as: spil",
    }[code]
    if code == "semantic/overcall-of-what" and "bid_as" in change:
        replacement = (
            "      only_to_overcall: {penalty: without-need}\n      basis: {evidence: conjecture, "
        )
        replacement += "note: a test}\n    kobe:"
    assert change in TEST
    path = tmp_path / "bad.yaml"
    path.write_text(TEST.replace(change, replacement, 1), "utf-8")
    problems, _ = validate_paths([str(path)])
    assert code in {p.code for p in problems}, problems


def test_the_test_variant_is_valid(tmp_path: Path) -> None:
    path = tmp_path / "test-round.yaml"
    path.write_text(TEST, "utf-8")
    assert validate_paths([str(path)])[0] == []


# Bots.


@pytest.mark.parametrize("bot", ["heuristic", "random"])
def test_bots_play_the_round_auction_to_the_end(rules: object, bot: str) -> None:
    players = [make_bot(bot, seed=s) for s in range(3)]
    penalised = 0
    for seed in range(60):
        d = deal(rules, seed=seed)
        for _ in range(500):
            if d.is_over:
                break
            action = players[d.to_move].choose(d, d.to_move)
            d.apply(action)
        assert d.is_over
        penalised += len(d.faults)
    if bot == "heuristic":
        assert penalised == 0  # it names a contract only to overcall


# The terminal table.


def test_the_table_asks_the_winner_what_he_plays_and_tells_it() -> None:
    from typer.testing import CliRunner

    from engine.cli import app

    # Seat 1 is the human, the forehand: he bids spil, the others pass (seed 1), and he is
    # asked what he plays; he passes and plays spil.
    out = (
        CliRunner()
        .invoke(
            app,
            ["play", "dansk-lhombre", "--seed", "1", "--seat", "1"],
            input="bid spil\npass\n",
        )
        .output
    )
    flat = " ".join(out.split())
    assert "You won the auction with Spil (alm. spil) [spil]: pass to play it, or bid" in flat
    # Each choice says what it plays (the raise's labels, issue 16).
    assert (
        "1) pass: play Spil (alm. spil) (the contract won) 2) bid kobe-nolo: play Købe nolo" in flat
    )
    assert "3) bid tourne: play Tourné" in flat
    assert "You play the contract won. The auction is over: you play Spil" in flat


def test_bots_defer_and_raise_at_the_table(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from engine.cli import app

    path = tmp_path / "test-roc.yaml"
    path.write_text(
        "id: test-roc\nname: Roc\nextends: tresillo\nsummary: A test of defer and raise.\n"
        "auction:\n  speech: round\n  raise: {to: higher, basis: {evidence: conjecture}}\n"
        "  basis: {evidence: conjecture, note: a test}\n  contracts:\n"
        + "".join(
            f"    {c}: {{matchable: false, basis: {{evidence: conjecture, note: t}}}}\n"
            for c in ("sans-prendre", "solo-favor", "bola", "bola-favor")
        )
        + "exchange:\n  defenders: either-first\n  basis: {evidence: conjecture, note: t}\n",
        "utf-8",
    )
    result = CliRunner().invoke(app, ["play", str(path), "--auto", "--deals", "40", "--seed", "3"])
    assert result.exit_code == 0, result.output
    assert "the other defender exchange first" in result.output
    assert " instead." in result.output


# OpenSpiel: the duty to buy, the raise and defer through the adapter.


def test_openspiel_plays_defer_the_raise_and_the_duty_to_buy(tmp_path: Path) -> None:
    pyspiel = pytest.importorskip("pyspiel", reason="the [openspiel] extra is not installed")
    import engine.spiel  # noqa: F401  (registers the game)
    from engine.spiel import game_string

    path = tmp_path / "test-defer.yaml"
    path.write_text(
        "id: test-defer\nname: Defer\nextends: dansk-lhombre\nsummary: A test of defer.\n"
        "exchange:\n  defenders: either-first\n  basis: {evidence: conjecture, note: t}\n",
        "utf-8",
    )
    for name in ("dansk-lhombre", str(path)):
        game = pyspiel.load_game(game_string(name))
        pyspiel.random_sim_test(game, num_sims=20, serialize=True, verbose=False)


# A contract reserved to the last to speak (``biddable_when: last-after-all-pass``) in an
# auction that goes round: roc-online's "rejects contrabola unless last active player after
# all-pass", with speech going round.


@pytest.fixture(scope="module")
def reserved(tmp_path_factory: pytest.TempPathFactory) -> object:
    path = tmp_path_factory.mktemp("reserved") / "test-round-reserved.yaml"
    path.write_text(
        "id: test-round-reserved\nname: Reserved, round\nextends: tresillo-rocambor\n"
        "summary: A test of a reserved contract when speech goes round.\n"
        "auction:\n  speech: round\n  basis: {evidence: conjecture, note: a test}\n",
        "utf-8",
    )
    return load_ruleset(path)


def test_the_last_to_speak_after_all_pass_may_bid_a_reserved_contract_in_a_round(
    reserved: object,
) -> None:
    d = deal(reserved, 2)  # Tresillo: the dealer (seat 0) sits out; speech 1, 2, 3
    assert "bid contrabola" not in legal(d)
    assert refused(d, "1 bid contrabola") == "bid/reserved-to-last"
    run(d, ["1 pass"])
    assert refused(d, "2 bid contrabola") == "bid/reserved-to-last"
    run(d, ["2 pass"])
    assert d.to_move == 3 and "bid contrabola" in legal(d)
    run(d, ["3 bid contrabola"])
    assert d.declarer == 3 and d.contract is not None and d.contract.id == "contrabola"


def test_a_reserved_contract_is_refused_once_a_bid_stands_in_a_round(reserved: object) -> None:
    d = deal(reserved, 2)
    run(d, ["1 bid entrada", "2 pass"])
    assert d.to_move == 3 and "bid contrabola" not in legal(d)
    assert refused(d, "3 bid contrabola") == "bid/reserved-to-last"
    # A hand that has passed is not asked again, so the holder is never "last after all pass".
    run(d, ["3 pass"])
    assert d.holder == 1 and d.phase is Phase.RAISE and d.to_move == 1

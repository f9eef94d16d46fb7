"""The settlement and the vole as the sources write them, each pinned against its quote; the
renonce; the golden records of issue 6; and the referee's public API refusing misuse.

Seats: P1 deals (seat 0), so P2 (seat 1) is eldest. Amounts that rest on the *inferred* jeu (1),
consolation (2) and sans-prendre (4) are marked "inferred".
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine import IllegalActionError, NotationError, load_ruleset
from engine.enums import BeteGoing, Help, Pot, Renonce
from engine.records import read_record, replay
from engine.referee import Deal, compiled
from engine.referee.settlement import TableState, settle, stakes_for
from tests.referee_helpers import MISTYPED, deal_with, into_play, run, six_tricks_to_the_side
from tests.test_settlement import bete_chain

ROOT = Path(__file__).resolve().parent.parent
RECORDS = Path(__file__).parent / "records"


def replayed(name: str) -> dict:
    record = read_record(RECORDS / name)
    report = replay(record, load_ruleset(record.ruleset))
    assert report.complete and report.error is None, report.located
    return report.as_json()


def _settle(ruleset: str, result: str, **kw: object):  # type: ignore[no-untyped-def]
    rules = load_ruleset(ruleset)
    n = rules.players
    dealer = int(kw.pop("dealer", 0))  # type: ignore[call-overload]
    args = {
        "contract": "ask",
        "declarer": 1,
        "partner": 3 if n == 4 else None,
        "tricks": [2, 4, 2, 2][:n],
        "table": TableState(),
    }
    args.update(kw)
    return settle(
        rules,
        n=n,
        stakes=stakes_for(rules, dealer, n, rules.stakes),
        result=result,
        **args,  # type: ignore[arg-type]
    )


# The vole undertaken by leading the seventh card.


def _vole_deal() -> Deal:
    deal = six_tricks_to_the_side("Kc")
    assert deal.phase == "vole" and deal.to_move == 1
    return deal


def test_leading_the_seventh_card_undertakes_the_vole() -> None:
    """33. "if the person who won the sixth trick play the seventh card, he is obliged to play
    for the vole" [HOYLE-IE law 11]; "lorsque l'on a jetté la carte ayant les six premieres
    mains" [ENC-Q]."""
    deal = _vole_deal()
    run(deal, ["1 play Jh"])  # no `vole` said: the lead is the undertaking
    assert deal.vole_undertaken and deal.phase == "play" and deal.trick
    said = _vole_deal()
    run(said, ["1 vole", "1 play Jh"])  # the explicit notation is still valid
    assert said.vole_undertaken and said.trick == deal.trick
    stopped = _vole_deal()
    run(stopped, ["1 stop"])
    assert stopped.is_over and stopped.result == "win" and not stopped.vole_undertaken


def test_golden_vole_by_lead_records() -> None:
    """The vole by lead in a record: Quadrille's seventh card, Ombre's sixth. [ENC-Q; ACAD LXV]"""
    quadrille = replayed("quadrille-vole-by-lead.yaml")["deals"][0]
    record = read_record(RECORDS / "quadrille-vole-by-lead.yaml")
    assert not any(line.endswith(" vole") for line in record.deals[0].actions)
    # The called king's holder (seat 0, not the eldest) leads the called king at the fourth
    # trick, making himself known: "ou même le roi appellé, pour faire connoître qu'il est ami
    # ... ne pourroit entreprendre la vole" [ENC-Q]; so under Quadrille's laws the seventh card
    # is a plain play here (the undertaking by lead itself: the test above, and Ombre below).
    assert not quadrille["vole_undertaken"] and quadrille["result"] == "win"
    assert [(i["seat"], i["law"]) for i in quadrille["irregularities"]] == [
        (0, "partner_known_no_vole")
    ]
    ombre = replayed("ombre-vole-by-lead.yaml")["deals"][0]
    assert ombre["vole_undertaken"] and ombre["result"] == "vole"
    assert ombre["tricks_won"] == [0, 9, 0]


# Quadrille à trois: bêtes reckoned on 14 throughout.


def test_quadrille_a_trois_betes_on_fourteen_throughout() -> None:
    """38. "la bête est de quatorze, encore qu'elle soit faite sur treize jettons seulement"
    [ENC-Q]; "& ainsi des autres, comme à la Table mise ci-devant au Quadrille ordinaire"
    [ACAD-2 Zs4D PA35]: every deal's 13 in play counts 14, the 13 a remise left included, so
    the chain is Quadrille's 14, 42, 56 (not 14, 41, 55)."""
    assert bete_chain("quadrille-a-trois", ["remise", "remise", "remise"]) == [14, 42, 56]
    assert bete_chain("quadrille-a-trois", ["codille", "remise"]) == [14, 28]
    assert bete_chain("quadrille", ["remise", "remise", "remise"]) == [14, 42, 56]


# The Ombre vole sweeps the board.


def test_ombre_vole_doubles_only_a_single_stake() -> None:
    """ "if only one stake is down" the winner "gains double what lies upon the Table" [CG-EN PA32]."""
    s = _settle("ombre", "vole", contract="entrada", tricks=[0, 9, 0])
    assert s.balances[1] == -3 + 9 + 9  # the stake back, the board, and as much again
    assert sum(s.balances) + s.pot_after == 0 and s.pot_after == 0


def test_ombre_vole_sweeps_the_board_after_a_remise() -> None:
    """The vole "sweeps the Board, let there be ever so many Stakes upon it" [CG-EN PA32]: after
    a remise (the stake stays, a bête waits) it takes everything and no double is charged."""
    remise = _settle("ombre", "remise", contract="entrada", tricks=[3, 3, 3])
    assert remise.table.pot == 18 and remise.table.betes == (9,)
    vole = _settle(
        "ombre", "vole", contract="entrada", tricks=[0, 9, 0], table=remise.table, dealer=1
    )
    assert vole.pot_after == 0 and vole.table.betes == ()
    assert vole.balances[1] == -3 + 18 + 9  # the board: 18 on it and 9 staked; no double
    assert vole.balances[0] == vole.balances[2] == -3


# Sole liability only at remise and codille.


def test_a_failed_vole_is_shared_whatever_the_callers_tricks() -> None:
    """The declarer below three tricks pays alone "tant en cas de remise que de codille" [ENC-Q];
    a failed vole is a won game, so the called king shares it. [inferred amounts]"""
    s = _settle("quadrille", "vole-failed", tricks=[1, 2, 0, 7])
    # Each: stake 1, half the devant 7, half the game 3, half the vole owed to two defenders 10.
    assert s.balances[1] == s.balances[3] == -1 + 7 + 3 - 10
    lost = _settle("quadrille", "remise", tricks=[3, 2, 2, 3])
    assert lost.balances[3] == -1  # at a loss he still pays alone


# The bête queue.


def test_betes_of_different_deals_wait_largest_first() -> None:
    """ "Les plus grosses bêtes passent toujours les premieres" [ENC-Q]: a win takes the devant
    and the largest waiting bête; the others wait."""
    table = TableState(pot=14 + 42 + 14, betes=(42, 14))
    s = _settle("quadrille", "win", tricks=[2, 4, 2, 2], table=table)
    assert sum(p.amount for p in s.payments if p.item == "pot") == 14 + 14 + 42
    assert s.table.betes == (14,) and s.pot_after == 14


def test_the_vole_takes_only_the_devant_and_the_bete_that_goes() -> None:
    """ "la vole ne gagne que ce que l'on est convenu, tirant simplement ce qui est au-devant,
    n'ayant rien à demander des bêtes qui ne vont pas" [ENC-Q]."""
    table = TableState(pot=42 + 14, betes=(42, 14))
    s = _settle("quadrille", "vole", tricks=[0, 6, 0, 4], table=table)
    assert s.table.betes == (14,) and s.pot_after == 14


def test_golden_bete_queue() -> None:
    """The party of remises, then two wins: each takes the devant and one bête. [ENC-Q]"""
    report = replayed("quadrille-bete-queue.yaml")
    deals = report["deals"]
    assert [d["bete"] for d in deals[:3]] == [14, 42, 56]
    assert [d["result"] for d in deals[3:]] == ["win", "win"]
    assert [d["pot_before"] for d in deals] == [0, 28, 84, 154, 56]
    assert [d["pot_after"] for d in deals[3:]] == [42 + 14, 14]
    assert sum(p["amount"] for p in deals[4]["payments"] if p["item"] == "pot") == 14 + 42


def test_going_all_at_once_is_a_rule_file_choice() -> None:
    assert load_ruleset("quadrille").bete_going is BeteGoing.LARGEST_FIRST


# The médiateur's fish.


def _demand(ruleset: str, king: str) -> Deal:
    deal = deal_with(
        ruleset,
        {1: "As 2s Ac Ks Qs Js 7s 6s 5s 4s", 2: "Kh Kd Kc 7h 6h 5h 4h 3h 2h Ah"},
        options={"favourite-suit": "hearts"} if ruleset != "mediateur" else None,
    )
    run(deal, ["1 bid mediateur", "2 pass", "3 pass", "0 pass", "1 trump spades"])
    run(deal, [f"1 call {king}", "1 give 4s"])
    while not deal.is_over:
        deal.apply(deal.legal_actions()[0])
    return deal


def test_mediateur_fish_off_in_the_encyclopedie_reading() -> None:
    """ENC-Q gives the médiateur only its extra fiche at the settlement: no fish for the king."""
    deal = _demand("mediateur", "Kh")
    assert deal.settlement is not None
    assert not [p for p in deal.settlement.payments if p.item.startswith("fee")]


@pytest.mark.parametrize(("king", "fish"), [("Kd", 10), ("Kh", 20)])
def test_mediateur_fish_in_hoyles_variant(king: str, fish: int) -> None:
    """ "giving in return some other card, and a fish: but if the king be of the favourite
    suit, then two fish are to be paid" [HOYLE-IE p. 281]."""
    deal = _demand("mediateur-couleur-favorite", king)
    assert deal.settlement is not None
    fees = [p for p in deal.settlement.payments if p.item.startswith("fee")]
    assert [(p.payer, p.payee, p.amount) for p in fees] == [(1, 2, fish)]
    s = deal.settlement
    assert sum(s.balances) + s.pot_after - s.pot_before == 0


# The renonce.


def _revoke_deal(ruleset: str) -> Deal:
    deal = deal_with(
        ruleset, {1: "Ks 7s 6s Kd Qd Jd Ad 3d 4d 5d", 2: "2s Kc Qc Jc 7c 6c 5c 4c 3c 2c"}
    )
    into_play(deal, "ask", "hearts", call="Kc")
    run(deal, ["1 play Ks"])
    return deal


def test_renonce_refused_by_default() -> None:
    """At the table a revoke is refused (our choice, labelled conjecture)."""
    deal = _revoke_deal("quadrille")
    assert deal.rules.renonce is Renonce.REFUSED
    with pytest.raises(IllegalActionError) as refused:
        deal.apply("2 play Kc")
    assert refused.value.code == "play/must-follow-suit"
    with pytest.raises(IllegalActionError) as refused:
        deal.apply("2 renonce Kc")
    assert refused.value.code == "renonce/refused"
    assert "renonce Kc" not in [str(a) for a in deal.legal_actions()]


def test_renonce_accepted_and_noticed_under_the_penalised_rule() -> None:
    """ "Qui renonce fait la bête autant de fois qu'on l'en fait appercevoir" [ENC-Q]."""
    deal = _revoke_deal("quadrille-renonce")
    with pytest.raises(IllegalActionError) as refused:
        deal.apply("2 renonce 2s")
    assert refused.value.code == "renonce/not-a-renonce"
    run(deal, ["2 renonce Kc"])
    assert "notice" not in [str(a) for a in deal.legal_actions()]  # the trick is not complete
    while len(deal.tricks) < 1:
        deal.apply(next(a for a in deal.legal_actions() if a.verb == "play"))
    hands = deal.copy()
    assert "notice" in [str(a) for a in deal.legal_actions()]
    deal.apply("notice")
    assert deal.tricks == [] and deal.penalties == [2] and deal.to_move == 1
    assert len(deal.hand(2)) == 10 and len(hands.hand(2)) == 9
    while not deal.is_over:
        deal.apply(next(a for a in deal.legal_actions() if a.verb == "play"))
    assert deal.settlement is not None
    assert [p.payer for p in deal.settlement.payments if p.item == "bête (renonce)"] == [2]


def test_renonce_noticed_before_the_end() -> None:
    """ "Si l'on s'apperçoit de la renonce avant que le coup soit achevé, il faut reprendre ses
    cartes, & recommencer à jouer de la levée où la renonce a été faite" [ENC-Q]."""
    record = read_record(RECORDS / "quadrille-renonce-before-end.yaml")
    actions = record.deals[0].actions
    revoke = next(i for i, a in enumerate(actions) if " renonce " in a)
    notice = actions.index(next(a for a in actions if a.endswith(" notice")))
    deal = replayed("quadrille-renonce-before-end.yaml")["deals"][0]
    assert deal["renonces"] == [0] and deal["bete"] >= 14
    assert sum(deal["tricks_won"]) == 10
    # The cards were taken back: the revoked trick was played again.
    rules = load_ruleset(record.ruleset)
    d = record.deals[0]
    replay_deal = Deal(rules, hands=d.hands, talon=d.talon, dealer=d.dealer or 0)
    for line in actions[:notice]:
        replay_deal.apply(line)
    before = len(replay_deal.tricks)
    replay_deal.apply(actions[notice])
    assert len(replay_deal.tricks) < before and replay_deal.penalties == [0]
    assert revoke < notice


def test_renonce_noticed_after_the_end() -> None:
    """ "si toutes les cartes sont jouées, la bête n'en est pas moins faite, & on ne reprend
    point ses cartes" [ENC-Q]: the offender (seat 0) makes a bête of 14."""
    deal = replayed("quadrille-renonce-after-end.yaml")["deals"][0]
    assert deal["renonces"] == [0]
    bete_lines = [p for p in deal["payments"] if p["item"] == "bête (renonce)"]
    assert [(p["from"], p["amount"]) for p in bete_lines] == [("0", 14)]
    assert deal["pot_after"] == 14 and sum(deal["balances"]) + 14 == 0


# The public API refuses misuse with documented errors.


@pytest.mark.parametrize("seat", [99, -1, 4, "1", None, 1.0, True])
def test_view_refuses_a_seat_that_is_not_one(seat: object) -> None:
    if seat is True and compiled():
        pytest.skip("compiled, mypyc takes a bool where an int is annotated (docs/openspiel.md)")
    deal = Deal(load_ruleset("quadrille"), seed=1)
    with pytest.raises(MISTYPED if type(seat) is not int else NotationError):
        deal.view(seat)  # type: ignore[arg-type]
    with pytest.raises(MISTYPED if type(seat) is not int else NotationError):
        deal.hand(seat)  # type: ignore[arg-type]


@pytest.mark.parametrize("action", [None, 3, ["pass"], b"pass"])
def test_apply_refuses_what_is_not_an_action(action: object) -> None:
    deal = Deal(load_ruleset("quadrille"), seed=1)
    with pytest.raises(MISTYPED):
        deal.apply(action)  # type: ignore[arg-type]
    assert deal.history == []


@pytest.mark.parametrize("dealer", ["0", 1.5, None, True, 4, -1])
def test_dealer_must_be_a_seat(dealer: object) -> None:
    if dealer is True and compiled():
        pytest.skip("compiled, mypyc takes a bool where an int is annotated (docs/openspiel.md)")
    with pytest.raises(MISTYPED if type(dealer) is not int else NotationError):
        Deal(load_ruleset("quadrille"), dealer=dealer)  # type: ignore[arg-type]


def test_apply_refuses_a_seat_that_is_not_one() -> None:
    deal = Deal(load_ruleset("quadrille"), seed=1)
    with pytest.raises(NotationError):
        deal.apply("pass", seat=9)


# The house: the model is frozen and below the referee; enums come from the schema.


def test_the_model_is_deep_frozen() -> None:
    rules = load_ruleset("quadrille")
    with pytest.raises(TypeError):
        rules.data["deal"]["packets"].append([10])  # type: ignore[index]
    with pytest.raises(TypeError):
        rules.data["settlement"]["items"]["jeu"]["amount"] = 5  # type: ignore[index]
    with pytest.raises(TypeError):
        rules.data["auction"]["contracts"].pop("ask")  # type: ignore[union-attr]
    assert json.loads(json.dumps(rules.data))["deal"]["packets"] == [[3, 3, 4], [4, 3, 3]]
    assert load_ruleset("quadrille").data["deal"]["packets"][0] == [3, 3, 4]


def test_enums_are_generated_from_the_schema() -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location("gen_schema", ROOT / "tools" / "gen_schema.py")
    assert spec is not None and spec.loader is not None
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    committed = (ROOT / "engine" / "enums.py").read_text(encoding="utf-8")
    assert gen.render_enums() == committed, "regenerate with `python tools/gen_schema.py`"
    assert [m.value for m in Pot] == gen.schema_enum(gen.ENUMS["Pot"][1])
    assert load_ruleset("mediateur").contracts["mediateur"].help is Help.DEMAND


def test_one_enum_says_how_a_game_went() -> None:
    """A game in points names its result's game from the schema's list; those are members of
    the one enum every reader asks (:class:`Game`), which adds only the deal nobody played."""
    import importlib.util

    from engine.rules.values import Game

    spec = importlib.util.spec_from_file_location("gen_schema", ROOT / "tools" / "gen_schema.py")
    assert spec is not None and spec.loader is not None
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    named = gen.schema_enum(("settlement", "outcomes", "*", "game"))
    assert named == ["won", "remise", "codille"]
    assert [g.value for g in Game] == [*named, "redeal"]


# The layering of engine/ (every import, TYPE_CHECKING ones too) is tests/test_layers.py.

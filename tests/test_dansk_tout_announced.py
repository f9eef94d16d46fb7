"""The tout announced after five tricks (``variants/dansk-lhombre-tout-announced.yaml``), the
Nordic lomber's reading of the DLU's "Tout | 1 |" (docs/disagreements.md §3.32), tested from
the lomber's rules in an Icelandic translation (``mulathing``, p. 196, Tótus): "Ef einhver
sagnhafi hefur fengið fimm fyrstu slagina … getur hann sagt tótus." (a declarer who has won the
first five tricks may say tout), an extra win if he makes it, "Ef aftur á móti verður hann að
greiða hverjum mótherja jafnháa upphæð, ef hann tapar." (the same paid if he fails) and "Þó
fær hann samt vinning fyrir unnið spil." (he is still paid for the game won); and from the
DLU's points table (``dlu``): "Tout | 1 |". The amounts are docs/decisions.md's reading: the
tout made scores the game + 1, failed the game - 1."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import load_ruleset
from engine.referee import Deal, Phase
from engine.scoresheet import Entry, Evening
from tests.referee_helpers import all_tricks_result, deal_with, run

VARIANT = "dansk-lhombre-tout-announced"
RULES = load_ruleset(VARIANT)
CANONICAL = load_ruleset("dansk-lhombre")
ROOT = Path(__file__).resolve().parent.parent
TRUMP_GAMES = ("spil", "bedre-spil", "tourne", "tourne-respekt", "solo", "solo-spar")
NOLOS = ("kobe-nolo", "ren-nolo", "nolo-ouvert")
# The game won, per contract (dlu, netlh: "Solo | 5 | 3 | -3 | -4").
WON = {"spil": 1, "bedre-spil": 1, "tourne": 2, "tourne-respekt": 3, "solo": 3, "solo-spar": 4}
ALL_NINE = "As 7h Ac Ah Kh Qh Jh 2h 3h"  # the top nine trumps in hearts: all nine tricks
FIVE_ONLY = "As 7h Ac Ah Kh 2c 3c 4d 5d"  # five top trumps, then low cards the opponents beat


def five_won(ruleset: str, hand: str) -> Deal:
    """The forehand (seat 1) plays a solo in hearts and leads his highest trump each trick, the
    opponents playing their lowest card, until five tricks are played."""
    d = deal_with(ruleset, {1: hand})
    run(d, ["1 bid solo", "2 pass", "0 pass", "1 trump hearts"])
    while d.phase is Phase.EXCHANGE:
        d.apply(next(a for a in d.legal_actions() if str(a) == "discard"))
    play_until(d, 5)
    return d


def play_until(d: Deal, tricks: int) -> None:
    assert d.trump is not None
    strength = d.t.strength[d.trump]
    while not d.is_over and len(d.played_tricks) < tricks:
        pick = max if d.to_move == 1 else min
        plays = [a for a in d.legal_actions() if a.verb == "play"]
        d.apply(pick(plays, key=lambda a: strength[a.card.index]))


def test_after_five_tricks_won_the_declarer_may_announce_the_tout() -> None:
    # "Ef einhver sagnhafi hefur fengið fimm fyrstu slagina …, getur hann sagt tótus."
    d = five_won(VARIANT, ALL_NINE)
    assert d.won == [0, 5, 0] and d.phase is Phase.VOLE and d.to_move == 1
    assert {"vole", "stop"} <= {str(a) for a in d.legal_actions()}


def test_the_tout_made_scores_the_game_and_one_point() -> None:
    d = five_won(VARIANT, ALL_NINE)
    d.apply("1 vole")
    assert d.vole_undertaken
    play_until(d, 9)
    assert d.won == [0, 9, 0] and d.result == "vole"
    # Solo won is 3 (dlu "Solo | 3 | 4"); the tout made, 3 + 1 ("Tout | 1 |").
    assert d.settlement is not None and d.settlement.balances == (0, WON["solo"] + 1, 0)


def test_leading_the_sixth_card_is_the_announcement() -> None:
    d = five_won(VARIANT, ALL_NINE)
    play_until(d, 6)
    assert d.vole_undertaken


def test_the_tout_failed_scores_the_game_less_one_point() -> None:
    # "Ef aftur á móti verður hann að greiða hverjum mótherja jafnháa upphæð, ef hann tapar."
    # "Þó fær hann samt vinning fyrir unnið spil.": the game won, the tout's point paid back.
    d = five_won(VARIANT, FIVE_ONLY)
    assert d.won == [0, 5, 0] and d.phase is Phase.VOLE
    d.apply("1 vole")
    play_until(d, 9)
    assert d.is_over and d.won[1] < 9 and d.result == "vole-failed"
    assert d.settlement is not None and d.settlement.balances == (0, WON["solo"] - 1, 0)


def test_without_the_announcement_the_declarer_takes_his_game_only() -> None:
    # No unannounced tout in this variant: laying down after five scores the game.
    d = run(five_won(VARIANT, ALL_NINE), ["1 stop"])
    assert d.is_over and d.result == "win" and not d.vole_undertaken
    assert d.settlement is not None and d.settlement.balances == (0, WON["solo"], 0)


@pytest.mark.parametrize("cid", TRUMP_GAMES)
def test_the_tariff_gives_every_trump_game_its_tout(cid: str) -> None:
    contract = RULES.contracts[cid]
    assert contract.vole_allowed
    assert RULES.points[(cid, "win")].declarer == WON[cid]
    assert RULES.points[(cid, "vole")].declarer == WON[cid] + 1
    assert RULES.points[(cid, "vole-failed")].declarer == WON[cid] - 1
    assert (cid, "tout") not in RULES.points


@pytest.mark.parametrize("cid", TRUMP_GAMES)
def test_all_nine_tricks_unannounced_are_the_game_only(cid: str) -> None:
    assert all_tricks_result(RULES, cid, vole=False) == "win"
    assert all_tricks_result(RULES, cid, vole=True) == "vole"
    assert all_tricks_result(CANONICAL, cid, vole=False) == "tout"  # the canonical reading stands


@pytest.mark.parametrize("cid", NOLOS)
def test_the_nolos_keep_no_tout(cid: str) -> None:
    contract = RULES.contracts[cid]
    assert not contract.vole_allowed or contract.no_tricks


def test_the_canonical_file_is_unchanged() -> None:
    # rules/dansk-lhombre.yaml keeps its reading: all nine tricks, unannounced, a point above.
    assert not any(CANONICAL.contracts[c].vole_allowed for c in TRUMP_GAMES + NOLOS)
    assert "tout" in CANONICAL.outcomes and "vole" not in CANONICAL.outcomes
    for cid in TRUMP_GAMES:
        assert CANONICAL.points[(cid, "tout")].declarer == WON[cid] + 1
        assert (cid, "vole") not in CANONICAL.points
    d = five_won("dansk-lhombre", ALL_NINE)
    assert d.phase is Phase.PLAY  # no decision after five tricks
    play_until(d, 9)
    assert d.result == "tout" and d.settlement is not None
    assert d.settlement.balances == (0, WON["solo"] + 1, 0)


def test_the_variant_says_only_what_it_changes() -> None:
    text = (ROOT / "variants" / f"{VARIANT}.yaml").read_text(encoding="utf-8")
    assert "extends: dansk-lhombre" in text
    assert RULES.contracts["solo"].rank == CANONICAL.contracts["solo"].rank
    for cid in TRUMP_GAMES + NOLOS:
        for res in ("win", "remise", "codille"):
            ours, theirs = RULES.points[(cid, res)], CANONICAL.points[(cid, res)]
            assert ours.declarer == theirs.declarer


def test_the_scorekeeper_enters_the_tout_made_failed_and_unannounced() -> None:
    def scored(tricks: tuple[int, int, int], vole: bool) -> tuple[str, tuple[int, ...]]:
        entry = Entry(
            dealer=0, contract="solo", declarer=2, trump="hearts", tricks=tricks, vole=vole
        )
        out = Evening(RULES).score(entry)
        return out.result, out.settlement.balances

    assert scored((0, 0, 9), True) == ("vole", (0, 0, WON["solo"] + 1))
    assert scored((1, 0, 8), True) == ("vole-failed", (0, 0, WON["solo"] - 1))
    assert scored((0, 0, 9), False) == ("win", (0, 0, WON["solo"]))
    # The canonical file's scorekeeper reads all nine as its unannounced tout.
    canonical = Evening(CANONICAL).score(
        Entry(dealer=0, contract="solo", declarer=2, trump="hearts", tricks=(0, 0, 9))
    )
    assert canonical.result == "tout"


def test_the_scorekeeper_refuses_a_tout_in_a_nolo() -> None:
    from engine.errors import IllegalActionError

    with pytest.raises(IllegalActionError) as caught:
        Evening(RULES).score(
            Entry(dealer=0, contract="ren-nolo", declarer=2, tricks=(5, 0, 4), vole=True)
        )
    assert caught.value.code == "score/vole-not-allowed"


def test_bots_play_the_variant_to_the_end() -> None:
    from engine.bots import make_bot

    bots = [make_bot("heuristic", seed=s) for s in range(3)]
    results: set[str] = set()
    for seed in range(30):
        d = Deal(RULES, dealer=0, seed=seed)
        while not d.is_over:
            d.apply(bots[d.to_move].choose(d, d.to_move))
        assert d.faults == []
        results.add(d.result or "")
    assert "win" in results

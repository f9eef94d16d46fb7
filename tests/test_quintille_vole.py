"""Quintille's vole and its forced player, built from their sentences.

* The Académie's *Quintille nouveau* (sources/acad-2.yaml, Qf1dAAAAcAAJ PA120): "On ne court
  aucun risque d'entreprendre la Vole, n'y ayant aucune peine pour ceux qui ne la font point
  l'ayant entreprise": a failed vole costs nothing.
* ENC-QUI: the forced holder of spadille "suit en tout les lois de celui qui joue
  volontairement" (CG-EN PA56: "he follows all the Laws of those, who play voluntarily"): he
  is not barred from the vole, as Quadrille's forced player is.
"""

from __future__ import annotations

from engine import load_ruleset
from engine.referee.play import could_undertake_vole
from engine.referee.settlement import TableState, settle, stakes_for
from tests.referee_helpers import deal_with, run

QUINTILLE = load_ruleset("quintille")
QUADRILLE = load_ruleset("quadrille")


def _settle(rules, result: str, *, contract: str = "ask"):  # type: ignore[no-untyped-def]
    n = rules.players
    tricks = [0, 5, 0, 3, 0] if n == 5 else [0, 7, 0, 3]
    return settle(
        rules,
        n=n,
        table=TableState(),
        stakes=stakes_for(rules, 0, n, rules.stakes),
        result=result,
        contract=contract,
        declarer=1,
        partner=3,
        tricks=tricks,
        matadors=0,
        trump_holders=(),
    )


def test_a_failed_vole_costs_the_side_nothing() -> None:
    """ "n'y ayant aucune peine pour ceux qui ne la font point l'ayant entreprise": the side
    that undertook the vole and missed it is paid as for a won game, and pays no vole."""
    failed = _settle(QUINTILLE, "vole-failed")
    won = _settle(QUINTILLE, "win")
    assert not [p for p in failed.payments if p.item == "vole"]
    assert failed.balances == won.balances
    assert failed.balances[1] + failed.balances[3] > 0


def test_quadrille_still_penalises_the_failed_vole() -> None:
    """The Quintille rule is its own: Quadrille's failed vole pays what the vole would have
    won (ENC-Q "si l'on ne la fait pas, on paye ce qu'on auroit reçu si on l'avoit faite")."""
    failed = _settle(QUADRILLE, "vole-failed")
    won = _settle(QUADRILLE, "win")
    assert [p for p in failed.payments if p.item == "vole"]
    assert failed.balances[1] + failed.balances[3] < won.balances[1] + won.balances[3]


def test_the_forced_spadille_player_may_undertake_the_vole() -> None:
    """ "Il suit en tout les lois de celui qui joue volontairement": Quintille's forced player
    keeps the vole that Quadrille's loses ("ne peut point prétendre à la vole")."""
    forced = QUINTILLE.contracts["forced-spadille"]
    assert forced.vole_allowed and forced.shared_liability
    assert could_undertake_vole(QUINTILLE, forced, QUINTILLE.vole_after)
    assert not could_undertake_vole(QUADRILLE, QUADRILLE.contracts["forced-spadille"], 6)


def test_the_referee_offers_the_forced_player_the_vole() -> None:
    """All five pass; the holder of spadille plays, calls a king and, with the first five
    tricks taken and the king seen, is offered the vole like a volunteer."""
    deal = deal_with(
        "quintille",
        {
            1: "As 7h Ac Ah Kh Qh Jh 2h",
            3: "Kc Qc Jc 7c 6c 5c Qs Js",
            2: "3h 4h Kd Qd Jd Ad 2d 3d",
            4: "5h 6h 7s 6s 5s 4s 7d 6d",
        },
    )
    run(deal, ["1 pass", "2 pass", "3 pass", "4 pass", "0 pass"])
    assert deal.contract is not None and deal.contract.id == "forced-spadille"
    run(deal, ["1 trump hearts", "1 call Kc"])
    leads = ["As", "7h", "Ac", "Ah", "Kh"]
    for k, lead in enumerate(leads):
        run(deal, [f"1 play {lead}"])
        for seat in (2, 3, 4, 0):
            if seat == 3 and k == 0:
                run(deal, ["3 play Kc"])
            else:
                deal.apply(deal.legal_actions()[0], seat=seat)
    verbs = {str(a).split()[0] for a in deal.legal_actions()}
    assert {"vole", "stop"} <= verbs, deal.legal_actions()

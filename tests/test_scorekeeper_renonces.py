"""A revoke entered at the scorekeeper settles as the referee settles it when it plays the cards.

The Encyclopédie's Quadrille makes a bête of each renonce: "Qui renonce fait la bête autant de
fois qu'on l'en fait appercevoir" (the variant ``quadrille-renonce``, rules/quadrille.yaml,
play.renonce). The deals are the golden records tests/records/quadrille-renonce-*.yaml, entered
without their cards (who revoked, and how often, is all a scorekeeper writes down), at the
evening file, the terminal and the web form. Where the rules do not penalise the renonce, one
entered is refused with the referee's own code.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from engine import load_ruleset
from engine.errors import IllegalActionError
from engine.records import read_record, replay
from engine.referee import Deal
from engine.scoresheet import Evening, parse_entry
from engine.scoreterm import run_score
from tests.test_scorekeeper_every_contract import written_down

RECORDS = Path(__file__).parent / "records"
NAMES = ("Anne", "Bertrand", "Claire", "Denis")
REVOKED = (
    "quadrille-renonce-retake.yaml",  # two found at the end, the cards taken back
    "quadrille-renonce-after-end.yaml",  # one found at the end
    "quadrille-renonce-before-end.yaml",  # pointed out before the end, the trick taken back
)


def played(name: str) -> Deal:
    record = read_record(RECORDS / name)
    deal = replay(record, load_ruleset(record.ruleset)).finished[0]
    assert deal.settlement is not None
    return deal


def outcome(settlement: Any) -> tuple[Any, ...]:
    return (settlement.balances, settlement.pot_after, settlement.table.betes, settlement.bete)


@pytest.mark.parametrize("name", REVOKED)
def test_an_entered_revoke_settles_as_the_played_one(name: str) -> None:
    deal = played(name)
    data = written_down(deal)
    assert data.get("renonces"), "the record has a renonce"
    scored = Evening(deal.rules).score(parse_entry(data, dealer=deal.dealer, n=deal.n))
    assert scored.result == deal.result
    assert outcome(scored.settlement) == outcome(deal.settlement)
    assert scored.settlement.payments == deal.settlement.payments  # type: ignore[union-attr]


def test_two_revokes_make_two_betes_and_one_fewer_makes_one() -> None:
    deal = played("quadrille-renonce-retake.yaml")
    data = written_down(deal)
    assert data["renonces"] == [0, 2]
    two = Evening(deal.rules).score(parse_entry(data, dealer=0, n=4)).settlement
    one = Evening(deal.rules).score(parse_entry({**data, "renonces": [0]}, dealer=0, n=4))
    assert two.bete == 2 * one.settlement.bete == 28
    assert two.balances[2] == one.settlement.balances[2] - 14


def test_a_revoke_entered_where_the_rules_refuse_one_is_refused_as_the_referee_refuses() -> None:
    data = written_down(played("quadrille-renonce-retake.yaml"))
    quadrille = load_ruleset("quadrille")
    with pytest.raises(IllegalActionError) as refused:
        Evening(quadrille).score(parse_entry(data, dealer=0, n=4))
    assert refused.value.code == "renonce/refused"
    # The referee's own refusal of a revoke played under the same rules.
    deal = Deal(quadrille, dealer=0, seed=3)
    while deal.phase.value != "play":
        deal.apply(deal.legal_actions()[0])
    seat = deal.to_move
    error = deal.refusal(f"{seat} renonce {next(iter(deal.hand(seat)))}")
    assert error is not None and error.code == refused.value.code


def answers_for(data: dict[str, Any], names: tuple[str, ...]) -> list[str]:
    """The terminal's answers for an entry, every seat given by the player's name."""
    out = [data["contract"], names[data["declarer"]], data.get("trump", "")]
    out += [data.get("called", "")]
    if "called" in data:
        out.append(names[data["holder"]].lower())  # any case
    out += [" ".join(map(str, data["tricks"])), str(data["matadors"])]
    out += ["y" if data["vole"] else "n"]
    out += [", ".join(names[s][:2] for s in data.get("renonces", []))]  # the first letters
    return out


def terminal(evening: Evening, answers: list[str]) -> str:
    lines = iter(answers)
    out: list[str] = []
    run_score(evening, None, lambda prompt: out.append(prompt) or next(lines, None), out.append)
    return "\n".join(out)


def test_the_terminal_asks_the_revokes_and_takes_the_players_names() -> None:
    deal = played("quadrille-renonce-retake.yaml")
    data = written_down(deal)
    evening = Evening(deal.rules, players=NAMES)
    text = terminal(evening, answers_for(data, NAMES))
    assert "renonces pointed out" in text and "Anne, Bertrand, Claire or Denis, or seat 0-3" in text
    assert len(evening.deals) == 1, text
    entered = evening.deals[0]
    assert entered.entry.renonces == (0, 2) and entered.entry.declarer == data["declarer"]
    assert outcome(entered.settlement) == outcome(deal.settlement)


def test_the_terminal_asks_again_for_a_name_that_is_nobody() -> None:
    deal = played("quadrille-renonce-retake.yaml")
    data = written_down(deal)
    answers = answers_for(data, NAMES)
    answers.insert(1, "Zoé")  # no such player: asked again, nothing lost
    evening = Evening(deal.rules, players=NAMES)
    text = terminal(evening, answers)
    assert "or a player's name (Anne, Bertrand, Claire, Denis)" in text
    assert len(evening.deals) == 1 and evening.deals[0].entry.renonces == (0, 2)


def test_an_ambiguous_start_of_a_name_names_nobody() -> None:
    evening = Evening(load_ruleset("quadrille"), players=("Anne", "Annette", "Claire", "Denis"))
    assert evening.seat_of("ann") is None and evening.seat_of("anne") == 0
    assert evening.seat_of("ANNET") == 1 and evening.seat_of("3") == 3
    assert evening.seat_of("4") is None and evening.seat_of("") is None


def test_the_terminal_does_not_ask_for_revokes_the_rules_refuse() -> None:
    evening = Evening(load_ruleset("quadrille"))
    text = terminal(evening, ["ask", "1", "clubs", "Kd", "3", "1 3 3 3", "0", "n"])
    assert len(evening.deals) == 1 and "renonces" not in text


def test_the_web_form_takes_the_revokes(tmp_path: Path) -> None:
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from engine.web.app import create_app

    deal = played("quadrille-renonce-retake.yaml")
    data = written_down(deal)
    client = TestClient(
        create_app(tmp_path), follow_redirects=True, headers={"origin": "http://testserver"}
    )
    plain = client.post("/evenings", data={"ruleset": "quadrille", "dealer": "0"})
    assert plain.status_code == 200 and 'name="renonces0"' not in plain.text
    r = client.post("/evenings", data={"ruleset": "quadrille-renonce", "dealer": "0"})
    assert r.status_code == 200 and 'name="renonces0"' in r.text
    path = str(r.url.path)

    def post(**fields: str) -> Any:
        page = client.get(path).text
        version = re.search(r'name="version" value="([^"]+)"', page)
        assert version
        form = {
            "count": str(page.count('class="deal"')),
            "dealer": "0",
            "version": version[1],
            "contract": data["contract"],
            "declarer": str(data["declarer"]),
            "trump": data["trump"],
            "called": data["called"],
            "holder": str(data["holder"]),
            **{f"tricks{k}": str(t) for k, t in enumerate(data["tricks"])},
            "matadors": str(data["matadors"]),
            **fields,
        }
        return client.post(path + "/deals", data=form)

    assert post(renonces0="eleven").status_code == 400
    assert post(renonces0="11").status_code == 400  # more revokes than tricks
    saved = next(
        p
        for p in (tmp_path / "evenings").glob("*.yaml")
        if "ruleset: quadrille-renonce" in p.read_text()
    )
    assert "score:" not in saved.read_text()
    r = post(renonces0="1", renonces2="1")
    assert r.status_code == 200
    text = saved.read_text()
    assert "renonces: [0, 2]" in text
    assert f"balances {list(deal.settlement.balances)}" in text  # type: ignore[union-attr]

"""A deal the machine dealt has no misdeal: the server deals every hand right and faces no
card, so a player about to lose may not void the deal by declaring one (nor a card too many).
A deal dealt by hand (a record, the terminal's entered deals) keeps the law as its source says."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine import load_ruleset
from engine.actions import Action
from engine.errors import IllegalActionError
from engine.referee.party import Party


def test_a_machine_dealt_deal_refuses_every_misdeal_and_a_card_too_many() -> None:
    rules = load_ruleset("quadrille")
    deal = Party(rules).new_deal(seed=3, machine_dealt=True)
    assert not [a for a in deal.declarable(0) if a.verb in ("misdeal", "extra-card")]
    with pytest.raises(IllegalActionError) as refused:
        deal.apply(Action("misdeal", word="too-many"), seat=1)
    assert refused.value.code == "misdeal/machine-dealt"
    assert not deal.is_over


def test_a_deal_dealt_by_hand_keeps_the_law() -> None:
    rules = load_ruleset("quadrille")
    deal = Party(rules).new_deal(seed=3)
    assert Action("misdeal", word="too-many") in deal.declarable(1)
    deal.apply(Action("misdeal", word="too-many"), seat=1)
    assert deal.is_over and deal.result == "misdeal"


def test_the_web_offers_no_misdeal_and_refuses_a_forged_one(tmp_path: Path) -> None:
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from engine.web.app import create_app

    client = TestClient(
        create_app(tmp_path), follow_redirects=True, headers={"origin": "http://testserver"}
    )
    r = client.post("/tables", data={"ruleset": "quadrille", "mode": "hotseat", "seed": "8"})
    assert r.status_code == 200
    path = str(r.url.path)
    assert "misdeal" not in r.text
    turn = re.search(r'name="turn" value="([^"]+)"', r.text)
    seat = re.search(r'name="seat" value="(\d+)"', r.text)
    assert turn and seat
    before = (tmp_path / "tables" / f"{path.rsplit('/', 1)[1]}.yaml").read_text()
    forged = client.post(
        f"{path}/act",
        data={"seat": seat.group(1), "turn": turn.group(1), "action": "misdeal too-many"},
    )
    assert forged.status_code < 500
    after = (tmp_path / "tables" / f"{path.rsplit('/', 1)[1]}.yaml").read_text()
    assert "misdeal" not in after and before == after

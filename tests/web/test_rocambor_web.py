"""The browser table plays the online Rocambor's auction that goes round, its raise and a
defender's choice of exchanging first (``variants/tresillo-rocambor.yaml``, issue 16): the
controls come from the referee's legal actions, through the server's own forms."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed (pip install '.[web]')")

from starlette.testclient import TestClient

from engine.web.app import create_app

SAME_ORIGIN = {"origin": "http://testserver"}


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    return TestClient(create_app(tmp_path), follow_redirects=True, headers=SAME_ORIGIN)


def turn_of(page: str) -> str:
    match = re.search(r'name="turn" value="([^"]+)"', page)
    assert match
    return match.group(1)


def act(client: TestClient, path: str, page: str, seat: int, action: str) -> str:
    r = client.post(
        path + "/act", data={"seat": str(seat), "turn": turn_of(page), "action": action}
    )
    assert r.status_code == 200, r.text
    return r.text


def test_the_rocambor_raise_and_defer_at_the_browser_table(client: TestClient) -> None:
    r = client.post(
        "/tables", data={"ruleset": "tresillo-rocambor", "mode": "hotseat", "seed": "4"}
    )
    assert r.status_code == 200
    path, page = str(r.url.path), r.text
    # The opening bid: no oros, no solo oros (they may not open).
    assert 'value="bid entrada"' in page and 'value="bid vuelta"' in page
    assert 'value="bid entrada-favor"' not in page and 'value="bid solo-favor"' not in page
    # An opening oros sent anyway is refused with the rule, not a 500.
    r = client.post(
        path + "/act", data={"seat": "1", "turn": turn_of(page), "action": "bid entrada-favor"}
    )
    assert r.status_code in (200, 400, 409) and "may not open the auction" in r.text
    page = client.get(path).text
    for seat, action in ((1, "bid entrada"), (2, "pass"), (3, "pass")):
        page = act(client, path, page, seat, action)
    assert 'id="raise"' in page
    assert '<button name="action" value="pass">Play Entrada' in page
    assert (
        '<button name="action" value="bid entrada-favor">Play Entrada in the palo de favor' in page
    )
    assert '<button name="action" value="bid contrabola">Play Contrabola' in page
    assert 'id="choices"' not in page  # no generic buttons beside them
    page = act(client, path, page, 1, "pass")
    assert 'id="raise"' not in page
    page = act(client, path, page, 1, "trump hearts")
    page = act(client, path, page, 1, "discard")
    assert 'id="defer"' in page
    assert '<button name="action" value="defer">Let the other defender exchange first' in page
    page = act(client, path, page, 2, "defer")
    assert 'id="defer"' not in page  # once only, and not for the other defender
    page = act(client, path, page, 3, "discard")
    assert 'id="defer"' not in page

"""The web scoresheet and the living family (issue 16): the penetro's winner where seats tied,
a defender's vole, contracts without trumps, and a refused form given back as it was typed."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from engine.web.app import create_app


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    # What a browser sends with a form from the server's own page (http://testserver).
    return TestClient(
        create_app(tmp_path / "web"),
        follow_redirects=True,
        headers={"origin": "http://testserver"},
    )


def version_of(page: str) -> str:
    found = re.search(r'name="version" value="([0-9a-f]+)"', page)
    assert found is not None
    return found.group(1)


def count_of(page: str) -> str:
    found = re.search(r'name="count" value="(\d+)"', page)
    assert found is not None
    return found.group(1)


def dealer_of(page: str) -> str:
    found = re.search(r'name="dealer" value="(\d+)"', page)
    assert found is not None
    return found.group(1)


def evening(client: TestClient, ruleset: str) -> tuple[str, str]:
    r = client.post("/evenings", data={"ruleset": ruleset, "dealer": "0"})
    assert r.status_code == 200
    return str(r.url.path), r.text


def post(client: TestClient, path: str, page: str, **fields: object) -> object:
    data: dict[str, object] = {
        "version": version_of(page),
        "count": count_of(page),
        "dealer": dealer_of(page),
        "matadors": "0",
        **fields,
    }
    return client.post(path + "/deals", data=data)


def tricks(*counts: int) -> dict[str, str]:
    return {f"tricks{k}": str(t) for k, t in enumerate(counts)}


def test_a_penetro_tie_is_asked_refused_and_kept_then_scored(client: TestClient) -> None:
    path, page = evening(client, "tresillo-rocambor")
    assert 'name="latest_of_tied"' in page and 'name="vole_by"' in page
    # Seats 0 and 1 tied, the latest trick's winner not given: refused (409), located, and the
    # form comes back with what was typed.
    r = post(client, path, page, contract="penetro", declarer="0", **tricks(3, 3, 2, 1))
    assert r.status_code == 409  # type: ignore[attr-defined]
    text = html.unescape(r.text)  # type: ignore[attr-defined]
    assert "tied for the most tricks (3)" in text and "score/tie" in text
    assert '<option value="penetro" selected>' in text
    assert 'name="tricks1" min="0" max="9" value="3"' in text
    r = post(
        client,
        path,
        text,
        contract="penetro",
        declarer="0",
        latest_of_tied="1",
        **tricks(3, 3, 2, 1),
    )
    assert r.status_code == 200  # type: ignore[attr-defined]
    page = r.text  # type: ignore[attr-defined]
    assert "the most tricks seat 1 (of those tied, he won the latest trick)" in page
    assert "no trumps" in page
    assert re.search(r'<td data-seat="1">\+2</td>', page)


def test_a_defenders_vole_is_entered_on_the_web(client: TestClient) -> None:
    path, page = evening(client, "tresillo-rocambor")
    # Seat 2, a defender, took all nine after going on: the vole is his (the box need not be
    # ticked: naming him says it was undertaken).
    r = post(
        client,
        path,
        page,
        contract="entrada",
        declarer="1",
        trump="spades",
        vole_by="2",
        **tricks(0, 0, 9, 0),
    )
    assert r.status_code == 200  # type: ignore[attr-defined]
    page = r.text  # type: ignore[attr-defined]
    assert "seat 2, a defender, went on for the vole as its declarer" in page
    assert re.search(r'<td data-seat="2">\+6</td>', page)
    # Naming a seat of the declaring side is refused, the choice kept.
    r = post(
        client,
        path,
        page,
        contract="entrada",
        declarer="2",
        trump="clubs",
        vole_by="2",
        **tricks(0, 0, 9, 0),
    )
    assert r.status_code == 409  # type: ignore[attr-defined]
    assert "score/vole-by-defender" in r.text  # type: ignore[attr-defined]
    assert re.search(
        r'name="vole_by">.*<option value="2" selected>',
        r.text,  # type: ignore[attr-defined]
    )


def test_where_only_the_side_goes_on_no_defender_is_asked(client: TestClient) -> None:
    _, page = evening(client, "tresillo")
    assert 'name="vole_by"' not in page and 'name="latest_of_tied"' not in page


def test_a_refused_form_keeps_its_penalty_rows(client: TestClient) -> None:
    # A deal refused for another reason (tricks that do not add up) gives the penalty rows back
    # as typed: they were once dropped.
    path, page = evening(client, "dansk-lhombre")
    r = client.post(
        path + "/deals",
        data={
            "version": version_of(page),
            "count": "0",
            "dealer": "0",
            "contract": "spil",
            "declarer": "1",
            "trump": "spades",
            "matadors": "0",
            **tricks(2, 5, 1),
            "penalty_seat": ["2", ""],
            "penalty_fault": ["naming-suit", ""],
        },
    )
    assert r.status_code == 409
    assert re.search(r'name="penalty_seat">.*?<option value="2" selected>', r.text)
    assert '<option value="naming-suit" selected>' in r.text


def test_a_malformed_seat_in_the_new_fields_is_a_located_400(client: TestClient) -> None:
    path, page = evening(client, "tresillo-rocambor")
    for field in ("vole_by", "latest_of_tied"):
        r = post(
            client,
            path,
            page,
            contract="penetro",
            declarer="0",
            **{field: "x"},
            **tricks(3, 3, 2, 1),
        )
        assert r.status_code == 400  # type: ignore[attr-defined]
        assert f"{field} must be a number" in r.text  # type: ignore[attr-defined]
    # A seat beyond the table: refused by the scoresheet (409), located, nothing scored.
    r = post(
        client,
        path,
        page,
        contract="penetro",
        declarer="0",
        latest_of_tied="9",
        **tricks(3, 3, 2, 1),
    )
    assert r.status_code == 409  # type: ignore[attr-defined]
    assert "latest_of_tied" in html.unescape(r.text)  # type: ignore[attr-defined]


def test_the_race_to_twelve_ends_the_web_evening(client: TestClient) -> None:
    # Two bolas of 6 by seat 2 (who plays in the deals dealt by seats 0 and 1): 12 reached.
    path, page = evening(client, "tresillo-rocambor")
    for _ in range(2):
        assert 'id="party-over"' not in page and 'id="entry"' in page
        r = post(client, path, page, contract="bola", declarer="2", **tricks(0, 0, 9, 0))
        assert r.status_code == 200  # type: ignore[attr-defined]
        page = r.text  # type: ignore[attr-defined]
    assert 'id="party-over"' in page and "seat 2 reached 12" in page
    assert 'id="entry"' not in page and 'id="undo"' in page


def test_the_form_asks_only_what_the_game_scores(client: TestClient) -> None:
    """Danish l'hombre is scored in points, calls no card and plays no vole: its form asks for
    no matadors, no called card and no vole; Quadrille's asks for all three."""
    _, danish = evening(client, "dansk-lhombre")
    for field in ('name="matadors"', 'name="called"', 'name="holder"', 'name="vole"'):
        assert field not in danish, field
    _, quadrille = evening(client, "quadrille")
    for field in ('name="matadors"', 'name="called"', 'name="holder"', 'name="vole"'):
        assert field in quadrille, field

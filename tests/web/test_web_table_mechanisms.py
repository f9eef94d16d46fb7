"""The living family's mechanisms on the browser table (issue 16): each is offered with its own
labelled controls and shown from the referee's typed answers (``Deal.offer``,
``Deal.each_for_himself``, ``Deal.top_taker``, ``Deal.vole_by_defender``, ``Deal.exchange_why``,
``Deal.view``'s ``declarer_hand``, ``Party.penalty_points``), and each deal is driven to its
end through the server while every page is checked for cards its seat may not see: another
seat's hand, the talon, the open (*ouvert*) hand before the referee shows it.

Rule sets: ``rules/dansk-lhombre.yaml`` (the nolos, nolo ouvert, the raise, penalty points) and
``variants/tresillo-rocambor.yaml`` (the penetro, the contrabola, the bola, a defender's vole,
points to 12). The deals are dealt by seed or with the cards given, and every seat is a person
(hot-seat) so that the test chooses each move; the bots' own play is tested elsewhere.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed (pip install '.[web]')")

from starlette.testclient import TestClient

from engine import load_ruleset
from engine.actions import parse_line
from engine.cards import ALL_CARDS, Suit
from engine.referee import Deal, Phase
from engine.web.app import create_app
from engine.web.tables import WebTable
from tests.referee_helpers import run

SAME_ORIGIN = {"origin": "http://testserver"}
ROCAMBOR = load_ruleset("tresillo-rocambor")
DANSK = load_ruleset("dansk-lhombre")

Choose = Callable[[Deal], str]


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    return TestClient(create_app(tmp_path), follow_redirects=True, headers=SAME_ORIGIN)


def turn_of(page: str) -> str:
    match = re.search(r'name="turn" value="([^"]+)"', page)
    assert match, page
    return match.group(1)


def table_of(client: TestClient, path: str) -> WebTable:
    """The server's own table behind ``path`` (to check what a page may show, and choose)."""
    state = client.app.state.web  # type: ignore[attr-defined]
    return state.table(path.rsplit("/", 1)[-1])  # type: ignore[no-any-return]


def seat_at(client: TestClient, rules: object, deal: Deal, humans: tuple[int, ...]) -> str:
    """Sets a table in the app dealt the cards of ``deal`` and played up to where it stands
    (its record lines applied by the referee); returns the table's path."""
    state = client.app.state.web  # type: ignore[attr-defined]
    ident = state.store.new_id(deal.rules.id)
    table = WebTable(ident, deal.rules, dict(deal.options), humans, "heuristic", 1)
    fresh = table.party.new_deal(
        hands=[[str(ALL_CARDS[c]) for c in hand] for hand in deal.dealt],
        talon=[str(ALL_CARDS[c]) for c in deal.dealt_talon],
    )
    for line in deal.record_actions():
        seat, action = parse_line(line)
        fresh.apply(action, seat=seat)
    table.run_bots()
    state.add_table(table)
    return f"/tables/{ident}"


def hotseat(client: TestClient, ruleset: str, seed: int) -> tuple[str, str]:
    r = client.post("/tables", data={"ruleset": ruleset, "mode": "hotseat", "seed": str(seed)})
    assert r.status_code == 200
    return str(r.url.path), r.text


def assert_nothing_hidden(table: WebTable, page: str) -> None:
    """The page shows its seat no card of another's hand nor of the talon, except the
    declarer's open hand once the referee shows it (``Deal.declarer_shown``)."""
    deal = table.deal
    if deal.is_over:
        return  # the record and the tricks are everybody's once the deal is over
    viewer = table.viewer()
    for seat in range(deal.n):
        if seat == viewer or (seat == deal.declarer and deal.declarer_shown()):
            continue
        public = set(deal.public_cards(seat))  # laid open by an irregularity
        for card in deal.hand(seat):
            if card in public:
                continue
            assert f'data-card="{card}"' not in page, f"seat {viewer} sees {card} of seat {seat}"
    turned = deal.view(viewer).turned
    for c in deal.talon[deal.talon_pos :]:
        card = ALL_CARDS[c]
        if card != turned:
            assert f'data-card="{card}"' not in page, f"seat {viewer} sees {card} of the talon"


def first_choice(deal: Deal) -> str:
    """The first legal action (the écart: the fewest cards the referee allows, first in the
    hand); any seat's choice, for a test that only needs the deal to go on."""
    if deal.phase is Phase.EXCHANGE:
        why = deal.exchange_why()
        least = why.least if why is not None else 0
        return " ".join(["discard", *(str(c) for c in deal.hand(deal.to_move)[:least])])
    return str(deal.legal_actions()[0])


def act(client: TestClient, path: str, page: str, action: str, status: int = 200) -> str:
    """Posts ``action`` for the seat the page is drawn for, as its form would."""
    seat = re.search(r'name="seat" value="(\d)"', page)
    assert seat, page
    data: dict[str, object] = {"seat": seat[1], "turn": turn_of(page)}
    verb, *cards = action.split()
    if verb == "discard":
        data.update(verb="discard", card=cards)
    else:
        data["action"] = action
    r = client.post(path + "/act", data=data)
    assert r.status_code == status, r.text
    return r.text


def play_to_the_end(client: TestClient, path: str, page: str, choose: Choose = first_choice) -> str:
    """Plays every turn with ``choose`` until the result, checking at each page that the
    move is offered there and that the page hides what its seat may not see."""
    for _ in range(400):
        table = table_of(client, path)
        assert_nothing_hidden(table, page)
        if 'id="result"' in page:
            return page
        action = choose(table.deal)
        if not action.startswith("discard"):
            assert f'value="{action}"' in page, (action, page)
        page = act(client, path, page, action)
    raise AssertionError("the deal did not end")


def penetro_offered(client: TestClient) -> tuple[str, str]:
    """A Rocambor deal at four (seat 0 deals and sits out), the espada in the talon, every
    seat a person; the three who play pass: the penetro is offered to seat 0."""
    from tests.referee_helpers import tresillo

    path = seat_at(client, ROCAMBOR, tresillo(ROCAMBOR, {}, talon="As"), (0, 1, 2, 3))
    page = client.get(path).text
    for _ in range(3):
        page = act(client, path, page, "pass")
    return path, page


# The penetro (mechanism 9).


def test_the_penetro_has_its_own_labelled_controls_and_is_played_each_for_himself(
    client: TestClient,
) -> None:
    path, page = penetro_offered(client)
    assert_nothing_hidden(table_of(client, path), page)
    assert 'id="offer"' in page and 'id="choices"' not in page  # no generic bid/pass buttons
    assert "Everyone who plays has passed. Seat 0 sits this deal out and may take up" in page
    assert '<button name="action" value="bid penetro">Take up Penetro' in page
    assert '<button name="action" value="pass">Pass: do not take it up</button>' in page
    assert "the deal is void and the cards are dealt again (seat 1 deals)" in page
    page = act(client, path, page, "bid penetro")
    assert 'id="offer"' not in page
    # All against all: no declarer's side, each seat's tricks, the most tricks so far.
    assert 'id="each"' in page and "every seat for himself" in page
    assert "tricks: side" not in page
    assert "took it up" in page
    for _ in range(4):  # the first trick
        page = act(client, path, page, first_choice(table_of(client, path).deal))
    assert 'id="top-taker"' in page and "most tricks so far" in page
    page = play_to_the_end(client, path, page)
    assert 'id="each-result"' in page and "every seat played for himself" in page
    deal = table_of(client, path).deal
    assert deal.top_taker is not None
    assert f"seat {deal.top_taker} took the most tricks" in page
    assert "Result: <a" in page and ">penetro</a>" in page
    assert "(first to 12)" in page  # the race to 12 points in the standing


def test_declining_the_penetro_passes_the_deal_out_and_it_is_dealt_again(
    client: TestClient,
) -> None:
    path, page = penetro_offered(client)
    page = act(client, path, page, "pass")
    assert "All passed: the deal is void" in page
    r = client.post(path + "/next", data={"turn": turn_of(page)})
    assert r.status_code == 200
    assert table_of(client, path).deal.dealer == 1  # dealt again, by the next dealer


def test_the_penetro_is_offered_only_to_the_seat_that_sits_out(client: TestClient) -> None:
    # The labelled controls are the referee's legal actions: a seat that plays has none.
    from tests.referee_helpers import tresillo

    path = seat_at(client, ROCAMBOR, tresillo(ROCAMBOR, {}, talon="As"), (0, 1, 2, 3))
    page = client.get(path).text
    assert 'id="offer"' not in page and 'value="bid penetro"' not in page
    refused = act(client, path, page, "bid penetro", status=409)
    assert "bid/offered-to-out" in refused


# The nolos and nolo ouvert (dansk-lhombre).


def test_nolo_ouvert_shows_the_declarers_hand_only_once_the_referee_does(
    client: TestClient,
) -> None:
    path, page = hotseat(client, "dansk-lhombre", 1)
    for action in ("bid nolo-ouvert", "pass", "pass"):
        page = act(client, path, page, action)
    table = table_of(client, path)
    deal = table.deal
    assert deal.contract is not None and deal.contract.id == "nolo-ouvert"
    declarer = deal.declarer
    assert declarer == 1
    # The écart and the first lead: the hand is not open yet, on any seat's page.
    while not deal.trick and not deal.played_tricks:
        assert 'id="open-hand"' not in page
        assert_nothing_hidden(table, page)
        page = act(client, path, page, first_choice(deal))
    assert "no trumps" in page
    shown = 0
    while not deal.is_over:
        assert_nothing_hidden(table, page)
        if table.viewer() != declarer:
            assert 'id="open-hand"' in page and f"Open on the table: seat {declarer}" in page
            for card in deal.hand(declarer):
                assert f'data-card="{card}"' in page
            shown += 1
        else:
            assert 'id="open-hand"' not in page  # his own cards are in his hand
        page = act(client, path, page, first_choice(deal))
    assert shown and 'id="result"' in page


def test_a_nolo_is_played_without_trumps_to_its_end(client: TestClient) -> None:
    path, page = hotseat(client, "dansk-lhombre", 2)
    for action in ("bid kobe-nolo", "pass", "pass"):
        page = act(client, path, page, action)
    assert "Købe nolo" in page and "no trumps" in page
    page = play_to_the_end(client, path, page)
    assert "Result: <a" in page and "no trumps" in page


# The contrabola: exactly one card exchanged, by him alone.


def test_the_contrabola_exchanges_exactly_one_card(client: TestClient) -> None:
    from tests.referee_helpers import tresillo

    path = seat_at(client, ROCAMBOR, tresillo(ROCAMBOR, {}), (0, 1, 2, 3))
    page = client.get(path).text
    for action in ("pass", "pass"):
        page = act(client, path, page, action)
    assert 'value="bid contrabola"' in page  # the last to speak, the others having passed
    page = act(client, path, page, "bid contrabola")
    assert 'id="ecart-limit"' in page and "exactly 1: tick 1 card" in page
    refused = act(client, path, page, "discard", status=409)
    assert 'id="refusal"' in refused
    card = str(table_of(client, path).deal.hand(3)[-1])
    page = act(client, path, page, f"discard {card}")
    deal = table_of(client, path).deal
    assert [len(d) for s, d, _ in deal.exchanges] == [1] and deal.phase is Phase.PLAY
    page = play_to_the_end(client, path, page)
    assert "contrabola" in page


# The bola and a defender's vole (vole.by: any-seat).


def test_the_bola_is_played_to_its_end(client: TestClient) -> None:
    from tests.referee_helpers import tresillo

    strong = "As Ac 2s Ks Qs Js 7s 6s 5s"
    path = seat_at(client, ROCAMBOR, tresillo(ROCAMBOR, {1: strong}), (0, 1, 2, 3))
    page = client.get(path).text
    page = act(client, path, page, "bid bola")
    for action in ("pass", "pass"):
        page = act(client, path, page, action)
    assert "Bola" in page
    page = play_to_the_end(client, path, page)
    assert "Result: <a" in page and "Bola" in page


def test_a_defender_who_took_the_first_five_has_labelled_vole_controls(
    client: TestClient,
) -> None:
    from tests.test_defender_vole import five_to_the_defender

    path = seat_at(client, ROCAMBOR, five_to_the_defender(), (1, 2, 3))
    page = client.get(path).text
    assert_nothing_hidden(table_of(client, path), page)
    assert 'id="vole"' in page and "Seat 2, a defender, has taken every trick so far" in page
    assert '<button name="action" value="vole">Go on for the vole</button>' in page
    assert "as the declarer, alone" in page
    assert '<button name="action" value="stop">Lay down</button>' in page
    assert 'value="vole">Vole</button>' not in page  # not a generic button as well
    page = act(client, path, page, "vole")
    deal = table_of(client, path).deal
    assert deal.declarer == 2 and deal.vole_undertaken
    page = play_to_the_end(client, path, page)
    assert 'id="result"' in page


def test_the_sides_vole_decision_is_worded_for_the_side(client: TestClient) -> None:
    from tests.referee_helpers import tresillo

    strong = "As Ac 2s Ks Qs Js 7s 6s 5s"
    deal = run(tresillo(ROCAMBOR, {1: strong}), ["1 bid sans-prendre spades", "2 pass", "3 pass"])
    if deal.phase is Phase.RAISE:
        deal.apply("1 pass")  # where the variant lets the winner raise: he keeps his solo
    assert deal.trump == Suit.SPADES.index  # named with the bid: nobody names trumps after
    while deal.phase is Phase.EXCHANGE:
        deal.apply(first_choice(deal))
    while deal.phase is Phase.PLAY:
        strength = deal.t.strength[deal.trump or 0]
        pick = max if deal.to_move == 1 else min
        deal.apply(pick(deal.legal_actions(), key=lambda a: strength[a.card.index]))
    assert deal.phase is Phase.VOLE and deal.to_move == 1
    path = seat_at(client, ROCAMBOR, deal, (1,))
    page = client.get(path).text
    assert 'id="vole"' in page and "Your side has taken every trick so far" in page
    assert "a defender" not in page
    page = act(client, path, page, "stop")
    assert 'id="result"' in page


# Points, a race to a target, penalty points in the party's standing.


def test_penalty_points_stand_beside_the_points_in_the_standing(client: TestClient) -> None:
    path, page = hotseat(client, "dansk-lhombre", 2)
    # Bedre spil named where spil would do: a penalty point ("kan der idømmes 1 strafpoint").
    page = act(client, path, page, "bid bedre-spil")
    # Flagged when made, to every seat (the speech is public), as the terminal tells it.
    faults = page.split('id="faults"', 1)[1].split("</section>", 1)[0]
    assert "(strafpoint): 1 penalty point for seat 1, scored whatever the result" in faults
    for action in ("pass", "pass"):
        page = act(client, path, page, action)
    page = play_to_the_end(client, path, page)
    assert table_of(client, path).party.penalty_points == [0, 1, 0]
    assert 'id="penalty-points"' in page and "penalty points in them" in page
    assert "running totals in points" in page


# The laws of the table: a hand laid down without naming trumps (laws.lay_down_unnamed), and
# trumps named for it by another, declarable here as at the terminal.


def test_a_hand_laid_down_unnamed_and_trumps_named_for_it_on_the_web(
    client: TestClient,
) -> None:
    path, page = hotseat(client, "quadrille", 8)
    for action in ("bid sans-prendre", "pass", "pass", "pass"):
        page = act(client, path, page, action)
    # The declarer, to name trumps, may declare the irregularity, worded in the menu.
    assert 'id="declare"' in page
    assert (
        '<option value="lay-down">I lay my hand down without naming trumps (another names'
        " them) (lay-down)</option>"
    ) in page
    page = act(client, path, page, "lay-down")
    deal = table_of(client, path).deal
    assert deal.to_move == 2 and deal.phase is Phase.TRUMP
    # The next seat names them, with controls saying for whom; no generic buttons beside.
    assert 'id="name-trump"' in page and 'id="choices"' not in page
    assert "Seat 1 laid his hand down without naming trumps: name the suit seat 1 must" in page
    assert '<button name="action" value="name-trump hearts">Name' in page
    # His hand lies open for every seat (the referee's remedies.public).
    for card in deal.hand(1):
        assert str(card) in page
    # Trumps named by the declarer himself are refused (he laid down: another names them).
    refused = client.post(
        path + "/act", data={"seat": "1", "turn": turn_of(page), "action": "name-trump hearts"}
    )
    assert refused.status_code in (400, 409)
    page = act(client, path, page, "name-trump hearts")
    assert table_of(client, path).deal.view(1).trump is Suit.HEARTS
    assert 'trumps <b class="suitname hearts">hearts</b>' in page
    page = play_to_the_end(client, path, page)
    assert 'id="result"' in page


def test_a_party_played_to_its_target_ends_on_the_web(client: TestClient, tmp_path: Path) -> None:
    # A race to 1 point (a test variant of the race to 12): the first deal won ends it.
    from tests.referee_helpers import tresillo

    path_rules = tmp_path / "race.yaml"
    path_rules.write_text(
        "id: test-race-web\nname: Race\nextends: tresillo-rocambor\nsummary: A test race.\n"
        "party:\n  target: 1\n  basis: {evidence: conjecture, note: a test}\n",
        "utf-8",
    )
    rules = load_ruleset(path_rules)
    strong = "As Ac 2s Ks Qs Js 7s 6s 5s"
    deal = run(tresillo(rules, {1: strong}), ["1 bid sans-prendre spades", "2 pass", "3 pass"])
    path = seat_at(client, rules, deal, (1, 2, 3))
    page = play_to_the_end(client, path, client.get(path).text)
    table = table_of(client, path)
    assert table.party.over
    assert 'id="party-over"' in page and "The party is over" in page and "reached 1" in page
    assert 'id="next-deal"' not in page
    r = client.post(path + "/next", data={"turn": table.turn})  # forged: no button for it
    assert r.status_code == 400 and "the party is over" in r.text
    assert len(table_of(client, path).party.deals) == 1

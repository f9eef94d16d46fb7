"""A bid that names its trump suit (``trump_with_bid``): ``bid CONTRACT SUIT``.

The Rocambor solo (variants/tresillo-rocambor.yaml, ``sans-prendre``) switches it on, as the
online table's code does (roc-online-code, server/src/room.ts, applyBid)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from engine.actions import Action, parse_line
from engine.bots import HeuristicBot, RandomBot
from engine.cards import Suit
from engine.errors import IllegalActionError
from engine.referee import Deal
from engine.rules import load_ruleset
from engine.rules.loader import validate_paths

ROC = "tresillo-rocambor"


@pytest.fixture(scope="module")
def roc():  # type: ignore[no-untyped-def]
    return load_ruleset(ROC)


def test_notation_round_trip() -> None:
    for text in ("bid solo hearts", "bid sans-prendre spades", "bid solo ♥"):
        action = Action.parse(text)
        assert action.suit is not None
        assert Action.parse(action.notation()) == action
    assert Action.parse("bid solo ♥").notation() == "bid solo hearts"
    assert parse_line("2 bid solo hearts") == (2, Action("bid", contract="solo", suit=Suit.HEARTS))
    # A contract of several words keeps working, and a bare letter is never a suit.
    assert Action.parse("bid Sans appeler") == Action("bid", contract="sans-appeler")
    assert Action.parse("bid solo h") == Action("bid", contract="solo-h")
    assert Action.parse("bid hearts") == Action("bid", contract="hearts")


def _to_bid(roc, contract: str):  # type: ignore[no-untyped-def]
    """A Rocambor deal where the player to move may bid ``contract``."""
    for seed in range(200):
        deal = Deal(roc, dealer=0, seed=seed)
        if any(a.contract == contract for a in deal.legal_actions()):
            return deal
    raise AssertionError(contract)


def test_legal_actions_list_the_suited_solo_and_no_bare_one(roc) -> None:  # type: ignore[no-untyped-def]
    deal = _to_bid(roc, "sans-prendre")
    legal = [str(a) for a in deal.legal_actions()]
    # Every suit but oros (diamonds), which is the solo-favor's: the same exclusion as trump SUIT.
    assert [a for a in legal if "sans-prendre" in a] == [
        "bid sans-prendre spades",
        "bid sans-prendre clubs",
        "bid sans-prendre hearts",
    ]
    assert "bid entrada" in legal and not any(a.startswith("bid entrada ") for a in legal)


def test_refusals(roc) -> None:  # type: ignore[no-untyped-def]
    deal = _to_bid(roc, "sans-prendre")
    bare = deal.refusal("bid sans-prendre")
    assert bare is not None and bare.code == "bid/names-suit"
    assert "bid sans-prendre SUIT" in str(bare)
    oros = deal.refusal("bid sans-prendre diamonds")
    assert oros is not None and oros.code == "trump/option-excluded"
    entrada = deal.refusal("bid entrada hearts")
    assert entrada is not None and entrada.code == "bid/no-suit"
    with pytest.raises(IllegalActionError):
        deal.apply("bid sans-prendre")


def test_solo_bid_with_suit_locks_trump(roc) -> None:  # type: ignore[no-untyped-def]
    # The peer's test (room.test.ts, Room - auction):
    # "solo bid with suit locks trump and skips trump_choice when solo wins"
    # copas (hearts) bid with the solo, the others pass, the winner keeps his contract in the
    # raise, and trumps are hearts with no trump choice.
    deal = _to_bid(roc, "sans-prendre")
    bidder = deal.to_move
    deal.apply("bid sans-prendre hearts")
    while deal.phase == "auction":
        deal.apply("pass")
    assert deal.phase == "raise" and deal.to_move == bidder
    deal.apply("pass")
    assert deal.contract is not None and deal.contract.id == "sans-prendre"
    assert deal.trump == Suit.HEARTS.index
    assert deal.phase == "exchange"
    view = deal.view((bidder + 1) % 4 if deal.out != (bidder + 1) % 4 else (bidder + 2) % 4)
    assert (bidder, Action("bid", contract="sans-prendre", suit=Suit.HEARTS)) in view.auction
    assert view.trump is Suit.HEARTS
    assert f"{bidder} bid sans-prendre hearts" in view.as_json()["auction"]


def test_a_replayed_record_has_the_bid_suit_as_trumps(roc) -> None:  # type: ignore[no-untyped-def]
    deal = _to_bid(roc, "sans-prendre")
    seed = next(
        s
        for s in range(200)
        if any(a.contract == "sans-prendre" for a in Deal(roc, dealer=0, seed=s).legal_actions())
    )
    bot = HeuristicBot(0)
    deal.apply("bid sans-prendre hearts")
    while not deal.is_over:
        deal.apply(bot.choose(deal, deal.to_move))
    lines = [f"{s} {a}" for s, a in deal.history]
    assert not any(" trump " in line for line in lines)
    again = Deal(roc, dealer=0, seed=seed)
    for line in lines:
        again.apply(line)
    assert again.is_over and again.trump == Suit.HEARTS.index
    assert again.result == deal.result


def test_seeded_bot_deals_complete(roc) -> None:  # type: ignore[no-untyped-def]
    rng = random.Random(7)
    suited = 0
    for seed in range(300):
        deal = Deal(roc, dealer=seed % 4, seed=seed)
        bots = [HeuristicBot(seed), RandomBot(rng.randrange(1 << 30))]
        while not deal.is_over:
            bot = bots[deal.to_move % 2]
            action = bot.choose(deal, deal.to_move)
            deal.apply(action)
            if action.verb == "bid" and action.suit is not None:
                suited += 1
                assert action.contract == "sans-prendre"
        if deal.contract is not None and deal.contract.id == "sans-prendre":
            # Won by a bid that named the suit: nobody names trumps; reached by the raise
            # (which names no suit), its winner names them after.
            named = any(a.verb == "trump" for _, a in deal.history)
            assert named == (deal.raised_from is not None)
    assert suited > 0


def test_the_raise_to_the_solo_names_no_suit(roc) -> None:  # type: ignore[no-untyped-def]
    # "upgrades entrada to solo and enters trump_choice" (room.test.ts): the raise names the
    # contract, and its winner names trumps after.
    deal = _to_bid(roc, "entrada")
    deal.apply("bid entrada")
    while deal.phase == "auction":
        deal.apply("pass")
    assert deal.phase == "raise"
    assert "bid sans-prendre" in [str(a) for a in deal.legal_actions()]
    refused = deal.refusal("bid sans-prendre hearts")
    assert refused is not None and refused.code == "raise/no-suit"
    deal.apply("bid sans-prendre")
    assert deal.phase == "trump"
    assert [str(a) for a in deal.legal_actions()] == [
        "trump spades",
        "trump clubs",
        "trump hearts",
    ]


def test_spiel_action_ids_are_distinct(roc) -> None:  # type: ignore[no-untyped-def]
    from engine.spiel.codec import Codec

    codec = Codec(roc, {}, 0)
    bids = [Action("bid", contract=c) for c in roc.contracts]
    bids += [Action("bid", contract="sans-prendre", suit=s) for s in Suit]
    ids = [codec.encode(a) for a in bids]
    assert len(set(ids)) == len(ids)
    assert all(codec.decode(i) == a for i, a in zip(ids, bids, strict=True))
    assert max(ids) < codec.num_actions


@pytest.mark.parametrize(
    ("extra", "key", "why"),
    [
        ("      trumps: none\n", "trumps", "played without trumps"),
        ("      trump_from_talon: true\n", "trump_from_talon", "turned from the talon"),
        ("      trump_option: favourite-suit\n", "trump_option", "the suit of a setup option"),
        ("      trump_suit: spades\n", "trump_suit", "its own trump suit"),
        ("      biddable: false\n", "biddable", "it is not bid"),
    ],
)
def test_a_bid_that_names_a_suit_fixed_otherwise_is_refused(
    tmp_path: Path, extra: str, key: str, why: str
) -> None:
    options = (
        "options:\n  favourite-suit:\n    name: x\n    kind: suit\n"
        "    choices: [spades, clubs]\n    default: clubs\n    basis: {evidence: conjecture}\n"
    )
    path = tmp_path / "suited.yaml"
    path.write_text(
        f"id: suited\nname: Suited\nextends: ombre\nsummary: s\n{options}"
        "auction:\n  contracts:\n    suited:\n      name: Suited\n      rank: 50\n"
        "      help: none\n      trump_with_bid: true\n"
        + ("" if key == "biddable" else "      biddable: true\n")
        + f"{extra}      basis: {{evidence: conjecture}}\n",
        encoding="utf-8",
    )
    problems, _ = validate_paths([str(path)])
    found = [p for p in problems if p.code == "semantic/bid-suit-conflict"]
    assert found and why in found[0].message, problems
    assert found[0].file.endswith("suited.yaml") and found[0].line is not None
    assert found[0].path.endswith(key)


def test_a_bid_that_names_a_suit_validates_with_an_excluded_option(tmp_path: Path) -> None:
    options = (
        "options:\n  favourite-suit:\n    name: x\n    kind: suit\n"
        "    choices: [spades, clubs]\n    default: clubs\n    basis: {evidence: conjecture}\n"
    )
    path = tmp_path / "suited.yaml"
    path.write_text(
        f"id: suited\nname: Suited\nextends: ombre\nsummary: s\n{options}"
        "auction:\n  contracts:\n    suited:\n      name: Suited\n      rank: 50\n"
        "      biddable: true\n      help: none\n      trump_with_bid: true\n"
        "      trump_not_option: favourite-suit\n      basis: {evidence: conjecture}\n",
        encoding="utf-8",
    )
    problems, _ = validate_paths([str(path)])
    assert problems == [], problems

"""Every action that is not legal is refused with a coded IllegalActionError, and refusing it
leaves the deal exactly as it was; malformed input never escapes as another exception."""

from __future__ import annotations

import random

import pytest

from engine import IllegalActionError, NotationError, load_ruleset
from engine.actions import CALL, GIVE, PASS, PLAY, STOP, TRUMP, VOLE, Action
from engine.cards import ALL_CARDS
from engine.errors import RecordError
from engine.records import parse_record
from engine.referee import Deal

# slow: every illegal candidate tried at every position of 60 deals of six rule files.
pytestmark = pytest.mark.slow

RULESETS = [
    "quadrille",
    "ombre",
    "quadrille-a-trois",
    "mediateur",
    "mediateur-couleur-favorite",
    "german-solo",
]


def _candidates(deal: Deal, rng: random.Random) -> list[Action]:
    cards = rng.sample(ALL_CARDS, 6)
    out: list[Action] = [PASS, VOLE, STOP, *(TRUMP[s] for s in range(4))]
    out += (
        [PLAY[c.index] for c in cards]
        + [CALL[c.index] for c in cards]
        + [GIVE[c.index] for c in cards]
    )
    out += [Action("bid", contract=c) for c in [*deal.rules.contracts, "nonsense"]]
    out.append(Action("discard", cards=tuple(cards[:3])))
    return out


def _snapshot(deal: Deal) -> tuple[object, ...]:
    """Everything a refused action could disturb: the public state and the full report."""
    return (
        deal.phase,
        deal.to_move,
        tuple(deal.hands),
        tuple(deal.history),
        tuple(deal.trick),
        deal.result,
        deal.trump,
        deal.contract.id if deal.contract is not None else None,
        deal.declarer,
        deal.called,
        deal.partner,
        tuple(deal.auction),
        deal.holder,
        deal.demanded_from,
        deal.given,
        tuple(deal.talon),
        tuple(deal.exchanges),
        tuple(deal.won),
        deal.is_over,
        repr(deal.report()),
        tuple(deal.legal_actions()),
    )


@pytest.mark.parametrize("ruleset", RULESETS)
def test_illegal_actions_are_refused_and_change_nothing(ruleset: str) -> None:
    rules = load_ruleset(ruleset)
    rng = random.Random(ruleset)
    refused_codes: set[str] = set()
    for seed in range(60):
        deal = Deal(rules, seed=seed, dealer=seed % rules.players)
        while not deal.is_over:
            legal = list(deal.legal_actions())
            legal_set = set(legal) if deal.phase != "exchange" else None
            # The position before any refusal: each refusal must leave exactly this.
            before = _snapshot(deal)
            for action in _candidates(deal, rng):
                if legal_set is not None and action in legal_set:
                    continue
                if legal_set is None and action in deal.legal_actions():
                    continue
                with pytest.raises(IllegalActionError) as refused:
                    deal.apply(action)
                assert refused.value.code and "/" in refused.value.code
                refused_codes.add(refused.value.code)
                assert _snapshot(deal) == before
            # A claim by the wrong seat is refused too.
            wrong = (deal.to_move + 1) % rules.players
            with pytest.raises(IllegalActionError) as turn:
                deal.apply(legal[0], seat=wrong)
            assert turn.value.code.endswith("/not-your-turn")
            deal.apply(legal[int(rng.random() * len(legal))])
        with pytest.raises(IllegalActionError) as over:
            deal.apply(PASS)
        assert over.value.code == "deal/over"
    assert {"play/must-follow-suit", "bid/outranked", "play/not-in-hand"} <= refused_codes


def test_garbled_records_never_escape_as_other_errors() -> None:
    """Random damage to a valid record gives a RecordError or a report, never a traceback."""
    from pathlib import Path

    from engine.records import replay

    text = (Path(__file__).parent / "records" / "ombre-entrada-win.yaml").read_text(
        encoding="utf-8"
    )
    rules = load_ruleset("ombre")
    rng = random.Random(7)
    alphabet = "\n :-[]{},#&*!|>'\"0123456789abcdefghijklmnopqrstuvwxyzAKQJ"
    for _ in range(300):
        chars = list(text)
        for _ in range(rng.randint(1, 6)):
            i = rng.randrange(len(chars))
            chars[i] = rng.choice(alphabet)
        try:
            record = parse_record("".join(chars))
            replay(record, rules)
        except (RecordError, NotationError):
            pass

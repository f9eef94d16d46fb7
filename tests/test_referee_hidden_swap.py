"""No answer of the referee depends on what the asker may not see.

At random points of random deals of every ruleset and variant, two cards the asker cannot see
(in the other seats' hands or the talon) change places: the deal is dealt again with the two
exchanged, and its history written again with them exchanged. Where the asker's view is the
same, every refusal of every candidate action he may ask about, every remedy offered him, the
choices named to him, the terminal's drawing of his seat and the web table's page for him must
be the same too.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from engine.actions import FAULTS, Action
from engine.bots.heuristic import HeuristicBot
from engine.cards import ALL_CARDS, Card, Suit
from engine.errors import IllegalActionError, NotationError
from engine.referee import Deal
from engine.rules import all_rulesets
from engine.rules.model import RuleSet
from engine.table import TableGame, _macros

try:  # the web extra
    from engine.render import render
    from engine.web.app import _table_context
    from engine.web.tables import WebTable
except ImportError:  # pragma: no cover - the web extra is not installed
    _table_context = None  # type: ignore[assignment]

RULESETS = all_rulesets()
_LAW_TRIES = ("expose", "out-of-turn", "show")


def _candidates(d: Deal, seat: int, rng: random.Random) -> Iterator[str]:
    """Every action the asker might ask "why not?" about: each verb with each card of the
    pack, each suit, each contract, each seat, each fault, and discards mixing his cards with
    another."""
    deck = [ALL_CARDS[i] for i in d.rules.tables(d.options).deck]
    for card in deck:
        for verb in ("play", "call", "give", "renonce", "expose", "out-of-turn", "require"):
            yield f"{verb} {card}"
    for suit in Suit:
        yield f"trump {suit.value}"
        yield f"name-trump {suit.value}"
        for target in range(d.rules.players):
            yield f"require-suit {target} {suit.value}"
    for contract in d.rules.contracts.values():
        yield f"bid {contract.id}"
    for target in range(d.rules.players):
        yield f"turn-hand {target}"
    for fault in FAULTS:
        yield f"misdeal {fault}"
    yield from ("pass", "vole", "stop", "notice", "defer", "show", "lay-down")
    yield from ("extra-card", "retake")
    hand = [str(c) for c in d.hand(seat)]
    for _ in range(4):
        k = rng.randint(1, max(1, len(hand)))
        picked = rng.sample(hand, min(k, len(hand)))
        other = str(rng.choice(deck))
        yield "discard " + " ".join(picked) if picked else f"discard {other}"
        yield "discard " + " ".join([*picked[: max(0, k - 1)], other])


def _answers(d: Deal, seat: int, rng: random.Random) -> dict[str, object]:
    out: dict[str, object] = {"view": d.view(seat)}
    for text in _candidates(d, seat, rng):
        try:
            error = d.refusal(text, seat=seat)
        except NotationError as exc:
            out[text] = str(exc)
            continue
        out[text] = None if error is None else (error.code, str(error))
    out["declarable"] = [str(a) for a in d.declarable(seat)]
    out["askable"] = [str(a) for a in d.askable()]
    out["public"] = [[str(c) for c in d.public_cards(s)] for s in range(d.rules.players)]
    if not d.is_over and d.to_move == seat:
        # The heuristic bot's advice (the terminal's hint) and the terminal's drawing of the
        # seat's turn.
        out["advice"] = HeuristicBot(0).advise(d, seat)
        table = TableGame(d.rules, human=seat, options=dict(d.options))
        out["screen"] = str(_macros("table/turn.txt.j2").screen(table._turn_view(d, seat), d.rules))
    if _table_context is not None:
        # The web table's page for the seat (a table at which he is the one person).
        web = WebTable("swap", d.rules, dict(d.options), (seat,), seed=1, created=0.0)
        web.party.deals.append(d)
        out["page"] = render("web/table.j2", "html", **_table_context(web, None))
    return out


def _hidden_from(d: Deal, seat: int) -> list[int]:
    """The cards ``seat`` cannot see: the others' hands (but what is public) and the talon."""
    cards = list(d.talon[d.talon_pos :])
    for s in range(d.rules.players):
        if s == seat:
            continue
        public = {c.index for c in d.public_cards(s)}
        cards += [c.index for c in d.hand(s) if c.index not in public]
    return cards


def _swapped(d: Deal, a: int, b: int) -> Deal | None:
    """The same deal dealt with cards ``a`` and ``b`` exchanged, played again with the same
    actions so exchanged; None where the referee refuses the history so made."""

    def card(c: int) -> Card:
        return ALL_CARDS[b if c == a else a if c == b else c]

    def action(x: Action) -> Action:
        if not x.cards:
            return x
        return Action(
            x.verb,
            contract=x.contract,
            suit=x.suit,
            cards=tuple(card(c.index) for c in x.cards),
            seat=x.seat,
            word=x.word,
        )

    hands = [[card(c) for c in hand] for hand in d.dealt]
    talon = [card(c) for c in d.dealt_talon]
    try:
        e = Deal(d.rules, dealer=d.dealer, hands=hands, talon=talon, options=dict(d.options))
        for s, x in d.history:
            e.apply(action(x), seat=s)
    except (IllegalActionError, NotationError):
        return None
    return e


def _random_step(d: Deal, rng: random.Random) -> None:
    """Plays a random legal action, or now and then commits an irregularity of the laws."""
    if rng.random() < 0.08:
        seat = rng.randrange(d.rules.players)
        hand = d.hand(seat)
        verb = rng.choice(_LAW_TRIES)
        text = verb if verb == "show" else f"{verb} {rng.choice(hand)}" if hand else ""
        if text and d.refusal(text, seat=seat) is None:
            d.apply(text, seat=seat)
            return
    for seat in range(d.rules.players):
        offered = d.declarable(seat)
        remedies = [a for a in offered if a.verb in ("require", "require-suit", "name-trump")]
        if remedies and rng.random() < 0.5:
            d.apply(rng.choice(remedies), seat=seat)
            return
    d.apply(rng.choice(d.legal_actions()))


def _check(rules: RuleSet, seed: int) -> int:
    rng = random.Random(seed)
    d = Deal(rules, dealer=rng.randrange(rules.players), seed=seed)
    checked = 0
    steps = 0
    while not d.is_over and steps < 400:
        steps += 1
        if rng.random() < 0.12:
            seat = rng.randrange(rules.players)
            hidden = _hidden_from(d, seat)
            if len(hidden) >= 2:
                a, b = rng.sample(hidden, 2)
                e = _swapped(d, a, b)
                if e is not None and e.view(seat) == d.view(seat):
                    state = rng.getstate()
                    mine = _answers(d, seat, rng)
                    rng.setstate(state)
                    theirs = _answers(e, seat, rng)
                    for key, value in mine.items():
                        assert theirs[key] == value, (
                            f"{rules.id} seed {seed}: seat {seat} told apart "
                            f"{ALL_CARDS[a]} <-> {ALL_CARDS[b]} by {key!r}: "
                            f"{value!r} / {theirs[key]!r}"
                        )
                    checked += 1
        _random_step(d, rng)
    return checked


@pytest.mark.parametrize("rules", RULESETS, ids=lambda r: r.id)
def test_no_refusal_or_remedy_tells_where_an_unseen_card_lies(rules: RuleSet) -> None:
    checked = sum(_check(rules, seed) for seed in range(3))
    assert checked > 0, f"{rules.id}: no point of the deals was checked"


def test_require_of_an_unseen_card_is_answered_alike_in_the_talon_or_a_hand() -> None:
    """The hostile reproducer: in Ombre a defender asked "why not require X?" of each unseen
    card and read from the answers where it lay (talon, partner, declarer)."""
    rules = next(r for r in RULESETS if r.id == "ombre")
    d = Deal(rules, dealer=0, seed=7)
    while d.phase != "play" and not d.is_over:
        d.apply(d.legal_actions()[0])
    seat = d.to_move
    answers = set()
    for card in _hidden_from(d, seat):
        error = d.refusal(f"require {ALL_CARDS[card]}", seat=seat)
        assert error is not None
        answers.add((error.code, str(error).replace(str(ALL_CARDS[card]), "X")))
    assert len(answers) == 1, answers

"""Building specific deals from notation for the referee's scenario tests."""

from __future__ import annotations

from collections.abc import Sequence

from engine import load_ruleset
from engine.cards import ALL_CARDS, Card
from engine.errors import NotationError
from engine.referee import Deal, compiled
from engine.rules.loader import default_registry
from engine.rules.model import RuleSet, build_ruleset

# What misuse with a value of the wrong type raises: NotationError, as documented; compiled
# (``make fast``), mypyc checks the annotated types where Python calls in, and raises TypeError
# first (tests/test_compiled.py).
MISTYPED: type[Exception] | tuple[type[Exception], ...] = (
    (NotationError, TypeError) if compiled() else NotationError
)


def fresh_ruleset(name: str) -> RuleSet:
    """Returns a ruleset built anew (not the process's cached one): for the tests that watch
    what keeps a ruleset alive."""
    registry = default_registry()
    entry = registry.find(name)
    assert entry is not None
    return build_ruleset(registry.resolve(entry))


def deal_with(
    ruleset: str,
    fixed: dict[int, str],
    *,
    dealer: int = 0,
    options: dict[str, str] | None = None,
    talon: str | None = None,
) -> Deal:
    """Returns a deal in which the seats named hold (at least) the cards given.

    ``fixed`` maps a seat to its cards (``"As 7h Ac ..."``); a seat given fewer cards than the
    hand size, and every seat not named, is filled with the remaining cards of the pack, lowest
    index first, in seat order. The talon takes what is left (or is given).
    """
    rules = load_ruleset(ruleset)
    deck = [ALL_CARDS[i] for i in rules.tables(options).deck]
    hands: list[list[Card]] = [[] for _ in range(rules.players)]
    used: set[Card] = set()
    for seat, text in fixed.items():
        cards = [Card.parse(t) for t in text.split()]
        hands[seat] = cards
        used.update(cards)
    talon_cards = [Card.parse(t) for t in talon.split()] if talon else []
    used.update(talon_cards)
    rest = [c for c in deck if c not in used]
    for seat in range(rules.players):
        while len(hands[seat]) < rules.hand_size:
            hands[seat].append(rest.pop(0))
    if not talon:
        talon_cards = rest
    return Deal(rules, dealer=dealer, hands=hands, talon=talon_cards, options=options)


def run(deal: Deal, actions: Sequence[str]) -> Deal:
    """Applies record lines ``"SEAT VERB ..."`` with the checked front door."""
    from engine.actions import parse_line

    for line in actions:
        seat, action = parse_line(line)
        deal.apply(action, seat=seat)
    return deal


def into_play(deal: Deal, declarer_bid: str, trump: str, *, call: str | None = None) -> Deal:
    """Has the eldest bid ``declarer_bid``, everyone else pass, name ``trump`` (and call)."""
    n = deal.n
    eldest = deal.eldest
    lines = [f"{eldest} bid {declarer_bid}"]
    lines += [f"{(eldest + k) % n} pass" for k in range(1, n)]
    lines.append(f"{eldest} trump {trump}")
    if call:
        lines.append(f"{eldest} call {call}")
    return run(deal, lines)


def six_tricks_to_the_side(partner_discard: str = "Kc") -> Deal:
    """A Quadrille deal where seat 1 (hearts, calling Kc from seat 3) has won the first six tricks.

    The partner (seat 3) plays ``partner_discard`` to the first trick: ``Kc`` shows the called
    king (so the vole may be undertaken), ``Js`` keeps it hidden. Seat 0 plays its first legal
    card each time.
    """
    deal = deal_with(
        "quadrille",
        {
            1: "As 7h Ac Ah Kh Qh Jh 2h 3h Ks",
            3: "Kc Qc Jc 7c 6c 5c Qs Js 7s 6s",
            2: "4h 5h 6h Kd Qd Jd Ad 2d 3d 4d",
        },
    )
    into_play(deal, "ask", "hearts", call="Kc")
    leads = ["As", "7h", "Ac", "Ah", "Kh", "Qh"]
    second = ["4h", "5h", "6h", "Kd", "Qd", "Jd"]
    third = [partner_discard, "Qc", "Jc", "7c", "6c", "5c"]
    for k, lead in enumerate(leads):
        run(deal, [f"1 play {lead}", f"2 play {second[k]}", f"3 play {third[k]}"])
        deal.apply(deal.legal_actions()[0], seat=0)
    return deal


def first_holding(
    rules: RuleSet,
    *,
    contract: str | None,
    side_tricks: int,
    opponents: Sequence[int],
    played: int,
    vole: bool,
) -> int:
    """Returns the index of the first rule of ``results`` whose condition holds for a deal
    that ended so, read off the table afresh (no memo of the referee's)."""
    return next(
        i
        for i, rule in enumerate(rules.results)
        if rule.when.holds(
            contract=contract,
            side_tricks=side_tricks,
            opponents=list(opponents),
            played=played,
            hand_size=rules.hand_size,
            vole_undertaken=vole,
        )
    )


def all_tricks_result(rules: RuleSet, contract: str, *, vole: bool) -> str:
    """Returns the result the rule file's table gives a declarer alone who took every trick
    of a three-seat deal (opponents none), the vole undertaken or not."""
    tricks = rules.hand_size
    index = first_holding(
        rules, contract=contract, side_tricks=tricks, opponents=[0, 0], played=tricks, vole=vole
    )
    return rules.results[index].result


def tresillo(rules: object, fixed: dict[int, str], talon: str = "", **options: str) -> Deal:
    """A deal of ``rules`` (Tresillo's seating: the dealer, seat 0, sits out) in which the seats
    named hold the cards given; the others are filled from the rest, the talon starts with
    ``talon`` and takes what is left; ``options`` are the setup's (the pack follows them)."""
    deck = [ALL_CARDS[i] for i in rules.tables(options or None).deck]  # type: ignore[attr-defined]
    hands: list[list[Card]] = [[] for _ in range(4)]
    used: set[Card] = set()
    for seat, text in fixed.items():
        hands[seat] = [Card.parse(t) for t in text.split()]
        used.update(hands[seat])
    top = [Card.parse(t) for t in talon.split()]
    used.update(top)
    rest = [c for c in deck if c not in used]
    for seat in (1, 2, 3):
        while len(hands[seat]) < 9:
            hands[seat].append(rest.pop(0))
    return Deal(
        rules,  # type: ignore[arg-type]
        dealer=0,
        hands=hands,
        talon=top + rest,
        options=options or None,
    )

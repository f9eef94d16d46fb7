"""Property-based tests (hypothesis): notation and records round-trip, and a rule file that
validates plays."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.actions import Action, parse_line
from engine.cards import ALL_CARDS, Card, Suit, parse_cards
from engine.records import DealRecord, Record, parse_record, write_record
from tests import fuzz

cards = st.sampled_from(ALL_CARDS)
suits = st.sampled_from(list(Suit))
contract_ids = st.from_regex(r"[a-z][a-z0-9-]{0,15}", fullmatch=True).filter(
    lambda s: s not in ("jouer", "sans-appeller", "solo")
)
actions = st.one_of(
    st.sampled_from([Action("pass"), Action("vole"), Action("stop")]),
    contract_ids.map(lambda c: Action("bid", contract=c)),
    suits.map(lambda s: Action("trump", suit=s)),
    st.tuples(st.sampled_from(["play", "call", "give"]), cards).map(
        lambda t: Action(t[0], cards=(t[1],))
    ),
    st.lists(cards, min_size=1, max_size=8, unique=True).map(
        lambda cs: Action("discard", cards=tuple(cs))
    ),
)
seats = st.integers(min_value=0, max_value=999)


@given(cards)
def test_a_card_reads_back_from_its_notations(card: Card) -> None:
    assert Card.parse(str(card)) is card
    assert Card.parse(card.unicode()) is card
    assert Card.parse(str(card).lower()) is card


@given(st.lists(cards, max_size=12))
def test_a_list_of_cards_reads_back(items: list[Card]) -> None:
    assert parse_cards(" ".join(str(c) for c in items)) == items
    assert parse_cards(", ".join(str(c) for c in items)) == items


@given(actions, seats)
def test_an_action_and_a_record_line_read_back(action: Action, seat: int) -> None:
    assert Action.parse(str(action)) == action
    assert parse_line(f"{seat} {action}") == (seat, action)
    assert parse_line(f"  {seat}   {action}  ") == (seat, action)


texts = st.text(max_size=40)
hands = st.lists(st.lists(cards.map(str), max_size=10).map(tuple), min_size=1, max_size=5).map(
    tuple
)
lines = st.tuples(seats, actions).map(lambda t: f"{t[0]} {t[1]}")


@st.composite
def deal_records(draw: st.DrawFn, *, in_party: bool) -> DealRecord:
    dealer = draw(st.one_of(st.none(), st.integers(min_value=-5, max_value=9)))
    if draw(st.booleans()):
        dealt = {"hands": draw(hands), "talon": draw(st.lists(cards.map(str), max_size=13))}
        dealt["talon"] = tuple(dealt["talon"])
    else:
        dealt = {"seed": draw(st.integers(min_value=-(2**70), max_value=2**70))}
    note = draw(st.one_of(st.none(), texts)) if in_party else None
    return DealRecord(
        dealer=dealer, actions=tuple(draw(st.lists(lines, max_size=8))), note=note, **dealt
    )


@st.composite
def records(draw: st.DrawFn) -> Record:
    party = draw(st.booleans())
    deals = draw(st.lists(deal_records(in_party=party), min_size=1, max_size=3 if party else 1))
    return Record(
        ruleset=draw(st.text(min_size=1, max_size=30).filter(str.isprintable)),
        deals=tuple(deals),
        options=draw(st.dictionaries(contract_ids, texts, max_size=3)),
        party=party,
        title=draw(st.one_of(st.none(), texts)),
        source=draw(st.one_of(st.none(), texts)),
        note=draw(st.one_of(st.none(), texts)),
    )


@given(records())
def test_a_record_survives_write_and_read(record: Record) -> None:
    text = write_record(record)
    assert parse_record(text) == record
    # And through the bytes of a file, as `ombre play --record` writes and `replay` reads.
    from engine.rules.reader import parse_bytes

    doc, problems = parse_bytes("r.yaml", text.encode("utf-8"))
    assert doc is not None and not problems


@settings(max_examples=30)
@given(st.integers(min_value=0, max_value=10**6))
def test_a_rule_file_that_validates_plays(index: int) -> None:
    """Any mutated rule file is refused with located problems, or plays to the end."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        verdict, trace = fuzz.run_case(fuzz.rule_case(7, index), Path(tmp))
    assert trace is None, trace
    assert verdict in ("plays", "refused")

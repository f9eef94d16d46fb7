"""A record's limits grow with its deals: a long party reads back, a short one padded is refused.

The bounds are :data:`engine.records.GROWTH` (docs/records.md, "yaml/too-many" and
"io/too-large"): 4 MiB and 500,000 values, and 1.5 KiB and 150 values more for each deal.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from engine.errors import RecordError
from engine.records import GROWTH, LIMITS, MAX_DEALS, deal_text, read_record, write_record
from engine.rules.reader import MAX_BYTES, Growth, Limits, parse_text

RECORDS = Path(__file__).parent / "records"
GOLDEN = RECORDS / "quadrille-ask-codille.yaml"

SMALL = Limits(
    items={("deals",): (100, "at most 100 deals")},
    others=64,
    nodes=20,
    grows=Growth(("deals",), bytes_each=10, nodes_each=10, noun="deal"),
)
"""20 values, and 10 more for each deal."""


def deals_of(n: int, values: int) -> str:
    """Returns a YAML document of ``n`` deals of ``values`` numbers each."""
    row = "[" + ", ".join(str(k) for k in range(values)) + "]"
    return "deals:\n" + "".join(f"- {row}\n" for _ in range(n))


def test_the_values_allowed_grow_with_the_deals() -> None:
    # Three deals of 8 values: 30 values with the lists, within 20 + 3 × 10.
    doc, problems = parse_text("three.yaml", deals_of(3, 8), SMALL)
    assert doc is not None and problems == []
    # One deal of 40 values: more than 20 + 1 × 10, refused at the value too many.
    doc, problems = parse_text("one.yaml", deals_of(1, 40), SMALL)
    assert doc is None and [p.code for p in problems] == ["yaml/too-many"]
    assert "a file of 1 deal holds at most 30 values" in problems[0].message
    assert problems[0].line == 2


def test_without_growth_the_values_are_fixed() -> None:
    fixed = replace(SMALL, grows=None)
    doc, problems = parse_text("three.yaml", deals_of(3, 8), fixed)
    assert doc is None and "a file of this kind holds at most 20 values" in problems[0].message
    assert fixed.max_bytes() == MAX_BYTES


def test_the_most_bytes_are_bounded_by_the_most_deals() -> None:
    assert GROWTH.count(1) == "1 deal" and GROWTH.count(3) == "3 deals"
    assert LIMITS.max_bytes() == MAX_BYTES + GROWTH.bytes_each * MAX_DEALS


def test_a_one_deal_party_padded_past_its_deal_is_refused(tmp_path: Path) -> None:
    one = read_record(GOLDEN)
    text = write_record(replace(one, party=True))
    padded = tmp_path / "padded.yaml"
    padded.write_text(text + "#" * (MAX_BYTES + 2 * GROWTH.bytes_each) + "\n", encoding="utf-8")
    with pytest.raises(RecordError) as caught:
        read_record(padded)
    (problem,) = caught.value.problems
    assert problem.code == "io/too-large"
    assert f"at most {MAX_BYTES + GROWTH.bytes_each}" in problem.message


def test_a_record_larger_than_the_largest_ever_allowed_is_refused_unread(tmp_path: Path) -> None:
    huge = tmp_path / "huge.yaml"
    with huge.open("wb") as handle:
        handle.truncate(LIMITS.max_bytes() + 1)  # sparse: nothing is written
    with pytest.raises(RecordError) as caught:
        read_record(huge)
    assert [p.code for p in caught.value.problems] == ["io/too-large"]


@pytest.mark.slow
def test_a_party_of_more_than_4_mib_reads_back(tmp_path: Path) -> None:
    """A long table's record (several thousand deals) is read whole, deal for deal."""
    one = read_record(GOLDEN)
    deal = one.deals[0]
    n = MAX_BYTES // len(deal_text(deal)) * 11 // 10
    party = replace(one, deals=(deal,) * n, party=True)
    path = tmp_path / "long.yaml"
    path.write_text(write_record(party), encoding="utf-8")
    assert path.stat().st_size > MAX_BYTES
    back = read_record(path)
    assert len(back.deals) == n and back.deals[-1] == deal

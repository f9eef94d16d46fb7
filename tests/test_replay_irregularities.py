"""The text and Markdown replays show every irregularity and its remedy where it happened: the
referee's events (``--json``'s ``irregularities``), the renonces and their notice, the cards
taken back, a misdeal and a card too many, each under the trick it happened in; where the
cards were taken back, the play is told as it happened, the tricks played again marked so."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.documents.deal_page import replay_story
from engine.documents.site import write_deal_page
from engine.records import read_record, resolve_ruleset
from engine.render import render

RECORDS = Path(__file__).parent / "records"

# record -> (deal, the text line expected under its trick, the trick it is listed under)
CASES = {
    "quadrille-law-exposed-card": [
        (0, "[7] seat 2: expose Kh -- a card exposed", 1),
        (0, "[8] seat 1: require Kh -- the remedy for a card exposed", 1),
        (0, "[20] seat 3: play 2c -- the partner made known: no vole for the side", 4),
    ],
    "quadrille-renonce-before-end": [
        (0, "[16] seat 0: renonce 7c -- a renonce (revoke)", 3),
        # noticed after trick 4: the cards are taken back there, and tricks 3 and 4 played again
        (
            0,
            "[22] seat 1: notice -- the renonce noticed: seat 0 makes a bête; the cards are "
            "taken back and play resumes from trick 3",
            4,
        ),
    ],
    "quadrille-renonce-after-end": [
        (0, "[16] seat 0: renonce 7c -- a renonce (revoke)", 3),
        (0, "seat 0 makes a bête, the cards stay", 10),
    ],
    "quadrille-renonce-retake": [
        (0, "[27] seat 2: renonce Kh -- a renonce (revoke)", 6),
        # after the last trick of the first play: play resumes from trick 3
        (0, "retake -- several renonces found: the bêtes stand; the cards are taken back", 10),
    ],
    "quadrille-eleven-cards": [(0, "extra-card -- a card too many", 4)],
}


def _story(name: str):  # type: ignore[no-untyped-def]
    path = RECORDS / f"{name}.yaml"
    record = read_record(path)
    rules, _ = resolve_ruleset(record, path, None)
    return replay_story(record, rules, str(path))


def _under_trick(text: str, line: str) -> int:
    """Returns the trick (from 1) under which ``line`` is printed (the cards taken back: the
    trick after which they were); 11 after the last one."""
    trick = 0
    for row in text.splitlines():
        m = re.match(r"\s+trick\s+(\d+):", row)
        if m:
            trick = int(m.group(1))
        elif row.lstrip().startswith("Deal "):
            trick = 0
        if line in row:
            assert "cards taken back" in row or "resumes" not in row, row
            return trick + 1 if "after the last trick" in row else trick
    raise AssertionError(f"{line!r} not in the replay:\n{text}")


@pytest.mark.parametrize("name", sorted(CASES))
def test_text_replay_shows_each_irregularity_in_its_trick(name: str) -> None:
    story = _story(name)
    text = render("replay.txt.j2", "text", story=story)
    for _deal, line, trick in CASES[name]:
        assert _under_trick(text, line) == trick, line


@pytest.mark.parametrize("name", sorted(CASES))
def test_every_referee_event_is_in_the_text_replay(name: str) -> None:
    # Each event the --json lists (the referee's typed answer) is a line of the replay.
    story = _story(name)
    text = render("replay.txt.j2", "text", story=story)
    for d, entry in zip(story.deals, story.report.deals, strict=True):
        for event in entry.get("irregularities", []):
            assert f"seat {event['seat']}: {event['action']} -- " in text, event
        assert len(d.irregular) >= len(entry.get("irregularities", []))


def test_irregularities_before_the_play_are_told_in_the_auction() -> None:
    text = render("replay.txt.j2", "text", story=_story("quadrille-law-out-of-turn"))
    assert "[6] seat 2: out-of-turn Kh -- a card played out of turn" in text
    assert "[7] seat 1: require-suit 0 hearts -- the remedy for a card played out of turn" in text
    misdeal = render("replay.txt.j2", "text", story=_story("quadrille-misdeal-faced"))
    assert "[2] seat 2: misdeal faced -- a misdeal" in misdeal


@pytest.mark.parametrize(
    "name",
    [
        "quadrille-law-exposed-card",
        "quadrille-law-shown-cards",
        "quadrille-law-turned-hand",
        "quadrille-law-lay-down-unnamed",
        "quadrille-renonce-before-end",
        "quadrille-misdeal-faced",
    ],
)
def test_markdown_replay_lists_the_irregularities(name: str, tmp_path: Path) -> None:
    story = _story(name)
    target = tmp_path / "deal.md"
    write_deal_page(story, target, "md")
    page = target.read_text(encoding="utf-8")
    assert "### Irregularities, where they happened" in page
    for d in story.deals:
        for x in d.irregular:
            assert f"| {x.text} |" in page, x
    for entry in story.report.deals:
        for event in entry.get("irregularities", []):
            assert f"| {event['action']} |" in page, event


def test_a_deal_without_irregularities_says_nothing_of_them(tmp_path: Path) -> None:
    story = _story("ombre-entrada-win")
    assert all(not d.irregular for d in story.deals)
    text = render("replay.txt.j2", "text", story=story)
    assert "irregularity" not in text and " -- " not in text
    target = tmp_path / "deal.md"
    write_deal_page(story, target, "md")
    assert "Irregularities" not in target.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("name", "first_play", "again"),
    [
        # seat 0's renonce 7c stays in trick 3 as first played; tricks 3 and 4 are played again
        ("quadrille-renonce-before-end", "trick  3: As 7h 7c 7s", 2),
        # both renonces (7c in trick 3, Kh in trick 6) as played; tricks 3 to 10 again
        ("quadrille-renonce-retake", "trick  6: 5c Kh Ad 5h", 8),
    ],
)
def test_tricks_taken_back_are_told_as_played_then_again(
    name: str, first_play: str, again: int
) -> None:
    story = _story(name)
    (deal,) = story.deals
    text = render("replay.txt.j2", "text", story=story)
    lines = text.splitlines()
    first = next(i for i, row in enumerate(lines) if first_play in row)
    taken = next(i for i, row in enumerate(lines) if "cards taken back:" in row)
    assert first < taken and "played again" not in lines[first]
    assert sum("played again" in row for row in lines) == again
    assert deal.taken_back
    # The last play of each trick is the report's tricks, in order (the --json's answer).
    last: dict[int, list[str]] = {}
    for row in deal.play:
        if row.trick is not None:
            last[row.number] = [str(c) for c in row.trick.cards]
    assert [last[k] for k in sorted(last)] == [t["cards"] for t in deal.report["tricks"]]
    # An irregularity of the first play is said to be before the cards were taken back.
    assert all(deal.superseded(x) for x in deal.irregular if x.verb == "renonce")


def test_markdown_replay_tells_the_cards_taken_back(tmp_path: Path) -> None:
    story = _story("quadrille-renonce-retake")
    target = tmp_path / "deal.md"
    write_deal_page(story, target, "md")
    page = target.read_text(encoding="utf-8")
    assert "the cards taken back (retake): play resumes from trick 3" in page
    assert page.count("(played again)") == 8
    assert "| 6 (before the cards were taken back) | 2 | renonce Kh |" in page


def test_a_deal_played_straight_has_one_row_a_trick() -> None:
    story = _story("quadrille-law-exposed-card")
    (deal,) = story.deals
    assert not deal.taken_back
    assert [row.number for row in deal.play] == list(range(1, len(deal.report["tricks"]) + 1))
    assert not any(row.again for row in deal.play)

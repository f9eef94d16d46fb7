"""What validation promises (issue 20): a file ``ombre validate`` accepts can be dealt, played
to the end and settled. Two holes the fuzzing did not find: a results table that leaves trick
counts without a result, and the duties to trump and to overtake ignored without following."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from engine.cards import Card
from engine.cli import app
from engine.referee import evaluate_result
from engine.referee.tricks import TrickRules
from engine.rules.loader import Registry
from engine.rules.model import build_ruleset

ROOT = Path(__file__).resolve().parent.parent
QUADRILLE = ROOT / "rules" / "quadrille.yaml"
OMBRE = ROOT / "rules" / "ombre.yaml"
runner = CliRunner()


def _validate(path: Path) -> tuple[int, list[dict[str, object]]]:
    result = runner.invoke(app, ["validate", str(path), "--json"])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, json.loads(result.stdout)["errors"]


def _results_variant(tmp_path: Path, rules: str, parent: Path = QUADRILLE) -> Path:
    path = tmp_path / "gap.yaml"
    path.write_text(
        f"id: results-gap\nname: Results gap\nextends: {parent}\nsummary: A gap.\n"
        f"results:\n  rules:\n{rules}",
        encoding="utf-8",
    )
    return path


BASIS = "    basis: {evidence: conjecture}\n"


def test_a_results_table_with_a_gap_is_refused_at_the_table(tmp_path: Path) -> None:
    # The reproducer: win at 6 or more, codille at 2 or fewer; 3, 4 and 5 have no result
    # (it validated, and a 5-trick deal was then settled as a codille by the fallback).
    path = _results_variant(
        tmp_path,
        "  - result: win\n    when: {side_tricks: {at_least: 6}}\n"
        + BASIS
        + "  - result: codille\n    when: {side_tricks: {at_most: 2}}\n"
        + BASIS,
    )
    status, errors = _validate(path)
    assert status == 1
    gaps = [e for e in errors if e["code"] == "semantic/no-fallback"]
    assert len(gaps) == 1, errors
    gap = gaps[0]
    assert gap["path"] == "$.results.rules"
    assert gap["line"] == 6 and gap["column"] == 3  # the `rules:` of the variant's table
    assert "3, 4 or 5 of 10 tricks" in str(gap["message"])
    assert "ask" in str(gap["message"])


def test_an_at_most_rule_anywhere_no_longer_passes_for_a_fallback(tmp_path: Path) -> None:
    # Any `at_most` rule used to satisfy the check, wherever it stood and whatever it covered.
    path = _results_variant(
        tmp_path,
        "  - result: codille\n    when: {side_tricks: {at_most: 0}}\n"
        + BASIS
        + "  - result: win\n    when: {side_tricks: {at_least: 1}, contract: [ask]}\n"
        + BASIS,
    )
    status, errors = _validate(path)
    assert status == 1
    message = next(str(e["message"]) for e in errors if e["code"] == "semantic/no-fallback")
    # Every contract but ask is uncovered from 1 trick up; ask is covered.
    assert "sans-prendre" in message and " ask" not in message.split("contracts")[1][:20]


def test_conditions_are_taken_into_account(tmp_path: Path) -> None:
    # Ombre's own table minus its `otherwise` (the remise of 4-4-1, 3-3-3, 1-4-4): the deals
    # where no opponent alone takes the most and the declarer does not beat each are uncovered.
    data_rules = (
        "  - result: vole\n    when: {vole: made}\n"
        + BASIS
        + "  - result: vole-failed\n    when: {vole: failed}\n"
        + BASIS
        + "  - result: win\n    when: {more_than_each_opponent: true}\n"
        + BASIS
        + "  - result: codille\n    when: {single_opponent_most: true}\n"
        + BASIS
    )
    status, errors = _validate(_results_variant(tmp_path, data_rules, OMBRE))
    assert status == 1
    message = next(str(e["message"]) for e in errors if e["code"] == "semantic/no-fallback")
    assert "of 9 tricks" in message
    # The same table with its otherwise back validates.
    data_rules += "  - result: remise\n    when: {otherwise: true}\n" + BASIS
    status, errors = _validate(_results_variant(tmp_path, data_rules, OMBRE))
    assert [e for e in errors if e["code"] == "semantic/no-fallback"] == []


def test_every_shipped_table_covers_every_deal() -> None:
    registry = Registry()
    for _, _, path in registry.files():
        registry.resolve(registry.add_path(path))  # raises on a gap


def test_the_referee_has_no_silent_fallback() -> None:
    # A table with a gap (built past validation, which refuses it) used to settle the gap as
    # its last rule's result (a 5-trick deal as a codille); now reaching it is a bug, loudly.
    import dataclasses

    registry = Registry()
    rules = build_ruleset(registry.resolve(registry.add_path(QUADRILLE)))
    assert evaluate_result(rules, [3, 3, 2, 2], [1, 3], contract="ask") == "remise"
    kept = tuple(r for r in rules.results if r.result in ("win", "codille"))
    gap = dataclasses.replace(rules, results=kept)
    with pytest.raises(AssertionError, match="validation should have refused"):
        evaluate_result(gap, [3, 3, 2, 2], [1, 3], contract="ask")


# The duties to trump and to overtake without the duty to follow.


def _duties(tmp_path: Path, **play: bool) -> TrickRules:
    lines = "\n".join(f"  {k}: {'true' if v else 'false'}" for k, v in play.items())
    path = tmp_path / "duties.yaml"
    path.write_text(
        f"id: duties\nname: Duties\nextends: {QUADRILLE}\nsummary: Duties.\n"
        f"play:\n{lines}\n  basis: {{evidence: conjecture}}\n",
        encoding="utf-8",
    )
    status, errors = _validate(path)
    assert status == 0, errors
    registry = Registry()
    rules = build_ruleset(registry.resolve(registry.add_path(path)))
    return TrickRules.of(rules, rules.tables(), Card.parse("Ah").suit.index)


def _mask(cards: str) -> int:
    m = 0
    for text in cards.split():
        m |= 1 << Card.parse(text).index
    return m


def _cards(mask: int) -> set[str]:
    from engine.cards import ALL_CARDS

    return {str(ALL_CARDS[i]) for i in range(len(ALL_CARDS)) if mask >> i & 1}


@pytest.mark.parametrize("follow", [True, False])
def test_must_trump_applies_with_or_without_following(tmp_path: Path, follow: bool) -> None:
    tr = _duties(tmp_path, follow_suit=follow, must_trump=True, must_overtake=False)
    # Hearts are trumps; clubs are led; the player holds no club: he must trump.
    hand = _mask("Kh 5h Ks Qs")
    assert _cards(tr.legal(hand, [Card.parse("Kc").index])) == {"Kh", "5h"}


def test_without_following_a_player_holding_the_suit_may_play_anything(tmp_path: Path) -> None:
    tr = _duties(tmp_path, follow_suit=False, must_trump=True, must_overtake=False)
    hand = _mask("Kh Ks Qc")
    assert _cards(tr.legal(hand, [Card.parse("Kc").index])) == {"Kh", "Ks", "Qc"}


@pytest.mark.parametrize("follow", [True, False])
def test_must_overtake_applies_with_or_without_following(tmp_path: Path, follow: bool) -> None:
    tr = _duties(tmp_path, follow_suit=follow, must_trump=False, must_overtake=True)
    # Spades led (the queen); the player holds the king of spades, which beats it.
    hand = _mask("Ks 4s Qc")
    allowed = _cards(tr.legal(hand, [Card.parse("Qs").index]))
    assert allowed == {"Ks"}
    stages = [code for code, _ in tr.stages(hand, [Card.parse("Qs").index])]
    assert stages[-1] == "play/must-overtake"
    assert ("play/must-follow-suit" in stages) is follow

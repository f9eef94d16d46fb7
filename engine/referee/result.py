"""The result and the settlement: the rule file's results table read for the tricks, then the
counters settled (:mod:`engine.referee.settlement`)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from engine.enums import CodilleRemainder, HeldBy, OptionKind
from engine.referee.deal_laws import MISDEAL, at_end
from engine.referee.dealstate import DealState
from engine.referee.held import held_card_transfers
from engine.referee.outcome import Outcome
from engine.referee.seating import side_tricks as count_side_tricks
from engine.referee.settlement import SettlementResult, TableState, settle_outcome
from engine.referee.state import OVER, SUIT_NAMES, ResultMatch
from engine.rules.model import NO_TRUMPS, Contract, RuleSet

__all__ = [
    "evaluate_result",
    "favoured_for",
    "finish",
    "match_result",
    "outcome",
    "paid_matadors",
    "settlement",
    "tied_for_most",
    "top_taker",
    "top_taker_by",
]

_SIDE = HeldBy.SIDE
_NEXT_SPADILLE = CodilleRemainder.NEXT_SPADILLE
_HIGHEST_TRUMPS = CodilleRemainder.HIGHEST_TRUMPS
_NOTHING_FAVOURED: frozenset[str] = frozenset()


def evaluate_result(
    rules: RuleSet,
    won: Sequence[int],
    side: Sequence[int],
    *,
    vole_undertaken: bool = False,
    played: int | None = None,
    contract: str | None = None,
) -> str:
    """Returns the result the rule file's table gives for these tricks (first rule that holds).

    ``won`` is the tricks each seat took, ``side`` the declaring side. ``played`` is how many
    tricks were played (fewer than a full hand when the side laid down).
    """
    return rules.results[_evaluate(rules, won, side, vole_undertaken, played, contract)].result


def match_result(
    rules: RuleSet,
    won: Sequence[int],
    side: Sequence[int],
    *,
    vole_undertaken: bool = False,
    played: int | None = None,
    contract: str | None = None,
) -> ResultMatch:
    """Returns the line of the results table that gives these tricks their result, and the
    lines above it (none of which held): why the result is what it is. Arguments as for
    :func:`evaluate_result`, which answers with the same line's result."""
    index = _evaluate(rules, won, side, vole_undertaken, played, contract)
    table = rules.results
    return ResultMatch(table[index], index, tuple(table[:index]))


def _evaluate(
    rules: RuleSet,
    won: Sequence[int],
    side: Sequence[int],
    vole_undertaken: bool,
    played: int | None,
    contract: str | None,
) -> int:
    side_tricks = count_side_tricks(won, side)
    opponents = tuple([won[s] for s in range(len(won)) if s not in side])
    total = sum(won) if played is None else played
    # The answer depends on these alone: read off the table once for each, then kept.
    key = (contract, side_tricks, opponents, total, vole_undertaken)
    memo = rules.compiled.result_lines
    found = memo.get(key)
    if found is None:
        found = memo[key] = _read_results(rules, *key)
    return found


def _read_results(
    rules: RuleSet,
    contract: str | None,
    side_tricks: int,
    opponents: tuple[int, ...],
    total: int,
    vole_undertaken: bool,
) -> int:
    """The first line of the results table whose condition holds (the one reading of it)."""
    for index, rule in enumerate(rules.results):
        if rule.when.holds(
            contract=contract,
            side_tricks=side_tricks,
            opponents=opponents,
            played=total,
            hand_size=rules.hand_size,
            vole_undertaken=vole_undertaken,
        ):
            return index
    # Validation proves that the table gives every way a deal can end a result
    # (engine.rules.checks, "results-not-covered"): reaching this is a bug, not bad input.
    raise AssertionError(  # pragma: no cover
        f"{rules.id}: no result for side tricks {side_tricks}, opponents {list(opponents)}"
        f" (contract {contract}, {total} played, vole {vole_undertaken}): validation should have"
        " refused the table"
    )


def paid_matadors(d: DealState) -> int:
    """Returns how many matadors the declaring side is paid for (or pays), 0 if none."""
    if d.trump is None or not d.start_hands or d.declarer is None:
        return 0
    holders = d.side if d.rules.paid_held_by is _SIDE else [d.declarer]
    held = 0
    for s in holders:
        held |= d.start_hands[s]
    run = 0
    for c in d.t.paid_run[d.trump]:
        if not held >> c & 1:
            break
        run += 1
    return run if run >= d.rules.paid_minimum else 0


def finish(d: DealState) -> None:
    """Ends the deal: its result. The settlement follows from it (:func:`settlement`), reckoned
    when first asked for."""
    d.phase = OVER
    d.is_over = True
    d.listed = []
    if d.result != "redeal":
        match = d.result_match = match_result(
            d.rules,
            d.won,
            d.side,
            vole_undertaken=d.vole_undertaken,
            played=len(d.played_tricks),
            contract=d.contract.id if d.contract is not None else None,
        )
        d.result = match.rule.result
    at_end(d)
    if d.renonces:
        # A renonce not pointed out before the end is noticed after it: the bête stands.
        d.penalties.extend(seat for seat, _, _ in d.renonces)
        d.renonces = []


def top_trump_holder(d: DealState) -> int | None:
    """Returns the seat that held the highest trump when play began (None before trumps)."""
    if d.trump is None or not d.start_hands:
        return None
    hands = d.start_hands
    for c in d.t.trump_order[d.trump]:
        for seat, hand in enumerate(hands):
            if hand >> c & 1:
                return seat
    return None


def trump_holders(d: DealState) -> tuple[int, ...]:
    """Returns the seats that held a trump when play began, the holder of the highest first."""
    if d.trump is None or not d.start_hands:
        return ()
    hands = d.start_hands
    out: list[int] = []
    for c in d.t.trump_order[d.trump]:
        for seat, hand in enumerate(hands):
            if hand >> c & 1 and seat not in out:
                out.append(seat)
    return tuple(out)


def outcome(d: DealState, table: TableState | None = None) -> Outcome:
    """Returns what the finished deal leaves to settle, whatever lies on the table.

    :param table: the table it is to be settled on, if known: the holder of the highest trump
        is then looked for only when odd counters lie there; unknown, whenever the rules keep
        odd counters for him.
    """
    assert d.result is not None
    played = d.result != "redeal" and d.result != MISDEAL
    if table is not None:
        wanted = bool(table.remainder)
    else:
        wanted = d.rules.codille_remainder is _NEXT_SPADILLE
    held = held_card_transfers(d)
    transfers = (*d.transfers, *held) if held else tuple(d.transfers)
    return Outcome(
        dealer=d.dealer,
        factor=d.factor,
        result=d.result,
        contract=d.contract.id if d.contract is not None else None,
        declarer=d.declarer,
        partner=d.partner,
        tricks=tuple(d.won),
        matadors=paid_matadors(d),
        top_trump_holder=top_trump_holder(d) if wanted and played else None,
        transfers=transfers,
        renonces=tuple(d.penalties),
        trump_holders=(
            trump_holders(d) if played and d.rules.codille_remainder is _HIGHEST_TRUMPS else ()
        ),
        penalties=tuple(d.faults),
        favoured=favoured_options(d),
        turned_hands=d.irregular.turned if d.irregular is not None else (),
        unclaimed=d.deal_irregular.unclaimed,
        extra_card=d.deal_irregular.extra_card,
        top_taker=top_taker(d) if played else None,
    )


def tied_for_most(contract: Contract | None, won: Sequence[int]) -> tuple[int, ...]:
    """Returns, under a contract every seat plays (``all_play``), the seats that took the most
    tricks (one, or several tied); () under any other contract, or before a trick is won. The
    one statement of who is in the running for the tariff's ``most_tricks``."""
    if contract is None or contract.all_play is None or not any(won):
        return ()
    most = max(won)
    return tuple(s for s, w in enumerate(won) if w == most)


def top_taker_by(
    contract: Contract | None, won: Sequence[int], winners: Iterable[int]
) -> int | None:
    """Returns, under a contract every seat plays (``all_play``), the seat that took the most
    tricks; of seats tied for them, the one that won the latest trick (``ties:
    latest-trick``: "breaks penetro ties by latest winning trick", roc-online's tests).
    ``winners`` are the tricks' winners, the latest first (the scorekeeper, who has no tricks,
    gives the seat entered as the tied seat that won the latest). None under any other
    contract, before a trick is won, or for a tie that ``winners`` does not settle."""
    tied = tied_for_most(contract, won)
    if len(tied) == 1:
        return tied[0]
    return next((w for w in winners if w in tied), None)


def top_taker(d: DealState) -> int | None:
    """Returns the deal's top taker (:func:`top_taker_by`, from its tricks' winners)."""
    if d.contract is None or d.contract.all_play is None or not d.played_tricks:
        return None
    return top_taker_by(d.contract, d.won, (w for _, _, w in reversed(d.played_tricks)))


def favoured_options(d: DealState) -> frozenset[str]:
    """Returns the suit options (``kind: suit``) whose chosen suit is the deal's trump suit:
    the items with a ``favourite_option`` among them are paid their ``favourite_amount``."""
    trump = None if d.trump is None or d.trump == NO_TRUMPS else SUIT_NAMES[d.trump]
    return favoured_for(d.rules, d.options, trump)


def favoured_for(rules: RuleSet, values: Mapping[str, str], trump: str | None) -> frozenset[str]:
    """Returns the suit options whose chosen suit (``values``, a setup's options) is the suit
    named ``trump``; none without trumps (the scorekeeper asks this of an entry)."""
    if trump is None or not rules.options:
        return _NOTHING_FAVOURED
    return frozenset(
        oid
        for oid, option in rules.options.items()
        if option.kind is OptionKind.SUIT and str(values.get(oid)) == trump
    )


def settlement(d: DealState) -> SettlementResult:
    """Returns the settlement of the finished deal on the table it was dealt on."""
    return settle_outcome(d.rules, outcome(d, d.table), d.table)

"""The result and the settlement: the rule file's results table read for the tricks, then the
counters settled (:mod:`engine.settlement`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from engine.enums import HeldBy, VoleWhen
from engine.model import RuleSet
from engine.referee.held import held_card_transfers
from engine.referee.state import OVER
from engine.settlement import settle

if TYPE_CHECKING:
    from engine.referee.deal import Deal

__all__ = ["evaluate_result", "finish", "paid_matadors"]

_MADE = VoleWhen.MADE
_SIDE = HeldBy.SIDE


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
    side_tricks = sum(won[s] for s in side)
    opponents = [s for s in range(len(won)) if s not in side]
    total = sum(won) if played is None else played
    for rule in rules.results:
        w = rule.when
        if w.contracts is not None and contract not in w.contracts:
            continue
        if w.laid_down and not total < rules.hand_size:
            continue
        if w.vole is not None:
            if not vole_undertaken:
                continue
            made = side_tricks == rules.hand_size and total == rules.hand_size
            if (w.vole is _MADE) != made:
                continue
        if w.side_exactly is not None and side_tricks != w.side_exactly:
            continue
        if w.side_at_least is not None and side_tricks < w.side_at_least:
            continue
        if w.side_at_most is not None and side_tricks > w.side_at_most:
            continue
        if w.more_than_each_opponent and not all(side_tricks > won[o] for o in opponents):
            continue
        if w.single_opponent_most:
            top = max((won[o] for o in opponents), default=0)
            leaders = [o for o in opponents if won[o] == top]
            if not (top > side_tricks and len(leaders) == 1):
                continue
        return rule.result
    return rules.results[-1].result  # pragma: no cover - the checks require a fallback


def paid_matadors(d: Deal) -> int:
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


def finish(d: Deal) -> None:
    """Ends the deal: its result and its settlement."""
    d.phase = OVER
    d.is_over = True
    d._legal = []
    if d.result != "redeal":
        d.result = evaluate_result(
            d.rules,
            d.won,
            d.side,
            vole_undertaken=d.vole_undertaken,
            played=len(d._tricks),
            contract=d.contract.id if d.contract is not None else None,
        )
    if d.renonces:
        # A renonce not pointed out before the end is noticed after it: the bête stands.
        d.penalties.extend(seat for seat, _, _ in d.renonces)
        d.renonces = []
    holder = None
    if d.table.remainder and d.result != "redeal" and d.trump is not None and d.start_hands:
        for c in d.t.trump_order[d.trump]:
            holder = next((s for s in range(d.n) if d.start_hands[s] >> c & 1), None)
            if holder is not None:
                break
    d.settlement = settle(
        d.rules,
        n=d.n,
        table=d.table,
        stakes=d._stakes,
        result=d.result,
        contract=d.contract.id if d.contract else None,
        declarer=d.declarer,
        partner=d.partner,
        tricks=d.won,
        matadors=paid_matadors(d),
        spadille_holder=holder,
        transfers=[*d.transfers, *held_card_transfers(d)],
        renonces=d.penalties,
        factor=d.factor,
    )

"""A refereed record as a story: the typed view of ``ombre replay`` text and its deal pages.

:func:`replay_story` referees a record with :func:`engine.records.replay` (the report is the
``--json`` document) and deals it once more through the referee's public API to recover what
the report leaves out: the hands as dealt, every action with its index, and the trick left
half-played at an illegal action. Deals are numbered from 1 in words, as at the table and the
scorekeeper (:attr:`DealStory.number`); the JSON's ``index`` fields, of deals and of actions,
count from 0, and the text shows an action's index as the JSON gives it, in brackets.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.actions import LAW_VERBS
from engine.cards import Card
from engine.records import ActionStep, Record, ReplayReport, record_of, replay
from engine.referee.deal import Deal
from engine.referee.seating import side_tricks
from engine.referee.settlement import Account, Payment, PaymentKind
from engine.referee.state import ResultMatch, Trick
from engine.rules.model import Basis, RuleSet

__all__ = [
    "ActionLine",
    "DealStory",
    "IrregularLine",
    "PaymentLine",
    "PaymentPart",
    "PlayRow",
    "ReplayStory",
    "replay_story",
]


@dataclass(frozen=True, slots=True)
class ActionLine:
    """One action of a deal: its index in the deal's ``actions``, the seat and the action."""

    index: int
    seat: int
    verb: str
    text: str
    """The action without the seat, e.g. ``play Kd``."""


@dataclass(frozen=True, slots=True)
class IrregularLine:
    """One irregularity or remedy of a deal, where it happened: the referee's typed answers
    (its event under a law of the play, the tricks before and after, the seats beasted)."""

    index: int
    """The action's index in the deal's ``actions``."""
    seat: int
    verb: str
    """``renonce``, ``notice``, a verb of the laws of the play or of the deal, ``play`` (a law
    of the play applied to a card played, without a verb), or ``found`` (the card that ended
    the deal, a renonce unnoticed till then found after it)."""
    text: str
    trick: int
    """The trick it happened in, from 1 (one past the last: after the play)."""
    law: str | None
    """The ``laws:`` key it falls under (None for a renonce or its notice)."""
    basis: Basis | None
    """The rule file's basis for that law, or for ``play.renonce``."""
    beasted: tuple[int, ...] = ()
    """The seats it made beasted (a renonce noticed)."""
    resumed_at: int | None = None
    """The trick play resumed from, the cards taken back (a renonce noticed, a retake)."""


@dataclass(frozen=True, slots=True)
class PlayRow:
    """One step of the play as it happened, in order: a trick finished (with the
    irregularities that happened in it), or the cards taken back (``trick`` None: the one
    irregularity that took them back, and the trick play resumes from)."""

    number: int
    """The trick's number, from 1 (for cards taken back: the trick play resumes from)."""
    trick: Trick | None
    irregular: tuple[IrregularLine, ...]
    again: bool = False
    """A trick played again, the cards taken back after it had first been played."""


def _play_rows(
    steps: list[ActionStep], irregular: tuple[IrregularLine, ...], first: int, stop: int
) -> tuple[tuple[PlayRow, ...], tuple[IrregularLine, ...]]:
    """The play in the order it happened, from the referee's steps: each trick as it was
    finished (those later taken back too), the irregularities of each, and every taking back;
    and the irregularities after the last trick finished (in an unfinished trick, or after
    the play)."""
    at = {x.index: x for x in irregular}
    rows: list[PlayRow] = []
    pending: list[IrregularLine] = []
    played: set[int] = set()
    for index in range(first, min(stop, len(steps))):
        step, x = steps[index], at.get(index)
        if x is not None and x.resumed_at is not None:
            rows.append(PlayRow(x.resumed_at, None, (*pending, x)))
            pending = []
            continue
        if x is not None:
            pending.append(x)
        if step.finished is not None:
            number = step.tricks_after
            rows.append(PlayRow(number, step.finished, tuple(pending), number in played))
            played.add(number)
            pending = []
    return tuple(rows), tuple(pending)


_DEAL_VERBS = ("renonce", "notice", "misdeal", "extra-card", "retake")


def _irregular(
    rules: RuleSet, deal: Deal, steps: list[ActionStep], stop: int
) -> tuple[IrregularLine, ...]:
    """The irregularities of one deal, each where it happened (the referee's events matched to
    the actions they answer; a law applied to a plain play is shown at that play)."""
    events = {(e.seat, e.action): e for e in deal.irregularities}
    out = []
    for index, (seat, action) in enumerate(deal.history[: min(stop, len(steps))]):
        step = steps[index]
        event = events.get((seat, action))
        verb = action.verb
        if verb not in (*LAW_VERBS, *_DEAL_VERBS) and event is None:
            if not step.beasted:
                continue
            verb = "found"  # the last card ends the deal: a renonce unnoticed is found
        law = event.law if event is not None else None
        if law is None and action.verb in ("misdeal", "extra-card"):
            law = "misdeal" if action.verb == "misdeal" else "eleven_cards"
        path = ("laws", law) if law is not None else ("play", "renonce")
        out.append(
            IrregularLine(
                index=index,
                seat=seat,
                verb=verb,
                text=str(action),
                trick=step.tricks_before + 1,
                law=law,
                basis=rules.basis_at(path),
                beasted=step.beasted,
                resumed_at=(
                    step.tricks_after + 1 if step.tricks_after < step.tricks_before else None
                ),
            )
        )
    return tuple(out)


@dataclass(frozen=True, slots=True)
class PaymentPart:
    """What a payment is made of: an item of the rule file, or a stake, the pot, a bête."""

    id: str
    name: str
    basis: Basis


@dataclass(frozen=True, slots=True)
class PaymentLine:
    """One line of a deal's settlement: who paid whom, how much, and the rules behind it."""

    label: str
    parts: tuple[PaymentPart, ...]
    payer: int | Account
    payee: int | Account
    amount: int


def _before_play(actions: Iterable[ActionLine]) -> Iterator[ActionLine]:
    """The actions before the first card played (auction, declarations, écart)."""
    for a in actions:
        if a.verb in ("play", "vole", "stop"):
            return
        yield a


@dataclass(frozen=True)
class DealStory:
    """One deal of a record, as refereed."""

    index: int
    """The deal's 0-based index in the record's ``deals`` (the JSON's numbering)."""
    report: Mapping[str, Any]
    """The deal's entry in the ``--json`` document."""
    hands: tuple[tuple[str, ...], ...]
    talon: tuple[str, ...]
    actions: tuple[ActionLine, ...]
    """The actions applied (up to, not including, an illegal one)."""
    partial_trick: tuple[Card, ...]
    """The cards of a trick left unfinished (at an error or where the record stops)."""
    partial_leader: int | None
    error: Mapping[str, Any] | None
    payments: tuple[PaymentLine, ...]
    alone: bool
    """The declarer had a partner but paid the loss alone (too few tricks of his own)."""
    note: str | None
    result_match: ResultMatch | None = None
    """Why the deal has its result: the referee's line of the results table (None before the
    end and for a redeal)."""
    eldest: int = 0
    """The eldest hand, first to speak and to lead: the referee's seating (never worked out
    from the dealer here)."""
    irregular: tuple[IrregularLine, ...] = ()
    """The irregularities and remedies, each where it happened, in order."""
    play: tuple[PlayRow, ...] = ()
    """The play as it happened: every trick as it was finished (a trick taken back and played
    again appears twice), its irregularities, and each taking back of the cards."""
    irregular_after: tuple[IrregularLine, ...] = ()
    """The irregularities after the last trick finished (in the unfinished trick, or after
    the play)."""
    side_tricks: int | None = None
    """The tricks of the declaring side (the declarer and his partner), None before a
    declarer: the referee's count, from the deal's typed tricks won."""

    def irregular_at(self, index: int) -> IrregularLine | None:
        """Returns the irregularity the action at ``index`` is, if it is one."""
        return next((x for x in self.irregular if x.index == index), None)

    def superseded(self, x: IrregularLine) -> bool:
        """Whether ``x`` happened in play the cards were later taken back from (the trick it
        names was played again)."""
        return any(
            row.trick is None and row.irregular[-1].index > x.index and row.number <= x.trick
            for row in self.play
        )

    @property
    def taken_back(self) -> bool:
        """Whether the cards were taken back during the play (some tricks were played twice)."""
        return any(row.trick is None for row in self.play)

    @property
    def auction(self) -> tuple[ActionLine, ...]:
        """Returns the actions before the first card played (auction, declarations, écart)."""
        return tuple(_before_play(self.actions))

    @property
    def number(self) -> int:
        """The deal's number in words, from 1 (as play, the web and the scorekeeper count)."""
        return self.index + 1


@dataclass(frozen=True)
class ReplayStory:
    """A record and its refereeing, deal by deal."""

    rules: RuleSet
    record: Record
    report: ReplayReport
    deals: tuple[DealStory, ...]
    file: str
    """The record as named on the command line."""

    @property
    def players(self) -> range:
        """Returns the seats."""
        return range(self.rules.players)


_NAMES = {
    PaymentKind.STAKE: "stake",
    PaymentKind.POT: "the pot",
    PaymentKind.BETE: "bête",
}
_STAKE_NAMES = {"dealer": "the dealer's stake", "each": "each player's stake"}


def _line(rules: RuleSet, p: Payment, dealer: int | None = None) -> PaymentLine:
    """A settlement line as the page shows it: its parts, each with its own basis (the
    referee's typed line: nothing is read back from its label)."""
    parts: tuple[PaymentPart, ...]
    if p.kind is PaymentKind.ITEMS:
        parts = tuple(
            PaymentPart(i, rules.items[i].name, b) for i, b in zip(p.items, p.bases, strict=True)
        )
    elif p.kind is PaymentKind.STAKE and p.bases:
        parts = tuple(
            PaymentPart("stake", _STAKE_NAMES.get(who, who), b)
            for who, b in zip(p.items, p.bases, strict=True)
            # the settlement's line names every stake line; the dealer's is the dealer's alone
            if who != "dealer" or dealer is None or p.payer_seat == dealer
        )
    else:
        basis = p.basis if p.basis is not None else rules.basis_at(("settlement",))
        parts = (PaymentPart(p.item, _NAMES.get(p.kind, p.item), basis),)
    return PaymentLine(p.item, parts, p.payer, p.payee, p.amount)


def replay_story(record: Record, rules: RuleSet, file: str | Path) -> ReplayStory:
    """Referees ``record`` under ``rules`` and returns the story of every deal reported.

    :raises RecordError: if the record cannot be set up (as :func:`engine.records.replay`).
    """
    report = replay(record, rules)
    stories = []
    for d_index, entry in enumerate(report.deals):
        deal_rec = record.deals[d_index]
        deal = report.played[d_index]  # as the referee left it
        dealt = record_of([deal], rules.id).deals[0]
        error = report.error if d_index == len(report.deals) - 1 else None
        stop = int(error["index"]) if error is not None else len(deal_rec.actions)
        lines = []
        for index, (seat, action) in enumerate(deal.history[:stop]):
            lines.append(ActionLine(index, seat, action.verb, str(action)))
        view = deal.view(0)
        settled = deal.settlement
        irregular = _irregular(rules, deal, report.steps[d_index], stop)
        first = sum(1 for _ in _before_play(lines))
        play, after = _play_rows(report.steps[d_index], irregular, first, stop)
        payments = tuple(_line(rules, p, deal.dealer) for p in settled.payments) if settled else ()
        stories.append(
            DealStory(
                index=d_index,
                report=entry,
                hands=dealt.hands or (),
                talon=dealt.talon or (),
                actions=tuple(lines),
                partial_trick=view.trick,
                partial_leader=view.trick_leader if view.trick else None,
                error=error,
                payments=payments,
                alone=settled is not None and settled.alone is not None,
                note=deal_rec.note,
                result_match=deal.result_match,
                eldest=deal.seating.eldest,
                irregular=irregular,
                play=play,
                irregular_after=after,
                side_tricks=_side_tricks(deal),
            )
        )
    return ReplayStory(rules, record, report, tuple(stories), str(file))


def _side_tricks(deal: Deal) -> int | None:
    """Returns the tricks of the declaring side (the declarer and his partner), None before a
    declarer."""
    if deal.declarer is None:
        return None
    partners = [deal.partner] if deal.partner is not None else []
    return side_tricks(deal.won, [deal.declarer, *partners])

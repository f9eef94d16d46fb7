"""A table in the browser: a party under one ruleset, people in some seats, bots in the others.

The referee decides everything: what may be clicked is :meth:`Deal.legal_actions`, what is
done is :meth:`Deal.apply` (checked again, whatever the page sent), and why a card may not be
played is the refusal :meth:`Deal.apply` gives for it, asked of a copy of the deal so that the
game itself is never touched by a question. Bots choose only among the legal actions.

A table is saved after every move as a party record (``ombre replay`` reads it) beside a small
JSON file saying who sits where; :meth:`WebTable.load` plays the record again to resume it. A
long table's record is kept in parts of :data:`PART_DEALS` deals (``ID.part-0001.yaml`` …, each
written once, whole, and then left alone), so that every file stays within the limits a record
is read under however long the party goes on (``docs/web.md``).
The saved record holds every hand; what the table hands out (:meth:`WebTable.public_record`)
holds only the deals that are over, so that no seat learns a hidden hand or talon from it.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from engine.actions import Action
from engine.bots import BOTS, Bot, make_bot
from engine.bots.base import take_remedies
from engine.cards import Card, Suit
from engine.errors import IllegalActionError, NotationError, RecordError, RuleFileError
from engine.records import MAX_DEALS, Record, deal_record, deal_text, party_text, read_record
from engine.referee import Deal
from engine.referee.party import Party
from engine.rules import load_named_ruleset
from engine.rules.model import NO_TRUMPS, RuleSet
from engine.seeds import deal_seed
from engine.web.store import Store

__all__ = ["PART_DEALS", "DamagedFile", "Refusal", "StaleError", "WebTable", "matador_names"]

PART_DEALS = 1000
"""The deals of one part of a table's saved record: about 1.2 MB of an ordinary party, far
within the 4 MiB and 500,000 values a record of few deals is read under
(:data:`engine.records.LIMITS`). The whole record a table hands out grows with its deals, as
those limits do (:data:`engine.records.GROWTH`), up to :data:`engine.records.MAX_DEALS` deals,
after which the table plays no further deal."""


def _part_path(store: Store, ident: str, k: int) -> Path:
    """Returns the file of part ``k`` (counted from 1) of table ``ident``'s saved record."""
    return store.path("table", ident, f".part-{k:04d}.yaml")


class DamagedFile(Exception):
    """A saved table's files cannot be read or played again: the message names the file."""


class StaleError(ValueError):
    """The page acted on a state the table has moved on from (a second click, an old tab)."""


@dataclass(frozen=True, slots=True)
class Seen:
    """One action as a seat may know it (``deed`` in ``templates/table/_words.j2`` words it)."""

    seat: int
    action: Action
    hidden: bool
    """The seat may not see its cards: another's écart, a given card, a renonce."""


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why an action is not allowed now: the referee's code, reason and rule."""

    action: str
    code: str
    reason: str
    rule: str

    @staticmethod
    def of(action: str, exc: IllegalActionError | NotationError) -> Refusal:
        if isinstance(exc, IllegalActionError):
            return Refusal(action, exc.code, exc.detail, exc.rule)
        return Refusal(action, "notation/invalid", str(exc), "")


def matador_names(rules: RuleSet, trump: int | None) -> dict[str, str]:
    """Returns the named top trumps (Spadille, Manille, Basta, Ponto) as ``{card: name}``.

    Before trumps are named only the cards that are always trumps (the black aces) are known;
    a contract without trumps (:data:`NO_TRUMPS`) has none.
    """
    out: dict[str, str] = {}
    if trump == NO_TRUMPS:
        return out
    for top in rules.top_trumps:
        card = top.card if trump is None else top.card_for(list(Suit)[trump])
        if card is not None:
            out[str(card)] = top.name
    return out


@dataclass
class WebTable:
    """One table: its settings, its party, and the bots in the seats no person takes."""

    ident: str
    rules: RuleSet
    options: dict[str, str]
    humans: tuple[int, ...]
    bots_kind: str = "heuristic"
    seed: int = 1
    created: float = field(default_factory=time.time)
    party: Party = field(init=False)
    bots: list[Bot] = field(init=False)
    _texts: list[str] = field(init=False, default_factory=list, repr=False)
    """The record text (:func:`engine.records.deal_text`) of each deal that a later deal has
    followed, in order: a save writes only the deal in play anew."""

    def __post_init__(self) -> None:
        if self.bots_kind not in BOTS:
            raise NotationError(f"bots must be one of {', '.join(BOTS)}, not {self.bots_kind!r}")
        for seat in self.humans:
            if not 0 <= seat < self.rules.players:
                raise NotationError(f"seat {seat} is not a seat of {self.rules.id}")
        self.party = Party(self.rules, options=self.options)
        self.bots = [make_bot(self.bots_kind, self.seed * 7919 + k) for k in range(self.n)]

    @property
    def n(self) -> int:
        """Returns the number of players."""
        return self.rules.players

    @property
    def hotseat(self) -> bool:
        """Returns whether more than one person plays at this screen."""
        return len(self.humans) > 1

    @property
    def deal(self) -> Deal:
        """Returns the deal in progress (or the last one, finished)."""
        return self.party.deals[-1]

    @property
    def turn(self) -> str:
        """Returns a token of the state a page was drawn from: deal number and move number."""
        return f"{len(self.party.deals)}.{len(self.deal.history)}"

    def start(self) -> None:
        """Deals the first deal (or the next one) and lets the bots play up to a person."""
        # Deal i from deal_seed(seed, i), as `ombre play --seed` and a party record deal it.
        self.party.new_deal(seed=deal_seed(self.seed, len(self.party.deals)), machine_dealt=True)
        self.run_bots()

    def run_bots(self) -> None:
        """Lets the bots play until it is a person's turn or the deal is over."""
        deal = self.deal
        # The bots take the remedies an irregularity gives them (Bot.remedy), between moves.
        take_remedies(deal, self.bots, tuple(self.humans))
        while not deal.is_over and deal.to_move not in self.humans:
            seat = deal.to_move
            deal.apply(self.bots[seat].choose(deal, seat))
            take_remedies(deal, self.bots, tuple(self.humans))

    def act(self, seat: int, action_text: str, turn: str) -> None:
        """Applies a person's action, checked by the referee, then the bots' replies.

        :raises StaleError: if the page was drawn from an earlier state;
        :raises NotationError: if the action does not parse or the seat is not a person's;
        :raises IllegalActionError: if the referee refuses it (the deal is unchanged).
        """
        if turn != self.turn:
            raise StaleError("the table has moved on since this page was drawn: look again")
        if seat not in self.humans:
            raise NotationError(f"seat {seat} is played by a bot")
        action = Action.parse(action_text)
        self.deal.apply(action, seat=seat)
        self.run_bots()

    def next_deal(self, turn: str) -> None:
        """Starts the next deal once this one is over."""
        if turn != self.turn:
            raise StaleError("the table has moved on since this page was drawn: look again")
        if not self.deal.is_over:
            raise NotationError("the deal in progress is not finished")
        if self.party.over:
            # The rule file's party is played: a seat reached its target, or its deals are.
            raise NotationError("the party is over: the rule file plays no further deal")
        if len(self.party.deals) >= MAX_DEALS:
            # The table's record (what the table hands out, and ``ombre replay`` reads) holds at
            # most MAX_DEALS deals: a longer evening goes on at a new table.
            raise NotationError(
                f"this table has played {MAX_DEALS} deals, the most one record holds:"
                " open a new table to go on"
            )
        self.start()

    def why_not(self, action_text: str) -> Refusal | None:
        """Returns why an action is not allowed now (None if it is): the referee's
        :meth:`~engine.referee.Deal.refusal`."""
        try:
            action = Action.parse(action_text)
        except NotationError as exc:
            return Refusal.of(action_text, exc)
        deal = self.deal
        error = deal.refusal(action, seat=None if deal.is_over else deal.to_move)
        return None if error is None else Refusal.of(str(action), error)

    def askable(self) -> list[Action]:
        """Returns the choices of this phase that the referee does not offer now, each of which
        the page may ask "why not?" about (the referee's :meth:`Deal.askable`), while a person
        is to move."""
        deal = self.deal
        if deal.is_over or deal.to_move not in self.humans:
            return []
        return list(deal.askable())

    def events_seen(self, seat: int) -> list[Seen]:
        """Returns what the others did since ``seat`` last acted, as that seat may know it: the
        cards of another's écart and a card given in exchange stay hidden (their number is told),
        and another's renonce is a card played (the templates word them as the terminal does).
        """
        deal = self.deal
        given_known = deal.view(seat).given is not None
        mine = [i for i, (s, _) in enumerate(deal.history) if s == seat]
        out = []
        for s, a in deal.history[(mine[-1] + 1 if mine else 0) :]:
            hidden = s != seat and (
                a.verb in ("discard", "renonce") or (a.verb == "give" and not given_known)
            )
            out.append(Seen(s, a, hidden))
        return out

    def viewer(self) -> int:
        """Returns the seat whose cards the page shows: the person to move, else the first."""
        deal = self.deal
        if not deal.is_over and deal.to_move in self.humans:
            return deal.to_move
        return self.humans[0] if self.humans else 0

    # Saving and resuming.

    def settings(self) -> dict[str, Any]:
        """Returns who sits where (the JSON file beside the record)."""
        return {
            "ruleset": self.rules.id,
            "options": self.options,
            "humans": list(self.humans),
            "bots": self.bots_kind,
            "seed": self.seed,
            "created": self.created,
        }

    def record_text(self, first: int = 0, last: int | None = None) -> str:
        """Returns the party record of the table so far (the YAML ``ombre replay`` reads), of
        deals ``first`` to ``last`` (counted from 0; ``last`` not included, None: to the end).

        Every hand is in it, the deal in progress too: it is the file the server keeps, never
        what it shows (see :meth:`public_record`).
        """
        deals = self.party.deals
        end = len(deals) if last is None else min(last, len(deals))
        return party_text(self._head(), [self._deal_text(k) for k in range(first, end)])

    def _head(self) -> Record:
        deals = self.party.deals
        options = dict(deals[-1].options) if deals else {}
        return Record(ruleset=self.rules.id, deals=(), options=options, party=True)

    def _deal_text(self, k: int) -> str:
        """Returns deal ``k``'s record text, kept once a later deal has followed it (no action
        is added to a deal after the next one is dealt)."""
        deals = self.party.deals
        if k < len(self._texts):
            return self._texts[k]
        text = deal_text(deal_record(deals[k]))
        if k == len(self._texts) and k < len(deals) - 1:
            self._texts.append(text)
        return text

    def finished(self) -> int:
        """Returns how many deals are over: every deal but the last, and the last once over."""
        deals = self.party.deals
        return max(len(deals) if deals and deals[-1].is_over else len(deals) - 1, 0)

    def sealed(self) -> int:
        """Returns how many whole parts of :data:`PART_DEALS` deals, every one of them over,
        lie before the deal in progress (the parts the saved record is kept in)."""
        return self.finished() // PART_DEALS

    def public_record(self) -> str | None:
        """Returns the record anyone at the table may have: the deals that are over, hands and
        talon included (None while the first deal is still being played).

        A deal in progress is left out whole: its hands and talon are what the seats may not
        see before it ends.
        """
        pieces = self.public_record_pieces()
        return None if pieces is None else "".join(pieces)

    def public_record_pieces(self) -> list[str] | None:
        """Returns :meth:`public_record` in pieces (its head, then each deal's text), to be
        sent one after another: the deals' texts are the table's own, not copied."""
        finished = self.finished()
        if not finished:
            return None
        texts = [self._deal_text(k) for k in range(finished)]
        head = party_text(self._head(), texts[:1])
        return [head, *texts[1:]]

    def save(self, store: Store, *, settings: bool = False) -> None:
        """Writes the record (after every move) and, when asked, the settings (once)."""
        if settings:
            store.write(
                store.path("table", self.ident, ".json"),
                json.dumps(self.settings(), indent=2) + "\n",
            )
        parts = self.sealed()
        # Each part is written once, at the first save after its last deal ends: looking back
        # from the newest, the first part found on disk ends the search (one look a save; a
        # table saved whole by an older version gets all its parts at once).
        # They are written oldest first, so that a stop midway leaves no gap.
        k = parts
        while k and not _part_path(store, self.ident, k).is_file():
            k -= 1
        for j in range(k + 1, parts + 1):
            store.write(
                _part_path(store, self.ident, j),
                self.record_text((j - 1) * PART_DEALS, j * PART_DEALS),
            )
        store.write(store.path("table", self.ident, ".yaml"), self.record_text(parts * PART_DEALS))

    @staticmethod
    def load(store: Store, ident: str) -> WebTable:
        """Resumes a saved table: its settings, and its record played again by the referee.

        :raises KeyError: if there is no such table;
        :raises DamagedFile: if the files are not a table (malformed, or an illegal action),
            naming the file.
        """
        settings_path = store.path("table", ident, ".json")
        record_path = store.path("table", ident, ".yaml")
        if not settings_path.is_file() or not record_path.is_file():
            raise KeyError(ident)
        table = WebTable._settings(ident, settings_path)
        shown = record_path
        try:
            records = []
            for k in range(1, 10**6):
                part = _part_path(store, ident, k)
                if not part.is_file():
                    break
                shown = part
                records.append(read_record(part))
            shown = record_path
            last = read_record(record_path)
            if records and last.deals and last.deals[0] == records[-1].deals[0]:
                # The server stopped after writing a part, before the record was cut short.
                last = replace(last, deals=last.deals[len(records[-1].deals) :])
            records.append(last)
            for deal_record in (d for record in records for d in record.deals):
                deal = table.party.new_deal(
                    hands=[[Card.parse(c) for c in h] for h in deal_record.hands or ()],
                    talon=[Card.parse(c) for c in deal_record.talon or ()],
                    machine_dealt=True,
                )
                for line in deal_record.actions:
                    deal.apply(line)
        except RecordError as exc:
            first = exc.problems[0] if exc.problems else None
            where = f"{shown}:{first.line}" if first and first.line else str(shown)
            raise DamagedFile(f"{where}: {first.message if first else exc}") from None
        except (IllegalActionError, NotationError, RuleFileError, ValueError) as exc:
            raise DamagedFile(f"{shown}: the record cannot be played again ({exc})") from None
        if not table.party.deals:
            table.start()
        else:
            table.run_bots()
        return table

    @staticmethod
    def _settings(ident: str, settings_path: Path) -> WebTable:
        try:
            if settings_path.stat().st_size > 64 * 1024:
                raise ValueError("larger than a table's settings can be")
            settings = json.loads(
                settings_path.read_text(encoding="utf-8"),
                parse_constant=_no_constant,
            )
            if not isinstance(settings, dict):
                raise ValueError("not a JSON object")
            seed = settings.get("seed", 1)
            if isinstance(seed, bool) or not isinstance(seed, int) or abs(seed) > 2**63:
                raise ValueError(f"the seed {str(seed)[:40]} is not a whole number")
            created = settings.get("created", time.time())
            if not isinstance(created, int | float) or created != created:
                raise ValueError("created is not a time")
            table = WebTable(
                ident,
                load_named_ruleset(str(settings["ruleset"])),
                {str(k): str(v) for k, v in dict(settings.get("options") or {}).items()},
                tuple(int(s) for s in settings["humans"]),
                str(settings.get("bots", "heuristic")),
                seed,
                float(created),
            )
        except RecursionError:
            raise DamagedFile(
                f"{settings_path}: not a table's settings (nested too deep)"
            ) from None
        except (ValueError, KeyError, TypeError, OverflowError, OSError) as exc:
            raise DamagedFile(f"{settings_path}: not a table's settings ({exc})") from None
        except (NotationError, RuleFileError) as exc:
            raise DamagedFile(f"{settings_path}: {exc}") from None
        return table


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number a table's settings can hold")

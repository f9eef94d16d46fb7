"""Playing at the table: one human seat against bots, at the terminal (``ombre play``).

The table is written for a newcomer. At every turn the player sees only what the seat may see
(:meth:`Deal.view`): where everybody sits, the contract, trumps and the called card, the trick
on the table with who played what, the tricks of each seat and of each side, the hand grouped by
suit, and the numbered legal choices. Every event is told in words: a forced declarer is
explained, a called king's holder is told he is the partner, a demanded king is seen leaving its
holder's hand, the écart shows what was drawn, and the settlement lists each payment with its
parts and the rule behind it.

An answer is a number, an action in record notation (``Kd``, ``play Kd``, ``bid ask``, a
contract's alias from the rule file such as ``bid médiateur``), Enter when there is a single
choice, or a command: ``?``/``help`` (the choices, the rule that applies now, and what the
heuristic bot would do), ``last`` (the previous trick), ``tricks``, ``seats`` and ``quit``.
An illegal answer is refused with the rule it breaks, in the second person, and asked again.

Nothing entered is lost: the record is written after every answer and at the end (atomically,
so an interrupted write never leaves half a file), and ``ombre play --from RECORD`` resumes an
unfinished game or deals a finished one again.
"""

from __future__ import annotations

import dataclasses
import os
import re
import tempfile
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.actions import Action, parse_line
from engine.bots import Bot, make_bot
from engine.cards import ALL_CARDS, Card, Suit
from engine.errors import IllegalActionError, NotationError
from engine.model import Basis, RuleSet
from engine.party import Party
from engine.records import DealRecord, Record, record_of, ruleset_sha256, write_record
from engine.referee import Deal
from engine.render import render
from engine.settlement import pays_alone

__all__ = [
    "TableGame",
    "describe_result",
    "record_path_problem",
    "seat_diagram",
]

ReadLine = Callable[[str], str | None]
Write = Callable[[str], None]

COMMANDS = ("?", "help", "last", "tricks", "seats", "quit")
_WIDTH = 92


class _Quit(Exception):
    """The player typed ``quit``."""


# Words.


def _who(seat: int | None, human: int | None) -> str:
    if seat is None:
        return "nobody"
    return "you" if seat == human else f"seat {seat}"


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _verb(seat: int, human: int | None, you: str, he: str) -> str:
    """Returns "you pass" / "seat 2 passes"."""
    return f"{_who(seat, human)} {you if seat == human else he}"


def _join(words: Sequence[str]) -> str:
    words = list(words)
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _wrap(text: str, indent: str = "  ") -> list[str]:
    return textwrap.wrap(
        " ".join(text.split()),
        _WIDTH,
        initial_indent=indent,
        subsequent_indent=indent,
        break_on_hyphens=False,
    )


def _second_person(text: str, seat: int | None) -> str:
    """Rewrites a referee message about ``seat`` so that it speaks to the player: "you"."""
    if seat is None:
        return text
    s = f"seat {seat}"
    for old, new in (
        (f"{s}'s", "your"),
        (f"{s} holds", "you hold"),
        (f"{s} does not", "you do not"),
        (f"{s} has", "you have"),
        (f"{s} is", "you are"),
        (f"{s} may only take the overcall himself", "you may only take the overcall yourself"),
    ):
        text = text.replace(old, new)
    return re.sub(rf"\b{s}\b", "you", text)


def _cards(cards: Sequence[Card | str]) -> str:
    return " ".join(str(c) for c in cards)


def _basis_text(basis: Basis) -> str:
    """Returns "attested; enc-q, QUADRILLE (Jeu): «quote»" for a rule's basis."""
    if not basis.cites:
        return basis.evidence
    first = basis.cites[0]
    quote = f": “{first.quote}”" if first.quote else ""
    return f"{basis.evidence}; {first.source}, {first.locator}{quote}"


def seat_diagram(n: int, bottom: int, labels: dict[int, str]) -> list[str]:
    """Returns the seats around the table seen from ``bottom``'s chair, play going to the right
    (counter-clockwise seen from above): the next seat sits on the right, the last on the left.
    """

    return render("table/seats.txt.j2", "text", n=n, bottom=bottom, labels=labels).splitlines()


def record_path_problem(path: Path, *, force: bool, continuing: bool = False) -> str | None:
    """Returns why a record cannot be written to ``path`` (None when it can).

    Checked before the first card so that no game is played for nothing: the folder must exist
    and be writable, the path must not be a folder, and an existing file is kept unless
    ``force`` (or ``continuing``: the game resumed from that very file).
    """
    if path.is_dir():
        return f"{path} is a directory: give a file name for the record, e.g. {path / 'game.yaml'}"
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.exists():
        return f"cannot write the record {path}: there is no directory {parent}"
    if not parent.is_dir():
        return f"cannot write the record {path}: {parent} is not a directory"
    if path.exists() and not force and not continuing:
        return f"{path} already exists: add --force to overwrite it, or choose another file"
    try:
        handle, probe = tempfile.mkstemp(dir=parent, prefix=".ombre-check-")
        os.close(handle)
        os.unlink(probe)
    except OSError as exc:
        return f"cannot write the record {path}: {parent}: {exc.strerror or exc}"
    return None


def _write_atomically(path: Path, text: str) -> None:
    parent = path.parent if str(path.parent) else Path(".")
    handle, temp = tempfile.mkstemp(dir=parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(temp, path)
    except BaseException:
        if os.path.exists(temp):
            os.unlink(temp)
        raise


def _wrapping(write: Write) -> Write:
    """Returns ``write`` folding lines wider than the table at word boundaries, the rest of a
    folded line indented under its start."""

    def folded(text: str) -> None:
        for line in text.split("\n"):
            if len(line) <= _WIDTH:
                write(line)
                continue
            indent = line[: len(line) - len(line.lstrip())]
            for part in textwrap.wrap(
                line.strip(),
                _WIDTH,
                initial_indent=indent,
                subsequent_indent=indent + "  ",
                break_on_hyphens=False,
            ):
                write(part)

    return folded


def _say(write: Write, name: str, **context: Any) -> None:
    """Renders a template of ``templates/table/`` and writes its lines one by one."""
    for line in render(name, "text", **context).splitlines():
        write(line)


def _in_turn(deal: Deal, first: int) -> list[int]:
    """Returns the seats that play, in turn from ``first`` (a seat that sits the deal out, as
    the dealer at a table of four in some games, is left out)."""
    out = getattr(deal, "out", None)
    return [s for s in ((first + k) % deal.n for k in range(deal.n)) if s != out]


# What the rules say, in words.


def _contract_words(rules: RuleSet, cid: str | None) -> str:
    if cid is None:
        return "nothing"
    c = rules.contracts.get(cid)
    if c is None:
        return cid
    return f"{c.name} [{cid}]" if c.name.lower() != cid else c.name


def _card_named(rules: RuleSet, card: Card | None) -> str:
    if card is None:
        return ""
    for top in rules.top_trumps:
        if top.card == card:
            return f"{card} ({top.name})"
    return str(card)


def _rule_lines(rules: RuleSet, path: tuple[str, ...]) -> list[str]:
    if rules.value_at(path) is None:
        return []
    basis = rules.basis_at(path)
    out = []
    if basis.note:
        out += _wrap(basis.note, "    ")
    out += _wrap(f"[{_basis_text(basis)}]", "    ")
    return out


def _betes(table: Any) -> str:
    """Returns "; bêtes waiting to be played for: 14, 28" for a table state."""
    betes = list(getattr(table, "betes", ()) or ())
    if not betes:
        return ""
    if len(betes) == 1:
        return f"; a bête of {betes[0]} waits to be played for"
    return f"; bêtes waiting to be played for, largest first: {', '.join(map(str, betes))}"


def _result_rule(rules: RuleSet, result: str | None) -> Any:
    return next((r for r in rules.results if r.result == result), None)


# The end of a deal.


def describe_result(deal: Deal, human: int | None = None) -> list[str]:
    """Returns the lines announcing a finished deal: its result and why, each payment with its
    parts and the rule behind it, who pays alone and why, balances and what stays on the table.
    """
    out: list[str] = []
    for line in _result_lines(deal, human):
        indent = line[: len(line) - len(line.lstrip())]
        out += _wrap(line, indent) if len(line) > _WIDTH else [line]
    return out


def _why(rules: RuleSet, result: str | None) -> str:
    """Returns the condition that gives ``result``, in words."""
    rule = _result_rule(rules, result)
    if rule is None:
        return ""
    text = rule.when.describe()
    if text == "otherwise":
        before = []
        for r in rules.results:
            if r is rule:
                break
            if r.when.vole is None:
                before.append(f"{r.result} ({r.when.describe()})")
        text = "none of " + "; ".join(before) if before else text
    return f"{result}: {text} [{_basis_text(rule.basis)}]"


def _result_lines(deal: Deal, human: int | None) -> list[str]:
    rules = deal.rules
    lines: list[str] = []
    s = deal.settlement
    if deal.result == "redeal":
        lines.append("Everybody passed: the deal is void, and the cards are dealt again.")
        lines += _rule_lines(rules, ("auction", "all_pass"))
    else:
        assert deal.declarer is not None and deal.contract is not None
        side = deal.side
        taken = sum(deal.won[x] for x in side)
        who = _join([_who(x, human) for x in side])
        side_words = who if len(side) == 1 else f"the side ({who})"
        lines.append(
            f"Result: {deal.result}. {_cap(_contract_words(rules, deal.contract.id))} by "
            f"{_who(deal.declarer, human)}; {side_words} took {taken} of "
            f"{len(deal.tricks)} tricks" + (" and laid down" if deal.stopped else "") + "."
        )
        why = _why(rules, deal.result)
        if why:
            lines.append("    " + why)
    if s is None:
        return lines
    if s.matadors:
        lines.append(
            f"Matadors: the side held {s.matadors} in an unbroken run from the top; "
            "they are paid for."
        )
    lines.append("Payments:")
    lines += _payment_lines(deal, human)
    if (
        deal.contract is not None
        and deal.declarer is not None
        and deal.partner is not None
        and any(p.payer == str(deal.declarer) for p in s.payments if p.item not in ("stake",))
        and pays_alone(
            rules,
            deal.contract.id,
            deal.partner,
            deal.won[deal.declarer],
            lost=bool(rules.outcomes[deal.result or ""].bete)
            if deal.result in rules.outcomes
            else False,
        )
    ):
        lines.append(
            f"  {_cap(_who(deal.declarer, human))} took only "
            f"{_plural(deal.won[deal.declarer], 'trick')} himself, fewer than "
            f"{rules.sole_liability_below}: the declarer pays the loss alone, and "
            f"{_who(deal.partner, human)} (the partner) pays nothing."
        )
        lines += _rule_lines(rules, ("settlement", "sharing"))
    balances = " · ".join(f"{_who(k, human)} {b:+d}" for k, b in enumerate(s.balances))
    lines.append(f"Balances for this deal: {balances}")
    kept = s.table.remainder
    extra = (
        f" ({_plural(kept, 'odd counter')} of it kept for whoever holds the highest trump "
        "next deal)"
        if kept
        else ""
    )
    lines.append(f"On the table for the next deal: {s.pot_after}{extra}{_betes(s.table)}.")
    return lines


def _payment_lines(deal: Deal, human: int | None) -> list[str]:
    rules = deal.rules
    s = deal.settlement
    assert s is not None
    groups: dict[str, list[Any]] = {}
    for p in s.payments:
        groups.setdefault(p.item, []).append(p)

    def party(x: str) -> str:
        return "the pot" if x == "pot" else _who(int(x), human)

    out: list[str] = []
    contract = deal.contract.id if deal.contract else ""
    outcome = rules.outcomes.get(deal.result or "")
    for item, payments in groups.items():
        total = sum(p.amount for p in payments)
        moves = ", ".join(
            f"{party(p.payee)} {'take' if p.payee == str(human) else 'takes'} {p.amount}"
            if p.payer == "pot"
            else f"{party(p.payer)} → {party(p.payee)} {p.amount}"
            for p in payments
        )
        if item == "stake":
            stakes = ", ".join(f"{_who(int(p.payer), human)} {p.amount}" for p in payments)
            base = "redeal stakes" if deal.table.redeal else "stakes"
            out.append(f"  {_cap(base)} into the pot: {stakes} (total {total}).")
            path = ("auction", "all_pass") if deal.table.redeal else ("settlement", "stakes")
            basis = rules.basis_at(path)
            if basis.cites:
                out.append(f"    [{_basis_text(basis)}]")
        elif item == "pot":
            where = {
                "side": "to the declarer"
                if len(deal.side) == 1
                else "to the declaring side, shared half and half"
                + (" (the odd counter to the declarer)" if total % 2 else ""),
                "opponents": "to the defenders, shared equally",
                "codille-winner": "to the defender who took the most tricks (codille)",
            }.get(outcome.pot if outcome else "", "")
            out.append(f"  The pot, {total}, goes {where}: {moves}.")
            if outcome is not None:
                out.append(f"    [{_basis_text(outcome.basis)}]")
            kept = s.table.remainder
            if outcome is not None and outcome.pot == "opponents" and kept:
                out.append(
                    f"  {_cap(_plural(kept, 'odd counter'))} that cannot be shared equally "
                    f"{'stays' if kept == 1 else 'stay'} on the table for whoever holds the "
                    "highest trump next deal."
                )
                raw = rules.value_at(("settlement", "codille_remainder_basis"))
                if raw is not None:
                    basis = Basis.from_data(raw, rules.locate(("settlement",)))
                    out += [f"    {line}" for line in [basis.note or ""] if line]
                    out.append(f"    [{_basis_text(basis)}]")
        elif item == "board":
            out.append(
                f"  The vole sweeps the board: everything on the table, {total}, goes to the "
                f"side: {moves}."
            )
            if outcome is not None:
                out.append(f"    [{_basis_text(outcome.basis)}]")
        elif item == "bête (renonce)":
            out.append(f"  Bête for a renonce (a revoke noticed): {moves}.")
            out += _rule_lines(rules, ("play", "renonce"))
        elif item.startswith("fee for"):
            out.append(f"  The {item}: {moves}.")
            out += _rule_lines(rules, ("declarations", "demand", "fee"))
        elif item.startswith("odd counters"):
            out.append(
                f"  Odd counters kept on the table from an earlier deal go to the holder of the "
                f"highest trump: {moves}."
            )
        elif item == "bête":
            losers = _join([_who(int(p.payer), human) for p in payments])
            puts = ", ".join(f"{_who(int(p.payer), human)} {p.amount}" for p in payments)
            out.append(
                f"  Bête {total}: the game is lost, so {losers} put{'' if len(payments) > 1 or losers == 'you' else 's'} "
                f"as much as was at stake on the table, to be played for next deal: {puts}."
            )
            out += _rule_lines(rules, ("settlement", "bete"))
        elif all(part in rules.items for part in item.split("+")):
            parts = []
            each = 0
            for part in item.split("+"):
                it = rules.items[part]
                value = it.value(contract, s.matadors)
                each += value
                parts.append(f"{it.name} {value if value or not it.in_play else 'in play'}")
            if each and len(parts) > 1:
                parts[-1] += f" = {each}"
            side = set(deal.side)
            paying_side = any(p.payer.isdigit() and int(p.payer) in side for p in payments)
            direction = (
                "the side pays each defender" if paying_side else "each defender pays the side"
            )
            out.append(f"  {' + '.join(parts)}: {direction}: {moves}.")
            basis = rules.items[item.split("+")[0]].basis
            if outcome is not None:
                basis = outcome.basis
            out.append(f"    [{_basis_text(basis)}]")
        else:
            out.append(f"  {_cap(item)}: {moves}.")
    return out


# The game.


@dataclass
class TableGame:
    """A party at the table: a human seat (or none, with ``auto``) and bots elsewhere.

    ``start`` is a record to go on from (``ombre play --from``): its finished deals are played
    again silently, an unfinished last deal is resumed where it stopped; a record whose deals
    are all finished is dealt again from the start, the same cards, for a new game.
    """

    rules: RuleSet
    human: int | None = 0
    seed: int = 1
    bots: str = "heuristic"
    deals: int = 1
    options: dict[str, str] = field(default_factory=dict)
    record_path: Path | None = None
    start: Record | None = None
    played: list[Deal] = field(default_factory=list)
    _bots: list[Bot] = field(default_factory=list, repr=False)
    _advisor: Bot | None = field(default=None, repr=False)
    _choices: list[Action] = field(default_factory=list, repr=False)
    _digest: str | None = field(default=None, repr=False)
    _kept: list[DealRecord] = field(default_factory=list, repr=False)

    # The party.

    def run(self, read: ReadLine, write: Write) -> int:
        """Plays the party; returns the exit status (0, or 130 when interrupted)."""
        rules = self.rules
        self._bots = [make_bot(self.bots, self.seed * 7919 + k) for k in range(rules.players)]
        self._advisor = make_bot("heuristic", 0)
        party = Party(rules, options=self.options, first_dealer=self._first_dealer())
        status = 0
        write = _wrapping(write)
        self._intro(write)
        resume = self._resuming()
        if self.start is not None:
            source = self.start.file
            n = len(self.start.deals)
            if resume:
                write(f"Going on with the unfinished game of {source}.")
            else:
                write(
                    f"{source} is a finished game: its {_plural(n, 'deal')} "
                    f"{'is' if n == 1 else 'are'} dealt again, the same cards, for a new game."
                )
        try:
            for i in range(self.deals):
                on_table = party.table
                deal = self._new_deal(party, i)
                self.played.append(deal)
                recorded: tuple[str, ...] = ()
                if resume and self.start is not None and i < len(self.start.deals):
                    recorded = self.start.deals[i].actions
                if recorded and i < len(self.start.deals if self.start else ()) - 1:
                    # A finished deal of the record: played again without a word.
                    for line_text in recorded:
                        seat, action = parse_line(line_text)
                        deal.apply(rules.canonical(action), seat=seat)
                    write(f"\nDeal {i + 1} of {self.deals} (from the record): {self._brief(deal)}")
                    continue
                self._header(deal, i, on_table, write)
                if recorded:
                    write(f"Resuming from the record: {_plural(len(recorded), 'action')} so far.")
                    for line_text in recorded:
                        seat, action = parse_line(line_text)
                        self._act(deal, seat, rules.canonical(action), write)
                    write("— now the game goes on —")
                if not self._play_deal(deal, read, write):
                    write("\nInput ended before the deal was finished.")
                    return self._save(write, status, final=True)
                for line in describe_result(deal, self.human):
                    write(line)
                if self.human is not None:
                    # A player's game is kept deal by deal; bots alone are kept at the end.
                    self._save(write, status, final=False)
            if self.deals > 1:
                write(
                    "\nTotals over the party: "
                    + " · ".join(
                        f"{_who(k, self.human)} {t:+d}" for k, t in enumerate(party.totals)
                    )
                    + f"; on the table: {party.table.pot}"
                )
        except _Quit:
            write("You left the table.")
        except KeyboardInterrupt:
            write("\nInterrupted.")
            status = 130
        return self._save(write, status, final=True)

    def _first_dealer(self) -> int:
        if self.start is not None and self.start.deals and self.start.deals[0].dealer:
            return self.start.deals[0].dealer
        return 0

    def _resuming(self) -> bool:
        """Checks if ``start`` ends with an unfinished deal (resume), rather than being a
        finished game (deal it again)."""
        if self.start is None:
            return False
        party = Party(self.rules, options=self.options, first_dealer=self._first_dealer())
        deal = None
        for d in self.start.deals:
            deal = party.new_deal(seed=d.seed, hands=d.hands, talon=d.talon)
            for line_text in d.actions:
                seat, action = parse_line(line_text)
                deal.apply(self.rules.canonical(action), seat=seat)
        return deal is not None and not deal.is_over

    def _new_deal(self, party: Party, i: int) -> Deal:
        if self.start is not None and i < len(self.start.deals):
            d = self.start.deals[i]
            return party.new_deal(seed=d.seed, hands=d.hands, talon=d.talon)
        # Deal i of the game is dealt with the seed SEED + i: `--seed 5` deals what a record's
        # `seed: 5` deals.
        return party.new_deal(seed=self.seed + i)

    def _save(self, write: Write, status: int, *, final: bool) -> int:
        if self.record_path is not None and self.played:
            self._write_record()
            if final:
                write(f"Record written to {self.record_path}")
                if not self.played[-1].is_over or len(self.played) < self.deals:
                    write(f"(go on with: ombre play --from {self.record_path})")
        return status

    def _sha256(self) -> str:
        if self._digest is None:
            self._digest = ruleset_sha256(self.rules)
        return self._digest

    def _write_record(self) -> None:
        assert self.record_path is not None
        rules = self.rules
        folder = self.record_path.resolve().parent
        # Beside the record (or below it): relative, so the two can move together; elsewhere,
        # absolute.
        source = Path(rules.file).resolve()
        try:
            shown = str(source.relative_to(folder))
        except ValueError:
            shown = str(source)
        table: dict[str, Any] = {"seed": self.seed, "bots": self.bots, "deals": self.deals}
        if self.human is not None:
            table = {"seat": self.human, **table}
        record = record_of(
            self.played[len(self._kept) :],
            rules.id,
            party=self.deals > 1 or len(self.played) > 1,
            ruleset_file=Path(shown).as_posix(),
            ruleset_sha256=self._sha256(),
            table=table,
        )
        # A finished deal's record does not change: made once.
        record = dataclasses.replace(
            record, deals=(*self._kept, *record.deals), options=dict(self.played[-1].options)
        )
        self._kept = [d for d, deal in zip(record.deals, self.played, strict=True) if deal.is_over]
        _write_atomically(self.record_path, write_record(record))

    # Telling what happens.

    def _intro(self, write: Write) -> None:
        rules = self.rules
        deck = set(rules.deck(self.options))
        _say(
            write,
            "table/deal.txt.j2",
            what="intro",
            rules=rules,
            human=self.human,
            bots=self.bots,
            seed=self.seed,
            options=self.options,
            chosen=rules.resolve_options(self.options),
            deck_size=len(deck),
            out=[c for c in rules.full_deck() if c not in deck],
            suits=list(Suit),
            all_cards=rules.full_deck(),
        )

    def _labels(self, deal: Deal) -> dict[int, str]:
        labels = {}
        for seat in range(deal.n):
            tags = []
            if seat == deal.dealer:
                tags.append("dealer")
            if seat == deal.eldest:
                tags.append("eldest")
            if seat == deal.declarer:
                tags.append("declarer")
            if seat == getattr(deal, "out", None):
                tags.append("sits this deal out")
            name = f"you (seat {seat})" if seat == self.human else f"seat {seat}"
            labels[seat] = name + (f" [{', '.join(tags)}]" if tags else "")
        return labels

    def _header(self, deal: Deal, i: int, table: Any, write: Write) -> None:
        human = self.human
        sits_out = human is not None and human == getattr(deal, "out", None)
        shows_hand = human is not None and not sits_out and deal.to_move != human
        _say(
            write,
            "table/deal.txt.j2",
            what="header",
            number=i + 1,
            deals=self.deals,
            dealer=deal.dealer,
            table=table,
            n=deal.n,
            bottom=human if human is not None else 0,
            labels=self._labels(deal),
            order=_in_turn(deal, deal.eldest),
            human=human,
            sits_out=sits_out,
            hand=self._hand(deal, human) if shows_hand and human is not None else None,
        )

    def _seats(self, deal: Deal, write: Write) -> None:
        bottom = self.human if self.human is not None else 0
        _say(
            write,
            "table/seats.txt.j2",
            n=deal.n,
            bottom=bottom,
            labels=self._labels(deal),
            order=_in_turn(deal, deal.eldest),
            human=self.human,
        )

    def _hand(self, deal: Deal, seat: int) -> str:
        hand = deal.hand(seat)
        groups: list[tuple[str, list[Card]]] = []
        trump = deal.view(seat)["trump"]
        trumps = set(deal.rules.trump_order(Suit.parse(trump), deal.options)) if trump else set()
        for card in hand:
            name = "trumps" if card in trumps else card.suit.value
            if not groups or groups[-1][0] != name:
                groups.append((name, []))
            groups[-1][1].append(card)
        return " · ".join(f"{name} {_cards(cards)}" for name, cards in groups) or "(no cards)"

    def _brief(self, deal: Deal) -> str:
        if deal.result == "redeal":
            return "all passed"
        assert deal.settlement is not None
        balances = " · ".join(
            f"{_who(k, self.human)} {b:+d}" for k, b in enumerate(deal.settlement.balances)
        )
        return f"{deal.result} ({_contract_words(self.rules, deal.contract.id if deal.contract else None)}); {balances}"

    def _side_known(self, deal: Deal) -> list[int] | None:
        """Returns the declaring side as the player knows it, or None while the partner is
        hidden from him."""
        if deal.declarer is None or deal.contract is None:
            return None
        if deal.contract.help != "call":
            return [deal.declarer]
        viewer = self.human
        if viewer is None:
            return deal.side
        view = deal.view(viewer)
        if view["partner"] is not None:
            return [deal.declarer, view["partner"]]
        called = view["called"]
        played = [c for t in view["tricks"] for c in t["cards"]] + list(view["trick"])
        if called is not None and called in played:
            return deal.side
        if (
            viewer == deal.declarer
            and deal.phase in ("play", "vole", "over")
            and deal.partner is None
        ):
            # He knows whether he called a card of his own.
            return [deal.declarer]
        return None

    def _tricks_line(self, deal: Deal) -> str:
        side = self._side_known(deal)
        out = getattr(deal, "out", None)
        return render(
            "table/tricks.txt.j2",
            "text",
            what="tricks",
            won=deal.won,
            human=self.human,
            declarer=deal.declarer,
            side=side,
            others=[k for k in range(deal.n) if side is not None and k not in side and k != out],
            called=deal.view(self.human if self.human is not None else 0)["called"]
            if deal.declarer is not None and side is None
            else None,
        ).rstrip("\n")

    def _trick_line(self, deal: Deal, index: int) -> str:
        trick = deal.tricks[index]
        seats = _in_turn(deal, trick.leader)
        return render(
            "table/tricks.txt.j2",
            "text",
            what="trick",
            number=index + 1,
            plays=list(zip(seats, trick.cards, strict=False)),
            winner=trick.winner,
            best=trick.cards[seats.index(trick.winner)],
            human=self.human,
        ).rstrip("\n")

    def _act(self, deal: Deal, seat: int, action: Action, write: Write) -> None:
        """Applies an action and tells the table what it may see of it."""
        phase = deal.phase
        tricks_before = len(deal.tricks)
        deal.apply(action, seat=seat)
        human = self.human
        rules = self.rules
        me = seat == human
        who = _who(seat, human)
        if phase == "auction":
            if action.verb == "pass":
                write(f"{_cap(_verb(seat, human, 'pass', 'passes'))}.")
            else:
                write(
                    f"{_cap(_verb(seat, human, 'bid', 'bids'))} "
                    f"{_contract_words(rules, action.contract)}."
                )
                if deal.phase == "match":
                    overcalled = deal.to_move
                    write(
                        "  That overcalls you: you may take it yourself (forcé) and be "
                        "preferred, or pass."
                        if overcalled == human
                        else f"  That overcalls {_who(overcalled, human)}, who may take it "
                        "himself (forcé) and be preferred, or pass."
                    )
        elif phase == "match":
            if action.verb == "pass":
                write(f"{_cap(_verb(seat, human, 'let', 'lets'))} the overcall stand.")
            else:
                write(
                    f"{_cap(_verb(seat, human, 'take', 'takes'))} it "
                    f"{'yourself' if me else 'himself'} (forcé): "
                    f"{_contract_words(rules, action.contract)}, preferred to the overcall."
                )
        elif phase == "trump":
            write(
                f"{_cap(_verb(seat, human, 'name', 'names'))} {action.suit.value if action.suit else ''} trumps."
            )
        elif phase == "call":
            self._tell_call(deal, seat, action.card, write)
        elif phase == "give":
            self._tell_give(deal, seat, action.card, write)
        elif phase == "exchange":
            _, discarded, drawn = deal.exchanges[-1]
            left = deal.view(seat)["talon"]
            if me or human is None:
                write(
                    f"{_cap(who)} discard{'' if me else 's'} "
                    f"{_cards([ALL_CARDS[c] for c in discarded]) or 'nothing'}"
                    + (
                        f" and draw{'' if me else 's'} {_cards([ALL_CARDS[c] for c in drawn])}"
                        if drawn
                        else " and keep the hand"
                    )
                    + f" ({_plural(left, 'card')} left in the talon)."
                )
            else:
                n = len(discarded)
                write(
                    f"{_cap(who)} discards {_plural(n, 'card')} and draws {n} from the talon "
                    f"({_plural(left, 'card')} left)."
                )
        elif phase == "play":
            write(f"{_cap(_verb(seat, human, 'play', 'plays'))} {action.card}.")
        elif phase == "vole":
            if action.verb == "vole":
                write(
                    f"{_cap(_verb(seat, human, 'undertake', 'undertakes'))} the vole: the side "
                    "must now take every trick."
                )
            else:
                write(
                    f"{_cap(_verb(seat, human, 'lay', 'lays'))} down rather than play on for the "
                    "vole: the side takes the game as it stands."
                )
        if phase in ("auction", "match") and deal.phase not in ("auction", "match"):
            self._tell_declarer(deal, write)
        if len(deal.tricks) > tricks_before:
            write("  " + self._trick_line(deal, len(deal.tricks) - 1))
            if not deal.is_over and human is None:
                write("  " + self._tricks_line(deal).replace("\n", "\n  "))
        if phase not in ("play", "vole") and deal.phase == "play" and not deal.tricks:
            write(
                f"Play begins: {_who(deal.to_move, human)} lead{'' if deal.to_move == human else 's'} the first trick."
            )

    def _tell_declarer(self, deal: Deal, write: Write) -> None:
        human = self.human
        rules = self.rules
        if deal.is_over or deal.declarer is None or deal.contract is None:
            return
        d = deal.declarer
        contract = _contract_words(rules, deal.contract.id)
        if deal.forced:
            card = _card_named(rules, rules.all_pass_card)
            if d == human:
                write(
                    f"Everybody passed, and you hold {card}: you must play — {contract}. "
                    "You name trumps, then call a king as partner."
                    if deal.contract.help == "call"
                    else f"Everybody passed, and you hold {card}: you must play — {contract}."
                )
            else:
                write(
                    f"Everybody passed. {_cap(_who(d, human))} holds {card} and must play: "
                    f"{contract}."
                )
            for line in _rule_lines(rules, ("auction", "all_pass")) + _rule_lines(
                rules, ("auction", "contracts", deal.contract.id)
            ):
                write(line)
            return
        write(
            f"The auction is over: {_who(d, human)} {'play' if d == human else 'plays'} {contract}."
        )

    def _tell_call(self, deal: Deal, seat: int, card: Card, write: Write) -> None:
        human = self.human
        assert deal.contract is not None
        holder = deal.demanded_from
        help_ = deal.contract.help
        if help_ != "call":
            assert holder is not None
        shows_hand = help_ != "call" and human is not None and human in (seat, holder)
        _say(
            write,
            "table/events.txt.j2",
            what="call",
            help=help_,
            seat=seat,
            holder=holder,
            partner=deal.partner,
            card=card,
            human=human,
            hand=self._hand(deal, human) if shows_hand and human is not None else None,
        )

    def _tell_give(self, deal: Deal, seat: int, card: Card, write: Write) -> None:
        human = self.human
        holder = deal.demanded_from
        view = deal.view(human if human is not None else seat)
        _say(
            write,
            "table/events.txt.j2",
            what="give",
            seat=seat,
            holder=holder,
            card=card,
            called=view["called"],
            shown=holder == human or view["given"] is not None or human is None,
            human=human,
            hand=self._hand(deal, human) if human is not None and human == holder else None,
        )

    # Turns.

    def _play_deal(self, deal: Deal, read: ReadLine, write: Write) -> bool:
        while not deal.is_over:
            seat = deal.to_move
            if seat == self.human:
                if self._human_turn(deal, seat, read, write) is None:
                    return False
                self._save(write, 0, final=False)
            else:
                self._act(deal, seat, self._bots[seat].choose(deal, seat), write)
        return True

    def _legal(self, deal: Deal) -> list[Action]:
        """Returns the legal actions in the order shown: cards as the hand is sorted."""
        if deal.phase == "exchange":
            return []
        legal = list(deal.legal_actions())
        if deal.phase in ("play", "give", "call"):
            order = {c: i for i, c in enumerate(deal.hand(deal.to_move))}
            legal.sort(key=lambda a: (order.get(a.card, 99), a.card.suit.index, a.card.rank.index))
        return legal

    def _label(self, action: Action) -> str:
        if action.verb == "play":
            return str(action.card)
        if action.verb == "bid":
            c = self.rules.contracts.get(action.contract or "")
            return f"bid {action.contract}" + (f" ({c.name})" if c else "")
        return str(action)

    def _prompt(self, deal: Deal, seat: int) -> str:
        rules = self.rules
        view = deal.view(seat)
        phase = deal.phase
        if phase == "auction":
            standing = [a for a in view["auction"] if " bid " in a]
            if standing:
                s, _, cid = standing[-1].split(" ", 2)
                return (
                    f"Your speech: pass, or bid a contract above "
                    f"{_contract_words(rules, cid)} ({_who(int(s), seat)})"
                )
            return "Your speech: pass, or bid a contract"
        if phase == "match":
            over = [a for a in view["auction"] if " bid " in a][-1]
            s, _, cid = over.split(" ", 2)
            return (
                f"{_cap(_who(int(s), seat))} overcalled you with "
                f"{rules.contracts[cid].name}: take it yourself (forcé: you are then "
                f"preferred), or pass and let {_who(int(s), seat)} play it"
            )
        if phase == "trump":
            return "Name trumps"
        if phase == "call":
            assert deal.contract is not None
            if deal.contract.help == "call":
                return "Call a card: its holder becomes your partner (in secret)"
            return "Demand a card of another player: you will give him one of yours for it"
        if phase == "give":
            return f"Give {_who(deal.demanded_from, seat)} a card for {view['called']}"
        if phase == "exchange":
            most = deal.exchange_limit()
            return (
                f"Your écart: discard up to {most} and draw as many from the talon "
                f"({view['talon']} there)"
            )
        if phase == "vole":
            return (
                "Your side has taken every trick so far: 'vole' to play on for all of them "
                "(and lose if you miss one), or 'stop' to lay down and take the game"
            )
        if not view["trick"]:
            return f"Your lead (trick {len(view['tricks']) + 1})"
        led = Card.parse(view["trick"][0])
        trump = view["trump"]
        follows = (
            "trumps"
            if trump and led in rules.trump_order(Suit.parse(trump), deal.options)
            else led.suit.value
        )
        return f"Your play (trick {len(view['tricks']) + 1}; {follows} led)"

    def _show(self, deal: Deal, seat: int, write: Write) -> None:
        view = deal.view(seat)
        rules = self.rules
        write("")
        if view["contract"]:
            parts = [
                f"{rules.contracts[view['contract']].name} by {_who(view['declarer'], seat)}",
            ]
            if view["trump"]:
                parts.append(f"trumps {view['trump']}")
            if view["called"]:
                side = self._side_known(deal)
                if deal.contract is not None and deal.contract.help == "call":
                    known = (
                        f" (partner: {_join([_who(k, seat) for k in side if k != deal.declarer]) or 'none, alone'})"
                        if side is not None
                        else " (partner not known yet)"
                    )
                else:
                    known = f" (demanded of {_who(view['demanded_from'], seat)})"
                parts.append(f"called {view['called']}{known}")
            if view["given"]:
                parts.append(f"card given for it {view['given']}")
            write("Contract: " + " · ".join(parts))
        elif view["auction"]:
            said = []
            for entry in view["auction"]:
                s, _, what = entry.partition(" ")
                said.append(
                    f"{_who(int(s), seat)} {what.replace('bid ', 'bid ') if what != 'pass' else 'passed'}"
                )
            write("Auction so far: " + ", ".join(said))
        else:
            write("You speak first.")
        if deal.phase in ("play", "vole"):
            write(self._tricks_line(deal))
        if view["trick"]:
            leader = view["trick_leader"]
            plays = " · ".join(
                f"{_who(k, seat)} {c}"
                for k, c in zip(_in_turn(deal, leader), view["trick"], strict=False)
            )
            write(f"On the table: {plays}")
        write(f"Your hand: {self._hand(deal, seat)}")
        card = rules.all_pass_card
        if (
            deal.phase == "auction"
            and rules.all_pass == "forced"
            and card is not None
            and card in deal.hand(seat)
            and not any(" bid " in a for a in view["auction"])
        ):
            write(
                f"Note: you hold {_card_named(rules, card)}. If everybody passes, you must play "
                f"{_contract_words(rules, rules.all_pass_contract)}."
            )
        write(f"{self._prompt(deal, seat)}:")
        legal = self._choices = self._legal(deal)
        if deal.phase == "exchange":
            most = deal.exchange_limit()
            example = " ".join(view["hand"][-min(2, most) :]) if most else ""
            write(
                "  type the cards to discard"
                + (f", e.g. '{example}'" if example else "")
                + ", or 'discard' alone to keep your hand"
            )
        elif len(legal) == 1:
            write(f"  only one choice: {self._label(legal[0])} — press Enter to take it")
        else:
            for line in self._choice_lines(legal, "  "):
                write(line)

    def _choice_lines(self, legal: Sequence[Action], head: str) -> list[str]:
        """Returns the numbered choices, as many to a line as fit."""
        lines = [head.rstrip() + " "] if head.strip() else ["  "]
        for k, action in enumerate(legal):
            item = f"{k + 1}) {self._label(action)}"
            if len(lines[-1]) + len(item) > _WIDTH and lines[-1].strip():
                lines.append("    ")
            lines[-1] += ("  " if lines[-1].strip() and not lines[-1].endswith(": ") else "") + item
        return [line.rstrip() for line in lines]

    def completions(self) -> list[str]:
        """Returns the words a player may type now (for the terminal's Tab completion)."""
        words = [str(a) for a in self._choices] + [self._label(a) for a in self._choices]
        return sorted(set(words)) + list(COMMANDS)

    def _human_turn(self, deal: Deal, seat: int, read: ReadLine, write: Write) -> Action | None:
        self._show(deal, seat, write)
        while True:
            answer = read("> ")
            if answer is None:
                return None
            answer = answer.strip()
            legal = self._choices
            word = answer.lower()
            if not answer:
                if len(legal) == 1:
                    self._act(deal, seat, legal[0], write)
                    return legal[0]
                write("Type a number, an action, or ? for help.")
                continue
            if word in ("?", "help", "h"):
                self._help(deal, seat, write)
                continue
            if word == "last":
                tricks = deal.tricks
                write(self._trick_line(deal, len(tricks) - 1) if tricks else "No trick yet.")
                continue
            if word == "tricks":
                for k in range(len(deal.tricks)):
                    write(self._trick_line(deal, k))
                write(self._tricks_line(deal) if deal.declarer is not None else "No trick yet.")
                continue
            if word == "seats":
                self._seats(deal, write)
                continue
            if word == "quit":
                raise _Quit
            try:
                if answer.isascii() and answer.isdigit() and deal.phase != "exchange":
                    k = int(answer)
                    if not 1 <= k <= len(legal):
                        write(f"Choose 1 to {len(legal)}.")
                        continue
                    action = legal[k - 1]
                else:
                    if deal.phase == "exchange" and not word.startswith("discard"):
                        answer = "discard " + answer
                    action = self.rules.canonical(Action.parse(answer))
                # The referee refuses an illegal action before anything is told, and leaves
                # the deal as it was.
                self._act(deal, seat, action, write)
                return action
            except IllegalActionError as exc:
                reason = _second_person(exc.detail, seat)
                rule = f" ({exc.rule})" if exc.rule else ""
                write(f"Refused: {reason}{rule} [{exc.code}]. Type ? for your choices.")
            except NotationError as exc:
                write(f"Not understood: {exc}. Type a number, an action, or ? for help.")

    def _help(self, deal: Deal, seat: int, write: Write) -> None:
        rules = self.rules
        phase = deal.phase
        write(f"Help — {self._prompt(deal, seat)}.")
        legal = self._choices
        if phase == "exchange":
            write(
                f"  You may discard 0 to {deal.exchange_limit()} of your cards; you draw as "
                "many from the top of the talon."
            )
        else:
            for line in self._choice_lines(legal, "  Your choices: "):
                write(line)
        rule_paths: dict[str, list[tuple[str, ...]]] = {
            "auction": [("auction",)],
            "match": [
                ("auction", "contracts", c.id) for c in rules.contracts.values() if c.matchable
            ],
            "trump": [("declarations", "trump")],
            "give": [("declarations", "demand")],
            "exchange": [("exchange",)],
            "play": [("play",), ("matadors", "privilege")],
            "vole": [("vole",)],
        }
        paths = rule_paths.get(phase, [])
        if phase == "play":
            held = len(deal.hand(seat))
            if len(legal) < held:
                led = deal.view(seat)["trick"][0]
                write(
                    f"  Of your {held} cards, {len(legal)} may be played now: "
                    f"{_cards([a.card for a in legal])} — {led} was led, and you must follow "
                    "if you can (the rules below)."
                )
            else:
                write(f"  Any of your {held} cards may be played now.")
        if phase == "call" and deal.contract is not None:
            paths = [("declarations", "call" if deal.contract.help == "call" else "demand")]
        if phase == "auction":
            write("  Contracts, lowest first (a bid must outrank the bid standing):")
            for c in sorted(rules.contracts.values(), key=lambda c: c.rank):
                if c.biddable:
                    how = {
                        "none": "you play alone",
                        "call": "you name trumps and call a king: its holder is your partner",
                        "demand": "you demand a king of its holder for a card and play alone",
                    }.get(c.help, c.help)
                    allowed = deal.trump_choices(c)
                    if len(allowed) < len(deal.trump_choices(None)):
                        suits = [x.value for x in Suit if x.index in allowed]
                        how += f"; trumps {' or '.join(suits) or 'none possible'}"
                    if c.exchange == "declarer-first":
                        how += ", after an écart with the talon"
                    elif c.exchange == "others-only":
                        how += " without an écart (the others still take from the talon)"
                    aliases = (
                        "; also: " + ", ".join(f"bid {a}" for a in c.aliases) if c.aliases else ""
                    )
                    for line in _wrap(f"bid {c.id} — {c.name}: {how}{aliases}", "    "):
                        write(line)
        for path in paths:
            lines = _rule_lines(rules, path)
            if lines:
                write(f"  The rule ({'.'.join(path)}):")
                for line in lines:
                    write(line)
        if phase in ("play", "vole") and deal.contract is not None:
            write("  Results:")
            for r in rules.results:
                write(f"    {r.result}: {r.when.describe()}")
        advice = self._advice(deal, seat)
        if advice:
            write(advice)
        if phase == "exchange":
            how = "Answer with the cards to discard ('discard 5c 4d' or '5c 4d'), or 'discard'"
            how += " alone to keep your hand."
        else:
            how = (
                f"Answer with a number, an action ('{legal[-1]}'), or Enter when there is only "
                "one choice."
            )
        for line in _wrap(
            f"{how} Commands: last (the previous trick), tricks (all of them), seats, quit "
            "(the record is kept; go on later with --from)."
        ):
            write(line)

    def _advice(self, deal: Deal, seat: int) -> str:
        advisor = self._advisor
        if advisor is None:
            return ""
        advise = getattr(advisor, "advise", None)
        reason = ""
        if advise is not None:
            action, reason = advise(deal, seat)
        else:
            action = advisor.choose(deal, seat)
        shown = str(action) if action.verb == "play" else self._label(action)
        if action.verb == "discard" and not action.cards:
            shown = "discard nothing"
        return f"  The heuristic bot would {shown}" + (f": {reason}" if reason else ".")

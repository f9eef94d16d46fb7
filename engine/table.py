"""Playing at the table: one human seat against bots, at the terminal (``ombre play``).

At every turn the player sees only what the seat may see (:meth:`Deal.view`): the hand
sorted in the current ranking, the auction, trumps and the called card, the trick on the
table, tricks taken, and the numbered legal choices. An answer is an action in record notation
(``Kd``, ``play Kd``, ``bid ask``, ``pass``) or the number of a choice; an illegal answer is
refused with the rule it breaks and asked again. Input may be piped, one answer per line.
The record is written at the end, and also when input ends early.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from engine.actions import Action
from engine.bots import make_bot
from engine.errors import IllegalActionError, NotationError
from engine.model import RuleSet
from engine.party import Party
from engine.records import record_of, write_record
from engine.referee import Deal

__all__ = ["TableGame", "describe_result"]

ReadLine = Callable[[str], str | None]
Write = Callable[[str], None]

_PHASE_WORDS = {
    "auction": "Your speech",
    "match": "You were overcalled: take it yourself, or pass",
    "trump": "Name trumps",
    "call": "Call (or demand) a card",
    "give": "Give a card in exchange",
    "exchange": "Your écart: discard and draw as many",
    "play": "Your play",
    "vole": "You have every trick so far: play on for the vole, or stop",
}


def _choices(deal: Deal) -> list[Action]:
    """Returns the legal actions in the order shown: cards as the hand is sorted."""
    legal = list(deal.legal_actions())
    if deal.phase in ("play", "give", "call"):
        order = {c: i for i, c in enumerate(deal.hand(deal.to_move))}
        legal.sort(key=lambda a: (order.get(a.card, 99), a.card.suit.index, a.card.rank.index))
    return legal


def _seat_name(seat: int, human: int | None) -> str:
    return "you" if seat == human else f"seat {seat}"


def describe_result(deal: Deal, human: int | None = None) -> list[str]:
    """Returns the lines announcing a finished deal's result and payments."""
    lines = []
    s = deal.settlement
    if deal.result == "redeal":
        lines.append("All passed: the deal is void and dealt again.")
    else:
        assert deal.declarer is not None and deal.contract is not None
        side = " and ".join(_seat_name(x, human) for x in deal.side)
        taken = sum(deal.won[x] for x in deal.side)
        lines.append(
            f"Result: {deal.result} — {deal.contract.name} by {_seat_name(deal.declarer, human)};"
            f" {side} took {taken} of {len(deal.tricks)} tricks"
            + (" (laid down)" if deal.stopped else "")
        )
    if s is not None:
        if s.matadors:
            lines.append(f"Matadors: {s.matadors}")
        if s.bete:
            lines.append(f"Bête: {s.bete}")
        for p in s.payments:
            payer = "the pot" if p.payer == "pot" else _seat_name(int(p.payer), human)
            payee = "the pot" if p.payee == "pot" else _seat_name(int(p.payee), human)
            lines.append(f"  {p.item}: {payer} → {payee} {p.amount}")
        balances = ", ".join(f"{_seat_name(k, human)} {b:+d}" for k, b in enumerate(s.balances))
        lines.append(f"Balances: {balances}; on the table: {s.pot_after}")
    return lines


@dataclass
class TableGame:
    """A party at the table: a human seat (or none, with ``auto``) and bots elsewhere."""

    rules: RuleSet
    human: int | None = 0
    seed: int = 1
    bots: str = "heuristic"
    deals: int = 1
    options: dict[str, str] = field(default_factory=dict)
    record_path: Path | None = None
    played: list[Deal] = field(default_factory=list)

    def run(self, read: ReadLine, write: Write) -> int:
        """Plays the party; returns the exit status (0, or 130 when interrupted)."""
        rules = self.rules
        bots = [make_bot(self.bots, self.seed * 7919 + k) for k in range(rules.players)]
        party = Party(rules, options=self.options)
        status = 0
        try:
            for i in range(self.deals):
                on_table = party.table.pot
                deal = party.new_deal(seed=self.seed * 1_000_003 + i)
                self.played.append(deal)
                write(
                    f"\n=== {rules.name} — deal {i + 1} of {self.deals}; dealer: "
                    f"{_seat_name(deal.dealer, self.human)}; on the table: {on_table} ==="
                )
                if self.human is not None:
                    write("Your hand: " + " ".join(str(c) for c in deal.hand(self.human)))
                if not self._play_deal(deal, bots, read, write):
                    write("\nInput ended before the deal was finished.")
                    return self._save(write, status)
                for line in describe_result(deal, self.human):
                    write(line)
            if self.deals > 1:
                write(
                    "Totals: "
                    + ", ".join(
                        f"{_seat_name(k, self.human)} {t:+d}" for k, t in enumerate(party.totals)
                    )
                    + f"; on the table: {party.table.pot}"
                )
        except KeyboardInterrupt:
            write("\nInterrupted.")
            status = 130
        return self._save(write, status)

    def _save(self, write: Write, status: int) -> int:
        if self.record_path is not None and self.played:
            record = record_of(self.played, self.rules.id, party=self.deals > 1)
            self.record_path.write_text(write_record(record), encoding="utf-8")
            write(f"Record written to {self.record_path}")
        return status

    def _play_deal(self, deal: Deal, bots: list, read: ReadLine, write: Write) -> bool:  # type: ignore[type-arg]
        last_tricks = 0
        while not deal.is_over:
            seat = deal.to_move
            if seat == self.human:
                if not self._human_turn(deal, seat, read, write):
                    return False
            else:
                action = bots[seat].choose(deal, seat)
                deal.apply(action)
                write(f"{_seat_name(seat, self.human)}: {self._public(deal, action)}")
            if len(deal.tricks) > last_tricks:
                trick = deal.tricks[-1]
                last_tricks = len(deal.tricks)
                write(
                    f"  trick {last_tricks}: {' '.join(str(c) for c in trick.cards)}"
                    f" — won by {_seat_name(trick.winner, self.human)}"
                    f" (tricks: {' '.join(str(w) for w in deal.won)})"
                )
        return True

    def _public(self, deal: Deal, action: Action) -> str:
        """Returns a bot's action as the human seat may see it (everything, with --auto)."""
        if self.human is None:
            return str(action)
        if action.verb == "discard":
            n = len(action.cards)
            return f"discards {n} card{'' if n == 1 else 's'} and takes {n} from the talon"
        if action.verb == "give" and deal.view(self.human)["given"] is None:
            return f"gives a card to {_seat_name(deal.demanded_from or 0, self.human)}"
        return str(action)

    def _show(self, deal: Deal, seat: int, write: Write) -> None:
        view = deal.view(seat)
        write("")
        if view["trump"]:
            called = f"; called {view['called']}" if view["called"] else ""
            partner = view["partner"]
            known = (
                f" (partner: {_seat_name(partner, seat)})"
                if partner is not None and partner != seat
                else ""
            )
            assert view["declarer"] is not None
            write(
                f"Trumps: {view['trump']}; {view['contract']} by "
                f"{_seat_name(view['declarer'], seat)}{called}{known}"
            )
        elif view["auction"]:
            write("Auction: " + ", ".join(view["auction"]))
        if view["given"]:
            write(f"Card given in exchange: {view['given']}")
        if view["trick"]:
            write(
                f"On the table (led by {_seat_name(view['trick_leader'], seat)}): "
                + " ".join(view["trick"])
            )
        write(f"Your hand: {' '.join(view['hand'])}")
        write(f"Tricks taken: {' '.join(str(w) for w in view['tricks_won'])}")
        write(f"{_PHASE_WORDS.get(view['phase'], view['phase'])}:")
        legal = _choices(deal)
        if deal.phase == "exchange":
            most = deal.exchange_limit()
            example = " ".join(view["hand"][-min(2, most) :]) if most else ""
            write(
                f"  discard up to {most} cards"
                + (f", e.g. 'discard {example}'" if example else "")
                + ", or 'discard' to keep your hand"
            )
        else:
            write("  " + "  ".join(f"{k + 1}) {a}" for k, a in enumerate(legal)))

    def _human_turn(self, deal: Deal, seat: int, read: ReadLine, write: Write) -> bool:
        self._show(deal, seat, write)
        while True:
            answer = read("> ")
            if answer is None:
                return False
            answer = answer.strip()
            if not answer:
                continue
            legal = _choices(deal)
            try:
                if answer.isdigit() and deal.phase != "exchange":
                    k = int(answer)
                    if not 1 <= k <= len(legal):
                        write(f"Choose 1 to {len(legal)}.")
                        continue
                    action = legal[k - 1]
                else:
                    if deal.phase == "exchange" and not answer.lower().startswith("discard"):
                        answer = "discard " + answer
                    action = Action.parse(answer)
                deal.apply(action, seat=seat)
                return True
            except IllegalActionError as exc:
                write(f"Refused: {exc} [{exc.code}]")
            except NotationError as exc:
                write(f"Not understood: {exc}")

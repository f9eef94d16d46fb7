"""Entries for the scorekeeper's tests, shared by the test modules that score them."""

from __future__ import annotations

import random
from typing import Any

from engine.actions import Action
from engine.cards import Card
from engine.enums import Help
from engine.referee import Deal, Phase
from engine.referee.held import paid_cards
from engine.referee.laws import SCORED_LAWS
from engine.referee.result import trump_holders
from engine.referee.settlement import MISDEAL
from engine.rules.model import RuleSet


def quadrille_entry(**changes: object) -> dict[str, object]:
    """Returns a Quadrille deal as the scorekeeper's form takes it: seat 1 asks in clubs,
    calls the king of diamonds that seat 3 holds, and the side takes 6 tricks of 10 (no
    matadors, no vole); ``changes`` replace any field."""
    base: dict[str, object] = {
        "contract": "ask",
        "declarer": 1,
        "trump": "clubs",
        "called": "Kd",
        "holder": 3,
        "tricks": [1, 3, 3, 3],
        "matadors": 0,
        "vole": False,
    }
    base.update(changes)
    return base


# Deals played by the referee, and what a scorekeeper at the table writes down for them: shared
# by tests/test_scorekeeper_every_contract.py (every contract) and
# tests/test_entered_equals_played.py (every law, at both scorekeepers).

LAW_VERBS = (
    "expose",
    "out-of-turn",
    "show",
    "turn-hand",
    "lay-down",
    "misdeal",
    "extra-card",
    "retake",
)
"""The irregularities :func:`steered` can have a seat commit (``law=``), each the record verb of
a law of the table the rule file may declare (``laws:``)."""


def steered(
    rules: RuleSet, contract: str, rng: random.Random, law: str | None = None, **deal: Any
) -> Deal:
    """Plays a deal in which every seat bids ``contract`` when it may and passes otherwise; the
    rest (trumps, calls, exchanges, cards, the vole) at random among the legal actions. Where
    the rules penalise the renonce, a seat now and then revokes (two at most in a deal, found
    at the end or pointed out, at most once, taking the trick back): a random player left to
    revoke at will might revoke for ever.

    ``law``: one of :data:`LAW_VERBS`, committed once by a seat at random where the referee
    accepts it (its :meth:`~engine.referee.Deal.declarable`); ``"renonce2"``, two renonces
    found at the end (none pointed out; so too before ``retake``, the cards taken back);
    ``"notice"``, a renonce pointed out."""
    d = Deal(rules, **deal)
    revoked = noticed = 0
    pending = law in LAW_VERBS
    for _ in range(2000):
        # (A hand laid down unnamed has one moment, before trumps are named: taken when it
        # comes; the others come at a moment at random.)
        now = pending and (law == "lay-down" or rng.random() < 0.3)
        if now and _commit(d, law or "", rng):
            pending = False
            continue
        if d.is_over:
            return d
        legal = list(d.legal_actions())
        texts = [str(a) for a in legal]
        if f"bid {contract}" in texts:
            action: Action = legal[texts.index(f"bid {contract}")]
        elif d.phase is Phase.AUCTION and "pass" in texts:
            action = legal[texts.index("pass")]
        else:
            plain = [a for a in legal if a.verb not in ("renonce", "notice")]
            revokes = [a for a in legal if a.verb == "renonce"]
            notices = [a for a in legal if a.verb == "notice"]
            if law in ("renonce2", "retake"):
                if revokes and revoked < 2 and rng.random() < 0.5:
                    action = rng.choice(revokes)
                    revoked += 1
                else:
                    action = rng.choice(plain or legal)
            elif law == "notice" and notices and noticed < 1:
                action = rng.choice(notices)
                noticed += 1
            elif law == "notice" and revokes and revoked < 1 and rng.random() < 0.5:
                action = rng.choice(revokes)
                revoked += 1
            elif law is None and notices and noticed < 1 and rng.random() < 0.2:
                action = rng.choice(notices)  # pointed out: the trick is taken back
                noticed += 1
            elif law is None and revokes and revoked < 2 and rng.random() < 0.1:
                action = rng.choice(revokes)
                revoked += 1
            else:
                action = rng.choice(plain or legal)
        d.apply(action)
    raise AssertionError(f"{rules.id}: the deal did not end")  # pragma: no cover


def _commit(d: Deal, verb: str, rng: random.Random) -> bool:
    """Has a seat at random commit the irregularity ``verb`` if the referee accepts it now (a
    renonce's cards taken back only once the deal is over); returns whether one did."""
    if (verb == "retake") != d.is_over:
        return False
    if verb == "turn-hand" and not d.played_tricks:
        return False  # (turned up once some tricks lie on the table, as at a real one)
    offers = [(seat, a) for seat in range(d.n) for a in d.declarable(seat) if a.verb == verb]
    if not offers:
        return False
    seat, action = rng.choice(offers)
    d.apply(action, seat)
    return True


def _declared(d: Deal) -> list[dict[str, Any]]:
    """The irregularities of the play that change the score, as the scorekeeper writes them:
    who, under which law, whose hand he turned up, and his side's tricks when he showed his
    cards (counted over the tricks played before)."""
    side = set(d.side)
    out: list[dict[str, Any]] = []
    for event in d.irregularities:
        if event.law not in SCORED_LAWS:
            continue
        item: dict[str, Any] = {"seat": event.seat, "law": event.law}
        if event.law == "turned_hand":
            item["hand"] = event.action.seat
        elif event.law == "shown_cards":
            mine = side if event.seat in side else {s for s in range(d.n) if s not in side}
            before = d.played_tricks[: max(event.trick, 0)]
            item["side_tricks"] = sum(1 for *_, winner in before if winner in mine)
        out.append(item)
    return out


def written_down(d: Deal) -> dict[str, Any]:
    """Returns what a scorekeeper at the table writes down for the finished deal ``d`` (the
    facts the players know when the cards are thrown in; never the cards)."""
    rules = d.rules
    faults = [{"seat": s, "fault": f} for s, f in d.faults]
    if d.result == "redeal":
        return {"passed": True, **({"penalties": faults} if faults else {})}
    if d.result == MISDEAL:
        void = d.deal_irregular
        return {"extra_card": void.extra_card} if void.fault is None else {"misdeal": void.fault}
    report = d.report()
    contract = rules.contracts[report["contract"]]
    # The auction's winner (a defender who went on for the vole became the declarer).
    won_by = d.holder if d.holder is not None else d.declarer
    out: dict[str, Any] = {
        "contract": contract.id,
        "declarer": won_by,
        "tricks": list(d.won),
        "matadors": d.paid_matadors(),
        "vole": d.vole_undertaken,
    }
    if d.vole_undertaken and d.declarer != won_by:
        out["vole_by"] = d.declarer
    if report["trump"] is not None:
        out["trump"] = report["trump"]
    if report["called"] is not None:
        out["called"] = report["called"]
        if d.demanded_from is not None:
            out["holder"] = d.demanded_from
            if contract.help is Help.CALL:
                out["surrendered"] = True
        else:
            card = Card.parse(report["called"]).index
            out["holder"] = next((s for s in range(d.n) if d.start_hands[s] >> card & 1), won_by)
    held = {}
    for paid in paid_cards(rules):
        holder = next((s for s in range(d.n) if d.start_hands[s] >> paid.index & 1), None)
        if holder is not None:
            held[str(paid)] = holder
    if held:
        out["held"] = held
    if d.table.remainder:
        holders = trump_holders(d)
        if holders:
            out["highest_trump"] = holders[0]
    if d.rules.codille_remainder == "highest-trumps":
        out["trump_holders"] = list(trump_holders(d))
    if contract.all_play is not None:
        most = max(d.won)
        tied = {s for s in range(d.n) if d.won[s] == most}
        if len(tied) > 1:
            out["latest_of_tied"] = next(t.winner for t in reversed(d.tricks) if t.winner in tied)
    if report.get("renonces"):
        out["renonces"] = report["renonces"]
    if d.deal_irregular.unclaimed:
        out["unclaimed"] = list(d.deal_irregular.unclaimed)
    declared = _declared(d)
    if declared:
        out["irregularities"] = declared
    if faults:
        out["penalties"] = faults
    return out

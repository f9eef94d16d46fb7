"""One referee for every deal, played or entered: every declared law, at both scorekeepers.

For every rule file and variant of the registry, deals are played by the referee one after
another as a party (seeded; the auction steered to a contract at random, the rest at random
among the legal actions), one deal for each law of the table the file declares, committed by a
seat at random where the referee accepts it (a card exposed, a card played out of turn, cards
shown, a hand turned up, a hand laid down without naming trumps, a misdeal, a card too many,
the cards taken back after several renonces, items not claimed), and, where the renonce is
penalised, a deal with two renonces found at the end and one with a renonce pointed out.

Each finished deal is written down as a scorekeeper writes it (tests/scorekeeper_helpers.py's
``written_down``: no cards) and entered three ways: read by :func:`parse_entry` into an
:class:`Evening`, typed at ``ombre score`` (the terminal's questions, answered), and posted on
the web scorekeeper's form. Each must settle the deal as the referee did (result, every seat's
balance, what is left on the table): the scorekeepers never referee again, they ask the same
referee. A declared law whose facts a scorekeeper cannot enter, or settles otherwise, fails.
"""

from __future__ import annotations

import random
import re
from functools import cache
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from engine import load_ruleset
from engine.enums import Renonce
from engine.errors import IllegalActionError, NotationError
from engine.referee import Deal
from engine.referee.party import last_tour_factor
from engine.referee.play import defender_may_go_on
from engine.referee.result import tied_for_most
from engine.rules.loader import Registry
from engine.rules.model import RuleSet
from engine.scoresheet import Evening, ScoredDeal, load_evening, parse_entry
from engine.scoreterm import run_score
from tests.scorekeeper_helpers import steered, written_down

RULESETS = sorted({rid for rid, _, _ in Registry().files()})

TRIES = 12
"""Seeds tried for a law before giving up on it (a law needs its moment: a hand laid down
without trumps named needs one of its contracts, a card played out of turn a seat not to
move)."""

WORDS = {
    "turned_hand": "turn-hand",
    "shown_cards": "show",
    "out_of_turn": "out-of-turn",
    "partner_known_no_vole": "made-known",
}


def declared(rules: RuleSet) -> list[str]:
    """The laws the rule file declares that a seat can commit in a deal (``steered``'s ``law``),
    and ``unclaimed`` for the law of claims; ``renonce2`` and ``notice`` where the renonce is
    penalised."""
    play, table = rules.play_laws, rules.laws
    out = [
        verb
        for verb, law in (
            ("expose", play.exposed_card),
            ("out-of-turn", play.out_of_turn),
            ("show", play.shown_cards),
            ("turn-hand", play.turned_hand),
            ("lay-down", play.lay_down_unnamed),
            ("misdeal", table.misdeal),
            ("extra-card", table.eleven_cards if table.misdeal else None),
            (
                "retake",
                table.revokes if getattr(table.revokes, "setting", "") == "retake" else None,
            ),
            ("unclaimed", table.claims),
        )
        if law is not None
    ]
    if rules.renonce is Renonce.PENALISED:
        out += ["renonce2", "notice"]
    return out


def committed(d: Deal, law: str | None) -> bool:
    """Checks if the deal holds the law it was steered to (the seat found its moment)."""
    verbs = [str(a).split()[0] for _, a in d.history]
    if law == "renonce2":
        return len(d.renonces) + len(d.penalties) >= 2 or "retake" in verbs
    if law == "notice":
        return "notice" in verbs
    if law == "unclaimed":
        return bool(d.deal_irregular.unclaimed)
    return law is None or law in verbs


def play(rules: RuleSet, law: str | None, evening: Evening, table: Any, seed: int) -> Deal:
    """Plays the next deal of the party steered to ``law`` (tried on :data:`TRIES` seeds)."""
    d = None
    for k in range(TRIES):
        rng = random.Random(f"{rules.id}/{law}/{seed}/{k}")
        contracts = list(rules.contracts)
        lay_down = rules.play_laws.lay_down_unnamed
        if law == "lay-down" and lay_down is not None:
            # (A hand is laid down without naming trumps under the law's contracts only.)
            contracts = [c for c in contracts if c in lay_down.contracts] or contracts
        contract = rng.choice(contracts)
        d = steered(
            rules,
            contract,
            rng,
            None if law == "unclaimed" else law,
            dealer=evening.next_dealer,
            seed=seed * TRIES + k,
            table=table,
            factor=last_tour_factor(rules, evening.counted),
        )
        if law == "unclaimed" and d.result is not None and d.settlement is not None:
            items = rules.laws.claims.items if rules.laws.claims else ()
            if d.contract is not None and d.result != "redeal" and items:
                d.forgo_claims(rng.sample(list(items), rng.randint(1, len(items))))
        if committed(d, law):
            break
    assert d is not None
    return d


# The terminal: the answers a scorekeeper types for a deal written down.


def answers(evening: Evening, data: dict[str, Any]) -> list[str]:
    """Returns the answers to ``ombre score``'s questions for the deal ``data``, in the order
    the terminal asks them (engine/scoreterm.py), the items not claimed said at the next
    deal's first question."""
    rules = evening.rules
    out: list[str] = []
    if data.get("irregularities"):
        items = [
            f"{i['seat']} {WORDS[i['law']]}"
            + (
                f" {i['hand']}"
                if "hand" in i
                else f" {i['side_tricks']}"
                if "side_tricks" in i
                else ""
            )
            for i in data["irregularities"]
        ]
        out += ["laws", ", ".join(items)]
    penalties = ", ".join(f"{p['seat']} {p['fault']}" for p in data.get("penalties", []))
    if data.get("passed"):
        return [*out, "passed", *([penalties] if rules.penalties else [])]
    if "misdeal" in data:
        return [f"misdeal {data['misdeal']}"]
    if "extra_card" in data:
        return [f"extra-card {data['extra_card']}"]
    contract = rules.contracts[data["contract"]]
    out += [contract.id, str(data["declarer"])]
    if not contract.no_trumps:
        out.append(data.get("trump", ""))
    if evening.asks_called(contract):
        out.append(data.get("called", ""))
    if data.get("called"):
        out.append(str(data["holder"]))
        if evening.asks_surrendered(contract) and data["holder"] != data["declarer"]:
            out.append("y" if data.get("surrendered") else "n")
    out += [str(data.get("held", {}).get(card, "")) for card in map(str, evening.held_cards)]
    out.append(" ".join(str(t) for t in data["tricks"]))
    if evening.asks_matadors(contract):
        out.append(str(data["matadors"]))
    if len(tied_for_most(contract, data["tricks"])) > 1:
        out.append(str(data["latest_of_tied"]))
    if evening.asks_vole(contract):
        out.append("y" if data["vole"] else "n")
    if data["vole"] and not contract.announces_vole and defender_may_go_on(rules, contract):
        out.append(str(data.get("vole_by", "")))
    if evening.asks_trump_holders:
        out.append(" ".join(str(s) for s in data.get("trump_holders", [])))
    if evening.table.remainder:
        out.append(str(data.get("highest_trump", "")))
    if evening.asks_renonces:
        out.append(", ".join(str(s) for s in data.get("renonces", [])))
    if rules.penalties:
        out.append(penalties)
    if data.get("unclaimed"):
        out.append("unclaimed " + " ".join(data["unclaimed"]))
    return out


def typed(evening: Evening, data: dict[str, Any]) -> str:
    """Types the deal ``data`` at the terminal's scorekeeper; returns what it said."""
    lines = iter(answers(evening, data))
    said: list[str] = []
    run_score(evening, None, lambda prompt: said.append(prompt) or next(lines, None), said.append)
    return "\n".join(said)


# The web: the form a scorekeeper fills in for a deal written down.


def form(data: dict[str, Any], n: int) -> dict[str, Any]:
    """Returns the web scorekeeper's form for the deal ``data`` (templates/web/_entry.j2)."""
    out: dict[str, Any] = {}
    if data.get("penalties"):
        out["penalty_seat"] = [str(p["seat"]) for p in data["penalties"]]
        out["penalty_fault"] = [p["fault"] for p in data["penalties"]]
    if data.get("passed"):
        return {**out, "passed": "yes"}
    if "misdeal" in data:
        return {"misdeal": data["misdeal"]}
    if "extra_card" in data:
        return {"misdeal": "extra-card", "extra_card": str(data["extra_card"])}
    out.update(contract=data["contract"], declarer=str(data["declarer"]))
    for key in ("trump", "called", "holder", "vole_by", "latest_of_tied", "highest_trump"):
        if data.get(key) is not None:
            out[key] = str(data[key])
    out.update({f"tricks{k}": str(t) for k, t in enumerate(data["tricks"])})
    out["matadors"] = str(data["matadors"])
    if data["vole"]:
        out["vole"] = "yes"
    if data.get("surrendered"):
        out["surrendered"] = "yes"
    out.update({f"held_{card}": str(seat) for card, seat in data.get("held", {}).items()})
    if data.get("trump_holders"):
        out["trump_holders"] = " ".join(str(s) for s in data["trump_holders"])
    renonces = data.get("renonces", [])
    out.update({f"renonces{k}": str(renonces.count(k)) for k in range(n) if k in renonces})
    if data.get("unclaimed"):
        out["unclaimed"] = list(data["unclaimed"])
    for k, item in enumerate(data.get("irregularities", [])):
        out[f"irr{k}_law"] = item["law"]
        out[f"irr{k}_seat"] = str(item["seat"])
        if "hand" in item:
            out[f"irr{k}_hand"] = str(item["hand"])
        if "side_tricks" in item:
            out[f"irr{k}_tricks"] = str(item["side_tricks"])
    return out


class Web:
    """The web scorekeeper, an evening at a time (a new one after a refusal)."""

    def __init__(self, folder: Path, rules: RuleSet) -> None:
        from starlette.testclient import TestClient

        from engine.web.app import create_app

        self.folder = folder
        self.rules = rules
        self.client = TestClient(
            create_app(folder), follow_redirects=True, headers={"origin": "http://testserver"}
        )
        self.path = ""
        self.start()

    def start(self) -> None:
        r = self.client.post("/evenings", data={"ruleset": self.rules.id, "dealer": "0"})
        assert r.status_code == 200, r.text[:500]
        self.path = str(r.url.path)

    def enter(self, data: dict[str, Any], dealer: int) -> tuple[int, str]:
        page = self.client.get(self.path).text
        version = re.search(r'name="version" value="([^"]+)"', page)
        count = re.search(r'name="count" value="(\d+)"', page)
        assert version and count
        fields = {"version": version[1], "count": count[1], "dealer": str(dealer)}
        r = self.client.post(
            self.path + "/deals", data={**fields, **form(data, self.rules.players)}
        )
        said = re.sub(r"<[^>]+>", " ", r.text) if r.status_code != 200 else ""
        return r.status_code, " ".join(said.split())[:800]

    def deals(self) -> list[ScoredDeal]:
        ident = self.path.rstrip("/").rsplit("/", 1)[-1]
        return load_evening(self.folder / "evenings" / f"{ident}.yaml", load_ruleset).deals


def same(scored: ScoredDeal, d: Deal) -> bool:
    """Checks if the scorekeeper settled the deal as the referee did."""
    s, r = scored.settlement, d.settlement
    assert r is not None
    return (scored.result, s.balances, s.pot_after, s.table) == (
        d.result,
        r.balances,
        r.pot_after,
        r.table,
    )


def told(d: Deal, scored: ScoredDeal | None) -> str:
    r = d.settlement
    assert r is not None
    mine = "" if scored is None else f"{scored.result} {list(scored.settlement.balances)}"
    return f"settled {mine}, the referee {d.result} {list(r.balances)}"


class Played(NamedTuple):
    """One deal of a party: the law it was steered to, the deal, what the scorekeeper wrote
    down, what went wrong entering it by parse_entry or at the terminal ("" if nothing), and
    whether it begins a new evening (a party to a target over)."""

    law: str | None
    deal: Deal
    data: dict[str, Any]
    problem: str
    fresh: bool


@cache
def party(rid: str, rounds: int = 1) -> tuple[Played, ...]:
    """The deals of :func:`check_every_law` without the web: ``rounds`` times a deal for each
    law the file declares, between two deals steered to no law."""
    rules = load_ruleset(rid)
    out = []
    evening, terminal, table, fresh = Evening(rules), Evening(rules), None, True
    laws: list[str | None] = [None, *declared(rules) * rounds, None]
    for seed, law in enumerate(laws):
        if evening.over:
            evening, terminal, table, fresh = Evening(rules), Evening(rules), None, True
        d = play(rules, law, evening, table, seed)
        data = written_down(d)
        problem = ""
        try:
            entry = parse_entry(data, dealer=d.dealer, n=rules.players)
            scored = evening.score(entry)
        except (IllegalActionError, NotationError) as exc:
            problem = f"parse_entry refused {data}: {exc}"
        else:
            if entry != d.summary():
                problem = f"parse_entry {data} read {entry}, the referee wrote {d.summary()}"
            elif not same(scored, d):
                problem = f"parse_entry {data} " + told(d, scored)
        if not problem:
            before = len(terminal.deals)
            said = typed(terminal, data)
            if len(terminal.deals) != before + 1 or not same(terminal.deals[-1], d):
                last = terminal.deals[-1] if len(terminal.deals) > before else None
                problem = f"the terminal {data} " + told(d, last) + "\n" + said[-1500:]
        out.append(Played(law, d, data, problem, fresh))
        fresh = False
        if problem:
            evening, terminal, table, fresh = Evening(rules), Evening(rules), None, True
        else:
            table = d.settlement.table if d.settlement else None
    return tuple(out)


def check_every_law(rid: str, folder: Path, rounds: int = 1) -> None:
    """The check of one rule file: its party (:func:`party`) entered by parse_entry and at the
    terminal, every law it declares committed, then the same deals posted on the web form."""
    pytest.importorskip("starlette")
    rules = load_ruleset(rid)
    deals = party(rid, rounds)
    wrong = [f"{p.law}: {p.problem}" for p in deals if p.problem]
    assert not wrong, "\n".join(wrong[:3])
    # Every law the file declares was committed in a deal (the seat found its moment).
    done = {p.law for p in deals if committed(p.deal, p.law)}
    missing = [law for law in declared(rules) if law not in done]
    assert not missing, f"{rid}: no deal committed {missing}"
    # The web scorekeeper: the same deals posted on its form, the same settlement.
    web = Web(folder, rules)
    evening: list[Played] = []
    for p in (*deals, None):
        if p is None or (p.fresh and evening):
            for q, scored in zip(evening, web.deals(), strict=True):
                assert same(scored, q.deal), f"{q.law}: the web {q.data} " + told(q.deal, scored)
            if p is None:
                break
            web.start()
            evening = []
        status, refusal = web.enter(p.data, p.deal.dealer)
        assert status == 200, f"{p.law}: the web refused {p.data}: {status} {refusal}"
        evening.append(p)


@pytest.mark.parametrize("rid", RULESETS)
def test_every_law_entered_at_both_scorekeepers_settles_as_played(rid: str, tmp_path: Path) -> None:
    check_every_law(rid, tmp_path)


# slow: four deals for each law of every rule file, about 30 CPU s.
@pytest.mark.slow
@pytest.mark.parametrize("rid", RULESETS)
def test_every_law_over_more_deals(rid: str, tmp_path: Path) -> None:
    check_every_law(rid, tmp_path, rounds=4)


def test_the_deals_have_the_laws_and_the_renonces() -> None:
    # The parties hold what the laws make: two renonces in a deal, a renonce pointed out, a
    # hand turned up, a misdeal and a card too many, items unclaimed.
    seen: dict[str, set[str]] = {}
    for rid in ("quadrille", "quadrille-renonce", "mediateur"):
        for p in party(rid):
            if p.law is not None and committed(p.deal, p.law):
                seen.setdefault(p.law, set()).add(rid)
    for law in ("renonce2", "notice", "retake", "turn-hand", "show", "misdeal", "extra-card"):
        assert law in seen, law
    renonces = [p.data for p in party("quadrille-renonce") if p.law in ("renonce2", "retake")]
    assert any(len(data.get("renonces", [])) >= 2 for data in renonces)


def test_the_roi_rendu_and_the_cards_held_are_asked_where_the_rules_have_them(
    tmp_path: Path,
) -> None:
    # Before, only an evening's file could say them: neither scorekeeper asked.
    rendu, aces = load_ruleset("quadrille-roi-rendu"), load_ruleset("quadrille-red-aces")
    surrendered = {**ASK_KH, "surrendered": True}
    evening = Evening(rendu)
    said = typed(evening, surrendered)
    assert "surrendered to the declarer (roi rendu: he played alone)? (y/N)" in said
    [deal] = evening.deals
    assert deal.entry.surrendered and deal.side == (1,)
    assert any("surrendered" in p.item for p in deal.settlement.payments)
    held = {**ASK_KH, "held": {"Ah": 2, "Ad": 2}}
    evening = Evening(aces)
    said = typed(evening, held)
    assert "Ah (paid for whatever the result) held by" in said
    assert [(str(c), s) for c, s in evening.deals[0].entry.held] == [("Ah", 2), ("Ad", 2)]
    # Not asked where the rules have neither.
    plain = typed(Evening(load_ruleset("quadrille")), ASK_KH)
    assert "surrendered" not in plain and "paid for whatever" not in plain
    # The web form has them, and settles them as parse_entry does.
    pytest.importorskip("starlette")
    for rules, data in ((rendu, surrendered), (aces, held)):
        web = Web(tmp_path / rules.id, rules)
        page = web.client.get(web.path).text
        assert ('name="surrendered"' in page) is (rules is rendu)
        assert ('name="held_Ad"' in page) is (rules is aces)
        assert web.enter(data, 0)[0] == 200
        expected = Evening(rules).score(parse_entry(data, dealer=0, n=4))
        assert web.deals()[0].settlement.balances == expected.settlement.balances


ASK_KH = {
    "contract": "ask",
    "declarer": 1,
    "trump": "clubs",
    "called": "Kh",
    "holder": 3,
    "tricks": [1, 3, 3, 3],
    "matadors": 0,
    "vole": False,
}
"""Seat 1 asks in clubs and calls the king of hearts, which seat 3 holds."""

"""The sources' checkable claims (``claims/*.yaml``), evaluated against the model.

A claim is what a source says (source, locator, a quote of a sentence at most) and a
*statement* the model can evaluate, written in a small typed vocabulary rather than as code:

========================  ==========================================================
kind                      says
========================  ==========================================================
``trump-count``           a trump suit of a colour has ``count`` trumps
``deck-size``             the pack has ``count`` cards
``result-for``            the declaring side with ``exactly``/``at_most``/``at_least``
                          tricks has result ``result``
``first-bete``            the first bête is ``amount`` (optionally: made on ``on_table``)
``bete-chain``            bêtes made on ``results`` in a row are ``amounts``
``payment``               for ``contract`` and ``result`` each opponent pays ``each``
                          (negative: is paid)
``payment-ratio``         ``result`` pays ``factor`` times what ``relative_to`` pays
``pot-after``             after a first ``result`` the table holds ``factor`` times the stakes
``eldest``                the eldest hand sits at the dealer's ``side`` (left or right)
``named-trump``           the trump at ``position`` in ``colour`` is named ``name``
``plain-order``           the plain cards of a ``colour`` rank ``order`` (highest first)
``packets``               the deal may be made in each of ``orders`` (packet sizes)
``stakes``                the dealer stakes ``dealer`` and each player ``each``
``sole-liability``        a caller with fewer than ``below`` tricks pays a loss alone
                          (``below: 0``: never alone)
``contract``              ``contract`` (or the all-pass contract, ``forced``) has
                          ``shared_liability``, ``vole_allowed`` or ``trump_named_by`` so
``leftover``              a shared pot's odd counters go ``to`` (a ``codille_remainder``)
``bete-going``            the waiting bêtes go ``going`` (``largest-first`` or ``all``)
``leader``                the first trick is led by the ``leader`` (eldest or declarer)
``call-fallback``         a caller holding every callable card calls a ``rank`` instead
``item``                  ``item`` is worth ``amount`` per opponent under ``contract``
                          (``paid: false``: not paid under it)
``pays-more``             ``result`` under ``contract`` moves more than under ``than``
``historical``            a statement about history, not rules: always unverifiable
========================  ==========================================================

Each is answered ``confirmed``, ``contradicted`` (with what the model derives) or
``unverifiable``, by asking the model, the referee's result table and its settlement: the
same code that plays the games.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.cards import Colour, Suit
from engine.documents import data_dir, repo_path
from engine.referee.seating import seating
from engine.referee.settlement import TableState, settle, stakes_for
from engine.rules.model import RuleSet
from engine.rules.reader import parse_bytes
from engine.rules.schema_pass import document_problems, duplicate_ids

if TYPE_CHECKING:
    from engine.documents.book import Worked

__all__ = ["KINDS", "Claim", "Evaluation", "Statement", "evaluate", "load_claims"]

STATUSES = ("confirmed", "contradicted", "unverifiable")


def _kinds() -> dict[str, tuple[str, ...]]:
    import json

    from engine.rules.schema_pass import schema_file

    schema = json.loads(schema_file("claims").read_text(encoding="utf-8"))
    return {
        branch["if"]["properties"]["kind"]["const"]: tuple(
            k for k in branch["then"]["properties"] if k != "kind"
        )
        for branch in schema["$defs"]["statement"]["allOf"]
    }


KINDS: dict[str, tuple[str, ...]] = _kinds()
"""The statement kinds and the fields each may take (read from
``engine/schema/claims.schema.json``, the one definition of a claim file)."""


@dataclass(frozen=True, slots=True)
class Statement:
    """A statement of the typed vocabulary: its kind and its fields."""

    kind: str
    fields: Mapping[str, Any]

    def get(self, key: str, default: Any = None) -> Any:
        """Returns a field."""
        return self.fields.get(key, default)

    def describe(self) -> str:
        """Returns the statement in words (the ``statement`` of ``ombre claims --json``)."""
        f = self.fields
        if self.kind == "trump-count":
            return f"a {f['colour']} trump suit has {f['count']} trumps"
        if self.kind == "deck-size":
            return f"the pack has {f['count']} cards"
        if self.kind == "result-for":
            return f"a declaring side with {_tricks_words(self)} tricks: {f['result']}"
        if self.kind == "first-bete":
            on = f" on {f['on_table']} counters staked" if "on_table" in f else ""
            return f"the first bête is {f['amount']}{on}"
        if self.kind == "bete-chain":
            results = ", ".join(f["results"])
            amounts = ", ".join(str(a) for a in f["amounts"])
            return f"bêtes made by {results} in a row are {amounts}"
        if self.kind == "payment":
            each = int(f["each"])
            verb = f"each opponent pays {each}" if each >= 0 else f"each opponent is paid {-each}"
            return f"{f['contract']} {f['result']}: {verb}"
        if self.kind == "payment-ratio":
            times = f"at least {f['factor']}" if f.get("at_least") else f"{f['factor']}"
            return f"{f['result']} pays {times} times what {f.get('relative_to', 'win')} pays"
        if self.kind == "pot-after":
            return f"a {f['result']} makes the table {f['factor']} times the stakes"
        if self.kind == "eldest":
            return f"the eldest hand sits at the dealer's {f['side']}"
        if self.kind == "named-trump":
            return f"trump {f['position']} in {f['colour']} is called {f['name']}"
        if self.kind == "plain-order":
            return f"the plain {f['colour']} cards rank {' '.join(map(str, f['order']))}"
        if self.kind == "packets":
            shown = " or ".join("-".join(map(str, o)) for o in f["orders"])
            return f"the cards are dealt {shown}"
        if self.kind == "stakes":
            return f"the dealer stakes {f['dealer']} and each player {f['each']}"
        if self.kind == "sole-liability":
            below = int(f["below"])
            if not below:
                return "a caller never pays a loss alone"
            return f"a caller who takes fewer than {below} tricks pays a loss alone"
        if self.kind == "contract":
            said = [f"{k.replace('_', ' ')}: {f[k]}" for k in KINDS["contract"][1:] if k in f]
            return f"{f['contract']}: {', '.join(said)}"
        if self.kind == "leftover":
            return f"a shared pot's odd counters go {f['to']}"
        if self.kind == "bete-going":
            return f"the waiting bêtes go {f['going']}"
        if self.kind == "leader":
            return f"the {f['leader']} leads the first trick"
        if self.kind == "call-fallback":
            return f"one who holds every king calls a {f['rank']}"
        if self.kind == "item":
            if f.get("paid") is False:
                return f"{f['item']} is not paid under {f['contract']}"
            return f"{f['item']} is worth {f['amount']} per opponent under {f['contract']}"
        if self.kind == "pays-more":
            return f"{f['contract']} {f['result']} moves more than {f['than']} {f['result']}"
        if self.kind == "agreed":
            return f"{f['item']} wins what the table agrees under {f['contract']}, no fixed amount"
        return str(f.get("about", "a statement about history"))


@dataclass(frozen=True, slots=True)
class Claim:
    """A source's checkable claim."""

    id: str
    ruleset: str
    source: str
    locator: str
    quote: str
    statement: Statement
    note: str | None
    where: str
    """``file:line`` of the claim."""
    fitted: bool = False
    """The model was fitted to this claim (an inferred value chosen so that it holds): a
    confirmation that shows consistency, not independent support."""
    transcription: bool = False
    """The claim reads back a parameter the rule file sets from the same sentence: its
    confirmation checks the transcription of the sentence, not the reading of it."""


@dataclass(frozen=True, slots=True)
class Evaluation:
    """A claim evaluated under one ruleset."""

    claim: Claim
    ruleset: str
    status: str
    detail: str

    def as_json(self) -> dict[str, Any]:
        """Returns the evaluation as in ``ombre claims --json``."""
        c = self.claim
        return {
            "id": c.id,
            "ruleset": self.ruleset,
            "source": c.source,
            "locator": c.locator,
            "quote": c.quote,
            "statement": c.statement.describe(),
            "kind": c.statement.kind,
            "status": self.status,
            "fitted": c.fitted,
            "transcription": c.transcription,
            "detail": self.detail,
            "where": c.where,
        }


def _tricks_words(s: Statement) -> str:
    if s.get("exactly") is not None:
        return f"exactly {s.get('exactly')}"
    if s.get("at_most") is not None:
        return f"{s.get('at_most')} or fewer"
    return f"{s.get('at_least')} or more"


# Loading.


def load_claims(folder: Path | None = None) -> tuple[Claim, ...]:
    """Reads every ``*.yaml`` of ``claims/`` (except the disagreements register).

    :raises RuleFileError: with every located problem of the files.
    """
    folder = folder if folder is not None else data_dir("claims")
    files = tuple(
        (path, path.read_bytes())
        for path in sorted(folder.glob("*.yaml"))
        if path.name != "disagreements.yaml"
    )
    key = tuple((str(path), data) for path, data in files)
    hit = _LOADED.get(key)
    if hit is None:
        hit = _parse_claims(files)
        if len(_LOADED) >= 4:
            _LOADED.clear()
        _LOADED[key] = hit
    return hit


_LOADED: dict[tuple[tuple[str, bytes], ...], tuple[Claim, ...]] = {}
"""The claims read, by the bytes of their files: the schema check is the slow part of reading
them, and the documents, the concordance and the claims' own pages each ask for them."""


def _parse_claims(files: tuple[tuple[Path, bytes], ...]) -> tuple[Claim, ...]:
    out: list[Claim] = []
    problems = []
    seen: set[str] = set()
    for path, data in files:
        shown = repo_path(path)
        doc, found = parse_bytes(shown, data)
        if doc is not None:
            # Checked as rule files are: the schema (engine/schema/claims.schema.json), every
            # problem located; then what a schema cannot say (an id listed twice).
            found = document_problems("claims", doc)
        if doc is None or found:
            problems.extend(found)
            continue
        twice, repeated = duplicate_ids(
            doc, "claims", "claim/duplicate", lambda cid: f"claim {cid!r} is listed twice", seen
        )
        problems.extend(twice)
        for i, entry in enumerate(doc.data["claims"]):
            if i in repeated:
                continue
            where = ("claims", i)
            cid = str(entry["id"])
            raw = entry["statement"]
            note = entry.get("note")
            out.append(
                Claim(
                    cid,
                    str(entry["ruleset"]),
                    str(entry["source"]),
                    str(entry["locator"]),
                    str(entry["quote"]),
                    Statement(raw["kind"], {k: v for k, v in raw.items() if k != "kind"}),
                    str(note) if note is not None else None,
                    f"{shown}:{doc.where(where)[0]}",
                    fitted=bool(entry.get("fitted", False)),
                    transcription=bool(entry.get("transcription", False)),
                )
            )
    if problems:
        from engine.errors import RuleFileError

        raise RuleFileError(problems)
    return tuple(out)


# Evaluation.


def _suits(rules: RuleSet, colour: str) -> list[Suit]:
    present = {c.suit for c in rules.deck()}
    return [s for s in Suit if s.colour is Colour(colour) and s in present]


def _worked_each(rules: RuleSet, contract: str, result: str) -> tuple[int, Worked] | None:
    from engine.documents.book import worked_settlements

    for w in worked_settlements(rules):
        if w.contract.id == contract and w.result == result and not w.sole:
            return (w.uniform if w.uniform is not None else w.each[0]), w
    return None


def _chain(rules: RuleSet, contract: str, results: list[str]) -> list[int]:
    """Settles deals lost in a row (results given) on a fresh table; returns each bête."""
    from engine.documents.book import contract_examples, example_partner

    n = rules.players
    table = TableState()
    betes = []
    c = rules.contracts[contract]
    examples = {(r, sole): won for r, won, _vole, sole in contract_examples(rules, c)}
    for k, result in enumerate(results):
        dealer = k % n
        seats = seating(rules, dealer)
        declarer = seats.eldest
        partner = example_partner(seats, declarer, c)
        won = examples.get((result, False))
        if won is None:
            raise KeyError(result)
        # The example was found for dealer 0; turn it round to this deal's seats.
        won = won[-dealer:] + won[:-dealer] if dealer else won
        s = settle(
            rules,
            n=n,
            table=table,
            stakes=stakes_for(rules, dealer, n, rules.stakes),
            result=result,
            contract=contract,
            declarer=declarer,
            partner=partner,
            tricks=won,
            matadors=0,
            spadille_holder=None,
        )
        betes.append(s.bete)
        table = s.table
    return betes


_Check = Callable[[Statement, RuleSet], tuple[str, str]]
"""One kind's evaluation: the statement and the ruleset in, the status and the detail out."""


def _historical(s: Statement, rules: RuleSet) -> tuple[str, str]:
    """Answers a statement about history: no model checks it, so it is unverifiable."""
    return "unverifiable", "a statement about history, not about the rules: no model checks it"


def _trump_count(s: Statement, rules: RuleSet) -> tuple[str, str]:
    """Checks how many trumps a trump suit of the statement's colour has."""
    suits = _suits(rules, s.get("colour"))
    if not suits:
        return "unverifiable", f"no {s.get('colour')} suit is in {rules.id}'s pack"
    orders = {suit: rules.trump_order(suit) for suit in suits}
    counts = {len(o) for o in orders.values()}
    shown = orders[suits[-1]]
    derived = len(shown)
    cards = " ".join(str(c) for c in shown)
    ok = counts == {int(s.get("count"))}
    return _verdict(ok, f"the model derives {derived}: {cards}")


def _deck_size(s: Statement, rules: RuleSet) -> tuple[str, str]:
    """Checks how many cards the pack has."""
    size = len(rules.deck())
    return _verdict(size == int(s.get("count")), f"the model's pack has {size} cards")


def _result_for(s: Statement, rules: RuleSet) -> tuple[str, str]:
    """Checks the result the referee gives the declaring side for the statement's tricks."""
    from engine.documents.book import example_partner
    from engine.referee import evaluate_result

    n = rules.players
    seats = seating(rules, 0)
    declarer = seats.eldest
    calls = [c for c in rules.contracts.values() if c.help == "call" and c.biddable]
    partner = example_partner(seats, declarer, calls[0]) if calls else None
    side = [declarer] if partner is None else [declarer, partner]
    if s.get("exactly") is not None:
        tricks = [int(s.get("exactly"))]
    elif s.get("at_most") is not None:
        tricks = list(range(int(s.get("at_most")) + 1))
    else:
        tricks = list(range(int(s.get("at_least")), rules.hand_size + 1))
    results: dict[int, str] = {}
    for t in tricks:
        won = [0] * n
        won[declarer] = t - t // 2 if partner is not None else t
        if partner is not None:
            won[partner] = t // 2
        rest = rules.hand_size - t
        opponents = seats.playing_opponents(declarer, partner)
        for i, o in enumerate(opponents):
            won[o] = rest // len(opponents) + (1 if i < rest % len(opponents) else 0)
        results[t] = evaluate_result(rules, won, side)
    # Results the model names more finely that the source counts as the same (a dévole is
    # a codille without a trick).
    accepted = {s.get("result"), *(s.get("also") or [])}
    wrong = {t: r for t, r in results.items() if r not in accepted}
    if not wrong:
        return "confirmed", f"the model derives {s.get('result')} for {_tricks_words(s)}"
    listed = "; ".join(f"{t} tricks: {r}" for t, r in sorted(wrong.items()))
    return "contradicted", f"the model derives {listed}"


def _betes(s: Statement, rules: RuleSet) -> tuple[str, str]:
    """Checks a first bête (``first-bete``) or the bêtes of deals lost in a row (``bete-chain``)."""
    k = s.kind
    contract = s.get("contract", _default_contract(rules))
    if k == "first-bete":
        lost = [str(s.get("result", "remise"))]
        expected = [int(s.get("amount"))]
    else:
        lost = [str(x) for x in s.get("results")]
        expected = [int(a) for a in s.get("amounts")]
    try:
        betes = _chain(rules, contract, lost)
    except KeyError as exc:
        return "unverifiable", f"{rules.id} has no {exc.args[0]} for {contract}"
    staked = sum(stakes_for(rules, 0, rules.players, rules.stakes))
    detail = f"the model's bêtes: {', '.join(str(b) for b in betes)}"
    if k == "first-bete":
        detail += f", on {staked} counters staked"
    ok = betes == expected and (s.get("on_table") is None or int(s.get("on_table")) == staked)
    return _verdict(ok, detail)


def _payment(s: Statement, rules: RuleSet) -> tuple[str, str]:
    """Checks what each opponent pays for the statement's contract and result."""
    found = _worked_each(rules, s.get("contract"), s.get("result"))
    if found is None:
        return "unverifiable", f"{rules.id} has no {s.get('result')} for {s.get('contract')}"
    each, _ = found
    what = f"each opponent pays {each}" if each >= 0 else f"each opponent is paid {-each}"
    return _verdict(each == int(s.get("each")), f"the settlement gives: {what}")


def _payment_ratio(s: Statement, rules: RuleSet) -> tuple[str, str]:
    """Checks how many times what another result pays the statement's result pays."""
    contract = s.get("contract", _default_contract(rules))
    base = _worked_each(rules, contract, s.get("relative_to", "win"))
    found = _worked_each(rules, contract, s.get("result"))
    if base is None or found is None or not base[0]:
        return "unverifiable", f"{rules.id} cannot compare these results for {contract}"
    ratio = abs(found[0]) / abs(base[0])
    detail = (
        f"{s.get('result')} moves {abs(found[0])} per opponent, "
        f"{s.get('relative_to', 'win')} {abs(base[0])}: {ratio:.3g} times"
    )
    if found[1].settlement.bete:
        detail += f", and a bête of {found[1].settlement.bete} is made"
    if s.get("at_least"):
        return _verdict(ratio >= float(s.get("factor")) - 1e-9, detail)
    return _verdict(abs(ratio - float(s.get("factor"))) < 1e-9, detail)


def _pot_after(s: Statement, rules: RuleSet) -> tuple[str, str]:
    """Checks how many times the stakes the table holds after a first result of the kind."""
    contract = s.get("contract", _default_contract(rules))
    found = _worked_each(rules, contract, s.get("result"))
    if found is None:
        return "unverifiable", f"{rules.id} has no {s.get('result')} for {contract}"
    st = found[1].settlement
    staked = sum(stakes_for(rules, 0, rules.players, rules.stakes))
    ratio = st.pot_after / staked
    detail = (
        f"the {staked} staked stay and a bête of {st.bete} is added: {st.pot_after} on the "
        f"table, {ratio:.3g} times the stakes"
    )
    return _verdict(abs(ratio - float(s.get("factor"))) < 1e-9, detail)


def _eldest(s: Statement, rules: RuleSet) -> tuple[str, str]:
    """Checks at which of the dealer's sides the eldest hand sits."""
    # Seats are numbered in the order of play; counter-clockwise play passes to the right.
    at = "right" if rules.direction == "counter-clockwise" else "left"
    detail = (
        f"play goes {rules.direction}, so the eldest (the seat after the dealer) sits at "
        f"the dealer's {at}"
    )
    return _verdict(at == s.get("side"), detail)


def _named_trump(s: Statement, rules: RuleSet) -> tuple[str, str]:
    """Checks the name of the trump at the statement's position in a suit of its colour."""
    suits = _suits(rules, s.get("colour"))
    if not suits:
        return "unverifiable", f"no {s.get('colour')} suit is in {rules.id}'s pack"
    suit = suits[-1]
    order = rules.trump_order(suit)
    position = int(s.get("position"))
    if position > len(order):
        return "contradicted", f"{suit.value} trumps have only {len(order)} cards"
    card = order[position - 1]
    name = rules.matador_names(suit).get(card)
    holders = [
        f"{t.card_for(x)}"
        for x in Suit
        for t in rules.top_trumps
        if t.name == s.get("name") and t.card_for(x) is not None
    ]
    named = f"named {name}" if name else "not named"
    detail = f"trump {position} with {suit.value} trumps is {card}, {named}"
    if holders and name != s.get("name"):
        detail += f"; {s.get('name')} is {', '.join(sorted(set(holders)))}"
    return _verdict(name == s.get("name"), detail)


_MODEL_CHECKS: dict[str, _Check] = {
    "historical": _historical,
    "trump-count": _trump_count,
    "deck-size": _deck_size,
    "result-for": _result_for,
    "first-bete": _betes,
    "bete-chain": _betes,
    "payment": _payment,
    "payment-ratio": _payment_ratio,
    "pot-after": _pot_after,
    "eldest": _eldest,
    "named-trump": _named_trump,
}
"""The kinds that ask the pack, the referee or its settlement, each with its evaluation."""


def _evaluate(claim: Claim, rules: RuleSet) -> tuple[str, str]:
    """Evaluates one claim's statement under ``rules``: its status and its detail."""
    s = claim.statement
    check = _MODEL_CHECKS.get(s.kind)
    if check is None:
        return _evaluate_rule(s, rules)
    return check(s, rules)


def _plain_order(s: Statement, rules: RuleSet) -> tuple[str, str]:
    """Checks the order of the plain cards of the statement's colour."""
    order = rules.plain_black if s.get("colour") == "black" else rules.plain_red
    shown = " ".join(r.value for r in order)
    return _verdict(
        [r.value for r in order] == [str(r) for r in s.get("order")], f"the model: {shown}"
    )


def _packets(s: Statement, rules: RuleSet) -> tuple[str, str]:
    """Checks that the deal may be made in each of the statement's packet orders."""
    dealt = {tuple(p) for p in rules.packets}
    want = {tuple(int(x) for x in o) for o in s.get("orders")}
    shown = ", ".join("-".join(map(str, p)) for p in rules.packets)
    return _verdict(want <= dealt, f"the model deals {shown}")


def _stakes(s: Statement, rules: RuleSet) -> tuple[str, str]:
    """Checks what the dealer and each player stake."""
    dealer = sum(a for w, a in rules.stakes if w == "dealer")
    each = sum(a for w, a in rules.stakes if w == "each")
    detail = f"the dealer stakes {dealer} and each player {each}"
    return _verdict((dealer, each) == (int(s.get("dealer")), int(s.get("each"))), detail)


def _sole_liability(s: Statement, rules: RuleSet) -> tuple[str, str]:
    """Checks below how many tricks a caller pays a loss alone."""
    below = rules.sole_liability_below or 0
    detail = (
        f"a caller with fewer than {below} tricks pays a loss alone"
        if below
        else "a caller always shares with his partner"
    )
    return _verdict(below == int(s.get("below")), detail)


def _contract(s: Statement, rules: RuleSet) -> tuple[str, str]:
    """Checks what the statement says of a contract (or of the all-pass contract)."""
    cid = s.get("contract")
    if cid == "forced":
        cid = rules.all_pass_contract
    contract = rules.contracts.get(cid) if cid is not None else None
    if contract is None:
        return "unverifiable", f"{rules.id} has no contract {s.get('contract')!r}"
    said = {key: s.get(key) for key in KINDS["contract"][1:] if s.get(key) is not None}
    have = {
        "shared_liability": contract.shared_liability,
        "vole_allowed": contract.vole_allowed,
        "trump_named_by": str(contract.trump_named_by),
    }
    detail = f"{contract.id}: " + ", ".join(f"{key} {have[key]}" for key in said)
    return _verdict(all(have[key] == value for key, value in said.items()), detail)


def _leftover(s: Statement, rules: RuleSet) -> tuple[str, str]:
    """Checks where a shared pot's odd counters go."""
    return _verdict(
        str(rules.codille_remainder) == s.get("to"),
        f"the model's codille_remainder is {rules.codille_remainder}",
    )


def _bete_going(s: Statement, rules: RuleSet) -> tuple[str, str]:
    """Checks how the waiting bêtes go."""
    return _verdict(
        str(rules.bete_going) == s.get("going"), f"the model's bêtes go {rules.bete_going}"
    )


def _leader(s: Statement, rules: RuleSet) -> tuple[str, str]:
    """Checks who leads the first trick."""
    return _verdict(
        str(rules.leader) == s.get("leader"), f"the {rules.leader} leads the first trick"
    )


def _call_fallback(s: Statement, rules: RuleSet) -> tuple[str, str]:
    """Checks the rank a caller holding every callable card calls instead."""
    fallback = rules.call.all_held_fallback if rules.call is not None else None
    rank = fallback.value if fallback is not None else None
    return _verdict(rank == str(s.get("rank")), f"the model's fallback is {rank}")


def _item(s: Statement, rules: RuleSet) -> tuple[str, str]:
    """Checks what an item is worth per opponent under a contract (or that it is not paid)."""
    value = _item_value(rules, s)
    if value is None:
        return "unverifiable", f"{rules.id} has no item {s.get('item')!r} or contract"
    contract = s.get("contract")
    if s.get("paid") is False:
        return _verdict(value == 0, f"{s.get('item')} is worth {value} under {contract}")
    return _verdict(
        value == int(s.get("amount", -1)), f"{s.get('item')} is worth {value} under {contract}"
    )


def _pays_more(s: Statement, rules: RuleSet) -> tuple[str, str]:
    """Checks that a result under one contract moves more than under another."""
    mine = _worked_each(rules, s.get("contract"), s.get("result"))
    other = _worked_each(rules, s.get("than"), s.get("result"))
    if mine is None or other is None:
        return "unverifiable", f"{rules.id} cannot compare these contracts"
    detail = (
        f"{s.get('contract')} {s.get('result')} moves {abs(mine[0])} per opponent, "
        f"{s.get('than')} {abs(other[0])}"
    )
    return _verdict(abs(mine[0]) > abs(other[0]), detail)


def _agreed(s: Statement, rules: RuleSet) -> tuple[str, str]:
    """Answers that an item is left to the table's agreement: the rule file fixes it instead."""
    # The model leaves an amount to the table only where a setup option sets it; setup
    # options choose suits only, so an item the rule file states is a fixed amount.
    value = _item_value(rules, s)
    if value is None:
        return "unverifiable", f"{rules.id} has no item {s.get('item')!r} or contract"
    contract = s.get("contract")
    return "contradicted", (
        f"the rule file fixes {s.get('item')} at {value} per opponent under {contract} "
        f"({rules.items[s.get('item')].basis.evidence})"
    )


_RULE_CHECKS: dict[str, _Check] = {
    "plain-order": _plain_order,
    "packets": _packets,
    "stakes": _stakes,
    "sole-liability": _sole_liability,
    "contract": _contract,
    "leftover": _leftover,
    "bete-going": _bete_going,
    "leader": _leader,
    "call-fallback": _call_fallback,
    "item": _item,
    "pays-more": _pays_more,
    "agreed": _agreed,
}
"""The kinds that ask the model for one of its rules, each with its evaluation."""


def _evaluate_rule(s: Statement, rules: RuleSet) -> tuple[str, str]:
    """The kinds that ask the model for one of its rules."""
    k = s.kind
    check = _RULE_CHECKS.get(k)
    if check is None:  # pragma: no cover - checked on load
        return "unverifiable", f"no evaluation for {k}"
    return check(s, rules)


def _default_contract(rules: RuleSet) -> str:
    biddable = sorted((c for c in rules.contracts.values() if c.biddable), key=lambda c: c.rank)
    return biddable[0].id if biddable else next(iter(rules.contracts))


def _item_value(rules: RuleSet, s: Statement) -> int | None:
    """Returns what the statement's item is worth under its contract (one matador counted where
    it pays per matador), or None if the rule file has no such item or contract."""
    item = rules.items.get(s.get("item"))
    contract = s.get("contract")
    if item is None or contract not in rules.contracts:
        return None
    return item.value(contract, 1 if item.per_matador is not None else 0)


def _verdict(ok: bool, detail: str) -> tuple[str, str]:
    return ("confirmed" if ok else "contradicted"), detail


def evaluate(
    claims: tuple[Claim, ...], ruleset: RuleSet | None = None, *, own: bool = False
) -> list[Evaluation]:
    """Evaluates claims: each under its own ruleset, or all that apply under ``ruleset``.

    With a ruleset, the claims made about it or about anything it extends are evaluated under
    it, so a variant shows which of its parent's claims it keeps (``own``: only the claims
    made about the ruleset itself).
    """
    from engine.rules import load_ruleset

    out = []
    for claim in claims:
        if ruleset is not None:
            if claim.ruleset not in ruleset.chain or (own and claim.ruleset != ruleset.id):
                continue
            rules = ruleset
        else:
            rules = load_ruleset(claim.ruleset)
        status, detail = _evaluate(claim, rules)
        out.append(Evaluation(claim, rules.id, status, detail))
    return out

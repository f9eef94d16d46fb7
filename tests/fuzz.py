"""Seeded fuzzing of rule files and records: mutated inputs must be refused cleanly or play.

Each case is generated from ``(seed, index)`` alone, so any case can be made again. A *rule
file* case mutates a shipped ruleset (its data or its text) or writes a variant with random
``$append``/``$remove``/``$delete`` operations; a *record* case mutates a shipped record. The
oracles:

* a rule file is refused with a :class:`RuleFileError` of located problems, or it is accepted
  and then, for every combination of its setup options, deals play to the end with random
  legal actions (a legal action in every open state) and settle in integers that add up, and
  ``ombre show`` renders it. On the way, the cards offered keep the play duties (follow suit,
  trump when void, overtake when able, as the file sets them, whether or not it follows), and
  each result is the first rule of the results table that holds, read here on its own: a deal
  no rule covers is a failure. The semantic mutations recombine the results tables (rules
  dropped, moved, rebounded, restricted to a contract) and the play duties, so that validation's
  promise is tested where it is hardest to keep;
* a record is refused with a :class:`RecordError` (or the ruleset it names with a
  :class:`NotationError`/:class:`RuleFileError`), or it is read, written back identically,
  and refereed to a report that renders.

Anything else (another exception, or more than :data:`TIMEOUT` seconds) is a failure. A
failure's input is shrunk (lines, then characters) while it still fails the same way, and the
smallest input is saved as a reproducer with its traceback.

Run it with ``make fuzz N=10000`` (``python -m tests.fuzz --help``); ``tests/test_fuzz.py``
runs a few hundred cases of each inside ``make test``.
"""

from __future__ import annotations

import argparse
import copy
import functools
import itertools
import json
import os
import random
import signal
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
TIMEOUT = 20
DEALS_PER_SETUP = 2

SUITS = ["spades", "clubs", "hearts", "diamonds"]
RANKS = ["A", "K", "Q", "J", "7", "6", "5", "4", "3", "2"]
CARDS = [r + s[0] for s in SUITS for r in RANKS]
HOSTILE: list[Any] = [
    0,
    1,
    2,
    3,
    -1,
    3.0,
    2.5,
    10**12,
    "",
    "x",
    "ask",
    "none",
    "call",
    "demand",
    True,
    False,
    None,
    [],
    {},
    [1],
    [[1, 2]],
    {"a": 1},
    "As",
    "Kh",
    "hearts",
    "spades",
    "\x01",
    "\x85",
    "é",
    "no",
    "-",
    "--1",
    "²",
    {"$remove": 5},
    {"$remove": "x" * 200},
    {"$append": 5},
    {"$delete": True},
]


class _Dumper(yaml.SafeDumper):
    def ignore_aliases(self, data: Any) -> bool:
        return True


def dump(data: Any) -> str:
    """Writes data as YAML (never with anchors: the reader refuses them)."""
    return yaml.dump(data, Dumper=_Dumper, allow_unicode=True, sort_keys=False, width=100)


def _load(path: Path) -> Any:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def rule_sources() -> list[tuple[str, str]]:
    """Returns (name, text) of the shipped rulesets and variants."""
    out = []
    for folder in ("rules", "variants"):
        for p in sorted((ROOT / folder).glob("*.yaml")):
            out.append((p.stem, p.read_text(encoding="utf-8")))
    return out


@functools.lru_cache(maxsize=1)
def resolved_sources() -> tuple[tuple[str, dict[str, Any]], ...]:
    """Returns (id, data) of every shipped file resolved to a self-contained ruleset."""
    from engine.rules.loader import Registry

    registry = Registry()
    out = []
    for rid, _, path in registry.files():
        data = copy.deepcopy(registry.resolve(registry.add_path(path)).data)
        data.pop("extends", None)
        out.append((rid, data))
    return tuple(out)


def record_sources() -> list[tuple[str, str]]:
    """Returns (name, text) of the records shipped with the tests."""
    return [
        (p.stem, p.read_text(encoding="utf-8"))
        for p in sorted((ROOT / "tests" / "records").glob("*.yaml"))
    ]


# Mutations.


def _paths(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield path
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, (*path, i))


def _get(data: Any, path: tuple[Any, ...]) -> Any:
    for p in path:
        data = data[p]
    return data


def _tokens(data: Any) -> list[Any]:
    """Scalars found in the data (ids, numbers, cards ...), reused as plausible values."""
    out = []
    for p in _paths(data):
        v = _get(data, p)
        if not isinstance(v, dict | list):
            out.append(v)
        if p and isinstance(p[-1], str):
            out.append(p[-1])
    return out


def _value(rng: random.Random, data: Any, old: Any) -> Any:
    roll = rng.random()
    if isinstance(old, bool):
        return (not old) if roll < 0.5 else rng.choice(HOSTILE)
    if isinstance(old, int) and roll < 0.6:
        return rng.choice([old + 1, old - 1, old * 2, 0, 1, old + rng.randint(-5, 5), float(old)])
    if isinstance(old, str) and roll < 0.4:
        pool = {len(old) == 2 and old[0] in "AKQJ765432": CARDS}.get(True)
        if pool is None:
            pool = SUITS if old in SUITS else RANKS if old in RANKS else _tokens(data)
        return rng.choice(pool)
    if isinstance(old, list) and old and roll < 0.5:
        new = list(old)
        k = rng.randrange(len(new))
        action = rng.choice(["drop", "dup", "swap", "inner"])
        if action == "drop":
            del new[k]
        elif action == "dup":
            new.insert(k, copy.deepcopy(new[k]))
        elif action == "swap" and len(new) > 1:
            j = rng.randrange(len(new))
            new[k], new[j] = new[j], new[k]
        else:
            new[k] = _value(rng, data, new[k])
        return new
    if roll < 0.8:
        return copy.deepcopy(rng.choice(_tokens(data) + HOSTILE))
    return copy.deepcopy(rng.choice(HOSTILE))


def mutate_data(rng: random.Random, data: Any, count: int) -> Any:
    """Returns a copy of data with ``count`` random changes (replace, delete, add a key)."""
    data = copy.deepcopy(data)
    for _ in range(count):
        paths = [p for p in _paths(data) if p]
        if not paths:
            break
        path = rng.choice(paths)
        parent = _get(data, path[:-1])
        key = path[-1]
        roll = rng.random()
        if roll < 0.12 and isinstance(parent, dict):
            del parent[key]
        elif roll < 0.18 and isinstance(parent, dict):
            parent[rng.choice(["extra", "basis", "count", key + "s"])] = rng.choice(HOSTILE)
        else:
            parent[key] = _value(rng, data, parent[key])
    return data


_INSERTS = [
    "\x00",
    "\x01",
    "\x1b",
    "\x7f",
    "\x85",
    "\u2028",
    "\ufeff",
    "\t",
    "\r",
    ": ",
    "- ",
    "[",
    "{",
    "&a ",
    "*a",
    "!!python/object:os.system ",
    "<<: ",
    "'",
    '"',
    "#",
    "3.0",
    "é",
    "\ud800",
]


def mutate_text(rng: random.Random, text: str, count: int) -> str:
    """Returns text with ``count`` character- or line-level changes."""
    for _ in range(count):
        if not text:
            return rng.choice(_INSERTS)
        roll = rng.random()
        i = rng.randrange(len(text))
        lines = text.split("\n")
        j = rng.randrange(len(lines))
        if roll < 0.3:
            text = text[:i] + rng.choice(_INSERTS) + text[i:]
        elif roll < 0.45:
            text = text[:i] + text[i + rng.randint(1, 8) :]
        elif roll < 0.6:
            lines.insert(j, lines[rng.randrange(len(lines))])
            text = "\n".join(lines)
        elif roll < 0.7:
            del lines[j]
            text = "\n".join(lines)
        elif roll < 0.8:
            lines[j] = " " * rng.choice([1, 2, 4]) + lines[j]
            text = "\n".join(lines)
        elif roll < 0.88:
            depth = rng.choice([10, 70, 200, 2000])
            text = text[:i] + "[" * depth + "]" * depth + text[i:]
        else:
            text = text[:i] + rng.choice(" -:abcAKsh0123456789\n") + text[i + 1 :]
    return text


def _variant(rng: random.Random, base_id: str, base: dict[str, Any]) -> dict[str, Any]:
    """A variant of a shipped ruleset with random overrides and merge operations."""
    out: dict[str, Any] = {
        "id": f"fuzz-{rng.randrange(10**6)}",
        "name": "Fuzzed variant",
        "extends": base_id,
        "summary": "A fuzzed variant.",
    }
    for _ in range(rng.randint(1, 4)):
        paths = [p for p in _paths(base) if p and p[0] not in ("id", "name", "extends", "summary")]
        path = rng.choice(paths)
        # Keep only the mapping part of the path (lists are replaced or operated on whole).
        cut = next((k for k, part in enumerate(path) if isinstance(part, int)), len(path))
        path = path[:cut]
        if not path:
            continue
        old = _get(base, path)
        roll = rng.random()
        if isinstance(old, list) and roll < 0.6:
            op = rng.choice(["$append", "$remove", "$remove", "$delete"])
            if op == "$delete":
                value: Any = {"$delete": rng.choice([True, True, "yes", 1])}
            elif op == "$remove":
                items = rng.sample(old, min(len(old), rng.randint(1, 2))) if old else []
                value = {"$remove": rng.choice([items, items, rng.choice(HOSTILE)])}
            else:
                item = copy.deepcopy(rng.choice(old)) if old else rng.choice(HOSTILE)
                value = {"$append": rng.choice([[item], [item], item, rng.choice(HOSTILE)])}
        elif isinstance(old, dict) and roll < 0.2:
            value = {"$delete": True}
        else:
            value = _value(rng, base, old)
        node = out
        for part in path[:-1]:
            node = node.setdefault(part, {}) if isinstance(node.get(part, {}), dict) else node
        if isinstance(node, dict):
            node[path[-1]] = value
    return out


def _deck_size(d: dict[str, Any]) -> int:
    deck = d.get("deck", {})
    return len(deck.get("ranks", [])) * len(deck.get("suits", [])) - len(deck.get("remove", []))


def mutate_semantics(rng: random.Random, data: Any, count: int) -> Any:
    """Returns a copy with changes that keep the schema's types: the mechanisms recombined."""
    d = copy.deepcopy(data)
    if not isinstance(d, dict):
        return d
    contracts = d.get("auction", {}).get("contracts", {})
    for _ in range(count):
        what = rng.randrange(20)
        cid = rng.choice(list(contracts)) if contracts else None
        c = contracts.get(cid) if cid else None
        if what == 0:
            players = rng.randint(2, 6)
            talon = rng.choice([0, 0, d["deal"].get("talon", 0), rng.randint(0, 13)])
            hand = max(1, (_deck_size(d) - talon) // players)
            d["players"]["count"] = players
            d["deal"]["talon"] = _deck_size(d) - hand * players if rng.random() < 0.8 else talon
            d["deal"]["hand_size"] = hand
            d["deal"]["packets"] = rng.choice([[[hand]], [[hand - 1, 1]] if hand > 1 else [[hand]]])
        elif what == 1 and c is not None:
            c["help"] = rng.choice(["none", "call", "demand"])
        elif what == 2 and c is not None:
            options = list(d.get("options") or {}) or ["favourite"]
            c[rng.choice(["trump_option", "trump_not_option"])] = rng.choice(options)
        elif what == 3:
            key = rng.choice(["removed-suit", "favourite", "second"])
            choices = rng.sample(SUITS, rng.randint(1, 4))
            d.setdefault("options", {})[key] = {
                "name": key,
                "kind": rng.choice(["remove-suit", "suit"]),
                "choices": choices,
                "default": rng.choice(choices),
                "basis": {"evidence": "conjecture"},
            }
        elif what == 4:
            removed = d["deck"].setdefault("remove", [])
            card = rng.choice(CARDS)
            if card in removed:
                removed.remove(card)
            else:
                removed.append(card)
        elif what == 5:
            decl = d.get("declarations", {}).get(rng.choice(["call", "demand"]))
            if decl:
                decl["own_card"] = rng.choice(["alone", "forbidden"])
                decl["trump_suit_allowed"] = rng.random() < 0.5
                decl["rank"] = rng.choice(RANKS)
        elif what == 6:
            ex = d.setdefault("exchange", {"basis": {"evidence": "conjecture"}})
            ex[rng.choice(["first_max", "leave_at_least"])] = rng.randint(0, 12)
        elif what == 7:
            d["vole"]["after_tricks"] = rng.randint(1, 12)
        elif what == 8:
            flag = rng.choice(["follow_suit", "must_trump", "must_overtake"])
            d["play"][flag] = not d["play"][flag]
            d["play"]["leader"] = rng.choice(["eldest", "declarer"])
        elif what == 9 and d["settlement"].get("items"):  # a game in points may have none
            items = d["settlement"]["items"]
            item = items[rng.choice(list(items))]
            for key in ("amount", "per_matador"):
                if key in item:
                    item[key] = rng.randint(0, 20)
        elif what == 10:
            ap = d["auction"]["all_pass"]
            ap["action"] = rng.choice(["forced", "redeal"])
            if ap["action"] == "forced":
                ap["card"] = rng.choice(CARDS)
                ap["contract"] = cid or "x"
        elif what == 11 and c is not None:
            c["exchange"] = rng.choice(["declarer-first", "others-only", "none"])
            c["biddable"] = rng.random() < 0.8
            c["rank"] = rng.randint(0, 10)
        elif what == 12:
            d["matadors"]["payment"]["minimum"] = rng.randint(1, 5)
            d["matadors"]["privilege"]["higher_led_forces_lower"] = rng.random() < 0.5
        elif what in (14, 15):
            _mutate_results(rng, d, list(contracts))
        elif what in (17, 18, 19):
            _mutate_living(rng, d, cid, c)
        elif what == 16:
            # The play duties in every combination, following or not.
            for flag in ("follow_suit", "must_trump", "must_overtake"):
                d["play"][flag] = rng.random() < 0.5
        else:
            suits = d["deck"]["suits"]
            if len(suits) > 1 and rng.random() < 0.5:
                suits.remove(rng.choice(suits))
            ranks = d["deck"]["ranks"]
            if len(ranks) > 1 and rng.random() < 0.5:
                ranks.remove(rng.choice(ranks[4:] or ranks))
            hand = max(1, _deck_size(d) // d["players"]["count"])
            d["deal"]["hand_size"] = hand
            d["deal"]["talon"] = _deck_size(d) - hand * d["players"]["count"]
            d["deal"]["packets"] = [[hand]]
    return d


def _mutate_living(
    rng: random.Random, d: dict[str, Any], cid: str | None, c: dict[str, Any] | None
) -> None:
    """Recombines the living family's mechanisms (issue 16): the auction that goes round, equal
    rank, class bids, bids only to overcall, contracts without trumps, to take no trick, open,
    offered to the seat out and played by all, the duty to buy, the raise, the defenders'
    order, points and penalties, a party's target, the bête's growth, the palo de favor's
    items, the seat that sits out and a defender's vole."""
    basis = {"evidence": "conjecture"}
    contracts = d["auction"]["contracts"]
    ids = list(contracts) or ["x"]
    settlement = d["settlement"]
    roll = rng.randrange(22)
    if roll == 0:
        d["auction"]["speech"] = rng.choice(["once-each", "round"])
    elif roll == 1:
        d["auction"]["equal_rank"] = rng.choice(["refused", "earlier-holds"])
    elif roll == 2 and c is not None:
        c["bid_as"] = rng.choice(ids)
    elif roll == 3 and c is not None:
        faults = list(settlement.get("penalties") or {}) or ["fault"]
        c["only_to_overcall"] = rng.choice(["refused", {"penalty": rng.choice(faults)}])
        if rng.random() < 0.5:
            c["instead_of"] = rng.choice(ids)
    elif roll == 4 and c is not None:
        c["trumps"] = rng.choice(["named", "none"])
        c["aim"] = rng.choice(["tricks", "tricks", "no-tricks"])
    elif roll == 5 and c is not None:
        c["open"] = rng.choice(["before-first-lead", "after-first-lead"])
    elif roll == 6 and c is not None:
        c["biddable_when"] = rng.choice(
            ["always", "last-after-all-pass", "out-after-all-pass", "over-a-bid"]
        )
    elif roll == 7 and c is not None:
        hand = d["deal"]["hand_size"]
        c["all_play"] = {
            "draw": rng.choice([hand, hand, rng.randint(0, 13)]),
            "ties": "latest-trick",
        }
        if rng.random() < 0.7:
            c.update(
                biddable=True,
                biddable_when="out-after-all-pass",
                help="none",
                exchange="none",
                vole_allowed=False,
                trumps=rng.choice(["named", "none"]),
            )
    elif roll == 8 and c is not None:
        c["trump_suit"] = rng.choice(SUITS)
    elif roll == 9 and c is not None:
        c["declarer_may_play"] = rng.sample(ids, rng.randint(1, min(2, len(ids))))
    elif roll == 10 and c is not None:
        c["exchange_limits"] = {
            rng.choice(["declarer_min", "declarer_max"]): rng.randint(0, 9),
        }
        c["exchange"] = rng.choice(["declarer-first", "declarer-only", "others-only", "none"])
    elif roll == 11:
        ex = d.setdefault("exchange", {"basis": basis})
        ex["declarer_min"] = rng.randint(0, 3)
        ex["besides_turned"] = rng.random() < 0.5
        ex["defenders"] = rng.choice(["in-turn", "either-first"])
    elif roll == 12:
        if rng.random() < 0.7:
            d["auction"]["raise"] = {"to": "higher", "basis": basis}
        else:
            d["auction"].pop("raise", None)
    elif roll == 13:
        # A tariff entry with every role, the most tricks included.
        outcomes = list(settlement.get("outcomes") or {}) or ["win"]
        points = settlement.setdefault("points", {})
        row = points.setdefault(rng.choice(ids), {"basis": basis})
        roles = ["declarer", "partner", "opponents", "codille_winner", "most_tricks"]
        row[rng.choice(outcomes)] = rng.choice(
            [rng.randint(-6, 6), {rng.choice(roles): rng.randint(-6, 6)}]
        )
    elif roll == 14:
        settlement["unit"] = rng.choice(["point", settlement.get("unit", "jeton")])
        for out in (settlement.get("outcomes") or {}).values():
            if isinstance(out, dict) and rng.random() < 0.5:
                out["game"] = rng.choice(["won", "remise", "codille"])
    elif roll == 15:
        settlement.setdefault("penalties", {})[rng.choice(["fault", "early-suit"])] = {
            "name": "a fault",
            "points": rng.randint(1, 3),
            "basis": basis,
        }
    elif roll == 16:
        d["party"] = rng.choice(
            [
                {"target": rng.randint(1, 12), "basis": basis},
                {"deals": rng.randint(1, 12), "basis": basis},
            ]
        )
    elif roll == 17 and isinstance(settlement.get("bete"), dict):
        settlement["bete"]["growth"] = rng.choice(
            ["in-play", "doubling", {"step": rng.randint(1, 20)}]
        )
    elif roll == 18 and settlement.get("items"):
        item = settlement["items"][rng.choice(list(settlement["items"]))]
        options = list(d.get("options") or {}) or ["favourite-suit"]
        item["favourite_option"] = rng.choice(options)
        item["favourite_amount"] = rng.randint(0, 10)
    elif roll == 19:
        players = d["players"]
        choice = rng.choice(["dealer", "opposite-dealer", None])
        if choice is None:
            players.pop("sits_out", None)
        else:
            players["sits_out"] = choice
    elif roll == 20:
        d["vole"]["by"] = rng.choice(["side", "any-seat"])
    elif c is not None:
        c["vole_allowed"] = rng.random() < 0.5
        c["announces_vole"] = rng.random() < 0.3


def _mutate_results(rng: random.Random, d: dict[str, Any], contracts: list[str]) -> None:
    """Changes the results table: a rule dropped, moved, bounded anew, restricted to a contract
    or given another result; gaps are what the checks must find."""
    rules = d.get("results", {}).get("rules")
    if not isinstance(rules, list) or not rules:
        return
    hand = d["deal"]["hand_size"]
    outcomes = list(d["settlement"]["outcomes"]) or ["win"]
    k = rng.randrange(len(rules))
    rule = rules[k]
    when = rule.setdefault("when", {})
    roll = rng.randrange(7)
    if roll == 0 and len(rules) > 1:
        del rules[k]
    elif roll == 1 and len(rules) > 1:
        rules.insert(rng.randrange(len(rules)), rules.pop(k))
    elif roll == 2:
        bound = rng.choice(["at_least", "at_most", "exactly"])
        when.pop("otherwise", None)
        when.setdefault("side_tricks", {})[bound] = rng.randint(0, hand)
    elif roll == 3 and contracts:
        when["contract"] = rng.sample(contracts, rng.randint(1, min(2, len(contracts))))
    elif roll == 4:
        rule["result"] = rng.choice(outcomes)
    elif roll == 5:
        rules[:] = [r for r in rules if not r.get("when", {}).get("otherwise")] or rules
    else:
        key = rng.choice(["more_than_each_opponent", "single_opponent_most", "laid_down"])
        when.pop("otherwise", None)
        when[key] = True


@dataclass
class Case:
    """One generated input: its name, its text (or bytes) and which oracle reads it."""

    kind: str
    name: str
    text: str | bytes


def rule_case(seed: int, index: int) -> Case:
    """Returns the rule-file case ``index`` of the run ``seed``."""
    rng = random.Random(f"rules {seed} {index}")
    roll = rng.random()
    out: str | bytes
    if roll < 0.6:
        name, full = rng.choice(resolved_sources())
        if roll < 0.4:
            mutated = mutate_semantics(rng, full, rng.choice([1, 1, 2, 3, 5]))
        else:
            mutated = mutate_data(rng, full, rng.choice([1, 1, 2, 3]))
        if isinstance(mutated, dict) and rng.random() < 0.95:
            mutated["id"] = f"fuzz-{index}"
            mutated.pop("aliases", None)
        out = dump(mutated)
    elif roll < 0.85:
        name, full = rng.choice(resolved_sources())
        out = dump(_variant(rng, name, full))
    else:
        name, text = rng.choice(rule_sources())
        out = mutate_text(rng, text, rng.choice([1, 1, 2, 4]))
        if rng.random() < 0.1:
            out = out.encode("utf-8", "surrogatepass")
            cut = rng.randrange(len(out))
            out = out[:cut] + bytes([rng.choice([0xFF, 0xC3, 0x80, 0x00])]) + out[cut:]
    return Case("rules", f"rules-{seed}-{index}-{name}", out)


def record_case(seed: int, index: int) -> Case:
    """Returns the record case ``index`` of the run ``seed``."""
    rng = random.Random(f"records {seed} {index}")
    name, text = rng.choice(record_sources())
    data = yaml.safe_load(text)
    roll = rng.random()
    out: str | bytes
    if roll < 0.5:
        out = dump(mutate_data(rng, data, rng.choice([1, 1, 2, 3])))
    elif roll < 0.65:
        # Seats, names and text fields: the values a hostile hand would write.
        data = copy.deepcopy(data)
        target = data["deals"][0] if "deals" in data else data
        field = rng.choice(["seat", "ruleset", "note", "dealer", "options"])
        if field == "seat" and target.get("actions"):
            k = rng.randrange(len(target["actions"]))
            words = str(target["actions"][k]).split(" ", 1)
            seat = rng.choice(["²", "--1", "-1", "9", "99999", "1.0", "٣", "", "0x1"])
            target["actions"][k] = f"{seat} {words[-1]}"
        elif field == "ruleset":
            data["ruleset"] = rng.choice(
                ["a\x00b", "quadrille\n", "../" * 5 + "etc/passwd", "x" * 5000, "/dev/zero", "é"]
            )
        elif field == "note":
            data["note"] = rng.choice(["a\x85b", "\u2028", "\x01", "line\nbreak", "é" * 50])
        elif field == "dealer":
            target["dealer"] = rng.choice([-1, 99, 1.0, "1", True, 10**20])
        else:
            data["options"] = rng.choice([{"removed-suit": "hearts"}, {"x": "y"}, [], "a"])
        out = dump(data)
    else:
        out = mutate_text(rng, text, rng.choice([1, 1, 2, 4]))
        if rng.random() < 0.15:
            out = out.encode("utf-8", "surrogatepass")
            cut = rng.randrange(len(out))
            out = out[:cut] + bytes([rng.choice([0xFF, 0xC3, 0x80, 0x00])]) + out[cut:]
    return Case("records", f"records-{seed}-{index}-{name}", out)


# Oracles.


class Failure(Exception):
    """An oracle's verdict that the engine misbehaved on an input."""


def _setups(rules: Any) -> list[dict[str, str]]:
    items = list(rules.options.items())
    return [
        {k: s.value for (k, _), s in zip(items, values, strict=True)}
        for values in itertools.product(*(o.choices for _, o in items))
    ][:64]


def play_out(rules: Any, options: dict[str, str], seed: int) -> None:
    """Plays a deal with random legal actions; raises Failure if an invariant breaks."""
    from engine.referee import Deal
    from engine.referee.settlement import TableState

    rng = random.Random(seed)
    deal = Deal(rules, seed=seed, dealer=seed % rules.players, options=options, table=TableState())
    steps = 0
    while not deal.is_over:
        legal = deal.legal_actions()
        if not legal:
            raise Failure(f"no legal action in phase {deal.phase} (options {options}, seed {seed})")
        if steps > 300:
            # Revokes that are penalised (not refused) let a random player revoke and notice
            # for ever; past a long deal, take only the moves that make progress.
            plain = [a for a in legal if a.verb not in ("renonce", "notice")]
            legal = plain or legal
        _check_duties(rules, deal, legal)
        deal.apply(legal[int(rng.random() * len(legal))], seat=deal.to_move)
        steps += 1
        if steps > 5000:
            raise Failure(f"the deal does not end (options {options}, seed {seed})")
    _check_result(rules, deal)
    s = deal.settlement
    if s is None:
        raise Failure("a finished deal has no settlement")
    numbers = [*s.balances, s.pot_before, s.pot_after]
    if not all(type(x) is int for x in numbers):
        raise Failure(f"counters are not integers: {numbers}")
    if rules.in_points:
        # Points are scored from a tariff, not paid between seats: only the table must stay
        # untouched (tools/sweep.py checks each score against its tariff row).
        if s.pot_after != s.pot_before:
            raise Failure(f"a game in points moved the pot: {s.pot_before}->{s.pot_after}")
    elif sum(s.balances) + s.pot_after - s.pot_before != 0:
        raise Failure(f"counters not conserved: {s.balances}, pot {s.pot_before}->{s.pot_after}")
    json.dumps(deal.report())


def _check_duties(rules: Any, deal: Any, legal: list[Any]) -> None:
    """The duties to trump and to overtake, checked on the cards offered (read independently of
    the referee's staged filter): a player void in a plain suit led who holds a trump is offered
    only trumps; a player offered a card that beats the best on the table is offered only such
    cards (to a plain suit led: the matadors' privilege concerns trump leads)."""
    if deal.phase != "play" or not deal.trick or deal.tr is None:
        return
    plays = [a.card.index for a in legal if a.verb == "play"]
    if not plays:
        return
    tr = deal.tr
    follow, strength = tr.follow, tr.strength
    led = follow[deal.trick[0]]
    if led == 4:
        return
    hand = [c for c in range(64) if deal.hands[deal.to_move] >> c & 1]
    holds_led = any(follow[c] == led for c in hand)
    if rules.follow_suit and holds_led and any(follow[c] != led for c in plays):
        raise Failure(f"a card off the suit led is offered to a player who can follow: {legal}")
    trumps_held = any(follow[c] == 4 for c in hand)
    if rules.must_trump and not holds_led and trumps_held and any(follow[c] != 4 for c in plays):
        raise Failure(f"must_trump: a void player holding trumps is offered others: {legal}")
    if rules.must_overtake:
        scoring = [c for c in deal.trick if follow[c] in (4, led)]
        best = max(strength[c] for c in scoring)

        def beats(c: int) -> bool:
            return follow[c] in (4, led) and strength[c] > best

        if any(beats(c) for c in plays) and not all(beats(c) for c in plays):
            raise Failure(f"must_overtake: a card that does not beat is offered too: {legal}")


def _check_result(rules: Any, deal: Any) -> None:
    """The result is the first rule of the table whose condition holds, read here on its own
    (not with the referee's predicate); a deal no rule covers is a failure, not a fallback."""
    if deal.result in (None, "redeal"):
        return
    side = deal.side
    won = deal.won
    side_tricks = sum(won[s] for s in side)
    opponents = [won[s] for s in range(len(won)) if s not in side]
    played = len(deal.tricks)
    contract = deal.contract.id if deal.contract is not None else None
    hand = rules.hand_size
    for rule in rules.results:
        w = rule.when
        checks = [
            w.contracts is None or contract in w.contracts,
            not w.laid_down or played < hand,
            w.vole is None
            or (
                deal.vole_undertaken
                and (w.vole.value == "made") == (side_tricks == hand and played == hand)
            ),
            w.side_exactly is None or side_tricks == w.side_exactly,
            w.side_at_least is None or side_tricks >= w.side_at_least,
            w.side_at_most is None or side_tricks <= w.side_at_most,
            not w.more_than_each_opponent or all(side_tricks > o for o in opponents),
            not w.single_opponent_most
            or (
                max(opponents, default=0) > side_tricks
                and opponents.count(max(opponents, default=0)) == 1
            ),
        ]
        if all(checks):
            if deal.result != rule.result:
                raise Failure(
                    f"result {deal.result!r}, but the first rule that holds is {rule.result!r}"
                )
            return
    raise Failure(
        f"no rule of the results table holds for tricks {won} (side {side}, {played} played,"
        f" contract {contract}), yet the deal was settled as {deal.result!r}"
    )


_REGISTRY: Any = None


def check_rule_file(path: Path, fresh: bool = False) -> str:
    """The rule-file oracle: returns "refused" or "plays", or raises."""
    from engine.cli import _show_json
    from engine.documents.book import show_text
    from engine.errors import Problem, RuleFileError
    from engine.rules.loader import Registry
    from engine.rules.model import build_ruleset

    global _REGISTRY
    if _REGISTRY is None or fresh:
        _REGISTRY = Registry()
    registry = _REGISTRY
    try:
        resolved = registry.resolve(registry.add_path(path))
    except RuleFileError as exc:
        if not exc.problems or not all(isinstance(p, Problem) for p in exc.problems):
            raise Failure("a RuleFileError without located problems") from None
        for p in exc.problems:
            str(p)
        return "refused"
    rules = build_ruleset(resolved)
    for k, options in enumerate(_setups(rules)):
        for d in range(DEALS_PER_SETUP):
            play_out(rules, options, 1000 * k + d)
    show_text(rules)
    json.dumps(_show_json(rules))
    return "plays"


def check_record(path: Path) -> str:
    """The record oracle: returns "refused", "replayed" or "illegal", or raises."""
    from engine import load_ruleset
    from engine.documents.deal_page import replay_story
    from engine.errors import NotationError, RecordError, RuleFileError
    from engine.records import parse_record, read_record, replay, write_record
    from engine.render import render

    try:
        record = read_record(path)
    except RecordError:
        return "refused"
    again = parse_record(write_record(record))
    if again != record:
        raise Failure(f"a record does not survive write and read: {record!r} != {again!r}")
    try:
        rules = load_ruleset(record.ruleset)
    except (NotationError, RuleFileError):
        return "refused"
    try:
        report = replay(record, rules)
        story = replay_story(record, rules, path)  # what `ombre replay` renders
    except RecordError:
        return "refused"
    json.dumps(report.as_json())
    render("replay.txt.j2", "text", story=story)
    return "illegal" if report.error is not None else "replayed"


ORACLES: dict[str, Callable[[Path], str]] = {"rules": check_rule_file, "records": check_record}


_COUNTER = itertools.count()


class _Timeout(Exception):
    pass


def _alarm(signum: int, frame: Any) -> None:
    raise _Timeout


def run_case(case: Case, folder: Path) -> tuple[str, str | None]:
    """Runs one case; returns (verdict, None) or ("failure", traceback)."""
    # A new name for every run: the oracle's registry (reused for speed) keys files by path.
    path = folder / f"{case.kind}-{os.getpid()}-{next(_COUNTER)}.yaml"
    data = case.text if isinstance(case.text, bytes) else case.text.encode("utf-8", "surrogatepass")
    path.write_bytes(data)
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(TIMEOUT)
    try:
        return ORACLES[case.kind](path), None
    except _Timeout:
        return "failure", f"Timeout: more than {TIMEOUT} s"
    except Exception:
        return "failure", traceback.format_exc()
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
        path.unlink(missing_ok=True)


def _signature(trace: str | None) -> str | None:
    """The kind and place of a failure (the exception line and the innermost frame)."""
    if trace is None:
        return None
    lines = [line for line in trace.strip().splitlines() if line.strip()]
    frames = [line.strip() for line in lines if line.strip().startswith("File ")]
    last = lines[-1].split(":", 1)[0] if lines else ""
    return f"{last} @ {frames[-1] if frames else ''}"


def shrink(case: Case, folder: Path, budget: int = 300) -> Case:
    """Returns a smaller input that fails the same way (lines, then characters removed)."""
    raw = case.text if isinstance(case.text, bytes) else case.text.encode("utf-8", "surrogatepass")
    want = _signature(run_case(case, folder)[1])
    calls = 0

    def fails(candidate: bytes) -> bool:
        nonlocal calls
        calls += 1
        return _signature(run_case(Case(case.kind, case.name, candidate), folder)[1]) == want

    for sep in (b"\n", None):
        units: list[bytes] = raw.split(b"\n") if sep else [bytes([b]) for b in raw]
        joiner = sep or b""
        chunk = max(1, len(units) // 2)
        while chunk >= 1 and calls < budget:
            i = 0
            while i < len(units) and calls < budget:
                trial = units[:i] + units[i + chunk :]
                if trial and fails(joiner.join(trial)):
                    units = trial
                else:
                    i += chunk
            chunk //= 2
        raw = joiner.join(units)
        if len(raw) > 4000:
            break  # characters one by one would not finish within the budget
    return Case(case.kind, case.name, raw)


def _worker(job: tuple[str, int, int, str]) -> tuple[str, int, str, str | None]:
    kind, seed, index, folder = job
    case = (rule_case if kind == "rules" else record_case)(seed, index)
    verdict, trace = run_case(case, Path(folder))
    return kind, index, verdict, trace


def _init_worker() -> None:
    os.environ["OMBRE_NO_CACHE"] = "1"


def run(
    rules: int,
    records: int,
    *,
    seed: int = 1,
    jobs: int = 0,
    out: Path | None = None,
    echo: Callable[[str], None] = print,
    progress: bool = False,
) -> dict[str, Any]:
    """Runs the cases, saves each failure shrunk in ``out``; returns the counts. With
    ``progress``, a progress bar on stderr instead of a line every 1,000 cases."""
    import contextlib
    import multiprocessing

    from engine.simulate import progress_bar

    jobs = jobs or os.cpu_count() or 1
    counts: dict[str, dict[str, int]] = {"rules": {}, "records": {}}
    failures: list[dict[str, Any]] = []
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="ombre-fuzz-") as tmp:
        work = [("rules", seed, i, tmp) for i in range(rules)]
        work += [("records", seed, i, tmp) for i in range(records)]
        if jobs == 1:
            os.environ["OMBRE_NO_CACHE"] = "1"
            results: Iterator[tuple[str, int, str, str | None]] = map(_worker, work)
            pool = None
        else:
            pool = multiprocessing.get_context("fork").Pool(jobs, initializer=_init_worker)
            results = pool.imap_unordered(_worker, work, chunksize=8)
        done = 0
        stack = contextlib.ExitStack()
        bar = stack.enter_context(
            progress_bar(len(work), "cases", enabled=progress, verb="fuzzing")
        )
        try:
            for kind, index, verdict, trace in results:
                counts[kind][verdict] = counts[kind].get(verdict, 0) + 1
                done += 1
                if trace is not None:
                    failures.append({"kind": kind, "index": index, "trace": trace})
                    echo(f"FAIL {kind} seed {seed} case {index}: {trace.strip().splitlines()[-1]}")
                if bar is not None:
                    bar(done)
                elif done % 1000 == 0:
                    echo(f"{done}/{len(work)} cases, {time.perf_counter() - start:.0f} s")
        finally:
            stack.close()
            if pool is not None:
                pool.close()
                pool.join()
        if failures and out is not None:
            out.mkdir(parents=True, exist_ok=True)
            for f in failures:
                case = (rule_case if f["kind"] == "rules" else record_case)(seed, f["index"])
                small = shrink(case, Path(tmp))
                base = out / case.name
                data = small.text if isinstance(small.text, bytes) else small.text.encode()
                base.with_suffix(".yaml").write_bytes(data)
                base.with_suffix(".txt").write_text(
                    f"python -m tests.fuzz --replay {base.with_suffix('.yaml')} --kind {f['kind']}"
                    f"\n(seed {seed}, case {f['index']})\n\n{f['trace']}",
                    encoding="utf-8",
                )
                echo(f"saved {base.with_suffix('.yaml')} ({len(data)} bytes)")
    seconds = time.perf_counter() - start
    return {"counts": counts, "failures": len(failures), "seconds": round(seconds, 1)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.fuzz", description=__doc__)
    parser.add_argument("--rules", type=int, default=1000, help="rule-file cases (default 1000)")
    parser.add_argument("--records", type=int, default=1000, help="record cases (default 1000)")
    parser.add_argument("--seed", type=int, default=1, help="the run's seed (default 1)")
    parser.add_argument("--jobs", type=int, default=0, help="worker processes (default: cores)")
    parser.add_argument("--out", type=Path, default=Path("fuzz-failures"), help="reproducers")
    parser.add_argument("--replay", type=Path, help="run one saved input instead")
    parser.add_argument("--kind", choices=list(ORACLES), default="rules", help="with --replay")
    args = parser.parse_args(argv)
    if args.replay is not None:
        verdict = ORACLES[args.kind](args.replay)
        print(verdict)
        return 0
    summary = run(
        args.rules,
        args.records,
        seed=args.seed,
        jobs=args.jobs,
        out=args.out,
        progress=sys.stderr.isatty(),
    )
    for kind, counts in summary["counts"].items():
        shown = ", ".join(f"{v} {k}" for k, v in sorted(counts.items()))
        print(f"{kind}: {sum(counts.values())} cases ({shown})")
    print(f"{summary['failures']} failures in {summary['seconds']} s (seed {args.seed})")
    return 1 if summary["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())

"""Writes engine/schema/ruleset.schema.json (the rule-file JSON Schema, Draft 2020-12).

The schema is data shipped in the package; this script is only its readable source. Run
``python tools/gen_schema.py`` after editing; a test checks the committed file is current.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ID = {"type": "string", "pattern": "^[a-z0-9][a-z0-9-]*$"}
# The ranks of the French pack (engine/cards.py); the ten is written T or "10".
RANK = {"enum": ["A", "K", "Q", "J", "T", "10", "9", "8", "7", "6", "5", "4", "3", "2"]}
SUIT = {"enum": ["spades", "clubs", "hearts", "diamonds"]}
CARD = {"type": "string", "pattern": "^(?:[AKQJT98765432]|10)[schd]$"}
NAT = {"type": "integer", "minimum": 0}
BASIS = {"$ref": "#/$defs/basis"}


def obj(props: dict, required: list[str] | None = None, basis: bool = True) -> dict:
    p = dict(props)
    if basis:
        p["basis"] = BASIS
    out: dict = {"type": "object", "additionalProperties": False, "properties": p}
    req = list(required or [])
    if basis:
        req.append("basis")
    if req:
        out["required"] = req
    return out


def idmap(value: dict) -> dict:
    return {
        "type": "object",
        "propertyNames": ID,
        "additionalProperties": value,
    }


def arr(items: dict, **kw: object) -> dict:
    return {"type": "array", "items": items, **kw}


INT = {"type": "integer"}
# The points one result scores under one contract: a number (the declarer's), or by role.
POINTS = {
    "oneOf": [
        INT,
        obj(
            {
                "declarer": INT,
                "partner": INT,
                "opponents": INT,
                "codille_winner": INT,
                "most_tricks": INT,
            },
            basis=False,
        )
        | {"minProperties": 1},
    ]
}

TRICKS = obj({"at_least": NAT, "at_most": NAT, "exactly": NAT}, basis=False) | {"minProperties": 1}

SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "https://ombre-workbench.invalid/ruleset.schema.json",
    "title": "Ombre-family rule file",
    "description": "A ruleset or a house-rule variant of the Ombre family (ombre-workbench).",
    "type": "object",
    "additionalProperties": False,
    "required": [
        "id",
        "name",
        "summary",
        "sources",
        "players",
        "deck",
        "ranking",
        "matadors",
        "deal",
        "auction",
        "declarations",
        "play",
        "vole",
        "results",
        "settlement",
    ],
    "properties": {
        "id": ID,
        "name": {"type": "string", "minLength": 1},
        "aliases": arr({"type": "string", "minLength": 1}, uniqueItems=True),
        "extends": {"type": "string", "minLength": 1},
        "summary": {"type": "string", "minLength": 1},
        "sources": idmap(
            obj(
                {
                    "title": {"type": "string", "minLength": 1},
                    "kind": {"enum": ["primary", "secondary", "modern", "house"]},
                    "year": {"type": "integer"},
                    "url": {"type": "string"},
                },
                ["title", "kind"],
                basis=False,
            )
        ),
        "players": obj(
            {
                "count": {"type": "integer", "minimum": 2, "maximum": 6},
                "direction": {"enum": ["counter-clockwise", "clockwise"]},
                "sits_out": {"enum": ["dealer", "opposite-dealer"]},
            },
            ["count", "direction"],
        ),
        "deck": obj(
            {
                "ranks": arr(RANK, minItems=1, uniqueItems=True),
                "suits": arr(SUIT, minItems=1, uniqueItems=True),
                "remove": arr(CARD, uniqueItems=True),
            },
            ["ranks", "suits"],
        ),
        "options": idmap(
            obj(
                {
                    "name": {"type": "string"},
                    "kind": {"enum": ["remove-suit", "suit"]},
                    "choices": arr(SUIT, minItems=1, uniqueItems=True),
                    "default": SUIT,
                },
                ["name", "kind", "choices", "default"],
            )
        ),
        "ranking": obj(
            {
                "plain": obj(
                    {"black": arr(RANK, uniqueItems=True), "red": arr(RANK, uniqueItems=True)},
                    ["black", "red"],
                ),
                "no_trumps": obj(
                    {"black": arr(RANK, uniqueItems=True), "red": arr(RANK, uniqueItems=True)},
                    ["black", "red"],
                ),
                "trumps": obj(
                    {
                        "top": arr(
                            obj(
                                {
                                    "name": {"type": "string", "minLength": 1},
                                    "card": CARD,
                                    "rank": obj({"black": RANK, "red": RANK}, basis=False)
                                    | {"minProperties": 1},
                                    "matador": {"type": "boolean"},
                                },
                                ["name", "matador"],
                            )
                            | {"oneOf": [{"required": ["card"]}, {"required": ["rank"]}]},
                            minItems=1,
                        ),
                        "then": {"enum": ["plain-order"]},
                    },
                    ["top", "then"],
                ),
            },
            ["plain", "trumps"],
            basis=False,
        ),
        "matadors": obj(
            {
                "privilege": obj(
                    {
                        "cards": arr({"type": "string"}, uniqueItems=True),
                        "higher_led_forces_lower": {"type": "boolean"},
                    },
                    ["cards", "higher_led_forces_lower"],
                ),
                "payment": obj(
                    {
                        "from": {"type": "string"},
                        "minimum": {"type": "integer", "minimum": 1},
                        "held_by": {"enum": ["side", "declarer"]},
                    },
                    ["from", "minimum", "held_by"],
                ),
            },
            ["privilege", "payment"],
            basis=False,
        ),
        "deal": obj(
            {
                # Never more than the largest pack (52) holds: a hand of 10**30 is refused at
                # once, not after minutes of checks over it.
                "hand_size": {"type": "integer", "minimum": 1, "maximum": 52},
                "talon": {"type": "integer", "minimum": 0, "maximum": 52},
                "packets": arr(arr({"type": "integer", "minimum": 1}, minItems=1), minItems=1),
                # Who cuts, seen from the dealer; a record's `cut` is checked against it.
                "cut": obj({"by": {"enum": ["left", "right"]}}, ["by"]),
            },
            ["hand_size", "talon", "packets"],
        ),
        "auction": obj(
            {
                "contracts": idmap(
                    obj(
                        {
                            "name": {"type": "string", "minLength": 1},
                            "aliases": arr(
                                {"type": "string", "pattern": "^[^\\sA-Z]+$"}, uniqueItems=True
                            ),
                            "rank": NAT,
                            "biddable": {"type": "boolean"},
                            "help": {"enum": ["none", "call", "demand"]},
                            "matchable": {"type": "boolean"},
                            "vole_allowed": {"type": "boolean"},
                            "shared_liability": {"type": "boolean"},
                            "exchange": {
                                "enum": ["declarer-first", "others-only", "declarer-only", "none"]
                            },
                            "trumps": {"enum": ["named", "none"]},
                            "aim": {"enum": ["tricks", "no-tricks"]},
                            "open": {"enum": ["before-first-lead", "after-first-lead"]},
                            "biddable_when": {
                                "enum": [
                                    "always",
                                    "last-after-all-pass",
                                    "out-after-all-pass",
                                    "over-a-bid",
                                ]
                            },
                            "all_play": obj(
                                {"draw": NAT, "ties": {"enum": ["latest-trick"]}},
                                ["draw", "ties"],
                                basis=False,
                            ),
                            "trump_option": ID,
                            "trump_not_option": ID,
                            "announces_vole": {"type": "boolean"},
                            "trump_from_talon": {"type": "boolean"},
                            "trump_with_bid": {"type": "boolean"},
                            "trump_named_by": {"enum": ["declarer", "partner"]},
                            "requires_cards": arr(CARD, minItems=1, uniqueItems=True),
                            "trump_suit": SUIT,
                            "bid_as": ID,
                            "only_to_overcall": {
                                "oneOf": [
                                    {"enum": ["refused"]},
                                    obj(
                                        {
                                            "penalty": ID,
                                            "basis": BASIS,
                                        },
                                        ["penalty"],
                                        basis=False,
                                    ),
                                ]
                            },
                            "instead_of": ID,
                            "declarer_may_play": arr(ID, minItems=1, uniqueItems=True),
                            "exchange_limits": obj(
                                {"declarer_min": NAT, "declarer_max": NAT},
                                [],
                                basis=False,
                            )
                            | {"minProperties": 1},
                        },
                        ["name", "rank", "biddable", "help"],
                    )
                ),
                "speech": {"enum": ["once-each", "round", "duel"]},
                "equal_rank": {"enum": ["refused", "earlier-holds", "earlier-holds-same"]},
                "raise": obj({"to": {"enum": ["higher"]}}, ["to"]),
                "all_pass": obj(
                    {
                        "action": {"enum": ["forced", "redeal"]},
                        "card": CARD,
                        "contract": ID,
                        "add_stakes": arr({"$ref": "#/$defs/stake"}),
                    },
                    ["action"],
                ),
            },
            ["contracts", "speech", "all_pass"],
        ),
        "declarations": obj(
            {
                "trump": obj({}, []),
                "call": {"$ref": "#/$defs/call"},
                "demand": {"$ref": "#/$defs/call"},
            },
            ["trump"],
            basis=False,
        ),
        "exchange": obj(
            {
                "first_max": {"type": "integer", "minimum": 0},
                "leave_at_least": NAT,
                "leave_unless_matador": {"type": "boolean"},
                "declarer_min": NAT,
                "besides_turned": {"type": "boolean"},
                "defenders": {"enum": ["in-turn", "either-first"]},
            },
            [],
        ),
        "play": obj(
            {
                "leader": {"enum": ["eldest", "declarer", "after-declarer"]},
                "follow_suit": {"type": "boolean"},
                "must_trump": {"type": "boolean"},
                "must_overtake": {"type": "boolean"},
                "renonce": obj({"action": {"enum": ["refused", "penalised"]}}, ["action"]),
            },
            ["leader", "follow_suit", "must_trump", "must_overtake"],
        ),
        "laws": obj(
            {
                # The laws of the play (an exposed card, play out of turn, cards shown, a hand
                # laid down without naming trumps, a hand turned up, the king's holder known).
                "exposed_card": obj(
                    {
                        "remedy": {"enum": ["call-card"]},
                        "exempt": arr({"enum": ["alone", "self-caller"]}, uniqueItems=True),
                    },
                    ["remedy"],
                ),
                "out_of_turn": obj(
                    {
                        "remedy": arr(
                            {"enum": ["call-card", "require-suit"]}, minItems=1, uniqueItems=True
                        ),
                        "bars_vole": {"type": "boolean"},
                    },
                    ["remedy"],
                ),
                "shown_cards": obj(
                    {
                        "remedy": {"enum": ["dictate"]},
                        "before_side_tricks": {"type": "integer", "minimum": 1},
                        "bars_vole": {"type": "boolean"},
                    },
                    ["remedy", "before_side_tricks"],
                ),
                "lay_down_unnamed": obj(
                    {"contracts": arr(ID, minItems=1, uniqueItems=True)},
                    ["contracts"],
                ),
                "turned_hand": obj({"bete": {"enum": ["halves"]}}, ["bete"]),
                # The laws of the deal (engine/referee/deal_laws.py): misdeals, a card too many,
                # several revokes, claims before the next deal.
                "misdeal": obj(
                    {
                        "faults": arr(
                            {"enum": ["too-many", "too-few", "duplicate", "faced", "faced-last"]},
                            minItems=1,
                            uniqueItems=True,
                        ),
                        "redealt_by": {"enum": ["same", "next"]},
                    },
                    ["faults", "redealt_by"],
                ),
                "eleven_cards": obj({"penalty": {"enum": ["bete"]}}, ["penalty"]),
                "revokes": obj({"several": {"enum": ["retake", "stand"]}}, ["several"]),
                "claims_before_next_deal": obj(
                    {"items": arr({"type": "string"}, minItems=1, uniqueItems=True)}, ["items"]
                ),
                "partner_known_no_vole": obj(
                    {
                        "leads": arr(
                            {"type": "string", "minLength": 1}, minItems=1, uniqueItems=True
                        ),
                        "called_card": {"type": "boolean"},
                    },
                    ["leads"],
                ),
            },
            [],
            basis=False,
        ),
        "vole": obj(
            {
                "after_tricks": {"type": "integer", "minimum": 1},
                "requires_partner_seen": {"type": "boolean"},
                "by": {"enum": ["side", "any-seat"]},
            },
            ["after_tricks"],
        ),
        "results": obj(
            {
                "measure": {"enum": ["side"]},
                "rules": arr(
                    obj(
                        {
                            "result": ID,
                            "when": obj(
                                {
                                    "vole": {"enum": ["made", "failed"]},
                                    "side_tricks": TRICKS,
                                    "more_than_each_opponent": {"const": True},
                                    "single_opponent_most": {"const": True},
                                    "otherwise": {"const": True},
                                    "contract": arr(ID, minItems=1, uniqueItems=True),
                                    "laid_down": {"const": True},
                                },
                                basis=False,
                            )
                            | {"minProperties": 1},
                        },
                        ["result", "when"],
                    ),
                    minItems=1,
                ),
            },
            ["measure", "rules"],
            basis=False,
        ),
        "party": obj(
            {
                "tours": {"type": "integer", "minimum": 1},
                "last_tour_factor": {"type": "integer", "minimum": 1},
                "deals": {"type": "integer", "minimum": 1},
                "target": {"type": "integer", "minimum": 1},
            },
        )
        | {
            "oneOf": [
                {"required": ["tours", "last_tour_factor"]},
                {"required": ["deals"]},
                {"required": ["target"]},
            ]
        },
        "settlement": obj(
            {
                "unit": {"type": "string"},
                "fiche": {"type": "integer", "minimum": 1},
                "stakes": arr({"$ref": "#/$defs/stake"}),
                "items": idmap(
                    obj(
                        {
                            "name": {"type": "string", "minLength": 1},
                            "amount": NAT,
                            "per_matador": NAT,
                            "in_play": {"const": True},
                            "single_stake_only": {"const": True},
                            "by_contract": idmap(NAT),
                            "contracts": arr(ID, uniqueItems=True),
                            "favourite_option": ID,
                            "favourite_amount": NAT,
                        },
                        ["name"],
                    )
                    | {
                        "oneOf": [
                            {"required": ["amount"]},
                            {"required": ["per_matador"]},
                            {"required": ["in_play"]},
                        ]
                    }
                ),
                "outcomes": idmap(
                    obj(
                        {
                            "name": {"type": "string", "minLength": 1},
                            "pot": {
                                "enum": ["side", "opponents", "codille-winner", "stays", "board"]
                            },
                            "game": {"enum": ["won", "remise", "codille"]},
                            "bete": {"type": "boolean"},
                            "receive": arr(ID, uniqueItems=True),
                            "pay": arr(ID, uniqueItems=True),
                        },
                    )
                    | {"anyOf": [{"required": ["pot"]}, {"required": ["game"]}]}
                ),
                "points": idmap(
                    {
                        "type": "object",
                        "propertyNames": ID,
                        "properties": {"basis": BASIS},
                        "additionalProperties": POINTS,
                        "required": ["basis"],
                        "minProperties": 2,
                    }
                ),
                "penalties": idmap(
                    obj(
                        {
                            "name": {"type": "string", "minLength": 1},
                            "points": {"type": "integer", "minimum": 1},
                        },
                        ["name", "points"],
                    )
                ),
                "sharing": obj(
                    {
                        "split": {"enum": ["halves"]},
                        "odd_counter": obj({"to": {"enum": ["declarer"]}}, ["to"]),
                        "sole_liability_below": NAT,
                    },
                    ["split", "odd_counter"],
                ),
                "bete": obj(
                    {
                        "amount": {"enum": ["in-play"]},
                        "stake_value": {"type": "integer", "minimum": 1},
                        "cap_over_bete_in_play": {"enum": ["stakes", "none"]},
                        "doubling_after_first_remise": {"type": "boolean"},
                        "going": {"enum": ["largest-first", "all"]},
                        "growth": {
                            "oneOf": [
                                {"enum": ["in-play", "doubling"]},
                                obj(
                                    {"step": {"type": "integer", "minimum": 1}},
                                    ["step"],
                                    basis=False,
                                ),
                            ]
                        },
                    },
                    ["amount"],
                ),
                "held_cards": arr(
                    obj(
                        {
                            "name": {"type": "string", "minLength": 1},
                            "cards": arr(CARD, minItems=1, uniqueItems=True),
                            "amount": NAT,
                            "from": {"enum": ["each"]},
                        },
                        ["name", "cards", "amount", "from"],
                    )
                ),
                "codille_remainder": {"enum": ["next-spadille", "stays", "highest-trumps"]},
                "codille_remainder_basis": BASIS,
                "unit_basis": BASIS,
            },
            basis=False,
        )
        | {
            # A game scored in points (``unit: point``) needs its tariff and the outcomes'
            # games; one in counters, its stakes, items, sharing and bête.
            "if": {"properties": {"unit": {"const": "point"}}, "required": ["unit"]},
            "then": {"required": ["unit", "points", "outcomes"]},
            "else": {
                "required": ["unit", "fiche", "stakes", "items", "outcomes", "sharing", "bete"]
            },
        },
    },
    "$defs": {
        "basis": {
            "type": "object",
            "additionalProperties": False,
            "required": ["evidence"],
            "properties": {
                "evidence": {"enum": ["attested", "inferred", "disputed", "conjecture"]},
                "cite": arr(
                    {
                        "type": "object",
                        "additionalProperties": False,
                        "required": ["source", "locator"],
                        "properties": {
                            "source": ID,
                            "locator": {"type": "string", "minLength": 1},
                            "quote": {"type": "string", "minLength": 1, "maxLength": 320},
                            "against": {"type": "boolean"},
                        },
                    }
                ),
                "note": {"type": "string"},
            },
            "if": {"properties": {"evidence": {"enum": ["attested", "disputed"]}}},
            "then": {"required": ["cite"], "properties": {"cite": {"minItems": 1}}},
        },
        "stake": obj({"who": {"enum": ["dealer", "each"]}, "amount": NAT}, ["who", "amount"]),
        "call": obj(
            {
                "rank": RANK,
                "trump_suit_allowed": {"type": "boolean"},
                "own_card": {"enum": ["alone", "forbidden"]},
                "all_held_fallback": RANK,
                "given_card_visible": {"enum": ["public", "private"]},
                "fee": obj(
                    {"amount": NAT, "favourite_option": ID, "favourite_amount": NAT},
                    ["amount"],
                ),
                "surrender": obj({"fee": NAT}, ["fee"], basis=False),
            },
            ["rank", "trump_suit_allowed", "own_card"],
        ),
    },
}


def render() -> str:
    return json.dumps(SCHEMA, indent=2, ensure_ascii=False) + "\n"


# The mechanism selectors as Python enums, generated from the schema's own lists so that the
# engine and the rule format cannot drift apart: engine/enums.py.
ENUMS: dict[str, tuple[str, tuple[str, ...]]] = {
    "Evidence": ("evidence label of a basis", ("$defs", "basis", "evidence")),
    "SourceKind": ("kind of a source", ("sources", "*", "kind")),
    "OptionKind": ("kind of a setup option", ("options", "*", "kind")),
    "HeldBy": ("holders whose matadors are paid", ("matadors", "payment", "held_by")),
    "Help": ("the help a contract takes", ("auction", "contracts", "*", "help")),
    "Exchange": ("who exchanges under a contract", ("auction", "contracts", "*", "exchange")),
    "AllPass": ("what happens when all pass", ("auction", "all_pass", "action")),
    "OwnCard": ("calling or demanding a card one holds", ("$defs", "call", "own_card")),
    "Visibility": ("who sees the card given back", ("$defs", "call", "given_card_visible")),
    "Leader": ("who leads the first trick", ("play", "leader")),
    "Renonce": ("what a revoke does", ("play", "renonce", "action")),
    "VoleWhen": ("the vole condition of a result", ("results", "rules", "*", "when", "vole")),
    "Pot": ("where the pot goes", ("settlement", "outcomes", "*", "pot")),
    "BeteGoing": ("which bêtes go into a deal", ("settlement", "bete", "going")),
    "BeteCap": ("cap on a bête made on a bête", ("settlement", "bete", "cap_over_bete_in_play")),
    "CodilleRemainder": ("odd counters of a shared pot", ("settlement", "codille_remainder")),
    "TrumpNamedBy": ("who names trumps", ("auction", "contracts", "*", "trump_named_by")),
    "Trumps": ("whether a contract has trumps", ("auction", "contracts", "*", "trumps")),
    "Aim": ("what the declaring side undertakes", ("auction", "contracts", "*", "aim")),
    "OpenFrom": ("when an open contract's hand is shown", ("auction", "contracts", "*", "open")),
    "BiddableWhen": ("when a contract may be bid", ("auction", "contracts", "*", "biddable_when")),
    "SitsOut": ("who sits out of each deal", ("players", "sits_out")),
    "VoleBy": ("who may go on for the vole", ("vole", "by")),
    "AllPlayTies": (
        "who of the seats tied for most tricks in a contract all play takes it",
        ("auction", "contracts", "*", "all_play", "ties"),
    ),
    "Speech": ("how speech goes in the auction", ("auction", "speech")),
    "EqualRank": ("a bid of the rank standing", ("auction", "equal_rank")),
    "Defenders": ("the defenders' order of exchange", ("exchange", "defenders")),
}


def schema_enum(path: tuple[str, ...]) -> list[str]:
    """Returns the ``enum`` list at a path of the schema (``*`` crosses a map or a list)."""
    node: dict = SCHEMA
    if path[0] == "$defs":
        node, path = SCHEMA["$defs"][path[1]], path[2:]
    for part in path:
        if "$ref" in node:
            node = SCHEMA["$defs"][node["$ref"].rsplit("/", 1)[1]]
        if part == "*":
            node = node.get("additionalProperties") or node["items"]
            continue
        node = node["properties"][part]
    return list(node["enum"])


def render_enums() -> str:
    out = [
        '"""The rule format\'s mechanism selectors as enums (generated: do not edit).',
        "",
        "Written by ``python tools/gen_schema.py`` from the same lists as the JSON Schema, so a",
        "value the schema accepts is always a member here; a test checks the file is current.",
        '"""',
        "",
        "from enum import StrEnum",
        "",
        "__all__ = [",
        *(f'    "{name}",' for name in sorted(ENUMS)),
        "]",
    ]
    for name, (doc, path) in ENUMS.items():
        out += ["", "", f"class {name}(StrEnum):", f'    """{doc[0].upper()}{doc[1:]}."""', ""]
        for value in schema_enum(path):
            member = value.upper().replace("-", "_")
            out.append(f'    {member} = "{value}"')
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    root = Path(__file__).resolve().parent.parent / "engine"
    for target, text in (
        (root / "schema" / "ruleset.schema.json", render()),
        (root / "enums.py", render_enums()),
    ):
        target.write_text(text, encoding="utf-8")
        sys.stdout.write(f"wrote {target}\n")

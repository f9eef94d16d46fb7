"""Checks for authors of variants: problems reported in the author's own file.

Three checks run on a resolved rule file, after the schema and the semantic checks:

* **a change needs its own basis** (``semantic/change-without-basis``): a file that extends
  another and changes a value must give the basis of that rule itself, so that a parent's
  citation (about the parent's value) never stands beside a changed value;
* **values the referee cannot play** (``semantic/unplayable``): a result threshold above the
  number of tricks, a vole undertaken after the last trick, a sole-liability threshold or an
  exchange that no deal can reach;
* **problems that appear only once merged** (:func:`at_variant`): a problem located at a value
  the parent set is moved to the child's nearest change, since the parent is valid alone and it
  is the child's change that makes the merged file wrong.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engine.errors import Problem
from engine.rules.checks import canonical_card, canonical_rank
from engine.rules.model import ResolvedDocument
from engine.rules.reader import Document, Path_, json_path

__all__ = [
    "PLACEHOLDER_NOTE",
    "PLACEHOLDER_SUMMARY",
    "at_variant",
    "authoring_problems",
    "no_effect_warnings",
    "placeholder_warnings",
]

PLACEHOLDER_SUMMARY = (
    "with a house rule: say here, in a sentence or two, what this variant changes and on "
    "whose authority."
)
"""The end of the summary ``ombre new`` writes (after the parent's name), to be replaced."""
PLACEHOLDER_NOTE = "Why the rule is read this way."
"""The note of the basis ``ombre new``'s example gives, to be replaced."""

_OWN_KEYS = ("id", "name", "aliases", "summary", "extends", "sources")


def _has_basis(value: Any) -> bool:
    return isinstance(value, Mapping) and "basis" in value


def _value_at(data: Any, path: Path_) -> Any:
    node = data
    for key in path:
        found = isinstance(node, Mapping) and key in node
        found = found or (isinstance(node, list) and isinstance(key, int) and 0 <= key < len(node))
        if not found:
            return None
        node = node[key]
    return node


def _holders(data: Any, change: Path_) -> list[Path_]:
    """Returns the paths whose ``basis`` must justify ``change``.

    A list of based items (``settlement.stakes``) or a new mapping of based entries (a table of
    options) is justified item by item; anything else by the nearest basis at or above it.
    """
    value = _value_at(data, change)
    if isinstance(value, list) and value and all(_has_basis(v) for v in value):
        return [(*change, i) for i in range(len(value))]
    if (
        isinstance(value, Mapping)
        and value
        and not _has_basis(value)
        and all(_has_basis(v) for v in value.values())
    ):
        return [(*change, k) for k in value]
    holder = change
    while holder and not _has_basis(_value_at(data, holder)):
        holder = holder[:-1]
    return [holder]


_OWN_BASIS: dict[Path_, Path_] = {
    ("settlement", "codille_remainder"): ("settlement", "codille_remainder_basis"),
    ("settlement", "codille_remainder_basis"): ("settlement", "codille_remainder_basis"),
    ("settlement", "unit"): ("settlement", "unit_basis"),
    ("settlement", "unit_basis"): ("settlement", "unit_basis"),
}
"""Values whose basis is a sibling key rather than a ``basis`` beside them."""


def _unbased_changes(resolved: Any) -> list[Problem]:
    if len(resolved.chain) < 2:
        return []
    problems: list[Problem] = []
    seen: set[Path_] = set()
    for change, where in resolved.overrides:
        if not change or change[0] in _OWN_KEYS or where[0] != resolved.file:
            continue
        if _value_at(resolved.data, change) is None:
            continue  # a deletion: nothing is left to justify
        own = _OWN_BASIS.get(tuple(change))
        if own is not None and resolved.locate(own)[0] == resolved.file:
            continue  # a value whose basis sits beside it, given here
        for holder in _holders(resolved.data, change):
            if holder in seen:
                continue
            seen.add(holder)
            basis_file = resolved.locate((*holder, "basis"))[0] if holder else None
            if basis_file == resolved.file:
                continue
            shown = json_path(change)
            target = json_path((*holder, "basis")) if holder else "a basis"
            _, line, column = where
            problems.append(
                Problem(
                    resolved.file,
                    line,
                    column,
                    shown,
                    "semantic/change-without-basis",
                    f"changed here without a basis of its own: give {target} "
                    "(evidence, cite, note) saying why; the parent's citation is about the "
                    "parent's value",
                )
            )
    return problems


def _unplayable(resolved: Any) -> list[Problem]:
    d: dict[str, Any] = resolved.data
    problems: list[Problem] = []

    def add(path: Path_, message: str) -> None:
        f, line, col = resolved.locate(path)
        problems.append(Problem(f, line, col, json_path(path), "semantic/unplayable", message))

    tricks = int(d["deal"]["hand_size"])
    for i, rule in enumerate(d["results"]["rules"]):
        bounds = rule["when"].get("side_tricks") or {}
        for key, value in bounds.items():
            if value > tricks:
                add(
                    ("results", "rules", i, "when", "side_tricks", key),
                    f"{key} {value} tricks, but a deal has only {tricks} (deal.hand_size): "
                    f"result {rule['result']!r} can never be reached",
                )
    after = d["vole"]["after_tricks"]
    if after >= tricks:
        add(
            ("vole", "after_tricks"),
            f"the vole is undertaken after {after} tricks, but a deal has only {tricks}: "
            "nothing is left to play for",
        )
    below = (d["settlement"].get("sharing") or {}).get("sole_liability_below")
    if below is not None and below > tricks:
        add(
            ("settlement", "sharing", "sole_liability_below"),
            f"fewer than {below} tricks, but a deal has only {tricks}: the partner would "
            "never share a loss",
        )
    talon = int(d["deal"]["talon"])
    exchange = d.get("exchange") or {}
    for key in ("first_max", "leave_at_least"):
        if key in exchange and exchange[key] > talon:
            add(
                ("exchange", key),
                f"{key} {exchange[key]}, but the talon holds only {talon} cards",
            )
    if exchange.get("first_max", 0) > tricks:
        add(
            ("exchange", "first_max"),
            f"first_max {exchange['first_max']}, but a hand holds only {tricks} cards",
        )
    return problems


def _mechanism_problems(resolved: Any) -> list[Problem]:
    """Checks the family's optional mechanisms: held cards, contract conditions, the contre,
    trumps named by the partner, cards required to bid."""
    d: dict[str, Any] = resolved.data
    problems: list[Problem] = []

    def add(path: Path_, code: str, message: str) -> None:
        f, line, col = resolved.locate(path)
        problems.append(Problem(f, line, col, json_path(path), f"semantic/{code}", message))

    ranks, suits = d["deck"]["ranks"], d["deck"]["suits"]
    removed = {canonical_card(c) for c in d["deck"].get("remove", [])}
    deck = {canonical_rank(r) + s[0] for r in ranks for s in suits} - removed
    contracts = d["auction"]["contracts"]

    def card(path: Path_, text: str) -> None:
        if canonical_card(text) not in deck:
            add(path, "unknown-card", f"{text!r} is not a card of this deck")

    for i, rule in enumerate(d["settlement"].get("held_cards", [])):
        for j, text in enumerate(rule["cards"]):
            card(("settlement", "held_cards", i, "cards", j), text)
    for i, rule in enumerate(d["results"]["rules"]):
        for j, cid in enumerate(rule["when"].get("contract", [])):
            if cid not in contracts:
                add(
                    ("results", "rules", i, "when", "contract", j),
                    "unknown-contract",
                    f"no contract {cid!r} (known: {', '.join(contracts)})",
                )
    for cid, c in contracts.items():
        path: Path_ = ("auction", "contracts", cid)
        if c.get("trump_named_by") == "partner" and c["help"] != "call":
            add(
                (*path, "trump_named_by"),
                "partner-needs-a-call",
                f"contract {cid}: only a called partner can name trumps (help is {c['help']!r})",
            )
        if c.get("announces_vole") and c.get("vole_allowed") is False:
            add(
                (*path, "announces_vole"),
                "vole-not-allowed",
                f"contract {cid} announces the vole but does not allow it (vole_allowed: false)",
            )
        for j, text in enumerate(c.get("requires_cards", [])):
            card((*path, "requires_cards", j), text)
        if c.get("trump_from_talon"):
            if int(d["deal"]["talon"]) == 0:
                add(
                    (*path, "trump_from_talon"),
                    "trump-from-no-talon",
                    f"contract {cid}: trumps are turned from the talon, but the deal leaves none",
                )
            for key in ("trump_option", "trump_not_option"):
                if c.get(key) is not None:
                    add(
                        (*path, key),
                        "trump-turned-and-chosen",
                        f"contract {cid}: trumps are turned from the talon, so {key} cannot "
                        "choose them",
                    )
            if c.get("trump_named_by") == "partner":
                add(
                    (*path, "trump_named_by"),
                    "trump-turned-and-chosen",
                    f"contract {cid}: trumps are turned from the talon, so no partner names them",
                )
    _auction_problems(d, add)
    return problems


def _auction_problems(d: dict[str, Any], add: Any) -> None:
    """Checks the auction that goes round, equal ranks, class bids, bids only to overcall,
    the raise, a contract's own trumps and its exchange limits (issue 16)."""
    auction = d["auction"]
    contracts = auction["contracts"]
    talon = int(d["deal"]["talon"])
    rnd = auction["speech"] in ("round", "duel")
    _equal_rank_problems(auction, contracts, add)
    suits = set(d["deck"]["suits"])
    for cid, c in contracts.items():
        path: Path_ = ("auction", "contracts", cid)
        if rnd and c.get("matchable"):
            add(
                (*path, "matchable"),
                "round-and-matchable",
                f"contract {cid}: where speech goes round or duels the holder speaks again, so no "
                "overcall is matched (drop matchable)",
            )
        _class_bid_problems(path, cid, c, contracts, add)
        _overcall_problems(d, path, cid, c, contracts, add)
        _own_trump_problems(path, cid, c, suits, add)
        _exchange_limit_problems(path, cid, c, talon, add)
    _exchange_problems(d, contracts, talon, add)


def _equal_rank_problems(auction: dict[str, Any], contracts: dict[str, Any], add: Any) -> None:
    """Reports biddable contracts that share a rank when the auction does not say who holds
    at equal rank."""
    ranks: dict[int, list[str]] = {}
    for cid, c in contracts.items():
        if c["biddable"]:
            ranks.setdefault(int(c["rank"]), []).append(cid)
    if "equal_rank" not in auction:
        for rank, ids in ranks.items():
            if len(ids) > 1:
                add(
                    ("auction", "contracts", ids[1], "rank"),
                    "equal-rank-unsettled",
                    f"contracts {', '.join(ids)} share rank {rank}: say who holds at equal rank "
                    "(auction.equal_rank: refused, earlier-holds or earlier-holds-same)",
                )


def _class_bid_problems(
    path: Path_, cid: str, c: dict[str, Any], contracts: dict[str, Any], add: Any
) -> None:
    """Reports a contract's ``bid_as`` or ``instead_of`` that names no contract, no lower
    biddable contract, or a contract that is itself bid as a class."""
    for key in ("bid_as", "instead_of"):
        other = c.get(key)
        if other is None:
            continue
        o = contracts.get(other)
        if o is None:
            add(
                (*path, key),
                "unknown-contract",
                f"no contract {other!r} (known: {', '.join(contracts)})",
            )
        elif other == cid or not o["biddable"] or int(o["rank"]) > int(c["rank"]):
            add(
                (*path, key),
                "class-not-lower",
                f"contract {cid}: {key} {other} must be another biddable contract of no "
                "higher rank",
            )
        elif key == "bid_as" and o.get("bid_as"):
            add(
                (*path, key),
                "class-of-a-class",
                f"contract {cid}: {other} is itself bid as {o['bid_as']}; name the class",
            )


def _overcall_problems(
    d: dict[str, Any],
    path: Path_,
    cid: str,
    c: dict[str, Any],
    contracts: dict[str, Any],
    add: Any,
) -> None:
    """Reports a contract named only to overcall whose penalty is no known fault or that
    names no lower contract, and a raise (``declarer_may_play``) to no other contract."""
    rule = c.get("only_to_overcall")
    faults = d["settlement"].get("penalties") or {}
    if isinstance(rule, dict) and rule["penalty"] not in faults:
        add(
            (*path, "only_to_overcall", "penalty"),
            "unknown-fault",
            f"contract {cid}: no fault {rule['penalty']!r} in settlement.penalties (known: "
            f"{', '.join(faults) or 'none'})",
        )
    if rule is not None and not (c.get("bid_as") or c.get("instead_of")):
        add(
            (*path, "only_to_overcall"),
            "overcall-of-what",
            f"contract {cid} may be named only to overcall, but names no lower contract "
            "that would do otherwise (bid_as or instead_of)",
        )
    for j, other in enumerate(c.get("declarer_may_play", [])):
        if other not in contracts or other == cid:
            add(
                (*path, "declarer_may_play", j),
                "unknown-contract",
                f"contract {cid}: {other!r} is not another contract (known: "
                f"{', '.join(contracts)})",
            )


def _own_trump_problems(
    path: Path_, cid: str, c: dict[str, Any], suits: set[Any], add: Any
) -> None:
    """Reports a contract's own trump suit that is not in the pack, or that the contract also
    lets someone choose."""
    if c.get("trump_suit") is not None:
        if c["trump_suit"] not in suits:
            add(
                (*path, "trump_suit"),
                "trump-suit-not-in-pack",
                f"contract {cid}: {c['trump_suit']} are not in the pack",
            )
        for key in ("trump_option", "trump_not_option", "trump_from_talon"):
            if c.get(key):
                add(
                    (*path, key),
                    "trump-fixed-and-chosen",
                    f"contract {cid} has its own trump suit, so {key} cannot choose them",
                )


def _exchange_limit_problems(
    path: Path_, cid: str, c: dict[str, Any], talon: int, add: Any
) -> None:
    """Reports a contract's exchange limits without an exchange by the declarer, a minimum
    above the maximum, or a limit above the talon."""
    limits = c.get("exchange_limits")
    if limits is not None:
        if c.get("exchange", "none") not in ("declarer-first", "declarer-only"):
            add(
                (*path, "exchange_limits"),
                "limits-without-exchange",
                f"contract {cid}: the declarer does not exchange (exchange: "
                f"{c.get('exchange', 'none')}), so exchange_limits has no effect",
            )
        low, high = limits.get("declarer_min"), limits.get("declarer_max")
        if low is not None and high is not None and low > high:
            add(
                (*path, "exchange_limits", "declarer_min"),
                "buy-more-than-allowed",
                f"contract {cid}: the declarer must take {low} but may take only {high}",
            )
        for key, value in limits.items():
            if value > talon:
                add(
                    (*path, "exchange_limits", key),
                    "unplayable",
                    f"{key} {value}, but the talon holds only {talon} cards",
                )


def _exchange_problems(d: dict[str, Any], contracts: dict[str, Any], talon: int, add: Any) -> None:
    """Reports exchange settings the talon cannot meet or that no contract gives effect to."""
    ex = d.get("exchange") or {}
    if ex.get("declarer_min", 0) > talon:
        add(
            ("exchange", "declarer_min"),
            "unplayable",
            f"declarer_min {ex['declarer_min']}, but the talon holds only {talon} cards",
        )
    if ex.get("besides_turned") and not any(c.get("trump_from_talon") for c in contracts.values()):
        add(
            ("exchange", "besides_turned"),
            "no-effect",
            "besides_turned, but no contract turns its trumps from the talon",
        )
    if ex.get("defenders") == "either-first" and not any(
        c.get("exchange") == "declarer-first" for c in contracts.values()
    ):
        add(
            ("exchange", "defenders"),
            "no-effect",
            "either-first, but under no contract does the declarer exchange first",
        )


def authoring_problems(resolved: ResolvedDocument) -> list[Problem]:
    """Returns the unbased changes, unplayable values and mechanism problems of a schema-valid
    resolved file."""
    return [*_unbased_changes(resolved), *_unplayable(resolved), *_mechanism_problems(resolved)]


def at_variant(
    problems: Sequence[Problem],
    resolved: ResolvedDocument,
    extends_at: tuple[int | None, int | None],
) -> list[Problem]:
    """Moves problems located in a parent to the child's nearest change.

    The parent resolved without problems, so a problem at a value it set shows only once the
    child is merged over it: it is reported at the child's change whose path shares the most
    with the problem's (else at the child's ``extends:``), naming where the value was set.
    """
    out: list[Problem] = []
    own = [
        (path, where)
        for path, where in resolved.overrides
        if where[0] == resolved.file and path and path[0] not in _OWN_KEYS
    ]
    for p in problems:
        if p.file == resolved.file:
            out.append(p)
            continue
        target = _path_of(p.path)
        # Without a change on the same path, the file's first change (else its extends:).
        first = (own[0][1][1], own[0][1][2]) if own else extends_at
        best: tuple[int, int | None, int | None] = (0, *first)
        for path, (_, line, col) in own:
            common = 0
            for a, b in zip(path, target, strict=False):
                if a != b:
                    break
                common += 1
            if common > best[0]:
                best = (common, line, col)
        where = p.location()
        out.append(
            Problem(
                resolved.file,
                best[1],
                best[2],
                p.path,
                p.code,
                f"{p.message} (once merged with this file's changes; the value is set at {where})",
            )
        )
    return out


def _path_of(text: str) -> Path_:
    """Returns the keys of a JSON path such as ``$.deal.packets[0]`` (indexes as ints)."""
    keys: list[str | int] = []
    for part in text.removeprefix("$").replace("[", ".[").split("."):
        if not part:
            continue
        if part.startswith("[") and part.endswith("]") and part[1:-1].isdigit():
            keys.append(int(part[1:-1]))
        else:
            keys.append(part)
    return tuple(keys)


def placeholder_warnings(doc: Document) -> list[Problem]:
    """Returns a warning for each text of ``ombre new``'s starter still in ``doc`` (its own
    file, not merged): the placeholder summary, and the example basis's placeholder note.

    They are warnings, not problems: the file is valid, but its rule book would say nothing.
    """
    data = doc.data
    out: list[Problem] = []
    if not isinstance(data, Mapping):
        return out

    def warn(path: Path_, code: str, message: str) -> None:
        line, column = doc.where(path)
        out.append(Problem(doc.file, line, column, json_path(path), code, message))

    summary = data.get("summary")
    if isinstance(summary, str) and " ".join(summary.split()).endswith(PLACEHOLDER_SUMMARY):
        warn(
            ("summary",),
            "authoring/placeholder-summary",
            "the summary is still the starter's: say what this variant changes and on whose "
            "authority (the rule book and ombre list show it)",
        )

    def walk(node: Any, path: Path_) -> None:
        if isinstance(node, Mapping):
            for key, value in node.items():
                here = (*path, key)
                if key == "note" and isinstance(value, str) and value.strip() == PLACEHOLDER_NOTE:
                    warn(
                        here,
                        "authoring/placeholder-note",
                        f"the note is still the starter's {PLACEHOLDER_NOTE!r}: say why the rule "
                        "is read this way, or leave the note out",
                    )
                else:
                    walk(value, here)
        elif isinstance(node, list):
            for k, value in enumerate(node):
                walk(value, (*path, k))

    walk(data, ())
    return out


_BASIS_KEYS = ("basis", "unit_basis", "codille_remainder_basis")
_POINTS_UNREAD: tuple[tuple[Path_, str], ...] = (
    (("settlement", "fiche"), "a game in points has no counters"),
    (("settlement", "stakes"), "nothing is staked in a game in points"),
    (("settlement", "items"), "a game in points is scored from its tariff, not by items"),
    (("settlement", "sharing"), "a game in points is scored from its tariff, not shared"),
    (("settlement", "bete"), "no bête is made in a game in points"),
    (("settlement", "codille_remainder"), "a game in points has no pot to share"),
    (("settlement", "held_cards"), "a game in points is scored from its tariff only"),
    (("auction", "all_pass", "add_stakes"), "nothing is staked in a game in points"),
    (("party", "last_tour_factor"), "a game in points is scored from its tariff, not multiplied"),
)
_OUTCOME_POINTS_UNREAD = ("pot", "bete", "receive", "pay")


def _unread(data: Mapping[str, Any], path: Path_) -> str | None:
    """Returns why the rules' mechanisms never read the value at ``path`` of the resolved
    ``data`` (None when they read it)."""
    s = data.get("settlement") or {}
    in_points = s.get("unit") == "point"
    if in_points:
        for prefix, why in _POINTS_UNREAD:
            if tuple(path[: len(prefix)]) == prefix:
                return why
        if (
            len(path) >= 4
            and tuple(path[:2]) == ("settlement", "outcomes")
            and path[3] in _OUTCOME_POINTS_UNREAD
        ):
            return "a game in points has no pot, bête or items: the outcome's game is read"
    else:
        if tuple(path[:2]) == ("settlement", "points"):
            return "the tariff is read only in a game in points (settlement.unit: point)"
        if len(path) >= 4 and tuple(path[:2]) == ("settlement", "outcomes") and path[3] == "game":
            return "an outcome's game is read only in a game in points; the pot says it here"
    growth = (s.get("bete") or {}).get("growth", "in-play")
    capped = ("cap_over_bete_in_play", "doubling_after_first_remise")
    if (
        growth != "in-play"
        and tuple(path[:2]) == ("settlement", "bete")
        and path[2:3] in [(k,) for k in capped]
    ):
        return (
            "a bête made on a bête grows by the bête's growth here, so the cap over the"
            " bête in play is never applied"
        )
    party = data.get("party") or {}
    if "tours" not in party and tuple(path[:2]) == ("party", "last_tour_factor"):
        return "the last tour is read only in a party of tours"
    return None


def no_effect_warnings(
    file: str,
    data: Mapping[str, Any],
    overrides: Sequence[tuple[Path_, Any]],
    parent: Mapping[str, Any],
    parent_id: str,
) -> list[Problem]:
    """Returns a warning for each change a variant declares that has no effect on any deal: a
    value set to what it inherits from its parent, or a value the rules' mechanisms never read
    (a stake in a game scored in points, a cap the bête's growth bypasses ...). The file is
    valid; but its summary may promise a change that its deals never show."""
    out: list[Problem] = []
    seen: set[Path_] = set()
    # A rule restated unchanged is told (once, at its first value) only when nothing else in
    # the file changes a deal: a variant may restate a rule whole to give it its own basis
    # beside the change it makes.
    changed: dict[Path_, bool] = {}
    first: dict[Path_, tuple[Path_, Any]] = {}
    for path, where in overrides:
        path = tuple(path)
        if not path or path[0] in _OWN_KEYS or any(k in _BASIS_KEYS for k in path):
            continue
        if where[0] != file or _unread(data, path) is not None:
            continue
        holder = _holders(data, path)[0]
        value = _value_at(data, path)
        same = value is not None and value == _value_at(parent, path)
        changed[holder] = changed.get(holder, False) or not same
        first.setdefault(holder, (path, where))
    restated: set[Path_] = set()
    if not any(changed.values()):
        restated = {first[h][0] for h in changed}
    for path, where in overrides:
        path = tuple(path)
        if not path or path[0] in _OWN_KEYS or any(k in _BASIS_KEYS for k in path):
            continue
        if where[0] != file or path in seen:
            continue
        seen.add(path)
        value = _value_at(data, path)
        if value is None:
            continue  # a deletion
        _, line, column = where
        why = _unread(data, path)
        if why is not None:
            message = f"this change has no effect on any deal: {why}"
        elif path in restated:
            holder = _holders(data, path)[0]
            message = (
                f"this change has no effect on any deal: {parent_id} already has"
                f" {json_path(holder)} as this file states it ({json_path(path)} = {value!r}),"
                " and nothing else in the file changes a deal"
            )
        else:
            continue
        out.append(Problem(file, line, column, json_path(path), "authoring/no-effect", message))
    return out


def unreachable_contracts(data: Mapping[str, Any]) -> list[str]:
    """Returns the ids of the contracts of a resolved rule document that no deal can be played
    in: a contract no seat may bid (``biddable: false``) is reached only as the contract of the
    all-pass rule (``auction.all_pass: {action: forced, contract: ...}``), so one that is not
    that contract is never played (say, a variant that redeals when all pass keeps its
    parent's forced contract). The suite's per-file checks skip what this names, as
    ``ombre validate`` warns of it (:func:`unreachable_warnings`)."""
    auction = data.get("auction")
    if not isinstance(auction, Mapping) or not isinstance(auction.get("contracts"), Mapping):
        return []
    contracts = auction["contracts"]
    all_pass = auction.get("all_pass")
    forced = None
    if isinstance(all_pass, Mapping) and all_pass.get("action") == "forced":
        forced = all_pass.get("contract")
    return [
        str(cid)
        for cid, c in contracts.items()
        if isinstance(c, Mapping) and c.get("biddable") is False and cid != forced
    ]


def unreachable_warnings(
    file: str,
    data: Mapping[str, Any],
    locate: Callable[[Path_], tuple[str, int | None, int | None]],
) -> list[Problem]:
    """Returns a warning for each contract no deal can be played in
    (:func:`unreachable_contracts`), located at the contract (in whichever file sets it) or,
    when a variant's all-pass rule made it unreachable, at that rule in the variant."""
    out: list[Problem] = []
    for cid in unreachable_contracts(data):
        path: Path_ = ("auction", "contracts", cid)
        at, line, column = locate(("auction", "all_pass", "action"))
        if at != file:
            at, line, column = locate(path)
        out.append(
            Problem(
                at,
                line,
                column,
                json_path(path),
                "authoring/unreachable",
                f"no deal can be played in the contract {cid!r}: no seat may bid it"
                " (biddable: false), and it is not the contract the all-pass rule forces"
                " (auction.all_pass); delete it ({$delete: true}) or make it reachable",
            )
        )
    return out

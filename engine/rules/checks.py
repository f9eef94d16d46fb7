"""Semantic checks of a resolved rule file: what the JSON Schema cannot say.

Each check adds located problems to one list; nothing stops at the first. The checks:

* the deck names each rank once (``T`` and ``10`` are the same ten); every card named (top
  trumps, cards removed, the forced card) exists in the deck (cards a contract requires and
  cards paid for when held: :mod:`engine.rules.authoring`); every rank named (top trumps, plain orders, calls) is one of the deck's
  ranks;
* each plain order is a permutation of its colour's plain ranks (the deck's ranks less the
  ranks of the cards that are always trumps);
* the top trumps have distinct names, and the matadors named for privilege and payment exist;
* the deal adds up: hand size x players + talon = the deck, for every setup option; every
  packet order adds up to the hand size;
* every contract, result, outcome and item that is referred to exists; every contract that
  calls or demands has the declaration it needs;
* every citation names a source of the file's ``sources`` table;
* a game scored in points (``settlement.unit: point``) gives points to every result each
  contract can end in, and names each outcome's game; penalty points only there;
* the file plays (``docs/rule-format.md``, "What validation guarantees"): for every
  combination of setup options, every contract can name a trump suit that is in the pack, a
  contract that calls a partner leaves at least one opponent, and a demanded card comes from
  another player's hand (never the talon).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from engine.cards import Rank
from engine.errors import Problem
from engine.rules.model import ResolvedDocument, condition_of
from engine.rules.reader import Path_, json_path

_RANKS = [r.value for r in Rank]
_T = TypeVar("_T")


def canonical_rank(text: _T) -> _T | str:
    """The rank as the engine writes it: ``10`` is ``T``."""
    return "T" if text == "10" else text


def canonical_card(text: _T) -> _T | str:
    """The card as the engine writes it: ``10s`` is ``Ts``."""
    return "T" + text[2:] if isinstance(text, str) and text.startswith("10") else text


def _bases(value: Any, path: Path_) -> Iterator[tuple[Path_, dict[str, Any]]]:
    if isinstance(value, dict):
        for key, sub in value.items():
            if key in ("basis", "codille_remainder_basis", "unit_basis") and isinstance(sub, dict):
                yield (*path, key), sub
            else:
                yield from _bases(sub, (*path, key))
    elif isinstance(value, list):
        for i, sub in enumerate(value):
            yield from _bases(sub, (*path, i))


_Add = Callable[[Path_, str, str], None]


@dataclass(frozen=True)
class _Deck:
    """The deck of a rule file: its ranks as the engine writes them (each once), its suits,
    each suit by its initial, and every card of it (before any is removed)."""

    ranks: list[str]
    suits: list[str]
    letters: dict[str, str]
    cards: set[str]


def semantic_problems(resolved: ResolvedDocument) -> list[Problem]:
    """Returns the semantic problems of a resolved document (see the module docstring)."""
    d: dict[str, Any] = dict(resolved.data)
    problems: list[Problem] = []

    def add(path: Path_, code: str, message: str) -> None:
        f, line, col = resolved.locate(path)
        problems.append(Problem(f, line, col, json_path(path), f"semantic/{code}", message))

    the_deck = _deck_problems(d, add)
    removed = _removed_cards(d, add, the_deck)
    _option_problems(d, add, the_deck)
    setups = _setups(d)
    names, fixed_cards = _top_trump_problems(d, add, the_deck)
    _plain_order_problems(d, add, the_deck, fixed_cards)
    _matador_problems(d, add, names)
    # A seat that sits the deal out (the dealer at a table of four) is dealt nothing.
    players = d["players"]["count"] - (1 if d["players"].get("sits_out") else 0)
    _deal_problems(d, add, the_deck, removed, setups, players)
    _contract_problems(d, add, players)
    _trump_suit_problems(d, add, the_deck, removed, setups)
    _no_trumps_order_problems(d, add, the_deck)
    _contract_setting_problems(d, add)
    _vole_and_seat_problems(d, add)
    _alias_problems(d, add)
    _fee_problems(d, add)
    _all_pass_problems(d, add, the_deck)
    _declared_rank_problems(d, add, the_deck)
    _result_problems(d, add)
    _item_problems(d, add)
    _points_problems(d, add)
    _play_law_problems(d, add, names)
    _table_law_problems(d, add)
    _citation_problems(d, add)
    return problems


def _deck_problems(d: dict[str, Any], add: _Add) -> _Deck:
    """Checks that the deck names each rank once (``T`` and ``10`` are both the ten) and
    returns the deck."""
    ranks: list[str] = []
    for i, r in enumerate(d["deck"]["ranks"]):
        if canonical_rank(r) in ranks:
            add(
                ("deck", "ranks", i),
                "duplicate-rank",
                f"rank {r!r} is named twice in the deck (T and 10 are both the ten)",
            )
        else:
            ranks.append(canonical_rank(r))
    suits = list(d["deck"]["suits"])
    letters = {s[0]: s for s in suits}
    cards = {r + s[0] for r in ranks for s in suits}
    return _Deck(ranks, suits, letters, cards)


def _check_card(add: _Add, deck: _Deck, path: Path_, text: Any) -> bool:
    """Checks that ``text`` at ``path`` names a card of the deck (``10s`` is ``Ts``) and
    returns whether it does."""
    if not isinstance(text, str) or canonical_card(text) not in deck.cards:
        add(
            path,
            "unknown-card",
            f"{text!r} is not a card of this deck (ranks {' '.join(deck.ranks)}; suits {', '.join(deck.suits)})",
        )
        return False
    return True


def _removed_cards(d: dict[str, Any], add: _Add, deck: _Deck) -> set[str]:
    """Checks that every card the deck removes (``deck.remove``) is a card of the deck and
    returns the cards removed that are."""
    removed: set[str] = set()
    for i, c in enumerate(d["deck"].get("remove", [])):
        if _check_card(add, deck, ("deck", "remove", i), c):
            removed.add(canonical_card(c))
    return removed


def _option_problems(d: dict[str, Any], add: _Add, deck: _Deck) -> None:
    """Checks that every setup option chooses among suits of the deck and that its default is
    one of its choices."""
    for key, opt in (d.get("options") or {}).items():
        for i, s in enumerate(opt["choices"]):
            if s not in deck.suits:
                add(
                    ("options", key, "choices", i),
                    "unknown-suit",
                    f"{s!r} is not a suit of this deck",
                )
        if opt["default"] not in opt["choices"]:
            add(
                ("options", key, "default"),
                "bad-default",
                f"default {opt['default']!r} is not among the choices",
            )


def _setups(d: dict[str, Any]) -> list[dict[str, str]]:
    """Returns every combination of option values (each option is a handful of suits), at
    most 4096 of them."""
    option_items = list((d.get("options") or {}).items())
    return [
        dict(zip([k for k, _ in option_items], values, strict=True))
        for values in itertools.product(*(opt["choices"] for _, opt in option_items))
    ][:4096]


def _gone_suits(d: dict[str, Any], deck: _Deck, setup: dict[str, str]) -> list[str]:
    """Returns the suits a setup removes from the pack, in the deck's order."""
    option_items = list((d.get("options") or {}).items())
    suits = deck.suits
    return sorted(
        {setup[k] for k, opt in option_items if opt["kind"] == "remove-suit"},
        key=lambda suit: suits.index(suit) if suit in suits else len(suits),
    )


def _setup_text(setup: dict[str, str]) -> str:
    """Returns a setup as a problem's message names it."""
    return ", ".join(f"{k}={v}" for k, v in setup.items()) or "the default setup"


def _top_trump_problems(
    d: dict[str, Any], add: _Add, deck: _Deck
) -> tuple[dict[str, int], set[str]]:
    """Checks that the top trumps have distinct names, that each card a top trump names is a
    card of the deck and each rank a rank of it; returns each top trump's index by its name
    and the cards that are always trumps."""
    names: dict[str, int] = {}
    fixed_cards: set[str] = set()
    for i, top in enumerate(d["ranking"]["trumps"]["top"]):
        path: Path_ = ("ranking", "trumps", "top", i)
        if top["name"] in names:
            add((*path, "name"), "duplicate-name", f"two top trumps are named {top['name']!r}")
        names[top["name"]] = i
        if "card" in top and _check_card(add, deck, (*path, "card"), top["card"]):
            fixed_cards.add(canonical_card(top["card"]))
        for colour, rank in (top.get("rank") or {}).items():
            if canonical_rank(rank) not in deck.ranks:
                add((*path, "rank", colour), "unknown-rank", f"rank {rank!r} is not in the deck")
    return names, fixed_cards


def _plain_order_problems(d: dict[str, Any], add: _Add, deck: _Deck, fixed_cards: set[str]) -> None:
    """Checks that each plain order names ranks of the deck and is a permutation of its
    colour's ranks, less the cards that are always trumps."""
    ranks = deck.ranks
    for colour in ("black", "red"):
        order = [canonical_rank(r) for r in d["ranking"]["plain"][colour]]
        path: Path_ = ("ranking", "plain", colour)
        for i, r in enumerate(order):
            if r not in ranks:
                add((*path, i), "unknown-rank", f"rank {r!r} is not in the deck")
        colour_suits = [s for s in deck.suits if (s in ("spades", "clubs")) == (colour == "black")]
        for suit in colour_suits:
            expected = {r for r in ranks if r + suit[0] not in fixed_cards}
            got = set(order)
            if got != expected or len(order) != len(set(order)):
                missing = sorted(expected - got, key=_RANKS.index)
                extra = sorted(got - expected, key=_RANKS.index)
                detail = []
                if missing:
                    detail.append("missing " + " ".join(missing))
                if extra:
                    detail.append(
                        "has " + " ".join(extra) + " which are not plain cards of " + suit
                    )
                add(
                    path,
                    "not-a-permutation",
                    f"the {colour} plain order is not a permutation of the plain ranks of {suit} ({'; '.join(detail)})",
                )
                break


def _matador_problems(d: dict[str, Any], add: _Add, names: dict[str, int]) -> None:
    """Checks that the matadors named for the privilege and for payment are top trumps."""
    for i, name in enumerate(d["matadors"]["privilege"]["cards"]):
        if name not in names:
            add(
                ("matadors", "privilege", "cards", i),
                "unknown-trump",
                f"no top trump is named {name!r} (known: {', '.join(names)})",
            )
    if d["matadors"]["payment"]["from"] not in names:
        add(
            ("matadors", "payment", "from"),
            "unknown-trump",
            f"no top trump is named {d['matadors']['payment']['from']!r}",
        )


def _deal_problems(
    d: dict[str, Any],
    add: _Add,
    deck: _Deck,
    removed: set[str],
    setups: list[dict[str, str]],
    players: int,
) -> None:
    """Checks that the deal adds up: ``players`` hands and the talon make the pack of every
    setup (each pack reported once), and every packet order adds up to the hand size."""
    hand = d["deal"]["hand_size"]
    talon = d["deal"]["talon"]
    sizes_reported: set[tuple[str, ...]] = set()
    for setup in setups:
        choice = _gone_suits(d, deck, setup)
        size = len(
            [c for c in deck.cards if c not in removed and deck.letters.get(c[-1]) not in choice]
        )
        if hand * players + talon != size and tuple(choice) not in sizes_reported:
            sizes_reported.add(tuple(choice))
            removed_text = f" with {' and '.join(choice)} removed" if choice else ""
            add(
                ("deal", "hand_size"),
                "deal-does-not-add-up",
                f"{players} hands of {hand} and a talon of {talon} make {hand * players + talon} cards, but the deck{removed_text} has {size}",
            )
    for i, packets in enumerate(d["deal"]["packets"]):
        if sum(packets) != hand:
            add(
                ("deal", "packets", i),
                "packets-do-not-add-up",
                f"packets {packets} add up to {sum(packets)}, not the hand size {hand}",
            )


def _contract_problems(d: dict[str, Any], add: _Add, players: int) -> None:
    """Checks that every contract that calls or demands has the declaration it needs, that the
    options it takes its trumps from exist and choose a suit, that an exchange has a talon and
    a call leaves an opponent among ``players``; and that a demanded card comes from another
    player's hand."""
    contracts = d["auction"]["contracts"]
    options = d.get("options") or {}
    talon = d["deal"]["talon"]
    for cid, c in contracts.items():
        if c["help"] in ("call", "demand") and c["help"] not in d["declarations"]:
            add(
                ("auction", "contracts", cid, "help"),
                "missing-declaration",
                f"contract {cid} has help {c['help']!r} but declarations.{c['help']} is not defined",
            )
        for key in ("trump_option", "trump_not_option"):
            if c.get(key) and c[key] not in options:
                add(
                    ("auction", "contracts", cid, key),
                    "unknown-option",
                    f"no setup option {c[key]!r}",
                )
            elif c.get(key) and options[c[key]]["kind"] != "suit":
                add(
                    ("auction", "contracts", cid, key),
                    "option-not-a-suit",
                    f"option {c[key]!r} does not choose a suit for trumps",
                )
        if c.get("exchange", "none") != "none" and talon == 0:
            add(
                ("auction", "contracts", cid, "exchange"),
                "no-talon",
                "an exchange needs a talon (deal.talon is 0)",
            )
        if c["help"] == "call" and players < 3:
            add(
                ("auction", "contracts", cid, "help"),
                "no-opponent",
                f"contract {cid} calls a partner, which with {players} players can leave no opponent"
                " (a call needs at least 3 players)",
            )
    demand = d["declarations"].get("demand")
    if demand and demand.get("own_card") == "alone":
        add(
            ("declarations", "demand", "own_card"),
            "demand-outside-hands",
            "a demanded card is taken from another player's hand: own_card must be 'forbidden'"
            " ('alone' would let the declarer demand his own card or one in the talon)",
        )


def _trump_suit_problems(
    d: dict[str, Any],
    add: _Add,
    the_deck: _Deck,
    removed: set[str],
    setups: list[dict[str, str]],
) -> None:
    """Checks that every contract played with trumps can name a trump suit that is in the
    pack in every setup, within its favourite-suit constraints and its own suit
    (``trump_suit``), each contract reported once."""
    contracts = d["auction"]["contracts"]
    options = d.get("options") or {}
    deck, letters = the_deck.cards, the_deck.letters
    # Every contract can name trumps in every setup: a suit in the pack, within its
    # favourite-suit constraints (else the deal would stop with no legal action).
    for setup in setups:
        gone = set(_gone_suits(d, the_deck, setup))
        present = {
            letters[c[-1]]
            for c in deck
            if c not in removed and c[-1] in letters and letters[c[-1]] not in gone
        }
        for cid, c in contracts.items():
            if c.get("trumps") == "none":
                continue  # played without trumps: no suit to name
            choices = set(present)
            if c.get("trump_option") in options:
                choices &= {setup[c["trump_option"]]}
            if c.get("trump_not_option") in options:
                choices -= {setup[c["trump_not_option"]]}
            if c.get("trump_suit"):
                choices &= {c["trump_suit"]}  # played in its own suit only
            if not choices:
                key = next(
                    (k for k in ("trump_suit", "trump_option") if c.get(k)), "trump_not_option"
                )
                add(
                    ("auction", "contracts", cid, key if c.get(key) else "help"),
                    "no-trump-suit",
                    f"contract {cid} can name no trump suit that is in the pack with {_setup_text(setup)}",
                )
                break


def _no_trumps_order_problems(d: dict[str, Any], add: _Add, the_deck: _Deck) -> None:
    """Checks that, where a contract is played without trumps (or ``ranking.no_trumps`` is
    given), the order without trumps of each colour lists every rank of the deck once."""
    contracts = d["auction"]["contracts"]
    ranks = the_deck.ranks
    # Contracts without trumps, to take no trick, with an exact exchange, reserved to the
    # last to speak, open (issue 16; docs/rule-format.md, "auction").
    no_trumps = (d["ranking"].get("no_trumps") or d["ranking"]["plain"]) if contracts else {}
    nt_path: Path_ = ("ranking", "no_trumps" if d["ranking"].get("no_trumps") else "plain")
    if any(c.get("trumps") == "none" for c in contracts.values()) or d["ranking"].get("no_trumps"):
        for colour in ("black", "red"):
            order = [canonical_rank(r) for r in no_trumps[colour]]
            if sorted(order) != sorted(ranks) or len(order) != len(ranks):
                missing = [r for r in ranks if r not in order]
                extra = [r for r in order if r not in ranks]
                add(
                    (*nt_path, colour),
                    "no-trumps-order-incomplete",
                    f"a contract without trumps ranks every card in its suit, so the {colour}"
                    f" order must list every rank of the deck once"
                    + (f" (it lacks {' '.join(missing)})" if missing else "")
                    + (f" (it has {' '.join(extra)}, not in the deck)" if extra else "")
                    + ("; give ranking.no_trumps" if nt_path[-1] == "plain" and missing else ""),
                )


def _bid_suit_problems(where: Path_, cid: str, c: dict[str, Any], add: _Add) -> None:
    """Checks a contract whose bid names its trump suit (``trump_with_bid``): it is bid, its
    trumps are named by its declarer, and no other rule fixes them (a suit turned from the
    talon, an option's suit, its own suit): its bid then has no suit to choose."""
    conflicts = [
        (key, why)
        for key, why in (
            ("trumps", "it is played without trumps"),
            ("trump_from_talon", "its trumps are turned from the talon"),
            ("trump_option", "its trumps are the suit of a setup option"),
            ("trump_suit", "it has its own trump suit"),
            ("trump_named_by", "its trumps are named by the called partner"),
            ("biddable", "it is not bid"),
        )
        if (key == "trumps" and c.get(key) == "none")
        or (key == "trump_named_by" and c.get(key) == "partner")
        or (key == "biddable" and c.get(key) is False)
        or (key not in ("trumps", "trump_named_by", "biddable") and c.get(key))
    ]
    for key, why in conflicts:
        add(
            (*where, key),
            "bid-suit-conflict",
            f"contract {cid}: its bid names its trump suit (trump_with_bid), but {why}",
        )


def _contract_setting_problems(d: dict[str, Any], add: _Add) -> None:
    """Checks each contract's settings against one another: one without trumps sets nothing
    about trumps, one to take no trick announces no vole and has a results rule of its own,
    ``biddable_when`` is set on a biddable contract that can be reached, and the checks of
    :func:`_all_play_problems`."""
    contracts = d["auction"]["contracts"]
    result_contracts = {
        cid for rule in d["results"]["rules"] for cid in (rule["when"].get("contract") or [])
    }
    for cid, c in contracts.items():
        where = ("auction", "contracts", cid)
        if c.get("trump_with_bid"):
            _bid_suit_problems(where, cid, c, add)
        if c.get("trumps") == "none":
            for key in ("trump_option", "trump_not_option", "trump_from_talon"):
                if c.get(key):
                    add(
                        (*where, key),
                        "no-trumps-conflict",
                        f"contract {cid} is played without trumps (trumps: none) and cannot"
                        f" also set {key}",
                    )
            if c.get("trump_named_by") == "partner":
                add(
                    (*where, "trump_named_by"),
                    "no-trumps-conflict",
                    f"contract {cid} is played without trumps: nobody names them",
                )
        if c.get("aim") == "no-tricks":
            if c.get("announces_vole"):
                add(
                    (*where, "announces_vole"),
                    "no-tricks-conflict",
                    f"contract {cid} undertakes to take no trick and cannot announce the vole",
                )
            if cid not in result_contracts:
                add(
                    (*where, "aim"),
                    "no-tricks-result",
                    f"contract {cid} undertakes to take no trick (aim: no-tricks), but no"
                    " results rule names it (when: {contract: [...]}): it would be won and"
                    " lost by the tricks of the other contracts",
                )
        if c.get("biddable_when", "always") != "always" and not c["biddable"]:
            add(
                (*where, "biddable_when"),
                "not-biddable",
                f"contract {cid} sets biddable_when but is not biddable",
            )
        elif c.get("biddable_when") == "over-a-bid":
            earlier = d["auction"].get("equal_rank") in ("earlier-holds", "earlier-holds-same")
            openers = [
                other
                for other, o in contracts.items()
                if other != cid
                and o["biddable"]
                and o.get("biddable_when", "always") == "always"
                and (o["rank"] < c["rank"] or (earlier and o["rank"] == c["rank"]))
            ]
            if not openers:
                add(
                    (*where, "biddable_when"),
                    "over-no-bid",
                    f"contract {cid} may not open the auction (biddable_when: over-a-bid), but no"
                    " contract that may open it ranks below it: it could never be bid",
                )
        _all_play_problems(d, cid, c, add)


def _vole_and_seat_problems(d: dict[str, Any], add: _Add) -> None:
    """Checks that a vole any seat may go on for is not offered with a contract that takes a
    partner, and that a seat sitting opposite the dealer exists at the table."""
    contracts = d["auction"]["contracts"]
    if d["vole"].get("by") == "any-seat":
        helped = [cid for cid, c in contracts.items() if c.get("help", "none") != "none"]
        if helped:
            add(
                ("vole", "by"),
                "vole-by-any-seat-partners",
                "a defender who goes on for the vole plays it alone as the declarer"
                " (vole.by: any-seat), which a contract with a partner cannot say: "
                + ", ".join(helped)
                + " take help",
            )
    sits = d["players"].get("sits_out")
    count = d["players"]["count"]
    if sits == "opposite-dealer" and (count % 2 or count < 4):
        add(
            ("players", "sits_out"),
            "no-opposite-seat",
            f"no seat sits opposite the dealer at a table of {count} (an even table of 4 or 6)",
        )


def _alias_problems(d: dict[str, Any], add: _Add) -> None:
    """Checks that no alias names two contracts (nor another contract's own name)."""
    contracts = d["auction"]["contracts"]
    named: dict[str, str] = {cid: cid for cid in contracts}
    for cid, c in contracts.items():
        for i, alias in enumerate(c.get("aliases", [])):
            if named.setdefault(alias, cid) != cid:
                add(
                    ("auction", "contracts", cid, "aliases", i),
                    "ambiguous-alias",
                    f"{alias!r} already names contract {named[alias]}",
                )


def _fee_problems(d: dict[str, Any], add: _Add) -> None:
    """Checks the favourite option of the call's and the demand's fees
    (:func:`_check_favourite`)."""
    options = d.get("options") or {}
    for key in ("call", "demand"):
        fee = (d["declarations"].get(key) or {}).get("fee") or {}
        _check_favourite(add, options, fee, ("declarations", key, "fee"))


def _all_pass_problems(d: dict[str, Any], add: _Add, the_deck: _Deck) -> None:
    """Checks that a forced declarer after all pass names a card of the deck and a contract
    that exists, and that some contract can be bid at all."""
    contracts = d["auction"]["contracts"]
    ap = d["auction"]["all_pass"]
    if ap["action"] == "forced":
        if "contract" not in ap or "card" not in ap:
            add(("auction", "all_pass"), "incomplete", "a forced declarer needs card and contract")
        else:
            _check_card(add, the_deck, ("auction", "all_pass", "card"), ap["card"])
            if ap["contract"] not in contracts:
                add(
                    ("auction", "all_pass", "contract"),
                    "unknown-contract",
                    f"no contract {ap['contract']!r} (known: {', '.join(contracts)})",
                )
    if not any(c["biddable"] for c in contracts.values()):
        add(("auction", "contracts"), "no-biddable-contract", "no contract can be bid")


def _declared_rank_problems(d: dict[str, Any], add: _Add, the_deck: _Deck) -> None:
    """Checks that the ranks the call and the demand name are ranks of the deck."""
    ranks = the_deck.ranks
    for key in ("call", "demand"):
        decl = d["declarations"].get(key)
        if decl:
            for field in ("rank", "all_held_fallback"):
                if field in decl and canonical_rank(decl[field]) not in ranks:
                    add(
                        ("declarations", key, field),
                        "unknown-rank",
                        f"rank {decl[field]!r} is not in the deck",
                    )


def _result_problems(d: dict[str, Any], add: _Add) -> None:
    """Checks that every result of the results table has its settlement outcome, and that the
    table gives every way a deal can end a result (:func:`_uncovered_endings`)."""
    outcomes = d["settlement"]["outcomes"]
    for i, rule in enumerate(d["results"]["rules"]):
        if rule["result"] not in outcomes:
            add(
                ("results", "rules", i, "result"),
                "unknown-outcome",
                f"result {rule['result']!r} has no settlement.outcomes entry (known: {', '.join(outcomes)})",
            )
    for message in _uncovered_endings(d):
        add(("results", "rules"), "no-fallback", message)


def _item_problems(d: dict[str, Any], add: _Add) -> None:
    """Checks that every payment item an outcome receives or pays exists, that the contracts
    an item names exist, and that an item's favourite option and amount go together."""
    contracts = d["auction"]["contracts"]
    options = d.get("options") or {}
    outcomes = d["settlement"]["outcomes"]
    items = d["settlement"].get("items") or {}
    for oid, out in outcomes.items():
        for direction in ("receive", "pay"):
            for i, item in enumerate(out.get(direction, [])):
                if item not in items:
                    add(
                        ("settlement", "outcomes", oid, direction, i),
                        "unknown-item",
                        f"no payment item {item!r} (known: {', '.join(items)})",
                    )
    for iid, item in items.items():
        for i, cid in enumerate(item.get("contracts", [])):
            if cid not in contracts:
                add(
                    ("settlement", "items", iid, "contracts", i),
                    "unknown-contract",
                    f"no contract {cid!r}",
                )
        for cid in item.get("by_contract", {}):
            if cid not in contracts:
                add(
                    ("settlement", "items", iid, "by_contract", cid),
                    "unknown-contract",
                    f"no contract {cid!r}",
                )
        favourite = _check_favourite(add, options, item, ("settlement", "items", iid))
        if "favourite_amount" in item and not favourite:
            add(
                ("settlement", "items", iid, "favourite_amount"),
                "incomplete",
                "a favourite_amount needs the favourite_option whose suit it is paid for",
            )


def _play_law_problems(d: dict[str, Any], add: _Add, names: dict[str, int]) -> None:
    """Checks the laws of the play (``laws:``): shown cards within a deal's tricks, a lay-down
    without naming trumps only in contracts played alone with trumps the declarer names, and
    a partner known only where a card is called, leading top trumps that exist."""
    contracts = d["auction"]["contracts"]
    laws = d.get("laws") or {}
    hand_size = d["deal"]["hand_size"]
    shown = laws.get("shown_cards")
    if shown and shown["before_side_tricks"] > hand_size:
        add(
            ("laws", "shown_cards", "before_side_tricks"),
            "unplayable",
            f"{shown['before_side_tricks']} tricks is more than a deal has ({hand_size})",
        )
    unnamed = laws.get("lay_down_unnamed")
    if unnamed:
        for i, cid in enumerate(unnamed["contracts"]):
            if cid not in contracts:
                add(
                    ("laws", "lay_down_unnamed", "contracts", i),
                    "unknown-contract",
                    f"no contract {cid!r} (known: {', '.join(contracts)})",
                )
            elif contracts[cid]["help"] != "none" or contracts[cid].get("trump_from_talon"):
                add(
                    ("laws", "lay_down_unnamed", "contracts", i),
                    "unplayable",
                    f"{cid!r} is not played alone with trumps named by the declarer: no one "
                    "lays it down without naming a suit",
                )
    known = laws.get("partner_known_no_vole")
    if known:
        if "call" not in d["declarations"]:
            add(
                ("laws", "partner_known_no_vole"),
                "missing-declaration",
                "the called card's holder is known only where a card is called (declarations.call)",
            )
        for i, name in enumerate(known["leads"]):
            if name not in names:
                add(
                    ("laws", "partner_known_no_vole", "leads", i),
                    "unknown-trump",
                    f"no top trump named {name!r} (known: {', '.join(names)})",
                )


def _table_law_problems(d: dict[str, Any], add: _Add) -> None:
    """Checks the laws of the table: eleven cards need a misdeal law and a game with bêtes,
    revokes found at the end need penalised renonces, and claims name payment items that
    exist."""
    items = d["settlement"].get("items") or {}
    laws = d.get("laws") or {}
    if laws.get("eleven_cards") and not laws.get("misdeal"):
        add(
            ("laws", "eleven_cards"),
            "law-needs-misdeal",
            "laws.eleven_cards voids the deal as a misdeal does: it needs laws.misdeal "
            "(who deals again)",
        )
    if laws.get("eleven_cards") and d["settlement"].get("unit") == "point":
        add(
            ("laws", "eleven_cards"),
            "law-needs-counters",
            "laws.eleven_cards makes a bête, and a game scored in points has none",
        )
    if laws.get("revokes") and (d["play"].get("renonce") or {}).get("action") != "penalised":
        add(
            ("laws", "revokes"),
            "law-needs-renonce",
            "laws.revokes is about renonces found at the end of a deal: it needs "
            "play.renonce.action: penalised",
        )
    claims = laws.get("claims_before_next_deal") or {}
    for i, iid in enumerate(claims.get("items", [])):
        if iid not in items:
            add(
                ("laws", "claims_before_next_deal", "items", i),
                "unknown-item",
                f"no payment item {iid!r} (known: {', '.join(items)})",
            )


def _citation_problems(d: dict[str, Any], add: _Add) -> None:
    """Checks that every citation names a source of the file's ``sources`` table."""
    sources = d["sources"]
    for path, basis in _bases(d, ()):
        for i, cite in enumerate(basis.get("cite", [])):
            if cite["source"] not in sources:
                add(
                    (*path, "cite", i, "source"),
                    "unknown-source",
                    f"cites {cite['source']!r}, which is not in the sources table",
                )


def _check_favourite(
    add: Callable[[Path_, str, str], None],
    options: Mapping[str, Any],
    holder: Mapping[str, Any],
    where: Path_,
) -> Any:
    """Checks the ``favourite_option`` of a fee or an item at ``where`` (a setup option that
    chooses a suit, with a ``favourite_amount``) and returns it (None if there is none)."""
    favourite = holder.get("favourite_option")
    path = (*where, "favourite_option")
    if favourite and favourite not in options:
        add(path, "unknown-option", f"no setup option {favourite!r}")
    elif favourite and options[favourite]["kind"] != "suit":
        add(path, "option-not-a-suit", f"option {favourite!r} does not choose a suit")
    if favourite and "favourite_amount" not in holder:
        add(path, "incomplete", "a favourite_option needs a favourite_amount")
    return favourite


def _partitions(total: int, parts: int, largest: int | None = None) -> Iterator[tuple[int, ...]]:
    """Yields the ways ``total`` tricks fall to ``parts`` seats, largest share first (seats are
    interchangeable in the results table, so each multiset once)."""
    top = total if largest is None else min(largest, total)
    if parts == 0:
        if total == 0:
            yield ()
        return
    for first in range(top, -1, -1):
        if first * parts < total:
            break
        for rest in _partitions(total - first, parts - 1, first):
            yield (first, *rest)


def _endings(
    d: dict[str, Any], c: dict[str, Any]
) -> Iterator[tuple[int, tuple[int, ...], int, bool]]:
    """Yields every way a deal in contract ``c`` can end, as the results table reads it:
    ``(side tricks, each opponent's tricks, tricks played, vole undertaken)``.

    A superset of what the referee and the scorekeeper produce: the side is the declarer
    alone or (under a call or a demand) with a partner; every seat off the side may take
    tricks; the vole is undertaken from the first trick when the contract announces it, or at
    the threshold by a side that took every trick so far; the side may lay down at or past
    the threshold having taken every trick played.
    """
    seats = d["players"]["count"]
    hand = d["deal"]["hand_size"]
    after = d["vole"]["after_tricks"]
    announced = bool(c.get("announces_vole", False))
    vole_allowed = bool(c.get("vole_allowed", True))
    for size in (1,) if c["help"] == "none" else (1, 2):
        opponents = max(seats - size, 0)
        for side in range(hand + 1):
            for split in _partitions(hand - side, opponents):
                if announced:
                    yield side, split, hand, True
                    continue
                yield side, split, hand, False
                if vole_allowed and after < hand and side >= after:
                    yield side, split, hand, True
        for played in range(after, hand):
            yield played, (0,) * opponents, played, announced


def _uncovered_endings(d: dict[str, Any]) -> list[str]:
    """Returns, for each contract whose deals can end without a result, what is left over.

    The results table is read as the referee reads it (:meth:`Condition.holds`), so a table
    this accepts gives every deal a result: the referee has no fallback.
    """
    hand = d["deal"]["hand_size"]
    conditions = [condition_of(r["when"]) for r in d["results"]["rules"]]
    gaps: dict[str, list[tuple[int, tuple[int, ...], int, bool]]] = {}
    for cid, c in d["auction"]["contracts"].items():
        for side, split, played, vole in _endings(d, c):
            if not any(
                w.holds(
                    contract=cid,
                    side_tricks=side,
                    opponents=split,
                    played=played,
                    hand_size=hand,
                    vole_undertaken=vole,
                )
                for w in conditions
            ):
                gaps.setdefault(cid, []).append((side, split, played, vole))
    by_gap: dict[str, list[str]] = {}
    for cid, found in gaps.items():
        counts = sorted({side for side, _, _, _ in found})
        side, split, played, vole = found[0]
        shown = (
            ", ".join(map(str, counts[:-1])) + (" or " if len(counts) > 1 else "") + str(counts[-1])
        )
        example = (
            f"{side} tricks to the side and {'-'.join(map(str, split)) or 'none'} to the opponents"
        )
        if played < hand:
            example += f", laid down after {played}"
        if vole:
            example += ", the vole undertaken"
        text = f"when the declaring side takes {shown} of {hand} tricks (for instance {example})"
        by_gap.setdefault(text, []).append(cid)
    return [
        f"the results table gives no result to a deal in {'contract' if len(cids) == 1 else 'contracts'}"
        f" {', '.join(cids)} {text}: every deal must end in a result (add a rule for it, or end the"
        " table with `when: {otherwise: true}`)"
        for text, cids in by_gap.items()
    ]


def reachable_results(d: dict[str, Any]) -> dict[str, list[str]]:
    """Returns, for each contract, the results a deal in it can end in, in the results
    table's order: the first rule that holds for each way the deal can end (:func:`_endings`),
    as the referee reads the table."""
    hand = d["deal"]["hand_size"]
    rules = [(r["result"], condition_of(r["when"])) for r in d["results"]["rules"]]
    found: dict[str, list[str]] = {}
    for cid, c in d["auction"]["contracts"].items():
        seen: set[str] = set()
        for side, split, played, vole in _endings(d, c):
            for result, w in rules:
                if w.holds(
                    contract=cid,
                    side_tricks=side,
                    opponents=split,
                    played=played,
                    hand_size=hand,
                    vole_undertaken=vole,
                ):
                    seen.add(result)
                    break
        order = [r for r, _ in rules]
        found[cid] = sorted(seen, key=order.index)
    return found


def _all_play_problems(
    d: dict[str, Any], cid: str, c: dict[str, Any], add: Callable[[Path_, str, str], None]
) -> None:
    """The checks of a contract offered to the seat that sits out (``biddable_when:
    out-after-all-pass``) and of one every seat plays (``all_play``, the penetro)."""
    where: Path_ = ("auction", "contracts", cid)
    offered = c.get("biddable_when") == "out-after-all-pass"
    if offered and not d["players"].get("sits_out"):
        add(
            (*where, "biddable_when"),
            "no-seat-out",
            f"contract {cid} is offered to the seat that sits the deal out, but no seat sits out"
            " (players.sits_out)",
        )
    ap = c.get("all_play")
    if ap is None:
        if offered:
            add(
                (*where, "biddable_when"),
                "offered-not-all-play",
                f"contract {cid} is offered to the seat that sits out, who holds no cards: it"
                " must be played by every seat (all_play), he drawing his from the talon",
            )
        return
    if not offered:
        add(
            (*where, "all_play"),
            "all-play-not-offered",
            f"contract {cid} is played by every seat, the one that sat out included: only that"
            " seat can take it up (biddable_when: out-after-all-pass)",
        )
    hand, talon = d["deal"]["hand_size"], d["deal"]["talon"]
    if ap["draw"] != hand or ap["draw"] > talon:
        add(
            (*where, "all_play", "draw"),
            "all-play-draw",
            f"the seat that sat out must draw a hand of {hand} cards to play every trick, from a"
            f" talon of {talon} (all_play.draw is {ap['draw']})",
        )
    for key, wanted in (("exchange", "none"), ("help", "none"), ("aim", "tricks")):
        if c.get(key, "none" if key == "exchange" else "tricks") != wanted:
            add(
                (*where, key),
                "all-play-conflict",
                f"contract {cid} is played by every seat for himself: it takes {key}: {wanted}",
            )
    if c.get("vole_allowed", True) or c.get("announces_vole"):
        add(
            (*where, "vole_allowed"),
            "all-play-conflict",
            f"contract {cid} is played by every seat for himself: no side goes for the vole"
            " (vole_allowed: false)",
        )
    if d["settlement"]["unit"] != "point":
        add(
            (*where, "all_play"),
            "all-play-needs-points",
            f"contract {cid} is played by every seat for himself, and the seat with the most"
            " tricks scores the tariff's most_tricks: a game scored in points"
            " (settlement.unit: point)",
        )


def _points_problems(d: dict[str, Any], add: Callable[[Path_, str, str], None]) -> None:
    """The checks of a game scored in points (``settlement.unit: point``): a tariff for every
    result each contract can end in, each outcome naming its game; penalty points only there."""
    s = d["settlement"]
    contracts = d["auction"]["contracts"]
    outcomes = s["outcomes"]
    points = s.get("points") or {}
    in_points = s["unit"] == "point"
    if s.get("penalties") and not in_points:
        add(
            ("settlement", "penalties"),
            "penalty-needs-points",
            "penalty points are scored only in a game scored in points (settlement.unit: point)",
        )
    for oid, out in outcomes.items():
        if in_points and "game" not in out:
            add(
                ("settlement", "outcomes", oid),
                "incomplete",
                f"outcome {oid!r} of a game scored in points needs its game (won, remise or "
                "codille): there is no pot to say it",
            )
        elif not in_points and "pot" not in out:
            add(
                ("settlement", "outcomes", oid),
                "incomplete",
                f"outcome {oid!r} needs its pot: `game` is for a game scored in points",
            )
    for cid, row in points.items():
        if cid not in contracts:
            add(("settlement", "points", cid), "unknown-contract", f"no contract {cid!r}")
            continue
        for rid in row:
            if rid != "basis" and rid not in outcomes:
                add(
                    ("settlement", "points", cid, rid),
                    "unknown-outcome",
                    f"no result {rid!r} (known: {', '.join(outcomes)})",
                )
            value = row[rid]
            if (
                isinstance(value, dict)
                and "most_tricks" in value
                and not contracts[cid].get("all_play")
            ):
                add(
                    ("settlement", "points", cid, rid, "most_tricks"),
                    "most-tricks-not-all-play",
                    f"most_tricks scores the seat with the most tricks under a contract every"
                    f" seat plays for himself; contract {cid} is played by a side (all_play)",
                )
    if not in_points:
        return
    for cid, results in reachable_results(d).items():
        missing = [r for r in results if r not in (points.get(cid) or {})]
        if missing:
            add(
                ("settlement", "points", cid) if cid in points else ("settlement", "points"),
                "no-points",
                f"the tariff gives no points to contract {cid} for {', '.join(missing)}: a deal in"
                " it can end so (give each result its points, 0 where nobody scores)",
            )

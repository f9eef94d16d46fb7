"""The comparison matrix: every ruleset and variant side by side, a row per aspect.

A cell is a short value read from the model (counts, orders, amounts); a cell that differs from
the same cell of the ruleset's parent is marked, so a variant's column shows at a glance what it
changes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine.cards import Colour, Suit
from engine.rules.model import RuleSet

__all__ = ["ASPECTS", "Cell", "Matrix", "Row", "build_matrix"]


def _trumps(colour: Colour) -> Callable[[RuleSet], str]:
    def count(r: RuleSet) -> str:
        present = {c.suit for c in r.deck()}
        sizes = sorted({len(r.trump_order(s)) for s in Suit if s.colour is colour and s in present})
        return " or ".join(str(n) for n in sizes) if sizes else "-"

    return count


def _contracts(r: RuleSet) -> str:
    order = sorted(r.contracts.values(), key=lambda c: (c.rank, c.id))
    return " < ".join(c.id + ("" if c.biddable else " (imposed)") for c in order)


def _kinds(r: RuleSet) -> str:
    """The contracts played without trumps, to take no trick, open or reserved (issue 16)."""
    parts = []
    for c in sorted(r.contracts.values(), key=lambda c: (c.rank, c.id)):
        traits = []
        if c.no_trumps:
            traits.append("no trumps")
        if c.no_tricks:
            traits.append("no tricks")
        if c.exchange_min is not None and c.exchange_min == c.exchange_max:
            traits.append(f"exchanges exactly {c.exchange_min}")
        if c.open is not None:
            traits.append(f"open {c.open}")
        if c.biddable_when != "always":
            traits.append(str(c.biddable_when))
        if c.all_play is not None:
            traits.append(
                f"all play, the seat out drawing {c.all_play.draw}, ties {c.all_play.ties}"
            )
        if traits:
            parts.append(f"{c.id}: {', '.join(traits)}")
    if any(c.no_trumps for c in r.contracts.values()):
        black = " ".join(x.value for x in r.no_trumps_black)
        red = " ".join(x.value for x in r.no_trumps_red)
        parts.append(f"order without trumps: black {black}; red {red}")
    return "; ".join(parts) or "-"


def _players(r: RuleSet) -> str:
    out = f"{r.players}, {r.direction}"
    if r.sits_out == "dealer":
        out += "; the dealer sits out"
    elif r.sits_out == "opposite-dealer":
        out += "; the seat opposite the dealer sits out"
    return out


def _call(key: str) -> Callable[[RuleSet], str]:
    def text(r: RuleSet) -> str:
        c = r.call if key == "call" else r.demand
        if c is None:
            return "-"
        out = f"{c.rank.value}"
        if c.all_held_fallback is not None:
            out += f" ({c.all_held_fallback.value} holding all)"
        out += "; own: alone" if c.own_card == "alone" else "; never own"
        if not c.trump_suit_allowed:
            out += "; not trumps"
        return out

    return text


def _results(r: RuleSet) -> str:
    parts = []
    for rule in r.results:
        w = rule.when
        if w.vole:
            cond = f"vole {w.vole}"
        elif w.side_exactly is not None:
            cond = f"= {w.side_exactly}"
        elif w.side_at_least is not None:
            cond = f">= {w.side_at_least}"
        elif w.side_at_most is not None:
            cond = f"<= {w.side_at_most}"
        elif w.more_than_each_opponent:
            cond = "more than each"
        elif w.single_opponent_most:
            cond = "an opponent most"
        elif w.laid_down:
            cond = "laid down"
        else:
            cond = "otherwise"
        parts.append(f"{rule.result} {cond}")
    return "; ".join(parts)


_POINTS = "- (scored in points)"
"""A counter's cell in a game scored in points: it has no counters, and says so rather than
show an amount in a unit it does not use."""


def _unit(r: RuleSet) -> str:
    """The unit every amount of the column is in: the amounts of two columns in different
    units are never the same thing (points are scored, counters change hands)."""
    if r.in_points:
        return "points, scored from a tariff (nothing staked)"
    return f"{r.unit}s (counters); fiche {r.fiche}"


def _counters(read: Callable[[RuleSet], str], label: bool = True) -> Callable[[RuleSet], str]:
    """A row about counters (its amounts labelled with their unit); a game in points has
    none."""

    def cell(r: RuleSet) -> str:
        if r.in_points:
            return _POINTS
        value = read(r)
        if not label or value in ("", "-"):
            return value or "-"
        return f"{value} ({r.unit}s)"

    return cell


def _points(r: RuleSet) -> str:
    if not r.in_points:
        return "-"
    rows: dict[str, list[str]] = {}
    for p in r.points.values():
        roles = [
            f"{name} {amount:+d}"
            for name, amount in (
                ("declarer", p.declarer),
                ("partner", p.partner),
                ("each opponent", p.opponents),
                ("most tricks", p.codille_winner),
                ("the most tricks of all", p.most_tricks),
            )
            if amount
        ]
        text = (
            roles[0].removeprefix("declarer ")
            if roles == [f"declarer {p.declarer:+d}"]
            else (", ".join(roles) or "0")
        )
        rows.setdefault(p.contract, []).append(f"{p.result} {text}")
    return "; ".join(f"{c}: {', '.join(v)}" for c, v in rows.items()) + " (points)"


def _penalties(r: RuleSet) -> str:
    return (
        "; ".join(f"{f.id} -{f.points}" for f in r.penalties.values()) + " (points)"
        if r.penalties
        else "-"
    )


def _party(r: RuleSet) -> str:
    party = r.party
    if party is None:
        return "-"
    if party.target is not None:
        return f"to {party.target} ({'points' if r.in_points else r.unit + 's'})"
    if party.deals is not None:
        return f"{party.deals} deals"
    return f"{party.tours} tours, the last x{party.last_tour_factor}"


def _items(r: RuleSet) -> str:
    parts = []
    for i in r.items.values():
        if i.per_matador is not None:
            value = f"{i.per_matador}/matador"
        elif i.in_play:
            value = "in play"
        else:
            value = str(i.amount)
        if i.by_contract:
            value += " (" + ", ".join(f"{k} {v}" for k, v in i.by_contract.items()) + ")"
        if i.favourite_option is not None:
            value += f", {i.favourite_amount} in the {i.favourite_option}"
        parts.append(f"{i.id} {value}")
    return "; ".join(parts)


def _outcomes(r: RuleSet) -> str:
    parts = []
    for o in r.outcomes.values():
        if o.pot is None:
            parts.append(f"{o.id}: {'won' if o.game == 'won' else f'lost ({o.game})'}")
            continue
        text = f"{o.id}: pot {o.pot}" + (", bête" if o.bete else "")
        if o.receive:
            text += ", receives " + "+".join(o.receive)
        if o.pay:
            text += ", pays " + "+".join(o.pay)
        parts.append(text)
    return "; ".join(parts)


def _bete(r: RuleSet) -> str:
    out = r.bete_amount
    if r.bete_stake_value is not None:
        out += f", on {r.bete_stake_value}"
    if r.bete_cap != "none":
        out += f", capped by {r.bete_cap}"
    if r.bete_doubling_after_first_remise:
        out += ", doubles after a first remise"
    if r.bete_growth == "doubling":
        out += "; a bête on a bête is twice it"
    elif r.bete_growth == "step":
        out += f"; a bête on a bête is it and {r.bete_step} more"
    return out


def _options(r: RuleSet) -> str:
    return (
        "; ".join(
            f"{o.id} ({'/'.join(s.value for s in o.choices)}; default {o.default.value})"
            for o in r.options.values()
        )
        or "-"
    )


ASPECTS: tuple[tuple[str, Callable[[RuleSet], str]], ...] = (
    ("players", _players),
    ("pack", lambda r: f"{len(r.deck())} cards"),
    ("setup options", _options),
    ("hand", lambda r: str(r.hand_size)),
    ("talon", lambda r: str(r.talon)),
    ("packets", lambda r: " or ".join("-".join(str(n) for n in p) for p in r.packets)),
    ("trumps in red", _trumps(Colour.RED)),
    ("trumps in black", _trumps(Colour.BLACK)),
    ("named trumps", lambda r: ", ".join(t.name for t in r.top_trumps)),
    ("matadors' privilege", lambda r: ", ".join(r.privileged)),
    (
        "paid matadors",
        lambda r: f"run from {r.paid_from}, at least {r.paid_minimum}, held by {r.paid_held_by}",
    ),
    ("contracts, lowest first", _contracts),
    ("without trumps, to take no trick, open", _kinds),
    (
        "speech",
        lambda r: (
            str(r.speech)
            + ("; equal rank: earlier holds" if r.equal_rank != "refused" else "")
            + ("; raise after the auction" if r.raise_to else "")
        ),
    ),
    (
        "all pass",
        lambda r: (
            (
                f"{r.all_pass_card} must play {r.all_pass_contract}"
                if r.all_pass == "forced"
                else "deal again"
            )
            + "".join(f"; +{a} {w}" for w, a in r.all_pass_stakes)
        ),
    ),
    ("calls", _call("call")),
    ("demands", _call("demand")),
    (
        "exchange",
        lambda r: (
            "-"
            if r.talon == 0
            else f"first at most {r.exchange_first_max}; leave {r.exchange_leave_at_least}"
            + (
                f"; declarer buys at least {r.exchange_declarer_min}"
                if r.exchange_declarer_min
                else ""
            )
            + ("; besides the turned card" if r.exchange_besides_turned else "")
            + ("; a defender may defer" if r.exchange_defenders == "either-first" else "")
        ),
    ),
    (
        "vole",
        lambda r: (
            f"after {r.vole_after} tricks" + ("; a defender too" if r.vole_by == "any-seat" else "")
        ),
    ),
    ("thresholds", _results),
    ("unit", _unit),
    ("party", _party),
    ("stakes", _counters(lambda r: ", ".join(f"{w} {a}" for w, a in r.stakes))),
    ("payment items, per opponent", _counters(_items)),
    ("points tariff", _points),
    ("penalty points", _penalties),
    ("outcomes", _outcomes),
    ("bêtes", _counters(_bete, label=False)),
    (
        "sole liability",
        _counters(
            lambda r: (
                f"below {r.sole_liability_below} tricks"
                if r.sole_liability_below is not None
                else "-"
            ),
            label=False,
        ),
    ),
    ("odd counter", lambda r: _POINTS if r.in_points else f"to the {r.odd_counter}"),
    ("codille remainder", lambda r: _POINTS if r.in_points else r.codille_remainder),
)
"""The rows of the matrix: a name and how to read the cell from a ruleset."""


@dataclass(frozen=True, slots=True)
class Cell:
    """One cell: the value and whether it differs from the parent's."""

    value: str
    changed: bool


@dataclass(frozen=True, slots=True)
class Row:
    """An aspect and its cell in every column."""

    aspect: str
    cells: tuple[Cell, ...]


@dataclass(frozen=True, slots=True)
class Matrix:
    """The rulesets (columns) and the aspects (rows)."""

    columns: tuple[RuleSet, ...]
    rows: tuple[Row, ...]

    def part(self, ids: Sequence[str]) -> Matrix:
        """Returns the matrix of the columns ``ids`` only, in that order."""
        index = {r.id: k for k, r in enumerate(self.columns)}
        keep = [index[i] for i in ids if i in index]
        return Matrix(
            tuple(self.columns[k] for k in keep),
            tuple(Row(row.aspect, tuple(row.cells[k] for k in keep)) for row in self.rows),
        )

    def groups(self) -> list[tuple[RuleSet, Matrix]]:
        """Returns the matrix in parts a page can show whole: first every ruleset (the games),
        then each ruleset with its variants (those that extend it, directly or through another
        variant), the ruleset first; a ruleset without a variant among the columns has no part
        of its own."""
        by_id = {r.id: r for r in self.columns}

        def home(r: RuleSet) -> str | None:
            seen = r
            while seen.kind == "variant" and seen.extends in by_id:
                seen = by_id[seen.extends]
            return seen.id if seen.kind != "variant" else None

        games = [r for r in self.columns if r.kind != "variant"]
        out: list[tuple[RuleSet, Matrix]] = []
        for game in games:
            family = [r.id for r in self.columns if r.kind == "variant" and home(r) == game.id]
            if family:
                out.append((game, self.part([game.id, *family])))
        return out

    def games(self) -> Matrix:
        """Returns the matrix of the rulesets alone (no variant)."""
        return self.part([r.id for r in self.columns if r.kind != "variant"])


def build_matrix(rulesets: Sequence[RuleSet]) -> Matrix:
    """Returns the matrix of ``rulesets``, each compared with its parent (loaded if needed)."""
    from engine.rules import load_ruleset

    parents = {r.id: load_ruleset(r.extends) if r.extends else None for r in rulesets}
    rows = []
    for aspect, read in ASPECTS:
        cells = []
        for r in rulesets:
            value = read(r)
            parent = parents[r.id]
            cells.append(Cell(value, parent is not None and read(parent) != value))
        rows.append(Row(aspect, tuple(cells)))
    return Matrix(tuple(rulesets), tuple(rows))

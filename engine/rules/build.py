"""The build: a frozen :class:`~engine.rules.ruleset.RuleSet` from a resolved, validated
rule document (:mod:`engine.rules.loader` resolves and validates it)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, Protocol

from engine.cards import Card, Colour, Rank, Suit
from engine.enums import (
    Aim,
    AllPass,
    AllPlayTies,
    BeteCap,
    BeteGoing,
    BiddableWhen,
    CodilleRemainder,
    Defenders,
    EqualRank,
    Exchange,
    HeldBy,
    Help,
    Leader,
    OpenFrom,
    OptionKind,
    OwnCard,
    Pot,
    Renonce,
    Speech,
    TrumpNamedBy,
    Trumps,
    Visibility,
    VoleBy,
)
from engine.rules.reader import Path_, Where
from engine.rules.ruleset import RuleSet
from engine.rules.values import (
    PLAY_LAW_KEYS,
    POINT,
    AllPlay,
    Basis,
    Call,
    Claims,
    Contract,
    DemandFee,
    Game,
    HeldCards,
    Item,
    LawRule,
    Laws,
    Misdeal,
    OnlyToOvercall,
    Option,
    OutcomeRule,
    PartyRule,
    Penalty,
    PlayLaw,
    PlayLaws,
    Points,
    ResultRule,
    TopTrump,
    condition_of,
    deep_freeze,
    freeze,
)


def _laws(laws: Mapping[str, Any], basis: Callable[..., Basis]) -> Laws:
    """The typed laws of the table from the file's ``laws`` mapping."""
    m = laws.get("misdeal")
    e = laws.get("eleven_cards")
    r = laws.get("revokes")
    c = laws.get("claims_before_next_deal")
    return Laws(
        misdeal=Misdeal(tuple(m["faults"]), m["redealt_by"], basis("laws", "misdeal"))
        if m
        else None,
        eleven_cards=LawRule(e["penalty"], basis("laws", "eleven_cards")) if e else None,
        revokes=LawRule(r["several"], basis("laws", "revokes")) if r else None,
        claims=Claims(tuple(c["items"]), basis("laws", "claims_before_next_deal")) if c else None,
    )


def _play_laws(d: Mapping[str, Any], basis: Any) -> PlayLaws:
    laws = d.get("laws") or {}
    out: dict[str, PlayLaw] = {}
    for key in PLAY_LAW_KEYS:
        law = laws.get(key)
        if law is None:
            continue
        remedy = law.get("remedy", ())
        out[key] = PlayLaw(
            key=key,
            basis=basis("laws", key),
            remedies=(remedy,) if isinstance(remedy, str) else tuple(remedy),
            exempt=tuple(law.get("exempt", ())),
            bars_vole=bool(law.get("bars_vole", False)),
            before_side_tricks=int(law.get("before_side_tricks", 0)),
            contracts=tuple(law.get("contracts", ())),
            leads=tuple(law.get("leads", ())),
            called_card=bool(law.get("called_card", False)),
            bete=str(law.get("bete", "")),
        )
    return PlayLaws(**out)


def _only_to_overcall(value: Any, basis: Any, cid: str) -> OnlyToOvercall | None:
    """The ``only_to_overcall`` of a contract: ``refused`` or ``{penalty: N}``."""
    if value is None:
        return None
    if value == "refused":
        return OnlyToOvercall(None, basis("auction", "contracts", cid))
    where = ("auction", "contracts", cid, "only_to_overcall")
    return OnlyToOvercall(
        str(value["penalty"]), basis(*where) if "basis" in value else basis(*where[:-1])
    )


def _points_of(data: Mapping[str, Any], basis: Any) -> dict[tuple[str, str], Points]:
    """The tariff of ``settlement.points``: a number is the declarer's, a mapping by role."""
    found: dict[tuple[str, str], Points] = {}
    for cid, row in (data or {}).items():
        for rid, value in row.items():
            if rid == "basis":
                continue
            roles = {"declarer": value} if isinstance(value, int) else dict(value)
            found[(cid, rid)] = Points(
                contract=cid,
                result=rid,
                declarer=int(roles.get("declarer", 0)),
                partner=int(roles.get("partner", 0)),
                opponents=int(roles.get("opponents", 0)),
                codille_winner=int(roles.get("codille_winner", 0)),
                basis=basis("settlement", "points", cid),
                most_tricks=int(roles.get("most_tricks", 0)),
            )
    return found


class ResolvedDocument(Protocol):
    """A rule file resolved and validated, as the model is built from it
    (:class:`engine.rules.loader.Resolved`)."""

    @property
    def data(self) -> Mapping[str, Any]:
        """The document after ``extends:`` is merged."""

    @property
    def kind(self) -> str: ...

    @property
    def file(self) -> str: ...

    @property
    def chain(self) -> Sequence[str]: ...

    @property
    def where(self) -> Mapping[Path_, Where]: ...

    @property
    def overrides(self) -> Sequence[tuple[Path_, Where]]: ...

    def locate(self, path: Path_) -> Where:
        """Returns where the value at ``path`` (or its nearest ancestor) was set."""


Bases = Callable[..., Basis]
"""The basis of the rule at a path of the document (:func:`build_ruleset`'s reader)."""


def _options(d: Mapping[str, Any], basis: Bases) -> dict[str, Option]:
    """The setup options (``options:``)."""
    return {
        k: Option(
            k,
            v["name"],
            OptionKind(v["kind"]),
            tuple(Suit(s) for s in v["choices"]),
            Suit(v["default"]),
            basis("options", k),
        )
        for k, v in (d.get("options") or {}).items()
    }


def _top_trumps(d: Mapping[str, Any], basis: Bases) -> tuple[TopTrump, ...]:
    """The named top trumps, highest first (``ranking.trumps.top``)."""
    return tuple(
        TopTrump(
            name=t["name"],
            card=Card.parse(t["card"]) if "card" in t else None,
            rank={Colour(c): Rank(r) for c, r in (t.get("rank") or {}).items()},
            matador=bool(t["matador"]),
            basis=basis("ranking", "trumps", "top", i),
        )
        for i, t in enumerate(d["ranking"]["trumps"]["top"])
    )


def _contract(cid: str, c: Mapping[str, Any], basis: Bases) -> Contract:
    """One contract of ``auction.contracts``."""
    return Contract(
        id=cid,
        name=c["name"],
        rank=int(c["rank"]),
        biddable=bool(c["biddable"]),
        help=Help(c["help"]),
        matchable=bool(c.get("matchable", False)),
        vole_allowed=bool(c.get("vole_allowed", True)),
        shared_liability=bool(c.get("shared_liability", False)),
        exchange=Exchange(c.get("exchange", "none")),
        trump_option=c.get("trump_option"),
        trump_not_option=c.get("trump_not_option"),
        basis=basis("auction", "contracts", cid),
        aliases=tuple(c.get("aliases", [])),
        announces_vole=bool(c.get("announces_vole", False)),
        trump_named_by=TrumpNamedBy(c.get("trump_named_by", "declarer")),
        requires_cards=tuple(Card.parse(t) for t in c.get("requires_cards", ())),
        trump_from_talon=bool(c.get("trump_from_talon", False)),
        trump_with_bid=bool(c.get("trump_with_bid", False)),
        trumps=Trumps(c.get("trumps", "named")),
        aim=Aim(c.get("aim", "tricks")),
        open=OpenFrom(c["open"]) if c.get("open") else None,
        biddable_when=BiddableWhen(c.get("biddable_when", "always")),
        all_play=AllPlay(int(c["all_play"]["draw"]), AllPlayTies(c["all_play"]["ties"]))
        if c.get("all_play")
        else None,
        trump_suit=Suit(c["trump_suit"]) if c.get("trump_suit") else None,
        bid_as=c.get("bid_as"),
        only_to_overcall=_only_to_overcall(c.get("only_to_overcall"), basis, cid),
        instead_of=c.get("instead_of"),
        declarer_may_play=tuple(c.get("declarer_may_play", ())),
        exchange_min=(c.get("exchange_limits") or {}).get("declarer_min"),
        exchange_max=(c.get("exchange_limits") or {}).get("declarer_max"),
    )


def _call(d: Mapping[str, Any], key: str, basis: Bases) -> Call | None:
    """The call (or the demand) of a card, ``declarations.<key>``, where the file has one."""
    c = d["declarations"].get(key)
    if c is None:
        return None
    fee = c.get("fee")
    return Call(
        rank=Rank(c["rank"]),
        trump_suit_allowed=bool(c["trump_suit_allowed"]),
        own_card=OwnCard(c["own_card"]),
        all_held_fallback=Rank(c["all_held_fallback"]) if c.get("all_held_fallback") else None,
        given_card_visible=Visibility(c.get("given_card_visible", "private")),
        fee=DemandFee(
            amount=int(fee["amount"]),
            favourite_option=fee.get("favourite_option"),
            favourite_amount=fee.get("favourite_amount"),
            basis=basis("declarations", key, "fee"),
        )
        if fee
        else None,
        basis=basis("declarations", key),
        surrender_fee=int(c["surrender"]["fee"]) if c.get("surrender") else None,
    )


def _results(d: Mapping[str, Any], basis: Bases) -> tuple[ResultRule, ...]:
    """The results table (``results.rules``), in order."""
    return tuple(
        ResultRule(
            result=r["result"],
            when=condition_of(r["when"]),
            basis=basis("results", "rules", i),
        )
        for i, r in enumerate(d["results"]["rules"])
    )


def _items(s: Mapping[str, Any], basis: Bases) -> dict[str, Item]:
    """The items of the settlement (``settlement.items``)."""
    return {
        k: Item(
            id=k,
            name=v["name"],
            amount=v.get("amount"),
            per_matador=v.get("per_matador"),
            in_play=bool(v.get("in_play", False)),
            single_stake_only=bool(v.get("single_stake_only", False)),
            by_contract=freeze(dict(v.get("by_contract") or {})),
            contracts=tuple(v["contracts"]) if "contracts" in v else None,
            basis=basis("settlement", "items", k),
            favourite_option=v.get("favourite_option"),
            favourite_amount=v.get("favourite_amount"),
        )
        for k, v in (s.get("items") or {}).items()
    }


def _outcomes(s: Mapping[str, Any], in_points: bool, basis: Bases) -> dict[str, OutcomeRule]:
    """The outcomes of the settlement (``settlement.outcomes``)."""
    return {
        k: OutcomeRule(
            id=k,
            # A game in points has no pot, bête or items: what it inherits of them is not read.
            pot=Pot(v["pot"]) if "pot" in v and not in_points else None,
            bete=bool(v.get("bete", False)) and not in_points,
            receive=() if in_points else tuple(v.get("receive", [])),
            pay=() if in_points else tuple(v.get("pay", [])),
            basis=basis("settlement", "outcomes", k),
            game=Game(v["game"]) if "game" in v else None,
            name=v.get("name"),
        )
        for k, v in s["outcomes"].items()
    }


def _held_cards(s: Mapping[str, Any], basis: Bases) -> tuple[HeldCards, ...]:
    """The payments for cards held (``settlement.held_cards``)."""
    return tuple(
        HeldCards(
            name=h["name"],
            cards=tuple(Card.parse(t) for t in h["cards"]),
            amount=int(h["amount"]),
            basis=basis("settlement", "held_cards", i),
        )
        for i, h in enumerate(s.get("held_cards") or ())
    )


def _party(d: Mapping[str, Any], basis: Bases) -> PartyRule | None:
    """The party of some tours (``party:``), where the file plays one."""
    if not d.get("party"):
        return None
    p = d["party"]
    return PartyRule(
        tours=int(p["tours"]) if "tours" in p else None,
        last_tour_factor=int(p.get("last_tour_factor", 1)),
        basis=basis("party"),
        deals=int(p["deals"]) if "deals" in p else None,
        target=int(p["target"]) if "target" in p else None,
    )


def _penalties(s: Mapping[str, Any], basis: Bases) -> dict[str, Penalty]:
    """The faults scored in penalty points (``settlement.penalties``)."""
    return {
        k: Penalty(k, v["name"], int(v["points"]), basis("settlement", "penalties", k))
        for k, v in (s.get("penalties") or {}).items()
    }


_Basis = Callable[..., Basis]
"""Returns the basis of the entry at a path of the document."""


def _deck_fields(d: Mapping[str, Any], basis: _Basis) -> dict[str, Any]:
    """The players, the pack, the ranking of the cards and the matadors."""
    plain = d["ranking"]["plain"]
    no_trumps = d["ranking"].get("no_trumps") or plain
    matadors = d["matadors"]
    return {
        "players": int(d["players"]["count"]),
        "direction": d["players"]["direction"],
        "sits_out": d["players"].get("sits_out"),
        "ranks": tuple(Rank(r) for r in d["deck"]["ranks"]),
        "suits": tuple(Suit(s) for s in d["deck"]["suits"]),
        "removed": frozenset(Card.parse(c) for c in d["deck"].get("remove", [])),
        "plain_black": tuple(Rank(r) for r in plain["black"]),
        "plain_red": tuple(Rank(r) for r in plain["red"]),
        "no_trumps_black": tuple(Rank(r) for r in no_trumps["black"]),
        "no_trumps_red": tuple(Rank(r) for r in no_trumps["red"]),
        "top_trumps": _top_trumps(d, basis),
        "privileged": tuple(matadors["privilege"]["cards"]),
        "higher_led_forces_lower": bool(matadors["privilege"]["higher_led_forces_lower"]),
        "paid_from": matadors["payment"]["from"],
        "paid_minimum": int(matadors["payment"]["minimum"]),
        "paid_held_by": HeldBy(matadors["payment"]["held_by"]),
    }


def _deal_fields(d: Mapping[str, Any]) -> dict[str, Any]:
    """The deal: the hands, the talon, the packets, who cuts."""
    deal = d["deal"]
    return {
        "hand_size": int(deal["hand_size"]),
        "talon": int(deal["talon"]),
        "packets": tuple(tuple(p) for p in deal["packets"]),
        "cut_by": deal["cut"]["by"] if deal.get("cut") else None,
    }


def _auction_fields(d: Mapping[str, Any], basis: _Basis, in_points: bool) -> dict[str, Any]:
    """The auction: the contracts, when all pass, the calls and demands, how a seat speaks."""
    auction = d["auction"]
    ap = auction["all_pass"]
    return {
        "contracts": freeze(
            {cid: _contract(cid, c, basis) for cid, c in auction["contracts"].items()}
        ),
        "all_pass": AllPass(ap["action"]),
        "all_pass_card": Card.parse(ap["card"]) if ap.get("card") else None,
        "all_pass_contract": ap.get("contract"),
        "all_pass_stakes": ()
        if in_points
        else tuple((x["who"], int(x["amount"])) for x in ap.get("add_stakes", [])),
        "call": _call(d, "call", basis),
        "demand": _call(d, "demand", basis),
        "speech": Speech(auction["speech"]),
        "equal_rank": EqualRank(auction.get("equal_rank", "refused")),
        "raise_to": (auction.get("raise") or {}).get("to"),
    }


def _exchange_fields(d: Mapping[str, Any]) -> dict[str, Any]:
    """The écart: how many cards each may change, and in what order."""
    ex = d.get("exchange") or {}
    return {
        "exchange_first_max": ex.get("first_max"),
        "exchange_leave_at_least": int(ex.get("leave_at_least", 0)),
        "exchange_leave_unless_matador": bool(ex.get("leave_unless_matador", False)),
        "exchange_declarer_min": int(ex.get("declarer_min", 0)),
        "exchange_besides_turned": bool(ex.get("besides_turned", False)),
        "exchange_defenders": Defenders(ex.get("defenders", "in-turn")),
    }


def _play_fields(d: Mapping[str, Any], basis: _Basis) -> dict[str, Any]:
    """The play of the cards, the vole, and the laws of the play and of the table."""
    play, vole = d["play"], d["vole"]
    return {
        "leader": Leader(play["leader"]),
        "follow_suit": bool(play["follow_suit"]),
        "must_trump": bool(play["must_trump"]),
        "must_overtake": bool(play["must_overtake"]),
        "renonce": Renonce((play.get("renonce") or {}).get("action", "refused")),
        "vole_after": int(vole["after_tricks"]),
        "vole_requires_partner_seen": bool(vole.get("requires_partner_seen", False)),
        "vole_by": VoleBy(vole.get("by", "side")),
        "play_laws": _play_laws(d, basis),
        "laws": _laws(d.get("laws") or {}, basis),
    }


def _settlement_fields(
    d: Mapping[str, Any], basis: _Basis, where: Callable[..., Where]
) -> dict[str, Any]:
    """The settlement: the results, the unit, the stakes and items, sharing, the bête, the
    codille's remainder, the held cards, the points and penalties, the party."""
    s = d["settlement"]
    in_points = s["unit"] == POINT
    bete = s.get("bete") or {"amount": "in-play"}
    sharing = s.get("sharing") or {"split": "halves", "odd_counter": {"to": "declarer"}}
    growth = bete.get("growth", "in-play")
    remainder_basis = s.get("codille_remainder_basis")
    return {
        "results": _results(d, basis),
        "unit": s["unit"],
        "fiche": int(s.get("fiche", 1)),
        "stakes": ()
        if in_points
        else tuple((x["who"], int(x["amount"])) for x in s.get("stakes", ())),
        "items": freeze({} if in_points else _items(s, basis)),
        "outcomes": freeze(_outcomes(s, in_points, basis)),
        "split": sharing["split"],
        "odd_counter": sharing["odd_counter"]["to"],
        "sole_liability_below": sharing.get("sole_liability_below"),
        "bete_amount": bete["amount"],
        "bete_stake_value": bete.get("stake_value"),
        "bete_cap": BeteCap(bete.get("cap_over_bete_in_play", "none")),
        "bete_doubling_after_first_remise": bool(bete.get("doubling_after_first_remise", False)),
        "bete_going": BeteGoing(bete.get("going", "all")),
        "bete_growth": "step" if isinstance(growth, Mapping) else str(growth),
        "bete_step": int(growth["step"]) if isinstance(growth, Mapping) else None,
        "codille_remainder": CodilleRemainder(s.get("codille_remainder", "stays")),
        "codille_remainder_basis": Basis.from_data(
            remainder_basis, where("settlement", "codille_remainder_basis")
        )
        if remainder_basis is not None
        else None,
        "held_cards": _held_cards(s, basis),
        "party": _party(d, basis),
        "points": MappingProxyType(_points_of(s.get("points") or {}, basis)),
        "penalties": freeze(_penalties(s, basis)),
    }


def build_ruleset(resolved: ResolvedDocument) -> RuleSet:
    """Builds the frozen model from a resolved, validated document (see :mod:`engine.rules.loader`):
    each part of the rule file by its own builder."""
    d: dict[str, Any] = dict(resolved.data)

    def where(*path: str | int) -> Where:
        return resolved.locate(path)

    def basis(*path: str | int) -> Basis:
        node: Any = d
        for part in path:
            node = node[part]
        return Basis.from_data(node.get("basis"), where(*path, "basis"))

    in_points = d["settlement"]["unit"] == POINT
    return RuleSet(
        id=d["id"],
        name=d["name"],
        kind=resolved.kind,
        file=resolved.file,
        extends=d.get("extends"),
        chain=tuple(resolved.chain),
        aliases=tuple(d.get("aliases", [])),
        summary=d["summary"],
        sources=freeze({k: freeze(dict(v)) for k, v in d["sources"].items()}),
        options=freeze(_options(d, basis)),
        **_deck_fields(d, basis),
        **_deal_fields(d),
        **_auction_fields(d, basis, in_points),
        **_exchange_fields(d),
        **_play_fields(d, basis),
        **_settlement_fields(d, basis, where),
        data=deep_freeze(d),
        where=MappingProxyType(dict(resolved.where)),
        overrides=tuple(resolved.overrides),
    )

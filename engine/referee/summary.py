"""A deal written down, and the referee's check and settlement of it.

A :class:`DealSummary` is what a settled deal is, without its cards: the contract and its
declarer, trumps, the card called or demanded and who held it, the tricks each seat took, the
matadors paid, the vole, every irregularity with its law and seat. A deal played card by card
writes one (:meth:`engine.referee.deal.Deal.summary`); a scorekeeper at a real table enters
one (``engine.scoresheet``). :class:`SummaryCheck` refuses a summary that cannot have happened
under the rules, at the stage the referee would have refused it at the table (every refusal
with its rule and code), and turns it into the :class:`~engine.referee.outcome.Outcome` that
:func:`~engine.referee.settlement.settle_outcome` settles, as it settles a played deal's.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

from engine.cards import ALL_CARDS, FULL_MASK, Card, Suit
from engine.enums import BiddableWhen, CodilleRemainder, Help, Renonce
from engine.errors import IllegalActionError
from engine.referee.auction import may_pass_out, reserved_to
from engine.referee.deal_laws import fault_refusal
from engine.referee.dealstate import DealState
from engine.referee.declarations import call_stage_refusal, stages_for, trump_suits
from engine.referee.held import paid_cards, transfers_for
from engine.referee.laws import SCORED_LAWS, Declared, DeclaredEffects, declared_effects
from engine.referee.outcome import Fault, Outcome, Transfer
from engine.referee.play import (
    RENONCE_REFUSED,
    could_undertake_vole,
    defender_may_go_on,
    may_lay_down,
)
from engine.referee.result import (
    evaluate_result,
    favoured_for,
    paid_matadors,
    tied_for_most,
    top_taker_by,
    trump_holders,
)
from engine.referee.seating import seating_for
from engine.referee.seating import side_tricks as count_side_tricks
from engine.referee.settlement import FEE_DEMANDED, FEE_SURRENDERED, MISDEAL
from engine.rules.emitter import Flow
from engine.rules.model import NO_TRUMPS, Call, Contract, RuleSet

__all__ = [
    "Checked",
    "DealSummary",
    "SummaryCheck",
    "renonces_penalised",
    "seat_name",
    "summary_of",
]


@dataclass(frozen=True, slots=True)
class DealSummary:
    """What a settled deal is, written down as a scorekeeper writes it (no cards): the same
    whether the deal was played card by card (:meth:`engine.referee.deal.Deal.summary`) or
    entered from a real table (``engine.scoresheet``)."""

    dealer: int
    passed: bool = False
    """Everyone passed (a redeal, or the forced contract where the rules impose one)."""
    contract: str | None = None
    declarer: int | None = None
    trump: Suit | None = None
    """The trump suit (the notation's name, ``spades`` ... ``diamonds``, is read at once)."""
    called: Card | None = None
    """The card called (a partner's king) or demanded, e.g. ``Kd`` (read at once)."""
    holder: int | None = None
    """The seat that held the called or demanded card (the declarer himself: he plays alone)."""
    tricks: tuple[int, ...] = ()
    matadors: int = 0
    """The matadors the declaring side is paid for (0 if fewer than the rules' minimum)."""
    vole: bool = False
    """The side undertook the vole."""
    vole_by: int | None = None
    """The defender who took the first tricks and went on for the vole as its declarer, where
    the rules let a defender (``vole.by: any-seat``); None: the declaring side's vole."""
    latest_of_tied: int | None = None
    """Under a contract every seat plays (``all_play``), of the seats tied for the most tricks,
    the one that won the latest trick (``ties: latest-trick``); None when nobody tied."""
    highest_trump: int | None = None
    """Who held the highest trump, asked only while odd counters from a codille wait."""
    trump_holders: tuple[int, ...] = ()
    """The seats that held a trump, the holder of the highest first, where the rules give a
    codille's odd counters to the highest trumps (``codille_remainder: highest-trumps``);
    left out, the odd counters stay on the table."""
    renonces: tuple[int, ...] = ()
    """The offender of each renonce pointed out (each makes a bête)."""
    note: str | None = None
    surrendered: bool = False
    """*Roi rendu*: the holder surrendered the called card; the declarer played alone."""
    held: tuple[tuple[Card, int], ...] = ()
    """Who held each card the rules pay for whatever the result (``settlement.held_cards``)."""
    penalties: tuple[Fault, ...] = ()
    """The faults scored in penalty points (``settlement.penalties``): (offender, fault id)."""
    misdeal: str | None = None
    """The deal was void (``laws.misdeal``): the fault found (``too-many``, ``too-few``,
    ``duplicate``, ``faced``), or ``extra-card`` with :attr:`extra_card`."""
    extra_card: int | None = None
    """The seat found playing with a card too many (``laws.eleven_cards``): a bête, the deal
    void."""
    unclaimed: tuple[str, ...] = ()
    """Payment items not claimed before the next dealer had finished dealing: not paid
    (``laws.claims_before_next_deal``)."""
    irregularities: tuple[Declared, ...] = ()
    """The irregularities of the play that change the score (a hand turned up, the vole taken
    from the side), settled by the referee's :func:`~engine.referee.laws.declared_effects`."""

    def __post_init__(self) -> None:
        # What a person or a file wrote is read once, here, into the typed values: the cards
        # and the suit in their notation (a Card or a Suit is kept as it is).
        if self.trump is not None and not isinstance(self.trump, Suit):
            object.__setattr__(self, "trump", Suit.parse(str(self.trump)))
        if self.called is not None and not isinstance(self.called, Card):
            object.__setattr__(self, "called", Card.parse(str(self.called)))
        if any(not isinstance(f, Fault) for f in self.penalties):
            object.__setattr__(self, "penalties", tuple(Fault(*f) for f in self.penalties))
        if any(not isinstance(card, Card) for card, _ in self.held):
            held = tuple((Card.parse(str(card)), seat) for card, seat in self.held)
            object.__setattr__(self, "held", held)

    def as_score(self) -> dict[str, Any]:
        """Returns the ``score:`` mapping of the record form (only what was entered)."""
        faults = [{"seat": seat, "fault": fault} for seat, fault in self.penalties]
        if self.passed:
            return {"passed": True, "penalties": faults} if faults else {"passed": True}
        if self.extra_card is not None:
            return {"extra_card": self.extra_card}
        if self.misdeal is not None:
            return {"misdeal": self.misdeal}
        out: dict[str, Any] = {"contract": self.contract, "declarer": self.declarer}
        if self.trump is not None:
            out["trump"] = self.trump.value
        if self.called is not None:
            out["called"] = str(self.called)
        if self.holder is not None:
            out["holder"] = self.holder
        out["tricks"] = list(self.tricks)
        out["matadors"] = self.matadors
        out["vole"] = self.vole
        if self.vole_by is not None:
            out["vole_by"] = self.vole_by
        if self.latest_of_tied is not None:
            out["latest_of_tied"] = self.latest_of_tied
        if self.highest_trump is not None:
            out["highest_trump"] = self.highest_trump
        if self.trump_holders:
            out["trump_holders"] = list(self.trump_holders)
        if self.renonces:
            out["renonces"] = list(self.renonces)
        if self.surrendered:
            out["surrendered"] = True
        if self.held:
            out["held"] = {str(card): seat for card, seat in self.held}
        if faults:
            out["penalties"] = faults
        if self.unclaimed:
            out["unclaimed"] = list(self.unclaimed)
        if self.irregularities:
            out["irregularities"] = [Flow(i.as_json()) for i in self.irregularities]
        return out


class Checked(NamedTuple):
    """What the check of a summary found: the result, the declaring side (the declarer
    first), the partner, and what its irregularities of the play did to the score."""

    result: str
    side: tuple[int, ...]
    partner: int | None
    effects: DeclaredEffects


def seat_name(players: tuple[str, ...], seat: int) -> str:
    """Returns ``seat 2`` or, where the players' names are known, ``seat 2 (Anne)``."""
    if players and seat < len(players) and players[seat]:
        return f"seat {seat} ({players[seat]})"
    return f"seat {seat}"


def renonces_penalised(rules: RuleSet) -> bool:
    """Checks if the rules make each renonce pointed out a bête (``play.renonce.action:
    penalised``): the one statement of whether a deal's summary says its renonces."""
    return rules.renonce is Renonce.PENALISED


def _refuse(code: str, message: str, rule: str = "") -> IllegalActionError:
    return IllegalActionError(code, message, action="score", rule=rule)


def _partner_named(contract: Contract) -> bool:
    return bool(contract.trump_named_by == "partner")


@dataclass(frozen=True)
class SummaryCheck:
    """The referee's check of deals written down, at one moment of a party: its rules and
    setup, who deals next, whether the party is over, the multiplier of the deal, the
    players' names (for the refusals)."""

    rules: RuleSet
    options: Mapping[str, str] = field(default_factory=dict)
    next_dealer: int = 0
    over: bool = False
    factor: int = 1
    players: tuple[str, ...] = ()

    @property
    def n(self) -> int:
        """Returns the number of players."""
        return self.rules.players

    @property
    def asks_renonces(self) -> bool:
        """Checks if the rules make each renonce pointed out a bête: a summary says them
        (:func:`renonces_penalised`)."""
        return renonces_penalised(self.rules)

    def name(self, seat: int) -> str:
        """Returns ``seat 2`` or ``seat 2 (Anne)``."""
        return seat_name(self.players, seat)

    def canonical(self, entry: DealSummary) -> DealSummary:
        """Returns ``entry`` with its contract named by its id where it was named by an alias
        of the rules (:meth:`RuleSet.contract_id`: ``jouer``, ``solo``), as a played deal's
        summary names it."""
        cid = self.rules.contract_id(entry.contract) if entry.contract is not None else None
        return entry if cid is None or cid == entry.contract else replace(entry, contract=cid)

    def outcome(self, entry: DealSummary, checked: Checked) -> Outcome:
        """Returns what the checked ``entry`` leaves to settle: the outcome the referee writes
        at the end of a played deal, settled by the same
        :func:`~engine.referee.settlement.settle_outcome`."""
        rules = self.rules
        base = Outcome(
            dealer=entry.dealer,
            factor=self.factor,
            result=checked.result,
            contract=None,
            declarer=None,
            partner=None,
            tricks=(),
            matadors=0,
            top_trump_holder=None,
            transfers=(),
            renonces=(),
        )
        if checked.result == "redeal":
            return base._replace(penalties=entry.penalties)
        if checked.result == MISDEAL:
            return base._replace(extra_card=entry.extra_card)
        assert entry.declarer is not None
        contract = rules.contracts.get(entry.contract or "")
        latest = () if entry.latest_of_tied is None else (entry.latest_of_tied,)
        return base._replace(
            contract=contract.id if contract is not None else None,
            declarer=checked.side[0],
            partner=checked.partner,
            tricks=entry.tricks,
            matadors=entry.matadors,
            top_trump_holder=entry.highest_trump,
            transfers=(*self._demand_fee(entry), *self._entry_transfers(entry)),
            renonces=entry.renonces,
            trump_holders=entry.trump_holders,
            penalties=entry.penalties,
            favoured=favoured_for(
                rules,
                rules.setup(self.options).values,
                entry.trump.value if entry.trump is not None else None,
            ),
            turned_hands=checked.effects.turned,
            unclaimed=entry.unclaimed,
            top_taker=top_taker_by(contract, entry.tricks, latest),
        )

    def _call_rule(self, help_: Help) -> tuple[Call, tuple[str, ...]]:
        rule = self.rules.call if help_ is Help.CALL else self.rules.demand
        if rule is None:  # pragma: no cover - the rule-file checks require one
            raise _refuse("score/no-call-rule", "this ruleset has no rule for calling a card")
        return rule, ("declarations", "call" if help_ is Help.CALL else "demand")

    def _call_refusal(
        self, entry: DealSummary, rule: Call, card: Card, suit: Suit | None, contract: Contract
    ) -> tuple[str, str] | None:
        """The first calling rule the entry's call breaks (:func:`stages_for`, the referee's),
        as a scorekeeper's code wrapping the referee's (``call/trump`` is ``score/call-trump``,
        ``call/X`` is ``score/X``) and the referee's reason; None if it could have happened."""
        assert entry.declarer is not None
        declarer = entry.declarer
        mine = others = 0
        for held_card, seat in (*entry.held, (card, entry.holder)):
            bit = 1 << held_card.index
            if seat == declarer:
                mine |= bit
            else:
                others |= bit
        tables = self.rules.setup(self.options).tables
        trump = None if _partner_named(contract) else NO_TRUMPS if suit is None else suit.index
        stages = stages_for(
            rule,
            tables,
            trump,
            held=mine,
            may_hold=FULL_MASK & ~others,
            others_may_hold=FULL_MASK & ~mine,
        )
        broken = call_stage_refusal(rule, stages, card, declarer)
        if broken is None:
            return None
        code, reason = broken
        if code.startswith("call/trump"):
            return "score/call-trump", reason
        return "score/" + code.split("/", 1)[1], reason

    def _effects(self, entry: DealSummary, partner: int | None) -> DeclaredEffects:
        """What the entry's irregularities of the play do to its score, asked of the referee
        (:func:`declared_effects`); its refusal ``VERB/X`` is the scorekeeper's
        ``score/VERB-X``."""
        if not entry.irregularities or len(entry.tricks) != self.n:
            return DeclaredEffects()  # (tricks that do not fit are refused by the caller)
        assert entry.declarer is not None
        try:
            return declared_effects(
                self.rules,
                entry.irregularities,
                dealer=entry.dealer,
                declarer=entry.declarer,
                partner=partner,
                tricks=entry.tricks,
            )
        except IllegalActionError as exc:
            raise _refuse("score/" + exc.code.replace("/", "-"), exc.detail, exc.rule) from None

    def check(self, entry: DealSummary) -> Checked:
        """Checks ``entry`` stage by stage, as the referee would have refused it at the table;
        returns the result, the side, the partner and what its irregularities of the play did
        to the score.

        :raises IllegalActionError: at the first stage the entry breaks, naming its rule.
        """
        self._check_order(entry)
        if entry.passed:
            self._check_passed_out()
            return Checked("redeal", (), None, DeclaredEffects())
        if entry.misdeal is not None:
            self._check_void_deal(entry)
            return Checked(MISDEAL, (), None, DeclaredEffects())
        self._check_unclaimed(entry)
        contract = self._contract_of(entry)
        assert entry.declarer is not None
        self._check_held(entry)
        declarer = entry.declarer
        self._check_seats(entry, contract)
        suit = self._trump_of(entry, contract)
        partner = self._partner_of(entry, contract, suit)
        side = (declarer,) if partner is None else (declarer, partner)
        played = sum(entry.tricks)
        side_tricks = count_side_tricks(entry.tricks, side)
        # The irregularities of the play that change the score, as the referee settles them.
        effects = self._effects(entry, partner)
        barred = effects.vole_barred is not None and not contract.announces_vole
        laid_down = self._laid_down(entry, contract, side, played, side_tricks, barred)
        vole_tricks = side_tricks
        if entry.vole_by is not None:
            # A defender went on for the vole: he plays it as its declarer, alone, and the
            # results and the settlement read his tricks as the side's (the referee's
            # ``_undertake_vole``).
            self._check_vole_by(entry, contract, side)
            side, partner = (entry.vole_by,), None
            vole_tricks = entry.tricks[entry.vole_by] if len(entry.tricks) == self.n else 0
        # The contre: the vole announced with the bid is undertaken from the first trick.
        vole = entry.vole or contract.announces_vole
        self._check_tricks(entry, contract, effects, played, side_tricks, barred, laid_down)
        if entry.vole and not contract.announces_vole:
            self._check_vole(entry, contract, effects, vole_tricks)
        self._check_matadors(entry, contract, suit)
        self._check_tie(entry, contract)
        result = evaluate_result(
            self.rules,
            entry.tricks,
            side,
            vole_undertaken=vole,
            played=played,
            contract=contract.id,
        )
        return Checked(result, side, partner, effects)

    def _check_order(self, entry: DealSummary) -> None:
        """Refuses any deal once the party is over, a penalty for a fault the rules do not score
        in penalty points, renonces where the rules do not penalise them, and a deal dealt out
        of turn (the deal passes to the right)."""
        rules, cite = self.rules, self.rules.cite
        if self.over:
            raise _refuse(
                "score/party-over",
                "the party is over: "
                + (
                    f"a player has reached {rules.party.target}"
                    if rules.party is not None and rules.party.target is not None
                    else "its deals are played"
                ),
                cite(("party",)),
            )
        for _, fault in entry.penalties:
            if fault not in rules.penalties:
                known = ", ".join(rules.penalties) or "none: the rules score no penalty points"
                raise _refuse(
                    "score/unknown-fault",
                    f"no fault {fault!r} is scored in penalty points (known: {known})",
                    cite(("settlement", "penalties")) if rules.penalties else "",
                )
        if entry.renonces and not self.asks_renonces:
            raise _refuse(*RENONCE_REFUSED, cite(("play",)))
        if entry.dealer != self.next_dealer:
            raise _refuse(
                "score/dealer-order",
                f"the deal passes to the right: seat {self.next_dealer} deals now, "
                f"not seat {entry.dealer}",
                cite(("players",)),
            )

    def _check_passed_out(self) -> None:
        """Refuses a deal everyone passed where the rules force a contract instead.

        Under a forced all-pass (``all_pass: forced``) a deal is passed out only when the card
        that forces lay in the talon (the referee's :func:`may_pass_out`).
        """
        rules = self.rules
        if not may_pass_out(rules):
            raise _refuse(
                "score/all-pass-forced",
                f"when all pass, {rules.all_pass_card} must play "
                f"{rules.all_pass_contract}: enter that contract and its declarer",
                rules.cite(("auction", "all_pass")),
            )

    def _check_void_deal(self, entry: DealSummary) -> None:
        """Refuses a void deal the rules state no law for, or a fault that does not void it
        (the referee's :func:`fault_refusal`)."""
        rules, cite = self.rules, self.rules.cite
        assert entry.misdeal is not None
        law = rules.laws.misdeal
        if law is None or (entry.extra_card is not None and rules.laws.eleven_cards is None):
            raise _refuse(
                "score/no-law",
                f"{rules.id} states no law for a void deal "
                f"({'laws.eleven_cards' if entry.extra_card is not None else 'laws.misdeal'})",
                cite(("laws",)),
            )
        not_a_fault = None if entry.extra_card is not None else fault_refusal(rules, entry.misdeal)
        if not_a_fault is not None:
            # The referee's answer, wrapped: misdeal/fault is score/misdeal-fault, and a
            # faced last card Hoyle's law spares is score/misdeal-last-card (the deal stands).
            code, reason = not_a_fault
            raise _refuse(
                "score/misdeal-" + code.split("/", 1)[1], reason, cite(("laws", "misdeal"))
            )

    def _check_unclaimed(self, entry: DealSummary) -> None:
        """Refuses an unclaimed payment item that is not one the rules want claimed before the
        next deal (``laws.claims_before_next_deal``)."""
        rules, cite = self.rules, self.rules.cite
        claims = rules.laws.claims
        for item in entry.unclaimed:
            if claims is None or item not in claims.items:
                raise _refuse(
                    "score/unclaimed",
                    f"{item!r} is not an item claimed before the next deal under these rules"
                    + (f" (to be claimed: {', '.join(claims.items)})" if claims else ""),
                    cite(("laws", "claims_before_next_deal")) if claims else cite(("settlement",)),
                )

    def _contract_of(self, entry: DealSummary) -> Contract:
        """Returns the rules' contract the entry names, refusing one the rules do not have."""
        rules = self.rules
        contract = rules.contracts.get(rules.contract_id(entry.contract or "") or "")
        if contract is None:
            raise _refuse(
                "score/unknown-contract",
                f"{rules.id} has no contract {entry.contract!r} "
                f"(contracts: {', '.join(rules.contracts)})",
                rules.cite(("auction", "contracts")),
            )
        return contract

    def _check_held(self, entry: DealSummary) -> None:
        """Refuses a card paid for whoever held it (``held``) that is not in the pack."""
        rules = self.rules
        for held_card, _ in entry.held:
            if held_card not in rules.deck(self.options):
                raise _refuse(
                    "score/not-in-pack",
                    rules.not_in_pack(held_card, self.options),
                    rules.cite(("deck",)),
                )

    def _trump_of(self, entry: DealSummary, contract: Contract) -> Suit | None:
        """Returns the trump suit the entry names (None for a contract played without trumps),
        refusing a suit missing, named where none may be, or one the contract does not allow
        (the referee's :func:`trump_suits`)."""
        rules, cite = self.rules, self.rules.cite
        path = ("auction", "contracts", contract.id)
        suit: Suit | None = None
        if contract.no_trumps:
            # Played without trumps (``trumps: none``): no suit is named.
            if entry.trump is not None:
                raise _refuse(
                    "score/trump-not-allowed",
                    f"{contract.name} is played without trumps: name no trump suit",
                    cite(path),
                )
        elif entry.trump is None:
            raise _refuse("score/no-trump", "name the trump suit", cite(("declarations", "trump")))
        else:
            suit = entry.trump
        allowed = trump_suits(rules, self.options, contract) if suit is not None else ()
        if suit is not None and suit not in allowed:
            names = ", ".join(s.value for s in allowed)
            raise _refuse(
                "score/trump-not-allowed",
                f"{suit.value} cannot be trumps under {contract.name} (allowed: {names})",
                cite(path),
            )
        return suit

    def _partner_of(self, entry: DealSummary, contract: Contract, suit: Suit | None) -> int | None:
        """Returns the declarer's partner, the holder of the card called (None when he plays
        alone), refusing a call the contract does not make, a card or holder missing, a call
        the referee's calling rules forbid, and a surrender where none may be made."""
        rules, cite = self.rules, self.rules.cite
        path = ("auction", "contracts", contract.id)
        partner: int | None = None
        if contract.help is Help.NONE:
            if entry.called is not None or entry.holder is not None:
                raise _refuse(
                    "score/no-call",
                    f"{contract.name} is played alone: no card is called or demanded",
                    cite(path),
                )
        elif (entry.called is None) != (entry.holder is None):
            # Both, or neither: when nothing could be called or demanded (the declarer held
            # every such card) he plays alone, as the referee lets him.
            rule, rule_path = self._call_rule(contract.help)
            raise _refuse(
                "score/call-missing",
                f"{contract.name}: enter the card "
                f"{'called' if contract.help is Help.CALL else 'demanded'} and who held it",
                cite(rule_path),
            )
        if contract.help is not Help.NONE and entry.called is not None:
            assert entry.holder is not None
            rule, rule_path = self._call_rule(contract.help)
            card = entry.called
            deck = rules.deck(self.options)
            if card not in deck:
                raise _refuse(
                    "score/not-in-pack", rules.not_in_pack(card, self.options), cite(("deck",))
                )
            # The referee's own calling rules, asked with what the entry says of the hands:
            # the called card's holder and the cards held (``held``); every other card may
            # lie anywhere. Under a partner who names trumps, the call came before trumps.
            refused = self._call_refusal(entry, rule, card, suit, contract)
            if refused is not None:
                code, reason = refused
                raise _refuse(code, reason, cite(rule_path))
            if contract.help is Help.CALL and entry.holder != entry.declarer:
                partner = entry.holder
            if entry.surrendered:
                if contract.help is not Help.CALL or rule.surrender_fee is None or partner is None:
                    raise _refuse(
                        "score/no-surrender",
                        "only the holder of a called card may surrender it, under a roi rendu",
                        cite(rule_path),
                    )
                partner = None  # he surrendered the card: the declarer plays alone
        if entry.surrendered and entry.called is None:
            raise _refuse(
                "score/no-surrender",
                "only the holder of a called card may surrender it, under a roi rendu: "
                "no card was called",
                cite(path),
            )
        return partner

    def _laid_down(
        self,
        entry: DealSummary,
        contract: Contract,
        side: tuple[int, ...],
        played: int,
        side_tricks: int,
        barred: bool,
    ) -> bool:
        """Checks if the entry's side laid down its cards before the hand was played out.

        Fewer tricks than a full hand only when the side laid down its cards where the
        referee offers it (the rest are not played): the referee's own rule. A side whose
        vole was barred is not offered it, and plays on. Where a defender may go on for the
        vole (``vole.by: any-seat``), a defender who took every trick so far may lay down too.
        """
        rules = self.rules
        return (
            not entry.vole
            and not barred
            and (
                may_lay_down(rules, contract, played, side_tricks)
                or (
                    defender_may_go_on(rules, contract)
                    and any(
                        s not in side and may_lay_down(rules, contract, played, entry.tricks[s])
                        for s in range(min(self.n, len(entry.tricks)))
                    )
                )
            )
        )

    def _check_vole_by(self, entry: DealSummary, contract: Contract, side: tuple[int, ...]) -> None:
        """Refuses a defender going on for the vole where the rules let only the declaring side
        (the referee's :func:`defender_may_go_on`), or one of the declaring side named as such
        a defender."""
        cite = self.rules.cite
        if not defender_may_go_on(self.rules, contract):
            raise _refuse(
                "score/vole-by-defender",
                "only the declaring side goes on for the vole under these rules"
                + (
                    f" ({contract.name} is played by every seat for himself)"
                    if contract.all_play is not None
                    else " (vole.by: side)"
                )
                + ": leave out who went on",
                cite(("vole",)),
            )
        if entry.vole_by in side:
            raise _refuse(
                "score/vole-by-defender",
                f"seat {entry.vole_by} is of the declaring side: its vole is the side's "
                "(enter the vole without naming a defender)",
                cite(("vole",)),
            )

    def _check_tricks(
        self,
        entry: DealSummary,
        contract: Contract,
        effects: DeclaredEffects,
        played: int,
        side_tricks: int,
        barred: bool,
        laid_down: bool,
    ) -> None:
        """Refuses tricks that do not add up to a full hand over the seats, unless the side
        laid down its cards (``laid_down``, :meth:`_laid_down`), and fewer where an irregularity
        took the vole from the side (``barred``), so that it was not offered to lay down."""
        rules, cite, n = self.rules, self.rules.cite, self.n
        if (
            barred
            and played < rules.hand_size
            and may_lay_down(rules, contract, played, side_tricks)
        ):
            raise _refuse(
                "score/tricks",
                f"seat {effects.barred_by}'s irregularity took the vole from the side, so it "
                f"was not offered to lay down its cards: the tricks must add up to "
                f"{rules.hand_size}, not {played}",
                cite(("laws", effects.vole_barred or "")),
            )
        if len(entry.tricks) != n or not (played == rules.hand_size or laid_down):
            raise _refuse(
                "score/tricks",
                f"the tricks must add up to {rules.hand_size} over the {n} seats "
                f"(or fewer only when the side laid down after taking the first "
                f"{rules.vole_after}), not {played}",
                cite(("vole",)) if played < rules.hand_size else cite(("deal",)),
            )

    def _check_vole(
        self, entry: DealSummary, contract: Contract, effects: DeclaredEffects, vole_tricks: int
    ) -> None:
        """Refuses a vole undertaken (not announced with the bid) that the contract does not
        allow, that an irregularity took from the side, or before the side (or the defender
        who went on) had won the first tricks (the referee's :func:`could_undertake_vole`)."""
        rules, cite = self.rules, self.rules.cite
        if not contract.vole_allowed:
            raise _refuse(
                "score/vole-not-allowed",
                f"the vole cannot be undertaken under {contract.name}",
                cite(("auction", "contracts", contract.id)),
            )
        if effects.vole_barred is not None:
            raise _refuse(
                "score/vole-barred",
                f"seat {effects.barred_by}'s irregularity "
                f"({SCORED_LAWS[effects.vole_barred]}) took the vole from the side: it "
                "cannot have been undertaken",
                cite(("laws", effects.vole_barred)),
            )
        if not could_undertake_vole(rules, contract, vole_tricks):
            raise _refuse(
                "score/vole-too-early",
                f"the vole is undertaken only after winning the first {rules.vole_after} "
                f"tricks, and "
                + (
                    "the side"
                    if entry.vole_by is None
                    else f"seat {entry.vole_by}, the defender who went on,"
                )
                + f" took {vole_tricks}",
                cite(("vole",)),
            )

    def _check_matadors(self, entry: DealSummary, contract: Contract, suit: Suit | None) -> None:
        """Refuses matadors under a contract played without trumps, and a number of matadors
        outside the paid range (from the rules' minimum to the longest paid run)."""
        rules, cite = self.rules, self.rules.cite
        if suit is None:
            if entry.matadors:
                raise _refuse(
                    "score/matadors",
                    f"{contract.name} is played without trumps: no matadors are paid; enter 0",
                    cite(("auction", "contracts", contract.id)),
                )
            return
        paid_run = rules.setup(self.options).tables.paid_run[suit.index]
        if entry.matadors and not rules.paid_minimum <= entry.matadors <= len(paid_run):
            raise _refuse(
                "score/matadors",
                f"matadors are paid from {rules.paid_minimum} in an unbroken run up to "
                f"{len(paid_run)} with {suit.value} trumps; enter 0 or a number in that "
                f"range, not {entry.matadors}",
                cite(("matadors", "payment")),
            )

    def _check_seats(self, entry: DealSummary, contract: Contract) -> None:
        """Refuses an entry that gives the seat sitting the deal out a part in it (it is dealt
        nothing: it declares, holds and wins nothing), or a contract reserved to one seat
        (``biddable_when``) to another: the referee's :func:`seating_for` and
        :func:`reserved_to`."""
        rules, cite = self.rules, self.rules.cite
        reserved = reserved_to(rules, entry.dealer, contract)
        if reserved is not None and entry.declarer != reserved:
            who = (
                "the seat that sits the deal out"
                if contract.biddable_when is BiddableWhen.OUT_AFTER_ALL_PASS
                else "the last to speak, when every other has passed"
            )
            raise _refuse(
                "score/reserved",
                f"{contract.name} is played only by {who}: {self.name(reserved)} in a deal "
                f"dealt by {self.name(entry.dealer)}, not {self.name(entry.declarer or 0)}",
                cite(("auction", "contracts", contract.id)),
            )
        out = seating_for(rules, entry.dealer, contract).out
        if out is None:
            return
        parts: list[tuple[bool, str]] = [
            (entry.declarer == out, "cannot be the declarer"),
            (entry.holder == out, "cannot have held the card called or demanded"),
            (len(entry.tricks) == self.n and entry.tricks[out] > 0, "took no trick: enter 0"),
            (entry.vole_by == out, "cannot have gone on for the vole"),
            (entry.highest_trump == out, "held no trump"),
            (out in entry.trump_holders, "held no trump"),
            (any(seat == out for _, seat in entry.held), "held no card"),
            (entry.latest_of_tied == out, "won no trick"),
        ]
        for broken, what in parts:
            if broken:
                raise _refuse(
                    "score/sits-out",
                    f"{self.name(out)} sits out a deal dealt by {self.name(entry.dealer)} "
                    f"(dealt nothing) and {what}",
                    cite(("players",)),
                )

    def _check_tie(self, entry: DealSummary, contract: Contract) -> None:
        """Refuses a tie for the most tricks under a contract every seat plays (``all_play``)
        that the entry does not settle, and ``latest_of_tied`` where nobody tied: the referee's
        :func:`tied_for_most`."""
        cite = self.rules.cite
        tied = tied_for_most(contract, entry.tricks)
        latest = entry.latest_of_tied
        if len(tied) > 1 and latest not in tied:
            names = ", ".join(self.name(s) for s in tied)
            raise _refuse(
                "score/tie",
                f"{names} tied for the most tricks ({entry.tricks[tied[0]]}): enter which of "
                f"them won the latest trick (the tie goes to him)"
                + ("" if latest is None else f", not {self.name(latest)}"),
                cite(("auction", "contracts", contract.id, "all_play")),
            )
        if len(tied) <= 1 and latest is not None:
            raise _refuse(
                "score/no-tie",
                (
                    f"nobody tied for the most tricks under {contract.name}: leave out who won "
                    "the latest trick"
                    if contract.all_play is not None
                    else f"{contract.name} is played by a side, not by every seat for himself: "
                    "no tie for the most tricks is settled"
                ),
                cite(("auction", "contracts", contract.id)),
            )

    def _entry_transfers(self, entry: DealSummary) -> list[Transfer]:
        """The surrendered card's fee (roi rendu) and the payments for cards held."""
        out: list[Transfer] = []
        rule = self.rules.call
        if entry.surrendered and rule is not None and rule.surrender_fee:
            assert entry.declarer is not None and entry.holder is not None
            out.append(Transfer(entry.declarer, entry.holder, rule.surrender_fee, FEE_SURRENDERED))
        held = dict(entry.held)
        return out + transfers_for(self.rules, self.n, held.get)

    def _demand_fee(self, entry: DealSummary) -> list[Transfer]:
        contract = self.rules.contracts.get(entry.contract or "")
        if contract is None or contract.help is not Help.DEMAND or entry.called is None:
            return []
        rule = self.rules.demand
        if rule is None or rule.fee is None or entry.holder in (None, entry.declarer):
            return []
        assert entry.declarer is not None and entry.holder is not None
        chosen = self.rules.resolve_options(self.options)
        amount = rule.fee.amount_for(
            entry.called.suit.value, {k: v.value for k, v in chosen.items()}
        )
        if not amount:
            return []
        return [Transfer(entry.declarer, entry.holder, amount, FEE_DEMANDED)]


def _declared(d: DealState) -> tuple[Declared, ...]:
    """The irregularities of ``d``'s play that change the score, as a scorekeeper writes them:
    who, under which law, whose hand he turned up, and his side's tricks when he showed his
    cards (counted over the tricks played before)."""
    if d.irregular is None:
        return ()
    side = set(d.side)
    out: list[Declared] = []
    for event in d.irregular.events:
        if event.law not in SCORED_LAWS:
            continue
        hand = side_tricks = None
        if event.law == "turned_hand":
            hand = event.action.seat
        elif event.law == "shown_cards":
            mine = side if event.seat in side else {s for s in range(d.n) if s not in side}
            before = d.played_tricks[: max(event.trick, 0)]
            side_tricks = sum(1 for *_, winner in before if winner in mine)
        out.append(Declared(event.seat, event.law, hand, side_tricks))
    return tuple(out)


def _holder_of(d: DealState, card: int) -> int | None:
    return next((s for s in range(d.n) if d.start_hands[s] >> card & 1), None)


def summary_of(d: DealState) -> DealSummary:
    """Returns the summary of the finished deal ``d``: what a scorekeeper at the table writes
    down when the cards are thrown in (the facts every player knows; never the cards), the
    same value an entry of the deal at a scorekeeper reads into."""
    assert d.result is not None
    if d.result == "redeal":
        return DealSummary(dealer=d.dealer, passed=True, penalties=tuple(d.faults))
    if d.result == MISDEAL:
        void = d.deal_irregular
        if void.fault is None:
            return DealSummary(dealer=d.dealer, misdeal="extra-card", extra_card=void.extra_card)
        return DealSummary(dealer=d.dealer, misdeal=void.fault)
    rules, contract = d.rules, d.contract
    assert contract is not None
    won_by = d.holder if d.holder is not None else d.declarer  # the auction's winner
    trump = list(Suit)[d.trump] if d.trump is not None and d.trump != NO_TRUMPS else None
    called = holder = None
    surrendered = False
    if d.called is not None:
        called = ALL_CARDS[d.called]
        if d.demanded_from is not None:
            holder, surrendered = d.demanded_from, contract.help is Help.CALL
        else:
            found = _holder_of(d, d.called)
            holder = found if found is not None else won_by
    held = tuple(
        (card, seat)
        for card in paid_cards(rules)
        if (seat := _holder_of(d, card.index)) is not None
    )
    holders = trump_holders(d) if d.table.remainder else ()
    tied = tied_for_most(contract, d.won)
    latest = None
    if len(tied) > 1:
        latest = next(w for *_, w in reversed(d.played_tricks) if w in tied)
    return DealSummary(
        dealer=d.dealer,
        contract=contract.id,
        declarer=won_by,
        trump=trump,
        called=called,
        holder=holder,
        tricks=tuple(d.won),
        matadors=paid_matadors(d),
        vole=d.vole_undertaken,
        vole_by=d.declarer if d.vole_undertaken and d.declarer != won_by else None,
        latest_of_tied=latest,
        highest_trump=holders[0] if holders else None,
        trump_holders=(
            trump_holders(d) if rules.codille_remainder is CodilleRemainder.HIGHEST_TRUMPS else ()
        ),
        renonces=(*d.penalties, *(s for s, _, _ in d.renonces)),
        surrendered=surrendered,
        held=held,
        penalties=tuple(d.faults),
        unclaimed=tuple(d.deal_irregular.unclaimed),
        irregularities=_declared(d),
    )

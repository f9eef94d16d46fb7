"""The Starlette application behind ``ombre serve``: the table, the scorekeeper, the rules.

Pages are drawn on the server from the templates in ``templates/web/`` and every choice is a
plain HTML form, so the page works without scripts, on a phone, and after a reload. Each
request is checked before anything is done: the host must be the one served (no other site can
drive the table through the browser), a form must be URL-encoded, small, with only the fields
expected, and every action goes through the referee. Tables and evenings are saved after every
change (:mod:`engine.web.store`) and resumed from their files after a restart.
"""

from __future__ import annotations

import shutil
import tempfile
import threading
import time
import weakref
from collections.abc import Callable, Mapping
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Route

from engine import load_ruleset
from engine.bots import BOTS
from engine.cards import Card
from engine.enums import Help
from engine.errors import IllegalActionError, NotationError, RecordError, RuleFileError
from engine.rules.model import RuleSet
from engine.scoresheet import Evening, load_evening, parse_entry, write_evening
from engine.web.store import ID_PATTERN, Store
from engine.web.tables import Refusal, StaleError, WebTable, matador_names

__all__ = ["create_app"]

MAX_BODY = 8192
"""The largest form accepted, in bytes (a whole écart is some forty characters)."""

_SUIT_SYMBOL = {"s": "♠", "c": "♣", "h": "♥", "d": "♦"}
_SUIT_NAME = {"s": "spades", "c": "clubs", "h": "hearts", "d": "diamonds"}
_RANK_NAME = {"A": "ace", "K": "king", "Q": "queen", "J": "valet", "T": "ten"}

# Which part of the rule file an action's refusal code points to (the rules page's anchors).
_SECTION = {
    "bid": "auction",
    "pass": "auction",
    "trump": "declarations",
    "call": "declarations",
    "give": "declarations",
    "discard": "declarations",
    "play": "play",
    "renonce": "play",
    "notice": "play",
    "vole": "play",
    "stop": "play",
    "score": "settlement",
}

_PHASE_WORDS = {
    "auction": "to speak: pass or bid",
    "match": "to take the overcall himself, or pass",
    "trump": "to name trumps",
    "call": "to call (or demand) a card",
    "give": "to give a card in exchange for the one demanded",
    "exchange": "to discard and draw (the écart)",
    "play": "to play",
    "vole": "to play on for the vole, or stop",
}


class BadRequest(Exception):
    """A request that is not well formed: answered 400, nothing done."""


def templates_folder() -> Path:
    """Returns the folder of the web templates and stylesheet."""
    from engine.rules.loader import _data_dir

    return _data_dir("templates") / "web"


def _render(name: str, status: int = 200, **context: Any) -> HTMLResponse:
    # The documents' one jinja2 environment (engine.render), its HTML format.
    from engine.render import render

    return HTMLResponse(render(f"web/{name}", "html", **context), status_code=status)


# Cards as the templates draw them.


def card_face(text: str, names: Mapping[str, str], trump: str | None = None) -> dict[str, Any]:
    """Returns what the templates need to draw a card: rank, suit, colour, matador name."""
    card = Card.parse(text)
    code = str(card)
    rank, suit = code[:-1], code[-1]
    return {
        "code": code,
        "rank": "10" if rank == "T" else rank,
        "suit": _SUIT_NAME[suit],
        "symbol": _SUIT_SYMBOL[suit],
        "red": suit in "hd",
        "title": f"{_RANK_NAME.get(rank, rank)} of {_SUIT_NAME[suit]}",
        "matador": names.get(code),
        "trump": trump is not None and _SUIT_NAME[suit] == trump,
    }


# The state of the server.


class Site:
    """The tables and evenings in memory, backed by the store; one lock for all."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.lock = threading.RLock()
        self.tables: dict[str, WebTable] = {}
        self.evenings: dict[str, Evening] = {}
        self._books: Path | None = None

    def books(self) -> Path:
        """Returns the folder of the rule books (``ombre docs`` in HTML), written when first asked.

        They are the documents' own pages, written once per server into a temporary folder.
        """
        if self._books is None:
            from engine.documents.site import write_docs

            folder = Path(tempfile.mkdtemp(prefix="ombre-books-"))
            weakref.finalize(self, shutil.rmtree, folder, ignore_errors=True)
            write_docs(folder, "html")
            self._books = folder
        return self._books

    def table(self, ident: str) -> WebTable:
        if not ID_PATTERN.match(ident):
            raise KeyError(ident)
        table = self.tables.get(ident)
        if table is None:
            table = WebTable.load(self.store, ident)
            self.tables[ident] = table
        return table

    def evening(self, ident: str) -> Evening:
        if not ID_PATTERN.match(ident):
            raise KeyError(ident)
        evening = self.evenings.get(ident)
        if evening is None:
            path = self.store.path("evening", ident, ".yaml")
            if not path.is_file():
                raise KeyError(ident)
            evening = load_evening(path, load_ruleset)
            self.evenings[ident] = evening
        return evening

    def save_evening(self, ident: str, evening: Evening) -> None:
        self.store.write(self.store.path("evening", ident, ".yaml"), write_evening(evening))


@cache
def _rulesets() -> list[RuleSet]:
    from engine.rules.loader import default_registry

    out = []
    for ident, _, _ in default_registry().files():
        try:
            out.append(load_ruleset(ident))
        except (RuleFileError, NotationError):  # pragma: no cover - an invalid variant
            continue
    return out


def _ruleset(name: str) -> RuleSet:
    for r in _rulesets():
        if r.id == name:
            return r
    raise BadRequest(f"no ruleset {name!r}")


# Requests.


async def _form(request: Request, allowed: set[str]) -> dict[str, list[str]]:
    """Returns the fields of a URL-encoded form, refusing anything else."""
    ctype = request.headers.get("content-type", "").split(";")[0].strip()
    if ctype != "application/x-www-form-urlencoded":
        raise BadRequest("a form must be sent URL-encoded")
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
        raise BadRequest("the form is too large")
    body = await request.body()
    if len(body) > MAX_BODY:
        raise BadRequest("the form is too large")
    try:
        fields = parse_qs(
            body.decode("ascii"),
            keep_blank_values=True,
            strict_parsing=bool(body),
            max_num_fields=64,
        )
    except (UnicodeDecodeError, ValueError):
        raise BadRequest("the form is not well formed") from None
    for key in fields:
        if key not in allowed:
            raise BadRequest(f"unexpected field {key!r}")
    return fields


def _one(fields: Mapping[str, list[str]], key: str, default: str | None = None) -> str:
    values = fields.get(key)
    if not values:
        if default is None:
            raise BadRequest(f"missing field {key!r}")
        return default
    if len(values) > 1:
        raise BadRequest(f"field {key!r} given twice")
    value = values[0]
    if len(value) > 200:
        raise BadRequest(f"field {key!r} is too long")
    return value


def _int(value: str, what: str) -> int:
    if not value.isdigit() or len(value) > 4:
        raise BadRequest(f"{what} must be a number")
    return int(value)


# The pages.


def _table_context(table: WebTable, why: str | None) -> dict[str, Any]:
    deal = table.deal
    rules = table.rules
    seat = table.viewer()
    view = deal.view(seat)
    trump = view["trump"]
    trump_index = deal.trump
    names = matador_names(rules, trump_index)
    legal = [str(a) for a in deal.legal_actions()] if seat == view["to_move"] else []
    legal_set = set(legal)
    my_turn = not deal.is_over and deal.to_move in table.humans
    phase = view["phase"]
    card_verb = {"play": "play", "vole": "play", "give": "give"}.get(phase)

    hand = []
    for code in view["hand"]:
        face = card_face(code, names, trump)
        action = f"{card_verb} {code}" if card_verb else None
        face["action"] = action
        face["legal"] = bool(action and action in legal_set)
        hand.append(face)
    # The choices of this phase the referee does not list: each may be asked "why not?".
    others: list[str] = []
    if my_turn and phase in ("auction", "match"):
        others = [f"bid {c.id}" for c in rules.contracts.values() if c.biddable]
    elif my_turn and phase == "trump":
        others = [f"trump {name}" for name in ("spades", "clubs", "hearts", "diamonds")]
    elif my_turn and phase == "call":
        rule = rules.call if deal.contract and deal.contract.help is Help.CALL else rules.demand
        if rule is not None:
            others = [f"call {c}" for c in rules.deck(table.options) if c.rank == rule.rank]
    others = [a for a in others if a not in legal_set]
    buttons = [a for a in legal if not (card_verb and a.split()[0] == card_verb)]
    if phase == "exchange":
        # The écart is one form of tick boxes, not a button per set of cards.
        buttons = [a for a in buttons if a.split()[0] != "discard"]
    calls = [a for a in buttons if a.startswith("call ")]
    buttons = [a for a in buttons if not a.startswith("call ")]

    seats = []
    for offset in range(table.n):
        s = (seat + offset) % table.n
        seats.append(
            {
                "seat": s,
                "position": _position(offset, table.n),
                "who": "you"
                if s == seat and not table.hotseat
                else (f"seat {s}" + ("" if s in table.humans else " (bot)")),
                "dealer": s == deal.dealer,
                "to_move": s == view["to_move"],
                "declarer": s == view["declarer"],
                "partner": s == view["partner"],
                "tricks": view["tricks_won"][s],
                "cards": len(deal.hands[s].bit_count() * [0]),
            }
        )
    trick_cards = []
    for k, code in enumerate(view["trick"]):
        trick_cards.append(
            {"seat": deal.seating.seat_of(view["trick_leader"], k), **card_face(code, names, trump)}
        )
    last = view["tricks"][-1] if view["tricks"] else None
    last_trick = None
    if last is not None:
        last_trick = {
            "winner": last["winner"],
            "cards": [
                {"seat": deal.seating.seat_of(last["leader"], k), **card_face(c, names, trump)}
                for k, c in enumerate(last["cards"])
            ],
        }
    # What the others did since this seat last acted, as this seat may see it.
    mine = [i for i, (s, _) in enumerate(deal.history) if s == seat]
    events = []
    for s, a in deal.history[(mine[-1] + 1 if mine else 0) :]:
        if s != seat and a.verb == "discard":
            k = len(a.cards)
            text = f"discards {k} card{'' if k == 1 else 's'} and draws as many"
        elif s != seat and a.verb == "give" and view["given"] is None:
            text = "gives a card in exchange"
        else:
            text = str(a)
        events.append(f"seat {s}: {text}")
    side = [s for s in (view["declarer"], view["partner"]) if s is not None]
    refusal: Refusal | None = table.why_not(why) if why else None
    if why and refusal is None:
        refusal = Refusal(why, "allowed", f"{why} is allowed now: click it to play it", "")
    report = deal.report() if deal.is_over else None
    settlement = deal.settlement
    return {
        "table": table,
        "rules": rules,
        "deal": deal,
        "deal_number": len(table.party.deals),
        "view": view,
        "viewer": seat,
        "my_turn": my_turn,
        "phase_words": _PHASE_WORDS.get(phase, phase),
        "hand": hand,
        "buttons": buttons,
        "others": others,
        "calls": [card_face(a.split()[1], names, trump) | {"action": a} for a in calls],
        "exchange_limit": deal.exchange_limit() if my_turn else 0,
        "seats": seats,
        "trick": trick_cards,
        "last_trick": last_trick,
        "events": events[-24:],
        "called": card_face(view["called"], names, trump) if view["called"] else None,
        "given": card_face(view["given"], names, trump) if view["given"] else None,
        "side_tricks": sum(view["tricks_won"][s] for s in side) if side else None,
        "pot": deal.table.pot,
        "betes": list(deal.table.betes),
        "refusal": refusal,
        "refusal_section": _SECTION.get(refusal.code.split("/")[0], "") if refusal else "",
        "report": report,
        "settlement": settlement,
        "totals": table.party.totals,
        "matadors": names,
        "turn": table.turn,
    }


def _position(offset: int, n: int) -> str:
    """Where a seat sits on screen, the viewer at the bottom and play going to the right."""
    if n == 3:
        return ("bottom", "right", "left")[offset]
    return ("bottom", "right", "top", "left")[offset % 4]


def create_app(folder: Path, *, allowed_hosts: list[str] | None = None) -> Starlette:
    """Returns the application, keeping its tables and evenings in ``folder``."""
    store = Store(folder)
    store.ensure()
    site = Site(store)
    hosts = set(allowed_hosts or ["127.0.0.1", "localhost", "testserver"])

    def guarded(
        handler: Callable[[Request], Any],
    ) -> Callable[[Request], Any]:
        async def endpoint(request: Request) -> Response:
            host = (request.headers.get("host") or "").rsplit(":", 1)[0].strip("[]")
            if host not in hosts:
                return PlainTextResponse("this server answers only on its own address", 421)
            if request.method == "POST":
                origin = request.headers.get("origin")
                if origin and origin != "null" and urlsplit(origin).hostname not in hosts:
                    return PlainTextResponse("a form from another site is refused", 403)
            try:
                result = handler(request)
                if hasattr(result, "__await__"):
                    result = await result
                assert isinstance(result, Response)
                return result
            except BadRequest as exc:
                return _render("error.j2", 400, title="Not understood", message=str(exc))
            except KeyError:
                return _render(
                    "error.j2", 404, title="Not found", message="No such table or evening."
                )
            except (RecordError, RuleFileError) as exc:
                return _render("error.j2", 500, title="A saved file is damaged", message=str(exc))
            except (IllegalActionError, NotationError) as exc:
                # Only a saved file edited by hand gets here: the handlers answer the rest.
                return _render(
                    "error.j2", 500, title="A saved game cannot be resumed", message=str(exc)
                )

        return endpoint

    def home(request: Request) -> Response:
        with site.lock:
            tables = store.listing("table")[:20]
            evenings = store.listing("evening")[:20]
        return _render(
            "home.j2",
            rulesets=_rulesets(),
            bots=list(BOTS),
            tables=[(i, time.strftime("%Y-%m-%d %H:%M", time.localtime(t))) for i, t in tables],
            evenings=[(i, time.strftime("%Y-%m-%d %H:%M", time.localtime(t))) for i, t in evenings],
            folder=str(store.folder),
        )

    async def new_table(request: Request) -> Response:
        fields = await _form(
            request, {"ruleset", "mode", "seat", "bots", "seed", *_option_fields()}
        )
        rules = _ruleset(_one(fields, "ruleset"))
        options = _options(rules, fields)
        mode = _one(fields, "mode", "bots")
        if mode not in ("bots", "hotseat"):
            raise BadRequest("mode is bots or hotseat")
        seat = _int(_one(fields, "seat", "0"), "seat")
        if seat >= rules.players:
            raise BadRequest(f"{rules.name} has seats 0 to {rules.players - 1}")
        humans = tuple(range(rules.players)) if mode == "hotseat" else (seat,)
        bots = _one(fields, "bots", "heuristic")
        if bots not in BOTS:
            raise BadRequest(f"bots are {', '.join(BOTS)}")
        seed_text = _one(fields, "seed", "")
        seed = _int(seed_text, "seed") if seed_text else int(time.time() * 1000) % 1_000_000
        with site.lock:
            ident = store.new_id(rules.id)
            table = WebTable(ident, rules, options, humans, bots, seed)
            table.start()
            table.save(store, settings=True)
            site.tables[ident] = table
        return RedirectResponse(f"/tables/{ident}", 303)

    def show_table(request: Request) -> Response:
        ident = request.path_params["ident"]
        why = request.query_params.get("why")
        if why is not None and len(why) > 120:
            raise BadRequest("the question is too long")
        with site.lock:
            table = site.table(ident)
            context = _table_context(table, why)
            return _render("table.j2", 200, **context)

    async def act(request: Request) -> Response:
        ident = request.path_params["ident"]
        fields = await _form(request, {"seat", "action", "turn", "card", "verb"})
        turn = _one(fields, "turn")
        with site.lock:
            table = site.table(ident)
            seat = _int(_one(fields, "seat"), "seat")
            if "verb" in fields:
                # The écart: the cards ticked, in the order of the hand.
                if _one(fields, "verb") != "discard":
                    raise BadRequest("verb is discard")
                cards = fields.get("card", [])
                if len(cards) > 13 or any(len(c) > 3 for c in cards):
                    raise BadRequest("too many cards")
                action = " ".join(["discard", *cards])
            else:
                action = _one(fields, "action")
            try:
                table.act(seat, action, turn)
            except StaleError as exc:
                return _render(
                    "error.j2",
                    409,
                    title="The table has moved on",
                    message=str(exc),
                    back=f"/tables/{ident}",
                )
            except (IllegalActionError, NotationError) as exc:
                context = _table_context(table, None)
                context["refusal"] = Refusal.of(action, exc)
                context["refusal_section"] = _SECTION.get(context["refusal"].code.split("/")[0], "")
                return _render(
                    "table.j2", 409 if isinstance(exc, IllegalActionError) else 400, **context
                )
            table.save(store)
        return RedirectResponse(f"/tables/{ident}", 303)

    async def next_deal(request: Request) -> Response:
        ident = request.path_params["ident"]
        fields = await _form(request, {"turn"})
        with site.lock:
            table = site.table(ident)
            try:
                table.next_deal(_one(fields, "turn"))
            except StaleError:
                pass  # a second click: the next deal has already started
            except NotationError as exc:
                raise BadRequest(str(exc)) from None
            table.save(store)
        return RedirectResponse(f"/tables/{ident}", 303)

    def table_record(request: Request) -> Response:
        ident = request.path_params["ident"]
        with site.lock:
            text = site.table(ident).record_text()
        return PlainTextResponse(
            text,
            media_type="application/yaml",
            headers={"content-disposition": f'attachment; filename="{ident}.yaml"'},
        )

    def rules_page(request: Request) -> Response:
        # The rule book of the documents; the browser keeps the #section of the link.
        rules = _ruleset(request.path_params["ruleset"])
        return RedirectResponse(f"/book/books/{rules.id}.html", 302)

    def book_page(request: Request) -> Response:
        with site.lock:
            root = site.books().resolve()
        target = (root / request.path_params["path"]).resolve()
        if (
            not target.is_relative_to(root)
            or not target.is_file()
            or target.suffix
            not in (
                ".html",
                ".css",
            )
        ):
            raise KeyError(request.path_params["path"])
        kind = "text/css" if target.suffix == ".css" else "text/html"
        return Response(target.read_bytes(), media_type=kind)

    # The scorekeeper.

    def score_home(request: Request) -> Response:
        with site.lock:
            evenings = store.listing("evening")
        return _render(
            "score_home.j2",
            rulesets=_rulesets(),
            evenings=[(i, time.strftime("%Y-%m-%d %H:%M", time.localtime(t))) for i, t in evenings],
            folder=str(store.evenings),
        )

    async def new_evening(request: Request) -> Response:
        fields = await _form(
            request,
            {"ruleset", "dealer", "title", *_option_fields(), *(f"player{k}" for k in range(6))},
        )
        rules = _ruleset(_one(fields, "ruleset"))
        options = _options(rules, fields)
        dealer = _int(_one(fields, "dealer", "0"), "dealer")
        if dealer >= rules.players:
            raise BadRequest(f"{rules.name} has seats 0 to {rules.players - 1}")
        title = _one(fields, "title", "").strip() or None
        names = tuple(_one(fields, f"player{k}", "").strip()[:40] for k in range(rules.players))
        with site.lock:
            ident = store.new_id(rules.id + "-evening")
            evening = Evening(rules, options, dealer, title, players=names if any(names) else ())
            site.evenings[ident] = evening
            site.save_evening(ident, evening)
        return RedirectResponse(f"/evenings/{ident}", 303)

    def show_evening(request: Request) -> Response:
        ident = request.path_params["ident"]
        with site.lock:
            evening = site.evening(ident)
            return _render("evening.j2", **_evening_context(ident, evening))

    score_fields = {
        "dealer",
        "passed",
        "contract",
        "declarer",
        "trump",
        "called",
        "holder",
        "matadors",
        "vole",
        "highest_trump",
        "count",
        *(f"tricks{k}" for k in range(6)),
    }

    async def score_deal(request: Request) -> Response:
        ident = request.path_params["ident"]
        fields = await _form(request, score_fields)
        with site.lock:
            evening = site.evening(ident)
            if _int(_one(fields, "count"), "count") != len(evening.deals):
                return _render(
                    "error.j2",
                    409,
                    title="The evening has moved on",
                    message="This deal was already entered (a second click?).",
                    back=f"/evenings/{ident}",
                )
            entry_data = _entry_data(evening, fields)
            dealer = _int(_one(fields, "dealer"), "dealer")
            try:
                entry = parse_entry(entry_data, dealer=dealer, n=evening.n)
                evening.score(entry)
            except (IllegalActionError, NotationError) as exc:
                context = _evening_context(ident, evening)
                context["refusal"] = Refusal.of("score", exc)
                context["entered"] = {k: v[0] for k, v in fields.items() if v}
                return _render("evening.j2", 409, **context)
            site.save_evening(ident, evening)
        return RedirectResponse(f"/evenings/{ident}#deal-{len(evening.deals)}", 303)

    async def undo_deal(request: Request) -> Response:
        ident = request.path_params["ident"]
        fields = await _form(request, {"count"})
        with site.lock:
            evening = site.evening(ident)
            if _int(_one(fields, "count"), "count") == len(evening.deals):
                evening.undo()
                site.save_evening(ident, evening)
        return RedirectResponse(f"/evenings/{ident}", 303)

    def evening_record(request: Request) -> Response:
        ident = request.path_params["ident"]
        with site.lock:
            text = write_evening(site.evening(ident))
        return PlainTextResponse(
            text,
            media_type="application/yaml",
            headers={"content-disposition": f'attachment; filename="{ident}.yaml"'},
        )

    def stylesheet(request: Request) -> Response:
        # The workbench's one stylesheet (templates/style.css), then the table's own rules.
        name = "style.css" if request.url.path == "/style.css" else "web/style.css"
        return Response(
            (templates_folder().parent / name).read_text(encoding="utf-8"),
            media_type="text/css",
            headers={"cache-control": "no-cache"},
        )

    routes = [
        Route("/", guarded(home)),
        Route("/tables", guarded(new_table), methods=["POST"]),
        Route("/tables/{ident}", guarded(show_table)),
        Route("/tables/{ident}/act", guarded(act), methods=["POST"]),
        Route("/tables/{ident}/next", guarded(next_deal), methods=["POST"]),
        Route("/tables/{ident}/record.yaml", guarded(table_record)),
        Route("/rules/{ruleset}", guarded(rules_page)),
        Route("/book/{path:path}", guarded(book_page)),
        Route("/score", guarded(score_home)),
        Route("/evenings", guarded(new_evening), methods=["POST"]),
        Route("/evenings/{ident}", guarded(show_evening)),
        Route("/evenings/{ident}/deals", guarded(score_deal), methods=["POST"]),
        Route("/evenings/{ident}/undo", guarded(undo_deal), methods=["POST"]),
        Route("/evenings/{ident}/evening.yaml", guarded(evening_record)),
        Route("/style.css", guarded(stylesheet)),
        Route("/web.css", guarded(stylesheet)),
    ]
    app = Starlette(routes=routes)
    app.state.site = site
    return app


def _option_fields() -> set[str]:
    return {f"option-{o}" for r in _rulesets() for o in r.options}


def _options(rules: RuleSet, fields: Mapping[str, list[str]]) -> dict[str, str]:
    options: dict[str, str] = {}
    for key in fields:
        if key.startswith("option-"):
            name = key.removeprefix("option-")
            if name not in rules.options:
                raise BadRequest(f"{rules.id} has no option {name!r}")
            options[name] = _one(fields, key)
    try:
        rules.resolve_options(options)
    except NotationError as exc:
        raise BadRequest(str(exc)) from None
    return options


def _entry_data(evening: Evening, fields: Mapping[str, list[str]]) -> dict[str, Any]:
    """Turns the scorekeeper's form into a ``score:`` mapping (types checked by parse_entry)."""
    if _one(fields, "passed", "") == "yes":
        return {"passed": True}

    def seat(key: str) -> int | None:
        value = _one(fields, key, "")
        return _int(value, key) if value != "" else None

    data: dict[str, Any] = {
        "contract": _one(fields, "contract", ""),
        "declarer": seat("declarer"),
        "trump": _one(fields, "trump", "") or None,
        "tricks": [
            _int(_one(fields, f"tricks{k}", "0") or "0", f"tricks of seat {k}")
            for k in range(evening.n)
        ],
        "matadors": _int(_one(fields, "matadors", "0") or "0", "matadors"),
        "vole": _one(fields, "vole", "") == "yes",
    }
    called = _one(fields, "called", "").strip()
    if called:
        data["called"] = called
        data["holder"] = seat("holder")
    highest = seat("highest_trump")
    if highest is not None:
        data["highest_trump"] = highest
    return data


def _evening_context(ident: str, evening: Evening) -> dict[str, Any]:
    rules = evening.rules
    table = evening.table
    running = [0] * evening.n
    rows = []
    for k, d in enumerate(evening.deals):
        running = [a + b for a, b in zip(running, d.settlement.balances, strict=True)]
        rows.append({"number": k + 1, "deal": d, "running": list(running)})
    callable_cards = [
        str(c)
        for c in rules.deck(evening.options)
        if any(
            r is not None and c.rank in (r.rank, r.all_held_fallback)
            for r in (rules.call, rules.demand)
        )
    ]
    return {
        "ident": ident,
        "evening": evening,
        "rules": rules,
        "rows": rows,
        "totals": evening.totals,
        "pot": table.pot,
        "betes": list(table.betes),
        "remainder": table.remainder,
        "redeal": table.redeal,
        "next_dealer": evening.next_dealer,
        "contracts": list(rules.contracts.values()),
        "suits": ["spades", "clubs", "hearts", "diamonds"],
        "callable": callable_cards,
        "refusal": None,
        "refusal_section": "settlement",
        "entered": {},
        "all_cards": [str(c) for c in rules.deck(evening.options)],
    }

"""The Starlette application behind ``ombre serve``: the table, the scorekeeper, the rules.

Pages are drawn on the server from the templates in ``templates/web/`` and every choice is a
plain HTML form, so the page works without scripts, on a phone, and after a reload. Each
request is checked before anything is done: the host must be one the server was started for,
a form must come from the server's own pages (``Sec-Fetch-Site``/``Origin``: no other site can
drive the table through the browser), be URL-encoded, small (bounded while it is read), with
only the fields expected, and every action goes through the referee. No page may be framed.

The layers: :class:`AppState` holds the tables and evenings in memory (a bounded number, the
idle and finished dropped and read back on demand) over the :class:`~engine.web.store.Store`;
the table (:class:`~engine.web.tables.WebTable`) and the scorekeeper
(:class:`~engine.scoresheet.Evening`) own what may be done and when (turns, versions, what a
seat may see); each handler is an ordinary function of the state, the request and its form,
run in a worker thread, that feeds their answers to a template. Tables and evenings are saved
durably after every change, and a change the disk refuses is undone and reported.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import parse_qs, urlsplit

import anyio
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import (
    HTMLResponse,
    PlainTextResponse,
    RedirectResponse,
    Response,
    StreamingResponse,
)
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from engine.actions import Action
from engine.bots import BOTS
from engine.cards import Card, Colour, Rank, Suit
from engine.errors import IllegalActionError, NotationError, RecordError, RuleFileError
from engine.referee import Deal, View
from engine.referee.auction import Offer
from engine.referee.play import defender_may_go_on
from engine.referee.remedies import PublicIrregularities
from engine.referee.remedies import public as public_irregularities
from engine.referee.seating import side_tricks
from engine.rules import load_named_ruleset, load_ruleset
from engine.rules.model import Contract, RuleSet
from engine.scoresheet import (
    Evening,
    ScoredDeal,
    load_evening,
    parse_entry,
    score_form_fields,
    write_evening,
)
from engine.seeds import fresh_seed
from engine.table import contract_choices
from engine.tournament import (
    Table,
    Tournament,
    load_tournament,
    parse_tables,
    party_length,
    write_tournament,
)
from engine.web.store import ID_PATTERN, Store
from engine.web.tables import DamagedFile, Refusal, StaleError, WebTable, matador_names

__all__ = ["ROUTES", "AppState", "WebPolicy", "create_app"]

MAX_BODY = 8192
"""The largest form accepted, in bytes (a whole écart is some forty characters)."""

_RANK_NAME = {
    Rank.ACE: "ace",
    Rank.KING: "king",
    Rank.QUEEN: "queen",
    Rank.VALET: "valet",
    Rank.TEN: "ten",
}

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
    "misdeal": "laws",
    "extra-card": "laws",
    "retake": "laws",
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
    from engine.rules.loader import data_dir

    return data_dir("templates") / "web"


def _render(name: str, status: int = 200, **context: Any) -> HTMLResponse:
    # The documents' one jinja2 environment (engine.render), its HTML format.
    from engine.render import render

    return HTMLResponse(render(f"web/{name}", "html", **context), status_code=status)


# Cards as the templates draw them.


def card_face(card: Card, names: Mapping[str, str], trump: Suit | None = None) -> dict[str, Any]:
    """Returns what the templates need to draw a card: rank, suit, colour, matador name."""
    code = str(card)
    rank, suit = card.rank, card.suit
    return {
        "code": code,
        "rank": "10" if rank is Rank.TEN else rank.value,
        "suit": suit.value,
        "symbol": suit.symbol,
        "red": suit.colour is Colour.RED,
        "title": f"{_RANK_NAME.get(rank, rank.value)} of {suit.value}",
        "matador": names.get(code),
        "trump": suit is trump,
    }


# The state of the server, below the pages: tables and evenings, kept in memory while in use.


@dataclass
class WebPolicy:
    """What the server accepts and keeps: its names, and how many tables stay in memory."""

    hosts: frozenset[str] = frozenset({"127.0.0.1", "localhost", "::1", "testserver"})
    """The names (and addresses) a request may be addressed to (the Host header)."""
    max_tables: int = 512
    """Tables kept in memory at most; the least recently used beyond it are dropped (a table
    is read back from its file, its deals replayed, when next asked for: 128 players at as
    many tables must all fit, or every click reads one back)."""
    max_deals: int = 20_000
    """The deals the tables kept in memory may hold in all (a few KiB each); past it the least
    recently used tables are dropped, so that a few very long tables do not fill the memory."""
    max_evenings: int = 32
    """Evenings kept in memory at most."""
    max_tournaments: int = 8
    """Tournaments kept in memory at most."""
    idle_seconds: float = 600.0
    """A table or evening not asked for in this long is dropped from memory."""
    finished_seconds: float = 60.0
    """A table whose deal is over, not asked for in this long, is dropped from memory."""


class _NameLocks:
    """A lock for each table, evening or tournament in use, made when a request first asks for
    it and forgotten when the last one lets it go: requests for one name wait their turn, and
    never behind a request for another (a lock shared by several names made a slow table hold
    up the others that shared it)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._held: dict[str, list[Any]] = {}
        self._queues: dict[str, list[Any]] = {}

    @contextlib.contextmanager
    def hold(self, name: str) -> Iterator[None]:
        """Holds ``name``'s lock in a worker thread (re-entrant)."""
        with self._lock:
            entry = self._held.setdefault(name, [threading.RLock(), 0])
            entry[1] += 1
        try:
            with entry[0]:
                yield
        finally:
            with self._lock:
                entry[1] -= 1
                if not entry[1]:
                    self._held.pop(name, None)

    @contextlib.asynccontextmanager
    async def queue(self, name: str) -> AsyncIterator[None]:
        """Waits on the event loop for ``name``'s turn (before a worker thread is taken)."""
        entry = self._queues.setdefault(name, [anyio.Lock(), 0])
        entry[1] += 1
        try:
            async with entry[0]:
                yield
        finally:
            entry[1] -= 1
            if not entry[1]:
                self._queues.pop(name, None)


_BOOKS: dict[str, Any] = {}
_BOOKS_LOCK = threading.Lock()
_BOOKS_DONE = threading.Event()
_BOOK_RETRY_SECONDS = 5


_BOOKS_PROGRAM = (
    "import sys; from pathlib import Path; from engine.documents.site import write_docs; "
    "write_docs(Path(sys.argv[1]), 'html')"
)
"""What the child process that writes the rule books runs (``write_docs`` in HTML)."""


def _write_site_books() -> None:
    """Writes the rule books in a child process, this thread waiting for it: the work (tens of
    CPU seconds at the first start, the measured variants not yet in the cache) is done on
    another core, not under this process's lock on the interpreter, so that the tables are
    answered as quickly while it goes on."""
    folder = Path(tempfile.mkdtemp(prefix="ombre-books-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    root = str(Path(__file__).resolve().parent.parent.parent)  # the folder holding engine/
    path = os.environ.get("PYTHONPATH")
    env = {**os.environ, "PYTHONPATH": root + (os.pathsep + path if path else "")}
    try:
        done = subprocess.run(
            [sys.executable, "-c", _BOOKS_PROGRAM, str(folder)],
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            check=False,
        )
    except OSError as exc:
        _BOOKS["error"] = exc
    else:
        if done.returncode == 0:
            _BOOKS["folder"] = folder
        else:
            said = done.stderr.decode("utf-8", "replace").strip().splitlines()
            _BOOKS["error"] = RuntimeError(
                f"writing the rule books failed (exit status {done.returncode})"
                + (f": {said[-1]}" if said else "")
            )
    finally:
        _BOOKS_DONE.set()


def site_books(wait: float = 0.0) -> Path | None:
    """Returns the folder of the rule books, written once per process by a child process that
    a background thread waits for (the documents are the same for every table folder), or
    ``None`` while they are being written. The first call starts the thread; ``wait`` seconds
    are waited for the end.

    :raises Exception: what writing them raised, if it failed.
    """
    with _BOOKS_LOCK:
        if "thread" not in _BOOKS:
            thread = threading.Thread(target=_write_site_books, name="ombre-books", daemon=True)
            _BOOKS["thread"] = thread
            thread.start()
    if wait:
        _BOOKS_DONE.wait(wait)
    if "error" in _BOOKS:
        raise _BOOKS["error"]
    folder: Path | None = _BOOKS.get("folder")
    return folder


_BOOK_NAME = re.compile(
    r"(?:[A-Za-z0-9_][A-Za-z0-9_.-]*/)*[A-Za-z0-9_][A-Za-z0-9_.-]*\.(?:html|css)"
)


class AppState:
    """The server's state: the store, and the tables and evenings in memory.

    A request for a table or an evening holds :meth:`hold` of its id from reading it to saving
    it: two requests for one table go one after the other, requests for different tables at
    once. :attr:`lock` guards only the maps of what is in memory, never held for long.
    Every table and evening is saved after each change, so dropping one from memory loses
    nothing: the next request for it reads it back from its files (:meth:`table`,
    :meth:`evening`). A change that cannot be saved is undone in memory (the table or evening
    is dropped and read back from the files as they were) and reported as :class:`NotSaved`.
    """

    def __init__(self, store: Store, policy: WebPolicy | None = None) -> None:
        self.store = store
        self.policy = policy or WebPolicy()
        self.lock = threading.RLock()
        self._names = _NameLocks()
        self.tables: OrderedDict[str, WebTable] = OrderedDict()
        self.evenings: OrderedDict[str, Evening] = OrderedDict()
        self.tournaments: OrderedDict[str, Tournament] = OrderedDict()
        self._seen: dict[str, float] = {}

    def books(self) -> Path | None:
        """Returns the folder of the rule books (``ombre docs`` in HTML) once written, else
        ``None``: the first call starts writing them in a background thread (see
        :func:`site_books`), so that no request waits for the whole site.

        :raises Exception: what writing them raised, if it failed.
        """
        return site_books()

    def warm_books(self) -> None:
        """Starts writing the rule books now (``ombre serve`` does it at start, so that the
        first link to a rule is answered sooner)."""
        with contextlib.suppress(Exception):  # reported by the request that asks for them
            site_books()

    def hold(self, ident: str) -> contextlib.AbstractContextManager[None]:
        """Returns the lock to hold while a request reads, changes and saves ``ident`` (its
        own: a request for another name never waits on it)."""
        return self._names.hold(ident)

    def queue(self, ident: str) -> contextlib.AbstractAsyncContextManager[None]:
        """Returns the lock a request for ``ident`` waits on in the event loop before it is
        given a worker thread: requests for one table or evening wait their turn there, so that
        no worker thread waits on :meth:`hold` while others, for other tables, need one."""
        return self._names.queue(ident)

    def table(self, ident: str) -> WebTable:
        """Returns the table ``ident``, read back from its files if it is not in memory (the
        caller holds :meth:`hold` of it).

        :raises KeyError: if there is none; :raises DamagedFile: if its files are damaged.
        """
        if not ID_PATTERN.match(ident):
            raise KeyError(ident)
        with self.lock:
            table = self.tables.get(ident)
        if table is None:
            table = WebTable.load(self.store, ident)
        with self.lock:
            self.tables[ident] = table
            self._touch(self.tables, ident)
        return table

    def evening(self, ident: str) -> Evening:
        """Returns the evening ``ident``, read back from its file if it is not in memory."""
        if not ID_PATTERN.match(ident):
            raise KeyError(ident)
        with self.lock:
            evening = self.evenings.get(ident)
        if evening is None:
            evening = _read_saved(self.store.path("evening", ident, ".yaml"), load_evening)
        with self.lock:
            self.evenings[ident] = evening
            self._touch(self.evenings, ident)
        return evening

    def tournament(self, ident: str) -> Tournament:
        """Returns the tournament ``ident``, read back from its file if it is not in memory
        (every table's deals scored again through the referee).

        :raises KeyError: if there is none; :raises DamagedFile: if its file is damaged.
        """
        if not ID_PATTERN.match(ident):
            raise KeyError(ident)
        with self.lock:
            tournament = self.tournaments.get(ident)
        if tournament is None:
            path = self.store.path("tournament", ident, ".yaml")
            tournament = _read_saved(path, load_tournament)
        with self.lock:
            self.tournaments[ident] = tournament
            self._touch(self.tournaments, ident)
        return tournament

    def add_table(self, table: WebTable) -> None:
        """Saves a new table (settings and record) and keeps it; :raises NotSaved: if refused."""
        try:
            table.save(self.store, settings=True)
        except OSError as exc:
            for suffix in (".json", ".yaml"):
                with contextlib.suppress(OSError):
                    self.store.path("table", table.ident, suffix).unlink(missing_ok=True)
            raise NotSaved(self.store.path("table", table.ident, ".yaml"), exc) from None
        with self.lock:
            self.tables[table.ident] = table
            self._touch(self.tables, table.ident)

    def save_table(self, table: WebTable) -> None:
        """Saves a table after a change; if the disk refuses, the change is forgotten (the
        table is read back from its files as they were) and :class:`NotSaved` raised."""
        try:
            table.save(self.store)
        except OSError as exc:
            with self.lock:
                self._drop(self.tables, table.ident)
            raise NotSaved(self.store.path("table", table.ident, ".yaml"), exc) from None

    def save_evening(self, ident: str, evening: Evening, before: list[ScoredDeal]) -> None:
        """Saves an evening after a change; if the disk refuses, its deals are put back as they
        were (``before``) and :class:`NotSaved` raised."""
        path = self.store.path("evening", ident, ".yaml")
        try:
            self.store.write(path, write_evening(evening))
        except OSError as exc:
            evening.deals[:] = before
            raise NotSaved(path, exc) from None
        with self.lock:
            self.evenings[ident] = evening
            self._touch(self.evenings, ident)

    def save_tournament(
        self, ident: str, tournament: Tournament, table: Table | None, before: list[ScoredDeal]
    ) -> None:
        """Saves a tournament after a change at ``table`` (None: a new tournament); if the disk
        refuses, that table's deals are put back as they were (``before``) and
        :class:`NotSaved` raised."""
        path = self.store.path("tournament", ident, ".yaml")
        try:
            self.store.write(path, write_tournament(tournament))
        except OSError as exc:
            if table is not None:
                table.evening.deals[:] = before
            raise NotSaved(path, exc) from None
        with self.lock:
            self.tournaments[ident] = tournament
            self._touch(self.tournaments, ident)

    def _touch(self, kept: OrderedDict[str, Any], ident: str) -> None:
        kept.move_to_end(ident)
        self._seen[ident] = time.monotonic()
        self._sweep()

    def sweep(self) -> None:
        """Drops from memory what is idle, finished or beyond the bound (all of it is saved;
        a request still using what is dropped saves it before the next one reads it back)."""
        with self.lock:
            self._sweep()

    def _sweep(self) -> None:
        now = time.monotonic()
        policy = self.policy
        for ident in list(self.tables):
            age = now - self._seen.get(ident, now)
            if age > policy.idle_seconds or (
                age > policy.finished_seconds and self.tables[ident].deal.is_over
            ):
                self._drop(self.tables, ident)
        kept: tuple[tuple[OrderedDict[str, Any], int], ...] = (
            (self.evenings, policy.max_evenings),
            (self.tournaments, policy.max_tournaments),
        )
        for scored, _ in kept:
            for ident in list(scored):
                if now - self._seen.get(ident, now) > policy.idle_seconds:
                    self._drop(scored, ident)
        while len(self.tables) > policy.max_tables:
            self._drop(self.tables, next(iter(self.tables)))
        held = sum(len(t.party.deals) for t in self.tables.values())
        while held > policy.max_deals and len(self.tables) > 1:
            oldest = next(iter(self.tables))
            held -= len(self.tables[oldest].party.deals)
            self._drop(self.tables, oldest)
        for scored, bound in kept:
            while len(scored) > bound:
                self._drop(scored, next(iter(scored)))

    def _drop(self, kept: OrderedDict[str, Any], ident: str) -> None:
        kept.pop(ident, None)
        self._seen.pop(ident, None)


_Saved = TypeVar("_Saved", Evening, Tournament)


def _read_saved(path: Path, read: Callable[[Path, Callable[[str], RuleSet]], _Saved]) -> _Saved:
    """Returns a scorekeeper's file (an evening's, a tournament's) read by ``read``, its deals
    scored again through the referee.

    :raises KeyError: if there is none; :raises DamagedFile: if it cannot be read or a deal in
        it cannot have happened (the file and the line named).
    """
    if not path.is_file():
        raise KeyError(path.stem)
    try:
        return read(path, load_named_ruleset)
    except RecordError as exc:
        first = exc.problems[0] if exc.problems else None
        where = f"{path}:{first.line}" if first and first.line else str(path)
        raise DamagedFile(f"{where}: {first.message if first else exc}") from None
    except (IllegalActionError, NotationError, RuleFileError, RecursionError) as exc:
        raise DamagedFile(f"{path}: {exc}") from None
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        # A file no check foresaw: named as damaged, never "not found" (a KeyError) or a 500.
        raise DamagedFile(f"{path}: cannot be read back ({type(exc).__name__}: {exc})") from None


class NotSaved(Exception):
    """A change the disk refused (full, read-only): nothing was changed."""

    def __init__(self, path: Path, error: OSError) -> None:
        self.path = path
        self.reason = error.strerror or str(error)
        super().__init__(f"{path}: {self.reason}")

    @property
    def message(self) -> str:
        return (
            f"The server could not save {self.path} ({self.reason}), so nothing was changed. "
            "Free some space or make the folder writable, then send it again."
        )


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


# Requests: where they come from, what they carry.


def _same_origin(request: Request) -> str | None:
    """Returns why a state-changing request is refused as not coming from this site's own
    pages (None when it does).

    A browser says where a form comes from: ``Sec-Fetch-Site`` (every current browser) must be
    ``same-origin``; without it, ``Origin`` must be this very server (scheme, name and port);
    a request with neither, or with ``Origin: null`` (a sandboxed frame, a local file), is
    refused. Scripts and tools send ``Origin`` themselves (``curl -H 'Origin: http://…'``).
    """
    site = request.headers.get("sec-fetch-site")
    if site is not None:
        return None if site == "same-origin" else f"a form sent from {site!r} is refused"
    origin = request.headers.get("origin")
    if origin is None:
        return "a form must come from this site's own pages (the browser sends no Origin)"
    if origin == "null":
        return "a form from an anonymous page (Origin: null) is refused"
    try:
        theirs = urlsplit(origin)
        their_port = theirs.port or (443 if theirs.scheme == "https" else 80)
    except ValueError:
        return "the Origin is not well formed"
    host = request.headers.get("host") or ""
    try:
        ours = urlsplit(f"{request.url.scheme}://{host}")
        our_port = ours.port or (443 if request.url.scheme == "https" else 80)
    except ValueError:
        return "the Host is not well formed"
    if (theirs.scheme, theirs.hostname, their_port) != (
        request.url.scheme,
        ours.hostname,
        our_port,
    ):
        return "a form from another site is refused"
    return None


def _host_name(request: Request) -> str:
    host = request.headers.get("host") or ""
    if host.startswith("["):
        return host[1:].split("]", 1)[0].lower()
    return host.rsplit(":", 1)[0].lower() if host.count(":") == 1 else host.lower()


async def _form(request: Request, allowed: set[str]) -> dict[str, list[str]]:
    """Returns the fields of a URL-encoded form, refusing anything else.

    The body is read in pieces and refused as soon as it is larger than :data:`MAX_BODY`,
    whatever the Content-Length said (or did not: a chunked body).
    """
    ctype = request.headers.get("content-type", "").split(";")[0].strip()
    if ctype != "application/x-www-form-urlencoded":
        raise BadRequest("a form must be sent URL-encoded")
    length = request.headers.get("content-length")
    if length is not None and (not _is_number(length, 12) or int(length) > MAX_BODY):
        raise BadRequest("the form is too large")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
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


def _is_number(value: str, digits: int) -> bool:
    # isdigit() alone accepts superscripts and other scripts' digits ("²", "٣"): int() does not.
    return value.isascii() and value.isdigit() and len(value) <= digits


def _int(value: str, what: str) -> int:
    if not _is_number(value, 4):
        raise BadRequest(f"{what} must be a number (0 to 9999, in the digits 0-9)")
    return int(value)


Form = dict[str, list[str]]
Handler = Callable[[AppState, Request, Form], Response]


@dataclass(frozen=True)
class Endpoint:
    """A page or an action: the function that answers it, and the form fields it accepts
    (None: a page, asked with GET)."""

    handler: Handler
    fields: Callable[[], set[str]] | None = None


def _answer(state: AppState, endpoint: Endpoint) -> Callable[[Request], Any]:
    """Returns the Starlette endpoint: checks, the form read on the event loop, then the
    handler in a worker thread (the referee, the bots, the disk: never on the loop)."""

    async def run(request: Request) -> Response:
        if _host_name(request) not in state.policy.hosts:
            return _render(
                "error.j2",
                421,
                title="Wrong address",
                message="This server answers only on the names it was started for "
                "(ombre serve --allow-host NAME).",
            )
        form: Form = {}
        try:
            if endpoint.fields is not None:
                refused = _same_origin(request)
                if refused is not None:
                    return _render("error.j2", 403, title="Refused", message=refused + ".")
                form = await _form(request, endpoint.fields())
        except BadRequest as exc:
            return _render("error.j2", 400, title="Not understood", message=str(exc))
        except ClientDisconnect:
            return _render("error.j2", 400, title="Not understood", message="The form was cut off.")
        ident = request.path_params.get("ident")
        if not isinstance(ident, str):
            return await run_in_threadpool(_guarded, state, endpoint.handler, request, form)
        async with state.queue(ident):
            return await run_in_threadpool(_guarded, state, endpoint.handler, request, form)

    return run


def _guarded(state: AppState, handler: Handler, request: Request, form: Form) -> Response:
    try:
        return handler(state, request, form)
    except BadRequest as exc:
        return _render("error.j2", 400, title="Not understood", message=str(exc))
    except KeyError:
        return _render(
            "error.j2", 404, title="Not found", message="No such table, evening or tournament."
        )
    except DamagedFile as exc:
        return _render("error.j2", 409, title="A saved file is damaged", message=str(exc))
    except NotSaved as exc:
        return _render("error.j2", 503, title="Not saved", message=exc.message)


# The handlers: one function each, over the app's state and the form already read.


def _when(t: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(t))


def home(state: AppState, request: Request, form: Form) -> Response:
    tables = state.store.listing("table")[:20]
    evenings = state.store.listing("evening")[:20]
    tournaments = state.store.listing("tournament")[:20]
    return _render(
        "home.j2",
        rulesets=_rulesets(),
        bots=list(BOTS),
        tables=[(i, _when(t)) for i, t in tables],
        evenings=[(i, _when(t)) for i, t in evenings],
        tournaments=[(i, _when(t)) for i, t in tournaments],
        folder=str(state.store.folder),
    )


def new_table(state: AppState, request: Request, fields: Form) -> Response:
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
    # A seed not given comes from the operating system's randomness: one's own hand and the
    # hour the table was made say nothing of the other hands, the talon or the later deals.
    seed = _int(seed_text, "seed") if seed_text else fresh_seed()
    with state.lock:
        ident = state.store.new_id(rules.id)
    with state.hold(ident):
        table = WebTable(ident, rules, options, humans, bots, seed)
        table.start()
        state.add_table(table)
    return RedirectResponse(f"/tables/{ident}", 303)


def show_table(state: AppState, request: Request, form: Form) -> Response:
    ident = request.path_params["ident"]
    why = request.query_params.get("why")
    if why is not None and len(why) > 120:
        raise BadRequest("the question is too long")
    with state.hold(ident):
        table = state.table(ident)
        return _render("table.j2", 200, **_table_context(table, why))


def act(state: AppState, request: Request, fields: Form) -> Response:
    ident = request.path_params["ident"]
    turn = _one(fields, "turn")
    with state.hold(ident):
        table = state.table(ident)
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
        try:
            state.save_table(table)
        except NotSaved as exc:
            return _not_saved_table(state, ident, exc, f"your {action!r} was not played")
    return RedirectResponse(f"/tables/{ident}", 303)


def _not_saved_table(state: AppState, ident: str, exc: NotSaved, what: str) -> Response:
    """The table as it was (read back from its files), with what could not be saved."""
    table = state.table(ident)
    context = _table_context(table, None)
    context["unsaved"] = f"{exc.message} ({what}.)"
    return _render("table.j2", 503, **context)


def next_deal(state: AppState, request: Request, fields: Form) -> Response:
    ident = request.path_params["ident"]
    with state.hold(ident):
        table = state.table(ident)
        try:
            table.next_deal(_one(fields, "turn"))
        except StaleError:
            return RedirectResponse(f"/tables/{ident}", 303)  # a second click: already dealt
        except NotationError as exc:
            raise BadRequest(str(exc)) from None
        try:
            state.save_table(table)
        except NotSaved as exc:
            return _not_saved_table(state, ident, exc, "the next deal was not dealt")
    return RedirectResponse(f"/tables/{ident}", 303)


def table_record(state: AppState, request: Request, form: Form) -> Response:
    ident = request.path_params["ident"]
    with state.hold(ident):
        pieces = state.table(ident).public_record_pieces()
    if pieces is None:
        return _render(
            "error.j2",
            409,
            title="No deal is over yet",
            message="The record holds every hand and the talon: it is given out once the deal "
            "is over, so that no seat sees what it may not.",
            back=f"/tables/{ident}",
        )
    # Sent in pieces of about 64 KiB, each once the reader has taken the last: a long table's
    # record is never held whole for a reader that does not read it.
    return StreamingResponse(
        _in_pieces(pieces),
        media_type="application/yaml",
        headers={"content-disposition": f'attachment; filename="{ident}.yaml"'},
    )


def _in_pieces(texts: list[str], size: int = 65536) -> Iterator[bytes]:
    """Yields ``texts`` joined, as UTF-8 pieces of about ``size`` bytes."""
    held: list[str] = []
    length = 0
    for text in texts:
        held.append(text)
        length += len(text)
        if length >= size:
            yield "".join(held).encode("utf-8")
            held, length = [], 0
    if held:
        yield "".join(held).encode("utf-8")


def rules_page(state: AppState, request: Request, form: Form) -> Response:
    # The rule book of the documents; the browser keeps the #section of the link.
    rules = _ruleset(request.path_params["ruleset"])
    return RedirectResponse(f"/book/books/{rules.id}.html", 302)


def book_page(state: AppState, request: Request, form: Form) -> Response:
    asked = request.path_params["path"]
    # Only what can be the name of a page is looked for (no NUL, no '..', no other suffix):
    # anything else is not found, without waiting for the books.
    if len(asked) > 200 or not _BOOK_NAME.fullmatch(asked) or ".." in asked:
        raise KeyError(asked)
    root = state.books()
    if root is None:  # still being written, in the background: never inside a request
        return PlainTextResponse(
            "The rule books are being written; try again in a few seconds.",
            503,
            headers={"retry-after": str(_BOOK_RETRY_SECONDS)},
        )
    root = root.resolve()
    try:
        target = (root / asked).resolve()
    except (OSError, ValueError):
        raise KeyError(asked) from None
    if (
        not target.is_relative_to(root)
        or not target.is_file()
        or target.suffix
        not in (
            ".html",
            ".css",
        )
    ):
        raise KeyError(asked)
    kind = "text/css" if target.suffix == ".css" else "text/html"
    return Response(target.read_bytes(), media_type=kind)


# The scorekeeper.


def score_home(
    state: AppState,
    request: Request,
    form: Form,
    *,
    refused: str | None = None,
    status: int = 400,
) -> Response:
    evenings = state.store.listing("evening")
    tournaments = state.store.listing("tournament")
    return _render(
        "score_home.j2",
        status if refused else 200,
        rulesets=_rulesets(),
        evenings=[(i, _when(t)) for i, t in evenings],
        tournaments=[(i, _when(t)) for i, t in tournaments],
        folder=str(state.store.evenings),
        tournaments_folder=str(state.store.tournaments),
        refused=refused,
        entered={k: v[0] for k, v in form.items() if v} if refused else {},
    )


def new_evening(state: AppState, request: Request, fields: Form) -> Response:
    rules = _ruleset(_one(fields, "ruleset"))
    options = _options(rules, fields)
    dealer = _int(_one(fields, "dealer", "0"), "dealer")
    if dealer >= rules.players:
        raise BadRequest(f"{rules.name} has seats 0 to {rules.players - 1}")
    title = _one(fields, "title", "").strip() or None
    names = tuple(_one(fields, f"player{k}", "").strip() for k in range(rules.players))
    try:
        evening = Evening(rules, options, dealer, title, players=names if any(names) else ())
    except NotationError as exc:
        # What cannot be saved is refused now, the form given back as it was typed.
        return score_home(state, request, fields, refused=str(exc))
    with state.lock:
        ident = state.store.new_id(rules.id + "-evening")
    with state.hold(ident):
        try:
            state.save_evening(ident, evening, [])
        except NotSaved as exc:
            # The disk refused (full, read-only): the server's trouble, not the form's (503).
            return score_home(state, request, fields, refused=exc.message, status=503)
    return RedirectResponse(f"/evenings/{ident}", 303)


def show_evening(state: AppState, request: Request, form: Form) -> Response:
    ident = request.path_params["ident"]
    with state.hold(ident):
        evening = state.evening(ident)
        return _render("evening.j2", **_evening_context(ident, evening))


IRREGULARITY_ROWS = 3
"""The rows of the scorekeeper's form for the irregularities of the play that change the
score (the laws of the play: ``score.irregularities``)."""

SCORE_FIELDS = {"version", "count", "dealer", *score_form_fields(6, IRREGULARITY_ROWS)}
"""The fields the scorekeeper's form may send: the page's own (its version, the deals it
showed, the dealer) and each ``score:`` field's, as the one schema of a ``score:`` names them
(``engine/schema/score.schema.json``, ``x-form``; six seats at most)."""


def _stale_evening(
    ident: str, evening: Evening, fields: Form, back: str | None = None, what: str = "evening"
) -> Response | None:
    """Returns the answer to a change made on a page drawn from another version of the
    evening (None if it is this one); ``what`` it is to the page (an evening, a tournament's
    table) and ``back`` its page."""
    count = _int(_one(fields, "count"), "count")
    if _one(fields, "version") == evening.version:
        return None
    if count != len(evening.deals):
        message = "This deal was already entered (a second click?)."
        if count < len(evening.deals):
            message += f" The {what} has deals this page did not show."
    else:
        message = f"The {what} was changed on another page since this one was drawn."
    return _render(
        "error.j2",
        409,
        title=f"The {what} has moved on",
        message=message + " Nothing was changed: look again.",
        back=back or f"/evenings/{ident}",
    )


def score_deal(state: AppState, request: Request, fields: Form) -> Response:
    ident = request.path_params["ident"]
    with state.hold(ident):
        evening = state.evening(ident)
        stale = _stale_evening(ident, evening, fields)
        if stale is not None:
            return stale
        entry_data = _entry_data(evening, fields)
        dealer = _int(_one(fields, "dealer"), "dealer")
        entered = _entered(fields)
        before = list(evening.deals)
        try:
            entry = parse_entry(entry_data, dealer=dealer, n=evening.n)
            evening.score(entry)
        except (IllegalActionError, NotationError) as exc:
            context = _evening_context(ident, evening)
            context["refusal"] = Refusal.of("score", exc)
            context["entered"] = entered
            return _render("evening.j2", 409, **context)
        try:
            state.save_evening(ident, evening, before)
        except NotSaved as exc:
            context = _evening_context(ident, evening)
            context["unsaved"] = exc.message
            context["entered"] = entered
            return _render("evening.j2", 503, **context)
    return RedirectResponse(f"/evenings/{ident}#deal-{len(evening.deals)}", 303)


def undo_deal(state: AppState, request: Request, fields: Form) -> Response:
    ident = request.path_params["ident"]
    with state.hold(ident):
        evening = state.evening(ident)
        stale = _stale_evening(ident, evening, fields)
        if stale is not None:
            return stale
        before = list(evening.deals)
        evening.undo()
        try:
            state.save_evening(ident, evening, before)
        except NotSaved as exc:
            context = _evening_context(ident, evening)
            context["unsaved"] = exc.message + " (The last deal was not taken back.)"
            return _render("evening.j2", 503, **context)
    return RedirectResponse(f"/evenings/{ident}", 303)


def evening_record(state: AppState, request: Request, form: Form) -> Response:
    ident = request.path_params["ident"]
    with state.hold(ident):
        text = write_evening(state.evening(ident))
    return PlainTextResponse(
        text,
        media_type="application/yaml",
        headers={"content-disposition": f'attachment; filename="{ident}.yaml"'},
    )


# The tournament evening: several tables, each scored as an evening, ranked together.


def tournament_form(
    state: AppState,
    request: Request,
    form: Form,
    *,
    refused: str | None = None,
    status: int = 400,
) -> Response:
    """The page that starts a tournament: a form for each ruleset (its options, a title, the
    tables and, where the rule file sets no party, the deals a table). A form refused comes
    back with the reason and what was typed."""
    return _render(
        "tournament_new.j2",
        status if refused else 200,
        rulesets=_rulesets(),
        parties={r.id: _party_of(r) for r in _rulesets()},
        folder=str(state.store.tournaments),
        refused=refused,
        entered={k: v[0] for k, v in form.items() if v} if refused else {},
    )


@dataclass(frozen=True)
class PartyOf:
    """A ruleset's party at a tournament's table, as :func:`engine.tournament.party_length`
    answers it: the organiser gives the deals (``asks``), or the rule file sets them
    (``length``), or plays to a target score (``target``)."""

    asks: bool
    length: int | None = None
    target: int | None = None


def _party_of(rules: RuleSet) -> PartyOf:
    try:
        length = party_length(rules, None)
    except NotationError:
        return PartyOf(asks=True)
    return PartyOf(False, length, rules.party.target if rules.party is not None else None)


TABLES_FIELD_LIMIT = MAX_BODY
"""The longest list of tables typed (characters): the form's own bound (64 tables of six
names of 80 characters would not fit; the body's limit says so first)."""


def new_tournament(state: AppState, request: Request, fields: Form) -> Response:
    rules = _ruleset(_one(fields, "ruleset"))
    options = _options(rules, fields)
    dealer = _int(_one(fields, "dealer", "0"), "dealer")
    if dealer >= rules.players:
        raise BadRequest(f"{rules.name} has seats 0 to {rules.players - 1}")
    title = _one(fields, "title", "").strip() or None
    tables = fields.get("tables", [])
    if len(tables) > 1:
        raise BadRequest("field 'tables' given twice")
    text = tables[0] if tables else ""
    if len(text) > TABLES_FIELD_LIMIT:
        raise BadRequest("field 'tables' is too long")
    deals_text = _one(fields, "deals", "").strip()
    if deals_text and not _is_number(deals_text, 4):
        return tournament_form(
            state, request, fields, refused="the deals a table are a number (1 to 1000)"
        )
    try:
        tournament = Tournament.new(
            rules,
            parse_tables(text),
            deals=int(deals_text) if deals_text else None,
            options=options,
            title=title,
            first_dealer=dealer,
        )
    except NotationError as exc:
        # A name twice, too many tables, a length the rules do not allow: the form given back.
        return tournament_form(state, request, fields, refused=str(exc))
    with state.lock:
        ident = state.store.new_id(rules.id + "-tournament")
    with state.hold(ident):
        try:
            state.save_tournament(ident, tournament, None, [])
        except NotSaved as exc:
            return tournament_form(state, request, fields, refused=exc.message, status=503)
    return RedirectResponse(f"/tournaments/{ident}", 303)


def _tournament_context(
    ident: str,
    tournament: Tournament,
    *,
    at: int | None = None,
    refusal: Refusal | None = None,
    entered: Mapping[str, Any] | None = None,
    unsaved: str | None = None,
) -> dict[str, Any]:
    """Returns the tournament page's context: the standings and each table (its players,
    progress, totals, the form for its next deal, its deals); a refusal, what was typed or a
    save refused belong to table ``at``."""
    rules = tournament.rules
    tables = []
    for t in tournament.tables:
        evening = t.evening
        tables.append(
            {
                "number": t.number,
                "players": t.players,
                "evening": evening,
                "who": evening.name,
                "counted": evening.counted,
                "complete": tournament.complete(t),
                "over": evening.over,
                "totals": evening.totals,
                "pot": evening.table.pot,
                "form": _entry_context(evening),
                "rows": _deal_rows(evening),
                "action": f"/tournaments/{ident}/tables/{t.number}",
            }
        )
    return {
        "ident": ident,
        "tournament": tournament,
        "rules": rules,
        "length": tournament.deals_per_table,
        "standings": tournament.standings(),
        "tables": tables,
        "at": at,
        "refusal": refusal,
        "entered": entered or {},
        "unsaved": unsaved,
    }


def show_tournament(state: AppState, request: Request, form: Form) -> Response:
    ident = request.path_params["ident"]
    with state.hold(ident):
        tournament = state.tournament(ident)
        return _render("tournament.j2", **_tournament_context(ident, tournament))


def _tournament_table(tournament: Tournament, request: Request) -> Table:
    """Returns the table the address names (``/tournaments/ID/tables/N/…``).

    :raises KeyError: if the tournament has no such table.
    """
    number = request.path_params["number"]
    if not _is_number(number, 3) or not 1 <= int(number) <= len(tournament.tables):
        raise KeyError(number)
    return tournament.tables[int(number) - 1]


def _tournament_table_held(
    state: AppState, ident: str, request: Request, fields: Form
) -> tuple[Tournament, Table, Response | None]:
    """Returns the tournament and the table a form is for (the caller holds the tournament),
    and the page for a form drawn before the table's last change (None if it is current)."""
    tournament = state.tournament(ident)
    table = _tournament_table(tournament, request)
    back = f"/tournaments/{ident}#table-{table.number}"
    return (
        tournament,
        table,
        _stale_evening(ident, table.evening, fields, back, f"table {table.number}"),
    )


def score_tournament_deal(state: AppState, request: Request, fields: Form) -> Response:
    ident = request.path_params["ident"]
    with state.hold(ident):
        tournament, table, stale = _tournament_table_held(state, ident, request, fields)
        if stale is not None:
            return stale
        evening = table.evening
        entry_data = _entry_data(evening, fields)
        dealer = _int(_one(fields, "dealer"), "dealer")
        entered = _entered(fields)
        before = list(evening.deals)
        try:
            entry = parse_entry(entry_data, dealer=dealer, n=evening.n)
            tournament.score(table.number, entry)  # the tournament's checks, then the referee's
        except (IllegalActionError, NotationError) as exc:
            # A deal past the party's length is a request the page never offers (400); a deal
            # that cannot have happened is refused as an evening's is (409).
            complete = isinstance(exc, IllegalActionError) and exc.code == "score/table-complete"
            context = _tournament_context(
                ident,
                tournament,
                at=table.number,
                refusal=Refusal.of("score", exc),
                entered=entered,
            )
            return _render("tournament.j2", 400 if complete else 409, **context)
        try:
            state.save_tournament(ident, tournament, table, before)
        except NotSaved as exc:
            context = _tournament_context(
                ident, tournament, at=table.number, entered=entered, unsaved=exc.message
            )
            return _render("tournament.j2", 503, **context)
    return RedirectResponse(f"/tournaments/{ident}#table-{table.number}", 303)


def undo_tournament_deal(state: AppState, request: Request, fields: Form) -> Response:
    ident = request.path_params["ident"]
    with state.hold(ident):
        tournament, table, stale = _tournament_table_held(state, ident, request, fields)
        if stale is not None:
            return stale
        evening = table.evening
        before = list(evening.deals)
        evening.undo()
        try:
            state.save_tournament(ident, tournament, table, before)
        except NotSaved as exc:
            context = _tournament_context(
                ident,
                tournament,
                at=table.number,
                unsaved=exc.message + " (The last deal was not taken back.)",
            )
            return _render("tournament.j2", 503, **context)
    return RedirectResponse(f"/tournaments/{ident}#table-{table.number}", 303)


def standings_csv(state: AppState, request: Request, form: Form) -> Response:
    ident = request.path_params["ident"]
    with state.hold(ident):
        text = state.tournament(ident).as_csv()
    return Response(
        text,
        media_type="text/csv; charset=utf-8",
        headers={"content-disposition": f'attachment; filename="{ident}-standings.csv"'},
    )


def standings_json(state: AppState, request: Request, form: Form) -> Response:
    ident = request.path_params["ident"]
    with state.hold(ident):
        data = state.tournament(ident).as_json()
    return Response(
        json.dumps(data, ensure_ascii=False, indent=2) + "\n",
        media_type="application/json",
    )


def tournament_record(state: AppState, request: Request, form: Form) -> Response:
    ident = request.path_params["ident"]
    with state.hold(ident):
        text = write_tournament(state.tournament(ident))
    return PlainTextResponse(
        text,
        media_type="application/yaml",
        headers={"content-disposition": f'attachment; filename="{ident}.yaml"'},
    )


def stylesheet(state: AppState, request: Request, form: Form) -> Response:
    # The workbench's one stylesheet (templates/style.css), then the table's own rules.
    name = "style.css" if request.url.path == "/style.css" else "web/style.css"
    return Response(
        (templates_folder().parent / name).read_text(encoding="utf-8"),
        media_type="text/css",
        headers={"cache-control": "no-cache"},
    )


# The application.

SECURITY_HEADERS = (
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"content-security-policy", b"frame-ancestors 'none'"),
    (b"referrer-policy", b"same-origin"),
)
"""Sent with every answer: no sniffing of types, no page inside another site's frame."""

_PRIVATE = ((b"cache-control", b"no-store"),)
_PRIVATE_PATHS = ("/tables/", "/evenings/", "/score", "/tournaments")
"""A table's pages and record, an evening's and a tournament's, are never kept by the
browser: in hot-seat, Back would otherwise show the seat before the previous seat's hand."""


class _SecurityHeaders:
    """ASGI middleware adding :data:`SECURITY_HEADERS` to every response, errors included."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {k.lower() for k, _ in message.get("headers", [])}
                private = _PRIVATE if str(scope.get("path", "")).startswith(_PRIVATE_PATHS) else ()
                message["headers"] = [
                    *message.get("headers", []),
                    *(h for h in (*SECURITY_HEADERS, *private) if h[0] not in present),
                ]
            await send(message)

        await self.app(scope, receive, sending)


ROUTES: list[tuple[str, Endpoint]] = [
    ("/", Endpoint(home)),
    (
        "/tables",
        Endpoint(new_table, lambda: {"ruleset", "mode", "seat", "bots", "seed", *_option_fields()}),
    ),
    ("/tables/{ident}", Endpoint(show_table)),
    ("/tables/{ident}/act", Endpoint(act, lambda: {"seat", "action", "turn", "card", "verb"})),
    ("/tables/{ident}/next", Endpoint(next_deal, lambda: {"turn"})),
    ("/tables/{ident}/record.yaml", Endpoint(table_record)),
    ("/rules/{ruleset}", Endpoint(rules_page)),
    ("/book/{path:path}", Endpoint(book_page)),
    ("/score", Endpoint(score_home)),
    (
        "/evenings",
        Endpoint(
            new_evening,
            lambda: {
                "ruleset",
                "dealer",
                "title",
                *_option_fields(),
                *(f"player{k}" for k in range(6)),
            },
        ),
    ),
    ("/evenings/{ident}", Endpoint(show_evening)),
    ("/evenings/{ident}/deals", Endpoint(score_deal, lambda: SCORE_FIELDS)),
    ("/evenings/{ident}/undo", Endpoint(undo_deal, lambda: {"count", "version"})),
    ("/evenings/{ident}/evening.yaml", Endpoint(evening_record)),
    ("/tournaments/new", Endpoint(tournament_form)),
    (
        "/tournaments",
        Endpoint(
            new_tournament,
            lambda: {"ruleset", "dealer", "title", "tables", "deals", *_option_fields()},
        ),
    ),
    ("/tournaments/{ident}", Endpoint(show_tournament)),
    (
        "/tournaments/{ident}/tables/{number}/deals",
        Endpoint(score_tournament_deal, lambda: SCORE_FIELDS),
    ),
    (
        "/tournaments/{ident}/tables/{number}/undo",
        Endpoint(undo_tournament_deal, lambda: {"count", "version"}),
    ),
    ("/tournaments/{ident}/standings.csv", Endpoint(standings_csv)),
    ("/tournaments/{ident}/standings.json", Endpoint(standings_json)),
    ("/tournaments/{ident}/tournament.yaml", Endpoint(tournament_record)),
    ("/style.css", Endpoint(stylesheet)),
    ("/web.css", Endpoint(stylesheet)),
]
"""Every address the server answers: GET for a page, POST (with its form's fields) for an action."""


def create_app(
    folder: Path,
    *,
    allowed_hosts: Iterable[str] | None = None,
    policy: WebPolicy | None = None,
    warm_books: bool = False,
) -> Starlette:
    """Returns the application, keeping its tables and evenings in ``folder``.

    ``warm_books``: start writing the rule books at once, in a thread (``ombre serve``), rather
    than when first asked.

    ``allowed_hosts``: the names and addresses requests may be addressed to (default: this
    machine's: ``127.0.0.1``, ``localhost``, ``::1``, and ``testserver`` for the tests).
    """
    store = Store(folder)
    store.ensure()
    chosen = policy or WebPolicy()
    if allowed_hosts is not None:
        chosen = replace(chosen, hosts=frozenset(h.lower().strip("[]") for h in allowed_hosts))
    state = AppState(store, chosen)
    if warm_books:
        state.warm_books()
    routes = [
        Route(
            path,
            _answer(state, endpoint),
            methods=["GET", "HEAD"] if endpoint.fields is None else ["POST"],
        )
        for path, endpoint in ROUTES
    ]

    def missing(request: Request, exc: Exception) -> Response:
        status = getattr(exc, "status_code", 404)
        if status == 405:
            return _render("error.j2", 405, title="Not allowed", message="Not with this method.")
        return _render("error.j2", 404, title="Not found", message="No such page.")

    app = Starlette(
        routes=routes,
        middleware=[Middleware(_SecurityHeaders)],
        exception_handlers={404: missing, 405: missing},
    )
    app.state.web = state
    return app


# The pages.


@dataclass(frozen=True)
class RaiseChoice:
    """One of the referee's legal actions after the auction (the ``raise`` phase): ``pass``
    plays the contract won (``kept``), ``bid X`` plays ``contract`` instead."""

    action: str
    contract: Contract
    kept: bool
    suit: str | None = None
    """The trump suit the bid names (``bid X SUIT``, under ``trump_with_bid``)."""


@dataclass(frozen=True)
class RaiseView:
    """What the auction's winner may play (``declarer_may_play``, ``auction.raise``): the
    contract he won and his legal choices, as the referee lists them."""

    won: Contract
    choices: tuple[RaiseChoice, ...]


def _raise_view(table: WebTable, legal: Iterable[Action]) -> RaiseView | None:
    """The raise phase's choices, from the referee's legal actions (None in another phase)."""
    deal = table.deal
    won = deal.holder_contract
    if won is None:
        return None
    choices: list[RaiseChoice] = []
    for action in legal:
        if action.verb == "pass":
            choices.append(RaiseChoice(str(action), won, kept=True))
        elif action.verb == "bid" and action.contract is not None:
            contract = table.rules.contracts.get(action.contract)
            if contract is not None:
                suit = action.suit.value if action.suit is not None else None
                choices.append(RaiseChoice(str(action), contract, kept=False, suit=suit))
    return RaiseView(won, tuple(choices)) if choices else None


@dataclass(frozen=True)
class OfferChoice:
    """One of the referee's legal answers to a contract offered to the seat that sits out:
    ``pass`` (the deal is passed out) or ``bid X`` (he takes ``contract`` up)."""

    action: str
    contract: Contract | None


@dataclass(frozen=True)
class OfferView:
    """What the seat that sits out is offered, every seat that plays having passed
    (``Deal.offer``), and his legal answers."""

    offer: Offer
    choices: tuple[OfferChoice, ...]


def _offer_view(offer: Offer, legal: Iterable[Action]) -> OfferView | None:
    """The offer's choices: pass, or take up one of the referee's ``Offer.contracts``, each
    kept where the referee lists its action (nothing read back from the action's text)."""
    listed = set(legal)
    pairs = [(Action("pass"), None)] + [(Action("bid", contract=c.id), c) for c in offer.contracts]
    choices = tuple(OfferChoice(str(action), c) for action, c in pairs if action in listed)
    return OfferView(offer, choices) if choices else None


@dataclass(frozen=True)
class VoleView:
    """The vole's decision (the ``vole`` phase), from the referee's legal actions: go on for
    every trick, or lay down; ``defender``: he is a defender who took every trick so far and
    goes on as the declarer, alone (``Deal.vole_by_defender``)."""

    vole: bool
    stop: bool
    defender: bool


def _table_context(table: WebTable, why: str | None) -> dict[str, Any]:
    """Returns the context of the table page for the seat that views it: only what that seat
    may see (the referee's view of it), the choices the referee gives it, and the public
    state of the deal and the party."""
    deal = table.deal
    rules = table.rules
    seat = table.viewer()
    view = deal.view(seat)
    trump_index = deal.trump
    names = matador_names(rules, trump_index)
    legal = list(deal.legal_actions()) if seat == view.to_move else []
    my_turn = not deal.is_over and deal.to_move in table.humans
    phase = view.phase
    irregular = public_irregularities(deal)
    each = deal.each_for_himself  # every seat for himself: no side (the penetro)
    return {
        "table": table,
        "rules": rules,
        "deal": deal,
        "deal_number": len(table.party.deals),
        "view": view,
        "viewer": seat,
        "my_turn": my_turn,
        "phase_words": _PHASE_WORDS.get(phase, phase),
        **_cards_context(deal, view, seat, legal, names),
        **_choices_context(table, view, legal, my_turn, irregular, names),
        "each": each,
        "top_taker": deal.top_taker if each else None,
        **_party_context(table),
        "seats": _seats(table, view, seat),
        **_trick_context(deal, view, names, each),
        # What the others did since this seat last acted, as this seat may see it.
        "events": table.events_seen(seat)[-24:],
        **_refusal_context(table, why),
        **_result_context(deal),
        "matadors": names,
        "turn": table.turn,
        "unsaved": None,
        **_laws_context(table, seat, irregular),
    }


def _cards_context(
    deal: Deal, view: View, seat: int, legal: list[Action], names: Mapping[str, str]
) -> dict[str, Any]:
    """Returns the cards the viewer may see: his hand (each card with the action that plays
    it and whether the referee lists that action now), the declarer's cards laid open, and
    the cards called and given."""
    trump = view.trump
    card_verb = deal.card_verb  # the referee's: which verb puts a card from the hand
    # The cards of the hand the referee lists under that verb (its actions' cards, not text).
    playable = {c for a in legal if card_verb and a.verb == card_verb for c in a.cards}
    hand = []
    for card in view.hand:
        face = card_face(card, names, trump)
        face["action"] = str(Action(card_verb, cards=(card,))) if card_verb else None
        face["legal"] = card in playable
        hand.append(face)
    return {
        "hand": hand,
        # An open contract: the declarer's cards lie face up for every seat (the referee's
        # view says from when); the declarer sees them in his own hand.
        "open_hand": [card_face(c, names, trump) for c in view.declarer_hand]
        if view.declarer_hand is not None and view.declarer != seat
        else None,
        "called": card_face(view.called, names, trump) if view.called is not None else None,
        "given": card_face(view.given, names, trump) if view.given is not None else None,
    }


def _choices_context(
    table: WebTable,
    view: View,
    legal: list[Action],
    my_turn: bool,
    irregular: PublicIrregularities | None,
    names: Mapping[str, str],
) -> dict[str, Any]:
    """Returns the viewer's choices, from the referee's legal actions: the buttons, and the
    controls of their own (the card called, the raise, the defender's choice of order, the
    offer to the seat that sits out, the vole, the trumps named for another, the auction's
    contracts and the écart's limits); and those the page may ask "why not?" about."""
    deal = table.deal
    phase = view.phase
    card_verb = deal.card_verb
    # The choices of this phase the referee does not list: each may be asked "why not?".
    others = table.askable()
    choices = [a for a in legal if not (card_verb and a.verb == card_verb)]
    if phase == "exchange":
        # The écart is one form of tick boxes, not a button per set of cards.
        choices = [a for a in choices if a.verb != "discard"]
    calls = [a for a in choices if a.verb == "call"]
    choices = [a for a in choices if a.verb != "call"]
    # The raise and the defender's choice of order get controls of their own.
    raise_view = _raise_view(table, choices) if phase == "raise" else None
    if raise_view is not None:
        choices = []
    may_defer = phase == "exchange" and any(a.verb == "defer" for a in choices)
    choices = [a for a in choices if a.verb != "defer"]
    # The contract offered to the seat that sits out, and the vole's decision: labelled
    # controls of their own, from the referee's answers (Deal.offer, Deal.vole_by_defender).
    offer = deal.offer if my_turn else None
    offer_view = _offer_view(offer, choices) if offer is not None else None
    if offer_view is not None:
        choices = []
    vole_view = None
    if my_turn and phase == "vole":
        verbs = {a.verb for a in choices}
        vole_view = VoleView("vole" in verbs, "stop" in verbs, defender=deal.vole_by_defender)
        choices = [a for a in choices if a.verb not in ("vole", "stop")]
    # Trumps named for a declarer who laid his hand down unnamed (laws.lay_down_unnamed): the
    # referee's legal actions, under a label saying for whom (remedies.public's ``naming``).
    naming = irregular.naming if irregular is not None and my_turn else None
    name_trumps = [a for a in choices if a.verb == "name-trump"] if naming is not None else []
    buttons = [a for a in choices if a not in name_trumps]
    ecart = deal.exchange_why()  # the écart's limits and why (the referee's)
    trump = view.trump
    return {
        "buttons": buttons,
        "raise_view": raise_view,
        "may_defer": may_defer,
        "offer": offer_view,
        "naming": naming,
        "name_trumps": [(str(a), a.suit.value) for a in name_trumps if a.suit is not None],
        "vole_view": vole_view,
        # The fewest cards the écart must discard (a duty to buy, the contrabola's one card).
        "exchange_least": ecart.least if my_turn and ecart is not None else 0,
        "others": others,
        "calls": [card_face(a.cards[0], names, trump) | {"action": str(a)} for a in calls],
        "exchange_limit": deal.exchange_limit() if my_turn else 0,
        "contracts": contract_choices(deal) if my_turn and phase == "auction" else [],
    }


def _party_context(table: WebTable) -> dict[str, Any]:
    """Returns the party's public state: its target, its penalty points and this deal's
    faults, whether it is over and who leads it, the pot, the bêtes and the totals."""
    deal = table.deal
    rules = table.rules
    return {
        "target": rules.party.target if rules.party is not None else None,
        "penalty_points": table.party.penalty_points,
        # The faults of this deal scored in penalty points, when committed (the referee's
        # Deal.faults: a contract named without need, in the speech every seat hears).
        "faults": [(s, rules.penalties[f]) for s, f in deal.faults],
        # The rule file's party played to its end (a target reached, its deals played): the
        # referee's Party.over and Party.leaders.
        "party_over": table.party.over,
        "leaders": table.party.leaders if table.party.over else [],
        "pot": deal.table.pot,
        "betes": list(deal.table.betes),
        "totals": table.party.totals,
    }


def _seats(table: WebTable, view: View, seat: int) -> list[dict[str, Any]]:
    """Returns the seats round the table from the viewer's, each with where it sits on
    screen, who plays it, its part in the deal, its tricks and how many cards it holds."""
    deal = table.deal
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
                "to_move": s == view.to_move,
                "declarer": s == view.declarer,
                "partner": s == view.partner,
                "tricks": view.tricks_won[s],
                "cards": len(deal.hands[s].bit_count() * [0]),
            }
        )
    return seats


def _trick_context(deal: Deal, view: View, names: Mapping[str, str], each: bool) -> dict[str, Any]:
    """Returns the trick on the table and the last one turned, each card with the seat that
    played it, and the tricks each side won (none when every seat plays for himself)."""
    trump = view.trump
    trick_cards = []
    for k, card in enumerate(view.trick):
        trick_cards.append(
            {"seat": deal.seating.seat_of(view.trick_leader, k), **card_face(card, names, trump)}
        )
    last = view.tricks[-1] if view.tricks else None
    last_trick = None
    if last is not None:
        last_trick = {
            "winner": last.winner,
            "cards": [
                {"seat": deal.seating.seat_of(last.leader, k), **card_face(c, names, trump)}
                for k, c in enumerate(last.cards)
            ],
        }
    side = [s for s in (view.declarer, view.partner) if s is not None] if not each else []
    return {
        "trick": trick_cards,
        "last_trick": last_trick,
        "side_tricks": side_tricks(view.tricks_won, side) if side else None,
    }


def _refusal_context(table: WebTable, why: str | None) -> dict[str, Any]:
    """Returns the answer to the viewer's "why not?" about ``why`` (the referee's refusal, or
    that it is allowed now) and the part of the rules it points to; None without a question."""
    refusal: Refusal | None = table.why_not(why) if why else None
    if why and refusal is None:
        refusal = Refusal(why, "allowed", f"{why} is allowed now: click it to play it", "")
    return {
        "refusal": refusal,
        "refusal_section": _SECTION.get(refusal.code.split("/")[0], "") if refusal else "",
    }


def _result_context(deal: Deal) -> dict[str, Any]:
    """Returns the result of the finished deal: its report, its settlement and why it is
    this result (the referee's answers; None while it is played)."""
    return {
        "report": deal.report() if deal.is_over else None,
        "settlement": deal.settlement,
        "result_match": deal.result_match,  # why this result: the referee's answer
    }


def _laws_context(
    table: WebTable, seat: int, irregular: PublicIrregularities | None
) -> dict[str, Any]:
    """Returns the laws of the play: what the viewer may declare, and what the
    irregularities of the deal left (the referee's answers: Deal.declarable and
    remedies.public, typed)."""
    deal = table.deal
    return {
        "declarable": list(deal.declarable(seat))
        if seat in table.humans and not deal.is_over
        else [],
        "irregular": irregular,
    }


def _position(offset: int, n: int) -> str:
    """Where a seat sits on screen, the viewer at the bottom and play going to the right."""
    if n == 3:
        return ("bottom", "right", "left")[offset]
    return ("bottom", "right", "top", "left")[offset % 4]


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
    penalties = _penalty_rows(evening, fields)
    if _one(fields, "passed", "") == "yes":
        return {"passed": True, "penalties": penalties} if penalties else {"passed": True}
    void = _void_entry(fields)
    if void is not None:
        return void
    data = _played_entry(evening, fields)
    if evening.asks_renonces:
        renonces = _renonce_entries(evening, fields)
        if renonces:
            data["renonces"] = renonces
    unclaimed = fields.get("unclaimed", [])
    if unclaimed:
        data["unclaimed"] = list(unclaimed)
    irregularities = _irregularity_entries(fields)
    if irregularities:
        data["irregularities"] = irregularities
    if penalties:
        data["penalties"] = penalties
    return data


def _seat_field(fields: Mapping[str, list[str]], key: str) -> int | None:
    """Reads the form's field ``key`` as a seat's number, None if it is left empty."""
    value = _one(fields, key, "")
    return _int(value, key) if value != "" else None


def _void_entry(fields: Mapping[str, list[str]]) -> dict[str, Any] | None:
    """Reads a void deal under the laws of the table from the form: the fault, or who held a
    card too many; None if the deal was not void."""
    misdeal = _one(fields, "misdeal", "")
    if misdeal == "extra-card":
        return {"extra_card": _seat_field(fields, "extra_card")}
    if misdeal:
        return {"misdeal": misdeal}
    return None


def _played_entry(evening: Evening, fields: Mapping[str, list[str]]) -> dict[str, Any]:
    """Reads the deal played from the form: the contract, its declarer and trumps, each
    seat's tricks, the matadors, the vole, the tie, the card called and its holder, and who
    held the highest trumps."""
    data: dict[str, Any] = {
        "contract": _one(fields, "contract", ""),
        "declarer": _seat_field(fields, "declarer"),
        "trump": _one(fields, "trump", "") or None,
        "tricks": [
            _int(_one(fields, f"tricks{k}", "0") or "0", f"tricks of seat {k}")
            for k in range(evening.n)
        ],
        "matadors": _int(_one(fields, "matadors", "0") or "0", "matadors"),
        "vole": _one(fields, "vole", "") == "yes",
    }
    vole_by = _seat_field(fields, "vole_by")
    if vole_by is not None:
        # A defender went on for the vole (``vole.by: any-seat``): the vole was undertaken.
        data["vole"] = True
        data["vole_by"] = vole_by
    latest = _seat_field(fields, "latest_of_tied")
    if latest is not None:
        data["latest_of_tied"] = latest
    called = _one(fields, "called", "").strip()
    if called:
        data["called"] = called
        data["holder"] = _seat_field(fields, "holder")
    highest = _seat_field(fields, "highest_trump")
    if highest is not None:
        data["highest_trump"] = highest
    if _one(fields, "surrendered", "") == "yes":
        data["surrendered"] = True  # roi rendu: the holder surrendered the called card
    held = {str(card): _seat_field(fields, f"held_{card}") for card in evening.held_cards}
    if any(seat is not None for seat in held.values()):
        # Who held each card the rules pay for whatever the result (``held_cards``); a card
        # nobody held (in the talon, or out of the pack) is left out.
        data["held"] = {card: seat for card, seat in held.items() if seat is not None}
    holders = _one(fields, "trump_holders", "").replace(",", " ").split()
    if holders:
        # Who held a trump, the highest first (the rules give a codille's odd counters to the
        # highest trumps); checked as seats by the scoresheet.
        data["trump_holders"] = [_int(h, "a trump's holder") for h in holders[: evening.n]]
    return data


def _renonce_entries(evening: Evening, fields: Mapping[str, list[str]]) -> list[int]:
    """Reads the renonces pointed out from the form, a count for each offender (each makes a
    bête), as the offender's seat once for each renonce."""
    renonces = []
    for k in range(evening.n):
        count = _int(_one(fields, f"renonces{k}", "0") or "0", f"renonces of seat {k}")
        if count > evening.rules.hand_size:
            raise BadRequest(
                f"renonces of seat {k}: at most {evening.rules.hand_size}, one a trick"
            )
        renonces += [k] * count
    return renonces


def _irregularity_entries(fields: Mapping[str, list[str]]) -> list[dict[str, Any]]:
    """Reads the form's rows of the irregularities of the play (a row without a law is
    skipped): who, under which law, and the hand turned up or his side's tricks when he
    showed; checked by parse_entry and the referee."""
    irregularities = []
    for k in range(IRREGULARITY_ROWS):
        law = _one(fields, f"irr{k}_law", "")
        if not law:
            continue
        item: dict[str, Any] = {"seat": _seat_field(fields, f"irr{k}_seat"), "law": law}
        if law == "turned_hand":
            item["hand"] = _seat_field(fields, f"irr{k}_hand")
        elif law == "shown_cards":
            tricks = _one(fields, f"irr{k}_tricks", "")
            item["side_tricks"] = _int(tricks, "his side's tricks") if tricks else None
        irregularities.append(item)
    return irregularities


def _entered(fields: Mapping[str, list[str]]) -> dict[str, Any]:
    """Returns the scorekeeper's form as typed, to give it back with a refusal: each field's
    value, and the fields given several times (the penalty rows, the items not claimed) as
    lists under ``all``."""
    entered: dict[str, Any] = {k: v[0] for k, v in fields.items() if v}
    entered["all"] = {k: list(v) for k, v in fields.items()}
    return entered


def _penalty_rows(evening: Evening, fields: Mapping[str, list[str]]) -> list[dict[str, Any]]:
    """Reads the form's penalty rows (``penalty_seat`` and ``penalty_fault``, row by row; a
    row left empty is skipped) as ``penalties: [{seat, fault}]``. A row with only one of the
    two is refused (400); the fault is checked against the rules by the scoresheet."""
    seats = fields.get("penalty_seat", [])
    faults = fields.get("penalty_fault", [])
    if len(seats) != len(faults) or len(seats) > 4 * evening.n:
        raise BadRequest("each penalty row is a seat and a fault")
    out: list[dict[str, Any]] = []
    for k, (seat, fault) in enumerate(zip(seats, faults, strict=True), start=1):
        if not seat and not fault:
            continue
        if not seat or not fault:
            raise BadRequest(f"penalty row {k}: give both the seat and the fault, or neither")
        if len(fault) > 200:
            raise BadRequest(f"penalty row {k}: the fault is too long")
        out.append({"seat": _int(seat, f"penalty row {k}'s seat"), "fault": fault})
    return out


def _entry_context(evening: Evening) -> dict[str, Any]:
    """Returns what the form for an evening's next deal asks and offers (the macro
    ``entry_form`` of ``templates/web/_entry.j2``, for an evening and for each table of a
    tournament): the evening's questions, its contracts and cards, the deals so far and the
    version the form is drawn from."""
    rules = evening.rules
    return {
        "evening": evening,
        "rules": rules,
        "count": len(evening.deals),
        "version": evening.version,
        "next_dealer": evening.next_dealer,
        "remainder": evening.table.remainder,
        "asks_trump_holders": evening.asks_trump_holders,
        # The fields of the living family's mechanisms, where the rules have them: a
        # defender's vole (``vole.by: any-seat``) and a tie for the most tricks under a contract
        # every seat plays (``all_play``).
        "defender_vole": any(defender_may_go_on(rules, c) for c in rules.contracts.values()),
        "all_play": [c for c in rules.contracts.values() if c.all_play is not None],
        "irregularity_rows": IRREGULARITY_ROWS,
        "contracts": list(rules.contracts.values()),
        "suits": ["spades", "clubs", "hearts", "diamonds"],
        "callable": evening.callable_cards(),
    }


def _deal_rows(evening: Evening) -> list[dict[str, Any]]:
    """Returns the deals scored, each with its number and the running totals after it."""
    return [
        {"number": k + 1, "deal": d, "running": running}
        for k, (d, running) in enumerate(zip(evening.deals, evening.running_totals(), strict=True))
    ]


def _evening_context(ident: str, evening: Evening) -> dict[str, Any]:
    rules = evening.rules
    table = evening.table
    form = _entry_context(evening)
    return {
        **form,
        "form": form,
        "ident": ident,
        "rows": _deal_rows(evening),
        "totals": evening.totals,
        "pot": table.pot,
        "betes": list(table.betes),
        "redeal": table.redeal,
        "unsaved": None,
        "refusal": None,
        "refusal_section": "settlement",
        "entered": {},
        "all_cards": [str(c) for c in rules.deck(evening.options)],
    }

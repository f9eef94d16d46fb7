"""The HTTP server behind ``ombre serve``: uvicorn, with a deadline for each request.

uvicorn closes a kept-alive connection that stays idle, but holds a request whose head or
body is only half sent for as long as the client likes: a few hundred such connections and the
server answers no one. Here every request must arrive whole (head and body) within
:data:`REQUEST_SECONDS` of its first byte (of the connection, for the first request); a client
that is slower is disconnected. Answering takes as long as it takes: the deadline stops at
the last byte of the request.

A client that stops reading an answer holds the part not yet sent in the server's memory: an
answer whose reader takes none of it for :data:`SEND_SECONDS` is abandoned and its connection
closed, so that what a slow or vanished reader held is given back.

A client (one address) may hold at most :data:`PER_CLIENT` connections at once; a connection
past that is closed as it opens, before a byte is read, so that one machine cannot take the
server's :data:`CONCURRENCY` connections from the others.
"""

from __future__ import annotations

import asyncio
from typing import Any, ClassVar

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

__all__ = ["CONCURRENCY", "PER_CLIENT", "REQUEST_SECONDS", "SEND_SECONDS", "config"]

REQUEST_SECONDS = 10.0
"""How long a client has to send a whole request (head and body)."""
SEND_SECONDS = 30.0
"""How long an answer may wait, unread, with the server's send buffer full (the reader took
nothing in that time): then it is dropped and the connection closed."""
PER_CLIENT = 64
"""The most connections one address may hold at once: a browser opens about six, so a dozen
players behind one router fit; a host that opens hundreds is held to this."""
CONCURRENCY = 512
"""The most connections and requests the server holds at once (uvicorn's limit: past it, 503)."""


class _DeadlineProtocol(H11Protocol):
    """uvicorn's h11 protocol, with a deadline for receiving each request."""

    request_seconds = REQUEST_SECONDS
    send_seconds = SEND_SECONDS
    per_client = PER_CLIENT
    open_by_client: ClassVar[dict[str, int]] = {}
    """The connections open from each address (a dict of each configuration's own class)."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        self._deadline: asyncio.TimerHandle | None = None
        self._deadline_cycle: Any = None
        self._stalled: asyncio.TimerHandle | None = None
        peer = transport.get_extra_info("peername")
        self._client = str(peer[0]) if isinstance(peer, tuple) and peer else ""
        held = self.open_by_client.get(self._client, 0)
        if held >= self.per_client:
            self._client = ""  # not counted: it is closed before it is served
            transport.abort()
            return
        self.open_by_client[self._client] = held + 1
        super().connection_made(transport)
        self._arm()

    def _arm(self) -> None:
        self._disarm()
        self._deadline_cycle = self.cycle
        self._deadline = self.loop.call_later(self.request_seconds, self._expire)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def data_received(self, data: bytes) -> None:
        if self.transport is None:  # refused as it opened
            return
        # The first bytes of a new request on a kept-alive connection start its deadline.
        if self._deadline is None and (self.cycle is None or self.cycle.response_complete):
            self._arm()
        super().data_received(data)

    def pause_writing(self) -> None:
        # The send buffer is full: the reader has SEND_SECONDS to take some of it.
        if self.transport is None:  # refused as it opened
            return
        super().pause_writing()
        if self._stalled is None:
            self._stalled = self.loop.call_later(self.send_seconds, self._abandon)

    def resume_writing(self) -> None:
        if self._stalled is not None:
            self._stalled.cancel()
            self._stalled = None
        if self.transport is not None:
            super().resume_writing()

    def _abandon(self) -> None:
        """Drops an answer nobody reads: the buffered part is freed with the connection."""
        self._stalled = None
        if self.transport is not None and not self.transport.is_closing():
            self.transport.abort()

    def on_response_complete(self) -> None:
        self._disarm()
        super().on_response_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        if self._stalled is not None:
            self._stalled.cancel()
            self._stalled = None
        if self._client:
            left = self.open_by_client.get(self._client, 1) - 1
            if left > 0:
                self.open_by_client[self._client] = left
            else:
                self.open_by_client.pop(self._client, None)
            self._client = ""
        if self.transport is not None:  # else refused as it opened: uvicorn never saw it
            super().connection_lost(exc)

    def _expire(self) -> None:
        self._deadline = None
        cycle = self.cycle
        head_missing = cycle is self._deadline_cycle or cycle is None
        body_missing = cycle is not None and cycle.more_body and not cycle.response_complete
        if not (head_missing or body_missing) or self.transport.is_closing():
            return  # the request is in: the application is answering it
        if cycle is not None and not cycle.response_complete:
            cycle.disconnected = True
            cycle.message_event.set()
        self.transport.close()


def config(
    app: Any,
    host: str,
    port: int,
    *,
    request_seconds: float = REQUEST_SECONDS,
    send_seconds: float = SEND_SECONDS,
    per_client: int = PER_CLIENT,
    log_level: str = "warning",
) -> uvicorn.Config:
    """Returns the uvicorn configuration ``ombre serve`` runs (the tests' live server too)."""
    protocol = type(
        "DeadlineProtocol",
        (_DeadlineProtocol,),
        {
            "request_seconds": request_seconds,
            "send_seconds": send_seconds,
            "per_client": per_client,
            "open_by_client": {},
        },
    )
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        http=protocol,
        log_level=log_level,
        timeout_keep_alive=5,
        limit_concurrency=CONCURRENCY,
        server_header=False,
    )

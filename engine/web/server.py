"""The HTTP server behind ``ombre serve``: uvicorn, with a deadline for each request.

uvicorn closes a kept-alive connection that stays idle, but holds a request whose head or
body is only half sent for as long as the client likes: a few hundred such connections and the
server answers no one. Here every request must arrive whole (head and body) within
:data:`REQUEST_SECONDS` of its first byte (of the connection, for the first request); a client
that is slower is disconnected. Answering takes as long as it takes: the deadline stops at
the last byte of the request.
"""

from __future__ import annotations

import asyncio
from typing import Any

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

__all__ = ["REQUEST_SECONDS", "config"]

REQUEST_SECONDS = 10.0
"""How long a client has to send a whole request (head and body)."""


class _DeadlineProtocol(H11Protocol):
    """uvicorn's h11 protocol, with a deadline for receiving each request."""

    request_seconds = REQUEST_SECONDS

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        self._deadline: asyncio.TimerHandle | None = None
        self._deadline_cycle: Any = None
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
        # The first bytes of a new request on a kept-alive connection start its deadline.
        if self._deadline is None and (self.cycle is None or self.cycle.response_complete):
            self._arm()
        super().data_received(data)

    def on_response_complete(self) -> None:
        self._disarm()
        super().on_response_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
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
    log_level: str = "warning",
) -> uvicorn.Config:
    """Returns the uvicorn configuration ``ombre serve`` runs (the tests' live server too)."""
    protocol = type("DeadlineProtocol", (_DeadlineProtocol,), {"request_seconds": request_seconds})
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        http=protocol,
        log_level=log_level,
        timeout_keep_alive=5,
        limit_concurrency=512,
        server_header=False,
    )

"""Guards that sit in front of the whole application: open WebSockets per address, the
sockets of another site's pages, and what a socket's end leaves in the log.

Rate limits of single calls (log-ins, guests, new requests) are counters the club keeps
(:class:`kozel.server.auth.RateLimit`); a socket holds its place for as long as it stays open,
so the cap is counted here, around the socket's whole life, for the lobby's and the tables'
sockets alike.
"""

from __future__ import annotations

import contextlib
import logging
from collections import Counter

from sqlalchemy.exc import DBAPIError
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect
from websockets.exceptions import ConnectionClosed

log = logging.getLogger("kozel.sockets")

POLICY_VIOLATION = 1008
"""The WebSocket close code of a socket over the limit."""


class SocketsPerAddress:
    """ASGI middleware: at most ``limit`` open WebSockets per client address in this process.

    One more socket is accepted and closed at once with code 1008 and a reason, so that a
    browser sees why (a refusal before the handshake only shows a failed connection)."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit
        self.open: Counter[str] = Counter()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket":
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        address = client[0] if client else "?"
        if self.open[address] >= self.limit:
            socket = WebSocket(scope, receive, send)
            await socket.accept()
            reason = f"too many connections from your address (at most {self.limit})"
            await socket.close(code=POLICY_VIOLATION, reason=reason)
            return
        self.open[address] += 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.open[address] -= 1
            if not self.open[address]:
                del self.open[address]


class SameOriginSockets:
    """ASGI middleware: a WebSocket whose upgrade carries an ``Origin`` naming another host
    than the one it connects to (a page of another site, using the visitor's cookies) is
    accepted and closed at once with code 1008 and a reason, as docs/protocol.md says (a
    refusal of the handshake is an HTTP 403, which a browser shows as a failed connection).
    Programs that send no ``Origin`` are not affected."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket" and foreign_origin(scope):
            socket = WebSocket(scope, receive, send)
            await socket.accept()
            await socket.close(code=POLICY_VIOLATION, reason=FOREIGN)
            return
        await self.app(scope, receive, send)


FOREIGN = "a page of another site may not connect here"


def foreign_origin(scope: Scope) -> bool:
    """Whether the request's ``Origin`` names another host (and port) than its ``Host``."""
    headers: dict[bytes, bytes] = dict(scope.get("headers") or [])
    origin = headers.get(b"origin", b"").decode("latin-1")
    host = headers.get(b"host", b"").decode("latin-1")
    return bool(origin) and origin.split("://", 1)[-1] != host


class QuietSockets:
    """ASGI middleware: a socket handler that fails because its client has gone (a send to a
    closed socket, a disconnect in the middle of an answer) ends quietly: every client that
    closed its socket left an ASGI traceback in uvicorn's log (44 in one outage run). Any
    other failure is logged on one line, and the socket is closed with 1011 if it is still
    open."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket":
            await self.app(scope, receive, send)
            return
        try:
            await self.app(scope, receive, send)
        except (WebSocketDisconnect, ConnectionClosed):
            return  # the client went away: nothing to log
        except RuntimeError as error:
            if "close" in str(error) or "disconnect" in str(error):
                return  # a send after the close: the client went away
            self._failed(scope, error)
            await self._close(send)
        except (DBAPIError, OSError, TimeoutError) as error:  # a service went away mid-answer
            self._failed(scope, error)
            await self._close(send)

    @staticmethod
    def _failed(scope: Scope, error: BaseException) -> None:
        log.warning("socket %s ended: %s: %s", scope.get("path"), type(error).__name__, error)

    @staticmethod
    async def _close(send: Send) -> None:
        with contextlib.suppress(Exception):
            await send({"type": "websocket.close", "code": 1011, "reason": "server error"})

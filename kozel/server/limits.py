"""Per-client limits that sit in front of the whole application: open WebSockets per address.

Rate limits of single calls (log-ins, guests, new requests) are counters the club keeps
(:class:`kozel.server.auth.RateLimit`); a socket holds its place for as long as it stays open,
so the cap is counted here, around the socket's whole life, for the lobby's and the tables'
sockets alike.
"""

from __future__ import annotations

from collections import Counter

from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket

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

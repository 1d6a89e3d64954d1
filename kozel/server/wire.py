"""The WebSocket wire: uvicorn's protocol with compression only where it pays.

A browser offers permessage-deflate and uvicorn accepts it, and then every message is
compressed. A table's event is a few hundred bytes: deflating it and the frame work around
that cost the server more CPU than anything else on a message's way out (docs/benchmarks.md)
and save a phone a few hundred bytes. RFC 7692 lets each message be sent compressed or not
(the RSV1 bit says which), and the compressor's history only holds what it compressed, so a
message below :data:`PLAIN_BELOW` bytes goes out as it is, and a whole state (kilobytes, sent
on connecting) is still compressed. Pass :func:`uvicorn_options` to ``uvicorn.run`` or
``uvicorn.Config``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.exceptions import InvalidState
from websockets.extensions.base import Extension
from websockets.extensions.permessage_deflate import (
    PerMessageDeflate,
    ServerPerMessageDeflateFactory,
)
from websockets.frames import BINARY, TEXT, Frame
from websockets.http11 import Request
from websockets.typing import ExtensionParameter

PLAIN_BELOW = 1024
"""Messages shorter than this many bytes are sent uncompressed: every event of a layout game
(a Goat move's is about 350 bytes), not a whole state."""

MAX_MESSAGE_BYTES = 65536
"""The largest message a client may send."""


class SmallMessagesPlain(PerMessageDeflate):
    """permessage-deflate that leaves a message shorter than :data:`PLAIN_BELOW` as it is."""

    def encode(self, frame: Frame) -> Frame:
        if frame.fin and frame.opcode in (TEXT, BINARY) and len(frame.data) < PLAIN_BELOW:
            return frame  # RSV1 unset: the client reads it as it is
        return super().encode(frame)


class _Negotiation(ServerPerMessageDeflateFactory):
    """uvicorn's permessage-deflate offer (its window and memory settings), answered with
    :class:`SmallMessagesPlain`."""

    def __init__(self) -> None:
        super().__init__(
            server_max_window_bits=12, client_max_window_bits=12, compress_settings={"memLevel": 5}
        )

    def process_request_params(
        self, params: Sequence[ExtensionParameter], accepted_extensions: Sequence[Extension]
    ) -> tuple[list[ExtensionParameter], PerMessageDeflate]:
        response, extension = super().process_request_params(params, accepted_extensions)
        extension.__class__ = SmallMessagesPlain
        return response, extension


class Protocol(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol (websockets, sans-I/O) negotiating
    :class:`SmallMessagesPlain` instead of plain permessage-deflate, and offering the
    application a synchronous write (:meth:`send_now`, found in the scope as
    :data:`SCOPE_KEY`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.config.ws_per_message_deflate:
            self.conn.available_extensions = [_Negotiation()]

    def handle_connect(self, event: Request) -> None:
        super().handle_connect(event)
        if not self.close_sent:  # accepted: the application's task has its scope, not run yet
            self.scope[SCOPE_KEY] = self.send_now  # type: ignore[literal-required]

    def send_now(self, text: str) -> bool:
        """Write a text message to the client now, as the ASGI ``websocket.send`` would,
        without a task or an await; False (nothing written) when that would have to wait
        (the transport's buffer is full) or cannot be done (not open, closing, gone)."""
        if (
            self.disconnected
            or self.close_sent
            or not self.handshake_complete
            or self.initial_response is not None
            or not self.writable.is_set()
            or self.transport.is_closing()
        ):
            return False
        try:
            self.conn.send_text(text.encode())
        except InvalidState:
            return False
        self.transport.write(b"".join(self.conn.data_to_send()))
        return True


SCOPE_KEY = "kozel.send_now"
"""The scope's key of a socket's synchronous write (:meth:`Protocol.send_now`), when the
server runs :class:`Protocol`."""


def direct_writer(scope: Mapping[str, Any]) -> Callable[[str], bool] | None:
    """The socket's synchronous write, or ``None`` when its server offers none (another
    uvicorn protocol, a test client)."""
    send: Callable[[str], bool] | None = scope.get(SCOPE_KEY)
    return send


def uvicorn_options() -> dict[str, Any]:
    """The WebSocket options of every uvicorn serving the club."""
    return {"ws": Protocol, "ws_max_size": MAX_MESSAGE_BYTES}

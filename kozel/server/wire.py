"""The WebSocket wire: uvicorn's protocol with compression only where it pays.

A browser offers permessage-deflate and uvicorn accepts it, and then every message is
compressed. A table's event is a few hundred bytes: deflating it and the frame work around
that cost the server more CPU than anything else on a message's way out (docs/benchmarks.md)
and save a phone a few hundred bytes. RFC 7692 lets each message be sent compressed or not
(the RSV1 bit says which), and the compressor's history only holds what it compressed, so a
message below :data:`PLAIN_BELOW` bytes goes out as it is, and a whole state (kilobytes, sent
on connecting) is still compressed. Pass :func:`uvicorn_options` to ``uvicorn.run`` or
``uvicorn.Config``.

The protocol also lets the application write a message without a task (:func:`direct_writer`)
and take each message as it is read, without a coroutine waiting for it
(:func:`direct_reader`): uvicorn hands a message to the application through a queue that the
socket's coroutine awaits, and that coroutine's chain (starlette's ``receive``, uvicorn's,
the queue's, their futures) is made again for every message and lives until the next one,
seconds later. At 1,000 tables those chains were a third of the objects the cyclic garbage
collector's young collections had to look at, and each such collection stopped every table
for 100 to 175 ms (docs/benchmarks.md).

And it pings only a client that has been silent: uvicorn's keepalive pings every socket at
every interval, and a socket that has just written a move needs no proof that its client is
there (:meth:`Protocol.send_keepalive_ping`).
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
        self.on_message: Callable[[str | None], bool] | None = None
        self.heard = 0
        """Reads from the client so far (any data: messages, pings, pongs)."""
        self.heard_at_ping = 0
        """:attr:`heard` when the keepalive's timer last fired."""

    def data_received(self, data: bytes) -> None:
        self.heard += 1
        super().data_received(data)

    def send_keepalive_ping(self) -> None:
        """uvicorn pings every socket every ``ws_ping_interval`` seconds and closes it when
        the pong is late: a client gone without a word (a phone out of reach) is found so.
        A client that has written since the timer last fired is not gone: it is not pinged
        then, and the timer is set again. At 1,000 tables every socket moves every few
        seconds, and the pings (200 a second, each a write and a pong to read) went for
        nothing (docs/benchmarks.md)."""
        silent = self.heard == self.heard_at_ping
        self.heard_at_ping = self.heard
        if silent:
            super().send_keepalive_ping()
            return
        self.ping_timer = None
        if not self.close_sent and not self.transport.is_closing():
            self.schedule_ping()

    def handle_connect(self, event: Request) -> None:
        super().handle_connect(event)
        if not self.close_sent:  # accepted: the application's task has its scope, not run yet
            self.scope[SCOPE_KEY] = self.send_now  # type: ignore[literal-required]
            self.scope[READER_KEY] = self.read_directly  # type: ignore[literal-required]

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        # the scope and the reader hold this protocol's methods, and it holds them: cycles
        # that outlived every closed socket until a full collection (a hundred objects a
        # socket); broken here, reference counting frees a closed socket's objects
        self.on_message = None
        scope = getattr(self, "scope", None)
        if scope is not None:
            scope.pop(SCOPE_KEY, None)
            scope.pop(READER_KEY, None)

    def read_directly(self, on_message: Callable[[str | None], bool]) -> Callable[[], None]:
        """From now on hand each message to ``on_message`` as it is read (its text, or
        ``None`` for a binary message) instead of queueing it for the ASGI ``receive``, which
        still says when the client is gone. When ``on_message`` answers False, reading stops
        until the function returned here is called."""
        self.on_message = on_message
        return self._resume_reading

    def send_receive_event_to_app(self) -> None:
        on_message = self.on_message
        if on_message is None or self.close_sent:
            super().send_receive_event_to_app()
            return
        data = self.frames[0] if len(self.frames) == 1 else b"".join(self.frames)
        self.frames = []
        text = None
        if self.curr_msg_data_type == "text":
            try:
                text = data.decode()
            except UnicodeDecodeError:  # as uvicorn does
                self.logger.exception("Invalid UTF-8 sequence received from client.")
                self.conn.send_close(1007)
                self.handle_parser_exception()
                return
        if not on_message(text) and not self.read_paused:
            self.read_paused = True
            self.transport.pause_reading()

    def _resume_reading(self) -> None:
        if self.read_paused and not self.transport.is_closing():
            self.read_paused = False
            self.transport.resume_reading()

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


READER_KEY = "kozel.read_directly"
"""The scope's key of :meth:`Protocol.read_directly`, when the server runs :class:`Protocol`."""


def direct_reader(
    scope: Mapping[str, Any],
) -> Callable[[Callable[[str | None], bool]], Callable[[], None]] | None:
    """The socket's way to take each message as it is read (:meth:`Protocol.read_directly`),
    or ``None`` when its server offers none (another uvicorn protocol, a test client)."""
    read: Callable[[Callable[[str | None], bool]], Callable[[], None]] | None = scope.get(
        READER_KEY
    )
    return read


def uvicorn_options() -> dict[str, Any]:
    """The WebSocket options of every uvicorn serving the club."""
    return {"ws": Protocol, "ws_max_size": MAX_MESSAGE_BYTES}

"""The WebSocket wire (kozel.server.wire): a small message goes out uncompressed, a large one
compressed, on one connection whose compressor keeps its history; a real client reads both;
a closed socket's objects are freed without the cyclic collector; the keepalive pings only a
client that has been silent."""

from __future__ import annotations

import gc
import json
import time
import weakref
import zlib
from collections.abc import Callable, Sequence

import uvicorn
from uvicorn.server import ServerState
from websockets.client import ClientProtocol
from websockets.extensions.base import Extension
from websockets.extensions.permessage_deflate import (
    ClientPerMessageDeflateFactory,
    PerMessageDeflate,
)
from websockets.frames import PING, TEXT, Frame
from websockets.protocol import State
from websockets.server import ServerProtocol
from websockets.sync.client import connect
from websockets.typing import ExtensionParameter
from websockets.uri import parse_uri

from kozel.server.wire import PLAIN_BELOW, Protocol, SmallMessagesPlain, _Negotiation
from tests.server.client import Player, play_to_the_end
from tests.server.conftest import RunningServer
from tests.server.test_events import GAME


def negotiated() -> tuple[PerMessageDeflate, PerMessageDeflate]:
    """The server's extension and a client's, as a browser's offer makes them."""
    client = ClientPerMessageDeflateFactory(client_max_window_bits=True)
    offer = client.get_request_params()
    answer, server = _Negotiation().process_request_params(offer, [])
    return server, client.process_response_params(answer, [])


def test_small_messages_go_plain_and_large_ones_compressed_on_one_history() -> None:
    server, client = negotiated()
    assert isinstance(server, SmallMessagesPlain)
    event = json.dumps({"type": "event", "patch": [["/view/hand/3"]]}).encode()
    state = json.dumps({"type": "state", "history": ["6-6", "6-5"] * 200}).encode()
    assert len(event) < PLAIN_BELOW <= len(state)
    for data in [state, event, state, event, event, state]:
        sent = server.encode(Frame(TEXT, data))
        assert sent.rsv1 == (len(data) >= PLAIN_BELOW)
        if sent.rsv1:
            assert len(sent.data) < len(data) / 4  # the later states lean on the history
        assert client.decode(sent).data == data


def test_the_browsers_offer_is_still_answered_with_compression() -> None:
    """What uvicorn offered before: windows of 2**12 bytes, so the client's memory is small."""
    server, _ = negotiated()
    assert server.local_max_window_bits == 12
    compressed = server.encode(Frame(TEXT, b"x" * 5000))
    assert zlib.decompressobj(-12).decompress(compressed.data + b"\x00\x00\xff\xff") == b"x" * 5000


class Recording(PerMessageDeflate):
    """A client's permessage-deflate that notes each message's size, whether it came
    compressed, and its type."""

    seen: list[tuple[int, bool, str]]

    def decode(self, frame: Frame, *, max_size: int | None = None) -> Frame:
        compressed = frame.rsv1
        frame = super().decode(frame, max_size=max_size)
        if frame.opcode == TEXT:
            self.seen.append((len(frame.data), compressed, json.loads(frame.data)["type"]))
        return frame


class RecordingOffer(ClientPerMessageDeflateFactory):
    def __init__(self, seen: list[tuple[int, bool, str]]) -> None:
        super().__init__(client_max_window_bits=True)
        self.seen = seen

    def process_response_params(
        self, params: Sequence[ExtensionParameter], accepted_extensions: Sequence[Extension]
    ) -> PerMessageDeflate:
        extension = super().process_response_params(params, accepted_extensions)
        extension.__class__ = Recording
        assert isinstance(extension, Recording)
        extension.seen = self.seen
        return extension


def test_a_browsers_socket_gets_the_state_compressed_and_the_events_plain(
    server: RunningServer,
) -> None:
    """A client offering permessage-deflate as a browser does plays a game to its end and
    asks for the whole state again: the events below the limit come as they are, the whole
    state compressed, every message compressed exactly when it is over the limit, and all
    reach it intact."""
    alice = Player(server.url, server.ws)
    alice.guest()
    game_id = alice.post("/api/play/computer", GAME).json()["game_id"]
    seen: list[tuple[int, bool, str]] = []
    cookie = "; ".join(f"{k}={v}" for k, v in alice.http.cookies.items())
    url = f"{server.ws}/ws/games/{game_id}"
    with connect(
        url, additional_headers={"Cookie": cookie}, extensions=[RecordingOffer(seen)]
    ) as sock:
        final = play_to_the_end(sock)
        played = len(seen)
        # the whole state again: a finished game's (its rounds, the hands shown) is well over
        # the limit, where the state the socket opened with may not be (a socket can open
        # before the first deal, and the state then is a few hundred bytes)
        sock.send(json.dumps({"type": "sync"}))
        while json.loads(sock.recv(timeout=20))["type"] != "state":
            pass  # a word that came first (who is connected, a rematch offer)
    assert final["status"] == "finished"
    # how many moves the game took is the deal's affair, not this test's
    assert any(kind == "event" and not compressed for _, compressed, kind in seen), seen
    whole_size, whole_compressed, _ = next(m for m in seen[played:] if m[2] == "state")
    assert whole_compressed and whole_size >= PLAIN_BELOW, seen[played:]
    assert all(compressed == (size >= PLAIN_BELOW) for size, compressed, _ in seen), seen


def test_a_closed_socket_is_freed_by_reference_counting(server: RunningServer) -> None:
    """Its protocol, the scope and the reader held each other (cycles that outlived a closed
    socket until a full collection, which ``kozel serve`` makes rare): once the client is
    gone, nothing keeps them, with the cyclic collector off (the server runs in a thread
    of this process)."""
    alice = Player(server.url, server.ws)
    alice.guest()
    game_id = alice.post("/api/play/computer", GAME).json()["game_id"]
    path = f"/ws/games/{game_id}"
    gc.disable()
    try:
        with alice.socket(game_id) as sock:
            json.loads(sock.recv(timeout=20))
            ours = [
                weakref.ref(obj)
                for obj in gc.get_objects()
                if type(obj) is Protocol and getattr(obj, "scope", {}).get("path") == path
            ]
            assert len(ours) == 1
        deadline = time.monotonic() + 20
        while ours[0]() is not None and time.monotonic() < deadline:
            time.sleep(0.05)  # the server's handler of the socket ends
        assert ours[0]() is None
    finally:
        gc.enable()


class Clock:
    """An event loop's timers without time passing: :meth:`fire` runs the earliest."""

    def __init__(self) -> None:
        self.timers: list[tuple[float, Callable[[], None], Handle]] = []

    def time(self) -> float:
        return 0.0

    def call_later(self, delay: float, callback: Callable[[], None]) -> Handle:
        handle = Handle()
        self.timers.append((delay, callback, handle))
        return handle

    def fire(self) -> float:
        """Run the earliest live timer; its delay."""
        live = [timer for timer in self.timers if not timer[2].cancelled]
        delay, callback, handle = min(live, key=lambda timer: timer[0])
        self.timers.remove((delay, callback, handle))
        callback()
        return delay


class Handle:
    cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class Transport:
    def __init__(self) -> None:
        self.written: list[bytes] = []
        self.closed = False

    def write(self, data: bytes) -> None:
        self.written.append(data)

    def is_closing(self) -> bool:
        return self.closed

    def close(self) -> None:
        self.closed = True

    def get_extra_info(self, name: str) -> None:
        return None

    def pause_reading(self) -> None:
        pass


def test_a_client_that_wrote_since_the_last_ping_is_not_pinged() -> None:
    """The keepalive pings a socket only when the client has been silent for a whole
    interval; one that writes (its moves, the browser's own pings) is never pinged, and a
    silent one still is and still has to answer."""
    config = uvicorn.Config(lambda scope, receive, send: None, ws_ping_interval=20.0)
    config.load()
    clock = Clock()
    protocol = Protocol(config, ServerState(), {}, _loop=clock)
    transport = Transport()
    protocol.connection_made(transport)  # type: ignore[arg-type]
    protocol.conn = ServerProtocol(state=State.OPEN)  # as after the handshake
    protocol.handshake_complete = True
    client = ClientProtocol(parse_uri("ws://club/ws/lobby"), state=State.OPEN)

    def client_says(send: Callable[[], None]) -> None:
        send()
        protocol.data_received(b"".join(client.data_to_send()))

    def pings() -> list[Frame]:
        client.receive_data(b"".join(transport.written))
        transport.written.clear()
        return [e for e in client.events_received() if isinstance(e, Frame) and e.opcode == PING]

    protocol.start_keepalive()
    for _ in range(3):  # the client writes within every interval: no ping, the timer again
        client_says(lambda: client.send_text(b'{"type":"ping"}'))
        assert clock.fire() == 20.0
        assert pings() == []
    assert clock.fire() == 20.0  # a silent interval: pinged
    assert len(pings()) == 1
    assert protocol.pong_timer is not None  # and closed if it does not answer in time
    client_says(lambda: None)  # the client answered the ping (its protocol did)
    assert protocol.pong_timer is None and protocol.pending_ping_payload is None
    assert clock.fire() == 20.0  # the pong was heard in that interval
    assert pings() == []
    assert clock.fire() == 20.0
    assert len(pings()) == 1
    assert not transport.closed

"""A table socket takes its messages as uvicorn's protocol reads them (kozel.server.wire's
``read_directly``, routes/sockets.py's ``Inbound``): no coroutine waits for the next message,
so a quiet socket keeps nothing younger than its connection; the messages are still handled
one at a time and in order, and a message whose handling fails closes the socket as an
exception out of its coroutine did."""

from __future__ import annotations

import gc
import inspect
import json
from collections.abc import Iterator
from types import CoroutineType
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from kozel.server.routes import sockets
from tests.server.client import Player, receive
from tests.server.conftest import RunningServer
from tests.server.test_events import GAME


def waits_for_a_message() -> list[CoroutineType[Any, Any, Any]]:
    """The server's coroutines waiting in starlette's ``WebSocket.receive`` (the server runs
    in a thread of this process)."""
    return [
        obj
        for obj in gc.get_objects()
        # type(), not isinstance(): asking a dead weak proxy for its class raises
        if type(obj) is CoroutineType and obj.__qualname__ == "WebSocket.receive"
    ]


@pytest.fixture
def seat(server: RunningServer) -> Iterator[Any]:
    alice = Player(server.url, server.ws)
    alice.guest()
    game_id = alice.post("/api/play/computer", GAME).json()["game_id"]
    with alice.socket(game_id) as sock:
        state = receive(sock)
        while state.get("view", {}).get("turn") != state["you"]:  # the table waits for alice
            state = receive(sock)
        yield sock


def answer(sock: Any) -> dict[str, Any]:
    """The next message that answers one of the seat's (not the table's events)."""
    while True:
        message: dict[str, Any] = json.loads(sock.recv(timeout=20))
        if message["type"] != "event":
            return message


def test_a_socket_keeps_one_wait_for_its_close_and_none_for_its_messages(seat: Any) -> None:
    before = waits_for_a_message()
    assert len(before) == 1  # the socket's coroutine, waiting for the client to go
    for _ in range(3):
        seat.send(json.dumps({"type": "ping"}))
        assert answer(seat)["type"] == "pong"
    after = waits_for_a_message()
    # the same coroutine, still waiting: the pings did not go through it (a socket that
    # awaits each message makes a new one for each and finishes the one before)
    assert after == before
    assert inspect.getcoroutinestate(after[0]) == inspect.CORO_SUSPENDED


def test_messages_sent_at_once_are_answered_in_their_order(seat: Any) -> None:
    burst = ["ping", "sync", "ping", "nonsense", "ping", "sync"]
    for kind in burst:
        seat.send(json.dumps({"type": kind}))
    answers = [answer(seat) for _ in burst]
    kinds = [a["code"] if a["type"] == "error" else a["type"] for a in answers]
    assert kinds == ["pong", "state", "pong", "unknown_type", "pong", "state"]


def test_a_message_whose_handling_fails_closes_the_socket(
    seat: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def failing(self: sockets.TableMessage, text: str | None) -> None:
        raise RuntimeError("a fault of the server's")

    monkeypatch.setattr(sockets.TableMessage, "handle", failing)
    seat.send(json.dumps({"type": "ping"}))
    with pytest.raises(ConnectionClosed) as closed:
        answer(seat)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1011


@pytest.fixture
def turn(server: RunningServer) -> Iterator[tuple[Any, dict[str, Any]]]:
    """A seat's socket when it is that seat's turn, and the state it holds then."""
    alice = Player(server.url, server.ws)
    alice.guest()
    game_id = alice.post("/api/play/computer", GAME).json()["game_id"]
    with alice.socket(game_id) as sock:
        state = receive(sock)
        while state.get("view", {}).get("turn") != state["you"]:
            state = receive(sock)  # (a missed version is asked for again: a sync)
        sock.send(json.dumps({"type": "ping"}))  # answered after any sync sent before it
        while json.loads(sock.recv(timeout=20))["type"] != "pong":
            pass
        yield sock, state


def test_a_move_is_queued_at_its_table_as_it_is_read(
    turn: tuple[Any, dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A well-formed move goes to its table without the handler of the other messages: its
    event comes, and a refused one is answered."""
    sock, state = turn
    handled: list[str | None] = []
    handle = sockets.TableMessage.handle

    async def counted(self: sockets.TableMessage, text: str | None) -> None:
        handled.append(text)
        await handle(self, text)

    monkeypatch.setattr(sockets.TableMessage, "handle", counted)
    move = state["view"]["legal_moves"][0]
    sock.send(json.dumps({"type": "move", "version": state["version"], "move": move}))
    event = json.loads(sock.recv(timeout=20))
    assert (event["type"], event["version"]) == ("event", state["version"] + 1)
    assert handled == []
    # the same move again, against the version it was made on: refused as stale, with the
    # table's state (read before the first move's verdict was in, it waits for it and
    # takes the other way)
    sock.send(json.dumps({"type": "move", "version": state["version"], "move": move}))
    refused = answer(sock)
    assert (refused["type"], refused["code"]) == ("error", "stale")
    assert answer(sock)["type"] == "state"


def test_messages_read_while_a_move_waits_for_its_verdict_come_after_it(
    turn: tuple[Any, dict[str, Any]],
) -> None:
    sock, state = turn
    illegal = {"type": "move", "version": state["version"], "move": {"play": "9-9"}}
    burst = [illegal, {"type": "ping"}, {"type": "sync"}, {"type": "ping"}]
    for message in burst:
        sock.send(json.dumps(message))
    answers = [answer(sock) for _ in burst]
    kinds = [a["code"] if a["type"] == "error" else a["type"] for a in answers]
    assert kinds[0] in ("illegal", "bad_move")
    assert kinds[1:] == ["pong", "state", "pong"]

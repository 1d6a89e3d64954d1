"""What the club answers and logs when something goes wrong around a request or a socket:
a foreign page's socket, a failure behind an HTTP answer, a client that goes away."""

from __future__ import annotations

import json
import logging
import socket
import time
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests.server.client import Player, receive
from tests.server.conftest import RunningServer


@pytest.mark.parametrize("path", ["/ws/lobby", "/ws/games/1", "/ws/tournaments/1"])
def test_a_socket_from_another_site_is_closed_with_1008(server: RunningServer, path: str) -> None:
    """The handshake was refused with HTTP 403 where docs/protocol.md says close 1008 (a
    browser shows a 403 as a failed connection, with no reason)."""
    evil = {"Origin": "https://evil.example"}
    with (
        connect(server.ws + path, additional_headers=evil) as sock,
        pytest.raises(ConnectionClosed) as closed,
    ):
        sock.recv(timeout=10)
    assert closed.value.rcvd is not None
    assert closed.value.rcvd.code == 1008
    assert "another site" in closed.value.rcvd.reason
    with connect(server.ws + "/ws/lobby", additional_headers={"Origin": server.url}) as own:
        assert receive(own)["type"] == "requests"


def exchange(sock: socket.socket, host: str, path: str) -> tuple[int, dict[str, Any]]:
    """One HTTP/1.1 request on a kept-alive connection: the status and the JSON body."""
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        assert chunk, "the server closed the connection"
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode().split("\r\n")
    length = next(int(x.split(":")[1]) for x in lines if x.lower().startswith("content-length"))
    while len(body) < length:
        chunk = sock.recv(65536)
        assert chunk, "the server closed the connection"
        body += chunk
    return int(lines[0].split()[1]), json.loads(body)


def test_a_500_or_503_keeps_the_connection_alive(server: RunningServer) -> None:
    """After a 500 or a 503 the server reset the client's kept-alive connection (Starlette
    re-raised the error after answering, and uvicorn closed the connection)."""
    club = server.server.config.app.state.club  # type: ignore[attr-defined]
    answers: list[BaseException] = [ConnectionRefusedError(111, "refused"), KeyError("bug")]

    async def failing(*_: object) -> list[dict[str, Any]]:
        raise answers.pop(0)

    club.queries.leaderboard = failing
    address = urlsplit(server.url)
    with socket.create_connection((address.hostname, address.port), timeout=10) as sock:
        host = address.netloc
        assert exchange(sock, host, "/api/leaderboard") == (
            503,
            {
                "detail": "the club's database is unavailable: try again in a moment",
                "code": "unavailable",
                "params": {},
            },
        )
        status, body = exchange(sock, host, "/api/leaderboard")
        assert (status, body["code"]) == (500, "server_error")
        status, _ = exchange(sock, host, "/api/rules")  # the same connection, still open
        assert status == 200


@pytest.fixture
def uvicorn_errors() -> Iterator[list[logging.LogRecord]]:
    records: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record)

    keep = Keep()
    logger = logging.getLogger("uvicorn.error")
    logger.addHandler(keep)
    try:
        yield records
    finally:
        logger.removeHandler(keep)


def test_clients_that_go_away_leave_no_traceback(
    server: RunningServer, uvicorn_errors: list[logging.LogRecord]
) -> None:
    """Every test client that closed its socket left an ASGI traceback in the log (a send
    to the closed socket raised out of the handler)."""
    alice = Player(server.url, server.ws)
    assert alice.guest().status_code == 200
    game = alice.post("/api/play/computer", {"game": "goat", "level": "random"}).json()
    for _ in range(3):
        with alice.socket(game["game_id"]) as sock:
            receive(sock)
            sock.send(json.dumps({"type": "sync"}))  # answered after the client has gone
        with alice.lobby() as lobby:
            receive(lobby)
            lobby.send(json.dumps({"type": "ping"}))
    time.sleep(1.0)
    tracebacks = [r.getMessage() for r in uvicorn_errors if r.exc_info]
    assert tracebacks == []

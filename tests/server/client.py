"""A small synchronous client of the club for tests: HTTP with a session, a table socket."""

from __future__ import annotations

import json
import ssl
import threading
import weakref
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect

from kozel import patch

LOCAL_TLS = ssl.create_default_context()
"""The one TLS context of the tests' HTTP clients. They speak plain HTTP to 127.0.0.1, yet
httpx builds a context for every client it makes (``httpx.get`` makes one a call) and loads
the system's certificate authorities into it: 18 ms of CPU each time, a minute of the suite."""


def http_get(url: str, **options: Any) -> httpx.Response:
    """``httpx.get`` with the tests' one TLS context (:data:`LOCAL_TLS`)."""
    return httpx.get(url, verify=LOCAL_TLS, **options)  # noqa: TID251


def http_post(url: str, **options: Any) -> httpx.Response:
    """``httpx.post`` with the tests' one TLS context (:data:`LOCAL_TLS`)."""
    return httpx.post(url, verify=LOCAL_TLS, **options)  # noqa: TID251


class Player:
    def __init__(self, base: str, ws: str) -> None:
        self.http = httpx.Client(base_url=base, timeout=30, verify=LOCAL_TLS)
        self.ws = ws
        self.csrf = ""
        self.name = ""

    def _opened(self, response: httpx.Response) -> httpx.Response:
        if response.status_code == 200:
            self.csrf = response.json()["csrf"]
            self.name = response.json()["name"]
        return response

    def register(self, name: str, password: str = "correct horse") -> httpx.Response:
        return self._opened(
            self.http.post("/api/auth/register", json={"name": name, "password": password})
        )

    def login(self, name: str, password: str = "correct horse") -> httpx.Response:
        return self._opened(
            self.http.post("/api/auth/login", json={"name": name, "password": password})
        )

    def guest(self) -> httpx.Response:
        return self._opened(self.http.post("/api/auth/guest"))

    def post(self, path: str, body: dict[str, Any] | None = None) -> httpx.Response:
        return self.http.post(path, json=body or {}, headers={"X-CSRF-Token": self.csrf})

    def socket(self, game_id: int) -> ClientConnection:
        return self._connect(f"/ws/games/{game_id}")

    def lobby(self) -> ClientConnection:
        return self._connect("/ws/lobby")

    def _connect(self, path: str) -> ClientConnection:
        cookie = "; ".join(f"{k}={v}" for k, v in self.http.cookies.items())
        return connect(f"{self.ws}{path}", additional_headers={"Cookie": cookie})


class Held:
    """The state a client of the table socket holds, kept as the protocol says: a whole
    ``state`` replaces it, an ``event`` that follows it (the next version) is applied to it,
    ``presence``, ``next_round`` and ``rematch`` messages change their members."""

    def __init__(self) -> None:
        self.state: dict[str, Any] | None = None

    def take(self, message: dict[str, Any]) -> dict[str, Any] | None:
        """The state ``message`` leads to, when it is a state or an event that follows the
        held state (``None`` for other messages and for an event after a missed version)."""
        kind, held = message.get("type"), self.state
        if kind == "state":
            self.state = message
            return message
        if kind == "event":
            if held is None or message["version"] != held["version"] + 1:
                return None
            self.state = {**patch.apply(held, message["patch"]), "version": message["version"]}
            return self.state
        if kind in ("presence", "next_round") and held is not None:
            members = {k: v for k, v in message.items() if k not in ("type", "game", "version")}
            self.state = {**held, **({"next_round": members} if kind == "next_round" else members)}
        if kind == "rematch" and held is not None:
            self.state = {**held, "rematch": message["rematch"]}
        return None


_held: weakref.WeakKeyDictionary[ClientConnection, Held] = weakref.WeakKeyDictionary()


def receive(sock: ClientConnection, timeout: float = 20) -> dict[str, Any]:
    """The next message on a table (or lobby) socket. An event comes as the whole state it
    leads to (the state this socket held, patched), so that a test reads states as a client
    holds them; an event after a missed version asks for the state again (``sync``) and is
    not returned."""
    held = _held.setdefault(sock, Held())
    while True:
        message: dict[str, Any] = json.loads(sock.recv(timeout=timeout))
        state = held.take(message)
        if state is not None:
            return state
        if message.get("type") == "event":
            if held.state is None or message["version"] > held.state["version"]:
                sock.send(json.dumps({"type": "sync"}))
            continue
        return message


def play_to_the_end(
    sock: ClientConnection, log: list[dict[str, Any]] | None = None, stop_after: int | None = None
) -> dict[str, Any]:
    """Answer every state in which this seat is to move with its first legal move, until the
    game is over (or ``stop_after`` moves were sent); returns the last state seen."""
    seen = -1
    sent = 0
    last: dict[str, Any] = {}
    while True:
        message = receive(sock)
        if log is not None:
            log.append(message)
        if message["type"] != "state" or message["version"] <= seen:
            continue
        seen = message["version"]
        last = message
        if message["status"] != "playing":
            return last
        view = message.get("view")
        if view and view["turn"] == message["you"] and view["legal_moves"]:
            if stop_after is not None and sent >= stop_after:
                return last
            move = view["legal_moves"][0]
            sock.send(json.dumps({"type": "move", "version": seen, "move": move}))
            sent += 1


def in_thread(target: Any, *args: Any) -> tuple[threading.Thread, list[Any]]:
    out: list[Any] = []
    thread = threading.Thread(target=lambda: out.append(target(*args)), daemon=True)
    thread.start()
    return thread, out

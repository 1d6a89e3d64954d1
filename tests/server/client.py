"""A small synchronous client of the club for tests: HTTP with a session, a table socket."""

from __future__ import annotations

import json
import threading
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect


class Player:
    def __init__(self, base: str, ws: str) -> None:
        self.http = httpx.Client(base_url=base, timeout=30)
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


def receive(sock: ClientConnection, timeout: float = 20) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(sock.recv(timeout=timeout))
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

"""The lobby at scale (issue #10, item 5). The finding: every lobby change re-sent the whole
list of open requests to every watcher (175 KiB a message; one watcher received 100 MB over
1,000 changes). Now a change goes out as the one request it changed, numbered by a version
that every process of the club shares, and a client that misses a change asks for a snapshot.
"""

from __future__ import annotations

import dataclasses
import json
import os
from collections.abc import Iterator
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect

from kozel.server.settings import Settings
from tests.server.client import Player, http_get, receive
from tests.server.conftest import RunningServer

REDIS = os.environ.get("KOZEL_TEST_REDIS", "")
FULL_LIST = 200
"""Open requests in the lobby while it is watched."""


@pytest.fixture
def club(settings: Settings) -> Iterator[RunningServer]:
    """A club where one player may hold every request of a full lobby (and open them fast)."""
    running = RunningServer(
        dataclasses.replace(
            settings, tables_per_player=10 * FULL_LIST, requests_per_minute=10 * FULL_LIST
        )
    )
    try:
        yield running
    finally:
        running.stop()


def guest(server: RunningServer) -> Player:
    player = Player(server.url, server.ws)
    assert player.guest().status_code == 200
    return player


def create(player: Player, game: str = "goat") -> dict[str, Any]:
    response = player.post("/api/requests", {"game": game})
    assert response.status_code == 200, response.text
    request: dict[str, Any] = response.json()
    return request


def open_requests(server: RunningServer) -> list[dict[str, Any]]:
    requests: list[dict[str, Any]] = http_get(server.url + "/api/requests").json()
    return requests


def lobby(server: RunningServer) -> ClientConnection:
    return connect(server.ws + "/ws/lobby")


class Watcher:
    """A lobby client as the browser's (kozel/web/static/lobby.js): it applies a change only
    on top of the version just before it, drops changes it has, and after a gap asks for a
    snapshot. ``texts`` keeps every message as it came."""

    def __init__(self, sock: ClientConnection) -> None:
        self.sock = sock
        self.texts: list[str] = []
        self.syncs = 0
        self.version = -1
        self.requests: dict[int, dict[str, Any]] = {}
        self.syncing = False
        self.take(self.next())

    def next(self) -> dict[str, Any]:
        text = self.sock.recv(timeout=20)
        assert isinstance(text, str)
        self.texts.append(text)
        message: dict[str, Any] = json.loads(text)
        return message

    def take(self, message: dict[str, Any]) -> None:
        if message["type"] == "requests":
            self.version = message["version"]
            self.requests = {r["id"]: r for r in message["requests"]}
            self.syncing = False
        elif message["type"] == "lobby" and message["version"] > self.version:
            if message["version"] == self.version + 1:
                self.version = message["version"]
                request = message["request"]
                if request["status"] == "open":
                    self.requests[request["id"]] = request
                else:
                    self.requests.pop(request["id"], None)
            elif not self.syncing:
                self.sock.send(json.dumps({"type": "sync"}))
                self.syncing = True
                self.syncs += 1

    def until(self, version: int) -> None:
        while self.version < version:
            self.take(self.next())

    def listed(self) -> list[dict[str, Any]]:
        return [self.requests[key] for key in sorted(self.requests)]


def test_a_watcher_of_a_full_lobby_gets_each_change_small(club: RunningServer) -> None:
    alice, bob = guest(club), guest(club)
    ids = [create(alice)["id"] for _ in range(FULL_LIST)]
    with lobby(club) as sock:
        watcher = Watcher(sock)
        snapshot_bytes = len(watcher.texts[0].encode())
        # the version counts every change the club has made: the creations so far
        assert watcher.version == FULL_LIST
        assert len(watcher.requests) == FULL_LIST
        # 200 changes while the list holds 200 requests: bob sits down and stands up again
        for request_id in ids[: FULL_LIST // 2]:
            assert bob.post(f"/api/requests/{request_id}/join").status_code == 200
            assert bob.post(f"/api/requests/{request_id}/leave").status_code == 200
        watcher.until(2 * FULL_LIST)
    changes = [json.loads(text) for text in watcher.texts[1:]]
    sizes = [len(text.encode()) for text in watcher.texts[1:]]
    assert [c["version"] for c in changes] == list(range(FULL_LIST + 1, 2 * FULL_LIST + 1))
    assert {c["type"] for c in changes} == {"lobby"} and watcher.syncs == 0
    assert max(sizes) < 1024, f"a change of {max(sizes)} bytes"
    # the whole list sent on each change would have been 200 snapshots' worth
    assert snapshot_bytes > 50_000
    assert sum(sizes) * 50 < FULL_LIST * snapshot_bytes
    assert watcher.listed() == open_requests(club)


def test_every_kind_of_change_reaches_the_watcher(club: RunningServer) -> None:
    alice, bob = guest(club), guest(club)
    with lobby(club) as sock:
        watcher = Watcher(sock)
        assert (watcher.version, watcher.requests) == (0, {})
        first = create(alice)
        bob.post(f"/api/requests/{first['id']}/join")
        bob.post(f"/api/requests/{first['id']}/leave")
        alice.post(f"/api/requests/{first['id']}/cancel")
        second = create(alice, "draw")
        bob.post(f"/api/requests/{second['id']}/join")
        alice.post(f"/api/requests/{second['id']}/bots", {"level": "random"})
        full = {"game": "goat", "options": {"players": 2}, "bots": {"1": "random"}, "rated": False}
        third = alice.post("/api/requests", full).json()
        assert third["status"] == "started"  # created full: it starts at once
        changes = [watcher.next() for _ in range(8)]
    assert [c["version"] for c in changes] == list(range(1, 9))
    assert [(c["request"]["id"], c["request"]["status"]) for c in changes] == [
        (first["id"], "open"),
        (first["id"], "open"),
        (first["id"], "open"),
        (first["id"], "cancelled"),
        (second["id"], "open"),
        (second["id"], "open"),
        (second["id"], "started"),
        (third["id"], "started"),
    ]
    assert changes[1]["request"]["seats"][1]["name"] == bob.name
    assert changes[6]["request"]["game_id"] is not None
    assert open_requests(club) == []


def test_a_client_that_missed_a_change_asks_for_a_snapshot(club: RunningServer) -> None:
    alice = guest(club)
    create(alice)
    with lobby(club) as sock:
        assert receive(sock)["version"] == 1
        kept = create(alice)
        lost = create(alice)
        alice.post(f"/api/requests/{kept['id']}/cancel")
        assert receive(sock)["version"] == 2
        # version 3, which this client loses: the request as the creator got it, but its
        # link, which the lobby never hears
        assert receive(sock)["request"] == {k: v for k, v in lost.items() if k != "code"}
        gap = receive(sock)
        assert gap["version"] == 4 and gap["request"]["status"] == "cancelled"
        sock.send(json.dumps({"type": "sync"}))
        snapshot = receive(sock)
        assert snapshot == {"type": "requests", "version": 4, "requests": open_requests(club)}
        assert [r["id"] for r in snapshot["requests"]] == [1, lost["id"]]
        # the socket answers pings; anything else is refused and changes nothing
        sock.send(json.dumps({"type": "ping"}))
        assert receive(sock) == {"type": "pong"}
        for text in ('{"type": "join", "request": 1}', "[1]", "not json", "x" * 20_000):
            sock.send(text)
            assert receive(sock)["code"] == "read_only"
        sock.send(b"binary")
        assert receive(sock)["code"] == "read_only"
        # a sync with nothing missed answers the same snapshot
        sock.send(json.dumps({"type": "sync"}))
        assert receive(sock) == snapshot


def test_several_processes_share_one_lobby_version(settings: Settings) -> None:
    """Two servers on one database, each with its own in-memory fan-out: a watcher of one
    sees only its changes, so the other's versions show up as gaps, and a sync brings the
    other's changes."""
    one, two = RunningServer(settings), RunningServer(settings)
    try:
        alice, bob = guest(one), guest(two)
        with lobby(one) as sock:
            watcher = Watcher(sock)
            mine = create(alice)
            assert watcher.next()["version"] == 1
            theirs = create(bob)  # version 2, published in the other process only
            also_mine = create(alice)
            watcher.until(3)
            assert watcher.syncs == 1
        assert [r["id"] for r in watcher.listed()] == [mine["id"], theirs["id"], also_mine["id"]]
        assert watcher.listed() == open_requests(one) == open_requests(two)
    finally:
        one.stop()
        two.stop()


@pytest.mark.skipif(not REDIS, reason="KOZEL_TEST_REDIS is not set")
def test_several_processes_publish_through_redis(settings: Settings) -> None:
    """Two servers on one database and one Redis: a watcher of either sees every change, with
    consecutive versions whichever process made it."""
    shared = dataclasses.replace(settings, pubsub_url=REDIS)
    one, two = RunningServer(shared), RunningServer(shared)
    try:
        alice, bob = guest(one), guest(two)
        with lobby(one) as sock_one, lobby(two) as sock_two:
            watchers = [Watcher(sock_one), Watcher(sock_two)]
            made = [(who, create(who)["id"]) for _ in range(10) for who in (alice, bob)]
            cancelled = made[::3]
            for who, request_id in cancelled:
                assert who.post(f"/api/requests/{request_id}/cancel").status_code == 200
            for watcher in watchers:
                watcher.until(len(made) + len(cancelled))
                assert watcher.listed() == open_requests(one) == open_requests(two)
                assert len(watcher.requests) == len(made) - len(cancelled)
    finally:
        one.stop()
        two.stop()

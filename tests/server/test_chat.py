"""Chat at the tables and in the lobby, as players use it and as an abuser would: a table's
lines reach that table only, watchers read but do not write, lines are checked, limited and
kept for who comes back."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection

from kozel.server.settings import Settings
from tests.server.client import Player, http_get, receive
from tests.server.conftest import RunningServer

PER_MINUTE = 4


@pytest.fixture
def club(settings: Settings) -> Iterator[RunningServer]:
    running = RunningServer(dataclasses.replace(settings, chat_per_minute=PER_MINUTE))
    try:
        yield running
    finally:
        running.stop()


def player(club: RunningServer, name: str) -> Player:
    person = Player(club.url, club.ws)
    assert person.register(name).status_code == 200
    return person


def next_of(sock: ClientConnection, kind: str) -> dict[str, Any]:
    """The next message of a type (states and pongs pass by)."""
    while True:
        message = receive(sock)
        if message["type"] == kind:
            return message


def say(sock: ClientConnection, text: object) -> None:
    sock.send(json.dumps({"type": "chat", "text": text}))


def nothing_said(sock: ClientConnection) -> bool:
    """True when no chat line came before the answer to a ping sent now."""
    sock.send(json.dumps({"type": "ping"}))
    while True:
        message = receive(sock)
        if message["type"] == "pong":
            return True
        if message["type"] == "chat":
            return False


def two_people_at_a_table(club: RunningServer, a: Player, b: Player) -> int:
    request = a.post("/api/requests", {"game": "goat", "options": {"players": 2}}).json()
    started = b.post(f"/api/requests/{request['id']}/join").json()
    game_id: int = started["game_id"]
    return game_id


def test_a_table_chats_and_only_that_table_hears_it(club: RunningServer) -> None:
    alice, bob, carol, dan = (player(club, n) for n in ("alice", "bob", "carol", "dan"))
    game = two_people_at_a_table(club, alice, bob)
    other = two_people_at_a_table(club, carol, dan)
    watcher = Player(club.url, club.ws)
    watcher.guest()
    with (
        alice.socket(game) as a,
        bob.socket(game) as b,
        watcher.socket(game) as w,
        carol.socket(other) as c,
        carol.lobby() as lobby,
    ):
        for sock in (a, b, w, c):
            next_of(sock, "state")
        say(a, "  good luck <b>all</b>\u202e\n ")
        line = next_of(b, "chat")
        assert (line["name"], line["text"], line["room"]) == (
            "alice",
            "good luck <b>all</b>",  # kept as typed; the browser shows it as text
            f"game:{game}",
        )
        assert next_of(a, "chat") == line and next_of(w, "chat") == line
        assert nothing_said(c) and nothing_said(lobby)  # another table, the lobby
        say(w, "I am only watching")
        assert next_of(w, "error")["code"] == "chat_watchers"
        assert nothing_said(a)
    history = http_get(f"{club.url}/api/games/{game}/chat").json()
    assert [(h["name"], h["text"]) for h in history] == [("alice", "good luck <b>all</b>")]
    assert http_get(f"{club.url}/api/games/{other}/chat").json() == []


def test_chat_lines_are_checked_and_limited(club: RunningServer) -> None:
    alice, bob = player(club, "alice"), player(club, "bob")
    game = two_people_at_a_table(club, alice, bob)
    with alice.socket(game) as a, bob.socket(game) as b:
        next_of(a, "state")
        next_of(b, "state")
        for bad in ("x" * 201, "   ", 42, None, ["hi"]):
            say(a, bad)
            error = next_of(a, "error")
            assert (error["code"], error["params"]) == ("chat_bad", {"limit": 200})
        for n in range(PER_MINUTE):
            say(a, f"line {n}")
            assert next_of(b, "chat")["text"] == f"line {n}"
        say(a, "one too many")
        assert next_of(a, "error")["code"] == "chat_too_fast"
        assert nothing_said(b)
        say(b, "bob has his own allowance")
        assert next_of(a, "chat")["name"] == "bob"


def test_the_lobby_chats_among_signed_in_players(club: RunningServer) -> None:
    alice, bob = player(club, "alice"), player(club, "bob")
    anonymous = Player(club.url, club.ws)
    with alice.lobby() as a, bob.lobby() as b, anonymous.lobby() as nobody:
        for sock in (a, b, nobody):
            next_of(sock, "requests")
        say(a, "anyone for a game of Goat?")
        line = next_of(b, "chat")
        assert (line["name"], line["room"]) == ("alice", "lobby")
        assert next_of(nobody, "chat") == line  # read by everyone in the lobby
        assert next_of(a, "chat") == line
        say(nobody, "hello")
        assert next_of(nobody, "error")["code"] == "sign_in"
        assert nothing_said(a)
    assert [h["text"] for h in http_get(f"{club.url}/api/chat").json()] == [
        "anyone for a game of Goat?"
    ]


def test_logging_out_closes_the_lobby_socket_too(club: RunningServer) -> None:
    """A lobby socket belongs to its session: after logging out it cannot chat as the player."""
    alice = player(club, "alice")
    with alice.lobby() as a:
        next_of(a, "requests")
        assert alice.post("/api/auth/logout").status_code == 200
        with pytest.raises(ConnectionClosed):
            while True:
                receive(a, timeout=10)

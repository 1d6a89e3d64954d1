"""A rematch at a game's end (issue #25, item 3): any person at the table offers it; the
same players and house rules at a new table once every person accepts, the seats moved one
place (kept in a game of pairs); computer players accept at once; a refusal and a clock that
runs out are shown, and another offer may follow."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect

from kozel.server.settings import Settings
from tests.server.client import Player, http_get, in_thread, play_to_the_end, receive
from tests.server.conftest import RunningServer

SHORT_DRAW = {"game": "draw", "options": {"players": 2, "target": 1}, "rated": False}
"""Over after its first hand."""


@pytest.fixture
def club(settings: Settings) -> Iterator[RunningServer]:
    running = RunningServer(dataclasses.replace(settings, rematch_seconds=2.0))
    try:
        yield running
    finally:
        running.stop()


def person(server: RunningServer, name: str) -> Player:
    player = Player(server.url, server.ws)
    assert player.register(name).status_code == 200
    return player


def finished_pair(server: RunningServer, wanted: dict[str, Any]) -> tuple[int, Player, Player]:
    """alice and bob play a two-seat game at a private table to its end."""
    alice, bob = person(server, "alice"), person(server, "bobby")
    request = alice.post("/api/requests", {**wanted, "private": True}).json()
    game = bob.post(f"/api/invites/{request['code']}/join").json()["game_id"]
    with alice.socket(game) as a, bob.socket(game) as b:
        thread, _ = in_thread(play_to_the_end, b)
        assert play_to_the_end(a)["status"] == "finished"
        thread.join(60)
    return game, alice, bob


def send(sock: ClientConnection, accept: object = True) -> None:
    sock.send(json.dumps({"type": "rematch", "accept": accept}))


def offer_of(sock: ClientConnection, status: str = "") -> dict[str, Any]:
    """The next rematch message's offer (of that ``status``); errors are returned whole."""
    while True:
        message = receive(sock)
        if message["type"] == "rematch" and message["rematch"]["status"].startswith(status):
            offer: dict[str, Any] = message["rematch"]
            return offer
        if message["type"] == "error":
            return message


def test_everyone_accepts_and_the_seats_move_round(club: RunningServer) -> None:
    game, alice, bob = finished_pair(club, SHORT_DRAW)
    with alice.socket(game) as a, bob.socket(game) as b:
        assert receive(a)["status"] == "finished" and receive(b)["type"] == "state"
        send(a)
        offer = offer_of(b)
        assert offer["by"] == 0 and offer["status"] == "open"
        assert offer["accepted"] == [0] and offer["waiting"] == [1]
        assert 0 < offer["remaining_ms"] <= 2000
        # the state says it too, to a socket that connects now
        with connect(f"{club.ws}/ws/games/{game}") as watcher:
            assert receive(watcher)["rematch"]["waiting"] == [1]
        send(b)
        offer = offer_of(a, "started")
        assert offer["accepted"] == [0, 1]
        new = offer["game"]
    row = http_get(f"{club.url}/api/games/{new}").json()
    old = http_get(f"{club.url}/api/games/{game}").json()
    assert [s["name"] for s in row["seats"]] == ["bobby", "alice"]  # one seat on each
    assert row["options"] == old["options"] and row["rated"] == old["rated"]
    assert row["status"] == "playing"


def test_a_game_of_pairs_keeps_its_seats_and_computers_accept_at_once(
    club: RunningServer,
) -> None:
    alice = person(club, "alice")
    wanted = {"game": "goat", "options": {"players": 4, "teams": True, "loss_limit": 1}}
    table = alice.post("/api/play/computer", {**wanted, "rated": False}).json()
    with alice.socket(table["game_id"]) as sock:
        assert play_to_the_end(sock)["status"] == "finished"
        send(sock)
        offer = offer_of(sock)
    assert offer["status"] == "started" and offer["accepted"] == [0, 1, 2, 3]
    row = http_get(f"{club.url}/api/games/{offer['game']}").json()
    assert (
        row["seats"]
        == [{"user": row["seats"][0]["user"], "name": "alice"}] + [{"bot": "amateur"}] * 3
    )


def test_a_refusal_and_a_clock_that_runs_out_are_shown(club: RunningServer) -> None:
    game, alice, bob = finished_pair(club, SHORT_DRAW)
    with alice.socket(game) as a, bob.socket(game) as b:
        receive(a), receive(b)
        send(b, False)
        assert offer_of(b)["code"] == "rematch_none"  # nothing to decline yet
        send(b, "yes")
        assert offer_of(b)["code"] == "bad_request"
        send(a)
        assert offer_of(b)["status"] == "open"
        send(b, False)
        declined = offer_of(a, "declined")
        assert declined["declined"] == [1]
        assert declined["game"] is None
        # another offer, left unanswered: its clock runs out
        send(b)
        assert offer_of(a, "open")["by"] == 1
        expired = offer_of(a, "expired")
        assert expired["waiting"] == [0]
    with connect(f"{club.ws}/ws/games/{game}") as watcher:
        assert receive(watcher)["rematch"]["status"] == "expired"
        send(watcher)
        assert offer_of(watcher)["code"] == "not_seated"


def test_no_rematch_while_the_game_is_played(club: RunningServer) -> None:
    alice = person(club, "alice")
    table = alice.post("/api/play/computer", {**SHORT_DRAW, "options": {"players": 2}}).json()
    with alice.socket(table["game_id"]) as sock:
        assert receive(sock)["status"] == "playing"
        send(sock)
        assert offer_of(sock)["code"] == "rematch_playing"

"""The end of a round as people play it: the final position stays with every hand face up,
no clock runs, and the next deal comes when every person at the table has pressed "next", or
when the pause is over."""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from websockets.sync.client import ClientConnection

from kozel.server.settings import Settings
from tests.server.client import Player, receive
from tests.server.conftest import RunningServer

PAUSE = 30.0
SHORT = 3.0


@pytest.fixture
def club(settings: Settings, request: pytest.FixtureRequest) -> Iterator[RunningServer]:
    pause = getattr(request, "param", PAUSE)
    running = RunningServer(dataclasses.replace(settings, round_pause_seconds=pause))
    try:
        yield running
    finally:
        running.stop()


def people(club: RunningServer) -> tuple[Player, Player, int]:
    alice, bob = Player(club.url, club.ws), Player(club.url, club.ws)
    alice.register("alice")
    bob.register("bob")
    request = alice.post("/api/requests", {"game": "goat", "options": {"players": 2}}).json()
    game: int = bob.post(f"/api/requests/{request['id']}/join").json()["game_id"]
    return alice, bob, game


def play_the_round(socks: list[ClientConnection]) -> list[dict[str, Any]]:
    """Both seats play their first legal move until the round is over; each seat's state of
    its end."""
    ends: list[dict[str, Any] | None] = [None, None]
    seen = [-1, -1]
    while None in ends:
        for s, sock in enumerate(socks):
            if ends[s] is not None:
                continue
            message = receive(sock)
            if message["type"] != "state" or message["version"] <= seen[s]:
                continue
            seen[s] = message["version"]
            if "shown" in message:
                ends[s] = message
                continue
            view = message.get("view")  # none before the first deal
            if view and view["turn"] == s and view["legal_moves"]:
                move = view["legal_moves"][0]
                sock.send(json.dumps({"type": "move", "version": seen[s], "move": move}))
    return [end for end in ends if end is not None]


def next_state(sock: ClientConnection) -> dict[str, Any]:
    while True:
        message = receive(sock, timeout=PAUSE + 20)
        if message["type"] == "state":
            return message


def test_the_next_deal_waits_for_everyone_at_the_table(club: RunningServer) -> None:
    alice, bob, game = people(club)
    watcher = Player(club.url, club.ws)
    with alice.socket(game) as a, bob.socket(game) as b, watcher.socket(game) as w:
        ends = play_the_round([a, b])
        for seat, end in enumerate(ends):
            assert end["status"] == "playing" and "clock" not in end  # no clock runs
            assert end["next_round"]["waiting"] == [0, 1]
            assert end["next_round"]["deadline_ms"] > time.time() * 1000 + (PAUSE - 10) * 1000
            assert end["shown"][seat] == end["view"]["hand"]  # every hand, one's own included
        assert ends[0]["shown"] == ends[1]["shown"]
        # a watcher may not deal; a player presses "next" and everyone hears who is left
        w.send(json.dumps({"type": "next"}))
        while (error := receive(w))["type"] != "error":
            pass
        assert error["code"] == "not_seated"
        a.send(json.dumps({"type": "next"}))
        for sock in (a, b):
            while (message := receive(sock))["type"] != "next_round":
                pass
            assert message["waiting"] == [1] and message["version"] == ends[0]["version"]
        started = time.monotonic()
        b.send(json.dumps({"type": "next"}))
        dealt = next_state(a)
        assert time.monotonic() - started < PAUSE / 2  # dealt when both were ready
        assert dealt["version"] == ends[0]["version"] + 1
        assert "shown" not in dealt and "next_round" not in dealt and "clock" in dealt


@pytest.mark.parametrize("club", [SHORT], indirect=True)
def test_without_everyone_the_pause_ends_the_wait(club: RunningServer) -> None:
    """Bob never presses "next": the deal comes when the pause is over."""
    alice, bob, game = people(club)
    with alice.socket(game) as a, bob.socket(game) as b:
        ends = play_the_round([a, b])
        a.send(json.dumps({"type": "next"}))
        dealt = next_state(b)
        while "shown" in dealt:  # alice's press is not a state; the deal is
            dealt = next_state(b)
        waited = time.time() * 1000 - ends[1]["next_round"]["deadline_ms"]
        assert waited > -2000, "dealt before the pause was over"
        assert dealt["version"] == ends[1]["version"] + 1

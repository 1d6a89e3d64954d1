"""Watching live games (issue #25, item 4): the lobby lists the games being played, with
their players, ratings, round and score, filterable by game; anyone may watch one as a
spectator, who sees no hand; a player's page shows the game he is playing now."""

from __future__ import annotations

import json
import time
from typing import Any

from websockets.sync.client import connect

from tests.server.client import Player, http_get, play_to_the_end, receive
from tests.server.conftest import RunningServer


def live(server: RunningServer, game: str | None = None) -> list[dict[str, Any]]:
    query = f"?game={game}" if game else ""
    response = http_get(f"{server.url}/api/live{query}")
    assert response.status_code == 200, response.text
    games: list[dict[str, Any]] = response.json()
    return games


def dealt(server: RunningServer, game_id: int) -> dict[str, Any]:
    """The game's entry once its first deal is stored."""
    deadline = time.monotonic() + 20
    while True:
        entry = next(g for g in live(server) if g["id"] == game_id)
        if entry["round"] >= 1:
            return entry
        assert time.monotonic() < deadline, entry
        time.sleep(0.05)


def test_the_games_being_played_are_listed_and_watched(server: RunningServer) -> None:
    alice = Player(server.url, server.ws)
    assert alice.register("alice").status_code == 200
    goat = alice.post(
        "/api/play/computer",
        {"game": "goat", "options": {"players": 4, "teams": True}, "rated": False},
    ).json()
    draw = alice.post(
        "/api/play/computer", {"game": "draw", "options": {"players": 2}, "rated": False}
    ).json()
    entry = dealt(server, goat["game_id"])
    assert entry["game"] == "goat" and entry["options"]["teams"] is True
    assert entry["players"][0] == {"name": "alice", "rating": 0}
    assert entry["players"][1] == {"bot": "amateur"}  # the default level
    assert entry["round"] == 1 and entry["score"] == [0, 0]  # two pairs, nothing charged yet
    # filtered by game
    assert [g["id"] for g in live(server, "draw")] == [draw["game_id"]]
    assert goat["game_id"] in [g["id"] for g in live(server, "goat")]
    assert http_get(f"{server.url}/api/live?game=chess").json()["code"] == "unknown_game"
    # the player's page shows what he plays now, newest first
    page = http_get(f"{server.url}/api/players/alice").json()
    assert [g["id"] for g in page["playing"]] == [draw["game_id"], goat["game_id"]]
    # anyone watches, without an account: a spectator's state, no hand, no legal move
    with connect(f"{server.ws}/ws/games/{goat['game_id']}") as watcher:
        state = receive(watcher)
        assert state["type"] == "state" and state["you"] is None
        assert state["view"]["hand"] == [] and state["view"]["legal_moves"] == []
    # a game that ends leaves the list
    with alice.socket(draw["game_id"]) as sock:
        assert play_to_the_end(sock)["status"] != "playing"
    deadline = time.monotonic() + 20
    while draw["game_id"] in [g["id"] for g in live(server)]:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    page = http_get(f"{server.url}/api/players/alice").json()
    assert [g["id"] for g in page["playing"]] == [goat["game_id"]]


def test_the_score_follows_the_rounds(server: RunningServer) -> None:
    """The score listed is the sheet after the last finished round, and the round the one
    being played."""
    alice = Player(server.url, server.ws)
    assert alice.guest().status_code == 200
    game = alice.post(
        "/api/play/computer",
        {"game": "draw", "options": {"players": 2, "target": 300}, "rated": False},
    ).json()["game_id"]
    with alice.socket(game) as sock:
        seen: dict[str, Any] = {"version": -1}
        while not (seen.get("rounds") and seen["view"]["round"] == 2):
            state = receive(sock)
            # a table may announce itself before its first deal (a state without a view)
            if state["type"] != "state" or state["version"] <= seen["version"]:
                continue
            seen = state
            view = state.get("view")
            if view and view["turn"] == state["you"] and view["legal_moves"]:
                move = {"type": "move", "version": state["version"], "move": view["legal_moves"][0]}
                sock.send(json.dumps(move))
    entry = dealt(server, game)
    assert entry["round"] == 2
    assert entry["score"] == [unit["after"] for unit in seen["rounds"][0]["sheet"]]

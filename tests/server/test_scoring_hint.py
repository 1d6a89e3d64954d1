"""The scoring a table sends in All Fives: every lay's points and each unit's points this round
to everyone; the hint (the points each legal lay would score) only to the seat to move, only
at an unrated table — never in a rated game, never to a spectator."""

from __future__ import annotations

import json
import time
from typing import Any

from websockets.sync.client import ClientConnection

from tests.server.client import Player, play_to_the_end, receive
from tests.server.conftest import RunningServer

SHORT = {"players": 2, "target": 150}


def lays(view: dict[str, Any]) -> list[dict[str, Any]]:
    return [e for e in view["history"] if "play" in e or "doubles" in e]


def check_state(message: dict[str, Any]) -> None:
    """Every lay carries its points, and they add up to the units' points this round (0 once
    the round is over: they are on the sheet then)."""
    view = message.get("view")
    if message["type"] != "state" or not view:
        return
    during = [0, 0]
    for event in lays(view):
        during[event["seat"]] += event["points"]
    assert view["during"] == (during if view["turn"] is not None else [0, 0])
    assert (view["end_sum"] is None) == (not lays(view))


def test_the_hint_goes_to_the_seat_to_move_at_an_unrated_table(server: RunningServer) -> None:
    ann = Player(server.url, server.ws)
    ann.guest()
    table = ann.post(
        "/api/play/computer", {"game": "all_fives", "options": SHORT, "level": "greedy"}
    ).json()
    assert table["rated"] is False
    watcher = Player(server.url, server.ws)  # no session: a spectator
    log: list[dict[str, Any]] = []
    with watcher.socket(table["game_id"]) as spectator, ann.socket(table["game_id"]) as sock:
        final = play_to_the_end(sock, log)
        seen = drain(spectator)
    assert final["status"] == "finished"
    states = [m for m in log if m["type"] == "state" and m.get("view")]
    hinted = 0
    for message in states:
        check_state(message)
        view = message["view"]
        if view["turn"] != message["you"]:
            assert view["hint"] == []
            continue
        legal = [json.dumps(m) for m in view["legal_moves"]]
        for hint in view["hint"]:
            assert hint["points"] > 0
            move = {k: v for k, v in hint.items() if k != "points"}
            assert json.dumps(move) in legal
            hinted += 1
    assert hinted, "no scoring lay was ever hinted in a whole game"
    assert seen and all(m["view"]["hint"] == [] for m in seen)


def drain(sock: ClientConnection) -> list[dict[str, Any]]:
    """The states a socket has received so far."""
    out = []
    while True:
        try:
            message = receive(sock, timeout=0.5)
        except TimeoutError:
            return out
        if message["type"] == "state" and message.get("view"):
            check_state(message)
            out.append(message)


def test_a_rated_game_never_sends_the_hint(server: RunningServer) -> None:
    alice, bob = Player(server.url, server.ws), Player(server.url, server.ws)
    alice.register("alice")
    bob.register("bob")
    body = {"game": "all_fives", "options": {"players": 2}, "rated": True}
    request = alice.post("/api/requests", body).json()
    started = bob.post(f"/api/requests/{request['id']}/join").json()
    assert started["status"] == "started" and started["rated"] is True
    game = started["game_id"]
    seen: list[dict[str, Any]] = []
    refusals: list[dict[str, Any]] = []
    with alice.socket(game) as a, bob.socket(game) as b:
        moves, over = 0, False
        versions = {id(a): -1, id(b): -1}
        deadline = time.monotonic() + 120
        while moves < 40 and not over:
            assert time.monotonic() < deadline, f"{moves} moves in 120 s; refused: {refusals}"
            for sock in (a, b):
                try:
                    message = receive(sock, timeout=0.2)
                except TimeoutError:
                    continue
                if message["type"] == "error":
                    refusals.append(message)
                over = over or message.get("status", "playing") != "playing"
                fresh = message["type"] == "state" and message["version"] > versions[id(sock)]
                if not fresh or "view" not in message:
                    continue
                versions[id(sock)] = message["version"]
                seen.append(message)
                view = message["view"]
                if message["status"] == "playing" and view["turn"] == message["you"]:
                    move = view["legal_moves"][-1]
                    sock.send(
                        json.dumps({"type": "move", "version": message["version"], "move": move})
                    )
                    moves += 1
    # both sockets are read in one pass, so the pass that reaches 40 may make a 41st move
    assert moves >= 40 or over, refusals
    for message in seen:
        check_state(message)
        assert message["rated"] is True and message["view"]["hint"] == []
    assert any(e["points"] for m in seen for e in lays(m["view"])), "nothing scored in 40 moves"

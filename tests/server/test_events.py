"""Clients that follow a table by its events end with exactly the server's state: one that
connects in the middle of a game, one that misses a version (and asks for the state again),
and one that asks for the old full-state stream (protocol 1)."""

from __future__ import annotations

import json
import threading
from typing import Any

from websockets.sync.client import ClientConnection, connect

from tests.server.client import Held, Player, in_thread, play_to_the_end, receive
from tests.server.conftest import RunningServer

GAME = {"game": "goat", "options": {"players": 3, "loss_limit": 30}, "level": "greedy"}


def timeless(state: dict[str, Any]) -> dict[str, Any]:
    """A state without the time left on its clocks (counted when a message is made)."""
    out = dict(state)
    for key in ("clock", "next_round"):
        if key in out:
            out[key] = {k: v for k, v in out[key].items() if k != "remaining_ms"}
    return out


def snapshot(player: Player, game_id: int) -> dict[str, Any]:
    """The state the server sends a socket that connects now."""
    with player.socket(game_id) as sock:
        first = receive(sock)
    assert first["type"] == "state"
    return first


def follow(sock: ClientConnection, stop: threading.Event, drop: bool = False) -> tuple[Held, bool]:
    """Hold the table's state from this socket's messages until the game is over, and say
    whether a missing version was found (and the whole state asked for). With ``drop`` the
    first event is lost on its way (its version is then missing)."""
    held, events, asked = Held(), 0, False
    while not stop.is_set():
        message = json.loads(sock.recv(timeout=30))
        if message["type"] == "event":
            events += 1
            if drop and events == 1:
                continue
        state = held.take(message)
        if state is None and message["type"] == "event" and not asked:
            asked = True  # a version is missing: the whole state is asked for once
            sock.send(json.dumps({"type": "sync"}))
        if state is not None and state["status"] != "playing":
            return held, asked
    return held, asked


def test_clients_that_join_late_or_lose_a_message_end_with_the_servers_state(
    server: RunningServer,
) -> None:
    alice = Player(server.url, server.ws)
    alice.guest()
    game_id = alice.post("/api/play/computer", GAME).json()["game_id"]
    watcher = Player(server.url, server.ws)  # no session: a spectator
    stop = threading.Event()
    with alice.socket(game_id) as playing:
        # the game is under way, alice to move with at least three tiles in hand: her move
        # (the first event the others hear) cannot end the round, so another event follows
        # it, and the spectator, who loses it, finds the gap
        play_to_the_end(playing, stop_after=2)
        with alice.socket(game_id) as late, watcher.socket(game_id) as lossy:
            threads = [in_thread(follow, late, stop), in_thread(follow, lossy, stop, True)]
            playing.send(json.dumps({"type": "sync"}))  # the turn it stopped at, again
            final = play_to_the_end(playing)
            for thread, _ in threads:
                thread.join(timeout=60)
            stop.set()
    ((late_held, late_asked),), ((lossy_held, lossy_asked),) = (out for _, out in threads)
    assert final["status"] == "finished"
    assert (late_asked, lossy_asked) == (False, True)
    assert timeless(late_held.state) == timeless(snapshot(alice, game_id)) == timeless(final)
    assert lossy_held.state["you"] is None
    assert timeless(lossy_held.state) == timeless(snapshot(watcher, game_id))


def test_the_old_protocol_sends_the_whole_state_after_every_event(server: RunningServer) -> None:
    alice = Player(server.url, server.ws)
    alice.guest()
    game_id = alice.post("/api/play/computer", GAME).json()["game_id"]
    cookie = "; ".join(f"{k}={v}" for k, v in alice.http.cookies.items())
    with connect(
        f"{server.ws}/ws/games/{game_id}?protocol=1", additional_headers={"Cookie": cookie}
    ) as old:
        seen, last = -1, {}
        while last.get("status", "playing") == "playing":
            message = json.loads(old.recv(timeout=30))
            assert message["type"] != "event"
            if message["type"] != "state" or message["version"] <= seen:
                continue
            assert message["version"] == seen + 1 or seen == -1  # every version, whole
            seen, last = message["version"], message
            view = message.get("view")
            if view and view["turn"] == message["you"] and view["legal_moves"]:
                move = {"type": "move", "version": seen, "move": view["legal_moves"][0]}
                old.send(json.dumps(move))
    assert timeless(last) == timeless(snapshot(alice, game_id))


def test_a_goat_event_stays_small_however_long_the_game() -> None:
    """The byte counts of bench/message_sizes.py (deterministic: a seeded game through the
    table's own message path): a Goat move's event is a few hundred bytes in the first round
    and the tenth alike, while the whole state it replaces grows with every finished round."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).parents[2] / "bench" / "message_sizes.py"
    spec = importlib.util.spec_from_file_location("message_sizes", path)
    assert spec and spec.loader
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    sizes = bench.measure("goat", 1, 10)
    assert sizes["rounds"] == 10
    assert sizes["round1_event_median"] <= 400 and sizes["round10_event_median"] <= 400
    assert abs(sizes["round10_event_median"] - sizes["round1_event_median"]) <= 40
    assert sizes["round10_state_median"] > 3 * sizes["round1_state_median"]

"""Text a client sends: a lone UTF-16 surrogate is refused with ``bad_text`` wherever text
comes in (HTTP bodies and socket messages), written as the failures it stops."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from tests.server.client import Player, receive
from tests.server.conftest import RunningServer

LONE = "\ud800"


def post_raw(player: Player, path: str, body: dict[str, Any]) -> httpx.Response:
    """``body`` as JSON with its surrogates escaped (as a JavaScript client writes them)."""
    return player.http.post(
        path,
        content=json.dumps(body),
        headers={"Content-Type": "application/json", "X-CSRF-Token": player.csrf},
    )


@pytest.mark.parametrize(
    "body",
    [
        {"game": "goat", "options": {"players" + LONE: 2}},  # was a 500
        {"game": "goat", "options": {"variant": "a" + LONE}},
        {"game": "goat" + LONE},
        {"game": "goat", "bots": {"1": LONE}},
    ],
)
def test_a_request_with_a_lone_surrogate_is_refused(
    server: RunningServer, body: dict[str, Any]
) -> None:
    alice = Player(server.url, server.ws)
    assert alice.guest().status_code == 200
    response = post_raw(alice, "/api/requests", body)
    assert response.status_code == 422, response.text
    assert response.json()["code"] == "bad_text"


def test_a_name_or_password_with_a_lone_surrogate_is_refused(server: RunningServer) -> None:
    someone = Player(server.url, server.ws)
    for body in (
        {"name": "al" + LONE + "ce", "password": "correct horse"},
        {"name": "alice", "password": "correct horse" + LONE},
    ):
        for path in ("/api/auth/register", "/api/auth/login"):
            response = post_raw(someone, path, body)
            assert (response.status_code, response.json()["code"]) == (422, "bad_text")


def test_a_chat_line_or_a_move_with_a_lone_surrogate_is_refused_and_the_socket_stays(
    server: RunningServer,
) -> None:
    """A chat line ``"\\ud800"`` failed to be stored and dropped the socket (1006, with a
    traceback in the log)."""
    alice = Player(server.url, server.ws)
    assert alice.guest().status_code == 200
    with alice.lobby() as lobby:
        assert receive(lobby)["type"] == "requests"
        lobby.send(json.dumps({"type": "chat", "text": "hi " + LONE}))
        assert receive(lobby)["code"] == "bad_text"
        lobby.send(json.dumps({"type": "chat", "text": "hi 😀"}))  # a pair is one character
        said = receive(lobby)
        assert (said["type"], said["text"]) == ("chat", "hi 😀")
    game = alice.post("/api/play/computer", {"game": "goat", "level": "random"}).json()
    with alice.socket(game["game_id"]) as sock:
        state = receive(sock)
        for message in (
            {"type": "chat", "text": LONE},
            {"type": "move", "version": state["version"], "move": {"play": "6-6" + LONE}},
            {"type": "move", "version": state["version"], "move": {LONE: True}},
        ):
            sock.send(json.dumps(message))
            reply = receive(sock)
            while reply["type"] != "error":  # the computer players' moves go on
                reply = receive(sock)
            assert reply["code"] == "bad_text"
        sock.send(json.dumps({"type": "ping"}))
        while receive(sock)["type"] != "pong":
            pass

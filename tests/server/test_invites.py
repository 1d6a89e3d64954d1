"""Private tables by link, and choosing one's seat (issue #25, items 1 and 2): a private
request is left out of the lobby and joined by its link only; a player picks the free seat he
wants (friends sit across from each other); the creator keeps seats for a player by name or
for whoever holds the link."""

from __future__ import annotations

import json
from typing import Any

import httpx
from websockets.sync.client import connect

from tests.server.client import Player, http_get, receive
from tests.server.conftest import RunningServer

TEAMS = {"game": "goat", "options": {"players": 4, "teams": True}, "rated": False}


def player(server: RunningServer, name: str | None = None) -> Player:
    person = Player(server.url, server.ws)
    response = person.register(name) if name else person.guest()
    assert response.status_code == 200, response.text
    return person


def ok(response: httpx.Response) -> dict[str, Any]:
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


def refused(response: httpx.Response, status: int, code: str) -> None:
    assert response.status_code == status, response.text
    assert response.json()["code"] == code, response.text


def test_a_private_request_is_joined_by_its_link_only(server: RunningServer) -> None:
    alice, bob, eve = player(server, "alice"), player(server, "bobby"), player(server)
    with connect(server.ws + "/ws/lobby") as lobby:
        before = receive(lobby)["version"]
        request = ok(alice.post("/api/requests", {**TEAMS, "private": True}))
        code = request["code"]
        assert request["private"] and len(code) >= 16
        # the lobby hears of it neither in its list nor as a change
        assert all(r["id"] != request["id"] for r in http_get(server.url + "/api/requests").json())
        lobby.send(json.dumps({"type": "sync"}))
        snapshot = receive(lobby)
        assert snapshot["version"] == before and snapshot["requests"] == []
    # its id is no way in: not seen, not joined
    refused(eve.http.get(f"/api/requests/{request['id']}"), 404, "no_request")
    refused(eve.post(f"/api/requests/{request['id']}/join"), 404, "no_request")
    assert ok(alice.http.get(f"/api/requests/{request['id']}"))["code"] == code
    # the link says who invites, to what game and house rules, and who sits where
    invite = ok(http_get(f"{server.url}/api/invites/{code}"))
    assert invite["seats"][0]["name"] == "alice" and invite["options"]["teams"] is True
    assert invite["status"] == "open" and invite["game"] == "goat"
    # a friend takes the seat across from alice: her partner
    joined = ok(bob.post(f"/api/invites/{code}/join", {"seat": 2}))
    assert joined["seats"][2]["name"] == "bobby" and joined["seats"][1] is None
    refused(eve.post(f"/api/invites/{code}/join", {"seat": 2}), 409, "seat_taken")
    refused(eve.post(f"/api/invites/{code}/join", {"seat": 4}), 422, "no_seat")
    refused(http_get(f"{server.url}/api/invites/nosuchcode"), 404, "no_invite")
    mine = ok(bob.http.get("/api/me/requests"))
    assert [r["code"] for r in mine] == [code]


def test_a_link_says_the_table_started_or_was_cancelled(server: RunningServer) -> None:
    alice, bob = player(server), player(server)
    two = {"game": "draw", "options": {"players": 2}, "rated": False, "private": True}
    started = ok(alice.post("/api/requests", two))
    game = ok(bob.post(f"/api/invites/{started['code']}/join"))
    assert game["status"] == "started" and game["game_id"]
    invite = ok(http_get(f"{server.url}/api/invites/{started['code']}"))
    assert invite["status"] == "started" and invite["game_id"] == game["game_id"]
    refused(bob.post(f"/api/invites/{started['code']}/join"), 409, "request_started")

    cancelled = ok(alice.post("/api/requests", two))
    refused(bob.post(f"/api/requests/{cancelled['id']}/cancel"), 403, "not_yours")
    ok(alice.post(f"/api/requests/{cancelled['id']}/cancel"))
    invite = ok(http_get(f"{server.url}/api/invites/{cancelled['code']}"))
    assert invite["status"] == "cancelled"
    refused(bob.post(f"/api/invites/{cancelled['code']}/join"), 409, "request_cancelled")


def test_the_creator_keeps_seats_for_a_player_and_for_the_link(server: RunningServer) -> None:
    alice, carol = player(server, "alice"), player(server, "carol")
    bob, dave = player(server, "bobby"), player(server, "dave")
    refused(
        alice.post("/api/requests", {**TEAMS, "reserve": [{"seat": 2, "name": "nobody"}]}),
        404,
        "no_player",
    )
    request = ok(
        alice.post(
            "/api/requests",
            {**TEAMS, "reserve": [{"seat": 2, "name": "BOBBY"}, {"seat": 3, "link": True}]},
        )
    )
    rid, code = request["id"], request["code"]
    assert request["seats"][2] == {"reserved": "bobby"} and request["seats"][3] == {"link": True}
    # the lobby lists the request with its kept seats, never its link
    listed = next(r for r in http_get(server.url + "/api/requests").json() if r["id"] == rid)
    assert "code" not in listed and listed["seats"][3] == {"link": True}
    refused(carol.post(f"/api/requests/{rid}/join", {"seat": 2}), 409, "seat_reserved")
    refused(carol.post(f"/api/requests/{rid}/join", {"seat": 3}), 409, "seat_reserved")
    refused(
        carol.post(f"/api/requests/{rid}/reserve", {"seat": 1, "name": "carol"}), 403, "not_yours"
    )
    # without a wish, a player gets the seat kept for him, else the first he may take
    assert ok(bob.post(f"/api/requests/{rid}/join"))["seats"][2]["name"] == "bobby"
    joined = ok(carol.post(f"/api/requests/{rid}/join"))
    assert joined["seats"][1]["name"] == "carol" and joined["seats"][3] == {"link": True}
    refused(dave.post(f"/api/requests/{rid}/join"), 409, "seat_reserved")
    # the link opens the seat kept for it; the last seat starts the game
    started = ok(dave.post(f"/api/invites/{code}/join"))
    assert started["status"] == "started"
    assert [s["name"] for s in started["seats"]] == ["alice", "carol", "bobby", "dave"]


def test_kept_seats_can_be_changed_and_freed(server: RunningServer) -> None:
    alice, bob = player(server, "alice"), player(server, "bobby")
    request = ok(alice.post("/api/requests", TEAMS))
    rid = request["id"]
    refused(
        alice.post(f"/api/requests/{rid}/reserve", {"seat": 0, "link": True}), 409, "seat_taken"
    )
    refused(
        alice.post(f"/api/requests/{rid}/reserve", {"seat": 1, "name": "alice"}),
        409,
        "already_seated",
    )
    kept = ok(alice.post(f"/api/requests/{rid}/reserve", {"seat": 1, "name": "bobby"}))
    assert kept["seats"][1] == {"reserved": "bobby"}
    freed = ok(alice.post(f"/api/requests/{rid}/reserve", {"seat": 1}))
    assert freed["seats"][1] is None
    assert ok(bob.post(f"/api/requests/{rid}/join", {"seat": 3}))["seats"][3]["name"] == "bobby"


def test_the_links_socket_follows_the_request(server: RunningServer) -> None:
    alice, bob = player(server), player(server)
    request = ok(
        alice.post(
            "/api/requests",
            {"game": "draw", "options": {"players": 2}, "rated": False, "private": True},
        )
    )
    with connect(f"{server.ws}/ws/invites/{request['code']}") as feed:
        first = receive(feed)
        assert first["type"] == "invite" and first["request"]["status"] == "open"
        ok(bob.post(f"/api/invites/{request['code']}/join"))
        change = receive(feed)
        assert change["request"]["status"] == "started" and change["request"]["game_id"]
    with connect(f"{server.ws}/ws/invites/unknowncode") as feed:
        assert receive(feed)["code"] == "no_invite"

"""The club over real HTTP and WebSockets, on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import update
from websockets.sync.client import ClientConnection

from kozel.games import replay_layout
from kozel.server.db import Session, make_engine
from tests.server.client import Player, http_get, in_thread, play_to_the_end, receive
from tests.server.conftest import RunningServer


def player(server: RunningServer) -> Player:
    return Player(server.url, server.ws)


def test_health_and_openapi(server: RunningServer) -> None:
    assert http_get(server.url + "/api/health").json()["status"] == "ok"
    schema = http_get(server.url + "/openapi.json").json()
    assert "/api/requests" in schema["paths"]


def test_accounts(server: RunningServer) -> None:
    alice = player(server)
    response = alice.register("alice")
    assert response.status_code == 200
    cookie = response.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=lax" in cookie
    assert player(server).register("Alice").status_code == 409
    assert player(server).register("x").status_code == 422
    assert player(server).register("bob", "short").json()["detail"].startswith("a password")
    assert alice.http.get("/api/me").json()["name"] == "alice"
    # CSRF: a state-changing call without the header is refused
    assert alice.http.post("/api/auth/logout").status_code == 403
    assert alice.post("/api/auth/logout").status_code == 200
    assert alice.http.get("/api/me").status_code == 401
    assert player(server).login("alice", "wrong password").status_code == 401
    assert player(server).login("alice").status_code == 200
    guest = player(server)
    assert guest.guest().status_code == 200 and guest.name.startswith("guest-")


def test_a_session_past_its_time_signs_nobody_in(server: RunningServer, db_url: str) -> None:
    guest = player(server)
    assert guest.guest().status_code == 200
    me = guest.http.get("/api/me").json()
    assert (me["name"], me["guest"], me["rating"], me["admin"]) == (guest.name, True, 0, False)

    async def expire() -> None:
        engine = make_engine(db_url)
        try:
            async with engine.begin() as connection:
                past = datetime.now(UTC) - timedelta(minutes=1)
                await connection.execute(update(Session).values(expires_at=past))
        finally:
            await engine.dispose()

    asyncio.run(expire())
    assert guest.http.get("/api/me").status_code == 401


def test_unknown_addresses(server: RunningServer) -> None:
    """A person's unknown page is the client's own 404 page; the API's is a coded refusal."""
    page = http_get(server.url + "/nope")
    assert page.status_code == 404 and "text/html" in page.headers["content-type"]
    api = http_get(server.url + "/api/nope")
    assert api.status_code == 404 and api.json()["code"] == "not_found"


def test_log_in_is_rate_limited(server: RunningServer) -> None:
    player(server).register("carol")
    codes = [player(server).login("carol", "nope nope").status_code for _ in range(6)]
    assert codes == [401] * 5 + [429]


def test_requests_are_validated_with_clear_messages(server: RunningServer) -> None:
    alice = player(server)
    alice.register("alice")
    bad = alice.post("/api/requests", {"game": "goat", "options": {"fish_mode": "fast"}})
    assert bad.status_code == 422
    assert "must be one of everyone, all_to_loser, own_to_loser" in bad.json()["detail"]
    bad = alice.post("/api/requests", {"game": "chess"})
    assert "unknown game 'chess'" in bad.json()["detail"]
    bad = alice.post("/api/requests", {"game": "goat", "bots": {"1": "genius"}})
    assert "unknown bot 'genius'" in bad.json()["detail"]
    bad = alice.post("/api/requests", {"game": "goat", "seconds_per_move": 100000})
    assert "seconds per move" in bad.json()["detail"]
    bad = alice.http.post(
        "/api/requests", content=b"{not json", headers={"X-CSRF-Token": alice.csrf}
    )
    assert bad.status_code == 422 and "detail" in bad.json()


def test_lobby_join_leave_cancel(server: RunningServer) -> None:
    alice, bob = player(server), player(server)
    alice.register("alice")
    bob.register("bob")
    request = alice.post("/api/requests", {"game": "donkey", "options": {"players": 3}}).json()
    assert request["status"] == "open" and request["seats"][1] is None
    listed = http_get(server.url + "/api/requests").json()
    assert [r["id"] for r in listed] == [request["id"]]
    joined = bob.post(f"/api/requests/{request['id']}/join").json()
    assert joined["seats"][1]["name"] == "bob"
    assert bob.post(f"/api/requests/{request['id']}/join").status_code == 409
    assert bob.post(f"/api/requests/{request['id']}/cancel").status_code == 403
    assert bob.post(f"/api/requests/{request['id']}/leave").json()["seats"][1] is None
    assert alice.post(f"/api/requests/{request['id']}/cancel").json()["status"] == "cancelled"
    assert http_get(f"{server.url}/api/requests/{request['id']}").json()["status"] == "cancelled"
    assert http_get(f"{server.url}/api/requests/999").status_code == 404
    assert http_get(server.url + "/api/requests").json() == []


def play_all_to_the_end(sockets: list[ClientConnection]) -> list[dict[str, Any]]:
    """Every seat plays its first legal move, each in its thread; each seat's last state."""
    threads = [in_thread(play_to_the_end, sock) for sock in sockets]
    for thread, _ in threads:
        thread.join(120)
    return [out[0] for _, out in threads]


def test_two_people_play_a_rated_game_to_the_end(server: RunningServer) -> None:
    """A rated game: people at every seat, the losing score at its rated least (51)."""
    alice, bob = player(server), player(server)
    alice.register("alice")
    bob.register("bob")
    wanted = {"game": "goat", "options": {"players": 2, "loss_limit": 51}, "rated": True}
    request = alice.post("/api/requests", wanted).json()
    started = bob.post(f"/api/requests/{request['id']}/join").json()
    game_id = started["game_id"]
    assert started["status"] == "started" and started["rated"] and game_id
    with alice.socket(game_id) as a, bob.socket(game_id) as b:
        final, other = play_all_to_the_end([a, b])
    assert final["status"] == "finished" and final["rated"]
    assert other["version"] == final["version"]
    record = http_get(f"{server.url}/api/games/{game_id}/record").json()
    replayed = replay_layout(json.loads(json.dumps(record)))
    rating = replayed.result.rating if replayed.result else []
    assert record["result"]["rating"] == rating
    # a winner gains at least a point; both seats lose when both pass the limit in one round
    losers = record["result"]["losers"]
    assert losers and all((r == 0) == (s in losers) for s, r in enumerate(rating))
    for seat, name in enumerate(["alice", "bob"]):
        page = http_get(f"{server.url}/api/players/{name}").json()
        assert page["rating"] == rating[seat]
        assert [h["game"] for h in page["history"]] == [game_id]
        assert [(g["id"], g["rated"]) for g in page["games"]] == [(game_id, True)]
    board = http_get(server.url + "/api/leaderboard").json()
    assert sorted((row["rating"], row["name"]) for row in board) == sorted(
        zip(rating, ["alice", "bob"], strict=True)
    )


def test_two_people_and_two_bots_play_an_unrated_game_to_the_end(server: RunningServer) -> None:
    alice, bob = player(server), player(server)
    alice.register("alice")
    bob.register("bob")
    wanted = {"game": "goat", "options": {"loss_limit": 40}, "bots": {"2": "greedy", "3": "random"}}
    refused = alice.post("/api/requests", {**wanted, "rated": True})
    assert refused.status_code == 422
    assert "games with computer players are not rated" in refused.json()["detail"]
    request = alice.post("/api/requests", {**wanted, "rated": False}).json()
    started = bob.post(f"/api/requests/{request['id']}/join").json()
    game_id = started["game_id"]
    assert started["status"] == "started" and game_id
    with alice.socket(game_id) as a, bob.socket(game_id) as b:
        final, other = play_all_to_the_end([a, b])
    assert final["status"] == "finished" and other["version"] == final["version"]
    assert not final["rated"]
    record = http_get(f"{server.url}/api/games/{game_id}/record").json()
    assert record["seats"] == ["alice", "bob", "bot:greedy", "bot:random"]
    # the sheet every state carried is the record's, round by round
    public = ("end", "counts", "sheet", "eggs")
    assert [{k: r[k] for k in public} for r in final["rounds"]] == [
        {k: r[k] for k in public} for r in record["rounds"]
    ]
    # and what the client says of each round (Sea Goat's hundred, instant ends: none in Goat)
    assert all(r["hundred"] == -1 and r["decided_by"] is None for r in final["rounds"])
    assert http_get(f"{server.url}/api/requests/{request['id']}").json()["game_id"] == game_id
    replayed = replay_layout(json.loads(json.dumps(record)))
    rating = replayed.result.rating if replayed.result else []
    assert record["result"]["rating"] == rating  # what a rated game would have given
    for name in ["alice", "bob"]:
        page = http_get(f"{server.url}/api/players/{name}").json()
        assert page["rating"] == 0 and page["history"] == []
        assert [(g["id"], g["status"], g["seats"], g["rated"]) for g in page["games"]] == [
            (game_id, "finished", record["seats"], False)
        ]
    board = http_get(server.url + "/api/leaderboard").json()
    assert sorted((row["name"], row["rating"]) for row in board) == [("alice", 0), ("bob", 0)]


def test_bad_messages_get_clear_errors_and_change_nothing(server: RunningServer) -> None:
    alice, watcher = player(server), player(server)
    alice.register("alice")
    game = alice.post("/api/play/computer", {"game": "goat", "level": "random"}).json()
    game_id = game["game_id"]
    with alice.socket(game_id) as sock:
        state = receive(sock)
        while "view" not in state or state["view"]["turn"] != 0 or not state["view"]["legal_moves"]:
            state = receive(sock)
        version = state["version"]

        def error_for(payload: str) -> dict[str, object]:
            sock.send(payload)
            while True:
                message = receive(sock)
                if message["type"] == "error":
                    return message

        assert error_for("{oops")["code"] == "bad_json"
        assert error_for(json.dumps({"type": "dance"}))["code"] == "unknown_type"
        assert error_for("x" * 20000)["code"] == "too_big"
        assert error_for(json.dumps({"type": "move", "version": "1"}))["code"] == "bad_move"
        stale = {"type": "move", "version": version - 1, "move": state["view"]["legal_moves"][0]}
        assert error_for(json.dumps(stale))["code"] == "stale"
        illegal = {"type": "move", "version": version, "move": {"play": "6-6", "arm": 7}}
        assert error_for(json.dumps(illegal))["code"] == "illegal"
        # the reason as a code with its parameters: the client words it in its language
        mine = state["view"]["hand"]
        other = next(f"{a}-{b}" for a in range(7) for b in range(a, 7) if f"{a}-{b}" not in mine)
        started = state["view"]["layout"]["first"] is not None
        first = {"play": other, "arm": 0} if started else {"play": other}
        error = error_for(json.dumps({"type": "move", "version": version, "move": first}))
        assert (error["code"], error["reason"], error["params"]) == (
            "illegal",
            "not_held",
            {"tile": other},
        )
        sock.send(json.dumps({"type": "sync"}))
        again = receive(sock)
        while again["type"] != "state":
            again = receive(sock)
        assert again["version"] == version  # nothing changed
        sock.send(json.dumps({"type": "ping"}))
        assert receive(sock)["type"] in ("pong", "state")
    watcher.guest()
    with watcher.socket(game_id) as sock:
        state = receive(sock)
        assert state["you"] is None and state.get("view", {"hand": []})["hand"] == []
        sock.send(
            json.dumps({"type": "move", "version": state["version"], "move": {"knock": True}})
        )
        while (message := receive(sock))["type"] != "error":
            pass
        assert message["code"] == "not_seated"


def test_a_player_who_lets_the_clock_run_out_is_eliminated(server: RunningServer) -> None:
    alice = player(server)
    alice.register("alice")
    wanted = {"game": "goat", "level": "greedy", "seconds_per_move": 1}
    refused = alice.post("/api/play/computer", {**wanted, "rated": True})
    assert refused.status_code == 422
    assert refused.json()["detail"].startswith("games against the computer are not rated")
    game_id = alice.post("/api/play/computer", wanted).json()["game_id"]
    clocks = []
    with alice.socket(game_id) as sock:
        while True:
            state = receive(sock)
            if state["type"] == "state" and "clock" in state:
                clocks.append(state["clock"])
            if state["type"] == "state" and state["status"] != "playing":
                break
    assert clocks and all(0 <= c["remaining_ms"] <= 1000 for c in clocks)
    assert state["status"] == "interrupted"
    assert state["result"]["timeout"] == 0 and state["result"]["losers"] == []
    record = http_get(f"{server.url}/api/games/{game_id}/record").json()
    assert record["rounds"][-1]["end"] == {"kind": "timeout", "seat": 0}
    replay_layout(record)
    assert http_get(f"{server.url}/api/players/alice").json()["rating"] == 0


def unlinked(request: dict[str, Any]) -> dict[str, Any]:
    """A request without its link's code (which only those at it get)."""
    return {k: v for k, v in request.items() if k != "code"}


def test_the_lobby_is_live_and_people_are_paired(server: RunningServer) -> None:
    from websockets.sync.client import connect

    alice, bob = player(server), player(server)
    alice.register("alice")
    bob.register("bob")
    with connect(server.ws + "/ws/lobby") as lobby:
        assert receive(lobby) == {"type": "requests", "version": 0, "requests": []}
        wanted = {"game": "goat", "options": {"players": 2}, "seconds_per_move": 30}
        waiting = alice.post("/api/play/person", wanted).json()
        assert waiting["status"] == "open"
        # the lobby hears each request as its creator got it, but its link
        assert receive(lobby) == {"type": "lobby", "version": 1, "request": unlinked(waiting)}
        # a different wish does not pair; the same one does
        other = bob.post("/api/play/person", {**wanted, "seconds_per_move": 31}).json()
        assert other["id"] != waiting["id"]
        assert receive(lobby)["request"] == unlinked(other)
        bob.post(f"/api/requests/{other['id']}/cancel")
        assert receive(lobby)["request"]["status"] == "cancelled"
        paired = bob.post("/api/play/person", wanted).json()
        assert paired["id"] == waiting["id"] and paired["status"] == "started"
        assert receive(lobby) == {"type": "lobby", "version": 4, "request": unlinked(paired)}
    game = http_get(f"{server.url}/api/games/{paired['game_id']}").json()
    assert [s["name"] for s in game["seats"]] == ["alice", "bob"]
    assert http_get(f"{server.url}/api/games/{paired['game_id']}/record").status_code == 409
    assert http_get(f"{server.url}/api/games/999").status_code == 404


def test_play_with_a_person_never_leaves_two_waiting_for_the_same_game(
    server: RunningServer,
) -> None:
    """Pressed again while waiting: the same request, not a second one. Pressed by several
    people at once: they sit at one request, which starts once it is full."""
    wanted = {"game": "goat", "options": {"players": 3}, "seconds_per_move": 45}
    alice = player(server)
    alice.guest()
    first = alice.post("/api/play/person", wanted).json()
    again = alice.post("/api/play/person", wanted).json()
    assert again["id"] == first["id"] and again["status"] == "open"
    assert sum(1 for s in again["seats"] if s) == 1
    others = [player(server) for _ in range(2)]
    for other in others:
        other.guest()
    threads = [in_thread(other.post, "/api/play/person", wanted) for other in others]
    answers = []
    for thread, out in threads:
        thread.join(10)
        answers.append(out[0].json())
    assert {a["id"] for a in answers} == {first["id"]}
    started = alice.http.get(f"/api/requests/{first['id']}").json()
    assert started["status"] == "started" and started["game_id"]
    assert http_get(f"{server.url}/api/requests").json() == []
    # two people press at the same moment, nobody waiting before them: one game, not two
    # requests (a few times over: the race is a matter of timing)
    for seconds in (46, 47, 48):
        pair = [player(server), player(server)]
        for person in pair:
            person.guest()
        wish = {"game": "goat", "options": {"players": 2}, "seconds_per_move": seconds}
        threads = [in_thread(person.post, "/api/play/person", wish) for person in pair]
        for thread, _ in threads:
            thread.join(10)
        ids = {out[0].json()["id"] for _, out in threads}
        assert len(ids) == 1, f"two requests for one wish: {ids}"
    assert http_get(f"{server.url}/api/requests").json() == []


def test_play_with_the_computer_in_one_click(server: RunningServer) -> None:
    guest = player(server)
    guest.guest()
    # a game of one round: three experts think about a tenth of a second a move in Donkey,
    # and the default game (to 101) took a whole minute of the suite
    short = {"open_threshold": 1, "loss_limit": 1}
    wanted = {"game": "donkey", "level": "expert", "options": short}
    table = guest.post("/api/play/computer", wanted).json()
    assert table["status"] == "started"
    assert [s.get("bot") for s in table["seats"]] == [None, "expert", "expert", "expert"]
    with guest.socket(table["game_id"]) as sock:
        final = play_to_the_end(sock)
    assert final["status"] == "finished" and final["result"]["losers"]
    record = http_get(f"{server.url}/api/games/{table['game_id']}/record").json()
    replay_layout(record)

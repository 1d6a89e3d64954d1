"""Which games are rated, each written as the attack it stops: rating farmed against computer
players in games of one round (30 rated games against random bots with ``loss_limit = 1`` gave
+140 in 4 s and first place on the leaderboard)."""

from __future__ import annotations

import pytest

from kozel.games import GAMES
from kozel.server.club import rated_problem
from kozel.server.offer import CLUB_GAMES
from tests.server.client import Player, http_get, play_to_the_end
from tests.server.conftest import RunningServer


def player(server: RunningServer) -> Player:
    return Player(server.url, server.ws)


def leaderboard(server: RunningServer) -> list[tuple[str, int]]:
    return sorted(
        (r["name"], r["rating"]) for r in http_get(server.url + "/api/leaderboard").json()
    )


def test_farming_rating_against_random_bots_in_one_round_games_is_refused(
    server: RunningServer,
) -> None:
    mallory = player(server)
    assert mallory.register("mallory").status_code == 200
    short = {"game": "goat", "options": {"loss_limit": 1}, "rated": True}
    bots = {str(seat): "random" for seat in (1, 2, 3)}
    attempts = [
        ("/api/play/computer", {**short, "level": "random"}, "games against the computer"),
        ("/api/requests", {**short, "bots": bots}, "games with computer players are not rated"),
        ("/api/requests", short, "a rated game needs loss_limit >= 51 (got 1)"),
        ("/api/play/person", short, "a rated game needs loss_limit >= 51 (got 1)"),
    ]
    for path, body, reason in attempts:
        answer = mallory.post(path, body)
        assert answer.status_code == 422, (path, answer.text)
        assert reason in answer.json()["detail"], answer.json()
    assert http_get(server.url + "/api/requests").json() == []
    # the same game unrated is allowed, and moves nothing
    table = mallory.post("/api/play/computer", {**short, "rated": False, "level": "random"})
    assert table.status_code == 200 and table.json()["rated"] is False
    with mallory.socket(table.json()["game_id"]) as sock:
        final = play_to_the_end(sock)
    assert final["status"] == "finished" and final["rated"] is False
    page = http_get(server.url + "/api/players/mallory").json()
    assert page["rating"] == 0 and page["history"] == []
    assert leaderboard(server) == [("mallory", 0)]


def test_a_rated_request_filled_with_computers_starts_unrated(server: RunningServer) -> None:
    """Filling the free seats of a rated request with computers was a second way to farm:
    the game starts, unrated, and the reply says so."""
    alice, bob = player(server), player(server)
    alice.register("alice")
    bob.register("bob")
    request = alice.post("/api/requests", {"game": "goat", "options": {"players": 3}}).json()
    assert request["rated"] is True  # a request is rated unless it says otherwise
    bob.post(f"/api/requests/{request['id']}/join")
    filled = alice.post(f"/api/requests/{request['id']}/bots", {"level": "random"}).json()
    assert filled["status"] == "started" and filled["rated"] is False
    assert "not rated" in filled["notice"]
    stored = http_get(f"{server.url}/api/requests/{request['id']}").json()
    game = http_get(f"{server.url}/api/games/{filled['game_id']}").json()
    assert stored["rated"] is False and game["rated"] is False
    assert [s.get("bot") for s in game["seats"]] == [None, None, "random"]


def test_an_unrated_request_filled_with_computers_says_nothing(server: RunningServer) -> None:
    alice = player(server)
    alice.register("alice")
    body = {"game": "draw", "options": {"players": 2, "target": 1}, "rated": False}
    request = alice.post("/api/requests", body).json()
    filled = alice.post(f"/api/requests/{request['id']}/bots", {"level": "random"}).json()
    assert filled["status"] == "started" and filled["rated"] is False and "notice" not in filled


@pytest.mark.parametrize("game", [g for g in CLUB_GAMES if not CLUB_GAMES[g].unrated_reason])
def test_every_game_is_offered_rated_with_its_defaults_and_presets(
    server: RunningServer, game: str
) -> None:
    """What the lobby offers as it is can be played rated between people; a game shortened
    below its rated bound cannot, and the refusal names the option and the bound."""
    alice = player(server)
    alice.guest()
    rules = CLUB_GAMES[game]
    for preset in [{}, *rules.presets.values()]:
        answer = alice.post("/api/requests", {"game": game, "options": dict(preset)})
        assert answer.status_code == 200, answer.text
        assert answer.json()["rated"] is True
        assert alice.post(f"/api/requests/{answer.json()['id']}/cancel").status_code == 200
    for spec in rules.option_specs:
        for bound, outside in ((spec.rated_minimum, -1), (spec.rated_maximum, +1)):
            if bound is None:
                continue
            options = {spec.name: bound + outside}
            answer = alice.post("/api/requests", {"game": game, "options": options})
            assert answer.status_code == 422
            needs = f"a rated game needs {spec.name} {spec.rated_bounds()}"
            assert needs in answer.json()["detail"]
            unrated = alice.post(
                "/api/requests", {"game": game, "options": options, "rated": False}
            )
            assert unrated.status_code == 200 and unrated.json()["rated"] is False
            assert alice.post(f"/api/requests/{unrated.json()['id']}/cancel").status_code == 200


def test_no_stored_request_with_a_computer_seat_is_rated() -> None:
    """The last check before a game starts, whatever path led there."""
    people = [{"user": 1, "name": "a"}, {"user": 2, "name": "b"}]
    options = GAMES["goat"].options_dict(GAMES["goat"].options({"players": 2}))
    assert rated_problem("goat", options, people) == ""
    assert rated_problem("goat", options, [people[0], {"bot": "expert"}]) != ""
    short = {**options, "loss_limit": 50}
    assert rated_problem("goat", short, people) == "a rated game needs loss_limit >= 51 (got 50)"


def test_a_lone_bykovo_game_is_never_rated(server: RunningServer) -> None:
    """Decision 7: Bykovo is rated only as a micro-tournament; a lone game is played unrated."""
    alice = player(server)
    alice.guest()
    answer = alice.post("/api/requests", {"game": "bykovo", "options": {}})
    assert answer.status_code == 422 and answer.json()["code"] == "never_rated"
    assert "rated only as a micro-tournament" in answer.json()["detail"]
    unrated = alice.post("/api/requests", {"game": "bykovo", "options": {}, "rated": False})
    assert unrated.status_code == 200 and unrated.json()["rated"] is False
    assert alice.post(f"/api/requests/{unrated.json()['id']}/cancel").status_code == 200

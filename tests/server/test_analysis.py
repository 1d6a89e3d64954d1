"""The expert's judgement of finished games through the club's API
(``GET /api/games/{id}/analysis``): refused before the game is over, queued on the first ask,
computed seat by seat by the analysis worker, kept in the database across a restart, and
available for layout games, Poker and Trumps."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest

from kozel.core import PIPS, TILE_NAMES
from kozel.server.settings import Settings
from tests.server.client import Player, play_to_the_end, receive
from tests.server.conftest import RunningServer

WEIGHT = {name: PIPS[t] for t, name in enumerate(TILE_NAMES)}


@pytest.fixture
def settings(db_url: str) -> Settings:
    # a small budget for the expert (the judgement's figures are not what is tested here)
    return Settings(
        db_url=db_url,
        min_seconds_per_move=1,
        bot_delay_ms=0,
        round_pause_seconds=0,
        seed_seconds=0,
        analysis_worlds=16,
        analysis_playouts=8,
        analysis_poll_seconds=0.2,
    )


def lightest(legal: list[dict[str, Any]]) -> dict[str, Any]:
    """A deliberately bad player's move: its lightest tile that fits (keeping heavy ones)."""
    plays = [m for m in legal if isinstance(m.get("play"), str)]
    return min(plays, key=lambda m: WEIGHT[m["play"]]) if plays else legal[0]


def play_badly(sock: Any) -> dict[str, Any]:
    """Answer every state where this seat is to move with :func:`lightest`, to the end."""
    seen = -1
    while True:
        message = receive(sock, timeout=60)
        if message["type"] != "state" or message["version"] <= seen:
            continue
        seen = message["version"]
        if message["status"] != "playing":
            return message
        view = message.get("view")
        if view and view["turn"] == message["you"] and view["legal_moves"]:
            move = lightest(view["legal_moves"])
            sock.send(json.dumps({"type": "move", "version": seen, "move": move}))


def judged(alice: Player, game_id: int, seconds: float = 180) -> dict[str, Any]:
    """Ask for the game's judgement until it is done (each ask answers at once)."""
    deadline = time.monotonic() + seconds
    while True:
        answer = alice.http.get(f"/api/games/{game_id}/analysis")
        assert answer.status_code == 200, answer.text
        data: dict[str, Any] = answer.json()
        assert data["status"] in ("queued", "running", "done"), data
        assert data["progress"]["done"] == len(data["seats"]) <= data["progress"]["of"]
        if data["status"] == "done":
            return data
        assert time.monotonic() < deadline, data
        time.sleep(0.3)


def badly_played(alice: Player, tries: int = 4) -> tuple[int, dict[str, Any]]:
    """A game of Goat that ``alice`` played badly (:func:`lightest`) against the amateur, and
    its judgement, in which she made a large mistake: the deals are the shuffle's, and a short
    game may offer no decision where keeping the heavy tiles costs much, so another game is
    played then (at most ``tries``)."""
    for _ in range(tries):
        request = alice.post(
            "/api/requests",
            {
                "game": "goat",
                "options": {"players": 2, "loss_limit": 100},
                "rated": False,
                "bots": {"1": "amateur"},
            },
        ).json()
        game_id = request["game_id"]
        with alice.socket(game_id) as sock:
            # hidden hands are in the judgement: nothing of a game in play
            early = alice.http.get(f"/api/games/{game_id}/analysis")
            assert early.status_code == 409 and early.json()["code"] == "not_over"
            assert play_badly(sock)["status"] == "finished"
        data = judged(alice, game_id)
        if data["seats"][0]["mistakes"]:
            return game_id, data
    raise AssertionError(f"no large mistake found in {tries} games played badly")


def test_a_finished_games_judgement_is_computed_once_and_kept(
    settings: Settings, server: RunningServer
) -> None:
    alice = Player(server.url, server.ws)
    alice.guest()
    game_id, data = badly_played(alice)
    record = alice.http.get(f"/api/games/{game_id}/record").json()
    positions = alice.http.get(f"/api/games/{game_id}/positions").json()
    assert data["unit"] == "points" and data["progress"] == {"done": 2, "of": 2}
    bad, amateur = data["seats"]
    assert [bad["seat"], amateur["seat"]] == [0, 1]
    assert bad["judged"] and bad["decisions"], bad
    for seat in (bad, amateur):
        for d in seat["decisions"]:
            recorded = record["rounds"][d["round"] - 1]["moves"][d["move"] - 1]
            assert recorded["seat"] == seat["seat"]
            assert d["played"] == {k: v for k, v in recorded.items() if k != "seat"}
            assert 0 <= d["loss"] <= d["spread"] and d["choices"] >= 2
            assert d["mistake"] == (d["loss"] >= 0.5 * d["spread"] and d["loss"] >= 3)
            # the same tile on either of two ends showing the same value is the same move
            arms = positions["rounds"][d["round"] - 1]["positions"][d["move"] - 1]["layout"]
            shows = {arm["arm"]: arm["shows"] for arm in arms["arms"]}
            played, best = d["played"], d["best"]
            same_tile = played.get("play") == best.get("play") and "arm" in played | best
            if same_tile and shows.get(played.get("arm")) == shows.get(best.get("arm")):
                assert played == best and d["loss"] == 0, d
        assert seat["mistakes"] == sum(d["mistake"] for d in seat["decisions"])
        # the accuracy is docs/bots.md's, of the decisions listed (each rounded for the page)
        lost, spread = (sum(d[k] for d in seat["decisions"]) for k in ("loss", "spread"))
        assert seat["accuracy"] == pytest.approx(100 * (1 - lost / spread), abs=0.2), seat
    # (which of the two is the more accurate in one short game is the deal's: not asserted)
    assert bad["mistakes"] >= 1 and bad["accuracy"] < 100
    # asked again: the same judgement, at once; and after a restart, from the database
    assert alice.http.get(f"/api/games/{game_id}/analysis").json() == data
    server.stop()
    again = RunningServer(settings)
    try:
        kept = Player(again.url, again.ws).http.get(f"/api/games/{game_id}/analysis").json()
        assert kept == data
    finally:
        again.stop()


def test_a_game_that_does_not_exist_has_no_judgement(server: RunningServer) -> None:
    answer = Player(server.url, server.ws).http.get("/api/games/999/analysis")
    assert answer.status_code == 404 and answer.json()["code"] == "no_game"


HANDS: dict[str, dict[str, Any]] = {
    "poker": {"players": 3, "hands": 2},
    "trumps": {"target": 40},
}


@pytest.mark.parametrize("game", list(HANDS))
def test_poker_and_trumps_are_judged_too(server: RunningServer, game: str) -> None:
    alice = Player(server.url, server.ws)
    alice.guest()
    seats = 4 if game == "trumps" else HANDS[game]["players"]
    bots = {str(s): "amateur" for s in range(1, seats)}
    request = alice.post(
        "/api/requests", {"game": game, "options": HANDS[game], "rated": False, "bots": bots}
    ).json()
    with alice.socket(request["game_id"]) as sock:
        assert play_to_the_end(sock)["status"] == "finished"
    data = judged(alice, request["game_id"])
    assert data["unit"] == ("chips" if game == "poker" else "points")
    assert len(data["seats"]) == seats
    assert all(s["judged"] for s in data["seats"])
    assert any(s["decisions"] for s in data["seats"])
    skipped = {s["skipped"] for s in data["seats"]}
    assert skipped == ({"bids"} if game == "trumps" else {""})
    if game == "trumps":  # bids are not judged: no decision is a bid or a pass
        assert not any(
            "bid" in d["played"] or "pass" in d["played"]
            for s in data["seats"]
            for d in s["decisions"]
        )


@pytest.fixture
def busy_settings(db_url: str) -> Iterator[Settings]:
    yield Settings(
        db_url=db_url, bot_delay_ms=0, round_pause_seconds=0, seed_seconds=0, analysis_queue=0
    )


def test_a_full_queue_refuses_at_once(busy_settings: Settings) -> None:
    running = RunningServer(busy_settings)
    try:
        alice = Player(running.url, running.ws)
        alice.guest()
        request = alice.post(
            "/api/requests",
            {
                "game": "goat",
                "options": {"players": 2, "loss_limit": 40},
                "rated": False,
                "bots": {"1": "amateur"},
            },
        ).json()
        with alice.socket(request["game_id"]) as sock:
            assert play_to_the_end(sock)["status"] == "finished"
        answer = alice.http.get(f"/api/games/{request['game_id']}/analysis")
        assert answer.status_code == 503 and answer.json()["code"] == "busy"
    finally:
        running.stop()

"""Domino Poker and Trumps through the club, like every other game: /api/rules names their tables,
requests take their options, whole games are played over the table socket and leave records that
replay, a rated game moves ratings by docs/rules.md#club's Decision (the winner gains 5; after a
timeout every other player gains 1), and no message to a seat names a tile it may not see."""

from __future__ import annotations

import asyncio
import json
import re
import time
from typing import Any

import pytest

from kozel.core import TILE_NAMES
from kozel.games import get_game
from kozel.server.db import GameEvent
from kozel.shuffle import round_stream
from tests.server.client import Player, http_get, in_thread, play_to_the_end, receive
from tests.server.conftest import RunningServer
from tests.server.test_hidden_information import Inspect, Received, Tally, play_many

TILE = re.compile(r"\b[0-6]-[0-6]\b")
GAMES = {"poker": {"players": 3, "hands": 4, "limit": "no_limit"}, "trumps": {"target": 60}}
"""Each game with options of its own, short enough to play to the end in a test."""


def player(server: RunningServer) -> Player:
    return Player(server.url, server.ws)


def test_the_rules_name_each_games_table(server: RunningServer) -> None:
    listed = {g["id"]: g for g in http_get(server.url + "/api/rules").json()}
    assert listed["poker"]["table"] == "poker" and listed["poker"]["sheet"] == "chips"
    assert listed["trumps"]["table"] == "tricks" and listed["trumps"]["sheet"] == "race"
    assert listed["donkey"]["table"] == "layout" and listed["donkey"]["board"] == "cross"
    assert "board" not in listed["poker"] and "board" not in listed["trumps"]
    assert listed["trumps"]["pairs"] and not listed["poker"]["pairs"]
    assert not listed["classic"]["pairs"]  # its pairs are an option the record names
    limit = next(o for o in listed["poker"]["options"] if o["name"] == "limit")
    assert limit["choices"] == ["fixed", "no_limit"]
    assert listed["poker"]["presets"] == {"no-limit": {"limit": "no_limit"}}


@pytest.mark.parametrize("game", list(GAMES))
def test_a_whole_game_over_the_socket(server: RunningServer, game: str) -> None:
    """A person (always the first legal move) against computer players: the game ends by its
    rules, the state carries each finished hand, the record replays through the rules."""
    alice = player(server)
    alice.guest()
    options = GAMES[game]
    rules = get_game(game)
    players = rules.options(options).players
    bots = {str(s): ("greedy", "expert")[s % 2] for s in range(1, players)}
    request = alice.post(
        "/api/requests", {"game": game, "options": options, "rated": False, "bots": bots}
    )
    assert request.status_code == 200, request.text
    assert request.json()["options"] == rules.options_dict(rules.options(options))
    game_id = request.json()["game_id"]
    with alice.socket(game_id) as sock:
        last = play_to_the_end(sock)
    assert last["status"] == "finished", last.get("result")
    result = last["result"]
    scores = "chips" if game == "poker" else "scores"  # as the record names them
    assert set(result) == {"winners", scores, "rating", "timeout"} and result["timeout"] is None
    assert last["view"]["game"] == game and last["view"]["over"]
    record = alice.http.get(f"/api/games/{game_id}/record").json()
    assert record["game"] == game and record["result"] == {
        k: v for k, v in result.items() if k != "timeout"
    }
    match = rules.replay(record)
    assert match.over and len(record["rounds"]) == len(last["rounds"])
    for summary, hand in zip(last["rounds"], record["rounds"], strict=True):
        assert summary["end"] == hand["end"] and summary["dealer"] == hand["dealer"]
    positions = alice.http.get(f"/api/games/{game_id}/positions")
    assert positions.status_code == 422 and positions.json()["code"] == "no_positions"


def test_another_games_options_are_refused(server: RunningServer) -> None:
    alice = player(server)
    alice.guest()
    cases = [
        ("poker", {"target": 100}, "poker has no option 'target'"),
        ("trumps", {"players": 3}, "trumps has no option 'players'"),
        ("poker", {"players": 5}, "option 'players' must be one of 2, 3, 4"),
        ("poker", {"limit": "pot"}, "option 'limit' must be one of fixed, no_limit"),
    ]
    for game, options, message in cases:
        answer = alice.post("/api/requests", {"game": game, "options": options})
        assert answer.status_code == 422, (game, options)
        assert message in answer.json()["detail"], answer.json()


def rating(server: RunningServer, name: str) -> int:
    answer: int = http_get(f"{server.url}/api/players/{name}").json()["rating"]
    return answer


def test_a_rated_trumps_game_gives_the_winning_pair_five(server: RunningServer) -> None:
    """Four people play to 100 (the rated minimum), each its first legal move: both players of
    the winning pair gain 5, the others nothing."""
    people = [player(server) for _ in range(4)]
    names = ["north", "east", "south", "west"]
    for person, name in zip(people, names, strict=True):
        assert person.register(name).status_code == 200
    request = (
        people[0]
        .post("/api/requests", {"game": "trumps", "options": {"target": 100}, "rated": True})
        .json()
    )
    for person in people[1:]:
        joined = person.post(f"/api/requests/{request['id']}/join")
        assert joined.status_code == 200, joined.text
    game_id = people[0].http.get(f"/api/requests/{request['id']}").json()["game_id"]
    sockets = [person.socket(game_id) for person in people]
    threads = [in_thread(play_to_the_end, sock.__enter__()) for sock in sockets]
    for thread, _ in threads:
        thread.join(120)
    for sock in sockets:
        sock.__exit__(None, None, None)
    last = threads[0][1][0]
    assert last["status"] == "finished" and last["rated"]
    winner = last["result"]["winners"][0]
    gains = [rating(server, name) for name in names]
    assert gains == [5 if seat % 2 == winner else 0 for seat in range(4)]


def test_a_rated_poker_game_ended_by_the_clock(server: RunningServer) -> None:
    """Nobody moves: the first to act runs out of time and the game ends; the other gains 1."""
    alice, bob = player(server), player(server)
    assert alice.register("alice").status_code == 200 and bob.register("bob").status_code == 200
    request = alice.post(
        "/api/requests",
        {"game": "poker", "options": {"players": 2}, "rated": True, "seconds_per_move": 1},
    ).json()
    assert bob.post(f"/api/requests/{request['id']}/join").status_code == 200
    game_id = alice.http.get(f"/api/requests/{request['id']}").json()["game_id"]
    with alice.socket(game_id) as sock:
        deadline = time.monotonic() + 30
        while (state := receive(sock))["status"] == "playing":
            assert time.monotonic() < deadline, "the clock never ran out"
    timed_out = state["result"]["timeout"]
    assert state["status"] == "interrupted" and state["result"]["winners"] == []
    assert [rating(server, n) for n in ("alice", "bob")] == [int(s != timed_out) for s in (0, 1)]


# --- hidden information -----------------------------------------------------------------------


Truth = dict[int, tuple[list[set[str]], list[set[str]], set[str]]]
"""Per version: each seat's hand, what else each seat may know of the hand in play (its
discards), and what every seat may see of it (tiles played, hands shown at the showdown)."""


def poker_truth(events: list[GameEvent], server_seed: str | None) -> Truth:
    """Where the tiles are by the engine's own account of each stored event (its views, the
    messages, are what is checked); each hand's draws from the shuffled discards come from
    its stream of the verifiable shuffle, as at the table."""
    rules = get_game("poker")
    match: Any = rules.new_match(rules.options(GAMES["poker"]), None)
    out: Truth = {}
    seeds: list[str | None] = [None] * match.opts.players
    for event in events:
        if event.kind == "seed":
            seeds[event.data["seat"]] = event.data["seed"]
            continue
        if event.kind == "deal":
            number = match.progress()[0] + 1
            stream = round_stream(server_seed, seeds, number) if server_seed else None
            match.apply_deal(event.data, stream)
        elif event.kind == "move":
            match.push(match.read_move(event.data["move"]))
        else:
            match.timeout(event.data["seat"])
        hand = match.hand
        out[event.version] = (
            [{TILE_NAMES[t] for t in tiles} for tiles in hand.hands],
            [{TILE_NAMES[t] for t in tiles} for tiles in hand.own_discards],
            {tile for entry in hand.showdown for tile in entry["hand"]},
        )
    return out


def trumps_truth(events: list[GameEvent], _server_seed: str | None) -> Truth:
    """Where the tiles are, from the stored events alone (a deal, then each tile laid)."""
    hands: list[set[str]] = []
    played: set[str] = set()
    out: Truth = {}
    for event in events:
        if event.kind == "deal":
            hands = [set(h) for h in event.data["hands"]]
            played = set()
        elif event.kind == "move" and "play" in event.data["move"]:
            hands[event.data["seat"]].remove(event.data["move"]["play"])
            played.add(event.data["move"]["play"])
        out[event.version] = ([set(h) for h in hands], [set() for _ in hands], set(played))
    return out


def checker(game: str) -> Inspect:
    """What a seat is sent of the hand in play names only its own tiles and what every seat
    may see; the finished hands' summaries hold no deal and no moves (a Poker summary's
    showdown was public)."""
    rebuild = poker_truth if game == "poker" else trumps_truth

    def check(
        seat: int | None,
        received: list[Received],
        events: list[GameEvent],
        tally: Tally,
        server_seed: str | None,
    ) -> None:
        truth = rebuild(events, server_seed)
        who = "spectators" if seat is None else f"seat {seat}"
        for _, _text, message in received:
            version = message["version"]
            if "view" not in message:
                assert not TILE.findall(_text), f"{who}: tiles before the deal"
                continue
            hands, knows, public = truth[version]
            own = hands[seat] | knows[seat] if seat is not None else set()
            view = message["view"]
            assert set(view["hand"]) == (hands[seat] if seat is not None else set()), who
            current = {k: v for k, v in message.items() if k != "rounds"}
            # the last hand's showdown stays on the table into the next deal (its tiles may
            # be in anyone's new hand): it is checked as the summaries are
            current["view"] = {k: v for k, v in view.items() if k != "last_showdown"}
            for entry in view.get("last_showdown", []):
                assert set(entry) == {"seat", "hand", "category"}
            named = set(TILE.findall(json.dumps(current)))
            leaked = named - own - public
            assert not leaked, f"{who} at {version} ({game}) was sent hidden tiles {sorted(leaked)}"
            for summary in message["rounds"]:
                assert "deal" not in summary and "moves" not in summary
            tally.messages += 1
            tally.tiles_seen += len(named)

    return check


def test_no_message_names_a_hidden_tile(db_url: str) -> None:
    count = 12 if db_url.startswith("sqlite") else 4
    for game in GAMES:
        levels = [["random", "greedy"], ["greedy", "expert"]]
        games = [(game, GAMES[game], levels[n % 2]) for n in range(count)]
        tally = asyncio.run(play_many(db_url, games, checker(game)))
        assert tally.games == count and tally.finished == count
        assert tally.tiles_seen > 0 and tally.deals > count


def test_the_check_catches_a_leak() -> None:
    """A message naming another seat's tile fails the check, so the test above can fail."""
    deal = {"hands": [["0-0", "0-1"], ["1-1", "1-2"], ["2-2", "2-3"], ["3-3", "3-4"]]}
    events = [GameEvent(game_id=1, version=1, kind="deal", data=deal)]
    honest = {"type": "state", "version": 1, "view": {"hand": ["0-0", "0-1"]}, "rounds": []}
    checker("trumps")(0, [(0.0, json.dumps(honest), honest)], events, Tally(), None)
    leaky = {**honest, "view": {"hand": ["0-0", "0-1"], "trick": [{"seat": 1, "tile": "1-2"}]}}
    with pytest.raises(AssertionError, match="hidden tiles"):
        checker("trumps")(0, [(0.0, json.dumps(leaky), leaky)], events, Tally(), None)

"""Every game of the registry through the club: what /api/rules tells a client, requests with
each game's own options (and another game's options refused), whole games of the winner-scoring
races over the table socket, and the review's positions computed by the engine."""

from __future__ import annotations

from typing import Any

import pytest

from kozel.games import get_game, replay_layout
from kozel.layout.rules import Ruleset
from kozel.layout.views import view_for
from kozel.server.offer import CLUB_GAMES
from tests.server.client import Player, http_get, play_to_the_end, receive
from tests.server.conftest import RunningServer

RACES = ["draw", "block", "classic", "sea_goat"]
OWN_OPTIONS: dict[str, dict[str, Any]] = {
    "draw": {"players": 3, "target": 150},
    "block": {"players": 2, "target": 60},
    "classic": {"players": 4, "teams": True, "target": 200},
    "sea_goat": {"players": 3, "target": 90, "open_at": 30},
}
SHORT: dict[str, dict[str, Any]] = {
    "draw": {"players": 3, "target": 60},
    "block": {"players": 2, "target": 60},
    "classic": {"players": 4, "teams": True, "target": 100},
    "sea_goat": {"players": 3, "target": 60},
}
"""Games of a few rounds each."""


def player(server: RunningServer) -> Player:
    return Player(server.url, server.ws)


def test_the_rules_describe_every_game_for_a_client(server: RunningServer) -> None:
    listed = http_get(server.url + "/api/rules").json()
    assert [g["id"] for g in listed] == list(CLUB_GAMES)
    for game in listed:
        rules = get_game(game["id"])
        assert game["family"] == rules.sheet_kind in ("goat", "race", "chips")
        assert game["sheet"] == rules.sheet_kind and game["table"] == rules.table
        if isinstance(rules, Ruleset):
            assert game["board"] == ("cross" if rules.spinner else "line")
        assert [o["name"] for o in game["options"]] == [s.name for s in rules.option_specs]
        for option, spec in zip(game["options"], rules.option_specs, strict=True):
            assert option["default"] == spec.default and option["help"] == spec.help
            assert option["maximum"] == spec.maximum and option["minimum"] == spec.minimum
            assert option["rated_minimum"] == spec.rated_minimum
            assert option["rated_maximum"] == spec.rated_maximum
            assert option["choices"] == list(spec.choices) and option["kind"] == spec.kind
    by_id = {g["id"]: g for g in listed}
    assert by_id["donkey"]["board"] == "cross" and by_id["sea_goat"]["board"] == "line"
    assert {by_id[g]["family"] for g in RACES} == {"race"}
    assert {by_id[g]["family"] for g in ("goat", "donkey")} == {"goat"}
    assert by_id["poker"]["family"] == "chips" and by_id["trumps"]["family"] == "race"
    target = next(o for o in by_id["draw"]["options"] if o["name"] == "target")
    assert target["kind"] == "int" and target["minimum"] == 1 and target["maximum"] == 10_000
    assert target["rated_minimum"] == 50 and target["rated_maximum"] is None
    loss_limit = next(o for o in by_id["goat"]["options"] if o["name"] == "loss_limit")
    assert loss_limit["rated_minimum"] == 51


@pytest.mark.parametrize("game", RACES)
def test_a_request_for_each_new_game_with_its_own_options(server: RunningServer, game: str) -> None:
    alice = player(server)
    alice.guest()
    answer = alice.post("/api/requests", {"game": game, "options": OWN_OPTIONS[game]})
    assert answer.status_code == 200, answer.text
    request = answer.json()
    rules = get_game(game)
    assert request["game"] == game
    assert request["options"] == rules.options_dict(rules.options(OWN_OPTIONS[game]))
    assert len(request["seats"]) == OWN_OPTIONS[game]["players"]
    assert alice.post(f"/api/requests/{request['id']}/cancel").status_code == 200


def test_another_games_options_are_refused_with_a_clear_message(server: RunningServer) -> None:
    alice = player(server)
    alice.guest()
    cases = [
        ("draw", {"loss_limit": 50}, "draw has no option 'loss_limit'; its options are"),
        ("sea_goat", {"fish_mode": "everyone"}, "sea_goat has no option 'fish_mode'"),
        ("goat", {"target": 50}, "goat has no option 'target'"),
        ("block", {"open_at": 25}, "block has no option 'open_at'; its options are"),
        ("classic", {"target": 10_001}, "option 'target' must be an integer 1..10000"),
        ("sea_goat", {"open_at": 0}, "option 'open_at' must be an integer 1..1000"),
        ("draw", {"players": 3, "teams": True}, "teams needs players = 4"),
    ]
    for game, options, message in cases:
        for path in ("/api/requests", "/api/play/computer", "/api/play/person"):
            answer = alice.post(path, {"game": game, "options": options})
            assert answer.status_code == 422, (game, options, path)
            assert message in answer.json()["detail"], answer.json()


@pytest.mark.parametrize("game", RACES)
def test_a_whole_race_game_over_the_socket(server: RunningServer, game: str) -> None:
    """A person (always the first legal move) against computer players, to the end: the state
    carries the race's sheet, each round's winner and credit, the winners; the record replays;
    the review's positions are the engine's."""
    alice = player(server)
    alice.guest()
    options = SHORT[game]
    bots = {str(s): "greedy" for s in range(1, options["players"])}
    request = alice.post(
        "/api/requests", {"game": game, "options": options, "rated": False, "bots": bots}
    ).json()
    game_id = request["game_id"]
    assert game_id, request
    with alice.socket(game_id) as sock:
        last = play_to_the_end(sock)
    assert last["status"] == "finished", last.get("result")
    result = last["result"]
    assert set(result) == {"winners", "scores", "rating", "timeout"} and result["timeout"] is None
    assert result["winners"] and "losers" not in result
    view = last["view"]
    assert all(isinstance(cell, int) for cell in view["sheet"])
    assert view["sheet"] == result["scores"]
    rules = get_game(game)
    opts = rules.options(options)
    for entry in last["rounds"]:
        assert set(entry) >= {"end", "counts", "sheet", "eggs", "winner", "credit", "decided_by"}
        assert len(entry["sheet"]) == opts.units
        for cell in entry["sheet"]:
            assert set(cell) >= {"before", "during", "credited", "after"}
        if entry["end"]["kind"] == "out":
            assert entry["winner"] == opts.unit_of(entry["end"]["seat"])
        credited = [c["credited"] for c in entry["sheet"]]
        if game != "sea_goat" and entry["winner"] is not None:
            assert credited[entry["winner"]] == entry["credit"]
        assert (entry["decided_by"] is not None) == ("decides" in entry["end"])

    record = alice.http.get(f"/api/games/{game_id}/record").json()
    assert record["result"] == {k: v for k, v in result.items() if k != "timeout"}
    match = replay_layout(record)
    assert [r["sheet"] for r in record["rounds"]] == [r["sheet"] for r in last["rounds"]]
    positions = alice.http.get(f"/api/games/{game_id}/positions").json()
    check_positions(record, positions)
    assert (
        positions["rounds"][-1]["positions"][-1]["layout"]
        == (view_for(match, None).to_dict()["layout"])
    )


def check_positions(record: dict[str, Any], positions: dict[str, Any]) -> None:
    """Every position against the record, step by step: the deal, the tiles leaving a hand
    for the layout, the draws, the turn."""
    assert positions["game"] == record["game"]
    assert len(positions["rounds"]) == len(record["rounds"])
    for raw, walked in zip(record["rounds"], positions["rounds"], strict=True):
        steps = walked["positions"]
        assert len(steps) == len(raw["moves"]) + 1
        hands = [sorted(h) for h in raw["deal"]["hands"]]
        laid: set[str] = set()
        bazaar = len(raw["deal"]["bazaar"])
        assert steps[0]["move"] is None and steps[0]["layout"]["first"] is None
        for move, step in zip([None, *raw["moves"]], steps, strict=True):
            if move is not None:
                assert step["move"] == move
                tiles = [d["tile"] for d in move.get("doubles", [])]
                tiles += [move["play"]] if "play" in move else []
                for tile in tiles:
                    hands[move["seat"]].remove(tile)
                    laid.add(tile)
                if "draw" in move:
                    hands[move["seat"]] = sorted([*hands[move["seat"]], move["draw"]])
                    bazaar -= 1
                assert step["laid"] == tiles
            assert [sorted(h) for h in step["hands"]] == hands
            assert step["bazaar_left"] + step["reserve"] == bazaar
            layout = step["layout"]
            on_table = {t for arm in layout["arms"] for t in arm["tiles"]}
            if layout["first"]:
                on_table.add(layout["first"])
            assert on_table == laid
        assert steps[-1]["turn"] is None
        assert steps[0]["turn"] == (raw["moves"][0]["seat"] if raw["moves"] else steps[0]["turn"])


def test_positions_of_a_goat_game_and_of_a_game_not_over(server: RunningServer) -> None:
    alice = player(server)
    alice.guest()
    request = alice.post(
        "/api/play/computer",
        {"game": "donkey", "options": {"players": 2, "loss_limit": 15}, "level": "greedy"},
    ).json()
    game_id = request["game_id"]
    answer = alice.http.get(f"/api/games/{game_id}/positions")
    assert answer.status_code == 409 and "not over" in answer.json()["detail"]
    with alice.socket(game_id) as sock:
        last = play_to_the_end(sock)
    assert last["status"] == "finished"
    assert set(last["result"]) == {"losers", "accounts", "rating", "timeout"}
    record = alice.http.get(f"/api/games/{game_id}/record").json()
    positions = alice.http.get(f"/api/games/{game_id}/positions").json()
    check_positions(record, positions)
    crosses = [r["positions"][-1]["layout"] for r in positions["rounds"]]
    assert all(len(layout["arms"]) == (4 if layout["spinner"] else 2) for layout in crosses)
    assert alice.http.get("/api/games/999999/positions").status_code == 404


def test_each_game_deals_its_own_hands(server: RunningServer) -> None:
    """Draw with four players deals five tiles each, and the other eight are the bazaar."""
    alice = player(server)
    alice.guest()
    request = alice.post(
        "/api/play/computer", {"game": "draw", "options": {"players": 4}, "level": "random"}
    ).json()
    with alice.socket(request["game_id"]) as sock:
        state = receive(sock)
        while not state.get("view"):
            state = receive(sock)
    view = state["view"]
    mine = [e for e in view["history"] if e["seat"] == 0]
    laid = sum(len(e["doubles"]) if "doubles" in e else "play" in e for e in mine)
    drawn = sum("draw" in e for e in mine)
    assert len(view["hand"]) + laid - drawn == 5
    on_table = sum(len(a["tiles"]) for a in view["layout"]["arms"]) + bool(view["layout"]["first"])
    assert sum(view["hand_sizes"]) + on_table + view["bazaar_left"] == 28


def test_a_lone_bykovo_game_over_the_socket(server: RunningServer) -> None:
    """Bykovo in the club, unrated: every view of the person's turn after the lead offers the
    pass, the game ends with its places, and the record replays."""
    alice = player(server)
    alice.guest()
    bots = {str(s): "greedy" for s in range(1, 4)}
    request = alice.post(
        "/api/requests", {"game": "bykovo", "options": {}, "rated": False, "bots": bots}
    ).json()
    game_id = request["game_id"]
    assert game_id, request
    log: list[dict[str, Any]] = []
    with alice.socket(game_id) as sock:
        last = play_to_the_end(sock, log)
    assert last["status"] == "finished", last.get("result")
    turns = [
        m["view"]
        for m in log
        if m["type"] == "state" and m.get("view") and m["view"]["turn"] == m["you"]
    ]
    assert turns
    for view in turns:
        if view["layout"]["first"] is None:
            assert view["legal_moves"] == [{"play": "0-0"}]
        else:
            assert {"knock": True} in view["legal_moves"]
    result = last["result"]
    assert result["rating"] == [0, 0, 0, 0] and len(result["winners"]) == 1
    assert sorted(result["places"]) == [0, 1, 2, 3]
    (entry,) = last["rounds"]
    assert entry["end"]["kind"] in ("out", "fish", "sortir")
    assert entry["end"]["places"] == result["places"] == entry["places"]
    record = alice.http.get(f"/api/games/{game_id}/record").json()
    assert record["game"] == "bykovo" and record["options"] == {}
    replay_layout(record)
    positions = alice.http.get(f"/api/games/{game_id}/positions").json()
    check_positions(record, positions)

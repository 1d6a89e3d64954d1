"""Every game's record goes through one replay loop (:func:`kozel.engine.record.replay_rounds`):
its frame, the order of its rounds and its result are checked alike, by the same words, in the
layout games and in the games played in hands."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest

from kozel.engine.errors import RecordError
from kozel.games import get_game, replay_game
from kozel.simulate import play_match

Record = dict[str, Any]
GAMES = [
    ("goat", {"players": 3}, "round"),
    ("poker", {"players": 3}, "hand"),
    ("trumps", {}, "hand"),
]


def record_of(game: str, options: dict[str, Any], seed: int = 5) -> Record:
    rules = get_game(game)
    opts = rules.options(options)
    bots = [rules.make_bot("random", seed + s) for s in range(opts.players)]
    match = play_match(rules, opts, bots, seed)
    record: Record = json.loads(json.dumps(match.record([f"p{s}" for s in range(opts.players)])))
    return record


def _without(key: str) -> Callable[[Record], None]:
    def change(record: Record) -> None:
        del record[key]

    return change


def _false_for_zero(record: Record) -> None:
    rating = record["result"]["rating"]
    assert 0 in rating
    record["result"]["rating"] = [False if r == 0 else r for r in rating]


def _timeout(record: Record) -> None:
    record["result"]["timeout"] = 1


FRAME: list[tuple[str, Callable[[Record], None], str]] = [
    ("no seed", _without("seed"), "record: missing 'seed'"),
    ("no seats", _without("seats"), "record: missing 'seats'"),
    ("no result", _without("result"), "record: missing 'result'"),
    ("false for 0", _false_for_zero, "result: rating is ["),
    ("timeout", _timeout, "result: timeout is 1 but the rules give None"),
]


@pytest.mark.parametrize(("game", "options", "noun"), GAMES, ids=[g[0] for g in GAMES])
@pytest.mark.parametrize(("name", "change", "message"), FRAME, ids=[f[0] for f in FRAME])
def test_every_games_frame_and_result_are_checked_alike(
    game: str,
    options: dict[str, Any],
    noun: str,
    name: str,
    change: Callable[[Record], None],
    message: str,
) -> None:
    record = record_of(game, options)
    assert replay_game(record).over
    change(record)
    with pytest.raises(RecordError) as caught:
        replay_game(record)
    assert message in str(caught.value), str(caught.value)


@pytest.mark.parametrize(("game", "options", "noun"), GAMES, ids=[g[0] for g in GAMES])
def test_every_game_ends_with_its_last_round(game: str, options: dict[str, Any], noun: str) -> None:
    record = record_of(game, options)
    n = len(record["rounds"])
    longer = copy.deepcopy(record)
    longer["rounds"].append(longer["rounds"][-1])
    with pytest.raises(RecordError, match=f"{noun} {n + 1}: the game was already over after"):
        replay_game(longer)
    shorter = copy.deepcopy(record)
    shorter["rounds"].pop()
    with pytest.raises(RecordError, match=f"{noun} {n - 1}: the game is not over after the last"):
        replay_game(shorter)

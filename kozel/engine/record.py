"""The frame of a ``kozel-record/1`` record (docs/record.md), alike for every game: the format,
the game, its options, the seats, the seed, the rounds and the result. Each game writes and
replays what is inside its rounds itself (the layout games: :mod:`kozel.layout.notation`)."""

from __future__ import annotations

import json
from typing import Any

from kozel.core import InvalidOption
from kozel.engine.errors import RecordError, is_int, want
from kozel.engine.options import DeclaredOptions, Options
from kozel.engine.result import MatchResult

FORMAT = "kozel-record/1"
TOURNAMENT_FORMAT = "kozel-tournament/1"
"""A micro-tournament's record (:mod:`kozel.layout.tournament`): a file line may hold one."""


def dumps(record: dict[str, Any]) -> str:
    """One record as one JSON line."""
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))


def seats_as_set(value: object) -> object:
    """A list of seats or units in seat order (a record may name them in any order); any
    other value as it is, for the comparison to report.

    >>> seats_as_set([2, 0]), seats_as_set("x")
    ([0, 2], 'x')
    """
    if isinstance(value, list) and all(is_int(s) for s in value):
        return sorted(value)
    return value


def field(obj: dict[str, Any], key: str, where: str) -> Any:
    """``obj[key]``, or ``RecordError`` saying that ``where`` misses it."""
    want(key in obj, f"{where}: missing {key!r}")
    return obj[key]


def game_of(record: object) -> str:
    """The game a record names, after checking that it is a record of this format."""
    want(isinstance(record, dict), "a record must be a JSON object")
    assert isinstance(record, dict)
    fmt = record.get("format")
    want(fmt == FORMAT, f"unknown format {fmt!r}; expected {FORMAT!r}")
    game = field(record, "game", "record")
    want(isinstance(game, str), f"game must be a string, got {game!r}")
    assert isinstance(game, str)
    return game


def record_frame(
    game: DeclaredOptions, opts: Options, seats: list[str], seed: int | None, rounds: list[Any]
) -> dict[str, Any]:
    """A record's fields before its ``result``."""
    return {
        "format": FORMAT,
        "game": game.id,
        "options": game.options_dict(opts),
        "seats": list(seats),
        "seed": seed,
        "rounds": rounds,
    }


def read_frame(
    record: dict[str, Any], game: DeclaredOptions
) -> tuple[Options, int | None, list[Any]]:
    """A record's options, seed and rounds, once its format, game, options, seats (one per
    player), seed and rounds (at least one) are checked; ``RecordError`` saying what is
    wrong."""
    fmt = record.get("format")
    want(fmt == FORMAT, f"unknown format {fmt!r}; expected {FORMAT!r}")
    named = record.get("game")
    want(named == game.id, f"the record is of {named!r}, not of {game.id!r}")
    raw_options = record.get("options")
    want(isinstance(raw_options, dict), "options must be an object")
    assert isinstance(raw_options, dict)
    try:
        opts = game.options(raw_options, complete=True)
    except InvalidOption as err:
        raise RecordError(str(err)) from None
    seats = record.get("seats")
    want(
        isinstance(seats, list) and all(isinstance(s, str) for s in seats),
        "seats must be a list of strings",
    )
    assert isinstance(seats, list)
    want(len(seats) == opts.players, f"seats lists {len(seats)} seats for {opts.players} players")
    seed = record.get("seed")
    want(seed is None or is_int(seed), f"seed must be an integer or null, got {seed!r}")
    rounds = record.get("rounds")
    want(isinstance(rounds, list) and len(rounds) > 0, "rounds must be a non-empty list")
    assert isinstance(rounds, list)
    return opts, seed, rounds


def same(where: str, what: str, recorded: object, computed: object) -> None:
    """``RecordError`` unless the record holds what the rules computed (of the same JSON
    type: ``true`` is not ``1``)."""
    want(
        recorded == computed and type(recorded) is type(computed),
        f"{where}: {what} is {recorded!r} in the record; the rules give {computed!r}",
    )


def check_result(record: dict[str, Any], res: MatchResult | None) -> None:
    """``RecordError`` unless the record's ``result`` is the one the rules reached."""
    result = record.get("result")
    want(isinstance(result, dict), "result must be an object")
    assert isinstance(result, dict) and res is not None
    computed = {"timeout": None, **res.to_dict()}  # no timeout: none recorded
    for field, value in computed.items():
        recorded = result.get(field)
        if field in ("winners", "losers"):  # a set of seats or units, in any order
            recorded, value = seats_as_set(recorded), seats_as_set(value)
        same("result", field, recorded, value)

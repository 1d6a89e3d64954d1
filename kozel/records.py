"""The frame of a ``kozel-record/1`` record that every game not played on a layout writes and
checks alike: the format, the game, its options, the seats, the seed and the rounds. Each
game writes and replays what is inside its rounds itself."""

from __future__ import annotations

from typing import Any

from kozel.codec import is_int, want
from kozel.core import InvalidOption
from kozel.game import Game
from kozel.notation import FORMAT, RecordError, seats_as_set
from kozel.options import Options
from kozel.scoring.base import MatchResult


def record_frame(
    game: Game, opts: Options, seats: list[str], seed: int | None, rounds: list[Any]
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


def read_frame(record: dict[str, Any], game: Game) -> tuple[Options, int | None, list[Any]]:
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

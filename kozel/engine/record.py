"""The frame of a ``kozel-record/1`` record (docs/record.md), alike for every game: the format,
the game, its options, the seats, the seed, the rounds and the result; and the one replay loop
of every game's records (:func:`replay_rounds`): the frame read, each round played again by
its game, the end and the result checked. Each game writes and replays what is inside its
rounds itself (the layout games: :mod:`kozel.layout.notation`; the games played in hands:
:meth:`kozel.hands.match.HandsMatch.replay_hand`)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, TypeVar

from kozel.core import InvalidOption
from kozel.engine.errors import RecordError, is_int, want
from kozel.engine.game import GameMatch
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


R = TypeVar("R", bound=DeclaredOptions)
M = TypeVar("M", bound=GameMatch)


def read_frame(
    record: object, rules_of: Callable[[str], R]
) -> tuple[R, Options, int | None, list[Any]]:
    """A record's game (``rules_of`` the id it names), options, seed and rounds, once its
    format, game, options, seats (one per player), seed and rounds (at least one) are checked;
    ``RecordError`` saying what is wrong (``rules_of`` refuses an id with ``InvalidOption``)."""
    game = game_of(record)
    assert isinstance(record, dict)
    raw_options = field(record, "options", "record")
    want(isinstance(raw_options, dict), "options must be an object")
    try:
        rules = rules_of(game)
        opts = rules.options(raw_options, complete=True)
    except InvalidOption as err:
        raise RecordError(str(err)) from None
    seats = field(record, "seats", "record")
    want(
        isinstance(seats, list) and all(isinstance(s, str) for s in seats),
        "seats must be a list of strings",
    )
    want(len(seats) == opts.players, f"seats lists {len(seats)} seats for {opts.players} players")
    seed = field(record, "seed", "record")
    want(seed is None or is_int(seed), f"seed must be an integer or null, got {seed!r}")
    rounds = field(record, "rounds", "record")
    want(isinstance(rounds, list) and len(rounds) > 0, "rounds must be a non-empty list")
    return rules, opts, seed, rounds


def check_game(record: dict[str, Any], game_id: str) -> None:
    """``RecordError`` unless the record is of the game ``game_id``: a game replays only its
    own records."""
    named = record.get("game")
    want(named == game_id, f"the record is of {named!r}, not of {game_id!r}")


def replay_rounds(
    record: object,
    rules_of: Callable[[str], R],
    new_match: Callable[[R, Options, int | None], M],
    play_round: Callable[[M, dict[str, Any], str, bool], None],
    round_name: str = "round",
) -> M:
    """Re-run a record through the rules of the game it names (``rules_of``): its frame read
    (:func:`read_frame`), a match started (``new_match(rules, opts, seed)``), every round
    played again by ``play_round(match, raw, where, last)`` (``where`` the round as its game
    calls it, ``round_name``: ``"round 2"``, ``"hand 2"``; ``last`` for the record's last
    round), then the game's end and its result checked (:func:`check_result`). The finished
    match, or ``RecordError`` at the first difference."""
    rules, opts, seed, rounds = read_frame(record, rules_of)
    assert isinstance(record, dict)
    match = new_match(rules, opts, seed)
    for i, raw in enumerate(rounds, start=1):
        where = f"{round_name} {i}"
        want(not match.over, f"{where}: the game was already over after {round_name} {i - 1}")
        want(isinstance(raw, dict), f"{where}: must be an object")
        play_round(match, raw, where, i == len(rounds))
    want(
        match.over,
        f"{round_name} {len(rounds)}: the game is not over after the last {round_name}",
    )
    check_result(record, match.result)
    return match


def same(where: str, what: str, recorded: object, computed: object) -> None:
    """``RecordError`` unless the record holds what the rules computed (of the same JSON
    type: ``true`` is not ``1``); a hand's check in the games played in hands."""
    want(
        recorded == computed and type(recorded) is type(computed),
        f"{where}: {what} is {recorded!r} in the record; the rules give {computed!r}",
    )


def strictly_equal(recorded: object, computed: object) -> bool:
    """JSON equality without Python's ``True == 1`` or ``1.0 == 1``, at every depth; keys of
    an object the rules do not compute are ignored.

    >>> strictly_equal([1, {"a": 2, "x": 0}], [1, {"a": 2}]), strictly_equal([True], [1])
    (True, False)
    """
    if isinstance(computed, dict):
        return isinstance(recorded, dict) and all(
            key in recorded and strictly_equal(recorded[key], value)
            for key, value in computed.items()
        )
    if isinstance(computed, list):
        return (
            isinstance(recorded, list)
            and len(recorded) == len(computed)
            and all(strictly_equal(r, c) for r, c in zip(recorded, computed, strict=True))
        )
    return type(recorded) is type(computed) and recorded == computed


def agree(where: str, what: str, recorded: object, computed: object) -> None:
    """``RecordError`` unless the record holds what the rules computed
    (:func:`strictly_equal`)."""
    if not strictly_equal(recorded, computed):
        raise RecordError(f"{where}: {what} is {recorded!r} but the rules give {computed!r}")


def check_result(record: dict[str, Any], res: MatchResult | None) -> None:
    """``RecordError`` unless the record's ``result`` is the one the rules reached: every
    field compared strictly (:func:`agree`), ``winners`` and ``losers`` as sets; a game that
    lists places gives them in its rounds' ends, so ``result`` may leave them out
    (docs/record.md#record-files), and a recorded ``timeout`` must be the rules' one."""
    result = field(record, "result", "record")
    want(isinstance(result, dict), "result must be an object")
    assert res is not None
    for key, value in res.to_dict().items():
        if key == "places" and key not in result:
            continue
        recorded = result.get(key)
        if key in ("winners", "losers"):  # a set of seats or units, in any order
            recorded, value = seats_as_set(recorded), seats_as_set(value)
        agree("result", key, recorded, value)
    if res.timeout is None and "timeout" in result:
        agree("result", "timeout", result["timeout"], None)

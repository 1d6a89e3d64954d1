"""The registry of every game, at the top of the engine: the twelve games played on a layout
(:mod:`kozel.layout.game`), Domino Poker (:mod:`kozel.poker`) and Trumps (:mod:`kozel.trumps`),
each a :class:`kozel.engine.game.Game`; and what needs every game: a game by its id, any
record replayed by the game it names, a records file checked line by line.

Nothing in the engine or the games imports this module: only the command line, the server and
the tools above them do. A new game adds an entry here, never an ``if game == …`` elsewhere.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from kozel.core import InvalidOption
from kozel.engine.errors import RecordError, unknown_game
from kozel.engine.game import Game, GameMatch
from kozel.engine.record import TOURNAMENT_FORMAT, game_of
from kozel.layout.game import (
    ALL_FIVES,
    ALL_THREES,
    BERGEN,
    BLOCK,
    BYKOVO,
    CLASSIC,
    DONKEY,
    DRAW,
    GAMES,
    GOAT,
    SEA_GOAT,
    TELEPHONE,
    THREES_FIVES,
    LayoutGame,
)
from kozel.layout.match import Match
from kozel.layout.notation import replay
from kozel.layout.tournament import replay_tournament
from kozel.poker.game import POKER
from kozel.trumps.game import TRUMPS

__all__ = [
    "ALL_FIVES",
    "ALL_GAMES",
    "ALL_THREES",
    "BERGEN",
    "BLOCK",
    "BYKOVO",
    "CLASSIC",
    "DONKEY",
    "DRAW",
    "GAMES",
    "GOAT",
    "SEA_GOAT",
    "TELEPHONE",
    "THREES_FIVES",
    "LineReport",
    "check_lines",
    "get_game",
    "get_layout_game",
    "replay_game",
    "replay_layout",
]

ALL_GAMES: dict[str, Game] = {**GAMES, POKER.id: POKER, TRUMPS.id: TRUMPS}
"""Every game by id, each one a :class:`kozel.engine.game.Game`: the layout games, then the
others."""


def get_game(game_id: str) -> Game:
    """The game of an id, or ``InvalidOption`` naming the games there are."""
    try:
        return ALL_GAMES[game_id]
    except KeyError:
        raise unknown_game(game_id, ALL_GAMES) from None


def get_layout_game(game_id: str) -> LayoutGame:
    """The rules of a layout game's id; ``InvalidOption`` naming the layout games for an
    unknown id or a game not played on a layout."""
    get_game(game_id)  # an unknown id: the refusal names every game
    if game_id not in GAMES:
        raise unknown_game(game_id, GAMES)
    return GAMES[game_id]


def replay_layout(record: object) -> Match:
    """Re-run a record of a layout game, the one it names, through the rules
    (:func:`kozel.layout.notation.replay`); return the match, or raise ``RecordError`` (an unknown
    game's names every game, another kind of game's the layout games)."""
    return replay(record, get_layout_game)


def replay_game(record: object) -> GameMatch:
    """Re-run a record of any game through its rules (:meth:`kozel.engine.game.Game.replay`);
    return the match, or raise ``RecordError``."""
    game = game_of(record)
    assert isinstance(record, dict)
    try:
        rules = get_game(game)
    except InvalidOption as err:
        raise RecordError(str(err)) from None
    return rules.replay(record)


@dataclass(frozen=True)
class LineReport:
    """The check of one line of a records file: ``error`` is ``None`` when it replays clean."""

    line: int
    error: str | None
    rounds: int = 0


def check_lines(lines: Iterable[str]) -> Iterator[LineReport]:
    """Replay every non-blank line of a JSON Lines file (a ``kozel-tournament/1`` line is
    checked as a whole tournament; its report counts games as rounds)."""
    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        try:
            record = json.loads(text)
        except json.JSONDecodeError as err:
            yield LineReport(number, f"not valid JSON: {err}")
            continue
        try:
            if isinstance(record, dict) and record.get("format") == TOURNAMENT_FORMAT:
                rounds = len(replay_tournament(record).games)
            else:
                replay_game(record)
                rounds = len(record["rounds"])
        except RecordError as err:
            yield LineReport(number, str(err))
        except RecursionError:
            yield LineReport(number, "the record is nested too deeply")
        else:
            yield LineReport(number, None, rounds)

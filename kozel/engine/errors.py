"""The errors every game raises on malformed input, and the small JSON checks that raise them.

A move a client sends, a view a bot receives and a record a file holds are all read with
:func:`want`, :func:`is_int` and :func:`read_tile`; what is wrong is a :class:`MoveError` (a
``ValueError``) whose message says where and what.

>>> read_tile("3-1", "move 4")
Traceback (most recent call last):
...
kozel.engine.errors.MoveError: move 4: tile '3-1' must be written low half first: '1-3'
"""

from __future__ import annotations

from collections.abc import Iterable

from kozel.core import InvalidOption, Tile, parse_tile


class MoveError(ValueError):
    """A move (or record) that is malformed; the message says where and what."""


RecordError = MoveError
"""A record that is malformed or disagrees with the rules; the message says where."""


def want(cond: bool, message: str) -> None:
    """Raise :class:`MoveError` with ``message`` unless ``cond``."""
    if not cond:
        raise MoveError(message)


def is_int(value: object) -> bool:
    """A JSON integer (not a boolean)."""
    return isinstance(value, int) and not isinstance(value, bool)


def read_tile(value: object, where: str) -> Tile:
    want(isinstance(value, str), f"{where}: a tile must be a string 'a-b', got {value!r}")
    assert isinstance(value, str)
    try:
        return parse_tile(value)
    except ValueError as err:
        raise MoveError(f"{where}: {err}") from None


def unknown_game(game_id: str, known: Iterable[str]) -> InvalidOption:
    """The refusal of a game id, naming the games there are."""
    return InvalidOption(f"unknown game {game_id!r}; games: {', '.join(known)}", "unknown_game")

"""The one replay of a record of a game played in hands (docs/record.md): the record's frame
checked (:func:`kozel.engine.record.read_frame`), every hand played again through the rules
(:meth:`kozel.hands.match.HandsMatch.replay_hand`) and the result compared; the first
difference is a ``RecordError`` naming the hand and the field."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from kozel.engine.errors import want
from kozel.engine.options import DeclaredOptions, Options
from kozel.engine.record import check_result, read_frame
from kozel.hands.match import BeforeMove, HandsMatch

MT = TypeVar("MT", bound=HandsMatch[Any, Any, Any, Any])


def replay_hands(
    record: dict[str, Any],
    game: DeclaredOptions,
    new_match: Callable[[Options, int | None], MT],
    before_move: BeforeMove | None = None,
) -> MT:
    """Re-run a record of ``game``; the finished match, or ``RecordError`` at the first
    difference. ``before_move(match, hand, number, move)`` sees each move the players made
    before it is played (a review)."""
    opts, seed, rounds = read_frame(record, game)
    match = new_match(opts, seed)
    for i, raw in enumerate(rounds, start=1):
        where = f"hand {i}"
        want(not match.over, f"{where}: the game was already over after hand {i - 1}")
        want(isinstance(raw, dict), f"{where}: must be an object")
        match.replay_hand(raw, where, i == len(rounds), before_move)
    want(match.over, f"hand {len(rounds)}: the game is not over after the last hand")
    check_result(record, match.result)
    return match

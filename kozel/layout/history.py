"""One walk over a round's history: each event with the layout as it stood before it.

Views, the bots' sampling and inference, and the server's review positions all read a round's
history this way, so the layout rules are applied in one place (:class:`~kozel.core.Layout`).

>>> from kozel.core import parse_tile, Play, DRAW
>>> history = [(0, Play(parse_tile("1-1")), -1), (1, DRAW, -1), (1, Play(parse_tile("1-4"), 1), -1)]
>>> [(seat, layout.ends[:2]) for seat, _, _, layout in walk(history, spinner=False)]
[(0, [-1, -1]), (1, [1, 1]), (1, [1, 1])]
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from kozel.core import Layout, Move, Play, PlayDoubles, Tile


def plays_of(move: Move) -> tuple[Play, ...]:
    """The tiles a move lays: one play, several doubles, or none (a draw or a knock)."""
    if isinstance(move, PlayDoubles):
        return move.plays
    return (move,) if isinstance(move, Play) else ()


def lay(layout: Layout, play: Play, spinner: bool) -> None:
    """Lay one tile on ``layout`` (the first tile of a round has no arm)."""
    if play.arm is None:
        layout.lead(play.tile, spinner)
    else:
        layout.attach(play.tile, play.arm, play.close, spinner)


def walk(
    history: Iterable[tuple[int, Move, Tile]], spinner: bool
) -> Iterator[tuple[int, Move, Tile, Layout]]:
    """Each ``(seat, move, drawn)`` of a history with the layout before it. The layout is one
    object updated after each event: copy it to keep it."""
    layout = Layout()
    for seat, move, drawn in history:
        yield seat, move, drawn, layout
        for play in plays_of(move):
            lay(layout, play, spinner)


def open_values(layout: Layout) -> int:
    """The values the open arms show, as a bitmask of 0..6."""
    values = 0
    for end, closed in zip(layout.ends, layout.closed, strict=True):
        if end >= 0 and not closed:
            values |= 1 << end
    return values

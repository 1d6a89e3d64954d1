"""What the other seats' earlier plays say about their hands, under the greedy model.

A seat that plays by the greedy heuristic (:mod:`kozel.layout.bots.greedy`) lays a best-scoring move
of the hand it held. For a sampled world the hand a seat held at an earlier decision is its
hand in the world plus the tiles it has laid since (when it has not drawn since), so the
kernel can replay each such decision and tell how likely the seat's actual move was: the
world explains the play when the move was one of the hand's best. Worlds that explain the
other seats' plays are then preferred (:class:`kozel.layout.bots.expert.ExpertBot`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kozel.core import DeclineHundred, Draw, Knock, Move, Play, PlayDoubles
from kozel.layout.bots.kernel import layout_tips, to_kernel
from kozel.layout.history import open_values, plays_of, walk
from kozel.layout.views import SeatView

if TYPE_CHECKING:
    from kozel._kernel import DecisionTuple

Position = tuple[
    tuple[int, ...], tuple[int, ...], int, int, int, tuple[int, ...], tuple[int, ...], int
]
"""Ends, closed flags, spinner, first tile, table, lacked values, and the tips of the arms
and the spinner's line sides (:func:`kozel.layout.bots.kernel.layout_tips`) before a play."""


def past_decisions(view: SeatView) -> list[DecisionTuple]:
    """The other seats' earlier plays in this round that a world can be tested against: each
    with the position before it (ends, closed arms, spinner, first tile, table, the values
    each seat was known to lack, the hand sizes), the tiles the seat has laid since, the
    move, and the arms' tips for the points a lay would score. Leads and decisions followed
    by a draw of the same seat are left out (the hand then is not known from the world's)."""
    assert view.seat is not None
    return _decisions_walking_back(view, view.seat, _positions_before(view))


def _positions_before(view: SeatView) -> list[tuple[int, Move, Position | None]]:
    """The round's history in order, each move with the position before it (``None`` for a
    draw, a knock or a declined hundred); each seat's lacked values grow as its draws and
    knocks prove them."""
    players = len(view.hand_sizes)
    lacks = [0] * players
    drew_this_turn = [False] * players
    previous = -1
    proves = view.rules.draw_proves_void(view.opts)
    knock_proves = view.rules.knock_proves_void(view.opts)
    spinner = view.rules.has_spinner(view.opts)
    before: list[tuple[int, Move, Position | None]] = []
    laid: list[Play] = []
    for seat, move, _, layout in walk(view.history, spinner):
        values = open_values(layout)
        if seat != previous:
            drew_this_turn = [False] * players
            previous = seat
        if isinstance(move, Draw):
            if not proves:  # a draw legal although a tile fits proves nothing
                lacks[seat] = 0
            elif drew_this_turn[seat]:
                lacks[seat] |= values
            else:
                lacks[seat] = values
                drew_this_turn[seat] = True
            before.append((seat, move, None))
            continue
        if isinstance(move, Knock | DeclineHundred):
            if knock_proves and isinstance(move, Knock):  # a Bykovo pass proves nothing
                lacks[seat] |= values
            before.append((seat, move, None))
            continue
        tips, line = layout_tips(laid, spinner)
        position: Position = (
            tuple(layout.ends),
            tuple(int(c) for c in layout.closed),
            layout.spinner,
            layout.first,
            layout.table,
            tuple(lacks),
            tuple(tips),
            line,
        )
        before.append((seat, move, position))
        laid.extend(plays_of(move))
    return before


def _decisions_walking_back(
    view: SeatView, me: int, before: list[tuple[int, Move, Position | None]]
) -> list[DecisionTuple]:
    """The decisions of :func:`past_decisions`, latest first, from the history with its
    positions: walking back, the hand sizes before each event, the tiles laid since, and
    whether the seat drew since."""
    players = len(view.hand_sizes)
    sizes = list(view.hand_sizes)
    laid_since = [0] * players
    drew_since = [False] * players
    decisions: list[DecisionTuple] = []
    for seat, move, known in reversed(before):
        if isinstance(move, Draw):
            sizes[seat] -= 1
            drew_since[seat] = True
            continue
        if isinstance(move, Knock | DeclineHundred):
            continue
        assert isinstance(move, Play | PlayDoubles)
        plays = move.plays if isinstance(move, PlayDoubles) else (move,)
        for play in plays:
            assert isinstance(play, Play)
            laid_since[seat] |= 1 << play.tile
        sizes[seat] += len(plays)
        if seat == me or drew_since[seat] or known is None or known[3] < 0:
            continue
        p_ends, p_closed, p_spinner, p_first, p_table, p_lacks, p_tips, p_line = known
        decisions.append(
            (
                seat,
                p_ends,
                p_closed,
                p_spinner,
                p_first,
                p_table,
                p_lacks,
                tuple(sizes),
                laid_since[seat],
                to_kernel(move),
                p_tips,
                p_line,
            )
        )
    return decisions

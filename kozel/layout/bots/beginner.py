"""``beginner``: plays the way a person new to dominoes plays, not at random.

It looks at its own hand and the open ends and nothing else: it lays its heaviest tile that
fits (to be rid of the points), on the first end it fits, and now and then simply the first
tile it sees that fits (:data:`FIRST_FIT`). It never counts: it does not remember who
knocked or drew on which value, does not feed its partner or starve the next player, does
not keep its suits varied for later, never blocks the game on purpose nor avoids blocking it,
and in the games that score during play it does not look at the points a tile would make. It
never draws or knocks while a tile fits, and asked about Sea Goat's hundred it always
declares it (it has 6-6, after all).
"""

from __future__ import annotations

import random

from kozel.core import PIPS, DeclineHundred, Draw, Knock, Move, Play, PlayDoubles
from kozel.layout.views import SeatView

FIRST_FIT = 0.25
"""How often the beginner lays the first tile it finds that fits instead of its heaviest."""


def weight(move: Move) -> int:
    """The pips a move lays (0 for a draw, a knock or a refused hundred)."""
    if isinstance(move, PlayDoubles):
        return sum(PIPS[p.tile] for p in move.plays)
    if isinstance(move, Play):
        return PIPS[move.tile]
    return 0


class BeginnerBot:
    level = "beginner"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: SeatView) -> Move:
        moves = view.legal_moves
        if len(moves) == 1:
            return moves[0]
        if view.asking >= 0:  # the hundred or no: always the hundred
            return next((m for m in moves if isinstance(m, Play)), moves[0])
        plays = [m for m in moves if not isinstance(m, Draw | Knock | DeclineHundred)]
        if not plays:
            return moves[0]
        if self.rng.random() < FIRST_FIT:
            return plays[0]
        heaviest = max(weight(m) for m in plays)
        return next(m for m in plays if weight(m) == heaviest)

"""``random``: uniform over the legal moves."""

from __future__ import annotations

import random

from kozel.core import Move
from kozel.layout.views import SeatView


class RandomBot:
    level = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: SeatView) -> Move:
        moves = view.legal_moves
        return moves[int(self.rng.random() * len(moves))]

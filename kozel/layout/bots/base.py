"""The bot interface: a bot is given one seat's view and returns one of its legal moves."""

from __future__ import annotations

from typing import Protocol

from kozel.core import Move
from kozel.layout.views import SeatView


class Bot(Protocol):
    level: str

    def choose(self, view: SeatView) -> Move:
        """One of ``view.legal_moves`` (the view is of the seat to move)."""
        ...

"""Computer players. A bot sees only :func:`kozel.layout.views.view_for` of its seat.

``make_bot("amateur", seed=1)`` builds one by level. The club offers :data:`CLUB_LEVELS`,
weakest first: ``beginner`` (:mod:`kozel.layout.bots.beginner`: its heaviest tile that fits, never
counting), ``amateur`` (the one-move heuristic of :mod:`kozel.layout.bots.greedy`), ``strong`` (the
expert's search with a small budget, :data:`STRONG_BUDGET`) and ``expert``
(:mod:`kozel.layout.bots.expert`). :data:`LEVELS` also holds the names stored games and records use
(``greedy``, the amateur's former name, and ``random``, uniform over the legal moves, kept for
tests and benchmarks); :data:`FORMER` maps the old names the club once offered. An expert with
a think-time budget is ``expert:MS`` (e.g. ``expert:250``, milliseconds per decision); plain
``expert`` thinks a fixed amount, so the same seed plays the same game.
"""

from __future__ import annotations

from collections.abc import Callable

from kozel.core import InvalidOption, Move
from kozel.layout.bots.base import Bot
from kozel.layout.bots.beginner import BeginnerBot
from kozel.layout.bots.expert import Budget, ExpertBot
from kozel.layout.bots.greedy import GreedyBot
from kozel.layout.bots.random_bot import RandomBot
from kozel.layout.views import SeatView

STRONG_BUDGET = Budget(worlds=12, playouts=8)
"""The ``strong`` level: the expert's own search (sampling, inference, playouts) on 96
playouts a move against the expert's 12,800, so it thinks in a few milliseconds and misjudges
the close decisions the expert gets right (its margins: docs/bots.md, ``bench/levels.py``)."""


def _strong(seed: int | None) -> Bot:
    bot = ExpertBot(seed, STRONG_BUDGET)
    bot.level = "strong"
    return bot


def _amateur(seed: int | None) -> Bot:
    bot = GreedyBot(seed)
    bot.level = "amateur"
    return bot


CLUB_LEVELS = ("beginner", "amateur", "strong", "expert")
"""The levels the club offers, weakest first (their margins: docs/bots.md)."""
FORMER = {"greedy": "amateur"}
"""Names the club once offered, as they read now (stored games and records keep them)."""

LEVELS: dict[str, Callable[[int | None], Bot]] = {
    "beginner": BeginnerBot,
    "amateur": _amateur,
    "strong": _strong,
    "expert": ExpertBot,
    "random": RandomBot,
    "greedy": GreedyBot,
}


def check_level(level: str) -> None:
    """Raise ``InvalidOption`` unless ``level`` names a bot."""
    make_bot(level)


def make_bot(level: str, seed: int | None = None) -> Bot:
    """A bot of the named level, or ``InvalidOption`` naming the levels there are."""
    name, sep, budget = level.partition(":")
    if name == "expert" and sep:
        if not budget.isdigit() or not 1 <= int(budget) <= 60_000:
            raise InvalidOption(f"expert:MS needs milliseconds 1..60000, got {budget!r}")
        return ExpertBot(seed, Budget(seconds=int(budget) / 1000))
    try:
        factory = LEVELS[level]
    except KeyError:
        known = ", ".join([*LEVELS, "expert:MS"])
        raise InvalidOption(f"unknown bot {level!r}; bots: {known}") from None
    return factory(seed)


def analyse(
    view: SeatView, budget: Budget | None = None, seed: int = 0
) -> list[tuple[Move, float]]:
    """Every legal move of the seat to move with its expected cost to the seat (its charge
    this round under the game's scoring, less a share of the opponents'), best first."""
    return ExpertBot(seed, budget).analyse(view)


__all__ = [
    "CLUB_LEVELS",
    "FORMER",
    "LEVELS",
    "STRONG_BUDGET",
    "BeginnerBot",
    "Bot",
    "Budget",
    "ExpertBot",
    "GreedyBot",
    "RandomBot",
    "analyse",
    "check_level",
    "make_bot",
]

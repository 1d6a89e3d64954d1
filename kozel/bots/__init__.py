"""Computer players. A bot sees only :func:`kozel.views.view_for` of its seat.

``make_bot("greedy", seed=1)`` builds one by level; :data:`LEVELS` lists the levels. An
expert with a think-time budget is ``expert:MS`` (e.g. ``expert:250``, milliseconds per
decision); plain ``expert`` thinks a fixed amount, so the same seed plays the same game.
"""

from __future__ import annotations

from collections.abc import Callable

from kozel.bots.base import Bot
from kozel.bots.expert import Budget, ExpertBot
from kozel.bots.greedy import GreedyBot
from kozel.bots.random_bot import RandomBot
from kozel.core import InvalidOption, Move
from kozel.views import SeatView

LEVELS: dict[str, Callable[[int | None], Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "expert": ExpertBot,
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
    "LEVELS",
    "Bot",
    "Budget",
    "ExpertBot",
    "GreedyBot",
    "RandomBot",
    "analyse",
    "check_level",
    "make_bot",
]

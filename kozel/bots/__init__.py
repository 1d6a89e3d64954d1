"""Computer players. A bot sees only :func:`kozel.views.view_for` of its seat.

``make_bot("greedy", seed=1)`` builds one by level name; :data:`LEVELS` lists the levels.
"""

from __future__ import annotations

from collections.abc import Callable

from kozel.bots.base import Bot
from kozel.bots.expert import ExpertBot
from kozel.bots.greedy import GreedyBot
from kozel.bots.random_bot import RandomBot
from kozel.core import InvalidOption

LEVELS: dict[str, Callable[[int | None], Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "expert": ExpertBot,
}


def make_bot(level: str, seed: int | None = None) -> Bot:
    """A bot of the named level, or ``InvalidOption`` naming the levels there are."""
    try:
        factory = LEVELS[level]
    except KeyError:
        raise InvalidOption(f"unknown bot {level!r}; bots: {', '.join(LEVELS)}") from None
    return factory(seed)


__all__ = ["LEVELS", "Bot", "ExpertBot", "GreedyBot", "RandomBot", "make_bot"]

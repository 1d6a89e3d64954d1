"""How long this process's event loop could not run: the server's own time, which no
player's clock is charged for.

A ticker wakes every :data:`TICK` seconds; whatever it wakes later than that, the loop spent
stalled (a burst of work on the loop, the machine's cores taken by other work). The sum only
grows: a table notes it when a seat's clock starts and, when the clock runs out, gives the
seat the stall since then before timing it out (:meth:`kozel.server.clock.MoveClock.start`).
"""

from __future__ import annotations

import asyncio
import math
import time
from collections import deque

TICK = 0.05
NOTICED = 0.005
"""Lateness below this is the timer's own jitter, not a stall (a loop kept busy counts: its
ticker waits its turn too, and ten-millisecond waits add up to seconds over a clock)."""
WINDOW = 60.0


class StallMeter:
    def __init__(self) -> None:
        self.stalled = 0.0
        """Seconds stalled, counted when the ticker woke (only grows)."""
        self._due = math.inf
        """When the ticker should wake next (never, until it runs)."""
        self._recent: deque[tuple[float, float]] = deque()
        """(at, seconds) of each stall in the last :data:`WINDOW` seconds."""

    def total(self) -> float:
        """Seconds stalled since the meter started, the stall going on now included: code
        that runs after a stall may run before the ticker does (it only grows)."""
        pending = time.monotonic() - self._due
        return self.stalled + (pending if pending > NOTICED else 0.0)

    async def run(self) -> None:
        """Tick for as long as the club runs."""
        while True:
            self._due = time.monotonic() + TICK
            await asyncio.sleep(TICK)
            late = time.monotonic() - self._due
            if late > NOTICED:
                self.stalled += late
                self._recent.append((time.monotonic(), late))

    def stats(self) -> dict[str, int]:
        """The last minute's stalls for ``/api/health``: their sum and the longest."""
        since = time.monotonic() - WINDOW
        while self._recent and self._recent[0][0] < since:
            self._recent.popleft()
        return {
            "stalled_ms": round(1000 * sum(s for _, s in self._recent)),
            "longest_ms": round(1000 * max((s for _, s in self._recent), default=0.0)),
        }

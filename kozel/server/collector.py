"""Python's cyclic garbage collector, paced for a process holding many tables.

Every socket of a table keeps a few hundred objects the collector tracks (its handler's
coroutines and their closures, its queue, its frames), so a process with 1,200 sockets holds
about half a million of them. CPython 3.11 collects its oldest generation whole, and each such
collection stopped the event loop, and every table with it, for 0.3 to 0.8 s on this machine
(docs/benchmarks.md): the slowest moves of a busy club were the moves that waited for it.

:class:`Collector` lets each collection of the middle or the oldest generation keep what it
found alive out of the next ones (``gc.freeze``: the survivors move to the permanent
generation, which no collection scans), so a collection looks only at what was made since the
last one. Freezing after the middle generation's collections too, not only after full ones,
matters when many sockets open at once: a thousand tables opening in a minute left a quarter
of a million long-lived objects in the middle generation, and its collection that promoted
them stopped every table for 250 ms; collected every :data:`MIDDLE` young collections and then
frozen, they pass in pauses of 30-50 ms (docs/benchmarks.md). Reference counting still frees
every frozen object that nothing refers to any more; what freezing defers is the reclaiming of
*cycles* among frozen objects (since a closed socket lets go of its own,
:mod:`kozel.server.wire`, about fourteen objects a finished game: its requests' statements and
middleware). Every ``whole_every`` seconds the frozen objects are handed back to the
collector, and its next full collection looks at everything once: one long pause an hour
instead of one a few seconds.

It also lets the young generation grow to :data:`YOUNG` objects before a collection (Python's
default is 700): a move makes thousands of short-lived containers (its events, its messages,
the states a seat's patch is computed from) that reference counting frees anyway, and at 1,000
tables collecting them every 700 allocations cost about a tenth of a move's server CPU. But
Python counts allocations less deallocations, and in steady play a move frees about as many
objects as it makes, so that count alone let the young generation grow for seconds, to every
object made since and still alive (a table's states as sent live until its next move): 40,000-
60,000 at 1,000 tables, pauses of 55-90 ms. So the event loop also collects on a clock
(:meth:`Collector.pace`, every :data:`PACE` seconds): young pauses of 8-13 ms, middle ones of
30-40 ms in one process of 1,000 tables, for the same CPU (docs/benchmarks.md).
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from collections.abc import Callable
from typing import Any

log = logging.getLogger("kozel.collector")

WHOLE_EVERY = 3600.0
"""Seconds between the full collections that look at everything (cycles among long-lived
objects are reclaimed then)."""


YOUNG = 5_000
"""Allocations (less deallocations) of tracked objects between two young collections."""
MIDDLE = 3
"""Young collections between two collections of the middle generation (Python's default is
10): few, so that what a burst of new sockets leaves alive is looked at in small parts."""
PACE = 0.1
"""Seconds between two collections the event loop asks for (:meth:`Collector.pace`)."""


class Collector:
    """Installed once per server process (``kozel serve``), for the process's lifetime."""

    def __init__(
        self, whole_every: float = WHOLE_EVERY, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.whole_every = whole_every
        self.clock = clock
        self.thawed_at = clock()
        self.thawed = False
        """Everything was handed back and no full collection has looked at it yet."""
        self.installed = False
        self.thresholds = gc.get_threshold()

    def install(self) -> None:
        """Freeze what the process made while starting, freeze after every collection of the
        middle and the oldest generation from now on, and collect the young generation less
        often."""
        if self.installed:
            return
        gc.collect()
        gc.freeze()
        self.thresholds = gc.get_threshold()
        gc.set_threshold(YOUNG, MIDDLE, self.thresholds[2])
        gc.callbacks.append(self._after)
        self.installed = True

    def uninstall(self) -> None:
        if self.installed:
            gc.callbacks.remove(self._after)
            gc.set_threshold(*self.thresholds)
            gc.unfreeze()
            self.installed = False

    async def pace(self, every: float = PACE) -> None:
        """Collect every ``every`` seconds, between two of the event loop's callbacks, the
        generation Python would collect next (the young one; after :data:`MIDDLE` of those
        the middle one, and so on), until cancelled: the young generation then holds what a
        tenth of a second left alive, not what the seconds between two crossings of
        :data:`YOUNG` did (the module's docstring)."""
        while True:
            await asyncio.sleep(every)
            self.collect()

    @staticmethod
    def collect() -> None:
        """The collection Python's own pacing would make now: the oldest generation whose
        count has reached its threshold (collections of the one below since its last one)."""
        counts, thresholds = gc.get_count(), gc.get_threshold()
        gc.collect(2 if counts[2] >= thresholds[2] else 1 if counts[1] >= thresholds[1] else 0)

    def _after(self, phase: str, info: dict[str, Any]) -> None:
        generation = info["generation"]
        if phase != "stop" or generation == 0:
            return
        if generation == 1:
            if not self.thawed:  # (else the full collection to come looks at everything)
                gc.freeze()
            return
        now = self.clock()
        if not self.thawed and now - self.thawed_at >= self.whole_every:
            # the next full collection looks at everything, the frozen objects too
            self.thawed_at, self.thawed = now, True
            log.info("the collector looks at all %d long-lived objects next", gc.get_freeze_count())
            gc.unfreeze()
            return
        self.thawed = False
        gc.freeze()

"""Python's cyclic garbage collector, paced for a process holding many tables.

Every socket of a table keeps a few hundred objects the collector tracks (its handler's
coroutines and their closures, its queue, its frames), and every table the states it sent
last: a process with 1,000 tables holds over a million of them. CPython 3.11 collects its
oldest generation whole, and each such collection stopped the event loop, and every table with
it, for 0.3 to 1.5 s on this machine (docs/benchmarks.md). Its young collections, paced by a
clock so that each looked at what a tenth of a second left alive, still cost about a seventh
of the server's CPU at 1,000 tables (pauses of 10-25 ms, and the middle generation's of
30-60 ms) — and found nothing: **play makes no garbage cycles.** With the collector only
counting, a process of 1,000 playing tables left about five unreachable objects a second
(docs/benchmarks.md); reference counting frees everything a move makes.

So the event loop **freezes** instead of collecting (:meth:`Collector.pace`, every
:data:`PACE` seconds): ``gc.freeze`` moves every tracked object to the permanent generation,
which no collection scans, at no cost (a list is spliced, nothing is visited), and reference
counting still frees a frozen object that nothing refers to any more. What freezing defers is
the reclaiming of *cycles*, so now and then the collector **looks at everything**
(:meth:`Collector.look`: everything handed back, one full collection, the survivors frozen
again): when Python's allocator holds :data:`GROWTH` times the memory blocks it held after the
last look — Go's collector paces itself the same way (``GOGC=100``), so the cycles left for
later never hold more than the live objects do — and at least every ``whole_every`` seconds.
A look at a process of 1,000 tables stops it for 1.3-2.5 s on this machine: an hour apart in
steady play, and once each time the heap doubles while it grows (while 500 tables opened in
each of two processes, each looked once more: at about 350,000 objects, 0.35-0.5 s, finding
20,000 unreachable, the cycles of their HTTP requests; a process of 1,000 tables whose long
games still grew looked once in five minutes of play).

Between two ticks of the clock Python still collects the young generation when allocations
outrun deallocations by :data:`YOUNG` objects (Python's default is 700: a move makes thousands
of short-lived containers that reference counting frees anyway), so a burst (a table's HTTP
requests, a game loaded from storage) has its young cycles collected as before.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import sys
import time
from collections.abc import Callable

log = logging.getLogger("kozel.collector")

WHOLE_EVERY = 3600.0
"""Seconds after which the collector looks at everything even if memory has not grown."""

GROWTH = 2.0
"""The collector looks at everything when Python's allocator holds this many times the memory
blocks it held after the last look."""

YOUNG = 5_000
"""Allocations (less deallocations) of tracked objects between two young collections."""
MIDDLE = 3
"""Young collections between two collections of the middle generation (Python's default is 10)."""
PACE = 0.1
"""Seconds between two freezes of the event loop (:meth:`Collector.pace`)."""
MEASURE_EVERY = 10
"""Freezes between two measures of the allocator's blocks (a measure walks its arenas: under a
millisecond at a thousand tables)."""


class Collector:
    """Installed once per server process (``kozel serve``), for the process's lifetime."""

    def __init__(
        self,
        whole_every: float = WHOLE_EVERY,
        growth: float = GROWTH,
        clock: Callable[[], float] = time.monotonic,
        blocks: Callable[[], int] = sys.getallocatedblocks,
    ) -> None:
        self.whole_every = whole_every
        self.growth = growth
        self.clock = clock
        self.blocks = blocks
        self.looked_at = clock()
        self.blocks_after_look = blocks()
        self.ticks = 0
        self.installed = False
        self.thresholds = gc.get_threshold()

    def install(self) -> None:
        """Look at everything the process made while starting, freeze it, and collect the
        young generation less often."""
        if self.installed:
            return
        self.thresholds = gc.get_threshold()
        gc.set_threshold(YOUNG, MIDDLE, self.thresholds[2])
        self.installed = True
        self.look()

    def uninstall(self) -> None:
        if self.installed:
            gc.set_threshold(*self.thresholds)
            gc.unfreeze()
            self.installed = False

    async def pace(self, every: float = PACE) -> None:
        """Every ``every`` seconds, between two of the event loop's callbacks, :meth:`tick`,
        until cancelled."""
        while True:
            await asyncio.sleep(every)
            self.tick()

    def tick(self) -> None:
        """Freeze what is alive, or look at everything when it is time to (the module's
        docstring)."""
        self.ticks += 1
        due = self.clock() - self.looked_at >= self.whole_every
        if not due and self.ticks % MEASURE_EVERY == 0:
            due = self.blocks() >= self.growth * self.blocks_after_look
        if due:
            self.look()
        else:
            gc.freeze()

    def look(self) -> None:
        """Hand every frozen object back, collect everything once, and freeze the survivors."""
        started = time.perf_counter()
        gc.unfreeze()
        found = gc.collect()
        gc.freeze()
        self.looked_at, self.blocks_after_look = self.clock(), self.blocks()
        if log.isEnabledFor(logging.INFO):  # (counting the frozen walks them all)
            log.info(
                "the collector looked at everything in %.0f ms: %d unreachable, %d alive",
                1000 * (time.perf_counter() - started),
                found,
                gc.get_freeze_count(),
            )

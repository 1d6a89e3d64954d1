"""The collector's pacing (kozel.server.collector): the event loop freezes what is alive
instead of collecting it, a young cycle is still collected by Python's own young collections,
and a frozen cycle waits for the next look at everything: when the allocator's blocks have
grown by the given factor since the last look, or when ``whole_every`` has passed."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Iterator

import pytest

from kozel.server.collector import MEASURE_EVERY, MIDDLE, YOUNG, Collector


class Node:
    """An object in a reference cycle (only the cyclic collector can free it)."""

    def __init__(self) -> None:
        self.me = self


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class Blocks:
    """The allocator's blocks, as the test says."""

    def __init__(self) -> None:
        self.held = 1000

    def __call__(self) -> int:
        return self.held


@pytest.fixture
def paced() -> Iterator[tuple[Collector, Clock, Blocks]]:
    clock, blocks = Clock(), Blocks()
    collector = Collector(whole_every=60.0, growth=2.0, clock=clock, blocks=blocks)
    enabled = gc.isenabled()
    gc.disable()  # no collection but the test's and the collector's
    collector.install()
    try:
        yield collector, clock, blocks
    finally:
        collector.uninstall()
        if enabled:
            gc.enable()
    assert gc.get_freeze_count() == 0


def a_frozen_cycle(collector: Collector) -> weakref.ref[Node]:
    """A cycle that was alive at a tick and is garbage now."""
    old = Node()
    collector.tick()
    dead = weakref.ref(old)
    del old
    return dead


def test_installing_looks_at_everything_and_freezes_it(
    paced: tuple[Collector, Clock, Blocks],
) -> None:
    assert gc.get_freeze_count() > 0  # what the process made before
    assert gc.get_count()[0] < 100  # (nothing young but what the fixture made since)


def test_a_tick_freezes_without_collecting_and_a_young_cycle_is_collected_between_ticks(
    paced: tuple[Collector, Clock, Blocks],
) -> None:
    collector, _, _ = paced
    young = Node()
    gone = weakref.ref(young)
    del young
    gc.collect(0)  # Python's own young collection, as between two ticks
    assert gone() is None
    missed = Node()
    left = weakref.ref(missed)
    del missed
    kept = Node()
    frozen = gc.get_freeze_count()
    collector.tick()
    assert left() is not None  # a tick looks at nothing: garbage is frozen too
    assert gc.get_freeze_count() > frozen  # ``kept`` among them
    assert gc.get_count()[0] == 0
    assert not gc.is_finalized(kept)


def test_a_frozen_cycle_waits_for_the_look_after_whole_every(
    paced: tuple[Collector, Clock, Blocks],
) -> None:
    collector, clock, _ = paced
    dead = a_frozen_cycle(collector)
    for _ in range(3 * MEASURE_EVERY):
        collector.tick()
    gc.collect()  # a whole collection, Python's own, does not look at the frozen either
    assert dead() is not None
    clock.now = 60.0
    collector.tick()
    assert dead() is None
    assert gc.get_freeze_count() > 0  # the survivors are frozen again
    assert collector.looked_at == 60.0


def test_the_collector_looks_at_everything_once_the_allocator_holds_twice_the_blocks(
    paced: tuple[Collector, Clock, Blocks],
) -> None:
    collector, _, blocks = paced
    dead = a_frozen_cycle(collector)
    blocks.held = 1999
    for _ in range(2 * MEASURE_EVERY):
        collector.tick()
    assert dead() is not None  # grown, but not twice
    blocks.held = 2000
    for _ in range(MEASURE_EVERY):  # the blocks are measured every MEASURE_EVERY ticks
        collector.tick()
        if dead() is None:
            break
    assert dead() is None
    assert collector.blocks_after_look == 2000
    dead = a_frozen_cycle(collector)
    blocks.held = 3999  # twice the blocks after the last look, not the first
    for _ in range(2 * MEASURE_EVERY):
        collector.tick()
    assert dead() is not None


def test_the_young_generation_is_collected_less_often_while_installed() -> None:
    before = gc.get_threshold()
    collector = Collector()
    collector.install()
    try:
        assert gc.get_threshold()[:2] == (YOUNG, MIDDLE)
    finally:
        collector.uninstall()
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0


def test_the_event_loop_ticks_on_a_clock(paced: tuple[Collector, Clock, Blocks]) -> None:
    collector, clock, _ = paced
    dead = a_frozen_cycle(collector)
    ticks = collector.ticks

    async def a_while() -> None:
        pacing = asyncio.create_task(collector.pace(every=0.001))
        for _ in range(10_000):  # (at most ten seconds)
            if collector.ticks >= ticks + 5:
                break
            await asyncio.sleep(0.001)
        assert dead() is not None  # frozen at each tick, not collected
        clock.now = 60.0
        for _ in range(10_000):
            if dead() is None:
                break
            await asyncio.sleep(0.001)
        pacing.cancel()

    asyncio.run(a_while())
    assert dead() is None

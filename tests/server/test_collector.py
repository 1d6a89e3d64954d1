"""The collector's pacing (kozel.server.collector): what survives a collection of the middle or
the oldest generation is left out of the next ones, garbage cycles of the young are collected
as ever, and the long-lived are looked at again once ``whole_every`` has passed; the event loop
collects on a clock, not only when allocations outrun deallocations."""

from __future__ import annotations

import asyncio
import gc
import itertools
import weakref
from collections.abc import Iterator

import pytest

from kozel.server.collector import MIDDLE, YOUNG, Collector


class Node:
    """An object in a reference cycle (only the cyclic collector can free it)."""

    def __init__(self) -> None:
        self.me = self


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def paced() -> Iterator[tuple[Collector, Clock]]:
    clock = Clock()
    collector = Collector(whole_every=60.0, clock=clock)
    collector.install()
    try:
        yield collector, clock
    finally:
        collector.uninstall()
    assert gc.get_freeze_count() == 0


@pytest.mark.parametrize("generation", [1, 2], ids=["middle", "full"])
def test_a_young_cycle_is_collected_and_a_survivor_is_frozen(
    paced: tuple[Collector, Clock], generation: int
) -> None:
    assert gc.get_freeze_count() > 0  # what the process made before
    young = Node()
    gone = weakref.ref(young)
    del young
    kept = Node()
    frozen_before = gc.get_freeze_count()
    gc.collect(generation)
    assert gone() is None
    assert gc.get_freeze_count() > frozen_before  # the survivors, ``kept`` among them
    assert not gc.is_finalized(kept)


def test_a_frozen_cycle_waits_for_the_next_whole_collection(
    paced: tuple[Collector, Clock],
) -> None:
    _, clock = paced
    old = Node()
    gc.collect()  # it survives: frozen
    dead = weakref.ref(old)
    del old
    gc.collect()
    assert dead() is not None  # a cycle among frozen objects is left for now
    clock.now = 61.0
    gc.collect()  # the collection after which everything is handed back
    gc.collect()  # the whole one
    assert dead() is None
    assert gc.get_freeze_count() > 0  # and the survivors are frozen again


def test_after_the_hand_back_only_the_whole_collection_freezes_again(
    paced: tuple[Collector, Clock],
) -> None:
    _, clock = paced
    old = Node()
    gc.collect()
    dead = weakref.ref(old)
    del old
    clock.now = 61.0
    gc.collect()  # everything is handed back
    assert gc.get_freeze_count() == 0
    gc.collect(1)  # a middle collection does not freeze what the whole one is to look at
    assert gc.get_freeze_count() == 0
    assert dead() is not None  # (the middle collection does not look at the oldest)
    gc.collect()
    assert dead() is None
    assert gc.get_freeze_count() > 0


def test_the_young_generation_is_collected_less_often_while_installed() -> None:
    before = gc.get_threshold()
    collector = Collector()
    collector.install()
    try:
        assert gc.get_threshold()[:2] == (YOUNG, MIDDLE)
    finally:
        collector.uninstall()
    assert gc.get_threshold() == before


def test_the_event_loop_collects_on_a_clock_the_generation_python_would(
    paced: tuple[Collector, Clock],
) -> None:
    collector, _ = paced
    generations: list[int] = []

    def seen(phase: str, info: dict[str, int]) -> None:
        if phase == "stop":
            generations.append(info["generation"])

    async def a_while() -> None:
        pacing = asyncio.create_task(collector.pace(every=0.001))
        for _ in range(10_000):  # (at most ten seconds)
            if len(generations) >= 4 * (MIDDLE + 1):
                break
            await asyncio.sleep(0.001)
        pacing.cancel()

    enabled = gc.isenabled()
    gc.disable()  # no collection but the clock's
    gc.callbacks.append(seen)
    try:
        young = Node()
        gone = weakref.ref(young)
        del young
        assert gone() is not None
        asyncio.run(a_while())
    finally:
        gc.callbacks.remove(seen)
        if enabled:
            gc.enable()
    assert gone() is None
    older = [i for i, generation in enumerate(generations) if generation > 0]
    assert len(older) >= 3
    assert {b - a for a, b in itertools.pairwise(older)} == {MIDDLE + 1}  # MIDDLE young between

"""A table's clock keeps one timer while moves move its deadline on (kozel.server.clock): the
timer wakes at the first deadline, sleeps again until the last one, and only then says that
the seat to move, as of the last move, ran out of time."""

from __future__ import annotations

import asyncio
import time

from kozel.server.clock import EARLY, MoveClock


def test_moves_keep_the_clocks_timer_and_it_runs_out_at_the_last_deadline() -> None:
    expired: list[tuple[int, int, float]] = []

    async def play() -> None:
        clock = MoveClock(1, lambda seat, version: expired.append((seat, version, time.time())))
        start = time.time()
        clock.start(start + 1.0, 0, 5)
        timer = clock.timer
        for version, seat in ((6, 1), (7, 2)):  # two moves, 0.05 s apart, 1 s a move
            await asyncio.sleep(0.05)
            clock.start(time.time() + 1.0, seat, version)
            clock.state_sent(seat, version, True)  # its state out: the seat's time runs
            assert clock.timer is timer  # no new timer: the one there wakes first
        deadline = clock.deadline
        async with asyncio.timeout(10):  # a busy machine wakes timers late, never early
            while not expired:
                await asyncio.sleep(0.01)
        await asyncio.sleep(0.1)
        assert [(seat, version) for seat, version, _ in expired] == [(2, 7)]
        # a timer that wakes less than EARLY before the deadline does not sleep again: a
        # loop that woke the first timer late may time the seat out up to EARLY early
        assert expired[0][2] >= deadline - EARLY - 0.001

    asyncio.run(play())


def test_a_deadline_moved_earlier_gets_a_timer_of_its_own() -> None:
    expired: list[tuple[int, int]] = []

    async def play() -> None:
        clock = MoveClock(1, lambda seat, version: expired.append((seat, version)))
        clock.start(time.time() + 5.0, 0, 1)
        clock.start(time.time() + 0.05, 1, 2)  # sooner than the timer there wakes
        await asyncio.sleep(0.3)
        assert expired == [(1, 2)]
        clock.cancel()

    asyncio.run(play())

"""The clock of the seat to move at a table (:class:`~kozel.server.tables.Table`).

A seat has ``seconds_per_move`` for each move, from the moment the state that asks for it has
gone out, and is not charged for the server's own time: when the clock runs out, the seat
first gets back the time this process's event loop was stalled since the clock started (a
burst of password hashing, a starved machine: the player's move may be waiting, unread, in
the socket meanwhile), and is timed out only once the whole time has passed with the server
running.

A move moves the deadline on, and the state that asks for the next move moves it again
(:meth:`MoveClock.state_sent`): the clock does not set a timer for each, but keeps the one it
has while that wakes no later than the deadline, and when it wakes early it sleeps again
until the deadline. A table sets a timer once a move's time (or a round) has passed, not two
a move (each a timer handle, the loop's own timer and a copy of the context, alive until the
next move).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

log = logging.getLogger("kozel.tables")

EARLY = 0.05
"""A timer that wakes this many seconds before the deadline, or more, sleeps again."""


def no_server_time() -> float:
    """A table outside a club (tests) counts no server time."""
    return 0.0


class MoveClock:
    """One table's clock. When it runs out it calls ``expired(seat, version)`` (the table
    queues a timeout, which asks :meth:`server_time_owed` before it times the seat out)."""

    def __init__(self, table_id: int, expired: Callable[[int, int], None]) -> None:
        self.table_id = table_id
        self.expired = expired
        self.deadline = 0.0
        """Wall-clock time (``time.time()``) when the seat to move runs out, but for the
        server's own time: see :meth:`start`."""
        self.server_time: Callable[[], float] = no_server_time
        """Seconds this process's event loop has been stalled so far (the club's
        :class:`~kozel.server.stalls.StallMeter`): time no player's clock is charged for."""
        self._stall_mark = 0.0
        """``server_time()`` when the clock of the seat to move last started or grew."""
        self._armed_at: float | None = None
        """When the clock was started, until the state that started it has gone out."""
        self.timer: asyncio.TimerHandle | None = None
        """The table's one timer: this clock's, or the next deal's after a round's pause."""
        self._wakes_at: float | None = None
        """The event loop's time when this clock's timer wakes (``None``: it has none)."""
        self._seat = 0
        self._version = 0
        """The seat to move, and at which version, when the clock runs out."""

    def cancel(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        self._wakes_at = None

    def start(self, deadline: float, seat: int, version: int) -> None:
        """Start the clock of ``seat``, to move at ``version``, until ``deadline``.

        The clock is not charged for the server's own time: when it runs out, the seat first
        gets the time this process's loop was stalled since the clock started, and is timed
        out only once the whole time to ``deadline`` has passed with the server running
        (:meth:`server_time_owed`)."""
        self.deadline = deadline
        self._stall_mark = self.server_time()
        self._armed_at = time.time()
        self.wake_at_deadline(seat, version)

    def state_sent(self, seat: int | None, version: int, playing: bool) -> None:
        """The state that started the clock has been published (Redis has handed it to every
        process's subscription): the clock runs from now, and the seat gets the time the
        publishing took (a busy Redis, a busy machine). The stalls of this process until now
        are in that time: the stall count starts again here."""
        if self._armed_at is None:
            return
        late, self._armed_at = time.time() - self._armed_at, None
        self._stall_mark = self.server_time()
        if late > 0 and playing and seat is not None:
            self.deadline += late
            self.wake_at_deadline(seat, version)

    def wake_at_deadline(self, seat: int | None, version: int) -> None:
        """Call ``expired(seat, version)`` at the deadline (the timer this clock has already
        does, when it wakes no later)."""
        assert seat is not None
        self._seat, self._version = seat, version
        loop = asyncio.get_running_loop()
        at = loop.time() + max(0.0, self.deadline - time.time())
        if self._wakes_at is not None and self._wakes_at <= at:
            return  # it wakes first, and sleeps again until the deadline
        self.cancel()
        self.timer = loop.call_at(at, self._woken)
        self._wakes_at = at

    def _woken(self) -> None:
        self.timer = self._wakes_at = None
        if self.deadline - time.time() > EARLY:  # the deadline moved on since the timer was set
            self.wake_at_deadline(self._seat, self._version)
        else:
            self.expired(self._seat, self._version)

    def server_time_owed(self, seat: int | None, version: int) -> bool:
        """Whether the loop stalled since the clock started or grew: then the clock grows
        by the stall and runs again (``True``), instead of running out."""
        owed = self.server_time() - self._stall_mark
        if owed <= 0:
            return False
        self._stall_mark += owed
        self.deadline += owed
        self.wake_at_deadline(seat, version)
        if owed >= 0.1:
            log.info(
                "table %s: the clock gets %.0f ms of server time back", self.table_id, 1000 * owed
            )
        return True

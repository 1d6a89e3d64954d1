"""Password hashing, bounded: one worker thread per process, at the lowest CPU priority.

argon2 is slow on purpose; with the library's defaults it took a third of a second and four
threads of its own per hash. Run in the default thread pool, a burst of registrations or
failed log-ins (30 a second through three processes) ran a dozen hashes at once per process
and took every core from the event loops: socket pings waited up to 0.8 s and players'
clocks ran meanwhile.

Here a process hashes one password at a time (``auth.hash_password``: one lane, 19 MiB), in
one thread whose scheduling is ``SCHED_IDLE`` at nice 19, so that the event loop preempts it
whenever it has work. At most :attr:`Hasher.limit` passwords wait; one more is refused at
once (:class:`Busy`, answered 503 ``busy``: try again in a moment) instead of waiting without
end. :meth:`Hasher.stats` tells ``/api/health`` what a burst costs.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
import time
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from kozel.server import auth

NICE = 19
"""The hashing thread's nice value (Linux: a thread's own; elsewhere a no-op)."""
WINDOW = 60.0
"""``/api/health`` reports the last minute's hashing."""


class Busy(Exception):
    """Too many passwords are waiting to be hashed: refused before waiting."""


def _lower_priority() -> None:
    """Run in the worker thread as it starts: the thread's nice value becomes 19 and its
    policy ``SCHED_IDLE`` (Linux: both are a thread's own when given its id), the least
    share of a busy CPU there is, so that the event loop's thread runs first whenever it
    can (the hash still progresses on a loaded machine)."""
    me = threading.get_native_id()
    with contextlib.suppress(AttributeError, OSError):
        os.setpriority(os.PRIO_PROCESS, me, NICE)
    with contextlib.suppress(AttributeError, OSError):
        os.sched_setscheduler(me, os.SCHED_IDLE, os.sched_param(0))


class Hasher:
    """argon2 hashes and checks for one process, one at a time, at most ``limit`` waiting."""

    def __init__(self, limit: int = 16) -> None:
        self.limit = limit
        self._pool: ThreadPoolExecutor | None = None
        self.waiting = 0
        """Passwords queued or being hashed now."""
        self.done = 0
        self.refused = 0
        self._recent: deque[tuple[float, float, float]] = deque()
        """(finished at, waited, worked) of each hash in the last :data:`WINDOW` seconds."""
        self._refusals: deque[float] = deque()

    def _executor(self) -> ThreadPoolExecutor:
        if self._pool is None:
            self._pool = ThreadPoolExecutor(
                max_workers=1, thread_name_prefix="argon2", initializer=_lower_priority
            )
        return self._pool

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    def admit(self) -> None:
        """:class:`Busy` (counted) when one more password would be refused now: a caller
        checks before it does any other work for the password."""
        if self.waiting >= self.limit:
            self.refused += 1
            self._refusals.append(time.monotonic())
            raise Busy

    async def hash(self, password: str) -> str:
        """An argon2 hash of ``password``; :class:`Busy` when too many wait."""
        hashed: str = await self._run(lambda: auth.hash_password(password))
        return hashed

    async def check(self, stored: str | None, password: str) -> bool:
        """Whether ``password`` matches ``stored`` (``False`` without one: nothing to
        hash, answered at once); :class:`Busy` when too many wait."""
        if not stored:
            return False
        matches: bool = await self._run(lambda: auth.check_password(stored, password))
        return matches

    async def _run(self, work: Any) -> Any:
        self.admit()
        self.waiting += 1
        queued = time.monotonic()
        loop = asyncio.get_running_loop()

        def timed() -> Any:
            started = time.monotonic()
            try:
                return work()
            finally:
                finished = time.monotonic()
                with contextlib.suppress(RuntimeError):  # the loop has closed (shutting down)
                    loop.call_soon_threadsafe(
                        self._finished, finished, started - queued, finished - started
                    )

        job = self._executor().submit(timed)
        try:
            return await asyncio.wrap_future(job)
        finally:
            if job.cancelled():  # the asker went away before the hash started: none runs
                self.waiting -= 1

    def _finished(self, finished: float, waited: float, worked: float) -> None:
        """A hash ended in the worker (counted here, on the loop, also when its asker has
        gone away meanwhile)."""
        self.waiting -= 1
        self.done += 1
        self._recent.append((finished, waited, worked))

    def stats(self) -> dict[str, Any]:
        """What ``/api/health`` says of hashing: passwords waiting now (of at most
        ``limit``), hashes done and refused since the start, and over the last minute the
        hashes done, refused, the longest wait and the worker's busy time."""
        since = time.monotonic() - WINDOW
        while self._recent and self._recent[0][0] < since:
            self._recent.popleft()
        while self._refusals and self._refusals[0] < since:
            self._refusals.popleft()
        return {
            "waiting": self.waiting,
            "limit": self.limit,
            "done": self.done,
            "refused": self.refused,
            "last_minute": {
                "done": len(self._recent),
                "refused": len(self._refusals),
                "max_wait_ms": round(1000 * max((w for _, w, _ in self._recent), default=0.0)),
                "busy_ms": round(1000 * sum(b for _, _, b in self._recent)),
            },
        }

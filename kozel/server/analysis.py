"""The expert's judgement of finished games, for their review: computed after the game, once,
by one worker per process at the lowest CPU priority, and kept in the database.

A review asks for it (``GET /api/games/{id}/analysis``, :meth:`Analyst.request`): the first
ask of a finished game queues it (a row of ``analyses``, status ``queued``); every process's
worker (:meth:`Analyst.run`) claims queued rows one at a time, oldest first, and judges the
game seat by seat (:func:`kozel.judgement.judge_seat`) in a process of its own at nice
:attr:`Settings.analysis_nice`, so that the expert's playouts never hold this process's
event loop or its GIL, and each seat's judgement is stored as it is done (a review shows the
seats done so far). A claim whose process went away is taken over after
:attr:`Settings.analysis_stale_seconds`. At most :attr:`Settings.analysis_queue` games wait;
one more is refused (503 ``busy``). Only finished games are judged: the record, with every
hand, exists only once the game is over, and each seat's decisions are valued from what that
seat saw then.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from sqlalchemy import func, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from kozel.judgement import judge_seat
from kozel.server.db import Analysis, Game, now
from kozel.server.errors import ClubError
from kozel.server.settings import Settings

log = logging.getLogger("kozel.analysis")

VERSION = 1
"""The judgement's version: a kept judgement of an older version is computed again when asked
for (raise it when the expert or the judgement's format changes)."""


def _lower_priority(nice: int) -> None:
    """Run in the worker process as it starts: its nice value becomes ``nice`` (19: the
    least share of a busy CPU a normal process gets)."""
    with contextlib.suppress(AttributeError, OSError):
        os.setpriority(os.PRIO_PROCESS, 0, nice)


def _ms() -> int:
    return int(time.time() * 1000)


def analysis_json(row: Analysis) -> dict[str, Any]:
    """What the API answers of a game's judgement (docs/protocol.md)."""
    seats = row.data.get("seats", [])
    out: dict[str, Any] = {
        "game_id": row.game_id,
        "status": row.status,
        "progress": {"done": len(seats), "of": row.seats},
        "seats": seats,
    }
    if seats:
        out["unit"] = seats[0]["unit"]
    if row.status == "failed":
        out["error"] = row.data.get("error", "")
    return out


class Analyst:
    """One process's queue of judgements and its one worker."""

    def __init__(
        self, sessions: async_sessionmaker[AsyncSession], node: str, settings: Settings
    ) -> None:
        self.sessions = sessions
        self.node = node
        self.settings = settings
        self._wake = asyncio.Event()
        self._pool: ProcessPoolExecutor | None = None
        self._task: asyncio.Task[None] | None = None
        self.done = 0
        self.busy_seconds = 0.0
        """Wall-clock seconds spent judging games (the worker process runs meanwhile)."""

    def start(self) -> None:
        self._task = asyncio.create_task(self.run(), name="analysis")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None
        if self._pool is not None:
            pool, self._pool = self._pool, None
            # a judgement under way is abandoned (its row is taken over later): end the process
            for process in list(getattr(pool, "_processes", {}).values()):
                with contextlib.suppress(Exception):
                    process.terminate()
            pool.shutdown(wait=False, cancel_futures=True)

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                max_workers=1,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_lower_priority,
                initargs=(self.settings.analysis_nice,),
            )
        return self._pool

    async def request(self, game: Game) -> dict[str, Any]:
        """The judgement of the finished ``game`` as it stands, queued when it was never asked
        for (or is of an older version); 503 ``busy`` when too many wait."""
        assert game.record is not None, "only a finished game is judged (the caller checks)"
        for _ in range(2):  # a second ask racing the first finds the first one's row
            try:
                async with self.sessions() as session, session.begin():
                    row = await session.get(Analysis, game.id)
                    if row is not None and row.version == VERSION:
                        return analysis_json(row)
                    waiting = await session.scalar(
                        select(func.count())
                        .select_from(Analysis)
                        .where(Analysis.status == "queued")
                    )
                    if (waiting or 0) >= self.settings.analysis_queue:
                        raise ClubError(
                            503, "busy", "the expert has many games to go over: ask again later"
                        )
                    fresh = {
                        "status": "queued",
                        "version": VERSION,
                        "seats": len(game.record["seats"]),
                        "data": {"seats": []},
                        "owner": None,
                        "claimed_ms": 0,
                        "requested_at": now(),
                        "finished_at": None,
                    }
                    if row is None:
                        row = Analysis(game_id=game.id, **fresh)
                        session.add(row)
                    else:
                        for key, value in fresh.items():
                            setattr(row, key, value)
                self._wake.set()
                return analysis_json(row)
            except IntegrityError:
                continue
        raise ClubError(503, "busy", "the expert has many games to go over: ask again later")

    async def run(self) -> None:
        """Judge the queued games, one at a time, for as long as the club runs (first
        queueing again what this process was judging when it stopped)."""
        with contextlib.suppress(Exception):
            async with self.sessions() as session, session.begin():
                await session.execute(
                    update(Analysis)
                    .where(Analysis.status == "running", Analysis.owner == self.node)
                    .values(status="queued", owner=None)
                    .execution_options(synchronize_session=False)
                )
        while True:
            try:
                game_id = await self._claim()
            except asyncio.CancelledError:
                raise
            except Exception as error:  # the database is away: look again later
                log.warning("analysis: cannot look for work: %s", error)
                game_id = None
            if game_id is None:
                self._wake.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), self.settings.analysis_poll_seconds)
                continue
            await self._judge(game_id)

    async def _claim(self) -> int | None:
        """The oldest queued game (or one whose claim went stale), claimed by this process."""
        stale = _ms() - int(1000 * self.settings.analysis_stale_seconds)
        waiting = or_(
            Analysis.status == "queued",
            (Analysis.status == "running") & (Analysis.claimed_ms < stale),
        )
        async with self.sessions() as session, session.begin():
            found = (
                await session.execute(
                    select(Analysis.game_id, Analysis.claimed_ms)
                    .where(waiting)
                    .order_by(Analysis.requested_at)
                    .limit(1)
                )
            ).first()
            if found is None:
                return None
            game_id, claimed = found
            taken = await session.execute(
                update(Analysis)
                .where(Analysis.game_id == game_id, Analysis.claimed_ms == claimed, waiting)
                .values(status="running", owner=self.node, claimed_ms=_ms())
                .execution_options(synchronize_session=False)
            )
        return int(game_id) if getattr(taken, "rowcount", 0) == 1 else None

    async def _judge(self, game_id: int) -> None:
        """Judge every seat of the claimed game in the worker process, storing each."""
        async with self.sessions() as session:
            game = await session.get(Game, game_id)
        seats: list[dict[str, Any]] = []
        loop = asyncio.get_running_loop()
        started = time.monotonic()
        try:
            if game is None or game.record is None:
                raise ValueError(f"game {game_id} has no record")
            record = game.record
            for seat in range(len(record["seats"])):
                judged = await loop.run_in_executor(
                    self._executor(),
                    judge_seat,
                    record,
                    seat,
                    self.settings.analysis_worlds,
                    self.settings.analysis_playouts,
                )
                seats.append(judged)
                last = seat == len(record["seats"]) - 1
                await self._store(game_id, {"seats": seats}, "done" if last else "running")
        except asyncio.CancelledError:
            raise
        except Exception as error:
            if isinstance(error, BrokenProcessPool):  # the worker process died: a new one next
                self._pool = None
            log.warning("analysis of game %s failed: %s", game_id, error)
            with contextlib.suppress(Exception):
                await self._store(game_id, {"seats": seats, "error": str(error)}, "failed")
        finally:
            self.busy_seconds += time.monotonic() - started
        self.done += 1

    async def _store(self, game_id: int, data: dict[str, Any], status: str) -> None:
        ended = status in ("done", "failed")
        async with self.sessions() as session, session.begin():
            await session.execute(
                update(Analysis)
                .where(Analysis.game_id == game_id, Analysis.owner == self.node)
                .values(
                    data=data,
                    status=status,
                    claimed_ms=_ms(),
                    finished_at=now() if ended else None,
                    owner=None if ended else self.node,
                )
                .execution_options(synchronize_session=False)
            )

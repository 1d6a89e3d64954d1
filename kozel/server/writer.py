"""Group commit: the tables' events, gathered into as few transactions as the database allows.

A table hands over its event (and, when the game ends, the extra statements that finish it)
and waits until it is committed. The writer stores whatever has gathered in one transaction
with one multi-row UPDATE and one multi-row INSERT, so two hundred tables moving at once
cost a handful of commits, not two hundred. If a gathered transaction fails, each write is
retried alone, so one bad write fails only its own table's move.

**Fencing.** Every event carries its table's fencing token. In the transaction that stores
it, the writer moves the table's ``games`` row one version on only where the token is still
the table's and the version the one before: one ``UPDATE games SET version = version + 1
WHERE (id, fence, version) IN (...) RETURNING id`` for the whole batch, which locks the rows
it changes (and is the same statement whatever the batch's size, for SQLAlchemy's cache). A
process that lost the table to another (its lease ran out, another took it over) can no
longer store anything, even if it does not know yet; its write fails with :class:`Fenced`.
The row lock orders a takeover and a write: either the write commits first and the new
owner replays it, or the takeover commits first and the write is refused.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import insert, tuple_, update
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from kozel.server.db import Game, GameEvent

log = logging.getLogger("kozel.writer")
MAX_BATCH = 500


class Fenced(Exception):
    """The table has another owner now: this process may not store its events."""


@dataclass
class Write:
    """One table's event; ``finish`` runs in the same transaction when the game ends."""

    event: dict[str, Any]
    """The ``game_events`` row: game_id, version, kind, data, at and fence (the owner's
    fencing token, checked against the table's)."""
    finish: Callable[[AsyncConnection], Awaitable[None]] | None = None


class Writer:
    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self.pending: list[tuple[Write, asyncio.Future[None]]] = []
        self.wakeup = asyncio.Event()
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self.task = asyncio.create_task(self._loop(), name="writer")

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task

    async def write(self, write: Write) -> None:
        """Store ``write``; return once it is committed (raise if it could not be)."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.pending.append((write, done))
        self.wakeup.set()
        await done

    async def _loop(self) -> None:
        while True:
            await self.wakeup.wait()
            self.wakeup.clear()
            while self.pending:
                batch, self.pending = self.pending[:MAX_BATCH], self.pending[MAX_BATCH:]
                await self._commit(batch)

    async def _commit(self, batch: list[tuple[Write, asyncio.Future[None]]]) -> None:
        fenced: list[tuple[Write, asyncio.Future[None]]] = []
        try:
            async with self.engine.begin() as connection:
                fenced = await self._fenced(connection, batch)
                if fenced:
                    batch = [item for item in batch if item not in fenced]
                if batch:
                    await self._store(connection, [write for write, _ in batch])
        except Exception as error:
            if len(batch) > 1:
                for item in batch:
                    await self._commit([item])
                return
            log.exception("storing an event failed")
            if not batch[0][1].done():
                batch[0][1].set_exception(error)
            return
        finally:
            for write, done in fenced:
                if not done.done():
                    game = write.event["game_id"]
                    done.set_exception(Fenced(f"game {game} has another owner now"))
        for _, done in batch:
            if not done.done():
                done.set_result(None)

    @staticmethod
    async def _fenced(
        connection: AsyncConnection, batch: list[tuple[Write, asyncio.Future[None]]]
    ) -> list[tuple[Write, asyncio.Future[None]]]:
        """Move the batch's tables one version on, in one statement that locks their rows
        and checks their tokens and versions; return the writes whose token (or version) is
        no longer their table's: those tables are left as they were."""
        expected = [
            (write.event["game_id"], write.event["fence"], write.event["version"] - 1)
            for write, _ in batch
        ]
        stored = await connection.execute(
            update(Game)
            .where(tuple_(Game.id, Game.fence, Game.version).in_(expected))
            .values(version=Game.version + 1)
            .returning(Game.id)
        )
        accepted = set(stored.scalars())
        return [item for item in batch if item[0].event["game_id"] not in accepted]

    @staticmethod
    async def _store(connection: AsyncConnection, writes: list[Write]) -> None:
        await connection.execute(insert(GameEvent), [w.event for w in writes])
        for write in writes:
            if write.finish is not None:
                await write.finish(connection)

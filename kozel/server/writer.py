"""Group commit: the tables' events, gathered into as few transactions as the database allows.

A table hands over its event (and, when the game ends, the extra statements that finish it)
and waits until it is committed. The writer stores whatever has gathered in one transaction
with one multi-row UPDATE and one multi-row INSERT, so two hundred tables moving at once
cost a handful of commits, not two hundred. If a gathered transaction fails, each write is
retried alone, so one bad write fails only its own table's move.

**Fencing.** Every event carries its table's fencing token. In the transaction that stores
it, the writer moves the table's ``games`` row one version on only where the token is still
the table's and the version the one before: one ``UPDATE games SET version = version + 1
… RETURNING id`` for the whole batch that finds each game by its primary key
(:func:`fencing`, :func:`sqlite_fencing`) and locks the rows it changes. A process that lost
the table to another (its lease ran out, another took it over) can no longer store anything,
even if it does not know yet; its write fails with :class:`Fenced`.
The row lock orders a takeover and a write: either the write commits first and the new
owner replays it, or the takeover commits first and the write is refused.

**The driver's own statements.** A batch of plain events (every move and every deal; not a
game's end, whose ``finish`` runs SQLAlchemy statements) goes to SQLite or PostgreSQL through
the driver beneath SQLAlchemy (:class:`_Direct`): the same statements, written once, with the
values converted by SQLAlchemy's own column types, so the rows are the ones SQLAlchemy would
write. SQLAlchemy's compiling and its round trips to aiosqlite's thread were a fifth of a
move's server CPU (docs/benchmarks.md). On SQLite the whole transaction is one call on
aiosqlite's thread: a statement awaited alone waits for the event loop to take its result,
and under load that wait, five times a commit, made a commit's p90 80 to 230 ms at 1,000
tables (19 to 41 ms in one call). Any other database, and a batch with a ``finish``, take
SQLAlchemy's way.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import sqlite3
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Update, insert, tuple_, update
from sqlalchemy.engine import Dialect
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
    live: dict[str, Any] | None = None
    """After a deal: the game's new ``live`` (what the lobby's list of live games shows),
    stored in the same transaction."""


class Writer:
    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self.pending: list[tuple[Write, asyncio.Future[None]]] = []
        self.wakeup = asyncio.Event()
        self.task: asyncio.Task[None] | None = None

    @functools.cached_property
    def direct(self) -> _Direct | None:
        """How plain events go through the driver, for SQLite and PostgreSQL."""
        return _Direct.for_dialect(self.engine.dialect)

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
            if self.direct is not None and all(write.finish is None for write, _ in batch):
                async with self.engine.connect() as connection:
                    raw = (await connection.get_raw_connection()).driver_connection
                    accepted = await self.direct.store(raw, [write for write, _ in batch])
                fenced = [item for item in batch if item[0].event["game_id"] not in accepted]
                batch = [item for item in batch if item[0].event["game_id"] in accepted]
            else:
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
        stored = await connection.execute(fencing(expected))
        accepted = set(stored.scalars())
        return [item for item in batch if item[0].event["game_id"] not in accepted]

    @staticmethod
    async def _store(connection: AsyncConnection, writes: list[Write]) -> None:
        await connection.execute(insert(GameEvent), [w.event for w in writes])
        for write in writes:
            if write.live is not None:
                game = write.event["game_id"]
                await connection.execute(
                    update(Game).where(Game.id == game).values(live=write.live)
                )
            if write.finish is not None:
                await write.finish(connection)


def fencing(keys: list[tuple[int, int, int]]) -> Update:
    """SQLAlchemy's fencing UPDATE of a batch, ``(id, fence, version)`` a game: it moves
    each game whose row still holds those one version on. The games are found by their
    primary key (``id IN``): the row values' ``IN`` alone, SQLite answers by reading every
    game ever played."""
    return (
        update(Game)
        .where(
            Game.id.in_([key[0] for key in keys]),
            tuple_(Game.id, Game.fence, Game.version).in_(keys),
        )
        .values(version=Game.version + 1)
        .returning(Game.id)
    )


def sqlite_fencing(count: int) -> str:
    """The driver's fencing UPDATE on SQLite for a batch of ``count`` games (their ``id,
    fence, version`` as its parameters, in turn): a join with the batch, each game found by
    its primary key, where ``(id, fence, version) IN (VALUES …)`` read every game ever
    played (12 ms a batch of 100 among 30,000 games, against 0.3)."""
    marks = ", ".join(["(?, ?, ?)"] * count)
    return (
        "UPDATE games SET version = games.version + 1 "
        f"FROM (VALUES {marks}) AS k WHERE games.id = k.column1 "
        "AND games.fence = k.column2 AND games.version = k.column3 RETURNING games.id"
    )


_COLUMNS = ("game_id", "version", "kind", "data", "at", "fence")
"""The ``game_events`` columns an event fills, in the order of the INSERT's values."""


class _Direct:
    """A batch of plain events written through the driver: one UPDATE that moves the batch's
    tables one version on where their tokens and versions still hold (returning the tables
    it moved), then the accepted events in one INSERT and the accepted deals' ``live`` in
    one more UPDATE, in one transaction. ``dialect`` is ``sqlite`` (aiosqlite) or
    ``postgresql`` (asyncpg)."""

    def __init__(self, dialect: Dialect) -> None:
        self.sqlite = dialect.name == "sqlite"
        table = GameEvent.__table__
        self.convert = [
            table.c[name].type.dialect_impl(dialect).bind_processor(dialect) for name in _COLUMNS
        ]
        live = Game.__table__.c["live"].type.dialect_impl(dialect).bind_processor(dialect)
        self.convert_live: Callable[[Any], Any] = live or (lambda value: value)
        names = ", ".join(_COLUMNS)
        if self.sqlite:
            self.insert = f"INSERT INTO game_events ({names}) VALUES (?, ?, ?, ?, ?, ?)"
            self.show = "UPDATE games SET live = ? WHERE id = ?"
        else:
            self.insert = f"INSERT INTO game_events ({names}) VALUES ($1, $2, $3, $4, $5, $6)"
            self.show = "UPDATE games SET live = $1 WHERE id = $2"
            # one statement whatever the batch's size, so asyncpg prepares it once
            self.update = (
                "UPDATE games SET version = version + 1 WHERE (id, fence, version) IN "
                "(SELECT * FROM unnest($1::integer[], $2::integer[], $3::integer[])) RETURNING id"
            )

    @classmethod
    def for_dialect(cls, dialect: Dialect) -> _Direct | None:
        if (dialect.name, dialect.driver) in (("sqlite", "aiosqlite"), ("postgresql", "asyncpg")):
            return cls(dialect)
        return None

    def _row(self, event: dict[str, Any]) -> tuple[Any, ...]:
        return tuple(
            value if convert is None else convert(value)
            for convert, value in zip(self.convert, (event[c] for c in _COLUMNS), strict=True)
        )

    def _shown(self, writes: list[Write], accepted: set[int]) -> list[tuple[Any, int]]:
        return [
            (self.convert_live(w.live), w.event["game_id"])
            for w in writes
            if w.live is not None and w.event["game_id"] in accepted
        ]

    async def store(self, raw: Any, writes: list[Write]) -> set[int]:
        """Store ``writes`` (without a ``finish``) on the driver's connection ``raw``; return
        the games moved on (an event of any other game was fenced off and not written)."""
        events = [write.event for write in writes]
        keys = [(e["game_id"], e["fence"], e["version"] - 1) for e in events]
        if self.sqlite:  # one call on aiosqlite's thread (its own, private way; pyproject.toml)
            return await raw._execute(self._store_sqlite, raw._conn, writes, keys)  # type: ignore[no-any-return]
        async with raw.transaction():
            ids, fences, versions = (list(column) for column in zip(*keys, strict=True))
            rows = await raw.fetch(self.update, ids, fences, versions)
            accepted = {row[0] for row in rows}
            written = [self._row(e) for e in events if e["game_id"] in accepted]
            if written:
                await raw.executemany(self.insert, written)
            if shown := self._shown(writes, accepted):
                await raw.executemany(self.show, shown)
        return accepted

    def _store_sqlite(
        self, connection: sqlite3.Connection, writes: list[Write], keys: list[tuple[int, int, int]]
    ) -> set[int]:
        """:meth:`store` on SQLite, run on the driver's thread: one transaction, rolled back
        if any statement fails."""
        try:
            rows = connection.execute(
                sqlite_fencing(len(keys)), [value for key in keys for value in key]
            ).fetchall()
            accepted = {row[0] for row in rows}
            written = [self._row(w.event) for w in writes if w.event["game_id"] in accepted]
            if written:
                connection.executemany(self.insert, written)
            if shown := self._shown(writes, accepted):
                connection.executemany(self.show, shown)
            connection.commit()
        except BaseException:
            connection.rollback()
            raise
        return accepted

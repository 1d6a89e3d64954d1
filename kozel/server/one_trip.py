"""SQLite statements in one trip to aiosqlite's thread each.

aiosqlite runs SQLite on a thread of its own, and every call is a trip there and back: the
call queued, the thread woken, its result handed to the event loop, which takes it when it is
free. SQLAlchemy's aiosqlite adapter makes four trips for each statement (a cursor, the
statement, its rows, closing the cursor), and the requests that open a table run a few
statements each: on a busy server most of a join's time was these trips (docs/benchmarks.md).
:class:`OneTripConnection` runs the four on the thread in one call. It uses aiosqlite's own
private way to run a call there (``Connection._execute``), as the writer does
(:mod:`kozel.server.writer`; pyproject.toml pins the releases it was tested with).
"""

from __future__ import annotations

import collections
import sqlite3
from collections.abc import Sequence
from typing import Any

from sqlalchemy.dialects.sqlite.aiosqlite import (
    AsyncAdapt_aiosqlite_connection,
    AsyncAdapt_aiosqlite_cursor,
)
from sqlalchemy.util.concurrency import await_


class Done:
    """What a statement left for SQLAlchemy to read: the rows' description, the rows, the
    last row's id and the rows it changed (the cursor itself is closed on the thread)."""

    __slots__ = ("arraysize", "description", "lastrowid", "rowcount", "rows")

    def __init__(
        self,
        description: Any = None,
        rows: list[Any] | None = None,
        lastrowid: int | None = None,
        rowcount: int = -1,
    ) -> None:
        self.description = description
        self.rows = rows or []
        self.lastrowid = lastrowid
        self.rowcount = rowcount
        self.arraysize = 1

    def close(self) -> None:
        """Nothing to close: the cursor was closed where it ran."""


def _run(
    conn: sqlite3.Connection, operation: str, parameters: Any, many: bool
) -> Done:  # on aiosqlite's thread
    cursor = conn.cursor()
    try:
        if many:
            cursor.executemany(operation, parameters)
        elif parameters is None:
            cursor.execute(operation)
        else:
            cursor.execute(operation, parameters)
        description = cursor.description
        rows = cursor.fetchall() if description else None
        return Done(description, rows, cursor.lastrowid, cursor.rowcount)
    finally:
        cursor.close()


class OneTripCursor(AsyncAdapt_aiosqlite_cursor):
    """SQLAlchemy's aiosqlite cursor, each statement run in one call on the thread."""

    __slots__ = ()
    _awaitable_cursor_close = False  # closed on the thread already

    def _make_new_cursor(self, connection: Any) -> Any:
        return Done()

    def _aenter_cursor(self, cursor: Any) -> Any:
        return cursor

    def execute(self, operation: Any, parameters: Any = None) -> Any:
        return self._one_trip(operation, parameters, many=False)

    def executemany(self, operation: Any, seq_of_parameters: Sequence[Any]) -> Any:
        return self._one_trip(operation, seq_of_parameters, many=True)

    def _one_trip(self, operation: Any, parameters: Any, many: bool) -> Any:
        try:
            done = await_(self._trip(operation, parameters, many))
        except Exception as error:
            self._adapt_connection._handle_exception(error)
        self._cursor = done  # type: ignore[assignment]  # what SQLAlchemy reads of a cursor
        if done.description:
            self._rows = collections.deque(done.rows)
        return self

    async def _trip(self, operation: Any, parameters: Any, many: bool) -> Done:
        async with self._adapt_connection._execute_mutex:
            aiosqlite = self._connection
            done: Done = await aiosqlite._execute(
                _run, aiosqlite._conn, operation, parameters, many
            )
            return done


class OneTripConnection(AsyncAdapt_aiosqlite_connection):
    """SQLAlchemy's aiosqlite connection whose cursors are :class:`OneTripCursor`. A
    connection becomes one by its class (``connection.__class__ = OneTripConnection``, when
    the pool opens it): the adapter is made inside SQLAlchemy's dialect."""

    __slots__ = ()
    _cursor_cls = OneTripCursor

    def rollback(self) -> None:
        """No trip when there is nothing to roll back: SQLite (as Python's driver drives it)
        begins a transaction at the first write, not at a read, so a connection that only
        read ends without one, and every read on a reading connection (who holds a session
        cookie, a table's seats …) paid a trip for its rollback."""
        sqlite = self._connection._connection  # None once closed: the adapter's own way
        if sqlite is not None and not sqlite.in_transaction:
            return
        super().rollback()

"""SQLite statements go to aiosqlite's thread in one trip each (kozel/server/one_trip.py),
and read back what SQLAlchemy's own adapter reads: rows, the last row's id, the rows a
change touched, errors as SQLAlchemy's."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import aiosqlite
import pytest
from sqlalchemy import exc, text

from kozel.server.db import make_engine, make_read_engine
from kozel.server.one_trip import OneTripConnection


@pytest.fixture
def trips(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many calls went to aiosqlite's thread (``[n]``), counted from now on."""
    counter = [0]
    execute = aiosqlite.Connection._execute

    async def counted(self: aiosqlite.Connection, fn: Any, *args: Any, **kwargs: Any) -> Any:
        counter[0] += 1
        return await execute(self, fn, *args, **kwargs)

    monkeypatch.setattr(aiosqlite.Connection, "_execute", counted)
    return counter


def test_a_statement_is_one_trip_and_reads_back_as_before(tmp_path: Path, trips: list[int]) -> None:
    async def main() -> None:
        engine = make_engine(f"sqlite+aiosqlite:///{tmp_path / 'trips.db'}")
        try:
            async with engine.connect() as conn:
                raw = await conn.get_raw_connection()
                assert type(raw.dbapi_connection) is OneTripConnection
                await conn.execute(text("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)"))
                before = trips[0]
                inserted = await conn.execute(text("INSERT INTO t (v) VALUES ('a')"))
                assert trips[0] == before + 1
                assert inserted.lastrowid == 1
                await conn.execute(text("INSERT INTO t (v) VALUES (:v)"), [{"v": "b"}, {"v": "c"}])
                before = trips[0]
                changed = await conn.execute(text("UPDATE t SET v = 'x' WHERE id > 1"))
                assert changed.rowcount == 2 and trips[0] == before + 1
                before = trips[0]
                rows = (await conn.execute(text("SELECT id, v FROM t ORDER BY id"))).all()
                assert trips[0] == before + 1
                assert [tuple(r) for r in rows] == [(1, "a"), (2, "x"), (3, "x")]
                assert (await conn.execute(text("SELECT v FROM t WHERE id = 9"))).first() is None
                with pytest.raises(exc.IntegrityError):
                    await conn.execute(text("INSERT INTO t (id, v) VALUES (1, 'again')"))
                await conn.rollback()
        finally:
            await engine.dispose()

    asyncio.run(main())


def test_reads_of_sqlite_have_connections_of_their_own_that_only_read(
    tmp_path: Path,
) -> None:
    """A SQLite club's reads go to connections beside the writing one (the write-ahead log
    lets them): they see what the writer committed, refuse to write, and are busy while
    the writer holds a transaction open."""

    async def main() -> None:
        url = f"sqlite+aiosqlite:///{tmp_path / 'reads.db'}"
        engine = make_engine(url)
        reads = make_read_engine(url, engine)
        assert reads is not engine
        try:
            async with engine.begin() as conn:
                await conn.execute(text("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)"))
                await conn.execute(text("INSERT INTO t (v) VALUES ('a')"))
            async with engine.connect() as writing, reads.connect() as reading:
                await writing.execute(text("INSERT INTO t (v) VALUES ('b')"))  # not committed
                seen = (await reading.execute(text("SELECT v FROM t ORDER BY id"))).scalars()
                assert list(seen) == ["a"]  # read while the writer holds its transaction
                await writing.commit()
                seen = (await reading.execute(text("SELECT v FROM t ORDER BY id"))).scalars()
                assert list(seen) == ["a", "b"]
                with pytest.raises(exc.OperationalError, match="readonly"):
                    await reading.execute(text("INSERT INTO t (v) VALUES ('c')"))
        finally:
            await reads.dispose()
            await engine.dispose()

    asyncio.run(main())


def test_a_connection_that_only_read_ends_without_a_trip(tmp_path: Path, trips: list[int]) -> None:
    """Its rollback would roll back nothing (SQLite begins at the first write); one that wrote
    still rolls its writes back."""

    async def main() -> None:
        engine = make_engine(f"sqlite+aiosqlite:///{tmp_path / 'reads.db'}")
        try:
            async with engine.begin() as conn:
                await conn.execute(text("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)"))
            before = trips[0]
            async with engine.connect() as conn:
                assert (await conn.execute(text("SELECT count(*) FROM t"))).scalar() == 0
            assert trips[0] == before + 1  # the statement; the rollback made no trip
            async with engine.connect() as conn:
                await conn.execute(text("INSERT INTO t (v) VALUES ('a')"))
                before = trips[0]
            assert trips[0] == before + 1  # the rollback
            async with engine.connect() as conn:
                assert (await conn.execute(text("SELECT count(*) FROM t"))).scalar() == 0
        finally:
            await engine.dispose()

    asyncio.run(main())


def test_reads_of_postgresql_begin_no_transaction(postgres_url: str) -> None:
    """On PostgreSQL the reads share the writers' pool in autocommit: a statement is one
    round trip, not a ``BEGIN``, the statement and a ``ROLLBACK``; the writers' connections
    still begin their transactions."""

    async def main() -> None:
        engine = make_engine(postgres_url)
        reads = make_read_engine(postgres_url, engine)
        try:
            async with reads.connect() as reading:
                assert (await reading.execute(text("SELECT 1"))).scalar() == 1
                raw = await reading.get_raw_connection()
                assert not raw.driver_connection.is_in_transaction()
            async with engine.connect() as writing:
                assert (await writing.execute(text("SELECT 1"))).scalar() == 1
                raw = await writing.get_raw_connection()
                assert raw.driver_connection.is_in_transaction()
        finally:
            await engine.dispose()

    asyncio.run(main())

"""The group commit's two ways (kozel.server.writer): a plain event written through the
driver is stored exactly as SQLAlchemy stores it, and both refuse an event whose fencing
token or version is not its table's any more."""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.dialects import sqlite
from sqlalchemy.ext.asyncio import AsyncEngine

from kozel.server.db import Game, make_engine, migrate, sessionmaker
from kozel.server.writer import Fenced, Write, Writer, fencing, sqlite_fencing


def event(game: int, version: int, fence: int = 1) -> dict[str, Any]:
    at = datetime(2026, 12, 5, 8, 30, 15, 123456, tzinfo=UTC)
    data = {"seat": 1, "move": {"tile": "6-5", "arm": 2}, "text": "ёжик", "n": [1, 2.5, None]}
    return {
        "game_id": game,
        "version": version,
        "kind": "move",
        "data": data,
        "at": at,
        "fence": fence,
    }


async def database(url: str, games: int) -> AsyncEngine:
    """A migrated database holding ``games`` live games (ids 1 …), each at version 0 under
    fencing token 1."""
    engine = make_engine(url)
    await migrate(engine)
    async with sessionmaker(engine)() as session, session.begin():
        for _ in range(games):
            session.add(
                Game(
                    game="goat",
                    options={},
                    seats=[],
                    seconds_per_move=60,
                    rated=False,
                    fence=1,
                    version=0,
                )
            )
    return engine


def test_the_drivers_way_stores_what_sqlalchemy_stores(db_url: str) -> None:
    async def scenario() -> list[tuple[Any, ...]]:
        engine = await database(db_url, games=4)
        direct, alchemy = Writer(engine), Writer(engine)
        alchemy.__dict__["direct"] = None  # SQLAlchemy's way
        assert direct.direct is not None
        for writer in (direct, alchemy):
            writer.start()
        try:
            # one batch through each way: games 1 and 2, then 3 and 4; a stale token and a
            # stale version are refused in both, and the rest of their batch is stored
            for writer, (game, other) in ((direct, (1, 2)), (alchemy, (3, 4))):
                results = await asyncio.gather(
                    writer.write(Write(event(game, 1), live={"round": 2, "score": [5, "ё"]})),
                    writer.write(Write(event(other, 1, fence=0), live={"round": 9, "score": []})),
                    writer.write(Write(event(other, 2))),
                    return_exceptions=True,
                )
                assert results[0] is None
                assert isinstance(results[1], Fenced) and isinstance(results[2], Fenced)
            async with engine.connect() as connection:
                rows = await connection.execute(
                    text("SELECT game_id, version, kind, data, at, fence FROM game_events")
                )
                games = await connection.execute(text("SELECT id, version, live FROM games"))
                # a deal's live line is stored with its event; a fenced one's is not (SQLite
                # gives the JSON's text, PostgreSQL its value)
                versions = [
                    (game, version, json.loads(live) if isinstance(live, str) else live)
                    for game, version, live in games
                ]
                live = {"round": 2, "score": [5, "ё"]}
                assert sorted(versions, key=str) == [
                    (1, 1, live),
                    (2, 0, None),
                    (3, 1, live),
                    (4, 0, None),
                ]
                return sorted(tuple(row) for row in rows)
        finally:
            for writer in (direct, alchemy):
                await writer.stop()
            await engine.dispose()

    first, third = asyncio.run(scenario())
    assert first[0] == 1 and third[0] == 3
    assert first[1:] == third[1:]  # the same values, stored alike (the JSON text, the time)


@pytest.mark.parametrize("finish", [False, True])
def test_a_batch_with_a_finish_goes_sqlalchemys_way(db_url: str, finish: bool) -> None:
    """A game end's extra statements run in the event's transaction."""

    async def scenario() -> int:
        engine = await database(db_url, games=1)
        writer = Writer(engine)
        writer.start()
        ran = []

        async def extra(connection: Any) -> None:
            ran.append(await connection.scalar(text("SELECT version FROM games")))

        try:
            await writer.write(Write(event(1, 1), extra if finish else None))
            return len(ran)
        finally:
            await writer.stop()
            await engine.dispose()

    assert asyncio.run(scenario()) == (1 if finish else 0)


def test_a_failed_batch_is_rolled_back_and_its_writes_retried_alone(db_url: str) -> None:
    """A statement that fails inside a batch leaves no trace of the batch (its tables' versions
    are not moved on): each write is retried alone, and only the bad one fails."""

    async def scenario() -> tuple[list[Any], list[tuple[int, int]], list[tuple[int, int]]]:
        engine = await database(db_url, games=2)
        writer = Writer(engine)
        writer.start()
        bad = {**event(2, 1), "kind": None}  # game_events.kind may not be null: the INSERT fails
        try:
            results = await asyncio.gather(
                writer.write(Write(event(1, 1))),
                writer.write(Write(bad)),
                return_exceptions=True,
            )
            async with engine.connect() as connection:
                games = await connection.execute(text("SELECT id, version FROM games"))
                events = await connection.execute(text("SELECT game_id, version FROM game_events"))
                return results, sorted(tuple(g) for g in games), sorted(tuple(e) for e in events)
        finally:
            await writer.stop()
            await engine.dispose()

    results, games, events = asyncio.run(scenario())
    assert results[0] is None and isinstance(results[1], Exception)
    assert games == [(1, 1), (2, 0)]
    assert events == [(1, 1)]


def test_the_fencing_updates_find_the_games_by_their_primary_key_on_sqlite(
    tmp_path: Path,
) -> None:
    """SQLite answered ``(id, fence, version) IN (VALUES …)`` by reading every game ever
    played, at every commit; both ways must look each game up instead (the query plan)."""
    path = tmp_path / "club.db"

    async def made() -> None:
        await (await database(f"sqlite+aiosqlite:///{path}", games=3)).dispose()

    asyncio.run(made())
    keys = [(1, 1, 0), (3, 1, 0)]
    statement = fencing(keys).compile(
        dialect=sqlite.dialect(), compile_kwargs={"literal_binds": True}
    )
    plans = {
        "the driver's": ("EXPLAIN QUERY PLAN " + sqlite_fencing(2), [v for k in keys for v in k]),
        "SQLAlchemy's": (f"EXPLAIN QUERY PLAN {statement}", []),
    }
    with contextlib.closing(sqlite3.connect(path)) as connection:
        for way, (query, parameters) in plans.items():
            plan = [row[3] for row in connection.execute(query, parameters)]
            assert "SCAN games" not in plan, (way, plan)
            assert any(step.startswith("SEARCH games USING INTEGER PRIMARY KEY") for step in plan)

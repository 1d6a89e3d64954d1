"""Migrations carry a club's data forward: an older database upgraded at start-up."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import text

from kozel.server.db import MIGRATIONS, make_engine, migrate


def test_live_games_of_an_older_club_get_their_players(tmp_path: Path) -> None:
    """0005 indexes the people of every game; the games stored before it are read from
    their seats, computer seats and repeated people left out."""

    async def scenario() -> list[tuple[int, int]]:
        engine = make_engine(f"sqlite+aiosqlite:///{tmp_path / 'club.db'}")
        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))

        def upgrade_to_0004(connection: Any) -> None:
            config.attributes["connection"] = connection
            command.upgrade(config, "0004")

        async with engine.begin() as conn:
            await conn.run_sync(upgrade_to_0004)
            for user, name in ((1, "alice"), (2, "bob")):
                await conn.execute(
                    text(
                        "INSERT INTO users (id, name, name_key, guest, rating, created_at)"
                        " VALUES (:id, :name, :name, 0, 0, '2026-01-01')"
                    ),
                    {"id": user, "name": name},
                )
            seats = (
                '[{"user": 1, "name": "alice"}, {"bot": "random"}]',
                '[{"user": 2, "name": "bob"}, {"user": 1, "name": "alice"}]',
                '[{"bot": "random"}, {"bot": "expert"}]',
            )
            for game_id, seat_list in enumerate(seats, 1):
                await conn.execute(
                    text(
                        "INSERT INTO games (id, game, options, seats, seconds_per_move, rated,"
                        " status, version, fence, created_at) VALUES (:id, 'goat', '{}',"
                        " :seats, 30, 0, 'playing', 0, 0, '2026-01-01')"
                    ),
                    {"id": game_id, "seats": seat_list},
                )
        await migrate(engine)
        async with engine.connect() as conn:
            rows = await conn.execute(text("SELECT game_id, user_id FROM game_players"))
            found = sorted((row[0], row[1]) for row in rows)
        await engine.dispose()
        return found

    assert asyncio.run(scenario()) == [(1, 1), (2, 1), (2, 2)]


def test_tournaments_keep_every_stored_event(tmp_path: Path) -> None:
    """0006 adds columns to ``games``: its events and players (ON DELETE CASCADE) stay."""

    async def scenario() -> tuple[int, int, list[str]]:
        engine = make_engine(f"sqlite+aiosqlite:///{tmp_path / 'club.db'}")
        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))

        def upgrade_to_0005(connection: Any) -> None:
            config.attributes["connection"] = connection
            command.upgrade(config, "0005")

        async with engine.begin() as conn:
            await conn.run_sync(upgrade_to_0005)
            await conn.execute(
                text(
                    "INSERT INTO users (id, name, name_key, guest, rating, created_at)"
                    " VALUES (1, 'alice', 'alice', 0, 0, '2026-01-01')"
                )
            )
            await conn.execute(
                text(
                    "INSERT INTO games (id, game, options, seats, seconds_per_move, rated,"
                    " status, version, fence, created_at) VALUES (1, 'goat', '{}',"
                    ' \'[{"user": 1, "name": "alice"}]\', 30, 0, \'playing\', 1, 0,'
                    " '2026-01-01')"
                )
            )
            await conn.execute(text("INSERT INTO game_players VALUES (1, 1)"))
            await conn.execute(
                text(
                    "INSERT INTO game_events (game_id, version, kind, data, at, fence)"
                    " VALUES (1, 1, 'deal', '{}', '2026-01-01', 0)"
                )
            )
        await migrate(engine)
        async with engine.connect() as conn:
            events = (await conn.execute(text("SELECT count(*) FROM game_events"))).scalar_one()
            players = (await conn.execute(text("SELECT count(*) FROM game_players"))).scalar_one()
            columns = [row[1] for row in await conn.execute(text("PRAGMA table_info(games)"))]
        await engine.dispose()
        return events, players, columns

    events, players, columns = asyncio.run(scenario())
    assert (events, players) == (1, 1)
    assert "tournament_id" in columns

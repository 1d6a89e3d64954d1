"""A real club server on a loopback port, on SQLite and (when configured) PostgreSQL.

PostgreSQL tests read the server URL from ``KOZEL_TEST_POSTGRES`` (``.ci/run`` sets it, e.g.
``postgresql+asyncpg://postgres@127.0.0.1:5432``); each test gets a database of its own. When
the variable is set and the server is unreachable the tests fail; when it is not set they are
reported as skipped, with the reason.

Every club a test starts is seeded (``Settings.seed``) with ``KOZEL_TEST_SEED`` (tests/suite.py)
unless the test seeds it itself: its deals and computer players are the same on every run with
the same seed and order of tests.
"""

from __future__ import annotations

import asyncio
import dataclasses
import os
import secrets
import shutil
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import uvicorn

from kozel.server.app import create_app
from kozel.server.db import make_engine, migrate
from kozel.server.settings import Settings
from kozel.server.wire import uvicorn_options
from tests.suite import club_seed

POSTGRES = os.environ.get("KOZEL_TEST_POSTGRES", "")


async def _admin(sql: str) -> None:
    import asyncpg

    url = POSTGRES.replace("postgresql+asyncpg://", "postgresql://").rstrip("/")
    connection = await asyncpg.connect(url + "/postgres")
    try:
        await connection.execute(sql)
    finally:
        await connection.close()


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite database migrated to the newest schema, which each test copies: a club finds
    its schema made instead of making it (a quarter of a second a test)."""
    path = tmp_path_factory.mktemp("migrated") / "club.db"

    async def make() -> None:
        engine = make_engine(f"sqlite+aiosqlite:///{path}")
        await migrate(engine)
        await engine.dispose()

    asyncio.run(make())
    return path


@pytest.fixture(scope="session")
def postgres_template() -> Iterator[str]:
    """A PostgreSQL database migrated to the newest schema, the template each test's database
    is made from (half a second a test); dropped at the end of the worker's session."""
    name = f"kozel_template_{secrets.token_hex(4)}"
    asyncio.run(_admin(f"CREATE DATABASE {name}"))

    async def make() -> None:
        engine = make_engine(f"{POSTGRES.rstrip('/')}/{name}")
        await migrate(engine)
        await engine.dispose()

    try:
        asyncio.run(make())
        yield name
    finally:
        asyncio.run(_admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))


@pytest.fixture(
    params=[
        "sqlite",
        pytest.param(
            "postgresql",
            marks=pytest.mark.skipif(not POSTGRES, reason="KOZEL_TEST_POSTGRES is not set"),
        ),
    ]
)
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh database of the test's own, with the newest schema and nothing in it."""
    if request.param == "sqlite":
        shutil.copyfile(request.getfixturevalue("migrated_sqlite"), tmp_path / "club.db")
        yield f"sqlite+aiosqlite:///{tmp_path / 'club.db'}"
        return
    yield from _postgres_database(request.getfixturevalue("postgres_template"))


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A fresh, empty PostgreSQL database (for what only PostgreSQL supports: the clubs of
    several processes, which make its schema as a club on a new database does)."""
    if not POSTGRES:
        pytest.skip("KOZEL_TEST_POSTGRES is not set")
    yield from _postgres_database()


def _postgres_database(template: str | None = None) -> Iterator[str]:
    """A PostgreSQL database of the test's own, a copy of ``template`` or empty, dropped
    afterwards."""
    name = f"kozel_test_{secrets.token_hex(4)}"
    copied = f" TEMPLATE {template}" if template else ""
    asyncio.run(_admin(f"CREATE DATABASE {name}{copied}"))
    try:
        yield f"{POSTGRES.rstrip('/')}/{name}"
    finally:
        asyncio.run(_admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))


SEED = club_seed()
"""The seed of every club the tests start (``KOZEL_TEST_SEED``)."""


def seeded(settings: Settings) -> Settings:
    """``settings`` with the tests' seed, unless they have a seed of their own."""
    return settings if settings.seed is not None else dataclasses.replace(settings, seed=SEED)


class _Server(uvicorn.Server):
    async def main_loop(self) -> None:
        """uvicorn's loop, which looks for ``should_exit`` every 10 ms instead of every
        100 ms (the tests stop hundreds of servers); its work of once a second is done as
        often as before."""
        counter = 0
        while not await self.on_tick(counter):
            for _ in range(10):
                await asyncio.sleep(0.01)
                if self.should_exit:
                    return
            counter = (counter + 1) % 864_000


class RunningServer:
    """uvicorn serving the club in a thread of this process (seeded: :func:`seeded`)."""

    def __init__(self, settings: Settings) -> None:
        settings = seeded(settings)
        config = uvicorn.Config(
            create_app(settings),
            host="127.0.0.1",
            port=0,
            log_level="warning",
            **uvicorn_options(),
        )
        self.server = _Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the server did not start")
            time.sleep(0.02)
        port = self.server.servers[0].sockets[0].getsockname()[1]
        self.url = f"http://127.0.0.1:{port}"
        self.ws = f"ws://127.0.0.1:{port}"

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=20)


@pytest.fixture
def settings(db_url: str) -> Settings:
    # computer players move at once (bot_delay_ms=0), a finished round is dealt again at once
    # (round_pause_seconds=0) and so is the first, without waiting for the players' seeds
    # (seed_seconds=0; tests/server/test_seeds.py waits): the tests wait for moves, not for a
    # pace
    return Settings(
        db_url=db_url,
        min_seconds_per_move=1,
        login_attempts_per_minute=5,
        bot_delay_ms=0,
        round_pause_seconds=0,
        seed_seconds=0,
    )


@pytest.fixture
def server(settings: Settings) -> Iterator[RunningServer]:
    running = RunningServer(settings)
    try:
        yield running
    finally:
        running.stop()

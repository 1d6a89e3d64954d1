"""The database: SQLAlchemy 2 models, the async engine, and migrations at start-up."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import orjson
from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    ForeignKey,
    Integer,
    String,
    false,
    insert,
    update,
)
from sqlalchemy.dialects.sqlite.aiosqlite import AsyncAdapt_aiosqlite_connection
from sqlalchemy.ext.asyncio import (
    AsyncConnection,
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from kozel.server.one_trip import OneTripConnection
from kozel.server.seeds import new_server_seed
from kozel.server.settings import database_url


def now() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    pass


class User(Base):
    __tablename__ = "users"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(40), unique=True)
    name_key: Mapped[str] = mapped_column(String(80), unique=True)
    """The name case-folded in its Unicode normal form (``auth.name_key``): one account."""
    password_hash: Mapped[str | None] = mapped_column(String(200))
    guest: Mapped[bool] = mapped_column(Boolean, default=False)
    rating: Mapped[int] = mapped_column(Integer, default=0)
    admin: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """May see the club's administration views (``kozel admin grant NAME``)."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class NameKey(Base):
    """A registered name's look-alike keys (:func:`kozel.server.names.look_alike_keys`): a
    key belongs to one account, so a new name that looks like a taken one (in any script or
    case) is refused. Names registered before the keys existed keep their accounts; a key
    two of them shared went to the older one."""

    __tablename__ = "name_keys"
    key: Mapped[str] = mapped_column(String(200), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)


class Session(Base):
    __tablename__ = "sessions"
    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    csrf: Mapped[str] = mapped_column(String(64))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class GameRequest(Base):
    __tablename__ = "requests"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game: Mapped[str] = mapped_column(String(20))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    seconds_per_move: Mapped[int] = mapped_column(Integer)
    rated: Mapped[bool] = mapped_column(Boolean)
    status: Mapped[str] = mapped_column(String(12), default="open", index=True)
    """open, started or cancelled."""
    created_by: Mapped[int] = mapped_column(ForeignKey("users.id"))
    seats: Mapped[list[Any]] = mapped_column(JSON)
    """One entry per seat: taken, ``{"user": id, "name": ...}`` or ``{"bot": level}``; free,
    ``None``; or kept by the creator for one player, ``{"reserved": name}``, or for whoever
    holds the link, ``{"link": true}``."""
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    tournament: Mapped[bool] = mapped_column(Boolean, default=False)
    """A request for a Bykovo micro-tournament: its seats are the field (4 to 7)."""
    tournament_id: Mapped[int | None] = mapped_column(ForeignKey("tournaments.id"))
    """The tournament it started (its first game is ``game_id``)."""
    private: Mapped[bool] = mapped_column(Boolean, default=False)
    """Not listed in the lobby: joined only by its link (``code``)."""
    code: Mapped[str | None] = mapped_column(String(32), unique=True)
    """The unguessable code of the request's link (``/invite/CODE``): who holds it may join,
    also a private request and a seat reserved for the link. Tournament requests have none."""


class TournamentRow(Base):
    """A micro-tournament in the club (docs/rules.md#tournament). Its state is not stored as
    such: it is derived from ``entrants`` and ``seed`` and its finished games' records, in order
    (:mod:`kozel.server.series`)."""

    __tablename__ = "tournaments"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game: Mapped[str] = mapped_column(String(20), default="bykovo")
    entrants: Mapped[list[Any]] = mapped_column(JSON)
    """In the fixed order: ``{"user": id, "name": ..., "rating": r}`` or ``{"bot": level}``,
    each with its ``label`` (the name the tournament's record gives it)."""
    seconds_per_move: Mapped[int] = mapped_column(Integer)
    rated: Mapped[bool] = mapped_column(Boolean)
    seed: Mapped[int] = mapped_column(BigInteger)
    """The seed of the tournament's lots (who sits out, ties): kept secret until the end."""
    status: Mapped[str] = mapped_column(String(12), default="playing", index=True)
    """playing or finished."""
    record: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    """The ``kozel-tournament/1`` record, once it is over."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class Game(Base):
    __tablename__ = "games"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game: Mapped[str] = mapped_column(String(20))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    seats: Mapped[list[Any]] = mapped_column(JSON)
    """Per seat ``{"user": id, "name": ...}`` or ``{"bot": level}``."""
    seconds_per_move: Mapped[int] = mapped_column(Integer)
    rated: Mapped[bool] = mapped_column(Boolean)
    status: Mapped[str] = mapped_column(String(12), default="playing", index=True)
    """playing, finished (a Goat was found) or interrupted (a timeout)."""
    version: Mapped[int] = mapped_column(Integer, default=0)
    owner: Mapped[str | None] = mapped_column(String(100))
    """The process (node name) that runs the table while it is played."""
    fence: Mapped[int] = mapped_column(Integer, default=0)
    """The fencing token: raised by every change of owner; an event is stored only by the
    owner holding the current token."""
    record: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    tournament_id: Mapped[int | None] = mapped_column(ForeignKey("tournaments.id"), index=True)
    """The micro-tournament this game is one of, if any."""
    server_seed: Mapped[str | None] = mapped_column(String(64), default=new_server_seed)
    """The secret seed of the game's verifiable shuffle (:mod:`kozel.server.seeds`): never
    sent before the game ends, when the record reveals it. ``None``: a game stored before the
    shuffle, dealt from the system's generator."""
    live: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    """While it is played, what the lobby's list of live games shows: ``{"round": r,
    "score": [per unit]}``, written with every deal (``None`` before the first)."""


class GamePlayer(Base):
    """A person seated at a game: what a player's live tables and recent games are read
    from (a game's ``seats`` are JSON, which no index reaches)."""

    __tablename__ = "game_players"
    game_id: Mapped[int] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True, index=True)


class GameEvent(Base):
    """Every accepted event of a table, in order: a deal, a move or a timeout."""

    __tablename__ = "game_events"
    game_id: Mapped[int] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    version: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(10))
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    fence: Mapped[int] = mapped_column(Integer, default=0)
    """The owner's fencing token the event was stored under."""


class Node(Base):
    """A ``kozel serve`` process: it owns the tables whose ``owner`` is its name while its
    heartbeat (``seen_ms``, wall-clock milliseconds) is fresh."""

    __tablename__ = "nodes"
    name: Mapped[str] = mapped_column(String(100), primary_key=True)
    incarnation: Mapped[str] = mapped_column(String(32))
    seen_ms: Mapped[int] = mapped_column(BigInteger)
    started_ms: Mapped[int] = mapped_column(BigInteger)


class ClubState(Base):
    """Values the club's processes share: ``club_id`` (text) names the club's channels in
    Redis; ``lobby_version`` (number) counts lobby changes."""

    __tablename__ = "club_state"
    key: Mapped[str] = mapped_column(String(40), primary_key=True)
    number: Mapped[int] = mapped_column(BigInteger, default=0)
    text: Mapped[str] = mapped_column(String(200), default="")


class ChatMessage(Base):
    """A line said in a chat room: ``lobby`` or ``game:<id>`` (the table's people only)."""

    __tablename__ = "chat_messages"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    room: Mapped[str] = mapped_column(String(40), index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    name: Mapped[str] = mapped_column(String(40))
    text: Mapped[str] = mapped_column(String(400))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class Analysis(Base):
    """The expert's judgement of a finished game (:mod:`kozel.server.analysis`): asked for
    by its review, computed once by one process's analysis worker, then kept."""

    __tablename__ = "analyses"
    game_id: Mapped[int] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    status: Mapped[str] = mapped_column(String(12), index=True)
    """queued, running, done or failed."""
    version: Mapped[int] = mapped_column(Integer)
    """The judgement's version (``analysis.VERSION``): an older one is computed again."""
    seats: Mapped[int] = mapped_column(Integer)
    """How many seats the game has (one step of the work each)."""
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    """``{"seats": [...]}``: each seat judged so far (:func:`kozel.judgement.judge_seat`);
    ``{"error": ...}`` besides when it failed."""
    owner: Mapped[str | None] = mapped_column(String(100))
    """The process working on it (while running)."""
    claimed_ms: Mapped[int] = mapped_column(BigInteger, default=0)
    """When it was claimed (wall-clock milliseconds): a claim this old is taken over."""
    requested_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class RatingChange(Base):
    __tablename__ = "rating_history"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    """For a tournament's rating, its last game."""
    tournament_id: Mapped[int | None] = mapped_column(ForeignKey("tournaments.id"))
    delta: Mapped[int] = mapped_column(Integer)
    rating: Mapped[int] = mapped_column(Integer)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


async def change_rating(
    connection: AsyncConnection, user_id: int, delta: int, game_id: int, tournament_id: int | None
) -> None:
    """Move a player's rating by ``delta`` and keep the change in its history (after a rated
    game, or a rated tournament's last game)."""
    rating = await connection.scalar(
        update(User)
        .where(User.id == user_id)
        .values(rating=User.rating + delta)
        .returning(User.rating)
    )
    await connection.execute(
        insert(RatingChange).values(
            user_id=user_id,
            game_id=game_id,
            tournament_id=tournament_id,
            delta=delta,
            rating=rating,
            at=now(),
        )
    )


MIGRATIONS = Path(__file__).parent / "migrations"


def make_engine(url: str, connections: int = 40) -> AsyncEngine:
    """An async engine. SQLite gets foreign keys, a write-ahead log with ``synchronous =
    NORMAL`` (a committed move survives the server being killed; only a power cut can lose
    the last moments), patience when another writer holds the lock, and each statement in
    one trip to aiosqlite's thread (:mod:`kozel.server.one_trip`). Plain ``sqlite://``
    and ``postgresql://`` URLs get their async drivers (:func:`settings.database_url`).
    PostgreSQL gets a pool of at most ``connections``: every process of a club holds that
    many at most, and PostgreSQL refuses clients beyond its ``max_connections``."""
    url = database_url(url)
    if url.startswith("sqlite"):
        # One connection: SQLite has one writer at a time anyway, and writers that queue in
        # the pool wait far less than writers that poll SQLite's lock.
        return _sqlite_engine(url, 1, ("foreign_keys=ON", "journal_mode=WAL", "synchronous=NORMAL"))
    kept = max(1, connections // 2)
    return create_async_engine(
        url, pool_size=kept, max_overflow=connections - kept, json_serializer=_json_text
    )


SQLITE_READERS = 3
"""Connections of a SQLite club's reading engine (:func:`make_read_engine`)."""


def make_read_engine(url: str, engine: AsyncEngine) -> AsyncEngine:
    """The engine of reads that need no transaction of their own (who holds a session
    cookie, a game's row, the games' lists, a free guest name). On SQLite they get
    :data:`SQLITE_READERS` connections of their own that may only read: the write-ahead log
    lets them read beside the one writing connection (while 1,000 tables opened at once that
    connection was busy 97 % of the time, and 13 of a table's 22 uses of it were such reads).
    On PostgreSQL they share ``engine``'s pool in autocommit: each statement reads what was
    committed when it began, as in the read committed transaction it would otherwise be
    wrapped in, without the ``BEGIN`` and ``ROLLBACK`` around it, two round trips of the
    three (docs/benchmarks.md)."""
    url = database_url(url)
    if not url.startswith("sqlite"):
        return engine.execution_options(isolation_level="AUTOCOMMIT")
    return _sqlite_engine(url, SQLITE_READERS, ("query_only=ON",))


def own_pool(read_engine: AsyncEngine, engine: AsyncEngine) -> bool:
    """Whether the reading engine has connections of its own, to be disposed of apart."""
    return read_engine.sync_engine.pool is not engine.sync_engine.pool


def _sqlite_engine(url: str, connections: int, pragmas: tuple[str, ...]) -> AsyncEngine:
    engine = create_async_engine(
        url,
        connect_args={"timeout": 30},
        pool_size=connections,
        max_overflow=0,
        pool_timeout=60,
        # every user of a connection ends its own transaction (a session rolls back what it
        # leaves open, the writer commits or rolls back on the driver's thread), so the
        # pool's own rollback on return is a trip to aiosqlite's thread for nothing, and
        # every move's commit waited for it (docs/benchmarks.md)
        pool_reset_on_return=None,
        json_serializer=_json_text,
    )
    from sqlalchemy import event

    @event.listens_for(engine.sync_engine, "connect")
    def _connected(dbapi_connection: Any, _record: Any) -> None:
        if type(dbapi_connection) is AsyncAdapt_aiosqlite_connection:
            dbapi_connection.__class__ = OneTripConnection  # a statement, one trip
        cursor = dbapi_connection.cursor()
        for pragma in pragmas:
            cursor.execute(f"PRAGMA {pragma}")
        cursor.close()

    return engine


def _json_text(value: Any) -> str:
    """A JSON column's text (orjson: every move's event is written through it)."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


def sessionmaker(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    return async_sessionmaker(engine, expire_on_commit=False)


async def migrate(engine: AsyncEngine) -> None:
    """Bring the schema to the newest Alembic revision."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))

    def upgrade(connection: Any) -> None:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")

    async with engine.begin() as conn:
        if conn.dialect.name == "postgresql":  # processes starting together migrate in turn
            from sqlalchemy import text

            await conn.execute(text("SELECT pg_advisory_xact_lock(7405211)"))
        await conn.run_sync(upgrade)

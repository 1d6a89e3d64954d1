"""What every part of the club shares: its settings, database, pub/sub, this node's name,
lease and writer, and the tables this process runs."""

from __future__ import annotations

import random
import socket
from dataclasses import dataclass, field
from datetime import UTC, datetime

from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from kozel.server.cluster import Ownership
from kozel.server.db import make_engine, make_read_engine, sessionmaker
from kozel.server.errors import ClubError
from kozel.server.pubsub import PubSub, make_pubsub
from kozel.server.settings import Settings
from kozel.server.stalls import StallMeter
from kozel.server.tables import Table
from kozel.server.writer import Writer

jitter = random.Random()
"""Spreads timers and claims (not a secret): a generator of its own, so the club leaves the
``random`` module's shared state alone for whatever embeds it (a test's Hypothesis checks
that nothing changes it while it generates data)."""


def aware(stamp: datetime) -> datetime:
    """SQLite hands back naive datetimes: they are UTC."""
    return stamp if stamp.tzinfo else stamp.replace(tzinfo=UTC)


@dataclass
class Services:
    """The club's shared services, made once by :class:`~kozel.server.club.Club` and handed
    to each of its parts. ``pubsub`` is replaced by the club's namespaced one when the club
    starts: the parts read it from here each time, never keep it."""

    settings: Settings
    engine: AsyncEngine
    read_engine: AsyncEngine
    sessions: async_sessionmaker[AsyncSession]
    reads: async_sessionmaker[AsyncSession]
    """Sessions for reads alone (:func:`make_read_engine`: beside the writing ones on SQLite,
    in autocommit on PostgreSQL): a read sees what was committed before it began, never a
    transaction's own writes."""
    pubsub: PubSub
    writer: Writer
    node: str
    ownership: Ownership
    stalls: StallMeter
    tables: dict[int, Table] = field(default_factory=dict)
    """The tables this process owns and runs."""

    @classmethod
    def of(cls, settings: Settings) -> Services:
        engine = make_engine(settings.db_url, settings.db_connections)
        sessions = sessionmaker(engine)
        read_engine = make_read_engine(settings.db_url, engine)
        node = settings.node or socket.gethostname()
        return cls(
            settings=settings,
            engine=engine,
            read_engine=read_engine,
            sessions=sessions,
            reads=sessionmaker(read_engine),
            pubsub=make_pubsub(settings.pubsub_url),
            writer=Writer(engine),
            node=node,
            ownership=Ownership(sessions, node, settings.lease_seconds),
            stalls=StallMeter(),
        )

    async def available(self) -> None:
        """Refuse a change (before saving anything) that could not reach the players."""
        if not await self.pubsub.ping():
            raise ClubError(
                503, "unavailable", "the club's message service is down: try again in a moment"
            )

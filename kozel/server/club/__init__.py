"""The club: the parts that decide everything the HTTP and WebSocket layer
(:mod:`kozel.server.app`, :mod:`kozel.server.routes`) only translates to and from.

:class:`Club` makes the shared services once (:mod:`.services`) and wires the parts:

- :mod:`.claims` — the tables this node runs: its lease, claims, starting and stopping tables;
- :mod:`.relay` — a seat's commands and a table's state, here or forwarded to the node that
  runs the table, and this process's seat sockets told to the owners (presence);
- :mod:`.accounts` — registering, logging in, guests, sessions;
- :mod:`.lobby` — game requests, their seats and links, starting a full one;
- :mod:`.new_games` — every new game's row, rematches, games of computer players;
- :mod:`.tournaments` — micro-tournaments, game after game;
- :mod:`.chat_rooms` — chat lines and their history;
- :mod:`.queries` — the read-only listings (live games, leaderboard, a player's page);
- :mod:`.checks` — the checks of a new request's game, options, seats and rating.

Every failure a user can cause raises :class:`ClubError` with a status and a clear message.
"""

from __future__ import annotations

import asyncio
import logging

from sqlalchemy import select

from kozel.server.analysis import Analyst
from kozel.server.db import ClubState, migrate, own_pool
from kozel.server.errors import ClubError
from kozel.server.hashing import Hasher
from kozel.server.pubsub import Namespaced, PubSub
from kozel.server.settings import Settings
from kozel.server.tables import Table

from .accounts import Accounts
from .chat_rooms import ChatRooms, chat_json
from .checks import NOT_RATED_WITH_COMPUTERS, rated_problem
from .claims import Claims
from .lobby import LOBBY, LOBBY_VERSION, Lobby, request_json
from .new_games import NewGames
from .queries import Queries, game_json, live_json, names_json
from .relay import Relay
from .services import Services
from .tournaments import Tournaments

__all__ = [
    "LOBBY",
    "LOBBY_VERSION",
    "NOT_RATED_WITH_COMPUTERS",
    "Club",
    "ClubError",
    "chat_json",
    "game_json",
    "live_json",
    "names_json",
    "rated_problem",
    "request_json",
]

log = logging.getLogger("kozel.club")


class Club:
    """One process of the club: its shared services, its parts, and their loops."""

    def __init__(self, settings: Settings) -> None:
        self.services = services = Services.of(settings)
        self.settings = settings
        self.engine = services.engine
        self.sessions = services.sessions
        self.writer = services.writer
        self.node = services.node
        self.ownership = services.ownership
        self.stalls = services.stalls
        """How long this process's loop could not run: no clock is charged for it."""
        self.tables = services.tables
        """The tables this process owns and runs."""
        self.hasher = Hasher(settings.hash_queue)
        """Every password hash and check of this process, one at a time (:mod:`hashing`)."""
        self.analyst = Analyst(self.sessions, self.node, settings)
        """The expert's judgement of finished games, one at a time (:mod:`analysis`)."""
        self.relay = Relay(services)
        self.claims = Claims(
            services,
            wire=self._wire,
            after_claims=self._after_claims,
            tournament_moved_on=self._tournament_moved_on,
            sockets_here=self.relay.announcer.seats,
            tell=self.relay.tell,
        )
        self.relay.on_take = self.claims.take
        self.relay.on_linked = self.claims.follow
        self.new_games = NewGames(services, self.claims)
        self.tournaments = Tournaments(services, self.claims, self.new_games)
        self.lobby = Lobby(services, self.claims, self.new_games, self.tournaments)
        self.accounts = Accounts(services, self.hasher)
        self.chat = ChatRooms(services)
        self.queries = Queries(services)
        self._loops: list[asyncio.Task[None]] = []

    @property
    def pubsub(self) -> PubSub:
        """The club's pub/sub: namespaced with the club's id once the club has started."""
        return self.services.pubsub

    @pubsub.setter
    def pubsub(self, pubsub: PubSub) -> None:
        self.services.pubsub = pubsub

    def _wire(self, table: Table) -> None:
        """What a table asks of the club's other parts: a rematch, a tournament's step."""
        table.on_rematch = self.new_games.rematch
        if table.tournament_id is not None:
            table.on_tournament = self.tournaments.game_over

    async def _after_claims(self) -> None:
        await self.tournaments.resume()

    async def _tournament_moved_on(self, tournament_id: int) -> None:
        await self.tournaments.moved_on(tournament_id)

    async def start(self) -> None:
        self._loops.append(asyncio.create_task(self.stalls.run(), name="stalls"))
        await migrate(self.engine)
        async with self.sessions() as session:
            club_id = await session.scalar(select(ClubState.text).where(ClubState.key == "club_id"))
        self.pubsub = Namespaced(self.pubsub, f"kozel:{club_id}:")
        self.relay.forwarder.pubsub = self.pubsub
        await self.ownership.register()
        self.writer.start()
        self._loops.append(asyncio.create_task(self.relay.forwarder.run(), name="forwarder"))
        # the lease is renewed while this node claims (claiming many tables takes a while)
        self._loops.append(asyncio.create_task(self.claims.keep(), name="lease"))
        await self.claims.claim_all()
        self._loops.append(asyncio.create_task(self.claims.claim_gone(), name="claims"))
        self._loops.append(asyncio.create_task(self.relay.announcer.run(), name="presence"))
        self.analyst.start()

    async def stop(self) -> None:
        await self.analyst.stop()
        for task in self._loops:
            task.cancel()
        await asyncio.gather(*self._loops, return_exceptions=True)
        await self.relay.announcer.stop()
        await self.claims.stop()
        await self.writer.stop()
        try:
            await self.ownership.release()
        except Exception:
            log.warning("could not end this node's lease; other nodes wait for it to run out")
        await self.pubsub.close()
        await self.engine.dispose()
        if own_pool(self.services.read_engine, self.engine):
            await self.services.read_engine.dispose()
        self.hasher.close()

    async def missing(self) -> list[str]:
        """The services that do not answer now: ``database``, ``pubsub``."""
        missing = []
        try:
            async with asyncio.timeout(2), self.engine.connect() as connection:
                await connection.execute(select(1))
        except Exception:
            missing.append("database")
        if not await self.pubsub.ping():
            missing.append("pubsub")
        return missing

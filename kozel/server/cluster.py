"""Several processes, one club: which process runs which table, and how a seat reaches it.

Any number of ``kozel serve`` processes may serve one club (one PostgreSQL database, one
Redis). Each is a **node** with a name (``--node``, by default the host name and port) and a
heartbeat row in ``nodes``. Every unfinished table has exactly one **owner**: the node named
in its ``games.owner``, holding its **fencing token** ``games.fence``.

- A node owns a table while its heartbeat is fresher than the lease (``lease_seconds``).
- A node **claims** a table whose owner is gone (heartbeat too old), whose owner is itself
  (a restart) or that it has just started, with one compare-and-set on the token: ``UPDATE
  games SET owner = me, fence = fence + 1 WHERE id = ? AND fence = <the token it saw>``. Of
  several nodes claiming at once, one wins. The winner replays the table's stored events.
- Every stored event carries the token and is refused when it is not the table's any more
  (:mod:`kozel.server.writer`), so a stale owner — a paused or partitioned process that does
  not know yet — can never store a move, and never publishes one either (a table publishes
  only what it stored).
- A node whose heartbeat fails for a whole lease gives up its tables by itself, and a node
  that finds its name taken by a newer process (``incarnation``) does the same.
- A table **follows its players**: when every socket of it is in one other node, its owner
  hands it over there (the same compare-and-set, naming that node) and tells it to claim
  the table at once (:meth:`Claims.follow <kozel.server.club.claims.Claims.follow>`). A
  balancer that sends every socket of a table to one process (docs/deploy.md) so spares its
  moves and messages the trips through Redis.

Commands for a table owned by another node (a seat's move, a full state) travel over the
pub/sub to the owner's channel ``node:<name>`` and the answer comes back on the sender's
(:class:`Forwarder`); the table's events reach every seat's socket on every node through the
same pub/sub. Nothing here needs more than what PostgreSQL and Redis already guarantee.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from kozel.server.db import Game, Node
from kozel.server.pubsub import PubSub

log = logging.getLogger("kozel.cluster")


def now_ms() -> int:
    return int(time.time() * 1000)


@dataclass(frozen=True)
class Claimable:
    game_id: int
    fence: int
    owner: str | None


class Ownership:
    """This node's heartbeat and its claims on tables, in the database."""

    def __init__(
        self, sessions: async_sessionmaker[AsyncSession], name: str, lease_seconds: float
    ) -> None:
        self.sessions = sessions
        self.name = name
        self.incarnation = secrets.token_hex(8)
        self.lease_ms = int(lease_seconds * 1000)

    async def register(self) -> None:
        """Announce this process under its name (a restart replaces the old incarnation)."""
        for attempt in range(2):
            stamp = now_ms()
            try:
                async with self.sessions() as session, session.begin():
                    node = await session.get(Node, self.name, with_for_update=True)
                    if node is None:
                        session.add(Node(name=self.name, incarnation="", seen_ms=0, started_ms=0))
                        await session.flush()
                        node = await session.get(Node, self.name)
                        assert node is not None
                    node.incarnation, node.seen_ms, node.started_ms = (
                        self.incarnation,
                        stamp,
                        stamp,
                    )
                return
            except IntegrityError:  # another process inserted the name first: update it
                if attempt:
                    raise

    async def heartbeat(self) -> bool:
        """Renew the lease; ``False`` when a newer process has taken this node's name."""
        async with self.sessions() as session, session.begin():
            result = await session.execute(
                update(Node)
                .where(Node.name == self.name, Node.incarnation == self.incarnation)
                .values(seen_ms=now_ms())
            )
            return bool(result.rowcount)  # type: ignore[attr-defined]

    async def release(self) -> None:
        """A clean stop: the lease ends now, so that other nodes take the tables at once."""
        async with self.sessions() as session, session.begin():
            await session.execute(
                update(Node)
                .where(Node.name == self.name, Node.incarnation == self.incarnation)
                .values(seen_ms=0)
            )

    async def claimable(self) -> list[Claimable]:
        """Unfinished tables this node may claim: its own, and those of gone nodes."""
        stale = now_ms() - self.lease_ms
        async with self.sessions() as session:
            rows = await session.execute(
                select(Game.id, Game.fence, Game.owner)
                .outerjoin(Node, Node.name == Game.owner)
                .where(
                    Game.status == "playing",
                    or_(
                        Game.owner.is_(None),
                        Game.owner == self.name,
                        Node.name.is_(None),
                        Node.seen_ms < stale,
                    ),
                )
                .order_by(Game.id)
            )
            return [Claimable(*row) for row in rows]

    async def claim(self, game_id: int, fence: int) -> Game | None:
        """Take the table if its token is still ``fence`` and its owner still may be taken
        from (gone, or this node, or none): the row under the new token, or ``None`` when
        another node was first or the owner has renewed its lease since.

        The lease is checked again here, not only when the table was listed: claims take a
        while, and a node that missed one renewal must not lose every table it has to a
        claimer working through an old list."""
        alive = (
            select(Node.name)
            .where(Node.name == Game.owner, Node.seen_ms >= now_ms() - self.lease_ms)
            .exists()
        )
        async with self.sessions() as session, session.begin():
            result = await session.execute(
                update(Game)
                .where(
                    and_(Game.id == game_id, Game.fence == fence, Game.status == "playing"),
                    or_(Game.owner.is_(None), Game.owner == self.name, ~alive),
                )
                .values(owner=self.name, fence=fence + 1)
            )
            if not result.rowcount:  # type: ignore[attr-defined]
                return None
            return await session.get(Game, game_id)

    async def hand_over(self, game_id: int, fence: int, node: str) -> bool:
        """Give a table this node runs under ``fence`` to ``node`` (which claims it under the
        next token): True when stored. From then on this node's copy can store nothing."""
        async with self.sessions() as session, session.begin():
            result = await session.execute(
                update(Game)
                .where(
                    Game.id == game_id,
                    Game.fence == fence,
                    Game.owner == self.name,
                    Game.status == "playing",
                )
                .values(owner=node, fence=fence + 1)
            )
            return bool(result.rowcount)  # type: ignore[attr-defined]

    async def fences(self, game_ids: list[int]) -> dict[int, int]:
        """The fencing token each of these tables holds now."""
        async with self.sessions() as session:
            rows = await session.execute(select(Game.id, Game.fence).where(Game.id.in_(game_ids)))
            return {game_id: fence for game_id, fence in rows}

    async def owner_of(self, game_id: int) -> str | None:
        """The live node that owns an unfinished table, or ``None``."""
        stale = now_ms() - self.lease_ms
        async with self.sessions() as session:
            row = await session.execute(
                select(Game.owner)
                .join(Node, Node.name == Game.owner)
                .where(Game.id == game_id, Node.seen_ms >= stale)
            )
            return row.scalar_one_or_none()

    async def owners_of(self, game_ids: list[int]) -> dict[int, str]:
        """The live node that owns each of these unfinished tables (those without one are
        left out)."""
        stale = now_ms() - self.lease_ms
        async with self.sessions() as session:
            rows = await session.execute(
                select(Game.id, Game.owner)
                .join(Node, Node.name == Game.owner)
                .where(Game.id.in_(game_ids), Node.seen_ms >= stale)
            )
            return {game_id: owner for game_id, owner in rows if owner}

    async def overview(self) -> dict[str, Any]:
        """Who owns what: every node with its lease, and every unfinished table's owner."""
        stamp = now_ms()
        async with self.sessions() as session:
            nodes = list(await session.scalars(select(Node).order_by(Node.name)))
            games = (
                await session.execute(
                    select(Game.id, Game.game, Game.owner, Game.fence, Game.version)
                    .where(Game.status == "playing")
                    .order_by(Game.id)
                )
            ).all()
            tables = [
                {"id": i, "game": g, "owner": o, "fence": f, "version": v}
                for i, g, o, f, v in games
            ]
        return {
            "node": self.name,
            "lease_ms": self.lease_ms,
            "nodes": [
                {
                    "name": n.name,
                    "alive": stamp - n.seen_ms < self.lease_ms,
                    "seen_ms_ago": stamp - n.seen_ms,
                    "up_seconds": (stamp - n.started_ms) // 1000,
                    "tables": sum(1 for t in tables if t["owner"] == n.name),
                }
                for n in nodes
            ],
            "tables": tables,
        }


class Forwarder:
    """Requests to other nodes over the pub/sub, and the answers to them.

    A request is ``{"to": node, "from": me, "id": ident, ...}`` published on ``node:<to>``;
    the answer ``{"reply": ident, ...}`` comes back on ``node:<from>``. A request not answered
    in ``timeout`` seconds (the owner died, Redis is down) is answered ``None``.

    An ``ident`` is unique to this process's life (a random prefix, then a count): a node
    restarted under the same name must never take an answer meant for its former life, which
    once gave a seat the state of another game (its version, and another player's hand).
    """

    def __init__(
        self,
        pubsub: PubSub,
        name: str,
        handle: Callable[[dict[str, Any]], Awaitable[dict[str, Any]]],
    ) -> None:
        self.pubsub = pubsub
        self.name = name
        self.handle = handle
        self.pending: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self.life = secrets.token_hex(8)
        self.ids = itertools.count(1)
        self.ready = asyncio.Event()
        self._tasks: set[asyncio.Task[None]] = set()

    async def run(self) -> None:
        """Listen on this node's channel for as long as the club runs, resubscribing after
        an outage."""
        delay = 0.2
        while True:
            try:
                async with self.pubsub.subscribe(f"node:{self.name}") as sub:
                    self.ready.set()
                    delay = 0.2
                    async for text in sub:
                        self._dispatch(text)
            except asyncio.CancelledError:
                raise
            except Exception as error:
                log.warning("node channel lost (%s); subscribing again", error)
            self.ready.clear()
            await asyncio.sleep(delay)
            delay = min(delay * 2, 5.0)

    def _dispatch(self, text: str) -> None:
        try:
            message = json.loads(text)
        except ValueError:
            return
        if not isinstance(message, dict):
            return
        if "reply" in message:
            future = self.pending.pop(str(message["reply"]), None)
            if future is not None and not future.done():
                future.set_result(message)
            return
        task = asyncio.create_task(self._answer(message))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _answer(self, message: dict[str, Any]) -> None:
        try:
            answer = await self.handle(message)
        except Exception:
            log.exception("answering %r failed", message.get("op"))
            answer = {"error": "unavailable"}
        with contextlib.suppress(Exception):  # the asker times out
            await self.pubsub.publish(
                f"node:{message.get('from')}", json.dumps({**answer, "reply": message.get("id")})
            )

    async def call(
        self, node: str, request: dict[str, Any], timeout: float
    ) -> dict[str, Any] | None:
        ident = f"{self.life}-{next(self.ids)}"
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.pending[ident] = future
        try:
            await self.pubsub.publish(
                f"node:{node}", json.dumps({**request, "from": self.name, "id": ident})
            )
            return await asyncio.wait_for(future, timeout)
        except Exception:
            return None
        finally:
            self.pending.pop(ident, None)

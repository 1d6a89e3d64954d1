"""Reaching a table wherever it runs: a seat's commands and a table's state go to the
table here or are forwarded to the node that runs it (:class:`~kozel.server.cluster.Forwarder`),
and this process's seat sockets are told to the tables' owners (presence). The owner's side
answers forwarded commands in :meth:`Relay.answer`."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from sqlalchemy import select

from kozel.server.cluster import Forwarder
from kozel.server.db import Game
from kozel.server.errors import ClubError
from kozel.server.presence import Announcer
from kozel.server.table_commands import MOVED, Reply, moved
from kozel.server.tables import Table

from .services import Services

log = logging.getLogger("kozel.club")


class Relay:
    """A seat's commands to its table, on this node or another."""

    def __init__(self, services: Services) -> None:
        self.services = services
        self.tables = services.tables
        self.node = services.node
        self.ownership = services.ownership
        self.forwarder = Forwarder(services.pubsub, services.node, self.answer)
        self._owners: dict[int, str] = {}
        """Other nodes' tables, as last looked up (forgotten when they do not answer)."""
        self.on_take: Callable[[int], Awaitable[None]] | None = None
        """Runs here a table another node has handed over (:meth:`Claims.take`)."""
        self._taking: set[int] = set()
        """Tables another node has just handed to this one, while this one claims them (a
        command for one waits for it: it was sent to the new owner)."""
        self.on_linked: Callable[[Table], None] | None = None
        """Another node told a table of this one which seats it has sockets of (the table
        may follow them there: :meth:`Claims.follow`)."""
        self.announcer = Announcer(
            self._tell_presence, services.settings.lease_seconds / 3, self._renew_presence
        )
        """This process's seat sockets, told to the tables' owners (presence)."""

    async def table_state(self, game_id: int, seat: int | None) -> dict[str, Any]:
        """The full state of a table for one seat, from whichever node runs it. Raises
        ``ClubError`` 404 when no node runs it and 503 while it changes owner."""
        table = self.tables.get(game_id)
        if table is not None:
            return table.state(seat)
        answer = await self._forward(game_id, {"op": "state", "game": game_id, "seat": seat})
        if answer is not None and "state" in answer and answer["state"].get("game") != game_id:
            log.error("game %s: a forwarded state of another game was dropped", game_id)
            answer = None
        if answer is None or "state" not in answer:
            if answer is not None and answer.get("error") == "no_table":
                raise ClubError(404, "no_table", f"game {game_id} is not being played")
            raise ClubError(503, "unavailable", MOVED)
        state: dict[str, Any] = answer["state"]
        return state

    async def submit(self, game_id: int, seat: int, move: dict[str, Any], version: int) -> Reply:
        """A seat's move, to whichever node runs the table."""
        table = self.tables.get(game_id)
        if table is not None:
            reply = await table.submit(seat, move, version)
            if not moved(reply):
                return reply
            # the table was handed over while the move waited: to its new owner
        answer = await self._forward(
            game_id,
            {"op": "move", "game": game_id, "seat": seat, "move": move, "version": version},
        )
        return _reply(answer)

    def submit_here(
        self, game_id: int, seat: int, move: dict[str, Any], version: int
    ) -> asyncio.Future[Reply] | None:
        """A seat's move queued at its table when this process runs it (the verdict, to
        come), without a task or an await; ``None`` when another node runs it."""
        table = self.tables.get(game_id)
        return None if table is None else table.queue_move(seat, move, version)

    async def next_round(self, game_id: int, seat: int) -> None:
        """``seat`` is ready for the next round, at whichever node runs the table (a press
        that cannot reach it is lost: the pause ends the wait anyway)."""
        table = self.tables.get(game_id)
        if table is not None:
            table.ready(seat)
        else:
            await self._forward(game_id, {"op": "next", "game": game_id, "seat": seat})

    async def vote(self, game_id: int, seat: int, target: object) -> Reply:
        """``seat`` agrees that a computer player takes the disconnected seat ``target``, at
        whichever node runs the table."""
        table = self.tables.get(game_id)
        if table is not None:
            return await table.vote(seat, target)
        answer = await self._forward(
            game_id, {"op": "replace", "game": game_id, "seat": seat, "target": target}
        )
        return _reply(answer)

    async def add_seed(self, game_id: int, seat: int, seed: object) -> Reply:
        """``seat`` adds its seed to the table's shuffle, at whichever node runs it."""
        table = self.tables.get(game_id)
        if table is not None:
            return await table.add_seed(seat, seed)
        answer = await self._forward(
            game_id, {"op": "seed", "game": game_id, "seat": seat, "seed": seed}
        )
        if answer is None or "ok" not in answer:
            return Reply(False, "unavailable", MOVED)
        params = answer.get("params")
        return Reply(
            bool(answer["ok"]),
            str(answer.get("code", "")),
            str(answer.get("message", "")),
            params=params if isinstance(params, dict) else {},
        )

    async def rematch(self, game_id: int, seat: int, accept: bool) -> Reply:
        """``seat`` offers or accepts a rematch (``accept``) or declines it, at whichever node
        runs the finished table."""
        table = self.tables.get(game_id)
        if table is not None:
            return await table.answer_rematch(seat, accept)
        answer = await self._forward(
            game_id, {"op": "rematch", "game": game_id, "seat": seat, "accept": accept}
        )
        if answer is None or "ok" not in answer:
            if answer is not None and answer.get("error") == "no_table":
                return Reply(False, "no_table", f"game {game_id} is not being played")
            return Reply(False, "unavailable", MOVED)
        return Reply(
            bool(answer["ok"]), str(answer.get("code", "")), str(answer.get("message", ""))
        )

    # --- presence: which seats have a socket, in every process ----------------------------

    def socket_opened(self, game_id: int, seat: int) -> None:
        """A seat's socket opened in this process: its table's owner hears of it."""
        self.announcer.opened(game_id, seat)

    def socket_closed(self, game_id: int, seat: int) -> None:
        self.announcer.closed(game_id, seat)

    async def _tell_presence(self, game_id: int, seats: list[int]) -> bool:
        """Tell the table's owner which of its seats have a socket here; ``False`` when no
        node plays the game any more."""
        table = self.tables.get(game_id)
        if table is not None:
            table.link(self.node, seats)
            return True
        answer = await self._forward(
            game_id, {"op": "presence", "game": game_id, "node": self.node, "seats": seats}
        )
        return answer is None or answer.get("error") != "no_table"

    async def _renew_presence(self, games: dict[int, list[int]]) -> set[int]:
        """Renew what this process told the owners of these tables about its sockets: one
        message per owner. Returns the games no process plays any more."""
        remote = {}
        for game_id, seats in games.items():
            table = self.tables.get(game_id)
            if table is not None:
                table.link(self.node, seats)
            else:
                remote[game_id] = seats
        if not remote:
            return set()
        owners = await self.ownership.owners_of(list(remote))
        by_owner: dict[str, dict[str, list[int]]] = {}
        for game_id, seats in remote.items():
            owner = owners.get(game_id)
            if owner is not None and owner != self.node:
                by_owner.setdefault(owner, {})[str(game_id)] = seats

        async def renew(owner: str, seats: dict[str, list[int]]) -> None:
            request = {"op": "presence_many", "node": self.node, "games": seats}
            answer = await self.forwarder.call(
                owner, request, self.services.settings.forward_timeout
            )
            for game_id in answer.get("missing", []) if answer else []:
                self._owners.pop(int(game_id), None)

        await asyncio.gather(*(renew(owner, seats) for owner, seats in by_owner.items()))
        unowned = [game_id for game_id in remote if game_id not in owners]
        if not unowned:
            return set()
        async with self.services.sessions() as session:
            over = await session.scalars(
                select(Game.id).where(Game.id.in_(unowned), Game.status != "playing")
            )
            return set(over)

    # --- forwarding -----------------------------------------------------------------------

    async def tell(self, node: str, request: dict[str, Any]) -> object:
        """Send another node a request; its answer (``None`` when none came in time)."""
        return await self.forwarder.call(node, request, self.services.settings.forward_timeout)

    async def _forward(self, game_id: int, request: dict[str, Any]) -> dict[str, Any] | None:
        """The owner's answer to ``request``; ``None`` when it cannot be had now (no owner
        yet, no answer, or the database is away: the caller answers ``unavailable``). A
        request that met the table leaving its owner (handed over to the node its sockets
        are in: :meth:`Claims.follow`) is sent once more, to the new owner."""
        try:
            answer = await self._ask_owner(game_id, request)
            if answer is _MOVING or _moved(answer):
                self._owners.pop(game_id, None)
                answer = await self._ask_owner(game_id, request)
            return None if answer is _MOVING else answer
        except asyncio.CancelledError:
            raise
        except Exception as error:  # the database is away (the pub/sub's failures are None)
            log.warning("game %s: the owner could not be looked up: %s", game_id, error)
            return None

    async def _ask_owner(self, game_id: int, request: dict[str, Any]) -> dict[str, Any] | None:
        owner = self._owners.get(game_id) or await self.ownership.owner_of(game_id)
        if owner is None:
            return {"error": "no_table"} if await self._over(game_id) else None
        if owner == self.node:  # ours: over (its table closed), or being claimed right now
            if await self._over(game_id):
                return {"error": "no_table"}
            return await self.answer(request) if await self._claimed_here(game_id) else None
        self._owners[game_id] = owner
        answer = await self.forwarder.call(owner, request, self.services.settings.forward_timeout)
        if answer is None or "error" in answer:
            self._owners.pop(game_id, None)
        if (
            answer is not None
            and answer.get("error") == "no_table"
            and not await self._over(game_id)
        ):
            # the node we asked does not run the table: not yet (restarted, still claiming)
            # or not any more (another took it over): the table is moving, it has not ended
            return _MOVING
        return answer

    async def _claimed_here(self, game_id: int) -> bool:
        """Wait, up to the forwarding timeout, for this node to run a table it owns. A game
        is stored before it is claimed: a request that has just started shows its game a few
        moments before the table runs here, and a player who opens its socket then would be
        sent away to reconnect instead of waiting for it."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.services.settings.forward_timeout
        while game_id not in self.tables:
            if loop.time() > deadline:
                return False
            await asyncio.sleep(0.02)
        return True

    async def _over(self, game_id: int) -> bool:
        async with self.services.sessions() as session:
            status = await session.scalar(select(Game.status).where(Game.id == game_id))
        return status != "playing"

    async def answer(self, request: dict[str, Any]) -> dict[str, Any]:
        """Another node forwards a seat's command to a table of this node."""
        if request.get("op") == "presence_many" and isinstance(request.get("games"), dict):
            missing = []
            for game_id, seats in request["games"].items():
                running = self.tables.get(int(game_id)) if str(game_id).isdigit() else None
                if running is None or not isinstance(seats, list):
                    missing.append(game_id)
                else:
                    running.heard_from_afar(seats)
                    running.link(str(request.get("node")), seats)
                    self._linked(running)
            return {"ok": True, "missing": missing}
        if request.get("op") == "take" and isinstance(request.get("game"), int):
            if self.on_take is not None:
                self._taking.add(request["game"])
                try:
                    await self.on_take(request["game"])
                finally:
                    self._taking.discard(request["game"])
            return {"ok": True}
        game_id = request.get("game", 0)
        table = self.tables.get(game_id)
        if table is None and game_id in self._taking and await self._claimed_here(game_id):
            table = self.tables.get(game_id)  # handed over to this node a moment ago
        if table is None:
            return {"error": "no_table"}
        seat = request.get("seat")
        if request.get("op") == "state":  # a socket elsewhere, subscribed, wants its state
            listener = seat if isinstance(seat, int) else None
            table.heard_from_afar([listener])
            return {"state": table.state(listener)}
        if request.get("op") == "next" and isinstance(seat, int):
            table.ready(seat)
            return {"ok": True}
        if request.get("op") == "move" and isinstance(seat, int):
            reply = await table.submit(seat, request.get("move") or {}, request.get("version", -1))
            return _reply_json(reply)
        if request.get("op") == "seed" and isinstance(seat, int):
            reply = await table.add_seed(seat, request.get("seed"))
            return _reply_json(reply)
        if request.get("op") == "rematch" and isinstance(seat, int):
            reply = await table.answer_rematch(seat, request.get("accept") is True)
            return _reply_json(reply)
        if request.get("op") == "presence" and isinstance(request.get("seats"), list):
            table.heard_from_afar(request["seats"])
            table.link(str(request.get("node")), request["seats"])
            self._linked(table)
            return {"ok": True}
        if request.get("op") == "replace" and isinstance(seat, int):
            reply = await table.vote(seat, request.get("target"))
            return _reply_json(reply)
        return {"error": "bad_request"}

    def _linked(self, table: Table) -> None:
        if self.on_linked is not None:
            self.on_linked(table)


_MOVING: dict[str, Any] = {"error": "moving"}
"""The node asked does not run the table (any more, or yet): it is changing hands."""


def _moved(answer: dict[str, Any] | None) -> bool:
    """A forwarded command's table answered that it left while the command waited."""
    if answer is None or "ok" not in answer:
        return False
    return moved(Reply(False, str(answer.get("code")), str(answer.get("message"))))


def _reply_json(reply: Reply) -> dict[str, Any]:
    """A table's answer to a forwarded command, whole: an illegal move's ``reason`` and its
    ``params`` travel with its code (the browser words the refusal from them)."""
    return {
        "ok": reply.ok,
        "code": reply.code,
        "message": reply.message,
        "reason": reply.reason,
        "params": reply.params,
    }


def _reply(answer: dict[str, Any] | None) -> Reply:
    """A forwarded command's answer as the owner's table gave it (:func:`_reply_json`), or
    ``unavailable`` when no answer came (the table is moving)."""
    if answer is None or "ok" not in answer:
        return Reply(False, "unavailable", MOVED)
    params = answer.get("params")
    return Reply(
        bool(answer["ok"]),
        str(answer.get("code", "")),
        str(answer.get("message", "")),
        str(answer.get("reason", "")),
        {
            str(key): value
            for key, value in (params.items() if isinstance(params, dict) else ())
            if isinstance(value, str | int)
        },
    )

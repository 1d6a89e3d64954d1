"""The tables this node runs: its lease, claiming its own unfinished tables and those of
gone nodes, starting each as a :class:`~kozel.server.tables.Table` replayed from its events,
and stopping those it has finished with or lost."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from kozel.server.cluster import Claimable
from kozel.server.db import Game, GameEvent
from kozel.server.errors import ClubError
from kozel.server.tables import Table, load_events

from .services import Services, aware, jitter

log = logging.getLogger("kozel.club")


class Claims:
    """Claims and runs this node's tables in ``services.tables``.

    What a table asks of the club's other parts is wired by ``wire`` (a rematch, a
    tournament's step); ``after_claims`` runs after each round of claims (tournaments left
    without a game), ``tournament_moved_on`` after a tournament's game ended here;
    ``sockets_here`` gives this process's seat sockets of a game (presence); ``tell(node,
    request)`` sends another node a request (that it should take a table handed over)."""

    def __init__(
        self,
        services: Services,
        *,
        wire: Callable[[Table], None],
        after_claims: Callable[[], Awaitable[None]],
        tournament_moved_on: Callable[[int], Coroutine[Any, Any, None]],
        sockets_here: Callable[[int], list[int]],
        tell: Callable[[str, dict[str, Any]], Awaitable[object]],
    ) -> None:
        self.services = services
        self.tables = services.tables
        self.node = services.node
        self.ownership = services.ownership
        self.wire = wire
        self.after_claims = after_claims
        self.tournament_moved_on = tournament_moved_on
        self.sockets_here = sockets_here
        self.tell = tell
        self._claiming: set[int] = set()
        self._moving: set[int] = set()
        self._settling: set[int] = set()
        self._closing: set[asyncio.Task[None]] = set()

    async def keep(self) -> None:
        """Renew the lease for as long as the club runs. Without a renewed lease for a whole
        lease period, give up every table.

        Nothing else runs in this loop: were the renewal to wait for claims (a few hundred
        milliseconds each on a busy machine), a node taking over a dead node's tables would
        let its own lease run out, and the other nodes would take its tables in turn."""
        settings = self.services.settings
        interval = settings.lease_seconds / 5
        renewed = time.monotonic()
        while True:
            await asyncio.sleep(interval * jitter.uniform(0.8, 1.2))
            try:
                if await self.ownership.heartbeat():
                    renewed = time.monotonic()
                else:
                    log.error("another process took the node name %r: giving up", self.node)
                    await self.give_up()
                    await self.ownership.register()
                    renewed = time.monotonic()
            except asyncio.CancelledError:
                raise
            except Exception as error:
                log.warning("the lease could not be renewed: %s", error)
                if time.monotonic() - renewed > settings.lease_seconds and self.tables:
                    log.error(
                        "no lease for %.0f s: giving up every table", time.monotonic() - renewed
                    )
                    await self.give_up()

    async def claim_gone(self) -> None:
        """Claim the tables of gone nodes, and drop those another node has claimed from this
        one, for as long as the club runs."""
        interval = self.services.settings.lease_seconds / 5
        while True:
            await asyncio.sleep(interval * jitter.uniform(0.8, 1.2))
            try:
                await self._drop_taken()
                await self.claim_all()
            except asyncio.CancelledError:
                raise
            except Exception as error:
                log.warning("claiming tables failed: %s", error)

    async def _drop_taken(self) -> None:
        """Stop this node's copies of tables that another node has claimed since.

        This node's lease can lapse without it noticing (a pause, a starved machine: the
        renewal comes late but succeeds). A copy learns that its table is gone only when it
        next stores an event; until then it would serve syncs and new sockets an old state
        and refuse every newer move as stale, and a player connected here would wait for
        a turn that has passed, until a clock ran out."""
        if not self.tables:
            return
        for game_id, fence in (await self.ownership.fences(list(self.tables))).items():
            table = self.tables.get(game_id)
            if table is not None and fence > table.fence:
                log.warning("table %s: another node claimed it; this copy stops", game_id)
                table.lose()

    async def give_up(self) -> None:
        for game_id in list(self.tables):
            table = self.tables.pop(game_id)
            table.status = "lost"
            await table.stop()

    async def stop(self) -> None:
        """Stop every table this process runs (the club stops)."""
        for table in list(self.tables.values()):
            await table.stop()
        self.tables.clear()

    async def claim_all(self) -> None:
        """Claim this node's own unfinished tables and those of gone nodes."""
        candidates = await self.ownership.claimable()
        jitter.shuffle(candidates)  # nodes that claim at once meet on different tables
        for candidate in candidates:
            if candidate.game_id not in self.tables:
                await self.claim(candidate)
        await self.after_claims()

    async def claim(self, candidate: Claimable, grace: float | None = None) -> Table | None:
        """Claim one table and run it here: ``None`` when another node has it. The seat to
        move gets at least ``grace`` seconds (by default the club's restart grace)."""
        game_id = candidate.game_id
        if game_id in self._claiming or game_id in self.tables:
            return self.tables.get(game_id)
        self._claiming.add(game_id)
        try:
            row = await self.ownership.claim(game_id, candidate.fence)
            if row is None:
                return None
            if candidate.owner not in (None, self.node):
                log.info(
                    "took over game %s from %s (fence %s)", game_id, candidate.owner, row.fence
                )
            return await self._run(row, await load_events(self.services.reads, game_id), grace)
        finally:
            self._claiming.discard(game_id)

    async def _run(
        self,
        row: Game,
        events: list[GameEvent],
        grace: float | None = None,
        born_here: bool = False,
    ) -> Table:
        """Run a game this node holds, from its stored events. A game ``born_here`` has no
        socket in another process yet: each will say so (:meth:`Table.heard_from_afar`);
        another asks the pub/sub who listens elsewhere (:meth:`Table.learn_far`)."""
        last_at = aware(events[-1].at).timestamp() if events else None
        table = self._table(row)
        if born_here:
            table.far = set()
        else:
            await table.learn_far()
        table.replay(events)
        self.tables[row.id] = table
        if grace is None:
            grace = self.services.settings.restart_grace_seconds
        await table.start(last_at, grace)
        if seats := self.sockets_here(row.id):  # this process's own sockets of it
            table.link(self.node, seats)
        return table

    def _table(self, row: Game) -> Table:
        """A claimed game's table, set as the club's settings say and wired to its parts."""
        services, settings = self.services, self.services.settings
        table = Table(
            row, services.writer, services.pubsub, self._finished, self._lost, settings.seed
        )
        table.bot_pace_ms = settings.bot_delay_ms
        table.server_time = services.stalls.total
        table.round_pause = settings.round_pause_seconds
        table.presence.grace = settings.presence_grace_seconds
        table.presence.link_seconds = settings.lease_seconds
        table.rematch.seconds = settings.rematch_seconds
        table.seeds.seconds = settings.seed_seconds
        self.wire(table)
        return table

    async def open_table(self, row: Game) -> Table:
        """Start a stored game that has no events yet (this node claims it)."""
        table = await self.claim(Claimable(row.id, row.fence, row.owner))
        if table is None:
            raise ClubError(409, "moved", f"game {row.id} is run by another node")
        return table

    async def claim_new(self, row: Game) -> None:
        """Run a game this node has just stored (:meth:`NewGames.new_game`): born this
        node's under fence 1, with no events, it has nothing to claim or load (a claim was a
        transaction on SQLite's one writing connection a table). Should another node have
        claimed it in between (this node's lease lapsed), the table's first write is refused
        under the old fence and the table stops, as any table that lost its claim does."""
        if row.id not in self.tables and row.id not in self._claiming:
            await self._run(row, [], born_here=True)

    def follow(self, table: Table) -> None:
        """Hand ``table`` over to the one other node that has every socket of it, if one
        has (:meth:`Table.followed`), and tell that node to take it now. A move waiting
        at the table meanwhile is answered "moved", and its sender's process sends it
        again to the new owner (:class:`~kozel.server.club.relay.Relay`)."""
        settling = table.started + table.presence.grace - time.monotonic()
        if settling > 0:  # a new table's people may still be opening their sockets
            if table.id not in self._settling:
                self._settling.add(table.id)
                asyncio.get_running_loop().call_later(settling, self._settled, table)
            return
        node = table.followed(self.node)
        if node is None or table.id in self._moving:
            return
        self._moving.add(table.id)

        async def hand_over() -> None:
            try:
                async with asyncio.timeout(self.services.settings.forward_timeout):
                    moved = await table.hand_over(
                        lambda: self.ownership.hand_over(table.id, table.fence, node)
                    )
                if moved:
                    log.info("game %s: handed over to %s, where its players are", table.id, node)
                    await self.tell(node, {"op": "take", "game": table.id})
            except Exception as error:  # the table stays here, or the node claims it anyway
                log.warning("game %s: handing it over to %s failed: %s", table.id, node, error)
            finally:
                self._moving.discard(table.id)

        self._background(hand_over())

    def _settled(self, table: Table) -> None:
        self._settling.discard(table.id)
        if self.tables.get(table.id) is table:
            self.follow(table)

    async def take(self, game_id: int) -> None:
        """Run a table another node has just handed to this one (:meth:`follow`) at once,
        its clock where it stood (the claims' round would find it a little later)."""
        fence = (await self.ownership.fences([game_id])).get(game_id)
        if fence is not None:
            await self.claim(Claimable(game_id, fence, self.node), grace=0.0)

    def _lost(self, game_id: int) -> None:
        """Another node holds the table now (found when a write was refused)."""
        self._close_table(game_id)

    def _finished(self, game_id: int) -> None:
        """A game ended: its table answers late-comers for a while, then leaves memory. A
        tournament's game: its next game (stored with the end of this one) starts here."""
        loop = asyncio.get_running_loop()
        loop.call_later(self.services.settings.finished_table_seconds, self._close_table, game_id)
        table = self.tables.get(game_id)
        if table is not None and table.tournament_id is not None:
            self._background(self.tournament_moved_on(table.tournament_id))

    def _close_table(self, game_id: int) -> None:
        table = self.tables.pop(game_id, None)
        if table is not None:
            self._background(table.stop())

    def _background(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` on its own, kept until it is done."""
        task = asyncio.create_task(work)
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)

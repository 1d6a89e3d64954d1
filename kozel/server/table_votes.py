"""The take-over vote at one table (:class:`~kozel.server.tables.Table`): which seats are
connected (:class:`~kozel.server.presence.SeatPresence`, counted again when a process's sockets
change or a grace runs out) and the votes of the people at the table to let a computer player
take the seat of a person who has gone. Once every other connected person agrees, or a person
who was waited for has gone, the table takes the seat over (its ``replace`` event)."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any, Protocol

from kozel.server.presence import SeatPresence
from kozel.server.table_commands import Presence, Reply, TablePart

log = logging.getLogger("kozel.tables")

REPLACEMENT = "expert"
"""The level of the computer player that takes a dropped seat."""


class VotesTable(TablePart, Protocol):
    """What the vote asks of its table."""

    @property
    def version(self) -> int: ...

    async def announce(
        self, kind: str, held: dict[str, Any], members: dict[str, Any] | None = None
    ) -> None: ...

    async def take_over(self, seat: int) -> None: ...


class TakeOverVotes:
    """One table's presence counts, their timer, and the votes for a computer player."""

    def __init__(self, table: VotesTable, presence: SeatPresence) -> None:
        self.table = table
        self.presence = presence
        """Which seats are connected, and the votes (the club sets its grace and its lease)."""
        self._timer: asyncio.TimerHandle | None = None

    def stop(self) -> None:
        if self._timer is not None:
            self._timer.cancel()

    def expect(self) -> None:
        """The table starts: nobody has announced a socket yet. The people get the grace from
        now, and a table rebuilt from its events (a restart, a takeover) also the time every
        process takes to announce its sockets to the new owner; then they are counted."""
        allowance = self.presence.link_seconds if self.table.version else 0.0
        self.presence.expect(self.table.people(), time.monotonic() + allowance)
        self.table.queue.put_nowait(Presence())

    def link(self, node: str, seats: list[int]) -> None:
        """Process ``node`` has sockets of these seats (:meth:`SeatPresence.link`): count
        again, unless the word only renews the last one."""
        if self.presence.link(node, seats, time.monotonic()):
            self.table.queue.put_nowait(Presence())

    def recount(self) -> bool:
        """Count the connected seats again (:meth:`SeatPresence.recount`) and set the timer
        for the next count; ``True`` when anything changed."""
        table = self.table
        changed, wake = self.presence.recount(table.people(), time.monotonic())
        self.stop()
        self._timer = None
        if wake is not None and table.status == "playing":
            delay = max(0.0, wake - time.monotonic()) + 0.01
            loop = asyncio.get_running_loop()
            self._timer = loop.call_later(delay, table.queue.put_nowait, Presence())
        return changed

    async def count(self) -> None:
        """Count the seats again (a :class:`Presence` command); take the seat of a person who
        was waited for and has gone."""
        if self.table.status != "playing":
            return
        changed = self.recount()
        seat = self.presence.complete(self.table.people())
        if seat is not None:
            await self.table.take_over(seat)
        elif changed:
            await self.publish()

    async def vote(self, voter: int, seat: int) -> Reply:
        """``voter`` agrees that a computer player takes ``seat``."""
        table = self.table
        if table.status != "playing":
            return Reply(False, "over", "the game is over")
        if "user" not in table.seats[voter]:
            return Reply(False, "replaced", "a computer player has taken this seat")
        if not 0 <= seat < len(table.seats) or seat == voter or "user" not in table.seats[seat]:
            return Reply(
                False, "replace_seat", "only another person's seat can be given to the computer"
            )
        if self.recount():  # a grace ran out just now: the others hear of it too
            await self.publish()
        if self.presence.connected[seat]:
            return Reply(
                False,
                "replace_connected",
                f"seat {seat} is connected: a computer may take only a disconnected seat",
                params={"seat": seat},
            )
        if self.presence.agree(table.people(), voter, seat):
            await table.take_over(seat)
        else:
            await self.publish()
        return Reply(True)

    def fields(self) -> dict[str, Any]:
        """Who is connected, who was replaced by a computer player, and the votes going on."""
        replaced = [info.get("replaced", {}).get("name") for info in self.table.seats]
        return self.presence.fields(self.table.people(), replaced)

    async def publish(self) -> None:
        fields = self.fields()
        try:
            await self.table.announce("presence", fields)
        except Exception:  # clients see it in their next state
            log.exception("table %s: publishing presence failed", self.table.id)

"""A rematch at a game's end: who offered it, who accepted or declined, and the new table.

When a game is over, any person at the table may offer a rematch: the same players and house
rules, the seats moved one place round the table (everyone to the next seat), or kept in a
game of pairs, where a partner stays a partner. Computer players accept at once. A new table
starts when every person has accepted; one refusal ends the offer, and so does its clock
(``Settings.rematch_seconds``). Either way the table shows who declined or did not answer,
and another offer may be made. The offer lives with the finished table, in its owner's
memory (a finished table is not rebuilt after a restart): :class:`TableRematch` is the table's
side of it.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

from kozel.server.table_commands import RematchOver, Reply, TablePart

log = logging.getLogger("kozel.tables")


def rematch_seats(seats: list[dict[str, Any]], pairs: bool) -> list[dict[str, Any]]:
    """The new table's seats: every player one seat on (seat ``s`` to ``s + 1``), or the same
    seats in a game of pairs. A computer player that took a person's seat keeps it.

    >>> seats = [{"user": 1, "name": "a"}, {"bot": "greedy"}, {"user": 2, "name": "b"}]
    >>> rematch_seats(seats, False)
    [{'user': 2, 'name': 'b'}, {'user': 1, 'name': 'a'}, {'bot': 'greedy'}]
    """
    plain = [
        {"user": s["user"], "name": s["name"]} if "user" in s else {"bot": s["bot"]} for s in seats
    ]
    if pairs:
        return plain
    return [plain[-1], *plain[:-1]]


@dataclass
class RematchOffer:
    """One offer, from the seat ``by``; ``people``: the seats whose answer is needed."""

    by: int
    people: list[int]
    deadline: float
    """Wall-clock time (``time.time()``) when the offer runs out."""
    accepted: set[int] = field(default_factory=set)
    declined: set[int] = field(default_factory=set)
    status: str = "open"
    """``open``, ``started`` (everyone accepted: ``game`` is the new table), ``declined`` or
    ``expired``."""
    game: int | None = None

    @property
    def waiting(self) -> list[int]:
        """The people who have not answered (after the clock ran out: who did not)."""
        return sorted(set(self.people) - self.accepted - self.declined)

    def answer(self, seat: int, accept: bool) -> None:
        (self.accepted if accept else self.declined).add(seat)
        if not accept:
            self.status = "declined"

    @property
    def agreed(self) -> bool:
        """Every person has accepted."""
        return self.status == "open" and not self.waiting

    def fields(self) -> dict[str, Any]:
        """The offer as the table's state says it (``rematch``)."""
        return {
            "by": self.by,
            "status": self.status,
            "accepted": sorted(self.accepted),
            "declined": sorted(self.declined),
            "waiting": self.waiting,
            "game": self.game,
            "deadline_ms": int(self.deadline * 1000),
            "remaining_ms": max(0, int((self.deadline - time.time()) * 1000)),
        }


class RematchTable(TablePart, Protocol):
    """What the rematch asks of its table."""

    @property
    def tournament_id(self) -> int | None: ...

    @property
    def bots(self) -> Iterable[int]: ...

    @property
    def on_rematch(self) -> Callable[[Any], Awaitable[int]] | None: ...

    async def announce(
        self, kind: str, held: dict[str, Any], members: dict[str, Any] | None = None
    ) -> None: ...


class TableRematch:
    """A finished table's rematch: the last offer made at its end, and the offer's clock."""

    def __init__(self, table: RematchTable) -> None:
        self.table = table
        self.offer: RematchOffer | None = None
        """The last offer made at the end of the game."""
        self.seconds = 60.0
        """How long an offer waits for the answers (the club's rematch_seconds)."""
        self._timer: asyncio.TimerHandle | None = None

    def stop(self) -> None:
        if self._timer is not None:
            self._timer.cancel()

    async def answer(self, seat: int, accept: bool) -> Reply:
        """``seat`` offers a rematch (or accepts the open offer), or declines it; once every
        person has accepted, the table's ``on_rematch`` seats the new table."""
        table, offer = self.table, self.offer
        if table.status == "playing":
            return Reply(False, "rematch_playing", "a rematch is offered once the game is over")
        if table.tournament_id is not None:
            return Reply(False, "rematch_tournament", "a tournament's game has no rematch")
        if "user" not in table.seats[seat]:
            return Reply(False, "replaced", "a computer player has taken this seat")
        if offer is None or offer.status != "open":
            if not accept:
                return Reply(False, "rematch_none", "there is no rematch offer to decline")
            offer = self._offer(seat)
        else:
            offer.answer(seat, accept)
        if offer.agreed and table.on_rematch is not None:
            offer.game = await table.on_rematch(table)
            offer.status = "started"
        if offer.status != "open":
            self.stop()
        await self.publish()
        return Reply(True)

    def _offer(self, seat: int) -> RematchOffer:
        """A new offer by ``seat``, with its clock; computer players accept at once."""
        offer = RematchOffer(seat, self.table.people(), time.time() + self.seconds)
        offer.accepted = {seat} | set(self.table.bots)
        self.offer = offer
        self.stop()
        loop = asyncio.get_running_loop()
        self._timer = loop.call_later(self.seconds, self.table.queue.put_nowait, RematchOver(offer))
        return offer

    async def expire(self, offer: RematchOffer) -> None:
        """The clock of ``offer`` ran out (a :class:`RematchOver` command)."""
        if offer is self.offer and offer.status == "open":
            offer.status = "expired"
            await self.publish()

    async def publish(self) -> None:
        assert self.offer is not None
        fields = {"rematch": self.offer.fields()}
        try:
            await self.table.announce("rematch", fields)
        except Exception:  # clients see it in their next state
            log.exception("table %s: publishing the rematch failed", self.table.id)

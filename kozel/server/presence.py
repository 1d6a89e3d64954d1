"""Presence: which seats of a table have a live socket, in whichever of the club's processes,
and the votes to let a computer player take the seat of a person who has gone.

A seat is **connected** while it has a socket in any process (several tabs are one seat).
Every process tells a table's owner which of the table's seats have a socket there — at once
when that changes, and again a few times a lease (:class:`Announcer`) — and the owner counts
each process's word for one lease (:class:`SeatPresence`): a process that dies says nothing
more, so its seats count as disconnected once its lease would have run out, by the same rule
that hands its tables to another process. A new owner knows nothing at first and gives every
person a lease to be announced. A person's seat without a socket is shown disconnected only
after a **grace** (``--presence-grace``), so that a reload or a network blip shows nothing.

While a person's seat is disconnected, the other people at the table may agree to let a
computer player take it; the vote is complete when every other *connected* person has agreed,
and dropped when the player comes back first. What the takeover does to the game is the
table's (:mod:`kozel.server.tables`).
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable
from typing import Any

log = logging.getLogger("kozel.presence")
_jitter = random.Random()
"""Spreads timers and claims (not a secret): a generator of its own, so the club leaves the
``random`` module's shared state alone for whatever embeds it (a test's Hypothesis checks
that nothing changes it while it generates data)."""


class SeatPresence:
    """One table's presence and votes, kept by its owner. The caller gives the time
    (``time.monotonic()``) and the people's seats (those a computer has not taken)."""

    def __init__(self, players: int) -> None:
        self.grace = 5.0
        """How long a person's seat may have no socket before it is disconnected."""
        self.link_seconds = 5.0
        """How long a process's announcement counts unless renewed (the club's lease)."""
        self.links: dict[str, tuple[frozenset[int], float]] = {}
        """Per process, the seats with a socket there and until when that word counts."""
        self.connected = [True] * players
        """Per seat, as the clients were told: computer seats always are."""
        self.lost_at: dict[int, float] = {}
        """People's seats without a socket, since when, while the grace runs."""
        self.votes: dict[int, set[int]] = {}
        """Per disconnected seat, the seats that agree a computer player takes it."""

    def expect(self, people: list[int], since: float) -> None:
        """Nobody has been announced yet (the table has just started): each person's grace
        runs from ``since``."""
        self.lost_at = {seat: since for seat in people}

    def link(self, node: str, seats: list[int], now: float) -> bool:
        """Process ``node`` has sockets of these seats (all of them: this replaces its last
        word). ``True`` when that says something new (the seats must be counted again),
        ``False`` when it only renews the word."""
        players = len(self.connected)
        live = frozenset(s for s in seats if type(s) is int and 0 <= s < players)
        before = self.links.get(node)
        self.links[node] = (live, now + self.link_seconds)
        return before is None or before[0] != live or before[1] <= now

    def recount(self, people: list[int], now: float) -> tuple[bool, float | None]:
        """Count the connected seats again: a seat with a socket anywhere is connected at once
        (and a vote on it is dropped); one without is disconnected once its grace is over.
        Returns whether anything changed, and when to count again (or ``None``)."""
        self.links = {node: link for node, link in self.links.items() if link[1] > now}
        live = {seat for seats, _ in self.links.values() for seat in seats}
        changed = False
        wake = [until for _, until in self.links.values()]
        for seat in people:
            if seat in live:
                self.lost_at.pop(seat, None)
                if not self.connected[seat]:
                    self.connected[seat] = changed = True
                if self.votes.pop(seat, None) is not None:
                    changed = True
            elif self.connected[seat]:
                since = self.lost_at.setdefault(seat, now)
                if now - since >= self.grace:
                    self.connected[seat] = False
                    changed = True
                else:
                    wake.append(since + self.grace)
        return changed, min(wake) if wake else None

    def voters(self, people: list[int], seat: int) -> set[int]:
        """Who must agree that a computer takes ``seat``: every other connected person."""
        return {s for s in people if s != seat and self.connected[s]}

    def agree(self, people: list[int], voter: int, seat: int) -> bool:
        """``voter`` agrees; ``True`` when that completes the vote on ``seat``."""
        self.votes.setdefault(seat, set()).add(voter)
        return self.votes[seat] >= self.voters(people, seat)

    def complete(self, people: list[int]) -> int | None:
        """A seat whose vote is complete now (a person who was waited for has gone)."""
        for seat, agreed in self.votes.items():
            if agreed and agreed >= self.voters(people, seat):
                return seat
        return None

    def forget(self, seat: int) -> None:
        """A computer player has taken ``seat``: it is connected for good."""
        self.connected[seat] = True
        self.votes.pop(seat, None)
        self.lost_at.pop(seat, None)

    def fields(self, people: list[int], replaced: list[str | None]) -> dict[str, Any]:
        """What the state and the ``presence`` message say (docs/protocol.md §6.8)."""
        return {
            "connected": list(self.connected),
            "replaced": replaced,
            "votes": [
                {
                    "seat": seat,
                    "agreed": sorted(agreed),
                    "waiting": sorted(self.voters(people, seat) - agreed),
                }
                for seat, agreed in sorted(self.votes.items())
            ],
        }


class Announcer:
    """This process's sockets of each table, told to the tables' owners: a change at once by
    ``tell(game, seats)`` (which answers ``False`` when no process plays the game any more:
    it is not told again until its sockets here have all closed and opened anew), and every
    table's word renewed every ``every`` seconds by one ``renew({game: seats})`` for all of
    them (which answers the games no process plays any more), so that the renewals cost one
    message per owner, not one per table."""

    def __init__(
        self,
        tell: Callable[[int, list[int]], Awaitable[bool]],
        every: float,
        renew: Callable[[dict[int, list[int]]], Awaitable[set[int]]] | None = None,
    ) -> None:
        self.tell = tell
        self.renew = renew
        self.every = every
        """Seconds between two renewals of every table's announcement."""
        self.sockets: dict[int, dict[int, int]] = {}
        """Per game, per seat, the sockets open here."""
        self.tasks: dict[int, asyncio.Task[None]] = {}
        self.unsaid: set[int] = set()
        """Games whose sockets here changed since their owner was last told."""
        self.ended: set[int] = set()

    def seats(self, game_id: int) -> list[int]:
        return sorted(self.sockets.get(game_id, {}))

    def opened(self, game_id: int, seat: int) -> None:
        seats = self.sockets.setdefault(game_id, {})
        seats[seat] = seats.get(seat, 0) + 1
        if seats[seat] == 1:
            self.announce(game_id)

    def closed(self, game_id: int, seat: int) -> None:
        seats = self.sockets.get(game_id, {})
        seats[seat] = seats.get(seat, 1) - 1
        if seats[seat] <= 0:
            del seats[seat]
            if not seats:
                self.sockets.pop(game_id, None)
                self.ended.discard(game_id)
            self.announce(game_id)

    def announce(self, game_id: int) -> None:
        """Tell the owner, from one task per game at a time, each word saying what holds when
        it is sent: a later change is never overtaken by an earlier one."""
        self.unsaid.add(game_id)
        if game_id not in self.tasks:
            self.tasks[game_id] = asyncio.create_task(self._say(game_id))

    async def _say(self, game_id: int) -> None:
        try:
            while game_id in self.unsaid:
                self.unsaid.discard(game_id)
                try:
                    if not await self.tell(game_id, self.seats(game_id)):
                        self.ended.add(game_id)  # over: its watchers need no presence
                except Exception as error:  # said again at the next renewal
                    log.warning("game %s: presence could not reach its owner: %s", game_id, error)
        finally:
            self.tasks.pop(game_id, None)

    async def run(self) -> None:
        """Renew every table's announcement, for as long as the club runs."""
        while True:
            await asyncio.sleep(self.every * _jitter.uniform(0.8, 1.0))
            due = [g for g in self.sockets if g not in self.ended and g not in self.tasks]
            if self.renew is None:
                for game_id in due:
                    self.announce(game_id)
                continue
            try:
                self.ended |= await self.renew({g: self.seats(g) for g in due})
            except Exception as error:  # said again at the next renewal
                log.warning("presence could not be renewed: %s", error)

    async def stop(self) -> None:
        tasks = list(self.tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

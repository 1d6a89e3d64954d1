"""Live tables: one asyncio task per table, like lila's round actor.

A table takes commands from a queue, one at a time: it checks the seat, the turn and the
client's version, checks the move with the engine, **persists the event** (a deal, a move or
a timeout) and only then applies it and publishes a versioned message to each seat's channel,
every seat getting only its own :func:`~kozel.layout.views.view_for`. Computer players submit moves
through the same queue. A table is rebuilt after a restart, or by the process that takes it
over, by replaying its stored events.

A table also knows which people's seats have a live socket (:mod:`kozel.server.presence`).
When a person's seat is disconnected, the other people at the table may vote to let a
computer player take it (:meth:`Table.vote`): once every other connected person agrees, a
``replace`` event is stored (the game is unrated from then on) and the game goes on.

A table runs in the one process that owns it, under that owner's fencing token
(:mod:`kozel.server.cluster`). If storing an event shows that the token is no longer the
table's (:class:`~kozel.server.writer.Fenced`), another process has taken the table over:
this copy stops at once, without applying or publishing anything.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import orjson
from sqlalchemy import insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncSession, async_sessionmaker

from kozel.core import IllegalMove
from kozel.engine.game import GameMatch
from kozel.patch import Op, diff
from kozel.server.clock import MoveClock
from kozel.server.db import Game, GameEvent, RatingChange, User, now
from kozel.server.offer import club_game
from kozel.server.presence import SeatPresence
from kozel.server.pubsub import PubSub
from kozel.server.rematch import RematchOffer
from kozel.server.seeds import shuffle_fields
from kozel.server.table_bots import TableBots
from kozel.server.writer import Fenced, Write, Writer
from kozel.shuffle import DealStream, round_stream, valid_player_seed

log = logging.getLogger("kozel.tables")


def seat_channel(game_id: int, seat: int | None) -> str:
    """The channel one seat (or, with ``None``, the spectators) listens to."""
    return f"game:{game_id}:" + ("watch" if seat is None else f"seat:{seat}")


MOVED = "the table is moving to another server: send the move again in a moment"
REPLACEMENT = "expert"
"""The level of the computer player that takes a dropped seat."""


@dataclass
class Reply:
    ok: bool
    code: str = ""
    message: str = ""
    """In English, for API users and logs; clients word ``code`` (and ``reason``)."""
    reason: str = ""
    """Why a move is ``illegal`` (IllegalMove's code), filled in by ``params``."""
    params: dict[str, str | int] = field(default_factory=dict)


@dataclass
class _MoveCommand:
    seat: int
    move: dict[str, Any]
    version: int
    done: asyncio.Future[Reply]
    person: bool = True
    """Sent by a person's socket (a computer player's own moves are not)."""


@dataclass
class _Presence:
    """Count again which seats are connected: a process's sockets changed, or a grace or an
    announcement ran out."""


@dataclass
class _Vote:
    """``voter`` agrees that a computer player takes ``seat``."""

    voter: int
    seat: int
    done: asyncio.Future[Reply]


@dataclass
class _Timeout:
    seat: int
    version: int


@dataclass
class _Deal:
    """Deal the next round (again, after a failed attempt)."""


@dataclass
class _Next:
    """A person at the table is ready for the next round (pressed "next")."""

    seat: int


@dataclass
class _Seed:
    """A person at the table adds his seed to the shuffle (before the first deal)."""

    seat: int
    seed: object
    done: asyncio.Future[Reply]


@dataclass
class _SeedsClosed:
    """The time to add seeds is over: the first deal comes."""


@dataclass
class _Rematch:
    """A person at a finished table offers a rematch, or answers the offer."""

    seat: int
    accept: bool
    done: asyncio.Future[Reply]


@dataclass
class _RematchOver:
    """The rematch offer's clock ran out."""

    offer: RematchOffer


class Table:
    """One live game."""

    bot_pace_ms = 900
    """How long after the previous move a computer player moves (the club's bot_delay_ms)."""
    round_pause = 0.0
    """How long a finished round stays on the table, hands face up, before the next deal
    (the club's round_pause_seconds): the deal comes sooner when every person at the table
    has pressed "next". No clock runs meanwhile."""

    def __init__(
        self,
        row: Game,
        writer: Writer,
        pubsub: PubSub,
        on_finish: Callable[[int], None] | None = None,
        on_lost: Callable[[int], None] | None = None,
        seed: int | None = None,
    ) -> None:
        self.id = row.id
        self.fence = row.fence
        """The owner's fencing token, stored with every event."""
        self.on_lost = on_lost
        self.rules = club_game(row.game)
        self.opts = self.rules.options(row.options, complete=True)
        self.seats: list[dict[str, Any]] = list(row.seats)
        self.seconds_per_move = row.seconds_per_move
        self.rated = row.rated
        self.writer = writer
        self.pubsub = pubsub
        self.on_finish = on_finish
        self.match: GameMatch = self.rules.new_match(self.opts, None)
        """Dealt from the verifiable shuffle's streams (:meth:`_stream`); a game stored
        before it from the system's secure generator."""
        self.server_seed = row.server_seed
        """The shuffle's secret (:mod:`kozel.server.seeds`), or ``None`` (an older game)."""
        self.player_seeds: list[str | None] = [None] * len(row.seats)
        """The seeds the people at the table added before the first deal (``seed`` events)."""
        self.seed_seconds = 0.0
        """How long the first deal waits for every person's seed (the club's seed_seconds)."""
        self._seed_timer: asyncio.TimerHandle | None = None
        self.version = 0
        self.status = row.status
        self.clock = MoveClock(self.id, self._expired)
        """The seat to move's clock (:mod:`kozel.server.clock`); the club sets its
        ``server_time``."""
        self.bots = TableBots(self, self.rules, self.seats, seed)
        """The computer players (:mod:`kozel.server.table_bots`)."""
        self.queue: asyncio.Queue[
            _MoveCommand
            | _Timeout
            | _Deal
            | _Next
            | _Presence
            | _Vote
            | _Rematch
            | _RematchOver
            | _Seed
            | _SeedsClosed
            | None
        ] = asyncio.Queue()
        self.task: asyncio.Task[None] | None = None
        self._rounds: list[dict[str, Any]] = []
        """The finished rounds' public summaries, built as they end (a new list each time
        one is added)."""
        self._states: list[dict[str, Any]] | None = None
        self._owned: tuple[list[dict[str, Any]], list[dict[str, None]]] | None = None
        """The states last sent, with the members each one's view does not share (the base of
        the next patches)."""
        """Every seat's state message and then the spectators', as last sent (the base of
        the next event's patches); ``None`` until the table has built them."""
        self.waiting: set[int] = set()
        """The people who have not pressed "next" yet while a finished round is shown."""
        self.next_at = 0.0
        """Wall-clock time of the next deal while a finished round is shown."""
        self.presence = SeatPresence(len(self.seats))
        """Which seats are connected, and the votes for a computer player (the club sets its
        grace and its lease)."""
        self.replacements: list[dict[str, Any]] = []
        """The takeovers so far, as the record lists them (``replaced``)."""
        self._presence_timer: asyncio.TimerHandle | None = None
        self.tournament_id = row.tournament_id
        """The micro-tournament this game is one of (:mod:`kozel.server.series`)."""
        self.on_tournament: Callable[[AsyncConnection, int], Awaitable[int | None]] | None = None
        """Runs in the transaction that ends a tournament's game: seats the next game (its id)
        or ends the tournament (``None``)."""
        self.next_game: int | None = None
        """The tournament's next game, once this one has ended."""
        self.rematch: RematchOffer | None = None
        """The last rematch offer made at the end of the game (:mod:`kozel.server.rematch`)."""
        self.rematch_seconds = 60.0
        """How long a rematch offer waits for the answers (the club's rematch_seconds)."""
        self.on_rematch: Callable[[Table], Awaitable[int]] | None = None
        """Seats the rematch at a new table (everyone accepted): its game's id."""
        self._rematch_timer: asyncio.TimerHandle | None = None

    # --- rebuilding and starting ------------------------------------------------------------

    def replay(self, events: list[GameEvent]) -> None:
        """Apply stored events (in version order) to a fresh match."""
        for event in events:
            self._apply(event.kind, event.data)
            self.version = event.version

    async def start(self, last_event_at: float | None = None, grace: float = 10.0) -> None:
        """Run the actor; deal if nothing is dealt yet; start the clock and the bots."""
        self.task = asyncio.create_task(self._run(), name=f"table-{self.id}")
        if self.status != "playing":
            return
        # nobody has announced a socket yet: the people get the grace from now, and a table
        # rebuilt from its events (a restart, a takeover) also the time every process takes
        # to announce its sockets to the new owner
        allowance = self.presence.link_seconds if self.version else 0.0
        self.presence.expect(self._people(), time.monotonic() + allowance)
        self.queue.put_nowait(_Presence())
        if self._needs_deal():
            if self._seeding():
                # the commitment goes out first; the deal waits for the people's seeds
                loop = asyncio.get_running_loop()
                self._seed_timer = loop.call_later(
                    self.seed_seconds, self.queue.put_nowait, _SeedsClosed()
                )
                try:  # whole states: clients of a former owner hold older ones
                    self._states = None
                    await self._publish("start")
                except Exception:  # clients get the state when they (re)connect
                    log.exception("table %s: publishing its commitment failed", self.id)
                return
            self.queue.put_nowait(_Deal())  # its state goes out once it is dealt
            return
        limit = float(self.seconds_per_move)
        deadline = (last_event_at or time.time()) + limit
        self._arm(max(deadline, time.time() + min(grace, limit)))
        try:  # clients that were listening to the table's former owner get its whole state
            self._states = None
            await self._publish("start")
        except Exception:  # the table runs: clients get its state when they (re)connect
            log.exception("table %s: publishing its state on starting failed", self.id)
        self._state_sent()

    async def stop(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        if self._presence_timer is not None:
            self._presence_timer.cancel()
        if self._rematch_timer is not None:
            self._rematch_timer.cancel()
        if self._seed_timer is not None:
            self._seed_timer.cancel()
        if self.task is not None:
            await self.queue.put(None)
            await self.task

    # --- what clients see -----------------------------------------------------------------

    def seat_of(self, user_id: int | None) -> int | None:
        for s, info in enumerate(self.seats):
            if user_id is not None and info.get("user") == user_id:
                return s
        return None

    def state(self, seat: int | None) -> dict[str, Any]:
        """The full state message for one seat (or, with ``None``, a spectator): what it holds
        after the last event, the clocks' time left counted now."""
        states = self._current()
        message = dict(states[self.opts.players if seat is None else seat])
        for key in ("clock", "next_round", "rematch"):
            if key in message:
                timed = dict(message[key])
                timed["remaining_ms"] = max(0, timed["deadline_ms"] - int(time.time() * 1000))
                message[key] = timed
        return message

    def _current(self) -> list[dict[str, Any]]:
        """Every seat's state and then the spectators', as the clients hold them now."""
        if self._states is None:
            self._states = self._build()
        return self._states

    def _build(self) -> list[dict[str, Any]]:
        """Every seat's state message and then the spectators', built together: they share
        the values that are the same for all (read them, never change them)."""
        common = self._common()
        seats: list[int | None] = [*range(self.opts.players), None]
        # the hint helps a player: never in a rated game
        views = self.match.view_dicts(seats, hints=not self.rated) if self.match.started else []
        states = []
        for index, seat in enumerate(seats):
            message = {**common, "you": seat}
            if views:
                message["view"] = views[index]
            message["rounds"] = self._rounds
            states.append(message)
        return states

    def _common(self) -> dict[str, Any]:
        """What the state message says to every seat alike, but the finished rounds."""
        common: dict[str, Any] = {
            "type": "state",
            "game": self.id,
            "version": self.version,
            "status": self.status,
            "seats": [info.get("name") or f"bot:{info.get('bot')}" for info in self.seats],
            "seconds_per_move": self.seconds_per_move,
            "rated": self.rated,
            **self._presence_fields(),
        }
        if self.replacements:
            # from which move each computer player took a seat: the moves before are the
            # person's (the names of both are shown)
            common["takeovers"] = list(self.replacements)
        if self.tournament_id is not None:
            common["tournament"] = self.tournament_id
            if self.next_game is not None:
                common["next_game"] = self.next_game
        turn = self.match.to_move
        if self.status == "playing" and turn is not None:
            common["clock"] = {
                "seat": turn,
                "deadline_ms": int(self.deadline * 1000),
                "remaining_ms": max(0, int((self.deadline - time.time()) * 1000)),
            }
        if self.match.started and (self.match.needs_deal or self.match.over):
            # the round is over: the hands are turned face up as the game says (a layout game:
            # every hand; Poker: those at the showdown); the bazaar stays hidden
            common["shown"] = self.match.shown_hands()
        if self.waiting and self._needs_deal():
            common["next_round"] = self._next_round()
        if self.match.result is not None:
            res = self.match.result
            # as the record's result, with ``timeout`` always present (null when none)
            common["result"] = {**res.to_dict(), "timeout": res.timeout}
        if self.rematch is not None:
            common["rematch"] = self.rematch.fields()
        if self.server_seed is not None:
            common["shuffle"] = shuffle_fields(self.server_seed, self.player_seeds, self.match.over)
        new_rounds = self.match.round_summaries(len(self._rounds))
        if new_rounds:
            # a new list: the states sent before keep the rounds they had
            self._rounds = self._rounds + new_rounds
        return common

    def _messages(self, kind: str) -> list[tuple[str, str]]:
        """What every seat's channel and the spectators' receive after an event of ``kind``
        (``deal``, ``move``, ``timeout``, ``replace``), as (channel, JSON text): the
        :mod:`patch <kozel.patch>` that turns the state each holds into the new one, or the
        whole states when the table has sent none since it started."""
        seats: list[int | None] = [*range(self.opts.players), None]
        channels = [seat_channel(self.id, seat) for seat in seats]
        before, after = self._states, self._build()
        self._states = after
        if before is None:
            return [(c, dumps(state)) for c, state in zip(channels, after, strict=True)]
        owned = self._owned[1] if self._owned is not None and self._owned[0] is before else None
        patches, now_owned = _patches(before, after, owned)
        self._owned = (after, now_owned)
        head = f'{{"type":"event","game":{self.id},"version":{self.version},"kind":"{kind}",'
        return [
            (channel, head + '"patch":' + dumps(ops) + "}")
            for channel, ops in zip(channels, patches, strict=True)
        ]

    def _presence_fields(self) -> dict[str, Any]:
        """Who is connected, who was replaced by a computer player, and the votes going on."""
        replaced = [info.get("replaced", {}).get("name") for info in self.seats]
        return self.presence.fields(self._people(), replaced)

    # --- commands ---------------------------------------------------------------------------

    def link(self, node: str, seats: list[int]) -> None:
        """Process ``node`` has sockets of these seats (all of them: an announcement replaces
        the last one of that process), for ``link_seconds`` unless it says so again. A word
        that only renews the last one asks for no count."""
        if self.presence.link(node, seats, time.monotonic()):
            self.queue.put_nowait(_Presence())

    async def vote(self, voter: int, seat: object) -> Reply:
        """``voter`` agrees that a computer player takes ``seat``; wait for the verdict."""
        done: asyncio.Future[Reply] = asyncio.get_running_loop().create_future()
        target = seat if type(seat) is int else -1
        await self.queue.put(_Vote(voter, target, done))
        return await done

    async def add_seed(self, seat: int, seed: object) -> Reply:
        """``seat`` adds its seed to the shuffle; wait for the verdict."""
        done: asyncio.Future[Reply] = asyncio.get_running_loop().create_future()
        await self.queue.put(_Seed(seat, seed, done))
        return await done

    async def answer_rematch(self, seat: int, accept: bool) -> Reply:
        """``seat`` offers a rematch (or accepts the offer), or declines it; wait for the
        verdict."""
        done: asyncio.Future[Reply] = asyncio.get_running_loop().create_future()
        await self.queue.put(_Rematch(seat, accept, done))
        return await done

    def ready(self, seat: int) -> None:
        """``seat`` pressed "next" while a finished round is shown."""
        self.queue.put_nowait(_Next(seat))

    async def submit(
        self, seat: int, move: dict[str, Any], version: int, person: bool = True
    ) -> Reply:
        """Queue a move of ``seat`` made against ``version``; wait for the verdict."""
        done: asyncio.Future[Reply] = asyncio.get_running_loop().create_future()
        await self.queue.put(_MoveCommand(seat, move, version, done, person))
        return await done

    async def _run(self) -> None:
        while True:
            command = await self.queue.get()
            if command is None:
                return
            answered = (
                command if isinstance(command, _MoveCommand | _Vote | _Rematch | _Seed) else None
            )
            if self.status == "lost":
                if answered is not None and not answered.done.done():
                    answered.done.set_result(Reply(False, "unavailable", MOVED))
                continue
            try:
                if isinstance(command, _Presence):
                    await self._presence()
                elif isinstance(command, _Vote):
                    reply = await self._vote(command)
                    if not command.done.done():
                        command.done.set_result(reply)
                elif isinstance(command, _Timeout):
                    await self._timeout(command)
                elif isinstance(command, _Deal):
                    if self._needs_deal():
                        await self._deal()
                elif isinstance(command, _Next):
                    await self._ready(command.seat)
                elif isinstance(command, _Rematch):
                    reply = await self._rematch(command)
                    if not command.done.done():
                        command.done.set_result(reply)
                elif isinstance(command, _Seed):
                    reply = await self._add_seed(command)
                    if not command.done.done():
                        command.done.set_result(reply)
                elif isinstance(command, _SeedsClosed):
                    if self._needs_deal() and not self.match.started:
                        await self._deal()
                elif isinstance(command, _RematchOver):
                    if command.offer is self.rematch and command.offer.status == "open":
                        command.offer.status = "expired"
                        await self._publish_rematch()
                else:
                    reply = await self._move(command)
                    if not command.done.done():
                        command.done.set_result(reply)
            except Fenced:
                log.warning("table %s: another process owns it now; this copy stops", self.id)
                self.lose()
                if answered is not None and not answered.done.done():
                    answered.done.set_result(Reply(False, "unavailable", MOVED))
            except Exception:  # a table outlives one failed command: nothing was applied
                log.exception("table %s: %r failed", self.id, command)
                if answered is not None and not answered.done.done():
                    answered.done.set_result(
                        Reply(False, "unavailable", "the move could not be stored: send it again")
                    )
                elif self._needs_deal():
                    asyncio.get_running_loop().call_later(1.0, self.queue.put_nowait, _Deal())

    def lose(self) -> None:
        """Another process owns the table: stop the clock and the bots, answer nothing more."""
        self.status = "lost"
        if self._timer is not None:
            self._timer.cancel()
        if self._presence_timer is not None:
            self._presence_timer.cancel()
        self.bots.stop()
        if self.on_lost is not None:
            self.on_lost(self.id)

    def _needs_deal(self) -> bool:
        return self.status == "playing" and self.match.needs_deal

    async def _move(self, command: _MoveCommand) -> Reply:
        if self.status != "playing":
            return Reply(False, "over", "the game is over")
        if command.version != self.version:
            return Reply(False, "stale", f"you saw version {command.version}; it is {self.version}")
        if command.person and "user" not in self.seats[command.seat]:
            return Reply(False, "replaced", "a computer player has taken this seat")
        turn = self.match.to_move
        if command.seat != turn:
            return Reply(False, "turn", f"it is seat {turn}'s turn, not seat {command.seat}'s")
        try:
            move = self.match.read_move(command.move)
            after = self.match.copy()
            after.push(move)
        except IllegalMove as error:
            return Reply(False, "illegal", str(error), error.code, error.params)
        except ValueError as error:  # a malformed move (MoveError)
            return Reply(False, "bad_move", str(error))
        await self._commit("move", {"seat": turn, "move": after.write_move(move)}, after)
        return Reply(True)

    async def _timeout(self, command: _Timeout) -> None:
        if self.status != "playing" or command.version != self.version:
            return  # a move came first
        if self.deadline - time.time() > 0.05:  # the clock grew after this timer was set
            if self._timer is not None:
                self._timer.cancel()
            self._wake_at_deadline()
            return
        if self._server_time_owed():
            return
        after = self.match.copy()
        after.timeout(command.seat)
        await self._commit("timeout", {"seat": command.seat}, after)

    async def _deal(self) -> None:
        if self._seed_timer is not None:
            self._seed_timer.cancel()
        after = self.match.copy()
        stream = self._stream(self.match.progress()[0] + 1)
        await self._commit("deal", after.deal_next(stream), after)
        self.waiting = set()

    # --- the verifiable shuffle ---------------------------------------------------------------

    def _stream(self, number: int) -> DealStream | None:
        """Round ``number``'s stream (from 1): every chance of that round comes from it."""
        if self.server_seed is None:
            return None
        return round_stream(self.server_seed, self.player_seeds, number)

    def _seeding(self) -> bool:
        """The first deal waits for seeds: some person at the table has not added his."""
        return (
            self.server_seed is not None
            and self.seed_seconds > 0
            and not self.match.started
            and any(self.player_seeds[s] is None for s in self._people())
        )

    async def _add_seed(self, command: _Seed) -> Reply:
        seat, seed = command.seat, command.seed
        if self.status != "playing":
            return Reply(False, "over", "the game is over")
        if "user" not in self.seats[seat]:
            return Reply(False, "replaced", "a computer player has taken this seat")
        if self.server_seed is None or self.match.started:
            return Reply(False, "seed_late", "seeds are added before the first deal")
        if not valid_player_seed(seed):
            return Reply(
                False, "seed_bad", "a seed is 1 to 64 letters, digits, - or _", params={"high": 64}
            )
        if self.player_seeds[seat] is not None:
            return Reply(False, "seed_twice", "your seed is added already: it cannot change")
        await self._store("seed", {"seat": seat, "seed": seed})
        self.player_seeds[seat] = seed
        try:
            await self._publish("seed")
        except Exception:  # the event is stored: clients catch up on their next sync
            log.exception("table %s: publishing version %s failed", self.id, self.version)
        if not self._seeding():  # every person's seed is in: deal now
            await self._deal()
        return Reply(True)

    async def _store(self, kind: str, data: dict[str, Any]) -> None:
        """Store an event that changes no match (a seed): the next version."""
        version = self.version + 1
        event = {
            "game_id": self.id,
            "version": version,
            "kind": kind,
            "data": data,
            "at": now(),
            "fence": self.fence,
        }
        await self.writer.write(Write(event))
        self.version = version

    def _pause(self) -> bool:
        """A round has ended: show it until every person has pressed "next" or the pause is
        over, then deal. ``False`` when there is nobody to wait for (computers only)."""
        people = {s for s, info in enumerate(self.seats) if "user" in info}
        if self.round_pause <= 0 or not people or not self.match.started:
            return False
        self.waiting = people
        self.next_at = time.time() + self.round_pause
        if self._timer is not None:
            self._timer.cancel()
        loop = asyncio.get_running_loop()
        self._timer = loop.call_later(self.round_pause, self.queue.put_nowait, _Deal())
        return True

    def _next_round(self) -> dict[str, Any]:
        return {
            "waiting": sorted(self.waiting),
            "deadline_ms": int(self.next_at * 1000),
            "remaining_ms": max(0, int((self.next_at - time.time()) * 1000)),
        }

    async def _ready(self, seat: int) -> None:
        if not self._needs_deal() or seat not in self.waiting:
            return
        self.waiting.discard(seat)
        if not self.waiting:
            if self._timer is not None:
                self._timer.cancel()
            await self._deal()
            return
        waiting = self._next_round()
        self._hold({"next_round": waiting})
        message = json.dumps(
            {"type": "next_round", "game": self.id, "version": self.version, **waiting}
        )
        seats: list[int | None] = [*range(self.opts.players), None]
        await self.pubsub.publish_many([(seat_channel(self.id, s), message) for s in seats])

    def _hold(self, fields: dict[str, Any]) -> None:
        """A message without a new version changed these members of the state the clients
        hold (the base of the next event's patches)."""
        for state in self._states or ():
            state.update(fields)

    async def _commit(self, kind: str, data: dict[str, Any], after: GameMatch) -> None:
        """Persist the event that turns the match into ``after``; only then take ``after`` as
        the table's state, start the next clock and tell everyone. A failed write changes
        nothing."""
        version = self.version + 1
        event = {
            "game_id": self.id,
            "version": version,
            "kind": kind,
            "data": data,
            "at": now(),
            "fence": self.fence,
        }
        finish = None
        if after.over:

            async def finish(connection: AsyncConnection) -> None:
                await self._finish(connection, after)

        elif kind == "deal":

            async def finish(connection: AsyncConnection) -> None:
                # what the lobby's list of live games shows: the round and the score
                live = {"round": after.progress()[0], "score": after.standing()}
                await connection.execute(update(Game).where(Game.id == self.id).values(live=live))

        await self.writer.write(Write(event, finish))
        self.match = after
        self.version = version
        if after.over:
            self.status = _status_after(after)
            if self._timer is not None:
                self._timer.cancel()
        elif not after.needs_deal:
            self._arm(time.time() + self.seconds_per_move)
        paused = after.needs_deal and not after.over and self._pause()
        try:
            await self._publish(kind)
        except Exception:  # the event is stored: clients catch up on their next sync
            log.exception("table %s: publishing version %s failed", self.id, version)
        self._state_sent()
        if after.over:
            if self.on_finish is not None:
                self.on_finish(self.id)
        elif after.needs_deal and not paused:
            self.queue.put_nowait(_Deal())

    def _apply(self, kind: str, data: dict[str, Any]) -> None:
        """Apply a stored event (rebuilding a table after a restart)."""
        if kind == "replace":
            self._replace(data)
        elif kind == "deal":
            self.match.apply_deal(data, self._stream(self.match.progress()[0] + 1))
        elif kind == "seed":
            self.player_seeds[data["seat"]] = data["seed"]
        elif kind == "move":
            if data["seat"] != self.match.to_move:
                raise ValueError(f"a stored move of seat {data['seat']} out of turn")
            self.match.push(self.match.read_move(data["move"]))
        elif kind == "timeout":
            self.match.timeout(data["seat"])
        else:
            raise ValueError(f"unknown event kind {kind!r}")

    async def _finish(self, connection: AsyncConnection, after: GameMatch) -> None:
        """The game ends with the event being stored: keep its record, move the ratings
        (once: in the same transaction as the last event)."""
        result = after.result
        assert result is not None
        labels = [_label(info) for info in self.seats]
        if self.rated:
            for seat, info in enumerate(self.seats):
                if "user" not in info:
                    continue
                delta = result.rating[seat]
                rating = await connection.scalar(
                    update(User)
                    .where(User.id == info["user"])
                    .values(rating=User.rating + delta)
                    .returning(User.rating)
                )
                await connection.execute(
                    insert(RatingChange).values(
                        user_id=info["user"], game_id=self.id, delta=delta, rating=rating, at=now()
                    )
                )
        await connection.execute(
            update(Game)
            .where(Game.id == self.id)
            .values(
                status=_status_after(after),
                record=self._record(after, labels),
                finished_at=now(),
            )
        )
        if self.tournament_id is not None and self.on_tournament is not None:
            # the tournament's step may fail without the game's end failing with it: its
            # statements are undone, and the club's claiming loop seats the next game later
            step = await connection.begin_nested()
            try:
                self.next_game = await self.on_tournament(connection, self.tournament_id)
            except Exception:
                log.exception("table %s: the tournament's next step failed", self.id)
                await step.rollback()
            else:
                await step.commit()

    # --- clock and bots -------------------------------------------------------------------

    @property
    def deadline(self) -> float:
        """When the seat to move runs out (wall-clock), but for the server's own time."""
        return self.clock.deadline

    @deadline.setter
    def deadline(self, deadline: float) -> None:
        self.clock.deadline = deadline

    @property
    def server_time(self) -> Callable[[], float]:
        return self.clock.server_time

    @server_time.setter
    def server_time(self, server_time: Callable[[], float]) -> None:
        self.clock.server_time = server_time

    @property
    def _timer(self) -> asyncio.TimerHandle | None:
        """The table's one timer (the clock's, or the next deal's after a round's pause)."""
        return self.clock.timer

    @_timer.setter
    def _timer(self, timer: asyncio.TimerHandle | None) -> None:
        self.clock.timer = timer

    def _arm(self, deadline: float) -> None:
        """Start the clock of the seat to move (:meth:`MoveClock.start`), and let a computer
        player think."""
        seat = self.match.to_move
        assert seat is not None
        self.clock.start(deadline, seat, self.version)
        if seat in self.bots:
            self.bots.think(seat, self.version)

    def _state_sent(self) -> None:
        """The state that started the clock has gone out (:meth:`MoveClock.state_sent`)."""
        self.clock.state_sent(self.match.to_move, self.version, self.status == "playing")

    def _wake_at_deadline(self) -> None:
        self.clock.wake_at_deadline(self.match.to_move, self.version)

    def _server_time_owed(self) -> bool:
        return self.clock.server_time_owed(self.match.to_move, self.version)

    def _expired(self, seat: int, version: int) -> None:
        self.queue.put_nowait(_Timeout(seat, version))

    async def _publish(self, kind: str) -> None:
        await self.pubsub.publish_many(self._messages(kind))

    def _record(self, after: GameMatch, labels: list[str]) -> dict[str, Any]:
        """The game's record; with ``replaced`` when a computer player took a seat."""
        record = after.record(labels)
        if self.server_seed is not None:
            record["shuffle"] = shuffle_fields(self.server_seed, self.player_seeds, True)
        if self.replacements:
            record["replaced"] = list(self.replacements)
        return record

    # --- the rematch ------------------------------------------------------------------------

    async def _rematch(self, command: _Rematch) -> Reply:
        seat, offer = command.seat, self.rematch
        if self.status == "playing":
            return Reply(False, "rematch_playing", "a rematch is offered once the game is over")
        if self.tournament_id is not None:
            return Reply(False, "rematch_tournament", "a tournament's game has no rematch")
        if "user" not in self.seats[seat]:
            return Reply(False, "replaced", "a computer player has taken this seat")
        if offer is None or offer.status != "open":
            if not command.accept:
                return Reply(False, "rematch_none", "there is no rematch offer to decline")
            offer = RematchOffer(seat, self._people(), time.time() + self.rematch_seconds)
            offer.accepted = {seat} | set(self.bots)  # computer players accept at once
            self.rematch = offer
            if self._rematch_timer is not None:
                self._rematch_timer.cancel()
            loop = asyncio.get_running_loop()
            self._rematch_timer = loop.call_later(
                self.rematch_seconds, self.queue.put_nowait, _RematchOver(offer)
            )
        else:
            offer.answer(seat, command.accept)
        if offer.agreed and self.on_rematch is not None:
            offer.game = await self.on_rematch(self)
            offer.status = "started"
        if offer.status != "open" and self._rematch_timer is not None:
            self._rematch_timer.cancel()
        await self._publish_rematch()
        return Reply(True)

    async def _publish_rematch(self) -> None:
        assert self.rematch is not None
        fields = self.rematch.fields()
        self._hold({"rematch": fields})
        message = json.dumps(
            {"type": "rematch", "game": self.id, "version": self.version, "rematch": fields}
        )
        seats: list[int | None] = [*range(len(self.seats)), None]
        try:
            await self.pubsub.publish_many([(seat_channel(self.id, s), message) for s in seats])
        except Exception:  # clients see it in their next state
            log.exception("table %s: publishing the rematch failed", self.id)

    # --- presence and the vote for a computer player ------------------------------------------

    def _people(self) -> list[int]:
        """The seats people play (not those computer players took)."""
        return [s for s, info in enumerate(self.seats) if "user" in info]

    def _recount(self) -> bool:
        """Count the connected seats again (:meth:`SeatPresence.recount`) and set the timer
        for the next count; ``True`` when anything changed."""
        changed, wake = self.presence.recount(self._people(), time.monotonic())
        if self._presence_timer is not None:
            self._presence_timer.cancel()
            self._presence_timer = None
        if wake is not None and self.status == "playing":
            delay = max(0.0, wake - time.monotonic()) + 0.01
            loop = asyncio.get_running_loop()
            self._presence_timer = loop.call_later(delay, self.queue.put_nowait, _Presence())
        return changed

    async def _presence(self) -> None:
        if self.status != "playing":
            return
        changed = self._recount()
        seat = self.presence.complete(self._people())
        if seat is not None:  # a person who was waited for has gone
            await self._take_over(seat)
        elif changed:
            await self._publish_presence()

    async def _vote(self, command: _Vote) -> Reply:
        seat, voter = command.seat, command.voter
        if self.status != "playing":
            return Reply(False, "over", "the game is over")
        if "user" not in self.seats[voter]:
            return Reply(False, "replaced", "a computer player has taken this seat")
        if not 0 <= seat < len(self.seats) or seat == voter or "user" not in self.seats[seat]:
            return Reply(
                False, "replace_seat", "only another person's seat can be given to the computer"
            )
        if self._recount():  # a grace ran out just now: the others hear of it too
            await self._publish_presence()
        if self.presence.connected[seat]:
            return Reply(
                False,
                "replace_connected",
                f"seat {seat} is connected: a computer may take only a disconnected seat",
                params={"seat": seat},
            )
        if self.presence.agree(self._people(), voter, seat):
            await self._take_over(seat)
        else:
            await self._publish_presence()
        return Reply(True)

    async def _publish_presence(self) -> None:
        fields = self._presence_fields()
        self._hold(fields)
        message = json.dumps(
            {"type": "presence", "game": self.id, "version": self.version, **fields}
        )
        seats: list[int | None] = [*range(len(self.seats)), None]
        try:
            await self.pubsub.publish_many([(seat_channel(self.id, s), message) for s in seats])
        except Exception:  # clients see it in their next state
            log.exception("table %s: publishing presence failed", self.id)

    async def _take_over(self, seat: int) -> None:
        """Store the ``replace`` event (and the seat and the game's being unrated in the
        ``games`` row, in the same transaction), then let the computer player move."""
        info = self.seats[seat]
        round_number, move = self.match.progress()
        data = {
            "seat": seat,
            "bot": REPLACEMENT,
            "user": info["user"],
            "player": info["name"],
            "voters": sorted(self.presence.votes.get(seat, ())),
            "round": round_number,
            "move": move,
        }
        seats = list(self.seats)
        seats[seat] = _replaced(data)
        version = self.version + 1
        event = {
            "game_id": self.id,
            "version": version,
            "kind": "replace",
            "data": data,
            "at": now(),
            "fence": self.fence,
        }

        async def store(connection: AsyncConnection) -> None:
            await connection.execute(
                update(Game).where(Game.id == self.id).values(seats=seats, rated=False)
            )

        await self.writer.write(Write(event, store))
        self.version = version
        self._replace(data)
        if self._needs_deal():
            if not self.waiting:  # the round waited for this seat alone
                if self._timer is not None:
                    self._timer.cancel()
                self.queue.put_nowait(_Deal())
        elif self.status == "playing" and self.match.to_move is not None:
            # the clock goes on (the timer is armed again for the new version); the computer
            # gets at least enough time to move
            self._arm(max(self.deadline, time.time() + self.bot_pace_ms / 1000 + 2.0))
        try:
            await self._publish("replace")
        except Exception:  # the event is stored: clients catch up on their next sync
            log.exception("table %s: publishing version %s failed", self.id, version)
        self._state_sent()

    def _replace(self, data: dict[str, Any]) -> None:
        """A computer player takes a seat (a stored ``replace`` event): unrated from now on."""
        seat = data["seat"]
        self.seats[seat] = _replaced(data)
        self.rated = False
        self.bots.seat(seat, data["bot"])
        self.presence.forget(seat)
        self.waiting.discard(seat)
        entry = {k: data[k] for k in ("seat", "player", "round", "move")}
        self.replacements.append({**entry, "by": f"bot:{data['bot']}"})


def _replaced(data: dict[str, Any]) -> dict[str, Any]:
    """The seat a computer player took, as ``games.seats`` keeps it."""
    return {"bot": data["bot"], "replaced": {"user": data["user"], "name": data["player"]}}


def _label(info: dict[str, Any]) -> str:
    """A seat's label in the record: the person's name (also when a computer player took the
    seat: the record's ``replaced`` says from when), or ``bot:LEVEL``."""
    if "user" in info:
        return str(info["name"])
    if "replaced" in info:
        return str(info["replaced"]["name"])
    return f"bot:{info['bot']}"


_ABSENT = object()
"""A member a state does not have."""


def _patches(
    before: list[dict[str, Any]],
    after: list[dict[str, Any]],
    owned: list[dict[str, None]] | None = None,
) -> tuple[list[list[Op]], list[dict[str, None]]]:
    """Each channel's patch from its state in ``before`` to its state in ``after`` (the
    spectators' last), and the members of each view in ``after`` that are not the shared
    view's (``owned``: those of ``before``, from the last call). What the seats share (the
    common members; the public parts of the views, the same objects in every state of one
    build) is compared once; a seat's own members (its hand, its legal moves …) apart.
    ``version`` is not in a patch: the event carries it."""
    old_public, new_public = before[-1], after[-1]
    common = [
        op
        for key in _changed(old_public, new_public)
        if key not in _NOT_PATCHED
        for op in _member_diff(
            f"/{key}", old_public.get(key, _ABSENT), new_public.get(key, _ABSENT)
        )
    ]
    old_shared, new_shared = old_public.get("view", _ABSENT), new_public.get("view", _ABSENT)
    if old_shared is _ABSENT or new_shared is _ABSENT:  # before the first deal
        patches = [
            common + _member_diff("/view", old_shared, new.get("view", _ABSENT)) for new in after
        ]
        return patches, [_own(new["view"], new_shared) if "view" in new else {} for new in after]
    shared: dict[str, list[Op]] = {}
    for key in _changed(old_shared, new_shared):
        ops = _member_diff(
            f"/view/{key}", old_shared.get(key, _ABSENT), new_shared.get(key, _ABSENT)
        )
        if ops:
            shared[key] = ops
    patches, now_owned = [], []
    for index, (old, new) in enumerate(zip(before, after, strict=True)):
        old_view, new_view = old["view"], new["view"]
        new_own = _own(new_view, new_shared)
        now_owned.append(new_own)
        own = {**new_own, **(owned[index] if owned else _own(old_view, old_shared))}
        ops = list(common)
        for key, key_ops in shared.items():
            if key not in own:
                ops += key_ops
        for key in own:
            ops += _member_diff(
                f"/view/{key}", old_view.get(key, _ABSENT), new_view.get(key, _ABSENT)
            )
        patches.append(ops)
    return patches, now_owned


_NOT_PATCHED = frozenset(("type", "version", "you", "view"))
"""The state's members no patch sets: constant, the event's own (``version``), or patched apart
(``view``)."""


def _changed(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """The members whose values differ, then those only ``old`` has."""
    get = old.get
    keys = [key for key, value in new.items() if get(key, _ABSENT) != value]
    return keys + [key for key in old if key not in new]


def _own(view: dict[str, Any], shared: dict[str, Any]) -> dict[str, None]:
    """The members of one seat's view that are not the shared view's (its hand …)."""
    if view is shared:
        return {}
    get = shared.get
    return {key: None for key, value in view.items() if value is not get(key, _ABSENT)}


def _member_diff(pointer: str, old: Any, new: Any) -> list[Op]:
    """What turns a member that was ``old`` into ``new`` (either may be absent)."""
    if new is _ABSENT:
        return [] if old is _ABSENT else [[pointer]]
    if old is _ABSENT:
        return [[pointer, new]]
    return diff(old, new, pointer)


def dumps(value: Any) -> str:
    """JSON text without spaces, as the table's messages are written (orjson: several times
    faster than the standard library, docs/benchmarks.md)."""
    return orjson.dumps(value).decode()


def _status_after(finished: GameMatch) -> str:
    """A game that ended by a timeout is interrupted; otherwise it is finished."""
    assert finished.result is not None
    return "interrupted" if finished.result.timeout is not None else "finished"


async def load_events(sessions: async_sessionmaker[AsyncSession], game_id: int) -> list[GameEvent]:
    async with sessions() as session:
        rows = await session.execute(
            select(GameEvent).where(GameEvent.game_id == game_id).order_by(GameEvent.version)
        )
        return list(rows.scalars())

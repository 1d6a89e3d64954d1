"""Live tables: one asyncio task per table, like lila's round actor.

A table takes commands from a queue (:mod:`kozel.server.table_commands`), one at a time: it checks
the seat, the turn and the client's version, checks the move with the engine, **persists the
event** (a deal, a move or a timeout) and only then applies it and publishes a versioned message to
each seat's channel, every seat getting only its own :func:`~kozel.layout.views.view_for` (the
patch from the state it holds: :mod:`kozel.server.patches`). Computer players submit moves through
the same queue. A table is rebuilt after a restart, or by the process that takes it over, by
replaying its stored events.

Beside the moves, a table keeps a few sidelines, each a part of its own that the table's task
drives: the clock of the seat to move (:mod:`kozel.server.clock`), the computer players
(:mod:`kozel.server.table_bots`), the verifiable shuffle's seeds (:class:`TableSeeds
<kozel.server.seeds.TableSeeds>`), which people's seats have a live socket and the vote to let
a computer player take a disconnected one (:mod:`kozel.server.table_votes`: once every other
connected person agrees, a ``replace`` event is stored, the game is unrated from then on and
goes on), and the rematch offered at the game's end (:class:`TableRematch
<kozel.server.rematch.TableRematch>`).

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
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncSession, async_sessionmaker

from kozel.core import IllegalMove
from kozel.engine.game import GameMatch, kept
from kozel.server.clock import MoveClock
from kozel.server.db import Game, GameEvent, now
from kozel.server.finisher import finish_game, status_after
from kozel.server.offer import club_game
from kozel.server.patches import dumps, state_patches
from kozel.server.presence import SeatPresence
from kozel.server.pubsub import PubSub
from kozel.server.rematch import TableRematch
from kozel.server.seeds import TableSeeds
from kozel.server.table_bots import TableBots
from kozel.server.table_commands import (
    MOVED,
    Asked,
    Command,
    Deal,
    HandOver,
    MoveCommand,
    Next,
    Presence,
    Rematch,
    RematchOver,
    Reply,
    Seed,
    SeedsClosed,
    Timeout,
    Vote,
)
from kozel.server.table_votes import REPLACEMENT, TakeOverVotes
from kozel.server.writer import Fenced, Write, Writer

log = logging.getLogger("kozel.tables")

Finish = Callable[[AsyncConnection], Awaitable[None]]
"""What runs in the transaction that stores an event (:class:`~kozel.server.writer.Write`)."""


def seat_channel(game_id: int, seat: int | None) -> str:
    """The channel one seat (or, with ``None``, the spectators) listens to."""
    return f"game:{game_id}:" + ("watch" if seat is None else f"seat:{seat}")


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
        self.writer, self.pubsub = writer, pubsub
        self.on_finish, self.on_lost = on_finish, on_lost
        self.rules = club_game(row.game)
        self.opts = self.rules.options(row.options, complete=True)
        self.seats: list[dict[str, Any]] = list(row.seats)
        self.seconds_per_move = row.seconds_per_move
        self.rated = row.rated
        self.status = row.status
        self.match: GameMatch = self.rules.new_match(self.opts, None)
        """Dealt from the verifiable shuffle's streams (:meth:`TableSeeds.stream`); a game
        stored before it from the system's secure generator."""
        self.version = 0
        self.queue: asyncio.Queue[Command | None] = asyncio.Queue()
        self.task: asyncio.Task[None] | None = None
        self.clock = MoveClock(self.id, self._expired)
        """The seat to move's clock; the club sets its ``server_time``."""
        self.bots = TableBots(self, self.rules, self.seats, seed)
        self.seeds = TableSeeds(self, row.server_seed, len(self.seats))
        """The shuffle's server seed and the people's seeds (the club sets its ``seconds``)."""
        self.votes = TakeOverVotes(self, SeatPresence(len(self.seats)))
        self.presence = self.votes.presence
        """Which seats are connected, and the votes (the club sets its grace and its lease)."""
        self.replacements: list[dict[str, Any]] = []
        """The takeovers so far, as the record lists them (``replaced``)."""
        self.rematch = TableRematch(self)
        """The rematch offered at the game's end (the club sets its ``seconds``)."""
        self.on_rematch: Callable[[Table], Awaitable[int]] | None = None
        """Seats the rematch at a new table (everyone accepted): its game's id."""
        self.tournament_id = row.tournament_id
        """The micro-tournament this game is one of (:mod:`kozel.server.series`)."""
        self.on_tournament: Callable[[AsyncConnection, int], Awaitable[int | None]] | None = None
        """Runs in the transaction that ends a tournament's game: seats the next game (its id)
        or ends the tournament (``None``)."""
        self.next_game: int | None = None
        """The tournament's next game, once this one has ended."""
        self.waiting: set[int] = set()
        """The people who have not pressed "next" yet while a finished round is shown."""
        self.next_at = 0.0
        """Wall-clock time of the next deal while a finished round is shown."""
        self._rounds: list[dict[str, Any]] = []
        """The finished rounds' public summaries, built as they end (a new list each time
        one is added)."""
        self._states: list[dict[str, Any]] | None = None
        """Every seat's state message and then the spectators', as last sent (the base of
        the next event's patches); ``None`` until the table has built them."""
        self._owned: tuple[list[dict[str, Any]], list[dict[str, None]]] | None = None
        """The states last sent, with the members each one's view does not share."""
        self.started = 0.0
        """When this process started running the table (``time.monotonic()``, :meth:`start`)."""
        self.far: set[int | None] | None = None
        """The seats (``None``: the spectators) that another process may have sockets of:
        their messages go through the pub/sub, the others' only to this process's own
        sockets (:meth:`heard_from_afar`). ``None``: every seat's (a table claimed from
        storage whose listeners elsewhere are not known: :meth:`learn_far`)."""

    # --- rebuilding and starting ------------------------------------------------------------

    def replay(self, events: list[GameEvent]) -> None:
        """Apply stored events (in version order) to a fresh match."""
        for event in events:
            self._apply(event.kind, event.data)
            self.version = event.version

    async def learn_far(self) -> None:
        """Before a table claimed from storage starts: which of its channels another process
        listens to (sockets that followed its former owner), so that only their messages go
        through the pub/sub. Should the pub/sub not say, every seat's message goes there.
        (Before the table runs, no socket elsewhere has asked it for its state: one that
        subscribes after the count asks it, and is heard then.)"""
        seats: list[int | None] = [*range(self.opts.players), None]
        try:
            elsewhere = await self.pubsub.listened_elsewhere(
                [seat_channel(self.id, seat) for seat in seats]
            )
        except Exception as error:
            log.warning("table %s: its listeners elsewhere are unknown: %s", self.id, error)
            return
        self.far = {seat for seat, there in zip(seats, elsewhere, strict=True) if there}

    def followed(self, here: str) -> str | None:
        """The one other process that has every socket of this table's people while this
        one (``here``) has none of its sockets: the table would run better there (no move
        and no message would cross the pub/sub). Only while a round is under way: between
        rounds and before the first deal, people's seeds and presses live in memory."""
        if self.status != "playing" or self._needs_deal() or self.far is None:
            return None
        seats: list[int | None] = [*range(self.opts.players), None]
        if any(self.pubsub.listening_here(seat_channel(self.id, s)) for s in seats):
            return None
        now = time.monotonic()
        nodes = {n for n, (linked, until) in self.presence.links.items() if linked and until > now}
        if len(nodes) != 1 or here in nodes:
            return None
        return nodes.pop()

    async def hand_over(self, move: Callable[[], Awaitable[bool]]) -> bool:
        """Leave this process once every command before is done (:class:`HandOver`):
        ``move`` stores the new owner. True when the table left."""
        done: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        await self.queue.put(HandOver(move, done))
        return await done

    async def start(self, last_event_at: float | None = None, grace: float = 10.0) -> None:
        """Run the actor; deal if nothing is dealt yet; start the clock and the bots."""
        self.started = time.monotonic()
        self.task = asyncio.create_task(self._run(), name=f"table-{self.id}")
        if self.status != "playing":
            return
        self.votes.expect()
        if self._needs_deal():
            if self.seeds.waiting():
                # the commitment goes out first; the deal waits for the people's seeds
                self.seeds.wait()
                await self._publish_whole("its commitment")
                return
            self.queue.put_nowait(Deal())  # its state goes out once it is dealt
            return
        limit = float(self.seconds_per_move)
        deadline = (last_event_at or time.time()) + limit
        self._arm(max(deadline, time.time() + min(grace, limit)))
        await self._publish_whole("its state on starting")
        self._state_sent()

    async def _publish_whole(self, what: str) -> None:
        """Publish whole states: clients that were listening to the table's former owner hold
        older ones. If that fails, clients get the state when they (re)connect."""
        self._states = None
        try:
            await self.publish("start")
        except Exception:
            log.exception("table %s: publishing %s failed", self.id, what)

    async def stop(self) -> None:
        self.clock.cancel()
        self.votes.stop()
        self.rematch.stop()
        self.seeds.stop()
        if self.task is not None:
            await self.queue.put(None)
            await self.task

    def people(self) -> list[int]:
        """The seats people play (not those computer players took)."""
        return [s for s, info in enumerate(self.seats) if "user" in info]

    # --- what clients see -----------------------------------------------------------------

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
        held = self._states
        if held:  # what did not change stays the object sent (kept)
            sent = held[-1]
            common = {key: kept(sent.get(key), value) for key, value in common.items()}
        # the views last sent, for the game to build on (what a move cannot change is shared)
        previous = [state["view"] for state in held] if held and "view" in held[-1] else None
        # the hint helps a player: never in a rated game
        started = self.match.started
        views = self.match.view_dicts(seats, not self.rated, previous) if started else []
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
            **self.votes.fields(),
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
        if self.rematch.offer is not None:
            common["rematch"] = self.rematch.offer.fields()
        shuffle = self.seeds.fields(self.match.over)
        if shuffle is not None:
            common["shuffle"] = shuffle
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
        patches, now_owned = state_patches(before, after, owned)
        self._owned = (after, now_owned)
        head = f'{{"type":"event","game":{self.id},"version":{self.version},"kind":"{kind}",'
        return [
            (channel, head + '"patch":' + dumps(ops) + "}")
            for channel, ops in zip(channels, patches, strict=True)
        ]

    async def publish(self, kind: str) -> None:
        """Tell every seat and the spectators of the event of ``kind`` (:meth:`_messages`)."""
        await self._send(self._messages(kind))

    async def _send(self, messages: list[tuple[str, str]]) -> None:
        """Send every seat's message and then the spectators': through the pub/sub to the
        seats that another process may listen to (:attr:`far`), straight to this process's
        own sockets for the others (Redis carried every message of a table, also to the
        sockets of its own process: a fifth of a server's CPU, docs/benchmarks.md)."""
        far = self.far
        if far is None:
            await self.pubsub.publish_many(messages)
            return
        seats: list[int | None] = [*range(self.opts.players), None]
        here: list[tuple[str, str]] = []
        there: list[tuple[str, str]] = []
        for seat, message in zip(seats, messages, strict=True):
            (there if seat in far else here).append(message)
        if here:
            self.pubsub.deliver_here(here)
        if there:
            await self.pubsub.publish_many(there)

    def heard_from_afar(self, seats: list[Any]) -> None:
        """Another process has (or is opening) sockets of these seats (``None``: the
        spectators'): from now on their messages go through the pub/sub. Such a socket
        subscribes first and then asks this table for its state, so it misses nothing."""
        if self.far is not None:
            players = self.opts.players
            self.far.update(s for s in seats if s is None or (type(s) is int and 0 <= s < players))

    async def announce(
        self, kind: str, held: dict[str, Any], members: dict[str, Any] | None = None
    ) -> None:
        """Tell every seat and the spectators of a change that makes no new version (who is
        connected, the rematch offer, who waits for the next round): ``held`` are the changed
        members of the state the clients hold, ``members`` what the message of type ``kind``
        says (``held`` unless given)."""
        self._hold(held)
        message = json.dumps(
            {
                "type": kind,
                "game": self.id,
                "version": self.version,
                **(held if members is None else members),
            }
        )
        seats: list[int | None] = [*range(self.opts.players), None]
        await self._send([(seat_channel(self.id, s), message) for s in seats])

    def _hold(self, fields: dict[str, Any]) -> None:
        """A message without a new version changed these members of the state the clients
        hold (the base of the next event's patches)."""
        for state in self._states or ():
            state.update(fields)

    # --- commands ---------------------------------------------------------------------------

    def link(self, node: str, seats: list[int]) -> None:
        """Process ``node`` has sockets of these seats (all of them: an announcement replaces
        the last one of that process), for ``link_seconds`` unless it says so again. A word
        that only renews the last one asks for no count."""
        self.votes.link(node, seats)

    async def vote(self, voter: int, seat: object) -> Reply:
        """``voter`` agrees that a computer player takes ``seat``; wait for the verdict."""
        done: asyncio.Future[Reply] = asyncio.get_running_loop().create_future()
        target = seat if type(seat) is int else -1
        await self.queue.put(Vote(voter, target, done))
        return await done

    async def add_seed(self, seat: int, seed: object) -> Reply:
        """``seat`` adds its seed to the shuffle; wait for the verdict."""
        done: asyncio.Future[Reply] = asyncio.get_running_loop().create_future()
        await self.queue.put(Seed(seat, seed, done))
        return await done

    async def answer_rematch(self, seat: int, accept: bool) -> Reply:
        """``seat`` offers a rematch (or accepts the offer), or declines it; wait for the
        verdict."""
        done: asyncio.Future[Reply] = asyncio.get_running_loop().create_future()
        await self.queue.put(Rematch(seat, accept, done))
        return await done

    def ready(self, seat: int) -> None:
        """``seat`` pressed "next" while a finished round is shown."""
        self.queue.put_nowait(Next(seat))

    async def submit(
        self, seat: int, move: dict[str, Any], version: int, person: bool = True
    ) -> Reply:
        """Queue a move of ``seat`` made against ``version``; wait for the verdict."""
        return await self.queue_move(seat, move, version, person)

    def queue_move(
        self, seat: int, move: dict[str, Any], version: int, person: bool = True
    ) -> asyncio.Future[Reply]:
        """Queue a move of ``seat`` made against ``version``: the verdict, to come."""
        done: asyncio.Future[Reply] = asyncio.get_running_loop().create_future()
        self.queue.put_nowait(MoveCommand(seat, move, version, done, person))
        return done

    async def _run(self) -> None:
        while (command := await self.queue.get()) is not None:
            await self._carry_out(command)
            # not held while the table waits for the next one (nor its reply, its move …):
            # a finished command's objects are freed at once, not a move later
            del command

    async def _carry_out(self, command: Command) -> None:
        """One command, answered when its sender waits for the verdict."""
        asked = command if isinstance(command, Asked) else None
        if self.status == "lost":
            if asked is not None and not asked.done.done():
                asked.done.set_result(Reply(False, "unavailable", MOVED))
            if isinstance(command, HandOver):
                command.done.set_result(False)
            return
        try:
            reply: Reply | None
            if isinstance(command, MoveCommand):
                reply = await self._move(command)
            else:
                reply = await self._sideline(command)
            if reply is not None and asked is not None and not asked.done.done():
                asked.done.set_result(reply)
        except Fenced:
            log.warning("table %s: another process owns it now; this copy stops", self.id)
            self.lose()
            if asked is not None and not asked.done.done():
                asked.done.set_result(Reply(False, "unavailable", MOVED))
        except Exception:  # a table outlives one failed command: nothing was applied
            log.exception("table %s: %r failed", self.id, command)
            if asked is not None and not asked.done.done():
                asked.done.set_result(
                    Reply(False, "unavailable", "the move could not be stored: send it again")
                )
            elif self._needs_deal():
                asyncio.get_running_loop().call_later(1.0, self.queue.put_nowait, Deal())

    async def _sideline(self, command: Command) -> Reply | None:
        """Carry out a command other than a move; the reply when its sender waits for one."""
        match command:
            case Timeout():
                await self._timeout(command)
            case Deal():
                if self._needs_deal():
                    await self.deal()
            case Next(seat=seat):
                await self._ready(seat)
            case Presence():
                await self.votes.count()
            case Vote(voter=voter, seat=seat):
                return await self.votes.vote(voter, seat)
            case Seed(seat=seat, seed=seed):
                return await self.seeds.add(seat, seed)
            case SeedsClosed():
                if self._needs_deal() and not self.match.started:
                    await self.deal()
            case Rematch(seat=seat, accept=accept):
                return await self.rematch.answer(seat, accept)
            case RematchOver(offer=offer):
                await self.rematch.expire(offer)
            case HandOver(move=move, done=done):
                moved = False
                try:
                    moved = self.status == "playing" and not self._needs_deal() and await move()
                finally:
                    done.set_result(moved)
                if moved:
                    self.lose()  # the commands queued after this one are answered "moved"
        return None

    def lose(self) -> None:
        """Another process owns the table: stop the clock and the bots, answer nothing more."""
        self.status = "lost"
        self.clock.cancel()
        self.votes.stop()
        self.bots.stop()
        if self.on_lost is not None:
            self.on_lost(self.id)

    # --- the game's events: read, copy, push, store, publish ----------------------------------

    def _needs_deal(self) -> bool:
        return self.status == "playing" and self.match.needs_deal

    async def _move(self, command: MoveCommand) -> Reply:
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

    async def _timeout(self, command: Timeout) -> None:
        if self.status != "playing" or command.version != self.version:
            return  # a move came first
        if self.deadline - time.time() > 0.05:  # the clock grew after this timer was set
            self.clock.cancel()
            self.clock.wake_at_deadline(self.match.to_move, self.version)
            return
        if self.clock.server_time_owed(self.match.to_move, self.version):
            return
        after = self.match.copy()
        after.timeout(command.seat)
        await self._commit("timeout", {"seat": command.seat}, after)

    async def deal(self) -> None:
        """Deal the next round (from its stream of the verifiable shuffle)."""
        self.seeds.stop()
        after = self.match.copy()
        stream = self.seeds.stream(self.match.progress()[0] + 1)
        await self._commit("deal", after.deal_next(stream), after)
        self.waiting = set()

    def _event(self, kind: str, data: dict[str, Any]) -> dict[str, Any]:
        """The next version's ``game_events`` row, under the owner's fencing token."""
        return {
            "game_id": self.id,
            "version": self.version + 1,
            "kind": kind,
            "data": data,
            "at": now(),
            "fence": self.fence,
        }

    async def store(self, kind: str, data: dict[str, Any]) -> None:
        """Store an event that changes no match (a seed): the next version."""
        event = self._event(kind, data)
        await self.writer.write(Write(event))
        self.version = event["version"]

    async def _commit(self, kind: str, data: dict[str, Any], after: GameMatch) -> None:
        """Persist the event that turns the match into ``after``; only then take ``after`` as
        the table's state, start the next clock and tell everyone. A failed write changes
        nothing."""
        event = self._event(kind, data)
        live = {"round": after.progress()[0], "score": after.standing()} if kind == "deal" else None
        await self.writer.write(Write(event, self._finish(after), live))
        self.match = after
        self.version = version = event["version"]
        if after.over:
            self.status = status_after(after)
            self.clock.cancel()
        elif not after.needs_deal:
            self._arm(time.time() + self.seconds_per_move)
        paused = after.needs_deal and not after.over and self._pause()
        try:
            await self.publish(kind)
        except Exception:  # the event is stored: clients catch up on their next sync
            log.exception("table %s: publishing version %s failed", self.id, version)
        self._state_sent()
        if after.over:
            if self.on_finish is not None:
                self.on_finish(self.id)
        elif after.needs_deal and not paused:
            self.queue.put_nowait(Deal())

    def _finish(self, after: GameMatch) -> Finish | None:
        """What the transaction that stores the event turning the match into ``after`` also
        does when the game ends (:func:`~kozel.server.finisher.finish_game`). (After a deal it
        also stores what the lobby's list of live games shows, the round and the score: the
        write's ``live``.)"""
        if not after.over:
            return None

        async def finish(connection: AsyncConnection) -> None:
            await finish_game(connection, self, after)

        return finish

    def _apply(self, kind: str, data: dict[str, Any]) -> None:
        """Apply a stored event (rebuilding a table after a restart)."""
        if kind == "replace":
            self._replace(data)
        elif kind == "deal":
            self.match.apply_deal(data, self.seeds.stream(self.match.progress()[0] + 1))
        elif kind == "seed":
            self.seeds.apply(data)
        elif kind == "move":
            if data["seat"] != self.match.to_move:
                raise ValueError(f"a stored move of seat {data['seat']} out of turn")
            self.match.push(self.match.read_move(data["move"]))
        elif kind == "timeout":
            self.match.timeout(data["seat"])
        else:
            raise ValueError(f"unknown event kind {kind!r}")

    # --- between rounds ---------------------------------------------------------------------

    def _pause(self) -> bool:
        """A round has ended: show it until every person has pressed "next" or the pause is
        over, then deal. ``False`` when there is nobody to wait for (computers only)."""
        people = set(self.people())
        if self.round_pause <= 0 or not people or not self.match.started:
            return False
        self.waiting = people
        self.next_at = time.time() + self.round_pause
        self.clock.cancel()
        loop = asyncio.get_running_loop()
        self.clock.timer = loop.call_later(self.round_pause, self.queue.put_nowait, Deal())
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
            self.clock.cancel()
            await self.deal()
            return
        waiting = self._next_round()
        await self.announce("next_round", {"next_round": waiting}, waiting)

    # --- a computer player takes a person's seat -------------------------------------------

    async def take_over(self, seat: int) -> None:
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

        async def store(connection: AsyncConnection) -> None:
            await connection.execute(
                update(Game).where(Game.id == self.id).values(seats=seats, rated=False)
            )

        event = self._event("replace", data)
        await self.writer.write(Write(event, store))
        self.version = version = event["version"]
        self._replace(data)
        if self._needs_deal():
            if not self.waiting:  # the round waited for this seat alone
                self.clock.cancel()
                self.queue.put_nowait(Deal())
        elif self.status == "playing" and self.match.to_move is not None:
            # the clock goes on (the timer is armed again for the new version); the computer
            # gets at least enough time to move
            self._arm(max(self.deadline, time.time() + self.bot_pace_ms / 1000 + 2.0))
        try:
            await self.publish("replace")
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

    # --- the clock and the bots -------------------------------------------------------------

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

    def _expired(self, seat: int, version: int) -> None:
        self.queue.put_nowait(Timeout(seat, version))


def _replaced(data: dict[str, Any]) -> dict[str, Any]:
    """The seat a computer player took, as ``games.seats`` keeps it."""
    return {"bot": data["bot"], "replaced": {"user": data["user"], "name": data["player"]}}


async def load_events(sessions: async_sessionmaker[AsyncSession], game_id: int) -> list[GameEvent]:
    async with sessions() as session:
        rows = await session.execute(
            select(GameEvent).where(GameEvent.game_id == game_id).order_by(GameEvent.version)
        )
        return list(rows.scalars())

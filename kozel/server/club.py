"""The club's services: accounts, the lobby of game requests, starting and restoring tables.

The HTTP and WebSocket layer (:mod:`kozel.server.app`) only translates to and from these.
Every failure a user can cause raises :class:`ClubError` with a status and a clear message.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import socket
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncSession

from kozel.bots import LEVELS
from kozel.core import InvalidOption
from kozel.games import get_game
from kozel.server import auth, chat, names, seating, tourney
from kozel.server.analysis import Analyst
from kozel.server.cluster import Claimable, Forwarder, Ownership
from kozel.server.db import (
    ChatMessage,
    ClubState,
    Game,
    GamePlayer,
    GameRequest,
    NameKey,
    RatingChange,
    Session,
    TournamentRow,
    User,
    make_engine,
    migrate,
    now,
    sessionmaker,
)
from kozel.server.errors import ClubError
from kozel.server.hashing import Busy, Hasher
from kozel.server.offer import club_game
from kozel.server.presence import Announcer
from kozel.server.pubsub import Namespaced, PubSub, make_pubsub
from kozel.server.rematch import rematch_seats
from kozel.server.seeds import seeded_number, seeded_server_seed
from kozel.server.settings import Settings
from kozel.server.stalls import StallMeter
from kozel.server.tables import MOVED, Reply, Table, load_events
from kozel.server.writer import Writer
from kozel.shuffle import commitment

LOBBY = "lobby"
"""The channel of lobby changes: ``{"type": "lobby", "version": N, "request": {...}}``."""
LOBBY_VERSION = "lobby_version"
"""The ``club_state`` row that counts lobby changes, shared by every process of the club."""
log = logging.getLogger("kozel.club")
_jitter = random.Random()
"""Spreads timers and claims (not a secret): a generator of its own, so the club leaves the
``random`` module's shared state alone for whatever embeds it (a test's Hypothesis checks
that nothing changes it while it generates data)."""


RECENT_GAMES = 20
"""How many of a player's games the player page lists."""
LIVE_GAMES = 100
"""How many games being played the lobby lists (the newest)."""
NOT_RATED_WITH_COMPUTERS = "games with computer players are not rated"


def _aware(stamp: datetime) -> datetime:
    """SQLite hands back naive datetimes: they are UTC."""
    return stamp if stamp.tzinfo else stamp.replace(tzinfo=UTC)


class Club:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.engine = make_engine(settings.db_url, settings.db_connections)
        self.sessions = sessionmaker(self.engine)
        self.pubsub: PubSub = make_pubsub(settings.pubsub_url)
        """Namespaced with the club's id once the club has started."""
        self.writer = Writer(self.engine)
        self.tables: dict[int, Table] = {}
        """The tables this process owns and runs."""
        self.node = settings.node or socket.gethostname()
        self.ownership = Ownership(self.sessions, self.node, settings.lease_seconds)
        self.forwarder = Forwarder(self.pubsub, self.node, self._answer)
        self._owners: dict[int, str] = {}
        """Other nodes' tables, as last looked up (forgotten when they do not answer)."""
        self._claiming: set[int] = set()
        self._loops: list[asyncio.Task[None]] = []
        self.login_limit = auth.RateLimit(settings.login_attempts_per_minute)
        self.address_login_limit = auth.RateLimit(3 * settings.login_attempts_per_minute)
        self.register_limit = auth.RateLimit(settings.registrations_per_minute)
        self.guest_limit = auth.RateLimit(settings.guests_per_minute)
        self.new_table_limit = auth.RateLimit(settings.requests_per_minute)
        self._pairing = asyncio.Lock()
        """Held while "play with a person" looks for a request to join or opens one."""
        self.chat_limit = auth.RateLimit(settings.chat_per_minute)
        self.hasher = Hasher(settings.hash_queue)
        self.analyst = Analyst(self.sessions, self.node, settings)
        """The expert's judgement of finished games, one at a time (:mod:`analysis`)."""
        self.stalls = StallMeter()
        """How long this process's loop could not run: no clock is charged for it."""
        """Every password hash and check of this process, one at a time (:mod:`hashing`)."""
        self._closing: set[asyncio.Task[None]] = set()
        self.announcer = Announcer(
            self._tell_presence, settings.lease_seconds / 3, self._renew_presence
        )
        """This process's seat sockets, told to the tables' owners (presence)."""

    async def start(self) -> None:
        self._loops.append(asyncio.create_task(self.stalls.run(), name="stalls"))
        await migrate(self.engine)
        async with self.sessions() as session:
            club_id = await session.scalar(select(ClubState.text).where(ClubState.key == "club_id"))
        self.pubsub = Namespaced(self.pubsub, f"kozel:{club_id}:")
        self.forwarder.pubsub = self.pubsub
        await self.ownership.register()
        self.writer.start()
        self._loops.append(asyncio.create_task(self.forwarder.run(), name="forwarder"))
        # the lease is renewed while this node claims (claiming many tables takes a while)
        self._loops.append(asyncio.create_task(self._keep(), name="lease"))
        await self._claim_all()
        self._loops.append(asyncio.create_task(self._claim_gone(), name="claims"))
        self._loops.append(asyncio.create_task(self.announcer.run(), name="presence"))
        self.analyst.start()

    async def stop(self) -> None:
        await self.analyst.stop()
        for task in self._loops:
            task.cancel()
        await asyncio.gather(*self._loops, return_exceptions=True)
        await self.announcer.stop()
        for table in list(self.tables.values()):
            await table.stop()
        self.tables.clear()
        await self.writer.stop()
        try:
            await self.ownership.release()
        except Exception:
            log.warning("could not end this node's lease; other nodes wait for it to run out")
        await self.pubsub.close()
        await self.engine.dispose()
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

    async def _available(self) -> None:
        """Refuse a change (before saving anything) that could not reach the players."""
        if not await self.pubsub.ping():
            raise ClubError(
                503, "unavailable", "the club's message service is down: try again in a moment"
            )

    # --- owning tables -----------------------------------------------------------------------

    async def _keep(self) -> None:
        """Renew the lease for as long as the club runs. Without a renewed lease for a whole
        lease period, give up every table.

        Nothing else runs in this loop: were the renewal to wait for claims (a few hundred
        milliseconds each on a busy machine), a node taking over a dead node's tables would
        let its own lease run out, and the other nodes would take its tables in turn."""
        interval = self.settings.lease_seconds / 5
        renewed = time.monotonic()
        while True:
            await asyncio.sleep(interval * _jitter.uniform(0.8, 1.2))
            try:
                if await self.ownership.heartbeat():
                    renewed = time.monotonic()
                else:
                    log.error("another process took the node name %r: giving up", self.node)
                    await self._give_up()
                    await self.ownership.register()
                    renewed = time.monotonic()
            except asyncio.CancelledError:
                raise
            except Exception as error:
                log.warning("the lease could not be renewed: %s", error)
                if time.monotonic() - renewed > self.settings.lease_seconds and self.tables:
                    log.error(
                        "no lease for %.0f s: giving up every table", time.monotonic() - renewed
                    )
                    await self._give_up()

    async def _claim_gone(self) -> None:
        """Claim the tables of gone nodes, and drop those another node has claimed from this
        one, for as long as the club runs."""
        interval = self.settings.lease_seconds / 5
        while True:
            await asyncio.sleep(interval * _jitter.uniform(0.8, 1.2))
            try:
                await self._drop_taken()
                await self._claim_all()
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

    async def _give_up(self) -> None:
        for game_id in list(self.tables):
            table = self.tables.pop(game_id)
            table.status = "lost"
            await table.stop()

    async def _claim_all(self) -> None:
        """Claim this node's own unfinished tables and those of gone nodes."""
        candidates = await self.ownership.claimable()
        _jitter.shuffle(candidates)  # nodes that claim at once meet on different tables
        for candidate in candidates:
            if candidate.game_id not in self.tables:
                await self._claim(candidate)
        await self._resume_tournaments()

    async def _resume_tournaments(self) -> None:
        """Seat the next game of any tournament left without one: its last game ended but
        the tournament's step failed (the game's end was stored all the same)."""
        async with self.sessions() as session:
            stalled = list(
                await session.scalars(
                    select(TournamentRow.id).where(
                        TournamentRow.status == "playing",
                        ~select(Game.id)
                        .where(Game.tournament_id == TournamentRow.id, Game.status == "playing")
                        .exists(),
                    )
                )
            )
        for tournament_id in stalled:
            try:
                async with self.engine.begin() as connection:
                    await tourney.game_over(
                        connection, tournament_id, self.node, resume=True, seed=self.settings.seed
                    )
            except Exception:
                log.exception("tournament %s: seating its next game failed", tournament_id)
                continue
            await self._tournament_moved_on(tournament_id)

    async def _claim(self, candidate: Claimable) -> Table | None:
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
            events = await load_events(self.sessions, game_id)
            last_at = _aware(events[-1].at).timestamp() if events else None
            table = Table(
                row, self.writer, self.pubsub, self._finished, self._lost, self.settings.seed
            )
            table.bot_pace_ms = self.settings.bot_delay_ms
            table.server_time = self.stalls.total
            table.round_pause = self.settings.round_pause_seconds
            table.presence.grace = self.settings.presence_grace_seconds
            table.presence.link_seconds = self.settings.lease_seconds
            table.rematch_seconds = self.settings.rematch_seconds
            table.seed_seconds = self.settings.seed_seconds
            table.on_rematch = self._rematch_game
            if row.tournament_id is not None:
                table.on_tournament = self._tournament_game_over
            table.replay(events)
            self.tables[game_id] = table
            await table.start(last_at, self.settings.restart_grace_seconds)
            if seats := self.announcer.seats(game_id):  # this process's own sockets of it
                table.link(self.node, seats)
            return table
        finally:
            self._claiming.discard(game_id)

    def _lost(self, game_id: int) -> None:
        """Another node holds the table now (found when a write was refused)."""
        table = self.tables.pop(game_id, None)
        if table is not None:
            task = asyncio.create_task(table.stop())
            self._closing.add(task)
            task.add_done_callback(self._closing.discard)

    # --- reaching a table wherever it runs ---------------------------------------------------

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
            return await table.submit(seat, move, version)
        answer = await self._forward(
            game_id,
            {"op": "move", "game": game_id, "seat": seat, "move": move, "version": version},
        )
        return _reply(answer)

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

    async def _new_game(self, session: AsyncSession, **values: Any) -> Game:
        """A new live game's row, owned by this node: stored (so its id is known), given its
        server seed in a seeded club (``Settings.seed``, tests: derived from the club's seed
        and the game's id), and each person at it listed in ``game_players``."""
        row = Game(**{"status": "playing", "version": 0, "owner": self.node, "fence": 0, **values})
        session.add(row)
        await session.flush()
        if self.settings.seed is not None:
            row.server_seed = seeded_server_seed(self.settings.seed, row.id)
        people = tourney.people_of(row.seats)
        session.add_all(GamePlayer(game_id=row.id, user_id=user) for user in people)
        return row

    async def _rematch_game(self, table: Table) -> int:
        """Everyone at a finished table accepted a rematch: the same players and house rules
        at a new table, the seats moved one place on (kept in a game of pairs), rated when
        the finished game was and the new one may be. This node runs it."""
        options = table.rules.options_dict(table.opts)
        seats = rematch_seats(table.seats, table.opts.teams)
        rated = table.rated and not rated_problem(table.rules.id, options, seats)
        async with self.sessions() as session, session.begin():
            row = await self._new_game(
                session,
                game=table.rules.id,
                options=options,
                seats=seats,
                seconds_per_move=table.seconds_per_move,
                rated=rated,
            )
        await self._claim(Claimable(row.id, 0, self.node))
        return row.id

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
            answer = await self.forwarder.call(owner, request, self.settings.forward_timeout)
            for game_id in answer.get("missing", []) if answer else []:
                self._owners.pop(int(game_id), None)

        await asyncio.gather(*(renew(owner, seats) for owner, seats in by_owner.items()))
        unowned = [game_id for game_id in remote if game_id not in owners]
        if not unowned:
            return set()
        async with self.sessions() as session:
            over = await session.scalars(
                select(Game.id).where(Game.id.in_(unowned), Game.status != "playing")
            )
            return set(over)

    async def _forward(self, game_id: int, request: dict[str, Any]) -> dict[str, Any] | None:
        """The owner's answer to ``request``; ``None`` when it cannot be had now (no owner
        yet, no answer, or the database is away: the caller answers ``unavailable``)."""
        try:
            return await self._ask_owner(game_id, request)
        except asyncio.CancelledError:
            raise
        except Exception as error:  # the database is away (the pub/sub's failures are None)
            log.warning("game %s: the owner could not be looked up: %s", game_id, error)
            return None

    async def _ask_owner(self, game_id: int, request: dict[str, Any]) -> dict[str, Any] | None:
        owner = self._owners.get(game_id) or await self.ownership.owner_of(game_id)
        if owner is None:
            return {"error": "no_table"} if await self._over(game_id) else None
        if owner == self.node:  # ours, being claimed right now
            return None
        self._owners[game_id] = owner
        answer = await self.forwarder.call(owner, request, self.settings.forward_timeout)
        if answer is None or "error" in answer:
            self._owners.pop(game_id, None)
        if (
            answer is not None
            and answer.get("error") == "no_table"
            and not await self._over(game_id)
        ):
            # the node we asked does not run the table: not yet (restarted, still claiming)
            # or not any more (another took it over): the table is moving, it has not ended
            return None
        return answer

    async def _over(self, game_id: int) -> bool:
        async with self.sessions() as session:
            status = await session.scalar(select(Game.status).where(Game.id == game_id))
        return status != "playing"

    async def _answer(self, request: dict[str, Any]) -> dict[str, Any]:
        """Another node forwards a seat's command to a table of this node."""
        if request.get("op") == "presence_many" and isinstance(request.get("games"), dict):
            missing = []
            for game_id, seats in request["games"].items():
                running = self.tables.get(int(game_id)) if str(game_id).isdigit() else None
                if running is None or not isinstance(seats, list):
                    missing.append(game_id)
                else:
                    running.link(str(request.get("node")), seats)
            return {"ok": True, "missing": missing}
        table = self.tables.get(request.get("game", 0))
        if table is None:
            return {"error": "no_table"}
        seat = request.get("seat")
        if request.get("op") == "state":
            return {"state": table.state(seat if isinstance(seat, int) else None)}
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
            table.link(str(request.get("node")), request["seats"])
            return {"ok": True}
        if request.get("op") == "replace" and isinstance(seat, int):
            reply = await table.vote(seat, request.get("target"))
            return _reply_json(reply)
        return {"error": "bad_request"}

    # --- accounts ----------------------------------------------------------------------------

    async def register(self, name: str, password: str, client: str) -> tuple[User, str, str]:
        name = auth.normal_name(name)
        if problem := auth.name_problem(name):
            raise ClubError(422, "bad_name", problem)
        if problem := auth.password_problem(password):
            raise ClubError(
                422, "bad_password", problem, low=auth.MIN_PASSWORD, high=auth.MAX_PASSWORD
            )
        if not self.register_limit.take(client):
            raise ClubError(
                429, "too_many_accounts", "too many new accounts from your address: wait a minute"
            )
        try:
            self.hasher.admit()  # a burst is refused before the database is asked anything
        except Busy:
            self.register_limit.give_back(client)
            raise _busy() from None
        key = auth.name_key(name)
        look_alike = names.look_alike_keys(name)
        taken_message = f"the name {name!r} is taken, or looks like a taken name"
        async with self.sessions() as session:
            taken = await session.scalar(select(User.id).where(User.name_key == key))
            if taken is None:
                taken = await session.scalar(
                    select(NameKey.user_id).where(NameKey.key.in_(sorted(look_alike))).limit(1)
                )
        if taken is not None:
            raise ClubError(409, "name_taken", taken_message, name=name)
        # argon2 takes about half a second: in the process's one hashing thread, at the
        # lowest priority, never on the event loop that runs the tables
        try:
            password_hash = await self.hasher.hash(password)
        except Busy:
            self.register_limit.give_back(client)
            raise _busy() from None
        async with self.sessions() as session, session.begin():
            user = User(name=name, name_key=key, password_hash=password_hash, guest=False)
            session.add(user)
            try:
                await session.flush()
                # one account per look-alike key: of two look-alikes registered at once, the
                # second's keys are refused by the first's
                session.add_all(NameKey(key=k, user_id=user.id) for k in sorted(look_alike))
                await session.flush()
            except IntegrityError:
                raise ClubError(409, "name_taken", taken_message, name=name) from None
        return await self._open_session(user)

    async def login(self, name: str, password: str, client: str) -> tuple[User, str, str]:
        key = auth.name_key(name)
        limited = f"{client}|{key}"
        # count the attempt before checking it, so that concurrent attempts are all counted;
        # a successful one is given back
        if not self.login_limit.take(limited):
            raise ClubError(
                429, "too_many_logins", "too many failed attempts to log in: wait a minute"
            )
        if not self.address_login_limit.take(client):
            self.login_limit.give_back(limited)
            raise ClubError(
                429, "too_many_logins", "too many failed attempts to log in: wait a minute"
            )
        try:
            self.hasher.admit()
        except Busy:
            self.login_limit.give_back(limited)
            self.address_login_limit.give_back(client)
            raise _busy() from None
        async with self.sessions() as session:
            user = await session.scalar(select(User).where(User.name_key == key))
        stored = user.password_hash if user is not None else None
        try:
            matches = await self.hasher.check(stored, password)
        except Busy:
            self.login_limit.give_back(limited)
            self.address_login_limit.give_back(client)
            raise _busy() from None
        if user is None or not matches:
            raise ClubError(401, "wrong_password", "wrong name or password")
        self.login_limit.give_back(limited)
        self.address_login_limit.give_back(client)
        return await self._open_session(user)

    async def guest(self, client: str) -> tuple[User, str, str]:
        if not self.guest_limit.take(client):
            raise ClubError(
                429, "too_many_guests", "too many guests from your address: wait a minute"
            )
        async with self.sessions() as session, session.begin():
            for _ in range(20):
                name = auth.guest_name()
                if await session.scalar(select(User.id).where(User.name == name)) is None:
                    break
            user = User(name=name, name_key=auth.name_key(name), password_hash=None, guest=True)
            session.add(user)
        return await self._open_session(user)

    async def _open_session(self, user: User) -> tuple[User, str, str]:
        token, csrf = auth.new_token(), auth.new_token()
        expires = now() + auth.session_lifetime(self.settings.session_days)
        async with self.sessions() as session, session.begin():
            session.add(
                Session(
                    token_hash=auth.token_hash(token),
                    user_id=user.id,
                    csrf=csrf,
                    expires_at=expires,
                )
            )
        return user, token, csrf

    def is_admin(self, user: User) -> bool:
        """An administrator: granted in the database (``kozel admin grant``), or named by
        ``kozel serve --admin`` (which trusts whoever holds the name)."""
        return not user.guest and (user.admin or user.name in self.settings.admins)

    async def session_user(self, token: str | None) -> tuple[User, str] | None:
        """The user and CSRF token of a live session, or ``None``."""
        if not token or len(token) > 200:
            return None
        async with self.sessions() as session:
            found = await session.get(Session, auth.token_hash(token))
            if found is None or _aware(found.expires_at) < now():
                return None
            user = await session.get(User, found.user_id)
            return (user, found.csrf) if user is not None else None

    async def logout(self, token: str) -> None:
        async with self.sessions() as session, session.begin():
            found = await session.get(Session, auth.token_hash(token))
            if found is not None:
                await session.delete(found)

    # --- the lobby ---------------------------------------------------------------------------

    def _validate(
        self,
        game: str,
        options: dict[str, Any],
        seconds: int,
        bots: dict[int, str],
        rated: bool = False,
    ) -> tuple[dict[str, Any], int]:
        """The request's full options and its number of players; a rated request must seat
        people only and keep every option within its rated bounds."""
        try:
            rules = club_game(game)
            opts = rules.options(options)
        except InvalidOption as error:
            raise ClubError(422, error.code, str(error), **error.params) from None
        for level in bots.values():
            self._check_level(level)
        low, high = self.settings.min_seconds_per_move, self.settings.max_seconds_per_move
        if not low <= seconds <= high:
            raise ClubError(
                422, "seconds", f"seconds per move must be {low}..{high}", low=low, high=high
            )
        for seat in bots:
            if not 0 <= seat < opts.players:
                raise ClubError(422, "no_seat", f"seat {seat} is not at a table of {opts.players}")
        if rated and bots:
            raise ClubError(
                422, "rated_computers", f"{NOT_RATED_WITH_COMPUTERS}: send rated = false"
            )
        if rated and rules.unrated_reason:
            raise ClubError(422, "never_rated", f"{rules.unrated_reason}: send rated = false")
        if rated and (problem := rules.rated_problem(opts)):
            raise ClubError(
                422, "rated_bounds", f"{problem}: shorter games are not rated; send rated = false"
            )
        return rules.options_dict(opts), opts.players

    async def open_requests(self) -> list[dict[str, Any]]:
        async with self.sessions() as session:
            rows = await session.scalars(
                select(GameRequest)
                .where(GameRequest.status == "open", GameRequest.private.is_(False))
                .order_by(GameRequest.id)
            )
            return [request_json(r) for r in rows]

    async def lobby_snapshot(self) -> dict[str, Any]:
        """``{"type": "requests", "version": N, "requests": [...]}``: the open requests, oldest
        first, as they were after lobby change N.

        One statement reads both, so they agree under any isolation level: a change raises
        the version in its own transaction, so the list holds exactly changes 1..N."""
        async with self.sessions() as session:
            rows = (
                await session.execute(
                    select(ClubState.number, GameRequest)
                    .select_from(ClubState)
                    .outerjoin(
                        GameRequest,
                        (GameRequest.status == "open") & GameRequest.private.is_(False),
                    )
                    .where(ClubState.key == LOBBY_VERSION)
                    .order_by(GameRequest.id)
                )
            ).all()
        return {
            "type": "requests",
            "version": rows[0][0],
            "requests": [request_json(request) for _, request in rows if request is not None],
        }

    def _count_new_table(self, client: str) -> None:
        """Requests and tables are limited per client address (counted before anything is
        checked or saved, like log-ins)."""
        if not self.new_table_limit.take(client):
            raise ClubError(
                429, "too_many_requests", "too many new requests from your address: wait a minute"
            )

    async def create_request(
        self,
        user: User,
        game: str,
        options: dict[str, Any],
        seconds: int,
        rated: bool,
        bots: dict[int, str],
        *,
        client: str,
        private: bool = False,
        reserve: Sequence[tuple[int, str | None, bool]] = (),
    ) -> dict[str, Any]:
        """A request, ``user`` at seat 0; ``private``: joined by its link only; ``reserve``:
        seats kept for a player by name or for the link, ``(seat, name, link)``."""
        self._count_new_table(client)
        return await self._create_request(
            user, game, options, seconds, rated, bots, private=private, reserve=reserve
        )

    async def _create_request(
        self,
        user: User,
        game: str,
        options: dict[str, Any],
        seconds: int,
        rated: bool,
        bots: dict[int, str],
        field: int = 0,
        *,
        private: bool = False,
        reserve: Sequence[tuple[int, str | None, bool]] = (),
    ) -> dict[str, Any]:
        await self._available()
        if field:
            full_options, players = self._validate_tournament(field, seconds, bots, rated)
        else:
            full_options, players = self._validate(game, options, seconds, bots, rated)
        seats: list[Any] = [None] * players
        seats[0] = {"user": user.id, "name": user.name}
        for seat, level in bots.items():
            if seat == 0:
                raise ClubError(422, "no_seat", "seat 0 is yours")
            seats[seat] = {"bot": level}
        for seat, name, link in reserve:
            kept = await self._reservation(name, link)
            if kept is not None and kept.get("reserved") == user.name:
                raise ClubError(409, "already_seated", "you already sit at this request")
            seats[self._free_seat(seats, seat)] = kept
        async with self.sessions() as session, session.begin():
            await self._check_room(session, user)
            request = GameRequest(
                game=game,
                options=full_options,
                seconds_per_move=seconds,
                rated=rated,
                status="open",
                created_by=user.id,
                seats=seats,
                tournament=bool(field),
                private=private and not field,
                code=None if field else seating.new_code(),
            )
            session.add(request)
            await session.flush()
            if seating.full(seats):
                await self._start(session, request)
            version = await self._count_change(session, request)
        await self._lobby_changed(version, request)
        return request_json(request, code=True)

    @staticmethod
    def _free_seat(seats: list[Any], seat: int) -> int:
        """``seat``, checked to be one of the request's that nobody has taken (a seat the
        creator may keep for someone)."""
        if not 0 <= seat < len(seats):
            raise ClubError(422, "no_seat", f"seat {seat} is not at a table of {len(seats)}")
        if seating.taken(seats[seat]):
            raise ClubError(409, "seat_taken", f"seat {seat} is taken", seat=seat)
        return seat

    async def _reservation(self, name: str | None, link: bool) -> dict[str, Any] | None:
        """A kept seat's value; the player it is kept for must exist (his name as the club
        spells it is kept)."""
        if name is not None:
            async with self.sessions() as session:
                found = await session.scalar(
                    select(User.name).where(User.name_key == auth.name_key(name))
                )
            if found is None:
                raise ClubError(404, "no_player", f"there is no player {name!r}", name=name)
            name = found
        return seating.reservation(name, link)

    async def create_tournament(
        self,
        user: User,
        field: int,
        seconds: int,
        rated: bool,
        bots: dict[int, str],
        *,
        client: str,
    ) -> dict[str, Any]:
        """A request for a Bykovo micro-tournament of ``field`` players (4 to 7): people
        join it like a game request, computer players may fill its free seats, and it starts
        when full."""
        self._count_new_table(client)
        return await self._create_request(user, tourney.GAME, {}, seconds, rated, bots, field)

    def _validate_tournament(
        self, field: int, seconds: int, bots: dict[int, str], rated: bool
    ) -> tuple[dict[str, Any], int]:
        low, high = tourney.FIELD
        if not low <= field <= high:
            raise ClubError(
                422, "field", f"a micro-tournament has {low} to {high} players", low=low, high=high
            )
        rules = get_game(tourney.GAME)
        self._validate(tourney.GAME, {}, seconds, {}, False)
        for seat, level in bots.items():
            self._check_level(level)
            if not 0 <= seat < field:
                raise ClubError(422, "no_seat", f"seat {seat} is not at a table of {field}")
        if rated and bots:
            raise ClubError(
                422, "rated_computers", f"{NOT_RATED_WITH_COMPUTERS}: send rated = false"
            )
        return rules.options_dict(rules.options({})), field

    async def join(self, user: User, request_id: int, seat: int | None = None) -> dict[str, Any]:
        """Take a seat of a listed request: ``seat``, or the one kept for you, or the first
        free one. A private request is joined only by its link (:meth:`join_by_link`)."""
        return await self._join(user, seat, request_id=request_id)

    async def join_by_link(self, user: User, code: str, seat: int | None = None) -> dict[str, Any]:
        """Take a seat of the request whose link this is (private or not): also a seat kept
        for whoever holds the link."""
        return await self._join(user, seat, code=code)

    async def _join(
        self, user: User, seat: int | None, request_id: int = 0, code: str = ""
    ) -> dict[str, Any]:
        await self._available()
        async with self.sessions() as session, session.begin():
            await self._check_room(session, user)
            if code:
                request = await self._open_request(session, await self._by_code(session, code))
            else:
                request = await self._open_request(session, request_id)
                if request.private:
                    raise ClubError(404, "no_request", f"there is no request {request_id}")
            seats = list(request.seats)
            if any(s and s.get("user") == user.id for s in seats):
                raise ClubError(409, "already_seated", "you already sit at this request")
            chosen = seating.choose_seat(seats, user.name, seat, by_link=bool(code))
            seats[chosen] = {"user": user.id, "name": user.name}
            request.seats = seats
            if seating.full(seats):
                await self._start(session, request)
            version = await self._count_change(session, request)
        await self._lobby_changed(version, request)
        return request_json(request, code=True)

    @staticmethod
    async def _by_code(session: AsyncSession, code: str) -> int:
        found = await session.scalar(select(GameRequest.id).where(GameRequest.code == code))
        if found is None:
            raise ClubError(404, "no_invite", "no table has this link")
        return found

    async def invite(self, code: str) -> dict[str, Any]:
        """The request a link opens, whatever its status (the page of the link says who
        invites, to what, and who sits where; or that the table started or was cancelled)."""
        async with self.sessions() as session:
            request = await session.get(GameRequest, await self._by_code(session, code))
        assert request is not None
        return request_json(request, code=True)

    async def my_requests(self, user: User) -> list[dict[str, Any]]:
        """The open requests ``user`` sits at, private ones too, with their links."""
        async with self.sessions() as session:
            rows = await session.scalars(
                select(GameRequest).where(GameRequest.status == "open").order_by(GameRequest.id)
            )
            return [
                request_json(r, code=True)
                for r in rows
                if any(s and s.get("user") == user.id for s in r.seats)
            ]

    async def reserve(
        self, user: User, request_id: int, seat: int, name: str | None, link: bool
    ) -> dict[str, Any]:
        """The creator keeps a seat nobody has taken for a player (by name) or for whoever
        holds the link, or frees it again (neither)."""
        await self._available()
        value = await self._reservation(name, link)
        async with self.sessions() as session, session.begin():
            request = await self._open_request(session, request_id)
            if request.created_by != user.id:
                raise ClubError(403, "not_yours", "only who created a request can keep seats")
            if request.tournament:
                raise ClubError(422, "no_seat", "a tournament's seats are not kept for anyone")
            seats = list(request.seats)
            if value is not None and any(
                s and s.get("name") == value.get("reserved") for s in seats if seating.taken(s)
            ):
                raise ClubError(409, "already_seated", f"{name} already sits at this request")
            seats[self._free_seat(seats, seat)] = value
            request.seats = seats
            version = await self._count_change(session, request)
        await self._lobby_changed(version, request)
        return request_json(request, code=True)

    async def leave(self, user: User, request_id: int) -> dict[str, Any]:
        await self._available()
        async with self.sessions() as session, session.begin():
            request = await self._open_request(session, request_id)
            if request.created_by == user.id:
                raise ClubError(
                    409, "cancel_instead", "you created this request: cancel it instead"
                )
            seats = [None if s and s.get("user") == user.id else s for s in request.seats]
            if seats == request.seats:
                raise ClubError(409, "not_seated_here", "you do not sit at this request")
            request.seats = seats
            version = await self._count_change(session, request)
        await self._lobby_changed(version, request)
        return request_json(request)

    async def cancel(self, user: User, request_id: int) -> dict[str, Any]:
        await self._available()
        async with self.sessions() as session, session.begin():
            request = await self._open_request(session, request_id)
            if request.created_by != user.id:
                raise ClubError(403, "not_yours", "only who created a request can cancel it")
            request.status = "cancelled"
            version = await self._count_change(session, request)
        await self._lobby_changed(version, request)
        return request_json(request, code=True)

    @staticmethod
    def _check_level(level: str) -> None:
        """The club seats its named levels only (no custom think times)."""
        if level not in LEVELS:
            raise ClubError(422, "unknown_bot", f"unknown bot {level!r}; bots: {', '.join(LEVELS)}")

    async def _check_room(self, session: AsyncSession, user: User) -> None:
        """A player may keep only so many open requests and live tables: counted in the
        transaction that adds one, after it has locked the player's row (its first write), so
        that two of one player's requests, on any of the club's processes, are counted one
        after the other and the second sees the first (a count in a transaction of its own
        let 27 concurrent requests through a limit of 10). PostgreSQL holds the row's lock
        until the commit, and a later statement of a read-committed transaction sees what the
        holder committed; SQLite has one writer at a time from that first write on."""
        await session.execute(
            update(User)
            .where(User.id == user.id)
            .values(rating=User.rating)
            .execution_options(synchronize_session=False)
        )
        waiting = await session.scalar(
            select(func.count(GameRequest.id)).where(
                GameRequest.status == "open", GameRequest.created_by == user.id
            )
        )
        playing = await session.scalar(
            select(func.count(GamePlayer.game_id))
            .join(Game, Game.id == GamePlayer.game_id)
            .where(GamePlayer.user_id == user.id, Game.status == "playing")
        )
        if (waiting or 0) + (playing or 0) >= self.settings.tables_per_player:
            limit = self.settings.tables_per_player
            raise ClubError(
                429, "too_many_tables", f"you already have {limit} requests and tables", limit=limit
            )

    async def fill_with_bots(self, user: User, request_id: int, level: str) -> dict[str, Any]:
        """Computer players take the free seats and the game starts; a rated request becomes
        an unrated game (the reply's ``notice`` says so)."""
        await self._available()
        self._check_level(level)
        async with self.sessions() as session, session.begin():
            request = await self._open_request(session, request_id)
            if request.created_by != user.id:
                raise ClubError(
                    403, "not_yours", "only who created a request can seat computer players"
                )
            was_rated = request.rated
            request.seats = [s if seating.taken(s) else {"bot": level} for s in request.seats]
            await self._start(session, request)
            version = await self._count_change(session, request)
        await self._lobby_changed(version, request)
        if was_rated:
            notice = "computer players took the free seats, so the game is not rated"
            return {**request_json(request, code=True), "notice": notice}
        return request_json(request, code=True)

    async def play_computer(
        self,
        user: User,
        game: str,
        options: dict[str, Any],
        level: str,
        seconds: int,
        rated: bool,
        *,
        client: str,
    ) -> dict[str, Any]:
        """One click: a table with ``user`` at seat 0 and computer players at the others."""
        self._count_new_table(client)
        if rated:
            raise ClubError(
                422,
                "rated_computers",
                "games against the computer are not rated: send rated = false",
            )
        players = self._validate(game, options, seconds, {})[1]
        return await self._create_request(
            user, game, options, seconds, False, {s: level for s in range(1, players)}
        )

    async def play_person(
        self,
        user: User,
        game: str,
        options: dict[str, Any],
        seconds: int,
        rated: bool,
        *,
        client: str,
    ) -> dict[str, Any]:
        """Join whoever waits for the same game and options, or wait for someone; pressed
        again while waiting, the same request (never a second one)."""
        self._count_new_table(client)
        full_options, _ = self._validate(game, options, seconds, {}, rated)
        # one look-and-open at a time in this process: two people pressing together are
        # paired, not left waiting at two requests of the same wish
        async with self._pairing:
            async with self.sessions() as session:
                candidates = await session.scalars(
                    select(GameRequest)
                    .where(GameRequest.status == "open", GameRequest.game == game)
                    .order_by(GameRequest.id)
                )
                same = [
                    request
                    for request in candidates
                    if request.options == full_options
                    and request.seconds_per_move == seconds
                    and request.rated == rated
                    and seating.has_free_seat(request.seats)
                    and not request.tournament  # a lone game's wish, not a tournament's
                    and not request.private
                ]
            seated = [r.id for r in same if any(s and s.get("user") == user.id for s in r.seats)]
            if seated:
                return await self.request(seated[0], user)
            if same:
                return await self.join(user, same[0].id)
            return await self._create_request(user, game, options, seconds, rated, {})

    async def _open_request(self, session: AsyncSession, request_id: int) -> GameRequest:
        request: GameRequest | None = await session.get(
            GameRequest, request_id, with_for_update=True
        )
        if request is None:
            raise ClubError(404, "no_request", f"there is no request {request_id}")
        if request.status != "open":
            raise ClubError(
                409, f"request_{request.status}", f"request {request_id} is {request.status}"
            )
        return request

    async def _start(self, session: AsyncSession, request: GameRequest) -> None:
        """Every seat is taken: the request becomes a live table, rated only when the request
        is and every seat is a person's and the options are within their rated bounds."""
        if request.tournament:
            await self._start_tournament(session, request)
            return
        if request.rated and rated_problem(request.game, request.options, request.seats):
            request.rated = False
        row = await self._new_game(
            session,
            game=request.game,
            options=request.options,
            seats=request.seats,
            seconds_per_move=request.seconds_per_move,
            rated=request.rated,
        )
        request.status = "started"
        request.game_id = row.id

    async def _start_tournament(self, session: AsyncSession, request: GameRequest) -> None:
        """A full tournament request becomes a tournament and its first game (rated only
        between people: computer players make it unrated, as they do a game)."""
        rated = request.rated and all("user" in seat for seat in request.seats)
        entrants = tourney.entrants_of(request.seats)
        people = [e["user"] for e in entrants if "user" in e]
        ratings = {}
        if people:
            users = await session.execute(select(User.id, User.rating).where(User.id.in_(people)))
            ratings = {user: rating for user, rating in users}
        for entrant in entrants:
            if "user" in entrant:
                entrant["rating"] = ratings.get(entrant["user"], 0)
        row = TournamentRow(
            game=tourney.GAME,
            entrants=entrants,
            seconds_per_move=request.seconds_per_move,
            rated=rated,
            seed=tourney.new_seed(),
            status="playing",
        )
        session.add(row)
        await session.flush()
        if self.settings.seed is not None:  # a seeded club (tests): its lots too
            row.seed = seeded_number(self.settings.seed, "tournament", row.id)
        values = tourney.game_values(row, tourney.fresh(row).seating(), self.node)
        game = await self._new_game(session, **values)
        request.rated = rated
        request.status = "started"
        request.game_id = game.id
        request.tournament_id = row.id

    @staticmethod
    async def _next_lobby_version(session: AsyncSession) -> int:
        """Count a lobby change in its own transaction (last, after its other writes): the
        row stays locked until the commit, so versions follow the order of commits across
        every process of the club."""
        version: int = (
            await session.execute(
                update(ClubState)
                .where(ClubState.key == LOBBY_VERSION)
                .values(number=ClubState.number + 1)
                .returning(ClubState.number)
                .execution_options(synchronize_session=False)
            )
        ).scalar_one()
        return version

    async def _count_change(self, session: AsyncSession, request: GameRequest) -> int | None:
        """The lobby version of a change of a listed request (:meth:`_next_lobby_version`);
        ``None`` for a private one, of which the lobby hears nothing."""
        if request.private:
            return None
        return await self._next_lobby_version(session)

    async def _lobby_changed(self, version: int | None, request: GameRequest) -> None:
        """After the commit: the one changed request goes out, not the whole list, to the
        lobby (a listed request: ``version``) and to the page of its link. A request that has
        just started (every change needs it open) has its game claimed here, now that the game
        is committed: by this call only, never by another request's."""
        if request.status == "started" and request.game_id is not None:
            await self._claim(Claimable(request.game_id, 0, self.node))
        messages = []
        if version is not None:
            change = {"type": "lobby", "version": version, "request": request_json(request)}
            messages.append((LOBBY, json.dumps(change)))
        if request.code:
            invite = {"type": "invite", "request": request_json(request, code=True)}
            messages.append((seating.channel(request.code), json.dumps(invite)))
        try:
            await self.pubsub.publish_many(messages)
        except Exception:  # saved: watchers resync when they reconnect
            log.exception("publishing a lobby change failed")

    # --- chat ------------------------------------------------------------------------------

    async def say(self, user: User, room: str, text: object, channels: list[str]) -> None:
        """``user`` says ``text`` in ``room``: checked, stored, and sent on ``channels`` (the
        room's sockets in every process) as ``{"type": "chat", ...}``."""
        line = chat.clean(text)
        if line is None:
            raise ClubError(
                422,
                "chat_bad",
                f"a chat line is 1 to {chat.MAX_CHARS} characters",
                limit=chat.MAX_CHARS,
            )
        if not self.chat_limit.take(str(user.id)):
            raise ClubError(429, "chat_too_fast", "too many chat lines: wait a little")
        await self._available()
        async with self.sessions() as session, session.begin():
            row = ChatMessage(room=room, user_id=user.id, name=user.name, text=line, at=now())
            session.add(row)
        message = json.dumps({"type": "chat", **chat_json(row)})
        await self.pubsub.publish_many([(channel, message) for channel in channels])

    async def chat_history(self, room: str) -> list[dict[str, Any]]:
        """The room's last lines, oldest first."""
        async with self.sessions() as session:
            rows = await session.scalars(
                select(ChatMessage)
                .where(ChatMessage.room == room)
                .order_by(ChatMessage.id.desc())
                .limit(chat.HISTORY)
            )
            return [chat_json(row) for row in reversed(list(rows))]

    async def bot_game(
        self, game: str, options: dict[str, Any], levels: list[str], seconds: int
    ) -> Game:
        """A game of computer players only (for watching, testing and load), stored but not
        yet running: subscribe to its channels, then :meth:`open_table` it."""
        full_options, players = self._validate(game, options, seconds, {})
        try:  # any level the game knows, think-time budgets included (not offered over HTTP)
            for level in levels:
                club_game(game).make_bot(level)
        except InvalidOption as error:
            raise ClubError(422, error.code, str(error), **error.params) from None
        async with self.sessions() as session, session.begin():
            row = await self._new_game(
                session,
                game=game,
                options=full_options,
                seats=[{"bot": levels[s % len(levels)]} for s in range(players)],
                seconds_per_move=seconds,
                rated=False,
            )
        return row

    async def bot_tournament(self, levels: list[str], seconds: int) -> int:
        """A micro-tournament of computer players only (for watching, testing and load),
        started at once by this node: its id."""
        self._validate_tournament(len(levels), seconds, dict(enumerate(levels)), False)
        request = GameRequest(
            game=tourney.GAME,
            options={},
            seconds_per_move=seconds,
            rated=False,
            status="open",
            seats=[{"bot": level} for level in levels],
            tournament=True,
        )
        async with self.sessions() as session, session.begin():
            await self._start_tournament(session, request)
        assert request.game_id is not None and request.tournament_id is not None
        await self._claim(Claimable(request.game_id, 0, self.node))
        return request.tournament_id

    async def open_table(self, row: Game) -> Table:
        """Start a stored game that has no events yet (this node claims it)."""
        table = await self._claim(Claimable(row.id, row.fence, row.owner))
        if table is None:
            raise ClubError(409, "moved", f"game {row.id} is run by another node")
        return table

    def _finished(self, game_id: int) -> None:
        """A game ended: its table answers late-comers for a while, then leaves memory. A
        tournament's game: its next game (stored with the end of this one) starts here."""
        loop = asyncio.get_running_loop()
        loop.call_later(self.settings.finished_table_seconds, self._close_table, game_id)
        table = self.tables.get(game_id)
        if table is not None and table.tournament_id is not None:
            task = asyncio.create_task(self._tournament_moved_on(table.tournament_id))
            self._closing.add(task)
            task.add_done_callback(self._closing.discard)

    async def _tournament_game_over(
        self, connection: AsyncConnection, tournament_id: int
    ) -> int | None:
        return await tourney.game_over(
            connection, tournament_id, self.node, seed=self.settings.seed
        )

    async def _tournament_moved_on(self, tournament_id: int) -> None:
        """After a tournament's game ended: claim its next game (a failure here leaves it to
        the claiming loop, as after a restart) and tell the tournament's page."""
        try:
            async with self.sessions() as session:
                rows = await session.execute(
                    select(Game.id, Game.fence, Game.owner).where(
                        Game.tournament_id == tournament_id, Game.status == "playing"
                    )
                )
                live = [Claimable(*row) for row in rows]
            for candidate in live:
                if candidate.owner == self.node:
                    await self._claim(candidate)
        except Exception:
            log.exception("tournament %s: starting its next game failed", tournament_id)
        await self._publish_tournament(tournament_id)

    async def _publish_tournament(self, tournament_id: int) -> None:
        try:
            state = await self.tournament(tournament_id)
            await self.pubsub.publish(tourney.channel(tournament_id), json.dumps(state))
        except Exception:  # the page catches up when it reconnects
            log.exception("tournament %s: publishing its standings failed", tournament_id)

    async def tournament(self, tournament_id: int) -> dict[str, Any]:
        """A tournament's state for its page (:func:`tourney.state_json`)."""
        async with self.sessions() as session:
            row = await session.get(TournamentRow, tournament_id)
            if row is None:
                raise ClubError(404, "no_tournament", f"there is no tournament {tournament_id}")
            games = list(
                await session.scalars(
                    select(Game).where(Game.tournament_id == tournament_id).order_by(Game.id)
                )
            )
        return await asyncio.to_thread(tourney.state_json, row, games)

    async def tournament_record(self, tournament_id: int) -> dict[str, Any]:
        async with self.sessions() as session:
            row = await session.get(TournamentRow, tournament_id)
        if row is None:
            raise ClubError(404, "no_tournament", f"there is no tournament {tournament_id}")
        if row.record is None:
            raise ClubError(409, "not_over", f"tournament {tournament_id} is not over")
        return row.record

    def _close_table(self, game_id: int) -> None:
        table = self.tables.pop(game_id, None)
        if table is not None:
            task = asyncio.create_task(table.stop())
            self._closing.add(task)
            task.add_done_callback(self._closing.discard)

    # --- games, players ----------------------------------------------------------------------

    async def request(self, request_id: int, user: User | None = None) -> dict[str, Any]:
        """A request by its id: a private one only to those who sit at it (with its link)."""
        async with self.sessions() as session:
            row = await session.get(GameRequest, request_id)
        seated = (
            row is not None
            and user is not None
            and any(s and s.get("user") == user.id for s in row.seats)
        )
        if row is None or (row.private and not seated):
            raise ClubError(404, "no_request", f"there is no request {request_id}")
        return request_json(row, code=seated)

    async def game_row(self, game_id: int) -> Game:
        async with self.sessions() as session:
            row = await session.get(Game, game_id)
        if row is None:
            raise ClubError(404, "no_game", f"there is no game {game_id}")
        return row

    async def live_games(self, game: str | None = None) -> list[dict[str, Any]]:
        """The games being played, newest first (``game``: of that game only): who plays
        them with their ratings, the round and the score, for anyone to watch."""
        if game is not None:
            try:
                club_game(game)
            except InvalidOption as error:
                raise ClubError(422, error.code, str(error), **error.params) from None
        query = select(Game).where(Game.status == "playing")
        if game is not None:
            query = query.where(Game.game == game)
        async with self.sessions() as session:
            rows = list(await session.scalars(query.order_by(Game.id.desc()).limit(LIVE_GAMES)))
            return await self._live_json(session, rows)

    @staticmethod
    async def _live_json(session: AsyncSession, rows: list[Game]) -> list[dict[str, Any]]:
        people = {seat["user"] for row in rows for seat in row.seats if "user" in seat}
        ratings: dict[int, int] = {}
        if people:
            found = await session.execute(select(User.id, User.rating).where(User.id.in_(people)))
            ratings = {user: rating for user, rating in found}
        return [live_json(row, ratings) for row in rows]

    async def leaderboard(self, limit: int = 50) -> list[dict[str, Any]]:
        async with self.sessions() as session:
            users = await session.scalars(
                select(User).where(User.guest.is_(False)).order_by(User.rating.desc()).limit(limit)
            )
            return [{"name": u.name, "rating": u.rating} for u in users]

    async def player(self, name: str) -> dict[str, Any]:
        async with self.sessions() as session:
            user = await session.scalar(select(User).where(User.name_key == auth.name_key(name)))
            if user is None:
                raise ClubError(404, "no_player", f"there is no player {name!r}", name=name)
            changes = await session.scalars(
                select(RatingChange)
                .where(RatingChange.user_id == user.id)
                .order_by(RatingChange.id.desc())
                .limit(100)
            )
            rows = await session.scalars(
                select(Game)
                .join(GamePlayer, GamePlayer.game_id == Game.id)
                .where(GamePlayer.user_id == user.id)
                .order_by(Game.id.desc())
                .limit(RECENT_GAMES)
            )
            playing = list(
                await session.scalars(
                    select(Game)
                    .join(GamePlayer, GamePlayer.game_id == Game.id)
                    .where(GamePlayer.user_id == user.id, Game.status == "playing")
                    .order_by(Game.id.desc())
                )
            )
            now_playing = await self._live_json(session, playing)
            games = [
                {
                    "id": g.id,
                    "game": g.game,
                    "status": g.status,
                    "rated": g.rated,
                    "seats": [seat.get("name") or f"bot:{seat.get('bot')}" for seat in g.seats],
                    "tournament_id": g.tournament_id,
                    **names_json(g),
                    "started": g.created_at.isoformat(),
                }
                for g in rows
            ]
            return {
                "name": user.name,
                "rating": user.rating,
                "guest": user.guest,
                "playing": now_playing,
                "games": games,
                "history": [
                    {
                        "game": c.game_id,
                        "delta": c.delta,
                        "rating": c.rating,
                        "at": c.at.isoformat(),
                    }
                    for c in changes
                ],
            }


def _busy() -> ClubError:
    return ClubError(503, "busy", "the club is busy checking passwords: try again in a moment")


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


def rated_problem(game: str, options: dict[str, Any], seats: list[Any]) -> str:
    """Why a game of stored options and seats cannot be rated, or ``""``."""
    if any(seat and "bot" in seat for seat in seats):
        return NOT_RATED_WITH_COMPUTERS
    rules = club_game(game)
    return rules.rated_problem(rules.options(options))


def chat_json(row: ChatMessage) -> dict[str, Any]:
    return {
        "room": row.room,
        "id": row.id,
        "name": row.name,
        "text": row.text,
        "at": _aware(row.at).isoformat(),
    }


def request_json(request: GameRequest, code: bool = False) -> dict[str, Any]:
    """A request as clients see it; with ``code``, its link's code (for those who sit at it
    or hold the link already, never the lobby)."""
    out = {
        "id": request.id,
        "game": request.game,
        "options": request.options,
        "seconds_per_move": request.seconds_per_move,
        "rated": request.rated,
        "status": request.status,
        "seats": request.seats,
        "game_id": request.game_id,
        "tournament": request.tournament,
        "tournament_id": request.tournament_id,
        "private": request.private,
    }
    if code and request.code:
        out["code"] = request.code
    return out


def names_json(row: Game) -> dict[str, Any]:
    """How a client names the game's computer players (``names.js``): a tournament's game
    gives each seat's entrant (``null`` for a person's seat; beside ``tournament_id``), so
    that a computer player has one name on the tournament page, at its tables and in every
    list; a lone game gives nothing, its seats naming them."""
    if row.tournament_id is None:
        return {}
    return {"entrants": [seat.get("entrant") for seat in row.seats]}


def live_json(row: Game, ratings: dict[int, int]) -> dict[str, Any]:
    """A game being played as the lobby lists it: each seat a person with his rating or a
    computer player (with the person it replaced), the round and the score (per unit)."""
    players: list[dict[str, Any]] = []
    for seat in row.seats:
        if "user" in seat:
            players.append({"name": seat["name"], "rating": ratings.get(seat["user"], 0)})
        elif "replaced" in seat:
            players.append({"bot": seat["bot"], "replaced": seat["replaced"]["name"]})
        else:
            players.append({"bot": seat["bot"]})
    live = row.live or {}
    return {
        "id": row.id,
        "game": row.game,
        "options": row.options,
        "rated": row.rated,
        "seconds_per_move": row.seconds_per_move,
        "tournament_id": row.tournament_id,
        "players": players,
        **names_json(row),
        "round": live.get("round", 0),
        "score": live.get("score", []),
        "commitment": commitment(row.server_seed) if row.server_seed else None,
        "started": _aware(row.created_at).isoformat(),
    }


def game_json(row: Game) -> dict[str, Any]:
    return {
        "id": row.id,
        "game": row.game,
        "options": row.options,
        "seats": row.seats,
        "seconds_per_move": row.seconds_per_move,
        "rated": row.rated,
        "status": row.status,
        "version": row.version,
        "tournament_id": row.tournament_id,
    }

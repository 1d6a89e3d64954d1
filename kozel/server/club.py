"""The club's services: accounts, the lobby of game requests, starting and restoring tables.

The HTTP and WebSocket layer (:mod:`kozel.server.app`) only translates to and from these.
Every failure a user can cause raises :class:`ClubError` with a status and a clear message.
"""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from kozel.bots import LEVELS, check_level
from kozel.core import InvalidOption
from kozel.games import get_game
from kozel.server import auth
from kozel.server.db import (
    Game,
    GameRequest,
    RatingChange,
    Session,
    User,
    make_engine,
    migrate,
    now,
    sessionmaker,
)
from kozel.server.pubsub import make_pubsub
from kozel.server.settings import Settings
from kozel.server.tables import Table, load_events
from kozel.server.writer import Writer

LOBBY = "lobby"


RECENT_GAMES = 20
"""How many of a player's games the player page lists."""
RECENT_SCAN = 1000
NOT_RATED_WITH_COMPUTERS = "games with computer players are not rated"


class ClubError(Exception):
    """A refusal with an HTTP status and a message for the user."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def _aware(stamp: datetime) -> datetime:
    """SQLite hands back naive datetimes: they are UTC."""
    return stamp if stamp.tzinfo else stamp.replace(tzinfo=UTC)


class Club:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.engine = make_engine(settings.db_url)
        self.sessions = sessionmaker(self.engine)
        self.pubsub = make_pubsub(settings.pubsub_url)
        self.writer = Writer(self.engine)
        self.tables: dict[int, Table] = {}
        self.login_limit = auth.RateLimit(settings.login_attempts_per_minute)
        self.address_login_limit = auth.RateLimit(3 * settings.login_attempts_per_minute)
        self.register_limit = auth.RateLimit(settings.registrations_per_minute)
        self.guest_limit = auth.RateLimit(settings.guests_per_minute)
        self.new_table_limit = auth.RateLimit(settings.requests_per_minute)
        self._closing: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        await migrate(self.engine)
        self.writer.start()
        await self.restore()

    async def stop(self) -> None:
        for table in list(self.tables.values()):
            await table.stop()
        self.tables.clear()
        await self.writer.stop()
        await self.pubsub.close()
        await self.engine.dispose()

    # --- accounts ----------------------------------------------------------------------------

    async def register(self, name: str, password: str, client: str) -> tuple[User, str, str]:
        name = auth.normal_name(name)
        problem = auth.name_problem(name) or auth.password_problem(password)
        if problem:
            raise ClubError(422, problem)
        if not self.register_limit.take(client):
            raise ClubError(429, "too many new accounts from your address: wait a minute")
        key = auth.name_key(name)
        async with self.sessions() as session:
            taken = await session.scalar(select(User.id).where(User.name_key == key))
        if taken is not None:
            raise ClubError(409, f"the name {name!r} is taken")
        # argon2 takes about half a second: never on the event loop that runs the tables
        password_hash = await asyncio.to_thread(auth.hash_password, password)
        async with self.sessions() as session, session.begin():
            user = User(name=name, name_key=key, password_hash=password_hash, guest=False)
            session.add(user)
            try:
                await session.flush()
            except IntegrityError:
                raise ClubError(409, f"the name {name!r} is taken") from None
        return await self._open_session(user)

    async def login(self, name: str, password: str, client: str) -> tuple[User, str, str]:
        key = auth.name_key(name)
        limited = f"{client}|{key}"
        # count the attempt before checking it, so that concurrent attempts are all counted;
        # a successful one is given back
        if not self.login_limit.take(limited):
            raise ClubError(429, "too many failed attempts to log in: wait a minute")
        if not self.address_login_limit.take(client):
            self.login_limit.give_back(limited)
            raise ClubError(429, "too many failed attempts to log in: wait a minute")
        async with self.sessions() as session:
            user = await session.scalar(select(User).where(User.name_key == key))
        stored = user.password_hash if user is not None else None
        if user is None or not await asyncio.to_thread(auth.check_password, stored, password):
            raise ClubError(401, "wrong name or password")
        self.login_limit.give_back(limited)
        self.address_login_limit.give_back(client)
        return await self._open_session(user)

    async def guest(self, client: str) -> tuple[User, str, str]:
        if not self.guest_limit.take(client):
            raise ClubError(429, "too many guests from your address: wait a minute")
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
            rules = get_game(game)
            opts = rules.options(options)
        except InvalidOption as error:
            raise ClubError(422, str(error)) from None
        for level in bots.values():
            self._check_level(level)
        low, high = self.settings.min_seconds_per_move, self.settings.max_seconds_per_move
        if not low <= seconds <= high:
            raise ClubError(422, f"seconds per move must be {low}..{high}")
        for seat in bots:
            if not 0 <= seat < opts.players:
                raise ClubError(422, f"seat {seat} is not at a table of {opts.players}")
        if rated and bots:
            raise ClubError(422, f"{NOT_RATED_WITH_COMPUTERS}: send rated = false")
        if rated and (problem := rules.rated_problem(opts)):
            raise ClubError(422, f"{problem}: shorter games are not rated; send rated = false")
        return rules.options_dict(opts), opts.players

    async def open_requests(self) -> list[dict[str, Any]]:
        async with self.sessions() as session:
            rows = await session.scalars(
                select(GameRequest).where(GameRequest.status == "open").order_by(GameRequest.id)
            )
            return [request_json(r) for r in rows]

    def _count_new_table(self, client: str) -> None:
        """Requests and tables are limited per client address (counted before anything is
        checked or saved, like log-ins)."""
        if not self.new_table_limit.take(client):
            raise ClubError(429, "too many new requests from your address: wait a minute")

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
    ) -> dict[str, Any]:
        self._count_new_table(client)
        return await self._create_request(user, game, options, seconds, rated, bots)

    async def _create_request(
        self,
        user: User,
        game: str,
        options: dict[str, Any],
        seconds: int,
        rated: bool,
        bots: dict[int, str],
    ) -> dict[str, Any]:
        full_options, players = self._validate(game, options, seconds, bots, rated)
        await self._check_room(user)
        seats: list[Any] = [None] * players
        seats[0] = {"user": user.id, "name": user.name}
        for seat, level in bots.items():
            if seat == 0:
                raise ClubError(422, "seat 0 is yours")
            seats[seat] = {"bot": level}
        async with self.sessions() as session, session.begin():
            request = GameRequest(
                game=game,
                options=full_options,
                seconds_per_move=seconds,
                rated=rated,
                status="open",
                created_by=user.id,
                seats=seats,
            )
            session.add(request)
            await session.flush()
            if all(seats):
                await self._start(session, request)
        await self._lobby_changed()
        return request_json(request)

    async def join(self, user: User, request_id: int) -> dict[str, Any]:
        await self._check_room(user)
        async with self.sessions() as session, session.begin():
            request = await self._open_request(session, request_id)
            seats = list(request.seats)
            if any(s and s.get("user") == user.id for s in seats):
                raise ClubError(409, "you already sit at this request")
            if None not in seats:
                raise ClubError(409, "this request is full")
            seats[seats.index(None)] = {"user": user.id, "name": user.name}
            request.seats = seats
            if all(seats):
                await self._start(session, request)
        await self._lobby_changed()
        return request_json(request)

    async def leave(self, user: User, request_id: int) -> dict[str, Any]:
        async with self.sessions() as session, session.begin():
            request = await self._open_request(session, request_id)
            if request.created_by == user.id:
                raise ClubError(409, "you created this request: cancel it instead")
            seats = [None if s and s.get("user") == user.id else s for s in request.seats]
            if seats == request.seats:
                raise ClubError(409, "you do not sit at this request")
            request.seats = seats
        await self._lobby_changed()
        return request_json(request)

    async def cancel(self, user: User, request_id: int) -> dict[str, Any]:
        async with self.sessions() as session, session.begin():
            request = await self._open_request(session, request_id)
            if request.created_by != user.id:
                raise ClubError(403, "only who created a request can cancel it")
            request.status = "cancelled"
        await self._lobby_changed()
        return request_json(request)

    @staticmethod
    def _check_level(level: str) -> None:
        """The club seats its named levels only (no custom think times)."""
        if level not in LEVELS:
            raise ClubError(422, f"unknown bot {level!r}; bots: {', '.join(LEVELS)}")

    async def _check_room(self, user: User) -> None:
        """A player may keep only so many open requests and live tables."""
        async with self.sessions() as session:
            waiting = await session.scalar(
                select(func.count(GameRequest.id)).where(
                    GameRequest.status == "open", GameRequest.created_by == user.id
                )
            )
        playing = sum(
            1
            for table in self.tables.values()
            if table.status == "playing" and table.seat_of(user.id) is not None
        )
        if (waiting or 0) + playing >= self.settings.tables_per_player:
            raise ClubError(
                429, f"you already have {self.settings.tables_per_player} requests and tables"
            )

    async def fill_with_bots(self, user: User, request_id: int, level: str) -> dict[str, Any]:
        """Computer players take the free seats and the game starts; a rated request becomes
        an unrated game (the reply's ``notice`` says so)."""
        self._check_level(level)
        async with self.sessions() as session, session.begin():
            request = await self._open_request(session, request_id)
            if request.created_by != user.id:
                raise ClubError(403, "only who created a request can seat computer players")
            was_rated = request.rated
            request.seats = [s or {"bot": level} for s in request.seats]
            await self._start(session, request)
        await self._lobby_changed()
        if was_rated:
            notice = "computer players took the free seats, so the game is not rated"
            return {**request_json(request), "notice": notice}
        return request_json(request)

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
            raise ClubError(422, "games against the computer are not rated: send rated = false")
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
        """Join whoever waits for the same game and options, or wait for someone."""
        self._count_new_table(client)
        full_options, _ = self._validate(game, options, seconds, {}, rated)
        async with self.sessions() as session:
            candidates = await session.scalars(
                select(GameRequest)
                .where(GameRequest.status == "open", GameRequest.game == game)
                .order_by(GameRequest.id)
            )
            waiting = [
                request.id
                for request in candidates
                if request.options == full_options
                and request.seconds_per_move == seconds
                and request.rated == rated
                and None in request.seats
                and not any(s and s.get("user") == user.id for s in request.seats)
            ]
        if waiting:
            return await self.join(user, waiting[0])
        return await self._create_request(user, game, options, seconds, rated, {})

    async def _open_request(self, session: AsyncSession, request_id: int) -> GameRequest:
        request: GameRequest | None = await session.get(
            GameRequest, request_id, with_for_update=True
        )
        if request is None:
            raise ClubError(404, f"there is no request {request_id}")
        if request.status != "open":
            raise ClubError(409, f"request {request_id} is {request.status}")
        return request

    async def _start(self, session: AsyncSession, request: GameRequest) -> None:
        """Every seat is taken: the request becomes a live table, rated only when the request
        is and every seat is a person's and the options are within their rated bounds."""
        if request.rated and rated_problem(request.game, request.options, request.seats):
            request.rated = False
        row = Game(
            game=request.game,
            options=request.options,
            seats=request.seats,
            seconds_per_move=request.seconds_per_move,
            rated=request.rated,
            status="playing",
            version=0,
        )
        session.add(row)
        await session.flush()
        request.status = "started"
        request.game_id = row.id

    async def _lobby_changed(self) -> None:
        await self._start_pending()
        await self.pubsub.publish(
            LOBBY, json.dumps({"type": "requests", "requests": await self.open_requests()})
        )

    async def bot_game(
        self, game: str, options: dict[str, Any], levels: list[str], seconds: int
    ) -> Game:
        """A game of computer players only (for watching, testing and load), stored but not
        yet running: subscribe to its channels, then :meth:`open_table` it."""
        full_options, players = self._validate(game, options, seconds, {})
        try:  # any level the engine knows, think-time budgets included (not offered over HTTP)
            for level in levels:
                check_level(level)
        except InvalidOption as error:
            raise ClubError(422, str(error)) from None
        async with self.sessions() as session, session.begin():
            row = Game(
                game=game,
                options=full_options,
                seats=[{"bot": levels[s % len(levels)]} for s in range(players)],
                seconds_per_move=seconds,
                rated=False,
                status="playing",
                version=0,
            )
            session.add(row)
        return row

    async def open_table(self, row: Game) -> Table:
        """Start a stored game that has no events yet."""
        return await self._open_table(row, [], None)

    async def _start_pending(self) -> None:
        """Start the tables of games created but not yet running (after their commit)."""
        async with self.sessions() as session:
            rows = await session.scalars(
                select(Game).where(Game.status == "playing", Game.version == 0)
            )
            for row in rows:
                if row.id not in self.tables:
                    await self.open_table(row)

    async def _open_table(self, row: Game, events: list[Any], last_at: float | None) -> Table:
        table = Table(row, self.writer, self.pubsub, self._finished)
        self.tables[row.id] = table
        table.replay(events)
        await table.start(last_at, self.settings.restart_grace_seconds)
        return table

    def _finished(self, game_id: int) -> None:
        """A game ended: its table answers late-comers for a while, then leaves memory."""
        loop = asyncio.get_running_loop()
        loop.call_later(self.settings.finished_table_seconds, self._close_table, game_id)

    def _close_table(self, game_id: int) -> None:
        table = self.tables.pop(game_id, None)
        if table is not None:
            task = asyncio.create_task(table.stop())
            self._closing.add(task)
            task.add_done_callback(self._closing.discard)

    async def restore(self) -> None:
        """Rebuild every unfinished table from its stored events (after a restart)."""
        async with self.sessions() as session:
            rows = list(await session.scalars(select(Game).where(Game.status == "playing")))
        for row in rows:
            events = await load_events(self.sessions, row.id)
            last_at = _aware(events[-1].at).timestamp() if events else None
            await self._open_table(row, events, last_at)

    # --- games, players ----------------------------------------------------------------------

    async def request(self, request_id: int) -> dict[str, Any]:
        async with self.sessions() as session:
            row = await session.get(GameRequest, request_id)
        if row is None:
            raise ClubError(404, f"there is no request {request_id}")
        return request_json(row)

    async def game_row(self, game_id: int) -> Game:
        async with self.sessions() as session:
            row = await session.get(Game, game_id)
        if row is None:
            raise ClubError(404, f"there is no game {game_id}")
        return row

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
                raise ClubError(404, f"there is no player {name!r}")
            changes = await session.scalars(
                select(RatingChange)
                .where(RatingChange.user_id == user.id)
                .order_by(RatingChange.id.desc())
                .limit(100)
            )
            # the newest games first; the seats are JSON, so the filter runs here, over the
            # club's last RECENT_SCAN games
            rows = await session.scalars(select(Game).order_by(Game.id.desc()).limit(RECENT_SCAN))
            games = [
                {
                    "id": g.id,
                    "game": g.game,
                    "status": g.status,
                    "rated": g.rated,
                    "seats": [seat.get("name") or f"bot:{seat.get('bot')}" for seat in g.seats],
                    "started": g.created_at.isoformat(),
                }
                for g in rows
                if any(seat.get("user") == user.id for seat in g.seats)
            ][:RECENT_GAMES]
            return {
                "name": user.name,
                "rating": user.rating,
                "guest": user.guest,
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


def rated_problem(game: str, options: dict[str, Any], seats: list[Any]) -> str:
    """Why a game of stored options and seats cannot be rated, or ``""``."""
    if any(seat and "bot" in seat for seat in seats):
        return NOT_RATED_WITH_COMPUTERS
    rules = get_game(game)
    return rules.rated_problem(rules.options(options))


def request_json(request: GameRequest) -> dict[str, Any]:
    return {
        "id": request.id,
        "game": request.game,
        "options": request.options,
        "seconds_per_move": request.seconds_per_move,
        "rated": request.rated,
        "status": request.status,
        "seats": request.seats,
        "game_id": request.game_id,
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
    }

"""The lobby: game requests (a table waiting for its players), their seats and links, and
the live game each becomes when its last seat is taken.

Every change of a listed request counts a lobby version (shared by every process of the
club, in the ``club_state`` table) and goes out on :data:`LOBBY` after its commit; a
request's link page hears of it on its own channel."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Sequence
from typing import Any

from sqlalchemy import bindparam, func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from kozel.server import auth, seating, series
from kozel.server.db import ClubState, Game, GamePlayer, GameRequest, User
from kozel.server.errors import ClubError

from .checks import check_level, rated_problem, validate, validate_tournament
from .claims import Claims
from .new_games import NewGames
from .services import Services
from .tournaments import Tournaments

LOBBY = "lobby"
"""The channel of lobby changes: ``{"type": "lobby", "version": N, "request": {...}}``."""
LOBBY_VERSION = "lobby_version"
"""The ``club_state`` row that counts lobby changes, shared by every process of the club."""
log = logging.getLogger("kozel.club")


# The room check's statements (:meth:`Lobby._check_room`), built once: building them cost
# 0.4 ms of CPU a request and join, and left 44 objects in cycles for the garbage collector
_WAITING = (
    select(func.count(GameRequest.id))
    .where(GameRequest.status == "open", GameRequest.created_by == bindparam("user"))
    .scalar_subquery()
)
_PLAYING = (
    select(func.count(GamePlayer.game_id))
    .join(Game, Game.id == GamePlayer.game_id)
    .where(GamePlayer.user_id == bindparam("user"), Game.status == "playing")
    .scalar_subquery()
)
_LOCK = (
    update(User)
    .where(User.id == bindparam("user"))
    .values(rating=User.rating)
    .execution_options(synchronize_session=False)
)
_LOCK_COUNTING = _LOCK.returning(_WAITING + _PLAYING)
_COUNT = select(_WAITING + _PLAYING)
_NEXT_VERSION = (
    update(ClubState)
    .where(ClubState.key == LOBBY_VERSION)
    .values(number=ClubState.number + 1)
    .returning(ClubState.number)
    .execution_options(synchronize_session=False)
)
"""Counts a lobby change (:meth:`Lobby._next_lobby_version`), built once as well."""


class Lobby:
    """Game requests: made, joined, left, kept seats, filled with computer players,
    cancelled; a full one starts its game (or tournament), which this node claims."""

    def __init__(
        self, services: Services, claims: Claims, new_games: NewGames, tournaments: Tournaments
    ) -> None:
        self.services = services
        self.sessions = services.sessions
        self.claims = claims
        self.new_games = new_games
        self.tournaments = tournaments
        self.new_table_limit = auth.RateLimit(services.settings.requests_per_minute)
        self._pairing = asyncio.Lock()
        """Held while "play with a person" looks for a request to join or opens one."""

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

    async def open_requests(self) -> list[dict[str, Any]]:
        async with self.sessions() as session:
            rows = await session.scalars(
                select(GameRequest)
                .where(GameRequest.status == "open", GameRequest.private.is_(False))
                .order_by(GameRequest.id)
            )
            return [request_json(r) for r in rows]

    async def snapshot(self) -> dict[str, Any]:
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
        await self.services.available()
        if field:
            full_options, players = validate_tournament(
                self.services.settings, field, seconds, bots, rated
            )
        else:
            full_options, players = validate(
                self.services.settings, game, options, seconds, bots, rated
            )
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
            started = await self._start(session, request) if seating.full(seats) else None
            version = await self._count_change(session, request)
        await self._lobby_changed(version, request, started)
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
        return await self._create_request(user, series.GAME, {}, seconds, rated, bots, field)

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
        await self.services.available()
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
            started = await self._start(session, request) if seating.full(seats) else None
            version = await self._count_change(session, request)
        await self._lobby_changed(version, request, started)
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
        await self.services.available()
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
        await self.services.available()
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
        await self.services.available()
        async with self.sessions() as session, session.begin():
            request = await self._open_request(session, request_id)
            if request.created_by != user.id:
                raise ClubError(403, "not_yours", "only who created a request can cancel it")
            request.status = "cancelled"
            version = await self._count_change(session, request)
        await self._lobby_changed(version, request)
        return request_json(request, code=True)

    async def _check_room(self, session: AsyncSession, user: User) -> None:
        """A player may keep only so many open requests and live tables: counted in the
        transaction that adds one, after it has locked the player's row (its first write), so
        that two of one player's requests, on any of the club's processes, are counted one
        after the other and the second sees the first (a count in a transaction of its own
        let 27 concurrent requests through a limit of 10). PostgreSQL holds the row's lock
        until the commit, and a later statement of a read-committed transaction sees what the
        holder committed; SQLite has one writer at a time from that first write on, so there
        the counts come back with that write (``RETURNING``): a trip less while the
        transaction holds SQLite's one writing connection (PostgreSQL would count them as
        they were when the statement began, before it waited for the lock)."""
        user_id = {"user": user.id}
        if session.bind is not None and session.bind.dialect.name == "sqlite":
            taken = await session.scalar(_LOCK_COUNTING, user_id)
        else:
            await session.execute(_LOCK, user_id)
            taken = await session.scalar(_COUNT, user_id)  # both counts at once
        if (taken or 0) >= self.services.settings.tables_per_player:
            limit = self.services.settings.tables_per_player
            raise ClubError(
                429, "too_many_tables", f"you already have {limit} requests and tables", limit=limit
            )

    async def fill_with_bots(self, user: User, request_id: int, level: str) -> dict[str, Any]:
        """Computer players take the free seats and the game starts; a rated request becomes
        an unrated game (the reply's ``notice`` says so)."""
        await self.services.available()
        check_level(level)
        async with self.sessions() as session, session.begin():
            request = await self._open_request(session, request_id)
            if request.created_by != user.id:
                raise ClubError(
                    403, "not_yours", "only who created a request can seat computer players"
                )
            was_rated = request.rated
            request.seats = [s if seating.taken(s) else {"bot": level} for s in request.seats]
            started = await self._start(session, request)
            version = await self._count_change(session, request)
        await self._lobby_changed(version, request, started)
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
        players = validate(self.services.settings, game, options, seconds, {})[1]
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
        full_options, _ = validate(self.services.settings, game, options, seconds, {}, rated)
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

    async def _start(self, session: AsyncSession, request: GameRequest) -> Game:
        """Every seat is taken: the request becomes a live table, rated only when the request
        is and every seat is a person's and the options are within their rated bounds. Its
        game's row (a tournament's first game), to run once committed."""
        if request.tournament:
            return await self.tournaments.start(session, request)
        if request.rated and rated_problem(request.game, request.options, request.seats):
            request.rated = False
        row = await self.new_games.new_game(
            session,
            game=request.game,
            options=request.options,
            seats=request.seats,
            seconds_per_move=request.seconds_per_move,
            rated=request.rated,
        )
        request.status = "started"
        request.game_id = row.id
        return row

    @staticmethod
    async def _next_lobby_version(session: AsyncSession) -> int:
        """Count a lobby change in its own transaction (last, after its other writes): the
        row stays locked until the commit, so versions follow the order of commits across
        every process of the club."""
        version: int = (await session.execute(_NEXT_VERSION)).scalar_one()
        return version

    async def _count_change(self, session: AsyncSession, request: GameRequest) -> int | None:
        """The lobby version of a change of a listed request (:meth:`_next_lobby_version`);
        ``None`` for a private one, of which the lobby hears nothing."""
        if request.private:
            return None
        return await self._next_lobby_version(session)

    async def _lobby_changed(
        self, version: int | None, request: GameRequest, started: Game | None = None
    ) -> None:
        """After the commit: the one changed request goes out, not the whole list, to the
        lobby (a listed request: ``version``) and to the page of its link. A request that has
        just started runs its game (``started``) here, now that the game is committed."""
        if started is not None:
            await self.claims.claim_new(started)
        messages = []
        if version is not None:
            change = {"type": "lobby", "version": version, "request": request_json(request)}
            messages.append((LOBBY, json.dumps(change)))
        if request.code:
            invite = {"type": "invite", "request": request_json(request, code=True)}
            messages.append((seating.channel(request.code), json.dumps(invite)))
        try:
            await self.services.pubsub.publish_many(messages)
        except Exception:  # saved: watchers resync when they reconnect
            log.exception("publishing a lobby change failed")


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

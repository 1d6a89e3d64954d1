"""HTTP and WebSocket: the club's public interface (FastAPI on uvicorn).

Every failure a client can cause is answered with a clear message (JSON ``{"detail": ...}``
over HTTP, ``{"type": "error", "code", "message"}`` over a WebSocket) and changes nothing.
The protocol is documented in docs/protocol.md.
"""

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Annotated, Any

from fastapi import Body as BodyParam
from fastapi import Cookie, Depends, FastAPI, Header, Query, Request, Response, WebSocket
from fastapi import Path as PathParam
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field, StrictBool, StrictInt, StrictStr, model_validator
from pydantic_core import PydanticCustomError
from sqlalchemy.exc import DBAPIError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.responses import Response as StarletteResponse
from starlette.websockets import WebSocketDisconnect

from kozel import patch
from kozel.server import auth, seating, tourney
from kozel.server.chat import LOBBY_ROOM, game_room
from kozel.server.club import LOBBY, Club, game_json
from kozel.server.db import User
from kozel.server.errors import ClubError
from kozel.server.limits import QuietSockets, SameOriginSockets, SocketsPerAddress
from kozel.server.offer import CLUB_GAMES
from kozel.server.review import game_info, positions
from kozel.server.settings import Settings
from kozel.server.tables import dumps, seat_channel
from kozel.server.text import BAD_TEXT, has_lone_surrogate, may_hold_surrogate, printable
from kozel.server.text import MESSAGE as BAD_TEXT_MESSAGE
from kozel.verify import verify

CHANGING_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
LOGGED_OUT = 4401
"""The close code of a table socket whose session logged out."""
LOGOUTS = "logouts"
"""The channel on which a log-out reaches every process's sockets of that session."""
TRY_AGAIN = 1013
"""The close code when a service the socket needs is away: reconnect in a moment."""
UNAVAILABLE = "the club's database is unavailable: try again in a moment"

log = logging.getLogger("kozel.app")
WEB = Path(__file__).resolve().parent.parent / "web"
"""The browser client: static ES modules, no build step (kozel/web)."""
PAGE_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self'; "
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
    "Cache-Control": "no-cache",
}

OptionValue = StrictBool | StrictInt | StrictStr
"""An option's JSON value with its exact type: ``4.0`` is not ``4`` and ``"true"`` is not
``true`` (the option's own check then says what it must be)."""
Id = Annotated[int, PathParam(ge=1, le=2**31 - 1, description="a positive id")]
Code = Annotated[str, PathParam(max_length=32, pattern="^[A-Za-z0-9_-]+$", description="a link")]


class ErrorOut(BaseModel):
    """Every refusal: the case as a code with its parameters (clients word it in the
    player's language; docs/protocol.md lists the codes), and in English words."""

    detail: str
    code: str
    params: dict[str, str | int]


ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorOut, "description": text}
    for code, text in [
        (401, "not logged in"),
        (403, "not allowed, or the CSRF header is missing"),
        (404, "no such thing"),
        (409, "not possible in this state"),
        (422, "invalid input"),
        (429, "too many attempts"),
    ]
}


class Body(BaseModel):
    """A JSON body: well-formed Unicode in every key and value (:mod:`kozel.server.text`)."""

    @model_validator(mode="before")
    @classmethod
    def _well_formed(cls, data: Any) -> Any:
        if has_lone_surrogate(data):
            raise PydanticCustomError(BAD_TEXT, BAD_TEXT_MESSAGE)
        return data


class Credentials(Body):
    name: str = Field(max_length=64)
    password: str = Field(max_length=auth.MAX_PASSWORD)


class ReserveIn(Body):
    seat: StrictInt
    name: str | None = Field(default=None, max_length=64)
    """Keep the seat for this player."""
    link: StrictBool = False
    """Keep the seat for whoever holds the request's link. Neither: the seat is free again."""


class RequestIn(Body):
    game: str = Field(max_length=20)
    options: dict[str, OptionValue] = Field(default_factory=dict, max_length=20)
    seconds_per_move: StrictInt = 60
    rated: StrictBool = True
    bots: dict[int, str] = Field(default_factory=dict, max_length=4)
    """Seats to give computer players at once, e.g. ``{"1": "amateur"}``."""
    private: StrictBool = False
    """Not listed in the lobby: joined by its link only."""
    reserve: list[ReserveIn] = Field(default_factory=list, max_length=4)
    """Seats kept for a player or for whoever holds the link."""


class JoinIn(Body):
    seat: StrictInt | None = None
    """The seat you want (in team play seats 0 and 2 are partners, 1 and 3); none: the seat
    kept for you, else the first free one."""


class ComputerIn(Body):
    game: str = Field(max_length=20)
    options: dict[str, OptionValue] = Field(default_factory=dict, max_length=20)
    level: str = Field(default="amateur", max_length=20)
    seconds_per_move: StrictInt = 60
    rated: StrictBool = False


class PersonIn(Body):
    game: str = Field(max_length=20)
    options: dict[str, OptionValue] = Field(default_factory=dict, max_length=20)
    seconds_per_move: StrictInt = 60
    rated: StrictBool = True


class TournamentIn(Body):
    players: StrictInt = 4
    """The field: 4 to 7 seats."""
    seconds_per_move: StrictInt = 60
    rated: StrictBool = True
    bots: dict[int, str] = Field(default_factory=dict, max_length=7)


class BotsIn(Body):
    level: str = Field(default="amateur", max_length=20)


def create_app(settings: Settings | None = None) -> FastAPI:
    club = Club(settings or Settings())

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        await club.start()
        listener = asyncio.create_task(hear_logouts(), name="logouts")
        try:
            yield
        finally:
            listener.cancel()
            await asyncio.gather(listener, return_exceptions=True)
            await club.stop()

    app = FastAPI(
        title="Kozel",
        summary="An online domino club: Goat, Donkey, Sea Goat, Draw and their relatives.",
        version="0.1.0",
        lifespan=lifespan,
        responses=ERRORS,
    )
    app.state.club = club
    app.add_middleware(SocketsPerAddress, limit=club.settings.sockets_per_address)
    app.add_middleware(SameOriginSockets)
    app.add_middleware(QuietSockets)
    session_sockets: dict[str, set[WebSocket]] = {}
    """The table sockets of each session (by its token's hash) in this process."""

    async def close_session_sockets(key: str) -> None:
        for socket in list(session_sockets.pop(key, ())):
            await close(socket, LOGGED_OUT, "logged out")

    async def hear_logouts() -> None:
        """A log-out served by any process closes the session's sockets in this one."""
        while True:
            try:
                async with club.pubsub.subscribe(LOGOUTS) as sub:
                    async for key in sub:
                        await close_session_sockets(key)
            except asyncio.CancelledError:
                raise
            except Exception:
                await asyncio.sleep(1.0)  # the pub/sub is away: listen again when it is back

    @app.middleware("http")
    async def guard(
        request: Request, call_next: Callable[[Request], Awaitable[StarletteResponse]]
    ) -> StarletteResponse:
        """Before anything is read: a state-changing request from a page of another site
        (its Origin names another host) is refused, and so is a body over the limit."""
        if request.method in CHANGING_METHODS:
            origin = request.headers.get("origin")
            if origin and origin.split("://", 1)[-1] != request.headers.get("host"):
                return refusal(
                    403, "foreign_origin", "a page of another site may not change anything here"
                )
            length = request.headers.get("content-length")
            limit = club.settings.max_body_bytes
            if length is None and "transfer-encoding" in request.headers:
                return refusal(
                    411, "length_required", "send the request body with a Content-Length"
                )
            if length is not None and (not length.isdigit() or int(length) > limit):
                return refusal(413, "body_too_big", f"a request body is at most {limit} bytes")
        try:
            return await call_next(request)
        except Exception as error:
            # answered here, not by an exception handler: Starlette re-raises from those,
            # and uvicorn then logs a traceback and closes the client's kept-alive connection
            return unexpected(request, error)

    @app.exception_handler(ClubError)
    async def club_error(_: Request, error: ClubError) -> JSONResponse:
        return refusal(error.status, error.code, error.message, error.params)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, error: StarletteHTTPException) -> StarletteResponse:
        """An unknown page is the client's "no such page" (a 404 a person can read); the API
        answers with a code like every refusal."""
        api = request.url.path.startswith(("/api/", "/static/", "/i18n/", "/rules-text/"))
        if error.status_code == 404 and not api and request.method == "GET":
            return FileResponse(WEB / "index.html", status_code=404, headers=PAGE_HEADERS)
        code = "not_found" if error.status_code == 404 else "bad_request"
        return refusal(error.status_code, code, str(error.detail))

    @app.exception_handler(RequestValidationError)
    async def bad_body(_: Request, error: RequestValidationError) -> JSONResponse:
        if any(e["type"] == BAD_TEXT for e in error.errors()):
            return refusal(422, BAD_TEXT, BAD_TEXT_MESSAGE)
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc'][1:]) or 'body'}: {e['msg']}"
            for e in error.errors()
        )
        return refusal(422, "bad_request", problems or "bad request")

    def unexpected(request: Request, error: Exception) -> JSONResponse:
        """A failure no handler answered: a service away is 503 (one line in the log), any
        other 500 (with its traceback, once)."""
        if isinstance(error, DBAPIError | OSError | TimeoutError):
            what = f"{type(error).__name__}: {error}"
            log.warning("%s %s: 503, %s", request.method, request.url.path, what)
            return refusal(503, "unavailable", UNAVAILABLE)
        log.error("%s %s: 500", request.method, request.url.path, exc_info=error)
        return refusal(500, "server_error", "something went wrong on our side")

    # --- sessions -------------------------------------------------------------------------

    async def current(
        kozel_session: Annotated[str | None, Cookie()] = None,
    ) -> tuple[User, str] | None:
        return await club.session_user(kozel_session)

    async def signed_in(
        found: Annotated[tuple[User, str] | None, Depends(current)],
    ) -> tuple[User, str]:
        if found is None:
            raise ClubError(401, "sign_in", "log in or play as a guest first")
        return found

    async def changing(
        found: Annotated[tuple[User, str], Depends(signed_in)],
        x_csrf_token: Annotated[str | None, Header()] = None,
    ) -> User:
        """A state-changing call: signed in, and carrying the session's CSRF token."""
        user, csrf = found
        if x_csrf_token != csrf:
            raise ClubError(403, "csrf", f"missing or wrong {auth.CSRF_HEADER} header")
        return user

    def opened(
        request: Request, response: Response, user: User, token: str, csrf: str
    ) -> dict[str, Any]:
        age = club.settings.session_days * 86400
        secure = club.settings.secure_cookies or request.url.scheme == "https"
        response.set_cookie(
            auth.SESSION_COOKIE, token, max_age=age, httponly=True, samesite="lax", secure=secure
        )
        response.set_cookie(auth.CSRF_COOKIE, csrf, max_age=age, samesite="lax", secure=secure)
        return {"name": user.name, "guest": user.guest, "rating": user.rating, "csrf": csrf}

    # --- HTTP -----------------------------------------------------------------------------

    @app.get("/api/health")
    async def health(response: Response) -> dict[str, Any]:
        """``ok``, or ``degraded`` (503) with the services that do not answer; with what
        password hashing costs this process (``hashing``: passwords waiting for its one
        hashing thread, hashes done and refused, the last minute's longest wait and busy
        time) and how long its event loop was stalled in the last minute (``loop``)."""
        missing = await club.missing()
        load = {"hashing": club.hasher.stats(), "loop": club.stalls.stats()}
        if missing:
            response.status_code = 503
            return {"status": "degraded", "missing": missing, "node": club.node, **load}
        return {"status": "ok", "node": club.node, **load}

    @app.get("/api/admin/tables")
    async def admin_tables(
        found: Annotated[tuple[User, str], Depends(signed_in)],
    ) -> dict[str, Any]:
        """Which process owns which table (for the club's administrators)."""
        if not club.is_admin(found[0]):
            raise ClubError(403, "admins_only", "only the club's administrators may see this")
        return await club.ownership.overview()

    @app.post("/api/auth/register")
    async def register(body: Credentials, request: Request, response: Response) -> dict[str, Any]:
        client = address(request)
        return opened(request, response, *await club.register(body.name, body.password, client))

    @app.post("/api/auth/login")
    async def login(body: Credentials, request: Request, response: Response) -> dict[str, Any]:
        client = address(request)
        return opened(request, response, *await club.login(body.name, body.password, client))

    @app.post("/api/auth/guest")
    async def guest(request: Request, response: Response) -> dict[str, Any]:
        client = address(request)
        return opened(request, response, *await club.guest(client))

    @app.post("/api/auth/logout")
    async def logout(
        response: Response,
        _: Annotated[User, Depends(changing)],
        kozel_session: Annotated[str | None, Cookie()] = None,
    ) -> dict[str, bool]:
        if kozel_session:
            await club.logout(kozel_session)
            key = auth.token_hash(kozel_session)
            await close_session_sockets(key)
            with contextlib.suppress(Exception):  # Redis away: every socket is closed anyway
                await club.pubsub.publish(LOGOUTS, key)
        response.delete_cookie(auth.SESSION_COOKIE)
        response.delete_cookie(auth.CSRF_COOKIE)
        return {"ok": True}

    @app.get("/api/me")
    async def me(found: Annotated[tuple[User, str], Depends(signed_in)]) -> dict[str, Any]:
        user, csrf = found
        return {
            "name": user.name,
            "guest": user.guest,
            "rating": user.rating,
            "csrf": csrf,
            "admin": club.is_admin(user),
        }

    @app.get("/api/rules")
    async def rules() -> list[dict[str, Any]]:
        """Every game: its family (``goat``: loser-scoring, ``race``: winner-scoring), its board
        (``line`` or ``cross``), its sheet, its options (default, allowed values, bounds, the
        bounds of a rated game, meaning) and presets; ``tournament``: the club runs its
        micro-tournaments (``POST /api/tournaments``)."""
        return [{**game_info(g), "tournament": g.id == tourney.GAME} for g in CLUB_GAMES.values()]

    @app.get("/api/requests")
    async def requests() -> list[dict[str, Any]]:
        return await club.open_requests()

    @app.post("/api/requests")
    async def create(
        body: RequestIn, request: Request, user: Annotated[User, Depends(changing)]
    ) -> dict[str, Any]:
        """A request; ``rated`` needs people at every seat (no ``bots``) and the options within
        their rated bounds (``/api/rules``' ``rated_minimum``/``rated_maximum``)."""
        return await club.create_request(
            user,
            body.game,
            body.options,
            body.seconds_per_move,
            body.rated,
            body.bots,
            client=address(request),
            private=body.private,
            reserve=[(r.seat, r.name, r.link) for r in body.reserve],
        )

    @app.get("/api/requests/{request_id}")
    async def one_request(
        request_id: Id, found: Annotated[tuple[User, str] | None, Depends(current)]
    ) -> dict[str, Any]:
        """One request, whatever its status (``game_id`` once it has started); a private one
        only to those who sit at it."""
        return await club.request(request_id, found[0] if found else None)

    @app.post("/api/requests/{request_id}/join")
    async def join(
        request_id: Id,
        user: Annotated[User, Depends(changing)],
        body: Annotated[JoinIn | None, BodyParam()] = None,
    ) -> dict[str, Any]:
        """Take a seat (``seat``, or the one kept for you, or the first free one)."""
        return await club.join(user, request_id, body.seat if body else None)

    @app.post("/api/requests/{request_id}/reserve")
    async def reserve(
        request_id: Id, body: ReserveIn, user: Annotated[User, Depends(changing)]
    ) -> dict[str, Any]:
        """The creator keeps a seat for a player or for the link, or frees it."""
        return await club.reserve(user, request_id, body.seat, body.name, body.link)

    @app.get("/api/me/requests")
    async def my_requests(
        found: Annotated[tuple[User, str], Depends(signed_in)],
    ) -> list[dict[str, Any]]:
        """The open requests you sit at, private ones too, each with its link's code."""
        return await club.my_requests(found[0])

    @app.get("/api/invites/{code}")
    async def invite(code: Code) -> dict[str, Any]:
        """The request behind a link, whatever its status."""
        return await club.invite(code)

    @app.post("/api/invites/{code}/join")
    async def join_by_link(
        code: Code,
        user: Annotated[User, Depends(changing)],
        body: Annotated[JoinIn | None, BodyParam()] = None,
    ) -> dict[str, Any]:
        """Take a seat of the request behind a link (private or not; also a seat kept for
        the link)."""
        return await club.join_by_link(user, code, body.seat if body else None)

    @app.post("/api/requests/{request_id}/leave")
    async def leave(request_id: Id, user: Annotated[User, Depends(changing)]) -> dict[str, Any]:
        return await club.leave(user, request_id)

    @app.post("/api/requests/{request_id}/cancel")
    async def cancel(request_id: Id, user: Annotated[User, Depends(changing)]) -> dict[str, Any]:
        return await club.cancel(user, request_id)

    @app.post("/api/requests/{request_id}/bots")
    async def bots(
        request_id: Id, body: BotsIn, user: Annotated[User, Depends(changing)]
    ) -> dict[str, Any]:
        return await club.fill_with_bots(user, request_id, body.level)

    @app.post("/api/play/computer")
    async def play_computer(
        body: ComputerIn, request: Request, user: Annotated[User, Depends(changing)]
    ) -> dict[str, Any]:
        """A table against the computer, never rated (``rated: true`` is refused)."""
        return await club.play_computer(
            user,
            body.game,
            body.options,
            body.level,
            body.seconds_per_move,
            body.rated,
            client=address(request),
        )

    @app.post("/api/play/person")
    async def play_person(
        body: PersonIn, request: Request, user: Annotated[User, Depends(changing)]
    ) -> dict[str, Any]:
        return await club.play_person(
            user,
            body.game,
            body.options,
            body.seconds_per_move,
            body.rated,
            client=address(request),
        )

    @app.post("/api/tournaments")
    async def create_tournament(
        body: TournamentIn, request: Request, user: Annotated[User, Depends(changing)]
    ) -> dict[str, Any]:
        """A Bykovo micro-tournament request of 4 to 7 seats: a lobby request with
        ``tournament: true``; joined, left, cancelled and filled with computer players like
        any request. Rated only between people."""
        return await club.create_tournament(
            user,
            body.players,
            body.seconds_per_move,
            body.rated,
            body.bots,
            client=address(request),
        )

    @app.get("/api/tournaments/{tournament_id}")
    async def tournament(tournament_id: Id) -> dict[str, Any]:
        """The tournament's games and standings, as its page shows them."""
        return await club.tournament(tournament_id)

    @app.get("/api/tournaments/{tournament_id}/record")
    async def tournament_record(tournament_id: Id) -> dict[str, Any]:
        """The finished tournament's kozel-tournament/1 record (``kozel replay`` checks it)."""
        return await club.tournament_record(tournament_id)

    @app.get("/api/games/{game_id}")
    async def game(game_id: Id) -> dict[str, Any]:
        return game_json(await club.game_row(game_id))

    @app.get("/api/games/{game_id}/chat")
    async def table_chat(game_id: Id) -> list[dict[str, Any]]:
        """The table's last chat lines, oldest first (new ones come over its sockets)."""
        await club.game_row(game_id)
        return await club.chat_history(game_room(game_id))

    @app.get("/api/chat")
    async def lobby_chat() -> list[dict[str, Any]]:
        """The lobby's last chat lines, oldest first (new ones come over /ws/lobby)."""
        return await club.chat_history(LOBBY_ROOM)

    @app.get("/api/games/{game_id}/record")
    async def record(game_id: Id) -> dict[str, Any]:
        """The finished game as a kozel-record/1 record (all hands: only once it is over)."""
        row = await club.game_row(game_id)
        if row.record is None:
            raise ClubError(409, "not_over", f"game {game_id} is not over")
        return row.record

    @app.get("/api/games/{game_id}/shuffle")
    async def game_shuffle(game_id: Id) -> dict[str, Any]:
        """The check of a finished game's verifiable shuffle, as `kozel verify` makes it: the
        commitment, and whether each deal is the one its seeds give."""
        row = await club.game_row(game_id)
        if row.record is None:
            raise ClubError(409, "not_over", f"game {game_id} is not over")
        check = await asyncio.to_thread(verify, row.record)
        return {**check.to_dict(), "shuffle": row.record.get("shuffle")}

    @app.get("/api/games/{game_id}/positions")
    async def game_positions(game_id: Id) -> dict[str, Any]:
        """Every position of every round of a finished game, computed by the engine: all
        hands, the bazaar's size, the layout's arms with their tiles, whose move it is."""
        row = await club.game_row(game_id)
        if row.record is None:
            raise ClubError(409, "not_over", f"game {game_id} is not over")
        if CLUB_GAMES[row.game].table != "layout":
            raise ClubError(
                422, "no_positions", f"game {game_id} is not played on a layout: see its record"
            )
        return await asyncio.to_thread(positions, row.record)

    @app.get("/api/games/{game_id}/analysis")
    async def game_analysis(game_id: Id) -> dict[str, Any]:
        """The expert's judgement of every decision of each seat of a finished game: the move
        played, the expert's move, the expected loss, the large mistakes and each player's
        accuracy. Computed once, after the game, by the club's analysis worker: the first ask
        queues it (``status``: queued, running, done or failed; ``progress``: seats done)."""
        row = await club.game_row(game_id)
        if row.record is None:
            raise ClubError(409, "not_over", f"game {game_id} is not over")
        return await club.analyst.request(row)

    @app.get("/api/live")
    async def live(
        game: Annotated[str | None, Query(max_length=20)] = None,
    ) -> list[dict[str, Any]]:
        """The games being played, newest first, for anyone to watch (``game``: of that game
        only): players with their ratings, the round, the score per scoring unit."""
        return await club.live_games(game)

    @app.get("/api/leaderboard")
    async def leaderboard() -> list[dict[str, Any]]:
        return await club.leaderboard()

    @app.get("/api/players/{name}")
    async def player(name: str) -> dict[str, Any]:
        return await club.player(name)

    # --- the browser client ---------------------------------------------------------------

    app.mount("/static", StaticFiles(directory=WEB / "static"), name="static")
    app.mount("/rules-text", StaticFiles(directory=WEB / "rules"), name="rules-text")
    app.mount("/i18n", StaticFiles(directory=WEB / "i18n"), name="i18n")

    def page() -> FileResponse:
        """Every page is the same document; kozel/web/static/app.js routes by the path."""
        return FileResponse(WEB / "index.html", headers=PAGE_HEADERS)

    for path in (
        "/",
        "/leaderboard",
        "/games/{game_id}",
        "/games/{game_id}/review",
        "/players/{name}",
        "/tournaments/{tournament_id}",
        "/invite/{code}",
        "/rules",
        "/rules/{game}",
        "/admin",
    ):
        app.add_api_route(path, page, methods=["GET"], include_in_schema=False)

    # --- WebSockets -------------------------------------------------------------------------

    async def forward(
        websocket: WebSocket,
        channel: str,
        snapshot: Callable[[], Awaitable[str]],
        sent: asyncio.Event | None = None,
        convert: Callable[[str], Awaitable[str]] | None = None,
    ) -> None:
        """Subscribe first, then send the snapshot, then every message (``convert``ed, when
        given): nothing published in between is lost (a client drops versions it has
        already seen). ``sent`` is set once the snapshot has gone out. When the pub/sub
        fails (Redis went away) or the table is moving, the socket is closed with a reason,
        so that the client reconnects and resyncs once the service is back."""
        try:
            async with club.pubsub.subscribe(channel) as sub:
                first = await snapshot()
                await websocket.send_text(await convert(first) if convert else first)
                if sent is not None:
                    sent.set()
                async for message in sub:
                    await websocket.send_text(await convert(message) if convert else message)
        except (WebSocketDisconnect, RuntimeError):
            return  # the client went away; the receiving side ends the connection
        except ClubError as error:
            if error.status == 404:
                # a link's socket names its case; the others say there is no table
                code = "no_invite" if error.code == "no_invite" else "no_table"
                await send_error(websocket, code, error.message)
                await close(websocket, 1000, "no table")
                return
            await close(websocket, TRY_AGAIN, error.message)
        except Exception as error:
            if isinstance(error, asyncio.CancelledError):
                raise
            await close(websocket, TRY_AGAIN, "the club's message service is down: reconnecting")

    async def messages(websocket: WebSocket) -> AsyncIterator[str | None]:
        """Text frames as they come; ``None`` for a binary frame; stops at the close."""
        while True:
            try:
                frame = await websocket.receive()
            except (WebSocketDisconnect, RuntimeError):
                return
            if frame["type"] == "websocket.disconnect":
                return
            raw = frame.get("text")
            if isinstance(raw, str) and may_hold_surrogate(raw) and _lone_surrogate(raw):
                await send_error(websocket, BAD_TEXT, BAD_TEXT_MESSAGE)
                continue
            yield raw if isinstance(raw, str) else None

    @app.websocket("/ws/lobby")
    async def lobby(websocket: WebSocket) -> None:
        """A snapshot, then every change; a client that finds a version missing sends
        ``sync``, which starts the feed over exactly as connecting does (subscribe, snapshot,
        changes): every change the new snapshot lacks is sent after it."""
        token = websocket.cookies.get(auth.SESSION_COOKIE)
        try:
            found = await club.session_user(token)
        except Exception:  # the database is away: the client retries
            await websocket.accept()
            await close(websocket, TRY_AGAIN, UNAVAILABLE)
            return
        await websocket.accept()
        sent = asyncio.Event()
        """The current feed has sent its snapshot."""
        # a signed-in socket belongs to its session: logging out closes it
        key = auth.token_hash(token) if token and found else ""
        sockets = session_sockets.setdefault(key, set()) if key else set()
        sockets.add(websocket)

        async def snapshot() -> str:
            return json.dumps(await club.lobby_snapshot())

        def feed() -> asyncio.Task[None]:
            sent.clear()
            return asyncio.create_task(forward(websocket, LOBBY, snapshot, sent))

        sender = feed()
        try:
            async for text in messages(websocket):
                kind = message_type(text, club.settings.max_message_bytes)
                if kind == "ping":
                    await websocket.send_text(json.dumps({"type": "pong"}))
                elif kind == "sync":
                    # a feed that has not sent its snapshot yet started after whatever the
                    # client saw: that snapshot answers this sync too (and a client that
                    # floods syncs without reading gets no more than one at a time)
                    if sent.is_set():
                        sender.cancel()
                        await asyncio.wait([sender])
                        sender = feed()
                elif kind == "chat":
                    await chat_line(websocket, found, LOBBY_ROOM, text, [LOBBY])
                else:
                    await send_error(
                        websocket, "read_only", "the lobby socket takes sync, chat and ping only"
                    )
        finally:
            sender.cancel()
            sockets.discard(websocket)
            if key and not sockets and session_sockets.get(key) is sockets:
                del session_sockets[key]

    @app.websocket("/ws/tournaments/{tournament_id}")
    async def tournament_feed(websocket: WebSocket, tournament_id: int) -> None:
        """The tournament's state, then again after every change (each message is the whole
        state: a client keeps the last one). Read-only but for ``ping``."""
        await websocket.accept()

        async def snapshot() -> str:
            return json.dumps(await club.tournament(tournament_id))

        sender = asyncio.create_task(forward(websocket, tourney.channel(tournament_id), snapshot))
        try:
            async for text in messages(websocket):
                if message_type(text, club.settings.max_message_bytes) == "ping":
                    await websocket.send_text(json.dumps({"type": "pong"}))
        finally:
            sender.cancel()

    @app.websocket("/ws/invites/{code}")
    async def invite_feed(websocket: WebSocket, code: str) -> None:
        """The request behind a link, then again after every change (each message is the
        whole request). Read-only but for ``ping``."""
        await websocket.accept()

        async def snapshot() -> str:
            return json.dumps({"type": "invite", "request": await club.invite(code[:32])})

        sender = asyncio.create_task(forward(websocket, seating.channel(code[:32]), snapshot))
        try:
            async for text in messages(websocket):
                if message_type(text, club.settings.max_message_bytes) == "ping":
                    await websocket.send_text(json.dumps({"type": "pong"}))
        finally:
            sender.cancel()

    @app.websocket("/ws/games/{game_id}")
    async def table(websocket: WebSocket, game_id: int) -> None:
        token = websocket.cookies.get(auth.SESSION_COOKIE)
        try:
            found = await club.session_user(token)
            row = await club.game_row(game_id)
        except ClubError:
            row = None
        except Exception:  # the database is away: the client retries
            await websocket.accept()
            await close(websocket, TRY_AGAIN, UNAVAILABLE)
            return
        await websocket.accept()
        if row is None:
            await send_error(websocket, "no_table", f"there is no game {game_id}")
            await websocket.close()
            return
        # a seat's socket belongs to its session: logging out closes it
        key = auth.token_hash(token) if token and found else ""
        sockets = session_sockets.setdefault(key, set()) if key else set()
        sockets.add(websocket)
        user_id = found[0].id if found else None
        seat = next(
            (s for s, info in enumerate(row.seats) if user_id and info.get("user") == user_id),
            None,
        )

        async def snapshot() -> str:
            return dumps(await club.table_state(game_id, seat))

        limit, players = club.settings.max_message_bytes, len(row.seats)
        # protocol 1 (kept for one release): the whole state after every event
        convert = None
        if websocket.query_params.get("protocol") == "1":
            convert = WholeStates(lambda: club.table_state(game_id, seat)).convert

        channel = seat_channel(game_id, seat)
        sender = asyncio.create_task(forward(websocket, channel, snapshot, convert=convert))
        if seat is not None:
            club.socket_opened(game_id, seat)
        try:
            async for text in messages(websocket):
                kind = message_type(text, limit)
                if kind == "chat" and seat is None:
                    await send_error(websocket, "chat_watchers", "only the players chat here")
                elif kind == "chat":
                    channels = [seat_channel(game_id, s) for s in (*range(players), None)]
                    await chat_line(websocket, found, game_room(game_id), text, channels)
                else:
                    await handle(websocket, game_id, seat, text)
        finally:
            if seat is not None:
                club.socket_closed(game_id, seat)
            sender.cancel()
            sockets.discard(websocket)
            if key and not sockets and session_sockets.get(key) is sockets:
                del session_sockets[key]

    async def chat_line(
        websocket: WebSocket,
        found: tuple[User, str] | None,
        room: str,
        text: str | None,
        channels: list[str],
    ) -> None:
        """``{"type": "chat", "text": "..."}`` from a signed-in player: said in ``room``,
        sent on ``channels``; a refusal comes back as an error with its code."""
        if found is None:
            await send_error(websocket, "sign_in", "log in or play as a guest to chat")
            return
        message = json.loads(text or "{}")
        try:
            await club.say(found[0], room, message.get("text"), channels)
        except ClubError as error:
            await send_error(websocket, error.code, error.message, params=error.params)
        except (DBAPIError, OSError, TimeoutError):  # the database is away: nothing was said
            await send_error(websocket, "unavailable", UNAVAILABLE)

    async def handle(
        websocket: WebSocket, game_id: int, seat: int | None, text: str | None
    ) -> None:
        if text is None:
            await send_error(websocket, "bad_json", "send text frames, one JSON object each")
            return
        if len(text.encode()) > club.settings.max_message_bytes:
            await send_error(websocket, "too_big", "messages are at most 16 KiB")
            return
        try:
            message = json.loads(text)
        except (ValueError, RecursionError):
            await send_error(websocket, "bad_json", "send one JSON object per message")
            return
        kind = message.get("type") if isinstance(message, dict) else None
        try:
            if kind == "ping":
                await websocket.send_text(json.dumps({"type": "pong"}))
            elif kind == "sync":
                await websocket.send_text(dumps(await club.table_state(game_id, seat)))
            elif kind == "next":
                if seat is None:
                    await send_error(websocket, "not_seated", "spectators do not deal")
                    return
                await club.next_round(game_id, seat)
            elif kind == "move":
                if seat is None:
                    await send_error(websocket, "not_seated", "spectators cannot move")
                    return
                version, move = message.get("version"), message.get("move")
                if type(version) is not int or not isinstance(move, dict):
                    await send_error(
                        websocket,
                        "bad_move",
                        'a move is {"type": "move", "version": N, "move": {...}}',
                    )
                    return
                reply = await club.submit(game_id, seat, move, version)
                if not reply.ok:
                    await send_error(
                        websocket, reply.code, reply.message, reply.reason, reply.params
                    )
                    if reply.code == "stale":
                        await websocket.send_text(dumps(await club.table_state(game_id, seat)))
            elif kind == "seed":
                if seat is None:
                    await send_error(websocket, "not_seated", "spectators add no seed")
                    return
                reply = await club.add_seed(game_id, seat, message.get("seed"))
                if not reply.ok:
                    await send_error(websocket, reply.code, reply.message, params=reply.params)
            elif kind == "rematch":
                if seat is None:
                    await send_error(websocket, "not_seated", "spectators do not play again")
                    return
                accept = message.get("accept", True)
                if type(accept) is not bool:
                    await send_error(
                        websocket, "bad_request", 'a rematch is {"type": "rematch", "accept": true}'
                    )
                    return
                reply = await club.rematch(game_id, seat, accept)
                if not reply.ok:
                    await send_error(websocket, reply.code, reply.message)
            elif kind == "replace":
                if seat is None:
                    await send_error(websocket, "not_seated", "spectators do not vote")
                    return
                reply = await club.vote(game_id, seat, message.get("seat"))
                if not reply.ok:
                    await send_error(websocket, reply.code, reply.message, params=reply.params)
            else:
                await send_error(
                    websocket,
                    "unknown_type",
                    "message types are move, next, seed, replace, rematch, sync, chat and ping",
                )
        except ClubError as error:
            code = "no_table" if error.status == 404 else "unavailable"
            await send_error(websocket, code, error.message)
        except (DBAPIError, OSError, TimeoutError):  # the database is away: nothing was done
            await send_error(websocket, "unavailable", UNAVAILABLE)

    return app


class WholeStates:
    """Protocol 1 of the table socket: a client that asked for it gets the whole state after
    every event instead of the event. The events are applied here, to the state this socket
    last got; one that does not follow it (a missed version) is answered with the table's
    state read anew."""

    def __init__(self, read: Callable[[], Awaitable[dict[str, Any]]]) -> None:
        self.read = read
        self.state: dict[str, Any] | None = None

    async def convert(self, text: str) -> str:
        message = json.loads(text)
        kind = message.get("type")
        if kind == "state":
            self.state = message
        elif kind == "event":
            held = self.state
            if held is not None and message["version"] == held["version"] + 1:
                self.state = {**patch.apply(held, message["patch"]), "version": message["version"]}
            else:
                self.state = await self.read()
            return dumps(self.state)
        elif kind in ("presence", "next_round") and self.state is not None:
            fields = {k: v for k, v in message.items() if k not in ("type", "game", "version")}
            self.state = {
                **self.state,
                **({"next_round": fields} if kind == "next_round" else fields),
            }
        return text


def message_type(text: str | None, limit: int) -> Any:
    """The ``type`` of a text frame holding one JSON object of at most ``limit`` bytes;
    ``None`` for anything else."""
    if text is None or len(text.encode()) > limit:
        return None
    try:
        message = json.loads(text)
    except (ValueError, RecursionError):
        return None
    return message.get("type") if isinstance(message, dict) else None


def _lone_surrogate(raw: str) -> bool:
    """A JSON text that decodes to a lone surrogate somewhere (not JSON: ``False``, the
    handler says so)."""
    try:
        return has_lone_surrogate(json.loads(raw))
    except (ValueError, RecursionError):
        return False


def address(request: Request) -> str:
    """The client's address, the key of the per-address limits."""
    return request.client.host if request.client else "?"


def refusal(
    status: int, code: str, message: str, params: dict[str, str | int] | None = None
) -> JSONResponse:
    """An HTTP error: ``code`` and ``params`` for clients to word in the player's language,
    ``detail`` in English for API users."""
    shown = {k: printable(v) if isinstance(v, str) else v for k, v in (params or {}).items()}
    return JSONResponse(
        {"detail": printable(message), "code": code, "params": shown}, status_code=status
    )


async def send_error(
    websocket: WebSocket,
    code: str,
    message: str,
    reason: str = "",
    params: dict[str, str | int] | None = None,
) -> None:
    """A WebSocket error; an ``illegal`` move's ``reason`` says why, ``params`` fill it in."""
    error: dict[str, Any] = {"type": "error", "code": code, "message": message}
    if reason:
        error["reason"] = reason
    if reason or params:
        error["params"] = params or {}
    await websocket.send_text(json.dumps(error))


async def close(websocket: WebSocket, code: int, reason: str) -> None:
    """Close a socket with a reason (at most 123 bytes), if it is still open."""
    with contextlib.suppress(Exception):
        await websocket.close(code=code, reason=reason.encode()[:123].decode(errors="ignore"))

"""HTTP and WebSocket: the club's public interface (FastAPI on uvicorn).

:func:`create_app` makes the app of one club process: the club (:class:`Club`, which decides
everything), the guards every request passes (limits, same-origin, body size), the answers
to failures, and the routes of each area (:mod:`kozel.server.routes`). Every failure a
client can cause is answered with a clear message (JSON ``{"detail": ...}`` over HTTP,
``{"type": "error", "code", "message"}`` over a WebSocket) and changes nothing. The protocol
is documented in docs/protocol.md.
"""

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy.exc import DBAPIError
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.responses import Response as StarletteResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from kozel.server.club import Club
from kozel.server.collector import Collector
from kozel.server.errors import ClubError
from kozel.server.limits import QuietSockets, SameOriginSockets, SocketsPerAddress, foreign_origin
from kozel.server.routes import accounts, games, lobby, operations, sockets, tournaments
from kozel.server.routes.common import ERRORS, UNAVAILABLE, refusal
from kozel.server.routes.pages import mount_pages, page
from kozel.server.settings import Settings
from kozel.server.text import BAD_TEXT
from kozel.server.text import MESSAGE as BAD_TEXT_MESSAGE

CHANGING_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})

log = logging.getLogger("kozel.app")


def create_app(settings: Settings | None = None, collector: Collector | None = None) -> FastAPI:
    """The club's web application; ``collector``: the process's, paced by its event loop."""
    club = Club(settings or Settings())
    sessions = sockets.Sessions(club)

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        await club.start()
        tasks = [asyncio.create_task(sessions.hear_logouts(), name="logouts")]
        if collector is not None:
            tasks.append(asyncio.create_task(collector.pace(), name="collector"))
        try:
            yield
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            await club.stop()

    app = FastAPI(
        title="Kozel",
        summary="An online domino club: Goat, Donkey, Sea Goat, Draw and their relatives.",
        version="0.1.0",
        lifespan=lifespan,
        responses=ERRORS,
    )
    app.state.club = club
    app.state.sessions = sessions
    app.add_middleware(SocketsPerAddress, limit=club.settings.sockets_per_address)
    app.add_middleware(SameOriginSockets)
    app.add_middleware(QuietSockets)
    app.add_middleware(Guard, max_body_bytes=club.settings.max_body_bytes)
    answer_failures(app)
    for area in (operations, accounts, lobby, tournaments, games, sockets):
        app.include_router(area.router)
    mount_pages(app)
    return app


class Guard:
    """ASGI middleware in front of every HTTP request, before anything is read: a
    state-changing request from a page of another site (its Origin names another host) is
    refused, and so is a body over the limit; a failure no handler answered becomes
    :func:`unexpected`'s answer, not a traceback and a closed connection.

    Plain ASGI, not Starlette's ``BaseHTTPMiddleware`` (``@app.middleware("http")``), which
    runs each request's application in a task of its own with memory streams between the
    two (docs/benchmarks.md)."""

    def __init__(self, app: ASGIApp, max_body_bytes: int) -> None:
        self.app = app
        self.max_body_bytes = max_body_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        refused = self.refused(scope)
        if refused is not None:
            await refused(scope, receive, send)
            return
        started = False

        async def sending(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, sending)
        except Exception as error:
            # answered here, not by an exception handler: Starlette re-raises from those,
            # and uvicorn then logs a traceback and closes the client's kept-alive connection
            if started:  # too late for an answer: uvicorn ends the response
                raise
            await unexpected(Request(scope), error)(scope, receive, send)

    def refused(self, scope: Scope) -> StarletteResponse | None:
        if scope["method"] not in CHANGING_METHODS:
            return None
        if foreign_origin(scope):
            return refusal(
                403, "foreign_origin", "a page of another site may not change anything here"
            )
        headers = Headers(scope=scope)
        length = headers.get("content-length")
        if length is None and "transfer-encoding" in headers:
            return refusal(411, "length_required", "send the request body with a Content-Length")
        if length is not None and (not length.isdigit() or int(length) > self.max_body_bytes):
            return refusal(
                413, "body_too_big", f"a request body is at most {self.max_body_bytes} bytes"
            )
        return None


def answer_failures(app: FastAPI) -> None:
    """A refusal with its code for every failure a handler raises."""

    @app.exception_handler(ClubError)
    async def club_error(_: Request, error: ClubError) -> JSONResponse:
        return refusal(error.status, error.code, error.message, error.params)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, error: StarletteHTTPException) -> StarletteResponse:
        """An unknown page is the client's "no such page" (a 404 a person can read); the API
        answers with a code like every refusal."""
        api = request.url.path.startswith(("/api/", "/static/", "/i18n/", "/rules-text/"))
        if error.status_code == 404 and not api and request.method == "GET":
            return page(status_code=404)
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

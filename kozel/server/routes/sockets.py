"""The club's WebSockets: the lobby's feed and chat, a table's seats and spectators, a
tournament's page, a link's page. Each subscribes to its channel first, then sends the
snapshot, then every message published on it, so nothing is lost in between (once the
snapshot is out, the publisher writes each message to the socket itself,
:class:`~kozel.server.pubsub.Inbox`); every failure a client can cause is answered with
``{"type": "error", "code", "message"}`` and changes nothing (docs/protocol.md §6)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import orjson
from fastapi import APIRouter, WebSocket
from sqlalchemy.exc import DBAPIError
from starlette.requests import HTTPConnection
from starlette.websockets import WebSocketDisconnect, WebSocketState

from kozel import patch
from kozel.server import auth, seating, series
from kozel.server.chat import LOBBY_ROOM, game_room
from kozel.server.club import LOBBY, Club
from kozel.server.db import User
from kozel.server.errors import ClubError
from kozel.server.patches import dumps
from kozel.server.routes.common import UNAVAILABLE
from kozel.server.table_commands import Reply, moved
from kozel.server.tables import seat_channel
from kozel.server.text import BAD_TEXT, has_lone_surrogate, may_hold_surrogate
from kozel.server.text import MESSAGE as BAD_TEXT_MESSAGE
from kozel.server.wire import direct_reader, direct_writer

log = logging.getLogger("kozel.sockets")
LOGGED_OUT = 4401
"""The close code of a table socket whose session logged out."""
LOGOUTS = "logouts"
"""The channel on which a log-out reaches every process's sockets of that session."""
TRY_AGAIN = 1013
"""The close code when a service the socket needs is away: reconnect in a moment."""
MOVE_CHARACTERS = 1024
"""A longer message is no move a table takes as it is read (:class:`Inbound`)."""

router = APIRouter()


class Sessions:
    """The lobby and table sockets of each session (by its token's hash) in this process:
    a log-out served by any process closes them all."""

    def __init__(self, club: Club) -> None:
        self.club = club
        self.sockets: dict[str, set[WebSocket]] = {}

    def add(self, key: str, websocket: WebSocket) -> None:
        if key:
            self.sockets.setdefault(key, set()).add(websocket)

    def discard(self, key: str, websocket: WebSocket) -> None:
        sockets = self.sockets.get(key)
        if sockets is not None:
            sockets.discard(websocket)
            if not sockets:
                del self.sockets[key]

    async def close(self, key: str) -> None:
        for socket in list(self.sockets.pop(key, ())):
            await close(socket, LOGGED_OUT, "logged out")

    async def logged_out(self, key: str) -> None:
        """The session ``key`` logged out here: close its sockets in every process."""
        await self.close(key)
        with contextlib.suppress(Exception):  # Redis away: every socket is closed anyway
            await self.club.pubsub.publish(LOGOUTS, key)

    async def hear_logouts(self) -> None:
        """A log-out served by any process closes the session's sockets in this one."""
        while True:
            try:
                async with self.club.pubsub.subscribe(LOGOUTS) as sub:
                    async for key in sub:
                        await self.close(key)
            except asyncio.CancelledError:
                raise
            except Exception:
                await asyncio.sleep(1.0)  # the pub/sub is away: listen again when it is back


def sockets_of(connection: HTTPConnection) -> Sessions:
    sessions: Sessions = connection.app.state.sessions
    return sessions


def session_key(token: str | None, found: tuple[User, str] | None) -> str:
    """A signed-in socket's session (logging out closes it); ``""`` for an anonymous one."""
    return auth.token_hash(token) if token and found else ""


async def forward(
    club: Club,
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
            if convert is None:
                # from now on the publisher writes each message to the socket itself, unless
                # some wait in the inbox (a full buffer): then this task sends them in order
                sub.direct = direct_writer(websocket.scope)
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
        if _bad_text(raw):
            await send_error(websocket, BAD_TEXT, BAD_TEXT_MESSAGE)
            continue
        yield raw if isinstance(raw, str) else None


async def signed_in_socket(
    club: Club, websocket: WebSocket
) -> tuple[str | None, tuple[User, str] | None] | None:
    """The socket's session token and player, once accepted; ``None`` (and the socket
    closed, to be tried again) when the database is away."""
    token = websocket.cookies.get(auth.SESSION_COOKIE)
    try:
        found = await club.accounts.session_user(token)
    except Exception:  # the database is away: the client retries
        await websocket.accept()
        await close(websocket, TRY_AGAIN, UNAVAILABLE)
        return None
    await websocket.accept()
    return token, found


@router.websocket("/ws/lobby")
async def lobby(websocket: WebSocket) -> None:
    """A snapshot, then every change; a client that finds a version missing sends
    ``sync``, which starts the feed over exactly as connecting does (subscribe, snapshot,
    changes): every change the new snapshot lacks is sent after it."""
    club, sessions = websocket.app.state.club, sockets_of(websocket)
    signed = await signed_in_socket(club, websocket)
    if signed is None:
        return
    token, found = signed
    sent = asyncio.Event()
    """The current feed has sent its snapshot."""
    key = session_key(token, found)
    sessions.add(key, websocket)

    async def snapshot() -> str:
        return json.dumps(await club.lobby.snapshot())

    def feed() -> asyncio.Task[None]:
        sent.clear()
        return asyncio.create_task(forward(club, websocket, LOBBY, snapshot, sent))

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
                await chat_line(club, websocket, found, LOBBY_ROOM, text, [LOBBY])
            else:
                await send_error(
                    websocket, "read_only", "the lobby socket takes sync, chat and ping only"
                )
    finally:
        sender.cancel()
        sessions.discard(key, websocket)


async def read_only(
    websocket: WebSocket, channel: str, snapshot: Callable[[], Awaitable[str]]
) -> None:
    """A page's feed that takes nothing but ``ping``: its state, then again after every
    change (each message whole: a client keeps the last one)."""
    club: Club = websocket.app.state.club
    await websocket.accept()
    sender = asyncio.create_task(forward(club, websocket, channel, snapshot))
    try:
        async for text in messages(websocket):
            if message_type(text, club.settings.max_message_bytes) == "ping":
                await websocket.send_text(json.dumps({"type": "pong"}))
    finally:
        sender.cancel()


@router.websocket("/ws/tournaments/{tournament_id}")
async def tournament_feed(websocket: WebSocket, tournament_id: int) -> None:
    """The tournament's state, then again after every change."""
    club: Club = websocket.app.state.club

    async def snapshot() -> str:
        return json.dumps(await club.tournaments.state(tournament_id))

    await read_only(websocket, series.channel(tournament_id), snapshot)


@router.websocket("/ws/invites/{code}")
async def invite_feed(websocket: WebSocket, code: str) -> None:
    """The request behind a link, then again after every change."""
    club: Club = websocket.app.state.club

    async def snapshot() -> str:
        return json.dumps({"type": "invite", "request": await club.lobby.invite(code[:32])})

    await read_only(websocket, seating.channel(code[:32]), snapshot)


@router.websocket("/ws/games/{game_id}")
async def table(websocket: WebSocket, game_id: int) -> None:
    """A seat's socket (or a spectator's): the table's state, then its events; moves,
    deals, seeds, votes, rematches, syncs and chat the other way (protocol.md §6)."""
    club, sessions = websocket.app.state.club, sockets_of(websocket)
    token = websocket.cookies.get(auth.SESSION_COOKIE)
    try:
        found = await club.accounts.session_user(token)
        seats = await club.queries.game_seats(game_id)
    except ClubError:
        seats = None
    except Exception:  # the database is away: the client retries
        await websocket.accept()
        await close(websocket, TRY_AGAIN, UNAVAILABLE)
        return
    if seats is None:
        await websocket.accept()
        await send_error(websocket, "no_table", f"there is no game {game_id}")
        await websocket.close()
        return
    user_id = found[0].id if found else None
    seat = next(
        (s for s, info in enumerate(seats) if user_id and info.get("user") == user_id),
        None,
    )
    limit, players = club.settings.max_message_bytes, len(seats)

    async def handle(text: str | None) -> None:
        kind = message_type(text, limit)
        if kind == "chat" and seat is None:
            await send_error(websocket, "chat_watchers", "only the players chat here")
        elif kind == "chat":
            channels = [seat_channel(game_id, s) for s in (*range(players), None)]
            await chat_line(club, websocket, found, game_room(game_id), text, channels)
        else:
            await TableMessage(club, websocket, game_id, seat).handle(text)

    def move_at_once(text: str) -> asyncio.Future[Reply] | None:
        """A seat's well-formed move (nearly every message a table hears) queued at its
        table in this process as it is read: the verdict, to come; ``None`` for any other
        message, which :func:`handle` takes in a task."""
        if seat is None or len(text) > MOVE_CHARACTERS or may_hold_surrogate(text):
            return None
        try:
            message = orjson.loads(text)
        except orjson.JSONDecodeError:
            return None
        if type(message) is not dict or message.get("type") != "move":
            return None
        fields = move_fields(message)
        if fields is None:
            return None
        version, move = fields
        verdict: asyncio.Future[Reply] | None = club.relay.submit_here(game_id, seat, move, version)
        return verdict

    async def answer(reply: Reply) -> None:
        await TableMessage(club, websocket, game_id, seat).answer_move(reply)

    # taken from the protocol as they are read, once accepted (the client sends nothing
    # before): no coroutine waits for the next one
    reader, inbound = direct_reader(websocket.scope), None
    if reader is not None:
        inbound = Inbound(websocket, handle, move_at_once, answer)
        inbound.resume = reader(inbound.take)
    await websocket.accept()
    key = session_key(token, found)
    sessions.add(key, websocket)

    async def snapshot() -> str:
        return dumps(await club.relay.table_state(game_id, seat))

    # protocol 1 (kept for one release): the whole state after every event
    convert = None
    if websocket.query_params.get("protocol") == "1":
        convert = WholeStates(lambda: club.relay.table_state(game_id, seat)).convert

    channel = seat_channel(game_id, seat)
    sender = asyncio.create_task(forward(club, websocket, channel, snapshot, convert=convert))
    if seat is not None:
        club.relay.socket_opened(game_id, seat)
    try:
        if inbound is not None:
            await inbound.closed()
        else:
            async for text in messages(websocket):
                await handle(text)
    finally:
        if seat is not None:
            club.relay.socket_closed(game_id, seat)
        sender.cancel()
        sessions.discard(key, websocket)


class Inbound:
    """A socket's messages as its protocol reads them (:func:`~kozel.server.wire.direct_reader`),
    handled one at a time and in order. A move its table in this process can take is queued
    there as it is read (``at_once``), and its verdict answered (``answer``) when it comes;
    other messages are handled by a task that lives while there are messages to handle. So
    a quiet socket keeps no coroutine waiting for its next message (each such wait was made
    again for every message and lived seconds, work for the collector's young collections),
    and a move costs no task (docs/benchmarks.md). Reading stops while a message waits for
    the one before it."""

    def __init__(
        self,
        websocket: WebSocket,
        handle: Callable[[str | None], Awaitable[None]],
        at_once: Callable[[str], asyncio.Future[Reply] | None],
        answer: Callable[[Reply], Awaitable[None]],
    ):
        self.websocket = websocket
        self.handle = handle
        self.at_once = at_once
        self.answer = answer
        self.waiting: deque[str | None] = deque()
        self.task: asyncio.Task[None] | None = None
        self.verdict: asyncio.Future[Reply] | None = None
        """The verdict on a move queued at its table as it was read, while it is to come."""
        self.queued = ""
        """That move's message."""
        self.resume: Callable[[], None] = lambda: None
        """Start reading again (the protocol's)."""

    def take(self, text: str | None) -> bool:
        """A message read (``None``: a binary one); False: read no more for now."""
        busy = self.task is not None or self.verdict is not None
        if not busy and text is not None:
            verdict = self.at_once(text)
            if verdict is not None:
                self.verdict, self.queued = verdict, text
                verdict.add_done_callback(self._decided)
                return True
        self.waiting.append(text)
        if not busy:
            self._start(None)
            return True
        return False

    def _decided(self, verdict: asyncio.Future[Reply]) -> None:
        self.verdict = None
        settled = not verdict.cancelled() and verdict.exception() is None
        if settled and moved(verdict.result()):
            # the table was handed over while the move waited: handled as any other message,
            # it goes to the table's new owner
            self.waiting.appendleft(self.queued)
            self._start(None)
        elif settled and not verdict.result().ok:
            self._start(self.answer(verdict.result()))  # then the messages read meanwhile
        elif self.waiting:
            self._start(None)

    def _start(self, first: Awaitable[None] | None) -> None:
        self.task = asyncio.get_running_loop().create_task(self._handle_waiting(first))

    async def _handle_waiting(self, first: Awaitable[None] | None) -> None:
        try:
            if first is not None:
                await first
            while self.waiting:
                text = self.waiting.popleft()
                if _bad_text(text):
                    await send_error(self.websocket, BAD_TEXT, BAD_TEXT_MESSAGE)
                else:
                    await self.handle(text)
        except Exception:
            self.waiting.clear()
            if self.websocket.client_state == WebSocketState.CONNECTED:
                # as an exception out of the socket's coroutine: logged, the socket closed
                log.exception("handling a message of %s failed", self.websocket.url.path)
                await close(self.websocket, 1011, "internal error")
        finally:
            self.task = None
            self.resume()

    async def closed(self) -> None:
        """Wait until the client is gone (the messages go to :meth:`take`)."""
        with contextlib.suppress(WebSocketDisconnect, RuntimeError):
            while (await self.websocket.receive())["type"] != "websocket.disconnect":
                pass


async def chat_line(
    club: Club,
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
        await club.chat.say(found[0], room, message.get("text"), channels)
    except ClubError as error:
        await send_error(websocket, error.code, error.message, params=error.params)
    except (DBAPIError, OSError, TimeoutError):  # the database is away: nothing was said
        await send_error(websocket, "unavailable", UNAVAILABLE)


SPECTATORS_MAY_NOT = {
    "next": "spectators do not deal",
    "move": "spectators cannot move",
    "seed": "spectators add no seed",
    "rematch": "spectators do not play again",
    "replace": "spectators do not vote",
}
"""What a spectator's socket may not send, and why."""


class TableMessage:
    """One message from a table's socket, answered on it: a seat's move, deal, seed, vote or
    rematch answer, or anyone's ``sync`` or ``ping``."""

    def __init__(self, club: Club, websocket: WebSocket, game_id: int, seat: int | None):
        self.club, self.websocket, self.game_id, self.seat = club, websocket, game_id, seat

    async def handle(self, text: str | None) -> None:
        message = await self._read(text)
        if message is None:
            return
        kind = message.get("type")
        if not isinstance(kind, str):
            kind = ""  # no message has such a type (it may be any JSON value)
        try:
            if kind in SPECTATORS_MAY_NOT and self.seat is None:
                await send_error(self.websocket, "not_seated", SPECTATORS_MAY_NOT[kind])
            elif kind == "ping":
                await self.websocket.send_text(json.dumps({"type": "pong"}))
            elif kind == "sync":
                await self._send_state()
            elif kind in SPECTATORS_MAY_NOT:
                await getattr(self, f"_{kind}")(message)
            else:
                await send_error(
                    self.websocket,
                    "unknown_type",
                    "message types are move, next, seed, replace, rematch, sync, chat and ping",
                )
        except ClubError as error:
            code = "no_table" if error.status == 404 else "unavailable"
            await send_error(self.websocket, code, error.message)
        except (DBAPIError, OSError, TimeoutError):  # the database is away: nothing was done
            await send_error(self.websocket, "unavailable", UNAVAILABLE)

    async def _read(self, text: str | None) -> dict[str, Any] | None:
        """The message as a JSON object, or ``None`` once the client is told what is wrong."""
        if text is None:
            await send_error(self.websocket, "bad_json", "send text frames, one JSON object each")
            return None
        if len(text.encode()) > self.club.settings.max_message_bytes:
            await send_error(self.websocket, "too_big", "messages are at most 16 KiB")
            return None
        try:
            message = json.loads(text)
        except (ValueError, RecursionError):
            await send_error(self.websocket, "bad_json", "send one JSON object per message")
            return None
        return message if isinstance(message, dict) else {}

    async def refused(self, reply: Reply, with_reason: bool = False) -> None:
        if not reply.ok:
            reason = reply.reason if with_reason else ""
            await send_error(self.websocket, reply.code, reply.message, reason, reply.params)

    async def _send_state(self) -> None:
        state = await self.club.relay.table_state(self.game_id, self.seat)
        await self.websocket.send_text(dumps(state))

    async def _next(self, message: dict[str, Any]) -> None:
        assert self.seat is not None
        await self.club.relay.next_round(self.game_id, self.seat)

    async def _move(self, message: dict[str, Any]) -> None:
        assert self.seat is not None
        fields = move_fields(message)
        if fields is None:
            await send_error(
                self.websocket,
                "bad_move",
                'a move is {"type": "move", "version": N, "move": {...}}',
            )
            return
        version, move = fields
        await self.answer_move(await self.club.relay.submit(self.game_id, self.seat, move, version))

    async def answer_move(self, reply: Reply) -> None:
        """The verdict on a move, when it is refused: why, and a stale move's sender the
        table's state."""
        await self.refused(reply, with_reason=True)
        if reply.code == "stale":
            await self._send_state()

    async def _seed(self, message: dict[str, Any]) -> None:
        assert self.seat is not None
        await self.refused(
            await self.club.relay.add_seed(self.game_id, self.seat, message.get("seed"))
        )

    async def _rematch(self, message: dict[str, Any]) -> None:
        assert self.seat is not None
        accept = message.get("accept", True)
        if type(accept) is not bool:
            await send_error(
                self.websocket, "bad_request", 'a rematch is {"type": "rematch", "accept": true}'
            )
            return
        reply = await self.club.relay.rematch(self.game_id, self.seat, accept)
        if not reply.ok:
            await send_error(self.websocket, reply.code, reply.message)

    async def _replace(self, message: dict[str, Any]) -> None:
        assert self.seat is not None
        await self.refused(await self.club.relay.vote(self.game_id, self.seat, message.get("seat")))


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


def move_fields(message: dict[str, Any]) -> tuple[int, dict[str, Any]] | None:
    """A move message's version and move, or ``None`` when it is not shaped as one (both
    ways a move is read, :class:`Inbound`'s and :class:`TableMessage`'s, ask here)."""
    version, move = message.get("version"), message.get("move")
    if type(version) is not int or not isinstance(move, dict):
        return None
    return version, move


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


def _bad_text(raw: str | None) -> bool:
    """A text frame whose JSON decodes to a lone surrogate (the client is told so)."""
    return isinstance(raw, str) and may_hold_surrogate(raw) and _lone_surrogate(raw)


def _lone_surrogate(raw: str) -> bool:
    """A JSON text that decodes to a lone surrogate somewhere (not JSON: ``False``, the
    handler says so)."""
    try:
        return has_lone_surrogate(json.loads(raw))
    except (ValueError, RecursionError):
        return False


async def send_error(
    websocket: WebSocket,
    code: str,
    message: str,
    reason: str = "",
    params: dict[str, Any] | None = None,
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

"""The lobby: the rules of every game, requests and their links, playing the computer or a
stranger, the games being played, the lobby's chat."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi import Body as BodyParam
from pydantic import Field, StrictBool, StrictInt

from kozel.server import series
from kozel.server.chat import LOBBY_ROOM
from kozel.server.describe import game_info
from kozel.server.offer import CLUB_GAMES
from kozel.server.routes.common import (
    Body,
    Changing,
    Clubbed,
    Code,
    Found,
    Id,
    OptionValue,
    SignedIn,
    address,
)

router = APIRouter()


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


class BotsIn(Body):
    level: str = Field(default="amateur", max_length=20)


Joining = Annotated[JoinIn | None, BodyParam()]


@router.get("/api/rules")
async def rules() -> list[dict[str, Any]]:
    """Every game: its family (``goat``: loser-scoring, ``race``: winner-scoring), its board
    (``line`` or ``cross``), its sheet, its options (default, allowed values, bounds, the
    bounds of a rated game, meaning) and presets; ``tournament``: the club runs its
    micro-tournaments (``POST /api/tournaments``)."""
    return [{**game_info(g), "tournament": g.id == series.GAME} for g in CLUB_GAMES.values()]


@router.get("/api/requests")
async def requests(club: Clubbed) -> list[dict[str, Any]]:
    return await club.lobby.open_requests()


@router.post("/api/requests")
async def create(
    body: RequestIn, request: Request, user: Changing, club: Clubbed
) -> dict[str, Any]:
    """A request; ``rated`` needs people at every seat (no ``bots``) and the options within
    their rated bounds (``/api/rules``' ``rated_minimum``/``rated_maximum``)."""
    return await club.lobby.create_request(
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


@router.get("/api/requests/{request_id}")
async def one_request(request_id: Id, found: Found, club: Clubbed) -> dict[str, Any]:
    """One request, whatever its status (``game_id`` once it has started); a private one
    only to those who sit at it."""
    return await club.lobby.request(request_id, found[0] if found else None)


@router.post("/api/requests/{request_id}/join")
async def join(
    request_id: Id, user: Changing, club: Clubbed, body: Joining = None
) -> dict[str, Any]:
    """Take a seat (``seat``, or the one kept for you, or the first free one)."""
    return await club.lobby.join(user, request_id, body.seat if body else None)


@router.post("/api/requests/{request_id}/reserve")
async def reserve(request_id: Id, body: ReserveIn, user: Changing, club: Clubbed) -> dict[str, Any]:
    """The creator keeps a seat for a player or for the link, or frees it."""
    return await club.lobby.reserve(user, request_id, body.seat, body.name, body.link)


@router.get("/api/me/requests")
async def my_requests(found: SignedIn, club: Clubbed) -> list[dict[str, Any]]:
    """The open requests you sit at, private ones too, each with its link's code."""
    return await club.lobby.my_requests(found[0])


@router.get("/api/invites/{code}")
async def invite(code: Code, club: Clubbed) -> dict[str, Any]:
    """The request behind a link, whatever its status."""
    return await club.lobby.invite(code)


@router.post("/api/invites/{code}/join")
async def join_by_link(
    code: Code, user: Changing, club: Clubbed, body: Joining = None
) -> dict[str, Any]:
    """Take a seat of the request behind a link (private or not; also a seat kept for
    the link)."""
    return await club.lobby.join_by_link(user, code, body.seat if body else None)


@router.post("/api/requests/{request_id}/leave")
async def leave(request_id: Id, user: Changing, club: Clubbed) -> dict[str, Any]:
    return await club.lobby.leave(user, request_id)


@router.post("/api/requests/{request_id}/cancel")
async def cancel(request_id: Id, user: Changing, club: Clubbed) -> dict[str, Any]:
    return await club.lobby.cancel(user, request_id)


@router.post("/api/requests/{request_id}/bots")
async def bots(request_id: Id, body: BotsIn, user: Changing, club: Clubbed) -> dict[str, Any]:
    return await club.lobby.fill_with_bots(user, request_id, body.level)


@router.post("/api/play/computer")
async def play_computer(
    body: ComputerIn, request: Request, user: Changing, club: Clubbed
) -> dict[str, Any]:
    """A table against the computer, never rated (``rated: true`` is refused)."""
    return await club.lobby.play_computer(
        user,
        body.game,
        body.options,
        body.level,
        body.seconds_per_move,
        body.rated,
        client=address(request),
    )


@router.post("/api/play/person")
async def play_person(
    body: PersonIn, request: Request, user: Changing, club: Clubbed
) -> dict[str, Any]:
    return await club.lobby.play_person(
        user,
        body.game,
        body.options,
        body.seconds_per_move,
        body.rated,
        client=address(request),
    )


@router.get("/api/live")
async def live(
    club: Clubbed, game: Annotated[str | None, Query(max_length=20)] = None
) -> list[dict[str, Any]]:
    """The games being played, newest first, for anyone to watch (``game``: of that game
    only): players with their ratings, the round, the score per scoring unit."""
    return await club.queries.live_games(game)


@router.get("/api/chat")
async def lobby_chat(club: Clubbed) -> list[dict[str, Any]]:
    """The lobby's last chat lines, oldest first (new ones come over /ws/lobby)."""
    return await club.chat.history(LOBBY_ROOM)

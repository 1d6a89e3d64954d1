"""What every route shares: the app's club, the session and CSRF dependencies, the JSON
bodies' common check, refusals."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Cookie, Depends, Header, Request, Response
from fastapi import Path as PathParam
from fastapi.responses import JSONResponse
from pydantic import BaseModel, StrictBool, StrictInt, StrictStr, model_validator
from pydantic_core import PydanticCustomError
from starlette.requests import HTTPConnection

from kozel.server import auth
from kozel.server.club import Club
from kozel.server.db import User
from kozel.server.errors import ClubError
from kozel.server.text import BAD_TEXT, has_lone_surrogate, printable
from kozel.server.text import MESSAGE as BAD_TEXT_MESSAGE

UNAVAILABLE = "the club's database is unavailable: try again in a moment"

OptionValue = StrictBool | StrictInt | StrictStr
"""An option's JSON value with its exact type: ``4.0`` is not ``4`` and ``"true"`` is not
``true`` (the option's own check then says what it must be)."""
Id = Annotated[int, PathParam(ge=1, le=2**31 - 1, description="a positive id")]
Code = Annotated[str, PathParam(max_length=32, pattern="^[A-Za-z0-9_-]+$", description="a link")]


def club_of(connection: HTTPConnection) -> Club:
    """The club of the app serving this request or socket."""
    club: Club = connection.app.state.club
    return club


Clubbed = Annotated[Club, Depends(club_of)]


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


async def current(
    club: Clubbed,
    kozel_session: Annotated[str | None, Cookie()] = None,
) -> tuple[User, str] | None:
    return await club.accounts.session_user(kozel_session)


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


Found = Annotated[tuple[User, str] | None, Depends(current)]
"""The session's player and CSRF token, if any."""
SignedIn = Annotated[tuple[User, str], Depends(signed_in)]
"""The session's player and CSRF token; 401 without one."""
Changing = Annotated[User, Depends(changing)]
"""The player of a state-changing call (signed in, with the CSRF token)."""


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


def opened(
    club: Club, request: Request, response: Response, user: User, token: str, csrf: str
) -> dict[str, Any]:
    """A session opened: its cookies set, the player as ``/api/me`` says him."""
    age = club.settings.session_days * 86400
    secure = club.settings.secure_cookies or request.url.scheme == "https"
    response.set_cookie(
        auth.SESSION_COOKIE, token, max_age=age, httponly=True, samesite="lax", secure=secure
    )
    response.set_cookie(auth.CSRF_COOKIE, csrf, max_age=age, samesite="lax", secure=secure)
    return {"name": user.name, "guest": user.guest, "rating": user.rating, "csrf": csrf}

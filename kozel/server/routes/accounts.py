"""Registering, logging in and out, a player's page, the leaderboard."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Cookie, Request, Response
from pydantic import Field

from kozel.server import auth
from kozel.server.routes.common import (
    Body,
    Changing,
    Clubbed,
    SignedIn,
    address,
    opened,
)
from kozel.server.routes.sockets import sockets_of

router = APIRouter()


class Credentials(Body):
    name: str = Field(max_length=64)
    password: str = Field(max_length=auth.MAX_PASSWORD)


@router.post("/api/auth/register")
async def register(
    body: Credentials, request: Request, response: Response, club: Clubbed
) -> dict[str, Any]:
    client = address(request)
    return opened(
        club, request, response, *await club.accounts.register(body.name, body.password, client)
    )


@router.post("/api/auth/login")
async def login(
    body: Credentials, request: Request, response: Response, club: Clubbed
) -> dict[str, Any]:
    client = address(request)
    return opened(
        club, request, response, *await club.accounts.login(body.name, body.password, client)
    )


@router.post("/api/auth/guest")
async def guest(request: Request, response: Response, club: Clubbed) -> dict[str, Any]:
    return opened(club, request, response, *await club.accounts.guest(address(request)))


@router.post("/api/auth/logout")
async def logout(
    request: Request,
    response: Response,
    club: Clubbed,
    _: Changing,
    kozel_session: Annotated[str | None, Cookie()] = None,
) -> dict[str, bool]:
    if kozel_session:
        await club.accounts.logout(kozel_session)
        await sockets_of(request).logged_out(auth.token_hash(kozel_session))
    response.delete_cookie(auth.SESSION_COOKIE)
    response.delete_cookie(auth.CSRF_COOKIE)
    return {"ok": True}


@router.get("/api/me")
async def me(found: SignedIn, club: Clubbed) -> dict[str, Any]:
    user, csrf = found
    return {
        "name": user.name,
        "guest": user.guest,
        "rating": user.rating,
        "csrf": csrf,
        "admin": club.accounts.is_admin(user),
    }


@router.get("/api/leaderboard")
async def leaderboard(club: Clubbed) -> list[dict[str, Any]]:
    return await club.queries.leaderboard()


@router.get("/api/players/{name}")
async def player(name: str, club: Clubbed) -> dict[str, Any]:
    return await club.queries.player(name)

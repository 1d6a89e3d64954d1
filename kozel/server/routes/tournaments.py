"""Bykovo micro-tournaments: made like a request, followed on their page."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from pydantic import Field, StrictBool, StrictInt

from kozel.server.routes.common import Body, Changing, Clubbed, Id, address

router = APIRouter()


class TournamentIn(Body):
    players: StrictInt = 4
    """The field: 4 to 7 seats."""
    seconds_per_move: StrictInt = 60
    rated: StrictBool = True
    bots: dict[int, str] = Field(default_factory=dict, max_length=7)


@router.post("/api/tournaments")
async def create_tournament(
    body: TournamentIn, request: Request, user: Changing, club: Clubbed
) -> dict[str, Any]:
    """A Bykovo micro-tournament request of 4 to 7 seats: a lobby request with
    ``tournament: true``; joined, left, cancelled and filled with computer players like
    any request. Rated only between people."""
    return await club.lobby.create_tournament(
        user,
        body.players,
        body.seconds_per_move,
        body.rated,
        body.bots,
        client=address(request),
    )


@router.get("/api/tournaments/{tournament_id}")
async def tournament(tournament_id: Id, club: Clubbed) -> dict[str, Any]:
    """The tournament's games and standings, as its page shows them."""
    return await club.tournaments.state(tournament_id)


@router.get("/api/tournaments/{tournament_id}/record")
async def tournament_record(tournament_id: Id, club: Clubbed) -> dict[str, Any]:
    """The finished tournament's kozel-tournament/1 record (``kozel replay`` checks it)."""
    return await club.tournaments.record(tournament_id)

"""A game: its row, its record once it is over, the check of its shuffle, its positions,
the expert's judgement of it, its chat's last lines."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter

from kozel.server.chat import game_room
from kozel.server.club import game_json
from kozel.server.db import Game
from kozel.server.describe import positions
from kozel.server.errors import ClubError
from kozel.server.offer import CLUB_GAMES
from kozel.server.routes.common import Clubbed, Id
from kozel.verify import verify

router = APIRouter()


def finished(row: Game) -> dict[str, Any]:
    """The record of a finished game; 409 ``not_over`` before its end (it holds every hand)."""
    if row.record is None:
        raise ClubError(409, "not_over", f"game {row.id} is not over")
    return row.record


@router.get("/api/games/{game_id}")
async def game(game_id: Id, club: Clubbed) -> dict[str, Any]:
    return game_json(await club.queries.game_row(game_id))


@router.get("/api/games/{game_id}/chat")
async def table_chat(game_id: Id, club: Clubbed) -> list[dict[str, Any]]:
    """The table's last chat lines, oldest first (new ones come over its sockets)."""
    await club.queries.game_row(game_id)
    return await club.chat.history(game_room(game_id))


@router.get("/api/games/{game_id}/record")
async def record(game_id: Id, club: Clubbed) -> dict[str, Any]:
    """The finished game as a kozel-record/1 record (all hands: only once it is over)."""
    return finished(await club.queries.game_row(game_id))


@router.get("/api/games/{game_id}/shuffle")
async def game_shuffle(game_id: Id, club: Clubbed) -> dict[str, Any]:
    """The check of a finished game's verifiable shuffle, as `kozel verify` makes it: the
    commitment, and whether each deal is the one its seeds give."""
    record = finished(await club.queries.game_row(game_id))
    check = await asyncio.to_thread(verify, record)
    return {**check.to_dict(), "shuffle": record.get("shuffle")}


@router.get("/api/games/{game_id}/positions")
async def game_positions(game_id: Id, club: Clubbed) -> dict[str, Any]:
    """Every position of every round of a finished game, computed by the engine: all
    hands, the bazaar's size, the layout's arms with their tiles, whose move it is."""
    row = await club.queries.game_row(game_id)
    record = finished(row)
    if CLUB_GAMES[row.game].table != "layout":
        raise ClubError(
            422, "no_positions", f"game {game_id} is not played on a layout: see its record"
        )
    return await asyncio.to_thread(positions, record)


@router.get("/api/games/{game_id}/analysis")
async def game_analysis(game_id: Id, club: Clubbed) -> dict[str, Any]:
    """The expert's judgement of every decision of each seat of a finished game: the move
    played, the expert's move, the expected loss, the large mistakes and each player's
    accuracy. Computed once, after the game, by the club's analysis worker: the first ask
    queues it (``status``: queued, running, done or failed; ``progress``: seats done)."""
    row = await club.queries.game_row(game_id)
    finished(row)
    return await club.analyst.request(row)

"""The read-only listings: a game's row, the games being played, the leaderboard and a
player's page, and how a game looks to clients in them (JSON)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import bindparam, select
from sqlalchemy.ext.asyncio import AsyncSession

from kozel.core import InvalidOption
from kozel.server import auth
from kozel.server.db import Game, GamePlayer, RatingChange, User
from kozel.server.errors import ClubError
from kozel.server.offer import club_game
from kozel.shuffle import commitment

from .services import Services, aware

RECENT_GAMES = 20
"""How many of a player's games the player page lists."""
LIVE_GAMES = 100
"""How many games being played the lobby lists (the newest)."""
_SEATS = select(Game.seats).where(Game.id == bindparam("game"))
"""A game's seats, in a statement built once (every table socket asks it)."""


class Queries:
    """Reads the club's games and players; changes nothing."""

    def __init__(self, services: Services) -> None:
        self.sessions = services.reads
        self.engine = services.read_engine

    async def game_row(self, game_id: int) -> Game:
        async with self.sessions() as session:
            row = await session.get(Game, game_id)
        if row is None:
            raise ClubError(404, "no_game", f"there is no game {game_id}")
        return row

    async def game_seats(self, game_id: int) -> list[dict[str, Any]]:
        """A game's seats (who sits where), all a table socket needs of its row: read through
        the engine, not an ORM session (a fifth of the CPU of loading the row)."""
        async with self.engine.connect() as connection:
            seats = (await connection.execute(_SEATS, {"game": game_id})).scalar()
        if seats is None:
            raise ClubError(404, "no_game", f"there is no game {game_id}")
        return list(seats)

    async def live_games(self, game: str | None = None) -> list[dict[str, Any]]:
        """The games being played, newest first (``game``: of that game only): who plays
        them with their ratings, the round and the score, for anyone to watch."""
        if game is not None:
            try:
                club_game(game)
            except InvalidOption as error:
                raise ClubError(422, error.code, str(error), **error.params) from None
        query = select(Game).where(Game.status == "playing")
        if game is not None:
            query = query.where(Game.game == game)
        async with self.sessions() as session:
            rows = list(await session.scalars(query.order_by(Game.id.desc()).limit(LIVE_GAMES)))
            return await self._live_json(session, rows)

    @staticmethod
    async def _live_json(session: AsyncSession, rows: list[Game]) -> list[dict[str, Any]]:
        people = {seat["user"] for row in rows for seat in row.seats if "user" in seat}
        ratings: dict[int, int] = {}
        if people:
            found = await session.execute(select(User.id, User.rating).where(User.id.in_(people)))
            ratings = {user: rating for user, rating in found}
        return [live_json(row, ratings) for row in rows]

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
                raise ClubError(404, "no_player", f"there is no player {name!r}", name=name)
            changes = await session.scalars(
                select(RatingChange)
                .where(RatingChange.user_id == user.id)
                .order_by(RatingChange.id.desc())
                .limit(100)
            )
            rows = await session.scalars(
                select(Game)
                .join(GamePlayer, GamePlayer.game_id == Game.id)
                .where(GamePlayer.user_id == user.id)
                .order_by(Game.id.desc())
                .limit(RECENT_GAMES)
            )
            playing = list(
                await session.scalars(
                    select(Game)
                    .join(GamePlayer, GamePlayer.game_id == Game.id)
                    .where(GamePlayer.user_id == user.id, Game.status == "playing")
                    .order_by(Game.id.desc())
                )
            )
            now_playing = await self._live_json(session, playing)
            games = [
                {
                    "id": g.id,
                    "game": g.game,
                    "status": g.status,
                    "rated": g.rated,
                    "seats": [seat.get("name") or f"bot:{seat.get('bot')}" for seat in g.seats],
                    "tournament_id": g.tournament_id,
                    **names_json(g),
                    "started": g.created_at.isoformat(),
                }
                for g in rows
            ]
            return {
                "name": user.name,
                "rating": user.rating,
                "guest": user.guest,
                "playing": now_playing,
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


def names_json(row: Game) -> dict[str, Any]:
    """How a client names the game's computer players (``names.js``): a tournament's game
    gives each seat's entrant (``null`` for a person's seat; beside ``tournament_id``), so
    that a computer player has one name on the tournament page, at its tables and in every
    list; a lone game gives nothing, its seats naming them."""
    if row.tournament_id is None:
        return {}
    return {"entrants": [seat.get("entrant") for seat in row.seats]}


def live_json(row: Game, ratings: dict[int, int]) -> dict[str, Any]:
    """A game being played as the lobby lists it: each seat a person with his rating or a
    computer player (with the person it replaced), the round and the score (per unit)."""
    players: list[dict[str, Any]] = []
    for seat in row.seats:
        if "user" in seat:
            players.append({"name": seat["name"], "rating": ratings.get(seat["user"], 0)})
        elif "replaced" in seat:
            players.append({"bot": seat["bot"], "replaced": seat["replaced"]["name"]})
        else:
            players.append({"bot": seat["bot"]})
    live = row.live or {}
    return {
        "id": row.id,
        "game": row.game,
        "options": row.options,
        "rated": row.rated,
        "seconds_per_move": row.seconds_per_move,
        "tournament_id": row.tournament_id,
        "players": players,
        **names_json(row),
        "round": live.get("round", 0),
        "score": live.get("score", []),
        "commitment": commitment(row.server_seed) if row.server_seed else None,
        "started": aware(row.created_at).isoformat(),
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
        "tournament_id": row.tournament_id,
    }

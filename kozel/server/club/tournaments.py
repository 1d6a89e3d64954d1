"""Bykovo micro-tournaments: starting one from a full request, seating each next game when
a game ends (:mod:`kozel.server.series` holds the rules of it), resuming one whose step failed,
and its state and record for its page."""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncSession

from kozel.server import series
from kozel.server.cluster import Claimable
from kozel.server.db import Game, GameRequest, TournamentRow, User
from kozel.server.errors import ClubError
from kozel.server.seeds import seeded_number

from .checks import validate_tournament
from .claims import Claims
from .new_games import NewGames
from .services import Services

log = logging.getLogger("kozel.club")


class Tournaments:
    """The club's micro-tournaments; their games are run by :class:`Claims` like any other."""

    def __init__(self, services: Services, claims: Claims, new_games: NewGames) -> None:
        self.services = services
        self.sessions = services.sessions
        self.node = services.node
        self.claims = claims
        self.new_games = new_games

    async def start(self, session: AsyncSession, request: GameRequest) -> Game:
        """A full tournament request becomes a tournament and its first game (rated only
        between people: computer players make it unrated, as they do a game): that game's
        row, to run once committed."""
        rated = request.rated and all("user" in seat for seat in request.seats)
        entrants = series.entrants_of(request.seats)
        people = [e["user"] for e in entrants if "user" in e]
        ratings = {}
        if people:
            users = await session.execute(select(User.id, User.rating).where(User.id.in_(people)))
            ratings = {user: rating for user, rating in users}
        for entrant in entrants:
            if "user" in entrant:
                entrant["rating"] = ratings.get(entrant["user"], 0)
        row = TournamentRow(
            game=series.GAME,
            entrants=entrants,
            seconds_per_move=request.seconds_per_move,
            rated=rated,
            seed=series.new_seed(),
            status="playing",
        )
        session.add(row)
        await session.flush()
        if self.services.settings.seed is not None:  # a seeded club (tests): its lots too
            row.seed = seeded_number(self.services.settings.seed, "tournament", row.id)
        values = series.game_values(row, series.fresh(row).seating(), self.node)
        game = await self.new_games.new_game(session, **values)
        request.rated = rated
        request.status = "started"
        request.game_id = game.id
        request.tournament_id = row.id
        return game

    async def bot_tournament(self, levels: list[str], seconds: int) -> int:
        """A micro-tournament of computer players only (for watching, testing and load),
        started at once by this node: its id."""
        validate_tournament(
            self.services.settings, len(levels), seconds, dict(enumerate(levels)), False
        )
        request = GameRequest(
            game=series.GAME,
            options={},
            seconds_per_move=seconds,
            rated=False,
            status="open",
            seats=[{"bot": level} for level in levels],
            tournament=True,
        )
        async with self.sessions() as session, session.begin():
            game = await self.start(session, request)
        assert request.tournament_id is not None
        await self.claims.claim_new(game)
        return request.tournament_id

    async def game_over(self, connection: AsyncConnection, tournament_id: int) -> int | None:
        return await series.game_over(
            connection, tournament_id, self.node, seed=self.services.settings.seed
        )

    async def resume(self) -> None:
        """Seat the next game of any tournament left without one: its last game ended but
        the tournament's step failed (the game's end was stored all the same)."""
        async with self.sessions() as session:
            stalled = list(
                await session.scalars(
                    select(TournamentRow.id).where(
                        TournamentRow.status == "playing",
                        ~select(Game.id)
                        .where(Game.tournament_id == TournamentRow.id, Game.status == "playing")
                        .exists(),
                    )
                )
            )
        for tournament_id in stalled:
            try:
                async with self.services.engine.begin() as connection:
                    await series.game_over(
                        connection,
                        tournament_id,
                        self.node,
                        resume=True,
                        seed=self.services.settings.seed,
                    )
            except Exception:
                log.exception("tournament %s: seating its next game failed", tournament_id)
                continue
            await self.moved_on(tournament_id)

    async def moved_on(self, tournament_id: int) -> None:
        """After a tournament's game ended: claim its next game (a failure here leaves it to
        the claiming loop, as after a restart) and tell the tournament's page."""
        try:
            async with self.sessions() as session:
                rows = await session.execute(
                    select(Game.id, Game.fence, Game.owner).where(
                        Game.tournament_id == tournament_id, Game.status == "playing"
                    )
                )
                live = [Claimable(*row) for row in rows]
            for candidate in live:
                if candidate.owner == self.node:
                    await self.claims.claim(candidate)
        except Exception:
            log.exception("tournament %s: starting its next game failed", tournament_id)
        await self._publish(tournament_id)

    async def _publish(self, tournament_id: int) -> None:
        try:
            state = await self.state(tournament_id)
            await self.services.pubsub.publish(series.channel(tournament_id), json.dumps(state))
        except Exception:  # the page catches up when it reconnects
            log.exception("tournament %s: publishing its standings failed", tournament_id)

    async def state(self, tournament_id: int) -> dict[str, Any]:
        """A tournament's state for its page (:func:`series.state_json`)."""
        async with self.sessions() as session:
            row = await session.get(TournamentRow, tournament_id)
            if row is None:
                raise ClubError(404, "no_tournament", f"there is no tournament {tournament_id}")
            games = list(
                await session.scalars(
                    select(Game).where(Game.tournament_id == tournament_id).order_by(Game.id)
                )
            )
        return await asyncio.to_thread(series.state_json, row, games)

    async def record(self, tournament_id: int) -> dict[str, Any]:
        async with self.sessions() as session:
            row = await session.get(TournamentRow, tournament_id)
        if row is None:
            raise ClubError(404, "no_tournament", f"there is no tournament {tournament_id}")
        if row.record is None:
            raise ClubError(409, "not_over", f"tournament {tournament_id} is not over")
        return row.record

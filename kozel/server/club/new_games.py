"""New live games: a new game's stored row (:meth:`NewGames.new_game`: a request's, a
tournament's first, a rematch's, a game of computer players; a tournament's later games are
inserted in the transaction that ends the one before, :func:`kozel.server.series.game_over`),
a rematch of a finished table, and a game of computer players only."""

from __future__ import annotations

from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from kozel.core import InvalidOption
from kozel.server import series
from kozel.server.db import Game, GamePlayer
from kozel.server.errors import ClubError
from kozel.server.offer import club_game
from kozel.server.rematch import rematch_seats
from kozel.server.seeds import seeded_server_seed
from kozel.server.tables import Table

from .checks import rated_problem, validate
from .claims import Claims
from .services import Services


class NewGames:
    """Stores new games, owned by this node (which claims those that start at once)."""

    def __init__(self, services: Services, claims: Claims) -> None:
        self.services = services
        self.sessions = services.sessions
        self.claims = claims

    async def new_game(self, session: AsyncSession, **values: Any) -> Game:
        """A new live game's row, owned by this node and born claimed (fence 1, as a claim
        would leave it: :meth:`Claims.claim_new` runs it), stored (so its id is known), given
        its server seed in a seeded club (``Settings.seed``, tests: derived from the club's
        seed and the game's id), and each person at it listed in ``game_players``."""
        row = Game(
            **{"status": "playing", "version": 0, **values, "owner": self.services.node, "fence": 1}
        )
        session.add(row)
        await session.flush()
        if self.services.settings.seed is not None:
            row.server_seed = seeded_server_seed(self.services.settings.seed, row.id)
        people = series.people_of(row.seats)
        session.add_all(GamePlayer(game_id=row.id, user_id=user) for user in people)
        return row

    async def rematch(self, table: Table) -> int:
        """Everyone at a finished table accepted a rematch: the same players and house rules
        at a new table, the seats moved one place on (kept in a game of pairs), rated when
        the finished game was and the new one may be. This node runs it."""
        options = table.rules.options_dict(table.opts)
        seats = rematch_seats(table.seats, table.opts.teams)
        rated = table.rated and not rated_problem(table.rules.id, options, seats)
        async with self.sessions() as session, session.begin():
            row = await self.new_game(
                session,
                game=table.rules.id,
                options=options,
                seats=seats,
                seconds_per_move=table.seconds_per_move,
                rated=rated,
            )
        await self.claims.claim_new(row)
        return row.id

    async def bot_game(
        self, game: str, options: dict[str, Any], levels: list[str], seconds: int
    ) -> Game:
        """A game of computer players only (for watching, testing and load), stored but not
        yet running: subscribe to its channels, then :meth:`Claims.open_table` it."""
        full_options, players = validate(self.services.settings, game, options, seconds, {})
        try:  # any level the game knows, think-time budgets included (not offered over HTTP)
            for level in levels:
                club_game(game).make_bot(level)
        except InvalidOption as error:
            raise ClubError(422, error.code, str(error), **error.params) from None
        async with self.sessions() as session, session.begin():
            row = await self.new_game(
                session,
                game=game,
                options=full_options,
                seats=[{"bot": levels[s % len(levels)]} for s in range(players)],
                seconds_per_move=seconds,
                rated=False,
            )
        return row

"""The games the club offers: those played at a kind of table the browser client draws.

Every game says what table it needs (:attr:`kozel.engine.game.Game.table`); a game joins the lobby,
``/api/rules`` and game requests once its table is in :data:`DRAWN_TABLES`, with no change
elsewhere in the server.
"""

from __future__ import annotations

from kozel.engine.errors import unknown_game
from kozel.engine.game import Game
from kozel.games import ALL_GAMES

DRAWN_TABLES = frozenset({"layout", "poker", "tricks"})
"""The kinds of table the browser client draws (``kozel/web``)."""

CLUB_GAMES: dict[str, Game] = {
    game_id: game for game_id, game in ALL_GAMES.items() if game.table in DRAWN_TABLES
}
"""The games the club offers, by id."""


def club_game(game_id: str) -> Game:
    """A game the club offers; ``InvalidOption`` (``unknown_game``) naming the games it offers
    otherwise."""
    try:
        return CLUB_GAMES[game_id]
    except KeyError:
        raise unknown_game(game_id, CLUB_GAMES) from None

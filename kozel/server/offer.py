"""The games the club offers: those played at a kind of table the browser client draws.

Every game says what table it needs (:attr:`kozel.game.Game.table`); a game joins the lobby,
``/api/rules`` and game requests once its table is in :data:`DRAWN_TABLES`, with no change
elsewhere in the server. The club's code reads layout rules (the board, the spinner, the
sheet) because layouts are all the client draws today.
"""

from __future__ import annotations

from kozel.games import ALL_GAMES, GAMES, unknown_game
from kozel.rules import Ruleset

DRAWN_TABLES = frozenset({"layout"})
"""The kinds of table the browser client draws (``kozel/web``)."""

CLUB_GAMES: dict[str, Ruleset] = {
    game_id: GAMES[game_id]
    for game_id, game in ALL_GAMES.items()
    if game.table in DRAWN_TABLES and game_id in GAMES
}
"""The games the club offers, by id."""


def club_game(game_id: str) -> Ruleset:
    """The rules of a game the club offers; ``InvalidOption`` (``unknown_game``) naming the
    games it offers otherwise."""
    try:
        return CLUB_GAMES[game_id]
    except KeyError:
        raise unknown_game(game_id, CLUB_GAMES) from None

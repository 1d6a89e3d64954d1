"""The checks of a new request, tournament or game: its game and options, its seconds per
move, its computer players' levels and seats, and whether it may be rated."""

from __future__ import annotations

from typing import Any

from kozel.core import InvalidOption
from kozel.games import get_game
from kozel.layout.bots import LEVELS
from kozel.server import series
from kozel.server.errors import ClubError
from kozel.server.offer import club_game
from kozel.server.settings import Settings

NOT_RATED_WITH_COMPUTERS = "games with computer players are not rated"


def validate(
    settings: Settings,
    game: str,
    options: dict[str, Any],
    seconds: int,
    bots: dict[int, str],
    rated: bool = False,
) -> tuple[dict[str, Any], int]:
    """The request's full options and its number of players; a rated request must seat
    people only and keep every option within its rated bounds."""
    try:
        rules = club_game(game)
        opts = rules.options(options)
    except InvalidOption as error:
        raise ClubError(422, error.code, str(error), **error.params) from None
    for level in bots.values():
        check_level(level)
    low, high = settings.min_seconds_per_move, settings.max_seconds_per_move
    if not low <= seconds <= high:
        raise ClubError(
            422, "seconds", f"seconds per move must be {low}..{high}", low=low, high=high
        )
    for seat in bots:
        if not 0 <= seat < opts.players:
            raise ClubError(422, "no_seat", f"seat {seat} is not at a table of {opts.players}")
    if rated and bots:
        raise ClubError(422, "rated_computers", f"{NOT_RATED_WITH_COMPUTERS}: send rated = false")
    if rated and rules.unrated_reason:
        raise ClubError(422, "never_rated", f"{rules.unrated_reason}: send rated = false")
    if rated and (problem := rules.rated_problem(opts)):
        raise ClubError(
            422, "rated_bounds", f"{problem}: shorter games are not rated; send rated = false"
        )
    return rules.options_dict(opts), opts.players


def validate_tournament(
    settings: Settings, field: int, seconds: int, bots: dict[int, str], rated: bool
) -> tuple[dict[str, Any], int]:
    low, high = series.FIELD
    if not low <= field <= high:
        raise ClubError(
            422, "field", f"a micro-tournament has {low} to {high} players", low=low, high=high
        )
    """A tournament request's full options (its game's defaults) and its field."""
    rules = get_game(series.GAME)
    validate(settings, series.GAME, {}, seconds, {}, False)
    for seat, level in bots.items():
        check_level(level)
        if not 0 <= seat < field:
            raise ClubError(422, "no_seat", f"seat {seat} is not at a table of {field}")
    if rated and bots:
        raise ClubError(422, "rated_computers", f"{NOT_RATED_WITH_COMPUTERS}: send rated = false")
    return rules.options_dict(rules.options({})), field


def check_level(level: str) -> None:
    """The club seats its named levels only (no custom think times)."""
    if level not in LEVELS:
        raise ClubError(422, "unknown_bot", f"unknown bot {level!r}; bots: {', '.join(LEVELS)}")


def rated_problem(game: str, options: dict[str, Any], seats: list[Any]) -> str:
    """Why a game of stored options and seats cannot be rated, or ``""``."""
    if any(seat and "bot" in seat for seat in seats):
        return NOT_RATED_WITH_COMPUTERS
    rules = club_game(game)
    return rules.rated_problem(rules.options(options))

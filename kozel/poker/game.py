"""Domino Poker as a game of the club: its options (docs/rules.md#poker-decisions item 3, each
integer with an upper bound) and how to start, replay and seat bots in a session."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from kozel.engine.game import Game, GameBot, GameMatch, GameMove, GameView, Review
from kozel.engine.options import DeclaredOptions, Options, OptionSpec, OptionValue
from kozel.poker.match import PokerMatch, PokerOptions
from kozel.poker.views import PokerView

MAX_CHIPS = 100_000
MAX_ANTE = 1_000
MAX_BET = 1_000
MAX_HANDS = 1_000

OPTION_SPECS: tuple[OptionSpec, ...] = (
    OptionSpec("players", "choice", 3, "number of players", choices=(2, 3, 4)),
    OptionSpec("chips", "int", 100, "chips each player starts with", minimum=1, maximum=MAX_CHIPS),
    OptionSpec(
        "ante", "int", 1, "chips each player puts in before a deal", minimum=1, maximum=MAX_ANTE
    ),
    OptionSpec(
        "limit",
        "choice",
        "fixed",
        "fixed: bets and raises of `bet` (first round) and twice that (second), at most 3 raises "
        "a round; no_limit: any bet up to the player's chips, a raise at least the last one",
        choices=("fixed", "no_limit"),
    ),
    OptionSpec(
        "bet",
        "int",
        2,
        "the fixed-limit bet of the first round (the second's is double)",
        minimum=1,
        maximum=MAX_BET,
    ),
    OptionSpec(
        "hands",
        "int",
        50,
        "the session ends after this many hands (or when one player holds all the chips)",
        minimum=1,
        maximum=MAX_HANDS,
        rated_minimum=25,
    ),
)


@dataclass(frozen=True)
class PokerGame(DeclaredOptions):
    """Domino Poker (docs/rules.md#poker-game): a :class:`kozel.engine.game.Game` not played on a
    layout."""

    id: str = "poker"
    title: str = "Domino Poker"
    summary: str = (
        "Five-tile draw poker with chips on the 20 tiles without blanks and 1-1: antes, a "
        "betting round, the draw, a second betting round and the showdown."
    )
    sheet_kind: str = "chips"
    unrated_reason: str = ""
    table: str = "poker"
    option_specs: tuple[OptionSpec, ...] = OPTION_SPECS
    presets: Mapping[str, Mapping[str, OptionValue]] = field(
        default_factory=lambda: {"no-limit": {"limit": "no_limit"}}
    )

    def build_options(self, resolved: dict[str, Any]) -> Options:
        return PokerOptions(teams=False, **resolved)

    def new_match(self, opts: Options, seed: int | None = None) -> PokerMatch:
        assert isinstance(opts, PokerOptions)
        return PokerMatch(opts, seed)

    def replay(self, record: dict[str, Any]) -> PokerMatch:
        from kozel.poker.record import replay

        return replay(record)

    def review(self, record: dict[str, Any], seat: int) -> Review:
        """Each decision valued by the expert in chips expected from there on (a discard: its
        expected share of the pot as it stands)."""
        from kozel.engine.review import RecordReview
        from kozel.poker.bots import ExpertPokerBot
        from kozel.poker.record import replay

        analyst = ExpertPokerBot(0)
        return RecordReview(record, seat, replay, analyst.analyse, "chips")

    def view_from_dict(self, data: dict[str, Any]) -> GameView:
        from kozel.poker.views import poker_view_from_dict

        return poker_view_from_dict(data)

    def move_to_dict(self, move: GameMove) -> dict[str, Any]:
        from kozel.poker.moves import move_to_dict

        return move_to_dict(move)

    def check_deal(
        self, opts: Options, number: int, recorded: dict[str, Any], stream: random.Random
    ) -> list[str]:
        """The hand's deal and its draws from the shuffled discards
        (:func:`kozel.poker.record.check_hand`)."""
        from kozel.poker.record import check_hand

        assert isinstance(opts, PokerOptions)
        return check_hand(opts, number, recorded, stream)

    def make_bot(self, level: str, seed: int | None = None) -> GameBot:
        from kozel.poker.bots import make_poker_bot

        return make_poker_bot(level, seed)


POKER = PokerGame()


def _conforms(
    game: PokerGame, match: PokerMatch, view: PokerView
) -> tuple[Game, GameMatch, GameView]:
    """Poker implements the game protocol (checked by mypy here)."""
    return game, match, view

"""Trumps as a game of the club: its option (the target, with an upper bound) and how to
start, replay and seat bots in a game. Four players in two pairs, always."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from kozel.engine.game import Game, GameBot, GameMatch, GameMove, GameView, Review
from kozel.engine.options import DeclaredOptions, Options, OptionSpec, OptionValue
from kozel.trumps.match import TrumpsMatch, TrumpsOptions
from kozel.trumps.views import TrumpsView

MAX_TARGET = 1_000

OPTION_SPECS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "target",
        "int",
        250,
        "the game ends when a pair has this many points (both: the higher)",
        minimum=1,
        maximum=MAX_TARGET,
        rated_minimum=100,
    ),
)


@dataclass(frozen=True)
class TrumpsGame(DeclaredOptions):
    """Trumps (docs/rules.md#trumps-game): a :class:`kozel.engine.game.Game` played in tricks,
    not on a layout."""

    id: str = "trumps"
    title: str = "Trumps"
    summary: str = (
        "Four players in pairs bid 30–42 for the right to name trumps, then play seven tricks "
        "for the counting tiles; a pair that misses its bid gives the bid to the other pair."
    )
    sheet_kind: str = "race"
    unrated_reason: str = ""
    table: str = "tricks"
    option_specs: tuple[OptionSpec, ...] = OPTION_SPECS
    presets: Mapping[str, Mapping[str, OptionValue]] = field(default_factory=dict)

    def build_options(self, resolved: dict[str, Any]) -> Options:
        return TrumpsOptions(players=4, teams=True, **resolved)

    def new_match(self, opts: Options, seed: int | None = None) -> TrumpsMatch:
        assert isinstance(opts, TrumpsOptions)
        return TrumpsMatch(opts, seed)

    def replay(self, record: dict[str, Any]) -> TrumpsMatch:
        from kozel.trumps.record import replay

        return replay(record)

    def review(self, record: dict[str, Any], seat: int) -> Review:
        """Naming trumps and every tile laid, valued by the expert in points of the hand
        (its pair's less the other's); bids are not reviewed."""
        from kozel.engine.review import RecordReview
        from kozel.trumps.bots import ExpertTrumpsBot
        from kozel.trumps.record import replay

        analyst = ExpertTrumpsBot(0)
        return RecordReview(
            record,
            seat,
            replay,
            lambda view, _played: analyst.analyse(view),
            "points",
            skipped="bids (valuing a pass needs a model of the others' bids)",
        )

    def view_from_dict(self, data: dict[str, Any]) -> GameView:
        from kozel.trumps.views import trumps_view_from_dict

        return trumps_view_from_dict(data)

    def move_to_dict(self, move: GameMove) -> dict[str, Any]:
        from kozel.trumps.moves import move_to_dict

        return move_to_dict(move)

    def check_deal(
        self, opts: Options, number: int, recorded: dict[str, Any], stream: random.Random
    ) -> list[str]:
        """The hand's deal (:func:`kozel.trumps.match.deal_hands`) against the record's."""
        from kozel.shuffle import deal_differences
        from kozel.trumps.match import deal_hands

        return deal_differences(recorded.get("deal"), deal_hands(stream), [])

    def make_bot(self, level: str, seed: int | None = None) -> GameBot:
        from kozel.trumps.bots import make_trumps_bot

        return make_trumps_bot(level, seed)


TRUMPS = TrumpsGame()


def _conforms(
    game: TrumpsGame, match: TrumpsMatch, view: TrumpsView
) -> tuple[Game, GameMatch, GameView]:
    """Trumps implements the game protocol (checked by mypy here)."""
    return game, match, view

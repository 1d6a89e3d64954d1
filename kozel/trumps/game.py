"""Trumps as a game of the club: its option (:mod:`kozel.trumps.options`) and how to start,
replay and review a game and seat bots in it. Four players in two pairs, always."""

from __future__ import annotations

import random
from typing import Any

from kozel.engine.game import GameBot, GameMove, GameView, Review
from kozel.engine.options import Options
from kozel.hands.game import HandsGame
from kozel.shuffle import deal_differences
from kozel.trumps.bots import ExpertTrumpsBot, make_trumps_bot
from kozel.trumps.match import TrumpsMatch, deal_hands
from kozel.trumps.moves import move_to_dict
from kozel.trumps.options import TRUMPS_RULES, TrumpsOptions
from kozel.trumps.views import trumps_view_from_dict


class TrumpsGame(HandsGame[TrumpsMatch]):
    """Trumps (docs/rules.md#trumps-game): a :class:`kozel.engine.game.Game` played in tricks,
    not on a layout."""

    def new_match(self, opts: Options, seed: int | None = None) -> TrumpsMatch:
        assert isinstance(opts, TrumpsOptions)
        return TrumpsMatch(opts, seed)

    def review(self, record: dict[str, Any], seat: int) -> Review:
        """Naming trumps and every tile laid, valued by the expert in points of the hand
        (its pair's less the other's); bids are not reviewed."""
        analyst = ExpertTrumpsBot(0)
        return self.record_review(
            record,
            seat,
            lambda view, _played: analyst.analyse(view),
            "points",
            skipped="bids (valuing a pass needs a model of the others' bids)",
        )

    def view_from_dict(self, data: dict[str, Any]) -> GameView:
        return trumps_view_from_dict(data)

    def move_to_dict(self, move: GameMove) -> dict[str, Any]:
        return move_to_dict(move)

    def check_deal(
        self, opts: Options, number: int, recorded: dict[str, Any], stream: random.Random
    ) -> list[str]:
        """The hand's deal (:func:`kozel.trumps.match.deal_hands`) against the record's."""
        return deal_differences(recorded.get("deal"), deal_hands(stream), [])

    def make_bot(self, level: str, seed: int | None = None) -> GameBot:
        return make_trumps_bot(level, seed)


TRUMPS = TrumpsGame.of(TRUMPS_RULES)

"""Domino Poker as a game of the club: its options (:mod:`kozel.poker.options`) and how to
start, replay and review a session and seat bots in it."""

from __future__ import annotations

import random
from typing import Any

from kozel.engine.game import GameBot, GameMove, GameView, Review
from kozel.engine.options import Options
from kozel.hands.game import HandsGame
from kozel.poker.bots import ExpertPokerBot, make_poker_bot
from kozel.poker.match import PokerMatch
from kozel.poker.moves import move_to_dict
from kozel.poker.options import POKER_RULES, PokerOptions
from kozel.poker.record import check_hand
from kozel.poker.views import poker_view_from_dict


class PokerGame(HandsGame[PokerMatch]):
    """Domino Poker (docs/rules.md#poker-game): a :class:`kozel.engine.game.Game` not played on a
    layout."""

    def new_match(self, opts: Options, seed: int | None = None) -> PokerMatch:
        assert isinstance(opts, PokerOptions)
        return PokerMatch(opts, seed)

    def review(self, record: dict[str, Any], seat: int) -> Review:
        """Each decision valued by the expert in chips expected from there on (a discard: its
        expected share of the pot as it stands)."""
        return self.record_review(record, seat, ExpertPokerBot(0).analyse, "chips")

    def view_from_dict(self, data: dict[str, Any]) -> GameView:
        return poker_view_from_dict(data)

    def move_to_dict(self, move: GameMove) -> dict[str, Any]:
        return move_to_dict(move)

    def check_deal(
        self, opts: Options, number: int, recorded: dict[str, Any], stream: random.Random
    ) -> list[str]:
        """The hand's deal and its draws from the shuffled discards
        (:func:`kozel.poker.record.check_hand`)."""
        assert isinstance(opts, PokerOptions)
        return check_hand(opts, number, recorded, stream)

    def make_bot(self, level: str, seed: int | None = None) -> GameBot:
        return make_poker_bot(level, seed)


POKER = PokerGame.of(POKER_RULES)

"""A game of Trumps: hands until a pair reaches the target (docs/rules.md#trumps-game, Decisions 1,
4 and 5). :class:`TrumpsMatch` is a :class:`kozel.hands.match.HandsMatch`: the pairs' scores,
the deal, the moves, its record of a hand and the fields a replay compares."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from kozel.core import TILE_COUNT, TILE_NAMES, IllegalMove, Tile
from kozel.engine.errors import read_tile, want
from kozel.engine.result import MatchResult
from kozel.hands.match import HandsMatch
from kozel.trumps.hand import SEATS, TrumpsHand, pair_of
from kozel.trumps.moves import TrumpsMove, move_from_dict, move_to_dict
from kozel.trumps.options import TRUMPS_RULES, TrumpsOptions
from kozel.trumps.tiles import HAND_TILES
from kozel.trumps.views import TrumpsView, trumps_view

WINNER_RATING = 5
"""docs/rules.md#club: each player of the winning pair gains 5 rating points, the others nothing."""

FIRST_DEALER = 3


def deal_hands(rng: random.Random) -> list[list[str]]:
    """Shuffle the 28 tiles (``0-0``, ``0-1`` … ``6-6``) and deal seven to each seat in seat
    order, each hand sorted."""
    tiles = list(range(TILE_COUNT))
    rng.shuffle(tiles)
    return [
        [TILE_NAMES[t] for t in sorted(tiles[i * HAND_TILES : (i + 1) * HAND_TILES])]
        for i in range(SEATS)
    ]


class TrumpsMatch(HandsMatch[TrumpsOptions, TrumpsHand, TrumpsMove, TrumpsView]):
    """A game from the first deal to its result."""

    rules = TRUMPS_RULES
    compared = ("tricks", "end", "sheet")

    def __init__(self, opts: TrumpsOptions, seed: int | None = None) -> None:
        super().__init__(opts, seed)
        self.scores = [0, 0]
        self.sheets: list[list[dict[str, int]]] = []

    # --- state ----------------------------------------------------------------------------

    def next_dealer(self) -> int:
        """Seat 3 deals the first hand; the deal then moves one seat clockwise."""
        return (FIRST_DEALER + len(self.hands)) % SEATS

    # --- the deal -------------------------------------------------------------------------

    def deal_next(self, stream: random.Random | None = None) -> dict[str, Any]:
        """Deal the next hand (:func:`deal_hands`) from ``stream``, else from the match's
        generator; return the deal as data."""
        data: dict[str, Any] = {"hands": deal_hands(stream or self.rng), "bazaar": []}
        self.apply_deal(data)
        return data

    def apply_deal(self, data: dict[str, Any], stream: random.Random | None = None) -> None:
        if not self.needs_deal:
            raise IllegalMove("no deal is due")
        want(isinstance(data, dict), "a deal must be an object")
        hands, bazaar = data.get("hands"), data.get("bazaar", [])
        want(
            isinstance(hands, list) and all(isinstance(h, list) for h in hands),
            "a deal's hands must be a list of lists of tiles",
        )
        want(bazaar == [], "a deal in Trumps leaves the bazaar empty")
        assert isinstance(hands, list)
        self.start_hand([[read_tile(t, "deal") for t in h] for h in hands])

    def start_hand(self, hands: Sequence[Sequence[Tile]]) -> TrumpsHand:
        """Play the next hand with this deal; ``ValueError`` if it is not a valid deal."""
        hand = TrumpsHand(self.next_dealer(), hands)
        self.hands.append(hand)
        return hand

    # --- moves ----------------------------------------------------------------------------

    def move_from_dict(self, raw: object) -> TrumpsMove:
        return move_from_dict(raw)

    def move_to_dict(self, move: TrumpsMove) -> dict[str, Any]:
        return move_to_dict(move)

    def push(self, move: TrumpsMove) -> None:
        hand = self.hand
        if self.over or hand is None or hand.over:
            raise IllegalMove("nobody is to move")
        hand.push(move)
        if hand.over:
            self._score(hand)

    def _score(self, hand: TrumpsHand) -> None:
        credited = hand.credited()
        sheet = []
        for unit in range(2):
            before = self.scores[unit]
            self.scores[unit] += credited[unit]
            sheet.append(
                {
                    "before": before,
                    "taken": hand.taken[unit],
                    "credited": credited[unit],
                    "after": self.scores[unit],
                }
            )
        self.sheets.append(sheet)
        target = self.opts.target
        over = [u for u in range(2) if self.scores[u] >= target]
        if not over:
            return
        if len(over) == 2:
            if self.scores[0] == self.scores[1]:
                assert hand.bidder is not None
                winner = pair_of(hand.bidder)
            else:
                winner = 0 if self.scores[0] > self.scores[1] else 1
        else:
            winner = over[0]
        rating = [WINNER_RATING if pair_of(s) == winner else 0 for s in range(SEATS)]
        self._result = MatchResult("winners", [winner], list(self.scores), rating)

    # --- what players see, and the record -------------------------------------------------

    def seat_view(self, seat: int | None) -> TrumpsView:
        return trumps_view(self, seat)

    def standing(self) -> list[int]:
        return list(self.scores)

    def shown_hands(self) -> list[list[str]]:
        """A finished hand has no tile left: every one was played face up."""
        return [[] for _ in range(SEATS)]

    def hand_record(self, index: int) -> dict[str, Any]:
        """Hand ``index`` (0: the first) as the record writes it."""
        hand = self.hands[index]
        out: dict[str, Any] = {
            "dealer": hand.dealer,
            "deal": {"hands": [[TILE_NAMES[t] for t in h] for h in hand.dealt], "bazaar": []},
            "moves": [dict(m) for m in hand.moves],
            "tricks": [
                {"leader": t["leader"], "winner": t["winner"], "points": t["points"]}
                for t in hand.tricks
            ],
        }
        if hand.over:
            out["end"] = hand.end_dict()
            out["sheet"] = [dict(e) for e in self.sheets[index]]
        else:
            out["end"] = {"kind": "timeout", "seat": self.timed_out}
            out["sheet"] = [
                {"before": s, "taken": 0, "credited": 0, "after": s} for s in self.scores
            ]
        return out

    def hand_summary(self, index: int, written: dict[str, Any]) -> dict[str, Any]:
        """Each pair's gain."""
        return {"gains": [entry["credited"] for entry in written["sheet"]]}

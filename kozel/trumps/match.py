"""A game of Trumps: hands until a pair reaches the target (docs/rules.md#trumps-game, Decisions 1,
4 and 5). :class:`TrumpsMatch` implements :class:`kozel.engine.game.GameMatch`."""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kozel.core import TILE_COUNT, TILE_NAMES, IllegalMove, Tile
from kozel.engine.errors import read_tile, want
from kozel.engine.options import Options
from kozel.engine.result import MatchResult
from kozel.trumps.hand import SEATS, TrumpsHand, pair_of
from kozel.trumps.moves import TrumpsMove, move_from_dict, move_to_dict
from kozel.trumps.tiles import HAND_TILES

if TYPE_CHECKING:
    from kozel.trumps.views import TrumpsView

WINNER_RATING = 5
"""docs/rules.md#club: each player of the winning pair gains 5 rating points, the others nothing."""

FIRST_DEALER = 3


@dataclass(frozen=True, kw_only=True)
class TrumpsOptions(Options):
    """docs/rules.md#trumps-game, Decision 4: the target."""

    target: int


def deal_hands(rng: random.Random) -> list[list[str]]:
    """Shuffle the 28 tiles (``0-0``, ``0-1`` … ``6-6``) and deal seven to each seat in seat
    order, each hand sorted."""
    tiles = list(range(TILE_COUNT))
    rng.shuffle(tiles)
    return [
        [TILE_NAMES[t] for t in sorted(tiles[i * HAND_TILES : (i + 1) * HAND_TILES])]
        for i in range(SEATS)
    ]


class TrumpsMatch:
    """A game from the first deal to its result."""

    def __init__(self, opts: TrumpsOptions, seed: int | None = None) -> None:
        self.opts = opts
        self.seed = seed
        self.rng = random.Random(seed)
        self.scores = [0, 0]
        self.hands: list[TrumpsHand] = []
        self.sheets: list[list[dict[str, int]]] = []
        self._result: MatchResult | None = None
        self.timed_out: int | None = None

    # --- state ----------------------------------------------------------------------------

    @property
    def hand(self) -> TrumpsHand | None:
        return self.hands[-1] if self.hands else None

    @property
    def over(self) -> bool:
        return self._result is not None

    @property
    def result(self) -> MatchResult | None:
        return self._result

    @property
    def started(self) -> bool:
        return bool(self.hands)

    @property
    def to_move(self) -> int | None:
        hand = self.hand
        return None if self.over or hand is None else hand.turn

    @property
    def needs_deal(self) -> bool:
        hand = self.hand
        return not self.over and (hand is None or hand.over)

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

    def read_move(self, raw: object) -> TrumpsMove:
        if self.to_move is None:
            raise IllegalMove("nobody is to move")
        return move_from_dict(raw)

    def write_move(self, move: TrumpsMove) -> dict[str, Any]:
        return move_to_dict(move)

    def legal_moves(self) -> list[TrumpsMove]:
        hand = self.hand
        return [] if self.over or hand is None else hand.legal_moves()

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

    def timeout(self, seat: int) -> None:
        """The seat to move ran out of time: the hand is not scored and the game ends; every
        other player gains 1 (docs/rules.md#club)."""
        if self.over:
            raise IllegalMove("the game is over")
        if seat != self.to_move:
            raise IllegalMove(f"seat {seat} is not to move")
        self.timed_out = seat
        rating = [0 if s == seat else 1 for s in range(SEATS)]
        self._result = MatchResult("winners", [], list(self.scores), rating, timeout=seat)

    def copy(self) -> TrumpsMatch:
        return copy.deepcopy(self)

    # --- what players see, and the record -------------------------------------------------

    def view(self, seat: int | None, hints: bool = False) -> TrumpsView:
        """What ``seat`` may see (``hints`` mean nothing in Trumps)."""
        from kozel.trumps.views import trumps_view

        return trumps_view(self, seat)

    def view_dicts(self, seats: list[int | None], hints: bool = False) -> list[dict[str, Any]]:
        from kozel.trumps.views import trumps_view

        return [trumps_view(self, s).to_dict() for s in seats]

    def progress(self) -> tuple[int, int]:
        hand = self.hand
        return (0, 0) if hand is None else (len(self.hands), len(hand.moves))

    def standing(self) -> list[int]:
        return list(self.scores)

    def shown_hands(self) -> list[list[str]]:
        """A finished hand has no tile left: every one was played face up."""
        return [[] for _ in range(SEATS)]

    def round_summaries(self, start: int = 0) -> list[dict[str, Any]]:
        from kozel.trumps.record import hand_record

        out = []
        for i, hand in enumerate(self.hands[start:], start=start):
            if not hand.over and not (self.timed_out is not None and i == len(self.hands) - 1):
                continue
            rec = hand_record(self, i)
            public = {k: v for k, v in rec.items() if k not in ("deal", "moves")}
            public["gains"] = [entry["credited"] for entry in rec["sheet"]]
            out.append(public)
        return out

    def record(self, seats: list[str]) -> dict[str, Any]:
        from kozel.trumps.record import record_of

        return record_of(self, seats)

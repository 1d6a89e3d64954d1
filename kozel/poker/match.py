"""A session of Domino Poker: hands until one player holds every chip or ``hands`` are played
(docs/rules.md#poker-decisions items 3 and 4). :class:`PokerMatch` implements
:class:`kozel.engine.game.GameMatch`.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kozel.core import TILE_NAMES, IllegalMove, Tile
from kozel.engine.errors import is_int, want
from kozel.engine.options import Options
from kozel.engine.result import MatchResult
from kozel.poker.hand import PokerHand
from kozel.poker.hands import HAND_SIZE, POKER_TILES
from kozel.poker.moves import PokerMove, move_from_dict, move_to_dict

if TYPE_CHECKING:
    from kozel.poker.views import PokerView

WINNER_RATING = 5
"""docs/rules.md#club: the winner of a Poker game gains 5 rating points, the others nothing."""


@dataclass(frozen=True, kw_only=True)
class PokerOptions(Options):
    """docs/rules.md#poker-decisions item 3."""

    chips: int
    ante: int
    limit: str
    bet: int
    hands: int


def deal_hand(rng: random.Random, chips: Sequence[int]) -> tuple[list[list[str]], list[str]]:
    """Shuffle the 20 tiles (in :data:`POKER_TILES`' order) and deal five, in seat order, to
    each seat that has chips (sorted; ``[]`` for the others): the hands and the bazaar, the
    rest in draw order."""
    tiles = list(POKER_TILES)
    rng.shuffle(tiles)
    hands: list[list[str]] = []
    for stack in chips:
        count = HAND_SIZE if stack > 0 else 0
        hands.append([TILE_NAMES[t] for t in sorted(tiles[:count])])
        del tiles[:count]
    return hands, [TILE_NAMES[t] for t in tiles]


class PokerMatch:
    """A session of hands from the first deal to its result."""

    def __init__(self, opts: PokerOptions, seed: int | None = None) -> None:
        self.opts = opts
        self.seed = seed
        self.rng = random.Random(seed)
        self.chips = [opts.chips] * opts.players
        self.hands: list[PokerHand] = []
        self.dealer = 0
        self._result: MatchResult | None = None
        self.timed_out: int | None = None
        self._shuffler = self.rng
        """What shuffles this hand's discards: the deal's own generator when the deal names
        one (:meth:`deal_next`), else the match's (a record's moves name their draws)."""

    # --- state ----------------------------------------------------------------------------

    @property
    def hand(self) -> PokerHand | None:
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
        """Seat 0 deals the first hand; then the next seat clockwise that still has chips."""
        if not self.hands:
            return 0
        n = self.opts.players
        last = self.hands[-1].dealer
        for i in range(1, n + 1):
            if self.chips[(last + i) % n] > 0:
                return (last + i) % n
        raise AssertionError("no seat has chips")

    # --- the deal -------------------------------------------------------------------------

    def deal_next(self, stream: random.Random | None = None) -> dict[str, Any]:
        """Shuffle the 20 tiles and deal the next hand (:func:`deal_hand`); return the deal
        as data (the hands, the bazaar in draw order, and, without a ``stream``, the seed that
        will shuffle the hand's discards: a verifiable shuffle's stream goes on to shuffle
        them itself)."""
        if stream is not None:
            hands, bazaar = deal_hand(copy.deepcopy(stream), self.chips)
            data: dict[str, Any] = {"hands": hands, "bazaar": bazaar}
            self.apply_deal(data, stream)
            return data
        hands, bazaar = deal_hand(self.rng, self.chips)
        # the order the hand's discards will be shuffled in, should the bazaar run out, is
        # fixed with the deal: a table rebuilt from its stored deals and moves draws the same
        data = {"hands": hands, "bazaar": bazaar, "shuffle": self.rng.getrandbits(48)}
        self.apply_deal(data)
        return data

    def apply_deal(self, data: dict[str, Any], stream: random.Random | None = None) -> None:
        """Play a stored deal. With the hand's ``stream`` (a verifiable shuffle's) the deal
        must be the one the stream deals (``ValueError`` otherwise), and the stream, drawn on
        past the deal, shuffles the hand's discards."""
        from kozel.engine.errors import read_tile

        if not self.needs_deal:
            raise IllegalMove("no deal is due")
        want(isinstance(data, dict), "a deal must be an object")
        hands, bazaar = data.get("hands"), data.get("bazaar")
        want(
            isinstance(hands, list) and all(isinstance(h, list) for h in hands),
            "a deal's hands must be a list of lists of tiles",
        )
        want(isinstance(bazaar, list), "a deal's bazaar must be a list of tiles")
        shuffle = data.get("shuffle")
        want(shuffle is None or is_int(shuffle), "a deal's shuffle must be an integer")
        assert isinstance(hands, list) and isinstance(bazaar, list)
        self._shuffler = random.Random(shuffle) if shuffle is not None else self.rng
        if stream is not None and shuffle is None:
            if deal_hand(stream, self.chips) != (hands, bazaar):
                raise ValueError("the deal is not the one the hand's shuffle deals")
            self._shuffler = stream
        self.start_hand(
            [[read_tile(t, "deal") for t in h] for h in hands],
            [read_tile(t, "deal") for t in bazaar],
        )

    def start_hand(self, hands: Sequence[Sequence[Tile]], bazaar: Sequence[Tile]) -> PokerHand:
        """Play the next hand with this deal; ``ValueError`` if it is not a valid deal."""
        opts = self.opts
        hand = PokerHand(
            opts.players,
            self.next_dealer(),
            tuple(self.chips),
            [list(h) for h in hands],
            list(bazaar),
            opts.ante,
            opts.limit,
            opts.bet,
        )
        self.hands.append(hand)
        self._after_move()
        return hand

    # --- moves ----------------------------------------------------------------------------

    def read_move(self, raw: object) -> PokerMove:
        if self.to_move is None:
            raise IllegalMove("nobody is to move")
        return move_from_dict(raw)

    def write_move(self, move: PokerMove) -> dict[str, Any]:
        return move_to_dict(move)

    def legal_moves(self) -> list[PokerMove]:
        hand = self.hand
        return [] if self.over or hand is None else hand.legal_moves()

    def push(self, move: PokerMove, drew: Sequence[Tile] | None = None) -> None:
        """Apply a move of the seat to move; ``drew`` (a replay) names a discard's draws."""
        hand = self.hand
        if self.over or hand is None or hand.over:
            raise IllegalMove("nobody is to move")
        hand.push(move, self._shuffler.shuffle, drew)
        self._after_move()

    def _after_move(self) -> None:
        hand = self.hand
        assert hand is not None
        if not hand.over:
            return
        self.chips = list(hand.stacks)
        holders = sum(c > 0 for c in self.chips)
        if holders == 1 or len(self.hands) >= self.opts.hands:
            best = max(self.chips)
            winners = [s for s in range(self.opts.players) if self.chips[s] == best]
            rating = [WINNER_RATING if s in winners else 0 for s in range(self.opts.players)]
            self._result = MatchResult(
                "winners", winners, list(self.chips), rating, score_name="chips"
            )

    def timeout(self, seat: int) -> None:
        """The seat to move ran out of time: the hand is not scored (the chips stay as they
        were before it) and the game ends; every other player gains 1 (docs/rules.md#club)."""
        if self.over:
            raise IllegalMove("the game is over")
        if seat != self.to_move:
            raise IllegalMove(f"seat {seat} is not to move")
        self.timed_out = seat
        rating = [0 if s == seat else 1 for s in range(self.opts.players)]
        self._result = MatchResult(
            "winners", [], list(self.chips), rating, timeout=seat, score_name="chips"
        )

    def copy(self) -> PokerMatch:
        return copy.deepcopy(self)

    # --- what players see, and the record -------------------------------------------------

    def view(self, seat: int | None, hints: bool = False) -> PokerView:
        """What ``seat`` may see (``hints`` mean nothing in Poker)."""
        from kozel.poker.views import poker_view

        return poker_view(self, seat)

    def view_dicts(self, seats: list[int | None], hints: bool = False) -> list[dict[str, Any]]:
        from kozel.poker.views import poker_view

        return [poker_view(self, s).to_dict() for s in seats]

    def progress(self) -> tuple[int, int]:
        hand = self.hand
        return (0, 0) if hand is None else (len(self.hands), len(hand.moves))

    def standing(self) -> list[int]:
        return list(self.chips)

    def shown_hands(self) -> list[list[str]]:
        shown: list[list[str]] = [[] for _ in range(self.opts.players)]
        if self.hand is not None and self.hand.over:
            for entry in self.hand.showdown:
                shown[entry["seat"]] = list(entry["hand"])
        return shown

    def round_summaries(self, start: int = 0) -> list[dict[str, Any]]:
        from kozel.poker.record import hand_record

        out = []
        for i, hand in enumerate(self.hands[start:], start=start):
            if not hand.over and not (self.timed_out is not None and i == len(self.hands) - 1):
                continue
            rec = hand_record(self, i)
            public = {k: v for k, v in rec.items() if k not in ("deal", "moves")}
            # per pot of end.pots, what each of its winners took (not in the record)
            public["takes"] = [list(pot.takes()) for pot in hand.pots]
            before, after = rec["chips_before"], rec["chips_after"]
            public["gains"] = [a - b for a, b in zip(after, before, strict=True)]
            out.append(public)
        return out

    def record(self, seats: list[str]) -> dict[str, Any]:
        from kozel.poker.record import record_of

        return record_of(self, seats)

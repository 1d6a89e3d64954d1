"""One hand of Trumps (docs/rules.md#trumps-game, Decisions 1–4): the bidding, the trumps, seven
tricks and what each pair records.

Seats move clockwise (seat ``s`` is followed by ``s + 1``); unit 0 is seats 0 and 2. The
bidding starts left of the dealer and goes once round: each player passes or bids 30–42 above
the last bid, and the dealer may not pass after three passes. The winning bidder names trumps
and leads; each trick's winner leads the next.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kozel.core import TILE_COUNT, TILE_NAMES, IllegalMove, Tile
from kozel.trumps.moves import (
    MAX_BID,
    MIN_BID,
    PASS,
    Bid,
    Lay,
    NameTrumps,
    Pass,
    TrumpsMove,
    move_to_dict,
)
from kozel.trumps.tiles import (
    HAND_TILES,
    SUITS,
    TRICKS,
    TRUMP_SUIT,
    follows,
    led_suit,
    playable,
    trick_points,
    trick_winner,
)

SEATS = 4


def pair_of(seat: int) -> int:
    """The pair (scoring unit) of a seat: seats 0 and 2 are pair 0."""
    return seat % 2


class TrumpsHand:
    """A hand from the deal to its seventh trick."""

    def __init__(self, dealer: int, hands: Sequence[Sequence[Tile]]) -> None:
        if len(hands) != SEATS or any(len(h) != HAND_TILES for h in hands):
            raise ValueError(f"a deal is {SEATS} hands of {HAND_TILES} tiles")
        tiles = [t for h in hands for t in h]
        if sorted(tiles) != list(range(TILE_COUNT)):
            raise ValueError("a deal must hold each of the 28 tiles once")
        self.dealer = dealer
        self.dealt: tuple[tuple[Tile, ...], ...] = tuple(tuple(sorted(h)) for h in hands)
        self.hands: list[list[Tile]] = [list(h) for h in self.dealt]
        self.phase = "bid"
        self.turn: int | None = (dealer + 1) % SEATS
        self.bids: list[tuple[int, int | None]] = []
        """``(seat, bid)`` in order, ``None`` for a pass."""
        self.bidder: int | None = None
        self.bid = 0
        self.trumps: int | None = None
        self.trick: list[tuple[int, Tile]] = []
        """The trick on the table: ``(seat, tile)``, led first."""
        self.tricks: list[dict[str, Any]] = []
        """Finished tricks: ``leader``, ``winner``, ``points`` and ``tiles`` (led first)."""
        self.taken = [0, 0]
        self.tricks_won = [0, 0]
        self.moves: list[dict[str, Any]] = []

    @property
    def over(self) -> bool:
        return self.phase == "over"

    @property
    def made(self) -> bool:
        assert self.bidder is not None
        return self.taken[pair_of(self.bidder)] >= self.bid

    def credited(self) -> list[int]:
        """What each pair records for the finished hand (docs/rules.md#trumps-game, Decision 4): the
        points taken when the bid is made; else nothing for the bidding pair and the
        opponents' points plus the bid for them."""
        assert self.over and self.bidder is not None
        if self.made:
            return list(self.taken)
        side = pair_of(self.bidder)
        out = [0, 0]
        out[1 - side] = self.taken[1 - side] + self.bid
        return out

    def led(self) -> int | None:
        """The suit led on the trick on the table (``None``: nothing led yet)."""
        if not self.trick:
            return None
        assert self.trumps is not None
        return led_suit(self.trick[0][1], self.trumps)

    def legal_moves(self) -> list[TrumpsMove]:
        if self.turn is None:
            return []
        if self.phase == "bid":
            last = max((b for _, b in self.bids if b is not None), default=MIN_BID - 1)
            bids: list[TrumpsMove] = [Bid(n) for n in range(last + 1, MAX_BID + 1)]
            if self._dealer_forced():
                return bids
            return [PASS, *bids]
        if self.phase == "naming":
            return [NameTrumps(v) for v in range(SUITS)]
        assert self.trumps is not None
        return [Lay(t) for t in playable(self.hands[self.turn], self.led(), self.trumps)]

    def _dealer_forced(self) -> bool:
        return self.turn == self.dealer and all(b is None for _, b in self.bids)

    def push(self, move: TrumpsMove) -> None:
        """Apply the move of the seat to move, or raise ``IllegalMove`` saying why."""
        seat = self.turn
        if seat is None:
            raise IllegalMove("the hand is over")
        if self.phase == "bid":
            self._bid(seat, move)
        elif self.phase == "naming":
            if not isinstance(move, NameTrumps):
                raise IllegalMove(f"seat {seat} must name trumps, not {move}")
            if not 0 <= move.value < SUITS:
                raise IllegalMove(f"trumps must be a number 0–6, not {move.value}")
            self.trumps = move.value
            self.phase = "play"
        else:
            self._lay(seat, move)
        self.moves.append({"seat": seat, **move_to_dict(move)})

    def _bid(self, seat: int, move: TrumpsMove) -> None:
        if isinstance(move, Pass):
            if self._dealer_forced():
                raise IllegalMove(
                    "the dealer may not pass when the other three passed: he bids 30 or more"
                )
            self.bids.append((seat, None))
        elif isinstance(move, Bid):
            if not MIN_BID <= move.amount <= MAX_BID:
                raise IllegalMove(f"a bid is {MIN_BID}–{MAX_BID}, not {move.amount}")
            if move.amount <= self.bid:
                raise IllegalMove(f"a bid must be higher than {self.bid}, not {move.amount}")
            self.bids.append((seat, move.amount))
            self.bidder, self.bid = seat, move.amount
        else:
            raise IllegalMove(f"seat {seat} must bid or pass, not {move}")
        if len(self.bids) < SEATS:
            self.turn = (seat + 1) % SEATS
        else:
            self.phase = "naming"
            self.turn = self.bidder

    def _lay(self, seat: int, move: TrumpsMove) -> None:
        assert self.trumps is not None
        if not isinstance(move, Lay):
            raise IllegalMove(f"seat {seat} must play a tile, not {move}")
        hand = self.hands[seat]
        if move.tile not in hand:
            raise IllegalMove(f"seat {seat} does not hold {move}")
        suit = self.led()
        if suit is not None and not follows(move.tile, suit, self.trumps):
            able = [t for t in hand if follows(t, suit, self.trumps)]
            if able:
                name = "trumps" if suit == TRUMP_SUIT else f"a {suit} (its higher half)"
                raise IllegalMove(
                    f"{move} does not follow suit: seat {seat} must lay {name} "
                    f"({' '.join(TILE_NAMES[t] for t in able)})"
                )
        hand.remove(move.tile)
        self.trick.append((seat, move.tile))
        if len(self.trick) < SEATS:
            self.turn = (seat + 1) % SEATS
            return
        tiles = [t for _, t in self.trick]
        winner = self.trick[trick_winner(tiles, self.trumps)][0]
        points = trick_points(tiles)
        self.taken[pair_of(winner)] += points
        self.tricks_won[pair_of(winner)] += 1
        self.tricks.append(
            {"leader": self.trick[0][0], "winner": winner, "points": points, "tiles": tiles}
        )
        self.trick = []
        if len(self.tricks) == TRICKS:
            self.phase = "over"
            self.turn = None
        else:
            self.turn = winner

    def end_dict(self) -> dict[str, Any]:
        assert self.over and self.bidder is not None
        return {"kind": "hand", "bidder": self.bidder, "bid": self.bid, "made": self.made}

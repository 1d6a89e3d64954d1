"""A session of Domino Poker: hands until one player holds every chip or ``hands`` are played
(docs/rules.md#poker-decisions items 3 and 4). :class:`PokerMatch` is a
:class:`kozel.hands.match.HandsMatch`: the session's chips and dealer, the deal, the moves, its
record of a hand and how a recorded hand is checked.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from typing import Any

from kozel.core import TILE_NAMES, IllegalMove, Tile
from kozel.engine.errors import is_int, read_tile, want
from kozel.engine.record import same
from kozel.engine.result import MatchResult
from kozel.hands.match import HandsMatch
from kozel.poker.hand import PokerHand
from kozel.poker.moves import PokerMove, move_from_dict, move_to_dict
from kozel.poker.options import POKER_RULES, PokerOptions
from kozel.poker.ranking import HAND_SIZE, POKER_TILES
from kozel.poker.views import PokerView, poker_view

WINNER_RATING = 5
"""docs/rules.md#club: the winner of a Poker game gains 5 rating points, the others nothing."""


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


class PokerMatch(HandsMatch[PokerOptions, PokerHand, PokerMove, PokerView]):
    """A session of hands from the first deal to its result."""

    rules = POKER_RULES
    score_name = "chips"
    compared = ("showdown", "chips_after", "end")

    def __init__(self, opts: PokerOptions, seed: int | None = None) -> None:
        super().__init__(opts, seed)
        self.chips = [opts.chips] * opts.players
        self.dealer = 0
        self._shuffler = self.rng
        """What shuffles this hand's discards: the deal's own generator when the deal names
        one (:meth:`deal_next`), else the match's (a record's moves name their draws)."""

    # --- state ----------------------------------------------------------------------------

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

    def move_from_dict(self, raw: object) -> PokerMove:
        return move_from_dict(raw)

    def move_to_dict(self, move: PokerMove) -> dict[str, Any]:
        return move_to_dict(move)

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

    # --- what players see, and the record -------------------------------------------------

    def seat_view(self, seat: int | None) -> PokerView:
        return poker_view(self, seat)

    def standing(self) -> list[int]:
        return list(self.chips)

    def shown_hands(self) -> list[list[str]]:
        shown: list[list[str]] = [[] for _ in range(self.opts.players)]
        if self.hand is not None and self.hand.over:
            for entry in self.hand.showdown:
                shown[entry["seat"]] = list(entry["hand"])
        return shown

    def hand_record(self, index: int) -> dict[str, Any]:
        """Hand ``index`` (0: the first) as the record writes it."""
        hand = self.hands[index]
        timed_out = not hand.over and self.timed_out is not None
        names = [[TILE_NAMES[t] for t in h] for h in hand.dealt]
        out: dict[str, Any] = {
            "dealer": hand.dealer,
            "deal": {"hands": names, "bazaar": [TILE_NAMES[t] for t in hand.dealt_bazaar]},
            "chips_before": list(hand.chips_before),
            "moves": [dict(m) for m in hand.moves],
        }
        if timed_out:
            out["showdown"] = []
            out["end"] = {"kind": "timeout", "seat": self.timed_out, "pots": []}
            out["chips_after"] = list(hand.chips_before)
        else:
            out["showdown"] = [dict(s) for s in hand.showdown]
            out["end"] = hand.end_dict()
            out["chips_after"] = list(hand.stacks)
        return out

    def hand_summary(self, index: int, written: dict[str, Any]) -> dict[str, Any]:
        """Per pot of ``end.pots``, what each of its winners took (not in the record), and
        each seat's gain."""
        before, after = written["chips_before"], written["chips_after"]
        return {
            "takes": [list(pot.takes()) for pot in self.hands[index].pots],
            "gains": [a - b for a, b in zip(after, before, strict=True)],
        }

    # --- a recorded hand played again -----------------------------------------------------

    def check_before_deal(self, raw: dict[str, Any], where: str) -> None:
        super().check_before_deal(raw, where)
        same(where, "chips_before", raw.get("chips_before"), list(self.chips))

    def check_dealt(self, moves: list[Any], where: str) -> int:
        """The antes, which the deal makes: the record's must be the rules'."""
        hand = self.hand
        assert hand is not None
        antes = len(hand.moves)
        want(
            len(moves) >= antes,
            f"{where}: the record has {len(moves)} moves, fewer than the {antes} antes",
        )
        for n, (rec, computed) in enumerate(zip(moves[:antes], hand.moves, strict=True), start=1):
            same(f"{where}, move {n}", "the ante", rec, computed)
        return antes

    def recorded_move(self, rec: dict[str, Any], at: str) -> tuple[PokerMove, Any]:
        """The move, and a discard's draws as the record names them."""
        move = self.read_move({k: v for k, v in rec.items() if k not in ("seat", "drew")})
        drew = None
        if "discard" in rec:
            raw_drew = rec.get("drew")
            want(isinstance(raw_drew, list), f"{at}: a discard must list the tiles drawn")
            assert isinstance(raw_drew, list)
            drew = [read_tile(t, at) for t in raw_drew]
        return move, drew

    def push_recorded(self, move: PokerMove, extra: Any) -> None:
        self.push(move, extra)

    def comparable(self, key: str, value: object) -> object:
        return winners_as_sets(value) if key == "end" else value


def winners_as_sets(end: object) -> object:
    """A hand's ``end`` with each pot's ``winners`` in seat order: the record lists who won a
    pot, in any order (docs/record.md#record-files; the odd chips follow the rules, and
    ``chips_after`` shows them). Anything else is left as it is, for the comparison to report.

    >>> winners_as_sets({"kind": "fold", "pots": [{"amount": 9, "winners": [2, 0]}]})
    {'kind': 'fold', 'pots': [{'amount': 9, 'winners': [0, 2]}]}
    """
    if not isinstance(end, dict) or not isinstance(end.get("pots"), list):
        return end
    pots = [
        {**pot, "winners": sorted(pot["winners"])}
        if isinstance(pot, dict)
        and isinstance(pot.get("winners"), list)
        and all(is_int(s) for s in pot["winners"])
        else pot
        for pot in end["pots"]
    ]
    return {**end, "pots": pots}

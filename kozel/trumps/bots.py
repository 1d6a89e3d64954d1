"""Computer players of Trumps. A bot sees only its seat's :class:`TrumpsView`.

- ``random``: a legal move at random (a bid or a pass alike, any trumps, any playable tile);
- ``greedy``: values its hand for each trump number (4 per trump, 3 more for the trump
  double, 3 per other double, 1 per 5 points of counters) and bids 30 at a value of 22, one
  more per 2 above it (at most 38; it passes when its partner holds the bid), naming the
  trumps of its best value. In play it leads its highest trump while that is the highest left,
  else a double that is the highest left of its suit, else its cheapest tile; following, it
  lays counters on a partner's trick that is sure to win and plays low to one that is not
  (never overtaking it), wins an opponent's trick holding points (or, as the last to play,
  any trick) with its highest winning tile (as the last: the winning tile with most counters,
  then the lowest), and otherwise plays its cheapest tile (no counter, no trump, low);
- ``expert``: deals the 21 tiles it cannot see at random (24 times) and plays each deal out
  greedily with itself leading, once for each trump number; it bids the highest bid its pair
  takes in 70% of those deals with its best trumps (it passes when its partner holds the bid)
  and, as the bidder, names the trumps with the best mean score (the bid rule applied). In play
  it deals the unseen tiles 24 times at random, consistent with what is known (the suits a
  player failed to follow, every deal they allow equally likely, and the bidder read as holding
  at least three trumps when a few tries allow it), plays each of its legal tiles followed by
  greedy play to the end of the hand in every deal, and keeps the tile with the best mean score
  for its pair (what the pairs record, the bid rule applied).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from kozel.core import HIGH, IS_DOUBLE, LOW, TILE_COUNT, InvalidOption, Tile, tiles_of
from kozel.engine.dealing import VoidDeal
from kozel.trumps.moves import MAX_BID, MIN_BID, PASS, Bid, Lay, NameTrumps, TrumpsMove
from kozel.trumps.tiles import (
    COUNT,
    IS_TRUMP,
    SUITS,
    TRUMP_SUIT,
    follows,
    led_suit,
    playable,
    rank,
    trick_points,
    trick_winner,
)
from kozel.trumps.views import TrumpsView

SEATS = 4


def suit_value(hand: Sequence[Tile], trumps: int) -> int:
    """How strong ``hand`` is with ``trumps``: 4 per trump, 3 more for its double, 3 per
    other double, 1 per 5 points of counters."""
    value = 0
    for t in hand:
        if IS_TRUMP[trumps][t]:
            value += 4 + (3 if IS_DOUBLE[t] else 0)
        elif IS_DOUBLE[t]:
            value += 3
        value += COUNT[t] // 5
    return value


def best_trumps(hand: Sequence[Tile]) -> int:
    """The trumps a greedy player names: the strongest suit, ties to the higher number."""
    return max(range(SUITS), key=lambda v: (suit_value(hand, v), v))


def greedy_bid(view: TrumpsView) -> TrumpsMove:
    """Pass, or bid from the hand's strength (above 22, two points a step over 30)."""
    legal = view.legal_moves
    strength = max(suit_value(view.hand, v) for v in range(SUITS))
    partner_high = (
        view.bidder is not None and view.seat is not None and (view.bidder % 2 == view.seat % 2)
    )
    wanted = MIN_BID + (strength - 22) // 2 if strength >= 22 else 0
    bids = [m.amount for m in legal if isinstance(m, Bid)]
    if PASS in legal and (partner_high or not bids or wanted < bids[0]):
        return PASS
    if PASS not in legal:
        return Bid(bids[0])
    return Bid(min(max(bids[0], min(wanted, MAX_BID - 4)), bids[-1]))


def _low_key(t: Tile, trumps: int) -> tuple[int, int, int]:
    """Order for throwing away: no counter first, no trump, then low."""
    trump = IS_TRUMP[trumps][t]
    return (COUNT[t], int(trump), rank(t, trumps) if trump else LOW[t] + HIGH[t])


def _is_top(t: Tile, trumps: int, gone: int, hand: Sequence[Tile]) -> bool:
    """``t`` beats every tile of its led suit not yet played nor in ``hand``."""
    suit = led_suit(t, trumps)
    number = trumps if suit == TRUMP_SUIT else suit
    mine = rank(t, number)
    for other in range(TILE_COUNT):
        if gone >> other & 1 or other in hand or not follows(other, suit, trumps):
            continue
        if rank(other, number) > mine:
            return False
    return True


def greedy_play(
    hand: Sequence[Tile],
    trick: Sequence[tuple[int, Tile]],
    seat: int,
    trumps: int,
    gone: int,
) -> Tile:
    """The tile a greedy player lays. ``gone``: the bitmask of the tiles played this hand."""
    if not trick:
        trumps_held = [t for t in hand if IS_TRUMP[trumps][t]]
        if trumps_held:
            top = max(trumps_held, key=lambda t: rank(t, trumps))
            if _is_top(top, trumps, gone, hand):
                return top
        for t in hand:
            if IS_DOUBLE[t] and not IS_TRUMP[trumps][t] and _is_top(t, trumps, gone, hand):
                return t
        return min(hand, key=lambda t: _low_key(t, trumps))
    suit = led_suit(trick[0][1], trumps)
    options = playable(hand, suit, trumps)
    if len(options) == 1:
        return options[0]
    tiles = [t for _, t in trick]
    best = trick_winner(tiles, trumps)
    partner_wins = trick[best][0] % 2 == seat % 2
    last = len(trick) == SEATS - 1
    if partner_wins:
        if last or _is_top(tiles[best], trumps, gone | sum(1 << t for t in tiles), hand):
            return max(options, key=lambda t: (COUNT[t], -_low_key(t, trumps)[1]))
        return min(options, key=lambda t: _low_key(t, trumps))
    winning = [t for t in options if trick_winner([*tiles, t], trumps) == len(tiles)]
    at_stake = trick_points(tiles) - 1
    if winning and (at_stake > 0 or last or any(COUNT[t] for t in winning)):
        if last:
            return max(winning, key=lambda t: (COUNT[t], -_low_key(t, trumps)[2]))
        return max(winning, key=lambda t: (rank(t, trumps) if IS_TRUMP[trumps][t] else 0, t))
    return min(options, key=lambda t: _low_key(t, trumps))


class RandomTrumpsBot:
    level = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: TrumpsView) -> TrumpsMove:
        return self.rng.choice(view.legal_moves)


def _gone(view: TrumpsView) -> int:
    mask = 0
    for trick in view.played:
        for _, t in trick:
            mask |= 1 << t
    for _, t in view.trick:
        mask |= 1 << t
    return mask


class GreedyTrumpsBot:
    level = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: TrumpsView) -> TrumpsMove:
        assert view.seat is not None
        if view.phase == "bid":
            return greedy_bid(view)
        if view.phase == "naming":
            return NameTrumps(best_trumps(view.hand))
        assert view.trumps is not None
        return Lay(greedy_play(view.hand, view.trick, view.seat, view.trumps, _gone(view)))


def voids(view: TrumpsView) -> list[set[int]]:
    """The suits each seat has shown it cannot follow (a number, or :data:`TRUMP_SUIT`)."""
    assert view.trumps is not None
    out: list[set[int]] = [set() for _ in range(SEATS)]
    for trick in (*view.played, view.trick):
        if not trick:
            continue
        suit = led_suit(trick[0][1], view.trumps)
        for seat, t in trick[1:]:
            if not follows(t, suit, view.trumps):
                out[seat].add(suit)
    return out


def _allowed(t: Tile, void: set[int], trumps: int) -> bool:
    if IS_TRUMP[trumps][t]:
        return TRUMP_SUIT not in void
    return HIGH[t] not in void  # it belongs to the suit of its higher half only


class HandSampler:
    """Deals of the unseen tiles to the other three players for one view, consistent with
    the suits they failed to follow, every such deal equally likely
    (:class:`~kozel.engine.dealing.VoidDeal`; dealing one hand after another from a shuffled
    pool, as before 7 December, is not uniform once two players have failed to follow)."""

    def __init__(self, view: TrumpsView) -> None:
        assert view.seat is not None and view.trumps is not None
        self.view = view
        self.seat = view.seat
        trumps = view.trumps
        gone = _gone(view)
        unseen = [t for t in range(TILE_COUNT) if not gone >> t & 1 and t not in view.hand]
        in_trick = {seat for seat, _ in view.trick}
        void = voids(view)
        self.others = [s for s in range(SEATS) if s != view.seat]
        self.dealer = VoidDeal(
            unseen,
            [sum(1 << t for t in unseen if not _allowed(t, void[s], trumps)) for s in self.others],
            [len(view.hand) - (s in in_trick) for s in self.others],
        )
        self.is_trump = IS_TRUMP[trumps]
        self.shown_trumps = [0] * SEATS
        for trick in (*view.played, view.trick):
            for seat, t in trick:
                self.shown_trumps[seat] += self.is_trump[t]

    def sample(self, rng: random.Random, bidder_trumps: int = 3) -> list[list[Tile]] | None:
        """The four hands (the viewer's own as it is); the bidder (another seat) is given at
        least ``bidder_trumps`` trumps in all (played ones counted) when ten tries allow it.
        ``None`` when no deal fits the failures to follow."""
        if not self.dealer.consistent:
            return None
        hands = self._deal(rng)
        bidder = self.view.bidder
        if bidder is None or bidder == self.view.seat:
            return hands
        for _ in range(9):  # ten tries in all
            if self.shown_trumps[bidder] + sum(self.is_trump[t] for t in hands[bidder]) >= (
                bidder_trumps
            ):
                break
            hands = self._deal(rng)
        return hands

    def _deal(self, rng: random.Random) -> list[list[Tile]]:
        dealt, _ = self.dealer.deal(rng)
        hands: list[list[Tile]] = [[] for _ in range(SEATS)]
        hands[self.seat] = list(self.view.hand)
        for seat, mask in zip(self.others, dealt, strict=True):
            hands[seat] = tiles_of(mask)
        return hands


def playout(
    hands: list[list[Tile]],
    trick: list[tuple[int, Tile]],
    turn: int,
    trumps: int,
    gone: int,
    taken: list[int],
) -> list[int]:
    """Play the hand out greedily from this position (``hands`` are changed); the points
    each pair takes in all."""
    taken = taken[:]
    trick = trick[:]
    while hands[turn]:
        t = greedy_play(hands[turn], trick, turn, trumps, gone)
        hands[turn].remove(t)
        trick.append((turn, t))
        gone |= 1 << t
        if len(trick) < SEATS:
            turn = (turn + 1) % SEATS
            continue
        tiles = [x for _, x in trick]
        turn = trick[trick_winner(tiles, trumps)][0]
        taken[turn % 2] += trick_points(tiles)
        trick = []
    return taken


def hand_score(taken: Sequence[int], bidder: int, bid: int, pair: int) -> int:
    """What ``pair`` records less what the other records, the bid rule applied."""
    side = bidder % 2
    credited = list(taken)
    if taken[side] < bid:
        credited[side] = 0
        credited[1 - side] += bid
    return credited[pair] - credited[1 - pair]


BID_CONFIDENCE = 0.7
"""The expert bids what its pair takes in at least this share of its sampled deals."""


class ExpertTrumpsBot:
    level = "expert"

    def __init__(self, seed: int | None = None, samples: int = 24) -> None:
        self.rng = random.Random(seed)
        self.samples = samples

    def suit_takings(self, view: TrumpsView) -> list[list[int]]:
        """Per trump number: what the seat's pair takes in each of ``samples`` deals of the
        unseen tiles, the seat naming that trumps and leading, everyone playing greedily."""
        assert view.seat is not None
        seat = view.seat
        unseen = [t for t in range(TILE_COUNT) if t not in view.hand]
        out: list[list[int]] = [[] for _ in range(SUITS)]
        for _ in range(self.samples):
            self.rng.shuffle(unseen)
            others = [s for s in range(SEATS) if s != seat]
            hands: list[list[Tile]] = [[] for _ in range(SEATS)]
            for i, s in enumerate(others):
                hands[s] = unseen[i * len(view.hand) : (i + 1) * len(view.hand)]
            hands[seat] = list(view.hand)
            for v in range(SUITS):
                taken = playout([h[:] for h in hands], [], seat, v, 0, [0, 0])
                out[v].append(taken[seat % 2])
        return out

    def bid(self, view: TrumpsView) -> TrumpsMove:
        """The highest bid its pair makes in at least :data:`BID_CONFIDENCE` of the sampled
        deals with its best trumps; a pass when that is below the legal bids, or when its
        partner holds the bid already (the dealer's forced bid: the lowest)."""
        assert view.seat is not None
        bids = [m.amount for m in view.legal_moves if isinstance(m, Bid)]
        if PASS not in view.legal_moves:
            return Bid(bids[0])
        if not bids or (view.bidder is not None and view.bidder % 2 == view.seat % 2):
            return PASS
        takings = self.suit_takings(view)
        best = max(takings, key=sum)
        wanted = 0
        for b in bids:
            if sum(x >= b for x in best) >= BID_CONFIDENCE * len(best):
                wanted = b
        return Bid(wanted) if wanted else PASS

    def trumps_values(self, view: TrumpsView) -> list[tuple[TrumpsMove, float]]:
        """Each trumps it may name with its pair's mean score less the other pair's in the
        sampled deals (the bid rule applied)."""
        assert view.seat is not None
        takings = self.suit_takings(view)
        pair = view.seat % 2

        def score(v: int) -> float:
            return sum(
                hand_score(
                    (x, 42 - x) if pair == 0 else (42 - x, x), view.seat or 0, view.bid, pair
                )
                for x in takings[v]
            ) / len(takings[v])

        return [(NameTrumps(v), score(v)) for v in range(SUITS)]

    def name_trumps(self, view: TrumpsView) -> TrumpsMove:
        """The trumps with the best mean score for its pair in the sampled deals."""
        return max(self.trumps_values(view), key=lambda x: x[1])[0]

    def play_values(self, view: TrumpsView) -> list[tuple[TrumpsMove, float]]:
        """Each tile it may lay with its pair's mean score less the other pair's for the
        hand, over deals of the unseen tiles consistent with the bids and the failures to
        follow suit, everyone playing greedily after it."""
        assert view.seat is not None and view.trumps is not None and view.bidder is not None
        legal = [m for m in view.legal_moves if isinstance(m, Lay)]
        seat, trumps = view.seat, view.trumps
        gone = _gone(view)
        taken = list(view.taken)
        totals = [0] * len(legal)
        worlds = 0
        sampler = HandSampler(view)
        for _ in range(self.samples):
            hands = sampler.sample(self.rng)
            if hands is None:
                break
            worlds += 1
            for i, move in enumerate(legal):
                world = [h[:] for h in hands]
                world[seat].remove(move.tile)
                trick = [*view.trick, (seat, move.tile)]
                after = gone | 1 << move.tile
                if len(trick) == SEATS:
                    tiles = [x for _, x in trick]
                    turn = trick[trick_winner(tiles, trumps)][0]
                    now = taken[:]
                    now[turn % 2] += trick_points(tiles)
                    result = playout(world, [], turn, trumps, after, now)
                else:
                    result = playout(world, trick, (seat + 1) % SEATS, trumps, after, taken)
                totals[i] += hand_score(result, view.bidder, view.bid, seat % 2)
        return [(move, total / max(1, worlds)) for move, total in zip(legal, totals, strict=True)]

    def choose(self, view: TrumpsView) -> TrumpsMove:
        if view.phase == "bid":
            return self.bid(view)
        if view.phase == "naming":
            return self.name_trumps(view)
        legal = [m for m in view.legal_moves if isinstance(m, Lay)]
        if len(legal) == 1:
            return legal[0]
        return max(self.play_values(view), key=lambda x: x[1])[0]

    def analyse(self, view: TrumpsView) -> list[tuple[TrumpsMove, float]]:
        """Naming trumps and laying a tile: each legal move with its pair's expected score
        less the other pair's for the hand, best first. A bid has no such value without a
        model of the others' bids: empty."""
        if view.phase == "naming":
            valued = self.trumps_values(view)
        elif view.phase == "play":
            valued = self.play_values(view)
        else:
            return []
        return sorted(valued, key=lambda x: -x[1])


class BeginnerTrumpsBot:
    """``beginner``: passes whenever it may (the least bid when it must), names the number it
    holds most tiles of (ties: the higher), and lays its heaviest tile that may be laid,
    whoever holds the trick and whatever has gone."""

    level = "beginner"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: TrumpsView) -> TrumpsMove:
        moves = view.legal_moves
        if view.phase == "bid":
            if PASS in moves:
                return PASS
            return min(moves, key=lambda m: m.amount if isinstance(m, Bid) else MAX_BID + 1)
        if view.phase == "naming":
            held = [sum(1 for t in view.hand if n in (LOW[t], HIGH[t])) for n in range(SUITS)]
            named = [m for m in moves if isinstance(m, NameTrumps)]
            return max(named, key=lambda m: (held[m.value], m.value), default=moves[0])
        lays = [m for m in moves if isinstance(m, Lay)]
        return max(lays, key=lambda m: LOW[m.tile] + HIGH[m.tile], default=moves[0])


STRONG_SAMPLES = 6
"""The ``strong`` level: the expert's play on a quarter of its sampled deals."""


def _strong(seed: int | None) -> ExpertTrumpsBot:
    bot = ExpertTrumpsBot(seed, STRONG_SAMPLES)
    bot.level = "strong"
    return bot


def _amateur(seed: int | None) -> GreedyTrumpsBot:
    bot = GreedyTrumpsBot(seed)
    bot.level = "amateur"
    return bot


TrumpsBot = RandomTrumpsBot | GreedyTrumpsBot | ExpertTrumpsBot | BeginnerTrumpsBot

LEVELS: dict[str, Callable[[int | None], TrumpsBot]] = {
    "beginner": BeginnerTrumpsBot,
    "amateur": _amateur,
    "strong": _strong,
    "expert": ExpertTrumpsBot,
    "random": RandomTrumpsBot,
    "greedy": GreedyTrumpsBot,
}


def make_trumps_bot(level: str, seed: int | None = None) -> TrumpsBot:
    """A trumps bot by level, or ``InvalidOption`` naming the levels there are."""
    try:
        return LEVELS[level](seed)
    except KeyError:
        raise InvalidOption(f"unknown bot {level!r}; bots: {', '.join(LEVELS)}") from None

"""Computer players of Domino Poker. A bot sees only its seat's :class:`PokerView`.

- ``random``: a kind of move at random (check, bet, call, raise, fold or a discard), then one
  of its amounts or discards at random;
- ``greedy``: bets by its hand's strength (the share of all 15,504 hands it beats) and keeps
  its doubles and its longest run of tiles sharing a number at the draw;
- ``expert``: draws by the exact expected strength after the draw over every way the unseen
  tiles can replace its discards, bets from its equity against opponents' hands sampled from
  the unseen tiles (a player who stood pat is read as holding a strong hand), weighs the pot
  odds, and bluffs now and then.
"""

from __future__ import annotations

import random
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence
from functools import cache, lru_cache
from itertools import combinations

from kozel.core import PIPS, InvalidOption, Tile
from kozel.poker.hands import HAND_SIZE, POKER_TILES, all_hands, strength
from kozel.poker.moves import Bet, Call, Check, Discard, Fold, PokerMove, Raise
from kozel.poker.views import PokerView


@cache
def _strength_table() -> dict[int, float]:
    """Every hand (as a bitmask) with the share of all hands it beats, ties counting half."""
    hands = all_hands()
    keys = [strength(h) for h in hands]
    ordered = sorted(keys)
    total = len(ordered)
    table: dict[int, float] = {}
    for hand, key in zip(hands, keys, strict=True):
        below, upto = bisect_left(ordered, key), bisect_right(ordered, key)
        mask = 0
        for t in hand:
            mask |= 1 << t
        table[mask] = (below + (upto - below - 1) / 2) / (total - 1)
    return table


def hand_strength(hand: Sequence[Tile]) -> float:
    """The share (0..1) of all other five-tile hands that ``hand`` beats, ties counting half."""
    mask = 0
    for t in hand:
        mask |= 1 << t
    return _strength_table()[mask]


def _mask(tiles: Sequence[Tile]) -> int:
    mask = 0
    for t in tiles:
        mask |= 1 << t
    return mask


@lru_cache(maxsize=256)
def _draw_masks(unseen: tuple[Tile, ...], k: int) -> tuple[int, ...]:
    """The bitmask of every set of ``k`` of the ``unseen`` tiles."""
    return tuple(sum(c) for c in combinations([1 << t for t in unseen], k))


def expected_after_draw(
    hand: Sequence[Tile], discard: Sequence[Tile], unseen: Sequence[Tile]
) -> float:
    """The exact expected strength of ``hand`` after throwing in ``discard`` and drawing as
    many of the ``unseen`` tiles, each set of them equally likely."""
    table = _strength_table()
    keep = _mask([t for t in hand if t not in discard])
    draws = _draw_masks(tuple(unseen), len(discard))
    return sum(table[keep | d] for d in draws) / len(draws)


def _by_kind(moves: Sequence[PokerMove]) -> dict[type, list[PokerMove]]:
    kinds: dict[type, list[PokerMove]] = {}
    for m in moves:
        kinds.setdefault(type(m), []).append(m)
    return kinds


class RandomPokerBot:
    level = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: PokerView) -> PokerMove:
        kinds = _by_kind(view.legal_moves)
        kind = self.rng.choice(sorted(kinds, key=lambda k: k.__name__))
        return self.rng.choice(kinds[kind])


def _amount(moves: Sequence[PokerMove], wanted: int) -> PokerMove:
    """The bet or raise among ``moves`` whose amount is nearest ``wanted``."""
    return min(moves, key=lambda m: abs(getattr(m, "amount", 0) - wanted))


def _bet_or_raise(
    kinds: dict[type, list[PokerMove]], view: PokerView, share: float
) -> PokerMove | None:
    """A bet (or raise) of about ``share`` of the pot on top of the call, if one is legal."""
    for kind in (Bet, Raise):
        if kind in kinds:
            return _amount(kinds[kind], view.to_call + max(1, round(view.pot * share)))
    return None


def _passive(kinds: dict[type, list[PokerMove]], call: bool) -> PokerMove:
    if Check in kinds:
        return kinds[Check][0]
    if call and Call in kinds:
        return kinds[Call][0]
    return kinds[Fold][0] if Fold in kinds else kinds[Call][0]


class GreedyPokerBot:
    level = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: PokerView) -> PokerMove:
        if view.phase == "draw":
            return self.discard(view)
        kinds = _by_kind(view.legal_moves)
        p = hand_strength(view.hand)
        if p > 0.85 or (p > 0.7 and view.to_call == 0):
            move = _bet_or_raise(kinds, view, 0.5)
            if move is not None:
                return move
        return _passive(kinds, call=p > 0.45)

    def discard(self, view: PokerView) -> PokerMove:
        hand = list(view.hand)
        keep = {t for t in hand if _is_double(t)}
        best: list[Tile] = []
        for v in range(1, 7):
            sharing = [t for t in hand if v in _halves(t)]
            if len(sharing) > len(best):
                best = sharing
        if len(best) >= 3:
            keep |= set(best)
        if not keep:
            keep = set(sorted(hand, key=lambda t: -PIPS[t])[:2])
        wanted = sorted((t for t in hand if t not in keep), key=lambda t: PIPS[t])
        most = max(len(m.tiles) for m in view.legal_moves if isinstance(m, Discard))
        return Discard(tuple(sorted(wanted[:most])))


def _halves(t: Tile) -> tuple[int, int]:
    from kozel.core import HIGH, LOW

    return LOW[t], HIGH[t]


def _is_double(t: Tile) -> bool:
    low, high = _halves(t)
    return low == high


STOOD_PAT_LEAST = 0.6
"""The expert reads a player who drew no tile as holding at least this strength."""


class ExpertPokerBot:
    level = "expert"
    samples = 200
    bluff = 0.08

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def unseen(self, view: PokerView) -> list[Tile]:
        known = set(view.hand) | set(view.discarded)
        return [t for t in POKER_TILES if t not in known]

    def choose(self, view: PokerView) -> PokerMove:
        if view.phase == "draw":
            return self.discard(view)
        kinds = _by_kind(view.legal_moves)
        equity = self.equity(view)
        pot_odds = view.to_call / (view.pot + view.to_call) if view.to_call else 0.0
        opponents = self.opponents(view)
        strong = 1 - 0.35 / max(1, len(opponents))
        if equity > strong or (view.to_call == 0 and equity > 0.6):
            move = _bet_or_raise(kinds, view, 0.75 if equity > strong else 0.5)
            if move is not None:
                return move
        if self.rng.random() < self.bluff and view.to_call == 0:
            move = _bet_or_raise(kinds, view, 0.5)
            if move is not None:
                return move
        return _passive(kinds, call=equity >= pot_odds + 0.03)

    def opponents(self, view: PokerView) -> list[int]:
        return [
            s
            for s in range(view.opts.players)
            if s != view.seat and view.dealt_in[s] and not view.folded[s]
        ]

    def equity(self, view: PokerView) -> float:
        """The share of sampled deals of the opponents' hands that the seat's hand wins (a
        tie as a share of the pot)."""
        table = _strength_table()
        mine = table[_mask(view.hand)]
        unseen = self.unseen(view)
        opponents = self.opponents(view)
        won = 0.0
        need = HAND_SIZE * len(opponents)
        sample = self.rng.sample
        for _ in range(self.samples):
            drawn = sample(unseen, need)
            best = 0.0
            for i, s in enumerate(opponents):
                theirs = table[_mask(drawn[HAND_SIZE * i : HAND_SIZE * (i + 1)])]
                if view.discard_counts[s] == 0:
                    for _try in range(8):  # standing pat: a strong hand, if one comes up
                        if theirs >= STOOD_PAT_LEAST:
                            break
                        others = [t for t in unseen if t not in drawn]
                        pool = others + drawn[HAND_SIZE * i : HAND_SIZE * (i + 1)]
                        theirs = table[_mask(sample(pool, HAND_SIZE))]
                best = max(best, theirs)
            won += 1.0 if mine > best else 0.5 if mine == best else 0.0
        return won / self.samples

    def discard(self, view: PokerView) -> PokerMove:
        unseen = self.unseen(view)
        options = [m for m in view.legal_moves if isinstance(m, Discard)]
        return max(options, key=lambda m: expected_after_draw(view.hand, m.tiles, unseen))


LEVELS: dict[str, Callable[[int | None], RandomPokerBot | GreedyPokerBot | ExpertPokerBot]] = {
    "random": RandomPokerBot,
    "greedy": GreedyPokerBot,
    "expert": ExpertPokerBot,
}


def make_poker_bot(
    level: str, seed: int | None = None
) -> RandomPokerBot | GreedyPokerBot | ExpertPokerBot:
    """A poker bot by level, or ``InvalidOption`` naming the levels there are."""
    try:
        return LEVELS[level](seed)
    except KeyError:
        raise InvalidOption(f"unknown bot {level!r}; bots: {', '.join(LEVELS)}") from None

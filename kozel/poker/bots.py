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
from kozel.poker.moves import Bet, Call, Check, Discard, Fold, PokerMove, Raise
from kozel.poker.ranking import HAND_SIZE, POKER_TILES, all_hands, strength
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
"""The expert reads a player who drew no tile as holding at least this strength,"""
BET_READS = 0.65
"""one who bet this hand as holding at least this,"""
RAISE_READS = 0.8
"""one who raised as holding at least this,"""
CALL_READS = 0.35
"""and one who called a bet as holding at least this."""
FOLDS_BELOW = 0.45
"""An opponent facing a bet is expected to fold a hand weaker than this,"""
FOLDS_TO_RAISE_BELOW = 0.6
"""and one facing a raise a hand weaker than this."""


class ExpertPokerBot:
    """Draws by the exact expected strength; bets by the expected value of each move against
    sampled opponents' hands (read from their bets and draws), counting the pot it wins when
    they fold; bluffs now and then."""

    level = "expert"
    samples = 250
    bluff = 0.05

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def unseen(self, view: PokerView) -> list[Tile]:
        known = set(view.hand) | set(view.discarded)
        return [t for t in POKER_TILES if t not in known]

    def opponents(self, view: PokerView) -> list[int]:
        return [
            s
            for s in range(view.opts.players)
            if s != view.seat and view.dealt_in[s] and not view.folded[s]
        ]

    def floors(self, view: PokerView) -> list[float]:
        """Per opponent still in, the least strength his actions this hand suggest."""
        opponents = self.opponents(view)
        floors = dict.fromkeys(opponents, 0.0)
        for event in view.history:
            seat = event["seat"]
            if seat not in floors:
                continue
            if "raise" in event:
                floors[seat] = max(floors[seat], RAISE_READS)
            elif "bet" in event:
                floors[seat] = max(floors[seat], BET_READS)
            elif "call" in event:
                floors[seat] = max(floors[seat], CALL_READS)
        for seat in opponents:
            if view.discard_counts[seat] == 0:
                floors[seat] = max(floors[seat], STOOD_PAT_LEAST)
        return [floors[s] for s in opponents]

    def sample(self, view: PokerView) -> list[float]:
        """Per sampled deal of the unseen tiles, the best opponent's strength (each hand
        drawn again a few times until it is as strong as his actions suggest)."""
        table = _strength_table()
        unseen = self.unseen(view)
        floors = self.floors(view)
        sample = self.rng.sample
        best: list[float] = []
        for _ in range(self.samples):
            left = unseen
            top = 0.0
            for floor in floors:
                for _try in range(12):
                    hand = sample(left, HAND_SIZE)
                    strength = table[_mask(hand)]
                    if strength >= floor:
                        break
                left = [t for t in left if t not in hand]
                top = max(top, strength)
            best.append(top)
        return best

    def bet_values(
        self, view: PokerView, also: PokerMove | None = None
    ) -> list[tuple[float, int, PokerMove]]:
        """The moves it weighs in a betting round, each as (the chips it expects to win from
        here on, 0: fold / 1: check or call / 2: bet or raise, the move): the bets and raises
        of half, once and twice the pot and all in, and ``also`` when it is one."""
        kinds = _by_kind(view.legal_moves)
        mine = hand_strength(view.hand)
        best = self.sample(view)

        def equity(called: list[float]) -> float:
            if not called:
                return 1.0
            won = sum(1.0 if mine > b else 0.5 if mine == b else 0.0 for b in called)
            return won / len(called)

        pot, owed = view.pot, view.to_call
        scored: list[tuple[float, int, PokerMove]] = []
        if Check in kinds:
            scored.append((equity(best) * pot, 1, kinds[Check][0]))
        if Fold in kinds:
            scored.append((0.0, 0, kinds[Fold][0]))
        if Call in kinds:
            call = kinds[Call][0]
            assert isinstance(call, Call)
            scored.append((equity(best) * (pot + call.amount) - call.amount, 1, call))
        for kind, threshold in ((Bet, FOLDS_BELOW), (Raise, FOLDS_TO_RAISE_BELOW)):
            if kind not in kinds:
                continue
            sizes = [owed + max(1, round(pot * f)) for f in (0.5, 1.0, 2.0)]
            candidates = {_amount(kinds[kind], n) for n in [*sizes, view.chips[view.seat or 0]]}
            if isinstance(also, kind) and also in kinds[kind]:
                candidates.add(also)
            called = [b for b in best if b >= threshold]
            folds = 1 - len(called) / len(best)
            for move in candidates:
                size = getattr(move, "amount", 0)
                raised = size - owed
                value = folds * pot + (1 - folds) * (equity(called) * (pot + size + raised) - size)
                scored.append((value, 2, move))
        return scored

    def choose(self, view: PokerView) -> PokerMove:
        if view.phase == "draw":
            return self.discard(view)
        scored = self.bet_values(view)
        move = max(scored, key=lambda x: (x[0], -x[1]))[2]
        if view.to_call == 0 and self.rng.random() < self.bluff:
            aggressive = [m for _, rank, m in scored if rank == 2]
            if aggressive:
                return self.rng.choice(aggressive)
        return move

    def discard(self, view: PokerView) -> PokerMove:
        unseen = self.unseen(view)
        options = [m for m in view.legal_moves if isinstance(m, Discard)]
        return max(options, key=lambda m: expected_after_draw(view.hand, m.tiles, unseen))

    def analyse(
        self, view: PokerView, also: PokerMove | None = None
    ) -> list[tuple[PokerMove, float]]:
        """The moves it weighs with the chips each is expected to win from here on, best
        first (``also``: a move to value besides, e.g. the one played). A discard's value is
        its expected share of the pot as it stands: over every way the unseen tiles can
        replace it, the share of sampled opponents' hands the new hand beats."""
        if view.phase != "draw":
            scored = sorted(self.bet_values(view, also), key=lambda x: (-x[0], x[1]))
            return [(move, value) for value, _, move in scored]
        table = _strength_table()
        opponents = sorted(self.sample(view))
        n = len(opponents)
        unseen = tuple(self.unseen(view))
        valued: list[tuple[PokerMove, float]] = []
        for move in view.legal_moves:
            assert isinstance(move, Discard)
            keep = _mask([t for t in view.hand if t not in move.tiles])
            draws = _draw_masks(unseen, len(move.tiles))
            share = 0.0
            for d in draws:
                s = table[keep | d]
                low, high = bisect_left(opponents, s), bisect_right(opponents, s)
                share += (low + (high - low) / 2) / n
            valued.append((move, share / len(draws) * view.pot))
        return sorted(valued, key=lambda x: -x[1])


class BeginnerPokerBot:
    """``beginner``: never bets or raises and never folds — it checks when it may and calls
    every bet (the hand might improve) — and at the draw throws in its lightest tiles, as
    many as it may, keeping the heavy ones whatever they make together."""

    level = "beginner"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: PokerView) -> PokerMove:
        kinds = _by_kind(view.legal_moves)
        if view.phase == "draw":
            most = max(len(m.tiles) for m in kinds[Discard] if isinstance(m, Discard))
            lightest = sorted(view.hand, key=lambda t: (PIPS[t], t))[:most]
            return Discard(tuple(sorted(lightest)))
        for kind in (Check, Call):
            if kind in kinds:
                return kinds[kind][0]
        return view.legal_moves[0]


STRONG_READS = 0.5
"""How often the ``strong`` poker player bets as the expert does (else as the amateur)."""


class StrongPokerBot(ExpertPokerBot):
    """``strong``: draws as the expert does (the exact expected strength after the draw); in
    the betting it weighs the pot against the others' likely hands as the expert does only
    half the time (:data:`STRONG_READS`), else it bets by its hand's strength alone, as the
    amateur does. (The expert's edge over the amateur is in its betting: drawing as the expert
    and always betting as the amateur gained nothing measurable, docs/bots.md.)"""

    level = "strong"
    bluff = 0.0

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.amateur = GreedyPokerBot(seed)

    def choose(self, view: PokerView) -> PokerMove:
        if view.phase == "draw":
            return self.discard(view)
        if self.rng.random() < STRONG_READS:
            return super().choose(view)
        return self.amateur.choose(view)


PokerBot = RandomPokerBot | GreedyPokerBot | ExpertPokerBot | BeginnerPokerBot


def _amateur(seed: int | None) -> GreedyPokerBot:
    bot = GreedyPokerBot(seed)
    bot.level = "amateur"
    return bot


LEVELS: dict[str, Callable[[int | None], PokerBot]] = {
    "beginner": BeginnerPokerBot,
    "amateur": _amateur,
    "strong": StrongPokerBot,
    "expert": ExpertPokerBot,
    "random": RandomPokerBot,
    "greedy": GreedyPokerBot,
}


def make_poker_bot(level: str, seed: int | None = None) -> PokerBot:
    """A poker bot by level, or ``InvalidOption`` naming the levels there are."""
    try:
        return LEVELS[level](seed)
    except KeyError:
        raise InvalidOption(f"unknown bot {level!r}; bots: {', '.join(LEVELS)}") from None

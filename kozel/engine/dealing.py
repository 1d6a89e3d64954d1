"""Deal the tiles a player cannot see to the other hands, each deal the voids allow equally
likely: what every game's computer player samples its worlds with.

The tiles fall into classes by which of the hands may hold them (a hand's *voids* are the
tiles it was proven not to hold). A deal goes class by class: how many of a class's tiles
each hand allowed them takes is drawn in proportion to the number of whole deals that split
leaves possible (counted once and remembered), and which of the class's tiles they are is
drawn uniformly. What no hand takes is left over (a bazaar, a reserve). Filling one hand
after another from a shuffled pool is not uniform once two hands have voids: a hand that
leaves the next one fewer choices is dealt more often.
"""

from __future__ import annotations

import bisect
import math
import operator
import random
from collections.abc import Iterator, Sequence

from kozel.core import TILE_COUNT, Tile


class VoidDeal:
    """Deals of ``tiles`` to hands that need ``needs`` tiles each, hand ``i`` taking none of
    the tiles in the mask ``voids[i]``, every such deal equally likely; the tiles no hand
    takes are left over."""

    def __init__(self, tiles: Sequence[Tile], voids: Sequence[int], needs: Sequence[int]) -> None:
        self.tiles = list(tiles)
        self.needs = tuple(needs)
        everyone = (1 << len(self.needs)) - 1
        classes: dict[int, list[Tile]] = {}
        for t in self.tiles:
            allowed = sum(1 << i for i, void in enumerate(voids) if not void >> t & 1)
            classes.setdefault(allowed, []).append(t)
        # the tiles any hand may hold last: their number of deals is a closed form
        self.classes = sorted(classes.items(), key=lambda item: item[0] == everyone)
        self.class_of = [0] * TILE_COUNT
        for index, (_, members) in enumerate(self.classes):
            for t in members:
                self.class_of[t] = index
        self.free = len(self.classes) - 1 if classes.get(everyone) else -1
        """The index of the class any hand may hold (the last), or -1."""
        self._splits: dict[tuple[int, tuple[int, ...]], tuple[list[tuple[int, ...]], list[int]]]
        self._splits = {}
        self.consistent = self._deals(0, self.needs) > 0
        """False only if no deal fits the voids; :meth:`deal` then ignores them."""
        self.grouped = len(self.classes) > 1 and self.consistent
        """The voids split the tiles into classes (else a deal fills the hands in turn from
        the shuffled tiles, and what is left over is in a random order)."""

    def deal(self, rng: random.Random) -> tuple[list[int], list[Tile]]:
        """One deal: each hand's tiles (a mask), and the tiles left over, in a random order
        within each class."""
        pool = self.tiles[:]
        rng.shuffle(pool)
        hands = [0] * len(self.needs)
        if not self.grouped:  # no voids split them, or none fit
            at = 0
            for i, need in enumerate(self.needs):
                for t in pool[at : at + need]:
                    hands[i] |= 1 << t
                at += need
            return hands, pool[at:]
        class_of = self.class_of
        grouped: list[list[Tile]] = [[] for _ in self.classes]
        for t in pool:  # each group in a random order
            grouped[class_of[t]].append(t)
        needs = self.needs
        rest: list[Tile] = []
        for index, members in enumerate(grouped):
            if index == self.free:
                split = needs
            else:
                splits, totals = self._split_options(index, needs)
                split = splits[bisect.bisect_right(totals, rng.randrange(totals[-1]))]
                needs = tuple(map(operator.sub, needs, split))
            at = 0
            for i, count in enumerate(split):
                for t in members[at : at + count]:
                    hands[i] |= 1 << t
                at += count
            rest += members[at:]
        return hands, rest

    def _deals(self, index: int, needs: tuple[int, ...]) -> int:
        """How many deals of the classes from ``index`` on give each hand its ``needs`` (the
        tiles left over going unused)."""
        if index == len(self.classes):
            return 0 if any(needs) else 1
        if index == self.free:
            return _ways(len(self.classes[index][1]), needs)
        return self._split_options(index, needs)[1][-1]

    def _split_options(
        self, index: int, needs: tuple[int, ...]
    ) -> tuple[list[tuple[int, ...]], list[int]]:
        """The ways class ``index`` can split among the hands it allows, with the running
        total of the deals each leaves possible."""
        key = (index, needs)
        if key in self._splits:
            return self._splits[key]
        allowed, members = self.classes[index]
        hands = [i for i in range(len(needs)) if allowed >> i & 1]
        splits: list[tuple[int, ...]] = []
        totals: list[int] = []
        total = 0
        for counts in _bounded(len(members), [needs[i] for i in hands]):
            split = [0] * len(needs)
            for i, c in zip(hands, counts, strict=True):
                split[i] = c
            left = tuple(map(operator.sub, needs, split))
            ways = _ways(len(members), counts) * self._deals(index + 1, left)
            if ways:
                total += ways
                splits.append(tuple(split))
                totals.append(total)
        if not totals:
            totals.append(0)
        self._splits[key] = (splits, totals)
        return splits, totals


def _ways(count: int, parts: tuple[int, ...]) -> int:
    """In how many ways groups of these sizes can be taken from ``count`` different tiles
    (the rest left over); 0 when they need more."""
    left = count - sum(parts)
    if left < 0:
        return 0
    ways = math.factorial(count) // math.factorial(left)
    for part in parts:
        ways //= math.factorial(part)
    return ways


def _bounded(total: int, caps: list[int]) -> Iterator[tuple[int, ...]]:
    """Every tuple of counts, each at most its cap, whose sum is at most ``total``."""
    if not caps:
        yield ()
        return
    for first in range(min(caps[0], total) + 1):
        for more in _bounded(total - first, caps[1:]):
            yield (first, *more)

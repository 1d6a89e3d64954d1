"""Domino Poker's tiles and the ranking of five-tile hands (docs/rules.md#poker-game and
docs/rules.md#poker-decisions).

The set is the double-six without the seven blanks and without ``1-1``: 20 tiles. A hand's
category is the highest it satisfies; equal categories compare by total pips; equal pips tie.

>>> from kozel.core import parse_tile
>>> hand = [parse_tile(t) for t in ("3-4", "4-4", "4-5", "4-6", "2-2")]
>>> CATEGORIES[category(hand)], strength(hand)
('four_straight', (4, 38))
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache
from itertools import combinations

from kozel.core import HIGH, IS_DOUBLE, LOW, PIPS, TILE_COUNT, Tile, tile

POKER_TILES: tuple[Tile, ...] = tuple(
    t for t in range(TILE_COUNT) if LOW[t] > 0 and not (LOW[t] == 1 and HIGH[t] == 1)
)
"""The 20 tiles of Domino Poker in index order (``1-2`` … ``6-6``)."""

HAND_SIZE = 5

CATEGORIES: tuple[str, ...] = (
    "none",
    "pair",
    "flush",
    "three",
    "four_straight",
    "full_hand",
    "five_straight",
    "four_of_a_kind",
    "six_straight",
    "royal_flush",
)
"""The categories, lowest first, by the names records use; a category is its index here."""

NONE, PAIR, FLUSH, THREE, FOUR_STRAIGHT, FULL_HAND = 0, 1, 2, 3, 4, 5
FIVE_STRAIGHT, FOUR_OF_A_KIND, SIX_STRAIGHT, ROYAL_FLUSH = 6, 7, 8, 9

SIX_STRAIGHT_HAND = frozenset(tile(v, 6) for v in range(2, 7))
"""The one Six straight: ``2-6, 3-6, 4-6, 5-6, 6-6``."""


def _other_half(t: Tile, shared: int) -> int:
    """The half of ``t`` that is not ``shared`` (a double's own number)."""
    return HIGH[t] if LOW[t] == shared else LOW[t]


def _longest_run(values: Iterable[int]) -> int:
    """The longest run of consecutive numbers among distinct ``values``."""
    present = set(values)
    best = 0
    for v in present:
        if v - 1 not in present:
            length = 1
            while v + length in present:
                length += 1
            best = max(best, length)
    return best


def category(hand: Sequence[Tile]) -> int:
    """The category (an index of :data:`CATEGORIES`) of five tiles: the highest they satisfy.

    >>> from kozel.core import parse_tile
    >>> category([parse_tile(t) for t in ("1-3", "2-3", "3-3", "3-4", "3-5")]) == FIVE_STRAIGHT
    True
    """
    doubles = [t for t in hand if IS_DOUBLE[t]]
    others = [t for t in hand if not IS_DOUBLE[t]]
    if len(doubles) == 5:
        return ROYAL_FLUSH
    if frozenset(hand) == SIX_STRAIGHT_HAND:
        return SIX_STRAIGHT
    if len(doubles) == 4:
        return FOUR_OF_A_KIND
    run = 0  # the longest run of other halves among tiles sharing one number
    flush = False
    for shared in range(1, 7):
        sharing = [t for t in hand if shared in (LOW[t], HIGH[t])]
        if len(sharing) == 5:
            flush = True
        if len(sharing) >= 4:
            run = max(run, _longest_run(_other_half(t, shared) for t in sharing))
    if run >= 5:
        return FIVE_STRAIGHT
    if len(doubles) == 3 and {LOW[others[0]], HIGH[others[0]]} & {LOW[others[1]], HIGH[others[1]]}:
        return FULL_HAND
    if run == 4:
        return FOUR_STRAIGHT
    if len(doubles) == 3:
        return THREE
    if flush:
        return FLUSH
    if len(doubles) == 2:
        return PAIR
    return NONE


def strength(hand: Sequence[Tile]) -> tuple[int, int]:
    """``(category, total pips)``: a higher pair is a better hand; equal pairs tie."""
    return _strength_of(frozenset(hand))


@cache
def _strength_of(hand: frozenset[Tile]) -> tuple[int, int]:
    if len(hand) != HAND_SIZE:
        raise ValueError(f"a poker hand has {HAND_SIZE} different tiles, got {len(hand)}")
    tiles = sorted(hand)
    return category(tiles), sum(PIPS[t] for t in tiles)


def all_hands() -> list[tuple[Tile, ...]]:
    """Every five-tile hand of the 20 tiles (15,504 of them)."""
    return list(combinations(POKER_TILES, HAND_SIZE))


def compare(first: Sequence[Tile], second: Sequence[Tile]) -> int:
    """1 if ``first`` beats ``second``, -1 if it loses, 0 if they split the pot."""
    a, b = strength(first), strength(second)
    return (a > b) - (a < b)

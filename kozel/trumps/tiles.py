"""The tiles in Trumps (docs/rules.md#trumps-game and its Decisions 2–4, as corrected by
docs/rules.md#trumps-suits): suits,
ranks and counters.

A tile holding the trump number is a trump and belongs to the trump suit only. Any other tile
belongs to exactly one suit, its higher half (``5-6`` is a six, never a five): it leads that
suit and follows only that suit. Within a suit the double ranks highest, then the other half
(for a suit that is not trumps, the lower half) decides.

>>> from kozel.core import parse_tile
>>> led_suit(parse_tile("2-5"), trumps=0)
5
>>> [follows(parse_tile(name), 5, trumps=0) for name in ("3-5", "2-4", "5-6")]
[True, False, False]
>>> trick = [parse_tile(name) for name in ("2-5", "3-5", "0-1", "5-6")]
>>> trick_winner(trick, trumps=0), trick_winner(trick, trumps=4)  # 0-1 trumps; else 3-5
(2, 1)
"""

from __future__ import annotations

from collections.abc import Sequence

from kozel.core import HIGH, IS_DOUBLE, LOW, TILE_COUNT, Tile, tile

TRUMP_SUIT = 7
"""The suit of every trump, whatever the trump number."""

SUITS = 7
TRICKS = 7
HAND_TILES = 7
HAND_POINTS = 42
"""35 in counting tiles and 1 for each of the 7 tricks."""

COUNTERS: dict[Tile, int] = {
    tile(5, 5): 10,
    tile(4, 6): 10,
    tile(0, 5): 5,
    tile(1, 4): 5,
    tile(2, 3): 5,
}
"""The counting tiles and their points (docs/rules.md#trumps-game, the Texas 42 count)."""

COUNT: tuple[int, ...] = tuple(COUNTERS.get(t, 0) for t in range(TILE_COUNT))

IS_TRUMP: tuple[tuple[bool, ...], ...] = tuple(
    tuple(v in (LOW[t], HIGH[t]) for t in range(TILE_COUNT)) for v in range(SUITS)
)
"""``IS_TRUMP[v][t]``: tile ``t`` is a trump when ``v`` is trumps."""


def holds(t: Tile, v: int) -> bool:
    return LOW[t] == v or HIGH[t] == v


def rank(t: Tile, suit: int) -> int:
    """Tile ``t``'s rank within the suit of number ``suit`` (which it holds): 7 for the double,
    else its other half (the lower half in a suit that is not trumps)."""
    if IS_DOUBLE[t]:
        return 7
    return HIGH[t] if LOW[t] == suit else LOW[t]


def led_suit(t: Tile, trumps: int) -> int:
    """The suit a tile leads: :data:`TRUMP_SUIT` for a trump, else its higher half."""
    return TRUMP_SUIT if IS_TRUMP[trumps][t] else HIGH[t]


def follows(t: Tile, suit: int, trumps: int) -> bool:
    """Tile ``t`` follows the led ``suit`` (:data:`TRUMP_SUIT` or a number): a trump follows
    trumps, any other tile only the suit of its higher half."""
    if IS_TRUMP[trumps][t]:
        return suit == TRUMP_SUIT
    return HIGH[t] == suit


def playable(hand: Sequence[Tile], suit: int | None, trumps: int) -> list[Tile]:
    """The tiles of ``hand`` a player may lay on a trick led in ``suit`` (``None``: he
    leads): those that follow, or, with none, any."""
    if suit is None:
        return list(hand)
    following = [t for t in hand if follows(t, suit, trumps)]
    return following or list(hand)


def trick_winner(trick: Sequence[Tile], trumps: int) -> int:
    """The index in ``trick`` (led first) of the tile that wins it: the highest trump, else
    the highest tile of the led suit."""
    trump_ranks = [(rank(t, trumps), i) for i, t in enumerate(trick) if IS_TRUMP[trumps][t]]
    if trump_ranks:
        return max(trump_ranks)[1]
    suit = HIGH[trick[0]]
    return max((rank(t, suit), i) for i, t in enumerate(trick) if follows(t, suit, trumps))[1]


def trick_points(trick: Sequence[Tile]) -> int:
    """One point for the trick and the counters in it."""
    return 1 + sum(COUNT[t] for t in trick)

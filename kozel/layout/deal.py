"""The deal of a layout game's round: hands and the bazaar, shuffled until no hand must be thrown
in (five doubles, or six of a suit where the game says so)."""

from __future__ import annotations

import random
from collections import Counter

from kozel.core import HIGH, IS_DOUBLE, LOW, TILE_COUNT, TILE_NAMES, Tile
from kozel.layout.rules import HAND_SIZE
from kozel.shuffle import DealStream

_BIT: tuple[int, ...] = tuple(1 << t for t in range(TILE_COUNT))


def _suit_table(first: Tile) -> list[int]:
    """Packed counts for every subset of the 14 tiles from ``first``: 4 bits per suit 0..6
    (a double counted once), and the number of doubles in bits 28..31."""
    values = []
    for t in range(first, first + 14):
        packed = 1 << (4 * LOW[t])
        packed += (1 << 28) if IS_DOUBLE[t] else 1 << (4 * HIGH[t])
        values.append(packed)
    table = [0] * (1 << 14)
    for x in range(1, 1 << 14):
        low = x & -x
        table[x] = table[x ^ low] + values[low.bit_length() - 1]
    return table


_COUNTS_LOW, _COUNTS_HIGH = _suit_table(0), _suit_table(14)
_SIX_OF_A_SUIT = 0x08888888  # set in a suit's field once 2 is added to a count of 6 or 7


def needs_redeal(hand: int, suits: bool = True) -> bool:
    """A hand with 5 or more doubles or (with ``suits``) 6 or more tiles of one suit is
    thrown in.

    >>> from kozel.core import DOUBLE_OF, mask_of
    >>> needs_redeal(mask_of(DOUBLE_OF[v] for v in range(5)))
    True
    >>> six_of_a_suit = mask_of(t for t in range(TILE_COUNT) if LOW[t] == 0 and HIGH[t] > 0)
    >>> needs_redeal(six_of_a_suit), needs_redeal(six_of_a_suit, suits=False)
    (True, False)
    """
    packed = _COUNTS_LOW[hand & 0x3FFF] + _COUNTS_HIGH[hand >> 14]
    return packed >> 28 >= 5 or (suits and bool((packed + 0x02222222) & _SIX_OF_A_SUIT))


class Deal:
    """Hands as dealt (seat 0 first) and the bazaar in draw order; ``masks`` are the hands
    as bitmasks."""

    __slots__ = ("bazaar", "hands", "masks")

    def __init__(self, hands: tuple[tuple[Tile, ...], ...], bazaar: tuple[Tile, ...]) -> None:
        self.hands = hands
        self.bazaar = bazaar
        self.masks = tuple([sum(map(_BIT.__getitem__, h)) for h in hands])

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Deal) and self.hands == other.hands and self.bazaar == other.bazaar

    def __hash__(self) -> int:
        return hash((self.hands, self.bazaar))

    def __repr__(self) -> str:
        return f"Deal(hands={self.hands!r}, bazaar={self.bazaar!r})"

    def validate(self, players: int, hand_size: int = HAND_SIZE) -> None:
        """Raise ``ValueError`` unless this is a deal of the whole set to ``players`` hands
        of ``hand_size`` tiles."""
        if len(self.hands) != players:
            raise ValueError(f"the deal has {len(self.hands)} hands for {players} players")
        for seat, hand in enumerate(self.hands):
            if len(hand) != hand_size:
                raise ValueError(f"hand {seat} has {len(hand)} tiles, not {hand_size}")
        every = Counter(t for hand in (*self.hands, self.bazaar) for t in hand)
        if len(every) != TILE_COUNT or max(every.values()) > 1:
            twice = sorted(t for t, n in every.items() if n > 1)
            missing = sorted(set(range(TILE_COUNT)) - set(every))
            problems = []
            if twice:
                problems.append("twice: " + " ".join(TILE_NAMES[t] for t in twice))
            if missing:
                problems.append("missing: " + " ".join(TILE_NAMES[t] for t in missing))
            raise ValueError("the deal is not the 28-tile set (" + "; ".join(problems) + ")")

    def needs_redeal(self, suits: bool = True) -> bool:
        """True when some hand must be thrown in (:func:`needs_redeal`)."""
        if suits:
            return any(map(needs_redeal, self.masks))
        return any(needs_redeal(mask, False) for mask in self.masks)


def deal_tiles(
    rng: random.Random,
    players: int,
    hand_size: int = HAND_SIZE,
    redeal: bool = True,
    suits: bool = True,
) -> tuple[Deal, int]:
    """Shuffle and deal ``hand_size`` tiles to each player until no hand needs a redeal (when
    the game has ``redeal``; ``suits``: six of a suit too); return the deal and the redeal
    count. The tiles start in their order (``0-0``, ``0-1`` … ``6-6``); a redeal shuffles the
    same list again. A verifiable shuffle's stream (:class:`~kozel.shuffle.DealStream`)
    shuffles with its own documented algorithm."""
    redeals = 0
    tiles = list(range(TILE_COUNT))
    cut = players * hand_size
    uniform = rng.random
    exact = isinstance(rng, DealStream)
    while True:
        if exact:
            rng.shuffle(tiles)
        else:
            # Fisher-Yates from uniform floats: the bias is below 2**-50 per step, and it is
            # faster than ``rng.shuffle``'s integer draws (the deal is a fifth of a round).
            for i in range(TILE_COUNT - 1, 0, -1):
                j = int(uniform() * (i + 1))
                tiles[i], tiles[j] = tiles[j], tiles[i]
        deal = Deal(
            tuple([tuple(tiles[i : i + hand_size]) for i in range(0, cut, hand_size)]),
            tuple(tiles[cut:]),
        )
        if not redeal or not deal.needs_redeal(suits):
            return deal, redeals
        redeals += 1

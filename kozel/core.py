"""Tiles, suits and hands as bitmasks; moves; the layout with its arms.

A tile is a small int (0..27). A hand, the table or any set of tiles is an int bitmask with
bit ``t`` set for tile ``t``. A tile is written low half first: ``2-5``, never ``5-2``.

>>> tile_str(parse_tile("2-5"))
'2-5'
>>> [tile_str(t) for t in tiles_of(SUIT_MASK[6] & DOUBLES_MASK)]
['6-6']
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

Tile = int
"""A tile's index, 0..27, in the order 0-0, 0-1, …, 0-6, 1-1, …, 6-6."""

MAX_PIP = 6
TILE_COUNT = 28
FULL_MASK = (1 << TILE_COUNT) - 1

_HALVES: list[tuple[int, int]] = [(a, b) for a in range(MAX_PIP + 1) for b in range(a, MAX_PIP + 1)]
LOW: tuple[int, ...] = tuple(a for a, _ in _HALVES)
HIGH: tuple[int, ...] = tuple(b for _, b in _HALVES)
PIPS: tuple[int, ...] = tuple(a + b for a, b in _HALVES)
IS_DOUBLE: tuple[bool, ...] = tuple(a == b for a, b in _HALVES)
_INDEX: dict[tuple[int, int], Tile] = {halves: t for t, halves in enumerate(_HALVES)}
TILE_NAMES: tuple[str, ...] = tuple(f"{a}-{b}" for a, b in _HALVES)
_BY_NAME: dict[str, Tile] = {name: t for t, name in enumerate(TILE_NAMES)}

SUIT_MASK: tuple[int, ...] = tuple(
    sum(1 << t for t, (a, b) in enumerate(_HALVES) if v in (a, b)) for v in range(MAX_PIP + 1)
)
"""``SUIT_MASK[v]``: the seven tiles that show ``v``."""
DOUBLES_MASK = sum(1 << t for t in range(TILE_COUNT) if IS_DOUBLE[t])
DOUBLE_OF: tuple[Tile, ...] = tuple(_INDEX[(v, v)] for v in range(MAX_PIP + 1))
"""``DOUBLE_OF[v]``: the tile ``v-v``."""

OTHER_HALF: tuple[tuple[int, ...], ...] = tuple(
    tuple(b if v == a else a if v == b else -1 for v in range(MAX_PIP + 1)) for a, b in _HALVES
)
"""``OTHER_HALF[t][v]``: the value tile ``t`` shows once attached to an end showing ``v``
(``-1`` when it does not fit)."""

_BIT_TO_TILE: dict[int, Tile] = {1 << t: t for t in range(TILE_COUNT)}


def tile(a: int, b: int) -> Tile:
    """The tile with halves ``a`` and ``b`` in any order.

    >>> tile_str(tile(5, 2))
    '2-5'
    """
    if not (0 <= a <= MAX_PIP and 0 <= b <= MAX_PIP):
        raise ValueError(f"halves must be 0..{MAX_PIP}, got {a} and {b}")
    return _INDEX[(a, b) if a <= b else (b, a)]


def tile_str(t: Tile) -> str:
    """The tile written low half first, e.g. ``"2-5"``."""
    return TILE_NAMES[t]


def parse_tile(text: str) -> Tile:
    """Parse ``"a-b"`` with ``a <= b``; raise ``ValueError`` with the reason otherwise.

    >>> parse_tile("5-2")
    Traceback (most recent call last):
    ...
    ValueError: tile '5-2' must be written low half first: '2-5'
    """
    found = _BY_NAME.get(text)
    if found is not None:
        return found
    parts = text.split("-") if isinstance(text, str) else []
    if len(parts) == 2 and all(p.isdigit() and len(p) == 1 for p in parts):
        a, b = int(parts[0]), int(parts[1])
        if a <= MAX_PIP and b <= MAX_PIP and a > b:
            raise ValueError(f"tile {text!r} must be written low half first: '{b}-{a}'")
    raise ValueError(f"{text!r} is not a tile: expected 'a-b' with 0 <= a <= b <= {MAX_PIP}")


def tiles_of(mask: int) -> list[Tile]:
    """The tiles of a bitmask in index order."""
    out: list[Tile] = []
    while mask:
        low = mask & -mask
        out.append(_BIT_TO_TILE[low])
        mask ^= low
    return out


def mask_of(tiles: Iterable[Tile]) -> int:
    """The bitmask of some tiles."""
    mask = 0
    for t in tiles:
        mask |= 1 << t
    return mask


def _pip_table(first: Tile) -> list[int]:
    table = [0] * (1 << 14)
    for x in range(1, 1 << 14):
        low = x & -x
        table[x] = table[x ^ low] + PIPS[first + low.bit_length() - 1]
    return table


_PIPS_LOW, _PIPS_HIGH = _pip_table(0), _pip_table(14)


def pips_of(mask: int) -> int:
    """Total pips of the tiles in a bitmask.

    >>> pips_of(mask_of([parse_tile("2-5"), parse_tile("6-6")]))
    19
    """
    return _PIPS_LOW[mask & 0x3FFF] + _PIPS_HIGH[mask >> 14]


# --- errors -----------------------------------------------------------------------------


class IllegalMove(ValueError):
    """A move that the rules do not allow in this position; the message says why (in
    English). ``code`` names the case and ``params`` fill it in, for clients that word the
    reason in the player's language; ``illegal`` is the general case."""

    def __init__(self, message: str, code: str = "illegal", **params: str | int) -> None:
        super().__init__(message)
        self.code = code
        self.params = params


class InvalidOption(ValueError):
    """A game option with a wrong name or value; the message names the valid values.
    ``code`` and ``params`` name the case, as for :class:`IllegalMove`."""

    def __init__(self, message: str, code: str = "invalid_option", **params: str | int) -> None:
        super().__init__(message)
        self.code = code
        self.params = params


# --- moves ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Play:
    """Lay ``tile`` on ``arm`` (``None`` for the first tile of a round).

    ``close`` turns a double face down so nothing more is laid on that arm (Donkey);
    ``hundred`` declares Sea Goat's hundred with a lead of 6-6.
    """

    tile: Tile
    arm: int | None = None
    close: bool = False
    hundred: bool = False

    def __str__(self) -> str:
        text = TILE_NAMES[self.tile]
        if self.arm is not None:
            text += f"@{self.arm}"
        return text + ("!" if self.close else "") + (" hundred" if self.hundred else "")


@dataclass(frozen=True, slots=True)
class PlayDoubles:
    """Several doubles laid in one turn, one per arm, in the order listed (Donkey, Sea
    Goat)."""

    plays: tuple[Play, ...]

    def __str__(self) -> str:
        return "+".join(str(p) for p in self.plays)


@dataclass(frozen=True, slots=True)
class Draw:
    """Take the next tile from the bazaar (allowed only when nothing in hand fits)."""

    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True, slots=True)
class Knock:
    """Pass: nothing fits and nothing can be drawn."""

    def __str__(self) -> str:
        return "knock"


@dataclass(frozen=True, slots=True)
class DeclineHundred:
    """Sea Goat: the record holder dealt 6-6, asked before the regular leader leads, does not
    declare the hundred (``Play(6-6, hundred=True)`` declares it)."""

    def __str__(self) -> str:
        return "no hundred"


Move = Play | PlayDoubles | Draw | Knock | DeclineHundred

DRAW = Draw()
KNOCK = Knock()
DECLINE_HUNDRED = DeclineHundred()
MAX_ARMS = 4
LEAD: tuple[Play, ...] = tuple(Play(t) for t in range(TILE_COUNT))
"""Interned first-tile moves, ``LEAD[t]``."""
PLAY: tuple[tuple[Play, ...], ...] = tuple(
    tuple(Play(t, arm) for arm in range(MAX_ARMS)) for t in range(TILE_COUNT)
)
"""Interned plays, ``PLAY[t][arm]``."""
PLAY_CLOSE: tuple[tuple[Play, ...], ...] = tuple(
    tuple(Play(t, arm, True) for arm in range(MAX_ARMS)) for t in range(TILE_COUNT)
)
"""Interned closing plays of doubles, ``PLAY_CLOSE[t][arm]``."""


# --- the layout -------------------------------------------------------------------------


class Layout:
    """The tiles on the table, grown along numbered arms.

    The first tile ``a-b`` opens arm 0 showing ``a`` and arm 1 showing ``b``. When the game has
    a spinner, the first double laid adds arms 2 and 3 showing its value (a double led as the
    first tile opens all four arms at once). ``ends[k]`` is the value arm ``k`` shows, ``-1``
    while it is not open; ``closed[k]`` is true once a double closed it.
    """

    __slots__ = ("closed", "ends", "first", "spinner", "table")

    def __init__(self) -> None:
        self.ends: list[int] = [-1, -1, -1, -1]
        self.closed: list[bool] = [False, False, False, False]
        self.spinner: Tile = -1
        self.first: Tile = -1
        self.table = 0

    def copy(self) -> Layout:
        other = Layout.__new__(Layout)
        other.ends = self.ends[:]
        other.closed = self.closed[:]
        other.spinner = self.spinner
        other.first = self.first
        other.table = self.table
        return other

    @property
    def empty(self) -> bool:
        return self.first < 0

    def open_arms(self) -> list[int]:
        """Arms that can still be extended."""
        return [k for k in range(MAX_ARMS) if self.ends[k] >= 0 and not self.closed[k]]

    def lead(self, t: Tile, spinner: bool) -> None:
        """Lay the first tile of a round."""
        self.first = t
        self.table = 1 << t
        if spinner and IS_DOUBLE[t]:
            self.spinner = t
            self.ends = [LOW[t]] * MAX_ARMS
        else:
            self.ends = [LOW[t], HIGH[t], -1, -1]

    def attach(self, t: Tile, arm: int, close: bool, spinner: bool) -> None:
        """Lay ``t`` on ``arm``; the caller has checked that it fits."""
        ends = self.ends
        ends[arm] = OTHER_HALF[t][ends[arm]]
        self.table |= 1 << t
        if close:
            self.closed[arm] = True
        if spinner and self.spinner < 0 and IS_DOUBLE[t]:
            self.spinner = t
            ends[2] = ends[3] = LOW[t]

"""Domino Poker's moves as small frozen values, and their JSON (docs/record.md#record-poker).

``n`` in a bet, call or raise is the chips that move adds to the pot. A discard names the tiles
thrown in; the tiles drawn for them are the engine's (the bazaar in order, then the earlier
discards shuffled), so a player's move never names them.

>>> move_from_dict({"raise": 6})
Raise(amount=6)
>>> move_to_dict(Discard((9, 27)))
{'discard': ['1-3', '6-6']}
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kozel.core import TILE_NAMES, Tile
from kozel.engine.errors import MoveError, is_int, read_tile, want


@dataclass(frozen=True)
class Check:
    def __str__(self) -> str:
        return "check"


@dataclass(frozen=True)
class Bet:
    amount: int

    def __str__(self) -> str:
        return f"bet {self.amount}"


@dataclass(frozen=True)
class Call:
    amount: int

    def __str__(self) -> str:
        return f"call {self.amount}"


@dataclass(frozen=True)
class Raise:
    amount: int

    def __str__(self) -> str:
        return f"raise {self.amount}"


@dataclass(frozen=True)
class Fold:
    def __str__(self) -> str:
        return "fold"


@dataclass(frozen=True)
class Discard:
    tiles: tuple[Tile, ...]
    """The tiles thrown in, in index order (empty: stand pat)."""

    def __str__(self) -> str:
        return "discard " + (" ".join(TILE_NAMES[t] for t in self.tiles) or "nothing")


PokerMove = Check | Bet | Call | Raise | Fold | Discard

CHECK = Check()
FOLD = Fold()
KINDS = ("check", "bet", "call", "raise", "fold", "discard")


def move_to_dict(move: PokerMove) -> dict[str, Any]:
    """A move as the record writes it, without the seat (and, for a discard, without the
    tiles drawn, which the record adds)."""
    if isinstance(move, Check):
        return {"check": True}
    if isinstance(move, Fold):
        return {"fold": True}
    if isinstance(move, Discard):
        return {"discard": [TILE_NAMES[t] for t in move.tiles]}
    if isinstance(move, Bet):
        return {"bet": move.amount}
    if isinstance(move, Call):
        return {"call": move.amount}
    return {"raise": move.amount}


def move_from_dict(raw: object, where: str = "move") -> PokerMove:
    """A move from its JSON (``seat`` and ``drew`` are read elsewhere); ``MoveError`` saying
    what is wrong."""
    want(isinstance(raw, dict), f"{where}: a move must be an object, got {raw!r}")
    assert isinstance(raw, dict)
    kinds = [k for k in KINDS if k in raw]
    extra = sorted(k for k in raw if k not in (*KINDS, "seat", "drew"))
    want(
        len(kinds) == 1 and not extra,
        f"{where}: a poker move has one of check, bet, call, raise, fold, "
        f"discard, and nothing else; got {sorted(k for k in raw if k not in ('seat', 'drew'))}",
    )
    kind = kinds[0]
    value = raw[kind]
    if kind in ("check", "fold"):
        want(value is True, f"{where}: {kind} must be true, got {value!r}")
        return CHECK if kind == "check" else FOLD
    if kind == "discard":
        want(isinstance(value, list), f"{where}: discard must be a list of tiles")
        tiles = [read_tile(t, where) for t in value]
        want(len(set(tiles)) == len(tiles), f"{where}: a tile is discarded twice")
        return Discard(tuple(sorted(tiles)))
    want(
        is_int(value) and value > 0,
        f"{where}: {kind} must be a positive number of chips, got {value!r}",
    )
    amount: int = value
    if kind == "bet":
        return Bet(amount)
    return Call(amount) if kind == "call" else Raise(amount)


__all__ = [
    "CHECK",
    "FOLD",
    "Bet",
    "Call",
    "Check",
    "Discard",
    "Fold",
    "MoveError",
    "PokerMove",
    "Raise",
    "move_from_dict",
    "move_to_dict",
]

"""Trumps' moves as small frozen values, and their JSON (docs/record.md#record-trumps).

>>> move_from_dict({"bid": 31})
Bid(amount=31)
>>> move_to_dict(Lay(9))
{'play': '1-3'}
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kozel.core import TILE_NAMES, Tile
from kozel.engine.errors import MoveError, is_int, read_tile, want

MIN_BID = 30
MAX_BID = 42


@dataclass(frozen=True)
class Bid:
    amount: int

    def __str__(self) -> str:
        return f"bid {self.amount}"


@dataclass(frozen=True)
class Pass:
    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True)
class NameTrumps:
    """The winning bidder names the trump number."""

    value: int

    def __str__(self) -> str:
        return f"trumps {self.value}"


@dataclass(frozen=True)
class Lay:
    """A tile laid on the trick."""

    tile: Tile

    def __str__(self) -> str:
        return TILE_NAMES[self.tile]


TrumpsMove = Bid | Pass | NameTrumps | Lay

PASS = Pass()


def move_to_dict(move: TrumpsMove) -> dict[str, Any]:
    """A move as the record writes it, without the seat."""
    if isinstance(move, Bid):
        return {"bid": move.amount}
    if isinstance(move, Pass):
        return {"pass": True}
    if isinstance(move, NameTrumps):
        return {"trumps": move.value}
    return {"play": TILE_NAMES[move.tile]}


def move_from_dict(raw: object, where: str = "move") -> TrumpsMove:
    """A move from its JSON (``seat`` is read elsewhere); ``MoveError`` saying what is
    wrong."""
    want(isinstance(raw, dict), f"{where}: a move must be an object, got {raw!r}")
    assert isinstance(raw, dict)
    kinds = [k for k in ("bid", "pass", "trumps", "play") if k in raw]
    extra = sorted(k for k in raw if k not in ("seat", "bid", "pass", "trumps", "play"))
    want(
        len(kinds) == 1 and not extra,
        f"{where}: a trumps move has one of bid, pass, trumps, play; got "
        f"{sorted(k for k in raw if k != 'seat')}",
    )
    kind = kinds[0]
    value = raw[kind]
    if kind == "pass":
        want(value is True, f"{where}: pass must be true, got {value!r}")
        return PASS
    if kind == "play":
        return Lay(read_tile(value, where))
    want(is_int(value), f"{where}: {kind} must be an integer, got {value!r}")
    return Bid(value) if kind == "bid" else NameTrumps(value)


__all__ = [
    "MAX_BID",
    "MIN_BID",
    "PASS",
    "Bid",
    "Lay",
    "MoveError",
    "NameTrumps",
    "Pass",
    "TrumpsMove",
    "move_from_dict",
    "move_to_dict",
]

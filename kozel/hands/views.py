"""What every view of a game played in hands holds first: the game, the seat, the options,
the hand's number and dealer, its phase, the seat to move and the seat's own tiles."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Generic, Protocol, TypeVar

from kozel.core import TILE_NAMES, Tile, parse_tile
from kozel.engine.game import GameView
from kozel.engine.options import Options

Opts = TypeVar("Opts", bound=Options)


class HandView(GameView, Protocol):
    """One seat's view of a game played in hands."""

    @property
    def opts(self) -> Options: ...

    @property
    def hand_number(self) -> int:
        """The hand being played, from 1 (0 before the first deal)."""
        ...

    @property
    def dealer(self) -> int: ...

    @property
    def phase(self) -> str: ...

    @property
    def turn(self) -> int | None: ...

    @property
    def hand(self) -> tuple[Tile, ...]:
        """The seat's own tiles (none for a spectator)."""
        ...


@dataclass(frozen=True)
class HandViewFields(Generic[Opts]):
    """The fields every view of a game played in hands starts with (its dataclass adds its
    own after them)."""

    opts: Opts
    seat: int | None
    hand_number: int
    dealer: int
    phase: str
    """The hand's phase: ``"deal"`` before it, ``"over"`` after it, the game's own between."""
    turn: int | None
    hand: tuple[Tile, ...]
    """The seat's own tiles (none for a spectator)."""

    @property
    def to_move(self) -> int | None:
        return self.turn


def view_head(game_id: str, view: HandView) -> dict[str, Any]:
    """The fields every such view's JSON starts with."""
    opts = view.opts
    return {
        "game": game_id,
        "seat": view.seat,
        "options": {f.name: getattr(opts, f.name) for f in fields(opts) if f.name != "legacy"},
        "hand_number": view.hand_number,
        "dealer": view.dealer,
        "phase": view.phase,
        "turn": view.turn,
        "hand": [TILE_NAMES[t] for t in view.hand],
    }


def head_from_dict(data: dict[str, Any]) -> dict[str, Any]:
    """:func:`view_head` read back, but the game and the options (each game reads its own):
    the view's fields by name. ``KeyError`` or ``ValueError`` on malformed data."""
    return {
        "seat": data["seat"],
        "hand_number": data["hand_number"],
        "dealer": data["dealer"],
        "phase": data["phase"],
        "turn": data["turn"],
        "hand": tuple(parse_tile(t) for t in data["hand"]),
    }

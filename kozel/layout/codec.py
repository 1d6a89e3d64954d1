"""Moves as JSON, in one place: what records, clients and the server read and write.

``{"seat": s, "play": "a-b"}`` (the first tile), ``{"seat": s, "play": "a-b", "arm": k}``,
``"close": true`` for a double that closes its arm, ``"hundred": true`` on Sea Goat's lead of
6-6 that declares the hundred, ``{"seat": s, "doubles": [{"tile", "arm", "close"}, …]}``,
``{"seat": s, "draw": "a-b"}`` (``"draw": true`` from a client, who does not know the tile),
``{"seat": s, "knock": true}``, and ``{"seat": s, "hundred": false}``: Sea Goat's record holder
asked about the hundred declines it (a record leaves the refusal out).

>>> move_to_dict(Play(9, 1))
{'play': '1-3', 'arm': 1}
>>> parse_move({"seat": 2, "play": "3-1", "arm": 1}, "move 4", 4)
Traceback (most recent call last):
...
kozel.engine.errors.MoveError: move 4: tile '3-1' must be written low half first: '1-3'
"""

from __future__ import annotations

from typing import Any

from kozel.core import (
    DECLINE_HUNDRED,
    DRAW,
    KNOCK,
    TILE_NAMES,
    DeclineHundred,
    Draw,
    Knock,
    Move,
    Play,
    PlayDoubles,
    Tile,
)
from kozel.engine.errors import is_int, read_tile, want

MOVE_KINDS = ("play", "doubles", "draw", "knock")


def move_to_dict(move: Move) -> dict[str, Any]:
    """A move as the record writes it (without the seat)."""
    if isinstance(move, Play):
        out: dict[str, Any] = {"play": TILE_NAMES[move.tile]}
        if move.arm is not None:
            out["arm"] = move.arm
        if move.close:
            out["close"] = True
        if move.hundred:
            out["hundred"] = True
        return out
    if isinstance(move, PlayDoubles):
        return {
            "doubles": [
                {"tile": TILE_NAMES[p.tile], "arm": p.arm, "close": p.close} for p in move.plays
            ]
        }
    if isinstance(move, Draw):
        return {"draw": True}
    if isinstance(move, DeclineHundred):
        return {"hundred": False}
    assert isinstance(move, Knock)
    return {"knock": True}


def event_to_dict(seat: int, move: Move, drawn: Tile) -> dict[str, Any]:
    """One history entry; a draw shows its tile only when ``drawn`` is known (``>= 0``)."""
    out = {"seat": seat, **move_to_dict(move)}
    if isinstance(move, Draw) and drawn >= 0:
        out["draw"] = TILE_NAMES[drawn]
    return out


def parse_move(raw: object, where: str, players: int) -> tuple[int, Move, Tile]:
    """``(seat, move, drawn)`` of one JSON move; ``drawn`` is the tile a draw names (``-1``
    when absent: a client's draw names no tile). Raises ``MoveError`` saying what is wrong."""
    want(isinstance(raw, dict), f"{where}: a move must be an object, got {raw!r}")
    assert isinstance(raw, dict)
    want("seat" in raw, f"{where}: missing 'seat'")
    seat = raw["seat"]
    want(is_int(seat) and 0 <= seat < players, f"{where}: seat must be 0..{players - 1}")
    kinds = [k for k in MOVE_KINDS if k in raw]
    if not kinds and raw.get("hundred") is False:
        return seat, DECLINE_HUNDRED, -1
    want(
        len(kinds) == 1,
        f"{where}: a move has exactly one of play, doubles, draw, knock (or is hundred: false); "
        f"got {kinds or 'none'}",
    )
    kind = kinds[0]
    if kind == "knock":
        want(raw["knock"] is True, f"{where}: knock must be true")
        return seat, KNOCK, -1
    if kind == "draw":
        if raw["draw"] is True:
            return seat, DRAW, -1
        return seat, DRAW, read_tile(raw["draw"], where)
    if kind == "play":
        return seat, _parse_play(raw, raw["play"], where), -1
    doubles = raw["doubles"]
    want(
        isinstance(doubles, list) and all(isinstance(d, dict) for d in doubles),
        f"{where}: doubles must be a list of {{tile, arm, close}} objects",
    )
    plays = []
    for d in doubles:
        want("arm" in d, f"{where}: every double needs an arm")
        want("tile" in d, f"{where}: every double needs a tile")
        want("hundred" not in d, f"{where}: the hundred is declared with a single lead")
        plays.append(_parse_play(d, d["tile"], where))
    return seat, PlayDoubles(tuple(plays)), -1


def _parse_play(raw: dict[str, Any], tile_text: object, where: str) -> Play:
    t = read_tile(tile_text, where)
    arm = raw.get("arm")
    want(arm is None or is_int(arm), f"{where}: arm must be an integer, got {arm!r}")
    close = raw.get("close", False)
    want(isinstance(close, bool), f"{where}: close must be true or false, got {close!r}")
    hundred = raw.get("hundred", False)
    want(isinstance(hundred, bool), f"{where}: hundred must be true or false, got {hundred!r}")
    return Play(t, arm, close, hundred)

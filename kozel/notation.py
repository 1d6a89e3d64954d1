"""Game records, ``kozel-record/1`` (../shared/RECORD.md): write, read and replay-check.

:func:`record_of` writes a finished :class:`~kozel.match.Match`; :func:`replay` re-runs a record
through the rules and raises :class:`RecordError` naming the **first** discrepancy (where, what
the record says, what the rules give). Unknown fields are ignored, as the format asks.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from kozel.core import (
    DRAW,
    KNOCK,
    TILE_NAMES,
    Draw,
    IllegalMove,
    InvalidOption,
    Move,
    Play,
    PlayDoubles,
    Tile,
    parse_tile,
)
from kozel.match import Match, RoundResult
from kozel.round import Deal
from kozel.rules import get_game
from kozel.views import move_to_dict

FORMAT = "kozel-record/1"


class RecordError(ValueError):
    """A record that is malformed or disagrees with the rules; the message says where."""


# --- writing ----------------------------------------------------------------------------


def round_sheet(result: RoundResult) -> dict[str, Any]:
    """A finished round's public part, as in the record: how it ended, every hand's count,
    each scoring unit's sheet entry (before, charged, after) and the eggs carried on."""
    return {
        "end": {"kind": result.end.kind, "seat": result.end.seat},
        "counts": list(result.counts),
        "sheet": [
            {"before": b.to_dict(), "charged": c, "after": a.to_dict()}
            for b, c, a in zip(result.before, result.charged, result.after, strict=True)
        ],
        "eggs": result.eggs,
    }


def record_of(match: Match, seats: list[str]) -> dict[str, Any]:
    """The ``kozel-record/1`` record of a match (finished or not)."""
    rounds = []
    for result in match.results:
        rnd = result.round
        moves = []
        for seat, move, drawn in rnd.history:
            entry: dict[str, Any] = {"seat": seat, **move_to_dict(move)}
            if isinstance(move, Draw):
                entry["draw"] = TILE_NAMES[drawn]
            moves.append(entry)
        rounds.append(
            {
                "redeals": result.redeals,
                "deal": {
                    "hands": [[TILE_NAMES[t] for t in hand] for hand in result.deal.hands],
                    "bazaar": [TILE_NAMES[t] for t in result.deal.bazaar],
                },
                "moves": moves,
                **round_sheet(result),
            }
        )
    record: dict[str, Any] = {
        "format": FORMAT,
        "game": match.rules.id,
        "options": match.rules.options_dict(match.opts),
        "seats": list(seats),
        "seed": match.seed,
        "rounds": rounds,
    }
    if match.result is not None:
        res = match.result
        result_out: dict[str, Any] = {
            "losers": list(res.losers),
            "accounts": list(res.accounts),
            "rating": list(res.rating),
        }
        if res.timeout is not None:
            result_out["timeout"] = res.timeout
        record["result"] = result_out
    return record


def dumps(record: dict[str, Any]) -> str:
    """One record as one JSON line."""
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))


# --- reading ----------------------------------------------------------------------------


def _want(cond: bool, message: str) -> None:
    if not cond:
        raise RecordError(message)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _tile(value: object, where: str) -> Tile:
    _want(isinstance(value, str), f"{where}: a tile must be a string 'a-b', got {value!r}")
    assert isinstance(value, str)
    try:
        return parse_tile(value)
    except ValueError as err:
        raise RecordError(f"{where}: {err}") from None


def _field(obj: dict[str, Any], key: str, where: str) -> Any:
    _want(key in obj, f"{where}: missing {key!r}")
    return obj[key]


def _parse_deal(raw: object, where: str) -> Deal:
    _want(isinstance(raw, dict), f"{where}: 'deal' must be an object")
    assert isinstance(raw, dict)
    hands = _field(raw, "hands", f"{where} deal")
    bazaar = _field(raw, "bazaar", f"{where} deal")
    _want(isinstance(hands, list), f"{where}: deal.hands must be a list of hands")
    _want(isinstance(bazaar, list), f"{where}: deal.bazaar must be a list of tiles")
    parsed = []
    for s, hand in enumerate(hands):
        _want(isinstance(hand, list), f"{where}: deal.hands[{s}] must be a list of tiles")
        parsed.append(tuple(_tile(t, f"{where} deal.hands[{s}]") for t in hand))
    return Deal(tuple(parsed), tuple(_tile(t, f"{where} deal.bazaar") for t in bazaar))


def parse_move(raw: object, where: str, players: int) -> tuple[int, Move, Tile]:
    """``(seat, move, drawn)`` of one record move; ``drawn`` is the tile a draw names (``-1``
    when absent: a client's draw names no tile). Raises ``RecordError`` saying what is wrong."""
    _want(isinstance(raw, dict), f"{where}: a move must be an object, got {raw!r}")
    assert isinstance(raw, dict)
    seat = _field(raw, "seat", where)
    _want(_is_int(seat) and 0 <= seat < players, f"{where}: seat must be 0..{players - 1}")
    kinds = [k for k in ("play", "doubles", "draw", "knock") if k in raw]
    _want(
        len(kinds) == 1,
        f"{where}: a move has exactly one of play, doubles, draw, knock; got {kinds or 'none'}",
    )
    kind = kinds[0]
    if kind == "knock":
        _want(raw["knock"] is True, f"{where}: knock must be true")
        return seat, KNOCK, -1
    if kind == "draw":
        if raw["draw"] is True:
            return seat, DRAW, -1
        return seat, DRAW, _tile(raw["draw"], where)
    if kind == "play":
        return seat, _parse_play(raw, raw["play"], where), -1
    doubles = raw["doubles"]
    _want(
        isinstance(doubles, list) and all(isinstance(d, dict) for d in doubles),
        f"{where}: doubles must be a list of {{tile, arm, close}} objects",
    )
    plays = []
    for d in doubles:
        _want("arm" in d, f"{where}: every double needs an arm")
        plays.append(_parse_play(d, _field(d, "tile", where), where))
    return seat, PlayDoubles(tuple(plays)), -1


def _parse_play(raw: dict[str, Any], tile_text: object, where: str) -> Play:
    t = _tile(tile_text, where)
    arm = raw.get("arm")
    _want(arm is None or _is_int(arm), f"{where}: arm must be an integer, got {arm!r}")
    close = raw.get("close", False)
    _want(isinstance(close, bool), f"{where}: close must be true or false, got {close!r}")
    return Play(t, arm, close)


def _strictly_equal(recorded: object, computed: object) -> bool:
    """JSON equality without Python's ``True == 1`` or ``1.0 == 1``; unknown keys ignored."""
    if isinstance(computed, dict):
        return isinstance(recorded, dict) and all(
            key in recorded and _strictly_equal(recorded[key], value)
            for key, value in computed.items()
        )
    if isinstance(computed, list):
        return (
            isinstance(recorded, list)
            and len(recorded) == len(computed)
            and all(_strictly_equal(r, c) for r, c in zip(recorded, computed, strict=True))
        )
    return type(recorded) is type(computed) and recorded == computed


def _same(where: str, what: str, recorded: object, computed: object) -> None:
    if not _strictly_equal(recorded, computed):
        raise RecordError(f"{where}: {what} is {recorded!r} but the rules give {computed!r}")


def replay(record: object) -> Match:
    """Re-run a record through the rules; return the match, or raise ``RecordError``."""
    _want(isinstance(record, dict), "a record must be a JSON object")
    assert isinstance(record, dict)
    fmt = record.get("format")
    _want(fmt == FORMAT, f"unknown format {fmt!r}; expected {FORMAT!r}")
    game = _field(record, "game", "record")
    _want(isinstance(game, str), f"game must be a string, got {game!r}")
    raw_options = _field(record, "options", "record")
    _want(isinstance(raw_options, dict), "options must be an object")
    try:
        rules = get_game(game)
        opts = rules.options(raw_options, complete=True)
    except InvalidOption as err:
        raise RecordError(str(err)) from None
    seats = _field(record, "seats", "record")
    _want(
        isinstance(seats, list) and all(isinstance(s, str) for s in seats),
        "seats must be a list of strings",
    )
    _want(len(seats) == opts.players, f"seats lists {len(seats)} seats for {opts.players} players")
    seed = _field(record, "seed", "record")
    _want(seed is None or _is_int(seed), f"seed must be an integer or null, got {seed!r}")
    rounds = _field(record, "rounds", "record")
    _want(isinstance(rounds, list) and len(rounds) > 0, "rounds must be a non-empty list")

    match = Match(rules, opts, seed)
    for i, raw_round in enumerate(rounds, start=1):
        where = f"round {i}"
        _want(not match.over, f"{where}: the game was already over after round {i - 1}")
        _want(isinstance(raw_round, dict), f"{where}: must be an object")
        _replay_round(match, raw_round, where)
    _want(
        match.over,
        f"round {len(rounds)}: the game is not over after the last round "
        f"(no account reached {opts.loss_limit})",
    )
    result = _field(record, "result", "record")
    _want(isinstance(result, dict), "result must be an object")
    res = match.result
    assert res is not None
    _same("result", "losers", result.get("losers"), res.losers)
    _same("result", "accounts", result.get("accounts"), res.accounts)
    _same("result", "rating", result.get("rating"), res.rating)
    if res.timeout is not None or "timeout" in result:
        _same("result", "timeout", result.get("timeout"), res.timeout)
    return match


def _replay_round(match: Match, raw: dict[str, Any], where: str) -> None:
    redeals = _field(raw, "redeals", where)
    _want(_is_int(redeals) and redeals >= 0, f"{where}: redeals must be an integer >= 0")
    deal = _parse_deal(_field(raw, "deal", where), where)
    try:
        rnd = match.next_round(deal, redeals)
    except ValueError as err:
        raise RecordError(f"{where}: {err}") from None
    moves = _field(raw, "moves", where)
    _want(isinstance(moves, list), f"{where}: moves must be a list")
    players = match.opts.players
    for j, raw_move in enumerate(moves, start=1):
        at = f"{where}, move {j}"
        seat, move, drawn = parse_move(raw_move, at, players)
        if rnd.over:
            assert rnd.end is not None
            raise RecordError(
                f"{at}: the round already ended ({rnd.end.kind}, seat {rnd.end.seat})"
            )
        _want(seat == rnd.turn, f"{at}: seat {seat} moved but it is seat {rnd.turn}'s turn")
        _want(move is not DRAW or drawn >= 0, f"{at}: a draw in a record names the tile drawn")
        if drawn >= 0 and rnd.bazaar_left > 0:
            expected = rnd.deal.bazaar[rnd.drawn]
            _want(
                drawn == expected,
                f"{at}: seat {seat} drew {TILE_NAMES[drawn]} but the next bazaar tile is "
                f"{TILE_NAMES[expected]}",
            )
        try:
            match.push(move)
        except IllegalMove as err:
            raise RecordError(f"{at}: {move} by seat {seat} is illegal: {err}") from None
    end = _field(raw, "end", where)
    _want(isinstance(end, dict), f"{where}: end must be an object")
    kind, end_seat = end.get("kind"), end.get("seat")
    if not rnd.over:
        if kind == "timeout":
            _want(_is_int(end_seat), f"{where}: end.seat must be an integer")
            try:
                match.timeout(end_seat)
            except IllegalMove as err:
                raise RecordError(f"{where}: timeout of seat {end_seat}: {err}") from None
        else:
            raise RecordError(
                f"{where}: the moves stop before the round ends (seat {rnd.turn} to move) "
                f"but end is {kind!r}"
            )
    assert rnd.end is not None
    _same(where, "end.kind", kind, rnd.end.kind)
    _same(where, "end.seat", end_seat, rnd.end.seat)
    result = match.results[-1]
    _same(where, "counts", raw.get("counts"), result.counts)
    sheet = _field(raw, "sheet", where)
    _want(
        isinstance(sheet, list) and len(sheet) == len(result.after),
        f"{where}: sheet must list {len(result.after)} scoring units",
    )
    for u, entry in enumerate(sheet):
        at = f"{where}, sheet unit {u}"
        _want(isinstance(entry, dict), f"{at}: must be an object")
        _same(at, "before", entry.get("before"), result.before[u].to_dict())
        _same(at, "charged", entry.get("charged"), result.charged[u])
        _same(at, "after", entry.get("after"), result.after[u].to_dict())
    _same(where, "eggs", raw.get("eggs"), result.eggs)


@dataclass(frozen=True)
class LineReport:
    """The check of one line of a records file: ``error`` is ``None`` when it replays clean."""

    line: int
    error: str | None
    rounds: int = 0


def check_lines(lines: Iterable[str]) -> Iterator[LineReport]:
    """Replay every non-blank line of a JSON Lines file."""
    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        try:
            record = json.loads(text)
        except json.JSONDecodeError as err:
            yield LineReport(number, f"not valid JSON: {err}")
            continue
        try:
            match = replay(record)
        except RecordError as err:
            yield LineReport(number, str(err))
        except RecursionError:
            yield LineReport(number, "the record is nested too deeply")
        else:
            yield LineReport(number, None, len(match.results))

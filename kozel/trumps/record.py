"""Trumps' ``kozel-record/1`` records (docs/record.md#record-trumps): writing, and the strict
replay that ``kozel replay`` runs.

A replay checks each hand's dealer, re-deals it from the record, plays every bid, the trumps
and every tile through the rules (a bid must be legal, a tile must follow suit when it can)
and compares the tricks (leader, winner, points), the end (bidder, bid, made), the sheet and
the result with what the rules make of them; the first difference is a ``RecordError`` naming
the hand and the field.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kozel.core import TILE_NAMES, IllegalMove
from kozel.engine.errors import MoveError, is_int, want
from kozel.engine.record import check_result, read_frame, record_frame, same
from kozel.trumps.match import TrumpsMatch, TrumpsOptions
from kozel.trumps.moves import TrumpsMove

BeforeMove = Callable[[TrumpsMatch, int, int, TrumpsMove], None]
"""Sees a move before it is played: the match, the hand (1: the first), the move's number in
the hand, the move."""

RecordError = MoveError


def hand_record(match: TrumpsMatch, index: int) -> dict[str, Any]:
    """Hand ``index`` (0: the first) as the record writes it."""
    hand = match.hands[index]
    out: dict[str, Any] = {
        "dealer": hand.dealer,
        "deal": {"hands": [[TILE_NAMES[t] for t in h] for h in hand.dealt], "bazaar": []},
        "moves": [dict(m) for m in hand.moves],
        "tricks": [
            {"leader": t["leader"], "winner": t["winner"], "points": t["points"]}
            for t in hand.tricks
        ],
    }
    if hand.over:
        out["end"] = hand.end_dict()
        out["sheet"] = [dict(e) for e in match.sheets[index]]
    else:
        out["end"] = {"kind": "timeout", "seat": match.timed_out}
        out["sheet"] = [{"before": s, "taken": 0, "credited": 0, "after": s} for s in match.scores]
    return out


def record_of(match: TrumpsMatch, seats: list[str]) -> dict[str, Any]:
    """The record of a game (finished or not)."""
    from kozel.trumps.game import TRUMPS

    rounds = [
        hand_record(match, i)
        for i, hand in enumerate(match.hands)
        if hand.over or match.timed_out is not None
    ]
    record = record_frame(TRUMPS, match.opts, seats, match.seed, rounds)
    if match.result is not None:
        record["result"] = match.result.to_dict()
    return record


def replay(record: dict[str, Any], before_move: BeforeMove | None = None) -> TrumpsMatch:
    """Re-run a trumps record; the match, or ``RecordError`` at the first difference.
    ``before_move(match, hand, number, move)`` sees each move (after the antes) before it
    is played (a review)."""
    from kozel.trumps.game import TRUMPS

    opts, seed, rounds = read_frame(record, TRUMPS)
    assert isinstance(opts, TrumpsOptions)
    match = TrumpsMatch(opts, seed)
    for i, raw in enumerate(rounds, start=1):
        where = f"hand {i}"
        want(not match.over, f"{where}: the game was already over after hand {i - 1}")
        want(isinstance(raw, dict), f"{where}: must be an object")
        _replay_hand(match, raw, where, i == len(rounds), before_move)
    want(match.over, f"hand {len(rounds)}: the game is not over after the last hand")
    check_result(record, match.result)
    return match


def _replay_hand(
    match: TrumpsMatch,
    raw: dict[str, Any],
    where: str,
    last: bool,
    before_move: BeforeMove | None,
) -> None:
    same(where, "dealer", raw.get("dealer"), match.next_dealer())
    deal = raw.get("deal")
    want(isinstance(deal, dict), f"{where}: deal must be an object")
    assert isinstance(deal, dict)
    try:
        match.apply_deal({"hands": deal.get("hands"), "bazaar": deal.get("bazaar")})
    except (ValueError, IllegalMove) as err:
        raise RecordError(f"{where}: {err}") from None
    hand = match.hand
    assert hand is not None
    moves = raw.get("moves")
    want(isinstance(moves, list), f"{where}: moves must be a list")
    assert isinstance(moves, list)
    end = raw.get("end")
    want(isinstance(end, dict), f"{where}: end must be an object")
    assert isinstance(end, dict)
    timeout = last and end.get("kind") == "timeout"
    for n, rec in enumerate(moves, start=1):
        at = f"{where}, move {n}"
        want(not hand.over, f"{at}: the hand is already over")
        want(isinstance(rec, dict), f"{at}: a move must be an object")
        seat = rec.get("seat")
        want(
            is_int(seat) and seat == match.to_move,
            f"{at}: seat {seat!r} moves but seat {match.to_move} is to move",
        )
        try:
            move = match.read_move(rec)
            if before_move is not None:
                before_move(match, len(match.hands), n, move)
            match.push(move)
        except IllegalMove as err:
            raise RecordError(f"{at}: {err}") from None
        except MoveError as err:
            raise RecordError(f"{at}: {err}" if not str(err).startswith(at) else str(err)) from None
    if timeout and not hand.over:
        seat = end.get("seat")
        want(
            seat == match.to_move,
            f"{where}: end: seat {seat!r} timed out but seat {match.to_move} was to move",
        )
        match.timeout(match.to_move)  # type: ignore[arg-type]
    want(hand.over or match.over, f"{where}: the hand is not over after its last move")
    computed = hand_record(match, len(match.hands) - 1)
    for key in ("tricks", "end", "sheet"):
        same(where, key, raw.get(key), computed[key])

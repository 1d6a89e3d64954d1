"""Domino Poker's ``kozel-record/1`` records (docs/record.md#record-poker): writing, and the
strict replay that ``kozel replay`` runs.

A replay re-deals each hand from the record, checks that its dealer, chips and antes are the
rules', plays every move through the rules (a draw must take the bazaar's next tiles in order,
then only earlier discards) and compares the showdown, the pots with their winners, the chips
after each hand and the result with what the rules make of them; the first difference is a
``RecordError`` naming the hand and the field.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from kozel.core import TILE_NAMES, IllegalMove
from kozel.engine.errors import MoveError, is_int, read_tile, want
from kozel.engine.record import check_result, read_frame, record_frame, same
from kozel.poker.hand import PokerHand
from kozel.poker.match import PokerMatch, PokerOptions, deal_hand
from kozel.poker.moves import PokerMove, move_from_dict
from kozel.shuffle import deal_differences

BeforeMove = Callable[[PokerMatch, int, int, PokerMove], None]
"""Sees a move before it is played: the match, the hand (1: the first), the move's number
in the hand's record (antes counted), the move."""

RecordError = MoveError


def hand_record(match: PokerMatch, index: int) -> dict[str, Any]:
    """Hand ``index`` (0: the first) as the record writes it."""
    hand = match.hands[index]
    timed_out = not hand.over and match.timed_out is not None
    names = [[TILE_NAMES[t] for t in h] for h in hand.dealt]
    out: dict[str, Any] = {
        "dealer": hand.dealer,
        "deal": {"hands": names, "bazaar": [TILE_NAMES[t] for t in hand.dealt_bazaar]},
        "chips_before": list(hand.chips_before),
        "moves": [dict(m) for m in hand.moves],
    }
    if timed_out:
        out["showdown"] = []
        out["end"] = {"kind": "timeout", "seat": match.timed_out, "pots": []}
        out["chips_after"] = list(hand.chips_before)
    else:
        out["showdown"] = [dict(s) for s in hand.showdown]
        out["end"] = hand.end_dict()
        out["chips_after"] = list(hand.stacks)
    return out


def record_of(match: PokerMatch, seats: list[str]) -> dict[str, Any]:
    """The record of a session (finished or not)."""
    from kozel.poker.game import POKER

    rounds = [
        hand_record(match, i)
        for i, hand in enumerate(match.hands)
        if hand.over or match.timed_out is not None
    ]
    record = record_frame(POKER, match.opts, seats, match.seed, rounds)
    if match.result is not None:
        record["result"] = match.result.to_dict()
    return record


def replay(record: dict[str, Any], before_move: BeforeMove | None = None) -> PokerMatch:
    """Re-run a poker record; the match, or ``RecordError`` at the first difference.
    ``before_move(match, hand, number, move)`` sees each move (after the antes) before it
    is played (a review)."""
    from kozel.poker.game import POKER

    opts, seed, rounds = read_frame(record, POKER)
    assert isinstance(opts, PokerOptions)
    match = PokerMatch(opts, seed)
    for i, raw in enumerate(rounds, start=1):
        where = f"hand {i}"
        want(not match.over, f"{where}: the game was already over after hand {i - 1}")
        want(isinstance(raw, dict), f"{where}: must be an object")
        _replay_hand(match, raw, where, i == len(rounds), before_move)
    want(match.over, f"hand {len(rounds)}: the game is not over after the last hand")
    check_result(record, match.result)
    return match


def _replay_hand(
    match: PokerMatch,
    raw: dict[str, Any],
    where: str,
    last: bool,
    before_move: BeforeMove | None,
) -> None:
    same(where, "dealer", raw.get("dealer"), match.next_dealer())
    same(where, "chips_before", raw.get("chips_before"), list(match.chips))
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
    antes = len(hand.moves)
    want(
        len(moves) >= antes,
        f"{where}: the record has {len(moves)} moves, fewer than the {antes} antes",
    )
    for n, (rec, computed) in enumerate(zip(moves[:antes], hand.moves, strict=True), start=1):
        same(f"{where}, move {n}", "the ante", rec, computed)
    end = raw.get("end")
    want(isinstance(end, dict), f"{where}: end must be an object")
    assert isinstance(end, dict)
    timeout = last and end.get("kind") == "timeout"
    for n, rec in enumerate(moves[antes:], start=antes + 1):
        at = f"{where}, move {n}"
        want(not hand.over, f"{at}: the hand is already over")
        want(isinstance(rec, dict), f"{at}: a move must be an object")
        seat = rec.get("seat")
        want(
            is_int(seat) and seat == match.to_move,
            f"{at}: seat {seat!r} moves but seat {match.to_move} is to move",
        )
        drew = None
        try:
            move = match.read_move({k: v for k, v in rec.items() if k not in ("seat", "drew")})
            if "discard" in rec:
                raw_drew = rec.get("drew")
                want(isinstance(raw_drew, list), f"{at}: a discard must list the tiles drawn")
                assert isinstance(raw_drew, list)
                drew = [read_tile(t, at) for t in raw_drew]
            if before_move is not None:
                before_move(match, len(match.hands), n, move)
            match.push(move, drew)
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
    from kozel.poker.record import hand_record as written

    computed = written(match, len(match.hands) - 1)
    for key in ("showdown", "chips_after"):
        same(where, key, raw.get(key), computed[key])
    same(where, "end", _winners_as_sets(raw.get("end")), _winners_as_sets(computed["end"]))


def _winners_as_sets(end: object) -> object:
    """A hand's ``end`` with each pot's ``winners`` in seat order: the record lists who won a
    pot, in any order (docs/record.md#record-files; the odd chips follow the rules, and
    ``chips_after`` shows them). Anything else is left as it is, for the comparison to report.

    >>> _winners_as_sets({"kind": "fold", "pots": [{"amount": 9, "winners": [2, 0]}]})
    {'kind': 'fold', 'pots': [{'amount': 9, 'winners': [0, 2]}]}
    """
    if not isinstance(end, dict) or not isinstance(end.get("pots"), list):
        return end
    pots = [
        {**pot, "winners": sorted(pot["winners"])}
        if isinstance(pot, dict)
        and isinstance(pot.get("winners"), list)
        and all(is_int(s) for s in pot["winners"])
        else pot
        for pot in end["pots"]
    ]
    return {**end, "pots": pots}


def check_hand(
    opts: PokerOptions, number: int, recorded: dict[str, Any], stream: random.Random
) -> list[str]:
    """Hand ``number`` of a record against its verifiable shuffle's ``stream``: the deal
    (:func:`deal_hand`, for the seats with chips before the hand), then every draw the
    discards' shuffle decided, played again through the hand from the record's moves with the
    same stream; the differences in English (the first draw that differs ends the check: the
    hand goes otherwise from there)."""
    where = f"hand {number}"
    chips, dealer = recorded.get("chips_before"), recorded.get("dealer")
    if not (isinstance(chips, list) and all(is_int(c) for c in chips) and is_int(dealer)):
        return [f"{where}: the record's chips_before or dealer is not one the rules allow"]
    assert isinstance(dealer, int)
    hands, bazaar = deal_hand(stream, chips)
    problems = deal_differences(recorded.get("deal"), hands, bazaar)
    if problems:
        return problems
    try:
        hand = PokerHand(
            opts.players,
            dealer,
            tuple(chips),
            [[read_tile(t, where) for t in h] for h in hands],
            [read_tile(t, where) for t in bazaar],
            opts.ante,
            opts.limit,
            opts.bet,
        )
        moves = recorded.get("moves")
        want(isinstance(moves, list), f"{where}: moves must be a list")
        assert isinstance(moves, list)
        for n, rec in enumerate(moves[len(hand.moves) :], start=len(hand.moves) + 1):
            if hand.over:
                break
            want(isinstance(rec, dict), f"{where}, move {n}: a move must be an object")
            move = move_from_dict({k: v for k, v in rec.items() if k not in ("seat", "drew")})
            hand.push(move, stream.shuffle)
            drew = hand.moves[-1].get("drew")
            if "discard" in rec and rec.get("drew") != drew:
                return [
                    f"{where}, move {n}: seat {rec.get('seat')!r} drew {rec.get('drew')!r} in "
                    f"the record; the shuffle gives {drew}"
                ]
    except (ValueError, IllegalMove) as error:
        return [f"{where}: its moves cannot be played again: {error}"]
    return []

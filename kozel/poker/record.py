"""Domino Poker's records (docs/record.md#record-poker) against the verifiable shuffle: each
hand's deal and its draws from the shuffled discards drawn again from the hand's stream.

A record is written by :meth:`kozel.poker.match.PokerMatch.hand_record` and replayed by the
one replay loop of every game (:func:`kozel.engine.record.replay_rounds`), hand by hand
(:meth:`kozel.hands.match.HandsMatch.replay_hand`): each hand re-dealt from the record, its
dealer, chips and antes checked, every move played through the rules (a draw must take the
bazaar's next tiles in order, then only earlier discards), and the showdown, the pots with
their winners, the chips after each hand and the result compared with what the rules make of
them.
"""

from __future__ import annotations

import random
from typing import Any

from kozel.core import IllegalMove
from kozel.engine.errors import is_int, read_tile, want
from kozel.poker.hand import PokerHand
from kozel.poker.match import deal_hand
from kozel.poker.moves import move_from_dict
from kozel.poker.options import PokerOptions
from kozel.shuffle import deal_differences


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

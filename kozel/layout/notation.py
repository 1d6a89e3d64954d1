"""The layout games' records, ``kozel-record/1`` (docs/record.md), read and replay-checked
round by round (a match writes its own: :func:`kozel.layout.match.record_of`; the frame, the
replay loop and the result every game shares: :mod:`kozel.engine.record`).

:func:`replay` re-runs a record through the rules and raises
:class:`~kozel.engine.errors.RecordError` naming the **first** discrepancy (where, what the
record says, what the rules give). Unknown fields are ignored, as the format asks.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kozel.core import (
    DECLINE_HUNDRED,
    DRAW,
    TILE_NAMES,
    DeclineHundred,
    IllegalMove,
    Play,
    PlayDoubles,
)
from kozel.engine.errors import RecordError, is_int, read_tile, want
from kozel.engine.record import agree, field, replay_rounds
from kozel.layout.codec import parse_move
from kozel.layout.deal import Deal
from kozel.layout.match import Match
from kozel.layout.round import Round
from kozel.layout.rules import Ruleset


def _parse_deal(raw: object, where: str) -> Deal:
    want(isinstance(raw, dict), f"{where}: 'deal' must be an object")
    assert isinstance(raw, dict)
    hands = field(raw, "hands", f"{where} deal")
    bazaar = field(raw, "bazaar", f"{where} deal")
    want(isinstance(hands, list), f"{where}: deal.hands must be a list of hands")
    want(isinstance(bazaar, list), f"{where}: deal.bazaar must be a list of tiles")
    parsed = []
    for s, hand in enumerate(hands):
        want(isinstance(hand, list), f"{where}: deal.hands[{s}] must be a list of tiles")
        parsed.append(tuple(read_tile(t, f"{where} deal.hands[{s}]") for t in hand))
    return Deal(tuple(parsed), tuple(read_tile(t, f"{where} deal.bazaar") for t in bazaar))


def replay(record: object, rules_of: Callable[[str], Ruleset]) -> Match:
    """Re-run a record of a layout game through the rules (``rules_of`` the game it names,
    once the record's format and options are checked) in the one replay loop of every game
    (:func:`kozel.engine.record.replay_rounds`); return the match, or raise ``RecordError``.
    Any game's record by the game it names: :func:`kozel.games.replay_game`."""
    return replay_rounds(record, rules_of, Match, _replay_round)


def _replay_round(match: Match, raw: dict[str, Any], where: str, last: bool) -> None:
    """Play a recorded round again: its deal, every move, a timeout where its moves stop;
    then check its end, counts, sheet and eggs."""
    rnd = _deal_round(match, raw, where)
    moves = field(raw, "moves", where)
    want(isinstance(moves, list), f"{where}: moves must be a list")
    for j, raw_move in enumerate(moves, start=1):
        _replay_move(match, rnd, raw_move, f"{where}, move {j}")
    end = field(raw, "end", where)
    want(isinstance(end, dict), f"{where}: end must be an object")
    if not rnd.over:
        _end_unfinished_round(match, rnd, end, where)
    assert rnd.end is not None
    _check_result(match, rnd, raw, end, where)


def _deal_round(match: Match, raw: dict[str, Any], where: str) -> Round:
    """The round ``raw`` records, dealt as it says (its deal, redeals and any lot)."""
    redeals = field(raw, "redeals", where)
    want(is_int(redeals) and redeals >= 0, f"{where}: redeals must be an integer >= 0")
    deal = _parse_deal(field(raw, "deal", where), where)
    lot = None
    if "lot" in raw and not match.results and match.rules.uses_lot(match.opts):
        want(isinstance(raw["lot"], list), f"{where}: lot must be a list of tiles")
        lot = [read_tile(t, f"{where} lot") for t in raw["lot"]]
    # a lot where the rules draw none (another game, a later round) decides nothing: it is
    # a field the record may hold and the replay ignores, as any unknown field
    try:
        return match.next_round(deal, redeals, lot, _place_lot(match, raw))
    except ValueError as err:
        raise RecordError(f"{where}: {err}") from None


def _replay_move(match: Match, rnd: Round, raw_move: Any, at: str) -> None:
    """Push one recorded move (and a refusal of the hundred the record leaves out), checking
    its seat, the tile it drew and the points it scored."""
    seat, move, drawn = parse_move(raw_move, at, match.opts.players)
    if rnd.over:
        assert rnd.end is not None
        raise RecordError(f"{at}: the round already ended ({rnd.end.kind}, seat {rnd.end.seat})")
    if type(move) is not DeclineHundred and rnd.declines(seat, move):
        match.push(DECLINE_HUNDRED)  # the record leaves the refusal out
    if seat != rnd.turn and isinstance(move, Play) and move.hundred:
        raise RecordError(
            f"{at}: seat {seat} may not declare the hundred: only the leader or the record "
            f"holder dealt 6-6 may, and it is seat {rnd.turn}'s turn"
        )
    want(seat == rnd.turn, f"{at}: seat {seat} moved but it is seat {rnd.turn}'s turn")
    want(move is not DRAW or drawn >= 0, f"{at}: a draw in a record names the tile drawn")
    if drawn >= 0 and rnd.bazaar_left > 0:
        expected = rnd.deal.bazaar[rnd.drawn]
        want(
            drawn == expected,
            f"{at}: seat {seat} drew {TILE_NAMES[drawn]} but the next bazaar tile is "
            f"{TILE_NAMES[expected]}",
        )
    try:
        match.push(move)
    except IllegalMove as err:
        raise RecordError(f"{at}: {move} by seat {seat} is illegal: {err}") from None
    if match.scoring.scores_during_play and isinstance(move, Play | PlayDoubles):
        want("points" in raw_move, f"{at}: a play in {match.rules.id} carries its points")
        agree(at, "points", raw_move["points"], match.points[-1])


def _end_unfinished_round(match: Match, rnd: Round, end: Any, where: str) -> None:
    """End a round whose moves stop before its end: only a timeout may."""
    kind, end_seat = end.get("kind"), end.get("seat")
    if kind != "timeout":
        raise RecordError(
            f"{where}: the moves stop before the round ends (seat {rnd.turn} to move) "
            f"but end is {kind!r}"
        )
    want(is_int(end_seat), f"{where}: end.seat must be an integer")
    if rnd.declines(end_seat, DRAW):  # the regular leader's clock ran out
        match.push(DECLINE_HUNDRED)
    try:
        match.timeout(end_seat)
    except IllegalMove as err:
        raise RecordError(f"{where}: timeout of seat {end_seat}: {err}") from None


def _check_result(
    match: Match, rnd: Round, raw: dict[str, Any], end: dict[str, Any], where: str
) -> None:
    """Check the round's recorded end, counts, sheet and eggs against the replay's."""
    result = match.results[-1]
    for key, value in result.end_dict().items():
        agree(where, f"end.{key}", end.get(key), value)
    if result.decides is None and "decides" in end:
        agree(where, "end.decides", end["decides"], None)
    if not rnd.closed_both and end.get("closed_both", False) is not False:
        agree(where, "end.closed_both", end["closed_both"], False)
    agree(where, "counts", raw.get("counts"), result.counts)
    sheet = field(raw, "sheet", where)
    want(
        isinstance(sheet, list) and len(sheet) == len(result.after),
        f"{where}: sheet must list {len(result.after)} scoring units",
    )
    for u, entry in enumerate(sheet):
        at = f"{where}, sheet unit {u}"
        want(isinstance(entry, dict), f"{at}: must be an object")
        computed = result.entries[u]
        for key, value in computed.items():
            agree(at, key, entry.get(key), value)
        if "written_off" in entry and "written_off" not in computed:
            agree(at, "written_off", entry["written_off"], None)
    agree(where, "eggs", raw.get("eggs"), result.eggs)


def _place_lot(match: Match, raw: dict[str, Any]) -> list[int] | None:
    """In a game that lists places, the lot for equal counts as the record's places give it
    (their order is the lot); ``None`` when they are not a list of every seat once: the
    places the rules give are then compared with them, and the difference reported."""
    if not match.rules.places_by_lot:
        return None
    end = raw.get("end")
    places = end.get("places") if isinstance(end, dict) else None
    seats = list(range(match.opts.players))
    if isinstance(places, list) and all(is_int(s) for s in places) and sorted(places) == seats:
        return places
    return None

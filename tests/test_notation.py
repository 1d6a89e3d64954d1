"""kozel-record/1: round trips, and a clear first discrepancy for every kind of bad record."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest

from kozel.engine.errors import RecordError
from kozel.engine.record import FORMAT, dumps
from kozel.games import DONKEY, GOAT, check_lines, replay_layout
from kozel.layout.match import record_of
from tests.randomplay import play_random

Record = dict[str, Any]


def goat_record(seed: int = 3, **raw: object) -> Record:
    opts = GOAT.options({"players": 3, **raw})
    match = play_random(GOAT, opts, seed)
    return json.loads(dumps(record_of(match, ["alice", "bot:random", "bob"])))


def first_move_index(record: Record, kind: str) -> tuple[int, int]:
    for i, rnd in enumerate(record["rounds"]):
        for j, move in enumerate(rnd["moves"]):
            if kind in move:
                return i, j
    raise AssertionError(f"no {kind} in the record")


def test_written_records_have_every_field() -> None:
    record = goat_record()
    assert record["format"] == FORMAT
    assert set(record["options"]) == {s.name for s in GOAT.option_specs}
    first = record["rounds"][0]
    assert set(first) >= {"redeals", "deal", "moves", "end", "counts", "sheet", "eggs"}
    assert set(first["moves"][0]) == {"seat", "play"}  # the first tile has no arm
    assert set(record["result"]) == {"losers", "accounts", "rating"}
    replay_layout(record)


def test_donkey_records_list_exactly_its_options() -> None:
    match = play_random(DONKEY, DONKEY.options({}), 1)
    record = record_of(match, ["a", "b", "c", "d"])
    assert "special_doubles" not in record["options"]
    replay_layout(json.loads(dumps(record)))


def test_unknown_fields_are_ignored() -> None:
    record = goat_record()
    record["club"] = "Kozel"
    record["rounds"][0]["moves"][0]["clock_ms"] = 1234
    record["rounds"][0]["sheet"][0]["before"]["colour"] = "yellow"
    replay_layout(record)


def _set(path: str, value: object) -> Callable[[Record], None]:
    def change(record: Record) -> None:
        *parents, last = path.split(".")
        target: Any = record
        for key in parents:
            target = target[int(key)] if key.isdigit() else target[key]
        target[int(last) if last.isdigit() else last] = value

    return change


def _swap_draw(record: Record) -> None:
    i, j = first_move_index(record, "draw")
    move = record["rounds"][i]["moves"][j]
    move["draw"] = record["rounds"][i]["deal"]["bazaar"][-1]


def _draw_without_tile(record: Record) -> None:
    i, j = first_move_index(record, "draw")
    record["rounds"][i]["moves"][j]["draw"] = True


def _wrong_seat(record: Record) -> None:
    move = record["rounds"][0]["moves"][1]
    move["seat"] = (move["seat"] + 1) % 3


def _truncate(record: Record) -> None:
    del record["rounds"][0]["moves"][-1]


def _extra_move(record: Record) -> None:
    record["rounds"][0]["moves"].append({"seat": 0, "knock": True})


def _illegal_arm(record: Record) -> None:
    for move in record["rounds"][0]["moves"]:
        if "arm" in move:
            move["arm"] = 1 - move["arm"]
            return


BAD: list[tuple[str, Callable[[Record], None], str]] = [
    ("format", _set("format", "kozel-record/2"), "unknown format 'kozel-record/2'"),
    ("game", _set("game", "chess"), "unknown game 'chess'"),
    ("option value", _set("options.fish_mode", "fast"), "option 'fish_mode' must be one of"),
    ("option bool", _set("options.teams", 0), "option 'teams' must be true or false"),
    ("seats", _set("seats", ["a", "b"]), "seats lists 2 seats for 3 players"),
    ("reversed tile", _set("rounds.0.deal.hands.0.0", "6-1"), "must be written low half first"),
    ("not a tile", _set("rounds.0.deal.hands.0.0", "7-7"), "is not a tile"),
    ("wrong turn", _wrong_seat, "round 1, move 2: seat"),
    ("wrong draw", _swap_draw, "but the next bazaar tile is"),
    ("stops early", _truncate, "round 1: the moves stop before the round ends"),
    ("move after end", _extra_move, "the round already ended"),
    ("counts", _set("rounds.0.counts.0", 99), "round 1: counts is"),
    ("charged", _set("rounds.0.sheet.1.charged", 77), "round 1, sheet unit 1: charged is 77"),
    ("eggs", _set("rounds.0.eggs", 5), "round 1: eggs is 5"),
    ("end", _set("rounds.0.end.kind", "fish"), "round 1: end.kind"),
    ("rating", _set("result.rating", [1, 2, 3]), "result: rating is [1, 2, 3]"),
    ("losers", _set("result.losers", []), "result: losers is []"),
    ("bool for int", _set("rounds.0.counts.0", True), "counts is"),
    ("draw without tile", _draw_without_tile, "a draw in a record names the tile"),
]


@pytest.mark.parametrize(("name", "change", "message"), BAD, ids=[b[0] for b in BAD])
def test_bad_records_name_their_first_discrepancy(
    name: str, change: Callable[[Record], None], message: str
) -> None:
    record = goat_record(seed=4)
    bad = copy.deepcopy(record)
    change(bad)
    with pytest.raises(RecordError) as caught:
        replay_layout(bad)
    assert message in str(caught.value), str(caught.value)


def test_an_arm_the_tile_does_not_fit_is_explained() -> None:
    record = goat_record(seed=4)
    _illegal_arm(record)
    with pytest.raises(RecordError, match=r"round 1, move \d+: .* is illegal: .*does not fit"):
        replay_layout(record)


def test_check_lines_reports_each_bad_line() -> None:
    good = dumps(goat_record(seed=1))
    bad = copy.deepcopy(goat_record(seed=2))
    bad["rounds"][0]["eggs"] = 9
    lines = [good, "{not json", "", json.dumps([1, 2]), dumps(bad), json.dumps({"format": 1})]
    reports = list(check_lines(lines))
    assert [(r.line, r.error is None) for r in reports] == [
        (1, True),
        (2, False),
        (4, False),
        (5, False),
        (6, False),
    ]
    assert reports[1].error is not None and reports[1].error.startswith("not valid JSON")
    assert reports[2].error == "a record must be a JSON object"
    assert reports[3].error is not None and "round 1: eggs is 9" in reports[3].error
    assert reports[4].error is not None and "unknown format 1" in reports[4].error


def test_a_game_not_played_to_the_end_is_rejected() -> None:
    record = goat_record(seed=4)
    del record["rounds"][-1]
    with pytest.raises(RecordError, match="the game is not over after the last round"):
        replay_layout(record)


def test_a_deal_that_must_be_thrown_in_is_rejected() -> None:
    record = goat_record(seed=4)
    hands = record["rounds"][0]["deal"]["hands"]
    everything = [t for hand in hands for t in hand] + record["rounds"][0]["deal"]["bazaar"]
    doubles = [f"{v}-{v}" for v in range(7)]
    rest = [t for t in everything if t not in doubles]
    record["rounds"][0]["deal"]["hands"] = [doubles[:5] + rest[:2], rest[2:9], rest[9:16]]
    record["rounds"][0]["deal"]["bazaar"] = doubles[5:] + rest[16:]
    with pytest.raises(RecordError, match="must be thrown in"):
        replay_layout(record)


def test_a_timeout_round_ends_the_game_unscored() -> None:
    opts = GOAT.options({"players": 3})
    match = play_random(GOAT, opts, 8)
    # play the same game again but stop in round 2 with the seat to move timing out
    from kozel.layout.match import Match

    again = Match(GOAT, opts, 8)
    for result in match.results[:1]:
        rnd = again.next_round(result.deal, result.redeals)
        for _, move, _ in result.round.history:
            again.push(move)
    rnd = again.next_round(match.results[1].deal, match.results[1].redeals)
    for _, move, _ in match.results[1].round.history[:5]:
        again.push(move)
    before = list(again.sheet)
    again.timeout(rnd.turn)
    assert again.over and list(again.sheet) == before
    record = json.loads(dumps(record_of(again, ["a", "b", "c"])))
    assert record["rounds"][-1]["end"] == {"kind": "timeout", "seat": rnd.turn}
    assert record["result"]["losers"] == [] and record["result"]["timeout"] == rnd.turn
    assert record["result"]["rating"][rnd.turn] == 0
    replay_layout(record)
    other = (rnd.turn + 1) % 3
    record["rounds"][-1]["end"]["seat"] = other
    with pytest.raises(RecordError, match="only the seat to move can time out"):
        replay_layout(record)

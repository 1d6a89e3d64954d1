"""``kozel replay`` takes what the record format allows, written by another program, and the
club goes on writing the canonical form: a pot's winners in any order, Bykovo's places only
in the round's end, a lot where the rules draw none."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from kozel.engine.errors import RecordError
from kozel.games import get_game, replay_game
from kozel.simulate import play_match


def record_of(game: str, options: dict[str, Any], seed: int) -> dict[str, Any]:
    rules = get_game(game)
    opts = rules.options(options)
    bots = [rules.make_bot("random", seed + s) for s in range(opts.players)]
    match = play_match(rules, opts, bots, seed)
    record: dict[str, Any] = json.loads(
        json.dumps(match.record([f"p{s}" for s in range(4)][: opts.players]))
    )
    return record


def canonical_again(record: dict[str, Any]) -> dict[str, Any]:
    written: dict[str, Any] = replay_game(record).record(record["seats"])
    return json.loads(json.dumps(written))


def shared_pot() -> tuple[dict[str, Any], int, int]:
    """A poker record with a pot that two players or more split: (record, hand, pot)."""
    for seed in range(400):
        record = record_of("poker", {"players": 4, "hands": 12}, seed)
        for h, hand in enumerate(record["rounds"]):
            for p, pot in enumerate(hand["end"]["pots"]):
                if len(pot["winners"]) > 1:
                    return record, h, p
    raise AssertionError("no split pot in 400 sessions")


def test_a_pots_winners_may_come_in_any_order() -> None:
    """docs/record.md#record-files lists a pot's winners as a set of seats; replay compared them as
    an ordered list and refused a record that named them in another order."""
    record, h, p = shared_pot()
    canonical = copy.deepcopy(record)
    record["rounds"][h]["end"]["pots"][p]["winners"].reverse()
    assert canonical_again(record) == canonical
    doubled = copy.deepcopy(canonical)
    winners = doubled["rounds"][h]["end"]["pots"][p]["winners"]
    winners.append(winners[0])  # a seat named twice is not the pot's winners
    with pytest.raises(RecordError, match="end"):
        replay_game(doubled)


def test_bykovo_places_may_be_in_the_rounds_end_only() -> None:
    """docs/record.md#record-bykovo gives Bykovo's places in the round's ``end``; replay required
    them in ``result`` too."""
    record = record_of("bykovo", {}, 3)
    canonical = copy.deepcopy(record)
    assert "places" in record["rounds"][0]["end"] and "places" in record["result"]
    del record["result"]["places"]
    assert canonical_again(record) == canonical
    wrong = copy.deepcopy(canonical)
    wrong["result"]["places"] = list(reversed(wrong["result"]["places"]))
    with pytest.raises(RecordError, match="places"):
        replay_game(wrong)


@pytest.mark.parametrize(("game", "round_index"), [("goat", 0), ("all_fives", 1)])
def test_a_lot_where_the_rules_draw_none_is_ignored(game: str, round_index: int) -> None:
    """A lot in a game whose first leader is not drawn by lot, or in a later round, decides
    nothing; replay refused the record."""
    for seed in range(50):
        record = record_of(game, {"players": 2}, seed)
        if len(record["rounds"]) > round_index:
            break
    canonical = copy.deepcopy(record)
    record["rounds"][round_index]["lot"] = ["0-0", "6-6"]
    assert canonical_again(record) == canonical

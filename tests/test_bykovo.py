"""Bykovo (docs/rules.md#bykovo-deal-and-play, Decisions 1–7): scripted deals for each ending,
random-game invariants, the record and its strict replay, and what a pass proves (nothing)."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kozel.core import FULL_MASK, KNOCK, IllegalMove, InvalidOption, Play, pips_of
from kozel.engine.errors import RecordError
from kozel.games import BYKOVO, GOAT, get_game, replay_layout
from kozel.layout.bots import make_bot
from kozel.layout.bots.inference import past_decisions
from kozel.layout.bots.sampling import Sampler, lacked_values
from kozel.layout.deal import Deal
from kozel.layout.match import Match, record_of
from tests.scripting import make_deal, run, tiles

SEATS = ["masha", "alex", "olya", "serg"]

# Seat 2 holds 0-0 and leads; seat 2 goes out with 4-4, and in the circle that follows
# (seats 3, 0, 1: up to the seat before the leader) seat 3 empties his hand too.
TWO_OUT_HANDS = (
    "5-6 2-3 3-3 2-4 2-2 6-6 3-4",
    "1-5 0-3 0-5 3-5 1-1 0-2 5-5",
    "4-5 0-6 2-6 3-6 4-4 0-0 1-4",
    "4-6 1-2 1-6 0-1 2-5 0-4 1-3",
)
TWO_OUT_SCRIPT = """
    2:0-0   3:0-1@0 0:knock 1:0-5@1 2:1-4@0 3:0-4@0 0:knock 1:0-2@0
    2:4-5@1 3:4-6@1 0:2-3@0 1:0-3@0 2:3-6@1 3:knock 0:3-3@1 1:3-5@1
    2:0-6@0 3:1-6@0 0:5-6@1 1:1-1@0 2:2-6@1 3:2-5@1 0:knock 1:1-5@1
    2:knock 3:1-3@1 0:3-4@1 1:knock 2:4-4@1
"""
"""Up to seat 2's last tile (the out); the circle is ``3:1-2@0 0:2-4@0 1:knock``."""

# Seat 1 leads 0-0 and goes out with 4-4; the circle (seats 2, 3, 0) goes on to its end
# although the line is blocked after seat 3's 3-5.
BLOCKED_HANDS = (
    "2-4 0-3 2-2 1-3 6-6 1-2 1-1",
    "0-0 4-4 0-4 3-6 3-3 3-4 2-6",
    "0-5 4-5 4-6 1-4 1-5 1-6 0-6",
    "2-3 2-5 3-5 0-2 0-1 5-5 5-6",
)
BLOCKED_SCRIPT = """
    1:0-0   2:0-5@1 3:5-6@1 0:6-6@1 1:0-4@0 2:1-6@1 3:0-1@1 0:0-3@1
    1:3-4@1 2:1-4@0 3:knock 0:1-3@0 1:3-6@0 2:4-6@1 3:knock 0:knock
    1:2-6@0 2:0-6@1 3:2-3@0 0:knock 1:3-3@0 2:knock 3:0-2@1 0:2-4@1
    1:4-4@1
"""

# Seat 0 leads; seat 3, the seat before the leader, goes out: the game ends at once.
LAST_SEAT_HANDS = (
    "1-1 1-5 0-0 2-2 0-5 6-6 3-6",
    "3-4 2-3 5-5 1-2 2-6 1-6 4-6",
    "4-5 5-6 3-3 4-4 0-4 2-4 2-5",
    "3-5 1-3 0-1 0-3 1-4 0-2 0-6",
)
LAST_SEAT_SCRIPT = """
    0:0-0   1:knock 2:0-4@1 3:0-1@0 0:knock 1:3-4@1 2:3-3@1 3:3-5@1
    0:1-5@0 1:5-5@1 2:2-5@0 3:0-2@0 0:0-5@0 1:knock 2:4-5@1 3:1-4@1
    0:1-1@1 1:1-2@1 2:2-4@1 3:knock 0:knock 1:4-6@1 2:knock 3:0-6@1
    0:knock 1:knock 2:5-6@0 3:0-3@1 0:3-6@0 1:2-3@1 2:knock 3:1-3@0
"""

# Seat 3 leads; seat 3's 0-1 lays the last 1 with both ends showing 1: a fish. Seats 0 and 1
# are both left with 13 pips.
FISH_HANDS = (
    "1-5 0-3 4-5 1-6 0-2 3-3 3-6",
    "1-4 6-6 3-4 5-5 5-6 4-4 1-2",
    "2-5 2-2 1-1 3-5 0-4 0-5 2-6",
    "0-0 0-1 4-6 2-4 1-3 2-3 0-6",
)
FISH_SCRIPT = """
    3:0-0   0:0-3@1 1:3-4@1 2:0-5@0 3:2-4@1 0:0-2@1 1:5-6@0 2:2-6@0
    3:2-3@0 0:3-6@0 1:6-6@0 2:0-4@1 3:0-6@0 0:4-5@1 1:5-5@1 2:3-5@1
    3:1-3@1 0:1-5@1 1:knock 2:2-5@1 3:knock 0:knock 1:1-2@1 2:1-1@1
    3:0-1@1
"""


def bykovo(hands: tuple[str, str, str, str], place_lot: tuple[int, ...] = (0, 1, 2, 3)) -> Match:
    match = Match(BYKOVO, BYKOVO.options())
    match.next_round(make_deal(*hands), place_lot=place_lot)
    return match


def end_of(match: Match) -> dict[str, Any]:
    return match.results[-1].end_dict()


def test_bykovo_has_no_options_and_four_players() -> None:
    opts = BYKOVO.options()
    assert (opts.players, opts.teams) == (4, False)
    assert BYKOVO.options_dict(opts) == {}
    with pytest.raises(InvalidOption, match="bykovo has no option 'players'"):
        BYKOVO.options({"players": 3})
    assert get_game("bykovo") is BYKOVO


def test_a_lone_game_is_rated_only_as_a_tournament() -> None:
    """Decision 7: whatever the table, a lone Bykovo game is never rated."""
    assert "only as a micro-tournament" in BYKOVO.rated_problem(BYKOVO.options())


def test_the_holder_of_0_0_leads_it_and_the_lead_is_never_a_pass() -> None:
    match = bykovo(TWO_OUT_HANDS)
    rnd = match.round
    assert rnd.turn == 2
    assert [str(m) for m in rnd.legal_moves()] == ["0-0"]
    with pytest.raises(IllegalMove, match="the lead is never a pass: seat 2 leads 0-0"):
        match.push(KNOCK)


def test_a_knock_is_legal_on_every_turn_after_the_lead() -> None:
    match = bykovo(TWO_OUT_HANDS)
    for token in TWO_OUT_SCRIPT.split():
        assert KNOCK in match.round.legal_moves() or match.round.layout.first < 0
        run(match, token)
    # seat 3 holds 1-2, which fits: a pass is legal all the same, and nothing else is added
    assert match.round.legal_moves()[-1] is KNOCK


def test_redeal_only_on_five_doubles() -> None:
    """Decision 1: six of a suit is a Bykovo deal; five doubles in a hand throw it in."""
    six_zeros = make_deal_unchecked(
        "0-1 0-2 0-3 0-4 0-5 0-6 1-1",
        "0-0 1-2 1-3 1-4 1-5 1-6 2-2",
        "2-3 2-4 2-5 2-6 3-3 3-4 3-5",
        "3-6 4-4 4-5 4-6 5-5 5-6 6-6",
    )
    Match(BYKOVO, BYKOVO.options()).next_round(six_zeros)
    with pytest.raises(ValueError, match=r"6\+ of a suit"):
        Match(GOAT, GOAT.options({"players": 4})).next_round(six_zeros)
    five_doubles = make_deal_unchecked(
        "0-0 1-1 2-2 3-3 4-4 0-1 0-2",
        "0-3 0-4 0-5 0-6 1-2 1-3 1-4",
        "1-5 1-6 2-3 2-4 2-5 2-6 3-4",
        "3-5 3-6 4-5 4-6 5-5 5-6 6-6",
    )
    with pytest.raises(ValueError, match=r"a hand has 5\+ doubles$"):
        Match(BYKOVO, BYKOVO.options()).next_round(five_doubles)
    rng_match = BYKOVO.new_match(BYKOVO.options(), seed=3)
    deal = rng_match.deal_next()
    assert deal["bazaar"] == [] and all(len(hand) == 7 for hand in deal["hands"])


def make_deal_unchecked(*hands: str) -> Deal:
    deal = Deal(tuple(tiles(hand) for hand in hands), ())
    deal.validate(4)
    return deal


def test_an_out_plays_the_circle_out_and_a_second_player_may_empty_his_hand() -> None:
    """Decision 4: after seat 2 goes out, seats 3, 0 and 1 move once more; seat 3 empties his
    hand too and counts 0, but the winner is the first out."""
    match = bykovo(TWO_OUT_HANDS)
    run(match, TWO_OUT_SCRIPT)
    rnd = match.round
    assert rnd.end is None and rnd.first_out == 2 and rnd.turn == 3
    run(match, "3:1-2@0")
    assert rnd.end is None and rnd.hands[3] == 0
    run(match, "0:2-4@0 1:knock")
    assert end_of(match) == {"kind": "out", "seat": 2, "places": [2, 3, 1, 0]}
    result = match.results[-1]
    assert result.counts == [16, 10, 0, 0]
    assert match.result is not None
    assert match.result.to_dict() == {
        "winners": [2],
        "places": [2, 3, 1, 0],
        "scores": [16, 10, 0, 0],
        "rating": [0, 0, 0, 0],
    }
    assert [e["after"] for e in result.entries] == [16, 10, 0, 0]
    assert replay_layout(json.loads(json.dumps(record_of(match, SEATS)))).result == match.result


def test_the_circle_goes_on_over_a_blocked_line() -> None:
    match = bykovo(BLOCKED_HANDS)
    run(match, BLOCKED_SCRIPT)
    rnd = match.round
    assert rnd.first_out == 1 and rnd.end is None
    run(match, "2:4-5@1 3:3-5@1")
    assert rnd.blocked() and rnd.end is None and rnd.turn == 0
    assert rnd.legal_moves() == [KNOCK]
    run(match, "0:knock")
    assert end_of(match) == {"kind": "out", "seat": 1, "places": [1, 2, 0, 3]}
    assert match.results[-1].counts == [9, 0, 6, 17]


def test_an_out_by_the_seat_before_the_leader_ends_at_once() -> None:
    match = bykovo(LAST_SEAT_HANDS)
    run(match, LAST_SEAT_SCRIPT)
    assert end_of(match) == {"kind": "out", "seat": 3, "places": [3, 2, 1, 0]}
    assert match.results[-1].counts == [16, 15, 8, 0]


@pytest.mark.parametrize(
    ("lot", "places"), [((0, 1, 2, 3), [3, 2, 0, 1]), ((1, 3, 2, 0), [3, 2, 1, 0])]
)
def test_a_fish_ends_at_once_and_equal_counts_place_by_lot(
    lot: tuple[int, ...], places: list[int]
) -> None:
    """Decision 5: the lay that blocks the line ends the game, won by the fisherman, whose
    real pips are written in counts (Decision 6) and who scores 0; seats 0 and 1 both hold
    13 and place in the lot's order."""
    match = bykovo(FISH_HANDS, lot)
    run(match, FISH_SCRIPT)
    assert end_of(match) == {"kind": "fish", "seat": 3, "places": places}
    result = match.results[-1]
    assert result.counts == [13, 13, 4, 10]
    assert match.result is not None and match.result.scores == [13, 13, 4, 0]
    record = json.loads(json.dumps(record_of(match, SEATS)))
    assert replay_layout(record).results[-1].places == places


def test_three_circles_of_unforced_passes_make_a_sortir() -> None:
    """Decision 5: the 12th consecutive pass ends the game as a sortir, won by the player who
    laid the last tile; every pass here was tactical (a tile fitted)."""
    match = bykovo(BLOCKED_HANDS)
    run(match, "1:0-0")
    rnd = match.round
    for k in range(12):
        seat = rnd.turn
        assert rnd.end is None, k
        assert rnd.fitting(rnd.hands[seat]), "an unforced pass"
        run(match, f"{seat}:knock")
    assert seat == 1
    assert end_of(match) == {"kind": "sortir", "seat": 1, "places": [1, 0, 3, 2]}
    assert match.results[-1].counts == [34, 42, 48, 44]
    assert match.result is not None and match.result.scores == [34, 0, 48, 44]


def test_a_lay_starts_the_count_of_passes_again() -> None:
    match = bykovo(TWO_OUT_HANDS)
    run(match, "2:0-0 " + "3:knock 0:knock 1:knock 2:knock " * 2 + "3:knock 0:knock 1:0-5@0")
    assert match.round.passes == 0
    run(match, "2:knock 3:knock 0:knock 1:knock " * 2 + "2:knock 3:knock 0:knock")
    assert match.round.end is None
    run(match, "1:knock")
    assert end_of(match)["kind"] == "sortir" and end_of(match)["seat"] == 1


def test_counts_are_plain_pips() -> None:
    """Decision 6: 6-6 counts 12, 0-1 counts 1, a lone 0-0 nothing special."""
    opts = BYKOVO.options()
    assert BYKOVO.hand_count(1 << tiles("6-6")[0], opts) == 12
    assert BYKOVO.hand_count(1 << tiles("0-1")[0], opts) == 1
    assert BYKOVO.hand_count(1 << tiles("0-0")[0], opts) == 0


# --- random games ----------------------------------------------------------------------------


def play(seed: int, levels: tuple[str, str, str, str]) -> Match:
    match = BYKOVO.new_match(BYKOVO.options(), seed)
    match.deal_next()
    bots = [make_bot(level, seed * 4 + i) for i, level in enumerate(levels)]
    while not match.over:
        seat = match.to_move
        assert seat is not None
        match.push(bots[seat].choose(match.view(seat)))
    return match


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    levels=st.tuples(*[st.sampled_from(["random", "greedy"])] * 4),
)
def test_random_games_end_and_replay(seed: int, levels: tuple[str, str, str, str]) -> None:
    match = play(seed, levels)
    assert len(match.results) == 1
    result = match.results[0]
    rnd = result.round
    assert result.places is not None and sorted(result.places) == [0, 1, 2, 3]
    assert result.places[0] == result.end.seat
    assert result.end.kind in ("out", "fish", "sortir")
    table = rnd.layout.table
    assert sum(result.counts) + pips_of(table) == pips_of(FULL_MASK) == 168
    rest = result.places[1:]
    assert [result.counts[s] for s in rest] == sorted(result.counts[s] for s in rest)
    hands = list(rnd.deal.masks)
    emptied = []
    for seat, move, _ in rnd.history:
        if isinstance(move, Play):
            hands[seat] ^= 1 << move.tile
            if not hands[seat]:
                emptied.append(seat)
    if result.end.kind == "out":
        assert emptied[0] == result.end.seat
    else:
        assert not emptied
    if result.end.kind == "sortir":
        assert all(type(m) is type(KNOCK) for _, m, _ in rnd.history[-12:])
    assert match.result is not None
    assert match.result.scores == [
        0 if s == result.end.seat else c for s, c in enumerate(result.counts)
    ]
    record = json.loads(json.dumps(record_of(match, SEATS)))
    assert record["options"] == {} and len(record["rounds"]) == 1
    again = replay_layout(record)
    assert again.results[0].places == result.places


def test_the_expert_plays_bykovo() -> None:
    match = play(5, ("expert", "greedy", "random", "expert"))
    assert match.over


# --- records that must be rejected -----------------------------------------------------------


def good_record() -> dict[str, Any]:
    match = bykovo(TWO_OUT_HANDS)
    run(match, TWO_OUT_SCRIPT + " 3:1-2@0 0:2-4@0 1:knock")
    record = record_of(match, SEATS)
    replay_layout(record)
    return record


def mutated(change: Any) -> dict[str, Any]:
    record = copy.deepcopy(good_record())
    change(record)
    return record


def set_end(key: str, value: object) -> Any:
    def change(record: dict[str, Any]) -> None:
        record["rounds"][0]["end"][key] = value

    return change


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (set_end("places", [2, 1, 3, 0]), r"end.places is \[2, 1, 3, 0\] but the rules give"),
        (set_end("places", [3, 2, 1, 0]), r"end.places is \[3, 2, 1, 0\] but the rules give"),
        (set_end("places", [2, 3, 1]), "end.places is"),
        (set_end("seat", 3), "end.seat is 3 but the rules give 2"),
        (set_end("kind", "fish"), "end.kind is 'fish' but the rules give 'out'"),
        (
            lambda r: r["rounds"][0]["moves"].insert(0, {"seat": 2, "knock": True}),
            "move 1: knock by seat 2 is illegal: the lead is never a pass",
        ),
        (
            lambda r: r["rounds"][0]["moves"].append({"seat": 2, "knock": True}),
            r"move 33: the round already ended \(out, seat 2\)",
        ),
        (
            lambda r: r["rounds"][0]["moves"].pop(),
            "the moves stop before the round ends",
        ),
        (
            lambda r: r["result"].update(places=[2, 3, 0, 1]),
            "result: places is",
        ),
        (
            lambda r: r["result"].update(scores=[16, 10, 0, 0], rating=[1, 0, 0, 0]),
            "result: rating is",
        ),
        (lambda r: r["options"].update(players=4), "bykovo has no option 'players'"),
        (
            lambda r: r["rounds"].append(copy.deepcopy(r["rounds"][0])),
            "round 2: the game was already over after round 1",
        ),
    ],
)
def test_bad_records_are_rejected(change: Any, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        replay_layout(mutated(change))


def test_equal_counts_may_be_recorded_in_either_order() -> None:
    """The record's places order is the lot: both orders of the 13s replay."""
    match = bykovo(FISH_HANDS)
    run(match, FISH_SCRIPT)
    record = record_of(match, SEATS)
    for places in ([3, 2, 0, 1], [3, 2, 1, 0]):
        record["rounds"][0]["end"]["places"] = places
        record["result"]["places"] = places
        assert replay_layout(copy.deepcopy(record)).results[-1].places == places


# --- a pass proves nothing -------------------------------------------------------------------


def test_no_void_is_inferred_from_a_bykovo_pass() -> None:
    """Decision 3: after seats knock while 0 and 5 are open, sampling and inference still let
    them hold any tile."""
    match = bykovo(TWO_OUT_HANDS)
    run(match, "2:0-0 3:0-1@0 0:knock 1:0-5@1 2:1-4@0 3:0-4@0 0:knock 1:0-2@0")
    view = match.view(2)
    assert lacked_values(view) == [0, 0, 0, 0]
    assert not BYKOVO.knock_proves_void(BYKOVO.options())
    assert GOAT.knock_proves_void(GOAT.options())
    sampler = Sampler(view, random.Random(1))
    assert sampler.voids == [0, 0, 0, 0]
    for decision in past_decisions(view):
        assert decision[6] == (0, 0, 0, 0)


# --- the playout kernel ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hands", "script"),
    [
        (TWO_OUT_HANDS, TWO_OUT_SCRIPT),  # the last circle to play
        (BLOCKED_HANDS, BLOCKED_SCRIPT),  # the last circle over a line about to block
        (BLOCKED_HANDS, "1:0-0 " + "2:knock 3:knock 0:knock 1:knock " * 2 + "2:knock 3:knock"),
        (FISH_HANDS, " ".join(FISH_SCRIPT.split()[:-1])),  # a fish to lay, or a pass
    ],
)
def test_the_kernel_plays_bykovo_as_the_engine(
    hands: tuple[str, str, str, str], script: str
) -> None:
    """From positions with the circle, the sortir and the fish at hand, the kernel's random
    playouts agree with the engine move by move, end by end and cost by cost."""
    from tests.test_kernel import compare_from

    ends = set()
    for seed in range(40):
        match = bykovo(hands)
        run(match, script)
        compare_from(match, seed)
        assert match.round.end is not None
        ends.add(match.round.end.kind)
    assert ends


def test_the_expert_searches_bykovo_with_the_kernel() -> None:
    """The expert's playouts know the circle: with the circle left to play, it still ranks
    every legal move, the pass included."""
    from kozel.layout.bots import Budget, ExpertBot
    from kozel.layout.bots.kernel import circle_of, supports

    assert supports(BYKOVO)
    match = bykovo(TWO_OUT_HANDS)
    run(match, TWO_OUT_SCRIPT)
    view = match.view(3)
    assert circle_of(view.history, view.leader, view.hand_sizes) == (2, 0, 2, 3, 2)
    ranked = ExpertBot(1, Budget(worlds=8, playouts=8)).analyse(view)
    assert {str(m) for m, _ in ranked} == {str(m) for m in view.legal_moves}
    assert KNOCK in [m for m, _ in ranked]

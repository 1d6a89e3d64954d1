"""The games that score during play: the end-count games (docs/rules.md#end-count-games) and Bergen
(§7), with the Decisions they share (§8.4, §8.5).

Every worked example of §6 and §7 is played here through real rounds with exact points, and
scripted deals prove the spinner, doubles at the ends, a score on the last tile, blocks and the
target passed during play. Every scripted game's record carries its ``points`` and replays.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from kozel.core import DRAW, KNOCK, IllegalMove, InvalidOption, Play, parse_tile
from kozel.engine.errors import RecordError
from kozel.engine.record import dumps
from kozel.games import GAMES, replay_layout
from kozel.layout.deal import Deal
from kozel.layout.match import Match, record_of
from kozel.layout.scoring.bergen import BergenOptions, BergenScoring, block_winner, header_points
from kozel.layout.scoring.end_count import AllFivesScoring, AllThreesScoring, TelephoneScoring
from tests.scripting import FISH_FILLERS, FISH_MOVES, FISH_ROLES, fish_round, legal, move, tiles

ALL_FIVES, TELEPHONE = GAMES["all_fives"], GAMES["telephone"]
ALL_THREES, THREES_FIVES, BERGEN = GAMES["all_threes"], GAMES["threes_fives"], GAMES["bergen"]


def deal_of(hands: tuple[str, ...], bazaar: str) -> Deal:
    return Deal(tuple(tiles(hand) for hand in hands), tiles(bazaar))


def rest_of(*used: str) -> str:
    """The tiles of the set not named in ``used``, in index order (a bazaar that does not
    matter to the script)."""
    taken = set(tiles(" ".join(used)))
    names = (f"{a}-{b}" for a in range(7) for b in range(a, 7))
    return " ".join(n for n in names if parse_tile(n) not in taken)


def start(
    game: str,
    raw: dict[str, Any],
    hands: tuple[str, ...],
    bazaar: str = "",
    lot: str | None = None,
) -> Match:
    rules = GAMES[game]
    m = Match(rules, rules.options(raw))
    bazaar = bazaar or rest_of(*hands)
    m.next_round(deal_of(hands, bazaar), 0, None if lot is None else list(tiles(lot)))
    return m


def points_of(m: Match, script: str) -> list[int]:
    """Push ``script`` (seat-prefixed moves, each checked legal); the points of its plays."""
    got = []
    for token in script.split():
        seat, _, text = token.rpartition(":")
        assert m.round.turn == int(seat), f"{token}: it is seat {m.round.turn}'s turn"
        mv = move(text)
        assert mv in m.round.legal_moves(), f"{token}: not legal; legal: {legal(m)}"
        m.push(mv)
        if isinstance(mv, Play) or "+" in text:
            got.append(m.points[-1])
    return got


def round_trip(m: Match) -> dict[str, Any]:
    """The record (every play with its points) through JSON and replay, written again alike."""
    seats = [f"p{s}" for s in range(m.opts.players)]
    record: dict[str, Any] = json.loads(dumps(record_of(m, seats)))
    for rnd in record["rounds"]:
        for mv in rnd["moves"]:
            assert ("points" in mv) == ("play" in mv or "doubles" in mv)
    assert record_of(replay_layout(record), seats) == record
    return record


# --- §6.1 All Fives ------------------------------------------------------------------------

FIVES_HANDS = ("5-5 3-5 4-5 2-5 0-0 1-1 6-6", "0-5 0-2 2-2 3-3 0-1 1-2 1-3")
FIVES_SCRIPT = "0:5-5 1:0-5@0 0:3-5@1 1:0-2@0 0:4-5@2 1:2-2@0 0:2-5@0 1:3-3@1"


def test_all_fives_worked_example_through_a_game() -> None:
    """§6.1 a–d (spinner_arms_count true): 5-5 led 10; 0-5 on it 10 (one line side still
    empty: both halves count); 3-5 on the other side 13, nothing; 0-2 on the 0: 15; 4-5 on a
    cross arm, 2-2 on the 2, 2-5 on the 2-2, 3-3 on the 3: 5 + 4 + (3+3) + 5 = 20. The spinner's
    line sides are covered one after the other."""
    m = start("all_fives", {"players": 2}, FIVES_HANDS, lot="0-1 6-6")
    assert m.round.leader == 0  # the lowest tile drawn (0-1) leads, with any tile
    assert points_of(m, FIVES_SCRIPT) == [10, 10, 0, 15, 0, 0, 0, 20]
    assert m.during == [10, 10 + 15 + 20]


def test_all_fives_worked_example_without_the_spinners_arms() -> None:
    """§6.1 with spinner_arms_count false: c gives 3 (nothing) then 5; d gives
    4 + (3+3) + 5 = 15."""
    m = start("all_fives", {"players": 2, "spinner_arms_count": False}, FIVES_HANDS, lot="0-1 6-6")
    assert points_of(m, FIVES_SCRIPT) == [10, 10, 0, 5, 0, 0, 0, 15]


def test_all_fives_bonus_example() -> None:
    """§6.1: the winner holds 3, the three opponents 5, 11, 13: 5 + 11 + 13 − 3 = 26 → 25 → 5;
    with bonus_divisor 1 (§8.5.6) rounded to the nearest 5 and recorded in full: 25."""
    assert AllFivesScoring(ALL_FIVES.options()).credit_for(5 + 11 + 13 - 3) == 5
    assert AllFivesScoring(ALL_FIVES.options({"bonus_divisor": 1})).credit_for(26) == 25
    assert [AllFivesScoring(ALL_FIVES.options()).credit_for(n) for n in (3, 2, 12, 13)] == [
        1,
        0,
        2,
        3,
    ]


# --- §6.2 Telephone ------------------------------------------------------------------------


def test_telephone_worked_example() -> None:
    """§6.2: the house 4-4 with both sides covered, a 3 at one end and a 6 at the other: 6-6
    on the 6 gives 6 + 6 + 3 = 15 → 3 points; then 4-5 on the house: 20 → 4 points
    (spinner_arms_count false). Nobody holds 1-1, 2-2 or 3-3, so 4-4 leads as in Goat."""
    hands = ("4-4 4-6 4-5 0-5 0-6 1-5 2-5", "3-4 6-6 0-4 1-4 1-6 2-6 5-6")
    m = start("telephone", {"players": 2}, hands)
    assert (m.round.leader, m.round.lead_mask) == (0, 1 << parse_tile("4-4"))
    assert points_of(m, "0:4-4 1:3-4@0 0:4-6@1 1:6-6@1 0:4-5@2") == [0, 0, 0, 3, 4]


def test_telephone_bonus_is_divided_by_5_rounded_up() -> None:
    """§6.2: the hand's winner scores the others' counts divided by 5, rounded up; a fish does
    not subtract his own count (§8.5.3)."""
    scoring = TelephoneScoring(TELEPHONE.options())
    assert [scoring.credit_for(n) for n in (0, 1, 5, 6, 26)] == [0, 1, 1, 2, 6]
    assert not scoring.subtract_own_in_fish


def test_telephone_three_doubles_at_once_score_once() -> None:
    """§6.2 option doubles_at_once, §8.5.4: doubles laid at once, one per arm, score once
    after the last. The house 1-1 led; its arms turned to 2 (4, nothing), 3 (5 → 1), 5
    (10 → 2); then 2-2, 3-3 and 5-5 in one turn: 4 + 6 + 10 = 20 → 4. Without the option
    only one double a turn."""
    hands = (
        "1-1 2-2 3-3 5-5 0-0 0-1 0-2",
        "1-2 0-3 0-4 0-5 0-6 1-4 4-4",
        "1-3 1-6 2-3 2-4 2-5 2-6 3-4",
        "1-5 3-5 3-6 4-5 4-6 5-6 6-6",
    )
    script = "0:1-1 1:1-2@0 2:1-3@1 3:1-5@2"
    plain = start("telephone", {}, hands)
    points_of(plain, script)
    assert "2-2@0+3-3@1+5-5@2" not in legal(plain)
    m = start("telephone", {"doubles_at_once": True}, hands)
    assert points_of(m, script + " 0:2-2@0+3-3@1+5-5@2") == [0, 0, 1, 2, 4]
    assert m.during == [4, 0, 1, 2]


# --- §6.3 All Threes -----------------------------------------------------------------------


def test_all_threes_worked_example() -> None:
    """§6.3: 6-6 led = 12; 3-6 = 15; 0-6 on the other side = 15; 0-2 on the 0 = 17, nothing;
    5-6 on a cross arm = 16, nothing; 1-5 on it = 12. The heaviest tile drawn leads."""
    hands = ("6-6 0-6 5-6 4-4 3-3", "3-6 0-2 1-5 1-1 2-2")
    m = start("all_threes", {"players": 2}, hands, lot="0-0 4-6")
    assert m.round.leader == 1
    m2 = start("all_threes", {"players": 2}, hands, lot="5-6 4-6")
    assert m2.round.leader == 0
    assert points_of(m2, "0:6-6 1:3-6@0 0:0-6@1 1:0-2@1 0:5-6@2 1:1-5@2") == [
        12,
        15,
        15,
        0,
        0,
        12,
    ]


def test_all_threes_bonus() -> None:
    """§6.3: rounded to the nearest 3 and divided by 3 (26 → 27 → 9)."""
    assert AllThreesScoring(ALL_THREES.options()).credit_for(26) == 9


# --- scripted deals: the spinner, doubles at the ends, the last tile -----------------------


def test_a_spinner_that_is_not_the_first_tile() -> None:
    """All Fives: 1-4 led (5); 4-4 on the 4 becomes the spinner and counts both halves while
    its far side is empty (1 + 8 = 9); 1-2 on the 1 (2 + 8 = 10); 4-6 covers it (2 + 6 and the
    two cross arms 4 + 4 = 16); 3-4 on a cross arm (2 + 6 + 3 + 4 = 15)."""
    hands = ("1-4 1-2 3-4 0-0 0-1 0-2 0-3", "4-4 4-6 5-5 5-6 6-6 3-3 2-2")
    m = start("all_fives", {"players": 2}, hands, lot="0-1 6-6")
    assert points_of(m, "0:1-4 1:4-4@1 0:1-2@0 1:4-6@1 0:3-4@2") == [5, 0, 10, 0, 15]
    assert m.round.layout.spinner == parse_tile("4-4")


def test_a_double_at_each_of_three_ends_and_a_score_on_the_last_tile() -> None:
    """All Threes with 0-0 led as the spinner: 0-1, 0-2 (1 + 2 = 3), 0-3 (6); then 1-1, 2-2
    and 3-3 end three arms, each counting both halves: 2 + 4 + 3 = 9, then 2 + 4 + 6 = 12;
    1-4 on the 1-1 (4 + 4 + 6 = 14); seat 0 goes out with 0-4 on the last cross arm:
    4 + 4 + 6 + 4 = 18 scores 18, and the hand's bonus: seat 1's 5-6 = 11 → 12 → 4."""
    hands = ("0-0 0-2 1-1 3-3 0-4", "0-1 0-3 2-2 1-4 5-6")
    m = start("all_threes", {"players": 2}, hands, lot="6-6 0-1")
    script = "0:0-0 1:0-1@0 0:0-2@1 1:0-3@2 0:1-1@0 1:2-2@1 0:3-3@2 1:1-4@0 0:0-4@3"
    assert points_of(m, script) == [0, 0, 3, 6, 0, 9, 12, 0, 18]
    result = m.results[-1]
    assert result.end_dict() == {"kind": "out", "seat": 0}
    assert result.entries == [
        {"before": 0, "during": 3 + 12 + 18, "credited": 4, "after": 37},
        {"before": 0, "during": 6 + 9, "credited": 0, "after": 15},
    ]
    record = round_trip_unfinished(m)
    assert record["rounds"][0]["lot"] == ["6-6", "0-1"]
    assert [mv["points"] for mv in record["rounds"][0]["moves"]][-1] == 18


def round_trip_unfinished(m: Match) -> dict[str, Any]:
    """The record of a game still going on (no result yet): points written on every play."""
    record: dict[str, Any] = json.loads(dumps(record_of(m, ["a", "b"])))
    assert "result" not in record
    return record


# --- §6.4 Threes and Fives -----------------------------------------------------------------


def test_threes_and_fives_block_with_a_shared_lowest_count() -> None:
    """§6.4 and §8.5.3 on the §2.4 fish line, all 28 dealt (hand_sizes seven): each play scores
    the end sum if it is a multiple of 3, and again if of 5 (the 1-1 led at an end counts 2);
    the two lowest counts are equal (17 and 17), so the block credits nobody and the fisherman
    leads the next hand."""
    fillers = ("0-0 0-1 0-5 5-6", "0-3 0-4 1-3 1-5", "4-5 4-6 5-5 6-6", "1-6 3-3 3-4 3-6 4-4")
    assert sorted(tiles(" ".join(fillers))) == sorted(tiles(FISH_FILLERS))
    deal, script = fish_round(0, fillers)
    m = Match(THREES_FIVES, THREES_FIVES.options({"hand_sizes": "seven"}))
    m.next_round(deal, 0, list(tiles("6-6 0-0 0-1 0-2")))
    # 1-1 1-2 2-2 2-6 1-4 0-6 0-2 2-3 3-5 2-4 2-5: sums 2 4 6 8 10 4 6 7 9 7 4
    assert points_of(m, script) == [0, 0, 6, 0, 10, 0, 6, 0, 9, 0, 0]
    result = m.results[-1]
    assert result.end_dict() == {"kind": "fish", "seat": 2}
    assert result.counts == [17, 17, 41, 37]
    assert [e["during"] for e in result.entries] == [19, 0, 12, 0]
    assert [e["credited"] for e in result.entries] == [0, 0, 0, 0]
    m.next_round()
    assert m.round.leader == 2


def test_threes_and_fives_draw_when_able_and_keep_last() -> None:
    """§6.4 options: draw_when_able makes a draw legal beside fitting tiles (never before the
    lead); keep_last keeps the last 2 tiles with 2 players (1 with 3 or 4) out of the draw."""
    hands = ("6-6 0-1 0-2 0-3 0-4 0-5 0-6", "1-1 1-2 1-3 1-4 1-5 1-6 2-2")
    for raw, draw_beside, reserve in [
        ({"players": 2}, False, 0),
        ({"players": 2, "draw_when_able": True}, True, 0),
        ({"players": 2, "keep_last": True}, False, 2),
    ]:
        m = start("threes_fives", raw, hands, lot="6-6 0-0")
        assert DRAW not in m.round.legal_moves()
        m.push(move("0-6"))
        assert (DRAW in m.round.legal_moves()) is draw_beside
        assert m.round.reserve == reserve
    three = ("0-0 0-1 0-2 0-3 0-4", "1-1 1-2 1-3 1-4 1-5", "2-2 2-3 2-4 2-5 2-6")
    m = start("threes_fives", {"players": 3, "keep_last": True}, three, lot="6-6 0-0 0-1")
    assert m.round.reserve == 1


# --- §7 Bergen -----------------------------------------------------------------------------

BERGEN_HANDS = ("0-0 3-4 4-4 4-6 2-3 4-5", "0-3 0-4 1-1 1-2 1-5 2-5")
BERGEN_BAZAAR = "3-5 2-6 0-1 0-2 0-5 0-6 1-3 1-4 1-6 2-2 2-4 3-3 3-6 5-5 5-6 6-6"


def test_bergen_headers_one_draw_a_turn_and_going_out() -> None:
    """§7, §8.5.5 with 2 players (6 tiles each, the last 2 of 16 never drawn): 0-0 leads, 2;
    0-4 makes both ends 4, a double-header, 2; 4-4 on a 4 against a 4, a triple-header, 3
    (not 3 + 2); seat 1 cannot play: draws one tile (3-5, no fit) and must knock; later it
    draws 2-6, which fits, and lays it; seat 0 goes out with 4-5 making a triple-header
    again: 3, and 2 for going out."""
    m = start("bergen", {"players": 2}, BERGEN_HANDS, BERGEN_BAZAAR)
    rnd = m.round
    assert (rnd.leader, rnd.lead_mask, rnd.drawable, rnd.reserve) == (0, 1, 14, 2)
    assert points_of(m, "0:0-0 1:0-3@1 0:3-4@1 1:0-4@0 0:4-4@0") == [2, 0, 0, 2, 3]
    assert rnd.legal_moves() == [DRAW]
    m.push(DRAW)
    assert rnd.legal_moves() == [KNOCK]
    with pytest.raises(IllegalMove, match="bergen draws one tile a turn"):
        m.push(DRAW)
    m.push(KNOCK)
    assert points_of(m, "0:4-6@1 1:draw 1:2-6@1 0:2-3@1 1:3-5@1 0:4-5@1") == [0, 0, 0, 0, 3]
    result = m.results[-1]
    assert result.end_dict() == {"kind": "out", "seat": 0}
    assert result.counts == [0, 18]
    assert result.entries == [
        {"before": 0, "during": 8, "credited": 2, "after": 10},
        {"before": 0, "during": 2, "credited": 0, "after": 2},
    ]
    assert not m.over  # 15 with 2 players
    m.next_round()
    assert m.round.leader == 0 and m.round.lead_mask == m.round.hands[0]


def test_bergen_header_points() -> None:
    """§7 and the Decision that a double led scores 2 only (not also a triple-header)."""

    def pts(script: str) -> int:
        plays = [move(word) for word in script.split()]
        assert all(isinstance(p, Play) for p in plays)
        return header_points([p for p in plays if isinstance(p, Play)])

    assert pts("3-3") == 2 and pts("2-3") == 0
    assert pts("2-3 3-3@1 2-2@0") == 0  # two doubles at the ends showing different values
    assert pts("2-3 3-3@1 2-4@0 3-4@0") == 3  # 3 against the crosswise 3-3
    assert pts("2-5 2-4@0 4-5@0") == 2


BERGEN_LINE_FILLERS = {
    "everyone holds a double": (
        ("3-3 0-1", "4-4 0-3", "5-5 0-4", "6-6 0-5 1-3"),
        "1-5 1-6 3-4 3-6 4-5 4-6 0-0 5-6",
        0,
    ),
    "one player without": (
        ("3-3 0-1", "4-4 0-3", "0-4 0-5", "5-5 6-6 1-3"),
        "1-5 1-6 3-4 3-6 4-5 4-6 0-0 5-6",
        2,
    ),
    "several without": (
        ("3-3 0-1", "0-3 1-3", "0-4 0-5", "4-4 5-5 6-6"),
        "1-5 1-6 3-4 3-6 4-5 4-6 0-0 5-6",
        1,
    ),
    "a shared lowest count": (
        ("3-3 0-5", "0-3 0-4", "0-1 1-5", "4-4 5-5 6-6"),
        "1-3 4-5 1-6 3-4 3-6 4-6 0-0 5-6",
        None,
    ),
}
"""Bergen hands beside the §2.4 fish line (roles 0..3 = seats 0..3), the bazaar in draw order
(its last two tiles hidden), and the seat whose block it is. After the fish each seat in turn
draws one tile (seats 3, 0, 1, 2, 3, 0: the six drawable ones) and passes (§13.4); then, with
the hands as they are: the lowest double held (3-3); the only hand with no double (seat 2 drew
3-6); the lowest count of those with none (0-3 1-3 + 3-4 = 14 against 0-4 0-5 + 3-6 = 18); 0-3
0-4 + 1-6 and 0-1 1-5 + 3-4 both 14: nobody."""

BERGEN_DRAWS = "3:draw 3:knock 0:draw 0:knock 1:draw 1:knock 2:draw 2:knock 3:draw 3:knock 0:draw"
"""§13.4: the fish leaves six drawable tiles; nobody can play, so each seat draws one a turn
(none fits) and passes; the last draw leaves only the two hidden tiles: the block."""


def bergen_block(fillers: tuple[str, ...], bazaar: str, target: int = 0) -> Match:
    """A 4-player Bergen hand on the §2.4 fish line; ``fillers`` are the tiles each seat keeps
    and ``bazaar`` the rest (0-0 among them) in draw order. The fish does not end the hand:
    the seats draw the drawable tiles one a turn, and the last draw blocks it."""
    hands = tuple(f"{own} {extra}" for own, extra in zip(FISH_ROLES, fillers, strict=True))
    m = start("bergen", {"target": target}, hands, bazaar)
    script = " ".join(f"{role}:{text}" for role, text in FISH_MOVES)
    assert points_of(m, script) == [2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2]
    assert not m.round.over and m.round.bazaar_left == 6 and m.round.reserve == 2
    *before_last, last = BERGEN_DRAWS.split()
    points_of(m, " ".join(before_last))
    assert not m.round.over and legal(m) == {"draw"}
    points_of(m, last)
    assert m.round.over and m.round.bazaar_left == 0
    return m


@pytest.mark.parametrize("case", list(BERGEN_LINE_FILLERS))
def test_bergen_block(case: str) -> None:
    """§7's block, written as a fish (§8.5.5), judged per player from the hands left once
    only the two hidden tiles remain (§13.4). On the §2.4 line the lead 1-1 scores 2 (0-0 lies
    in the bazaar, so the lowest double held leads) and the fisherman's 2-5 makes both ends 2,
    a double-header: 2. The fisherman (the last to lay a tile) stays seat 2 through the draws.
    The block's scorer leads the next hand; when nobody scores, the fisherman does."""
    fillers, bazaar, scorer = BERGEN_LINE_FILLERS[case]
    m = bergen_block(fillers, bazaar)
    result = m.results[-1]
    assert result.end_dict() == {"kind": "fish", "seat": 2}
    credited = [0, 0, 0, 0]
    if scorer is not None:
        credited[scorer] = 2
    assert [e["credited"] for e in result.entries] == credited
    assert [e["during"] for e in result.entries] == [2, 0, 2, 0]
    assert block_winner(m.opts, result.round.hands, 2) == scorer
    m.next_round()
    assert m.round.leader == (2 if scorer is None else scorer)


def test_bergen_block_in_team_play_partners_sharing_the_lowest_count() -> None:
    """§8.5.5: the block is judged per player also in team play; a lowest count shared by two
    partners (seats 1 and 3) is their team's."""
    opts = BERGEN.options({"teams": True})
    hands = [sum(1 << t for t in tiles(h)) for h in ("3-3 0-1", "0-3 0-4", "4-4", "0-2 2-3")]
    assert block_winner(opts, hands, 0) == 1
    assert block_winner(opts, hands, 2) == 3
    assert block_winner(BERGEN.options(), hands, 0) is None


def test_a_target_passed_during_play_by_two_units_in_one_hand() -> None:
    """§8.5.7: with target 2, seat 0 reaches it with its first tile and seat 2 with the last;
    the hand is played out, and the highest score at its end wins (seat 2: 2 + 2 for the
    block, against seat 0's 2)."""
    fillers, bazaar, _ = BERGEN_LINE_FILLERS["one player without"]
    m = bergen_block(fillers, bazaar, target=2)
    assert m.result is not None
    assert m.result.to_dict() == {
        "winners": [2],
        "scores": [2, 0, 4, 0],
        "rating": [0, 0, 1, 0],
    }
    round_trip(m)


def test_bergen_target_by_players() -> None:
    """§7, §8.4: target 0 plays to 15 with 2 players and 10 with 3 or 4; any other target is
    played as set."""
    for players, target in ((2, 15), (3, 10), (4, 10)):
        assert BergenScoring(BERGEN.options({"players": players})).target == target
    assert BergenScoring(BERGEN.options({"players": 2, "target": 7})).target == 7
    assert BergenOptions(players=3, teams=False, target=0).reserve_size() == 2


# --- §8.4 options, the leads of §8.5.1–2 ---------------------------------------------------

OPTIONS = {
    "all_fives": {"target": 100, "bonus_divisor": 5, "spinner_arms_count": True, "cross": True},
    "telephone": {"target": 61, "doubles_at_once": False},
    "all_threes": {"target": 100, "spinner_arms_count": True, "cross": True},
    "threes_fives": {
        "target": 251,
        "hand_sizes": "standard",
        "spinner": False,
        "keep_last": False,
        "draw_when_able": False,
    },
    "bergen": {"target": 0},
}


@pytest.mark.parametrize("game", list(OPTIONS))
def test_options_of_8_4(game: str) -> None:
    """Exactly the options of §8.4 with their defaults; bad values are refused."""
    rules = GAMES[game]
    assert rules.options_dict(rules.options()) == {"players": 4, "teams": False, **OPTIONS[game]}
    with pytest.raises(InvalidOption, match=f"{game} has no option 'open_at'"):
        rules.options({"open_at": 25})
    low = 0 if game == "bergen" else 1
    with pytest.raises(InvalidOption, match=rf"option 'target' must be an integer {low}\.\.10000"):
        rules.options({"target": low - 1})


def test_option_values() -> None:
    assert GAMES["all_fives"].spec("bonus_divisor").choices == (5, 1)
    assert GAMES["threes_fives"].spec("hand_sizes").choices == ("standard", "seven", "by_players")
    sizes = {
        (hand_sizes, players): THREES_FIVES.hand_size(
            THREES_FIVES.options({"hand_sizes": hand_sizes, "players": players})
        )
        for hand_sizes in ("standard", "seven", "by_players")
        for players in (2, 3, 4)
    }
    assert sizes == {
        ("standard", 2): 7,
        ("standard", 3): 5,
        ("standard", 4): 5,
        ("seven", 2): 7,
        ("seven", 3): 7,
        ("seven", 4): 7,
        ("by_players", 2): 7,
        ("by_players", 3): 6,
        ("by_players", 4): 5,
    }
    for game, sizes_by_players in [
        ("all_fives", {2: 7, 3: 5, 4: 5}),
        ("telephone", {2: 7, 3: 7, 4: 7}),
        ("all_threes", {2: 5, 3: 5, 4: 5}),
        ("bergen", {2: 6, 3: 6, 4: 5}),
    ]:
        rules = GAMES[game]
        for players, size in sizes_by_players.items():
            assert rules.hand_size(rules.options({"players": players})) == size


def test_threes_and_fives_spinner_option_leads_the_highest_double() -> None:
    """§8.5.2: with Threes and Fives' spinner on there is no lot: the holder of the highest
    double dealt leads it, and it is the spinner (its cross arms count, §8.5.4)."""
    hands = ("5-5 0-1 0-2 0-3 0-4", "4-4 1-2 1-3 1-4 1-5", "3-3 2-3 2-4 2-5 2-6")
    m = start("threes_fives", {"players": 3, "spinner": True}, hands)
    assert m.lot == () and (m.round.leader, m.round.lead_mask) == (0, 1 << parse_tile("5-5"))
    assert points_of(m, "0:5-5") == [10]  # a multiple of 5, not of 3
    assert m.round.layout.spinner == parse_tile("5-5")
    with pytest.raises(ValueError, match="this round has no lot"):
        Match(THREES_FIVES, m.opts).next_round(
            deal_of(hands, rest_of(*hands)), 0, list(tiles("0-0 0-1 0-2"))
        )


def test_the_lot_is_recorded_and_checked() -> None:
    """docs/record.md#record-lot: the first round carries the lot (one different tile per seat)."""
    m = start("all_fives", {"players": 2}, FIVES_HANDS, lot="0-1 6-6")
    assert m.lot == tuple(tiles("0-1 6-6"))
    for lot in ("0-1", "0-1 0-1", ""):
        with pytest.raises(ValueError, match="lot must be 2 different tiles"):
            fresh = Match(ALL_FIVES, m.opts)
            fresh.next_round(deal_of(FIVES_HANDS, rest_of(*FIVES_HANDS)), 0, list(tiles(lot)))
    with pytest.raises(ValueError, match="needs its lot"):
        Match(ALL_FIVES, m.opts).next_round(deal_of(FIVES_HANDS, rest_of(*FIVES_HANDS)))


def test_records_of_these_games_carry_points_and_replay() -> None:
    """Every play of a finished game carries its points; a record whose points disagree with
    the rules is refused, naming the move."""
    fillers, bazaar, _ = BERGEN_LINE_FILLERS["one player without"]
    m = bergen_block(fillers, bazaar, target=2)
    record = round_trip(m)
    bad = json.loads(json.dumps(record))
    bad["rounds"][0]["moves"][0]["points"] = 3
    with pytest.raises(RecordError, match="round 1, move 1: points is 3 but the rules give 2"):
        replay_layout(bad)
    del bad["rounds"][0]["moves"][0]["points"]
    with pytest.raises(RecordError, match="a play in bergen carries its points"):
        replay_layout(bad)

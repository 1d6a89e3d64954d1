"""Scripted deals played through real rounds with exact expected sheets, and chains of rounds
scored through the pure :func:`kozel.layout.match.settle`. Each test names the rule it proves."""

from __future__ import annotations

import pytest

from kozel.core import DRAW, IllegalMove, Play
from kozel.engine.options import Options
from kozel.games import DONKEY, GOAT, replay_layout
from kozel.layout.match import Match, record_of
from kozel.layout.scoring.goat import settle
from tests.scripting import (
    CLOSED_HANDS,
    CLOSED_SCRIPT,
    OUT_HANDS,
    OUT_SCRIPT,
    accts,
    fish_round,
    legal,
    make_deal,
    run,
    shown,
    t,
)

SEATS = ["masha", "alex", "olya", "serg"]

# Fillers for fish_round (what each role keeps; role 0 leads, role 2 is the fisherman).
TIE_34 = ("6-6 5-6 4-6 0-1", "5-5 4-5 3-6 1-5", "0-0 0-3 1-6 4-4", "0-4 0-5 1-3 3-3 3-4")
"""Counts by role 34, 34, 18, 26: roles 0 and 1 tie for the highest count."""
TIE_33 = ("0-3 0-5 1-3 1-5", "1-6 3-3 3-4 4-4", "6-6 5-6 4-6 0-0", "5-5 4-5 3-6 0-1 0-4")
"""Counts by role 18, 28, 33, 33: roles 2 and 3 tie for the highest count."""
TOP_ROLE_1 = ("5-5 4-5 3-6 1-3", "6-6 5-6 4-6 0-1", "0-0 0-3 1-6 4-4", "0-4 0-5 1-5 3-3 3-4")
"""Counts by role 32, 34, 18, 28: role 1 alone has the highest count."""


def GOAT_OPTIONS(**raw: object) -> Options:
    """Goat's options with some set (typed values, as a request has them)."""
    return GOAT.options(raw)


def goat_match(**options: object) -> Match:
    return Match(GOAT, GOAT.options(options))


def play_out_round(m: Match) -> None:
    """The shared out round: seat 1 leads 1-1 and goes out; counts 8, 0, 10, 17."""
    m.next_round(make_deal(*OUT_HANDS))
    run(m, OUT_SCRIPT)
    assert m.round.end is not None and (m.round.end.kind, m.round.end.seat) == ("out", 1)


def play_fish_round(m: Match, fillers: tuple[str, str, str, str]) -> None:
    """A fish_round led by the seat the match says leads; asserts the fisherman."""
    leader = m.results[-1].end.seat
    deal, script = fish_round(leader, fillers)
    m.next_round(deal)
    assert m.round.turn == leader
    run(m, script)
    assert m.round.end is not None
    assert (m.round.end.kind, m.round.end.seat) == ("fish", (leader + 2) % 4)


# --- eggs carried twice, then awarded ---------------------------------------------------


def test_eggs_carried_twice_then_awarded_in_real_rounds() -> None:
    """§2.6 all_to_loser eggs: two fish ties in a row carry 112 and then 224 (nobody charged,
    nobody's remembered points change); the next fish's single highest count takes the sum of
    all counts plus the eggs, opening with his remembered points, while everyone else's
    remembered points are reset (an open account stays). §2.2: the fisherman leads next."""
    m = goat_match(fish_mode="all_to_loser")
    play_out_round(m)
    assert m.results[-1].counts == [8, 0, 10, 17]
    assert shown(m.sheet) == "+8 0 +10 17"

    play_fish_round(m, TIE_34)  # led by seat 1 (the winner); seats 1 and 2 tie at 34
    r = m.results[-1]
    assert r.counts == [26, 34, 34, 18]
    assert r.charged == [0, 0, 0, 0] and r.eggs == 112 and m.eggs == 112
    assert shown(m.sheet) == "+8 0 +10 17"

    play_fish_round(m, TIE_33)  # led by seat 3 (the fisherman); seats 1 and 2 tie at 33
    r = m.results[-1]
    assert r.counts == [28, 33, 33, 18]
    assert r.charged == [0, 0, 0, 0] and r.eggs == 224
    assert shown(m.sheet) == "+8 0 +10 17"

    play_fish_round(m, TOP_ROLE_1)  # led by seat 1; seat 2 alone has the most, 34
    r = m.results[-1]
    assert r.counts == [28, 32, 34, 18]
    assert r.charged == [0, 0, 112 + 224, 0] and r.eggs == 0 and m.eggs == 0
    assert shown(m.sheet) == "0 0 346 17"  # 336 + his remembered 10

    assert m.result is not None
    assert m.result.losers == [2]
    assert m.result.accounts == [0, 0, 346, 17]
    assert m.result.rating == [10, 10, 0, 8]  # (100 - 17) / 10 = 8.3 → 8
    again = replay_layout(record_of(m, SEATS))
    assert again.result == m.result and [x.eggs for x in again.results] == [0, 112, 224, 0]


def test_eggs_chain_through_settle() -> None:
    """§2.6 as a pure function over four chained rounds (all_to_loser): tie → +30, tie again →
    +30 + 20, then an out round with eggs pending charges everyone as usual and gives the eggs
    to the single highest of the others."""
    opts = GOAT_OPTIONS(fish_mode="all_to_loser")
    sheet = accts("+5 0 +12 20")
    s = settle(opts, sheet, [4, 10, 10, 6], out_unit=None, eggs=0)
    assert s.charged == [0, 0, 0, 0] and s.after == sheet and s.eggs == 30
    s = settle(opts, s.after, [8, 2, 2, 8], out_unit=None, eggs=s.eggs)
    assert s.charged == [0, 0, 0, 0] and s.after == sheet and s.eggs == 50
    s = settle(opts, s.after, [3, 0, 2, 1], out_unit=1, eggs=s.eggs)
    assert s.charged == [53, 0, 2, 1] and s.eggs == 0 and s.loser == 0
    assert shown(s.after) == "58 0 +14 21"
    s = settle(opts, s.after, [1, 5, 2, 12], out_unit=None, eggs=s.eggs)
    assert s.charged == [0, 0, 0, 20] and shown(s.after) == "58 0 0 41"


# --- own_to_loser -----------------------------------------------------------------------


def test_own_to_loser_single_top_tie_and_eggs_to_an_out_round() -> None:
    """§2.6 own_to_loser in real rounds: a fish charges only the highest count his own count
    (the others keep their remembered points); a tie charges nobody and carries the sum of all
    four counts; in the next round, ended by out, everyone is charged as usual and the eggs go
    to the single highest count among the others (Decision)."""
    m = goat_match(fish_mode="own_to_loser")
    play_out_round(m)
    assert shown(m.sheet) == "+8 0 +10 17"

    play_fish_round(m, TOP_ROLE_1)  # led by seat 1; seat 2 has the most, 34
    r = m.results[-1]
    assert r.counts == [28, 32, 34, 18]
    assert r.charged == [0, 0, 34, 0] and r.eggs == 0
    assert shown(m.sheet) == "+8 0 44 17"

    play_fish_round(m, TIE_33)  # led by seat 3; seats 1 and 2 tie at 33
    r = m.results[-1]
    assert r.counts == [28, 33, 33, 18]
    assert r.charged == [0, 0, 0, 0] and r.eggs == 28 + 33 + 33 + 18
    assert shown(m.sheet) == "+8 0 44 17"

    # led by seat 1, the fisherman, with 1-1 (any tile is allowed); seat 1 goes out again
    m.next_round(make_deal(*OUT_HANDS))
    run(m, OUT_SCRIPT)
    r = m.results[-1]
    assert r.counts == [8, 0, 10, 17]
    assert r.charged == [8, 0, 10, 17 + 112] and r.eggs == 0
    assert shown(m.sheet) == "+16 0 54 146"
    assert m.result is not None and m.result.losers == [3]
    assert m.result.rating == [10, 10, 5, 0]  # (100 - 54) / 10 = 4.6 → 5
    assert replay_layout(record_of(m, SEATS)).result == m.result


def test_own_to_loser_ties_through_settle() -> None:
    """§2.6 own_to_loser: a tie is a draw (nobody charged, remembered unchanged, eggs = sum of
    all counts); ties keep adding; the single highest then takes his own count plus the eggs,
    which open his account although his own count alone would not."""
    opts = GOAT_OPTIONS(fish_mode="own_to_loser")
    sheet = accts("+9 +4 30 0")
    s = settle(opts, sheet, [7, 7, 1, 3], out_unit=None, eggs=0)
    assert (s.charged, s.after, s.eggs) == ([0, 0, 0, 0], sheet, 18)
    s = settle(opts, s.after, [2, 5, 5, 0], out_unit=None, eggs=s.eggs)
    assert (s.charged, s.after, s.eggs) == ([0, 0, 0, 0], sheet, 30)
    s = settle(opts, s.after, [6, 2, 1, 3], out_unit=None, eggs=s.eggs)
    assert s.charged == [36, 0, 0, 0] and s.eggs == 0 and s.loser == 0
    assert shown(s.after) == "45 +4 30 0"


# --- team play --------------------------------------------------------------------------


def test_team_partner_out() -> None:
    """§2.7: seat 1 goes out, so team 1 (seats 1 + 3) counts 0 although seat 3 still holds 17
    (which `counts` shows); team 0 is charged 8 + 10 (seat 2's lone 0-0 counts 10) and opens.
    Then the winner leads; a fish under `everyone` charges each team its partners' sum."""
    m = goat_match(teams=True)
    play_out_round(m)
    r = m.results[-1]
    assert r.counts == [8, 0, 10, 17]
    assert r.charged == [18, 0]
    assert shown(m.sheet) == "18 0"

    play_fish_round(m, TOP_ROLE_1)  # seat 1 leads; counts 28, 32, 34, 18
    r = m.results[-1]
    assert r.counts == [28, 32, 34, 18]
    assert r.charged == [28 + 34, 32 + 18]
    assert shown(m.sheet) == "80 50"


def test_team_partner_out_keeps_no_remembered_points() -> None:
    """§2.7 with §2.5: the team of the player who went out scores 0 and forgets its remembered
    points, whatever the partner holds."""
    opts = GOAT_OPTIONS(teams=True)
    s = settle(opts, accts("+11 +6"), [0, 12], out_unit=0, eggs=0)
    assert s.charged == [0, 12] and shown(s.after) == "0 +18"


# --- bazaar reserve ---------------------------------------------------------------------

# Seat 0 holds 1-1 and four more 1s; seat 1 holds no 1 and neither do the first twelve bazaar
# tiles; the last two (the reserve with bazaar_reserve = 2) are 1-5 and 1-6.
RESERVE_HANDS = ("1-1 0-1 1-2 1-3 1-4 2-3 4-4", "0-0 0-2 2-2 3-3 2-5 5-6 6-6")
RESERVE_BAZAAR = "0-3 0-4 0-5 0-6 2-4 5-5 2-6 3-4 3-5 3-6 4-5 4-6 1-5 1-6"


def reserve_match(**options: object) -> Match:
    m = goat_match(players=2, **options)
    m.next_round(make_deal(*RESERVE_HANDS, bazaar=RESERVE_BAZAAR))
    run(m, "0:1-1 " + "1:draw " * 12)
    return m


def test_bazaar_reserve_2_knock_and_fish_in_the_reserve() -> None:
    """§1 / §2.3 bazaar_reserve = 2: the last two bazaar tiles are never drawn; with only the
    reserve left a player who cannot play knocks; a layout whose only fitting tiles lie in the
    reserve is a fish."""
    m = reserve_match(bazaar_reserve=2)
    rnd = m.round
    assert rnd.bazaar_left == 0 and rnd.reserve == 2
    assert legal(m) == {"knock"}
    with pytest.raises(IllegalMove):
        m.push(DRAW)
    run(
        m,
        """
        1:knock
        0:1-3@0 1:0-3@0 0:1-4@1 1:0-4@1
        0:0-1@0 1:0-2@1 0:1-2@1
        """,
    )
    # both ends show 1: 1-5 and 1-6 are in the reserve, every other 1 is on the table
    assert rnd.layout.ends[:2] == [1, 1]
    assert rnd.end is not None and (rnd.end.kind, rnd.end.seat) == ("fish", 0)
    assert rnd.drawn == 12
    assert not any(h & (1 << t("1-5") | 1 << t("1-6")) for h in rnd.hands)
    assert rnd.counts() == [13, 118]  # seat 0 keeps 2-3 4-4; seat 1 holds 16 tiles
    assert shown(m.sheet) == "13 118"
    assert m.result is not None
    assert m.result.losers == [1] and m.result.rating == [9, 0]  # (100 - 13) / 10 → 9
    assert replay_layout(record_of(m, ["masha", "alex"])).result == m.result


def test_goat_125_reserve_1_draws_the_next_to_last_tile() -> None:
    """§3.1 / §2.3: with reserve 1 (Goat-125) the 13th tile can still be drawn; it fits, so
    seat 1 must lay a fitting tile at once (no more drawing); 1-6 is never drawn. (Two players
    take 7 tiles in Goat-125 too; the deal is led with 1-1 here.)"""
    m = reserve_match(**{**GOAT.presets["goat-125"], "first_lead": "one_one"})
    assert legal(m) == {"draw"}
    run(m, "1:draw")
    assert m.round.bazaar_left == 0
    assert legal(m) == {"1-5@0", "1-5@1"}


# --- two players, no doubles in either hand ---------------------------------------------


def test_goat_two_players_no_doubles_lead_5_6_then_draw_until_a_fit() -> None:
    """§2.2: with no double in any hand the holder of 5-6 leads it; §2.3: the other player
    draws one tile at a time until one fits, then must lay it."""
    m = goat_match(players=2)
    m.next_round(
        make_deal(
            "0-1 0-2 0-3 0-4 1-2 1-3 1-4",
            "5-6 2-3 2-4 3-4 0-5 1-5 0-6",
            bazaar="0-0 1-1 2-2 3-5 3-3 4-4 5-5 6-6 1-6 2-5 2-6 3-6 4-5 4-6",
        )
    )
    assert m.round.turn == 1 and legal(m) == {"5-6"}
    run(m, "1:5-6 0:draw 0:draw 0:draw")  # 0-0, 1-1, 2-2: none fits 5 or 6
    assert legal(m) == {"draw"}
    run(m, "0:draw")  # 3-5 fits
    assert legal(m) == {"3-5@0"}
    run(m, "0:3-5@0")
    assert m.round.layout.ends[:2] == [3, 6]


def test_goat_two_players_no_doubles_next_in_descending_order() -> None:
    """§2.2 Decision: 5-6 and 4-6 are in the bazaar; 3-6 and 4-5 both have 9 pips, and 3-6
    (the higher high half) comes first, so seat 0 leads it."""
    m = goat_match(players=2)
    m.next_round(
        make_deal(
            "3-6 0-1 0-2 0-3 1-2 1-3 1-4",
            "4-5 2-3 2-4 3-4 0-5 1-5 0-6",
            bazaar="0-0 1-1 2-2 3-3 4-4 5-5 6-6 0-4 1-6 2-5 2-6 3-5 4-6 5-6",
        )
    )
    assert m.round.turn == 0 and legal(m) == {"3-6"}
    with pytest.raises(IllegalMove):
        m.push(Play(t("0-1")))


def test_donkey_two_players_no_doubles_ascending_order() -> None:
    """§4 Decision: with no double in any hand Donkey leads 0-1, then ascending; 0-1 and 0-2
    are in the bazaar, 1-2 and 0-3 both have 3 pips, and 1-2 (lower high half) leads."""
    hands = ("0-3 0-4 0-5 0-6 1-4 1-5 1-6", "1-2 2-3 2-4 2-5 2-6 3-4 1-3")
    bazaar = "0-0 1-1 2-2 3-3 4-4 5-5 6-6 0-1 0-2 3-5 3-6 4-5 4-6 5-6"
    m = Match(DONKEY, DONKEY.options({"players": 2}))
    m.next_round(make_deal(*hands, bazaar=bazaar))
    assert m.round.turn == 1 and legal(m) == {"1-2"}
    swapped = Match(DONKEY, DONKEY.options({"players": 2}))
    # swap 0-3 (seat 0) and 0-1 (bazaar): now seat 0 holds 0-1 and leads it
    low_hand = hands[0].replace("0-3", "0-1")
    swapped.next_round(make_deal(low_hand, hands[1], bazaar=bazaar.replace("0-1", "0-3")))
    assert swapped.round.turn == 0 and legal(swapped) == {"0-1"}


# --- Donkey: a fish with the double still in a hand -------------------------------------

# Round 1: CLOSED_HANDS / CLOSED_SCRIPT (tests/scripting.py).
# Round 2, led by seat 0 (the fisherman) with 1-2: no double is laid, so the layout stays a
# line, 2-4 1-4 1-2 2-6 0-6 0-2 2-3 3-5 2-5; both ends show 2, all six non-double 2s are laid
# and 2-2 is in seat 2's hand.
LINE_HANDS = (
    "1-2 0-2 2-5 0-0 0-1 0-3 1-1",
    "2-6 2-3 0-4 0-5 1-3 1-5 3-3",
    "1-4 3-5 2-2 1-6 3-4 4-4 5-5",
    "0-6 2-4 3-6 4-5 4-6 5-6 6-6",
)
LINE_SCRIPT = """
    0:1-2   1:2-6@1 2:1-4@0 3:0-6@1
    0:0-2@1 1:2-3@1 2:3-5@1 3:2-4@0
    0:2-5@1
"""


def donkey_two_rounds(ignores: bool) -> Match:
    m = Match(DONKEY, DONKEY.options({"fish_ignores_double": ignores}))
    m.next_round(make_deal(*CLOSED_HANDS))
    run(m, CLOSED_SCRIPT)
    assert m.results[-1].end == ("fish", 0)
    assert shown(m.sheet) == "0 0 0 44"
    m.next_round(make_deal(*LINE_HANDS))
    assert m.round.turn == 0 and len(legal(m)) == 7  # the fisherman leads any tile
    run(m, LINE_SCRIPT)
    return m


def test_donkey_fish_ignoring_the_double_in_hand() -> None:
    """§4 / §2.4 with fish_ignores_double = true («Рыба без дубля»): 2-2 in seat 2's hand does
    not hold the layout open; seat 0's 2-5 is the fish; own_to_loser charges seat 3's 51."""
    m = donkey_two_rounds(ignores=True)
    rnd = m.round
    assert rnd.end is not None and (rnd.end.kind, rnd.end.seat) == ("fish", 0)
    assert rnd.layout.ends == [2, 2, -1, -1] and rnd.layout.spinner == -1
    assert rnd.counts() == [6, 25, 36, 51]
    assert m.results[-1].charged == [0, 0, 0, 51]
    assert shown(m.sheet) == "0 0 0 95"


def test_donkey_double_in_hand_keeps_play_going_by_default() -> None:
    """§4: fish_ignores_double is false in Donkey, so the live 2-2 keeps the round going:
    seat 1 (no 2) knocks, seat 2 must lay 2-2 — the first double, so the spinner, even when it
    closes its arm: arms 2 and 3 open showing 2 — and that blocks every arm (a fish)."""
    m = donkey_two_rounds(ignores=False)
    rnd = m.round
    assert rnd.end is None and not rnd.blocked()
    assert rnd.turn == 1 and legal(m) == {"knock"}
    run(m, "1:knock")
    assert legal(m) == {"2-2@0", "2-2@0!", "2-2@1", "2-2@1!"}
    run(m, "2:2-2@0!")
    assert rnd.layout.spinner == t("2-2")
    assert rnd.layout.ends == [2, 2, 2, 2]
    assert rnd.layout.closed == [True, False, False, False]
    assert rnd.end is not None and (rnd.end.kind, rnd.end.seat) == ("fish", 2)
    assert rnd.counts() == [6, 25, 32, 51]
    assert shown(m.sheet) == "0 0 0 95"

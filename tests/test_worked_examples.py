"""Every worked example and Decision of the rulebook's §2 (Goat: docs/rules.md#goat-game), §3
(presets: docs/rules.md#goat-presets), §4 (Donkey: docs/rules.md#donkey-game) and §12 (rating:
docs/rules.md#club) as a test. Each test names the rule it proves."""

from __future__ import annotations

import pytest

from kozel.core import (
    IllegalMove,
    InvalidOption,
    Play,
    PlayDoubles,
    mask_of,
    tile_str,
    tiles_of,
)
from kozel.engine.options import Options
from kozel.games import DONKEY, GOAT, replay_layout
from kozel.layout.deal import Deal, needs_redeal
from kozel.layout.match import Match, record_of
from kozel.layout.round import Round
from kozel.layout.rules import Ruleset
from kozel.layout.scoring.base import round_half_away
from kozel.layout.scoring.goat import Account, rating_after_game, rating_after_timeout, settle
from tests.scripting import (
    CLOSED_HANDS,
    CLOSED_SCRIPT,
    OUT_HANDS,
    OUT_SCRIPT,
    accts,
    fish_round,
    legal,
    make_deal,
    move,
    run,
    shown,
    t,
    tiles,
)

MASHA, ALEX, OLYA, SERG = 0, 1, 2, 3


def GOAT_OPTIONS(**raw: object) -> Options:
    """Goat's options with some set (typed values, as a request has them)."""
    return GOAT.options(raw)


def names(ts: list[int]) -> list[str]:
    return [tile_str(x) for x in ts]


def hand_masks(*hands: str) -> list[int]:
    return [mask_of(tiles(h)) for h in hands]


# --- §2.1 redeal ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "redeal"),
    [
        ("0-0 1-1 2-2 3-3 4-4 0-1 2-5", True),  # 5 doubles
        ("0-0 1-1 2-2 3-3 0-1 2-5 4-6", False),  # 4 doubles
        ("0-1 0-2 0-3 0-4 0-5 0-6 1-2", True),  # 6 of suit 0 (no double)
        ("0-0 0-1 0-2 0-3 0-4 0-5 1-2", True),  # 6 of suit 0, the double counts once
        ("0-0 0-1 0-2 0-3 0-4 1-2 3-4", False),  # 5 of suit 0
        ("6-6 0-6 1-6 2-6 3-6 4-6 5-6", True),  # the whole suit 6
    ],
)
def test_redeal_rule_five_doubles_or_six_of_a_suit(hand: str, redeal: bool) -> None:
    """§2.1: a hand with 5+ doubles or 6+ tiles of one suit is thrown in."""
    assert needs_redeal(mask_of(tiles(hand))) is redeal


def test_match_refuses_a_deal_that_must_be_thrown_in() -> None:
    """§2.1: the deal that is played never needs a redeal (5 doubles in seat 0 here)."""
    deal = Deal(
        (
            tiles("0-0 1-1 2-2 3-3 4-4 0-1 2-5"),
            tiles("5-5 6-6 0-2 0-3 0-4 0-5 0-6"),
            tiles("1-2 1-3 1-4 1-5 1-6 2-3 2-4"),
            tiles("2-6 3-4 3-5 3-6 4-5 4-6 5-6"),
        ),
        (),
    )
    assert deal.needs_redeal()
    with pytest.raises(ValueError, match="thrown in"):
        Match(GOAT, GOAT.options()).next_round(deal)


def test_dealt_rounds_never_need_a_redeal() -> None:
    """§2.1: the match's own shuffle deals again until no hand must be thrown in."""
    for seed in range(40):
        m = Match(GOAT, GOAT.options({"players": 2}), seed=seed)
        rnd = m.next_round()
        assert not rnd.deal.needs_redeal()
        assert len(rnd.deal.bazaar) == 14


# --- §2.2 who leads ---------------------------------------------------------------------

GOAT_ORDER = (
    "1-1 2-2 3-3 4-4 5-5 6-6 0-0 "
    "5-6 4-6 3-6 4-5 2-6 3-5 1-6 2-5 3-4 0-6 1-5 2-4 0-5 1-4 2-3 0-4 1-3 0-3 1-2 0-2 0-1"
)
DONKEY_ORDER = (
    "1-1 2-2 3-3 4-4 5-5 6-6 0-0 "
    "0-1 0-2 1-2 0-3 1-3 0-4 2-3 1-4 0-5 2-4 1-5 0-6 3-4 2-5 1-6 3-5 2-6 4-5 3-6 4-6 5-6"
)


@pytest.mark.parametrize(("rules", "order"), [(GOAT, GOAT_ORDER), (DONKEY, DONKEY_ORDER)])
def test_first_lead_order(rules: Ruleset, order: str) -> None:
    """§2.2 / §4 Decisions: doubles from 1-1 up to 6-6 then 0-0; then Goat descending by pips,
    ties by the higher high half; Donkey ascending by pips, ties by the lower high half."""
    assert names(list(rules.first_lead_order)) == order.split()


def test_first_leader_holder_of_1_1_else_next_double() -> None:
    """§2.2: the holder of 1-1 leads it; if nobody holds it, 2-2, … 6-6, then 0-0."""
    rest = "0-1 0-2 0-3 0-4 0-5 0-6"
    assert GOAT.first_leader(hand_masks("2-2", "1-1", rest)) == (1, t("1-1"))
    assert GOAT.first_leader(hand_masks("6-6", "2-2", rest)) == (1, t("2-2"))
    assert GOAT.first_leader(hand_masks("0-0", "6-6", rest)) == (1, t("6-6"))
    assert GOAT.first_leader(hand_masks("0-0", rest)) == (0, t("0-0"))
    assert DONKEY.first_leader(hand_masks("0-0", "5-5 4-4", rest)) == (1, t("4-4"))


def test_first_leader_without_doubles() -> None:
    """§2.2 / §4: with no double in any hand, Goat leads 5-6 or the next tile descending,
    Donkey 0-1 or the next tile ascending (ties broken by the high half)."""
    assert GOAT.first_leader(hand_masks("0-1 4-5", "3-6 0-2")) == (1, t("3-6"))
    assert GOAT.first_leader(hand_masks("4-6 0-1", "5-6")) == (1, t("5-6"))
    assert DONKEY.first_leader(hand_masks("0-3 5-6", "1-2 4-6")) == (1, t("1-2"))
    assert DONKEY.first_leader(hand_masks("0-2 5-6", "0-1 4-6")) == (1, t("0-1"))


def test_first_round_must_be_led_with_1_1() -> None:
    """§2.2: in the first round the holder of 1-1 must lead with it, nothing else."""
    m = Match(GOAT, GOAT.options())
    m.next_round(make_deal(*OUT_HANDS))
    assert m.round.turn == 1
    assert legal(m) == {"1-1"}
    with pytest.raises(IllegalMove, match="may not lead"):
        m.push(Play(t("5-5")))


def test_later_round_winner_leads_any_tile() -> None:
    """§2.2: every later round is led by the player who went out (or the fisherman), with
    any tile."""
    m = Match(GOAT, GOAT.options())
    m.next_round(make_deal(*OUT_HANDS))
    run(m, OUT_SCRIPT)
    assert m.round.end is not None and m.round.end.seat == 1
    deal, _ = fish_round(
        0, ("0-0 0-1 0-3 3-3", "0-4 0-5 1-3 4-4", "1-5 1-6 3-4 5-5", "3-6 4-5 4-6 5-6 6-6")
    )
    m.next_round(deal)
    assert m.round.turn == 1  # the winner, although seat 0 holds 1-1
    assert legal(m) == set(names(list(deal.hands[1])))


# --- §2.4 the fish example --------------------------------------------------------------

# The line of §2.4 with 1-1 led and 2-2 played: 2-4 1-4 1-1 1-2 2-2 2-6 0-6 0-2 2-3 3-5 2-5.
PLAYED_HANDS = (
    "1-1 1-4 3-5 0-0 0-1 0-3 3-3",
    "1-2 0-6 2-4 0-4 0-5 1-3 4-4",
    "2-2 0-2 2-5 1-5 1-6 3-4 5-5",
    "2-6 2-3 3-6 4-5 4-6 5-6 6-6",
)
PLAYED_SCRIPT = """
    0:1-1   1:1-2@1 2:2-2@1 3:2-6@1
    0:1-4@0 1:0-6@1 2:0-2@1 3:2-3@1
    0:3-5@1 1:2-4@0 2:2-5@1
"""
# The same line without 2-2: seat 2 keeps it in hand.
HELD_HANDS = (
    "1-1 0-6 2-4 0-0 0-1 0-3 3-3",
    "1-2 0-2 2-5 0-4 0-5 1-3 4-4",
    "2-6 2-3 2-2 1-5 1-6 3-4 5-5",
    "1-4 3-5 3-6 4-5 4-6 5-6 6-6",
)
HELD_SCRIPT = """
    0:1-1   1:1-2@1 2:2-6@1 3:1-4@0
    0:0-6@1 1:0-2@1 2:2-3@1 3:3-5@1
    0:2-4@0 1:2-5@1
"""
SUIT_2_NON_DOUBLES = tiles("0-2 1-2 2-3 2-4 2-5 2-6")


def goat_match(**options: object) -> Match:
    return Match(GOAT, GOAT.options(options))


@pytest.mark.parametrize("ignores", [True, False])
def test_fish_example_with_2_2_played(ignores: bool) -> None:
    """§2.4 worked example, 2-2 on the table: both ends show 2 and every tile of suit 2 is laid,
    so the last tile makes a fish under either value of fish_ignores_double."""
    m = goat_match(fish_ignores_double=ignores)
    m.next_round(make_deal(*PLAYED_HANDS))
    run(m, PLAYED_SCRIPT)
    rnd = m.round
    assert rnd.end is not None and (rnd.end.kind, rnd.end.seat) == ("fish", 2)
    assert rnd.layout.ends[:2] == [2, 2]
    assert rnd.layout.table & mask_of(SUIT_2_NON_DOUBLES) == mask_of(SUIT_2_NON_DOUBLES)
    assert rnd.counts() == [10, 21, 30, 51]
    # fish_mode everyone: each is charged his own count (§2.6 default)
    assert shown(m.sheet) == "+10 21 30 51"


def test_fish_example_with_2_2_in_hand_is_a_fish_when_doubles_are_ignored() -> None:
    """§2.4 worked example, 2-2 still in seat 2's hand: with fish_ignores_double = true (the
    Goat default) the double does not hold the fish open; seat 1's 2-5 is the fish."""
    m = goat_match()
    assert m.opts.fish_ignores_double is True
    m.next_round(make_deal(*HELD_HANDS))
    run(m, HELD_SCRIPT)
    rnd = m.round
    assert rnd.end is not None and (rnd.end.kind, rnd.end.seat) == ("fish", 1)
    assert rnd.layout.ends[:2] == [2, 2]
    assert rnd.counts() == [10, 21, 34, 51]  # seat 2 still holds 2-2 (4 pips)
    assert shown(m.sheet) == "+10 21 34 51"


def test_fish_example_with_2_2_in_hand_is_not_a_fish_when_the_double_counts() -> None:
    """§2.4 with fish_ignores_double = false: the live 2-2 holds the layout open; seat 2 must
    lay it, and that blocks the layout (seat 2 is the fisherman)."""
    m = goat_match(fish_ignores_double=False)
    m.next_round(make_deal(*HELD_HANDS))
    run(m, HELD_SCRIPT)
    rnd = m.round
    assert rnd.end is None
    assert not rnd.blocked()
    assert rnd.turn == 2 and legal(m) == {"2-2@0", "2-2@1"}
    run(m, "2:2-2@0")
    assert rnd.end is not None and (rnd.end.kind, rnd.end.seat) == ("fish", 2)
    assert rnd.counts() == [10, 21, 30, 51]
    assert shown(m.sheet) == "+10 21 30 51"


# --- §2.5 the score sheet ---------------------------------------------------------------


def test_sheet_example_masha_goes_out() -> None:
    """§2.5 worked example: Masha out (remembered reset), Alex +3, Olya's 13 opens at 20,
    Serg's 5 joins his remembered 4."""
    before = accts("+19 0 +7 +4")
    s = settle(GOAT_OPTIONS(), before, [0, 3, 13, 5], out_unit=MASHA, eggs=0)
    assert s.charged == [0, 3, 13, 5]
    assert s.after == [
        Account(0, False, 0),
        Account(0, False, 3),
        Account(20, True, 0),
        Account(0, False, 9),
    ]
    assert shown(s.after) == "0 +3 20 +9"
    assert s.eggs == 0


def test_open_threshold_is_a_single_rounds_count() -> None:
    """§2.5: 12 or less is remembered even when the remembered sum passes 12; 13 opens; an
    open account takes every count, however small; going out keeps an open account."""
    opts = GOAT_OPTIONS()
    s = settle(opts, accts("+12 +5 30 0"), [0, 12, 1, 13], out_unit=0, eggs=0)
    assert shown(s.after) == "0 +17 31 13"
    s = settle(opts, accts("40 0"), [0, 6], out_unit=0, eggs=0)
    assert shown(s.after) == "40 +6"


def test_game_over_all_reaching_the_limit_lose_and_remembered_never_counts() -> None:
    """§2.5 Decision: everyone who reaches loss_limit in the same round loses, the highest
    account named first; remembered points (+10 here, with a limit of 10) never count."""
    m = goat_match(loss_limit=10)
    m.next_round(make_deal(*HELD_HANDS))
    run(m, HELD_SCRIPT)
    assert shown(m.sheet) == "+10 21 34 51"
    assert m.over and m.result is not None
    assert m.result.losers == [3, 2, 1]
    assert m.result.accounts == [0, 21, 34, 51]
    assert m.result.rating == [10, 0, 0, 0]
    with pytest.raises(IllegalMove):
        m.next_round(make_deal(*OUT_HANDS))
    assert replay_layout(record_of(m, ["masha", "alex", "olya", "serg"])).result == m.result


# --- §2.6 fish scoring and eggs ---------------------------------------------------------


def test_all_to_loser_example() -> None:
    """§2.6 worked example: counts 2, 3, 13, 5; Olya (highest) is charged the total 23 and with
    her +7 opens at 30; everyone else's remembered points become 0 (an open account stays)."""
    opts = GOAT_OPTIONS(fish_mode="all_to_loser")
    s = settle(opts, accts("+19 55 +7 +4"), [2, 3, 13, 5], out_unit=None, eggs=0)
    assert s.charged == [0, 0, 23, 0]
    assert shown(s.after) == "0 55 30 0"
    assert s.after[OLYA] == Account(30, True, 0)
    assert s.loser == OLYA and s.eggs == 0


def test_own_to_loser_charges_only_the_highest_his_own_count() -> None:
    """§2.6 own_to_loser: only the highest count is charged, his own count; the others keep
    their remembered points."""
    opts = GOAT_OPTIONS(fish_mode="own_to_loser")
    s = settle(opts, accts("+19 0 +7 +4"), [2, 3, 13, 5], out_unit=None, eggs=0)
    assert s.charged == [0, 0, 13, 0]
    assert shown(s.after) == "+19 0 20 +4"


def test_everyone_fish_charges_each_his_own_count() -> None:
    """§2.6 everyone (the Goat default): each player is charged his own count as in §2.5."""
    assert GOAT.options().fish_mode == "everyone"
    s = settle(GOAT_OPTIONS(), accts("+19 0 +7 +4"), [2, 3, 13, 5], out_unit=None, eggs=0)
    assert s.charged == [2, 3, 13, 5]
    assert shown(s.after) == "+21 +3 20 +9"


@pytest.mark.parametrize("mode", ["all_to_loser", "own_to_loser"])
def test_eggs_example_tie_carries_the_whole_amount(mode: str) -> None:
    """§2.6 eggs worked example: Alex and Olya tie with 14; nobody is charged, nobody's
    remembered points change, and the four counts' sum 35 is carried as eggs (+35)."""
    opts = GOAT_OPTIONS(fish_mode=mode)  # type: ignore[arg-type]
    before = accts("+19 0 +7 40")
    s = settle(opts, before, [2, 14, 14, 5], out_unit=None, eggs=0)
    assert s.charged == [0, 0, 0, 0]
    assert s.after == before
    assert s.eggs == 35 and s.loser is None


@pytest.mark.parametrize(("mode", "charge"), [("all_to_loser", 12 + 35), ("own_to_loser", 6 + 35)])
def test_eggs_go_to_the_next_highest_and_count_toward_opening(mode: str, charge: int) -> None:
    """§2.6: the next round's highest count is charged the eggs in addition; they count as
    part of his round count for opening (6 alone would only be remembered)."""
    opts = GOAT_OPTIONS(fish_mode=mode)  # type: ignore[arg-type]
    s = settle(opts, accts("+19 0 +7 +4"), [1, 2, 6, 3], out_unit=None, eggs=35)
    assert s.charged == [0, 0, charge, 0]
    assert s.after[OLYA] == Account(charge + 7, True, 0)
    assert s.eggs == 0 and s.loser == OLYA


def test_eggs_tie_again_adds_to_the_eggs() -> None:
    """§2.6: a second tie adds its own amount to the eggs and everything carries on."""
    opts = GOAT_OPTIONS(fish_mode="all_to_loser")
    s = settle(opts, accts("+3 +4 0 0"), [10, 10, 2, 4], out_unit=None, eggs=35)
    assert s.charged == [0, 0, 0, 0] and s.eggs == 35 + 26
    assert shown(s.after) == "+3 +4 0 0"


def test_out_round_with_eggs_pending() -> None:
    """§2.6 Decision: a round ended by out while eggs are pending charges everyone as usual;
    the eggs go in addition to the single highest count among the others; if that is tied,
    the eggs carry on unchanged."""
    opts = GOAT_OPTIONS(fish_mode="own_to_loser")
    s = settle(opts, accts("+19 0 +7 +4"), [0, 3, 9, 5], out_unit=MASHA, eggs=35)
    assert s.charged == [0, 3, 9 + 35, 5]
    assert shown(s.after) == "0 +3 51 +9"
    assert s.eggs == 0 and s.loser == OLYA
    s = settle(opts, accts("+19 0 +7 +4"), [0, 9, 9, 5], out_unit=MASHA, eggs=35)
    assert s.charged == [0, 9, 9, 5]
    assert shown(s.after) == "0 +9 +16 +9"
    assert s.eggs == 35 and s.loser is None


# --- §3.1 Goat-125 ----------------------------------------------------------------------


def test_goat_125_preset() -> None:
    """§3.1 and §13.1: Goat-125 = the traditional deal (by players) and first lead (6-6 down),
    reserve 1, recorded from 25 at once, all_to_loser (eggs), loser at 125; everything else is
    Goat's default."""
    opts = GOAT.options(GOAT.presets["goat-125"])
    assert opts == GOAT_OPTIONS(
        hand_sizes="by_players",
        first_lead="six_six",
        bazaar_reserve=1,
        open_threshold=25,
        fish_mode="all_to_loser",
        loss_limit=125,
    )
    s = settle(opts, accts("0 +20 0"), [24, 0, 25], out_unit=1, eggs=0)
    assert shown(s.after) == "+24 0 25"


# --- §3.3 Yard Goat ---------------------------------------------------------------------


def test_yard_preset() -> None:
    """§3.3: Yard Goat is team Goat, loser past 100, the winner's partner leads, all_to_loser
    fish with eggs, and the special doubles."""
    opts = GOAT.options(GOAT.presets["yard"])
    assert opts == GOAT_OPTIONS(
        players=4,
        teams=True,
        loss_limit=101,
        lead_by="winner_partner",
        fish_mode="all_to_loser",
        special_doubles=True,
    )
    assert GOAT.options({**GOAT.presets["yard"], "loss_limit": 500}).loss_limit == 500


def test_yard_options_need_teams() -> None:
    """§2.8: lead_by = winner_partner needs teams; §13.1: special_doubles no longer does."""
    with pytest.raises(InvalidOption):
        GOAT.options({"lead_by": "winner_partner"})
    assert GOAT.options({"special_doubles": True, "players": 3}).special_doubles


def test_yard_lead_with_a_double_unless_only_0_0_or_6_6() -> None:
    """§3.3: the leader of a later round leads a double if he holds one other than 0-0 and
    6-6 (leading 0-0 or 6-6 is then allowed too); otherwise any tile."""
    yard = GOAT.options(GOAT.presets["yard"])
    hand = mask_of(tiles("6-6 3-3 0-0 1-2 4-5 2-6 0-3"))
    assert names(tiles_of(GOAT.later_lead_mask(hand, yard))) == ["0-0", "3-3", "6-6"]
    only_edges = mask_of(tiles("6-6 0-0 1-2 4-5 2-6 0-3 1-4"))
    assert GOAT.later_lead_mask(only_edges, yard) == only_edges
    assert GOAT.later_lead_mask(hand, GOAT.options({"teams": True})) == hand


def test_yard_special_hand_counts() -> None:
    """§3.3: a hand holding only 6-6 counts 50, only 0-0 counts 25 (overriding
    lone_zero_value); without special doubles a lone 0-0 counts lone_zero_value."""
    yard = GOAT.options({**GOAT.presets["yard"], "lone_zero_value": 10})
    assert GOAT.hand_count(mask_of(tiles("6-6")), yard) == 50
    assert GOAT.hand_count(mask_of(tiles("0-0")), yard) == 25
    assert GOAT.hand_count(mask_of(tiles("0-0 6-6")), yard) == 12
    assert GOAT.hand_count(mask_of(tiles("0-0")), GOAT.options()) == 10
    assert GOAT.hand_count(mask_of(tiles("0-0")), GOAT.options({"lone_zero_value": 25})) == 25
    assert GOAT.hand_count(mask_of(tiles("6-6")), GOAT.options()) == 12


def test_yard_bonus_is_part_of_the_losers_charge_and_joins_eggs_on_a_tie() -> None:
    """§3.3: the 50/25 bonus goes to the team charged this round and counts toward opening;
    on a fish tie it joins the eggs."""
    yard = GOAT.options(GOAT.presets["yard"])
    s = settle(yard, accts("+5 0"), [0, 8], out_unit=0, eggs=0, bonus=25)
    assert s.charged == [0, 33] and shown(s.after) == "0 33"
    s = settle(yard, accts("+5 +4"), [20, 20], out_unit=None, eggs=0, bonus=50)
    assert s.charged == [0, 0] and s.eggs == 90 and shown(s.after) == "+5 +4"


# Yard round 1: seat 0 goes out laying 6-6 last; seat 3 is left with a lone 0-0.
YARD_HANDS_1 = (
    "1-3 2-6 6-6 5-5 5-6 0-5 1-1",
    "0-1 3-6 4-6 3-3 1-6 4-4 0-6",
    "1-2 4-5 1-5 2-3 2-5 3-5 3-4",
    "1-4 2-2 0-2 0-4 0-0 0-3 2-4",
)
YARD_SCRIPT_1 = """
    0:1-1   1:1-6@0 2:1-2@1 3:0-2@1
    0:5-6@0 1:0-1@1 2:1-5@0 3:1-4@1
    0:1-3@0 1:3-3@0 2:3-4@0 3:2-4@1
    0:2-6@1 1:4-6@1 2:4-5@0 3:0-4@1
    0:0-5@1 1:knock 2:3-5@1 3:0-3@1
    0:5-5@0 1:0-6@1 2:2-5@0 3:2-2@0
    0:6-6@1
"""
# Yard round 2, led by seat 2 (partner of the winner) with 6-6: the §2.4 fish on suit 2 along
# the line 2-4 1-4 1-2 2-6 6-6 0-6 0-2 2-3 3-5 2-5; 2-2 stays in seat 0's hand.
YARD_HANDS_2 = (
    "0-6 2-3 0-0 2-2 3-4 4-4 4-5",
    "1-2 3-5 1-6 3-6 4-6 5-5 5-6",
    "6-6 0-2 2-4 1-1 0-1 0-3 0-4",
    "2-6 1-4 2-5 0-5 1-3 1-5 3-3",
)
YARD_SCRIPT_2 = """
    2:6-6   3:2-6@0 0:0-6@1 1:1-2@0
    2:0-2@1 3:1-4@0 0:2-3@1 1:3-5@1
    2:2-4@0 3:2-5@1
"""


def test_yard_match_special_doubles_and_partner_lead() -> None:
    """§3.3 in real rounds: (1) out with 6-6 as the last tile costs the losing team 50 more
    and a lone 0-0 counts 25; (2) the winner's partner leads, with a double (6-6 chosen:
    another 50 for the losers); a fish is charged to the team with more, both teams' counts;
    (3) after a fish the fisherman himself leads."""
    m = Match(GOAT, GOAT.options({**GOAT.presets["yard"], "loss_limit": 500}))
    m.next_round(make_deal(*YARD_HANDS_1))
    run(m, YARD_SCRIPT_1)
    first = m.results[-1]
    assert (first.end.kind, first.end.seat) == ("out", 0)
    assert first.counts == [0, 17, 5, 25]  # seat 2 (partner of the winner) keeps 2-3
    assert first.charged == [0, 17 + 25 + 50]
    assert shown(m.sheet) == "0 92"

    m.next_round(make_deal(*YARD_HANDS_2))
    assert m.round.turn == 2  # partner of seat 0
    assert legal(m) == {"1-1", "6-6"}  # he holds 1-1, so he must lead a double
    run(m, YARD_SCRIPT_2)
    second = m.results[-1]
    assert (second.end.kind, second.end.seat) == ("fish", 3)
    assert second.counts == [28, 47, 10, 21]
    # team 0 = 28 + 10 = 38, team 1 = 47 + 21 = 68: team 1 takes 38 + 68 + 50 (6-6 led)
    assert second.charged == [0, 156]
    assert shown(m.sheet) == "0 248"
    assert not m.over

    m.next_round(make_deal(*YARD_HANDS_1))
    assert m.round.turn == 3  # the fisherman, not his partner
    assert legal(m) == {"0-0", "2-2"}


def test_yard_match_goes_to_record_and_back() -> None:
    """§3.3 + docs/record.md#record-fields: the finished Yard game (limit 101) replays to the same
    result."""
    m = Match(GOAT, GOAT.options(GOAT.presets["yard"]))
    m.next_round(make_deal(*YARD_HANDS_1))
    run(m, YARD_SCRIPT_1)
    m.next_round(make_deal(*YARD_HANDS_2))
    run(m, YARD_SCRIPT_2)
    assert m.result is not None
    assert m.result.losers == [1] and m.result.accounts == [0, 248]
    assert m.result.rating == [10, 0, 10, 0]
    again = replay_layout(record_of(m, ["a", "b", "c", "d"]))
    assert again.result == m.result and again.sheet == m.sheet


# --- §4 Donkey --------------------------------------------------------------------------


def test_donkey_defaults() -> None:
    """§4: Donkey's fish mode defaults to own_to_loser and fish_ignores_double to false; the
    bazaar option is 0, 1 or 2; there are no special doubles."""
    opts = DONKEY.options()
    assert opts.fish_mode == "own_to_loser"
    assert opts.fish_ignores_double is False
    assert GOAT.options().fish_ignores_double is True
    assert [DONKEY.options({"bazaar_reserve": r}).bazaar_reserve for r in (0, 1, 2)] == [0, 1, 2]
    with pytest.raises(InvalidOption):
        DONKEY.options({"bazaar_reserve": 3})
    with pytest.raises(InvalidOption):
        DONKEY.options({"special_doubles": True})


# A 2-player deal for the layout tests below (a Round led by seat 0 with any tile).
LAYOUT_DEAL = (
    "2-3 2-2 3-4 0-5 1-5 0-6 4-4",
    "3-3 3-5 1-2 0-1 5-6 4-6 1-1",
)


def layout_round(rules: Ruleset, **options: object) -> Round:
    rest = set(range(28)) - set(tiles(" ".join(LAYOUT_DEAL)))
    deal = make_deal(*LAYOUT_DEAL, bazaar=" ".join(tile_str(x) for x in sorted(rest)))
    opts = rules.options({"players": 2, **options})
    return Round(rules, opts, deal, 0, deal.masks[0])


def test_donkey_spinner_from_a_double_led() -> None:
    """§4: a double led is the spinner and opens four arms; in Goat it opens two."""
    rnd = layout_round(DONKEY)
    run(rnd, "0:2-2")
    assert rnd.layout.ends == [2, 2, 2, 2] and rnd.layout.spinner == t("2-2")
    assert legal(rnd) == {"1-2@0", "1-2@1", "1-2@2", "1-2@3"}
    goat = layout_round(GOAT)
    run(goat, "0:2-2")
    assert goat.layout.ends == [2, 2, -1, -1] and goat.layout.spinner == -1


def test_donkey_spinner_laid_later_that_closes_its_arm_still_opens_arms_2_and_3() -> None:
    """§4: until a double is laid the layout is a line; the first double laid is the spinner;
    laid on arm k and closing it, arms 2 and 3 still open; nothing more goes on arm k; a
    later double is no spinner."""
    rnd = layout_round(DONKEY)
    run(rnd, "0:2-3")
    assert rnd.layout.ends == [2, 3, -1, -1] and rnd.layout.spinner == -1
    assert legal(rnd) == {"3-3@1", "3-3@1!", "3-5@1", "1-2@0"}
    run(rnd, "1:3-3@1!")
    assert rnd.layout.spinner == t("3-3")
    assert rnd.layout.ends == [2, 3, 3, 3]
    assert rnd.layout.closed == [False, True, False, False]
    assert legal(rnd) == {"2-2@0", "2-2@0!", "3-4@2", "3-4@3"}
    with pytest.raises(IllegalMove, match="closed"):
        rnd.push(Play(t("3-4"), 1))
    run(rnd, "0:2-2@0")
    assert rnd.layout.spinner == t("3-3") and rnd.layout.ends == [2, 3, 3, 3]


def test_closing_rules() -> None:
    """§4: the first tile is never closed; only a double closes; Goat has no closing."""
    rnd = layout_round(DONKEY)
    with pytest.raises(IllegalMove, match="never closed"):
        rnd.push(Play(t("2-2"), None, True))
    run(rnd, "0:2-3")
    with pytest.raises(IllegalMove, match="only a double"):
        rnd.push(Play(t("3-5"), 1, True))
    goat = layout_round(GOAT)
    run(goat, "0:2-3")
    assert "3-3@1!" not in legal(goat)
    with pytest.raises(IllegalMove):
        goat.push(Play(t("3-3"), 1, True))


def doubles_round() -> Round:
    """Seat 1 holds 2-2 and 5-5 facing a line 2-5 (no spinner yet)."""
    deal = make_deal(
        "2-5 0-1 0-3 1-3 3-4 4-6 6-6",
        "2-2 5-5 1-4 1-6 0-4 0-6 3-6",
        bazaar="0-0 1-1 3-3 4-4 0-2 0-5 1-2 1-5 2-3 2-4 2-6 3-5 4-5 5-6",
    )
    rnd = Round(DONKEY, DONKEY.options({"players": 2}), deal, 0, deal.masks[0])
    run(rnd, "0:2-5")
    return rnd


def test_several_doubles_at_once_are_laid_in_the_order_listed() -> None:
    """§4: doubles that fit different arms may be laid in one turn, one per arm, in the order
    listed; the first of them laid is the spinner."""
    rnd = doubles_round()
    assert {"2-2@0+5-5@1", "2-2@0!+5-5@1", "2-2@0+5-5@1!", "2-2@0!+5-5@1!"} <= legal(rnd)
    run(rnd, "1:2-2@0+5-5@1!")
    assert rnd.layout.spinner == t("2-2")
    assert rnd.layout.ends == [2, 5, 2, 2]
    assert rnd.layout.closed == [False, True, False, False]
    assert rnd.turn == 0

    rnd = doubles_round()
    rnd.push(move("5-5@1+2-2@0"))
    assert rnd.layout.spinner == t("5-5")
    assert rnd.layout.ends == [2, 5, 5, 5]


def test_several_doubles_every_order_is_a_legal_move() -> None:
    """§4: "the doubles are laid in the order listed" — laying 5-5 first makes 5-5 the spinner
    (arms 2 and 3 show 5), laying 2-2 first makes 2-2 the spinner: different layouts, so both
    orders are legal moves and legal_moves() must list both."""
    rnd = doubles_round()
    assert {"2-2@0+5-5@1", "5-5@1+2-2@0"} <= legal(rnd)


def test_several_doubles_are_refused_when_they_do_not_fit() -> None:
    """§4: each double must fit its arm as the layout stands; one per arm; 2 to 4 doubles;
    only doubles; Goat lays one tile per turn."""
    rnd = doubles_round()
    with pytest.raises(IllegalMove):
        rnd.push(move("2-2@0+5-5@0"))
    with pytest.raises(IllegalMove):
        rnd.push(move("5-5@1+2-2@2"))  # 5-5 becomes the spinner: arm 2 shows 5
    with pytest.raises(IllegalMove, match="not a double"):
        rnd.push(PlayDoubles((Play(t("2-2"), 0), Play(t("1-4"), 1))))
    with pytest.raises(IllegalMove):
        rnd.push(PlayDoubles((Play(t("2-2"), 0),)))
    assert rnd.layout.ends == [2, 5, -1, -1] and rnd.turn == 1
    goat = Round(GOAT, GOAT.options({"players": 2}), rnd.deal, 0, rnd.deal.masks[0])
    run(goat, "0:2-5")
    with pytest.raises(IllegalMove, match="one tile per turn"):
        goat.push(move("2-2@0+5-5@1"))


# Seat 0 leads 2-2 (1-1 is in the bazaar): it is the spinner. Seat 1 lays 4-4 and 0-0 at once;
# seat 0 goes out laying 3-3 and 6-6 (closing arm 1) in one turn.
DONKEY_OUT_DEAL = (
    "1-6 1-2 2-2 0-5 0-1 6-6 3-3",
    "4-4 0-0 1-4 2-5 3-4 2-3 0-2",
)
DONKEY_OUT_BAZAAR = "3-6 4-5 0-3 4-6 1-1 2-6 0-4 2-4 1-5 1-3 5-5 5-6 0-6 3-5"
DONKEY_OUT_SCRIPT = """
    0:2-2   1:2-5@3 0:1-2@1 1:0-2@2 0:0-1@2 1:1-4@2
    0:0-5@3 1:4-4@2+0-0@3
    0:1-6@1 1:2-3@0 0:3-3@0+6-6@1!
"""


def test_donkey_round_out_on_two_doubles_laid_at_once() -> None:
    """§4: the lowest double from 1-1 leads (here 2-2) and is the spinner; two doubles laid in
    one turn; the turn is judged as a whole: laying the last two tiles at once is out."""
    m = Match(DONKEY, DONKEY.options({"players": 2}))
    m.next_round(make_deal(*DONKEY_OUT_DEAL, bazaar=DONKEY_OUT_BAZAAR))
    assert legal(m) == {"2-2"}
    run(m, DONKEY_OUT_SCRIPT)
    rnd = m.round
    assert rnd.end is not None and (rnd.end.kind, rnd.end.seat) == ("out", 0)
    assert rnd.layout.spinner == t("2-2")
    assert rnd.layout.ends == [3, 6, 4, 0]
    assert rnd.layout.closed == [False, True, False, False]
    assert rnd.counts() == [0, 7]  # seat 1 keeps 3-4
    assert shown(m.sheet) == "0 +7"


@pytest.mark.parametrize("ignores", [False, True])
def test_donkey_fish_when_every_arm_is_closed(ignores: bool) -> None:
    """§4: a layout with every arm closed is a fish, although tiles fitting the ends are still
    in hands; the player who closed the last arm is the fisherman; own_to_loser charges the
    highest count only."""
    m = Match(DONKEY, DONKEY.options({"fish_ignores_double": ignores}))
    m.next_round(make_deal(*CLOSED_HANDS))
    run(m, CLOSED_SCRIPT)
    rnd = m.round
    assert rnd.layout.ends == [0, 2, 3, 4] and rnd.layout.closed == [True] * 4
    assert rnd.end is not None and (rnd.end.kind, rnd.end.seat) == ("fish", 0)
    assert rnd.counts() == [28, 26, 37, 44]
    assert m.results[-1].charged == [0, 0, 0, 44]
    assert shown(m.sheet) == "0 0 0 44"


# --- §12 rating -------------------------------------------------------------------------


def test_rating_example_25_gains_8() -> None:
    """§12: every non-loser gains round_half_up((100 - account) / 10), at least 1: 25 → 7.5 → 8;
    the loser gains nothing; the base is 100 whatever loss_limit is (110 under Goat-125 → 1)."""
    assert round_half_away(75, 10) == 8
    assert rating_after_game([25, 104, 99, 95, 0], [1]) == [8, 0, 1, 1, 10]
    assert rating_after_game([110, 130], [1]) == [1, 0]


def test_rating_timeout_example() -> None:
    """§12 timeout example: Alex timed out with 32; Masha with 30 gains max(1, round(0.2)) = 1,
    Olya with 13 gains round(1.9) = 2; Alex gains nothing."""
    assert rating_after_timeout([30, 32, 13], 1) == [1, 0, 2]


def test_rounding_is_half_away_from_zero() -> None:
    """§1 rounding: 7.5 → 8, 0.2 → 0, 1.9 → 2, 0.5 → 1, 2.5 → 3 (never banker's rounding)."""
    assert [round_half_away(n, 10) for n in (75, 2, 19, 5, 25, -15)] == [8, 0, 2, 1, 3, -2]


def test_timeout_in_a_real_match() -> None:
    """§12 / docs/record.md#record-end: a timeout interrupts the round unscored and ends the game;
    the one who timed out gains nothing, everyone else round_half_up((his account - theirs) / 10),
    at least 1; only the seat to move can time out."""
    m = goat_match()
    m.next_round(make_deal(*OUT_HANDS))
    run(m, OUT_SCRIPT)
    assert shown(m.sheet) == "+8 0 +10 17"
    deal, _ = fish_round(
        1, ("0-0 0-1 0-3 3-3", "0-4 0-5 1-3 4-4", "1-5 1-6 3-4 5-5", "3-6 4-5 4-6 5-6 6-6")
    )
    m.next_round(deal)
    run(m, "1:1-1 2:1-2@1")
    with pytest.raises(IllegalMove):
        m.timeout(0)
    m.timeout(3)
    last = m.results[-1]
    assert (last.end.kind, last.end.seat) == ("timeout", 3)
    assert last.charged == [0, 0, 0, 0] and last.after == last.before and last.eggs == 0
    assert m.result is not None
    assert m.result.losers == [] and m.result.timeout == 3
    assert m.result.accounts == [0, 0, 0, 17]
    assert m.result.rating == [2, 2, 2, 0]  # (17 - 0) / 10 = 1.7 → 2
    assert replay_layout(record_of(m, ["masha", "alex", "olya", "serg"])).result == m.result

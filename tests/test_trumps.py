"""Trumps (docs/rules.md#trumps-game): every rule, scripted hands, random-game properties, views,
records."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kozel.core import TILE_NAMES, IllegalMove, InvalidOption, parse_tile
from kozel.engine.errors import RecordError
from kozel.games import ALL_GAMES, get_game, replay_game
from kozel.simulate import play_match
from kozel.trumps.bots import HandSampler, make_trumps_bot, voids
from kozel.trumps.game import TRUMPS
from kozel.trumps.hand import TrumpsHand
from kozel.trumps.match import TrumpsMatch, TrumpsOptions
from kozel.trumps.moves import PASS, Bid, Lay, NameTrumps, move_from_dict
from kozel.trumps.tiles import (
    COUNT,
    HAND_POINTS,
    TRUMP_SUIT,
    follows,
    led_suit,
    playable,
    trick_points,
    trick_winner,
)
from kozel.trumps.views import trumps_view


def t(name: str) -> int:
    return parse_tile(name)


def ts(names: str) -> list[int]:
    return [t(n) for n in names.split()]


def opts(target: int = 250) -> TrumpsOptions:
    o = TRUMPS.options({"target": target})
    assert isinstance(o, TrumpsOptions)
    return o


# A deal: seat 0 holds every 6, so with sixes trumps it takes every trick.
SIXES = [
    ts("0-6 1-6 2-6 3-6 4-6 5-6 6-6"),
    ts("0-0 0-1 0-2 0-3 0-4 0-5 1-1"),
    ts("1-2 1-3 1-4 1-5 2-2 2-3 2-4"),
    ts("2-5 3-3 3-4 3-5 4-4 4-5 5-5"),
]


def bid_round(hand: TrumpsHand, moves: list[Any]) -> None:
    for m in moves:
        hand.push(m)


# --- tiles: suits, ranks, counters --------------------------------------------------------


def test_the_example_of_section_11_on_2_5_lay_a_5_not_2_4() -> None:
    assert led_suit(t("2-5"), trumps=0) == 5
    assert follows(t("3-5"), 5, trumps=0)
    assert not follows(t("2-4"), 5, trumps=0)
    assert playable(ts("2-4 3-5 6-6"), 5, trumps=0) == [t("3-5")]


def test_a_tile_holding_the_trump_number_is_a_trump_only() -> None:
    assert led_suit(t("2-5"), trumps=2) == TRUMP_SUIT
    assert follows(t("2-5"), TRUMP_SUIT, trumps=2)
    assert not follows(t("2-5"), 5, trumps=2)  # it holds a 5 but it is a trump
    assert playable(ts("2-5 1-1"), 5, trumps=2) == ts("2-5 1-1")  # void in 5s: any tile


def test_trumps_follow_trumps_and_a_void_player_may_trump_or_not() -> None:
    assert playable(ts("0-3 3-3 1-2"), TRUMP_SUIT, trumps=3) == ts("0-3 3-3")
    assert playable(ts("1-2 4-4"), TRUMP_SUIT, trumps=3) == ts("1-2 4-4")
    assert playable(ts("3-3 1-2"), 6, trumps=3) == ts("3-3 1-2")


def test_within_a_suit_the_double_is_highest_then_the_lower_half() -> None:
    """§13.6: within a suit the double is highest, then the lower half decides; 5-6 belongs to
    the sixes, so it neither follows nor wins a trick led with a 5."""
    assert trick_winner(ts("4-5 5-5 0-5 5-6"), trumps=1) == 1
    assert trick_winner(ts("0-5 2-5 5-6 4-5"), trumps=1) == 3
    assert trick_winner(ts("2-4 0-4 1-4 3-4"), trumps=6) == 3


def test_a_tile_belongs_to_the_suit_of_its_higher_half_only() -> None:
    """§13.6 (000: "on 5-2 lay 5-3, not 2-4"): 6-5 is a six, never a five; a led non-trump
    calls its higher half, and a player must follow with a tile of that higher half."""
    assert not follows(t("5-6"), 5, trumps=0) and follows(t("5-6"), 6, trumps=0)
    assert playable(ts("5-6 2-4 1-3"), 5, trumps=0) == ts("5-6 2-4 1-3")  # no five: any
    assert playable(ts("5-6 3-5 1-3"), 5, trumps=0) == ts("3-5")
    assert led_suit(t("5-6"), trumps=0) == 6


def test_the_highest_trump_wins_else_the_highest_of_the_led_suit() -> None:
    assert trick_winner(ts("5-6 0-1 0-2 6-6"), trumps=0) == 2  # 0-1 trumps, 0-2 higher
    assert trick_winner(ts("5-6 6-6 0-0 1-1"), trumps=0) == 2  # the trump double
    assert trick_winner(ts("3-4 6-6 1-1 2-2"), trumps=5) == 0  # off-suit tiles never win
    assert trick_winner(ts("0-0 0-6 6-6 0-1"), trumps=0) == 0


def test_the_counters_are_35_and_a_hand_is_42() -> None:
    assert {TILE_NAMES[x]: c for x, c in enumerate(COUNT) if c} == {
        "0-5": 5,
        "1-4": 5,
        "2-3": 5,
        "4-6": 10,
        "5-5": 10,
    }
    assert sum(COUNT) + 7 == HAND_POINTS == 42
    assert trick_points(ts("5-5 4-6 0-1 2-3")) == 26


# --- bidding -------------------------------------------------------------------------------


def test_bidding_starts_left_of_the_dealer_and_goes_round_once() -> None:
    hand = TrumpsHand(3, SIXES)
    assert hand.turn == 0 and hand.phase == "bid"
    assert hand.legal_moves() == [PASS] + [Bid(n) for n in range(30, 43)]
    bid_round(hand, [Bid(31), PASS, Bid(35)])
    assert hand.turn == 3 and Bid(35) not in hand.legal_moves()
    with pytest.raises(IllegalMove, match="higher than 35"):
        hand.push(Bid(33))
    with pytest.raises(IllegalMove, match="30–42"):
        hand.push(Bid(43))
    hand.push(PASS)
    assert hand.phase == "naming" and hand.turn == 2 and hand.bidder == 2 and hand.bid == 35


def test_the_dealer_may_not_pass_when_the_other_three_passed() -> None:
    hand = TrumpsHand(1, SIXES)
    bid_round(hand, [PASS, PASS, PASS])
    assert hand.turn == 1 and PASS not in hand.legal_moves()
    with pytest.raises(IllegalMove, match="may not pass"):
        hand.push(PASS)
    hand.push(Bid(30))
    assert hand.bidder == 1


def test_after_a_bid_of_42_the_others_can_only_pass() -> None:
    hand = TrumpsHand(3, SIXES)
    hand.push(Bid(42))
    assert hand.legal_moves() == [PASS]


def test_the_bidder_names_trumps_0_to_6_and_leads() -> None:
    hand = TrumpsHand(3, SIXES)
    bid_round(hand, [PASS, Bid(30), PASS, PASS])
    assert hand.legal_moves() == [NameTrumps(v) for v in range(7)]
    with pytest.raises(IllegalMove, match="must name trumps"):
        hand.push(Lay(t("0-0")))
    with pytest.raises(IllegalMove, match="0–6"):
        hand.push(NameTrumps(7))
    hand.push(NameTrumps(0))
    assert hand.phase == "play" and hand.turn == 1 and hand.trumps == 0


def test_a_player_must_follow_suit_when_he_can() -> None:
    hand = TrumpsHand(3, SIXES)
    bid_round(hand, [PASS, PASS, Bid(30), PASS, NameTrumps(1)])
    hand.push(Lay(t("2-4")))  # seat 2 leads a 4
    with pytest.raises(IllegalMove, match="does not follow suit"):
        hand.push(Lay(t("5-5")))  # seat 3 holds 3-4, 4-4, 4-5
    hand.push(Lay(t("3-4")))
    # seat 0 holds no tile whose higher half is 4 (4-6 is a six, §13.6): any tile
    assert {m.tile for m in hand.legal_moves() if isinstance(m, Lay)} == set(SIXES[0])
    with pytest.raises(IllegalMove, match="does not hold"):
        hand.push(Lay(t("3-4")))


# --- scripted hands --------------------------------------------------------------------------


def first_legal(hand: TrumpsHand) -> None:
    while not hand.over:
        hand.push(hand.legal_moves()[0])


def test_a_bid_made_each_pair_records_what_it_took() -> None:
    match = TrumpsMatch(opts(), seed=None)
    match.start_hand(SIXES)
    for m in [Bid(42), PASS, PASS, PASS, NameTrumps(6)]:
        match.push(m)
    while not match.over and match.hand is not None and not match.hand.over:
        match.push(match.legal_moves()[-1])  # seat 0 leads its highest sixes
    hand = match.hand
    assert hand is not None and hand.made
    assert hand.taken == [42, 0] and hand.tricks_won == [7, 0]
    assert match.sheets[0] == [
        {"before": 0, "taken": 42, "credited": 42, "after": 42},
        {"before": 0, "taken": 0, "credited": 0, "after": 0},
    ]


def test_a_bid_set_gives_the_opponents_their_points_plus_the_bid() -> None:
    match = TrumpsMatch(opts(), seed=None)
    match.start_hand(SIXES)
    for m in [PASS, Bid(36), PASS, PASS, NameTrumps(6)]:
        match.push(m)
    while match.hand is not None and not match.hand.over:
        match.push(match.legal_moves()[0])
    hand = match.hand
    assert hand is not None and not hand.made
    assert sum(hand.taken) == 42 and hand.taken[1] < 36
    assert match.sheets[0][1] == {"before": 0, "taken": hand.taken[1], "credited": 0, "after": 0}
    credited = hand.taken[0] + 36
    assert match.sheets[0][0] == {
        "before": 0,
        "taken": hand.taken[0],
        "credited": credited,
        "after": credited,
    }
    assert match.scores == [credited, 0]


def test_a_void_player_trumps_and_wins_the_trick() -> None:
    hand = TrumpsHand(3, SIXES)
    bid_round(hand, [Bid(30), PASS, PASS, PASS, NameTrumps(1)])
    hand.push(Lay(t("5-6")))  # seat 0 leads a 6
    assert len(hand.legal_moves()) == 7  # seat 1 has no 6: trumping is optional
    hand.push(Lay(t("1-1")))  # seat 1 trumps with the trump double
    hand.push(Lay(t("2-3")))  # seat 2 has no 6 either: a counter thrown off
    hand.push(Lay(t("4-4")))
    assert hand.tricks[-1] == {
        "leader": 0,
        "winner": 1,
        "points": 6,
        "tiles": ts("5-6 1-1 2-3 4-4"),
    }
    assert hand.turn == 1 and hand.taken == [0, 6]


def test_a_set_bid_puts_the_opponents_over_the_target_and_ends_the_game() -> None:
    match = TrumpsMatch(opts(), seed=None)
    match.scores = [240, 249]
    match.start_hand(SIXES)
    for m in [PASS, Bid(36), PASS, PASS, NameTrumps(6)]:
        match.push(m)
    first_legal_match(match)
    hand = match.hand
    assert hand is not None and not hand.made
    assert match.scores == [240 + hand.taken[0] + 36, 249] and match.over
    assert match.result is not None and match.result.units == [0]
    assert match.result.rating == [5, 0, 5, 0]


@pytest.mark.parametrize(("after", "winner"), [((250, 260), 1), ((255, 255), 0), ((261, 250), 0)])
def test_both_over_the_higher_wins_and_equal_scores_go_to_the_bidding_pair(
    after: tuple[int, int], winner: int
) -> None:
    # seat 0 bids 30 and names 2s: pair 0 makes it, each pair records what it took
    match = TrumpsMatch(opts(), seed=None)
    match.start_hand(SIXES)
    for m in [Bid(30), PASS, PASS, PASS, NameTrumps(2)]:
        match.push(m)
    probe = match.copy()
    first_legal_match(probe)
    taken = probe.hands[-1].taken
    assert probe.hands[-1].made and taken == [40, 2]
    match.scores = [after[0] - 40, after[1] - 2]
    first_legal_match(match)
    assert match.scores == list(after)
    assert match.result is not None and match.result.units == [winner]


def first_legal_match(match: TrumpsMatch) -> None:
    while match.hand is not None and not match.hand.over:
        match.push(match.legal_moves()[0])


def test_the_deal_moves_clockwise_from_seat_3_and_all_28_tiles_are_dealt() -> None:
    match = TrumpsMatch(opts(), seed=4)
    dealers = []
    for _ in range(5):
        deal = match.deal_next()
        assert deal["bazaar"] == [] and sorted(n for h in deal["hands"] for n in h) == sorted(
            TILE_NAMES
        )
        dealers.append(match.hand.dealer if match.hand else -1)
        first_legal_match(match)
    assert dealers == [3, 0, 1, 2, 3]


def test_the_target_option_has_bounds() -> None:
    assert TRUMPS.options().target == 250  # type: ignore[attr-defined]
    with pytest.raises(InvalidOption):
        TRUMPS.options({"target": 1001})
    with pytest.raises(InvalidOption):
        TRUMPS.options({"players": 3})
    assert TRUMPS.rated_problem(opts(50)) and not TRUMPS.rated_problem(opts())
    assert get_game("trumps") is TRUMPS and ALL_GAMES["trumps"].table == "tricks"


# --- random games ----------------------------------------------------------------------------


def random_game(seed: int, levels: tuple[str, ...] = ("random",) * 4, target: int = 250) -> Any:
    bots = [make_trumps_bot(level, seed * 4 + s) for s, level in enumerate(levels)]
    return play_match(TRUMPS, opts(target), bots, seed)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6))
def test_random_games_end_hands_sum_to_42_and_records_replay(seed: int) -> None:
    match = random_game(seed)
    assert match.over and match.result is not None
    for hand, sheet in zip(match.hands, match.sheets, strict=True):
        assert sum(hand.taken) == 42 and len(hand.tricks) == 7
        side = hand.bidder % 2
        credited = [e["credited"] for e in sheet]
        if hand.made:
            assert credited == hand.taken
        else:
            assert credited[side] == 0 and credited[1 - side] == hand.taken[1 - side] + hand.bid
    assert max(match.scores) >= 250
    record = json.loads(json.dumps(match.record(["a", "b", "c", "d"])))
    again = replay_game(record)
    assert again.record(["a", "b", "c", "d"]) == record


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 10**6))
def test_a_view_never_shows_another_players_tiles(seed: int) -> None:
    match = TrumpsMatch(opts(60), seed)
    rng = random.Random(seed)
    while not match.over:
        if match.needs_deal:
            match.deal_next()
        hand = match.hand
        assert hand is not None
        for seat in (0, 1, 2, 3, None):
            data = json.dumps(trumps_view(match, seat).to_dict())
            shown = set(json.loads(data)["hand"])
            for other in range(4):
                if other != seat:
                    assert not shown & {TILE_NAMES[x] for x in hand.hands[other]}
            public = {TILE_NAMES[x] for tr in hand.tricks for x in tr["tiles"]}
            public |= {TILE_NAMES[x] for _, x in hand.trick}
            for other in range(4):
                if other == seat:
                    continue
                for name in (TILE_NAMES[x] for x in hand.hands[other]):
                    assert f'"{name}"' not in data or name in public
        match.push(rng.choice(match.legal_moves()))


def test_a_view_shows_the_bids_trumps_trick_and_tricks_taken() -> None:
    match = TrumpsMatch(opts(), seed=None)
    match.start_hand(SIXES)
    for m in [Bid(30), PASS, PASS, PASS, NameTrumps(1), Lay(t("5-6")), Lay(t("1-1"))]:
        match.push(m)
    view = trumps_view(match, 2).to_dict()
    assert view["hand"] == [TILE_NAMES[x] for x in SIXES[2]]
    assert view["bids"][0] == {"seat": 0, "bid": 30} and view["bids"][1]["bid"] is None
    assert view["trumps"] == 1 and view["bidder"] == 0 and view["bid"] == 30
    assert view["trick"] == [{"seat": 0, "tile": "5-6"}, {"seat": 1, "tile": "1-1"}]
    assert view["legal_moves"] and view["turn"] == 2
    match.push(Lay(t("2-3")))
    match.push(Lay(t("4-4")))
    view = trumps_view(match, None).to_dict()
    assert view["hand"] == [] and view["tricks_won"] == [0, 1] and view["taken"] == [0, 6]


# --- bots ------------------------------------------------------------------------------------


def test_bots_play_whole_games_and_the_expert_respects_what_it_saw() -> None:
    match = random_game(3, ("expert", "greedy", "random", "greedy"), target=60)
    assert match.over
    with pytest.raises(
        InvalidOption, match="bots: beginner, amateur, strong, expert, random, greedy"
    ):
        make_trumps_bot("perfect")


def test_sampled_hands_respect_voids() -> None:
    match = TrumpsMatch(opts(), seed=None)
    match.start_hand(SIXES)
    for m in [Bid(30), PASS, PASS, PASS, NameTrumps(1), Lay(t("5-6")), Lay(t("1-1"))]:
        match.push(m)
    view = trumps_view(match, 2)
    assert voids(view)[1] == {6}
    rng = random.Random(1)
    sampler = HandSampler(view)
    for _ in range(20):
        hands = sampler.sample(rng)
        assert hands is not None and [len(h) for h in hands] == [6, 6, 7, 7]
        assert not any(follows(x, 6, 1) for x in hands[1])
        assert sorted([x for h in hands for x in h] + ts("5-6 1-1")) == list(range(28))


def test_greedy_does_not_overtake_its_partners_winning_trick() -> None:
    bot = make_trumps_bot("greedy")
    match = TrumpsMatch(opts(), seed=None)
    match.start_hand(SIXES)
    for m in [Bid(30), PASS, PASS, PASS, NameTrumps(0), Lay(t("6-6")), Lay(t("0-0"))]:
        match.push(m)
    # seat 2 has no 6 and no trump: any tile; its partner (seat 0) is beaten by 0-0
    move = bot.choose(trumps_view(match, 2))
    assert isinstance(move, Lay) and not COUNT[move.tile]


# --- records and replay ----------------------------------------------------------------------


def a_record() -> dict[str, Any]:
    match = random_game(11, ("greedy",) * 4, target=60)
    return json.loads(json.dumps(match.record(["a", "b", "c", "d"])))


def test_the_record_is_exactly_records_trumps_item() -> None:
    record = a_record()
    assert record["game"] == "trumps" and record["options"] == {"target": 60}
    hand = record["rounds"][0]
    assert set(hand) == {"dealer", "deal", "moves", "tricks", "end", "sheet"}
    assert hand["dealer"] == 3 and hand["deal"]["bazaar"] == []
    assert all("bid" in m or "pass" in m for m in hand["moves"][:4])
    assert set(hand["moves"][4]) == {"seat", "trumps"} and len(hand["moves"]) == 33
    assert all(set(m) == {"seat", "play"} for m in hand["moves"][5:])
    assert [set(x) for x in hand["tricks"]] == [{"leader", "winner", "points"}] * 7
    assert set(hand["end"]) == {"kind", "bidder", "bid", "made"}
    assert [set(e) for e in hand["sheet"]] == [{"before", "taken", "credited", "after"}] * 2
    assert set(record["result"]) == {"winners", "scores", "rating"}
    assert move_from_dict({"trumps": 3}) == NameTrumps(3)


def _tamper(change: Any) -> str:
    record = a_record()
    change(record)
    with pytest.raises(RecordError) as err:
        replay_game(record)
    return str(err.value)


def _swap_to_illegal_play(record: dict[str, Any]) -> None:
    hand = record["rounds"][0]
    match = TrumpsMatch(opts(60))
    match.apply_deal(hand["deal"])
    for i, raw in enumerate(hand["moves"]):
        if "play" in raw and match.hand is not None and match.hand.trick:
            legal = {TILE_NAMES[m.tile] for m in match.legal_moves() if isinstance(m, Lay)}
            others = [x for x in match.hand.hands[raw["seat"]] if TILE_NAMES[x] not in legal]
            if others:
                raw["play"] = TILE_NAMES[others[0]]
                return
        match.push(match.read_move(raw))
        del i
    raise AssertionError("no illegal play found")


def test_replay_rejects_bad_records_with_clear_messages() -> None:
    def low_bid(r: dict[str, Any]) -> None:
        moves = r["rounds"][0]["moves"]
        moves[:4] = [{"seat": s, "pass": True} for s in (0, 1, 2, 3)]

    assert "may not pass" in _tamper(low_bid)
    assert "does not follow suit" in _tamper(_swap_to_illegal_play)

    def trumps_8(r: dict[str, Any]) -> None:
        r["rounds"][0]["moves"][4]["trumps"] = 8

    assert "hand 1, move 5: trumps must be a number 0–6" in _tamper(trumps_8)

    def winner(r: dict[str, Any]) -> None:
        r["rounds"][0]["tricks"][0]["winner"] = (r["rounds"][0]["tricks"][0]["winner"] + 1) % 4

    assert "hand 1: tricks is" in _tamper(winner)

    def made(r: dict[str, Any]) -> None:
        r["rounds"][0]["end"]["made"] = not r["rounds"][0]["end"]["made"]

    assert "hand 1: end is" in _tamper(made)

    def sheet(r: dict[str, Any]) -> None:
        r["rounds"][0]["sheet"][0]["credited"] += 1

    assert "hand 1: sheet is" in _tamper(sheet)

    def result(r: dict[str, Any]) -> None:
        r["result"]["winners"] = [1 - r["result"]["winners"][0]]

    assert "result: winners is" in _tamper(result)

    def dealer(r: dict[str, Any]) -> None:
        r["rounds"][0]["dealer"] = 0

    assert "hand 1: dealer is 0 in the record; the rules give 3" in _tamper(dealer)

    def seat(r: dict[str, Any]) -> None:
        r["rounds"][0]["moves"][0]["seat"] = 2

    assert "hand 1, move 1: seat 2 moves but seat 0 is to move" in _tamper(seat)


def test_a_timeout_ends_the_game_and_replays() -> None:
    match = TrumpsMatch(opts(), seed=2)
    match.deal_next()
    match.push(match.legal_moves()[0])
    match.timeout(1)
    assert match.result is not None and match.result.rating == [1, 0, 1, 1]
    record = json.loads(json.dumps(match.record(["a", "b", "c", "d"])))
    assert record["rounds"][0]["end"] == {"kind": "timeout", "seat": 1}
    assert replay_game(record).result == match.result


def test_the_expert_bids_high_on_a_hand_of_sixes_names_them_and_passes_weak_hands() -> None:
    from kozel.trumps.bots import ExpertTrumpsBot

    bot = ExpertTrumpsBot(seed=1, samples=8)
    match = TrumpsMatch(opts(), seed=None)
    match.start_hand(SIXES)
    move = bot.choose(trumps_view(match, 0))
    assert isinstance(move, Bid) and move.amount >= 40
    match.push(move)
    assert bot.choose(trumps_view(match, 1)) == PASS
    for m in [PASS, PASS, PASS]:
        match.push(m)
    assert bot.choose(trumps_view(match, 0)) == NameTrumps(6)


def test_a_view_rebuilt_from_its_json_is_the_same_view() -> None:
    """What a client receives is enough for a Kozel bot to play for it (examples/bot_client.py):
    every seat's view, at every step of random games, comes back whole from its JSON."""
    for seed in range(4):
        match = TRUMPS.new_match(TRUMPS.options({"target": 60}), seed)
        pick = random.Random(seed)
        while not match.over:
            if match.needs_deal:
                match.deal_next()
                continue
            for seat in [0, 1, 2, 3, None]:
                view = match.view(seat)
                data = json.loads(json.dumps(view.to_dict()))
                assert TRUMPS.view_from_dict(data) == view
            match.push(pick.choice(match.legal_moves()))

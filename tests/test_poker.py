"""Domino Poker (docs/rules.md#poker-game, docs/rules.md#poker-decisions): the ranking, a hand's
betting, pots and draw, the session, views, records and their replay, bots."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Sequence
from itertools import combinations, pairwise
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kozel.core import TILE_NAMES, parse_tile
from kozel.engine.errors import RecordError
from kozel.games import ALL_GAMES, get_game, replay_game
from kozel.poker.bots import expected_after_draw, hand_strength, make_poker_bot
from kozel.poker.game import POKER
from kozel.poker.hand import PokerHand
from kozel.poker.match import PokerMatch, PokerOptions
from kozel.poker.moves import CHECK, FOLD, Bet, Call, Discard, Raise, move_from_dict
from kozel.poker.ranking import CATEGORIES, POKER_TILES, all_hands, category, compare, strength
from kozel.poker.views import poker_view
from kozel.simulate import play_match


def tiles(text: str) -> list[int]:
    return [parse_tile(t) for t in text.split()]


def names(hand: Sequence[int]) -> str:
    return " ".join(TILE_NAMES[t] for t in sorted(hand))


def options(**raw: Any) -> PokerOptions:
    opts = POKER.options(raw)
    assert isinstance(opts, PokerOptions)
    return opts


def no_shuffle(pool: list[int]) -> None:
    """The earlier discards in the order they were thrown in (tests that need no chance)."""


# --- the ranking --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        ("1-2 1-4 2-5 3-6 4-5", "none"),
        ("2-2 3-3 1-2 1-4 5-6", "pair"),
        ("1-2 1-3 1-4 1-6 2-3", "none"),  # four sharing 1, others 2 3 4 6: no run of four
        ("1-3 2-3 3-4 3-6 3-3", "four_straight"),  # 1 2 3 4 (3-3 counts 3) beat the flush
        ("1-3 2-3 3-4 3-5 3-6", "flush"),  # sharing 3; 1 2 4 5 6 has no run of four
        ("1-2 1-3 1-5 1-6 1-4", "five_straight"),  # 2 3 4 5 6 sharing 1
        ("2-4 3-4 4-5 4-4 1-4", "five_straight"),
        ("2-4 3-4 4-6 4-4 1-4", "four_straight"),  # 1 2 3 4 and 6
        ("2-2 4-4 6-6 1-2 3-5", "three"),
        ("3-4 4-4 4-5 4-6 1-2", "four_straight"),  # the rulebook's example
        ("1-6 2-6 3-6 4-6 1-2", "four_straight"),  # 1 2 3 4 sharing 6, no double needed
        ("2-2 3-3 5-5 1-4 4-6", "full_hand"),  # the two others share 4
        ("1-3 2-3 3-3 3-4 3-5", "five_straight"),  # the rulebook's example
        ("2-2 3-3 4-4 5-5 1-2", "four_of_a_kind"),
        ("2-6 3-6 4-6 5-6 6-6", "six_straight"),
        ("1-6 2-6 3-6 4-6 5-6", "five_straight"),  # without 6-6: not the Six straight
        ("2-2 3-3 4-4 5-5 6-6", "royal_flush"),
    ],
)
def test_every_category(hand: str, expected: str) -> None:
    assert CATEGORIES[category(tiles(hand))] == expected


def test_equal_categories_compare_by_pips_and_equal_pips_split() -> None:
    low, high = tiles("2-2 3-3 1-2 1-4 5-6"), tiles("2-2 3-3 1-2 1-4 4-6")
    assert strength(low)[0] == strength(high)[0] == 1
    assert compare(low, high) == 1 and compare(high, low) == -1  # 31 pips beat 30
    a, b = tiles("1-2 1-4 2-5 3-6 4-5"), tiles("1-3 1-5 3-4 3-5 2-6")
    assert strength(a) == strength(b) == (0, 33) and compare(a, b) == 0
    assert compare(tiles("2-2 3-3 1-2 1-3 1-4"), tiles("1-6 2-6 3-5 4-6 5-6")) == 1


HALVES = {t: tuple(int(x) for x in TILE_NAMES[t].split("-")) for t in POKER_TILES}


def _independent_category(hand: tuple[int, ...]) -> str:
    """The category by another method: each hand against the list of every pattern."""
    halves = [HALVES[t] for t in hand]
    held = set(halves)
    doubles = sum(a == b for a, b in halves)
    runs = RUNS
    found = {
        "royal_flush": doubles == 5,
        "six_straight": held == {(v, 6) for v in range(2, 7)},
        "four_of_a_kind": doubles == 4,
        "five_straight": any(p <= held for p in runs[5]),
        "full_hand": doubles == 3 and len({v for a, b in halves if a != b for v in (a, b)}) == 3,
        "four_straight": any(p <= held for p in runs[4]),
        "three": doubles == 3,
        "flush": any(all(v in pair for pair in halves) for v in range(1, 7)),
        "pair": doubles == 2,
    }
    return next((name for name in reversed(CATEGORIES) if found.get(name)), "none")


SET_20 = {(a, b) for a in range(1, 7) for b in range(a, 7)} - {(1, 1)}


def _runs() -> dict[int, list[frozenset[tuple[int, ...]]]]:
    """Every set of 4 or 5 tiles of the 20 that share a number with consecutive others."""
    runs: dict[int, list[frozenset[tuple[int, ...]]]] = {4: [], 5: []}
    for shared in range(1, 7):
        for length in (4, 5):
            for start in range(1, 8 - length):
                pattern = {tuple(sorted((shared, v))) for v in range(start, start + length)}
                if pattern <= SET_20:
                    runs[length].append(frozenset(pattern))
    return runs


RUNS = _runs()


def test_every_hand_of_the_twenty_tiles() -> None:
    """All 15,504 hands: the categories agree with an independent classification (and the
    counts), and the order is total and consistent with the categories then the pips."""
    assert len(POKER_TILES) == 20 and len(SET_20) == 20
    hands = all_hands()
    assert len(hands) == 15_504
    engine = Counter(CATEGORIES[category(h)] for h in hands)
    independent = Counter(_independent_category(h) for h in hands)
    assert engine == independent
    assert engine == {
        "none": 9601,
        "pair": 4506,
        "flush": 10,
        "three": 450,
        "four_straight": 250,
        "full_hand": 600,
        "five_straight": 10,
        "four_of_a_kind": 75,
        "six_straight": 1,
        "royal_flush": 1,
    }
    ordered = sorted(hands, key=strength)
    keys = [strength(h) for h in ordered]
    assert all(a <= b for a, b in pairwise(keys))
    shares = [hand_strength(h) for h in ordered]
    assert all(a <= b for a, b in pairwise(shares))
    rng = random.Random(5)
    for _ in range(2000):
        x, y, z = (rng.choice(hands) for _ in range(3))
        assert compare(x, y) == -compare(y, x)
        if compare(x, y) >= 0 and compare(y, z) >= 0:
            assert compare(x, z) >= 0


# --- a hand: betting, pots, the draw ------------------------------------------------------


def deal_of(*hands: str) -> tuple[list[list[int]], list[int]]:
    dealt = [tiles(h) if h else [] for h in hands]
    used = {t for h in dealt for t in h}
    return dealt, [t for t in POKER_TILES if t not in used]


def play(hand: PokerHand, *moves: Any) -> None:
    for move in moves:
        hand.push(move, no_shuffle)


def test_side_pots_and_their_winners() -> None:
    hands, bazaar = deal_of("2-2 3-3 4-4 5-5 6-6", "1-6 2-6 3-6 4-6 1-2", "1-3 1-4 2-3 2-4 1-5")
    hand = PokerHand(3, 0, (5, 20, 30), hands, bazaar, 1, "no_limit", 2)
    assert hand.moves == [{"seat": s, "ante": 1} for s in (1, 2, 0)]
    assert hand.turn == 1
    play(hand, Bet(19))  # seat 1 all-in
    assert Raise(29) in hand.legal_moves() and hand.legal_moves()[:2] == [FOLD, Call(19)]
    play(hand, Call(19), Call(4))  # seat 0 all-in for less
    assert hand.phase == "draw" and hand.turn == 1
    play(hand, Discard(()), Discard(()), Discard(()))
    assert hand.over and hand.end_kind == "showdown"  # nobody could bet again
    assert [(p.amount, p.winners) for p in hand.pots] == [(15, (0,)), (30, (1,))]
    assert hand.stacks == [15, 30, 10]
    assert sum(hand.stacks) == 55


def test_an_odd_chip_goes_to_the_first_winner_left_of_the_dealer() -> None:
    hands, bazaar = deal_of("1-2 1-4 2-5 3-6 4-5", "1-3 1-5 3-4 3-5 2-6", "2-2 3-3 4-4 5-5 6-6")
    hand = PokerHand(3, 1, (10, 10, 10), hands, bazaar, 1, "fixed", 2)
    assert hand.turn == 2
    play(hand, Bet(2), Call(2), Raise(4))  # seat 2 bets, seat 0 calls, seat 1 raises
    play(hand, FOLD, Call(2))  # seat 2 folds; seat 0 calls
    assert hand.committed == [5, 5, 3]
    play(hand, Discard(()), Discard(()))
    play(hand, CHECK, CHECK)
    assert hand.end_kind == "showdown" and [s["seat"] for s in hand.showdown] == [0, 1]
    (pot,) = hand.pots
    assert pot.amount == 13 and pot.winners == (0, 1)
    # 13 chips, 6 each; seat 2 (left of the dealer) folded: the odd chip to seat 0
    assert hand.stacks == [5 + 7, 5 + 6, 7]
    assert hand.end_dict()["pots"] == [{"amount": 13, "winners": [0, 1]}]


def test_fixed_limit_sizes_and_three_raises() -> None:
    hands, bazaar = deal_of("1-2 1-4 2-5 3-6 4-5", "1-3 1-5 2-4 3-5 2-6")
    hand = PokerHand(2, 0, (100, 100), hands, bazaar, 1, "fixed", 2)
    assert hand.turn == 1 and hand.legal_moves() == [CHECK, Bet(2)]
    play(hand, Bet(2), Raise(4), Raise(4), Raise(4))
    assert hand.legal_moves() == [FOLD, Call(2)]  # three raises: no fourth
    play(hand, Call(2))
    play(hand, Discard(()), Discard(()))
    assert hand.phase == "bet2" and hand.legal_moves() == [CHECK, Bet(4)]
    play(hand, Bet(4))
    assert hand.legal_moves() == [FOLD, Call(4), Raise(8)]


def test_no_limit_raise_is_at_least_the_last_bet_or_raise() -> None:
    hands, bazaar = deal_of("1-2 1-4 2-5 3-6 4-5", "1-3 1-5 2-4 3-5 2-6", "2-2 3-3 1-6 2-3 4-6")
    hand = PokerHand(3, 0, (50, 50, 50), hands, bazaar, 1, "no_limit", 2)
    play(hand, Bet(5))
    raises = [m.amount for m in hand.legal_moves() if isinstance(m, Raise)]
    assert raises[0] == 10 and raises[-1] == 49  # call 5 + raise at least 5
    play(hand, Raise(12))  # raises by 7
    raises = [m.amount for m in hand.legal_moves() if isinstance(m, Raise)]
    assert raises[0] == 12 + 7
    with pytest.raises(ValueError, match=r"cannot raise 13 chips: raise 19\.\.49"):
        play(hand, Raise(13))
    with pytest.raises(ValueError, match="cannot check: 12 to call"):
        play(hand, CHECK)


def test_the_draw_takes_the_bazaar_in_order_then_the_earlier_discards() -> None:
    hands, bazaar = deal_of("1-2 1-4 2-5 3-6 4-5", "1-3 1-5 2-4 3-5 2-6", "2-2 3-3 1-6 2-3 4-6")
    hand = PokerHand(3, 2, (50, 50, 50), hands, bazaar, 1, "fixed", 2)
    play(hand, CHECK, CHECK, CHECK)
    first = bazaar[:3]
    play(hand, Discard(tuple(tiles("1-2 1-4 2-5"))))
    assert hand.moves[-1]["drew"] == [TILE_NAMES[t] for t in first]
    assert sorted(hand.hands[0]) == sorted([*tiles("3-6 4-5"), *first])
    play(hand, Discard(tuple(tiles("1-3 1-5 2-4 3-5"))))  # 2 left in the bazaar, then discards
    drawn = hand.moves[-1]["drew"]
    assert drawn[:2] == [TILE_NAMES[t] for t in bazaar[3:5]]
    assert set(drawn[2:]) <= {"1-2", "1-4", "2-5", "1-3", "1-5", "2-4", "3-5"}
    assert hand.bazaar == []


def test_four_players_draw_from_the_discards_alone() -> None:
    match = PokerMatch(options(players=4), seed=3)
    match.deal_next()
    assert match.hand is not None and match.hand.bazaar == []
    while match.hand.phase != "draw":
        match.push(CHECK if CHECK in match.legal_moves() else Call(2))
    seat = match.to_move
    assert seat is not None
    thrown = tuple(match.hand.hands[seat][:3])
    match.push(Discard(thrown))
    assert set(match.hand.hands[seat]) >= set(match.hand.hands[seat]) - set(thrown)
    assert {parse_tile(t) for t in match.hand.moves[-1]["drew"]} == set(thrown)


def test_a_player_out_of_chips_sits_out_and_the_deal_moves_to_the_next_with_chips() -> None:
    match = PokerMatch(options(players=3, chips=10), seed=1)
    match.chips = [10, 0, 20]
    data = match.deal_next()
    assert data["hands"][1] == [] and len(data["bazaar"]) == 10
    assert match.hand is not None and match.hand.dealer == 0 and match.to_move == 2
    while match.to_move is not None:
        match.push(match.legal_moves()[0])
    assert match.next_dealer() == 2


def test_the_session_ends_after_its_hands_or_with_all_the_chips() -> None:
    match = play_match(POKER, options(players=2, hands=3), [make_poker_bot("greedy", 1)] * 2, 4)
    assert match.result is not None and len(match.round_summaries()) <= 3
    assert sum(match.result.scores) == 200
    assert match.result.rating == [5 if s in match.result.units else 0 for s in range(2)]
    allin = play_match(
        POKER,
        options(players=3, hands=1000, limit="no_limit", chips=20),
        [make_poker_bot("random", s) for s in range(3)],
        9,
    )
    assert allin.result is not None and sorted(allin.result.scores) == [0, 0, 60]


def test_a_timeout_ends_the_game_and_leaves_the_hand_unscored() -> None:
    match = PokerMatch(options(), seed=2)
    match.deal_next()
    seat = match.to_move
    assert seat is not None
    match.timeout(seat)
    assert match.result is not None and match.result.timeout == seat
    assert match.result.rating == [0 if s == seat else 1 for s in range(3)]
    record = json.loads(json.dumps(match.record(["a", "b", "c"])))
    assert record["rounds"][0]["end"] == {"kind": "timeout", "seat": seat, "pots": []}
    assert replay_game(record).result == match.result


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.sampled_from([2, 3, 4]), nl=st.booleans())
def test_random_sessions_conserve_chips_and_replay(seed: int, players: int, nl: bool) -> None:
    opts = options(players=players, hands=8, limit="no_limit" if nl else "fixed", chips=30)
    bots = [make_poker_bot(("random", "greedy")[s % 2], seed + s) for s in range(players)]
    match = play_match(POKER, opts, bots, seed)
    for summary in match.round_summaries():
        assert sum(summary["chips_after"]) == sum(summary["chips_before"]) == 30 * players
        assert sum(summary["gains"]) == 0 and min(summary["chips_after"]) >= 0
        shown = {e["seat"] for e in summary["showdown"]}
        for pot in summary["end"]["pots"]:
            assert pot["amount"] > 0 and pot["winners"]
            assert summary["end"]["kind"] == "fold" or set(pot["winners"]) <= shown
    record = json.loads(json.dumps(match.record([f"bot:{b.level}" for b in bots])))
    again = replay_game(record)
    assert again.record(record["seats"]) == record


# --- views ----------------------------------------------------------------------------------


def _secrets(match: PokerMatch, seat: int | None) -> set[str]:
    """Tiles the seat must not see: the others' hands and the bazaar (until a showdown)."""
    hand = match.hand
    assert hand is not None
    hidden = {TILE_NAMES[t] for s, h in enumerate(hand.hands) if s != seat for t in h}
    hidden |= {TILE_NAMES[t] for t in hand.bazaar}
    return hidden


def _strings(data: Any) -> set[str]:
    if isinstance(data, str):
        return {data}
    if isinstance(data, dict):
        return {s for v in data.values() for s in _strings(v)}
    if isinstance(data, list):
        return {s for v in data for s in _strings(v)}
    return set()


def test_no_view_leaks_another_hand_or_the_bazaar() -> None:
    for seed in range(12):
        opts = options(players=2 + seed % 3, hands=4)
        match = PokerMatch(opts, seed)
        bots = [make_poker_bot("greedy", s) for s in range(opts.players)]
        while not match.over:
            if match.needs_deal:
                match.deal_next()
                continue
            hand = match.hand
            assert hand is not None
            for seat in [None, *range(opts.players)]:
                view = poker_view(match, seat).to_dict()
                mine = {TILE_NAMES[t] for t in hand.hands[seat]} if seat is not None else set()
                seen = _strings(
                    {k: v for k, v in view.items() if k not in ("last_showdown", "discarded")}
                )
                ownish = (
                    mine | {TILE_NAMES[t] for t in hand.own_discards[seat]}
                    if seat is not None
                    else mine
                )
                own_draws = {
                    t for e in view["history"] if e.get("seat") == seat for t in e.get("drew", [])
                }
                assert not (seen & _secrets(match, seat)) - ownish - own_draws, (seed, seat)
                assert "bazaar" not in view and "hands" not in view
            turn = match.to_move
            assert turn is not None
            match.push(bots[turn].choose(poker_view(match, turn)))
    # the showdown shows exactly the hands that reached it
    final = poker_view(match, None)
    assert all(not match.hands[-1].folded[e["seat"]] for e in final.last_showdown)


def test_another_seats_draw_shows_only_how_many() -> None:
    hands, bazaar = deal_of("1-2 1-4 2-5 3-6 4-5", "1-3 1-5 2-4 3-5 2-6")
    match = PokerMatch(options(players=2), seed=0)
    match.start_hand(hands, bazaar)
    match.push(CHECK)
    match.push(CHECK)
    match.push(Discard(tuple(tiles("1-3 1-5"))))
    other = poker_view(match, 0).to_dict()
    assert other["history"][-1] == {"seat": 1, "discarded": 2}
    assert other["discard_counts"] == [-1, 2]
    mine = poker_view(match, 1).to_dict()
    assert mine["history"][-1]["discard"] == ["1-3", "1-5"]


def test_a_seat_sees_the_category_of_its_own_hand_only() -> None:
    """The table names the player's own category as it changes with the draw; nobody sees
    another's (nor a spectator any)."""
    hands, bazaar = deal_of("1-2 1-4 2-5 3-6 4-5", "2-2 3-3 4-6 1-3 2-4")
    bazaar = tiles("5-5 6-6") + [t for t in bazaar if t not in tiles("5-5 6-6")]
    match = PokerMatch(options(players=2), seed=0)
    match.start_hand(hands, bazaar)
    assert poker_view(match, 0).to_dict()["category"] == "none"
    assert poker_view(match, 1).to_dict()["category"] == "pair"
    assert poker_view(match, None).to_dict()["category"] is None
    match.push(CHECK)
    match.push(CHECK)
    match.push(Discard(tuple(tiles("1-3 2-4"))))  # seat 1 draws 5-5 and 6-6: four doubles
    assert poker_view(match, 1).to_dict()["category"] == "four_of_a_kind"
    assert poker_view(match, 0).to_dict()["category"] == "none"
    assert CATEGORIES.index("four_of_a_kind") == category(match.hands[-1].hands[1])


# --- records --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    bots = [make_poker_bot(level, i) for i, level in enumerate(("random", "greedy", "expert"))]
    match = play_match(POKER, options(hands=6), bots, 21)
    data: dict[str, Any] = json.loads(json.dumps(match.record(["bot:random", "a", "b"])))
    return data


def test_the_record_is_recordmds_poker_item(record: dict[str, Any]) -> None:
    assert record["format"] == "kozel-record/1" and record["game"] == "poker"
    assert record["options"] == {
        "players": 3,
        "chips": 100,
        "ante": 1,
        "limit": "fixed",
        "bet": 2,
        "hands": 6,
    }
    first = record["rounds"][0]
    assert set(first) == {
        "dealer",
        "deal",
        "chips_before",
        "moves",
        "showdown",
        "end",
        "chips_after",
    }
    assert first["dealer"] == 0 and len(first["deal"]["hands"][0]) == 5
    assert len(first["deal"]["bazaar"]) == 5
    assert first["moves"][:3] == [{"seat": s, "ante": 1} for s in (1, 2, 0)]
    kinds = {k for r in record["rounds"] for m in r["moves"] for k in m if k != "seat"}
    assert kinds <= {"ante", "check", "bet", "call", "raise", "fold", "discard", "drew"}
    assert set(record["result"]) == {"winners", "chips", "rating"}
    assert replay_game(record).over


def _broken(record: dict[str, Any], change: Any) -> str:
    bad = json.loads(json.dumps(record))
    change(bad)
    with pytest.raises(RecordError) as err:
        replay_game(bad)
    return str(err.value)


def _first(record: dict[str, Any], kind: str) -> tuple[int, int]:
    for r, rnd in enumerate(record["rounds"]):
        for m, move in enumerate(rnd["moves"]):
            if kind in move and (kind != "drew" or move["drew"]):
                return r, m
    raise AssertionError(f"no {kind} in the record")


def test_replay_rejects_wrong_chips_pots_winners_and_draws(record: dict[str, Any]) -> None:
    def chips(rec: dict[str, Any]) -> None:
        rec["rounds"][0]["chips_after"][0] += 1

    assert "hand 1: chips_after is" in _broken(record, chips)

    def pots(rec: dict[str, Any]) -> None:
        rec["rounds"][0]["end"]["pots"][0]["amount"] += 1

    assert "hand 1: end is" in _broken(record, pots)

    def winners(rec: dict[str, Any]) -> None:
        rec["result"]["winners"] = [9]

    assert "result: winners is [9]" in _broken(record, winners)

    r, m = _first(record, "drew")

    def draw_order(rec: dict[str, Any]) -> None:
        move = rec["rounds"][r]["moves"][m]
        move["drew"] = [*move["drew"][1:], move["drew"][0]] if len(move["drew"]) > 1 else ["6-6"]

    message = _broken(record, draw_order)
    assert f"hand {r + 1}, move {m + 1}" in message and "draw" in message

    def showdown(rec: dict[str, Any]) -> None:
        for rnd in rec["rounds"]:
            if rnd["showdown"]:
                rnd["showdown"][0]["category"] = "royal_flush"
                return

    assert "showdown is" in _broken(record, showdown)

    def ante(rec: dict[str, Any]) -> None:
        rec["rounds"][0]["moves"][0]["ante"] = 2

    assert "hand 1, move 1: the ante is" in _broken(record, ante)

    def amount(rec: dict[str, Any]) -> None:
        for rnd in rec["rounds"]:
            for move in rnd["moves"]:
                if "bet" in move:
                    move["bet"] += 1
                    return

    assert "cannot bet" in _broken(record, amount)

    def turn(rec: dict[str, Any]) -> None:
        rec["rounds"][0]["moves"][3]["seat"] = (rec["rounds"][0]["moves"][3]["seat"] + 1) % 3

    assert "is to move" in _broken(record, turn)

    def dealer(rec: dict[str, Any]) -> None:
        rec["rounds"][1]["dealer"] = 0

    assert "hand 2: dealer is 0" in _broken(record, dealer)

    def deal(rec: dict[str, Any]) -> None:
        rec["rounds"][0]["deal"]["bazaar"][0] = rec["rounds"][0]["deal"]["hands"][0][0]

    assert "each of the 20 tiles once" in _broken(record, deal)


def test_moves_read_from_json() -> None:
    assert move_from_dict({"discard": ["4-5", "1-2"]}) == Discard(tuple(tiles("1-2 4-5")))
    with pytest.raises(ValueError, match="one of check, bet"):
        move_from_dict({"bet": 2, "call": 2})
    with pytest.raises(ValueError, match="positive number of chips"):
        move_from_dict({"raise": 0})


# --- the game in the registry, bots -----------------------------------------------------------


def test_poker_is_a_game_of_the_registry_with_bounded_options() -> None:
    assert get_game("poker") is POKER and ALL_GAMES["poker"].table == "poker"
    assert all(s.maximum is not None for s in POKER.option_specs if s.kind == "int")
    assert POKER.options_dict(POKER.options()) == {
        "players": 3,
        "chips": 100,
        "ante": 1,
        "limit": "fixed",
        "bet": 2,
        "hands": 50,
    }
    with pytest.raises(ValueError, match=r"'chips' must be an integer 1\.\.100000"):
        POKER.options({"chips": 0})
    assert POKER.rated_problem(POKER.options({"hands": 3})).startswith("a rated game needs")


def test_the_expert_draws_by_the_exact_expectation() -> None:
    hand = tiles("2-2 3-3 4-4 5-5 1-2")
    unseen = [t for t in POKER_TILES if t not in hand]
    keep_all = expected_after_draw(hand, [], unseen)
    chase = expected_after_draw(hand, tiles("1-2"), unseen)
    assert chase > keep_all  # one in 15 is 6-6: the royal flush; any other stays four doubles
    bot = make_poker_bot("expert", 1)
    match = PokerMatch(options(players=2), seed=0)
    match.start_hand(
        [hand, tiles("1-3 1-5 2-4 3-5 2-6")],
        [t for t in POKER_TILES if t not in hand + tiles("1-3 1-5 2-4 3-5 2-6")],
    )
    match.push(CHECK)
    match.push(CHECK)
    assert match.to_move == 1
    match.push(Discard(()))
    assert bot.choose(poker_view(match, 0)) == Discard(tuple(tiles("1-2")))


def test_unknown_bots_are_named() -> None:
    with pytest.raises(
        ValueError,
        match="unknown bot 'genius'; bots: beginner, amateur, strong, expert, random, greedy",
    ):
        make_poker_bot("genius")


def test_poker_is_played_at_a_poker_table() -> None:
    assert get_game("goat").table == "layout" and POKER.table == "poker"
    assert POKER.make_bot("expert", 1).level == "expert"
    assert not POKER.unrated_reason


def test_a_session_rebuilt_from_its_deals_and_moves_draws_the_same_tiles() -> None:
    """A club table stores each deal (with the seed that shuffles the hand's discards) and
    each move as a player sends it, without the tiles drawn: replaying them gives the same
    draws, even from reshuffled discards (four players: all 20 tiles are dealt)."""
    drawn = 0
    for game in range(20):
        played = PokerMatch(options(players=4, hands=3), seed=None)
        events: list[tuple[str, dict[str, Any]]] = []
        pick = random.Random(game)
        while not played.over:
            if played.needs_deal:
                events.append(("deal", played.deal_next()))
                continue
            move = pick.choice(played.legal_moves())
            played.push(move)
            events.append(("move", played.write_move(move)))
        rebuilt = PokerMatch(options(players=4, hands=3), seed=None)
        for kind, data in events:
            if kind == "deal":
                rebuilt.apply_deal(json.loads(json.dumps(data)))
            else:
                rebuilt.push(rebuilt.read_move(data))
        assert rebuilt.record(["a", "b", "c", "d"]) == played.record(["a", "b", "c", "d"])
        drawn += sum(1 for h in played.hands for m in h.moves if m.get("drew"))
    assert drawn > 0


def test_hands_of_five_only() -> None:
    with pytest.raises(ValueError, match="5 different tiles"):
        strength(tiles("2-2 3-3"))
    assert len(list(combinations(POKER_TILES, 5))) == 15_504


def test_a_game_replays_only_its_own_records(record: dict[str, Any]) -> None:
    with pytest.raises(RecordError, match="the record is of 'poker', not of 'goat'"):
        get_game("goat").replay(record)
    with pytest.raises(RecordError, match="the record is of 'goat', not of 'poker'"):
        POKER.replay({**record, "game": "goat"})
    from kozel.games import replay_layout

    with pytest.raises(RecordError, match="unknown game 'poker'; games: goat"):
        replay_layout(record)  # the layout games' reader


def test_the_same_seed_plays_the_same_session() -> None:
    def session() -> dict[str, Any]:
        bots = [make_poker_bot(level, 7 + i) for i, level in enumerate(("expert", "greedy"))]
        match = play_match(POKER, options(players=2, hands=4, limit="no_limit"), bots, 7)
        return match.record(["a", "b"])

    assert session() == session()


def test_a_view_rebuilt_from_its_json_is_the_same_view() -> None:
    """What a client receives is enough for a Kozel bot to play for it (examples/bot_client.py):
    every seat's view, at every step of random sessions, comes back whole from its JSON."""
    for seed in range(6):
        match = PokerMatch(
            options(players=2 + seed % 3, hands=3, limit=("fixed", "no_limit")[seed % 2]), seed
        )
        pick = random.Random(seed)
        while not match.over:
            if match.needs_deal:
                match.deal_next()
                continue
            for seat in [*range(match.opts.players), None]:
                view = poker_view(match, seat)
                data = json.loads(json.dumps(view.to_dict()))
                assert POKER.view_from_dict(data) == view
            match.push(pick.choice(match.legal_moves()))

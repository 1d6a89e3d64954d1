"""What a view carries so that no client works a rule out (docs/protocol.md, the view of each
table): each laid tile's outer half, each seat's scoring unit, Trumps' led suit and each Poker
pot's take per winner. Random games check every field against the engine's own state as it
played: what an arm showed after each lay, the suit the engine makes the next players follow, the
chips each seat's stack gained at the settlement. The records do not carry these fields."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from kozel.core import HIGH, LOW, OTHER_HALF, TILE_NAMES, Tile, parse_tile
from kozel.engine.options import Options
from kozel.games import GAMES, get_layout_game
from kozel.layout.history import plays_of
from kozel.layout.match import Match
from kozel.layout.rules import Ruleset
from kozel.layout.views import view_for, view_from_dict
from kozel.poker.game import POKER
from kozel.poker.hand import PokerHand
from kozel.poker.match import PokerMatch
from kozel.poker.moves import CHECK, FOLD, Bet, Call, Discard, PokerMove, Raise
from kozel.poker.ranking import POKER_TILES
from kozel.poker.views import poker_view, poker_view_from_dict
from kozel.trumps.game import TRUMPS
from kozel.trumps.match import TrumpsMatch
from kozel.trumps.views import trumps_view, trumps_view_from_dict
from tests.randomplay import option_matrix


def reference_units(opts: Options) -> list[int]:
    """The rulebook's units: partners sit opposite, so in team play seats 0 and 2 are unit 0
    and seats 1 and 3 unit 1; else every seat is a unit of its own."""
    return [seat % 2 if opts.teams else seat for seat in range(opts.players)]


# --- the layout games: the outer halves, the units ---------------------------------------


def check_layout(match: Match, laid: dict[Tile, tuple[int, int, int]]) -> int:
    """Every seat's and a spectator's view of the layout against what the engine's layout
    showed as each tile was laid (``laid``: tile -> arm, the value it was laid on, the value
    its arm showed after it). Returns the tiles checked."""
    checked = 0
    opts = match.opts
    for seat in [None, *range(opts.players)]:
        view = view_for(match, seat)
        data = view.to_dict()
        assert data["units"] == reference_units(opts)
        assert view_from_dict(json.loads(json.dumps(data)), get_layout_game) == view
        on_arms = [t for arm in view.arms for t in arm.tiles]
        assert sorted(on_arms) == sorted(laid)
        for arm, raw in zip(view.arms, data["layout"]["arms"], strict=True):
            assert raw["outer"] == list(arm.outer) and len(arm.outer) == len(arm.tiles)
            for t, outer in zip(arm.tiles, arm.outer, strict=True):
                number, on, showed = laid[t]
                assert number == arm.number
                assert outer == showed, f"{TILE_NAMES[t]} on arm {number}: out {outer}"
                # the other half touches the tile before it: the value it was laid on
                assert OTHER_HALF[t][outer] == on
                checked += 1
            if arm.tiles:
                assert arm.outer[-1] == arm.shows
    return checked


@pytest.mark.parametrize("rules", list(GAMES.values()), ids=list(GAMES))
def test_each_laid_tile_faces_out_as_the_engine_laid_it(rules: Ruleset) -> None:
    """Every option set of every layout game (spinners, crosses, closed doubles, several
    doubles in one turn), three rounds of random moves, the views after every move."""
    checked = 0
    for k, raw in enumerate(option_matrix(rules)):
        opts = rules.options(raw)
        rng = random.Random(k)
        match = Match(rules, opts, k)
        for _ in range(3):
            if match.over:
                break
            rnd = match.next_round()
            laid: dict[Tile, tuple[int, int, int]] = {}
            while not rnd.over:
                moves = rnd.legal_moves()
                move = moves[rng.randrange(len(moves))]
                before = list(rnd.layout.ends)
                match.push(move)
                for play in plays_of(move):
                    if play.arm is not None:
                        laid[play.tile] = (play.arm, before[play.arm], rnd.layout.ends[play.arm])
                checked += check_layout(match, laid)
    assert checked > 500


def test_a_team_games_units_are_the_partners() -> None:
    rules = GAMES["goat"]
    match = Match(rules, rules.options({"teams": True}), 1)
    match.next_round()
    assert view_for(match, 0).to_dict()["units"] == [0, 1, 0, 1]
    match = Match(rules, rules.options({"players": 3}), 1)
    match.next_round()
    assert view_for(match, None).to_dict()["units"] == [0, 1, 2]


# --- Trumps: the led suit ---------------------------------------------------------------


def reference_led(tile: Tile, trumps: int) -> dict[str, Any]:
    """The rulebook's led suit (its Decision 2 as corrected): a tile showing the trump number
    leads trumps; any other tile the suit of its higher half."""
    if trumps in (LOW[tile], HIGH[tile]):
        return {"suit": trumps, "trumps": True}
    return {"suit": HIGH[tile], "trumps": False}


def follows(tile: Tile, led: dict[str, Any], trumps: int) -> bool:
    """Whether ``tile`` follows ``led`` as the view names it."""
    trump = trumps in (LOW[tile], HIGH[tile])
    return trump if led["trumps"] else not trump and HIGH[tile] == led["suit"]


def check_trumps(match: TrumpsMatch) -> bool:
    """Every seat's view of the trick on the table; whether the seat to move had to follow."""
    hand = match.hand
    assert hand is not None
    for seat in (None, 0, 1, 2, 3):
        data = trumps_view(match, seat).to_dict()
        assert data["units"] == [0, 1, 0, 1]
        assert trumps_view_from_dict(json.loads(json.dumps(data))) == trumps_view(match, seat)
        if not hand.trick:
            assert data["led"] is None
            continue
        assert hand.trumps is not None
        assert data["led"] == reference_led(hand.trick[0][1], hand.trumps)
    seat = match.to_move
    if seat is None or not hand.trick or hand.phase != "play":
        return False
    view = trumps_view(match, seat).to_dict()
    assert hand.trumps is not None
    held = [parse_tile(name) for name in view["hand"]]
    following = {t for t in held if follows(t, view["led"], hand.trumps)}
    legal = {parse_tile(m["play"]) for m in view["legal_moves"]}
    # the engine makes the seat follow exactly the suit the view names (or, void, lay any)
    assert legal == (following or set(held))
    return bool(following) and following != set(held)


def test_the_led_suit_is_the_one_the_engine_makes_everyone_follow() -> None:
    forced = 0
    for seed in range(12):
        rng = random.Random(seed)
        match = TRUMPS.new_match(TRUMPS.options({"target": 60}), seed)
        assert isinstance(match, TrumpsMatch)
        while not match.over:
            if match.needs_deal:
                match.deal_next()
                continue
            legal = match.legal_moves()
            match.push(legal[rng.randrange(len(legal))])
            if not match.over:
                forced += check_trumps(match)
    assert forced > 100  # the check saw seats that had to follow and could not lay anything


# --- Poker: each pot's takes ------------------------------------------------------------


def check_settled(match: PokerMatch, hand: PokerHand) -> tuple[int, int]:
    """A finished hand's pots in every view, the rounds summary and the record: their takes
    add up to each pot and give each seat what its stack gained. Returns (pots, odd splits)."""
    n = match.opts.players
    won = [hand.stacks[s] - hand.chips_before[s] + hand.committed[s] for s in range(n)]
    for seat in [None, *range(n)]:
        view = poker_view(match, seat)
        data = view.to_dict()
        assert data["units"] == list(range(n))
        assert poker_view_from_dict(json.loads(json.dumps(data))) == view
        taken = [0] * n
        for pot in data["last_pots"]:
            assert sum(pot["takes"]) == pot["amount"] and len(pot["takes"]) == len(pot["winners"])
            assert max(pot["takes"]) - min(pot["takes"]) <= 1
            for s, chips in zip(pot["winners"], pot["takes"], strict=True):
                taken[s] += chips
        assert taken == won
    summary = match.round_summaries(len(match.hands) - 1)[0]
    pots = poker_view(match, None).to_dict()["last_pots"]
    assert summary["takes"] == [pot["takes"] for pot in pots]
    plain = [{"amount": p["amount"], "winners": p["winners"]} for p in pots]
    assert summary["end"]["pots"] == plain
    record = match.record([f"p{s}" for s in range(n)])
    assert record["rounds"][-1]["end"] == summary["end"] and "takes" not in record["rounds"][-1]
    odd = sum(1 for takes in summary["takes"] if len(set(takes)) > 1)
    return len(pots), odd


def test_each_pots_takes_are_what_the_winners_stacks_gained() -> None:
    pots = odd = 0
    for seed in range(60):
        rng = random.Random(seed)
        players = 2 + seed % 3
        raw = {"players": players, "hands": 6, "chips": 20}
        if seed % 2:
            raw["limit"] = "no_limit"
        match = POKER.new_match(POKER.options(raw), seed)
        assert isinstance(match, PokerMatch)
        while not match.over:
            if match.needs_deal:
                match.deal_next()
                continue
            legal = match.legal_moves()
            # mostly checks and calls, so that hands reach the showdown and tie now and then
            passive = [m for m in legal if not isinstance(m, Bet | Raise) and m != FOLD]
            pick = passive if passive and rng.random() < 0.9 else list(legal)
            match.push(pick[rng.randrange(len(pick))])
            hand = match.hands[-1]
            if hand.over:
                p, o = check_settled(match, hand)
                pots, odd = pots + p, odd + o
    assert pots > 200


def test_a_split_pots_odd_chip_goes_to_the_first_winner() -> None:
    """13 chips between two equal hands (test_poker's deal): the first winner clockwise from
    the dealer's left takes 7, the other 6, in the view and in the rounds summary."""
    deal = ("1-2 1-4 2-5 3-6 4-5", "1-3 1-5 3-4 3-5 2-6", "2-2 3-3 4-4 5-5 6-6")
    hands = [[parse_tile(t) for t in h.split()] for h in deal]
    used = {t for h in hands for t in h}
    hand = PokerHand(
        3, 1, (10, 10, 10), hands, [t for t in POKER_TILES if t not in used], 1, "fixed", 2
    )
    moves: list[PokerMove] = [Bet(2), Call(2), Raise(4), FOLD, Call(2)]
    for move in [*moves, Discard(()), Discard(()), CHECK, CHECK]:
        hand.push(move, lambda pool: None)
    assert hand.over and [(p.amount, p.winners) for p in hand.pots] == [(13, (0, 1))]
    assert hand.stacks == [5 + 7, 5 + 6, 7]
    match = POKER.new_match(POKER.options({"players": 3, "chips": 10}), 0)
    assert isinstance(match, PokerMatch)
    match.hands.append(hand)
    (pot,) = poker_view(match, None).to_dict()["last_pots"]
    assert pot == {"amount": 13, "winners": [0, 1], "takes": [7, 6]}
    (summary,) = match.round_summaries()
    assert summary["takes"] == [[7, 6]]
    assert summary["end"]["pots"] == [{"amount": 13, "winners": [0, 1]}]
    assert hand.end_dict()["pots"] == [{"amount": 13, "winners": [0, 1]}]

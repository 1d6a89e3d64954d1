"""Random-game invariants over 10,000+ seeded games across option sets."""

from __future__ import annotations

import json

import pytest

from kozel.core import (
    DOUBLES_MASK,
    FULL_MASK,
    IS_DOUBLE,
    OTHER_HALF,
    SUIT_MASK,
    TILE_COUNT,
    Draw,
    Knock,
    Play,
    PlayDoubles,
    mask_of,
)
from kozel.engine.record import dumps
from kozel.games import replay_layout
from kozel.layout.match import Match, record_of
from kozel.layout.round import Round
from tests.randomplay import CORRECTED_SETS, OPTION_SETS, option_sets, play_random

GAMES_PER_SET = 400  # 12 option sets: 4,800 games


def reference_plays(rnd: Round) -> set[tuple[int, int | None]]:
    """Single-tile plays by brute force, written independently of ``legal_moves``."""
    hand = rnd.hands[rnd.turn]
    layout = rnd.layout
    if layout.first < 0:
        return {(t, None) for t in range(TILE_COUNT) if rnd.lead_mask >> t & 1}
    plays = set()
    for t in range(TILE_COUNT):
        if not hand >> t & 1:
            continue
        for arm in range(4):
            end = layout.ends[arm]
            if end >= 0 and not layout.closed[arm] and OTHER_HALF[t][end] >= 0:
                plays.add((t, arm))
    return plays


def check_position(match: Match, rnd: Round) -> None:
    moves = rnd.legal_moves()
    assert moves, "a live round always has a move"
    singles = {(m.tile, m.arm) for m in moves if isinstance(m, Play)}
    expected = reference_plays(rnd)
    assert singles == expected
    if not expected:
        bazaar = rnd.drawable - rnd.drawn
        assert moves == ([Draw()] if bazaar else [Knock()])
    for m in moves:
        if isinstance(m, Play) and m.close:
            assert rnd.rules.closing and IS_DOUBLE[m.tile] and m.arm is not None
        if isinstance(m, PlayDoubles):
            assert rnd.rules.multi_doubles and len(m.plays) >= 2
            assert len({p.arm for p in m.plays}) == len(m.plays)
    # tiles are conserved: every tile is in exactly one hand, on the table or in the bazaar
    hands = rnd.hands
    undrawn = mask_of(rnd.deal.bazaar[rnd.drawn :])
    parts = [*hands, rnd.layout.table, undrawn]
    assert sum(p.bit_count() for p in parts) == TILE_COUNT
    union = 0
    for p in parts:
        union |= p
    assert union == FULL_MASK


def check_round_ends(match: Match) -> None:
    opts = match.opts
    for result in match.results:
        rnd = result.round
        end = result.end
        assert end.kind in ("out", "fish")
        if end.kind == "out":
            assert rnd.hands[end.seat] == 0
        elif rnd.closed_both:  # two doubles closed before any double: a fish by rule
            assert rnd.layout.closed[:2] == [True, True]
        else:
            assert rnd.hands[end.seat] != 0
            ignore = DOUBLES_MASK if opts.fish_ignores_double else 0
            reserve = mask_of(rnd.deal.bazaar[rnd.drawable :])
            live = FULL_MASK & ~rnd.layout.table & ~reserve & ~ignore
            for arm in rnd.layout.open_arms():
                assert not live & SUIT_MASK[rnd.layout.ends[arm]]
        assert rnd.history[-1][0] == end.seat
        # the sheet adds up: accounts never fall, and the charges are what was added
        for before, charged, after in zip(result.before, result.charged, result.after, strict=True):
            assert charged >= 0
            assert after.account >= before.account
            if before.open:
                assert after.account == before.account + charged
            assert not after.open or after.remembered == 0
    assert match.result is not None
    losers = match.result.losers
    assert losers and all(match.sheet[u].account >= opts.loss_limit for u in losers)


@pytest.mark.parametrize(("index"), range(len(OPTION_SETS) + len(CORRECTED_SETS)))
def test_random_games_keep_the_rules(index: int) -> None:
    rules, raw = [*OPTION_SETS, *CORRECTED_SETS][index]
    opts = rules.options(raw)
    for seed in range(GAMES_PER_SET):
        check = check_position if seed < 40 else None
        match = play_random(rules, opts, seed, check)
        check_round_ends(match)
        record = json.loads(dumps(record_of(match, [f"bot:{s}" for s in range(opts.players)])))
        again = replay_layout(record)
        assert record_of(again, record["seats"]) == record


def test_same_seed_same_game() -> None:
    rules, opts = option_sets()[0]
    one = record_of(play_random(rules, opts, 7), ["a", "b", "c", "d"])
    two = record_of(play_random(rules, opts, 7), ["a", "b", "c", "d"])
    assert one == two

"""Random-game invariants of the winner-scoring games: Draw, Block, Classic
(docs/rules.md#winner-games) and Sea Goat (§5), for every option set of
:data:`tests.randomplay.MATRIX`.

Each seeded game of random legal moves is checked against references written here from the
rulebook, independently of the engine: the legal moves of a position, conservation of tiles,
the deal and the leads, how every round ends, every hand count, every sheet entry (the credit,
Sea Goat's opening and write-off, ``after = before + during + credited``), the instant ends of
Sea Goat, the winners and the rating (§8.5, §12). Every record goes through JSON and ``replay``
and comes back identical, listing exactly its game's options.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from kozel.core import (
    DOUBLE_OF,
    FULL_MASK,
    OTHER_HALF,
    PIPS,
    SUIT_MASK,
    TILE_COUNT,
    DeclineHundred,
    Draw,
    InvalidOption,
    Knock,
    Play,
    PlayDoubles,
    mask_of,
    parse_tile,
    tile_str,
)
from kozel.engine.record import dumps
from kozel.games import GAMES, replay_layout
from kozel.layout.match import Match, record_of
from kozel.layout.round import Round
from kozel.layout.rules import Ruleset
from kozel.layout.scoring.base import round_half_away
from tests.randomplay import MATRIX, play_random

GAMES_PER_SET = 60
CHECKED_PER_SET = 10
"""Games of each option set whose every position is checked against the brute-force moves."""
TIMEOUTS_PER_SET = 3

ZERO_ZERO, SIX_SIX = DOUBLE_OF[0], DOUBLE_OF[6]
HAND_SIZES = {
    "draw": {2: 7, 3: 5, 4: 5},
    "classic": {2: 7, 3: 5, 4: 5},
    "block": {2: 7, 3: 7, 4: 7},
    "sea_goat": {2: 7, 3: 7, 4: 7},
}
DESCENDING = "5-6 4-6 3-6 4-5 2-6 3-5 1-6 2-5 3-4 0-6 1-5 2-4 0-5 1-4 2-3 0-4 1-3 0-3 1-2 0-2 0-1"
FIRST_LEADS = {
    "draw": "6-6 5-5 4-4 3-3 2-2 1-1 0-0 " + DESCENDING,
    "block": "6-6 5-5 4-4 3-3 2-2 1-1 0-0 " + DESCENDING,
    "classic": "0-0 1-1 2-2 3-3 4-4 5-5 6-6 " + " ".join(reversed(DESCENDING.split())),
    "sea_goat": "1-1 2-2 3-3 4-4 5-5 6-6 0-0 " + DESCENDING,
}
"""§8.1, §8.3, §5 (as Goat's §2.2): the tile whose holder leads the first hand, in order."""


def ids(sets: list[tuple[Ruleset, dict[str, object]]]) -> list[str]:
    return [rules.id + "".join(f"-{k}={v}" for k, v in raw.items()) for rules, raw in sets]


def count_of(game: str, hand: int) -> int:
    """A hand's count: pips; Classic's 0-0 = 25 and 6-6 = 50 wherever held (§8.3, §8.5 item
    9); Sea Goat's lone 0-0 = 25, lone 6-6 = 50, exactly both = 75 (§5)."""
    pips = sum(PIPS[x] for x in range(TILE_COUNT) if hand >> x & 1)
    zero, six = hand >> ZERO_ZERO & 1, hand >> SIX_SIX & 1
    if game == "classic":
        return pips + 25 * zero + (50 - 12) * six
    if game == "sea_goat" and hand in (1 << ZERO_ZERO, 1 << SIX_SIX, 1 << ZERO_ZERO | 1 << SIX_SIX):
        return {1 << ZERO_ZERO: 25, 1 << SIX_SIX: 50}.get(hand, 75)
    return pips


# --- positions ----------------------------------------------------------------------------


def reference_moves(match: Match, rnd: Round) -> set[tuple[Any, ...]]:
    """Every legal move by brute force: single tiles on fitting arms; Sea Goat's two doubles at
    once on both ends (§5) and the hundred (a leader with a record who holds 6-6; §13.3 another
    seat with the record who was dealt 6-6 is asked first: the hundred or no)."""
    hand = rnd.hands[rnd.turn]
    ends = rnd.layout.ends[:2]
    if match.rules.id == "sea_goat" and not rnd.history:
        holders = [s for s in range(match.opts.players) if rnd.hands[s] >> SIX_SIX & 1]
        holder = holders[0] if holders else rnd.leader  # 6-6 may lie in the bazaar
        asked = holder != rnd.leader and match.sheet[match.opts.unit_of(holder)] > 0
        if asked and rnd.turn == holder:
            return {("hundred", SIX_SIX), ("DeclineHundred",)}
    if rnd.layout.first < 0:
        moves: set[tuple[Any, ...]] = {
            ("play", x, None) for x in range(TILE_COUNT) if rnd.lead_mask >> x & 1
        }
        unit = match.opts.unit_of(rnd.turn)
        if match.rules.id == "sea_goat" and match.sheet[unit] > 0 and hand >> SIX_SIX & 1:
            moves.add(("hundred", SIX_SIX))
        return moves
    moves = {
        ("play", x, arm)
        for x in range(TILE_COUNT)
        if hand >> x & 1
        for arm in (0, 1)
        if OTHER_HALF[x][ends[arm]] >= 0
    }
    if match.rules.id == "sea_goat" and ends[0] != ends[1]:
        a, b = DOUBLE_OF[ends[0]], DOUBLE_OF[ends[1]]
        if hand >> a & 1 and hand >> b & 1:
            moves.add(("doubles", frozenset({(a, 0), (b, 1)})))
    return moves


def as_reference(move: object) -> tuple[Any, ...]:
    if isinstance(move, Play):
        assert not move.close
        return ("hundred", move.tile) if move.hundred else ("play", move.tile, move.arm)
    if isinstance(move, PlayDoubles):
        return ("doubles", frozenset((p.tile, p.arm) for p in move.plays))
    return (type(move).__name__,)


def check_position(match: Match, rnd: Round) -> None:
    """The legal moves are exactly the brute-force ones; with no play a player draws while
    the bazaar has drawable tiles and knocks otherwise (never draws in Block); every tile is
    in one place; the game is not decided while a hand is being played (§8.5 item 7)."""
    assert match.result is None
    moves = rnd.legal_moves()
    got = [as_reference(m) for m in moves]
    expected = reference_moves(match, rnd)
    if expected:
        assert set(got) == expected and len(got) == len(set(got))
    else:
        can_draw = match.rules.id != "block" and rnd.drawn < len(rnd.deal.bazaar)
        assert moves == ([Draw()] if can_draw else [Knock()])
    undrawn = mask_of(rnd.deal.bazaar[rnd.drawn :])
    parts = [*rnd.hands, rnd.layout.table, undrawn]
    assert sum(p.bit_count() for p in parts) == TILE_COUNT
    union = 0
    for p in parts:
        union |= p
    assert union == FULL_MASK


# --- rounds and games ---------------------------------------------------------------------


def unit_totals(match: Match, counts: list[int], out_seat: int | None) -> list[int]:
    """§8.4 teams: a team's count is its two hands; the out player's partner's counts nothing."""
    opts = match.opts
    totals = [0] * opts.units
    for seat, c in enumerate(counts):
        totals[opts.unit_of(seat)] += c
    if out_seat is not None:
        totals[opts.unit_of(out_seat)] = 0
    return totals


def expected_credit(match: Match, kind: str, seat: int, counts: list[int]) -> tuple[int, int]:
    """The hand's winning unit and its credit (§8.1, §8.5 item 3, §5); ``-1`` when a fish's
    lowest count is shared."""
    out = seat if kind == "out" else None
    totals = unit_totals(match, counts, out)
    if out is not None:
        winner = match.opts.unit_of(out)
    else:
        low = min(totals)
        if totals.count(low) > 1:
            return -1, 0
        winner = totals.index(low)
    credit = sum(c for u, c in enumerate(totals) if u != winner)
    if out is None and match.rules.id != "sea_goat":
        credit -= totals[winner]
    return winner, credit


def expected_leader(match: Match, index: int) -> int:
    """§8.5 item 1: the out player; after a fish the fish's winner (in team play the partner
    with the lower count, equal: the first clockwise from the fisherman), the fisherman when the
    lowest count is shared; Sea Goat: the out player or the fisherman."""
    previous = match.results[index - 1]
    kind, seat = previous.end.kind, previous.end.seat
    if kind == "out" or match.rules.id == "sea_goat":
        return seat
    winner, _ = expected_credit(match, kind, seat, previous.counts)
    if winner < 0:
        return seat
    players = match.opts.players
    seats = match.opts.seats_of(winner)
    return min(seats, key=lambda s: (previous.counts[s], (s - seat) % players))


def last_turn_tiles(rnd: Round) -> set[int]:
    _, move, _ = rnd.history[-1]
    if isinstance(move, PlayDoubles):
        return {p.tile for p in move.plays}
    assert isinstance(move, Play)
    return {move.tile}


def expected_decides(match: Match, rnd: Round, counts: list[int]) -> dict[str, Any] | None:
    """§5 with Kozel's Decisions: the hundred made (the declarer out first) or failed (caught
    with 25 or more, which takes precedence); the bald goat (0-0 among the last turn's tiles);
    out on 6-6 with a seat of another unit holding more than 25."""
    assert rnd.end is not None
    kind, seat = rnd.end
    declarer = rnd.hundred
    if declarer >= 0:
        if kind == "out" and seat == declarer:
            return {"seat": declarer, "won": True}
        if counts[declarer] >= 25:
            return {"seat": declarer, "won": False}
    if kind != "out":
        return None
    tiles = last_turn_tiles(rnd)
    unit = match.opts.unit_of(seat)
    losers = [c for s, c in enumerate(counts) if match.opts.unit_of(s) != unit]
    if ZERO_ZERO in tiles or (SIX_SIX in tiles and max(losers) > 25):
        return {"seat": seat, "won": True}
    return None


def expected_rating(match: Match, winners: list[int], scores: list[int]) -> list[int]:
    """§12: a winner gains round_half_up(10 × (target − best other score) / target), at least
    1, the best other score being the highest among the other units; others gain nothing."""
    target = match.opts.target  # type: ignore[attr-defined]
    gains = []
    for unit in range(match.opts.units):
        if unit in winners:
            best = max(s for u, s in enumerate(scores) if u != unit)
            gains.append(max(1, round_half_away(10 * (target - best), target)))
        else:
            gains.append(0)
    return [gains[match.opts.unit_of(s)] for s in range(match.opts.players)]


def check_round(match: Match, index: int, scores: list[int]) -> dict[str, Any] | None:
    """One finished round against the references; returns its instant end, if any."""
    result = match.results[index]
    rnd = result.round
    opts = match.opts
    game = match.rules.id
    deal = result.deal
    size = HAND_SIZES[game][opts.players]
    assert [len(h) for h in deal.hands] == [size] * opts.players
    assert len(deal.bazaar) == TILE_COUNT - size * opts.players
    if game == "sea_goat":
        assert not deal.needs_redeal()
    if game == "block":
        assert rnd.drawn == 0 and not any(isinstance(m, Draw) for _, m, _ in rnd.history)
    # leads (§8.1, §8.3, §8.5 item 1)
    if index == 0:
        order = [parse_tile(x) for x in FIRST_LEADS[game].split()]
        first = next(x for x in order if any(h >> x & 1 for h in deal.masks))
        assert rnd.leader == next(s for s, h in enumerate(deal.masks) if h >> first & 1)
        assert rnd.first_tile == first
    elif rnd.hundred >= 0:  # §13.3: the record holder dealt 6-6 declared it, and led
        assert rnd.leader == rnd.hundred and deal.masks[rnd.hundred] >> SIX_SIX & 1
        assert scores[opts.unit_of(rnd.hundred)] > 0
    else:
        assert rnd.leader == expected_leader(match, index)
    laid = [(s, m) for s, m, _ in rnd.history if not isinstance(m, DeclineHundred)]
    assert laid[0][0] == rnd.leader  # §13.3: a refused hundred comes first
    # the end
    assert rnd.end is not None
    kind, seat = rnd.end
    assert kind in ("out", "fish") and rnd.history[-1][0] == seat
    if kind == "out":
        assert rnd.hands[seat] == 0
    else:
        assert rnd.hands[seat] != 0
        live = FULL_MASK & ~rnd.layout.table
        if game == "block":
            live &= ~mask_of(deal.bazaar)  # out of play: never drawn, never holds a fish open
        for end in rnd.layout.ends[:2]:
            assert not live & SUIT_MASK[end], "a fish with a tile that could still be played"
    counts = [count_of(game, h) for h in rnd.hands]
    assert result.counts == counts
    # the sheet (docs/record.md#record-race-sheet: before, during, credited, after; written_off)
    winner, credit = expected_credit(match, kind, seat, counts)
    before = list(scores)
    credited = [0] * opts.units
    written_off = False
    if winner >= 0:
        if game != "sea_goat":
            credited[winner] = credit
        elif before[winner] > 0 or credit >= opts.open_at:  # type: ignore[attr-defined]
            credited[winner] = credit
            written_off = before[winner] == 0 and any(s > 0 for s in before)
    after = (
        [0] * opts.units if written_off else [b + c for b, c in zip(before, credited, strict=True)]
    )
    expected = [
        {"before": b, "during": 0, "credited": c, "after": a}
        for b, c, a in zip(before, credited, after, strict=True)
    ]
    if written_off:
        expected = [{**e, "written_off": True} for e in expected]
    decides = expected_decides(match, rnd, counts) if game == "sea_goat" else None
    if rnd.hundred >= 0 and decides is None:  # §13.3: failed under 25, his record goes
        unit = opts.unit_of(rnd.hundred)
        after[unit] = 0
        expected[unit] = {**expected[unit], "after": 0, "written_off": True}
    assert result.entries == expected
    for e in result.entries:
        if e.get("written_off"):
            assert e["after"] == 0
        else:
            assert e["after"] == e["before"] + e["during"] + e["credited"]
    assert result.eggs == 0
    scores[:] = after
    assert result.decides == decides
    end = {"kind": kind, "seat": seat, **({"decides": decides} if decides else {})}
    assert result.end_dict() == end
    return decides


def check_game(match: Match) -> None:
    """Every round, then §8.5 item 7 / §5 / §12: the game ends at the first hand that brings a
    unit to the target (the highest, equal highest all win) or that decides it at once (the
    hundred's loser's best other unit, ties to the out unit, else all tied units win)."""
    opts = match.opts
    target = opts.target  # type: ignore[attr-defined]
    scores = [0] * opts.units
    for index in range(len(match.results)):
        decides = check_round(match, index, scores)
        final = index == len(match.results) - 1
        reached = [u for u, s in enumerate(scores) if s >= target]
        assert final == bool(reached or decides), "the game ended at the wrong hand"
    assert list(match.sheet) == scores
    result = match.result
    assert result is not None and result.timeout is None
    last = match.results[-1]
    if decides is None:
        top = max(scores[u] for u in reached)
        winners = [u for u in reached if scores[u] == top]
    elif decides["won"]:
        winners = [opts.unit_of(decides["seat"])]
    else:
        loser = opts.unit_of(decides["seat"])
        others = [u for u in range(opts.units) if u != loser]
        top = max(scores[u] for u in others)
        winners = [u for u in others if scores[u] == top]
        out_unit = opts.unit_of(last.end.seat)
        if len(winners) > 1 and last.end.kind == "out" and out_unit in winners:
            winners = [out_unit]
    assert result.to_dict() == {
        "winners": winners,
        "scores": scores,
        "rating": expected_rating(match, winners, scores),
    }


def check_record(match: Match) -> dict[str, Any]:
    """docs/record.md#record-fields: the record lists exactly the game's options, goes through JSON
    and replays into the same record."""
    seats = [f"bot:{s}" for s in range(match.opts.players)]
    record: dict[str, Any] = json.loads(dumps(record_of(match, seats)))
    assert set(record["options"]) == {s.name for s in match.rules.option_specs}
    assert record["options"] == match.rules.options_dict(match.opts)
    again = replay_layout(record)
    assert record_of(again, seats) == record
    return record


@pytest.mark.parametrize(("rules", "raw"), MATRIX, ids=ids(MATRIX))
def test_random_games_keep_the_rules(rules: Ruleset, raw: dict[str, object]) -> None:
    opts = rules.options(raw)
    for seed in range(GAMES_PER_SET):
        match = play_random(rules, opts, seed, check_position if seed < CHECKED_PER_SET else None)
        check_game(match)
        check_record(match)


@pytest.mark.parametrize(("rules", "raw"), MATRIX, ids=ids(MATRIX))
def test_random_timeouts(rules: Ruleset, raw: dict[str, object]) -> None:
    """§12 / §8.5 item 10: a timeout in the middle of a hand ends the game: the hand keeps its
    during points (none in these games) and credits nothing, nobody wins, and every player
    not eliminated gains 1. The record replays."""
    opts = rules.options(raw)
    for seed in range(TIMEOUTS_PER_SET):
        full = play_random(rules, opts, seed)
        rng = random.Random(seed)
        stop_round = rng.randrange(len(full.results))
        stop_move = rng.randrange(len(full.results[stop_round].round.history))
        match = Match(rules, opts, seed)
        for index, result in enumerate(full.results[: stop_round + 1]):
            match.next_round(result.deal, result.redeals)
            history = result.round.history
            for _, move, _ in history[: stop_move if index == stop_round else len(history)]:
                match.push(move)
        before = list(match.sheet)
        seat = match.round.turn
        match.timeout(seat)
        last = match.results[-1]
        assert last.end_dict() == {"kind": "timeout", "seat": seat}
        assert last.entries == [
            {"before": b, "during": 0, "credited": 0, "after": b} for b in before
        ]
        assert match.result is not None
        assert match.result.to_dict() == {
            "winners": [],
            "scores": before,
            "rating": [0 if s == seat else 1 for s in range(opts.players)],
            "timeout": seat,
        }
        check_record(match)


def test_the_matrix_covers_every_option_of_the_four_games() -> None:
    """The option sets come from the registry: every option of each game is changed alone."""
    for game in ("draw", "block", "classic", "sea_goat"):
        changed = {k for rules, raw in MATRIX if rules.id == game for k in raw}
        assert changed == {s.name for s in GAMES[game].option_specs}


OTHER_OPTIONS = {
    "loss_limit": 101,
    "fish_mode": "everyone",
    "open_threshold": 13,
    "lone_zero_value": 10,
    "bazaar_reserve": 1,
    "lead_by": "winner",
    "open_at": 25,
}


@pytest.mark.parametrize("game", ["draw", "block", "classic", "sea_goat"])
def test_bad_options_are_refused_with_the_games_options(game: str) -> None:
    """§8.4: each game has exactly its own options; another game's option or a bad value is
    refused with a message naming what the game accepts."""
    rules = GAMES[game]
    names = ", ".join(s.name for s in rules.option_specs)
    for option, value in OTHER_OPTIONS.items():
        if option in names.split(", "):
            continue
        with pytest.raises(InvalidOption) as caught:
            rules.options({option: value})
        assert str(caught.value) == f"{game} has no option {option!r}; its options are {names}"
        with pytest.raises(InvalidOption, match=f"its options are {names}"):
            rules.parse_options([f"{option}={value}"])
    with pytest.raises(InvalidOption, match=r"option 'target' must be an integer 1\.\.10000"):
        rules.options({"target": 0})
    with pytest.raises(InvalidOption, match="teams needs players = 4"):
        rules.options({"players": 3, "teams": True})
    with pytest.raises(InvalidOption, match="option 'players' must be one of 2, 3, 4"):
        rules.options({"players": 5})
    if game == "sea_goat":
        with pytest.raises(InvalidOption, match=r"option 'open_at' must be an integer 1\.\.1000"):
            rules.options({"open_at": 0})


def test_first_lead_orders_written_here_match_the_games() -> None:
    """The references above agree with the games' own orders (§8.1, §8.3, §5)."""
    for game, order in FIRST_LEADS.items():
        assert " ".join(tile_str(x) for x in GAMES[game].first_lead_order) == order

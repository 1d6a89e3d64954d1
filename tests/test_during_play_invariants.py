"""Random-game invariants of the games that score during play: All Fives, Telephone, All
Threes, Threes and Fives (docs/rules.md#end-count-games) and Bergen (§7), for every option set of
:data:`tests.randomplay.DURING_MATRIX`.

Each seeded game of random legal moves is checked against references written here from the
rulebook, independently of the engine: hand sizes and the bazaar's reserve, the first leader
(lot, highest double, Goat's order, Bergen's order) and the later ones (§8.5.1), when a draw or
a knock is legal, every play's points (the end sum of §6 from the arms' chains; Bergen's
headers), how every hand ends, every sheet entry (``after = before + during + credited``, the
bonus rounded and divided as each game says, Bergen's 2 for the hand), the end of the game at
the target (§8.5.7) and the rating (§12). Every record goes through JSON and ``replay``.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from kozel.core import (
    DOUBLE_OF,
    DOUBLES_MASK,
    HIGH,
    IS_DOUBLE,
    LOW,
    OTHER_HALF,
    PIPS,
    SUIT_MASK,
    TILE_COUNT,
    Draw,
    Knock,
    Play,
    PlayDoubles,
    mask_of,
)
from kozel.engine.record import dumps
from kozel.games import GAMES, replay_layout
from kozel.layout.match import Match, record_of
from kozel.layout.round import Round
from kozel.layout.rules import Ruleset
from kozel.layout.scoring.base import round_half_away
from tests.randomplay import DURING_MATRIX, play_random

GAMES_PER_SET = 25


def ids(sets: list[tuple[Ruleset, dict[str, object]]]) -> list[str]:
    return [rules.id + "".join(f"-{k}={v}" for k, v in raw.items()) for rules, raw in sets]


def pips(hand: int) -> int:
    return sum(PIPS[t] for t in range(TILE_COUNT) if hand >> t & 1)


# --- references from the rulebook -----------------------------------------------------------


def hand_size(game: str, opts: Any) -> int:
    """§6.1–§6.4, §7."""
    n = opts.players
    if game == "all_fives":
        return 7 if n == 2 else 5
    if game == "telephone":
        return 7
    if game == "all_threes":
        return 5
    if game == "bergen":
        return 5 if n == 4 else 6
    return {"standard": {2: 7, 3: 5, 4: 5}, "seven": {2: 7, 3: 7, 4: 7}}.get(
        opts.hand_sizes, {2: 7, 3: 6, 4: 5}
    )[n]


def reserve(game: str, opts: Any) -> int:
    """Bergen never draws the last two; Threes and Fives' keep_last the last 2 (2 players)
    or 1."""
    if game == "bergen":
        return 2
    if game == "threes_fives" and opts.keep_last:
        return 2 if opts.players == 2 else 1
    return 0


def spinner(game: str, opts: Any) -> bool:
    """§6: the first double is a spinner in All Fives and All Threes unless played without a
    cross (§13.5), in Telephone, and in Threes and Fives with its ``spinner`` option."""
    if game in ("all_fives", "all_threes"):
        return bool(opts.cross)
    return game == "telephone" or (game == "threes_fives" and opts.spinner)


def arms_count(game: str, opts: Any) -> bool:
    """§8.5.4: Telephone false; Threes and Fives true; the others by option."""
    if game == "telephone":
        return False
    if game == "threes_fives":
        return True
    return bool(opts.spinner_arms_count)


def chains(plays: list[Play], has_spinner: bool) -> tuple[dict[int, list[int]], int, set[int]]:
    """Each arm's tiles from the centre out and the value it shows last; the spinner (or -1)
    and the spinner's line arms (those whose first tile is laid on the spinner itself)."""
    first = plays[0].tile
    hub = first if has_spinner and IS_DOUBLE[first] else -1
    arms: dict[int, list[int]] = {0: [first], 1: [first]}
    shows = {0: LOW[first], 1: HIGH[first]}
    line: set[int] = {0, 1} if hub >= 0 else set()
    if hub >= 0:
        arms.update({2: [first], 3: [first]})
        shows.update({2: LOW[first], 3: LOW[first]})
    for p in plays[1:]:
        assert p.arm is not None
        arms[p.arm].append(p.tile)
        shows[p.arm] = OTHER_HALF[p.tile][shows[p.arm]]
        if has_spinner and hub < 0 and IS_DOUBLE[p.tile]:
            hub = p.tile
            line = {p.arm}
            arms.update({2: [hub], 3: [hub]})
            shows.update({2: LOW[hub], 3: LOW[hub]})
    return {k: [*tiles, shows[k]] for k, tiles in arms.items()}, hub, line


def end_sum(plays: list[Play], has_spinner: bool, count_arms: bool) -> int:
    """§6: each open arm the value it shows; a double at an end both halves (once, however
    many arms it ends); the spinner both halves while a line side is empty, then each
    unplayed cross arm its value (``count_arms``) or nothing."""
    arms, hub, line = chains(plays, has_spinner)
    covered = hub >= 0 and all(arms[k][-2] != hub for k in line)
    total = 0
    seen: set[int] = set()
    for k, chain in arms.items():
        tip, value = chain[-2], chain[-1]
        if tip == hub:
            if not covered:
                if hub not in seen:
                    total += PIPS[hub]
                seen.add(hub)
            elif k >= 2 and count_arms:
                total += value
        elif IS_DOUBLE[tip]:
            if tip not in seen:
                total += PIPS[tip]
            seen.add(tip)
        else:
            total += value
    return total


def expected_points(game: str, opts: Any, plays: list[Play]) -> int:
    if game == "bergen":
        if len(plays) == 1:
            return 2 if IS_DOUBLE[plays[0].tile] else 0
        arms, _, _ = chains(plays, False)
        if arms[0][-1] != arms[1][-1]:
            return 0
        return 3 if IS_DOUBLE[arms[0][-2]] or IS_DOUBLE[arms[1][-2]] else 2
    s = end_sum(plays, spinner(game, opts), arms_count(game, opts))
    if game == "all_fives":
        return s if s % 5 == 0 else 0
    if game == "telephone":
        return s // 5 if s % 5 == 0 else 0
    if game == "all_threes":
        return s if s % 3 == 0 else 0
    return (s if s % 3 == 0 else 0) + (s if s % 5 == 0 else 0)


def nearest(value: int, step: int) -> int:
    return (2 * value + step) // (2 * step) * step


def bonus(game: str, opts: Any, raw: int) -> int:
    """§6.1 (nearest 5, / bonus_divisor), §6.2 (/ 5 rounded up), §6.3 (nearest 3, / 3),
    §6.4 (in full)."""
    if game == "all_fives":
        return nearest(raw, 5) // opts.bonus_divisor
    if game == "telephone":
        return -(-raw // 5)
    if game == "all_threes":
        return nearest(raw, 3) // 3
    return raw


def bergen_scorer(opts: Any, hands: list[int], fisherman: int) -> int | None:
    """§7 with the Decisions: no double; the lowest count among several; the lowest double;
    a lowest count shared across units scores nobody (partners: the first clockwise)."""
    without = [s for s, h in enumerate(hands) if not h & DOUBLES_MASK]
    if without:
        low = min(pips(hands[s]) for s in without)
        tied = [s for s in without if pips(hands[s]) == low]
        if len({opts.unit_of(s) for s in tied}) > 1:
            return None
        return min(tied, key=lambda s: (s - fisherman) % opts.players)
    return next(s for v in range(7) for s, h in enumerate(hands) if h >> DOUBLE_OF[v] & 1)


def hand_winner(game: str, opts: Any, rnd: Round) -> tuple[int | None, int | None, int]:
    """The winning unit, the seat that leads next (``None``: the fisherman) and the credit."""
    assert rnd.end is not None
    kind, seat = rnd.end.kind, rnd.end.seat
    hands = list(rnd.hands)
    if game == "bergen":
        winner_seat = seat if kind == "out" else bergen_scorer(opts, hands, seat)
        if winner_seat is None:
            return None, None, 0
        return opts.unit_of(winner_seat), winner_seat, 2
    counts = [pips(h) for h in hands]
    units = [sum(counts[s] for s in opts.seats_of(u)) for u in range(opts.units)]
    if kind == "out":
        units[opts.unit_of(seat)] = 0
        winner, leader = opts.unit_of(seat), seat
    else:
        low = min(units)
        if units.count(low) > 1:
            return None, None, 0
        winner = units.index(low)
        leader = min(opts.seats_of(winner), key=lambda s: (counts[s], (s - seat) % opts.players))
    raw = sum(c for u, c in enumerate(units) if u != winner)
    if kind == "fish" and game in ("all_fives", "all_threes"):
        raw -= units[winner]
    return winner, leader, bonus(game, opts, raw)


def first_leader(game: str, opts: Any, match: Match, hands: tuple[int, ...]) -> tuple[int, int]:
    """The first hand's leader and the tiles he may lead (§8.5.1–2)."""
    key = [(PIPS[t], HIGH[t]) for t in match.lot]
    if game in ("all_fives", "all_threes") or (game == "threes_fives" and not opts.spinner):
        assert len(match.lot) == opts.players
        seat = key.index(min(key) if game == "all_fives" else max(key))
        return seat, hands[seat]
    assert match.lot == ()
    non_doubles = [t for t in range(TILE_COUNT) if not IS_DOUBLE[t]]
    heavy = sorted(non_doubles, key=lambda t: (-PIPS[t], -HIGH[t]))
    if game == "telephone":
        order = [DOUBLE_OF[v] for v in (1, 2, 3, 4, 5, 6, 0)] + heavy
    elif game == "threes_fives":
        order = [DOUBLE_OF[v] for v in range(6, -1, -1)] + heavy
    else:
        order = [DOUBLE_OF[v] for v in range(7)] + sorted(
            non_doubles, key=lambda t: (PIPS[t], HIGH[t])
        )
    tile = next(t for t in order if any(h >> t & 1 for h in hands))
    return next(s for s, h in enumerate(hands) if h >> tile & 1), 1 << tile


# --- the checks -------------------------------------------------------------------------------


def fits(hand: int, layout_ends: list[int], closed: list[bool]) -> int:
    values = 0
    for e, c in zip(layout_ends, closed, strict=True):
        if e >= 0 and not c:
            values |= SUIT_MASK[e]
    return hand & values


def check_round(match: Match, index: int, scores: list[int], leader: int | None) -> int | None:
    """One finished hand against the references; returns who leads the next (``None``: the
    fisherman)."""
    game, opts = match.rules.id, match.opts
    result = match.results[index]
    rnd, deal = result.round, result.deal
    size = hand_size(game, opts)
    assert [len(h) for h in deal.hands] == [size] * opts.players
    assert rnd.reserve == min(reserve(game, opts), len(deal.bazaar))
    if index == 0:
        seat, mask = first_leader(game, opts, match, deal.masks)
        assert (rnd.leader, rnd.lead_mask) == (seat, mask)
    else:
        assert rnd.leader == (leader if leader is not None else match.results[index - 1].end.seat)
        assert rnd.lead_mask == deal.masks[rnd.leader]
    # replay the moves on the references: draws, knocks and points
    hands = list(deal.masks)
    drawn = 0
    plays: list[Play] = []
    during = [0] * opts.units
    ends, closed = [-1] * 4, [False] * 4
    drew_this_turn = False
    previous = -1
    move_points = iter(result.points)
    for seat, mv, tile in rnd.history:
        if seat != previous:
            drew_this_turn, previous = False, seat
        fitting = fits(hands[seat], ends, closed) if plays else hands[seat]
        if isinstance(mv, Draw):
            assert drawn < len(deal.bazaar) - rnd.reserve, "a reserved tile was drawn"
            assert not fitting or (game == "threes_fives" and opts.draw_when_able)
            assert not (game == "bergen" and drew_this_turn), "Bergen draws one tile a turn"
            assert tile == deal.bazaar[drawn]
            hands[seat] |= 1 << tile
            drawn += 1
            drew_this_turn = True
            assert next(move_points) == 0
            continue
        if isinstance(mv, Knock):
            assert not fitting
            assert drawn == len(deal.bazaar) - rnd.reserve or (game == "bergen" and drew_this_turn)
            assert next(move_points) == 0
            continue
        laid = mv.plays if isinstance(mv, PlayDoubles) else (mv,)
        for p in laid:
            hands[seat] &= ~(1 << p.tile)
            plays.append(p)
        ends, closed = rebuild(plays, spinner(game, opts))
        points = expected_points(game, opts, plays)
        assert next(move_points) == points
        during[opts.unit_of(seat)] += points
    assert hands == rnd.hands
    # the end
    assert rnd.end is not None
    kind, seat = rnd.end
    if kind == "out":
        assert hands[seat] == 0
    else:
        live = 0
        for h in hands:
            live |= h
        live |= mask_of(deal.bazaar[drawn : len(deal.bazaar) - rnd.reserve])
        assert not fits(live, ends, closed), "a fish with a tile that could still be played"
    winner, next_leader, credit = hand_winner(game, opts, rnd)
    credited = [0] * opts.units
    if winner is not None:
        credited[winner] = credit
    before = list(scores)
    after = [b + d + c for b, d, c in zip(before, during, credited, strict=True)]
    assert result.entries == [
        {"before": b, "during": d, "credited": c, "after": a}
        for b, d, c, a in zip(before, during, credited, after, strict=True)
    ]
    assert result.counts == [pips(h) for h in hands]
    scores[:] = after
    return next_leader


def rebuild(plays: list[Play], has_spinner: bool) -> tuple[list[int], list[bool]]:
    arms, _, _ = chains(plays, has_spinner)
    ends = [-1] * 4
    for k, chain in arms.items():
        ends[k] = chain[-1]
    return ends, [False] * 4


def check_game(match: Match) -> None:
    opts = match.opts
    target = opts.target or (15 if opts.players == 2 else 10)  # type: ignore[attr-defined]
    scores = [0] * opts.units
    leader: int | None = None
    for index in range(len(match.results)):
        leader = check_round(match, index, scores, leader)
        final = index == len(match.results) - 1
        assert final == any(s >= target for s in scores), "the game ended at the wrong hand"
    assert list(match.sheet) == scores
    top = max(scores)
    winners = [u for u, s in enumerate(scores) if s == top]
    gains = []
    for u in range(opts.units):
        best = max((s for v, s in enumerate(scores) if v != u), default=0)
        gains.append(max(1, round_half_away(10 * (target - best), target)) if u in winners else 0)
    assert match.result is not None
    assert match.result.to_dict() == {
        "winners": winners,
        "scores": scores,
        "rating": [gains[opts.unit_of(s)] for s in range(opts.players)],
    }
    seats = [f"bot:{s}" for s in range(opts.players)]
    record: dict[str, Any] = json.loads(dumps(record_of(match, seats)))
    assert set(record["options"]) == {s.name for s in match.rules.option_specs}
    assert ("lot" in record["rounds"][0]) == bool(match.lot)
    for rnd in record["rounds"]:
        for mv in rnd["moves"]:
            assert ("points" in mv) == ("play" in mv or "doubles" in mv)
    assert record_of(replay_layout(record), seats) == record


@pytest.mark.parametrize(("rules", "raw"), DURING_MATRIX, ids=ids(DURING_MATRIX))
def test_random_games_keep_the_rules(rules: Ruleset, raw: dict[str, object]) -> None:
    opts = rules.options(raw)
    for seed in range(GAMES_PER_SET):
        check_game(play_random(rules, opts, seed))


def test_the_matrix_covers_every_option_of_the_five_games() -> None:
    for game in ("all_fives", "telephone", "all_threes", "threes_fives", "bergen"):
        changed = {k for rules, raw in DURING_MATRIX if rules.id == game for k in raw}
        assert changed == {s.name for s in GAMES[game].option_specs}

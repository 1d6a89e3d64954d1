"""The kernel's exact search (``_kernel.exact``) finds what a brute-force search through the
reference engine finds: every seat playing its best for its unit, each position's value the
game's own cost of the round."""

from __future__ import annotations

import math
import random

import pytest

from kozel.games import BLOCK, DONKEY, DRAW, GOAT, SEA_GOAT
from kozel.layout.bots.expert import Budget, ExpertBot, Tuning
from kozel.layout.bots.kernel import _kernel, pack_round, pack_scoring, to_kernel
from kozel.layout.match import Match
from kozel.layout.rules import Ruleset
from tests.test_kernel import PENALTY, python_cost

POSITIONS: list[tuple[Ruleset, dict[str, object], float]] = [
    (BLOCK, {"players": 4, "teams": True}, 1.0),  # two units, zero-sum: alpha-beta
    (BLOCK, {"players": 4, "teams": True}, 0.35),  # two units, max-n
    (BLOCK, {"players": 3}, 0.35),
    (GOAT, {}, 0.35),  # four players, no bazaar
    (GOAT, {"teams": True}, 1.0),
    (GOAT, dict(GOAT.presets["goat-125"]), 0.35),  # a bazaar to draw from
    (DRAW, {"players": 2}, 1.0),
    (DONKEY, {}, 0.35),
    (SEA_GOAT, {"players": 4}, 0.35),
]


def objective(costs: list[float], unit: int, weight: float) -> float:
    others = [c for u, c in enumerate(costs) if u != unit]
    return costs[unit] - weight * sum(others) / max(1, len(others))


def brute_force(match: Match, weight: float) -> list[float]:
    """Max-n through the engine: the unit to move keeps the first child whose leaf costs it
    least (its cost less ``weight`` times the others' mean); the leaf's cost per unit."""
    rnd = match.round
    if rnd.over:
        return python_cost(match)
    unit = match.opts.unit_of(rnd.turn)
    best: list[float] | None = None
    for move in rnd.legal_moves():
        child = match.copy()
        child.push(move)
        leaf = brute_force(child, weight)
        if best is None or objective(leaf, unit, weight) < objective(best, unit, weight):
            best = leaf
    assert best is not None
    return best


def position(rules: Ruleset, opts_raw: dict[str, object], seed: int, left: int) -> Match | None:
    """A round played at random until at most ``left`` tiles are in the hands and bazaar."""
    opts = rules.options(opts_raw)
    match = Match(rules, opts, seed)
    rnd = match.next_round()
    picker = random.Random(seed)
    while not rnd.over and sum(h.bit_count() for h in rnd.hands) + rnd.bazaar_left > left:
        moves = rnd.legal_moves()
        match.push(moves[picker.randrange(len(moves))])
    return None if rnd.over else match


@pytest.mark.parametrize("index", range(len(POSITIONS)))
def test_exact_search_is_the_brute_force_search(index: int) -> None:
    rules, raw, weight = POSITIONS[index]
    checked = 0
    for seed in range(400):
        if checked == 20:
            break
        match = position(rules, raw, seed * 31 + index, 9)
        if match is None:
            continue
        rnd = match.round
        moves = rnd.legal_moves()
        scoring = pack_scoring(rules, match.opts, match.sheet, match.eggs, PENALTY)
        values, nodes = _kernel.exact(
            pack_round(rnd), scoring, [to_kernel(m) for m in moves], weight, 10**7
        )
        assert values is not None and nodes > 0
        unit = match.opts.unit_of(rnd.turn)
        for move, value in zip(moves, values, strict=True):
            child = match.copy()
            child.push(move)
            expected = objective(brute_force(child, weight), unit, weight)
            assert math.isclose(value, expected, abs_tol=1e-9), (seed, move)
        checked += 1
    assert checked == 20


def test_exact_search_gives_up_past_its_node_limit() -> None:
    match = position(GOAT, {}, 3, 20)
    assert match is not None
    rnd = match.round
    moves = [to_kernel(m) for m in rnd.legal_moves()]
    scoring = pack_scoring(GOAT, match.opts, match.sheet, match.eggs, PENALTY)
    values, nodes = _kernel.exact(pack_round(rnd), scoring, moves, 0.35, 50)
    assert values is None
    assert nodes == 51


def test_the_expert_searches_every_world_exactly_below_its_tuning_tiles() -> None:
    """With ``exact_tiles``, a decision with that many tiles or fewer left samples
    ``exact_worlds`` worlds and searches each exactly, however large; above it, the usual
    budget, and a world's search no larger than its playouts would be."""
    tuning = Tuning(exact_tiles=20, exact_worlds=7)
    low = high = 0
    for seed in range(60):
        match = position(BLOCK, {"players": 4, "teams": True}, seed, 17 + seed % 8)
        if match is None or len(match.round.legal_moves()) < 2:
            continue
        rnd = match.round
        view = match.view(rnd.turn)
        left = sum(view.hand_sizes) + view.bazaar_left
        bot = ExpertBot(seed, budget=Budget(worlds=5, playouts=4), tuning=tuning)
        bot.analyse(view)
        if left <= 20:
            assert (bot.worlds, bot.exact_worlds) == (7, 7)
            low += 1
        else:
            assert bot.worlds == 5 and bot.exact_worlds < 5  # too large for four playouts
            high += 1
        if low and high:
            return
    raise AssertionError(f"positions on both sides of the threshold: {low}, {high}")

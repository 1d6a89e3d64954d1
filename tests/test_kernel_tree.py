"""The kernel's search of the seat's own later decisions (``_kernel.tree_search``): with one
world it is a search of our choices against the others' model, and its values approach the
expected cost of our best choices when the others play uniformly at random; its tree is
keyed by what our seat sees, so worlds that show the same moves share their nodes."""

from __future__ import annotations

import pytest

from kozel.games import GOAT
from kozel.layout.bots.expert import Budget, ExpertBot, Tuning
from kozel.layout.bots.kernel import GREEDY, _kernel, pack_round, pack_scoring, to_kernel
from kozel.layout.match import Match
from kozel.layout.views import view_for
from tests.test_kernel import PENALTY, python_cost
from tests.test_kernel_exact import objective, position

UNIFORM = 0
WEIGHT = 0.35


def model(
    seat: int, other_policy: int = UNIFORM
) -> tuple[int, int, int, tuple[int, ...], int, int, int, int, int]:
    """Our seat on the greedy policy with one move in eight at random where the tree has not
    been, the others on ``other_policy`` with no noise."""
    return (seat, 0, 0, (0, 0, 0, 0), 0, GREEDY, 8, other_policy, 0)


def expectimin(match: Match, me: int) -> float:
    """Our objective when we choose our best and every other seat plays a uniform legal
    move, through the engine."""
    rnd = match.round
    if rnd.over:
        return objective(python_cost(match), match.opts.unit_of(me), WEIGHT)
    values = []
    for move in rnd.legal_moves():
        child = match.copy()
        child.push(move)
        values.append(expectimin(child, me))
    return min(values) if rnd.turn == me else sum(values) / len(values)


def search(match: Match, playouts: int, seed: int = 1, worlds: int = 1) -> tuple[list[float], int]:
    """Each legal move's mean objective by the tree search of ``worlds`` copies of the real
    position, and the tree's nodes."""
    rnd = match.round
    moves = rnd.legal_moves()
    scoring = pack_scoring(GOAT, match.opts, match.sheet, match.eggs, PENALTY)
    costs, nodes = _kernel.tree_search(
        [pack_round(rnd)] * worlds,
        scoring,
        [to_kernel(m) for m in moves],
        playouts,
        seed,
        model(rnd.turn),
        WEIGHT,
        0.5,
    )
    unit = match.opts.unit_of(rnd.turn)
    return [objective(c, unit, WEIGHT) / (playouts * worlds) for c in costs], nodes


def positions(count: int, left: int) -> list[Match]:
    """Goat positions with at most ``left`` tiles in the hands where the seat to move has a
    choice now and a later one."""
    found = []
    for seed in range(400):
        match = position(GOAT, {}, seed, left)
        if match is not None and len(match.round.legal_moves()) > 1:
            me = match.round.turn
            if match.round.hands[me].bit_count() >= 3:
                found.append(match)
        if len(found) == count:
            break
    return found


POSITIONS = 8


@pytest.fixture(scope="module")
def late_positions() -> list[Match]:
    return positions(POSITIONS, 11)


@pytest.mark.parametrize("index", range(POSITIONS))
def test_one_worlds_tree_finds_our_best_later_choices(
    late_positions: list[Match], index: int
) -> None:
    match = late_positions[index]
    me = match.round.turn
    values, _ = search(match, 20000)
    for move, value in zip(match.round.legal_moves(), values, strict=True):
        child = match.copy()
        child.push(move)
        assert value == pytest.approx(expectimin(child, me), abs=0.1), move


def test_flat_playouts_misjudge_some_of_these_positions(late_positions: list[Match]) -> None:
    """The positions above tell the tree from flat playouts (our later turns by the greedy
    heuristic): on some of them flat playouts are off by more than four times the tree's
    tolerance."""
    worst = 0.0
    for match in late_positions:
        rnd = match.round
        moves = rnd.legal_moves()
        scoring = pack_scoring(GOAT, match.opts, match.sheet, match.eggs, PENALTY)
        flat = _kernel.evaluate(
            pack_round(rnd),
            scoring,
            [to_kernel(m) for m in moves],
            20000,
            GREEDY,
            1,
            model(rnd.turn),
        )
        unit = match.opts.unit_of(rnd.turn)
        for move, costs in zip(moves, flat, strict=True):
            child = match.copy()
            child.push(move)
            error = abs(objective(costs, unit, WEIGHT) / 20000 - expectimin(child, rnd.turn))
            worst = max(worst, error)
    assert worst > 0.4


def test_worlds_that_show_the_same_moves_share_their_nodes() -> None:
    """Three copies of a world are one world to the tree: their nodes are about those of one
    world played three times as often, not three trees of one world's."""
    match = positions(1, 22)[0]
    _, one = search(match, 200)
    _, thrice = search(match, 600)
    _, copies = search(match, 200, worlds=3)
    assert copies < 1.15 * thrice
    assert copies < 0.85 * 3 * one


def test_a_seed_repeats_its_search() -> None:
    match = positions(1, 12)[0]
    assert search(match, 200, seed=5) == search(match, 200, seed=5)
    assert search(match, 200, seed=5) != search(match, 200, seed=6)


@pytest.mark.parametrize("preset", ["", "goat-125"])
@pytest.mark.parametrize("budget", [Budget(worlds=8, playouts=4), Budget(seconds=0.002)])
def test_the_expert_with_the_tree_plays_rounds_out(preset: str, budget: Budget) -> None:
    """The tree search in the expert (a benchmark's variant), by a count of worlds and by the
    clock (then the worlds are searched in batches), with a bazaar to draw from too: every
    move it chooses is legal and the round ends."""
    opts = GOAT.options(dict(GOAT.presets[preset]) if preset else {})
    match = Match(GOAT, opts, 7)
    bot = ExpertBot(seed=1, budget=budget, tuning=Tuning(tree=0.7))
    rnd = match.next_round()
    while not rnd.over:
        view = view_for(match, rnd.turn)
        move = bot.choose(view)
        assert move in view.legal_moves
        match.push(move)
    assert bot.worlds > 0

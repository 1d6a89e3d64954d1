"""The compiled kernel plays exactly as the reference engine: every move, every count."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace

import pytest

from kozel.core import Move
from kozel.games import BLOCK, BYKOVO, DRAW
from kozel.layout.bots.greedy import GreedyBot
from kozel.layout.bots.kernel import (
    GREEDY,
    GREEDY_WEIGHTS,
    LINEAR,
    UNIFORM,
    KernelUnsupported,
    SplitMix,
    _kernel,
    from_kernel,
    pack_model,
    pack_round,
    pack_scoring,
    supports,
    to_kernel,
)
from kozel.layout.bots.sampling import lacked_values
from kozel.layout.history import plays_of
from kozel.layout.match import Match
from kozel.layout.scoring.base import Scoring
from kozel.layout.scoring.goat import Account
from kozel.layout.views import view_for
from tests.randomplay import CORRECTED_SETS, MATRIX, OPTION_SETS, option_sets

ROUNDS_PER_SET = 300
PENALTY = 150.0
SETS = [*OPTION_SETS, *MATRIX, (BYKOVO, {}), *CORRECTED_SETS]


def python_cost(match: Match) -> list[float]:
    """What the round just finished cost each unit under the game's scoring policy, as the
    kernel costs it: the charge (plus the penalty for becoming the Goat) in Goat; minus the
    change of the score (less the penalty for winning the game) in the races."""
    result = match.results[-1]
    over = match.result
    costs = []
    for u, (before, after, entry) in enumerate(
        zip(result.before, result.after, result.entries, strict=True)
    ):
        if match.rules is BYKOVO:  # a seat's cost is its score: its count, the winner's 0
            cost = float(after - before)
        elif isinstance(before, Account):
            cost = float(entry["charged"])
            limit = match.opts.loss_limit  # type: ignore[attr-defined]
            if after.account >= limit > before.account:
                cost += PENALTY
        else:
            cost = float(before - after)
            if over is not None and u in over.winners:
                cost -= PENALTY
        costs.append(cost)
    return costs


def compare_from(match: Match, seed: int) -> int:
    """Let the kernel play the match's round out with splitmix choices, replay the same
    choices in the engine, and compare move lists, moves, the end, the hands and what the
    round costs each unit. Returns the moves made."""
    rnd = match.round
    scoring = pack_scoring(match.rules, match.opts, match.sheet, match.eggs, PENALTY)
    log, end_kind, end_seat, hands, costs = _kernel.trace(pack_round(rnd), seed, scoring)
    rng = SplitMix(seed)
    for step, (turn, count, kernel_move, points) in enumerate(log):
        moves = rnd.legal_moves()
        assert turn == rnd.turn, f"step {step}"
        assert count == len(moves), f"step {step}: {moves}"
        assert [to_kernel(m) for m in moves][rng.next() % count] == kernel_move
        match.push(from_kernel(kernel_move))
        assert points == 0
    assert rnd.end is not None
    assert (end_kind, end_seat) == ({"out": 1, "fish": 2, "sortir": 3}[rnd.end.kind], rnd.end.seat)
    assert tuple(rnd.hands) == hands
    assert costs == python_cost(match)
    return len(log)


@pytest.mark.parametrize("index", range(len(SETS)))
def test_kernel_agrees_with_the_engine(index: int) -> None:
    """Move by move and round cost by round cost, from deals and from positions part-way
    through a round, after a few earlier rounds so that the sheet is not empty."""
    rules, raw = SETS[index]
    opts = rules.options(raw)
    picker = random.Random(index)
    total = 0
    rounds = ROUNDS_PER_SET if index < len(OPTION_SETS) else ROUNDS_PER_SET // 2
    for seed in range(rounds):
        match = Match(rules, opts, seed)
        for _ in range(picker.randrange(0, 4)):
            rnd = match.next_round()
            while not rnd.over:
                moves = rnd.legal_moves()
                match.push(moves[picker.randrange(len(moves))])
            if match.over:
                break
        if match.over:
            continue
        rnd = match.next_round()
        # start from the deal, or from a random position part-way through the round
        for _ in range(picker.randrange(0, 12)):
            if rnd.over:
                break
            moves = rnd.legal_moves()
            match.push(moves[picker.randrange(len(moves))])
        if not rnd.over:
            total += compare_from(match, seed * 7919 + index)
    assert total > rounds * 3


def test_the_kernel_refuses_a_scoring_it_does_not_know() -> None:
    """A game whose scoring policy the kernel does not know is refused, never costed as
    Goat: by the Python side, and by the kernel itself for an unknown scoring kind."""
    odd = replace(DRAW, id="odd", scoring=Scoring)
    assert not supports(odd)
    with pytest.raises(KernelUnsupported, match="does not know how odd scores"):
        pack_scoring(odd, DRAW.options(), (0, 0, 0, 0), 0, PENALTY)
    match = Match(DRAW, DRAW.options(), 1)
    match.next_round()
    scoring = pack_scoring(DRAW, match.opts, match.sheet, 0, PENALTY)
    with pytest.raises(ValueError, match="does not know this game's scoring"):
        _kernel.trace(pack_round(match.round), 1, (7, *scoring[1:]))


def test_kernel_lists_moves_like_legal_moves_in_a_crowded_donkey_position() -> None:
    """Several doubles and closing: the move lists agree in content and order."""
    rules, opts = option_sets()[8]  # Donkey, 4 players
    checked = 0
    for seed in range(400):
        match = Match(rules, opts, seed)
        rnd = match.next_round()
        while not rnd.over:
            moves = rnd.legal_moves()
            if len(moves) > 6:
                log, *_ = _kernel.trace(pack_round(rnd), 1)
                assert log[0][1] == len(moves)
                checked += 1
            rnd.push(moves[seed % len(moves)])
    assert checked > 50


def part_way(index: int, seeds: int) -> Iterator[tuple[int, Match]]:
    """For each of ``seeds`` seeds, a match of option set ``index`` whose first round is
    part-way through (up to 15 random moves, seeded by ``index``): the seed and the match."""
    rules, raw = SETS[index]
    opts = rules.options(raw)
    picker = random.Random(index)
    for seed in range(seeds):
        match = Match(rules, opts, seed)
        rnd = match.next_round()
        for _ in range(picker.randrange(0, 16)):
            if rnd.over:
                break
            moves = rnd.legal_moves()
            match.push(moves[picker.randrange(len(moves))])
        if not rnd.over:
            yield seed, match


@pytest.mark.parametrize("index", range(len(SETS)))
def test_the_greedy_playout_policy_is_the_greedy_bot(index: int) -> None:
    """Policy 2 scores every legal move as GreedyBot.score does (in tenths), keeps the
    values each seat lacks as sampling.lacked_values does, and plays a best move."""
    bot = GreedyBot()
    steps = checked = 0
    for seed, match in part_way(index, 60):
        rnd = match.round
        model = pack_model(view_for(match, rnd.turn), GREEDY, 0, GREEDY, 0)
        for turn, count, kernel_move, lacks, scores in _kernel.model_trace(
            pack_round(rnd), model, seed
        ):
            view = view_for(match, rnd.turn)
            moves = list(view.legal_moves)
            assert turn == rnd.turn and count == len(moves)
            assert list(lacks) == lacked_values(view)
            if count > 1:  # the bot scores only real choices
                expected = [round(10 * bot.score(view, m, list(lacks))) for m in moves]
                assert scores == expected, [str(m) for m in moves]
                assert scores[[to_kernel(m) for m in moves].index(kernel_move)] == max(scores)
                checked += 1
            match.push(from_kernel(kernel_move))
            steps += 1
        assert rnd.over
    assert steps > 300 and checked > 50


@pytest.mark.parametrize("index", range(len(SETS)))
def test_the_linear_policy_with_the_greedy_weights_is_the_greedy_policy(index: int) -> None:
    """The linear policy's features, weighted by GREEDY_WEIGHTS, score every legal move as
    GreedyBot.score does (in tenths), and its playouts are the greedy policy's move for move."""
    bot = GreedyBot()
    scoring_games = checked = 0
    for seed, match in part_way(index, 30):
        rnd = match.round
        view = view_for(match, rnd.turn)
        moves = list(view.legal_moves)
        kernel_moves = [to_kernel(m) for m in moves]
        greedy = pack_model(view, GREEDY, 0, GREEDY, 0)
        linear = pack_model(view, LINEAR, 0, LINEAR, 0, GREEDY_WEIGHTS)
        state = pack_round(rnd)
        scoring = pack_scoring(match.rules, match.opts, match.sheet, match.eggs, PENALTY)
        assert _kernel.evaluate(state, scoring, kernel_moves, 8, GREEDY, seed, linear) == (
            _kernel.evaluate(state, scoring, kernel_moves, 8, GREEDY, seed, greedy)
        )
        if getattr(match.rules.scoring, "scores_during_play", False) or view.asking >= 0:
            scoring_games += 1  # the linear policy scores these moves as the greedy one
            continue
        lacks = lacked_values(view)
        for move, features in zip(
            moves, _kernel.features(state, linear, kernel_moves), strict=True
        ):
            if features is None:  # the move goes out
                assert not view.hand_mask & ~_tiles_of(move)
                continue
            if not plays_of(move):  # a draw or a knock: scored as the greedy policy does
                continue
            weighted = sum(w * f for w, f in zip(GREEDY_WEIGHTS, features, strict=True))
            assert weighted == pytest.approx(10 * bot.score(view, move, lacks))
            checked += 1
    assert checked > 20 or scoring_games > 10


def _tiles_of(move: Move) -> int:
    """The mask of the tiles ``move`` lays."""
    return sum(1 << p.tile for p in plays_of(move))


@pytest.mark.parametrize("teams", [True, False])
def test_the_partner_plays_our_policy_only_when_asked_and_only_in_team_play(teams: bool) -> None:
    """With ``partner_as_own`` the partner's turns in a playout follow our seat's policy (here
    uniform) in team play; the opponents, and the seat opposite without teams, always play
    the greedy policy's best move."""
    opts = BLOCK.options({"players": 4, "teams": teams})
    off_greedy = {True: 0, False: 0}  # partner turns with a choice not greedy-best, by flag
    for seed in range(40):
        for partner_as_own in (True, False):
            match = Match(BLOCK, opts, seed)
            rnd = match.next_round()
            me = rnd.turn
            model = pack_model(view_for(match, me), UNIFORM, 0, GREEDY, 0, None, partner_as_own)
            for turn, count, move, _, scores in _kernel.model_trace(pack_round(rnd), model, seed):
                moves = [to_kernel(m) for m in rnd.legal_moves()]
                assert turn == rnd.turn and count == len(moves)
                if turn != me and count > 1:
                    best = scores[moves.index(move)] == max(scores)
                    if turn == (me + 2) % 4:
                        off_greedy[partner_as_own] += not best
                    else:
                        assert best
                match.push(from_kernel(move))
    assert off_greedy[False] == 0
    assert (off_greedy[True] > 0) == teams

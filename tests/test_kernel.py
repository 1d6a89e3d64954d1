"""The compiled kernel plays exactly as the reference engine: every move, every count."""

from __future__ import annotations

import random

import pytest

from kozel.bots.greedy import GreedyBot
from kozel.bots.kernel import (
    GREEDY,
    SplitMix,
    _kernel,
    from_kernel,
    pack_model,
    pack_round,
    to_kernel,
)
from kozel.bots.sampling import lacked_values
from kozel.match import Match
from kozel.round import Round
from kozel.views import view_for
from tests.randomplay import OPTION_SETS, option_sets

ROUNDS_PER_SET = 300


def compare_from(rnd: Round, seed: int) -> int:
    """Let the kernel play ``rnd`` out with splitmix choices, replay the same choices in the
    engine, and compare move lists, moves, the end and the hands. Returns the moves made."""
    log, end_kind, end_seat, hands = _kernel.trace(pack_round(rnd), seed)
    rng = SplitMix(seed)
    for step, (turn, count, kernel_move) in enumerate(log):
        moves = rnd.legal_moves()
        assert turn == rnd.turn, f"step {step}"
        assert count == len(moves), f"step {step}: {moves}"
        assert [to_kernel(m) for m in moves][rng.next() % count] == kernel_move
        move = from_kernel(kernel_move)
        rnd.push(move)
    assert rnd.end is not None
    assert (end_kind, end_seat) == ({"out": 1, "fish": 2}[rnd.end.kind], rnd.end.seat)
    assert tuple(rnd.hands) == hands
    return len(log)


@pytest.mark.parametrize("index", range(len(OPTION_SETS)))
def test_kernel_agrees_with_the_engine(index: int) -> None:
    rules, opts = option_sets()[index]
    picker = random.Random(index)
    total = 0
    for seed in range(ROUNDS_PER_SET):
        match = Match(rules, opts, seed)
        rnd = match.next_round()
        # start from the deal, or from a random position part-way through the round
        for _ in range(picker.randrange(0, 12)):
            if rnd.over:
                break
            moves = rnd.legal_moves()
            rnd.push(moves[picker.randrange(len(moves))])
        if not rnd.over:
            total += compare_from(rnd, seed * 7919 + index)
    assert total > ROUNDS_PER_SET * 5


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


@pytest.mark.parametrize("index", range(len(OPTION_SETS)))
def test_the_greedy_playout_policy_is_the_greedy_bot(index: int) -> None:
    """Policy 2 scores every legal move as GreedyBot.score does (in tenths), keeps the
    values each seat lacks as sampling.lacked_values does, and plays a best move."""
    rules, opts = option_sets()[index]
    picker = random.Random(index)
    bot = GreedyBot()
    steps = checked = 0
    for seed in range(60):
        match = Match(rules, opts, seed)
        rnd = match.next_round()
        for _ in range(picker.randrange(0, 16)):
            if rnd.over:
                break
            moves = rnd.legal_moves()
            match.push(moves[picker.randrange(len(moves))])
        if rnd.over:
            continue
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

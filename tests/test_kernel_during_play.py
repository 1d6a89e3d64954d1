"""The compiled kernel plays the games that score during play exactly as the reference engine:
every legal move list, every move, the points of every lay, how the round ends, the hands left
and what the round costs each unit (All Fives, Telephone, All Threes, Threes and Fives and
Bergen, over each option set of tests.randomplay.DURING_MATRIX)."""

from __future__ import annotations

import math
import random
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kozel.games import ALL_FIVES, BERGEN, GAMES, THREES_FIVES
from kozel.layout.bots.expert import points_so_far
from kozel.layout.bots.greedy import GreedyBot
from kozel.layout.bots.inference import past_decisions
from kozel.layout.bots.kernel import (
    GREEDY,
    KernelUnsupported,
    SplitMix,
    _kernel,
    from_kernel,
    pack_model,
    pack_round,
    pack_scoring,
    pack_state,
    supports,
    to_kernel,
)
from kozel.layout.bots.sampling import lacked_values
from kozel.layout.match import Match
from kozel.layout.rules import Ruleset
from kozel.layout.scoring.end_count import AllFivesScoring
from kozel.layout.views import view_for
from tests.randomplay import DURING_MATRIX, DURING_PLAY_GAMES

PENALTY = 150.0
ROUNDS_PER_SET = 60


def random_position(rules: Ruleset, raw: dict[str, object], seed: int) -> Match | None:
    """A match of the option set after 0–3 random rounds, part-way (0–15 random moves) into
    the next round; ``None`` when the game ended first or the round did."""
    picker = random.Random(seed)
    match = Match(rules, rules.options(raw), seed)
    for _ in range(picker.randrange(0, 4)):
        rnd = match.next_round()
        while not rnd.over:
            moves = rnd.legal_moves()
            match.push(moves[picker.randrange(len(moves))])
        if match.over:
            return None
    rnd = match.next_round()
    for _ in range(picker.randrange(0, 16)):
        if rnd.over:
            return None
        moves = rnd.legal_moves()
        match.push(moves[picker.randrange(len(moves))])
    return None if rnd.over else match


def compare_from(match: Match, seed: int) -> int:
    """Let the kernel play the round out with splitmix choices from ``match``'s position,
    replay the same choices in the engine and compare move lists, moves, each lay's points,
    the end, the hands and each unit's cost from the position on. Returns the moves made."""
    rnd = match.round
    sheet, during = list(match.sheet), list(match.during)
    scoring = pack_scoring(match.rules, match.opts, match.sheet, match.eggs, PENALTY, during)
    log, end_kind, end_seat, hands, costs = _kernel.trace(pack_round(rnd), seed, scoring)
    rng = SplitMix(seed)
    for step, (turn, count, kernel_move, points) in enumerate(log):
        moves = rnd.legal_moves()
        assert turn == rnd.turn, f"step {step}"
        assert count == len(moves), f"step {step}: {moves}"
        assert [to_kernel(m) for m in moves][rng.next() % count] == kernel_move
        match.push(from_kernel(kernel_move))
        assert points == match.points[-1], f"step {step}: {from_kernel(kernel_move)}"
    assert rnd.end is not None
    assert (end_kind, end_seat) == ({"out": 1, "fish": 2}[rnd.end.kind], rnd.end.seat)
    assert tuple(rnd.hands) == hands
    result, over = match.results[-1], match.result
    expected = []
    for unit, after in enumerate(result.after):
        cost = float(int(sheet[unit]) + during[unit] - int(after))
        if over is not None and unit in over.winners:
            cost -= PENALTY
        expected.append(cost)
    assert costs == expected
    return len(log)


@pytest.mark.parametrize("index", range(len(DURING_MATRIX)))
def test_the_kernel_plays_and_scores_as_the_engine(index: int) -> None:
    """Seeded rounds of every option set, from deals and from positions part-way through a
    round, after earlier rounds (so that the sheet and the next leader vary)."""
    rules, raw = DURING_MATRIX[index]
    total = scored = 0
    for seed in range(ROUNDS_PER_SET):
        match = random_position(rules, raw, seed * 31 + index)
        if match is None:
            continue
        before = sum(match.during)
        total += compare_from(match, seed * 7919 + index)
        scored += sum(match.results[-1].points) > before
    assert total > ROUNDS_PER_SET * 3
    assert scored > 0


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(0, len(DURING_MATRIX) - 1),
    st.integers(0, 2**32 - 1),
    st.integers(0, 2**64 - 1),
)
def test_any_position_plays_out_as_in_the_engine(index: int, deal: int, seed: int) -> None:
    """Any option set, any seeded position, any playout choices."""
    rules, raw = DURING_MATRIX[index]
    match = random_position(rules, raw, deal)
    if match is not None:
        compare_from(match, seed)


@st.composite
def option_combinations(draw: st.DrawFn) -> tuple[Ruleset, dict[str, object]]:
    """Any of the five games with any combination of its options (a small or the usual
    target, every choice and flag; teams only with 4 players)."""
    rules = draw(st.sampled_from(DURING_PLAY_GAMES))
    raw: dict[str, object] = {}
    for spec in rules.option_specs:
        if spec.kind == "bool":
            raw[spec.name] = draw(st.booleans())
        elif spec.choices:
            raw[spec.name] = draw(st.sampled_from(spec.choices))
        elif spec.name == "target":
            raw[spec.name] = draw(st.sampled_from([spec.default, spec.minimum or 1, 7]))
    if raw.get("teams"):
        raw["players"] = 4
    return rules, raw


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(option_combinations(), st.integers(0, 2**32 - 1), st.integers(0, 2**64 - 1))
def test_any_option_combination_plays_out_as_in_the_engine(
    combination: tuple[Ruleset, dict[str, object]], deal: int, seed: int
) -> None:
    """Options combined freely (the matrix changes one at a time): the kernel supports every
    combination the games accept, and plays it as the engine."""
    rules, raw = combination
    assert supports(rules)
    match = random_position(rules, raw, deal)
    if match is not None:
        compare_from(match, seed)


@pytest.mark.parametrize("index", range(len(DURING_MATRIX)))
def test_the_greedy_playout_policy_takes_the_points_as_the_greedy_bot(index: int) -> None:
    """Policy 2 scores every legal move as GreedyBot.score does (in tenths), immediate points
    first, keeps the values each seat lacks as sampling.lacked_values does (a draw when able
    proves nothing) and plays a best move."""
    rules, raw = DURING_MATRIX[index]
    bot = GreedyBot()
    steps = checked = 0
    for seed in range(200):  # until enough positions are compared (a short target ends fast)
        if steps > 100 and checked > 20:
            break
        match = random_position(rules, raw, seed * 13 + index)
        if match is None:
            continue
        rnd = match.round
        model = pack_model(view_for(match, rnd.turn), GREEDY, 0, GREEDY, 0)
        for turn, count, kernel_move, lacks, scores in _kernel.model_trace(
            pack_round(rnd), model, seed
        ):
            view = view_for(match, rnd.turn)
            moves = list(view.legal_moves)
            assert turn == rnd.turn and count == len(moves)
            assert list(lacks) == lacked_values(view)
            if count > 1:
                expected = [round(10 * bot.score(view, m, list(lacks))) for m in moves]
                assert scores == expected, [str(m) for m in moves]
                assert scores[[to_kernel(m) for m in moves].index(kernel_move)] == max(scores)
                checked += 1
            match.push(from_kernel(kernel_move))
            steps += 1
        assert rnd.over
    assert steps > 100 and checked > 20


@pytest.mark.parametrize("rules", DURING_PLAY_GAMES, ids=lambda r: r.id)
def test_inference_replays_a_greedy_seat_with_its_points(rules: Ruleset) -> None:
    """With the true hands, every earlier play of a greedy seat is one of its greedy-best
    moves in the kernel's replay (which needs the points each lay would have scored): the
    greedy log-likelihood without noise is finite."""
    checked = 0
    for seed in range(12):
        match = Match(rules, rules.options(), seed)
        rnd = match.next_round()
        bots = [GreedyBot(seed + s) for s in range(match.opts.players)]
        while not rnd.over:
            view = view_for(match, rnd.turn)
            if rnd.turn == 0 and len(rnd.history) > 6:
                decisions = past_decisions(view)
                if decisions:
                    model = pack_model(view, GREEDY, 0, GREEDY, 0)
                    position = pack_state(
                        rules, match.opts, [0] * match.opts.players, [], 0, 0,
                        [-1] * 4, [False] * 4, -1, -1, 0, 0, -1, -1,
                    )  # fmt: skip
                    logs = _kernel.explain(position, model, decisions, [tuple(rnd.hands)], 0.0)
                    greedy = logs[0][::2]
                    assert all(math.isfinite(x) for x in greedy[1:]), greedy
                    checked += 1
            match.push(bots[rnd.turn].choose(view))
    assert checked > 5


def test_the_kernel_supports_exactly_the_games_it_implements() -> None:
    """Every game of the registry is supported; a scoring subclass it does not know, or a
    fish rule other than Bergen's with Bergen's scoring, is refused."""
    assert all(supports(rules) for rules in GAMES.values())

    class Sevens(AllFivesScoring):
        @staticmethod
        def lay(total: int) -> int:
            return total if total % 7 == 0 else 0

    sevens = replace(ALL_FIVES, id="sevens", scoring=Sevens)
    assert not supports(sevens)
    with pytest.raises(KernelUnsupported, match="sevens"):
        pack_scoring(sevens, sevens.options(), (0, 0, 0, 0), 0, PENALTY)
    odd_block = replace(BERGEN, id="odd_block", fish_winner=lambda opts, hands, seat: seat)
    assert not supports(odd_block)
    assert not supports(replace(THREES_FIVES, fish_winner=BERGEN.fish_winner))
    match = Match(BERGEN, BERGEN.options(), 1)
    match.next_round()
    with pytest.raises(ValueError, match="how this game's lays score"):
        _kernel.trace((*pack_round(match.round)[:19], 9), 1)
    scoring = pack_scoring(BERGEN, match.opts, match.sheet, 0, PENALTY)
    with pytest.raises(ValueError, match="does not know this game's scoring"):
        _kernel.trace(pack_round(match.round), 1, (*scoring[:17], 17, 1))


@pytest.mark.parametrize("index", range(len(DURING_MATRIX)))
def test_the_expert_reads_the_rounds_points_from_its_view(index: int) -> None:
    """The points the expert starts its playouts from (the round's so far, per unit, from the
    public history) are the match's."""
    rules, raw = DURING_MATRIX[index]
    checked = 0
    for seed in range(10):
        match = random_position(rules, raw, seed)
        if match is not None:
            assert points_so_far(view_for(match, match.round.turn)) == match.during
            checked += 1
    assert checked

"""bench/imitation.py: the fit of a linear playout policy to recorded choices."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import imitation
from imitation import Decision, agreement, fit, load, solve

from kozel.layout.bots.kernel import GREEDY_WEIGHTS


def test_solve_solves_a_linear_system() -> None:
    matrix = [[2.0, 1.0, 0.0], [0.0, 3.0, 1.0], [1.0, 0.0, 4.0]]
    x = solve(matrix, [3.0, 6.0, 13.0])
    assert [round(v, 9) for v in x] == [1.0, 1.0, 3.0]


def synthetic(weights: list[float], count: int, seed: int) -> list[Decision]:
    """Decisions whose chosen move is the best under ``weights``."""
    rng = random.Random(seed)
    decisions: list[Decision] = []
    for _ in range(count):
        features = [
            [float(rng.randint(0, 6)) for _ in GREEDY_WEIGHTS] for _ in range(rng.randint(2, 4))
        ]
        scores = imitation.scores(weights, features)
        decisions.append((features, scores.index(max(scores)), 20))
    return decisions


def test_the_fit_learns_weights_that_make_the_recorded_choices() -> None:
    """Choices made by other weights than the greedy ones: the fitted weights reproduce them
    on decisions they were not fitted to, and much better than the greedy weights."""
    rng = random.Random(7)
    truth = [rng.uniform(-1, 1) for _ in GREEDY_WEIGHTS]
    train, held = synthetic(truth, 300, 1), synthetic(truth, 200, 2)
    weights = fit(train, rounds=8)
    assert agreement(weights, held) > 0.85
    assert agreement(weights, held) > agreement(GREEDY_WEIGHTS, held) + 0.3


def test_load_reads_decisions_and_the_last_seed(tmp_path: Path) -> None:
    path = tmp_path / "d.jsonl"
    assert load(path) == ([], -1)
    lines = [
        {"seed": 4, "f": [[1.0] * 16, [0.0] * 16], "c": 1, "left": 20},
        {"seed": 5, "f": [[2.0] * 16, [3.0] * 16], "c": 0, "left": 9},
    ]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    decisions, last = load(path)
    assert last == 5
    assert decisions[1] == ([[2.0] * 16, [3.0] * 16], 0, 9)

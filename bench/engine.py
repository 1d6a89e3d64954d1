"""`make bench`: engine, kernel and expert speed on one core, against the targets.

The engine's figure is compared side by side with the most popular Python domino library,
`dominoes` (PyPI; `make bench` installs it), on the same one-core work: complete random
4-player rounds with all 28 tiles dealt, legal moves generated and one picked at random.
The two are measured in turns (interleaved) and the ratio is taken per turn, since this
machine's absolute speed drifts with its load.
"""

from __future__ import annotations

import json
import random
import time
from statistics import median

from kozel.benchmark import (
    engine_rounds_per_second,
    expert_decision_ms,
    playout_rounds_per_second,
)
from kozel.games import GAMES, GOAT

TARGETS = {
    "playout_rounds_per_second": 1_000_000,
}
RATIO_TARGET = 3.0
"""Kozel's engine must play at least 3x the rounds of the reference library."""
DECISION_MS_TARGET = 250
TURNS = 3


def dominoes_rounds_per_second(seconds: float, seed: int = 1) -> float:
    """Random complete 4-player games (one hand, all 28 tiles dealt) of the `dominoes`
    library through its public API: ``Game.new()``, ``valid_moves``, ``make_move``."""
    import dominoes

    rng = random.Random(seed)
    pick = rng.random
    rounds = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(20):
            game = dominoes.Game.new()
            while game.result is None:
                moves = game.valid_moves
                game.make_move(*moves[int(pick() * len(moves))])
        rounds += 20
        now = time.perf_counter()
        if now >= deadline:
            return rounds / (now - start)


def main() -> None:
    ours: list[float] = []
    theirs: list[float] = []
    for turn in range(TURNS):
        ours.append(engine_rounds_per_second(seconds=2.0, seed=turn + 1))
        theirs.append(dominoes_rounds_per_second(seconds=2.0, seed=turn + 1))
    ratios = [a / b for a, b in zip(ours, theirs, strict=True)]
    by_game = {r.id: round(engine_rounds_per_second(2.0, rules=r)) for r in GAMES.values()}
    kernel = playout_rounds_per_second(2_000_000)
    decisions = {}
    for rules in GAMES.values():
        timings = expert_decision_ms(games=2 if rules is GOAT else 1, rules=rules)
        decisions[rules.id] = (median(timings), max(timings), len(timings))
    figures = {
        "engine_rounds_per_second": round(median(ours)),
        "dominoes_rounds_per_second": round(median(theirs)),
        "engine_over_dominoes": round(median(ratios), 2),
        "engine_rounds_per_second_by_game": by_game,
        "playout_rounds_per_second": round(kernel),
        "expert_decision_ms_median": {g: round(d[0], 1) for g, d in decisions.items()},
    }
    print(json.dumps(figures))
    turns = ", ".join(f"{a:,.0f}/{b:,.0f}" for a, b in zip(ours, theirs, strict=True))
    print(
        f"{'engine / dominoes':28} {median(ratios):>12.2f}x  (target {RATIO_TARGET}x; "
        f"4-player Goat vs dominoes rounds/s per turn: {turns})"
    )
    for game, rate in by_game.items():
        print(f"{game + ' engine rounds/s':28} {rate:>12,}")
    for key, target in TARGETS.items():
        print(f"{key:28} {figures[key]:>12,}  ({figures[key] / target:.2f}x the {target:,} target)")
    for game, (middle, slowest, count) in decisions.items():
        print(
            f"{game + ' expert ms':28} {middle:>12.1f}  "
            f"({middle / DECISION_MS_TARGET:.2f}x the {DECISION_MS_TARGET} ms limit; "
            f"{count} decisions, slowest {slowest:.0f} ms)"
        )


if __name__ == "__main__":
    main()

"""`make strength`: bot strength in duplicate matches (a long benchmark, not a test).

For each game it plays stronger vs weaker bots in seats 0+2 vs 1+3 with duplicate deals
until at least --rounds rounds are played, and prints each level's mean charge per round
(Goat family; lower is better) or mean points per round (the races; higher is better) with
its 95% confidence interval and the ratio of the two (Goat target: <= 0.75 for expert/greedy
and for greedy/random in 4-player Goat with default options; in the races the stronger
bot should score more: a ratio above 1).

    .venv/bin/python bench/strength.py --rounds 2000
    .venv/bin/python bench/strength.py --rounds 2000 --games goat --pairs expert/greedy
    .venv/bin/python bench/strength.py --rounds 1000 --games draw,sea_goat --pairs expert/greedy
    .venv/bin/python bench/strength.py --rounds 400 --games during --pairs expert/greedy
    .venv/bin/python bench/strength.py --rounds 600 --games goat-125 --pairs expert/expert-0

``expert-0`` is the expert as it was before the exact endgame search and before it counted the
opponents in full in the two-unit races (weight 0.35 everywhere), ``expert-x`` the expert with
the search but the old weight, ``expert-w1`` the expert that counts the opponents' points in
full in every game (``expert-w5`` and ``expert-w2``: at 0.5 and 0.2 where the expert counts
0.35), ``expert-e20`` the expert whose exact search may visit twenty times the
positions its playouts would (so it searches from about 22 tiles left in team Block, not 16),
``expert-c4`` the expert that drew its worlds from four candidates each, not sixteen
(``expert-c1``: one each, no inference from the other seats' plays), ``expert-t`` the expert
that searches its seat's later decisions in a tree shared by the worlds (UCB exploration 0.7),
``expert-tp`` the same with exploration 0.2 and a node's first sixteen visits by the playout
policy, ``expert-pe24`` and ``expert-pe26`` the expert searching every world exactly from 24 or
26 tiles left, ``expert-l`` the expert whose own later turns in the playouts follow the linear
policy fitted to its choices in Goat (bench/imitation.py), ``expert-lb`` its own and its
partner's by the one fitted in team Block in every game (in team Block: the expert), and
``expert-g`` the expert whose own and partner's turns follow the greedy heuristic in every
game (the expert before 8 December): variants of the search to measure against each other
(``kozel.layout.bots.expert.Tuning``); ``--jobs 2`` plays two batches at once, ``--batch`` sets
the games in a batch and ``--partial`` prints the figures after every batch too. A batch's seed
is ``--seed`` plus its number, so the same arguments give the same deals.

``--games during`` stands for the five games that score during play (All Fives, Telephone,
All Threes, Threes and Fives, Bergen); for the races each line also gives the margin, the
stronger level's mean points per player-round less the weaker's, with its 95% interval.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import time
from collections.abc import Callable

from kozel.engine.options import Options
from kozel.games import (
    ALL_FIVES,
    ALL_THREES,
    BERGEN,
    BLOCK,
    CLASSIC,
    DONKEY,
    DRAW,
    GOAT,
    SEA_GOAT,
    TELEPHONE,
    THREES_FIVES,
)
from kozel.layout.bots import LEVELS, Bot
from kozel.layout.bots.expert import LEARNED_WEIGHTS, ExpertBot, Tuning
from kozel.layout.rules import Ruleset
from kozel.simulate import Summary, simulate

GAMES: dict[str, tuple[Ruleset, Options]] = {
    "goat": (GOAT, GOAT.options()),
    "goat-125": (GOAT, GOAT.options(GOAT.presets["goat-125"])),
    "team-goat": (GOAT, GOAT.options({"teams": True})),
    "donkey": (DONKEY, DONKEY.options()),
    "draw": (DRAW, DRAW.options()),
    "block": (BLOCK, BLOCK.options()),
    "team-block": (BLOCK, BLOCK.options({"players": 4, "teams": True})),
    "classic": (CLASSIC, CLASSIC.options()),
    "sea_goat": (SEA_GOAT, SEA_GOAT.options()),
    "all_fives": (ALL_FIVES, ALL_FIVES.options()),
    "telephone": (TELEPHONE, TELEPHONE.options()),
    "all_threes": (ALL_THREES, ALL_THREES.options()),
    "threes_fives": (THREES_FIVES, THREES_FIVES.options()),
    "bergen": (BERGEN, BERGEN.options()),
}
DURING_PLAY = "all_fives,telephone,all_threes,threes_fives,bergen"
PAIRS = ["greedy/random", "expert/greedy"]
TARGET = 0.75
# fmt: off
GOAT_IMITATION = (2.709, 10.035, 6.665, -2.873, 5.954, 0.0, -10.397, -1.877,
                  -2.077, 4.026, 2.684, -10.035, -0.015, -3.586, 5.003, 4.746)
"""The linear playout policy fitted to the expert's choices in Goat by bench/imitation.py
(``--game goat --seed 1000 --games 60`` and ``--seed 2000 --games 60``, one file: 12,234
decisions)."""
# fmt: on
VARIANTS: dict[str, Tuning] = {
    "expert-0": Tuning(exact_factor=0.0, two_unit_race_weight=None),
    "expert-x": Tuning(two_unit_race_weight=None),
    "expert-w1": Tuning(opponent_weight=1.0),
    "expert-w5": Tuning(opponent_weight=0.5),
    "expert-w2": Tuning(opponent_weight=0.2),
    "expert-e20": Tuning(exact_factor=20.0),
    "expert-c4": Tuning(candidates=4),
    "expert-c1": Tuning(candidates=1),
    "expert-t": Tuning(tree=0.7),
    "expert-tp": Tuning(tree=0.2, tree_patience=16),
    "expert-pe24": Tuning(exact_tiles=24, exact_worlds=100),
    "expert-pe26": Tuning(exact_tiles=26, exact_worlds=40),
    "expert-l": Tuning(own_weights=GOAT_IMITATION),
    "expert-lb": Tuning(own_weights=LEARNED_WEIGHTS["block"], partner_as_own=True),
    "expert-g": Tuning(learned=False),
}
"""Variants of the expert's search, as levels of this benchmark only."""


def variant(tuning: Tuning) -> Callable[[int | None], Bot]:
    return lambda seed: ExpertBot(seed, tuning=tuning)


def register_variants() -> None:
    """Make the variants levels that :func:`kozel.simulate.simulate` can seat (in this
    process only: importing this module changes nothing)."""
    for name, tuning in VARIANTS.items():
        LEVELS.setdefault(name, variant(tuning))


def _batch(args: tuple[Ruleset, Options, list[str], int, int]) -> Summary:
    rules, opts, lineup, seed, games = args
    return simulate(rules, opts, lineup, games, seed, duplicate=True)


def measure(
    rules: Ruleset,
    opts: Options,
    strong: str,
    weak: str,
    rounds: int,
    seed: int = 1000,
    jobs: int = 1,
    games: int = 10,
    on_batch: Callable[[Summary], None] | None = None,
) -> Summary:
    lineup = [strong, weak] * (opts.players // 2)
    total = Summary(
        rules.id, rules.options_dict(opts), lineup, sheet=rules.sheet_kind, duplicate=True
    )
    batch = 0
    played = 0
    pool = multiprocessing.get_context("fork").Pool(jobs) if jobs > 1 else None
    try:
        while played < rounds:
            batches = [(rules, opts, lineup, seed + batch + j, games) for j in range(jobs)]
            parts = pool.map(_batch, batches) if pool else [_batch(batches[0])]
            for part in parts:
                total.outcomes += part.outcomes
            batch += len(batches)
            played = sum(o.rounds for o in total.outcomes)
            if on_batch is not None and played < rounds:
                on_batch(total)
            print(
                f"\r{rules.id} {strong}/{weak}: {played}/{rounds} rounds", end="", file=sys.stderr
            )
    finally:
        if pool:
            pool.close()
    print(file=sys.stderr)
    return total


def figures(name: str, pair: str, summary: Summary, seconds: float) -> dict[str, object]:
    """The JSON line of one game and pair: the ratio (and, in the races, the margin) with
    their 95% intervals, each level's mean, and the verdict against the target."""
    rules = GAMES[name][0]
    ratio = summary.ratio()
    assert ratio is not None
    _, _, value, low, high = ratio
    means = summary.level_means()
    rounds = sum(o.rounds for o in summary.outcomes)
    if rules.sheet_kind == "goat":
        verdict = "meets" if high <= TARGET else "ok" if value <= TARGET else "misses"
        target = f"{verdict} <= {TARGET}"
    else:
        verdict = "beats" if low > 1 else "ahead" if value > 1 else "behind"
        target = f"{verdict} (> 1: the first scores more)"
    line: dict[str, object] = {
        "game": name,
        "pair": pair,
        "rounds": rounds,
        "games": len(summary.outcomes),
        "ratio": round(value, 4),
        "ci95": [round(low, 4), round(high, 4)],
        "means": {k: round(v[0], 3) for k, v in means.items()},
        "means_ci95": {k: [round(v[1], 3), round(v[2], 3)] for k, v in means.items()},
        "seconds": round(seconds),
        "target": target,
    }
    margin = summary.margin()
    if margin is not None and rules.sheet_kind != "goat":
        line["margin"] = round(margin[2], 3)
        line["margin_ci95"] = [round(margin[3], 3), round(margin[4], 3)]
    return line


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2000)
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--pairs", default=",".join(PAIRS))
    parser.add_argument("--seed", type=int, default=1000, help="the first batch's seed")
    parser.add_argument("--jobs", type=int, default=1, help="batches played at once")
    parser.add_argument("--batch", type=int, default=10, help="games in a batch (each twice)")
    parser.add_argument(
        "--partial", action="store_true", help="print the figures so far after every batch too"
    )
    args = parser.parse_args()
    register_variants()
    names = args.games.replace("during", DURING_PLAY)
    for name in names.split(","):
        rules, opts = GAMES[name]
        for pair in args.pairs.split(","):
            strong, weak = pair.split("/")
            start = time.perf_counter()

            def partial(
                summary: Summary, name: str = name, pair: str = pair, start: float = start
            ) -> None:
                line = figures(name, pair, summary, time.perf_counter() - start)
                print(json.dumps({**line, "partial": True}), flush=True)

            summary = measure(
                rules,
                opts,
                strong,
                weak,
                args.rounds,
                args.seed,
                args.jobs,
                args.batch,
                partial if args.partial else None,
            )
            print(json.dumps(figures(name, pair, summary, time.perf_counter() - start)), flush=True)


if __name__ == "__main__":
    main()

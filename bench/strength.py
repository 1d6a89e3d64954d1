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
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from kozel.games import BLOCK, CLASSIC, DONKEY, DRAW, GOAT, SEA_GOAT
from kozel.options import Options
from kozel.rules import Ruleset
from kozel.simulate import Summary, simulate

GAMES: dict[str, tuple[Ruleset, Options]] = {
    "goat": (GOAT, GOAT.options()),
    "team-goat": (GOAT, GOAT.options({"teams": True})),
    "donkey": (DONKEY, DONKEY.options()),
    "draw": (DRAW, DRAW.options()),
    "block": (BLOCK, BLOCK.options()),
    "classic": (CLASSIC, CLASSIC.options()),
    "sea_goat": (SEA_GOAT, SEA_GOAT.options()),
}
PAIRS = ["greedy/random", "expert/greedy"]
TARGET = 0.75


def measure(rules: Ruleset, opts: Options, strong: str, weak: str, rounds: int) -> Summary:
    lineup = [strong, weak] * (opts.players // 2)
    total = Summary(
        rules.id, rules.options_dict(opts), lineup, sheet=rules.sheet_kind, duplicate=True
    )
    batch = 0
    played = 0
    while played < rounds:
        part = simulate(rules, opts, lineup, 10, 1000 + batch, duplicate=True)
        total.outcomes += part.outcomes
        batch += 1
        played = sum(o.rounds for o in total.outcomes)
        print(f"\r{rules.id} {strong}/{weak}: {played}/{rounds} rounds", end="", file=sys.stderr)
    print(file=sys.stderr)
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2000)
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--pairs", default=",".join(PAIRS))
    args = parser.parse_args()
    for name in args.games.split(","):
        rules, opts = GAMES[name]
        for pair in args.pairs.split(","):
            strong, weak = pair.split("/")
            start = time.perf_counter()
            summary = measure(rules, opts, strong, weak, args.rounds)
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
            print(
                json.dumps(
                    {
                        "game": name,
                        "pair": pair,
                        "rounds": rounds,
                        "games": len(summary.outcomes),
                        "ratio": round(value, 4),
                        "ci95": [round(low, 4), round(high, 4)],
                        "means": {k: round(v[0], 3) for k, v in means.items()},
                        "seconds": round(time.perf_counter() - start),
                        "target": target,
                    }
                ),
                flush=True,
            )


if __name__ == "__main__":
    main()

"""`make bench` (the levels' table): the margins of the club's levels against each other.

The club offers four levels, weakest first: beginner, amateur, strong, expert
(:data:`kozel.layout.bots.CLUB_LEVELS`). For each game and each adjacent pair it plays the stronger
level against the weaker on duplicate deals (seats 0+2 against 1+3; every game's deals played
a second time with the levels rotated one seat, so the luck of the deal largely cancels) and
prints the stronger level's margin per player and round: in the Goat family what the weaker
is charged less what the stronger is (points saved), in the races the points the stronger
scores more, in Poker the chips it wins more, each with a 95% interval clustered by game.
The levels are *monotone* in a game when every adjacent margin is above 0; *measured* when
its interval is too.

    .venv/bin/python bench/levels.py                      # every game below, 300 rounds a pair
    .venv/bin/python bench/levels.py --games goat --rounds 1000
    .venv/bin/python bench/levels.py --games goat --pairs strong/amateur --max-seconds 600

One JSON line per game and pair, then a table.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from itertools import pairwise
from typing import Any

from kozel.engine.game import Game
from kozel.engine.options import Options
from kozel.games import ALL_GAMES, BLOCK, GOAT
from kozel.layout.bots import CLUB_LEVELS
from kozel.simulate import Summary, simulate

GAMES: dict[str, tuple[Game, Options]] = {
    "goat": (GOAT, GOAT.options()),
    "team-block": (BLOCK, BLOCK.options({"players": 4, "teams": True})),
    "trumps": (ALL_GAMES["trumps"], ALL_GAMES["trumps"].options()),
    "poker": (ALL_GAMES["poker"], ALL_GAMES["poker"].options({"players": 4})),
}
PAIRS = [f"{strong}/{weak}" for weak, strong in pairwise(CLUB_LEVELS)]


def measure(
    game: Game, opts: Options, strong: str, weak: str, rounds: int, seed: int, limit: float
) -> Summary:
    """Duplicate games of ``strong`` against ``weak`` until ``rounds`` rounds are played (or
    ``limit`` seconds have passed, at least one duplicate pair)."""
    lineup = [strong, weak] * (opts.players // 2)
    if opts.players % 2:
        lineup.append(weak)
    total = Summary(game.id, game.options_dict(opts), lineup, sheet=game.sheet_kind, duplicate=True)
    start = time.perf_counter()
    batch = 0
    played = 0
    while played < rounds and (batch == 0 or time.perf_counter() - start < limit):
        part = simulate(game, opts, lineup, 2, seed + batch, duplicate=True)
        total.outcomes += part.outcomes
        batch += 1
        played = sum(o.rounds for o in total.outcomes)
        print(f"\r{game.id} {strong}/{weak}: {played}/{rounds} rounds", end="", file=sys.stderr)
    print(file=sys.stderr)
    total.seconds = time.perf_counter() - start
    return total


def margin_of(summary: Summary) -> tuple[float, float, float]:
    """The first level's advantage per player and round, with its 95% interval (in the Goat
    family a charge: the weaker's less the stronger's)."""
    found = summary.margin()
    assert found is not None
    _, _, value, low, high = found
    if summary.sheet == "goat":
        return -value, -high, -low
    return value, low, high


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=300, help="rounds per game and pair")
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--pairs", default=",".join(PAIRS))
    parser.add_argument("--seed", type=int, default=2700)
    parser.add_argument(
        "--max-seconds", type=float, default=1800.0, help="per game and pair, at most"
    )
    args = parser.parse_args()
    rows: list[dict[str, Any]] = []
    for name in args.games.split(","):
        game, opts = GAMES[name]
        for pair in args.pairs.split(","):
            strong, weak = pair.split("/")
            summary = measure(game, opts, strong, weak, args.rounds, args.seed, args.max_seconds)
            value, low, high = margin_of(summary)
            unit = {"goat": "points saved", "chips": "chips"}.get(summary.sheet, "points")
            row = {
                "game": name,
                "pair": pair,
                "games": len(summary.outcomes),
                "rounds": sum(o.rounds for o in summary.outcomes),
                "margin": round(value, 3),
                "ci95": [round(low, 3), round(high, 3)],
                "unit": f"{unit} per player and round",
                "verdict": "measured" if low > 0 else "ahead" if value > 0 else "NOT AHEAD",
                "seconds": round(summary.seconds),
            }
            rows.append(row)
            print(json.dumps(row), flush=True)
    print()
    print(f"{'game':<11} {'pair':<18} {'rounds':>6} {'margin':>8}  {'95% interval':<18} verdict")
    for row in rows:
        low, high = row["ci95"]
        interval = f"[{low:+.2f}, {high:+.2f}]"
        print(
            f"{row['game']:<11} {row['pair']:<18} {row['rounds']:>6} {row['margin']:>+8.2f}"
            f"  {interval:<18} {row['verdict']}"
        )
    for name in dict.fromkeys(r["game"] for r in rows):
        margins = [r["margin"] for r in rows if r["game"] == name]
        if len(margins) == len(PAIRS):
            monotone = all(m > 0 for m in margins)
            print(f"{name}: levels {'monotone' if monotone else 'NOT monotone'}")


if __name__ == "__main__":
    main()

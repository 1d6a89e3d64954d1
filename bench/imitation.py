"""A playout policy learned from the expert's own choices (a benchmark's experiment).

The expert's playouts play our seat's later turns (and, in team play, our partner's) by the
greedy heuristic with one move in eight at random, although the expert itself chooses
otherwise: in Goat its move is the greedy favourite 58% of the time, in team Block 48%. This
plays games of ``--game`` with the expert in seats 0 and 2 and greedy in 1 and 3 and records,
at every expert decision with a choice and no move that goes out, the features of each legal
move of the kernel's linear policy (``kozel.layout.bots.kernel.GREEDY_WEIGHTS`` says which)
and the expert's choice; then it fits a conditional logit (the chance of a move proportional
to exp(weights . features)) by Newton's method with a ridge of 1, starting from the greedy
weights, on four fifths of the decisions, and prints how often the greedy weights and the
fitted ones pick the expert's move on the fifth held out, by tiles left in the hands, and the
fitted weights (bench/strength.py's ``GOAT_IMITATION``; team Block's are the expert's
``LEARNED_WEIGHTS``).

    .venv/bin/python bench/imitation.py --game goat --seed 1000 --games 60 --out goat.jsonl
    .venv/bin/python bench/imitation.py --game goat --seed 2000 --games 60 --out goat.jsonl
    .venv/bin/python bench/imitation.py --game team-block --seed 3000 --games 40 \\
        --out block.jsonl

A rerun with the same ``--out`` adds the games after those recorded (``--fit-only`` fits
what is there); the two Goat runs above may go side by side into two files, concatenated in
order afterwards. docs/bots.md says what the variants that play by these weights measured.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Sequence
from pathlib import Path

from strength import GAMES

from kozel.layout.bots.expert import PLAYOUT_POLICY, ExpertBot
from kozel.layout.bots.greedy import GreedyBot
from kozel.layout.bots.kernel import GREEDY_WEIGHTS, _kernel, pack_model, pack_round, to_kernel
from kozel.layout.match import Match
from kozel.layout.views import view_for

Decision = tuple[list[list[float]], int, int]
"""Each legal move's features, the index of the expert's move, the tiles left in the hands."""
GROUPS = ((22, 28), (15, 21), (8, 14), (2, 7))
RIDGE = 1.0


def collect(game: str, first: int, games: int, out: Path) -> None:
    """Play ``games`` games from seed ``first`` and append the expert's decisions to ``out``."""
    rules, opts = GAMES[game]
    with out.open("a") as file:
        for seed in range(first, first + games):
            match = Match(rules, opts, seed)
            bots = [
                ExpertBot(seed * 4 + s) if s % 2 == 0 else GreedyBot(seed * 4 + s)
                for s in range(opts.players)
            ]
            count = 0
            while not match.over:
                rnd = match.next_round()
                while not rnd.over:
                    view = view_for(match, rnd.turn)
                    move = bots[rnd.turn].choose(view)
                    moves = view.legal_moves
                    if rnd.turn % 2 == 0 and len(moves) > 1:
                        model = pack_model(view, *PLAYOUT_POLICY)
                        kernel_moves = [to_kernel(m) for m in moves]
                        features = _kernel.features(pack_round(rnd), model, kernel_moves)
                        if all(f is not None for f in features):
                            line = {
                                "seed": seed,
                                "f": features,
                                "c": moves.index(move),
                                "left": sum(view.hand_sizes),
                            }
                            file.write(json.dumps(line) + "\n")
                            count += 1
                    match.push(move)
            file.flush()
            print(f"game {seed}: {count} decisions", file=sys.stderr)


def load(path: Path) -> tuple[list[Decision], int]:
    """The decisions recorded in ``path``, and the last game's seed (-1: none)."""
    decisions: list[Decision] = []
    last = -1
    if path.exists():
        for line in path.read_text().splitlines():
            d = json.loads(line)
            decisions.append((d["f"], d["c"], d["left"]))
            last = max(last, d["seed"])
    return decisions, last


def scores(weights: Sequence[float], features: list[list[float]]) -> list[float]:
    return [sum(w * f for w, f in zip(weights, x, strict=True)) for x in features]


def agreement(weights: Sequence[float], decisions: Sequence[Decision]) -> float:
    """The share of ``decisions`` where the best-scoring move is the expert's (ties shared)."""
    hits = 0.0
    for features, chosen, _ in decisions:
        s = scores(weights, features)
        ties = [i for i, v in enumerate(s) if v >= max(s) - 1e-9]
        hits += (chosen in ties) / len(ties)
    return hits / max(1, len(decisions))


def log_likelihood(weights: Sequence[float], decisions: Sequence[Decision]) -> float:
    """The ridge-penalised log likelihood of the expert's choices."""
    total = 0.0
    for features, chosen, _ in decisions:
        s = scores(weights, features)
        top = max(s)
        total += s[chosen] - top - math.log(sum(math.exp(v - top) for v in s))
    return total - 0.5 * RIDGE * sum(w * w for w in weights)


def fit(decisions: Sequence[Decision], rounds: int = 12) -> list[float]:
    """The conditional logit's weights, by Newton's method with a halving line search."""
    k = len(GREEDY_WEIGHTS)
    weights = [w / 10 for w in GREEDY_WEIGHTS]
    for _ in range(rounds):
        gradient = [-RIDGE * w for w in weights]
        hessian = [[RIDGE if a == b else 0.0 for b in range(k)] for a in range(k)]
        for features, chosen, _ in decisions:
            s = scores(weights, features)
            top = max(s)
            e = [math.exp(v - top) for v in s]
            p = [v / sum(e) for v in e]
            mean = [sum(p[i] * features[i][j] for i in range(len(p))) for j in range(k)]
            for j in range(k):
                gradient[j] += features[chosen][j] - mean[j]
            for i, row in enumerate(features):
                d = [row[j] - mean[j] for j in range(k)]
                for a in range(k):
                    if d[a]:
                        for b in range(k):
                            hessian[a][b] += p[i] * d[a] * d[b]
        step = solve(hessian, gradient)
        base, t = log_likelihood(weights, decisions), 1.0
        while t > 1e-3:
            trial = [w + t * s for w, s in zip(weights, step, strict=True)]
            if log_likelihood(trial, decisions) >= base:
                weights = trial
                break
            t /= 2
    return weights


def solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """x with matrix . x = vector (Gauss-Jordan with partial pivoting)."""
    n = len(vector)
    m = [[*row, vector[i]] for i, row in enumerate(matrix)]
    for i in range(n):
        pivot = max(range(i, n), key=lambda r: abs(m[r][i]))
        m[i], m[pivot] = m[pivot], m[i]
        for r in range(n):
            if r != i and m[i][i]:
                factor = m[r][i] / m[i][i]
                for c in range(i, n + 1):
                    m[r][c] -= factor * m[i][c]
    return [m[i][n] / m[i][i] if m[i][i] else 0.0 for i in range(n)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="goat", choices=sorted(GAMES))
    parser.add_argument("--games", type=int, default=10, help="games wanted in all")
    parser.add_argument("--seed", type=int, default=1000, help="the first game's seed")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--fit-only", action="store_true")
    args = parser.parse_args()
    _, last = load(args.out)
    first = max(args.seed, last + 1)
    if not args.fit_only and first < args.seed + args.games:
        collect(args.game, first, args.seed + args.games - first, args.out)
    decisions, _ = load(args.out)
    train = [d for i, d in enumerate(decisions) if i % 5]
    held = [d for i, d in enumerate(decisions) if i % 5 == 0]
    weights = fit(train)
    print(f"{len(decisions)} decisions; the expert's move chosen on the fifth held out:")
    greedy, fitted = agreement(GREEDY_WEIGHTS, held), agreement(weights, held)
    print(f"  greedy weights {greedy:.3f}, fitted {fitted:.3f}")
    for low, high in GROUPS:
        group = [d for d in held if low <= d[2] <= high]
        if group:
            print(
                f"  {low}-{high} tiles left ({len(group)}): greedy "
                f"{agreement(GREEDY_WEIGHTS, group):.3f}, fitted {agreement(weights, group):.3f}"
            )
    print("weights", tuple(round(10 * w, 3) for w in weights))


if __name__ == "__main__":
    main()

"""How well the expert's worlds place the other hands' tiles, by candidates per world kept.

The expert samples the worlds it searches from what its seat has seen, and keeps those that
best explain the other seats' earlier plays under the greedy model, drawing each kept world
from ``candidates`` sampled ones (:mod:`kozel.layout.bots.expert`). This plays games of Goat
(four players, default options) between greedy players and, at every decision of seat 0
with two or more legal moves once four moves are down, asks the expert's own world drawing
for ``--worlds`` worlds with each count of candidates and counts the tiles of the other
three hands it placed in the hand that really holds them: the share placed right, and the
milliseconds the drawing took a position. One candidate is no inference at all.

    .venv/bin/python bench/inference.py --games 6 --candidates 1,4,16,64,256
    .venv/bin/python bench/inference.py --noise 0.01 --prior 0.99

A diagnostic, not a bot's strength: docs/bots.md says what it showed.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import kozel.layout.bots.expert as expert
from kozel.games import GOAT
from kozel.layout.bots.expert import PLAYOUT_POLICY, ExpertBot, Tuning
from kozel.layout.bots.greedy import GreedyBot
from kozel.layout.bots.inference import past_decisions
from kozel.layout.bots.kernel import pack_model
from kozel.layout.bots.sampling import Sampler
from kozel.layout.match import Match
from kozel.layout.views import view_for


def measure(
    games: int, counts: list[int], worlds: int
) -> tuple[int, dict[int, float], dict[int, float]]:
    """Positions seen, and per count of candidates the share of the other hands' tiles
    placed right and the seconds spent drawing worlds."""
    placed = {c: 0 for c in counts}
    held = {c: 0 for c in counts}
    spent = {c: 0.0 for c in counts}
    positions = 0
    opts = GOAT.options()
    for seed in range(games):
        match = Match(GOAT, opts, seed)
        bots = [GreedyBot() for _ in range(opts.players)]
        while not match.over:
            rnd = match.next_round()
            while not rnd.over:
                view = view_for(match, rnd.turn)
                if rnd.turn == 0 and len(rnd.legal_moves()) > 1 and len(view.history) > 4:
                    positions += 1
                    for count in counts:
                        bot = ExpertBot(seed=positions, tuning=Tuning(candidates=count))
                        started = time.perf_counter()
                        sampler = Sampler(view, bot.rng)
                        model = pack_model(view, *PLAYOUT_POLICY)
                        decisions = past_decisions(view) if count > 1 else []
                        drawn = bot._worlds(view, sampler, model, decisions, worlds)
                        spent[count] += time.perf_counter() - started
                        for world in drawn:
                            for seat in range(1, opts.players):
                                placed[count] += (world.hands[seat] & rnd.hands[seat]).bit_count()
                                held[count] += rnd.hands[seat].bit_count()
                match.push(bots[rnd.turn].choose(view))
    share = {c: placed[c] / max(1, held[c]) for c in counts}
    return positions, share, spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=6, help="games of Goat to play (default 6)")
    parser.add_argument("--candidates", default="1,4,16,64", help="counts to compare")
    parser.add_argument("--worlds", type=int, default=100, help="worlds a position (100)")
    parser.add_argument("--noise", type=float, default=expert.MODEL_NOISE, help="the model's noise")
    parser.add_argument("--prior", type=float, default=expert.GREEDY_PRIOR, help="its prior")
    args = parser.parse_args()
    counts = [int(c) for c in args.candidates.split(",")]
    expert.MODEL_NOISE, expert.GREEDY_PRIOR = args.noise, args.prior
    positions, share, spent = measure(args.games, counts, args.worlds)
    print(
        f"{positions} positions of seat 0 in {args.games} games; "
        f"noise {args.noise}, prior {args.prior}"
    )
    for count in counts:
        line = {
            "candidates": count,
            "placed_right": round(share[count], 4),
            "ms_a_position": round(1000 * spent[count] / max(1, positions), 1),
        }
        print(json.dumps(line))
    sys.stdout.flush()


if __name__ == "__main__":
    main()

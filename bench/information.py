"""What the hidden tiles cost the expert, by how far the round has gone.

At every decision of seat 0 with two or more legal moves in games of Goat (four players,
default options) between greedy players (bench/inference.py's positions), the expert decides
as it does in play, from worlds drawn from what the seat has seen, and an oracle decides by
the same search in the real deal (every world the true one: what the expert would play if it
saw every hand). The oracle's values of the two choices give the expert's loss at that
position: what the oracle expects the expert's move to cost more than its own, in the
expert's objective (its own charge less 0.35 of the others' mean, the Goat's penalty
included). Positions are grouped by the tiles left in the hands; for each group the share of
positions where the two choose differently and the mean loss a position. ``--worlds`` gives
the expert more (or fewer) worlds a decision than its 200: how much of its loss more samples
of the same worlds would win back.

    .venv/bin/python bench/information.py --games 40 [--worlds 800]

A diagnostic, not a bot's strength: docs/bots.md says what it showed.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from inference import seat_zero_choices

from kozel.layout.bots.expert import Budget, ExpertBot
from kozel.layout.bots.sampling import Sampler, World
from kozel.layout.views import SeatView

if TYPE_CHECKING:
    from kozel._kernel import DecisionTuple, ModelTuple

GROUPS = ((22, 28), (15, 21), (8, 14), (2, 7))
"""Tiles left in the hands, inclusive bounds, the round's start first."""


class Oracle(ExpertBot):
    """The expert whose every world is the real deal, as ``real`` gives it at each decision
    (bench/peer_match.py's ``expert-seeing`` too)."""

    def __init__(self, real: Callable[[], World], seed: int | None) -> None:
        super().__init__(seed)
        self.real = real

    def _worlds(
        self,
        view: SeatView,
        sampler: Sampler,
        model: ModelTuple,
        decisions: list[DecisionTuple],
        count: int,
    ) -> list[World]:
        real = self.real()
        return [World(list(real.hands), [], real.reserve) for _ in range(count)]


def measure(
    games: int, budget: Budget | None = None
) -> dict[tuple[int, int], list[tuple[bool, float]]]:
    """Per group of tiles left, at each position whether the expert (on ``budget``, else its
    own) chose another move than the oracle, and its loss."""
    losses: dict[tuple[int, int], list[tuple[bool, float]]] = defaultdict(list)
    for number, (game, view, hands) in enumerate(seat_zero_choices(games), 1):
        chosen = ExpertBot(seed=number, budget=budget).choose(view)
        ranked = Oracle(partial(World, hands, [], 0), number).analyse(view)
        value = dict(ranked)[chosen]
        left = sum(view.hand_sizes)
        group = next(g for g in GROUPS if g[0] <= left <= g[1])
        losses[group].append((chosen != ranked[0][0], value - ranked[0][1]))
        print(f"\rgame {game + 1}/{games}: {number} positions", end="", file=sys.stderr)
    print(file=sys.stderr)
    return losses


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument(
        "--worlds",
        type=int,
        default=None,
        help="the expert's worlds a decision (its own budget: 200; the oracle keeps it)",
    )
    args = parser.parse_args()
    losses = measure(args.games, Budget(worlds=args.worlds) if args.worlds else None)
    total = sum(loss for group in losses.values() for _, loss in group)
    for group in GROUPS:
        seen = losses.get(group, [])
        line = {
            "tiles_left": f"{group[0]}-{group[1]}",
            "positions": len(seen),
            "differ": round(sum(differ for differ, _ in seen) / max(1, len(seen)), 3),
            "mean_loss": round(sum(loss for _, loss in seen) / max(1, len(seen)), 3),
            "share_of_the_loss": round(sum(loss for _, loss in seen) / max(1e-9, total), 3),
        }
        print(json.dumps(line))


if __name__ == "__main__":
    main()

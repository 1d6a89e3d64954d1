"""The engine benchmark: complete random rounds through the public API, on one core."""

from __future__ import annotations

import random
import time

from kozel.round import Round, deal_tiles
from kozel.rules import GOAT, Ruleset


def engine_rounds_per_second(
    seconds: float = 3.0, seed: int = 1, rules: Ruleset = GOAT, players: int = 4
) -> float:
    """Deal, then play uniformly random legal moves with ``legal_moves()`` and ``push()``
    until the round ends and its counts are taken; rounds completed per second."""
    opts = rules.options({"players": players})
    rng = random.Random(seed)
    pick = rng.random
    rounds = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(100):
            deal, _redeals = deal_tiles(rng, players)
            leader, first = rules.first_leader(deal.masks)
            rnd = Round(rules, opts, deal, leader, 1 << first)
            while rnd.end is None:
                moves = rnd.legal_moves()
                rnd.push(moves[int(pick() * len(moves))])
            rnd.counts()
        rounds += 100
        now = time.perf_counter()
        if now >= deadline:
            return rounds / (now - start)

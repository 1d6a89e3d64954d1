"""Helpers for tests that play random games."""

from __future__ import annotations

import random
from collections.abc import Callable

from kozel.match import Match
from kozel.round import Round
from kozel.rules import DONKEY, GOAT, Options, Ruleset

OPTION_SETS: list[tuple[Ruleset, dict[str, object]]] = [
    (GOAT, {}),
    (GOAT, {"players": 2}),
    (GOAT, {"players": 3, "bazaar_reserve": 1, "fish_mode": "own_to_loser"}),
    (GOAT, {"players": 2, "bazaar_reserve": 2, "fish_ignores_double": False}),
    (GOAT, {"fish_mode": "all_to_loser", "lone_zero_value": 25}),
    (GOAT, dict(GOAT.presets["goat-125"])),
    (GOAT, dict(GOAT.presets["yard"])),
    (GOAT, {"teams": True, "fish_mode": "own_to_loser"}),
    (DONKEY, {}),
    (DONKEY, {"players": 2, "bazaar_reserve": 2}),
    (DONKEY, {"players": 3, "fish_ignores_double": True, "fish_mode": "everyone"}),
    (DONKEY, {"teams": True, "lead_by": "winner_partner", "fish_mode": "all_to_loser"}),
]


def option_sets() -> list[tuple[Ruleset, Options]]:
    return [(rules, rules.options(raw)) for rules, raw in OPTION_SETS]


def play_random(
    rules: Ruleset,
    opts: Options,
    seed: int,
    on_move: Callable[[Match, Round], None] | None = None,
) -> Match:
    """A whole game of uniformly random legal moves; ``on_move`` sees every position."""
    rng = random.Random(seed ^ 0x5EED)
    match = Match(rules, opts, seed)
    while not match.over:
        rnd = match.next_round()
        while not rnd.over:
            if on_move is not None:
                on_move(match, rnd)
            moves = rnd.legal_moves()
            match.push(moves[int(rng.random() * len(moves))])
    return match

"""Helpers for tests that play random games."""

from __future__ import annotations

import random
from collections.abc import Callable

from kozel.core import InvalidOption
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
from kozel.layout.match import Match
from kozel.layout.round import Round
from kozel.layout.rules import Ruleset

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

CORRECTED_SETS: list[tuple[Ruleset, dict[str, object]]] = [
    (GOAT, dict(GOAT.presets["penalty-classic"])),
    (GOAT, {"players": 3, "special_doubles": True, "first_lead": "zero_zero"}),
    (GOAT, {"hand_sizes": "by_players", "teams": True, "first_lead": "six_six"}),
    (DONKEY, {"players": 3, "hand_sizes": "by_players", "first_lead": "six_six"}),
    (DONKEY, {"players": 2, "fish_mode": "all_to_loser"}),
]
"""Goat and Donkey with the options of the rulebook's corrections (the traditional deal and
first leads, the penalty classic, Yard Goat's doubles without teams); the Donkey sets end rounds
by two doubles closed at once."""


def option_sets() -> list[tuple[Ruleset, Options]]:
    return [(rules, rules.options(raw)) for rules, raw in OPTION_SETS]


def option_matrix(rules: Ruleset) -> list[dict[str, object]]:
    """A game's option sets, generated from its declared options: the defaults, then each
    option changed alone (every other choice, the other flag, an integer a quarter of its
    default, or 5 when the default is 0); a set that needs another option (teams needs 4
    players) gets it."""
    sets: list[dict[str, object]] = [{}]
    for spec in rules.option_specs:
        if spec.kind == "bool":
            values: list[object] = [not spec.default]
        elif spec.choices:
            values = [c for c in spec.choices if c != spec.default]
        else:
            assert isinstance(spec.default, int)
            values = [max(spec.minimum or 0, spec.default // 4) or 5]
        for value in values:
            raw: dict[str, object] = {spec.name: value}
            try:
                rules.options(raw)
            except InvalidOption:
                raw = {"players": 4, "teams": True, **raw}
                rules.options(raw)
            sets.append(raw)
    return sets


NEW_GAMES = (DRAW, BLOCK, CLASSIC, SEA_GOAT)
MATRIX: list[tuple[Ruleset, dict[str, object]]] = [
    (rules, raw) for rules in NEW_GAMES for raw in option_matrix(rules)
]
"""The option sets of the games that came with the game protocol, from the registry."""

DURING_PLAY_GAMES = (ALL_FIVES, TELEPHONE, ALL_THREES, THREES_FIVES, BERGEN)
DURING_MATRIX: list[tuple[Ruleset, dict[str, object]]] = [
    (rules, raw) for rules in DURING_PLAY_GAMES for raw in option_matrix(rules)
] + [
    (THREES_FIVES, {"players": 2, "keep_last": True, "draw_when_able": True}),
    (THREES_FIVES, {"players": 3, "spinner": True, "hand_sizes": "by_players"}),
    (TELEPHONE, {"players": 2, "doubles_at_once": True}),
    (BERGEN, {"players": 4, "teams": True, "target": 3}),
]
"""The option sets of the games that score during play (the end-count games and Bergen): each
option alone, and a few combinations."""


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

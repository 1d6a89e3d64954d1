"""``kozel bench``: the engine's, the playout kernel's and the expert's speed."""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from statistics import median
from typing import Annotated, Any

import typer

from kozel.cli.common import out
from kozel.games import ALL_GAMES, GAMES


@dataclass
class Measurements:
    """What ``kozel bench`` measured, unrounded."""

    engine: float
    """Random 4-player Goat rounds per second through the public API."""
    engine_by_game: dict[str, int]
    playouts: float
    """Random 4-player Goat rounds per second through the compiled kernel."""
    kernel_by_game: dict[str, int]
    turns: list[tuple[float, float]]
    """The kernel's Goat and All Fives rates, measured in turns side by side."""
    decision_ms_by_game: dict[str, list[float]]
    """The expert's time for each decision with a choice, by game."""

    def to_json(self) -> dict[str, Any]:
        """The figures of ``kozel bench --json``."""
        timings = self.decision_ms_by_game["goat"]
        return {
            "engine_rounds_per_second": round(self.engine),
            "engine_rounds_per_second_by_game": self.engine_by_game,
            "playout_rounds_per_second": round(self.playouts),
            "kernel_rounds_per_second_by_game": self.kernel_by_game,
            "kernel_all_fives_to_goat": {
                "turns": [[round(g), round(f), round(f / g, 3)] for g, f in self.turns],
                "median_ratio": self.fives_to_goat,
            },
            "expert_decision_ms_median": round(median(timings), 2) if timings else None,
            "expert_decision_ms_median_by_game": {
                game: round(median(ms), 2) if ms else None
                for game, ms in self.decision_ms_by_game.items()
            },
        }

    @property
    def fives_to_goat(self) -> float:
        """The median of the turns' All Fives / Goat ratios, to three places."""
        return round(median(f / g for g, f in self.turns), 3)


def bench(
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    seconds: Annotated[float, typer.Option(help="How long to measure the engine.")] = 5.0,
    games: Annotated[
        int, typer.Option(help="Games of each game for the expert's decision times.")
    ] = 2,
) -> None:
    """Measure the engine, the playout kernel and the expert's thinking time (one core), in
    4-player Goat and in every game (the kernel in every layout game it plays; the expert's
    time in every game, Poker and Trumps included). The kernel's All
    Fives rate is also given as a ratio to its Goat rate, measured in turns side by side (this
    machine's speed drifts with its load); the target is 0.5 or more."""
    measured = measure(seconds, games)
    if as_json:
        sys.stdout.write(json.dumps(measured.to_json()) + "\n")
        return
    _print_measurements(measured)


def measure(seconds: float, games: int) -> Measurements:
    """Measure the engine for about ``seconds`` (a fifth of it in each game), the kernel in
    proportion, and the expert in ``games`` games of each game."""
    from kozel.benchmark import (
        engine_rounds_per_second,
        expert_decision_ms,
        playout_rounds_per_second,
    )
    from kozel.layout.bots.kernel import supports

    engine = engine_rounds_per_second(seconds)
    by_game = {
        rules.id: round(engine_rounds_per_second(max(0.5, seconds / 5), rules=rules))
        for rules in GAMES.values()
    }
    playouts = playout_rounds_per_second(max(10_000, int(seconds * 300_000)))
    per_game = max(10_000, int(seconds * 40_000))
    kernel_by_game = {
        rules.id: round(playout_rounds_per_second(per_game, rules=rules))
        for rules in GAMES.values()
        if supports(rules)
    }
    turns = []
    for turn in range(3):
        goat = playout_rounds_per_second(per_game, seed=turn + 1)
        fives = playout_rounds_per_second(per_game, seed=turn + 1, rules=GAMES["all_fives"])
        turns.append((goat, fives))
    timings_by_game = {
        rules.id: expert_decision_ms(games, rules=rules) for rules in ALL_GAMES.values()
    }
    return Measurements(engine, by_game, playouts, kernel_by_game, turns, timings_by_game)


def _print_measurements(measured: Measurements) -> None:
    out.print(
        f"engine:  {measured.engine:>12,.0f} random 4-player Goat rounds/s through the public API"
    )
    for game, rate in measured.engine_by_game.items():
        out.print(f"         {rate:>12,} random 4-player {game} rounds/s")
    out.print(
        f"kernel:  {measured.playouts:>12,.0f} random 4-player Goat rounds/s (compiled playouts)"
    )
    for game, rate in measured.kernel_by_game.items():
        out.print(f"         {rate:>12,} random 4-player {game} rounds/s")
    out.print(
        f"         {measured.fives_to_goat:>12.3f} All Fives / Goat, in turns side by side "
        "(target >= 0.5)"
    )
    for game, ms in measured.decision_ms_by_game.items():
        if ms:
            out.print(
                f"expert:  {median(ms):>12.1f} ms median per decision in {game} "
                f"({len(ms)} decisions, slowest {max(ms):.0f} ms)"
            )

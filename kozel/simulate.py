"""Complete games between computer players, and what they add up to."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from kozel.bots import Bot, make_bot
from kozel.match import Match
from kozel.rules import Options, Ruleset
from kozel.views import view_for


def play_match(rules: Ruleset, opts: Options, bots: list[Bot], seed: int | None) -> Match:
    """Play one whole game; each bot sees only its own seat's view."""
    match = Match(rules, opts, seed)
    while not match.over:
        rnd = match.next_round()
        while not rnd.over:
            moves = rnd.legal_moves()
            move = moves[0] if len(moves) == 1 else bots[rnd.turn].choose(view_for(match, rnd.turn))
            match.push(move)
    return match


@dataclass
class SeatTotals:
    bot: str
    games_lost: int = 0
    charged: int = 0


@dataclass
class Summary:
    """Totals over a simulation, per seat."""

    game: str
    options: dict[str, Any]
    seats: list[SeatTotals]
    games: int = 0
    rounds: int = 0
    moves: int = 0
    seconds: float = 0.0

    def add(self, match: Match) -> None:
        opts = match.opts
        self.games += 1
        for result in match.results:
            self.rounds += 1
            self.moves += len(result.round.history)
            for seat in range(opts.players):
                self.seats[seat].charged += result.charged[opts.unit_of(seat)]
        assert match.result is not None
        for seat in range(opts.players):
            if opts.unit_of(seat) in match.result.losers:
                self.seats[seat].games_lost += 1

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "options": self.options,
            "games": self.games,
            "rounds": self.rounds,
            "moves": self.moves,
            "seconds": round(self.seconds, 3),
            "rounds_per_second": round(self.rounds / self.seconds, 1) if self.seconds else 0.0,
            "seats": [
                {
                    "bot": s.bot,
                    "games_lost": s.games_lost,
                    "mean_charge_per_round": round(s.charged / self.rounds, 4)
                    if self.rounds
                    else 0.0,
                }
                for s in self.seats
            ],
        }


def game_seeds(seed: int, games: int) -> list[int]:
    """The seed of each game, derived from the simulation's seed."""
    rng = random.Random(seed)
    return [rng.getrandbits(48) for _ in range(games)]


def simulate(
    rules: Ruleset,
    opts: Options,
    levels: list[str],
    games: int,
    seed: int,
    on_game: Callable[[Match, int], None] | None = None,
) -> Summary:
    """Play ``games`` games; ``on_game(match, seed)`` sees each finished game."""
    summary = Summary(rules.id, rules.options_dict(opts), [SeatTotals(f"{lv}") for lv in levels])
    for game_seed in game_seeds(seed, games):
        bots = [make_bot(level, game_seed * 8 + s) for s, level in enumerate(levels)]
        match = play_match(rules, opts, bots, game_seed)
        summary.add(match)
        if on_game is not None:
            on_game(match, game_seed)
    return summary

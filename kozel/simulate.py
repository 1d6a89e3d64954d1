"""Complete games between computer players, and what they add up to.

In the Goat family a seat's figure is what its unit was charged per round (lower is better)
and the games it lost; in the races it is the points its unit scored per round (higher is
better) and the games it won. With ``duplicate``, every game's deals are played a second time
with the bots rotated one seat (a game's seed fixes its sequence of deals), so the luck of
the deal largely cancels. Means come with 95% confidence intervals, clustered by game seed.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from kozel.engine.game import Game, GameBot, GameMatch
from kozel.engine.options import Options

Z95 = 1.959964

FIGURES = {
    "goat": "mean_charge_per_round",
    "race": "mean_points_per_round",
    "chips": "mean_chips_per_hand",
}
"""The per-round figure's name by the game's sheet kind."""


def play_match(
    game: Game,
    opts: Options,
    bots: Sequence[GameBot],
    seed: int | None,
    moves: list[int] | None = None,
) -> GameMatch:
    """Play one whole game; each bot sees only its own seat's view. ``moves``, if given, gets
    the number of moves played appended."""
    match = game.new_match(opts, seed)
    played = 0
    while not match.over:
        if match.needs_deal:
            match.deal_next()
            continue
        seat = match.to_move
        assert seat is not None
        legal = match.legal_moves()
        match.push(legal[0] if len(legal) == 1 else bots[seat].choose(match.view(seat)))
        played += 1
    if moves is not None:
        moves.append(played)
    return match


def unit_gains(summary: dict[str, Any]) -> list[int]:
    """What a finished round added to each unit: its charge (Goat), points (races) or, in
    the games that say so themselves (``gains``: Poker's chips), those."""
    if "gains" in summary:
        return list(summary["gains"])
    return [
        entry["charged"] if "charged" in entry else entry["during"] + entry["credited"]
        for entry in summary["sheet"]
    ]


def ratio_estimate(xs: Sequence[float], ys: Sequence[float]) -> tuple[float, float, float]:
    """``sum(xs) / sum(ys)`` over clusters, with a 95% interval (delta method).

    >>> value, low, high = ratio_estimate([4, 6, 5, 5], [2, 2, 2, 2])
    >>> value, round(low, 3), round(high, 3)
    (2.5, 2.1, 2.9)
    """
    n = len(xs)
    total_y = sum(ys)
    if n == 0 or total_y == 0:
        return 0.0, 0.0, 0.0
    ratio = sum(xs) / total_y
    if n < 2:
        return ratio, ratio, ratio
    mean_y = total_y / n
    spread = sum((x - ratio * y) ** 2 for x, y in zip(xs, ys, strict=True)) / (n - 1)
    half = Z95 * math.sqrt(spread / n) / mean_y
    return ratio, ratio - half, ratio + half


@dataclass
class GameOutcome:
    """One game from the point of view of the lineup (the bots as listed)."""

    seed: int
    rounds: int
    moves: int
    charged: list[int]
    """Per lineup position: everything its seat's unit was charged (Goat) or scored (races)."""
    decided: list[bool]
    """Per lineup position: its unit lost (Goat) or won (races) the game."""


@dataclass
class Summary:
    """What a simulation adds up to, per lineup position and per bot level."""

    game: str
    options: dict[str, Any]
    lineup: list[str]
    sheet: str = "goat"
    """``"goat"``: charges per round and games lost; ``"race"``: points and games won;
    ``"chips"``: chips won per hand and games won."""
    duplicate: bool = False
    outcomes: list[GameOutcome] = field(default_factory=list)
    seconds: float = 0.0

    def add(self, match: GameMatch, opts: Options, seed: int, rotation: int, moves: int) -> None:
        """Record a game in which lineup position ``i`` sat at seat ``(i + rotation) % n``."""
        n = opts.players
        assert match.result is not None
        rounds = match.round_summaries()
        charged = [0] * n
        for summary in rounds:
            gains = unit_gains(summary)
            for i in range(n):
                charged[i] += gains[opts.unit_of((i + rotation) % n)]
        units = match.result.units
        decided = [opts.unit_of((i + rotation) % n) in units for i in range(n)]
        self.outcomes.append(GameOutcome(seed, len(rounds), moves, charged, decided))

    @property
    def figure(self) -> str:
        """The name of the per-round figure: a charge (Goat), points (races) or chips won
        (a hand of Poker)."""
        return FIGURES.get(self.sheet, "mean_points_per_round")

    @property
    def games_key(self) -> str:
        return "games_lost" if self.sheet == "goat" else "games_won"

    def _clusters(self) -> dict[int, list[GameOutcome]]:
        clusters: dict[int, list[GameOutcome]] = {}
        for outcome in self.outcomes:
            clusters.setdefault(outcome.seed, []).append(outcome)
        return clusters

    def level_means(self) -> dict[str, tuple[float, float, float]]:
        """Per level: mean charge (or points) per player-round, with its 95% interval."""
        clusters = list(self._clusters().values())
        means = {}
        for level in dict.fromkeys(self.lineup):
            positions = [i for i, lv in enumerate(self.lineup) if lv == level]
            xs = [sum(o.charged[i] for o in games for i in positions) for games in clusters]
            ys = [sum(o.rounds for o in games) * len(positions) for games in clusters]
            means[level] = ratio_estimate(xs, ys)
        return means

    def ratio(self) -> tuple[str, str, float, float, float] | None:
        """With exactly two levels: first listed level's mean charge (or points) over the
        second's."""
        levels = list(dict.fromkeys(self.lineup))
        if len(levels) != 2 or self.sheet == "chips":  # chips won and lost sum to 0
            return None
        clusters = list(self._clusters().values())
        per_level = []
        for level in levels:
            positions = [i for i, lv in enumerate(self.lineup) if lv == level]
            per_level.append(
                [
                    sum(o.charged[i] for o in games for i in positions) / len(positions)
                    for games in clusters
                ]
            )
        value, low, high = ratio_estimate(per_level[0], per_level[1])
        return levels[0], levels[1], value, low, high

    def margin(self) -> tuple[str, str, float, float, float] | None:
        """With exactly two levels, each in the same number of seats: the first level's mean
        charge (or points) per player-round less the second's, with its 95% interval
        (clustered by game seed, so that a duplicate pair counts once)."""
        levels = list(dict.fromkeys(self.lineup))
        if len(levels) != 2:
            return None
        seats = [[i for i, lv in enumerate(self.lineup) if lv == level] for level in levels]
        if len(seats[0]) != len(seats[1]):
            return None
        clusters = list(self._clusters().values())
        xs = [
            sum(o.charged[i] for o in games for i in seats[0])
            - sum(o.charged[i] for o in games for i in seats[1])
            for games in clusters
        ]
        ys = [sum(o.rounds for o in games) * len(seats[0]) for games in clusters]
        value, low, high = ratio_estimate(xs, ys)
        return levels[0], levels[1], value, low, high

    def to_json(self) -> dict[str, Any]:
        rounds = sum(o.rounds for o in self.outcomes)
        seats = []
        for i, level in enumerate(self.lineup):
            charged = sum(o.charged[i] for o in self.outcomes)
            seats.append(
                {
                    "bot": level,
                    self.games_key: sum(o.decided[i] for o in self.outcomes),
                    self.figure: round(charged / rounds, 4) if rounds else 0.0,
                }
            )
        data: dict[str, Any] = {
            "game": self.game,
            "options": self.options,
            "games": len(self.outcomes),
            "rounds": rounds,
            "moves": sum(o.moves for o in self.outcomes),
            "seconds": round(self.seconds, 3),
            "rounds_per_second": round(rounds / self.seconds, 1) if self.seconds else 0.0,
            "seats": seats,
            "duplicate": self.duplicate,
            "levels": {
                level: {
                    self.figure: round(mean, 4),
                    "ci95": [round(low, 4), round(high, 4)],
                }
                for level, (mean, low, high) in self.level_means().items()
            },
        }
        ratio = self.ratio()
        if ratio is not None:
            first, second, value, low, high = ratio
            data["ratio"] = {
                "of": first,
                "to": second,
                "value": round(value, 4),
                "ci95": [round(low, 4), round(high, 4)],
            }
        margin = self.margin()
        if margin is not None:
            first, second, value, low, high = margin
            data["margin"] = {
                "of": first,
                "over": second,
                "value": round(value, 4),
                "ci95": [round(low, 4), round(high, 4)],
            }
        return data


def game_seeds(seed: int, games: int) -> list[int]:
    """The seed of each game, derived from the simulation's seed."""
    rng = random.Random(seed)
    return [rng.getrandbits(48) for _ in range(games)]


def simulate(
    rules: Game,
    opts: Options,
    lineup: list[str],
    games: int,
    seed: int,
    on_game: Callable[[GameMatch, list[str]], None] | None = None,
    duplicate: bool = False,
) -> Summary:
    """Play ``games`` games (twice each with ``duplicate``); ``on_game(match, seat_levels)``
    sees each finished game with the level sitting at each seat."""
    summary = Summary(
        rules.id,
        rules.options_dict(opts),
        list(lineup),
        sheet=rules.sheet_kind,
        duplicate=duplicate,
    )
    n = opts.players
    rotations = (0, 1) if duplicate else (0,)
    for game_seed in game_seeds(seed, games):
        for rotation in rotations:
            seated = [lineup[(s - rotation) % n] for s in range(n)]
            bots = [rules.make_bot(level, game_seed * 8 + s) for s, level in enumerate(seated)]
            moves: list[int] = []
            match = play_match(rules, opts, bots, game_seed, moves)
            summary.add(match, opts, game_seed, rotation, moves[0])
            if on_game is not None:
                on_game(match, seated)
    return summary

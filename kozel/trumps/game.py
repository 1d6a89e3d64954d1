"""Trumps as a game of the club: its option (the target, with an upper bound) and how to
start, replay and seat bots in a game. Four players in two pairs, always."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from kozel.core import InvalidOption
from kozel.game import Game, GameBot, GameMatch, GameView
from kozel.options import Options, OptionSpec, OptionValue
from kozel.trumps.match import TrumpsMatch, TrumpsOptions
from kozel.trumps.views import TrumpsView

MAX_TARGET = 1_000

OPTION_SPECS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "target",
        "int",
        250,
        "the game ends when a pair has this many points (both: the higher)",
        minimum=1,
        maximum=MAX_TARGET,
        rated_minimum=100,
    ),
)


@dataclass(frozen=True)
class TrumpsGame:
    """Trumps (RULES.md §11): a :class:`kozel.game.Game` played in tricks, not on a layout."""

    id: str = "trumps"
    title: str = "Trumps"
    summary: str = (
        "Four players in pairs bid 30–42 for the right to name trumps, then play seven tricks "
        "for the counting tiles; a pair that misses its bid gives the bid to the other pair."
    )
    sheet_kind: str = "race"
    table: str = "tricks"
    option_specs: tuple[OptionSpec, ...] = OPTION_SPECS
    presets: Mapping[str, Mapping[str, OptionValue]] = field(default_factory=dict)

    def spec(self, name: str) -> OptionSpec:
        for spec in self.option_specs:
            if spec.name == name:
                return spec
        known = ", ".join(s.name for s in self.option_specs)
        raise InvalidOption(
            f"{self.id} has no option {name!r}; its options are {known}", "no_option", option=name
        )

    def options(
        self, raw: Mapping[str, object] | None = None, *, complete: bool = False
    ) -> Options:
        values = {name: self.spec(name).check(value) for name, value in dict(raw or {}).items()}
        if complete:
            missing = [s.name for s in self.option_specs if s.name not in values]
            if missing:
                raise InvalidOption(f"{self.id} options are missing {', '.join(missing)}")
        resolved: dict[str, Any] = {
            s.name: values.get(s.name, s.default) for s in self.option_specs
        }
        return TrumpsOptions(players=4, teams=True, **resolved)

    def parse_options(self, pairs: list[str], preset: str | None = None) -> Options:
        values: dict[str, object] = {}
        if preset:
            if preset not in self.presets:
                known = ", ".join(self.presets) or "none"
                raise InvalidOption(f"{self.id} has no preset {preset!r}; presets: {known}")
            values.update(self.presets[preset])
        for pair in pairs:
            key, sep, text = pair.partition("=")
            if not sep:
                raise InvalidOption(f"expected key=value, got {pair!r}")
            values[key.strip()] = self.spec(key.strip()).parse(text)
        return self.options(values)

    def options_dict(self, opts: Options) -> dict[str, OptionValue]:
        return {s.name: getattr(opts, s.name) for s in self.option_specs}

    def rated_problem(self, opts: Options) -> str:
        for spec in self.option_specs:
            if problem := spec.rated_problem(getattr(opts, spec.name)):
                return problem
        return ""

    def new_match(self, opts: Options, seed: int | None = None) -> TrumpsMatch:
        assert isinstance(opts, TrumpsOptions)
        return TrumpsMatch(opts, seed)

    def replay(self, record: dict[str, Any]) -> TrumpsMatch:
        from kozel.trumps.record import replay

        return replay(record)

    def make_bot(self, level: str, seed: int | None = None) -> GameBot:
        from kozel.trumps.bots import make_trumps_bot

        return make_trumps_bot(level, seed)


TRUMPS = TrumpsGame()


def _conforms(
    game: TrumpsGame, match: TrumpsMatch, view: TrumpsView
) -> tuple[Game, GameMatch, GameView]:
    """Trumps implements the game protocol (checked by mypy here)."""
    return game, match, view

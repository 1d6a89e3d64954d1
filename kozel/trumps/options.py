"""Trumps' option (the target, with an upper bound) and the game as its options declare it
(:data:`TRUMPS_RULES`: what its records and views read; the game of the registry,
:data:`kozel.trumps.game.TRUMPS`, is the same with its matches, views and bots). Four players
in two pairs, always."""

from __future__ import annotations

from dataclasses import dataclass

from kozel.engine.options import Options, OptionSpec
from kozel.hands.game import HandsRules

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


@dataclass(frozen=True, kw_only=True)
class TrumpsOptions(Options):
    """docs/rules.md#trumps-game, Decision 4: the target."""

    target: int


TRUMPS_RULES = HandsRules(
    id="trumps",
    title="Trumps",
    summary=(
        "Four players in pairs bid 30–42 for the right to name trumps, then play seven tricks "
        "for the counting tiles; a pair that misses its bid gives the bid to the other pair."
    ),
    sheet_kind="race",
    table="tricks",
    option_specs=OPTION_SPECS,
    options_type=TrumpsOptions,
    fixed={"players": 4, "teams": True},
)

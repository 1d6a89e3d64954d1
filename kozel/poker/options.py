"""Domino Poker's options (docs/rules.md#poker-decisions item 3, each integer with an upper
bound) and the game as its options declare it (:data:`POKER_RULES`: what its records and views
read; the game of the registry, :data:`kozel.poker.game.POKER`, is the same with its matches,
views and bots)."""

from __future__ import annotations

from dataclasses import dataclass

from kozel.engine.options import Options, OptionSpec
from kozel.hands.game import HandsRules

MAX_CHIPS = 100_000
MAX_ANTE = 1_000
MAX_BET = 1_000
MAX_HANDS = 1_000

OPTION_SPECS: tuple[OptionSpec, ...] = (
    OptionSpec("players", "choice", 3, "number of players", choices=(2, 3, 4)),
    OptionSpec("chips", "int", 100, "chips each player starts with", minimum=1, maximum=MAX_CHIPS),
    OptionSpec(
        "ante", "int", 1, "chips each player puts in before a deal", minimum=1, maximum=MAX_ANTE
    ),
    OptionSpec(
        "limit",
        "choice",
        "fixed",
        "fixed: bets and raises of `bet` (first round) and twice that (second), at most 3 raises "
        "a round; no_limit: any bet up to the player's chips, a raise at least the last one",
        choices=("fixed", "no_limit"),
    ),
    OptionSpec(
        "bet",
        "int",
        2,
        "the fixed-limit bet of the first round (the second's is double)",
        minimum=1,
        maximum=MAX_BET,
    ),
    OptionSpec(
        "hands",
        "int",
        50,
        "the session ends after this many hands (or when one player holds all the chips)",
        minimum=1,
        maximum=MAX_HANDS,
        rated_minimum=25,
    ),
)


@dataclass(frozen=True, kw_only=True)
class PokerOptions(Options):
    """docs/rules.md#poker-decisions item 3."""

    chips: int
    ante: int
    limit: str
    bet: int
    hands: int


POKER_RULES = HandsRules(
    id="poker",
    title="Domino Poker",
    summary=(
        "Five-tile draw poker with chips on the 20 tiles without blanks and 1-1: antes, a "
        "betting round, the draw, a second betting round and the showdown."
    ),
    sheet_kind="chips",
    table="poker",
    option_specs=OPTION_SPECS,
    options_type=PokerOptions,
    fixed={"teams": False},
    presets={"no-limit": {"limit": "no_limit"}},
)

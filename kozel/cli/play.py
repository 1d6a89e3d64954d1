"""``kozel games`` (the games and their options) and ``kozel play`` (a game in the terminal)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from kozel.cli.common import OptionArgs, PresetArg, fail, out, resolve
from kozel.core import InvalidOption
from kozel.engine.game import Game
from kozel.engine.options import Options
from kozel.games import ALL_GAMES
from kozel.layout.rules import Ruleset


def games() -> None:
    """List the games, their options with defaults, allowed values and the values a rated game
    allows, and presets."""
    for rules in ALL_GAMES.values():
        table = Table(title=f"{rules.id} — {rules.title}", title_justify="left")
        table.add_column("option")
        table.add_column("default")
        table.add_column("allowed")
        table.add_column("rated")
        table.add_column("meaning")
        for spec in rules.option_specs:
            default = str(spec.default).lower() if spec.kind == "bool" else str(spec.default)
            rated = spec.rated_bounds() or "any"
            table.add_row(spec.name, default, spec.allowed(), rated, spec.help)
        out.print(table)
        out.print(rules.summary)
        for name, values in rules.presets.items():
            settings = ", ".join(f"{k}={str(v).lower()}" for k, v in values.items())
            out.print(f"  preset [bold]{name}[/]: {settings}")
        out.print()


def _layout_terminal(
    game: Game, opts: Options, bots: str, seat: int, seed: int | None, console: Console
) -> None:
    from kozel.layout.terminal import play_in_terminal

    assert isinstance(game, Ruleset)
    play_in_terminal(game, opts, bots, seat, seed, console)


def _poker_terminal(
    game: Game, opts: Options, bots: str, seat: int, seed: int | None, console: Console
) -> None:
    from kozel.poker.terminal import PokerTerminal

    PokerTerminal(game, opts, bots, seat, seed, console).run()


def _tricks_terminal(
    game: Game, opts: Options, bots: str, seat: int, seed: int | None, console: Console
) -> None:
    from kozel.trumps.terminal import TrumpsTerminal

    TrumpsTerminal(game, opts, bots, seat, seed, console).run()


TERMINALS: dict[str, Callable[[Game, Options, str, int, int | None, Console], None]] = {
    "layout": _layout_terminal,
    "poker": _poker_terminal,
    "tricks": _tricks_terminal,
}
"""The terminal game of each kind of table (``Game.table``)."""


def play(
    game: Annotated[str, typer.Argument(help="A game id (kozel games lists them).")] = "goat",
    option: OptionArgs = None,
    preset: PresetArg = None,
    bots: Annotated[str, typer.Option(help="Level of the computer players.")] = "greedy",
    seat: Annotated[int, typer.Option(help="Your seat (0 leads the seating).")] = 0,
    seed: Annotated[int | None, typer.Option(help="Seed for a reproducible game.")] = None,
) -> None:
    """Play in the terminal against computer players."""
    rules, opts = resolve(game, option, preset)
    terminal = TERMINALS.get(rules.table)
    if terminal is None:
        raise fail(f"{rules.id} cannot be played in the terminal")
    if not 0 <= seat < opts.players:
        raise fail(f"--seat must be 0..{opts.players - 1}")
    try:
        terminal(rules, opts, bots, seat, seed, out)
    except InvalidOption as e:
        raise fail(str(e)) from None
    except (KeyboardInterrupt, EOFError):
        out.print("\nbye")

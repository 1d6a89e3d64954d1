"""What every command shares: the consoles, the error exit, the game and its options."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from kozel.core import InvalidOption
from kozel.engine.game import Game
from kozel.engine.options import Options
from kozel.games import get_game

out = Console()
err = Console(stderr=True)

OptionArgs = Annotated[
    list[str] | None,
    typer.Option("-o", "--option", help="A game option as key=value (repeatable)."),
]
PresetArg = Annotated[
    str | None, typer.Option("--preset", help="A named option set, e.g. goat-125 or yard.")
]


def fail(message: str, code: int = 2) -> typer.Exit:
    """Print ``error: message`` on stderr; the exit to raise (code 2 unless told)."""
    err.print(f"[bold red]error:[/] {message}", highlight=False)
    return typer.Exit(code)


def resolve(game: str, options: list[str] | None, preset: str | None) -> tuple[Game, Options]:
    """The game named and its options from ``-o key=value`` and a preset; exits 2 on a wrong
    name or option."""
    try:
        rules = get_game(game)
        return rules, rules.parse_options(options or [], preset)
    except InvalidOption as e:
        raise fail(str(e)) from None


def read_text(file: Path) -> str:
    """The file's UTF-8 text; exits 2 saying why it cannot be read."""
    try:
        return file.read_text(encoding="utf-8")
    except OSError as e:
        raise fail(f"cannot read {file}: {e.strerror or e}") from None
    except UnicodeDecodeError:
        raise fail(f"{file} is not UTF-8 text") from None

"""The ``kozel`` command line: games, simulate, replay, play, bench.

The commands live by area — :mod:`kozel.cli.play` (games, play), :mod:`kozel.cli.bot_games`
(simulate, tournament), :mod:`kozel.cli.records` (replay, verify, analyse),
:mod:`kozel.cli.bench` and :mod:`kozel.cli.club` (serve, admin) — and are registered here, in
the order ``kozel --help`` lists them.
"""

from __future__ import annotations

import typer

from kozel.cli.bench import bench
from kozel.cli.bot_games import simulate, tournament
from kozel.cli.club import admin_app, serve
from kozel.cli.play import games, play
from kozel.cli.records import analyse, replay, verify

app = typer.Typer(
    help="Kozel: Goat («Козёл»), Donkey, Sea Goat, Draw and their relatives — rules engine, "
    "bots, records.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
for command in (games, simulate, tournament, replay, verify, analyse, play, bench, serve):
    app.command()(command)
app.add_typer(admin_app, name="admin")


def main() -> None:
    """The ``kozel`` script (pyproject.toml's entry point)."""
    app()

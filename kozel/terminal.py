"""Playing in the terminal (being written)."""

from __future__ import annotations

from rich.console import Console

from kozel.rules import Options, Ruleset


def play_in_terminal(
    rules: Ruleset, opts: Options, level: str, seat: int, seed: int | None, console: Console
) -> None:
    raise NotImplementedError

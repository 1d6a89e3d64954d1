"""The commands on game records: ``kozel replay``, ``kozel verify`` and ``kozel analyse``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
from rich.table import Table

from kozel.cli.common import err, fail, out, read_text
from kozel.engine.game import Review
from kozel.games import ALL_GAMES, check_lines

if TYPE_CHECKING:
    from kozel.verify import Verification

RecordsFile = Annotated[Path, typer.Argument(help="A JSON Lines file of kozel-record/1 records.")]


def replay(file: RecordsFile) -> None:
    """Re-run every record through the rules; exit 1 naming each bad record's first error."""
    text = read_text(file)
    good = bad = rounds = 0
    for report in check_lines(text.splitlines()):
        if report.error is None:
            good += 1
            rounds += report.rounds
        else:
            bad += 1
            out.print(
                f"[red]line {report.line}:[/] {escape(report.error)}",
                highlight=False,
                soft_wrap=True,
            )
    if good + bad == 0:
        raise fail(f"{file} holds no records", 1)
    colour = "green" if not bad else "red"
    out.print(f"[{colour}]{good} records replay clean ({rounds} rounds), {bad} wrong[/]")
    if bad:
        raise typer.Exit(1)


def verify(file: RecordsFile) -> None:
    """Derive every deal again from each record's verifiable shuffle (the server seed, which
    must match the commitment, and the players' seeds) and say whether each matches; exit 1
    unless every record does. The moves are `kozel replay`'s to check."""
    from kozel.verify import verify_lines

    text = read_text(file)
    good = bad = 0
    for line, checks in verify_lines(text.splitlines()):
        for n, check in enumerate(checks, start=1):
            where = f"line {line}" + (f", game {n}" if len(checks) > 1 else "")
            _print_verification(where, check)
            good, bad = (good + 1, bad) if check.ok else (good, bad + 1)
    if good + bad == 0:
        raise fail(f"{file} holds no records", 1)
    colour = "green" if not bad else "red"
    out.print(f"[{colour}]{good} records verified, {bad} not[/]")
    if bad:
        raise typer.Exit(1)


def _print_verification(where: str, check: Verification) -> None:
    """One record's verdict, its problems, and each round's deal: matching or why not."""
    colour = "green" if check.ok else "red"
    verdict = "verified" if check.ok else "NOT verified"
    out.print(
        f"[{colour}]{where}: {check.game}: {verdict}[/]"
        + (f" (commitment {check.commitment})" if check.commitment else ""),
        highlight=False,
        soft_wrap=True,
    )
    for problem in check.problems:
        out.print(f"  [red]{escape(problem)}[/]", highlight=False, soft_wrap=True)
    for rnd in check.rounds:
        if rnd.ok:
            out.print(f"  round {rnd.round}: the deal matches", highlight=False)
        for problem in rnd.problems:
            out.print(
                f"  [red]round {rnd.round}: does not match: {escape(problem)}[/]",
                highlight=False,
                soft_wrap=True,
            )


def analyse(
    file: RecordsFile,
    game: Annotated[int, typer.Option("--game", min=1, help="Which record (1 = the first).")] = 1,
    seat: Annotated[int, typer.Option(help="Whose decisions to review.")] = 0,
) -> None:
    """Review one seat's decisions: the move played, the best move, the expected loss."""
    reviewed = _review(_record_line(file, game), game, seat)
    table = Table(title=f"game {game}, seat {seat}", title_justify="left")
    for column in ("round", "move", "played", "best", "expected loss"):
        table.add_column(column, justify="right" if column == "expected loss" else "left")
    decisions, best, total = _review_into(table, reviewed)
    out.print(table)
    unit = reviewed.unit
    if decisions:
        out.print(
            f"{int(decisions)} decisions with a choice: best move {best / decisions:.0%}, "
            f"expected loss {total:.2f} {unit} in all ({total / decisions:.2f} per decision)"
        )
    else:
        out.print("this seat never had a choice")
    if reviewed.skipped:
        out.print(f"not reviewed: {reviewed.skipped}")


def _record_line(file: Path, game: int) -> str:
    """The ``game``-th record's line of the file (blank lines aside); exits 2 when there is
    none."""
    try:
        lines = [line for line in file.read_text(encoding="utf-8").splitlines() if line.strip()]
    except (OSError, UnicodeDecodeError) as e:
        raise fail(f"cannot read {file}: {e}") from None
    if game > len(lines):
        raise fail(f"{file} holds {len(lines)} records; there is no game {game}")
    return lines[game - 1]


def _review(line: str, game: int, seat: int) -> Review:
    """The review of a seat's decisions in the record on ``line`` (the file's ``game``-th);
    exits 2 when it does not replay or has no such seat."""
    from kozel.engine.errors import RecordError

    try:
        record = json.loads(line)
        kind = record.get("game") if isinstance(record, dict) else None
        if not isinstance(kind, str) or kind not in ALL_GAMES:
            raise fail(f"game {game} does not replay: its game is {kind!r}")
        rules = ALL_GAMES[kind]
        players = rules.replay(record).opts.players
        if not 0 <= seat < players:
            raise fail(f"--seat must be 0..{players - 1}")
        return rules.review(record, seat)
    except json.JSONDecodeError as e:
        raise fail(f"game {game} is not valid JSON: {e}") from None
    except RecordError as e:
        raise fail(f"game {game} does not replay: {e}") from None


def _review_into(table: Table, reviewed: Review) -> tuple[float, float, float]:
    """Add a row per decision to the table, with a progress bar on stderr while the expert
    thinks; the number of decisions, how many were the best move and the expected loss in all."""
    total = decisions = best = 0.0
    with Progress(
        TextColumn("analysing"), BarColumn(), MofNCompleteColumn(), console=err, transient=True
    ) as progress:
        task = progress.add_task("analyse", total=reviewed.steps)
        for d in reviewed.decisions(on_step=lambda: progress.advance(task)):
            decisions += 1
            total += d.expected_loss
            best += d.played == d.best
            mark = "" if d.played == d.best else "[yellow]"
            table.add_row(
                str(d.round),
                str(d.move_number),
                f"{mark}{d.played}",
                str(d.best),
                f"{d.expected_loss:.2f}",
            )
    return decisions, best, total

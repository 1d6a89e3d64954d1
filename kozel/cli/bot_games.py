"""Games between computer players: ``kozel simulate`` and ``kozel tournament``."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from kozel.cli.common import OptionArgs, PresetArg, err, fail, out, resolve
from kozel.core import InvalidOption
from kozel.engine.game import Game, GameMatch
from kozel.engine.options import Options
from kozel.engine.record import dumps

if TYPE_CHECKING:
    from kozel.simulate import Summary

SIMULATE_WORDS = {
    "goat": ("mean charge / round", "charged", "round"),
    "race": ("mean points / round", "scored", "round"),
    "chips": ("mean chips / hand", "chips won", "hand"),
}
"""How ``kozel simulate`` names a game's figure, by its sheet kind."""


def simulate(
    game: Annotated[str, typer.Argument(help="A game id (kozel games lists them).")],
    option: OptionArgs = None,
    preset: PresetArg = None,
    bots: Annotated[
        str, typer.Option(help="Comma-separated bot levels, one per seat (or one for all).")
    ] = "random",
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="Games to play.")] = 100,
    seed: Annotated[int, typer.Option(help="Seed: same seed, same games.")] = 0,
    records: Annotated[
        Path | None,
        typer.Option(
            "--records", "--record", help="Write every game as a kozel-record/1 line here."
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON summary.")] = False,
    duplicate: Annotated[
        bool,
        typer.Option(help="Play every game's deals again with the bots rotated one seat."),
    ] = False,
) -> None:
    """Play complete games between computer players and summarise them."""
    rules, opts = resolve(game, option, preset)
    levels = _seat_levels(bots, opts.players)
    summary = _play_games(rules, opts, levels, games, seed, records, duplicate)
    data = summary.to_json()
    if as_json:
        sys.stdout.write(json.dumps(data) + "\n")
        return
    _print_summary(rules, summary, data, seed, duplicate)


def _seat_levels(bots: str, players: int) -> list[str]:
    """The bot level at each seat from ``--bots`` (one level fills every seat); exits 2 on an
    unknown level or the wrong number of them."""
    from kozel.layout.bots import check_level

    levels = [b.strip() for b in bots.split(",") if b.strip()]
    if len(levels) == 1:
        levels *= players
    try:
        for level in levels:
            check_level(level)
    except InvalidOption as e:
        raise fail(str(e)) from None
    if len(levels) != players:
        raise fail(f"--bots lists {len(levels)} bots for {players} players")
    return levels


def _play_games(
    rules: Game,
    opts: Options,
    levels: list[str],
    games: int,
    seed: int,
    records: Path | None,
    duplicate: bool,
) -> Summary:
    """Play the games with a progress bar on stderr, writing each one's record to ``records``
    if given; their summary, timed."""
    from kozel.simulate import simulate as run

    sink = records.open("w", encoding="utf-8") if records else None
    progress = Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=err,
        transient=True,
    )

    def on_game(match: GameMatch, seated: list[str]) -> None:
        if sink is not None:
            sink.write(dumps(match.record([f"bot:{lv}" for lv in seated])) + "\n")
        progress.advance(task)

    with progress:
        task = progress.add_task(f"{rules.id}", total=games * (2 if duplicate else 1))
        start = time.perf_counter()
        summary = run(rules, opts, levels, games, seed, on_game, duplicate)
        summary.seconds = time.perf_counter() - start
    if sink is not None:
        sink.close()
    return summary


def _print_summary(
    rules: Game, summary: Summary, data: dict[str, Any], seed: int, duplicate: bool
) -> None:
    """The seats' table, each level's figure with its 95% interval, the ratio or margin of
    two levels, and the speed."""
    played = f"{data['games']} games" + (" (duplicate deals)" if duplicate else "")
    table = Table(title=f"{played} of {rules.id}, seed {seed}", title_justify="left")
    goat = rules.sheet_kind == "goat"
    figure, games_key = summary.figure, summary.games_key
    column, what, per = SIMULATE_WORDS.get(rules.sheet_kind, SIMULATE_WORDS["race"])
    table.add_column("seat")
    table.add_column("bot")
    table.add_column("games lost" if goat else "games won", justify="right")
    table.add_column(column, justify="right")
    for seat, s in enumerate(data["seats"]):
        table.add_row(str(seat), s["bot"], str(s[games_key]), f"{s[figure]:.3f}")
    out.print(table)
    for level, stats in data["levels"].items():
        low, high = stats["ci95"]
        out.print(f"{level}: {stats[figure]:.3f} {what} per {per} (95% CI {low:.3f} to {high:.3f})")
    if "ratio" in data:
        r = data["ratio"]
        low, high = r["ci95"]
        out.print(f"{r['of']} / {r['to']}: {r['value']:.3f} (95% CI {low:.3f} to {high:.3f})")
    elif "margin" in data:
        m = data["margin"]
        low, high = m["ci95"]
        out.print(
            f"{m['of']} - {m['over']}: {m['value']:.3f} {what} per {per} "
            f"(95% CI {low:.3f} to {high:.3f})"
        )
    out.print(
        f"{data['rounds']} rounds, {data['moves']} moves in {data['seconds']:.2f} s "
        f"({data['rounds_per_second']:,.0f} rounds/s)"
    )


def tournament(
    game: Annotated[str, typer.Argument(help="The game: bykovo (its micro-tournament).")],
    bots: Annotated[
        str,
        typer.Option(help="Comma-separated bot levels, one per player (4 to 7 players)."),
    ] = "expert,greedy,greedy,random,random",
    seed: Annotated[int | None, typer.Option(help="Seed: same seed, same tournament.")] = None,
    record: Annotated[
        Path | None, typer.Option(help="Write the kozel-tournament/1 record here (one line).")
    ] = None,
) -> None:
    """Play a micro-tournament between computer players, with live standings."""
    from rich.live import Live

    from kozel.layout.bots import make_bot
    from kozel.layout.tournament import Tournament, play_tournament

    if game != "bykovo":
        raise fail(f"only bykovo has a micro-tournament, not {game!r}")
    levels = [b.strip() for b in bots.split(",") if b.strip()]
    if not 4 <= len(levels) <= 7:
        raise fail(f"a micro-tournament has 4 to 7 players; --bots lists {len(levels)}")
    try:
        players = [
            make_bot(level, None if seed is None else seed * 10 + i)
            for i, level in enumerate(levels)
        ]
    except InvalidOption as e:
        raise fail(str(e)) from None
    names = [f"{i + 1}:{level}" for i, level in enumerate(levels)]
    start = time.perf_counter()
    with Live(standings_table(Tournament(names, seed)), console=out, auto_refresh=False) as live:

        def on_game(t: Tournament) -> None:
            live.update(standings_table(t), refresh=True)

        played = play_tournament(names, players, seed, on_game)
    seconds = time.perf_counter() - start
    out.line()
    standings = sorted(played.standings(), key=lambda s: s.place)
    podium = ", ".join(f"{s.place}. {s.player}" for s in standings[:3])
    out.print(f"{len(played.games)} games in {seconds:.1f} s; {podium}")
    if record is not None:
        try:
            record.write_text(dumps(played.record()) + "\n", encoding="utf-8")
        except OSError as e:
            raise fail(f"cannot write {record}: {e.strerror or e}") from None


ORDINALS = ("1st", "2nd", "3rd", "4th")


def standings_table(t: object) -> Table:
    """The live standings of a tournament: score, limit, games played, who sat out, who is
    eliminated, and the places once it is over."""
    from kozel.layout.tournament import Tournament

    assert isinstance(t, Tournament)
    done = len(t.games)
    title = f"Bykovo micro-tournament: {len(t.players)} players to {t.limit}, game {done}"
    table = Table(title=title + (" (over)" if t.over else ""), title_justify="left")
    for column in ("player", "score", "games", "last game", "status"):
        table.add_column(column, justify="right" if column in ("score", "games") else "left")
    standings = t.standings()
    last = t.games[-1] if t.games else None
    for p, name in enumerate(t.players):
        games = sum(1 for g in t.games if p in g.players)
        if last is None:
            what = ""
        elif p not in last.players:
            what = "sat out"
        elif last.timed_out == p:
            what = "timed out"
        elif last.places:
            place = last.places.index(p) + 1
            count = last.counts[last.players.index(p)]
            what = f"{ORDINALS[place - 1]} ({count} pips)"
        else:
            what = "interrupted"
        after = t.eliminated_after[p]
        status = "in" if after is None else f"out after game {after + 1}"
        if t.over:
            status = f"place {standings[p].place}" + ("" if after is None else f", {status}")
        table.add_row(name, str(t.scores[p]), str(games), what, status)
    return table

"""The ``kozel`` command line: games, simulate, replay, play, bench."""

from __future__ import annotations

import json
import socket
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from kozel.core import InvalidOption
from kozel.engine.game import Game, GameMatch
from kozel.engine.options import Options
from kozel.engine.record import dumps
from kozel.games import ALL_GAMES, GAMES, check_lines, get_game
from kozel.rules import Ruleset
from kozel.server.settings import DEFAULT_DB, Settings

app = typer.Typer(
    help="Kozel: Goat («Козёл»), Donkey, Sea Goat, Draw and their relatives — rules engine, "
    "bots, records.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
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
    err.print(f"[bold red]error:[/] {message}", highlight=False)
    return typer.Exit(code)


def resolve(game: str, options: list[str] | None, preset: str | None) -> tuple[Game, Options]:
    try:
        rules = get_game(game)
        return rules, rules.parse_options(options or [], preset)
    except InvalidOption as e:
        raise fail(str(e)) from None


@app.command()
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


SIMULATE_WORDS = {
    "goat": ("mean charge / round", "charged", "round"),
    "race": ("mean points / round", "scored", "round"),
    "chips": ("mean chips / hand", "chips won", "hand"),
}
"""How ``kozel simulate`` names a game's figure, by its sheet kind."""


@app.command()
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
    from kozel.bots import check_level
    from kozel.simulate import simulate as run

    rules, opts = resolve(game, option, preset)
    levels = [b.strip() for b in bots.split(",") if b.strip()]
    if len(levels) == 1:
        levels *= opts.players
    try:
        for level in levels:
            check_level(level)
    except InvalidOption as e:
        raise fail(str(e)) from None
    if len(levels) != opts.players:
        raise fail(f"--bots lists {len(levels)} bots for {opts.players} players")
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
    data = summary.to_json()
    if as_json:
        sys.stdout.write(json.dumps(data) + "\n")
        return
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


@app.command()
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

    from kozel.bots import make_bot
    from kozel.tournament import Tournament, play_tournament

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
    from kozel.tournament import Tournament

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


@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="A JSON Lines file of kozel-record/1 records.")],
) -> None:
    """Re-run every record through the rules; exit 1 naming each bad record's first error."""
    try:
        text = file.read_text(encoding="utf-8")
    except OSError as e:
        raise fail(f"cannot read {file}: {e.strerror or e}") from None
    except UnicodeDecodeError:
        raise fail(f"{file} is not UTF-8 text") from None
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


@app.command()
def verify(
    file: Annotated[Path, typer.Argument(help="A JSON Lines file of kozel-record/1 records.")],
) -> None:
    """Derive every deal again from each record's verifiable shuffle (the server seed, which
    must match the commitment, and the players' seeds) and say whether each matches; exit 1
    unless every record does. The moves are `kozel replay`'s to check."""
    from kozel.verify import verify_lines

    try:
        text = file.read_text(encoding="utf-8")
    except OSError as e:
        raise fail(f"cannot read {file}: {e.strerror or e}") from None
    except UnicodeDecodeError:
        raise fail(f"{file} is not UTF-8 text") from None
    good = bad = 0
    for line, checks in verify_lines(text.splitlines()):
        for n, check in enumerate(checks, start=1):
            where = f"line {line}" + (f", game {n}" if len(checks) > 1 else "")
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
            good, bad = (good + 1, bad) if check.ok else (good, bad + 1)
    if good + bad == 0:
        raise fail(f"{file} holds no records", 1)
    colour = "green" if not bad else "red"
    out.print(f"[{colour}]{good} records verified, {bad} not[/]")
    if bad:
        raise typer.Exit(1)


@app.command()
def analyse(
    file: Annotated[Path, typer.Argument(help="A JSON Lines file of kozel-record/1 records.")],
    game: Annotated[int, typer.Option("--game", min=1, help="Which record (1 = the first).")] = 1,
    seat: Annotated[int, typer.Option(help="Whose decisions to review.")] = 0,
) -> None:
    """Review one seat's decisions: the move played, the best move, the expected loss."""
    from kozel.engine.errors import RecordError

    try:
        lines = [line for line in file.read_text(encoding="utf-8").splitlines() if line.strip()]
    except (OSError, UnicodeDecodeError) as e:
        raise fail(f"cannot read {file}: {e}") from None
    if game > len(lines):
        raise fail(f"{file} holds {len(lines)} records; there is no game {game}")
    try:
        record = json.loads(lines[game - 1])
        kind = record.get("game") if isinstance(record, dict) else None
        if not isinstance(kind, str) or kind not in ALL_GAMES:
            raise fail(f"game {game} does not replay: its game is {kind!r}")
        rules = ALL_GAMES[kind]
        players = rules.replay(record).opts.players
        if not 0 <= seat < players:
            raise fail(f"--seat must be 0..{players - 1}")
        reviewed = rules.review(record, seat)
    except json.JSONDecodeError as e:
        raise fail(f"game {game} is not valid JSON: {e}") from None
    except RecordError as e:
        raise fail(f"game {game} does not replay: {e}") from None
    unit = reviewed.unit
    table = Table(title=f"game {game}, seat {seat}", title_justify="left")
    for column in ("round", "move", "played", "best", "expected loss"):
        table.add_column(column, justify="right" if column == "expected loss" else "left")
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
    out.print(table)
    if decisions:
        out.print(
            f"{int(decisions)} decisions with a choice: best move {best / decisions:.0%}, "
            f"expected loss {total:.2f} {unit} in all ({total / decisions:.2f} per decision)"
        )
    else:
        out.print("this seat never had a choice")
    if reviewed.skipped:
        out.print(f"not reviewed: {reviewed.skipped}")


def _layout_terminal(
    game: Game, opts: Options, bots: str, seat: int, seed: int | None, console: Console
) -> None:
    from kozel.terminal import play_in_terminal

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


@app.command()
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


@app.command()
def bench(
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    seconds: Annotated[float, typer.Option(help="How long to measure the engine.")] = 5.0,
    games: Annotated[
        int, typer.Option(help="Games of each game for the expert's decision times.")
    ] = 2,
) -> None:
    """Measure the engine, the playout kernel and the expert's thinking time (one core), in
    4-player Goat and in every game (the kernel in every layout game it plays; the expert's
    time in every game, Poker and Trumps included). The kernel's All
    Fives rate is also given as a ratio to its Goat rate, measured in turns side by side (this
    machine's speed drifts with its load); the target is 0.5 or more."""
    from statistics import median

    from kozel.benchmark import (
        engine_rounds_per_second,
        expert_decision_ms,
        playout_rounds_per_second,
    )
    from kozel.bots.kernel import supports

    engine = engine_rounds_per_second(seconds)
    by_game = {
        rules.id: round(engine_rounds_per_second(max(0.5, seconds / 5), rules=rules))
        for rules in GAMES.values()
    }
    playouts = playout_rounds_per_second(max(10_000, int(seconds * 300_000)))
    per_game = max(10_000, int(seconds * 40_000))
    kernel_by_game = {
        rules.id: round(playout_rounds_per_second(per_game, rules=rules))
        for rules in GAMES.values()
        if supports(rules)
    }
    turns = []
    for turn in range(3):
        goat = playout_rounds_per_second(per_game, seed=turn + 1)
        fives = playout_rounds_per_second(per_game, seed=turn + 1, rules=GAMES["all_fives"])
        turns.append((goat, fives))
    timings_by_game = {
        rules.id: expert_decision_ms(games, rules=rules) for rules in ALL_GAMES.values()
    }
    timings = timings_by_game["goat"]
    fives_to_goat = round(median(f / g for g, f in turns), 3)
    data = {
        "engine_rounds_per_second": round(engine),
        "engine_rounds_per_second_by_game": by_game,
        "playout_rounds_per_second": round(playouts),
        "kernel_rounds_per_second_by_game": kernel_by_game,
        "kernel_all_fives_to_goat": {
            "turns": [[round(g), round(f), round(f / g, 3)] for g, f in turns],
            "median_ratio": fives_to_goat,
        },
        "expert_decision_ms_median": round(median(timings), 2) if timings else None,
        "expert_decision_ms_median_by_game": {
            game: round(median(ms), 2) if ms else None for game, ms in timings_by_game.items()
        },
    }
    if as_json:
        sys.stdout.write(json.dumps(data) + "\n")
        return
    out.print(f"engine:  {engine:>12,.0f} random 4-player Goat rounds/s through the public API")
    for game, rate in by_game.items():
        out.print(f"         {rate:>12,} random 4-player {game} rounds/s")
    out.print(f"kernel:  {playouts:>12,.0f} random 4-player Goat rounds/s (compiled playouts)")
    for game, rate in kernel_by_game.items():
        out.print(f"         {rate:>12,} random 4-player {game} rounds/s")
    out.print(
        f"         {fives_to_goat:>12.3f} All Fives / Goat, in turns side by side (target >= 0.5)"
    )
    for game, ms in timings_by_game.items():
        if ms:
            out.print(
                f"expert:  {median(ms):>12.1f} ms median per decision in {game} "
                f"({len(ms)} decisions, slowest {max(ms):.0f} ms)"
            )


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    db: Annotated[
        str,
        typer.Option(
            help="Database: sqlite:///FILE (the default is kozel.db) or postgresql://USER@HOST/DB"
        ),
    ] = DEFAULT_DB,
    pubsub: Annotated[str, typer.Option(help="memory:// or redis://host:port/db")] = "memory://",
    db_connections: Annotated[
        int,
        typer.Option(
            min=2,
            help="Connections to PostgreSQL this process may hold; all the club's processes "
            "together must stay below PostgreSQL's max_connections (100 by default).",
        ),
    ] = Settings.db_connections,
    secure_cookies: Annotated[
        bool,
        typer.Option(
            "--secure-cookies/--no-secure-cookies",
            help="Mark the session cookies Secure (on when the club is served over HTTPS).",
        ),
    ] = False,
    guests_per_minute: Annotated[
        int, typer.Option(min=1, help="New guest accounts per client address and minute.")
    ] = Settings.guests_per_minute,
    registrations_per_minute: Annotated[
        int, typer.Option(min=1, help="New accounts per client address and minute.")
    ] = Settings.registrations_per_minute,
    node: Annotated[
        str,
        typer.Option(
            help="This process's name among the club's processes (default: HOST:PORT); "
            "a restarted process under the same name takes its own tables back at once."
        ),
    ] = "",
    lease_seconds: Annotated[
        float,
        typer.Option(min=1.0, help="How soon another process takes over the tables of a dead one."),
    ] = Settings.lease_seconds,
    admin: Annotated[
        list[str] | None,
        typer.Option(
            help="A name whose player may see /api/admin/tables (repeat for several); it "
            "trusts whoever registers the name: on a public club use `kozel admin grant`."
        ),
    ] = None,
    requests_per_minute: Annotated[
        int,
        typer.Option(
            min=1,
            help="New game requests and tables (a request, play with the computer, play with "
            "a person) per client address and minute.",
        ),
    ] = Settings.requests_per_minute,
    sockets_per_address: Annotated[
        int,
        typer.Option(min=1, help="Open WebSockets (lobby and tables together) per client address."),
    ] = Settings.sockets_per_address,
    bot_delay_ms: Annotated[
        int,
        typer.Option(
            min=0, help="How long after the previous move a computer player moves, in ms."
        ),
    ] = Settings.bot_delay_ms,
    round_pause: Annotated[
        float,
        typer.Option(
            min=0,
            help="Seconds a finished round stays on the table, hands face up, before the next "
            "deal (sooner when every person presses next; 0: at once).",
        ),
    ] = Settings.round_pause_seconds,
    chat_per_minute: Annotated[
        int, typer.Option(min=1, help="Chat lines one player may say per minute.")
    ] = Settings.chat_per_minute,
    presence_grace: Annotated[
        float,
        typer.Option(
            min=0,
            help="Seconds a seat may have no open socket before it is shown disconnected "
            "(a reload or a network blip within them shows nothing).",
        ),
    ] = Settings.presence_grace_seconds,
    seed_seconds: Annotated[
        float,
        typer.Option(
            min=0,
            help="Seconds a new table's first deal waits for the players' seeds to the shuffle "
            "(sooner once every person has added his; 0: at once).",
        ),
    ] = Settings.seed_seconds,
    rematch_seconds: Annotated[
        float,
        typer.Option(min=1, help="Seconds a rematch offered at a game's end waits for answers."),
    ] = Settings.rematch_seconds,
    seed: Annotated[
        int | None,
        typer.Option(
            min=0,
            help="For tests only: derive every game's server seed (and the computer players') "
            "from this number and the game's id, so the same seed deals the same games again; "
            "whoever knows it knows every deal. Unset: secret random seeds.",
        ),
    ] = None,
) -> None:
    """Run the club: HTTP API and WebSockets (docs/protocol.md)."""
    import uvicorn

    from kozel.server.app import create_app
    from kozel.server.collector import Collector
    from kozel.server.pubsub import make_pubsub
    from kozel.server.settings import database_url
    from kozel.server.wire import uvicorn_options

    try:
        make_pubsub(pubsub)
        db = database_url(db)
    except ValueError as e:
        raise fail(str(e)) from None
    settings = Settings(
        db_url=db,
        pubsub_url=pubsub,
        db_connections=db_connections,
        secure_cookies=secure_cookies,
        guests_per_minute=guests_per_minute,
        registrations_per_minute=registrations_per_minute,
        node=node or f"{socket.gethostname()}:{port}",
        lease_seconds=lease_seconds,
        admins=tuple(admin or ()),
        requests_per_minute=requests_per_minute,
        sockets_per_address=sockets_per_address,
        bot_delay_ms=bot_delay_ms,
        chat_per_minute=chat_per_minute,
        round_pause_seconds=round_pause,
        presence_grace_seconds=presence_grace,
        rematch_seconds=rematch_seconds,
        seed_seconds=seed_seconds,
        seed=seed,
    )
    app = create_app(settings)
    Collector().install()  # a full collection no longer stops every table (collector.py)
    uvicorn.run(app, host=host, port=port, log_level="info", **uvicorn_options())


admin_app = typer.Typer(
    help="The club's administrators, kept in its database (they may see /admin).",
    no_args_is_help=True,
)
app.add_typer(admin_app, name="admin")
DbOption = Annotated[
    str,
    typer.Option(help="The club's database: sqlite:///FILE or postgresql://USER@HOST/DB"),
]


def _admin_db(db: str) -> str:
    from kozel.server.settings import database_url

    try:
        return database_url(db)
    except ValueError as e:
        raise fail(str(e)) from None


@admin_app.command("grant")
def admin_grant(
    name: Annotated[str, typer.Argument(help="A registered player's name.")],
    db: DbOption = DEFAULT_DB,
) -> None:
    """Make a registered player an administrator (register the account first)."""
    import asyncio

    from kozel.server.admins import set_admin

    found = asyncio.run(set_admin(_admin_db(db), name, True))
    if found is None:
        raise fail(f"there is no registered player {name!r}: register the account first", 1)
    out.print(f"{escape(found)} is an administrator", highlight=False)


@admin_app.command("revoke")
def admin_revoke(
    name: Annotated[str, typer.Argument(help="An administrator's name.")],
    db: DbOption = DEFAULT_DB,
) -> None:
    """Make a player no longer an administrator."""
    import asyncio

    from kozel.server.admins import set_admin

    found = asyncio.run(set_admin(_admin_db(db), name, False))
    if found is None:
        raise fail(f"there is no registered player {name!r}", 1)
    out.print(f"{escape(found)} is no longer an administrator", highlight=False)


@admin_app.command("list")
def admin_list(db: DbOption = DEFAULT_DB) -> None:
    """The club's administrators."""
    import asyncio

    from kozel.server.admins import admins

    for name in asyncio.run(admins(_admin_db(db))):
        out.print(escape(name), highlight=False)


def main() -> None:
    app()

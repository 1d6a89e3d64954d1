"""The per-move path of the server without sockets: tables of one process, timed and profiled.

It starts a club in this process (a fresh SQLite file by default, or ``--db``; the in-memory
pub/sub by default, or ``--pubsub``), opens ``--tables`` tables of four people, listens on
every seat's and the spectators' channels as the sockets would (reading each message and
dropping it), and plays ``--moves`` moves, every seat answering with its first legal move at
once. What a move costs here is what the server spends per move before the WebSockets:
checking and applying it, storing it (group commit), building every seat's state message and
publishing it. It prints the CPU time of this process per move, and with ``--profile`` the
functions that took it. With ``--kept`` it then counts what one more move of every table
leaves alive until that table's next move (the objects Python's cyclic garbage collector
tracks): a server's young collections have to look at all of them (docs/benchmarks.md).

    .venv/bin/python bench/table_path.py --tables 50 --moves 5000 [--profile]

To compare two versions of the server, run this same file against each, interleaved on the
same machine (the one not installed through ``PYTHONPATH=DIR``), and compare the ratio of
the CPU per move of runs made side by side: docs/benchmarks.md shows how.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import gc
import io
import json
import pstats
import tempfile
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

from kozel.games import get_game
from kozel.server.club import Club
from kozel.server.db import Game
from kozel.server.settings import Settings
from kozel.server.tables import Table, seat_channel

SECONDS_PER_MOVE = 300


async def open_tables(club: Club, count: int, game: str, loss_limit: int) -> list[Table]:
    rules = get_game(game)
    options = rules.options_dict(rules.options({"loss_limit": loss_limit}))
    tables = []
    for index in range(count):
        async with club.sessions() as session, session.begin():
            row = Game(
                game=game,
                options=options,
                seats=[{"user": 1000 + 4 * index + s, "name": f"p{index}.{s}"} for s in range(4)],
                seconds_per_move=SECONDS_PER_MOVE,
                rated=False,
                status="playing",
                version=0,
                owner=club.node,
                fence=0,
            )
            session.add(row)
        tables.append(await club.claims.open_table(row))
    return tables


async def listen(club: Club, channel: str, heard: list[int]) -> None:
    """Read a channel as a socket does: its publisher hands each message over at once."""

    def take(message: str) -> bool:
        heard[0] += len(message)
        return True

    async with club.pubsub.subscribe(channel) as sub:
        if hasattr(sub, "direct"):  # (an older version has no direct write)
            sub.direct = take
        async for message in sub:
            take(message)


async def kept_by_a_move(tables: list[Table]) -> tuple[float, list[tuple[str, int]]]:
    """The tracked objects one move of each table leaves alive (its state, what the move
    added to its round), a table's average, and the most frequent kinds among them."""
    for table in tables:  # each at a position where its seat to move can move
        while table.status == "playing" and table.match.to_move is None:
            await asyncio.sleep(0.001)
    gc.collect()
    gc.freeze()  # what is alive now is not counted
    try:
        for table in tables:
            if table.status == "playing" and table.match.to_move is not None:
                move = table.match.write_move(table.match.legal_moves()[0])
                await table.submit(table.match.to_move, move, table.version)
        await asyncio.sleep(0.05)  # the last messages reach their listeners
        gc.collect()  # what died in cycles is not counted either
        kinds = Counter(type(obj).__qualname__ for obj in gc.get_objects())
    finally:
        gc.unfreeze()
    return sum(kinds.values()) / len(tables), kinds.most_common(12)


async def play(table: Table, moves: list[int], budget: int, done: asyncio.Event) -> None:
    """Move with the first legal move of the seat to move until the budget is spent."""
    while moves[0] < budget and table.status == "playing":
        seat = table.match.to_move
        if seat is None:  # a deal is on its way
            await asyncio.sleep(0.001)
            continue
        move = table.match.write_move(table.match.legal_moves()[0])
        reply = await table.submit(seat, move, table.version)
        if reply.ok:
            moves[0] += 1
    if moves[0] >= budget:
        done.set()


async def run(args: argparse.Namespace, workdir: Path) -> dict[str, Any]:
    db = args.db or f"sqlite+aiosqlite:///{workdir / 'path.db'}"
    settings = Settings(
        db_url=db,
        pubsub_url=args.pubsub,
        node="path",
        bot_delay_ms=0,
        round_pause_seconds=0,
    )
    if hasattr(settings, "seed_seconds"):  # (an older version, the reference, has none)
        settings = replace(settings, seed_seconds=0)  # no person adds a seed: deal at once
    club = Club(settings)
    await club.start()
    listeners: list[asyncio.Task[None]] = []
    try:
        tables = await open_tables(club, args.tables, args.game, args.loss_limit)
        heard = [0]
        for table in tables:
            for seat in [*range(4), None]:
                channel = seat_channel(table.id, seat)
                listeners.append(asyncio.create_task(listen(club, channel, heard)))
        await asyncio.sleep(0.2)  # subscribed everywhere before the first move
        moves, done = [0], asyncio.Event()
        profile = cProfile.Profile() if args.profile else None
        cpu0, wall0 = time.process_time(), time.perf_counter()
        if profile is not None:
            profile.enable()
        players = [asyncio.create_task(play(t, moves, args.moves, done)) for t in tables]
        budget_spent = asyncio.create_task(done.wait())
        every_game_over = asyncio.gather(*players, return_exceptions=True)
        await asyncio.wait(
            [budget_spent, every_game_over], timeout=600, return_when=asyncio.FIRST_COMPLETED
        )
        budget_spent.cancel()
        await asyncio.sleep(0.05)  # the last messages reach their listeners
        if profile is not None:
            profile.disable()
        cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
        for task in players:
            task.cancel()
        await asyncio.gather(*players, return_exceptions=True)
        kept = await kept_by_a_move(tables) if args.kept else None
        result = {
            "tables": args.tables,
            "moves": moves[0],
            "cpu_ms_per_move": round(1000 * cpu / max(1, moves[0]), 3),
            "moves_per_s": round(moves[0] / wall, 1),
            "bytes_per_move": round(heard[0] / max(1, moves[0])),
            "db": db.split(":", 1)[0],
            "pubsub": args.pubsub.split(":", 1)[0],
        }
        if kept is not None:
            result["kept_per_table"] = round(kept[0], 1)
            result["kept_kinds"] = kept[1]
        if profile is not None:
            out = io.StringIO()
            pstats.Stats(profile, stream=out).sort_stats(args.sort).print_stats(args.top)
            result["profile"] = out.getvalue()
        return result
    finally:
        for task in listeners:
            task.cancel()
        with contextlib.suppress(Exception):
            await asyncio.gather(*listeners, return_exceptions=True)
        await club.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--moves", type=int, default=5000, help="moves to play in all")
    parser.add_argument("--game", default="goat", choices=["goat", "donkey"])
    parser.add_argument("--loss-limit", type=int, default=1000, help="long games, as the load")
    parser.add_argument("--db", default="", help="database URL (default: a fresh SQLite file)")
    parser.add_argument("--pubsub", default="memory://", help="memory:// or redis://HOST:PORT/DB")
    parser.add_argument("--profile", action="store_true", help="print where the time went")
    parser.add_argument("--sort", default="tottime", help="cProfile sort key (tottime, cumtime)")
    parser.add_argument("--top", type=int, default=30, help="functions to print")
    parser.add_argument(
        "--kept", action="store_true", help="count what a move leaves alive, after the moves"
    )
    parser.add_argument("--json", action="store_true", help="one JSON line only")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="kozel-path-") as tmp:
        result = asyncio.run(run(args, Path(tmp)))
    profile = result.pop("profile", "")
    if args.json:
        print(json.dumps(result))
        return
    print(
        f"{result['moves']} moves on {result['tables']} tables ({result['db']}, "
        f"{result['pubsub']}): {result['cpu_ms_per_move']:.3f} ms CPU per move, "
        f"{result['moves_per_s']:.0f} moves/s, {result['bytes_per_move']} bytes published "
        "per move"
    )
    if "kept_per_table" in result:
        kinds = ", ".join(f"{n} {kind}" for kind, n in result["kept_kinds"])
        print(f"a move leaves {result['kept_per_table']} tracked objects a table alive: {kinds}")
    if profile:
        print(profile)


if __name__ == "__main__":
    main()

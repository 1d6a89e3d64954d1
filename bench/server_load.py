"""Load test of the club: N tables of four remote players each, over real WebSockets.

It starts ``kozel serve`` on a free loopback port (a fresh SQLite file by default, or the
database ``--db`` names), opens N tables whose four seats are guest players connected by their
own WebSockets, and lets them play with a fast local policy (the first legal move) for
``--seconds``. For every move it measures the time from sending the move to the moment all four
seats of that table received the state that follows it, and reports moves per second and the
p50/p99 of that latency, as a JSON line and a human line.

    .venv/bin/python bench/server_load.py --tables 200 --seconds 30 [--db URL]

Target on the 2-core development machine: 200 tables (800 sockets) with p99 < 100 ms.
Everything stays on 127.0.0.1; every wait is bounded.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

HOST = "127.0.0.1"
TARGET_TABLES = 200
TARGET_P99_MS = 100.0
SECONDS_PER_MOVE = 300
"""Long enough that no seat runs out of time, even when the machine is saturated."""
STALL_SECONDS = 20.0
"""A table that hears nothing for this long is counted as stalled and abandoned."""
SETUP_CONCURRENCY = 16
SETUP_TIMEOUT = 300.0


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((HOST, 0))
        port: int = s.getsockname()[1]
        return port


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (Linux /proc), or NaN elsewhere."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


class Server:
    """``kozel serve`` in a subprocess, its log in a file."""

    def __init__(self, db: str, workdir: Path) -> None:
        self.port = free_port()
        self.url = f"http://{HOST}:{self.port}"
        self.ws = f"ws://{HOST}:{self.port}"
        self.log_path = workdir / "server.log"
        self.log = self.log_path.open("wb")
        code = "from kozel.cli import main; main()"
        command = [sys.executable, "-c", code, "serve", "--host", HOST, "--port", str(self.port)]
        # every simulated player comes from this one address: lift the per-address limits
        command += ["--guests-per-minute", "1000000", "--registrations-per-minute", "1000000"]
        command += ["--requests-per-minute", "1000000", "--sockets-per-address", "1000000"]
        self.process = subprocess.Popen(
            [*command, "--db", db], stdout=self.log, stderr=subprocess.STDOUT
        )

    async def wait_ready(self, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        async with httpx.AsyncClient(base_url=self.url, timeout=2) as http:
            while time.monotonic() < deadline:
                if self.process.poll() is not None:
                    raise RuntimeError(f"the server exited; see {self.log_path}")
                with contextlib.suppress(httpx.HTTPError):
                    if (await http.get("/api/health")).status_code == 200:
                        return
                await asyncio.sleep(0.1)
        raise RuntimeError(f"the server did not start in {timeout:.0f} s; see {self.log_path}")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=5)
        self.log.close()


@dataclass
class Stats:
    latencies_ms: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    games_finished: int = 0
    games_started: int = 0


@dataclass
class Pending:
    """A move sent against ``version`` at ``sent``; ``seen`` are the seats that got its state."""

    version: int
    sent: float
    seen: set[int] = field(default_factory=set)


class Guest:
    def __init__(self, base: str, transport: httpx.AsyncHTTPTransport) -> None:
        self.http = httpx.AsyncClient(base_url=base, timeout=60, transport=transport)
        self.csrf = ""

    async def sign_in(self) -> None:
        response = await self.http.post("/api/auth/guest")
        response.raise_for_status()
        self.csrf = response.json()["csrf"]

    async def post(self, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        response = await self.http.post(path, json=body or {}, headers={"X-CSRF-Token": self.csrf})
        if response.status_code != 200:
            raise RuntimeError(f"POST {path}: {response.status_code} {response.text[:200]}")
        data: dict[str, Any] = response.json()
        return data

    def cookie(self) -> str:
        return "; ".join(f"{k}={v}" for k, v in self.http.cookies.items())


class Bench:
    def __init__(self, args: argparse.Namespace, server: Server) -> None:
        self.args = args
        self.server = server
        self.stats = Stats()
        self.rng = random.Random(1)
        self.go = asyncio.Event()
        self.stop = asyncio.Event()
        self.ready = 0
        self.transport = httpx.AsyncHTTPTransport(
            limits=httpx.Limits(max_connections=SETUP_CONCURRENCY * 2)
        )
        self.setup_gate = asyncio.Semaphore(SETUP_CONCURRENCY)

    async def open_game(self, guests: list[Guest]) -> int:
        """Seat four guests at a new table: one creates a request, three join it."""
        async with self.setup_gate:
            request = await guests[0].post(
                "/api/requests",
                {
                    "game": self.args.game,
                    "options": {"loss_limit": self.args.loss_limit},
                    "seconds_per_move": SECONDS_PER_MOVE,
                    "rated": False,
                },
            )
            joined = request
            for guest in guests[1:]:
                joined = await guest.post(f"/api/requests/{request['id']}/join")
        if joined["status"] != "started" or not joined["game_id"]:
            raise RuntimeError(f"the request did not start: {joined}")
        self.stats.games_started += 1
        game_id: int = joined["game_id"]
        return game_id

    async def table(self, index: int) -> None:
        guests = [Guest(self.server.url, self.transport) for _ in range(4)]
        counted = False
        try:
            async with self.setup_gate:
                for guest in guests:
                    await guest.sign_in()
            while not self.stop.is_set():
                game_id = await self.open_game(guests)
                compression = "deflate" if self.args.compression else None
                async with contextlib.AsyncExitStack() as stack:
                    sockets = [
                        await stack.enter_async_context(
                            connect(
                                f"{self.server.ws}/ws/games/{game_id}",
                                additional_headers={"Cookie": guest.cookie()},
                                compression=compression,
                                open_timeout=60,
                            )
                        )
                        for guest in guests
                    ]
                    if not counted:
                        counted = True
                        self.ready += 1
                    if not await self.play(sockets):
                        return
        except Exception as error:
            self.stats.errors[f"table:{type(error).__name__}"] += 1
            if self.args.verbose:
                print(f"table {index}: {error!r}", file=sys.stderr)
        finally:
            if not counted:
                self.ready += 1  # do not let the start wait for a table that failed
            for guest in guests:
                await guest.http.aclose()

    async def play(self, sockets: list[ClientConnection]) -> bool:
        """Play one game on four sockets; True when it ended and another may start."""
        pending: list[Pending | None] = [None]
        acted = [-1] * 4
        seen = [-1] * 4
        over = asyncio.Event()
        finished = [False]

        async def reader(seat_index: int, sock: ClientConnection) -> None:
            await self.go.wait()
            while not self.stop.is_set() and not over.is_set():
                try:
                    text = await asyncio.wait_for(sock.recv(), STALL_SECONDS)
                except TimeoutError:
                    self.stats.errors["stall"] += 1
                    over.set()
                    return
                arrived = time.perf_counter()
                message = json.loads(text)
                if message["type"] == "error":
                    self.stats.errors[f"ws:{message['code']}"] += 1
                    continue
                if message["type"] != "state" or message["version"] <= seen[seat_index]:
                    continue
                version = message["version"]
                seen[seat_index] = version
                you = message["you"]
                waiting = pending[0]
                if waiting is not None and version > waiting.version:
                    waiting.seen.add(seat_index)
                    if len(waiting.seen) == 4:
                        if not self.stop.is_set():
                            self.stats.latencies_ms.append((arrived - waiting.sent) * 1000)
                        pending[0] = None
                if message["status"] != "playing":
                    self.stats.games_finished += 1
                    finished[0] = True
                    over.set()
                    return
                view = message.get("view")
                if (
                    view
                    and view["turn"] == you
                    and view["legal_moves"]
                    and version > acted[seat_index]
                ):
                    acted[seat_index] = version
                    if self.args.think:  # people think for varying times, not in lockstep
                        await asyncio.sleep(self.args.think * self.rng.uniform(0.5, 1.5))
                    if pending[0] is None:
                        pending[0] = Pending(version, time.perf_counter())
                    move = {"type": "move", "version": version, "move": view["legal_moves"][0]}
                    await sock.send(json.dumps(move))

        tasks = [asyncio.create_task(reader(i, s)) for i, s in enumerate(sockets)]
        try:
            await asyncio.gather(*tasks)
        except ConnectionClosed as error:
            self.stats.errors[f"closed:{error.rcvd.code if error.rcvd else 'none'}"] += 1
            return False
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        return finished[0] and not self.stop.is_set()

    async def run(self) -> dict[str, Any]:
        tables = [asyncio.create_task(self.table(i)) for i in range(self.args.tables)]
        setup_started = time.perf_counter()
        deadline = setup_started + SETUP_TIMEOUT
        while self.ready < self.args.tables and time.perf_counter() < deadline:
            await asyncio.sleep(0.1)
        setup_seconds = time.perf_counter() - setup_started
        server_cpu0, client_cpu0 = cpu_seconds(self.server.process.pid), time.process_time()
        started = time.perf_counter()
        self.go.set()
        await asyncio.sleep(self.args.seconds)
        self.stop.set()
        elapsed = time.perf_counter() - started
        server_cpu = cpu_seconds(self.server.process.pid) - server_cpu0
        client_cpu = time.process_time() - client_cpu0
        _, waiting = await asyncio.wait(tables, timeout=STALL_SECONDS + 10)
        for task in waiting:
            task.cancel()
        await asyncio.gather(*waiting, return_exceptions=True)
        await self.transport.aclose()
        latencies = self.stats.latencies_ms
        return {
            "tables": self.args.tables,
            "sockets": 4 * self.ready,
            "db": self.args.db.split(":", 1)[0] if self.args.db else "sqlite",
            "seconds": round(elapsed, 2),
            "setup_seconds": round(setup_seconds, 2),
            "moves": len(latencies),
            "moves_per_s": round(len(latencies) / elapsed, 1),
            "p50_ms": round(percentile(latencies, 50), 2),
            "p99_ms": round(percentile(latencies, 99), 2),
            "max_ms": round(max(latencies, default=float("nan")), 2),
            "games_started": self.stats.games_started,
            "games_finished": self.stats.games_finished,
            "errors": dict(self.stats.errors),
            "server_cpu_pct": round(100 * server_cpu / elapsed, 1),
            "client_cpu_pct": round(100 * client_cpu / elapsed, 1),
        }


async def main_async(args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="kozel-load-") as tmp:
        workdir = Path(tmp)
        db = args.db or f"sqlite+aiosqlite:///{workdir / 'load.db'}"
        server = Server(db, workdir)
        try:
            await server.wait_ready()
            result = await Bench(args, server).run()
        finally:
            server.stop()
            if args.log:
                shutil.copyfile(server.log_path, args.log)
        return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=TARGET_TABLES, help="concurrent tables")
    parser.add_argument("--seconds", type=float, default=30.0, help="measured run time")
    parser.add_argument("--db", default="", help="database URL (default: a fresh SQLite file)")
    parser.add_argument("--game", default="goat", choices=["goat", "donkey"])
    parser.add_argument(
        "--loss-limit", type=int, default=1000, help="long games: fewer new tables mid-run"
    )
    parser.add_argument(
        "--no-compression",
        dest="compression",
        action="store_false",
        help="do not offer permessage-deflate (browsers do offer it)",
    )
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="mean seconds a player thinks before moving, drawn from 0.5x..1.5x "
        "(0: answer at once, the worst case)",
    )
    parser.add_argument("--log", type=Path, help="keep the server's log in this file")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    if not 1 <= args.tables <= 2000 or not 1 <= args.seconds <= 600 or not 0 <= args.think <= 30:
        parser.error("--tables must be 1..2000, --seconds 1..600 and --think 0..30")
    result = asyncio.run(main_async(args))
    print(json.dumps(result))
    verdict = (
        "meets"
        if result["tables"] >= TARGET_TABLES and result["p99_ms"] < TARGET_P99_MS
        else "does not meet"
    )
    print(
        f"{result['tables']} tables ({result['sockets']} sockets, {result['db']}, "
        f"think {args.think:g} s): "
        f"{result['moves_per_s']:.0f} moves/s, p50 {result['p50_ms']:.1f} ms, "
        f"p99 {result['p99_ms']:.1f} ms over {result['seconds']:.0f} s; "
        f"errors {result['errors'] or 'none'}; server CPU {result['server_cpu_pct']}%, "
        f"client CPU {result['client_cpu_pct']}% -> {verdict} the target "
        f"({TARGET_TABLES} tables, p99 < {TARGET_P99_MS:.0f} ms)"
    )


if __name__ == "__main__":
    main()

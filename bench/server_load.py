"""Load test of the club: tables of four remote players over real WebSockets, on 1, 2 or 4
server processes, the players thinking like people or answering at once.

It starts ``--processes`` ``kozel serve`` processes (nodes n1, n2, ...) on one fresh database
(a PostgreSQL database created for the run from ``--postgres``; with one process and no
``--postgres``, a fresh SQLite file) and, with more than one process, one Redis
(``--redis``). It opens ``--tables`` tables whose four seats are guest players, each seat's
WebSocket on another process than its neighbour's, so that most moves travel from the
seat's process to the table's owner and back through Redis. The players run in
``--clients`` client processes (each an event loop on uvloop, reading and writing JSON with
orjson), so that the load generator is not the bottleneck; their CPU is reported beside the
servers'.

Every player moves with its first legal move: ``--pace human`` after thinking a uniform
0.5-1.5 s (a person's pace: a table moves about once a second; ``--think LO,HI`` sets other
bounds, to measure a move's cost at another pace of moves), ``--pace instant`` at once
(the throughput). It measures the time from sending a move to the moment all four seats of
its table received the state that follows (for every move sent while none of its table's was
pending: at ``--pace instant`` the next seat moves before the others have the state, and
about half of the moves are timed), and reports moves per second, p50 and p99 of that
latency, the CPU seconds the server processes spent per move (every move sent), how long they
waited, runnable, for a CPU (a starved server is not a slow one), the client processes' CPU
and how busy the whole machine was, as a JSON line and a human line.

    .venv/bin/python bench/server_load.py --processes 2 --pace human --tables 1000
    .venv/bin/python bench/server_load.py --matrix   # 1, 2, 4 processes x both paces

``--matrix`` runs every combination (``--human-tables`` at a person's pace,
``--instant-tables`` at once) and prints the table docs/benchmarks.md shows. The target
(issue #10): 1,000 tables at a person's pace with p99 < 100 ms, and the instant throughput
growing with the processes. Everything stays on 127.0.0.1; every wait is bounded.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import math
import os
import random
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import orjson
import uvloop  # the players' event loop, uvicorn's (uvicorn[standard])
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from kozel import patch

HOST = "127.0.0.1"
TARGET_HUMAN_TABLES = 1000
TARGET_P99_MS = 100.0
THINK_SECONDS = (0.5, 1.5)
"""A person's thinking time before a move, drawn uniformly (``--pace human``)."""
SECONDS_PER_MOVE = 300
"""Long enough that no seat runs out of time, even when the machine is saturated."""
STALL_SECONDS = 30.0
"""A table that hears nothing for this long is counted as stalled and abandoned."""
SETUP_CONCURRENCY = 8
"""Tables of one client process being opened at once."""
SETUP_TIMEOUT = 1800.0
"""Opening 1,000 tables (4,000 guests, 4,000 sockets) takes minutes on a busy machine."""
PROGRESS_SECONDS = 10.0
TABLES_PER_CLIENT = 250
"""The default number of client processes is one per this many tables."""
LEASE_SECONDS = 30.0
"""Long leases: a saturated machine must not turn into a storm of takeovers."""
DB_CONNECTIONS = 20
"""Per process: four stay below PostgreSQL's default limit of 100 clients."""


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((HOST, 0))
        port: int = s.getsockname()[1]
        return port


def cpu_seconds(pid: int, user: bool = True) -> float:
    """User + system CPU time of a process (Linux /proc), or NaN elsewhere; with ``user``
    False the system time alone (the kernel's work for the process: on this machine's
    loopback, a socket's send does the receiving client's TCP work too)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) * user + int(fields[12])) / ticks


def run_queue_seconds(pid: int) -> float:
    """How long a process has waited, runnable, for a CPU (Linux /proc schedstat), or NaN.
    A process that waits long for a CPU is starved by the machine, not slow by itself."""
    try:
        return int(Path(f"/proc/{pid}/schedstat").read_text().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return float("nan")


def peak_memory_mb(pid: int) -> float:
    """The most resident memory a process has had (Linux /proc, VmHWM), in MB, or NaN."""
    try:
        for row in Path(f"/proc/{pid}/status").read_text().splitlines():
            if row.startswith("VmHWM:"):
                return int(row.split()[1]) / 1024
    except (OSError, IndexError, ValueError):
        pass
    return float("nan")


def machine_ticks() -> tuple[int, int]:
    """(busy, total) CPU ticks of the whole machine so far (Linux /proc/stat)."""
    try:
        numbers = [int(n) for n in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    except OSError:
        return 0, 0
    idle = numbers[3] + (numbers[4] if len(numbers) > 4 else 0)
    return sum(numbers) - idle, sum(numbers)


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


# --- the servers --------------------------------------------------------------------------


COLLECTOR_HOOK = Path(__file__).resolve().parent / "collector_hook"


def collector_pauses(logs: list[Path], start: float, end: float) -> dict[str, dict[str, float]]:
    """The collections of the servers between the wall times ``start`` and ``end``, by
    generation (young, middle, full): how many, the longest and their sum (ms)."""
    names = ("young", "middle", "full")
    pauses: dict[str, list[float]] = {name: [] for name in names}
    for log in logs:
        with contextlib.suppress(FileNotFoundError):
            for row in log.read_text().splitlines():
                at, generation, ms = row.split()
                if start <= float(at) <= end:
                    pauses[names[int(generation)]].append(float(ms))
    return {
        name: {"n": len(ms), "longest_ms": round(max(ms, default=0.0), 1), "sum_ms": round(sum(ms))}
        for name, ms in pauses.items()
    }


class Server:
    """``kozel serve`` in a subprocess under a node name, its log in a file."""

    def __init__(
        self,
        name: str,
        db: str,
        pubsub: str,
        workdir: Path,
        profile: Path | None = None,
        pythonpath: str = "",
    ) -> None:
        self.name = name
        self.port = free_port()
        self.url = f"http://{HOST}:{self.port}"
        self.ws = f"ws://{HOST}:{self.port}"
        self.log_path = workdir / f"{name}.log"
        self.log = self.log_path.open("wb")
        code = "from kozel.cli import main; main()"
        if profile is not None:  # cProfile over the measured time: SIGUSR1 to SIGUSR2
            code = (
                "import cProfile, signal; from kozel.cli import main; p = cProfile.Profile(); "
                "signal.signal(signal.SIGUSR1, lambda *_: p.enable()); "
                "signal.signal(signal.SIGUSR2, lambda *_: (p.disable(), "
                f"p.dump_stats({str(profile)!r}))); main()"
            )
        command = [sys.executable, "-c", code, "serve", "--host", HOST, "--port", str(self.port)]
        command += ["--db", db, "--pubsub", pubsub, "--node", name]
        command += ["--lease-seconds", str(LEASE_SECONDS), "--db-connections", str(DB_CONNECTIONS)]
        # every simulated player comes from this one address: lift the per-address limits
        command += ["--guests-per-minute", "1000000", "--registrations-per-minute", "1000000"]
        command += ["--requests-per-minute", "1000000", "--sockets-per-address", "1000000"]
        # every collection's pause logged (bench/collector_hook), this version's or another's
        self.collector_log = workdir / f"{name}-collector.txt"
        path = os.pathsep.join(p for p in (str(COLLECTOR_HOOK), pythonpath) if p)
        env = {**os.environ, "PYTHONPATH": path, "KOZEL_COLLECTOR_LOG": str(self.collector_log)}
        self.process = subprocess.Popen(
            command, stdout=self.log, stderr=subprocess.STDOUT, env=env, cwd=workdir
        )

    async def wait_ready(self, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        async with httpx.AsyncClient(base_url=self.url, timeout=2) as http:
            while time.monotonic() < deadline:
                if self.process.poll() is not None:
                    raise RuntimeError(f"{self.name} exited; see {self.log_path}")
                with contextlib.suppress(httpx.HTTPError):
                    if (await http.get("/api/health")).status_code == 200:
                        return
                await asyncio.sleep(0.1)
        raise RuntimeError(f"{self.name} did not start in {timeout:.0f} s; see {self.log_path}")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=5)
        self.log.close()


async def admin(postgres: str, sql: str) -> None:
    import asyncpg

    url = postgres.replace("postgresql+asyncpg://", "postgresql://").rstrip("/")
    connection = await asyncpg.connect(url + "/postgres")
    try:
        await connection.execute(sql)
    finally:
        await connection.close()


# --- the players (one client process) -----------------------------------------------------


@dataclass
class Stats:
    latencies_ms: list[float] = field(default_factory=list)
    """A move's time to all four seats, for the moves sent while none of the table's was
    pending (at ``--pace instant`` about half of them: the next seat moves as soon as it has
    the state, before the other seats have it)."""
    moves: int = 0
    """Every move sent in the measured time, timed or not: what the server's CPU is per."""
    errors: Counter[str] = field(default_factory=Counter)
    bytes: dict[str, list[int]] = field(default_factory=lambda: {"state": [], "event": []})
    """The length of every state and event message a seat received, by type."""
    games_finished: int = 0
    games_started: int = 0


@dataclass
class Pending:
    """A move sent against ``version`` at ``sent``; ``seen`` are the seats that got its state."""

    version: int
    sent: float
    seen: set[int] = field(default_factory=set)


class Guest:
    def __init__(self, server: dict[str, str], transport: httpx.AsyncHTTPTransport) -> None:
        self.server = server
        self.http = httpx.AsyncClient(base_url=server["url"], timeout=60, transport=transport)
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


def request_body(game: str, loss_limit: int) -> dict[str, Any]:
    """A benchmark table's game request: unrated, a person's clock."""
    return {
        "game": game,
        "options": {"loss_limit": loss_limit},
        "seconds_per_move": SECONDS_PER_MOVE,
        "rated": False,
    }


class Players:
    """The tables of one client process: seat ``i`` of table ``t`` talks to server
    ``(t + i) % n``, and the table is started (so owned) by server ``t % n``."""

    def __init__(self, config: dict[str, Any]) -> None:
        self.config = config
        self.servers: list[dict[str, str]] = config["servers"]
        self.stats = Stats()
        self.rng = random.Random(config["seed"])
        self.go = asyncio.Event()
        self.stop = asyncio.Event()
        self.ready = 0
        self.failed = 0
        self.transports = [
            # idle connections are dropped before uvicorn's keep-alive (5 s) closes them
            # under a request on its way (a ReadError)
            httpx.AsyncHTTPTransport(
                limits=httpx.Limits(max_connections=SETUP_CONCURRENCY * 2, keepalive_expiry=2)
            )
            for _ in self.servers
        ]
        self.setup_gate = asyncio.Semaphore(SETUP_CONCURRENCY)

    def think(self) -> float:
        low, high = self.config["think"]
        return self.rng.uniform(low, high) if self.config["pace"] == "human" else 0.0

    async def open_game(self, guests: list[Guest]) -> int:
        """Seat four guests at a new table: one creates a request, three join it."""
        async with self.setup_gate:
            request = await guests[0].post(
                "/api/requests", request_body(self.config["game"], self.config["loss_limit"])
            )
            joined = request
            for guest in guests[1:]:
                joined = await guest.post(f"/api/requests/{request['id']}/join")
        if joined["status"] != "started" or not joined["game_id"]:
            raise RuntimeError(f"the request did not start: {joined}")
        self.stats.games_started += 1
        game_id: int = joined["game_id"]
        return game_id

    def socket_server(self, guest: Guest, game_id: int) -> dict[str, str]:
        """The process a seat's table socket goes to: the one its requests go to (a table's
        seats spread over the processes), or with ``--route table`` one per table, as the
        balancer of docs/deploy.md chooses it by the game in the socket's address."""
        if self.config["route"] == "table":
            return self.servers[game_id % len(self.servers)]
        return guest.server

    async def table(self, index: int) -> None:
        n = len(self.servers)
        guests = [
            Guest(self.servers[(index + s) % n], self.transports[(index + s) % n]) for s in range(4)
        ]
        counted = False
        try:
            async with self.setup_gate:
                for guest in guests:
                    await guest.sign_in()
            while not self.stop.is_set():
                game_id = await self.open_game(guests)
                compression = "deflate" if self.config["compression"] else None
                async with contextlib.AsyncExitStack() as stack:
                    sockets = [
                        await stack.enter_async_context(
                            connect(
                                f"{self.socket_server(guest, game_id)['ws']}/ws/games/{game_id}",
                                additional_headers={"Cookie": guest.cookie()},
                                compression=compression,
                                open_timeout=120,
                                ping_interval=None,  # as a browser: answers pings, sends none
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
            if not counted:
                self.failed += 1
            if self.config["verbose"]:
                print(f"table {index}: {error!r}", file=sys.stderr)
        finally:
            if not counted:
                self.ready += 1  # do not let the start wait for a table that failed
            for guest in guests:
                await guest.http.aclose()

    async def play(self, sockets: list[ClientConnection]) -> bool:
        """Play one game on four sockets; True when it ended and another may start. Each
        seat holds its state as a client does: a whole state replaces it, an event (a patch)
        is applied to it, and an event after a missed version asks for the whole state.
        (A server of an older version sends whole states only: this client plays it too.)"""
        pending: list[Pending | None] = [None]
        acted = [-1] * 4
        held: list[dict[str, Any] | None] = [None] * 4
        over = asyncio.Event()
        finished = [False]

        async def reader(seat_index: int, sock: ClientConnection) -> None:
            # a person adds his seed to the table's shuffle at once (the first deal waits for
            # the people's seeds), as the browser does; a server of an older version has no
            # shuffle and says it does not know the message
            await sock.send(dumps({"type": "seed", "seed": secrets.token_hex(16)}))
            await self.go.wait()
            while not self.stop.is_set() and not over.is_set():
                try:
                    async with asyncio.timeout(STALL_SECONDS):
                        data = await sock.recv(decode=False)
                except TimeoutError:
                    self.stats.errors["stall"] += 1
                    over.set()
                    return
                arrived = time.perf_counter()
                message = orjson.loads(data)
                kind, state = message["type"], held[seat_index]
                if kind == "error":
                    if message["code"] not in ("seed_late", "seed_twice", "unknown_type"):
                        self.stats.errors[f"ws:{message['code']}"] += 1
                    continue
                if kind == "next_round" and state is not None:
                    if state["you"] in message["waiting"]:  # a person presses "next"
                        await sock.send(dumps({"type": "next"}))
                    continue
                if kind not in ("state", "event"):
                    continue
                seen = state["version"] if state is not None else -1
                if message["version"] <= seen:
                    continue
                if kind == "event":
                    if state is None or message["version"] != seen + 1:
                        self.stats.errors["missed_version"] += 1
                        await sock.send(dumps({"type": "sync"}))
                        continue
                    state = {**patch.apply(state, message["patch"]), "version": message["version"]}
                else:
                    state = message
                held[seat_index] = state
                if not self.stop.is_set():
                    self.stats.bytes[kind].append(len(data))
                version = state["version"]
                you = state["you"]
                waiting = pending[0]
                if waiting is not None and version > waiting.version:
                    waiting.seen.add(seat_index)
                    if len(waiting.seen) == 4:
                        if not self.stop.is_set():
                            self.stats.latencies_ms.append((arrived - waiting.sent) * 1000)
                        pending[0] = None
                if state["status"] != "playing":
                    self.stats.games_finished += 1
                    finished[0] = True
                    over.set()
                    return
                if you in state.get("next_round", {}).get("waiting", []):
                    await sock.send(dumps({"type": "next"}))
                view = state.get("view")
                if (
                    view
                    and view["turn"] == you
                    and view["legal_moves"]
                    and version > acted[seat_index]
                ):
                    acted[seat_index] = version
                    thinking = self.think()
                    if thinking:  # people think for varying times, not in lockstep
                        await asyncio.sleep(thinking)
                    if pending[0] is None:
                        pending[0] = Pending(version, time.perf_counter())
                    move = {"type": "move", "version": version, "move": view["legal_moves"][0]}
                    if not self.stop.is_set():
                        self.stats.moves += 1
                    await sock.send(dumps(move))

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

    async def run(self) -> None:
        """Open the tables, say ``ready``, wait for ``go`` on stdin, play for the measured
        time (saying how many moves so far), then print the result, one JSON line each."""
        indices: list[int] = self.config["tables"]
        tables = [asyncio.create_task(self.table(i)) for i in indices]
        while self.ready < len(indices):
            await asyncio.sleep(0.5)
            say({"opened": self.ready})
        say({"ready": self.ready - self.failed})
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, sys.stdin.readline)
        # the players' own collections are not the server's latency: a process of 250 tables
        # stopped them all for up to 280 ms each time its oldest generation was collected, and
        # its moves and their answers counted as late; what it makes while measuring is freed
        # by reference counting (a player's process is not a club: it lives for one run)
        gc.collect()
        gc.freeze()
        gc.disable()
        cpu0, started = time.process_time(), time.perf_counter()
        self.go.set()
        deadline = started + self.config["seconds"]
        while (left := deadline - time.perf_counter()) > 0:
            await asyncio.sleep(min(left, PROGRESS_SECONDS / 2))
            say({"moves": self.stats.moves})
        self.stop.set()
        cpu = time.process_time() - cpu0
        say(
            {
                "result": {
                    "latencies_ms": [round(x, 3) for x in self.stats.latencies_ms],
                    "moves": self.stats.moves,
                    "errors": dict(self.stats.errors),
                    "games_started": self.stats.games_started,
                    "games_finished": self.stats.games_finished,
                    "cpu_seconds": cpu,
                    "sockets": 4 * (self.ready - self.failed),
                    "bytes": self.stats.bytes,
                }
            }
        )
        _, waiting = await asyncio.wait(tables, timeout=STALL_SECONDS + 10)
        for task in waiting:
            task.cancel()
        await asyncio.gather(*waiting, return_exceptions=True)
        for transport in self.transports:
            await transport.aclose()


def dumps(message: dict[str, Any]) -> str:
    """A message to the server, as a text frame."""
    return orjson.dumps(message).decode()


def say(message: dict[str, Any]) -> None:
    print(json.dumps(message), flush=True)


# --- one run: servers, client processes, figures ------------------------------------------


class Client:
    """A client process playing some of the tables, talking JSON lines."""

    def __init__(self, config: dict[str, Any]) -> None:
        self.config = config
        self.process: asyncio.subprocess.Process | None = None
        self.opened = 0
        self.ready = -1
        self.moves = 0
        self.result: dict[str, Any] | None = None
        self.reader: asyncio.Task[None] | None = None

    async def start(self, nice: int = 0) -> None:
        self.process = await asyncio.create_subprocess_exec(
            *(["nice", "-n", str(nice)] if nice else []),
            sys.executable,
            __file__,
            "--client",
            json.dumps(self.config),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            limit=2**26,
        )
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        assert self.process is not None and self.process.stdout is not None
        while line := await self.process.stdout.readline():
            message = json.loads(line)
            self.opened = message.get("opened", self.opened)
            self.ready = message.get("ready", self.ready)
            self.moves = message.get("moves", self.moves)
            self.result = message.get("result", self.result)

    def go(self) -> None:
        assert self.process is not None and self.process.stdin is not None
        self.process.stdin.write(b"go\n")

    def alive(self) -> bool:
        return self.process is not None and self.process.returncode is None

    async def stop(self) -> None:
        if self.process is not None and self.process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.process.terminate()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.process.wait(), 20)
            if self.process.returncode is None:
                self.process.kill()
                await self.process.wait()


def progress(text: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {text}", file=sys.stderr, flush=True)


async def run_once(
    args: argparse.Namespace, processes: int, pace: str, tables: int
) -> dict[str, Any]:
    """One measured run on fresh servers and a fresh database."""
    with tempfile.TemporaryDirectory(prefix="kozel-load-") as tmp:
        workdir = Path(tmp)
        database = ""
        if args.postgres:
            postgres = args.postgres.replace("postgresql://", "postgresql+asyncpg://", 1)
            database = f"kozel_load_{secrets.token_hex(4)}"
            await admin(postgres, f"CREATE DATABASE {database}")
            db = f"{postgres.rstrip('/')}/{database}"
        else:
            db = f"sqlite+aiosqlite:///{workdir / 'load.db'}"
        pubsub = args.redis or "memory://"
        servers = [
            Server(
                f"n{i + 1}",
                db,
                pubsub,
                workdir,
                args.profile / f"{processes}p-{pace}-{tables}-n{i + 1}.prof"
                if args.profile
                else None,
                args.server_pythonpath,
            )
            for i in range(processes)
        ]
        clients: list[Client] = []
        try:
            await asyncio.gather(*(server.wait_ready() for server in servers))
            count = args.clients or max(1, math.ceil(tables / TABLES_PER_CLIENT))
            for c in range(count):
                config = {
                    "servers": [{"url": s.url, "ws": s.ws} for s in servers],
                    "tables": list(range(c, tables, count)),
                    "pace": pace,
                    "think": args.think,
                    "seconds": args.seconds,
                    "game": args.game,
                    "loss_limit": args.loss_limit,
                    "compression": args.compression,
                    "route": args.route,
                    "verbose": args.verbose,
                    "seed": c + 1,
                }
                clients.append(Client(config))
            for client in clients:
                await client.start(args.client_nice)
            label = f"{processes} process(es), {pace}, {tables} tables"
            pids = [server.process.pid for server in servers]
            setup_cpu0 = sum(cpu_seconds(pid) for pid in pids)
            setup_started = time.perf_counter()
            deadline = setup_started + SETUP_TIMEOUT
            shown = 0.0
            while any(c.ready < 0 for c in clients):
                if time.perf_counter() > deadline or not all(c.alive() for c in clients):
                    raise RuntimeError(f"{label}: the tables did not open")
                if time.perf_counter() - shown > PROGRESS_SECONDS:
                    shown = time.perf_counter()
                    opened = sum(c.opened for c in clients)
                    progress(f"{label}: {opened}/{tables} tables opened")
                await asyncio.sleep(0.2)
            setup_seconds = time.perf_counter() - setup_started
            setup_cpu = sum(cpu_seconds(pid) for pid in pids) - setup_cpu0
            ready = sum(c.ready for c in clients)
            progress(f"{label}: {ready} tables open in {setup_seconds:.0f} s; measuring")
            server_cpu0 = [cpu_seconds(pid) for pid in pids]
            server_system0 = sum(cpu_seconds(pid, user=False) for pid in pids)
            server_wait0 = [run_queue_seconds(pid) for pid in pids]
            busy0, total0 = machine_ticks()
            started, wall_started = time.perf_counter(), time.time()
            if args.profile:
                for server in servers:
                    server.process.send_signal(signal.SIGUSR1)
            for client in clients:
                client.go()
            end = started + args.seconds
            while (left := end - time.perf_counter()) > 0:
                await asyncio.sleep(min(left, PROGRESS_SECONDS))
                moves = sum(c.moves for c in clients)
                elapsed = time.perf_counter() - started
                progress(f"{label}: {elapsed:.0f}/{args.seconds:.0f} s, {moves} moves")
            elapsed = time.perf_counter() - started
            server_cpu = [
                cpu_seconds(pid) - cpu0 for pid, cpu0 in zip(pids, server_cpu0, strict=True)
            ]
            server_system = sum(cpu_seconds(pid, user=False) for pid in pids) - server_system0
            server_wait = [
                run_queue_seconds(pid) - wait0
                for pid, wait0 in zip(pids, server_wait0, strict=True)
            ]
            busy1, total1 = machine_ticks()
            collections = collector_pauses(
                [server.collector_log for server in servers], wall_started, time.time()
            )
            peak_mb = [peak_memory_mb(pid) for pid in pids]
            if args.profile:
                for server in servers:
                    server.process.send_signal(signal.SIGUSR2)
            result_deadline = time.perf_counter() + 60
            while any(c.result is None for c in clients):
                if time.perf_counter() > result_deadline:
                    raise RuntimeError(f"{label}: a client process did not report")
                await asyncio.sleep(0.2)
        finally:
            for client in clients:
                await client.stop()
            for server in servers:
                server.stop()
            if args.log:
                args.log.mkdir(parents=True, exist_ok=True)
                for server in servers:
                    name = f"{processes}p-{pace}-{tables}-{server.name}.log"
                    (args.log / name).write_bytes(server.log_path.read_bytes())
            if database:
                await admin(postgres, f"DROP DATABASE IF EXISTS {database} WITH (FORCE)")
    reports = [c.result for c in clients if c.result is not None]
    latencies = [x for r in reports for x in r["latencies_ms"]]
    errors: Counter[str] = Counter()
    for report in reports:
        errors.update(report["errors"])
    moves = sum(r["moves"] for r in reports)
    client_cpu = sum(r["cpu_seconds"] for r in reports)
    received = {kind: [n for r in reports for n in r["bytes"][kind]] for kind in ("state", "event")}
    return {
        "processes": processes,
        "route": args.route if processes > 1 else None,
        "pace": pace,
        "think": args.think if pace == "human" else None,
        "tables": tables,
        "sockets": sum(r["sockets"] for r in reports),
        "db": db.split(":", 1)[0],
        "pubsub": pubsub.split(":", 1)[0],
        "clients": len(clients),
        "client_nice": args.client_nice,
        "seconds": round(elapsed, 2),
        "setup_seconds": round(setup_seconds, 1),
        "setup_server_cpu_ms_per_table": round(1000 * setup_cpu / max(1, tables), 1),
        "moves": moves,
        "timed_moves": len(latencies),
        "moves_per_s": round(moves / elapsed, 1),
        "p50_ms": round(percentile(latencies, 50), 1),
        "p99_ms": round(percentile(latencies, 99), 1),
        "max_ms": round(max(latencies, default=float("nan")), 1),
        "server_cpu_ms_per_move": round(1000 * sum(server_cpu) / max(1, moves), 3),
        "server_system_ms_per_move": round(1000 * server_system / max(1, moves), 3),
        "server_cpu_pct": [round(100 * cpu / elapsed, 1) for cpu in server_cpu],
        "server_waiting_pct": [round(100 * wait / elapsed, 1) for wait in server_wait],
        "client_cpu_pct": round(100 * client_cpu / elapsed, 1),
        "server_peak_mb": [round(mb) for mb in peak_mb],
        "collections": collections,
        "machine_busy_pct": round(100 * (busy1 - busy0) / max(1, total1 - total0), 1),
        "messages": {kind: len(sizes) for kind, sizes in received.items()},
        "bytes_median": {
            kind: percentile(sizes, 50) if sizes else None for kind, sizes in received.items()
        },
        "games_started": sum(r["games_started"] for r in reports),
        "games_finished": sum(r["games_finished"] for r in reports),
        "errors": dict(errors),
    }


def pace_label(result: dict[str, Any]) -> str:
    """The pace, with its thinking time when it is not a person's."""
    think = result.get("think")
    if result["pace"] != "human" or not think or tuple(think) == THINK_SECONDS:
        return str(result["pace"])
    return f"human, thinking {think[0]:g}-{think[1]:g} s"


def line(result: dict[str, Any]) -> str:
    pauses = ", ".join(
        f"{name} {c['n']}, {c['longest_ms']:.0f}"
        for name, c in result.get("collections", {}).items()
    )
    return (
        f"{result['processes']} process(es)"
        + (f" (sockets by {result['route']})" if result.get("route") else "")
        + f", {pace_label(result)}, {result['tables']} tables "
        f"({result['sockets']} sockets, {result['db']}, {result['pubsub']}) opened in "
        f"{result['setup_seconds']:.0f} s ({result['setup_server_cpu_ms_per_table']:.0f} ms of "
        "server CPU a table): "
        f"{result['moves_per_s']:.0f} moves/s, p50 {result['p50_ms']:.1f} ms, "
        f"p99 {result['p99_ms']:.1f} ms over {result['seconds']:.0f} s; server CPU "
        f"{result['server_cpu_ms_per_move']:.2f} ms per move "
        f"({result.get('server_system_ms_per_move', float('nan')):.2f} in the kernel; "
        f"{result['server_cpu_pct']} %, "
        f"waiting for a CPU {result['server_waiting_pct']} % of the time), "
        f"clients {result['client_cpu_pct']} % of a core, machine {result['machine_busy_pct']} "
        f"% busy; servers' peak memory {result['server_peak_mb']} MB; "
        f"collections (n, longest ms) {pauses}; errors {result['errors'] or 'none'}"
    )


def table_text(results: list[dict[str, Any]]) -> str:
    """The load table, in Markdown."""
    rows = [
        "| processes | pace | tables | moves/s | p50 ms | p99 ms | server CPU ms/move "
        "| server CPU % | servers waiting for a CPU % | clients CPU % | machine busy % "
        "| errors |",
        "|---:|---|---:|---:|---:|---:|---:|---|---|---:|---:|---|",
    ]
    for r in results:
        cpu = " + ".join(f"{pct:.0f}" for pct in r["server_cpu_pct"])
        waiting = " + ".join(f"{pct:.0f}" for pct in r["server_waiting_pct"])
        errors = ", ".join(f"{k} {v}" for k, v in r["errors"].items()) or "none"
        rows.append(
            f"| {r['processes']} | {r['pace']} | {r['tables']} | {r['moves_per_s']:.0f} "
            f"| {r['p50_ms']:.1f} | {r['p99_ms']:.1f} | {r['server_cpu_ms_per_move']:.2f} "
            f"| {cpu} | {waiting} | {r['client_cpu_pct']:.0f} | {r['machine_busy_pct']:.0f} "
            f"| {errors} |"
        )
    return "\n".join(rows)


async def main_async(args: argparse.Namespace) -> list[dict[str, Any]]:
    if args.matrix:
        runs = [
            (processes, pace, args.human_tables if pace == "human" else args.instant_tables)
            for pace in ("human", "instant")
            for processes in (1, 2, 4)
        ]
    else:
        runs = [(args.processes, args.pace, args.tables)]
    results = []
    for processes, pace, tables in runs:
        result = await run_once(args, processes, pace, tables)
        print(json.dumps(result), flush=True)
        progress(line(result))
        results.append(result)
    return results


async def opening_steps(args: argparse.Namespace) -> dict[str, float]:
    """The server CPU of each step of opening a table, one step at a time (``--steps N``:
    N tables' guests signed in, then their requests made, joined, and connected to), on one
    process and SQLite: what ``opened in`` is made of, without the load's own costs."""
    with tempfile.TemporaryDirectory(prefix="kozel-steps-") as tmp:
        workdir = Path(tmp)
        server = Server(
            "n1",
            f"sqlite+aiosqlite:///{workdir / 'steps.db'}",
            "memory://",
            workdir,
            profile=args.profile / "steps.prof" if args.profile else None,
            pythonpath=args.server_pythonpath,
        )
        transport = httpx.AsyncHTTPTransport()
        pid, n = server.process.pid, args.steps
        address = {"url": server.url, "ws": server.ws}
        tables = [[Guest(address, transport) for _ in range(4)] for _ in range(n)]
        sockets: list[ClientConnection] = []
        try:
            await server.wait_ready()
            steps: dict[str, float] = {}

            async def step(name: str, count: int, work: Callable[[], Awaitable[None]]) -> None:
                progress(f"{name}: {count} …")
                cpu0 = cpu_seconds(pid)
                await work()
                steps[name] = round(1000 * (cpu_seconds(pid) - cpu0) / count, 2)

            async def sign_in() -> None:
                for guest in (g for guests in tables for g in guests):
                    await guest.sign_in()

            requests: list[int] = []

            async def request() -> None:
                for guests in tables:
                    made = await guests[0].post(
                        "/api/requests", request_body(args.game, args.loss_limit)
                    )
                    requests.append(made["id"])

            games: list[int] = []

            async def join() -> None:
                for guests, request_id in zip(tables, requests, strict=True):
                    for guest in guests[1:]:
                        joined = await guest.post(f"/api/requests/{request_id}/join")
                    games.append(joined["game_id"])

            async def connect_seats() -> None:
                for guests, game_id in zip(tables, games, strict=True):
                    for guest in guests:
                        sock = await connect(
                            f"{server.ws}/ws/games/{game_id}",
                            additional_headers={"Cookie": guest.cookie()},
                            compression="deflate" if args.compression else None,
                        )
                        await sock.recv()  # the whole state
                        sockets.append(sock)

            each = {"sign_in": 4, "request": 1, "join": 3, "socket": 4}  # steps a table takes
            if args.profile:
                server.process.send_signal(signal.SIGUSR1)
            for name, work in zip(each, (sign_in, request, join, connect_seats), strict=True):
                await step(name, each[name] * n, work)
            if args.profile:
                server.process.send_signal(signal.SIGUSR2)
            steps["table"] = round(sum(each[name] * steps[name] for name in each), 1)
            return steps
        finally:
            for sock in sockets:
                await sock.close()
            for guest in (g for guests in tables for g in guests):
                await guest.http.aclose()
            await transport.aclose()
            server.stop()


def think_bounds(text: str) -> tuple[float, float]:
    """``LO,HI`` seconds of thinking, 0 <= LO <= HI."""
    try:
        low, high = (float(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not LO,HI (seconds)") from None
    if not 0 <= low <= high:
        raise argparse.ArgumentTypeError(f"{text!r}: thinking needs 0 <= LO <= HI")
    return low, high


def main() -> None:
    if len(sys.argv) == 3 and sys.argv[1] == "--client":
        uvloop.run(Players(json.loads(sys.argv[2])).run())
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--processes", type=int, default=1, choices=[1, 2, 4])
    parser.add_argument("--pace", default="instant", choices=["human", "instant"])
    parser.add_argument("--tables", type=int, default=200, help="concurrent tables")
    parser.add_argument(
        "--think",
        type=think_bounds,
        default=THINK_SECONDS,
        metavar="LO,HI",
        help="with --pace human: each move after a uniform LO-HI seconds (default "
        f"{THINK_SECONDS[0]:g},{THINK_SECONDS[1]:g}, a person's pace)",
    )
    parser.add_argument("--matrix", action="store_true", help="1, 2, 4 processes x both paces")
    parser.add_argument("--human-tables", type=int, default=TARGET_HUMAN_TABLES)
    parser.add_argument("--instant-tables", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=30.0, help="measured time of a run")
    parser.add_argument(
        "--postgres",
        default=os.environ.get("KOZEL_TEST_POSTGRES", ""),
        help="PostgreSQL server URL that may create databases (default: KOZEL_TEST_POSTGRES; "
        "none: SQLite, one process only)",
    )
    parser.add_argument(
        "--redis",
        default=os.environ.get("KOZEL_TEST_REDIS", ""),
        help="Redis URL (default: KOZEL_TEST_REDIS; none: in-memory, one process only)",
    )
    parser.add_argument(
        "--clients",
        type=int,
        default=0,
        help=f"client processes (default: one per {TABLES_PER_CLIENT} tables)",
    )
    parser.add_argument(
        "--client-nice",
        type=int,
        default=0,
        help="run the client processes at this niceness (0 to 19): the servers then come "
        "first when both want a CPU, as on a machine that serves only the club",
    )
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
        "--route",
        default="seat",
        choices=["seat", "table"],
        help="with several processes, where a table's sockets go: each seat's to the process "
        "its requests go to, so that every table spans the processes (seat), or all of a "
        "table's to one process chosen by its game, as docs/deploy.md's nginx does (table)",
    )
    parser.add_argument("--log", type=Path, help="keep the servers' logs in this directory")
    parser.add_argument(
        "--profile",
        type=Path,
        help="profile the servers over the measured time (with --steps: over the steps) "
        "(cProfile) and keep the statistics here (read them with python -m pstats; the "
        "profiler slows the servers down)",
    )
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument(
        "--steps",
        type=int,
        default=0,
        help="instead of the load: the server CPU (ms) of each step of opening this many "
        "tables one step at a time (sign in, request, join, socket), one process, SQLite",
    )
    parser.add_argument(
        "--server-pythonpath",
        default="",
        help="run the servers with this PYTHONPATH (another version of kozel, unpacked: the "
        "reference of a side-by-side comparison; the players stay this version's)",
    )
    args = parser.parse_args()
    if not 1 <= args.tables <= 5000 or not 1 <= args.seconds <= 3600:
        parser.error("--tables must be 1..5000 and --seconds 1..3600")
    several = args.matrix or args.processes > 1
    if several and not (args.postgres and args.redis):
        parser.error("several processes need --postgres and --redis (or KOZEL_TEST_* set)")
    if args.profile:
        args.profile.mkdir(parents=True, exist_ok=True)
    if args.steps:
        steps = asyncio.run(opening_steps(args))
        print(json.dumps(steps))
        print("server CPU ms: " + ", ".join(f"{k} {v}" for k, v in steps.items()))
        return
    results = asyncio.run(main_async(args))
    for result in results:
        print(line(result))
    if args.matrix:
        print(table_text(results))


if __name__ == "__main__":
    main()

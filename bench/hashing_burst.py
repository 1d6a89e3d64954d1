"""A burst of password hashing beside live tables: do the tables stall, do clocks pay for it?

A registration hashes its password with argon2 (about a third of a second and four threads
of its own here). Issue #23's probe registered 30 accounts a second for 20 s through three
processes: socket pings went from 2 ms to 0.84 s at p99, move acknowledgements to 0.7-5 s,
and a player's clock was charged up to 2.2 s for the server's time.

This bench starts ``--processes`` ``kozel serve`` processes (one on a fresh SQLite file, or
several on a fresh PostgreSQL database and a Redis), opens tables against the computer and
then, after ``--quiet`` seconds of play, registers ``--rate`` accounts a second for
``--seconds`` seconds (the per-address limit raised so that every one reaches the hashing,
the worst case: a crowd of addresses). Throughout it measures:

- **ping**: a lobby socket on every process sends ``ping`` every 100 ms; the time to its
  ``pong``;
- **move**: ``--tables`` tables where the person moves at once when it is his turn; the time
  from sending the move to the message that shows it taken;
- **clock**: ``--late-tables`` tables of 5 s per move where the person moves
  ``--margin`` seconds before his deadline *as he saw it* (when the state came, plus the
  ``remaining_ms`` it gave): a clock charged for server time times such a player out. A
  move this client itself sent late (its own process starved by more than half the margin)
  is counted apart, and its timeout is not the server's.

It prints p50/p99/max of ping and move before and during the burst, the late moves taken
and timed out, what the registrations were answered (200, 503 ``busy``, ...) and each
process's ``/api/health`` hashing and loop figures, as a human line and a JSON line. The
target: ping and move p99 under 100 ms during the burst, and no late move timed out.

    .venv/bin/python bench/hashing_burst.py
    .venv/bin/python bench/hashing_burst.py --processes 3 \\
        --postgres postgresql://postgres@127.0.0.1:5432 --redis redis://127.0.0.1:6379/5

``--python`` and ``--pythonpath`` run the servers from another checkout (a reference run of
an older commit, side by side). Everything stays on 127.0.0.1; every wait is bounded.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import secrets
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from kozel import patch
from kozel.server.stalls import StallMeter

HOST = "127.0.0.1"
TARGET_P99_MS = 100.0
LATE_SECONDS_PER_MOVE = 5
"""The club's shortest clock: a late move is at most this long after its state."""
BOT_DELAY_MS = 300
"""Computer players move this long after the previous move: a steady flow of moves."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        port: int = probe.getsockname()[1]
        return port


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


@dataclass
class Samples:
    """Latencies in ms by phase (``quiet`` before the burst, ``burst`` during it)."""

    by_phase: dict[str, list[float]] = field(default_factory=lambda: {"quiet": [], "burst": []})

    def add(self, phase: str, ms: float) -> None:
        if phase in self.by_phase:
            self.by_phase[phase].append(ms)

    def summary(self) -> dict[str, dict[str, float]]:
        return {
            phase: {
                "n": len(values),
                "p50": round(percentile(values, 0.50), 1),
                "p99": round(percentile(values, 0.99), 1),
                "max": round(max(values, default=float("nan")), 1),
            }
            for phase, values in self.by_phase.items()
        }


@dataclass
class Run:
    phase: str = "setup"
    ping: Samples = field(default_factory=Samples)
    move: Samples = field(default_factory=Samples)
    late_taken: int = 0
    late_timed_out: int = 0
    late_client_late: int = 0
    """Late moves this client itself sent later than planned (its own loop starved): their
    outcome says nothing of the server's clock."""
    late_margin_ms: list[float] = field(default_factory=list)
    registrations: dict[str, int] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    meter: StallMeter = field(default_factory=StallMeter)
    """This client's own stalls: a late move made while it stalled says nothing of the
    server."""


class Servers:
    def __init__(self, args: argparse.Namespace, directory: Path) -> None:
        self.args = args
        self.directory = directory
        self.ports = [free_port() for _ in range(args.processes)]
        self.procs: list[subprocess.Popen[bytes]] = []

    def start(self, db: str) -> None:
        env = dict(os.environ)
        if self.args.pythonpath:
            env["PYTHONPATH"] = self.args.pythonpath
        for n, port in enumerate(self.ports):
            command = [self.args.python, "-c", "from kozel.cli import main; main()", "serve"]
            command += ["--port", str(port), "--db", db, "--node", f"n{n}"]
            command += ["--registrations-per-minute", "1000000", "--requests-per-minute", "1000"]
            command += ["--bot-delay-ms", str(BOT_DELAY_MS), "--round-pause", "0"]
            if self.args.redis:
                command += ["--pubsub", self.args.redis, "--lease-seconds", "30"]
            log = (self.directory / f"n{n}.log").open("wb")
            self.procs.append(
                subprocess.Popen(
                    command, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=self.directory
                )
            )

    async def wait_ready(self) -> None:
        async with httpx.AsyncClient(timeout=5) as client:
            for port in self.ports:
                deadline = time.monotonic() + 90
                while True:
                    with contextlib.suppress(httpx.TransportError):
                        if (await client.get(f"http://{HOST}:{port}/api/health")).is_success:
                            break
                    if time.monotonic() > deadline:
                        raise RuntimeError(f"the server on port {port} did not start")
                    await asyncio.sleep(0.2)

    def stop(self) -> None:
        for proc in self.procs:
            proc.terminate()
        for proc in self.procs:
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()


async def guest(port: int) -> tuple[httpx.AsyncClient, str]:
    client = httpx.AsyncClient(base_url=f"http://{HOST}:{port}", timeout=30)
    response = await client.post("/api/auth/guest")
    response.raise_for_status()
    return client, response.json()["csrf"]


async def open_table(port: int, seconds: int) -> tuple[ClientConnection, int]:
    client, csrf = await guest(port)
    body = {"game": "goat", "options": {"players": 2}, "level": "greedy"}
    answer = await client.post(
        "/api/play/computer",
        json={**body, "seconds_per_move": seconds},
        headers={"X-CSRF-Token": csrf},
    )
    answer.raise_for_status()
    game_id = answer.json()["game_id"]
    cookie = "; ".join(f"{k}={v}" for k, v in client.cookies.items())
    await client.aclose()
    sock = await connect(
        f"ws://{HOST}:{port}/ws/games/{game_id}",
        additional_headers={"Cookie": cookie},
        max_size=2**20,
    )
    return sock, game_id


def my_turn(message: dict[str, Any]) -> dict[str, Any] | None:
    """The first legal move when the state says this seat is to move."""
    view = message.get("view") or {}
    if message.get("status") != "playing" or view.get("turn") != message.get("you"):
        return None
    moves = view.get("legal_moves") or []
    return moves[0] if moves else None


async def play(run: Run, sock: ClientConnection, late: bool, until: float) -> None:
    """Play seat 0 until ``until``: at once (measuring the acknowledgement) or late (just
    before the deadline the seat saw). A finished game is the end of that table."""
    state: dict[str, Any] = {}
    sent: tuple[int, float] | None = None
    pending: asyncio.Task[None] | None = None

    client_late = False
    seen_stall = run.meter.total()
    """This client's stall total when it last received a message."""

    async def move_late(version: int, move: dict[str, Any], at: float, since: float) -> None:
        nonlocal client_late
        await asyncio.sleep(max(0.0, at - time.monotonic()))
        # stalled since the previous message (before this state was read, or after): the
        # client, not the server, may have made the move late
        client_late = run.meter.total() - since > run_margin / 2
        if client_late:
            run.late_client_late += 1
        await sock.send(json.dumps({"type": "move", "version": version, "move": move}))

    while time.monotonic() < until:
        try:
            text = await asyncio.wait_for(sock.recv(), timeout=max(0.1, until - time.monotonic()))
        except (TimeoutError, ConnectionClosed):
            break
        received = time.monotonic()
        since, seen_stall = seen_stall, run.meter.total()
        message = json.loads(text)
        version = message.get("version")
        if message.get("type") == "error":
            run.errors.append(str(message.get("code")))
            continue
        if not isinstance(version, int) or version <= state.get("version", -1):
            continue
        if message.get("type") == "state":
            state = message
        elif message.get("type") == "event" and version == state.get("version", -1) + 1:
            state = {**patch.apply(state, message["patch"]), "version": version}
        else:  # a version was missed (or a presence message): ask for the whole state
            if message.get("type") == "event":
                with contextlib.suppress(Exception):
                    await sock.send(json.dumps({"type": "sync"}))
            continue
        if sent is not None and version > sent[0]:
            if not late:
                run.move.add(run.phase, 1000 * (received - sent[1]))
            else:
                run.late_taken += 1
            sent = None
        if state.get("status") != "playing":
            result = state.get("result") or {}
            if late and result.get("timeout") == state.get("you") and not client_late:
                run.late_timed_out += 1
            break
        move = my_turn(state)
        if move is None:
            continue
        if late:
            remaining = (state.get("clock") or {}).get("remaining_ms", 0) / 1000
            at = received + remaining - run_margin
            run.late_margin_ms.append(1000 * run_margin)
            pending = asyncio.create_task(move_late(version, move, at, since))
            sent = (version, at)
        else:
            sent = (version, time.monotonic())
            await sock.send(json.dumps({"type": "move", "version": version, "move": move}))
    if pending is not None:
        pending.cancel()
    await sock.close()


run_margin = 0.35


async def pinger(run: Run, port: int, until: float) -> None:
    async with connect(f"ws://{HOST}:{port}/ws/lobby", max_size=2**22) as sock:
        await sock.recv()
        while time.monotonic() < until:
            started = time.monotonic()
            await sock.send(json.dumps({"type": "ping"}))
            while True:
                message = json.loads(await asyncio.wait_for(sock.recv(), timeout=30))
                if message.get("type") == "pong":
                    break
            run.ping.add(run.phase, 1000 * (time.monotonic() - started))
            await asyncio.sleep(max(0.0, 0.1 - (time.monotonic() - started)))


async def register_burst(
    run: Run, ports: list[int], rate: float, seconds: float, password: str
) -> None:
    tasks = []
    async with httpx.AsyncClient(timeout=60) as client:

        async def one(n: int) -> None:
            port = ports[n % len(ports)]
            body = {"name": f"u{secrets.token_hex(5)}", "password": password}
            try:
                answer = await client.post(f"http://{HOST}:{port}/api/auth/register", json=body)
                key = str(answer.status_code)
                if answer.status_code != 200:
                    key += " " + str(answer.json().get("code"))
            except httpx.HTTPError as error:
                key = type(error).__name__
            run.registrations[key] = run.registrations.get(key, 0) + 1

        start = time.monotonic()
        for n in range(int(rate * seconds)):
            await asyncio.sleep(max(0.0, start + n / rate - time.monotonic()))
            tasks.append(asyncio.create_task(one(n)))
        await asyncio.gather(*tasks)


async def bench(args: argparse.Namespace, servers: Servers) -> dict[str, Any]:
    global run_margin
    run_margin = args.margin
    run = Run()
    ports = servers.ports
    fast = [await open_table(ports[n % len(ports)], 60) for n in range(args.tables)]
    slow = [
        await open_table(ports[(n + 1) % len(ports)], LATE_SECONDS_PER_MOVE)
        for n in range(args.late_tables)
    ]
    end = time.monotonic() + args.quiet + args.seconds + 2
    players = [asyncio.create_task(play(run, s, False, end)) for s, _ in fast]
    players += [asyncio.create_task(play(run, s, True, end)) for s, _ in slow]
    pings = [asyncio.create_task(pinger(run, port, end)) for port in ports]
    meter = run.meter
    metering = asyncio.create_task(meter.run())
    run.phase = "quiet"
    await asyncio.sleep(args.quiet)
    run.phase = "burst"
    await register_burst(run, ports, args.rate, args.seconds, args.password)
    async with httpx.AsyncClient(timeout=10) as client:
        health = [(await client.get(f"http://{HOST}:{p}/api/health")).json() for p in ports]
    run.phase = "after"
    client_stalled = meter.total()
    await asyncio.gather(*players, *pings, return_exceptions=True)
    metering.cancel()
    return {
        "processes": args.processes,
        "rate": args.rate,
        "seconds": args.seconds,
        "ping_ms": run.ping.summary(),
        "move_ms": run.move.summary(),
        "late_moves": {
            "margin_ms": round(1000 * args.margin),
            "taken": run.late_taken,
            "timed_out": run.late_timed_out,
            "sent_late_by_this_client": run.late_client_late,
        },
        "registrations": dict(sorted(run.registrations.items())),
        "health": [
            {"node": h.get("node"), "hashing": h.get("hashing"), "loop": h.get("loop")}
            for h in health
        ],
        "socket_errors": sorted(set(run.errors)),
        "client_stalled_ms": round(1000 * client_stalled),
    }


async def admin(postgres: str, sql: str) -> None:
    import asyncpg

    connection = await asyncpg.connect(postgres.rstrip("/") + "/postgres")
    try:
        await connection.execute(sql)
    finally:
        await connection.close()


def line(result: dict[str, Any]) -> str:
    ping, move = result["ping_ms"], result["move_ms"]
    late = result["late_moves"]
    ok = (
        ping["burst"]["p99"] < TARGET_P99_MS
        and move["burst"]["p99"] < TARGET_P99_MS
        and late["timed_out"] == 0
    )
    return (
        f"{result['processes']} process(es), {result['rate']:g} registrations/s for "
        f"{result['seconds']:g} s: ping p99 {ping['quiet']['p99']} -> {ping['burst']['p99']} ms "
        f"(max {ping['burst']['max']}), move p99 {move['quiet']['p99']} -> "
        f"{move['burst']['p99']} ms (max {move['burst']['max']}); late moves "
        f"{late['taken']} taken, {late['timed_out']} timed out; registrations "
        f"{result['registrations']} -> {'target met' if ok else 'TARGET MISSED'}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--rate", type=float, default=30.0, help="registrations per second")
    parser.add_argument("--seconds", type=float, default=20.0, help="how long the burst lasts")
    parser.add_argument("--quiet", type=float, default=8.0, help="play before the burst, s")
    parser.add_argument("--tables", type=int, default=6, help="tables moving at once")
    parser.add_argument("--late-tables", type=int, default=6, help="tables moving late")
    parser.add_argument("--margin", type=float, default=0.35, help="late moves: s before")
    parser.add_argument("--postgres", default="", help="postgresql://USER@HOST:PORT")
    parser.add_argument("--redis", default="", help="redis://HOST:PORT/DB (several processes)")
    parser.add_argument(
        "--password",
        default="correct horse battery",
        help="the registrations' password (a short one is refused before any hashing: "
        "the cost of the requests alone)",
    )
    parser.add_argument("--python", default=sys.executable, help="the servers' Python")
    parser.add_argument("--pythonpath", default="", help="a checkout to run the servers from")
    args = parser.parse_args()
    if args.processes > 1 and not (args.postgres and args.redis):
        parser.error("several processes need --postgres and --redis")
    with tempfile.TemporaryDirectory(prefix="kozel-burst-") as tmp:
        directory = Path(tmp)
        database = f"kozel_burst_{secrets.token_hex(4)}"
        if args.postgres:
            asyncio.run(admin(args.postgres, f"CREATE DATABASE {database}"))
            db = f"{args.postgres.rstrip('/')}/{database}"
        else:
            db = f"sqlite:///{directory / 'club.db'}"
        servers = Servers(args, directory)
        try:
            servers.start(db)
            asyncio.run(servers.wait_ready())
            result = asyncio.run(bench(args, servers))
        finally:
            servers.stop()
            if args.postgres:
                drop = f"DROP DATABASE IF EXISTS {database} WITH (FORCE)"
                asyncio.run(admin(args.postgres, drop))
    print(line(result))
    print(json.dumps(result))


if __name__ == "__main__":
    main()

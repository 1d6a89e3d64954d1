"""Chaos test of a club of three processes: kill them, restart Redis, lose no move.

It creates a fresh PostgreSQL database, starts a Redis of its own (``redis-server --save ''``,
so that it can restart it) and three ``kozel serve`` processes (nodes n1, n2, n3, a short
lease), and keeps a few hundred tables playing: some with one scripted player and computer
players, some with scripted players only. Every scripted player connects to a process chosen
at random, so the seats of one table are spread over the processes, and plays its first legal
move after thinking briefly; a table starts a new game when one ends. Once every table is
open, every few seconds one process is killed (SIGKILL) and started again a moment later under
the same name (one process is down at a time), and Redis is restarted once, halfway.

A scripted player treats a closed socket, a refused connection and the error ``unavailable``
as a cue to reconnect to a live process (with back-off) and keeps an exact log of the moves it
saw acknowledged: a move sent against version v is acknowledged by a state with a version
above v, since its seat had the turn at v.

At the end every game's record must replay clean and hold every acknowledged move of every
scripted seat, in order (moves lost: 0); every game's stored events must be numbered 1..N
without a gap and carry fencing tokens that never decrease (no owner wrote after a newer one);
every game must have ended, and every scripted player must have seen its end. It prints the
kills, Redis restarts, takeovers (new fencing tokens after a game's first, and how many were
of a process that had not been killed: a table handed over to the process every socket of it is
in, or a lapsed lease), games, moves checked and lost, reconnects, and how
long the tables of a killed process went without an owner.

    .venv/bin/python bench/chaos.py --tables 300 --seconds 120 [--postgres URL]

PostgreSQL is ``--postgres`` or ``KOZEL_TEST_POSTGRES`` (a server URL with the right to
create databases); ``redis-server`` must be on the PATH. Everything stays on 127.0.0.1 and
every wait is bounded. Exits 1 when any check fails. ``--keep DIR`` keeps the processes' logs
and the run's timeline (chaos.log: kills, starts, every change of owner).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter, deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import WebSocketException

from kozel import patch
from kozel.games import replay_layout
from kozel.server.db import Game, GameEvent

HOST = "127.0.0.1"
NODES = ("n1", "n2", "n3")
LEASE_SECONDS = 2.0
SECONDS_PER_MOVE = 120
"""Generous: no clock may run out because of the chaos."""
THINK = (0.0, 0.3)
LEVELS = ("random", "greedy")
SILENCE = 6.0
"""A seat that hears nothing for this long asks for the state (``sync``); after twice as
long it connects again."""
START_TIMEOUT = 60.0
HTTP_TIMEOUT = 10.0
SETUP_CONCURRENCY = 8
SETUP_TIMEOUT = 300.0
START_ATTEMPTS = 5
DB_CONNECTIONS = 20
"""Per process: three stay well below PostgreSQL's default limit of 100 clients."""
SERVE = (
    "import logging; logging.basicConfig(level=logging.INFO, "
    "format='%(asctime)s %(levelname)s %(name)s %(message)s'); "
    "from kozel.cli import main; main()"
)
"""``kozel serve``, its own log lines (takeovers, lost tables) timed, to read with chaos.log."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        port: int = probe.getsockname()[1]
        return port


class Failure(Exception):
    """A check that failed, or a run that could not go on."""


# --- the processes ------------------------------------------------------------------------


class Redis:
    """A ``redis-server`` of this run, on a fixed port, without persistence."""

    def __init__(self, workdir: Path) -> None:
        self.port = free_port()
        self.url = f"redis://{HOST}:{self.port}/0"
        self.workdir = workdir
        self.proc: subprocess.Popen[bytes] | None = None

    async def start(self) -> None:
        command = ["redis-server", "--port", str(self.port), "--bind", HOST]
        command += ["--save", "", "--appendonly", "no"]
        self.proc = subprocess.Popen(
            command, cwd=self.workdir, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        deadline = time.monotonic() + 10
        while not await self.ping():
            if time.monotonic() > deadline or self.proc.poll() is not None:
                raise RuntimeError("redis-server did not start")
            await asyncio.sleep(0.05)

    async def ping(self) -> bool:
        try:
            reader, writer = await asyncio.wait_for(
                asyncio.open_connection(HOST, self.port), timeout=1
            )
        except (OSError, TimeoutError):
            return False
        try:
            writer.write(b"PING\r\n")
            return (await asyncio.wait_for(reader.readline(), timeout=1)).startswith(b"+PONG")
        except (OSError, TimeoutError):
            return False
        finally:
            writer.close()

    def kill(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait(timeout=10)
            self.proc = None


class Node:
    """``kozel serve`` under a fixed node name and port, started again after every kill."""

    def __init__(self, name: str, db_url: str, redis_url: str, workdir: Path) -> None:
        self.name = name
        self.port = free_port()
        self.url = f"http://{HOST}:{self.port}"
        self.ws = f"ws://{HOST}:{self.port}"
        self.db_url = db_url
        self.redis_url = redis_url
        self.workdir = workdir
        self.proc: subprocess.Popen[bytes] | None = None
        self.up = False
        self.starts = 0

    async def start(self) -> None:
        """Start and wait (bounded) until it answers HTTP, whatever its health says: while
        Redis is away a live process reports itself degraded."""
        self.starts += 1
        log = (self.workdir / f"{self.name}-{self.starts}.log").open("wb")
        command = [sys.executable, "-c", SERVE, "serve", "--host", HOST, "--port", str(self.port)]
        command += ["--db", self.db_url, "--pubsub", self.redis_url, "--node", self.name]
        command += ["--lease-seconds", str(LEASE_SECONDS)]
        command += ["--db-connections", str(DB_CONNECTIONS)]
        # computer players at once, the next round at once: more moves to check
        command += ["--bot-delay-ms", "0", "--round-pause", "0"]
        # every scripted player comes from this one address: lift the per-address limits
        command += ["--guests-per-minute", "1000000", "--registrations-per-minute", "1000000"]
        command += ["--requests-per-minute", "1000000", "--sockets-per-address", "1000000"]
        self.proc = subprocess.Popen(
            command, cwd=self.workdir, stdout=log, stderr=subprocess.STDOUT
        )
        log.close()
        deadline = time.monotonic() + START_TIMEOUT
        async with httpx.AsyncClient(timeout=2) as http:
            while True:
                if self.proc.poll() is not None:
                    self.proc = None
                    raise RuntimeError(f"exited: {self.last_words()}")
                if time.monotonic() > deadline:
                    raise RuntimeError(f"{self.name} did not start in {START_TIMEOUT:.0f} s")
                with contextlib.suppress(httpx.HTTPError):
                    await http.get(self.url + "/api/health")
                    break
                await asyncio.sleep(0.1)
        self.up = True

    def last_words(self) -> str:
        lines = (self.workdir / f"{self.name}-{self.starts}.log").read_text(errors="replace")
        return ([line for line in lines.splitlines() if line.strip()] or ["nothing"])[-1][:200]

    def kill(self) -> None:
        """SIGKILL: no shutdown handler runs, the lease is not given back."""
        self.up = False
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait(timeout=10)
            self.proc = None


# --- the scripted players -----------------------------------------------------------------


class Unavailable(Exception):
    """No answer, or a 5xx: the call may or may not have taken effect."""


@dataclass
class Figures:
    kills: int = 0
    redis_restarts: int = 0
    games: int = 0
    acknowledged: int = 0
    reconnects: int = 0
    syncs_after_silence: int = 0
    stale_snapshots: int = 0
    """States older than one the seat had already seen (from a process with a stale copy)."""
    errors: Counter[str] = field(default_factory=Counter)
    """Error codes and connection failures the seats met."""
    anomalies: list[str] = field(default_factory=list)
    """What a seat saw that the protocol rules out."""
    max_move_wait: float = 0.0
    """The longest a seat waited from sending a move to seeing it acknowledged."""
    unowned: list[float] = field(default_factory=list)
    """Per table whose owner was killed: seconds until another owner claimed it."""
    failed_starts: list[str] = field(default_factory=list)
    """Processes that exited while starting, and why (then started again)."""
    claims_seen: int = 0
    """Changes of owner seen while polling, beyond each game's first claim."""
    claims_from_live: int = 0
    """Of those, claims from a process not killed in the last 30 s (its lease lapsed while
    it ran: a starved machine)."""


class Guest:
    """A guest account with its own HTTP client; calls go to a live process at random."""

    def __init__(self, chaos: Chaos) -> None:
        self.chaos = chaos
        self.http = httpx.AsyncClient(timeout=HTTP_TIMEOUT, transport=chaos.transport)
        self.csrf = ""
        self.name = ""

    async def call(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        """The JSON answer of a 200; :class:`Unavailable` when the call may or may not have
        taken effect; :class:`Failure` for any other refusal."""
        node = self.chaos.pick_node()
        headers = {"X-CSRF-Token": self.csrf} if method == "POST" else {}
        try:
            response = await self.http.request(
                method, node.url + path, json=body if method == "POST" else None, headers=headers
            )
        except httpx.HTTPError as error:
            raise Unavailable(f"{type(error).__name__}") from None
        if response.status_code >= 500:
            raise Unavailable(f"{response.status_code} {response.text[:100]}")
        if response.status_code != 200:
            raise Failure(f"{method} {path}: {response.status_code} {response.text[:200]}")
        return response.json()

    async def retried(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        """A call that changes nothing, or may be repeated, sent until it is answered."""
        delay = 0.2
        while True:
            try:
                return await self.call(method, path, body)
            except Unavailable:
                self.chaos.check_deadline(f"{method} {path}")
                await asyncio.sleep(delay * random.uniform(0.5, 1.5))
                delay = min(delay * 2, 3.0)

    async def sign_in(self) -> None:
        answer = await self.retried("POST", "/api/auth/guest")
        self.csrf, self.name = answer["csrf"], answer["name"]

    def cookie(self) -> str:
        return "; ".join(f"{k}={v}" for k, v in self.http.cookies.items())

    async def playing(self) -> int | None:
        """The game this guest plays now, if a call that started one went unanswered."""
        page = await self.retried("GET", f"/api/players/{self.name}")
        live = [g["id"] for g in page["games"] if g["status"] == "playing"]
        return max(live) if live else None


class Seat:
    """One scripted player at one table: plays its first legal move, reconnects whenever
    something fails, and logs every move it saw acknowledged."""

    def __init__(self, chaos: Chaos, guest: Guest, game_id: int) -> None:
        self.chaos = chaos
        self.guest = guest
        self.game_id = game_id
        self.last: dict[str, Any] = {"version": -1, "status": "playing"}
        self.you: int | None = None
        self.pending: tuple[int, dict[str, Any]] | None = None
        """The move sent against a version, not yet seen acknowledged."""
        self.sent_at = 0.0
        self.acknowledged: list[dict[str, Any]] = []
        self.over = False
        self.seeded = False
        self.trail: deque[str] = deque(maxlen=12)
        """The seat's last doings, to tell what happened to one that got stuck."""

    def note(self, text: str) -> None:
        self.trail.append(f"{time.monotonic() - self.chaos.started:.1f} {text}")

    async def play(self) -> None:
        delay = 0.1
        first = True
        while not self.over:
            if not first:
                self.chaos.figures.reconnects += 1
                await asyncio.sleep(delay * random.uniform(0.5, 1.5))
                delay = min(delay * 2, 3.0)
            first = False
            self.chaos.check_deadline(f"seat {self.you} of game {self.game_id}")
            node = self.chaos.pick_node()
            url = f"{node.ws}/ws/games/{self.game_id}"
            self.note(f"connect {node.name}")
            try:
                async with connect(
                    url,
                    additional_headers={"Cookie": self.guest.cookie()},
                    open_timeout=5,
                    close_timeout=1,
                    max_size=2**20,
                ) as sock:
                    progressed, reason = await self.session(sock)
                if progressed:
                    delay = 0.1
                if reason == "no_table":
                    await self.no_table()
            except (OSError, TimeoutError, WebSocketException) as error:
                self.chaos.figures.errors[f"socket:{type(error).__name__}"] += 1
                self.note(repr(error)[:80])

    async def no_table(self) -> None:
        """No process runs the table: right if the game has ended (its last state may have
        been lost with a killed process), never while it is being played."""
        game = await self.guest.retried("GET", f"/api/games/{self.game_id}")
        if game["status"] == "playing":
            self.anomaly(f"no_table while the game is being played (version {game['version']})")
            return
        self.saw({**self.last, "version": game["version"], "status": game["status"]})

    async def session(self, sock: ClientConnection) -> tuple[bool, str]:
        """Play on one connection until it fails or the game ends: whether it brought
        anything new, and why it ended."""
        fresh = True
        """The next state is the connection's first: act on it even at a version seen."""
        progressed = False
        silent = 0
        while True:
            try:
                text = await asyncio.wait_for(sock.recv(), SILENCE)
            except TimeoutError:
                silent += 1
                if silent > 1:
                    self.chaos.figures.errors["silent"] += 1
                    self.note("silent")
                    return progressed, "silent"
                self.chaos.figures.syncs_after_silence += 1
                await sock.send(json.dumps({"type": "sync"}))
                continue
            silent = 0
            message = json.loads(text)
            if message["type"] == "error":
                code = message["code"]
                self.chaos.figures.errors[code] += 1
                self.note(f"error {code}")
                if code == "stale":
                    continue  # a full state follows
                if code in ("seed_late", "seed_twice"):
                    continue  # the deal came first, or the seed was taken before a reconnect
                if code not in ("unavailable", "no_table"):
                    self.anomaly(f"error {code}: {message['message']}")
                return progressed, code
            if message["type"] not in ("state", "event"):
                continue
            if message["game"] != self.game_id:  # a forwarded answer mixed up with another
                self.anomaly(f"was sent the state of game {message['game']}")
                continue
            if message["type"] == "event":
                # what changed since the state held: applied to it, or, after a missed
                # version, the whole state asked for again
                if fresh or message["version"] != self.last["version"] + 1:
                    if message["version"] > self.last["version"]:
                        self.chaos.figures.errors["missed_version"] += 1
                        await sock.send(json.dumps({"type": "sync"}))
                    continue
                held = patch.apply(self.last, message["patch"])
                message = {**held, "version": message["version"]}
            version = message["version"]
            if version < self.last["version"]:
                self.chaos.figures.stale_snapshots += 1
                continue
            if version == self.last["version"] and not fresh:
                continue
            fresh = False
            if version > self.last["version"]:
                self.saw(message)
                progressed = True
            self.note(f"v{version} turn {(message.get('view') or {}).get('turn')}")
            if self.needs_seed(message):  # as the browser does: once
                self.seeded = True
                await sock.send(json.dumps({"type": "seed", "seed": secrets.token_hex(16)}))
            if self.over:
                return True, "over"
            await self.act(sock)

    def needs_seed(self, state: dict[str, Any]) -> bool:
        """Before the first deal a person adds a seed of his own to the table's shuffle."""
        shuffle, you = state.get("shuffle"), state.get("you")
        if self.seeded or not shuffle or "view" in state or you is None:
            return False
        return not shuffle["seeds"][you]

    def saw(self, state: dict[str, Any]) -> None:
        timed_out = (state.get("result") or {}).get("timeout")
        if self.pending is not None and timed_out is not None and timed_out == state["you"]:
            self.anomaly(f"its clock ran out at version {state['version']}")
        elif self.pending is not None and state["version"] > self.pending[0]:
            # only this seat could move at that version: the move was taken
            self.acknowledged.append(self.pending[1])
            self.chaos.figures.acknowledged += 1
            wait = time.monotonic() - self.sent_at
            self.chaos.figures.max_move_wait = max(self.chaos.figures.max_move_wait, wait)
            self.pending = None
        self.last = state
        self.you = state["you"]
        if state["status"] != "playing":
            self.over = True

    async def act(self, sock: ClientConnection) -> None:
        view = self.last.get("view")
        if not view or view["turn"] != self.last["you"] or not view["legal_moves"]:
            return
        version = self.last["version"]
        first_legal = view["legal_moves"][0]
        if self.pending is None:
            await asyncio.sleep(random.uniform(*THINK))
            self.pending = (version, first_legal)
            self.sent_at = time.monotonic()
        elif self.pending != (version, first_legal):
            self.anomaly(f"pending {self.pending} at version {version}, legal {first_legal}")
            return
        await sock.send(json.dumps({"type": "move", "version": version, "move": first_legal}))
        self.note(f"sent at v{version}")

    def anomaly(self, text: str) -> None:
        self.chaos.figures.anomalies.append(f"game {self.game_id} seat {self.you}: {text}")


@dataclass
class Played:
    game_id: int
    seats: list[Seat]


class Table:
    """A place that keeps tables going: one scripted player against computer players, or
    scripted players only; a new game when one ends, until the chaos is over."""

    def __init__(self, chaos: Chaos, index: int) -> None:
        self.chaos = chaos
        self.rng = random.Random(index)
        self.computer = self.rng.random() < 0.4
        self.players = self.rng.randint(2, 4)
        self.guests = [Guest(chaos) for _ in range(1 if self.computer else self.players)]
        self.options = {"players": self.players, "loss_limit": chaos.args.loss_limit}

    async def run(self) -> None:
        async with self.chaos.setup_gate:
            for guest in self.guests:
                await guest.sign_in()
        while not self.chaos.stopping:
            async with self.chaos.setup_gate:
                game_id = await (self.open_computer() if self.computer else self.open_people())
            seats = [Seat(self.chaos, guest, game_id) for guest in self.guests]
            self.chaos.figures.games += 1
            self.chaos.played.append(Played(game_id, seats))
            outcomes = await asyncio.gather(
                *(seat.play() for seat in seats), return_exceptions=True
            )
            for outcome in outcomes:
                if isinstance(outcome, BaseException):
                    raise outcome

    async def open_computer(self) -> int:
        guest = self.guests[0]
        body = {
            "game": "goat",
            "options": self.options,
            "level": self.rng.choice(LEVELS),
            "seconds_per_move": SECONDS_PER_MOVE,
        }
        delay = 0.2
        while True:
            try:
                game_id: int = (await guest.call("POST", "/api/play/computer", body))["game_id"]
                return game_id
            except Unavailable:
                self.chaos.check_deadline("opening a table")
                await asyncio.sleep(delay * random.uniform(0.5, 1.5))
                delay = min(delay * 2, 3.0)
                adopted = await guest.playing()  # the call may have started it
                if adopted is not None:
                    return adopted

    async def open_people(self) -> int:
        creator, *joiners = self.guests
        body = {
            "game": "goat",
            "options": self.options,
            "seconds_per_move": SECONDS_PER_MOVE,
            "rated": False,
        }
        request_id = await self._create(creator, body)
        for guest in joiners:
            await self._join(guest, request_id)
        deadline = time.monotonic() + 30
        while True:
            request = await creator.retried("GET", f"/api/requests/{request_id}")
            if request["status"] == "started":
                game_id: int = request["game_id"]
                return game_id
            if time.monotonic() > deadline:
                raise Failure(f"request {request_id} full but not started: {request}")
            await asyncio.sleep(0.2)

    async def _create(self, creator: Guest, body: dict[str, Any]) -> int:
        delay = 0.2
        while True:
            try:
                request_id: int = (await creator.call("POST", "/api/requests", body))["id"]
                return request_id
            except Unavailable:
                self.chaos.check_deadline("creating a request")
                await asyncio.sleep(delay * random.uniform(0.5, 1.5))
                delay = min(delay * 2, 3.0)
                for request in await creator.retried("GET", "/api/requests"):
                    seat = request["seats"][0]
                    if seat and seat.get("name") == creator.name:
                        return int(request["id"])

    async def _join(self, guest: Guest, request_id: int) -> None:
        delay = 0.2
        while True:
            try:
                await guest.call("POST", f"/api/requests/{request_id}/join")
                return
            except (Unavailable, Failure) as error:
                request = await guest.retried("GET", f"/api/requests/{request_id}")
                if any(s and s.get("name") == guest.name for s in request["seats"]):
                    return  # the unanswered call did seat this guest
                if isinstance(error, Failure):
                    raise
                self.chaos.check_deadline("joining a request")
                await asyncio.sleep(delay * random.uniform(0.5, 1.5))
                delay = min(delay * 2, 3.0)

    async def close(self) -> None:
        for guest in self.guests:
            await guest.http.aclose()


# --- the run ------------------------------------------------------------------------------


class Chaos:
    def __init__(self, args: argparse.Namespace, workdir: Path, db_url: str) -> None:
        self.args = args
        self.workdir = workdir
        self.db_url = db_url
        self.redis = Redis(workdir)
        self.nodes = [Node(name, db_url, self.redis.url, workdir) for name in NODES]
        self.figures = Figures()
        self.played: list[Played] = []
        self.stopping = False
        self.deadline = float("inf")
        """When the run gives up on whatever is still going."""
        self.setup_gate = asyncio.Semaphore(SETUP_CONCURRENCY)
        self.transport = httpx.AsyncHTTPTransport(limits=httpx.Limits(max_connections=64))
        self.rng = random.Random(args.seed)
        self.owners: dict[int, tuple[str | None, int]] = {}
        """Each unfinished game's owner and fencing token, as last polled."""
        self.orphaned: dict[int, tuple[float, int]] = {}
        """Games whose owner was killed: when, and the token it held."""
        self.killed_at: dict[str, float] = {}
        self.started = time.monotonic()

    def pick_node(self) -> Node:
        live = [node for node in self.nodes if node.up]
        return random.choice(live or self.nodes)

    def check_deadline(self, what: str) -> None:
        if time.monotonic() > self.deadline:
            raise Failure(f"gave up at the deadline: {what}")

    def event(self, text: str) -> None:
        """A line of the run's timeline (chaos.log, kept with the processes' logs)."""
        with (self.workdir / "chaos.log").open("a") as log:
            log.write(f"{time.monotonic() - self.started:8.2f} {text}\n")

    def games_over(self) -> int:
        return sum(all(seat.over for seat in played.seats) for played in self.played)

    async def run(self) -> list[str]:
        await self.redis.start()
        await asyncio.gather(*(self.start(node) for node in self.nodes))
        engine = create_async_engine(self.db_url)
        tables = [Table(self, i) for i in range(self.args.tables)]
        players: list[asyncio.Task[None]] = []
        helpers: list[asyncio.Task[None]] = []
        failures: list[str] = []
        try:
            players = [asyncio.create_task(table.run()) for table in tables]
            helpers = [
                asyncio.create_task(self.poll_owners(engine)),
                asyncio.create_task(self.progress()),
            ]
            self.started = time.monotonic()
            try:
                await self.opened(players)
                self.event(f"{self.args.tables} tables open: the chaos begins")
                await self.chaos()
            finally:
                self.stopping = True
                for node in self.nodes:  # every process up again for the end
                    if not node.up:
                        await self.start(node)
                if self.redis.proc is None:
                    await self.redis.start()
            self.deadline = time.monotonic() + self.args.finish_seconds
            done, waiting = await asyncio.wait(players, timeout=self.args.finish_seconds + 15)
            for task in done:
                error = task.exception()
                if error is not None:
                    failures.append(f"a table stopped: {error!r}")
            if waiting:
                failures.append(f"{len(waiting)} tables still going after the deadline")
            for task in helpers:
                task.cancel()
            self.line(final=True)
            failures += await self.check(engine)
        finally:
            for task in [*players, *helpers]:
                task.cancel()
            await asyncio.gather(*players, *helpers, return_exceptions=True)
            for table in tables:
                await table.close()
            await self.transport.aclose()
            await engine.dispose()
        return failures

    async def start(self, node: Node) -> None:
        """Start a process, and again (as a supervisor would) when it fails to start."""
        for _ in range(START_ATTEMPTS):
            try:
                await node.start()
                return
            except RuntimeError as error:
                self.figures.failed_starts.append(f"{node.name}: {error}")
                self.event(f"{node.name} did not start: {error}")
                node.kill()
                await asyncio.sleep(1)
        raise Failure(f"{node.name} did not start in {START_ATTEMPTS} attempts")

    async def opened(self, players: list[asyncio.Task[None]]) -> None:
        """Wait (bounded) until every table has opened its first game."""
        deadline = time.monotonic() + SETUP_TIMEOUT
        while self.figures.games < self.args.tables:
            failed = [task for task in players if task.done()]
            if failed:
                await failed[0]  # raises what stopped it
                raise Failure("a table stopped before its first game")
            if time.monotonic() > deadline:
                raise Failure(f"only {self.figures.games} tables open after {SETUP_TIMEOUT} s")
            await asyncio.sleep(0.2)

    async def chaos(self) -> None:
        """Kill a random process every few seconds and start it again a moment later (one
        process is down at a time: a kill that comes due while one is still starting waits
        for the next turn); restart Redis once, halfway. The chaos goes on past its time until
        ``--min-kills`` processes were killed, for at most as long again: a loaded machine
        starts processes slowly, and the kills must not depend on its load."""
        begun = time.monotonic()
        end = begun + self.args.seconds
        redis_at = begun + self.args.seconds / 2
        restarts: list[asyncio.Task[None]] = []
        try:
            while True:
                pause = self.args.kill_every * self.rng.uniform(0.5, 1.5)
                enough = self.figures.kills >= self.args.min_kills
                if time.monotonic() + pause > (end if enough else end + self.args.seconds):
                    await asyncio.sleep(max(0.0, end - time.monotonic()))
                    return
                await asyncio.sleep(pause)
                if not self.figures.redis_restarts and time.monotonic() >= redis_at:
                    self.redis.kill()
                    self.event("redis killed")
                    self.figures.redis_restarts += 1
                    await asyncio.sleep(self.args.redis_down)
                    await self.redis.start()
                    self.event("redis up")
                    continue
                if all(node.up for node in self.nodes):
                    node = self.rng.choice(self.nodes)
                    self.kill(node)
                    restarts.append(asyncio.create_task(self.restart(node)))
        finally:
            await asyncio.gather(*restarts)

    def kill(self, node: Node) -> None:
        node.kill()
        self.event(f"{node.name} killed")
        self.figures.kills += 1
        killed = self.killed_at[node.name] = time.monotonic()
        for game_id, (owner, fence) in self.owners.items():
            if owner == node.name and game_id not in self.orphaned:
                self.orphaned[game_id] = (killed, fence)

    async def restart(self, node: Node) -> None:
        await asyncio.sleep(self.rng.uniform(0.2, 3.0))
        self.event(f"{node.name} starting")
        await self.start(node)
        self.event(f"{node.name} up")

    async def poll_owners(self, engine: AsyncEngine) -> None:
        """Every quarter second: who owns which unfinished game, and for how long the games
        of a killed process had no owner."""
        while True:
            try:
                async with engine.connect() as connection:
                    rows = await connection.execute(
                        select(Game.id, Game.owner, Game.fence).where(Game.status == "playing")
                    )
                    current = {game_id: (owner, fence) for game_id, owner, fence in rows}
            except Exception as error:
                self.figures.errors[f"poll:{type(error).__name__}"] += 1
                await asyncio.sleep(0.25)
                continue
            stamp = time.monotonic()
            for game_id, (owner, fence) in current.items():
                before = self.owners.get(game_id)
                if before is not None and fence > before[1] and before[1] >= 1:
                    self.figures.claims_seen += 1
                    live = stamp - self.killed_at.get(before[0] or "", -1e9) > 30
                    self.figures.claims_from_live += live and before[0] != owner
                    self.event(f"game {game_id}: {before[0]} -> {owner} (token {fence})")
            for game_id, (killed, fence) in list(self.orphaned.items()):
                now_fence = current.get(game_id, (None, -1))[1]
                if game_id not in current or now_fence != fence:
                    del self.orphaned[game_id]
                    if game_id in current:
                        self.figures.unowned.append(stamp - killed)
            self.owners = current
            await asyncio.sleep(0.25)

    async def progress(self) -> None:
        while True:
            await asyncio.sleep(2 if sys.stdout.isatty() else 10)
            self.line()

    def line(self, final: bool = False) -> None:
        f = self.figures
        up = ",".join(node.name for node in self.nodes if node.up) or "-"
        text = (
            f"{time.monotonic() - self.started:5.0f} s  up {up:<8}  "
            f"redis {'up' if self.redis.proc else 'DOWN'}  kills {f.kills}  "
            f"games {self.games_over()}/{f.games}  moves {f.acknowledged}  "
            f"reconnects {f.reconnects}  claims {f.claims_seen}"
        )
        if sys.stdout.isatty():
            print("\r" + text, end="\n" if final else "", flush=True)
        else:
            print(text, flush=True)

    async def check(self, engine: AsyncEngine) -> list[str]:
        """The records, the acknowledged moves, the stored events and their tokens."""
        failures = [f"protocol: {text}" for text in self.figures.anomalies[:20]]
        if len(self.figures.anomalies) > 20:
            failures.append(f"... and {len(self.figures.anomalies) - 20} more anomalies")
        async with engine.connect() as connection:
            games = {
                row.id: row
                for row in await connection.execute(
                    select(Game.id, Game.status, Game.version, Game.fence)
                )
            }
            events: dict[int, list[tuple[int, int]]] = {}
            for game_id, version, fence in await connection.execute(
                select(GameEvent.game_id, GameEvent.version, GameEvent.fence).order_by(
                    GameEvent.game_id, GameEvent.version
                )
            ):
                events.setdefault(game_id, []).append((version, fence))
        self.takeovers = 0
        self.moved_games = 0
        for game_id, row in games.items():
            stored = events.get(game_id, [])
            versions = [v for v, _ in stored]
            fences = [f for _, f in stored]
            if versions != list(range(1, len(versions) + 1)) or len(versions) != row.version:
                failures.append(f"game {game_id}: versions {versions[:5]}... of {row.version}")
            if fences != sorted(fences):
                failures.append(f"game {game_id}: a token decreased: {fences}")
            if row.status != "finished":
                failures.append(f"game {game_id} is {row.status}")
            self.takeovers += max(0, row.fence - 1)
            self.moved_games += len(set(fences)) > 1
        self.moves_checked = self.moves_lost = self.moves_extra = 0
        async with httpx.AsyncClient(timeout=HTTP_TIMEOUT) as http:
            for played in self.played:
                failures += await self.check_record(http, played)
        stuck = [seat for played in self.played for seat in played.seats if not seat.over]
        if stuck:
            failures.append(f"{len(stuck)} scripted players never saw their game end")
        for seat in stuck[:10]:
            row = games.get(seat.game_id)
            view = seat.last.get("view") or {}
            failures.append(
                f"game {seat.game_id} seat {seat.you} last saw version {seat.last['version']} "
                f"(turn {view.get('turn')}, sent {seat.pending}); stored: "
                + (f"version {row.version}, token {row.fence}" if row else "nothing")
                + "; its last doings: "
                + " | ".join(seat.trail)
            )
        if self.moves_lost:
            failures.append(f"{self.moves_lost} acknowledged moves are not in the records")
        return failures

    async def check_record(self, http: httpx.AsyncClient, played: Played) -> list[str]:
        node = self.pick_node()
        response = await http.get(f"{node.url}/api/games/{played.game_id}/record")
        if response.status_code != 200:
            return [f"game {played.game_id}: no record ({response.status_code})"]
        record = response.json()
        try:
            replay_layout(record)
        except ValueError as error:
            return [f"game {played.game_id}: the record does not replay: {error}"]
        failures = []
        for seat in played.seats:
            if seat.you is None:
                failures.append(f"game {played.game_id}: a scripted player never saw its seat")
                continue
            mine = []
            for rnd in record["rounds"]:
                for entry in rnd["moves"]:
                    if entry["seat"] == seat.you:
                        move = {k: v for k, v in entry.items() if k != "seat"}
                        if "draw" in move:  # the record names the tile drawn; the move does not
                            move["draw"] = True
                        mine.append(move)
            matched = 0
            for move in mine:  # the acknowledged moves, in order, within the seat's moves
                if matched < len(seat.acknowledged) and move == seat.acknowledged[matched]:
                    matched += 1
            self.moves_checked += len(seat.acknowledged)
            self.moves_lost += len(seat.acknowledged) - matched
            self.moves_extra += len(mine) - matched
            if mine != seat.acknowledged:
                failures.append(
                    f"game {played.game_id} seat {seat.you}: acknowledged "
                    f"{len(seat.acknowledged)} moves, the record holds {len(mine)}, "
                    f"{matched} match in order"
                )
        return failures

    def report(self, failures: list[str], seconds: float) -> dict[str, Any]:
        f = self.figures
        unowned = sorted(f.unowned)
        return {
            "tables": self.args.tables,
            "seconds": round(seconds, 1),
            "kills": f.kills,
            "redis_restarts": f.redis_restarts,
            "takeovers": getattr(self, "takeovers", 0),
            "takeovers_from_live": f.claims_from_live,
            "games_moved": getattr(self, "moved_games", 0),
            "games": f.games,
            "games_over": self.games_over(),
            "moves_checked": getattr(self, "moves_checked", 0),
            "moves_lost": getattr(self, "moves_lost", 0),
            "moves_unacknowledged": getattr(self, "moves_extra", 0),
            "reconnects": f.reconnects,
            "syncs_after_silence": f.syncs_after_silence,
            "stale_snapshots": f.stale_snapshots,
            "max_unowned_s": round(unowned[-1], 2) if unowned else None,
            "median_unowned_s": round(unowned[len(unowned) // 2], 2) if unowned else None,
            "max_move_wait_s": round(f.max_move_wait, 2),
            "errors": dict(f.errors.most_common()),
            "failed_starts": f.failed_starts,
            "server_log": server_log_summary(self.workdir),
            "failures": failures,
        }


def server_log_summary(workdir: Path) -> dict[str, int]:
    """How often each kind of logged exception appears in the processes' logs."""
    kinds: Counter[str] = Counter()
    for path in workdir.glob("n*.log"):
        lines = path.read_text(errors="replace").splitlines()
        for index, text in enumerate(lines):
            if text.startswith("Traceback"):
                # the exception is the first unindented line after the traceback
                for after in lines[index + 1 :]:
                    if after and not after.startswith(" "):
                        kinds[re.split(r"[:(]", after, maxsplit=1)[0][:80]] += 1
                        break
    return dict(kinds.most_common(10))


async def admin(postgres: str, sql: str) -> None:
    import asyncpg

    url = postgres.replace("postgresql+asyncpg://", "postgresql://").rstrip("/")
    connection = await asyncpg.connect(url + "/postgres")
    try:
        await connection.execute(sql)
    finally:
        await connection.close()


async def main_async(args: argparse.Namespace, workdir: Path) -> dict[str, Any]:
    postgres = args.postgres.replace("postgresql://", "postgresql+asyncpg://", 1).rstrip("/")
    name = f"kozel_chaos_{secrets.token_hex(4)}"
    await admin(postgres, f"CREATE DATABASE {name}")
    chaos = Chaos(args, workdir, f"{postgres}/{name}")
    started = time.monotonic()
    try:
        failures = await chaos.run()
    except Exception as error:  # the run broke off: say why, with the figures so far
        failures = [f"the run stopped: {error!r}"]
    finally:
        for node in chaos.nodes:
            node.kill()
        chaos.redis.kill()
        await admin(postgres, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
    return chaos.report(failures, time.monotonic() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=300, help="tables kept playing")
    parser.add_argument("--seconds", type=float, default=120.0, help="how long the chaos lasts")
    parser.add_argument(
        "--finish-seconds", type=float, default=120.0, help="how long the last games may take"
    )
    parser.add_argument("--kill-every", type=float, default=8.0, help="mean seconds between kills")
    parser.add_argument(
        "--min-kills",
        type=int,
        default=0,
        help="go on past --seconds (for at most as long again) until this many kills",
    )
    parser.add_argument("--redis-down", type=float, default=1.5, help="seconds Redis stays down")
    parser.add_argument("--loss-limit", type=int, default=30, help="Goat's loss limit: game length")
    parser.add_argument("--seed", type=int, default=None, help="seed of the kills' schedule")
    parser.add_argument(
        "--postgres",
        default=os.environ.get("KOZEL_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432"),
        help="PostgreSQL server URL (default: KOZEL_TEST_POSTGRES)",
    )
    parser.add_argument("--keep", type=Path, help="copy the processes' logs to this directory")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON line")
    args = parser.parse_args()
    if not 1 <= args.tables <= 2000 or not 1 <= args.seconds <= 3600:
        parser.error("--tables must be 1..2000 and --seconds 1..3600")
    if shutil.which("redis-server") is None:
        parser.error("redis-server is not on the PATH")
    with tempfile.TemporaryDirectory(prefix="kozel-chaos-") as tmp:
        workdir = Path(tmp)
        previous = signal.signal(signal.SIGTERM, signal.default_int_handler)
        try:
            result = asyncio.run(main_async(args, workdir))
        finally:
            signal.signal(signal.SIGTERM, previous)
            if args.keep:
                args.keep.mkdir(parents=True, exist_ok=True)
                for path in workdir.glob("*.log"):
                    shutil.copy(path, args.keep / path.name)
    if args.json:
        print(json.dumps(result))
    print(
        f"{result['kills']} kills, {result['redis_restarts']} Redis restarts, "
        f"{result['takeovers']} takeovers ({result['takeovers_from_live']} from live "
        f"processes; {result['games_moved']} games changed owner), "
        f"{result['games']} games ({result['games_over']} seen over), "
        f"{result['moves_checked']} moves checked, {result['moves_lost']} lost, "
        f"{result['reconnects']} reconnects; tables unowned at most "
        f"{result['max_unowned_s']} s (median {result['median_unowned_s']} s); a move waited "
        f"at most {result['max_move_wait_s']} s"
    )
    print(f"errors seen by the players: {result['errors'] or 'none'}")
    print(f"processes that failed to start: {result['failed_starts'] or 'none'}")
    print(f"exceptions in the servers' logs: {result['server_log'] or 'none'}")
    for failure in result["failures"]:
        print(f"FAILED: {failure}")
    print("chaos: " + ("FAILED" if result["failures"] else "passed"))
    sys.exit(1 if result["failures"] else 0)


if __name__ == "__main__":
    main()

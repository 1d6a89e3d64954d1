"""Restart safety: the club runs as a real process (``kozel serve``); a game is played over
real WebSockets; the process is killed with SIGKILL and started again on the same database;
the player reconnects and finishes the game from exactly the state it last saw. No move the
server accepted is lost, and none is applied twice."""

from __future__ import annotations

import contextlib
import json
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection

from kozel.games import get_game, replay_layout
from tests.server.client import Player, http_get, receive
from tests.server.conftest import SEED

KOZEL = Path(sys.executable).parent / "kozel"
START_TIMEOUT = 60.0
GAME = {"game": "goat", "level": "greedy", "seconds_per_move": 60, "options": {"players": 3}}
"""Three players leave a bazaar, so draws are among the moves that must survive a restart."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class Server:
    """``kozel serve`` in a process of its own, on a fixed port and database."""

    def __init__(self, db_url: str, directory: Path, *args: str, name: str = "server") -> None:
        self.db_url = db_url
        self.directory = directory
        self.args = args
        self.name = name
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws = f"ws://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0

    def start(self, require_ok: bool = True) -> None:
        """Start, and wait until the health check answers (``ok``, with ``require_ok``)."""
        assert self.proc is None
        self.starts += 1
        log = (self.directory / f"{self.name}-{self.starts}.log").open("wb")
        # computer players move at once: the tests wait for moves, not for a person's pace
        command = [str(KOZEL), "serve", "--port", str(self.port), "--db", self.db_url]
        command += ["--bot-delay-ms", "0", "--round-pause", "0", "--seed-seconds", "0"]
        command += ["--seed", str(SEED), *self.args]  # the tests' deals (tests/suite.py)
        self.proc = subprocess.Popen(
            command, cwd=self.directory, stdout=log, stderr=subprocess.STDOUT
        )
        log.close()
        deadline = time.monotonic() + START_TIMEOUT
        while not self._healthy(require_ok):
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the server did not start:\n{self.log()}")

    def _healthy(self, require_ok: bool) -> bool:
        try:
            status = http_get(self.url + "/api/health", timeout=5).status_code
            return status == 200 or not require_ok
        except httpx.TransportError:
            time.sleep(0.05)  # nothing listens yet: a connection refused returns at once
            return False

    def kill(self) -> None:
        """SIGKILL: no shutdown handler runs, nothing is flushed."""
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait(timeout=20)
            self.proc = None

    def log(self) -> str:
        logs = sorted(self.directory.glob(f"{self.name}-*"))
        return "\n".join(p.read_text(errors="replace") for p in logs)


@pytest.fixture
def server(db_url: str, tmp_path: Path) -> Iterator[Server]:
    running = Server(db_url, tmp_path)
    running.start()
    try:
        yield running
    finally:
        running.kill()


@dataclass
class Game:
    """One person's side of a game against the computer: every state seen, every move sent."""

    player: Player
    game_id: int
    sock: ClientConnection | None = None
    last: dict[str, Any] = field(default_factory=dict)
    accepted: list[dict[str, Any]] = field(default_factory=list)
    """The moves this seat sent that the server is known to have taken, in order."""
    pending: tuple[int, dict[str, Any]] | None = None
    """The move sent against a version, not yet seen taken."""
    connection: contextlib.ExitStack = field(default_factory=contextlib.ExitStack)

    def connect(self) -> dict[str, Any]:
        """(Re)connect; the first message is the table's state."""
        self.sock = self.connection.enter_context(self.player.socket(self.game_id))
        first = receive(self.sock)
        assert first["type"] == "state", first
        self._saw(first)
        return first

    def close(self) -> None:
        self.connection.close()
        self.sock = None

    def _saw(self, state: dict[str, Any]) -> None:
        if self.pending is not None and state["version"] > self.pending[0]:
            self.accepted.append(self.pending[1])  # only this seat moves against its version
            self.pending = None
        self.last = state

    def next_state(self) -> dict[str, Any]:
        """The next state newer than the last one seen (errors fail the test)."""
        assert self.sock is not None
        while True:
            message = receive(self.sock)
            assert message["type"] == "state", message
            if message["version"] > self.last["version"]:
                self._saw(message)
                return message

    def my_turn(self) -> bool:
        view = self.last.get("view")
        return (
            self.last["status"] == "playing"
            and view is not None
            and view["turn"] == self.last["you"]
            and bool(view["legal_moves"])
        )

    def wait_for_my_turn_or_the_end(self) -> None:
        while not self.my_turn() and self.last["status"] == "playing":
            self.next_state()

    def move(self) -> None:
        """Send this seat's first legal move against the last state seen."""
        assert self.sock is not None and self.my_turn() and self.pending is None
        move = self.last["view"]["legal_moves"][0]
        self.pending = (self.last["version"], move)
        self.sock.send(json.dumps({"type": "move", "version": self.last["version"], "move": move}))

    def play(self, moves: int | None = None) -> None:
        """Make ``moves`` moves (all, with ``None``), stopping at this seat's next turn."""
        made = 0
        self.wait_for_my_turn_or_the_end()
        while self.last["status"] == "playing" and (moves is None or made < moves):
            self.move()
            made += 1
            self.next_state()
            self.wait_for_my_turn_or_the_end()


def start_game(server: Server, name: str) -> Game:
    player = Player(server.url, server.ws)
    assert player.register(name).status_code == 200
    response = player.post("/api/play/computer", GAME)
    assert response.status_code == 200, response.text
    return Game(player, response.json()["game_id"])


def same_state(before: dict[str, Any], after: dict[str, Any]) -> None:
    """The state after a restart is the state before it (the clock may be new)."""
    for key in ("version", "status", "you", "seats", "view"):
        assert after[key] == before[key], f"{key} changed over the restart"


def check_the_record(server: Server, game: Game) -> None:
    """The game is over; its record replays clean and holds this seat's accepted moves, each
    exactly once, in order; the stored version counts every event exactly once."""
    assert game.last["status"] == "finished", game.last.get("result")
    record = http_get(f"{server.url}/api/games/{game.game_id}/record").json()
    replayed = replay_layout(json.loads(json.dumps(record)))
    assert replayed.result is not None and record["result"]["losers"] == replayed.result.losers
    mine = []
    for rnd in record["rounds"]:
        for entry in rnd["moves"]:
            if entry["seat"] == game.last["you"]:
                move = {k: v for k, v in entry.items() if k != "seat"}
                if "draw" in move:  # the record names the tile drawn; the move does not
                    move["draw"] = True
                mine.append(move)
    assert mine == game.accepted
    events = sum(1 + len(r["moves"]) + (r["end"]["kind"] == "timeout") for r in record["rounds"])
    stored = http_get(f"{server.url}/api/games/{game.game_id}").json()
    assert stored["version"] == events == game.last["version"]


def test_a_killed_server_resumes_the_game_exactly(server: Server) -> None:
    game = start_game(server, "alice")
    try:
        game.connect()
        game.play(moves=8)  # ...and this seat is to move: nothing else can happen now
        before = game.last
        assert game.my_turn() and len(game.accepted) == 8
        server.kill()
        game.close()
        server.start()
        same_state(before, game.connect())
        game.play()
    finally:
        game.close()
    check_the_record(server, game)
    assert server.starts == 2


def test_a_server_killed_while_moves_are_under_way_loses_no_accepted_move(
    server: Server,
) -> None:
    """Kill right after sending a move (it may or may not have been stored), and right after
    seeing it taken, while the computer players think and move."""
    game = start_game(server, "bob")
    try:
        game.connect()
        for cycle in range(4):
            game.play(moves=3)
            game.move()
            sent_at = game.last["version"]
            if cycle % 2:  # the move was taken: the next seat, a computer, is thinking now
                game.next_state()
                assert game.pending is None
            server.kill()
            game.close()
            taken, seen = len(game.accepted), game.last
            server.start()
            first = game.connect()
            if cycle % 2:  # the accepted move is there
                assert first["version"] >= sent_at + 1 and len(game.accepted) == taken
            elif first["version"] == sent_at:  # the move never reached the database
                same_state(seen, first)
                game.pending = None
            else:  # it was stored before the kill: it counts, once
                assert len(game.accepted) == taken + 1
            assert first["status"] == "playing"
        game.play()
    finally:
        game.close()
    check_the_record(server, game)
    assert server.starts == 5


def test_a_killed_poker_table_draws_the_same_tiles_again(server: Server) -> None:
    """Four players share the 20 tiles, so every draw comes from the shuffled discards: the
    person changes two tiles, the server is killed at his next turn, and the table rebuilt from
    its stored deals and moves holds the same hand (it draws what it drew before), then plays
    on to a record that replays."""
    player = Player(server.url, server.ws)
    assert player.register("carol").status_code == 200
    options = {"players": 4, "hands": 2}
    response = player.post(
        "/api/play/computer",
        {"game": "poker", "level": "greedy", "seconds_per_move": 60, "options": options},
    )
    assert response.status_code == 200, response.text
    game = Game(player, response.json()["game_id"])

    def send(choose: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        """This seat's first legal move that ``choose`` likes, once it is to move."""
        game.wait_for_my_turn_or_the_end()
        move = next(m for m in game.last["view"]["legal_moves"] if choose(m))
        game.pending = (game.last["version"], move)
        assert game.sock is not None
        game.sock.send(json.dumps({"type": "move", "version": game.last["version"], "move": move}))
        game.next_state()
        return move

    try:
        game.connect()
        game.wait_for_my_turn_or_the_end()
        while game.last["view"]["phase"] != "draw":
            send(lambda m: "check" in m or "call" in m)  # stay in the hand
            game.wait_for_my_turn_or_the_end()
        change = send(lambda m: len(m["discard"]) == 2)
        game.wait_for_my_turn_or_the_end()  # the second betting round: nothing moves now
        before = game.last
        assert before["view"]["discarded"] == change["discard"] and game.my_turn()
        server.kill()
        game.close()
        server.start()
        same_state(before, game.connect())
        game.play()
    finally:
        game.close()
    record = http_get(f"{server.url}/api/games/{game.game_id}/record").json()
    assert get_game("poker").replay(record).over
    mine = [
        {k: v for k, v in m.items() if k not in ("seat", "drew")}
        for hand in record["rounds"]
        for m in hand["moves"]
        if m["seat"] == game.last["you"] and "ante" not in m
    ]
    assert mine == game.accepted

"""Does judging finished games slow the live tables? (issue 27, item 4)

Starts the club in this process (SQLite, computer players moving at once), finishes a few
games of four-player Goat, then plays live games against the computer twice: once with the
analysis worker idle, once while it judges those finished games at the review's full budget
(200 worlds × 48 playouts a decision). For each phase it prints the live player's move round
trip (sending a move until the club's answer to it arrives: median, 95th percentile, worst),
the event loop's stalls that ``/api/health`` reports, and how far the judgement got (the
second phase plays on, up to three times as many games, until the judgements are done). The
bench's players run in the server's process: their own work shows in both phases alike.

    .venv/bin/python bench/analysis_load.py [--finished 3 --live 4]
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import uvicorn
from websockets.sync.client import ClientConnection, connect

from kozel import patch
from kozel.server.app import create_app
from kozel.server.settings import Settings
from kozel.server.wire import uvicorn_options

GAME = {"game": "goat", "options": {"players": 4}, "level": "amateur", "rated": False}


class Club:
    """The club served by uvicorn in a thread of this process."""

    def __init__(self, settings: Settings) -> None:
        config = uvicorn.Config(
            create_app(settings), host="127.0.0.1", port=0, log_level="error", **uvicorn_options()
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        while not self.server.started:
            time.sleep(0.05)
        port = self.server.servers[0].sockets[0].getsockname()[1]
        self.url, self.ws = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=30)


def guest(club: Club) -> tuple[httpx.Client, str]:
    http = httpx.Client(base_url=club.url, timeout=60)
    csrf = http.post("/api/auth/guest").json()["csrf"]
    return http, csrf


def play(club: Club, http: httpx.Client, csrf: str, latencies: list[float] | None) -> int:
    """A whole game against the computer, the first legal move each time; each move's round
    trip into ``latencies``. Returns the game's number."""
    game_id: int = http.post(
        "/api/play/computer", json=GAME, headers={"X-CSRF-Token": csrf}
    ).json()["game_id"]
    cookie = "; ".join(f"{k}={v}" for k, v in http.cookies.items())
    sock: ClientConnection = connect(
        f"{club.ws}/ws/games/{game_id}", additional_headers={"Cookie": cookie}
    )
    with sock:
        seen, sent_at = -1, None
        held: dict[str, Any] | None = None
        while True:
            message: dict[str, Any] = json.loads(sock.recv(timeout=120))
            version = message.get("version", -1)
            if message.get("type") == "event":  # the held state patched (docs/protocol.md)
                if held is None or version != held["version"] + 1:
                    sock.send(json.dumps({"type": "sync"}))
                    continue
                message = {**patch.apply(held, message["patch"]), "version": version}
            elif message.get("type") != "state":
                continue
            held = message
            if version <= seen:
                continue
            if sent_at is not None and latencies is not None:
                latencies.append(time.perf_counter() - sent_at)
            sent_at = None
            seen = version
            if message["status"] != "playing":
                return game_id
            view = message.get("view")
            if view and view["turn"] == message["you"] and view["legal_moves"]:
                move = view["legal_moves"][0]
                sent_at = time.perf_counter()
                sock.send(json.dumps({"type": "move", "version": seen, "move": move}))


def phase(club: Club, live: int, name: str, until: list[int] | None = None) -> dict[str, Any]:
    """``live`` games against the computer (with ``until``, more, up to three times as many,
    until those games are judged)."""
    http, csrf = guest(club)
    latencies: list[float] = []
    start = time.perf_counter()
    played = 0
    while played < live or (until and played < 3 * live and not judged(http, until)):
        play(club, http, csrf, latencies)
        played += 1
    loop = http.get("/api/health").json()["loop"]
    ms = sorted(1000 * x for x in latencies)
    return {
        "phase": name,
        "games": played,
        "moves": len(ms),
        "round_trip_ms": {
            "median": round(statistics.median(ms), 1),
            "p95": round(ms[int(0.95 * (len(ms) - 1))], 1),
            "max": round(ms[-1], 1),
        },
        "loop_last_minute": loop,
        "seconds": round(time.perf_counter() - start, 1),
    }


def judged(http: httpx.Client, games: list[int]) -> bool:
    return all(http.get(f"/api/games/{g}/analysis").json()["status"] == "done" for g in games)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--finished", type=int, default=3, help="games to judge")
    parser.add_argument("--live", type=int, default=4, help="live games per phase")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "club.db"
        settings = Settings(
            db_url=f"sqlite+aiosqlite:///{db}",
            bot_delay_ms=0,
            round_pause_seconds=0,
            seed_seconds=0,
            min_seconds_per_move=5,
            guests_per_minute=1000,
            requests_per_minute=1000,
            analysis_poll_seconds=0.5,
        )
        club = Club(settings)
        try:
            http, csrf = guest(club)
            finished = [play(club, http, csrf, None) for _ in range(args.finished)]
            print(json.dumps(phase(club, args.live, "analysis idle")), flush=True)
            asked = time.perf_counter()
            for game_id in finished:
                http.get(f"/api/games/{game_id}/analysis")
            print(json.dumps(phase(club, args.live, "analysis running", finished)), flush=True)
            done = [http.get(f"/api/games/{g}/analysis").json() for g in finished]
            print(
                json.dumps(
                    {
                        "judged_during_phase": [
                            f"{d['progress']['done']}/{d['progress']['of']} seats ({d['status']})"
                            for d in done
                        ],
                        "seconds_since_asked": round(time.perf_counter() - asked, 1),
                    }
                ),
                flush=True,
            )
        finally:
            club.stop()


if __name__ == "__main__":
    main()

"""A player's limit of open requests and live tables holds under concurrency, in one process
and across the club's processes (a count read before the insert let every one through)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from kozel.server.settings import Settings
from tests.server.client import Player, http_get
from tests.server.conftest import RunningServer
from tests.server.test_restart import Server

BODY = {"game": "goat", "options": {"players": 2}, "rated": False}


def burst(players: list[Player], count: int) -> list[int]:
    """``count`` requests at once, spread over ``players`` (one guest's session on each
    process), as status codes."""

    def create(n: int) -> int:
        return players[n % len(players)].post("/api/requests", BODY).status_code

    with ThreadPoolExecutor(count) as pool:
        return list(pool.map(create, range(count)))


def test_concurrent_requests_of_one_player_stop_at_the_limit(db_url: str) -> None:
    running = RunningServer(Settings(db_url=db_url, tables_per_player=10, seed_seconds=0))
    try:
        guest = Player(running.url, running.ws)
        assert guest.guest().status_code == 200
        codes = burst([guest], 27)
        assert (codes.count(200), codes.count(429)) == (10, 17), codes
        mine = [r for r in http_get(running.url + "/api/requests").json()]
        assert len(mine) == 10
    finally:
        running.stop()


def test_the_limit_holds_across_three_processes(postgres_url: str, tmp_path: Path) -> None:
    """27 concurrent ``POST /api/requests`` of one guest over three processes were all
    accepted (12 of 15 on one process)."""
    servers = [Server(postgres_url, tmp_path, "--node", f"n{n}", name=f"n{n}") for n in range(3)]
    try:
        for server in servers:
            server.start()
        first = Player(servers[0].url, servers[0].ws)
        assert first.guest().status_code == 200
        sessions = []
        for server in servers:
            same = Player(server.url, server.ws)
            same.http.cookies = first.http.cookies
            same.csrf = first.csrf
            sessions.append(same)
        codes = burst(sessions, 27)
        assert (codes.count(200), codes.count(429)) == (10, 17), codes
        assert len(http_get(servers[1].url + "/api/requests").json()) == 10
    finally:
        for server in servers:
            server.kill()

"""Attacks on accounts and requests, each written as the attack it stops."""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from kozel.cli import app
from kozel.server import auth
from kozel.server.club import Club
from kozel.server.settings import Settings, database_url
from tests.server.client import Player, http_get, http_post, receive
from tests.server.conftest import RunningServer, seeded


def player(server: RunningServer) -> Player:
    return Player(server.url, server.ws)


def test_a_cyrillic_name_logs_in_in_any_case_and_is_one_account(server: RunningServer) -> None:
    """On SQLite ``lower()`` folds only ASCII: Алиса could register but never log in, and
    алиса registered a second account. Names are keyed case-folded in Python."""
    assert player(server).register("Алиса").status_code == 200
    assert player(server).login("алиса").status_code == 200
    assert player(server).login("АЛИСА").status_code == 200
    assert player(server).register("алиса").status_code == 409
    assert http_get(server.url + "/api/players/алиса").status_code == 200


@pytest.mark.parametrize(
    "name",
    [
        "alice9\n",  # a pattern ending in $ let a trailing newline through
        "Аlice",  # Cyrillic А with Latin letters: looks like Alice
        "alice٣",  # an Arabic-Indic digit
        "guest-7",
    ],
)
def test_look_alike_and_reserved_names_are_refused(server: RunningServer, name: str) -> None:
    assert player(server).register("alice9").status_code == 200
    assert player(server).register(name).status_code in (409, 422)


def test_full_width_letters_are_the_same_name(server: RunningServer) -> None:
    """Unicode compatibility forms (ｂｏｂ) are the plain name (bob)."""
    assert player(server).register("bob").status_code == 200
    assert player(server).register("ｂｏｂ").status_code == 409
    assert player(server).login("ＢＯＢ").status_code == 200


def test_a_page_of_another_site_cannot_sign_the_victim_in_as_a_guest(
    server: RunningServer,
) -> None:
    """A cross-site POST /api/auth/guest replaced the victim's session; every state-changing
    request from another site's page is refused before anything happens."""
    evil = {"Origin": "https://evil.example"}
    response = http_post(server.url + "/api/auth/guest", headers=evil)
    assert response.status_code == 403 and "set-cookie" not in response.headers
    for path in ("/api/auth/register", "/api/auth/login"):
        body = {"name": "mallory", "password": "correct horse"}
        assert http_post(server.url + path, json=body, headers=evil).status_code == 403
    own = {"Origin": server.url}
    assert http_post(server.url + "/api/auth/guest", headers=own).status_code == 200


def test_a_huge_body_is_refused_before_it_is_read(server: RunningServer) -> None:
    """A 50 MB log-in body was read in full: the length is checked first."""
    big = b'{"name": "' + b"a" * 50_000_000 + b'"}'
    response = http_post(
        server.url + "/api/auth/login",
        content=big,
        headers={"Content-Type": "application/json"},
    )
    assert response.status_code == 413


def test_password_hashing_runs_off_the_event_loop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Registration and log-in hash with argon2 (about half a second) in a worker thread, so
    the tables on the event loop keep moving."""
    threads: list[str] = []
    original_hash, original_check = auth.hash_password, auth.check_password

    def hashing(password: str) -> str:
        threads.append(threading.current_thread().name)
        return original_hash(password)

    def checking(stored: str | None, password: str) -> bool:
        threads.append(threading.current_thread().name)
        return original_check(stored, password)

    monkeypatch.setattr(auth, "hash_password", hashing)
    monkeypatch.setattr(auth, "check_password", checking)

    async def scenario() -> str:
        club = Club(seeded(Settings(db_url=f"sqlite:///{tmp_path / 'club.db'}")))
        await club.start()
        try:
            await club.accounts.register("carol", "correct horse", "127.0.0.1")
            await club.accounts.login("carol", "correct horse", "127.0.0.1")
        finally:
            await club.stop()
        return threading.current_thread().name

    loop_thread = asyncio.run(scenario())
    assert len(threads) == 2 and loop_thread not in threads


def test_plain_database_urls_are_accepted_and_others_explained() -> None:
    """``--db sqlite:///club.db`` crashed with "the asyncio extension requires an async
    driver"; plain URLs get the async driver, and others say what to write."""
    assert database_url("sqlite:///club.db") == "sqlite+aiosqlite:///club.db"
    assert database_url("postgresql://u@h/d") == "postgresql+asyncpg://u@h/d"
    with pytest.raises(ValueError, match="write sqlite:///FILE or postgresql://"):
        database_url("mysql://u@h/d")
    result = CliRunner().invoke(app, ["serve", "--db", "mysql://u@h/d"])
    assert result.exit_code == 2 and "write sqlite:///FILE" in result.output


def test_cookies_are_secure_when_asked(db_url: str) -> None:
    running = RunningServer(Settings(db_url=db_url, secure_cookies=True))
    try:
        response = player(running).guest()
        assert all("secure" in c.lower() for c in response.headers.get_list("set-cookie"))
    finally:
        running.stop()


def test_one_address_cannot_mint_guests_or_accounts_without_end(db_url: str) -> None:
    """918 guest accounts in 10 s from one client: guests and registrations are limited per
    address."""
    running = RunningServer(
        Settings(db_url=db_url, guests_per_minute=3, registrations_per_minute=2)
    )
    try:
        assert [player(running).guest().status_code for _ in range(4)] == [200, 200, 200, 429]
        codes = [player(running).register(f"user{n}").status_code for n in range(3)]
        assert codes == [200, 200, 429]
    finally:
        running.stop()


def test_the_log_in_limit_holds_under_concurrency_and_across_names(db_url: str) -> None:
    """Concurrent wrong passwords let 11 failures through a limit of 5, and one password
    could be tried against many names: attempts are counted before they are checked, and an
    address has its own limit across names."""
    running = RunningServer(Settings(db_url=db_url, login_attempts_per_minute=5))
    try:
        assert player(running).register("dave").status_code == 200

        def attempt(name: str) -> int:
            return player(running).login(name, "wrong password").status_code

        with ThreadPoolExecutor(12) as pool:
            codes = list(pool.map(attempt, ["dave"] * 12))
        assert codes.count(401) == 5 and codes.count(429) == 7
        codes = [attempt(f"name{n}") for n in range(12)]
        assert codes.count(401) == 10 and codes.count(429) == 2  # 15 failures per address
    finally:
        running.stop()


@pytest.mark.parametrize(
    "body",
    [
        {"game": "goat", "options": {"players": 4.0}},
        {"game": "goat", "options": {"teams": "true"}},
        {"game": "goat", "seconds_per_move": "60"},
        {"game": "goat", "rated": 1},
        {"game": "goat", "options": {"loss_limit": 2_147_483_648}},
    ],
)
def test_request_values_have_exact_types_and_bounds(
    server: RunningServer, body: dict[str, object]
) -> None:
    """``players: 4.0`` was accepted as 4, and ``loss_limit = 2**31`` reached the kernel:
    values keep their JSON types and every integer option has an upper bound."""
    alice = player(server)
    assert alice.guest().status_code == 200
    response = alice.post("/api/requests", body)
    assert response.status_code == 422, response.text


def test_logging_out_closes_the_sessions_sockets(server: RunningServer) -> None:
    """A socket opened before logout could still move after it: logout closes it."""
    alice = player(server)
    assert alice.register("erin").status_code == 200
    game = alice.post("/api/play/computer", {"game": "goat", "level": "random"}).json()
    with alice.socket(game["game_id"]) as sock:
        assert receive(sock)["type"] == "state"
        assert alice.post("/api/auth/logout").status_code == 200
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                receive(sock, timeout=10)
        assert closed.value.rcvd is not None
        assert (closed.value.rcvd.code, closed.value.rcvd.reason) == (4401, "logged out")


def test_a_burst_of_requests_from_one_address_is_limited(db_url: str) -> None:
    """500 open requests in 14 s from one client: new requests and tables are limited per
    address, and nothing is saved for a refused one."""
    running = RunningServer(Settings(db_url=db_url, requests_per_minute=30, guests_per_minute=50))
    try:
        guests = [player(running) for _ in range(50)]
        for guest in guests:
            assert guest.guest().status_code == 200

        def create(n: int) -> httpx.Response:
            body = {"game": "goat", "options": {"players": 2}, "rated": False}
            return guests[n % len(guests)].post("/api/requests", body)

        with ThreadPoolExecutor(16) as pool:
            answers = list(pool.map(create, range(500)))
        codes = [a.status_code for a in answers]
        assert codes.count(200) == 30 and codes.count(429) == 470
        refused = {a.json()["detail"] for a in answers if a.status_code == 429}
        assert refused == {"too many new requests from your address: wait a minute"}
        listed = http_get(running.url + "/api/requests").json()
        assert sorted(r["id"] for r in listed) == sorted(
            a.json()["id"] for a in answers if a.status_code == 200
        )
        # the computer's and a person's tables count against the same limit
        for path in ("/api/play/computer", "/api/play/person"):
            assert guests[0].post(path, {"game": "goat"}).status_code == 429
        assert len(http_get(running.url + "/api/requests").json()) == 30
    finally:
        running.stop()


def test_one_address_cannot_hold_sockets_without_end(db_url: str) -> None:
    """Nothing limited the sockets of one client: at most 64 are open per address, lobby and
    tables together; the next is closed at once with code 1008 and the reason."""
    running = RunningServer(Settings(db_url=db_url, sockets_per_address=64, seed_seconds=0))
    alice = player(running)
    alice.guest()
    table = alice.post("/api/play/computer", {"game": "goat", "level": "random"}).json()
    try:
        with contextlib.ExitStack() as stack:
            opened = [
                stack.enter_context(
                    alice.socket(table["game_id"]) if n % 2 else connect(running.ws + "/ws/lobby")
                )
                for n in range(100)
            ]
            admitted, closed = [], []
            for sock in opened:
                try:
                    admitted.append(receive(sock, timeout=10)["type"])
                except ConnectionClosed as error:
                    assert error.rcvd is not None
                    closed.append((error.rcvd.code, error.rcvd.reason))
            assert len(admitted) == 64 and set(admitted) == {"requests", "state"}
            assert closed == [(1008, "too many connections from your address (at most 64)")] * 36
            # a socket that closes gives its place back
            opened[0].close()
            deadline = time.monotonic() + 10
            while True:
                with connect(running.ws + "/ws/lobby") as again:
                    try:
                        assert receive(again, timeout=10)["type"] == "requests"
                        break
                    except ConnectionClosed:
                        assert time.monotonic() < deadline
                time.sleep(0.05)
    finally:
        running.stop()


def test_a_player_keeps_only_so_many_requests_and_tables(db_url: str) -> None:
    """Open requests and live tables count together against a player's limit (read from the
    indexed players of each game, not from every live game's seats); another player's count
    is his own, and the player page lists the player's games."""
    running = RunningServer(Settings(db_url=db_url, tables_per_player=2, seed_seconds=0))
    try:
        alice, bob = player(running), player(running)
        assert alice.register("alice").status_code == 200
        assert bob.register("bob").status_code == 200
        game_id = alice.post("/api/play/computer", {"game": "goat", "level": "random"}).json()[
            "game_id"
        ]
        request_id = alice.post("/api/requests", {"game": "goat", "options": {"players": 2}})
        assert request_id.status_code == 200
        refused = alice.post("/api/play/computer", {"game": "goat"})
        assert refused.status_code == 429
        assert refused.json()["code"] == "too_many_tables"
        assert refused.json()["params"] == {"limit": 2}
        assert bob.post("/api/play/computer", {"game": "goat"}).status_code == 200
        assert alice.post(f"/api/requests/{request_id.json()['id']}/cancel").status_code == 200
        assert alice.post("/api/play/computer", {"game": "goat"}).status_code == 200
        page = http_get(running.url + "/api/players/alice").json()
        assert game_id in [g["id"] for g in page["games"]]
        assert len(page["games"]) == 2
    finally:
        running.stop()

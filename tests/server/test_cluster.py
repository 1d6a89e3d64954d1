"""Several processes serving one club, written as the failures they stop.

- Two ``kozel serve`` processes on one PostgreSQL and one Redis share their tables: a player
  connected to either plays at a table the other runs.
- A table whose process dies is taken over by another within a few seconds, with no accepted
  move lost; the dead process, started again, does not take it back.
- A table whose every socket is in another process is handed over there, losing nothing.
- A stale owner (a process that lost its table without knowing) can store nothing.
- Two clubs on one Redis hear nothing of each other.
- Redis away: health says so, changes are refused before anything is saved, sockets are
  closed with a reason.

The process tests need ``KOZEL_TEST_POSTGRES`` and ``KOZEL_TEST_REDIS`` (.ci/run sets both).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select, update
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from kozel.games import get_game, replay_layout
from kozel.server.club import Club, ClubError
from kozel.server.cluster import Claimable
from kozel.server.db import Game, GameEvent, Node, User, make_engine
from kozel.server.pubsub import RedisPubSub
from kozel.server.settings import Settings
from kozel.server.tables import seat_channel
from tests.server.client import Player, http_get, in_thread, play_to_the_end, receive
from tests.server.conftest import seeded
from tests.server.test_restart import Server, free_port

REDIS = os.environ.get("KOZEL_TEST_REDIS", "")
LEASE = "1.5"


@contextlib.contextmanager
def processes(postgres_url: str, directory: Path, lease: str) -> Iterator[tuple[Server, Server]]:
    """Processes ``a`` and ``b`` of one club on PostgreSQL and Redis."""
    if not REDIS:
        pytest.skip("KOZEL_TEST_REDIS is not set")
    servers = [
        Server(
            postgres_url,
            directory,
            *("--pubsub", REDIS, "--node", name, "--lease-seconds", lease, "--admin", "alice"),
            name=name,
        )
        for name in ("a", "b")
    ]
    try:
        for server in servers:
            server.start()
        yield servers[0], servers[1]
    finally:
        for server in servers:
            server.kill()


@pytest.fixture
def two(postgres_url: str, tmp_path: Path) -> Iterator[tuple[Server, Server]]:
    """Two processes whose tables are taken over soon after one of them dies."""
    with processes(postgres_url, tmp_path, LEASE) as both:
        yield both


def owners(server: Server, admin: Player) -> dict[int, str]:
    overview = admin.http.get("/api/admin/tables").json()
    return {table["id"]: table["owner"] for table in overview["tables"]}


def test_a_player_on_either_process_plays_at_the_other_process_table(
    two: tuple[Server, Server],
) -> None:
    a, b = two
    alice, bob = Player(a.url, a.ws), Player(b.url, b.ws)
    assert alice.register("alice").status_code == 200
    assert bob.register("bob").status_code == 200
    request = alice.post(
        "/api/requests",
        {"game": "goat", "options": {"players": 2, "loss_limit": 30}, "rated": False},
    ).json()
    game_id = bob.post(f"/api/requests/{request['id']}/join").json()["game_id"]
    assert owners(a, alice) == {game_id: "b"}  # the joiner's process started the table
    with alice.socket(game_id) as sock_a, bob.socket(game_id) as sock_b:
        thread, out = in_thread(play_to_the_end, sock_a)
        final_b = play_to_the_end(sock_b)
        thread.join(timeout=60)
    assert final_b["status"] == out[0]["status"] == "finished"
    assert out[0]["version"] == final_b["version"]
    replay_layout(http_get(f"{a.url}/api/games/{game_id}/record").json())


def alice_plays_through_b(a: Server, b: Server) -> tuple[Player, Player, int]:
    """Alice, registered on ``a``, starts a game against computers there (``a`` owns it);
    also her session on ``b``, the process that does not own the table, and the game."""
    alice = Player(a.url, a.ws)
    assert alice.register("alice").status_code == 200
    game_id = alice.post(
        "/api/play/computer",
        {"game": "goat", "options": {"players": 3}, "level": "greedy", "seconds_per_move": 60},
    ).json()["game_id"]
    assert owners(a, alice) == {game_id: "a"}
    alice_b = Player(b.url, b.ws)
    alice_b.http.cookies = alice.http.cookies
    alice_b.csrf = alice.csrf
    return alice, alice_b, game_id


def seat_zero_moves(record: dict[str, Any]) -> list[dict[str, Any]]:
    """Seat 0's moves in a record, as its socket sent them (a draw as ``True``)."""
    return [
        {k: (True if k == "draw" else v) for k, v in entry.items() if k != "seat"}
        for rnd in record["rounds"]
        for entry in rnd["moves"]
        if entry["seat"] == 0
    ]


def test_a_dead_owner_is_taken_over_and_not_taken_back(
    two: tuple[Server, Server], postgres_url: str
) -> None:
    a, b = two
    alice, alice_b, game_id = alice_plays_through_b(a, b)
    accepted: list[dict[str, Any]] = []
    # her page open on a too: a table with no socket in its process would follow her to b
    with alice.socket(game_id), alice_b.socket(game_id) as sock:
        play_some(sock, 6, accepted)
        assert owners(b, alice_b).get(game_id) == "a"
        a.kill()
        killed = time.monotonic()
        while owners(b, alice_b).get(game_id) != "b":
            assert time.monotonic() - killed < 20, "nobody took the table over"
            time.sleep(0.1)
        taken_after = time.monotonic() - killed
    a.start()  # the old owner comes back: it must leave b's table alone
    with alice_b.socket(game_id) as sock:
        final = play_some(sock, None, accepted)
    assert final["status"] == "finished"
    # the state held by following the new owner's events is exactly the one it sends whole
    with alice.socket(game_id) as sock:
        assert timeless(receive(sock)) == timeless(final)
    assert owners(a, alice) == {}  # finished: no owner needed any more
    record = http_get(f"{a.url}/api/games/{game_id}/record").json()
    replay_layout(json.loads(json.dumps(record)))
    assert seat_zero_moves(record) == accepted
    assert taken_after < 10
    asyncio.run(check_fences(postgres_url, game_id))


def test_a_table_follows_its_player_to_the_process_her_socket_is_in(
    two: tuple[Server, Server], postgres_url: str
) -> None:
    """Every socket of a table in another process: the table is handed over there, and the
    game goes on through the handover without a move refused or lost."""
    a, b = two
    _, alice_b, game_id = alice_plays_through_b(a, b)
    accepted: list[dict[str, Any]] = []
    refused: list[dict[str, Any]] = []
    with alice_b.socket(game_id) as sock:
        play_some(sock, 2, accepted, refused)
        started = time.monotonic()
        while owners(b, alice_b).get(game_id) != "b":  # she thinks; her table moves to b
            assert time.monotonic() - started < 20, "the table stayed where no socket is"
            time.sleep(0.1)
        final = play_some(sock, None, accepted, refused)
    assert final["status"] == "finished"
    assert refused == []
    record = http_get(f"{b.url}/api/games/{game_id}/record").json()
    replay_layout(record)
    assert seat_zero_moves(record) == accepted
    asyncio.run(check_fences(postgres_url, game_id))


def timeless(state: dict[str, Any]) -> dict[str, Any]:
    """A state without the time left on its clock (counted when a message is made)."""
    return {k: v for k, v in state.items() if k != "clock"}


def play_some(
    sock: Any,
    moves: int | None,
    accepted: list[dict[str, Any]],
    refused: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """Play seat 0's first legal moves (all, with ``None``), resending a move the table could
    not take while it changed owner (the refusals kept in ``refused``); returns the last
    state."""
    last: dict[str, Any] = {"version": -1}
    pending: tuple[int, dict[str, Any]] | None = None
    made = 0
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            message = receive(sock, timeout=3)
        except TimeoutError:
            sock.send(json.dumps({"type": "sync"}))
            continue
        if message["type"] == "error":
            assert message["code"] in ("unavailable", "stale"), message
            if refused is not None:
                refused.append(message)
            pending = None
            time.sleep(0.3)
            sock.send(json.dumps({"type": "sync"}))
            continue
        if message["type"] != "state" or message["version"] <= last["version"]:
            continue
        if pending is not None and message["version"] > pending[0]:
            accepted.append(pending[1])
            pending = None
        last = message
        view = message.get("view")
        if message["status"] != "playing":
            return last
        if view and view["turn"] == 0 and view["legal_moves"] and pending is None:
            if moves is not None and made >= moves:
                return last
            move = view["legal_moves"][0]
            pending = (message["version"], move)
            sock.send(json.dumps({"type": "move", "version": message["version"], "move": move}))
            made += 1
    raise AssertionError("the game did not end in time")


async def check_fences(db_url: str, game_id: int) -> None:
    """Events were stored under never-decreasing tokens: no owner wrote after a newer one."""
    club = Club(seeded(Settings(db_url=db_url, bot_delay_ms=0, seed_seconds=0)))
    async with club.sessions() as session:
        fences = list(
            await session.scalars(
                select(GameEvent.fence)
                .where(GameEvent.game_id == game_id)
                .order_by(GameEvent.version)
            )
        )
    await club.engine.dispose()
    assert fences == sorted(fences) and fences[0] >= 1


def test_a_process_holds_at_most_its_share_of_postgresql_connections() -> None:
    """Three processes at 40 connections each exceeded PostgreSQL's default 100 clients: a
    process restarted during a storm of reconnections failed to start."""
    engine = make_engine("postgresql://kozel@127.0.0.1/club", 25)
    assert engine.pool.size() + engine.pool._max_overflow == 25  # type: ignore[attr-defined]


async def lapse(club: Club) -> None:
    """The node's lease runs out as if it had paused: its last renewal is long ago."""
    async with club.sessions() as session, session.begin():
        await session.execute(update(Node).where(Node.name == club.node).values(seen_ms=0))


def test_a_claim_checks_the_owner_lease_again(db_url: str) -> None:
    """A claimer works through a list of tables made a while ago; an owner that was late
    once and has renewed its lease since keeps its table."""

    async def scenario() -> None:
        a = Club(
            seeded(
                Settings(db_url=db_url, node="a", lease_seconds=60, bot_delay_ms=0, seed_seconds=0)
            )
        )
        b = Club(
            seeded(
                Settings(db_url=db_url, node="b", lease_seconds=60, bot_delay_ms=0, seed_seconds=0)
            )
        )
        await a.start()
        await b.start()
        try:
            row = await a.new_games.bot_game("goat", {"loss_limit": 30}, ["greedy"], 60)
            assert await b.ownership.claim(row.id, row.fence) is None  # a's lease is fresh
            await lapse(a)
            claimed = await b.ownership.claim(row.id, row.fence)
            assert claimed is not None and claimed.owner == "b"
        finally:
            await a.stop()
            await b.stop()

    asyncio.run(scenario())


def test_a_stale_owner_can_store_nothing(db_url: str) -> None:
    """Process A runs a table; process B takes it over while A still runs it (A paused past
    its lease, say). A's next write is refused, its copy stops, B finishes the game."""

    async def scenario() -> None:
        a = Club(
            seeded(
                Settings(db_url=db_url, node="a", lease_seconds=60, bot_delay_ms=0, seed_seconds=0)
            )
        )
        b = Club(
            seeded(
                Settings(db_url=db_url, node="b", lease_seconds=60, bot_delay_ms=0, seed_seconds=0)
            )
        )
        await a.start()
        await b.start()
        try:
            row = await a.new_games.bot_game("goat", {"loss_limit": 30}, ["greedy"], 60)
            table_a = await a.claims.open_table(row)
            async with asyncio.timeout(30):
                while table_a.version < 5:
                    await asyncio.sleep(0.01)
            async with a.sessions() as session:
                fence = await session.scalar(select(Game.fence).where(Game.id == row.id))
            assert fence is not None
            await lapse(a)
            table_b = await b.claims.claim(Claimable(row.id, fence, "a"))
            assert table_b is not None
            async with asyncio.timeout(60):
                while row.id in a.tables:  # A's next write is refused
                    await asyncio.sleep(0.01)
                while table_b.status == "playing":
                    await asyncio.sleep(0.05)
            assert table_a.status == "lost"
            async with a.sessions() as session:
                events = list(
                    await session.scalars(
                        select(GameEvent)
                        .where(GameEvent.game_id == row.id)
                        .order_by(GameEvent.version)
                    )
                )
                stored = await session.get(Game, row.id)
            assert [e.version for e in events] == list(range(1, len(events) + 1))
            fences = [e.fence for e in events]
            assert fences == sorted(fences) and fences[-1] == fence + 1
            assert stored is not None and stored.record is not None
            replay_layout(json.loads(json.dumps(stored.record)))
        finally:
            await a.stop()
            await b.stop()

    asyncio.run(scenario())


def test_the_lease_is_renewed_while_tables_are_claimed(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Claiming a gone node's tables takes a while on a busy machine; the node's own lease
    must not wait for it, or the other nodes would take this node's tables in turn."""

    async def seen(club: Club) -> int:
        async with club.sessions() as session:
            stamp = await session.scalar(select(Node.seen_ms).where(Node.name == club.node))
        assert stamp is not None
        return stamp

    async def scenario() -> None:
        gone = Club(
            seeded(
                Settings(
                    db_url=db_url, node="gone", lease_seconds=60, bot_delay_ms=0, seed_seconds=0
                )
            )
        )
        await gone.start()
        await gone.new_games.bot_game("goat", {"loss_limit": 30}, ["greedy"], 60)  # left to claim
        await gone.stop()
        a = Club(
            seeded(
                Settings(db_url=db_url, node="a", lease_seconds=1, bot_delay_ms=0, seed_seconds=0)
            )
        )

        async def slow_claim(candidate: Claimable) -> None:
            await asyncio.sleep(3)

        monkeypatch.setattr(a.claims, "claim", slow_claim)
        starting = asyncio.create_task(a.start())
        try:
            async with asyncio.timeout(10):
                while "a" not in [n["name"] for n in (await a.ownership.overview())["nodes"]]:
                    await asyncio.sleep(0.05)
                registered = await seen(a)
                await asyncio.sleep(1.5)  # longer than the lease, while the claim goes on
                assert not starting.done()
                assert await seen(a) > registered
                await starting
        finally:
            await a.stop()

    asyncio.run(scenario())


def test_a_table_is_taken_over_while_the_pubsub_is_away(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A table whose state cannot be published on starting runs all the same (its players
    get the state when they reconnect); the claim and the node's start do not fail."""

    async def scenario() -> None:
        a = Club(
            seeded(
                Settings(db_url=db_url, node="a", lease_seconds=60, bot_delay_ms=0, seed_seconds=0)
            )
        )
        await a.start()
        row = await a.new_games.bot_game("goat", {"loss_limit": 101}, ["greedy"], 60)
        table = await a.claims.open_table(row)
        async with asyncio.timeout(30):
            while table.version < 3:
                await asyncio.sleep(0.01)
        await a.stop()
        b = Club(
            seeded(
                Settings(db_url=db_url, node="b", lease_seconds=60, bot_delay_ms=0, seed_seconds=0)
            )
        )

        async def away(channel: str, message: str) -> None:
            raise ConnectionError("the pub/sub is away")

        monkeypatch.setattr(b.pubsub, "publish", away)
        await b.start()
        try:
            assert b.tables[row.id].status == "playing"
        finally:
            await b.stop()

    asyncio.run(scenario())


def test_a_node_that_does_not_run_a_live_table_does_not_make_it_vanish(db_url: str) -> None:
    """The node named as a table's owner may not run it: restarted, it has not claimed it
    yet; or another node took it over while it was down. Its ``no_table`` means the table is
    moving (503, the client tries again), not that the game is over (404: a browser stops)."""

    async def scenario() -> None:
        a = Club(
            seeded(
                Settings(db_url=db_url, node="a", lease_seconds=60, bot_delay_ms=0, seed_seconds=0)
            )
        )
        b = Club(
            seeded(
                Settings(db_url=db_url, node="b", lease_seconds=60, bot_delay_ms=0, seed_seconds=0)
            )
        )
        b.pubsub = a.pubsub  # one in-memory pub/sub: the two nodes reach each other
        await a.start()
        await b.start()
        try:
            row = await a.new_games.bot_game(
                "goat", {"loss_limit": 30}, ["greedy"], 60
            )  # a's, not run
            with pytest.raises(ClubError) as refused:
                await b.relay.table_state(row.id, None)
            assert refused.value.status == 503
            assert (await b.relay.submit(row.id, 0, {"knock": True}, 0)).code == "unavailable"
            await a.claims.open_table(row)
            assert (await b.relay.table_state(row.id, None))["game"] == row.id
        finally:
            await a.stop()
            await b.stop()

    asyncio.run(scenario())


def test_a_copy_whose_table_was_claimed_stops_without_writing(db_url: str) -> None:
    """Node A's lease lapsed unnoticed and B claimed A's table, whose player is to move: A's
    copy stores nothing more (the player moves at B), so no refused write tells it. It must
    stop all the same, or it would serve its old state to every socket on A."""

    async def scenario() -> None:
        a = Club(
            seeded(
                Settings(db_url=db_url, node="a", lease_seconds=1, bot_delay_ms=0, seed_seconds=0)
            )
        )
        b = Club(
            seeded(
                Settings(db_url=db_url, node="b", lease_seconds=60, bot_delay_ms=0, seed_seconds=0)
            )
        )
        await a.start()
        await b.start()
        try:
            rules = get_game("goat")
            async with a.sessions() as session, session.begin():
                row = Game(
                    game="goat",
                    options=rules.options_dict(rules.options({"players": 2})),
                    seats=[{"user": 1, "name": "alice"}, {"bot": "greedy"}],
                    seconds_per_move=60,
                    rated=False,
                    status="playing",
                    version=0,
                    owner="a",
                    fence=0,
                )
                session.add(row)
            table_a = await a.claims.open_table(row)
            async with asyncio.timeout(30):
                while table_a.match.to_move != 0:  # alice's turn: A writes nothing now
                    await asyncio.sleep(0.01)
            next(t for t in a._loops if t.get_name() == "lease").cancel()  # A's renewals stop
            await lapse(a)
            assert await b.claims.claim(Claimable(row.id, table_a.fence, "a")) is not None
            async with asyncio.timeout(5):
                while row.id in a.tables:
                    await asyncio.sleep(0.05)
            assert table_a.status == "lost"
            assert b.tables[row.id].version == table_a.version
        finally:
            await a.stop()
            await b.stop()

    asyncio.run(scenario())


@pytest.mark.skipif(not REDIS, reason="KOZEL_TEST_REDIS is not set")
def test_two_clubs_on_one_redis_hear_nothing_of_each_other(tmp_path: Path) -> None:
    """Club B's seat 0 of game 1 never receives club C's game 1 (Redis's publish/subscribe
    ignores the database number)."""

    async def scenario() -> None:
        clubs = [
            Club(
                seeded(
                    Settings(
                        db_url=f"sqlite+aiosqlite:///{tmp_path / name}.db",
                        pubsub_url=REDIS,
                        bot_delay_ms=0,
                        seed_seconds=0,
                    )
                )
            )
            for name in ("b", "c")
        ]
        for club in clubs:
            await club.start()
        b, c = clubs
        try:
            heard: list[str] = []
            async with b.pubsub.subscribe(seat_channel(1, 0)) as sub:

                async def listen() -> None:
                    async for message in sub:
                        heard.append(message)

                listener = asyncio.create_task(listen())
                await asyncio.sleep(0.1)
                row = await c.new_games.bot_game("goat", {"loss_limit": 20}, ["random"], 60)
                assert row.id == 1
                table = await c.claims.open_table(row)
                async with asyncio.timeout(30):
                    while table.status == "playing":
                        await asyncio.sleep(0.05)
                await asyncio.sleep(0.2)
                listener.cancel()
            assert table.version > 10 and heard == []
        finally:
            for club in clubs:
                await club.stop()

    asyncio.run(scenario())


def test_redis_down_is_reported_and_refused_before_saving(tmp_path: Path) -> None:
    port = free_port()  # nothing listens there
    server = Server(
        f"sqlite+aiosqlite:///{tmp_path / 'club.db'}",
        tmp_path,
        "--pubsub",
        f"redis://127.0.0.1:{port}/0",
    )
    server.start(require_ok=False)
    try:
        health = http_get(server.url + "/api/health")
        assert health.status_code == 503
        assert health.json()["status"] == "degraded" and health.json()["missing"] == ["pubsub"]
        alice = Player(server.url, server.ws)
        assert alice.register("alice").status_code == 200
        game = {"game": "goat", "options": {}, "level": "random"}
        refused = alice.post("/api/play/computer", game)
        assert refused.status_code == 503 and "message service" in refused.json()["detail"]
        assert alice.post("/api/requests", {"game": "goat"}).status_code == 503
        assert http_get(server.url + "/api/requests").json() == []
        assert http_get(server.url + "/api/players/alice").json()["games"] == []
        with connect(f"{server.ws}/ws/lobby") as sock, pytest.raises(ConnectionClosed) as closed:
            sock.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013
    finally:
        server.kill()


@pytest.mark.skipif(shutil.which("redis-server") is None, reason="no redis-server to stop")
def test_redis_going_away_closes_sockets_with_a_reason(tmp_path: Path) -> None:
    port = free_port()
    redis = subprocess.Popen(
        ["redis-server", "--port", str(port), "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
    )
    server = Server(
        f"sqlite+aiosqlite:///{tmp_path / 'club.db'}",
        tmp_path,
        "--pubsub",
        f"redis://127.0.0.1:{port}/0",
    )
    try:
        wait_for_redis(port)
        server.start()
        alice = Player(server.url, server.ws)
        alice.guest()
        game_id = alice.post(
            "/api/play/computer", {"game": "goat", "options": {}, "level": "random"}
        ).json()["game_id"]
        with alice.socket(game_id) as sock:
            assert receive(sock)["type"] == "state"
            redis.kill()
            redis.wait()
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    sock.recv(timeout=30)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013
        assert http_get(server.url + "/api/health").status_code == 503
    finally:
        server.kill()
        with contextlib.suppress(ProcessLookupError):
            redis.kill()


def wait_for_redis(port: int) -> None:
    async def ping() -> bool:
        pubsub = RedisPubSub(f"redis://127.0.0.1:{port}/0")
        try:
            return await pubsub.ping()
        finally:
            await pubsub.close()

    deadline = time.monotonic() + 10
    while not asyncio.run(ping()):
        assert time.monotonic() < deadline, "redis-server did not start"
        time.sleep(0.05)


def test_a_restarted_process_touches_only_its_own_tables(postgres_url: str, tmp_path: Path) -> None:
    """Restarting one process rebuilt every unfinished game, the other process's included, and
    a lobby change made one process open a game the other had just started. (A long lease:
    the process is back before anyone would take its tables over.)"""
    with processes(postgres_url, tmp_path, "60") as (a, b):
        restart_one(a, b)


def restart_one(a: Server, b: Server) -> None:
    alice, bob = Player(a.url, a.ws), Player(b.url, b.ws)
    assert alice.register("alice").status_code == 200
    assert bob.register("bob").status_code == 200
    game = {"game": "goat", "options": {}, "level": "random", "seconds_per_move": 60}
    mine = alice.post("/api/play/computer", game).json()["game_id"]
    theirs = bob.post("/api/play/computer", game).json()["game_id"]
    assert alice.post("/api/requests", {"game": "goat", "rated": False}).status_code == 200

    def tokens() -> dict[int, tuple[str, int]]:
        overview = alice.http.get("/api/admin/tables").json()
        return {t["id"]: (t["owner"], t["fence"]) for t in overview["tables"]}

    assert tokens() == {mine: ("a", 1), theirs: ("b", 1)}
    a.kill()
    a.start()
    assert tokens() == {mine: ("a", 2), theirs: ("b", 1)}
    with alice.socket(mine) as sock:  # the reclaimed table answers
        assert receive(sock)["type"] == "state"


def test_only_administrators_see_who_owns_what(tmp_path: Path) -> None:
    from tests.server.conftest import RunningServer

    settings = Settings(
        db_url=f"sqlite+aiosqlite:///{tmp_path / 'club.db'}", node="solo", admins=("root",)
    )
    server = RunningServer(settings)
    try:
        guest, player, root = (Player(server.url, server.ws) for _ in range(3))
        guest.guest()
        player.register("someone")
        root.register("root")
        assert guest.http.get("/api/admin/tables").status_code == 403
        assert player.http.get("/api/admin/tables").status_code == 403
        assert http_get(server.url + "/api/admin/tables").status_code == 401
        assert not player.http.get("/api/me").json()["admin"]
        assert root.http.get("/api/me").json()["admin"]
        game_id = player.post(
            "/api/play/computer", {"game": "goat", "level": "random", "seconds_per_move": 60}
        ).json()["game_id"]
        overview = root.http.get("/api/admin/tables").json()
        assert overview["node"] == "solo"
        assert [(n["name"], n["alive"], n["tables"]) for n in overview["nodes"]] == [
            ("solo", True, 1)
        ]
        assert [(t["id"], t["game"], t["owner"], t["fence"]) for t in overview["tables"]] == [
            (game_id, "goat", "solo", 1)
        ]
    finally:
        server.stop()


def test_logging_out_on_one_process_closes_the_sessions_sockets_on_the_other(
    two: tuple[Server, Server],
) -> None:
    a, b = two
    alice = Player(a.url, a.ws)
    assert alice.register("alice").status_code == 200
    game_id = alice.post(
        "/api/play/computer", {"game": "goat", "level": "random", "seconds_per_move": 60}
    ).json()["game_id"]
    alice_b = Player(b.url, b.ws)
    alice_b.http.cookies = alice.http.cookies
    with alice_b.socket(game_id) as sock:
        assert receive(sock)["type"] == "state"
        assert alice.post("/api/auth/logout").status_code == 200
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                sock.recv(timeout=10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401


def test_requests_started_together_each_get_their_table_at_once(db_url: str) -> None:
    """Eight players start games against the computer at the same moment in one process:
    each reply comes back with the player's table already running here. (Games started were
    once gathered in one list, so one request could claim another's game before it was
    committed, and that table stayed without an owner until the next sweep.)"""

    async def scenario() -> None:
        club = Club(
            seeded(
                Settings(db_url=db_url, node="a", lease_seconds=60, bot_delay_ms=0, seed_seconds=0)
            )
        )
        await club.start()
        try:
            users = [
                (await club.accounts.register(f"player{n}", "a good password", "test"))[0]
                for n in range(8)
            ]

            async def start(user: User) -> int:
                started = await club.lobby.play_computer(
                    user, "goat", {}, "random", 60, False, client=user.name
                )
                game_id: int = started["game_id"]
                assert game_id in club.tables, f"game {game_id} is not running yet"
                return game_id

            games = await asyncio.gather(*(start(user) for user in users))
            assert len(set(games)) == 8
        finally:
            await club.stop()

    asyncio.run(scenario())


def test_a_restarted_node_never_takes_an_answer_meant_for_its_former_life() -> None:
    """Node a asks node b for game 1's state and dies before the slow answer comes; a again
    (same name, restarted) asks for game 2's. b's late answer about game 1 must not be taken
    for game 2's: request numbers once started at 1 in every life, and a seat was given the
    state of another game (its version, and another player's hand)."""
    from kozel.server.cluster import Forwarder
    from kozel.server.pubsub import make_pubsub

    async def scenario() -> None:
        pubsub = make_pubsub("memory://")

        async def slow(request: dict[str, Any]) -> dict[str, Any]:
            await asyncio.sleep(request["delay"])
            return {"state": {"game": request["game"]}}

        async def nothing(request: dict[str, Any]) -> dict[str, Any]:
            return {}

        b = Forwarder(pubsub, "b", slow)
        lives = [Forwarder(pubsub, "a", nothing), Forwarder(pubsub, "a", nothing)]
        runs = [asyncio.create_task(f.run()) for f in (b, lives[0])]
        await b.ready.wait()
        await lives[0].ready.wait()
        assert await lives[0].call("b", {"game": 1, "delay": 0.5}, timeout=0.1) is None
        runs[1].cancel()  # a dies; its answer is still on its way
        runs.append(asyncio.create_task(lives[1].run()))
        await lives[1].ready.wait()
        answer = await lives[1].call("b", {"game": 2, "delay": 1.0}, timeout=5)
        assert answer is not None and answer["state"] == {"game": 2}
        for run in runs:
            run.cancel()
        await asyncio.gather(*runs, return_exceptions=True)

    asyncio.run(scenario())

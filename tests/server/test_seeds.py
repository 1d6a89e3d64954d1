"""The verifiable shuffle at the club's tables (issue #25, item 5): the table publishes its
commitment before the first deal (in its state and in the lobby's list), the people at it add
their seeds, the deal waits for them, the server seed stays secret until the end, and every
record the club writes passes ``kozel verify``."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import hashlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from kozel.games import get_game
from kozel.server.club import Club
from kozel.server.db import Game, User
from kozel.server.seeds import seeded_server_seed
from kozel.server.settings import Settings
from kozel.shuffle import ALGORITHM
from kozel.verify import verify
from tests.server.client import Player, http_get, in_thread, play_to_the_end, receive
from tests.server.conftest import RunningServer, seeded
from tests.server.test_restart import Server


@pytest.fixture
def club(settings: Settings) -> Iterator[RunningServer]:
    """A club whose first deals wait two seconds for the players' seeds."""
    running = RunningServer(dataclasses.replace(settings, seed_seconds=2.0))
    try:
        yield running
    finally:
        running.stop()


def person(server: RunningServer) -> Player:
    player = Player(server.url, server.ws)
    assert player.guest().status_code == 200
    return player


def next_state(sock: ClientConnection, log: list[str] | None = None) -> dict[str, Any]:
    """The next state (an event comes as the state it leads to) or error."""
    while True:
        message = receive(sock)
        if log is not None:
            log.append(json.dumps(message))
        if message["type"] in ("state", "error"):
            return message


def error_code(sock: ClientConnection, log: list[str] | None = None) -> str:
    """The code of the next error (states that come first are passed over)."""
    while True:
        message = next_state(sock, log)
        if message["type"] == "error":
            return str(message["code"])


def seed(sock: ClientConnection, value: object) -> None:
    sock.send(json.dumps({"type": "seed", "seed": value}))


def test_the_deal_waits_for_the_seed_and_the_record_verifies(club: RunningServer) -> None:
    alice = person(club)
    table = alice.post(
        "/api/play/computer", {"game": "draw", "options": {"players": 3}, "rated": False}
    ).json()
    game = table["game_id"]
    seen: list[str] = []
    with alice.socket(game) as sock:
        first = next_state(sock, seen)
        shuffle = first["shuffle"]
        assert "view" not in first  # nothing dealt: the commitment came first
        assert shuffle["algorithm"] == ALGORITHM and shuffle["server_seed"] is None
        assert shuffle["seeds"] == [None, None, None] and len(shuffle["commitment"]) == 64
        # the lobby lists the same commitment
        live = http_get(f"{club.url}/api/live").json()
        assert next(g for g in live if g["id"] == game)["commitment"] == shuffle["commitment"]
        seed(sock, "no spaces")
        assert error_code(sock, seen) == "seed_bad"
        seed(sock, "alices-own-seed")
        seeded = next_state(sock, seen)
        assert seeded["shuffle"]["seeds"] == ["alices-own-seed", None, None]
        assert seeded["version"] == 1 and "view" not in seeded
        # hers was the only seed waited for: the deal comes at once
        dealt = next_state(sock, seen)
        assert dealt["view"]["round"] == 1 and dealt["version"] == 2
        seed(sock, "again")
        assert error_code(sock, seen) == "seed_late"
        played: list[dict[str, Any]] = []
        sock.send(json.dumps({"type": "sync"}))  # the states passed over: this one again
        last = play_to_the_end(sock, played)
        seen += [json.dumps(m) for m in played if m.get("status", "playing") == "playing"]
    record = http_get(f"{club.url}/api/games/{game}/record").json()
    server_seed = record["shuffle"]["server_seed"]
    # secret until the end: no message before it held the server seed
    assert all(server_seed not in text for text in seen)
    assert last["shuffle"]["server_seed"] == server_seed
    assert hashlib.sha256(bytes.fromhex(server_seed)).hexdigest() == shuffle["commitment"]
    assert record["shuffle"]["seeds"] == ["alices-own-seed", None, None]
    assert record["seed"] is None and verify(record).ok
    checked = http_get(f"{club.url}/api/games/{game}/shuffle").json()
    assert checked["ok"] and checked["commitment"] == shuffle["commitment"]
    assert all(r["ok"] for r in checked["rounds"]) and len(checked["rounds"]) == len(
        record["rounds"]
    )


def test_without_every_seed_the_deal_comes_when_the_time_is_over(club: RunningServer) -> None:
    alice, bob = person(club), person(club)
    request = alice.post(
        "/api/requests",
        {"game": "poker", "options": {"players": 4}, "rated": False, "private": True},
    ).json()
    bob.post(f"/api/invites/{request['code']}/join")
    game = alice.post(f"/api/requests/{request['id']}/bots", {"level": "random"}).json()["game_id"]
    with alice.socket(game) as a, bob.socket(game) as b:
        assert next_state(a)["shuffle"]["seeds"] == [None, None, None, None]
        next_state(b)
        seed(a, "a" * 64)
        assert next_state(a)["shuffle"]["seeds"] == ["a" * 64, None, None, None]
        seed(a, "b")
        assert error_code(a) == "seed_twice"
        with connect(f"{club.ws}/ws/games/{game}") as watcher:
            next_state(watcher)
            seed(watcher, "mine")
            assert error_code(watcher) == "not_seated"
        # bob adds none: two seconds on, the deal comes all the same
        dealt = next_state(a)
        while "view" not in dealt:
            dealt = next_state(a)
        assert dealt["shuffle"]["seeds"] == ["a" * 64, None, None, None]
        thread, _ = in_thread(play_to_the_end, b)
        a.send(json.dumps({"type": "sync"}))  # the states passed over: this one again
        play_to_the_end(a)
        thread.join(120)
    record = http_get(f"{club.url}/api/games/{game}/record").json()
    drawn = [m for r in record["rounds"] for m in r["moves"] if m.get("drew")]
    assert drawn  # four players, 20 tiles: every draw came from the shuffled discards
    assert verify(record).ok, verify(record)


def quietly(sock: ClientConnection) -> None:
    """Play a seat until the game ends or its socket is cut (the server is killed)."""
    with contextlib.suppress(ConnectionClosed, TimeoutError, OSError):
        play_to_the_end(sock)


def test_a_restart_keeps_the_commitment_and_the_seeds(db_url: str, tmp_path: Path) -> None:
    """A Poker table (four seats, so every draw comes from the shuffled discards) is killed
    with SIGKILL twice — while it waits for the seeds, and in the first hand before any
    draw — and started again from its stored events each time: the commitment and the seeds
    are the same, the deals and draws made after the restarts come from the same streams, and
    the record verifies."""
    server = Server(db_url, tmp_path, "--seed-seconds", "60")
    server.start()
    try:
        alice, bob = (Player(server.url, server.ws) for _ in range(2))
        for player in (alice, bob):
            assert player.guest().status_code == 200
        wanted = {"game": "poker", "options": {"players": 4}, "rated": False, "private": True}
        request = alice.post("/api/requests", wanted).json()
        bob.post(f"/api/invites/{request['code']}/join")
        game = alice.post(f"/api/requests/{request['id']}/bots", {"level": "random"}).json()
        game_id = game["game_id"]
        with alice.socket(game_id) as sock:
            committed = next_state(sock)["shuffle"]["commitment"]
            seed(sock, "alices-seed")
            assert next_state(sock)["shuffle"]["seeds"][0] == "alices-seed"
        server.kill()
        server.start()
        with alice.socket(game_id) as a, bob.socket(game_id) as b:
            after = next_state(b)
            assert after["shuffle"]["commitment"] == committed and "view" not in after
            assert after["shuffle"]["seeds"] == ["alices-seed", None, None, None]
            seed(b, "bobs-seed")  # the last seed waited for: the first hand is dealt
            thread, _ = in_thread(quietly, b)  # bob, left of the dealer, bets first
            state = next_state(a)
            while not (state.get("view") and state["view"]["turn"] == state["you"]):
                state = next_state(a)
            assert state["view"]["phase"] == "bet1" and state["view"]["hand_number"] == 1
            server.kill()  # alice's turn in the first betting round: no draw made yet
            thread.join(30)
        server.start()
        with alice.socket(game_id) as a, bob.socket(game_id) as b:
            # (bob's first state: alice, to move, plays from hers)
            assert next_state(b)["shuffle"]["commitment"] == committed
            thread, _ = in_thread(play_to_the_end, b)
            last = play_to_the_end(a)
            thread.join(120)
        assert last["status"] == "finished"
        record = http_get(f"{server.url}/api/games/{game_id}/record").json()
    finally:
        server.kill()
    assert record["shuffle"]["commitment"] == committed
    assert record["shuffle"]["seeds"] == ["alices-seed", "bobs-seed", None, None]
    # draws from the shuffled discards after the restarts (the first hand may end in folds)
    assert any(m.get("drew") for r in record["rounds"] for m in r["moves"])
    assert verify(record).ok, verify(record)


def test_a_takeover_keeps_the_commitment_and_the_seeds(db_url: str) -> None:
    """Another process takes a table over (here once its owner stopped) while it waits for
    the seeds: it rebuilds the table from the stored events with the same server seed and the
    seed added, waits for the other, deals from them both, and the record verifies."""

    async def scenario() -> dict[str, Any]:
        fast = {
            "bot_delay_ms": 0,
            "round_pause_seconds": 0,
            "seed_seconds": 60.0,
            "lease_seconds": 60.0,
        }
        a = Club(seeded(Settings(db_url=db_url, node="a", **fast)))  # type: ignore[arg-type]
        await a.start()
        async with a.sessions() as session, session.begin():
            people = [User(name=name, name_key=name, guest=True) for name in ("olga", "petr")]
            session.add_all(people)
            await session.flush()
            seats = [{"user": u.id, "name": u.name} for u in people]
            poker = get_game("poker")
            row = Game(
                game="poker",
                options=poker.options_dict(poker.options({"players": 4})),
                seats=[seats[0], {"bot": "random"}, seats[1], {"bot": "random"}],
                seconds_per_move=60,
                rated=False,
                status="playing",
                owner="a",
            )
            session.add(row)
        await a.claims.open_table(row)
        assert (await a.relay.add_seed(row.id, 0, "olgas-seed")).ok
        committed = (await a.relay.table_state(row.id, None))["shuffle"]["commitment"]
        await a.stop()
        b = Club(seeded(Settings(db_url=db_url, node="b", **fast)))  # type: ignore[arg-type]
        await b.start()
        try:
            state = await b.relay.table_state(row.id, None)
            assert state["shuffle"]["commitment"] == committed and "view" not in state
            assert state["shuffle"]["seeds"] == ["olgas-seed", None, None, None]
            assert (await b.relay.add_seed(row.id, 2, "petrs-seed")).ok
            while (state := await b.relay.table_state(row.id, None))["status"] == "playing":
                turn = state.get("view", {}).get("turn")
                mover = await b.relay.table_state(row.id, turn) if turn in (0, 2) else None
                if mover is not None and mover["view"]["legal_moves"]:
                    move = mover["view"]["legal_moves"][0]
                    await b.relay.submit(row.id, turn, move, mover["version"])
                else:
                    await asyncio.sleep(0.02)
            async with b.sessions() as session:
                found = await session.get(Game, row.id)
            assert found is not None and found.record is not None
            return found.record
        finally:
            await b.stop()

    async def bounded() -> dict[str, Any]:
        async with asyncio.timeout(120):
            return await scenario()

    record = asyncio.run(bounded())
    assert record["shuffle"]["seeds"] == ["olgas-seed", None, "petrs-seed", None]
    assert any(m.get("drew") for r in record["rounds"] for m in r["moves"])
    assert verify(record).ok, verify(record)


def seeded_game(directory: Path, seed: int) -> dict[str, Any]:
    """A short game of Draw against two random computers on a fresh club seeded with
    ``seed``, the person playing his first legal move each turn: its record."""
    directory.mkdir()
    settings = Settings(
        db_url=f"sqlite+aiosqlite:///{directory / f'club-{seed}.db'}",
        bot_delay_ms=0,
        round_pause_seconds=0,
        seed_seconds=0,
        seed=seed,
    )
    running = RunningServer(settings)
    try:
        alice = person(running)
        options = {"players": 3, "target": 50}
        asked = {"game": "draw", "options": options, "rated": False, "level": "random"}
        game = alice.post("/api/play/computer", asked).json()["game_id"]
        with alice.socket(game) as sock:
            play_to_the_end(sock)
        record: dict[str, Any] = http_get(f"{running.url}/api/games/{game}/record").json()
        return record
    finally:
        running.stop()


def test_a_seeded_club_deals_the_same_games_again(tmp_path: Path) -> None:
    """``Settings.seed`` (``kozel serve --seed``, every test's club): a new game's server
    seed is derived from the club's seed and the game's id, and so are the computers' seeds;
    it is committed, revealed and verified like any other. Two clubs of one seed play the same
    game move for move; another seed deals another."""
    one, again, other = (seeded_game(tmp_path / str(n), s) for n, s in enumerate((7, 7, 8)))
    for record in (one, again, other):
        assert verify(record).ok
    assert one["shuffle"]["server_seed"] == seeded_server_seed(7, 1)  # the club's first game
    assert other["shuffle"]["server_seed"] == seeded_server_seed(8, 1)
    assert one["rounds"] == again["rounds"] and one["result"] == again["result"]
    assert one["rounds"][0]["deal"] != other["rounds"][0]["deal"]

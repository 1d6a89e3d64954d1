"""A table follows its players: when every socket of it is in another process, its owner
hands it over there (kozel/server/club/claims.py, ``Claims.follow``). What a handover must
not do: refuse or lose a move that waited at the table while it left, or run the table
twice; and a table with a socket in its own process stays."""

from __future__ import annotations

import asyncio
import os

import pytest
from sqlalchemy import select

from kozel.server.db import GameEvent
from kozel.server.tables import seat_channel
from tests.server.test_forwarding import alice_to_move, two_nodes

REDIS = os.environ.get("KOZEL_TEST_REDIS", "")
needs_redis = pytest.mark.skipif(not REDIS, reason="KOZEL_TEST_REDIS is not set")
"""Two nodes in one test process each need their own connection to Redis, as two processes
have: through one in-memory pub/sub, each would take the other's subscribers for its own."""


@needs_redis
def test_a_move_waiting_at_a_table_that_leaves_is_played_at_its_new_owner(db_url: str) -> None:
    """Alice's only socket is in ``b``; the table, run by ``a``, is handed over to ``b``.
    Her move reached the table's queue behind the handover: the table answers that it has
    moved, and the move is passed on to ``b``, which plays it."""

    async def scenario() -> None:
        async with two_nodes(db_url, REDIS, presence_grace_seconds=0) as (a, b):
            game_id, table = await alice_to_move(a)
            version, fence = table.version, table.fence
            released = asyncio.Event()
            hand_over = a.ownership.hand_over

            async def slow_hand_over(game: int, at: int, node: str) -> bool:
                await released.wait()  # the move is queued meanwhile, behind the handover
                return await hand_over(game, at, node)

            a.ownership.hand_over = slow_hand_over  # type: ignore[method-assign]
            async with b.pubsub.subscribe(seat_channel(game_id, 0)):
                table.link("b", [0])  # b says it has her socket; a has none
                a.claims.follow(table)
                async with asyncio.timeout(10):
                    while game_id not in a.claims._moving:
                        await asyncio.sleep(0.01)
                await asyncio.sleep(0.05)  # the handover is the table's command now
                legal = table.state(0)["view"]["legal_moves"][0]
                submitted = asyncio.create_task(a.relay.submit(game_id, 0, legal, version))
                await asyncio.sleep(0.05)
                released.set()
                reply = await asyncio.wait_for(submitted, 20)
            assert reply.ok, reply
            assert game_id not in a.tables
            assert b.tables[game_id].fence == fence + 2  # a's handover, then b's claim
            async with b.sessions() as session:
                played = await session.scalar(
                    select(GameEvent).where(
                        GameEvent.game_id == game_id, GameEvent.version == version + 1
                    )
                )
            # her move is the next event, stored by b (the computer may have moved since)
            assert played is not None and played.kind == "move"
            assert played.data["seat"] == 0 and played.fence == fence + 2

    asyncio.run(scenario())


@needs_redis
def test_a_table_with_a_socket_in_its_own_process_stays(db_url: str) -> None:
    """A socket of the table in its own process (alice's other tab, a spectator): no
    handover, whatever the other processes hold."""

    async def scenario() -> None:
        async with two_nodes(db_url, REDIS, presence_grace_seconds=0) as (a, b):
            game_id, table = await alice_to_move(a)
            async with a.pubsub.subscribe(seat_channel(game_id, None)):
                table.link("b", [0])
                a.claims.follow(table)
                assert table.followed("a") is None
                await asyncio.sleep(0.2)
            assert game_id in a.tables and game_id not in b.tables
            assert table.followed("a") == "b"  # the spectator gone, b has every socket

    asyncio.run(scenario())

"""A table's messages to the seats that no other process listens to are handed to its own
process's sockets, not sent through Redis (``Table.far``, kozel/server/tables.py); a socket
that another process opens asks the table for its state once subscribed, and from then on
hears every version through Redis. Two clubs on one database, each with its own connection
to Redis, are two processes."""

from __future__ import annotations

import asyncio
import json
import os
from typing import Any

import pytest

from kozel.server.pubsub import Namespaced, Subscription
from kozel.server.tables import seat_channel
from tests.server.test_forwarding import stored_game, two_nodes

REDIS = os.environ.get("KOZEL_TEST_REDIS", "")
needs_redis = pytest.mark.skipif(not REDIS, reason="KOZEL_TEST_REDIS is not set")


async def versions(sub: Subscription, until: int) -> list[int]:
    """The versions of the events and states heard, up to ``until``."""
    heard: list[int] = []
    async with asyncio.timeout(20):
        async for text in sub:
            message = json.loads(text)
            if message["type"] in ("event", "state"):
                heard.append(message["version"])
                if message["version"] >= until:
                    return heard
    return heard


async def alices_turn(table: Any) -> None:
    async with asyncio.timeout(30):
        while table.match.to_move != 0 or table.status != "playing":
            await asyncio.sleep(0.01)


@needs_redis
def test_only_the_seats_heard_of_elsewhere_go_through_redis(db_url: str) -> None:
    async def scenario() -> None:
        async with two_nodes(db_url, REDIS, round_pause_seconds=0) as (a, b):
            assert isinstance(a.pubsub, Namespaced)
            redis, prefix = a.pubsub.inner, a.pubsub.prefix
            through_redis: list[str] = []
            publish_many = redis.publish_many

            async def counted(messages: list[tuple[str, str]]) -> None:
                through_redis.extend(channel.removeprefix(prefix) for channel, _ in messages)
                await publish_many(messages)

            redis.publish_many = counted  # type: ignore[method-assign]
            row = await stored_game(a)  # alice at seat 0, a computer player at seat 1
            watch, seat0, seat1 = (seat_channel(row.id, s) for s in (None, 0, 1))
            async with a.pubsub.subscribe(watch) as here:
                await a.claims.claim_new(row)
                table = a.tables[row.id]
                await alices_turn(table)
                # nobody elsewhere: the spectators here heard every version, none via Redis
                assert (await versions(here, table.version))[-1] == table.version
                assert table.far == set()
                assert not {watch, seat0, seat1} & set(through_redis)

                async with b.pubsub.subscribe(seat0) as there:
                    await asyncio.sleep(0.05)  # Redis confirms a subscription asynchronously
                    state = await b.relay.table_state(row.id, 0)  # from a, through Redis
                    assert table.far == {0}
                    for _ in range(3):
                        await alices_turn(table)
                        move = table.state(0)["view"]["legal_moves"][0]
                        reply = await b.relay.submit(row.id, 0, move, table.version)
                        assert reply.ok, reply
                    await alices_turn(table)
                    heard = await versions(there, table.version)
                # every version after the state, none missed, none twice
                assert heard == list(range(state["version"] + 1, table.version + 1))
                assert seat0 in through_redis
                assert not {watch, seat1} & set(through_redis)
                # the spectators here still heard every version, straight from the table
                assert (await versions(here, table.version))[-1] == table.version

    asyncio.run(scenario())


@needs_redis
def test_a_table_claimed_from_storage_asks_redis_who_listens_elsewhere(db_url: str) -> None:
    """Sockets elsewhere may have followed a table under its former owner: a table claimed
    (not born here) asks Redis which of its channels another process listens to and sends
    only those through it; its own process's subscriber is not counted as another's."""

    async def scenario() -> None:
        async with two_nodes(db_url, REDIS, round_pause_seconds=0) as (a, b):
            row = await stored_game(a)
            async with (
                b.pubsub.subscribe(seat_channel(row.id, None)) as there,
                a.pubsub.subscribe(seat_channel(row.id, 1)) as here,
            ):
                await asyncio.sleep(0.05)
                table = await a.claims.open_table(row)
                assert table.far == {None}
                await alices_turn(table)
                assert (await versions(there, table.version))[-1] == table.version
                assert (await versions(here, table.version))[-1] == table.version

    asyncio.run(scenario())

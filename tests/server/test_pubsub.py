"""Fan-out backends: in memory, and Redis when ``KOZEL_TEST_REDIS`` names a server (.ci/run
sets it to the local one; unset, the Redis tests are reported as skipped)."""

from __future__ import annotations

import asyncio
import contextlib
import os
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kozel.games import replay_layout
from kozel.server.pubsub import Inbox, MemoryPubSub, PubSub, RedisPubSub, make_pubsub
from kozel.server.settings import Settings
from tests.server.client import Player, http_get, play_to_the_end
from tests.server.conftest import RunningServer

REDIS = os.environ.get("KOZEL_TEST_REDIS", "")
needs_redis = pytest.mark.skipif(not REDIS, reason="KOZEL_TEST_REDIS is not set")


async def _round_trip(pubsub: PubSub) -> list[str]:
    got: list[str] = []
    async with pubsub.subscribe("game:1:seat:0") as sub:
        await asyncio.sleep(0.05)  # Redis confirms a subscription asynchronously
        for text in ("one", "two", "three"):
            await pubsub.publish("game:1:seat:0", text)
        await pubsub.publish("game:1:seat:1", "not for seat 0")

        async def three() -> None:
            async for message in sub:
                got.append(message)
                if len(got) == 3:
                    return

        await asyncio.wait_for(three(), 5)
    await pubsub.close()
    return got


def test_memory_fan_out_keeps_order_and_channels_apart() -> None:
    assert asyncio.run(_round_trip(MemoryPubSub())) == ["one", "two", "three"]


@needs_redis
def test_redis_fan_out_keeps_order_and_channels_apart() -> None:
    assert asyncio.run(_round_trip(RedisPubSub(REDIS))) == ["one", "two", "three"]


@given(st.lists(st.tuples(st.booleans(), st.booleans()), max_size=30))
def test_an_inbox_writes_directly_only_what_nothing_waits_before(
    steps: list[tuple[bool, bool]],
) -> None:
    """Messages go straight to the socket while it takes them and none waits in the queue;
    the ones it refuses (a full buffer) and every one after them wait for the reading task
    until the queue is empty again. Whatever the socket refuses and whenever the task reads,
    the client gets every message once, in order. Each step publishes a message, with the
    socket taking direct writes or not, and then lets the task read one, or not."""
    inbox, written = Inbox(), []
    taking = True

    def direct(message: str) -> bool:
        if taking:
            written.append(message)
        return taking

    inbox.direct = direct
    for number, (takes, read) in enumerate(steps):
        taking = takes
        inbox.put(str(number))
        if read and not inbox.queue.empty():
            message = inbox.queue.get_nowait()
            assert message is not None
            written.append(message)  # the task sends it
    while not inbox.queue.empty():
        message = inbox.queue.get_nowait()
        assert message is not None
        written.append(message)
    assert written == [str(n) for n in range(len(steps))]


def test_a_lost_connection_is_never_written_as_a_message() -> None:
    """The news that the pub/sub connection failed (``None``) always goes through the
    queue, so that the reading task raises and closes the socket."""

    async def scenario() -> str:
        inbox = Inbox()
        inbox.direct = lambda message: True
        inbox.put(None)
        try:
            async for _ in inbox:
                return "a message"
        except ConnectionError:
            return "raised"
        return "ended"

    assert asyncio.run(scenario()) == "raised"


@needs_redis
def test_redis_serves_more_subscriptions_than_a_pool_of_100() -> None:
    """A process with 150 sockets still subscribes, and still publishes (redis-py caps a
    pool at 100 connections; the subscriptions share one)."""

    async def scenario() -> list[str]:
        pubsub = RedisPubSub(REDIS)
        try:
            async with contextlib.AsyncExitStack() as stack:
                subs = [
                    await stack.enter_async_context(pubsub.subscribe(f"game:{n}:seat:0"))
                    for n in range(150)
                ]
                await asyncio.sleep(0.05)
                await pubsub.publish("game:149:seat:0", "the last one hears")
                async with asyncio.timeout(5):
                    async for message in subs[-1]:
                        return [message]
            return []
        finally:
            await pubsub.close()

    assert asyncio.run(scenario()) == ["the last one hears"]


async def _shared_channel(pubsub: PubSub) -> tuple[list[str], list[str]]:
    """Two subscribers of one channel both hear a batch, in order; once one leaves, the
    other still hears."""
    first: list[str] = []
    second: list[str] = []

    async def take(sub: object, into: list[str], count: int) -> None:
        async for message in sub:  # type: ignore[attr-defined]
            into.append(message)
            if len(into) == count:
                return

    try:
        async with pubsub.subscribe("game:7:seat:1") as one:
            async with pubsub.subscribe("game:7:seat:1") as two:
                await asyncio.sleep(0.05)
                batch = [("game:7:seat:1", "a"), ("game:7:seat:2", "x"), ("game:7:seat:1", "b")]
                await pubsub.publish_many(batch)
                await asyncio.wait_for(take(two, second, 2), 5)
            await pubsub.publish("game:7:seat:1", "c")
            await asyncio.wait_for(take(one, first, 3), 5)
    finally:
        await pubsub.close()
    return first, second


def test_memory_subscribers_of_one_channel_share_it() -> None:
    assert asyncio.run(_shared_channel(MemoryPubSub())) == (["a", "b", "c"], ["a", "b"])


@needs_redis
def test_redis_subscribers_of_one_channel_share_it() -> None:
    assert asyncio.run(_shared_channel(RedisPubSub(REDIS))) == (["a", "b", "c"], ["a", "b"])


def test_unknown_pubsub_url() -> None:
    with pytest.raises(ValueError, match="use memory:// or redis://"):
        make_pubsub("kafka://x")


@needs_redis
def test_a_whole_game_through_redis(tmp_path: Path) -> None:
    settings = Settings(
        db_url=f"sqlite+aiosqlite:///{tmp_path / 'club.db'}",
        pubsub_url=REDIS,
        bot_delay_ms=0,
        round_pause_seconds=0,
        seed_seconds=0,
    )
    server = RunningServer(settings)
    try:
        guest = Player(server.url, server.ws)
        guest.guest()
        table = guest.post(
            "/api/play/computer", {"game": "goat", "options": {"loss_limit": 30}}
        ).json()
        with guest.socket(table["game_id"]) as sock:
            final = play_to_the_end(sock)
        assert final["status"] == "finished"
        replay_layout(http_get(f"{server.url}/api/games/{table['game_id']}/record").json())
    finally:
        server.stop()


@needs_redis
def test_redis_says_which_channels_another_process_listens_to() -> None:
    """A table claimed from storage asks which of its channels another process listens to
    (``listened_elsewhere``): Redis's count less this process's own subscription, counted
    only once Redis has confirmed it and nothing has changed since; in one process, none."""

    async def scenario() -> list[list[bool]]:
        here, there = RedisPubSub(REDIS), RedisPubSub(REDIS)
        prefix = f"test:{os.getpid()}:"
        mine, theirs, both, nobodys = (prefix + n for n in ("mine", "theirs", "both", "no"))
        channels = [mine, theirs, both, nobodys]
        seen: list[list[bool]] = []
        try:
            async with contextlib.AsyncExitStack() as stack:
                await stack.enter_async_context(here.subscribe(mine))
                await stack.enter_async_context(here.subscribe(both))
                await stack.enter_async_context(there.subscribe(theirs))
                await stack.enter_async_context(there.subscribe(both))
                await asyncio.sleep(0.1)  # Redis confirms subscriptions asynchronously
                seen.append(await here.listened_elsewhere(channels))
                seen.append(await there.listened_elsewhere(channels))
            await asyncio.sleep(0.1)
            seen.append(await here.listened_elsewhere(channels))
            # nothing is kept of a channel nobody here listens to any more
            assert here.listener is not None
            assert not set(channels) & set(here.listener.changed)
        finally:
            await here.close()
            await there.close()
        return seen

    assert asyncio.run(scenario()) == [
        [False, True, True, False],
        [True, False, True, False],
        [False, False, False, False],
    ]
    memory = MemoryPubSub()
    assert asyncio.run(memory.listened_elsewhere(["a", "b"])) == [False, False]


@needs_redis
def test_an_unconfirmed_subscription_of_its_own_is_not_taken_off_the_count() -> None:
    """A subscription Redis has not answered yet might not be in its count: this process
    does not take itself off it, so another process's subscriber is never missed (the
    answer errs towards sending through Redis)."""

    async def scenario() -> list[bool]:
        here, there = RedisPubSub(REDIS), RedisPubSub(REDIS)
        channel = f"test:{os.getpid()}:unconfirmed"
        try:
            async with there.subscribe(channel):
                await asyncio.sleep(0.1)
                # a subscriber here whose SUBSCRIBE Redis has not processed: the count (1)
                # is the other process's alone, and taking one off it would miss that one
                listener = await here._listening()
                listener.add(channel, Inbox())
                listener.unanswered[channel] = 1
                return await here.listened_elsewhere([channel])
        finally:
            await here.close()
            await there.close()

    assert asyncio.run(scenario()) == [True]

"""Fan-out of table and lobby events, chosen by URL: ``memory://`` (one process, the default)
or ``redis://host:port/db`` (several processes), as lila-ws talks to lila over Redis.

Redis's publish/subscribe ignores the database number, so every channel name is prefixed
with the club's own id (:class:`Namespaced`): clubs that share a Redis never hear each other.
A subscription whose connection fails raises out of its iteration (the caller closes its
socket so that the client reconnects); :meth:`PubSub.ping` says whether the service is there.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Protocol


class Subscription(Protocol):
    def __aiter__(self) -> AsyncIterator[str]: ...


class PubSub(Protocol):
    async def publish(self, channel: str, message: str) -> None: ...

    def subscribe(self, channel: str) -> contextlib.AbstractAsyncContextManager[Subscription]: ...

    async def ping(self) -> bool: ...

    async def close(self) -> None: ...


class _Queue:
    def __init__(self) -> None:
        self.queue: asyncio.Queue[str] = asyncio.Queue(maxsize=1000)

    async def __aiter__(self) -> AsyncIterator[str]:
        while True:
            yield await self.queue.get()


class MemoryPubSub:
    """In-process fan-out: every subscriber of a channel gets every message, in order."""

    def __init__(self) -> None:
        self.channels: dict[str, set[_Queue]] = {}

    async def publish(self, channel: str, message: str) -> None:
        for sub in list(self.channels.get(channel, ())):
            if sub.queue.full():  # a reader that stopped reading loses old news, not the server
                sub.queue.get_nowait()
            sub.queue.put_nowait(message)

    @contextlib.asynccontextmanager
    async def subscribe(self, channel: str) -> AsyncIterator[Subscription]:
        sub = _Queue()
        self.channels.setdefault(channel, set()).add(sub)
        try:
            yield sub
        finally:
            subs = self.channels.get(channel)
            if subs is not None:
                subs.discard(sub)
                if not subs:
                    del self.channels[channel]

    async def ping(self) -> bool:
        return True

    async def close(self) -> None:
        self.channels.clear()


class _RedisSubscription:
    def __init__(self, pubsub: object) -> None:
        self.pubsub = pubsub

    async def __aiter__(self) -> AsyncIterator[str]:
        async for message in self.pubsub.listen():  # type: ignore[attr-defined]
            if message.get("type") == "message":
                data = message["data"]
                yield data.decode() if isinstance(data, bytes) else str(data)


MAX_SUBSCRIPTIONS = 10_000
"""Subscriptions one process may hold at once (Redis's own default limit of clients)."""


class RedisPubSub:
    """Fan-out through Redis PUBLISH/SUBSCRIBE.

    Every subscription (every open socket) holds a Redis connection of its own, taken from
    a pool apart from the one that publishes: redis-py caps a pool at 100 connections, and a
    process with more sockets than that could otherwise neither subscribe nor publish."""

    def __init__(self, url: str) -> None:
        import redis.asyncio as redis

        self.client = redis.from_url(url, socket_connect_timeout=2, health_check_interval=10)
        self.subscriber = redis.from_url(
            url,
            socket_connect_timeout=2,
            health_check_interval=10,
            max_connections=MAX_SUBSCRIPTIONS,
        )

    async def publish(self, channel: str, message: str) -> None:
        await self.client.publish(channel, message)

    @contextlib.asynccontextmanager
    async def subscribe(self, channel: str) -> AsyncIterator[Subscription]:
        pubsub = self.subscriber.pubsub()
        await pubsub.subscribe(channel)
        try:
            yield _RedisSubscription(pubsub)
        finally:
            with contextlib.suppress(Exception):  # Redis may be the reason we leave
                await pubsub.unsubscribe(channel)
            with contextlib.suppress(Exception):
                await pubsub.aclose()  # type: ignore[no-untyped-call]

    async def ping(self) -> bool:
        try:
            async with asyncio.timeout(2):
                return bool(await self.client.ping())
        except Exception:
            return False

    async def close(self) -> None:
        await self.client.aclose()
        await self.subscriber.aclose()


class Namespaced:
    """A pub/sub whose channels are all prefixed (``kozel:<club id>:``)."""

    def __init__(self, inner: PubSub, prefix: str) -> None:
        self.inner = inner
        self.prefix = prefix

    async def publish(self, channel: str, message: str) -> None:
        await self.inner.publish(self.prefix + channel, message)

    def subscribe(self, channel: str) -> contextlib.AbstractAsyncContextManager[Subscription]:
        return self.inner.subscribe(self.prefix + channel)

    async def ping(self) -> bool:
        return await self.inner.ping()

    async def close(self) -> None:
        await self.inner.close()


def make_pubsub(url: str) -> PubSub:
    """The backend a URL names; ``ValueError`` for an unknown scheme."""
    if url in ("memory://", "memory", ""):
        return MemoryPubSub()
    if url.startswith(("redis://", "rediss://", "unix://")):
        return RedisPubSub(url)
    raise ValueError(f"unknown pub/sub URL {url!r}: use memory:// or redis://host:port/db")

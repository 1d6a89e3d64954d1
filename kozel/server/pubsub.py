"""Fan-out of table and lobby events, chosen by URL: ``memory://`` (one process, the default)
or ``redis://host:port/db`` (several processes), as lila-ws talks to lila over Redis.

Redis's publish/subscribe ignores the database number, so every channel name is prefixed
with the club's own id (:class:`Namespaced`): clubs that share a Redis never hear each other.
A subscription whose connection fails raises out of its iteration (the caller closes its
socket so that the client reconnects); :meth:`PubSub.ping` says whether the service is there.
A process subscribes to Redis over one connection, however many sockets it serves.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from typing import Any, Protocol

log = logging.getLogger("kozel.pubsub")


class Subscription(Protocol):
    direct: Callable[[str], bool] | None

    def __aiter__(self) -> AsyncIterator[str]: ...


class PubSub(Protocol):
    async def publish(self, channel: str, message: str) -> None: ...

    async def publish_many(self, messages: list[tuple[str, str]]) -> None:
        """Publish ``(channel, message)`` pairs together, in order."""
        ...

    def deliver_here(self, messages: list[tuple[str, str]]) -> None:
        """Hand ``(channel, message)`` pairs to this process's own subscribers only, now
        and in order: what a table says to seats no other process listens to."""
        ...

    def subscribe(self, channel: str) -> contextlib.AbstractAsyncContextManager[Subscription]: ...

    def listening_here(self, channel: str) -> bool:
        """Whether a subscriber of this process listens to ``channel``."""
        ...

    async def listened_elsewhere(self, channels: list[str]) -> list[bool]:
        """For each channel, whether another process may be listening to it now (never
        ``False`` when one is: a subscription on its way counts as one)."""
        ...

    async def ping(self) -> bool: ...

    async def close(self) -> None: ...


class Inbox:
    """One local subscriber's messages, in order: handed straight to its socket when it has
    said how (:attr:`direct`, a synchronous write that answers whether it took the message)
    and nothing is waiting before them, else queued for the task that reads the inbox. A
    ``None`` is the news that the connection to the pub/sub failed: the iteration raises
    ``ConnectionError`` there."""

    def __init__(self) -> None:
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(maxsize=1000)
        self.direct: Callable[[str], bool] | None = None
        """Writes a message to the socket now; False when it cannot (the socket is closing,
        or its buffer is full): the message then waits in the queue, and so do those after
        it until the queue is empty again."""

    def put(self, message: str | None) -> None:
        direct = self.direct
        if direct is not None and message is not None and self.queue.empty():
            try:
                if direct(message):
                    return  # the socket has it: no task woken for it
            except Exception:  # one socket's failure is not the publisher's: its task retries
                log.exception("writing a message to a socket failed")
        if self.queue.full():  # a reader that stopped reading loses old news, not the server
            self.queue.get_nowait()
        self.queue.put_nowait(message)

    async def __aiter__(self) -> AsyncIterator[str]:
        while True:
            message = await self.queue.get()
            if message is None:
                raise ConnectionError("the connection to the pub/sub was lost")
            yield message


class MemoryPubSub:
    """In-process fan-out: every subscriber of a channel gets every message, in order."""

    def __init__(self) -> None:
        self.channels: dict[str, set[Inbox]] = {}

    async def publish(self, channel: str, message: str) -> None:
        self.deliver_here([(channel, message)])

    async def publish_many(self, messages: list[tuple[str, str]]) -> None:
        self.deliver_here(messages)

    def deliver_here(self, messages: list[tuple[str, str]]) -> None:
        for channel, message in messages:
            for sub in list(self.channels.get(channel, ())):
                sub.put(message)

    @contextlib.asynccontextmanager
    async def subscribe(self, channel: str) -> AsyncIterator[Subscription]:
        sub = Inbox()
        self.channels.setdefault(channel, set()).add(sub)
        try:
            yield sub
        finally:
            subs = self.channels.get(channel)
            if subs is not None:
                subs.discard(sub)
                if not subs:
                    del self.channels[channel]

    def listening_here(self, channel: str) -> bool:
        return bool(self.channels.get(channel))

    async def listened_elsewhere(self, channels: list[str]) -> list[bool]:
        return [False] * len(channels)  # there is no other process

    async def ping(self) -> bool:
        return True

    async def close(self) -> None:
        self.channels.clear()


_ANSWERS = (b"subscribe", b"unsubscribe")
"""Redis's answers to a subscription and its end."""


class _Listener:
    """The one connection on which a process subscribes to every channel its sockets (and
    its node channel) listen to, and the task that reads it and hands every message to the
    local subscribers of its channel. When the connection fails, every subscriber hears it
    and the listener is done; the next subscription opens a new one."""

    def __init__(self, connection: Any) -> None:
        self.connection = connection
        self.feeds: dict[str, set[Inbox]] = {}
        self.unanswered: dict[str, int] = {}
        """Per channel, the SUBSCRIBE and UNSUBSCRIBE commands Redis has not answered yet."""
        self.commands = 0
        """The SUBSCRIBE and UNSUBSCRIBE commands sent so far."""
        self.changed: dict[str, int] = {}
        """Per channel with local subscribers or an unanswered command, the number (in
        :attr:`commands`) of its last (un)subscription."""
        self.alive = True
        self.task: asyncio.Task[None] | None = None

    async def open(self) -> None:
        await self.connection.connect()
        self.task = asyncio.create_task(self._read(), name="pubsub-listener")

    def add(self, channel: str, feed: Inbox) -> bool:
        """Count ``feed`` among the channel's subscribers; True when it is the first."""
        feeds = self.feeds.setdefault(channel, set())
        feeds.add(feed)
        return len(feeds) == 1

    def remove(self, channel: str, feed: Inbox) -> bool:
        """Forget ``feed``; True when the channel has no subscriber left here."""
        feeds = self.feeds.get(channel)
        if feeds is None:
            return False
        feeds.discard(feed)
        if feeds:
            return False
        del self.feeds[channel]
        return True

    async def send(self, *command: str) -> None:
        # never on a new connection that redis-py would open in place of a broken one: it
        # would hold this channel only, and the subscribers of the others would hear nothing
        if not self.alive or not self.connection.is_connected:
            raise ConnectionError("the connection to the pub/sub was lost")
        # the command is written before the first await: commands go out in call order
        await self.connection.send_command(*command, check_health=False)
        if command[0] in ("SUBSCRIBE", "UNSUBSCRIBE"):
            for channel in command[1:]:
                self.unanswered[channel] = self.unanswered.get(channel, 0) + 1
                self.commands += 1
                self.changed[channel] = self.commands

    def subscribed(self, channel: str) -> bool:
        """Redis has this connection among the channel's subscribers: the channel has local
        subscribers and Redis has answered every (un)subscription of it."""
        return channel in self.feeds and not self.unanswered.get(channel)

    async def _read(self) -> None:
        try:
            while True:
                reply = await self.connection.read_response()
                if isinstance(reply, list) and len(reply) == 3 and reply[0] == b"message":
                    feeds = self.feeds.get(reply[1].decode())
                    if feeds:
                        text = reply[2].decode()
                        for feed in list(feeds):
                            feed.put(text)
                elif isinstance(reply, list) and reply and reply[0] in _ANSWERS:
                    channel = reply[1].decode()
                    left = self.unanswered.get(channel, 0) - 1
                    if left > 0:
                        self.unanswered[channel] = left
                    else:
                        self.unanswered.pop(channel, None)
                        if channel not in self.feeds:
                            self.changed.pop(channel, None)  # forgotten: none listens here
        except asyncio.CancelledError:
            raise
        except Exception as error:
            log.warning("the pub/sub connection failed: %s", error)
        finally:
            self.close()

    def close(self) -> None:
        """Tell every subscriber that the connection is gone."""
        self.alive = False
        for feeds in self.feeds.values():
            for feed in feeds:
                feed.put(None)
        self.feeds.clear()


class RedisPubSub:
    """Fan-out through Redis PUBLISH/SUBSCRIBE.

    A process holds **one** subscribing connection, whatever the number of its sockets: a
    channel is subscribed to once, by its first local subscriber, and its messages are
    handed out to every local subscriber (:class:`_Listener`). Publishing is batched like the
    writer's group commit: whatever the tables and the forwarder hand over while a batch is
    on its way goes out in the next one, one pipeline on one connection (:meth:`publish_many`);
    a pipeline per move cost more Python than the move itself, and a pool connection each."""

    def __init__(self, url: str) -> None:
        import redis.asyncio as redis

        self.client = redis.from_url(url, socket_connect_timeout=2, health_check_interval=10)
        # no read timeout: the subscribing connection waits for messages as long as it lives;
        # RESP2, in which a message is a plain reply (RESP3 makes it a push, read elsewhere)
        self.subscriber_pool = redis.ConnectionPool.from_url(
            url, socket_connect_timeout=2, socket_timeout=None, protocol=2
        )
        self.listener: _Listener | None = None
        self.connecting = asyncio.Lock()
        self.outbox: list[tuple[list[tuple[str, str]], asyncio.Future[None]]] = []
        """Messages waiting to be published, with the future of whoever handed them over."""
        self.sender: asyncio.Task[None] | None = None

    async def publish(self, channel: str, message: str) -> None:
        await self.publish_many([(channel, message)])

    async def publish_many(self, messages: list[tuple[str, str]]) -> None:
        """Send the messages with whatever else is waiting to go out, in one pipeline, in
        the order they were handed over; return once Redis has taken them (or raise)."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.outbox.append((messages, done))
        if self.sender is None or self.sender.done():
            self.sender = asyncio.create_task(self._send(), name="pubsub-sender")
        await done

    async def _send(self) -> None:
        """Send the outbox, batch after batch, until it is empty."""
        while self.outbox:
            batch, self.outbox = self.outbox, []
            try:
                async with self.client.pipeline(transaction=False) as pipe:
                    for messages, _ in batch:
                        for channel, message in messages:
                            pipe.publish(channel, message)
                    await pipe.execute()
            except Exception as error:
                for _, done in batch:
                    if not done.done():
                        done.set_exception(error)
                continue
            for _, done in batch:
                if not done.done():
                    done.set_result(None)

    def deliver_here(self, messages: list[tuple[str, str]]) -> None:
        listener = self.listener
        if listener is None or not listener.alive:
            return  # no subscriber here, or each has heard that the connection failed
        for channel, message in messages:
            for feed in list(listener.feeds.get(channel, ())):
                feed.put(message)

    async def _listening(self) -> _Listener:
        """The live listener, connected now if there is none; raises when Redis is away."""
        async with self.connecting:
            if self.listener is None or not self.listener.alive:
                connection = self.subscriber_pool.make_connection()  # type: ignore[no-untyped-call]
                listener = _Listener(connection)
                await listener.open()
                self.listener = listener
            return self.listener

    @contextlib.asynccontextmanager
    async def subscribe(self, channel: str) -> AsyncIterator[Subscription]:
        listener = await self._listening()
        feed = Inbox()
        try:
            if listener.add(channel, feed):
                await listener.send("SUBSCRIBE", channel)
            yield feed
        finally:
            if listener.remove(channel, feed) and listener.alive:
                with contextlib.suppress(Exception):  # Redis may be the reason we leave
                    await listener.send("UNSUBSCRIBE", channel)

    def listening_here(self, channel: str) -> bool:
        listener = self.listener
        return listener is not None and listener.alive and bool(listener.feeds.get(channel))

    async def listened_elsewhere(self, channels: list[str]) -> list[bool]:
        """Redis's count of each channel's subscribers (``PUBSUB NUMSUB``), less this
        process's own connection where it surely was one of them while Redis counted: it
        was subscribed, answered, before the count was asked and nothing changed since."""
        listener = self.listener
        before = {}
        if listener is not None and listener.alive:
            before = {c: listener.changed.get(c) for c in channels if listener.subscribed(c)}
        counts = {
            (name.decode() if isinstance(name, bytes) else str(name)): int(count)
            for name, count in await self.client.pubsub_numsub(*channels)
        }
        mine = set()
        if listener is not None and listener is self.listener and listener.alive:
            mine = {c for c, last in before.items() if listener.changed.get(c) == last}
        return [counts.get(c, 0) - (c in mine) > 0 for c in channels]

    async def ping(self) -> bool:
        try:
            async with asyncio.timeout(2):
                return bool(await self.client.ping())
        except Exception:
            return False

    async def close(self) -> None:
        if self.sender is not None:
            self.sender.cancel()
            await asyncio.gather(self.sender, return_exceptions=True)
        listener, self.listener = self.listener, None
        if listener is not None:
            if listener.task is not None:
                listener.task.cancel()
                await asyncio.gather(listener.task, return_exceptions=True)
            listener.close()
            with contextlib.suppress(Exception):
                await listener.connection.disconnect()
        await self.client.aclose()
        await self.subscriber_pool.aclose()


class Namespaced:
    """A pub/sub whose channels are all prefixed (``kozel:<club id>:``)."""

    def __init__(self, inner: PubSub, prefix: str) -> None:
        self.inner = inner
        self.prefix = prefix

    async def publish(self, channel: str, message: str) -> None:
        await self.inner.publish(self.prefix + channel, message)

    async def publish_many(self, messages: list[tuple[str, str]]) -> None:
        await self.inner.publish_many([(self.prefix + c, m) for c, m in messages])

    def deliver_here(self, messages: list[tuple[str, str]]) -> None:
        self.inner.deliver_here([(self.prefix + c, m) for c, m in messages])

    def subscribe(self, channel: str) -> contextlib.AbstractAsyncContextManager[Subscription]:
        return self.inner.subscribe(self.prefix + channel)

    def listening_here(self, channel: str) -> bool:
        return self.inner.listening_here(self.prefix + channel)

    async def listened_elsewhere(self, channels: list[str]) -> list[bool]:
        return await self.inner.listened_elsewhere([self.prefix + c for c in channels])

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

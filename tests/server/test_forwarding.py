"""A seat connected to a process that does not run its table: what reaches it, written as the
failures they stop (two clubs on one database and one in-memory pub/sub are two processes)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from kozel.core import TILE_NAMES
from kozel.games import get_game
from kozel.server.club import Club
from kozel.server.db import Game
from kozel.server.settings import Settings
from tests.server.conftest import seeded


@asynccontextmanager
async def two_nodes(
    db_url: str, pubsub_url: str | None = None, **more: Any
) -> AsyncIterator[tuple[Club, Club]]:
    """Nodes ``a`` and ``b`` of one club that reach each other: through one in-memory
    pub/sub, or each over its own connection to ``pubsub_url`` (as two processes do);
    ``more``: other settings of both."""

    def settings(node: str) -> Settings:
        fields = {"pubsub_url": pubsub_url} if pubsub_url else {}
        return seeded(
            Settings(
                db_url=db_url,
                node=node,
                lease_seconds=60,
                bot_delay_ms=0,
                seed_seconds=0,
                **fields,
                **more,
            )
        )

    a, b = Club(settings("a")), Club(settings("b"))
    if pubsub_url is None:
        b.pubsub = a.pubsub
    await a.start()
    await b.start()
    try:
        yield a, b
    finally:
        await b.stop()
        await a.stop()


async def stored_game(a: Club) -> Game:
    """A stored game of alice (seat 0) and a computer player, owned by ``a``, not yet run."""
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
    return row


async def alice_to_move(a: Club) -> tuple[int, Any]:
    """A table of alice (seat 0) and a computer player, run by ``a``, with alice to move."""
    row = await stored_game(a)
    table = await a.claims.open_table(row)
    async with asyncio.timeout(30):
        while table.match.to_move != 0:
            await asyncio.sleep(0.01)
    return row.id, table


def test_a_forwarded_refusal_keeps_its_reason_and_params(db_url: str) -> None:
    """On the owning process an illegal move is answered with ``reason: not_held`` and the
    tile; through another process only the code and the English message arrived, and the
    browser showed a generic text."""

    async def scenario() -> None:
        async with two_nodes(db_url) as (a, b):
            game_id, table = await alice_to_move(a)
            held = set(table.match.view(0).hand)
            tile = next(TILE_NAMES[t] for t in range(len(TILE_NAMES)) if t not in held)
            move = {"play": tile, "arm": 0} if table.match.view(0).arms else {"play": tile}
            here = await a.relay.submit(game_id, 0, move, table.version)
            there = await b.relay.submit(game_id, 0, move, table.version)
            assert (here.code, here.reason, here.params) == ("illegal", "not_held", {"tile": tile})
            assert (there.ok, there.code, there.reason, there.params) == (
                here.ok,
                here.code,
                here.reason,
                here.params,
            )

    asyncio.run(scenario())


def test_a_database_outage_answers_a_forwarded_move_unavailable(db_url: str) -> None:
    """With the database away, a non-owner looking up a table's owner raised
    ``ConnectionRefusedError`` out of the socket's handler (the socket dropped with 1006);
    the move is answered ``unavailable`` and the client sends it again later."""

    async def scenario() -> None:
        async with two_nodes(db_url) as (a, b):
            game_id, table = await alice_to_move(a)

            async def refused(*_: object) -> None:
                raise ConnectionRefusedError(111, "Connection refused")

            original = b.ownership.owner_of
            b.ownership.owner_of = refused  # type: ignore[method-assign,assignment]
            try:
                reply = await b.relay.submit(game_id, 0, {"knock": True}, table.version)
                assert (reply.ok, reply.code) == (False, "unavailable")
            finally:
                b.ownership.owner_of = original  # type: ignore[method-assign]

    asyncio.run(scenario())


def test_a_socket_opened_while_its_table_is_being_claimed_waits_for_it(db_url: str) -> None:
    """A request's game is stored before its table runs: the player polling the request saw
    the game, opened its socket before the claim was done, and was closed with 1013 ("the
    table is moving") by the process that owns the table. The owner waits for its claim and
    answers."""

    async def scenario() -> None:
        async with two_nodes(db_url) as (a, _):
            row = await stored_game(a)  # a's loop that claims its tables runs every 12 s

            async def claim_later() -> None:
                await asyncio.sleep(0.3)
                await a.claims.claim_new(row)

            claiming = asyncio.create_task(claim_later())
            state = await a.relay.table_state(row.id, 0)
            await claiming
            assert (state["game"], state["you"]) == (row.id, 0)

    asyncio.run(scenario())

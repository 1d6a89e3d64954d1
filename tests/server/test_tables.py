"""A table's published messages are its states: built together for every seat, written as
JSON once where the seats share a value, they must say exactly what :meth:`Table.state`
says to each seat, whatever the game and the moment."""

from __future__ import annotations

import asyncio
import json
import random
from types import SimpleNamespace
from typing import Any

import pytest

from kozel.games import get_game
from kozel.server.pubsub import MemoryPubSub
from kozel.server.tables import Table, seat_channel
from kozel.server.writer import Writer


def table_of(game: str, options: dict[str, Any]) -> Table:
    rules = get_game(game)
    opts = rules.options(options)
    row = SimpleNamespace(
        id=7,
        fence=1,
        game=game,
        options=rules.options_dict(opts),
        seats=[{"user": s, "name": f"p{s}"} for s in range(opts.players)],
        seconds_per_move=60,
        rated=False,
        status="playing",
        tournament_id=None,
        server_seed=None,
    )
    return Table(row, Writer(None), MemoryPubSub())  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("goat", {"loss_limit": 101}),
        ("donkey", {}),
        ("all_fives", {}),
        ("sea_goat", {}),
        ("bergen", {}),
    ],
)
def test_published_messages_are_the_seats_states(game: str, options: dict[str, Any]) -> None:
    async def scenario() -> None:
        table = table_of(game, options)
        rng = random.Random(5)
        checked = 0
        while not table.match.over and checked < 400:
            if table.match.needs_deal:
                table.match.deal_next()
            else:
                table.match.push(rng.choice(table.match.legal_moves()))
            table.version += 1
            seats = [*range(table.opts.players), None]
            messages = table._messages()
            assert [channel for channel, _ in messages] == [seat_channel(7, s) for s in seats]
            for seat, (_, text) in zip(seats, messages, strict=True):
                published, state = json.loads(text), table.state(seat)
                published.pop("clock", None), state.pop("clock", None)  # the time moves on
                assert published == state
            checked += 1
        assert checked > 5

    asyncio.run(scenario())

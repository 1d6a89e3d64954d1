"""A table's published messages: after every event each seat and the spectators receive a
patch, and the patch turns the state each held into exactly the state :meth:`Table.state`
says now, whatever the game and the moment. The states are built for every seat at once
(sharing what they have in common); ``tests/test_views.py`` checks those views against
each seat's own view."""

from __future__ import annotations

import asyncio
import json
import random
from types import SimpleNamespace
from typing import Any

import pytest

from kozel import patch
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


def timeless(state: dict[str, Any]) -> str:
    """A state as JSON text with its clocks' time left taken out (the time moves on)."""
    state = dict(state)
    for key in ("clock", "next_round"):
        if key in state:
            state[key] = {k: v for k, v in state[key].items() if k != "remaining_ms"}
    return json.dumps(state, sort_keys=True)


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("goat", {"loss_limit": 101}),
        ("donkey", {}),
        ("all_fives", {}),
        ("sea_goat", {}),
        ("bergen", {}),
        ("bykovo", {}),
        ("poker", {"players": 3, "hands": 4}),
        ("trumps", {"target": 60}),
    ],
)
def test_each_event_patches_every_seat_to_its_new_state(game: str, options: dict[str, Any]) -> None:
    async def scenario() -> None:
        table = table_of(game, options)
        seats = [*range(table.opts.players), None]
        held = [table.state(seat) for seat in seats]  # what a socket gets on connecting
        rng = random.Random(5)
        events, sizes = 0, []
        while not table.match.over and events < 400:
            if table.match.needs_deal:
                table.match.deal_next()
                kind = "deal"
            else:
                table.match.push(rng.choice(table.match.legal_moves()))
                kind = "move"
            table.version += 1
            messages = table._messages(kind)
            assert [channel for channel, _ in messages] == [seat_channel(7, s) for s in seats]
            for index, (seat, (_, text)) in enumerate(zip(seats, messages, strict=True)):
                event = json.loads(text)
                assert event.keys() == {"type", "game", "version", "kind", "patch"}
                assert (event["type"], event["version"], event["kind"]) == (
                    "event",
                    table.version,
                    kind,
                )
                held[index] = {**patch.apply(held[index], event["patch"]), "version": table.version}
                assert timeless(held[index]) == timeless(table.state(seat))
                if kind == "move":
                    sizes.append(len(text.encode()))
            events += 1
        assert events > 5
        # a move's message says what changed, not the whole state
        assert max(sizes) < len(json.dumps(table.state(0)))

    asyncio.run(scenario())


def test_a_table_that_starts_again_sends_whole_states() -> None:
    """A table rebuilt by another process has sent nothing yet: its first message to each
    channel is the whole state, whatever the clients held before."""

    async def scenario() -> None:
        table = table_of("goat", {})
        table.match.deal_next()
        table.version = 1
        first = table._messages("deal")
        assert {json.loads(text)["type"] for _, text in first} == {"state"}
        table.match.push(table.match.legal_moves()[0])
        table.version = 2
        assert {json.loads(text)["type"] for _, text in table._messages("move")} == {"event"}

    asyncio.run(scenario())

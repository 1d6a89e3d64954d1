"""Hidden information: hundreds of bot games played through the club's fan-out, no message
sent to a seat names another seat's tile or a tile still in the bazaar, and no message sent to
the spectators names a tile in anyone's hand. The channels carry a whole state first and then
an event (a patch) per version: each message's own text is searched for tiles, and the state
the channel's client holds after it (the events applied) is checked whole.

The tables run in-process (the real :class:`~kozel.server.club.Club`, its pub/sub and its
database) so that hundreds of games fit in well under a minute; every message published on every
seat's channel and on the spectators' channel is checked against the truth, which the test
rebuilds on its own from the events the table stored (the deal's hands and bazaar, then each
play, draw and knock), not from the engine.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from kozel.games import get_game
from kozel.server.club import Club
from kozel.server.db import Game, GameEvent
from kozel.server.pubsub import Subscription
from kozel.server.settings import Settings
from kozel.server.tables import load_events, seat_channel
from tests.server.client import Held
from tests.server.conftest import seeded

TILE = re.compile(r"\b[0-6]-[0-6]\b")
ALL_TILES = frozenset(f"{a}-{b}" for a in range(7) for b in range(a, 7))

SHORT = {"loss_limit": 10, "open_threshold": 1}
"""A game of one to three rounds."""
VARIANTS: list[tuple[str, dict[str, Any]]] = [
    # two and three players leave a bazaar: draws happen, with and without a reserve
    ("goat", {"players": 2, **SHORT}),
    ("goat", {"players": 3, "bazaar_reserve": 1, **SHORT}),
    ("donkey", {"players": 2, "bazaar_reserve": 2, **SHORT}),
    ("donkey", {"players": 3, **SHORT}),
    ("goat", {"players": 4, **SHORT}),
    ("goat", {"players": 4, "teams": True, "special_doubles": True, **SHORT}),
    ("donkey", {"players": 3, "fish_mode": "everyone", **SHORT}),
    ("goat", {"players": 2, "loss_limit": 25}),  # longer games: several deals each
    # the winner-scoring games: Block's undealt tiles are never drawn and never shown
    ("draw", {"players": 3, "target": 30}),
    ("block", {"players": 2, "target": 30}),
    ("classic", {"players": 4, "teams": True, "target": 60}),
    ("sea_goat", {"players": 3, "target": 30, "open_at": 10}),
    # the games that score during play: the seat to move also gets the hint of its own lays
    ("all_fives", {"players": 2, "target": 30}),
    ("bergen", {"players": 3, "target": 5}),
    # Bykovo: all 28 tiles dealt, passes on any turn, one deal
    ("bykovo", {}),
]
LEVELS = ["random", "greedy"]
AT_ONCE = 4
"""Tables played at the same time (their database writes and bots overlap)."""
GAME_TIMEOUT = 60.0
SECONDS_PER_MOVE = 600


@dataclass
class Truth:
    """Where every tile is after one stored event."""

    hands: list[frozenset[str]]
    undrawn: frozenset[str]
    table: frozenset[str]


@dataclass
class Tally:
    games: int = 0
    messages: int = 0
    deals: int = 0
    tiles_seen: int = 0
    draws: int = 0
    finished: int = 0
    shown: int = 0
    variants: set[str] = field(default_factory=set)


def truth_by_version(events: list[GameEvent]) -> dict[int, Truth]:
    """Replay stored events by hand: a deal sets hands and bazaar; a play moves a tile from a
    hand to the table; a draw moves the next bazaar tile into the drawer's hand."""
    out: dict[int, Truth] = {}
    hands: list[set[str]] = []
    bazaar: list[str] = []
    drawn = 0
    table: set[str] = set()
    for event in events:
        data = event.data
        if event.kind == "deal":
            hands = [set(hand) for hand in data["hands"]]
            bazaar = list(data["bazaar"])
            drawn = 0
            table = set()
        elif event.kind == "move":
            seat, move = data["seat"], data["move"]
            plays = [d["tile"] for d in move["doubles"]] if "doubles" in move else []
            if "play" in move:
                plays.append(move["play"])
            for tile in plays:
                hands[seat].remove(tile)
                table.add(tile)
            if move.get("draw"):
                hands[seat].add(bazaar[drawn])
                drawn += 1
        else:  # a computer player taking a seat moves no tile
            assert event.kind in ("timeout", "replace"), event.kind
        everything = [t for hand in hands for t in hand] + bazaar[drawn:] + sorted(table)
        assert sorted(everything) == sorted(ALL_TILES), f"version {event.version}: tiles lost"
        out[event.version] = Truth(
            [frozenset(h) for h in hands], frozenset(bazaar[drawn:]), frozenset(table)
        )
    return out


def layout_tiles(view: dict[str, Any]) -> set[str]:
    layout = view["layout"]
    tiles = {t for arm in layout["arms"] for t in arm["tiles"]}
    if layout["first"]:
        tiles.add(layout["first"])
    return tiles


Received = tuple[float, str, dict[str, Any]]
"""A message as one channel carried it: when it arrived (``time.time()``), its text but the
hands turned face up at a round's end (checked apart), and the state its client holds after
it (a whole state, or the held state with an event applied)."""


def unshown(message: dict[str, Any]) -> str:
    """A message's text without the hands a finished round turns face up (``shown``, whole
    or a member of it): the rest must name no hidden tile."""
    if message["type"] == "event":
        ops = [op for op in message["patch"] if op[0].split("/")[1] != "shown"]
        return json.dumps({**message, "patch": ops})
    return json.dumps({k: v for k, v in message.items() if k != "shown"})


def follow(held: Held, text: str, out: list[Received]) -> dict[str, Any] | None:
    """Take one message of a channel: the state it leads to (``None`` for presence and the
    like), kept in ``out`` with the message's text. An event that does not follow the state
    held is a lost message."""
    message = json.loads(text)
    state = held.take(message)
    if message["type"] == "event":
        assert state is not None, (
            f"version {message['version']} after {held.state and held.state['version']}"
        )
    if state is not None:
        out.append((time.time(), unshown(message), state))
    return state


Inspect = Callable[[int | None, list[Received], list[GameEvent], Tally, str | None], None]
"""Checks one channel's messages against the game's stored events (and its shuffle's server
seed: a Poker hand's draws from the shuffled discards come from its stream)."""


def check_channel(
    seat: int | None,
    received: list[Received],
    events: list[GameEvent],
    tally: Tally,
    _server_seed: str | None,
) -> None:
    """Every message one channel carried, against the truth at the message's version (a
    layout game's stored deals hold every chance of their rounds)."""
    truth = truth_by_version(events)
    final = events[-1].version
    who = "spectators" if seat is None else f"seat {seat}"
    versions: dict[int, dict[str, Any]] = {}
    last = 0
    for _, text, message in received:
        assert message["type"] == "state" and message["you"] == seat
        version = message["version"]
        assert version >= last, f"{who}: version {version} after {last}"
        same = {k: v for k, v in message.items() if k != "clock"}  # see test_clocks
        if version in versions:  # a repeat is harmless only if it is the very same state
            assert versions[version] == same, f"{who}: two different states at {version}"
        versions[version] = same
        last = version
        if "shown" in message:
            # a finished round's hands are turned face up — only once it is over, and only
            # the hands (never the bazaar); the rest of the message is checked as always
            over = version == final or events[version].kind == "deal"
            assert over, f"{who} at {version}: hands shown during a round"
            shown = [frozenset(hand) for hand in message["shown"]]
            assert shown == truth[version].hands, f"{who} at {version}: wrong hands shown"
            tally.shown += 1
        named = set(TILE.findall(text))
        if version == 0:  # a table may announce itself before its first deal
            assert "view" not in message and not named, f"{who}: tiles before the deal"
            continue
        at = truth[version]
        hidden = at.undrawn.union(*(h for s, h in enumerate(at.hands) if s != seat))
        leaked = named & hidden
        assert not leaked, f"{who} at version {version} was sent hidden tiles {sorted(leaked)}"
        own = at.hands[seat] if seat is not None else frozenset()
        assert named <= own | at.table, f"{who} at {version}: {sorted(named - own - at.table)}"
        view = message["view"]
        assert sorted(view["hand"]) == sorted(own), f"{who} at {version}: wrong hand"
        assert layout_tiles(view) == at.table, f"{who} at {version}: wrong layout"
        if message["status"] != "playing":
            assert "result" in message and version == final
        tally.messages += 1
        tally.tiles_seen += len(named)
    # the memory fan-out drops old messages when a reader falls behind: none may be missing
    assert sorted(versions.keys() - {0}) == list(range(1, final + 1)), f"{who}: lost messages"


async def collect(sub: Subscription, out: list[Received]) -> None:
    """Read one channel until the game's last state."""
    held = Held()
    async for text in sub:
        state = follow(held, text, out)
        if state is not None and state["status"] != "playing":
            return


async def play_one(
    club: Club,
    game: str,
    options: dict[str, Any],
    levels: list[str],
    inspect: Inspect,
    tally: Tally,
) -> None:
    """One game of computer players only, every channel read from before the first message."""
    rules = get_game(game)
    opts = rules.options(options)
    channels: list[int | None] = [*range(opts.players), None]
    row = await club.new_games.bot_game(game, options, levels, SECONDS_PER_MOVE)
    received: dict[int | None, list[Received]] = {seat: [] for seat in channels}
    async with contextlib.AsyncExitStack() as stack:
        subs = [
            await stack.enter_async_context(club.pubsub.subscribe(seat_channel(row.id, seat)))
            for seat in channels
        ]
        # open the table only now, after subscribing, so that not even its first message is missed
        await club.claims.open_table(row)
        async with asyncio.timeout(GAME_TIMEOUT), asyncio.TaskGroup() as readers:
            for seat, sub in zip(channels, subs, strict=True):
                readers.create_task(collect(sub, received[seat]))
    events = await load_events(club.sessions, row.id)
    assert [e.version for e in events] == list(range(1, len(events) + 1))
    assert (await club.queries.game_row(row.id)).version == len(events)
    for seat in channels:
        inspect(seat, received[seat], events, tally, row.server_seed)
    tally.games += 1
    tally.deals += sum(1 for e in events if e.kind == "deal")
    tally.draws += sum(1 for e in events if e.kind == "move" and e.data["move"].get("draw"))
    tally.finished += received[None][-1][2]["status"] == "finished"
    tally.variants.add(f"{game} {options}")


async def play_many(
    db_url: str, games: list[tuple[str, dict[str, Any], list[str]]], inspect: Inspect
) -> Tally:
    club = Club(seeded(Settings(db_url=db_url, bot_delay_ms=0, seed_seconds=0)))
    await club.start()
    tally = Tally()
    try:
        gate = asyncio.Semaphore(AT_ONCE)

        async def gated(game: str, options: dict[str, Any], levels: list[str]) -> None:
            async with gate:
                await play_one(club, game, options, levels, inspect, tally)

        async with asyncio.TaskGroup() as group:  # the first failure cancels the rest
            for game, options, levels in games:
                group.create_task(gated(game, options, levels))
    finally:
        await club.stop()
    return tally


def test_no_message_names_a_hidden_tile(db_url: str) -> None:
    count = 280 if db_url.startswith("sqlite") else 56
    games = [
        (*VARIANTS[n % len(VARIANTS)], [LEVELS[n % 2], LEVELS[(n // 2) % 2]]) for n in range(count)
    ]
    started = time.perf_counter()
    tally = asyncio.run(play_many(db_url, games, check_channel))
    elapsed = time.perf_counter() - started
    print(
        f"\n{tally.games} games, {tally.deals} deals, {tally.draws} draws, "
        f"{tally.messages} messages in {elapsed:.1f} s on {db_url.split(':')[0]}"
    )
    assert tally.games == count
    assert tally.variants == {f"{g} {o}" for g, o in VARIANTS}
    # the checks had something to check: hands were sent, several rounds were dealt, the
    # bazaar was drawn from, and the games ended by the rules (no clock ran out)
    assert tally.tiles_seen > 0 and tally.deals > count and tally.draws > 0
    assert tally.finished == count
    assert tally.shown >= tally.deals  # every round's end was shown on every channel


def check_clocks(
    seat: int | None,
    received: list[Received],
    events: list[GameEvent],
    tally: Tally,
    _server_seed: str | None,
) -> None:
    """A state's clock belongs to the turn it shows: it runs from that state's event on."""
    stored = {e.version: _aware(e.at).timestamp() for e in events}
    for _arrived, _text, message in received:
        if "clock" not in message:
            continue
        version, clock = message["version"], message["clock"]
        assert clock["seat"] == message["view"]["turn"]
        earliest = int((stored[version] + SECONDS_PER_MOVE) * 1000)
        assert clock["deadline_ms"] >= earliest, (
            f"seat {seat}, version {version} ({events[version - 1].kind}): the clock runs out at "
            f"{clock['deadline_ms']}, {earliest - clock['deadline_ms']} ms before the turn's "
            "time is up"
        )
        tally.messages += 1


def test_clocks(tmp_path: Path) -> None:
    """Every state sent carries the deadline of the turn it shows (not the previous turn's).

    A computer player that thinks 200 ms makes a stale deadline visible."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'club.db'}"
    games = [("goat", {"players": 2, **SHORT}, ["expert:200", "random"])] * 2
    tally = asyncio.run(play_many(url, games, check_clocks))
    assert tally.games == 2


def _aware(stamp: datetime) -> datetime:
    return stamp if stamp.tzinfo else stamp.replace(tzinfo=UTC)


@pytest.mark.parametrize("seat", [0, None])
def test_the_check_catches_a_leak(seat: int | None) -> None:
    """The channel check fails on a message naming another seat's tile or a bazaar tile (for
    spectators: any tile not on the table), so the test above can fail."""
    hands = [["0-0", "0-1", "0-2", "0-3", "0-4", "0-5", "0-6"], ["1-1", "1-2", "1-3"]]
    rest = sorted(ALL_TILES - set(hands[0]) - set(hands[1]))
    hands[1] += rest[:4]
    deal = {"hands": hands, "bazaar": rest[4:], "redeals": 0}
    events = [GameEvent(game_id=1, version=1, kind="deal", data=deal)]
    view = {"hand": hands[0] if seat == 0 else [], "layout": {"first": None, "arms": []}}
    honest = {"type": "state", "version": 1, "status": "playing", "you": seat, "view": view}
    check_channel(seat, [(0.0, json.dumps(honest), honest)], events, Tally(), None)
    for hidden in ("1-1", rest[-1]):
        leaky = {**honest, "view": {**view, "history": [{"seat": 1, "draw": hidden}]}}
        with pytest.raises(AssertionError, match="hidden tiles"):
            check_channel(seat, [(0.0, json.dumps(leaky), leaky)], events, Tally(), None)
        # an event: its patch names the tile, whatever the state it leads to
        received: list[Received] = []
        held = Held()
        follow(held, json.dumps({**honest, "version": 0}), received)
        ops = [["/view/history", []], ["/view/history/-", {"seat": 1, "draw": True}]]
        event = {"type": "event", "game": 1, "version": 1, "kind": "move", "patch": ops}
        event["patch"].append(["/note", hidden])  # planted beside an honest patch
        follow(held, json.dumps(event), received)
        with pytest.raises(AssertionError, match="hidden tiles"):
            check_channel(seat, received[1:], events, Tally(), None)


PRESENCE_KEYS = {"type", "game", "version", "connected", "replaced", "votes"}


def test_presence_and_a_computer_taking_a_seat_leak_nothing(tmp_path: Path) -> None:
    """A table of two people and a computer: seat 1 never comes, seat 0 lets a computer take
    it and plays on. The presence messages name no tile and say only who is connected, who
    was replaced and the votes; every state, before and after the takeover, passes the
    channel check (the new computer sees only its own seat's tiles, on its own channel)."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'club.db'}"

    async def play() -> tuple[
        dict[int | None, list[Received]], dict[int | None, list[str]], list[GameEvent]
    ]:
        settings = Settings(db_url=url, bot_delay_ms=0, presence_grace_seconds=0.05, seed_seconds=0)
        club = Club(seeded(settings))
        await club.start()
        try:
            rules = get_game("goat")
            options = rules.options_dict(rules.options({"players": 3, **SHORT}))
            people = [{"user": 1, "name": "olga"}, {"user": 2, "name": "petr"}]
            async with club.sessions() as session, session.begin():
                row = Game(
                    game="goat",
                    options=options,
                    seats=[*people, {"bot": "random"}],
                    seconds_per_move=SECONDS_PER_MOVE,
                    rated=False,
                    status="playing",
                    version=0,
                    owner=club.node,
                    fence=0,
                )
                session.add(row)
            channels: list[int | None] = [0, 1, 2, None]
            received: dict[int | None, list[Received]] = {seat: [] for seat in channels}
            presence: dict[int | None, list[str]] = {seat: [] for seat in channels}
            async with contextlib.AsyncExitStack() as stack:
                subs = [
                    await stack.enter_async_context(club.pubsub.subscribe(seat_channel(row.id, s)))
                    for s in channels
                ]
                await club.claims.open_table(row)
                club.relay.socket_opened(row.id, 0)

                async def read(seat: int | None, sub: Subscription) -> None:
                    voted = False
                    held = Held()
                    async for text in sub:
                        raw = json.loads(text)
                        if raw["type"] == "presence":
                            presence[seat].append(text)
                        message = follow(held, text, received[seat])
                        if message is None or message["status"] != "playing":
                            if (
                                seat == 0
                                and held.state is not None
                                and held.state["connected"][1] is False
                                and not voted
                            ):
                                voted = True
                                assert (await club.relay.vote(row.id, 0, 1)).ok
                            if message is not None:
                                return
                            continue
                        view = message.get("view")
                        if seat == 0 and view and view["turn"] == 0 and view["legal_moves"]:
                            move = view["legal_moves"][0]
                            await club.relay.submit(row.id, 0, move, message["version"])

                async with asyncio.timeout(GAME_TIMEOUT), asyncio.TaskGroup() as readers:
                    for seat, sub in zip(channels, subs, strict=True):
                        readers.create_task(read(seat, sub))
            return received, presence, await load_events(club.sessions, row.id)
        finally:
            await club.stop()

    received, presence, events = asyncio.run(play())
    assert [e.kind for e in events].count("replace") == 1
    tally = Tally()
    for seat, states in received.items():
        assert presence[seat]
        for text in presence[seat]:
            assert set(json.loads(text)) == PRESENCE_KEYS and not TILE.findall(text), text
        last = states[-1][2]
        assert last["seats"][1] == "bot:expert" and last["replaced"] == [None, "petr", None]
        check_channel(seat, states, events, tally, None)
    assert tally.messages > 0

"""What a move costs on the wire: the bytes each seat's channel receives per event.

It plays games at a table of the club without a server around it (the table's own message
builder, as the sockets would get it, on the in-memory fan-out), the players choosing random
legal moves from a seeded generator, and measures every message of every seat's channel: the
event after a move (a patch of the seat's state), the event after a deal, and beside them the
whole state a seat would have been sent instead (what the club sent after every event before
events). It prints, per game, the median and largest bytes per move per seat at round 1 and at
round 10 (a round is a hand in Poker and Trumps), and over the whole game.

    .venv/bin/python bench/message_sizes.py [--games goat,poker,trumps] [--seed 1] [--json]

Goat is played to a loss limit of 1,000, as the load benchmark plays it (long games).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
from collections import defaultdict
from types import SimpleNamespace
from typing import Any
from unittest import mock

from kozel.games import get_game
from kozel.server import tables
from kozel.server.pubsub import MemoryPubSub
from kozel.server.tables import Table
from kozel.server.writer import Writer

OPTIONS: dict[str, dict[str, Any]] = {
    "goat": {"players": 4, "loss_limit": 1000},
    "donkey": {"players": 4, "loss_limit": 1000},
    "all_fives": {"players": 4, "target": 1000},
    "poker": {"players": 4, "hands": 40},
    "trumps": {"target": 1000},
}
ROUNDS = (1, 10)


def table_of(game: str, seed: int) -> Table:
    rules = get_game(game)
    opts = rules.options(OPTIONS.get(game, {}))
    row = SimpleNamespace(
        id=1000,
        fence=1,
        game=game,
        options=rules.options_dict(opts),
        seats=[{"user": s, "name": f"player{s}"} for s in range(opts.players)],
        seconds_per_move=60,
        rated=False,
        status="playing",
        tournament_id=None,
        server_seed="0" * 64,
    )
    table = Table(row, Writer(None), MemoryPubSub())  # type: ignore[arg-type]
    table.match = rules.new_match(opts, seed)
    return table


PACE = 2.5
"""Seconds between two events on the table's clock: a person's pace."""


def measure(game: str, seed: int, max_rounds: int) -> dict[str, Any]:
    """Play one game (or its first ``max_rounds`` rounds): every seat's bytes per event. The
    table reads a steady clock (:data:`PACE` a move), not the machine's: an event carries the
    clock whole when its deadline moved, and on the wall clock that depended on whether two
    moves fell in the same millisecond, so on how fast the machine ran."""
    now = [1_800_000_000.0]
    with mock.patch.object(tables, "time", SimpleNamespace(time=lambda: now[0])):
        return _measure(game, seed, max_rounds, now)


def _measure(game: str, seed: int, max_rounds: int, now: list[float]) -> dict[str, Any]:
    table = table_of(game, seed)
    rng = random.Random(seed)
    moves: dict[int, list[int]] = defaultdict(list)
    """Per round, the bytes of each seat's event after a move."""
    states: dict[int, list[int]] = defaultdict(list)
    """Per round, the bytes of the whole state each seat would have been sent instead."""
    deals: list[int] = []
    plain: list[int] = []
    """The bytes of each seat's event after a move that did not end its round."""
    players = table.opts.players
    table.state(0)  # the states clients hold on connecting: the base of the first event
    while not table.match.over:
        if table.match.needs_deal:
            if table.match.progress()[0] >= max_rounds:
                break
            table.match.deal_next()
            kind = "deal"
        else:
            table.match.push(rng.choice(list(table.match.legal_moves())))
            kind = "move"
        table.version += 1
        now[0] += PACE
        table.deadline = now[0] + table.seconds_per_move  # the clock runs anew
        messages = table._messages(kind)
        round_number = table.match.progress()[0]
        for seat in range(players):
            size = len(messages[seat][1].encode())
            if kind == "deal":
                deals.append(size)
            else:
                moves[round_number].append(size)
                if not (table.match.needs_deal or table.match.over):
                    plain.append(size)
                states[round_number].append(len(json.dumps(table.state(seat)).encode()))
    every = [size for sizes in moves.values() for size in sizes]
    result: dict[str, Any] = {
        "game": game,
        "rounds": max(moves, default=0),
        "moves": len(every) // players,
        "event_median": statistics.median(every),
        "event_p95": statistics.quantiles(every, n=20)[-1],
        "event_max": max(every),
        "event_max_in_round": max(plain),
        "deal_median": statistics.median(deals),
        "deal_max": max(deals),
    }
    for n in ROUNDS:
        if n in moves:
            result[f"round{n}_event_median"] = statistics.median(moves[n])
            result[f"round{n}_event_max"] = max(moves[n])
            result[f"round{n}_state_median"] = statistics.median(states[n])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default="goat,donkey,all_fives,poker,trumps")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=12, help="stop after this many rounds")
    parser.add_argument("--json", action="store_true", help="one JSON line per game")
    args = parser.parse_args()

    async def run() -> list[dict[str, Any]]:
        return [measure(game, args.seed, args.rounds) for game in args.games.split(",")]

    results = asyncio.run(run())
    if args.json:
        for result in results:
            print(json.dumps(result))
        return
    print("bytes per move per seat (events), and the whole state it replaces")
    print(
        f"{'game':10} {'rounds':>6} {'median':>7} {'p95':>5} {'max*':>5} {'max':>6} "
        f"{'r1 med':>7} {'r1 max':>7} {'r10 med':>8} {'r10 max':>8} {'state r1':>9} "
        f"{'state r10':>10} {'deal med':>9}"
    )
    for r in results:

        def cell(key: str, width: int, result: dict[str, Any] = r) -> str:
            value = result.get(key)
            return f"{value:>{width}.0f}" if value is not None else f"{'-':>{width}}"

        print(
            f"{r['game']:10} {r['rounds']:>6} {cell('event_median', 7)} {cell('event_p95', 5)} "
            f"{cell('event_max_in_round', 5)} {cell('event_max', 6)} "
            f"{cell('round1_event_median', 7)} {cell('round1_event_max', 7)} "
            f"{cell('round10_event_median', 8)} {cell('round10_event_max', 8)} "
            f"{cell('round1_state_median', 9)} {cell('round10_state_median', 10)} "
            f"{cell('deal_median', 9)}"
        )
    print("max*: the largest event after a move that did not end its round; max: with the")
    print("moves that ended one (they carry the round's summary, once, and the hands shown)")


if __name__ == "__main__":
    main()

"""Connect your own bot to a Kozel club: the starting point for bot authors.

It logs in (or plays as a guest), opens a table against the club's computer players — or takes
a seat at a friend's table by its link —, plays a whole game over the WebSocket with a local
bot that sees only what its seat is sent, and writes the finished game's record
(kozel-record/1). Before the first deal it adds a seed of its own to the table's verifiable
shuffle, and at the end it derives every deal again from the revealed seeds (`kozel verify`).
Run a club with `make run` first, then:

    python examples/bot_client.py --server http://127.0.0.1:8000 --game goat \\
        [-o key=value ...] [--name NAME --password PASSWORD] [--bot greedy] --record OUT.jsonl

or, to sit down at the table a link leads to (a friend's private table too), at seat 2, and
play it again twice when it is over (the rematch: everyone at the table must accept):

    python examples/bot_client.py --join http://127.0.0.1:8000/invite/CODE --seat 2 \\
        --rematches 2 --record OUT.jsonl

Any game the club offers will do (`GET /api/rules` lists them: goat, donkey, draw, block,
classic, sea_goat, all_fives, …, poker, trumps), each with its own options, e.g. `--game
sea_goat -o target=60` or `--game poker -o limit=no_limit`.

The protocol is in docs/protocol.md. The only thing to change for your own bot is `choose`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import secrets
import sys
from typing import Any

import httpx
import websockets

from kozel import patch
from kozel.core import InvalidOption
from kozel.engine.game import Game, GameBot
from kozel.games import get_game
from kozel.verify import verify


def choose(game: Game, bot: GameBot, message: dict[str, Any]) -> dict[str, Any]:
    """Your bot goes here. This one hands the seat's view to a Kozel bot of the game; the view
    holds only what the club sent this seat."""
    return game.move_to_dict(bot.choose(game.view_from_dict(message["view"])))


def follow(
    state: dict[str, Any] | None, message: dict[str, Any]
) -> tuple[dict[str, Any] | None, bool | None]:
    """The state held after a message of the table socket, and whether it is a new one
    (``None``: an event came after a missed version; ask for the whole state with ``sync``).
    The server sends the whole state on connecting and on ``sync``; after every event only
    what changed, a patch (docs/protocol.md §6.4) applied here to the state held."""
    version = state["version"] if state is not None else -1
    if message["type"] == "state" and message["version"] > version:
        return message, True
    if message["type"] == "event" and message["version"] > version:
        if state is None or message["version"] != version + 1:
            return state, None
        return {**patch.apply(state, message["patch"]), "version": message["version"]}, True
    return state, False  # an older version, or a message that changes no position


async def play(args: argparse.Namespace) -> int:
    try:
        rules = get_game(args.game)
        options = rules.parse_options(args.option)
    except InvalidOption as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    chosen = rules.options_dict(options)
    try:
        rules.make_bot(args.bot)
    except InvalidOption as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    try:
        return await play_game(args, rules, chosen)
    except (httpx.HTTPError, OSError, websockets.WebSocketException) as error:
        print(f"error: cannot talk to {args.server}: {error}", file=sys.stderr)
        return 1


async def join_by_link(
    http: httpx.AsyncClient, csrf: str, server: str, link: str, seat: int | None
) -> tuple[int, str] | None:
    """Take a seat (``seat``, else the first one we may take) at the table the link leads to,
    and wait on the link's socket until every seat is taken: the game's id and its game."""
    code = link.rstrip("/").rsplit("/", 1)[-1]
    body = {} if seat is None else {"seat": seat}
    response = await http.post(
        f"/api/invites/{code}/join", json=body, headers={"X-CSRF-Token": csrf}
    )
    if response.status_code != 200:
        print(f"cannot sit down: {response.json().get('detail')}", file=sys.stderr)
        return None
    request = response.json()
    if request["game_id"] is not None:
        return request["game_id"], request["game"]
    url = server.replace("http", "ws", 1) + f"/ws/invites/{code}"
    async with websockets.connect(url) as feed:
        async for text in feed:
            request = json.loads(text).get("request") or {}
            if request.get("status") == "started":
                return request["game_id"], request["game"]
            if request.get("status") == "cancelled":
                print("the table was cancelled", file=sys.stderr)
                return None
    return None


async def play_game(args: argparse.Namespace, rules: Game, options: dict[str, Any]) -> int:
    async with httpx.AsyncClient(base_url=args.server, timeout=30) as http:
        if args.name:
            response = await http.post(
                "/api/auth/login", json={"name": args.name, "password": args.password}
            )
        else:
            response = await http.post("/api/auth/guest")
        if response.status_code != 200:
            print(f"cannot log in: {response.json().get('detail')}", file=sys.stderr)
            return 1
        csrf = response.json()["csrf"]
        if args.join:
            seated = await join_by_link(http, csrf, args.server, args.join, args.seat)
            if seated is None:
                return 1
            game_id, game = seated
            rules = get_game(game)  # the table's game, whatever --game says
        else:
            response = await http.post(
                "/api/play/computer",
                json={"game": args.game, "options": options, "level": args.opponents},
                headers={"X-CSRF-Token": csrf},
            )
            if response.status_code != 200:
                print(f"cannot open a table: {response.json().get('detail')}", file=sys.stderr)
                return 1
            game_id = response.json()["game_id"]
        cookie = "; ".join(f"{k}={v}" for k, v in http.cookies.items())
        bot = rules.make_bot(args.bot)
        rematches = args.rematches
        while True:
            url = args.server.replace("http", "ws", 1) + f"/ws/games/{game_id}"
            again = await play_table(url, cookie, rules, bot, rematches > 0)
            record = (await http.get(f"/api/games/{game_id}/record")).json()
            write(args.record, game_id, record)
            if again is None:
                return 0
            game_id, rematches = again, rematches - 1


async def play_table(url: str, cookie: str, rules: Game, bot: GameBot, rematch: bool) -> int | None:
    """Play the table's game to its end; with ``rematch``, then offer (or accept) a rematch:
    the new table's game id once everyone accepted, ``None`` otherwise."""
    async with websockets.connect(url, additional_headers={"Cookie": cookie}) as socket:
        state: dict[str, Any] | None = None
        seeded = False
        async for text in socket:
            message = json.loads(text)
            if message["type"] == "error":
                print(f"server: {message['message']}", file=sys.stderr)
                continue
            if message["type"] == "rematch" and message["rematch"]["status"] != "open":
                game: int | None = message["rematch"]["game"]  # None: declined, out of time
                return game
            state, changed = follow(state, message)
            if state is None or not changed:
                if state is not None and changed is None:  # a version was missed
                    await socket.send(json.dumps({"type": "sync"}))
                continue
            shuffle = state.get("shuffle")
            if shuffle and "view" not in state and not seeded:
                # before the first deal: our own seed to the table's verifiable shuffle
                seeded = True
                await socket.send(json.dumps({"type": "seed", "seed": secrets.token_hex(16)}))
            if state["status"] != "playing":
                if not rematch:
                    return None
                # offers a rematch, or accepts the one a friend has offered
                await socket.send(json.dumps({"type": "rematch", "accept": True}))
                continue
            view = state.get("view")
            if view and view["turn"] == state["you"] and view["legal_moves"]:
                move = await asyncio.to_thread(choose, rules, bot, state)
                version = state["version"]
                await socket.send(json.dumps({"type": "move", "version": version, "move": move}))
    return None


def write(path: str, game_id: int, record: dict[str, Any]) -> None:
    """Append the finished game's record, and say how it ended."""
    with open(path, "a", encoding="utf-8") as out:
        out.write(json.dumps(record, ensure_ascii=False) + "\n")
    result = record["result"]
    if "timeout" in result:
        verdict = f"seat {result['timeout']} ran out of time"
    elif "chips" in result:  # Domino Poker: the chips each seat holds at the end
        verdict = f"winners {result['winners']}, chips {result['chips']}"
    elif "winners" in result:  # the winner-scoring games: the winners and their scores
        verdict = f"winners {result['winners']}, scores {result['scores']}"
    else:  # the Goat family: the losers are the Goat (the Donkey)
        verdict = f"losers {result['losers']}"
    # every deal derived again from the seeds, as `kozel verify` does
    shuffle = "verified" if verify(record).ok else "NOT verified"
    print(f"game {game_id} over: {verdict}, rating {result['rating']}; the shuffle {shuffle}")


def main() -> None:
    parser = argparse.ArgumentParser(description="Play one game at a Kozel club with a local bot.")
    parser.add_argument("--server", default="http://127.0.0.1:8000")
    parser.add_argument("--game", default="goat")
    parser.add_argument("-o", "--option", action="append", default=[], help="key=value")
    parser.add_argument("--name", help="log in as this player (default: play as a guest)")
    parser.add_argument("--password", default="")
    parser.add_argument("--bot", default="greedy", help="your local bot's level")
    parser.add_argument("--opponents", default="greedy", help="the club's computer players")
    parser.add_argument("--join", help="sit down at the table this link (or its code) leads to")
    parser.add_argument("--seat", type=int, help="with --join: the seat to take (from 0)")
    parser.add_argument(
        "--rematches", type=int, default=0, help="play again this many times (a rematch)"
    )
    parser.add_argument("--record", required=True, help="append the finished game here")
    sys.exit(asyncio.run(play(parser.parse_args())))


if __name__ == "__main__":
    main()

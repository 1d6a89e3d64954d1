"""examples/bot_client.py plays a whole game against a running club and writes its record."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from kozel.games import get_game, replay_layout
from kozel.server.settings import Settings
from tests.server.client import Player, play_to_the_end
from tests.server.conftest import RunningServer

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "bot_client.py"


def test_the_example_bot_client_plays_a_game(server: RunningServer, tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    command = [sys.executable, str(EXAMPLE), "--server", server.url, "--game", "donkey"]
    command += ["-o", "players=3", "-o", "loss_limit=40", "--record", str(out)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "over: losers" in done.stdout
    record = json.loads(out.read_text())
    assert record["options"]["players"] == 3 and record["seats"][0].startswith("guest-")
    replay_layout(record)


@pytest.mark.parametrize(
    ("game", "options"),
    [("sea_goat", ["players=3", "target=60"]), ("draw", ["players=2", "target=60"])],
)
def test_the_example_bot_client_plays_a_race(
    server: RunningServer, tmp_path: Path, game: str, options: list[str]
) -> None:
    """The winner-scoring games too: the bot's view holds a race's sheet, Sea Goat's hundred
    and doubles on a line, and the record says who won."""
    out = tmp_path / "games.jsonl"
    command = [sys.executable, str(EXAMPLE), "--server", server.url, "--game", game]
    for option in options:
        command += ["-o", option]
    done = subprocess.run(
        [*command, "--record", str(out)], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert "over: winners" in done.stdout, done.stdout
    record = json.loads(out.read_text())
    assert record["game"] == game and record["result"]["winners"]
    assert record["options"]["target"] == 60 and record["seats"][0].startswith("guest-")
    assert replay_layout(record).over


def test_the_example_says_what_is_wrong(server: RunningServer, tmp_path: Path) -> None:
    command = [sys.executable, str(EXAMPLE), "--server", server.url, "--game", "goat"]
    command += ["-o", "players=9", "--record", str(tmp_path / "x.jsonl")]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert done.returncode != 0
    assert "players" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize(
    ("game", "options", "scores"),
    [
        ("poker", ["players=3", "hands=3", "limit=no_limit"], "chips"),
        ("trumps", ["target=40"], "scores"),
    ],
)
def test_the_example_bot_client_plays_the_games_not_on_a_layout(
    server: RunningServer, tmp_path: Path, game: str, options: list[str], scores: str
) -> None:
    """Poker and Trumps through the same example: the game's own view and bot, nothing else."""
    out = tmp_path / "games.jsonl"
    command = [sys.executable, str(EXAMPLE), "--server", server.url, "--game", game]
    for option in options:
        command += ["-o", option]
    command += ["--bot", "expert", "--record", str(out)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "over: winners" in done.stdout and scores in done.stdout, done.stdout
    record = json.loads(out.read_text())
    assert record["game"] == game and record["seats"][0].startswith("guest-")
    assert get_game(game).replay(record).over


@pytest.fixture
def seeding(settings: Settings) -> Iterator[RunningServer]:
    """A club whose first deals wait two seconds for the players' seeds."""
    running = RunningServer(dataclasses.replace(settings, seed_seconds=2.0))
    try:
        yield running
    finally:
        running.stop()


def test_the_example_bot_client_joins_by_link(seeding: RunningServer, tmp_path: Path) -> None:
    """A friend's private table: the bot takes the seat it is told to by the link, waits for
    the table to start, adds its seed to the shuffle, plays to the end against the friend and
    checks the deals against the seeds."""
    server = seeding
    alice = Player(server.url, server.ws)
    assert alice.guest().status_code == 200
    wanted = {"game": "draw", "options": {"players": 2, "target": 30}, "rated": False}
    request = alice.post("/api/requests", {**wanted, "private": True}).json()
    out = tmp_path / "games.jsonl"
    command = [sys.executable, str(EXAMPLE), "--server", server.url, "--seat", "1"]
    command += ["--join", f"{server.url}/invite/{request['code']}", "--record", str(out)]
    with subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    ) as bot:
        deadline = time.monotonic() + 60
        while (
            game_id := alice.http.get(f"/api/requests/{request['id']}").json()["game_id"]
        ) is None:
            assert time.monotonic() < deadline and bot.poll() is None, bot.communicate()
            time.sleep(0.1)
        with alice.socket(game_id) as sock:
            play_to_the_end(sock)
        stdout, stderr = bot.communicate(timeout=120)
    assert bot.returncode == 0, stderr
    assert f"game {game_id} over" in stdout and "the shuffle verified" in stdout
    record = json.loads(out.read_text())
    assert record["game"] == "draw" and record["seats"][0] == alice.name
    assert record["shuffle"]["seeds"][1] is not None  # the bot added its own
    assert record["seats"][1].startswith("guest-") and replay_layout(record).over


def test_the_example_bot_client_plays_a_rematch(server: RunningServer, tmp_path: Path) -> None:
    """At the end it offers a rematch; the club's computer players accept at once: a second
    game at a new table, the seats moved one place on."""
    out = tmp_path / "games.jsonl"
    command = [sys.executable, str(EXAMPLE), "--server", server.url, "--game", "draw"]
    command += ["-o", "players=3", "-o", "target=20", "--rematches", "1", "--record", str(out)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    first, second = (json.loads(line) for line in out.read_text().splitlines())
    me = first["seats"][0]
    assert me.startswith("guest-") and second["seats"][1] == me
    assert second["options"] == first["options"] and replay_layout(second).over

"""Computer players move at a person's pace: each about ``bot_delay_ms`` after the move before
it, not within a few milliseconds (a person could not follow three moves in 50 ms)."""

from __future__ import annotations

import asyncio
from itertools import pairwise
from pathlib import Path

from kozel.server.club import Club
from kozel.server.settings import Settings
from kozel.server.tables import load_events
from tests.server.conftest import seeded

PACE_MS = 250


def test_computer_players_wait_for_the_previous_move_to_be_seen(tmp_path: Path) -> None:
    async def scenario() -> list[float]:
        club = Club(
            seeded(
                Settings(
                    db_url=f"sqlite+aiosqlite:///{tmp_path / 'club.db'}",
                    bot_delay_ms=PACE_MS,
                    seed_seconds=0,
                )
            )
        )
        await club.start()
        try:
            row = await club.new_games.bot_game("goat", {"players": 2}, ["random", "random"], 60)
            table = await club.claims.open_table(row)
            async with asyncio.timeout(30):
                while table.version < 7:
                    await asyncio.sleep(0.05)
            # when each event was stored (not when this loop, on a busy machine, saw it)
            events = await load_events(club.sessions, row.id)
            moves = [e.at.timestamp() for e in events[1:7] if e.kind == "move"]
            return [b - a for a, b in pairwise(moves)]
        finally:
            await club.stop()

    gaps = asyncio.run(scenario())
    assert len(gaps) >= 5
    assert min(gaps) >= PACE_MS / 1000 - 0.02, gaps
    assert max(gaps) < 2.0, gaps  # and not much more (a loaded machine adds its own delays)

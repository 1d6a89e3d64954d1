"""The computer players at one table (:class:`~kozel.server.tables.Table`): each made with
its seed (derived from a seeded club's seed, or drawn from the system's secure generator),
thinking in a worker thread when its seat's clock starts, then moving at the table's pace
through the table's queue like anyone else."""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, Protocol

from kozel.engine.game import Game, GameBot, GameMatch, GameMove
from kozel.server.seeds import seeded_number

if TYPE_CHECKING:
    from kozel.server.table_commands import Reply

_secure = random.SystemRandom()
log = logging.getLogger("kozel.tables")


class BotsTable(Protocol):
    """What the computer players ask of their table."""

    @property
    def id(self) -> int: ...

    @property
    def match(self) -> GameMatch: ...

    @property
    def bot_pace_ms(self) -> float: ...

    @property
    def deadline(self) -> float: ...

    async def submit(
        self, seat: int, move: dict[str, Any], version: int, person: bool = True
    ) -> Reply: ...


class TableBots:
    """The table's computer players by seat (``seat in bots``, ``set(bots)``)."""

    def __init__(
        self, table: BotsTable, rules: Game, seats: list[dict[str, Any]], club_seed: int | None
    ) -> None:
        self.table = table
        self.rules = rules
        self.club_seed = club_seed
        """A seeded club's seed (``Settings.seed``, tests): the computer players' seeds are
        derived from it; ``None``: drawn from the system's secure generator."""
        self.players: dict[int, GameBot] = {
            s: rules.make_bot(info["bot"], self.seed(s))
            for s, info in enumerate(seats)
            if "bot" in info
        }
        self._thinking: set[asyncio.Task[None]] = set()

    def __contains__(self, seat: object) -> bool:
        return seat in self.players

    def __iter__(self) -> Iterator[int]:
        return iter(self.players)

    def __getitem__(self, seat: int) -> GameBot:
        return self.players[seat]

    def seed(self, seat: int) -> int:
        """The seed of the computer player in ``seat``."""
        if self.club_seed is None:
            return _secure.getrandbits(48)
        return seeded_number(self.club_seed, "bot", self.table.id, seat)

    def seat(self, seat: int, level: str) -> None:
        """A computer player of ``level`` takes ``seat`` (a person's, replaced)."""
        if seat not in self.players:
            self.players[seat] = self.rules.make_bot(level, self.seed(seat))

    def think(self, seat: int, version: int) -> None:
        """The computer player in ``seat`` thinks about its move at ``version``."""
        task = asyncio.create_task(self._move(seat, version))
        self._thinking.add(task)
        task.add_done_callback(self._thinking.discard)

    def stop(self) -> None:
        """Stop every computer player thinking (the table is lost)."""
        for task in list(self._thinking):
            task.cancel()

    async def _move(self, seat: int, version: int) -> None:
        """A computer player thinks (in a worker thread), waits until ``bot_pace_ms`` have
        passed since the previous move (people follow a game at that pace, not at the bots'
        few milliseconds) and moves like anyone else; if the move could not be stored it
        tries again while its clock runs."""
        table = self.table
        started = time.monotonic()
        view = table.match.view(seat)
        bot = self.players[seat]
        try:
            move: GameMove = await asyncio.get_running_loop().run_in_executor(
                None, bot.choose, view
            )
        except Exception:
            log.exception("table %s: the bot at seat %s failed", table.id, seat)
            return
        await asyncio.sleep(max(0.0, table.bot_pace_ms / 1000 - (time.monotonic() - started)))
        move_dict = table.match.write_move(move)
        while (await table.submit(seat, move_dict, version, person=False)).code == "unavailable":
            if time.time() > table.deadline:
                return
            await asyncio.sleep(0.2)

"""A game's end at its table (:class:`~kozel.server.tables.Table`), like lila's Finisher: in the
transaction that stores the game's last event, the ratings move (once), the ``games`` row keeps
the game's status and its record, and a tournament's game takes the tournament's next step."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Protocol

from sqlalchemy import update
from sqlalchemy.ext.asyncio import AsyncConnection

from kozel.server.db import Game, change_rating, now

if TYPE_CHECKING:
    from kozel.engine.game import GameMatch
    from kozel.server.seeds import TableSeeds

log = logging.getLogger("kozel.tables")


class FinishedTable(Protocol):
    """What a game's end asks of its table."""

    @property
    def id(self) -> int: ...

    @property
    def seats(self) -> list[dict[str, Any]]: ...

    @property
    def rated(self) -> bool: ...

    @property
    def seeds(self) -> TableSeeds: ...

    @property
    def replacements(self) -> list[dict[str, Any]]: ...

    @property
    def tournament_id(self) -> int | None: ...

    @property
    def on_tournament(
        self,
    ) -> Callable[[AsyncConnection, int], Awaitable[int | None]] | None: ...

    next_game: int | None


def status_after(finished: GameMatch) -> str:
    """A game that ended by a timeout is interrupted; otherwise it is finished."""
    assert finished.result is not None
    return "interrupted" if finished.result.timeout is not None else "finished"


async def finish_game(connection: AsyncConnection, table: FinishedTable, after: GameMatch) -> None:
    """The game ends with the event being stored: keep its record, move the ratings (once: in
    the same transaction as the last event), and take the tournament's next step."""
    result = after.result
    assert result is not None
    if table.rated:
        for seat, info in enumerate(table.seats):
            if "user" not in info:
                continue
            await change_rating(connection, info["user"], result.rating[seat], table.id, None)
    await connection.execute(
        update(Game)
        .where(Game.id == table.id)
        .values(status=status_after(after), record=game_record(table, after), finished_at=now())
    )
    if table.tournament_id is not None and table.on_tournament is not None:
        # the tournament's step may fail without the game's end failing with it: its
        # statements are undone, and the club's claiming loop seats the next game later
        step = await connection.begin_nested()
        try:
            table.next_game = await table.on_tournament(connection, table.tournament_id)
        except Exception:
            log.exception("table %s: the tournament's next step failed", table.id)
            await step.rollback()
        else:
            await step.commit()


def game_record(table: FinishedTable, after: GameMatch) -> dict[str, Any]:
    """The game's record; with ``replaced`` when a computer player took a seat."""
    record = after.record([_label(info) for info in table.seats])
    shuffle = table.seeds.fields(True)
    if shuffle is not None:
        record["shuffle"] = shuffle
    if table.replacements:
        record["replaced"] = list(table.replacements)
    return record


def _label(info: dict[str, Any]) -> str:
    """A seat's label in the record: the person's name (also when a computer player took the
    seat: the record's ``replaced`` says from when), or ``bot:LEVEL``."""
    if "user" in info:
        return str(info["name"])
    if "replaced" in info:
        return str(info["replaced"]["name"])
    return f"bot:{info['bot']}"

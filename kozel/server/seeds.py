"""The club's half of the verifiable shuffle (:mod:`kozel.shuffle`): where a table's secret
server seed comes from, and what the table's state, the lobby and the record say of it.

:func:`new_server_seed` is the one source of every game's server seed (the ``games`` row's
default, so every way of making a table gets one); the seed stays in that row, secret, until
the game ends. Only its commitment (its SHA-256) is published before the first deal; the
players' seeds are events of the table, so restarts and takeovers keep them. A table's side
of it (its seeds, the time its first deal waits for them, each round's stream) is
:class:`TableSeeds`.

A *seeded club* (``Settings.seed``, ``kozel serve --seed N``: for tests, never for a real club)
replaces each new game's server seed by :func:`seeded_server_seed` of its id, and draws the
computer players' and the tournaments' seeds the same way (:func:`seeded_number`): the same
seed deals the same games again, so a test run can be repeated. The shuffle itself is
unchanged (committed, revealed, verifiable); only its secret is no secret to whoever knows N.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import secrets
from typing import TYPE_CHECKING, Any, Protocol

from kozel.server.table_commands import Reply, SeedsClosed, TablePart
from kozel.shuffle import (
    ALGORITHM,
    SEED_BYTES,
    DealStream,
    commitment,
    round_stream,
    valid_player_seed,
)

if TYPE_CHECKING:
    from kozel.engine.game import GameMatch

log = logging.getLogger("kozel.tables")

SEEDED = "kozel-seeded-club/1"


def new_server_seed() -> str:
    """A new table's secret server seed: 32 bytes from the system's secure generator, in
    hex."""
    return secrets.token_hex(SEED_BYTES)


def _seeded(seed: int, parts: tuple[object, ...]) -> bytes:
    text = "|".join([SEEDED, str(seed), *(str(p) for p in parts)])
    return hashlib.sha256(text.encode()).digest()


def seeded_server_seed(seed: int, game_id: int) -> str:
    """Game ``game_id``'s server seed in a club seeded with ``seed``: the SHA-256 of
    ``kozel-seeded-club/1|SEED|server|GAME_ID``, in hex (a valid server seed).

    >>> seeded_server_seed(1, 7) == seeded_server_seed(1, 7) != seeded_server_seed(2, 7)
    True
    >>> len(seeded_server_seed(1, 7))
    64
    """
    return _seeded(seed, ("server", game_id)).hex()


def seeded_number(seed: int, *parts: object) -> int:
    """A 48-bit number for what ``parts`` name (a computer player's seat at a game, a
    tournament's lots) in a club seeded with ``seed``, the same every time."""
    return int.from_bytes(_seeded(seed, parts)[:6], "big")


def shuffle_fields(server_seed: str, seeds: list[str | None], revealed: bool) -> dict[str, Any]:
    """The table's ``shuffle``: the algorithm, the commitment, the players' seeds, and the
    server seed once ``revealed`` (the game is over; ``None`` until then). The record's
    header is the same, revealed."""
    return {
        "algorithm": ALGORITHM,
        "commitment": commitment(server_seed),
        "seeds": list(seeds),
        "server_seed": server_seed if revealed else None,
    }


class SeedsTable(TablePart, Protocol):
    """What the seeding asks of its table."""

    @property
    def version(self) -> int: ...

    @property
    def match(self) -> GameMatch: ...

    async def store(self, kind: str, data: dict[str, Any]) -> None: ...

    async def publish(self, kind: str) -> None: ...

    async def deal(self) -> None: ...


class TableSeeds:
    """One table's verifiable shuffle: its server seed, the seeds the people at the table add
    before the first deal (``seed`` events), and the time the first deal waits for them."""

    def __init__(self, table: SeedsTable, server_seed: str | None, players: int) -> None:
        self.table = table
        self.server_seed = server_seed
        """The shuffle's secret, or ``None`` (an older game, dealt from the system's secure
        generator)."""
        self.players: list[str | None] = [None] * players
        """The seeds the people at the table added, by seat."""
        self.seconds = 0.0
        """How long the first deal waits for every person's seed (the club's seed_seconds)."""
        self._timer: asyncio.TimerHandle | None = None
        self._fields: tuple[tuple[bool, tuple[str | None, ...]], dict[str, Any]] | None = None
        """The last ``shuffle`` made and what it was made of: a table sends it with every
        state, and its commitment is a hash."""

    def stop(self) -> None:
        if self._timer is not None:
            self._timer.cancel()

    def stream(self, number: int) -> DealStream | None:
        """Round ``number``'s stream (from 1): every chance of that round comes from it."""
        if self.server_seed is None:
            return None
        return round_stream(self.server_seed, self.players, number)

    def waiting(self) -> bool:
        """The first deal waits for seeds: some person at the table has not added his."""
        return (
            self.server_seed is not None
            and self.seconds > 0
            and not self.table.match.started
            and any(self.players[s] is None for s in self.table.people())
        )

    def wait(self) -> None:
        """The first deal comes once every person's seed is in, or when the time is over."""
        loop = asyncio.get_running_loop()
        self._timer = loop.call_later(self.seconds, self.table.queue.put_nowait, SeedsClosed())

    def fields(self, revealed: bool) -> dict[str, Any] | None:
        """The table's ``shuffle`` (:func:`shuffle_fields`), or ``None`` without a server
        seed: the same dict while nothing in it changes (read it, never change it)."""
        if self.server_seed is None:
            return None
        made_of = (revealed, tuple(self.players))
        if self._fields is None or self._fields[0] != made_of:
            self._fields = (made_of, shuffle_fields(self.server_seed, self.players, revealed))
        return self._fields[1]

    def apply(self, data: dict[str, Any]) -> None:
        """A stored ``seed`` event."""
        self.players[data["seat"]] = data["seed"]

    async def add(self, seat: int, seed: object) -> Reply:
        """``seat`` adds its seed (a stored ``seed`` event); the last one deals."""
        table = self.table
        if table.status != "playing":
            return Reply(False, "over", "the game is over")
        if "user" not in table.seats[seat]:
            return Reply(False, "replaced", "a computer player has taken this seat")
        if self.server_seed is None or table.match.started:
            return Reply(False, "seed_late", "seeds are added before the first deal")
        if not valid_player_seed(seed):
            return Reply(
                False, "seed_bad", "a seed is 1 to 64 letters, digits, - or _", params={"high": 64}
            )
        if self.players[seat] is not None:
            return Reply(False, "seed_twice", "your seed is added already: it cannot change")
        await table.store("seed", {"seat": seat, "seed": seed})
        self.players[seat] = seed
        try:
            await table.publish("seed")
        except Exception:  # the event is stored: clients catch up on their next sync
            log.exception("table %s: publishing version %s failed", table.id, table.version)
        if not self.waiting():  # every person's seed is in: deal now
            await table.deal()
        return Reply(True)

"""What a table's queue carries (:class:`~kozel.server.tables.Table`): the commands its actor
takes one at a time, and the :class:`Reply` a sender waits for. People's sockets, the computer
players and the table's own timers all send commands; only the table's task acts on them."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from kozel.server.rematch import RematchOffer

MOVED = "the table is moving to another server: send the move again in a moment"


@dataclass
class Reply:
    ok: bool
    code: str = ""
    message: str = ""
    """In English, for API users and logs; clients word ``code`` (and ``reason``)."""
    reason: str = ""
    """Why a move is ``illegal`` (IllegalMove's code), filled in by ``params``."""
    params: dict[str, str | int] = field(default_factory=dict)


def moved(reply: Reply) -> bool:
    """The table left this process while the command waited (:data:`MOVED`): nothing was
    done, and the command may be sent again to the table's new owner."""
    return reply.code == "unavailable" and reply.message == MOVED


class TablePart(Protocol):
    """What every part of a table that sends it commands asks of it (the seeding, the vote,
    the rematch): which table, its status and seats, the people at it, and its queue."""

    @property
    def id(self) -> int: ...

    @property
    def status(self) -> str: ...

    @property
    def seats(self) -> list[dict[str, Any]]: ...

    @property
    def queue(self) -> asyncio.Queue[Command | None]: ...

    def people(self) -> list[int]: ...


@dataclass
class MoveCommand:
    seat: int
    move: dict[str, Any]
    version: int
    done: asyncio.Future[Reply]
    person: bool = True
    """Sent by a person's socket (a computer player's own moves are not)."""


@dataclass
class Timeout:
    seat: int
    version: int


@dataclass
class Deal:
    """Deal the next round (again, after a failed attempt)."""


@dataclass
class Next:
    """A person at the table is ready for the next round (pressed "next")."""

    seat: int


@dataclass
class Presence:
    """Count again which seats are connected: a process's sockets changed, or a grace or an
    announcement ran out."""


@dataclass
class Vote:
    """``voter`` agrees that a computer player takes ``seat``."""

    voter: int
    seat: int
    done: asyncio.Future[Reply]


@dataclass
class Seed:
    """A person at the table adds his seed to the shuffle (before the first deal)."""

    seat: int
    seed: object
    done: asyncio.Future[Reply]


@dataclass
class SeedsClosed:
    """The time to add seeds is over: the first deal comes."""


@dataclass
class Rematch:
    """A person at a finished table offers a rematch, or answers the offer."""

    seat: int
    accept: bool
    done: asyncio.Future[Reply]


@dataclass
class RematchOver:
    """The rematch offer's clock ran out."""

    offer: RematchOffer


@dataclass
class HandOver:
    """Give the table to another process, which has every socket of it (this one has none):
    ``move`` stores the change of owner and answers whether it did; ``done`` says whether
    the table left (it does not while a round is not under way)."""

    move: Callable[[], Awaitable[bool]]
    done: asyncio.Future[bool]


Command = (
    MoveCommand
    | Timeout
    | Deal
    | Next
    | Presence
    | Vote
    | Seed
    | SeedsClosed
    | Rematch
    | RematchOver
    | HandOver
)
Asked = MoveCommand | Vote | Seed | Rematch
"""The commands whose sender waits for a :class:`Reply` (``done``)."""

"""A rematch at a game's end: who offered it, who accepted or declined, and the new table.

When a game is over, any person at the table may offer a rematch: the same players and house
rules, the seats moved one place round the table (everyone to the next seat), or kept in a
game of pairs, where a partner stays a partner. Computer players accept at once. A new table
starts when every person has accepted; one refusal ends the offer, and so does its clock
(``Settings.rematch_seconds``). Either way the table shows who declined or did not answer,
and another offer may be made. The offer lives with the finished table, in its owner's
memory (a finished table is not rebuilt after a restart).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any


def rematch_seats(seats: list[dict[str, Any]], pairs: bool) -> list[dict[str, Any]]:
    """The new table's seats: every player one seat on (seat ``s`` to ``s + 1``), or the same
    seats in a game of pairs. A computer player that took a person's seat keeps it.

    >>> seats = [{"user": 1, "name": "a"}, {"bot": "greedy"}, {"user": 2, "name": "b"}]
    >>> rematch_seats(seats, False)
    [{'user': 2, 'name': 'b'}, {'user': 1, 'name': 'a'}, {'bot': 'greedy'}]
    """
    plain = [
        {"user": s["user"], "name": s["name"]} if "user" in s else {"bot": s["bot"]} for s in seats
    ]
    if pairs:
        return plain
    return [plain[-1], *plain[:-1]]


@dataclass
class RematchOffer:
    """One offer, from the seat ``by``; ``people``: the seats whose answer is needed."""

    by: int
    people: list[int]
    deadline: float
    """Wall-clock time (``time.time()``) when the offer runs out."""
    accepted: set[int] = field(default_factory=set)
    declined: set[int] = field(default_factory=set)
    status: str = "open"
    """``open``, ``started`` (everyone accepted: ``game`` is the new table), ``declined`` or
    ``expired``."""
    game: int | None = None

    @property
    def waiting(self) -> list[int]:
        """The people who have not answered (after the clock ran out: who did not)."""
        return sorted(set(self.people) - self.accepted - self.declined)

    def answer(self, seat: int, accept: bool) -> None:
        (self.accepted if accept else self.declined).add(seat)
        if not accept:
            self.status = "declined"

    @property
    def agreed(self) -> bool:
        """Every person has accepted."""
        return self.status == "open" and not self.waiting

    def fields(self) -> dict[str, Any]:
        """The offer as the table's state says it (``rematch``)."""
        return {
            "by": self.by,
            "status": self.status,
            "accepted": sorted(self.accepted),
            "declined": sorted(self.declined),
            "waiting": self.waiting,
            "game": self.game,
            "deadline_ms": int(self.deadline * 1000),
            "remaining_ms": max(0, int((self.deadline - time.time()) * 1000)),
        }

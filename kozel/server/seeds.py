"""The club's half of the verifiable shuffle (:mod:`kozel.shuffle`): where a table's secret
server seed comes from, and what the table's state, the lobby and the record say of it.

:func:`new_server_seed` is the one source of every game's server seed (the ``games`` row's
default, so every way of making a table gets one); the seed stays in that row, secret, until
the game ends. Only its commitment (its SHA-256) is published before the first deal; the
players' seeds are events of the table, so restarts and takeovers keep them.

A *seeded club* (``Settings.seed``, ``kozel serve --seed N``: for tests, never for a real club)
replaces each new game's server seed by :func:`seeded_server_seed` of its id, and draws the
computer players' and the tournaments' seeds the same way (:func:`seeded_number`): the same
seed deals the same games again, so a test run can be repeated. The shuffle itself is
unchanged (committed, revealed, verifiable); only its secret is no secret to whoever knows N.
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Any

from kozel.shuffle import ALGORITHM, SEED_BYTES, commitment

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

"""The club's half of the verifiable shuffle (:mod:`kozel.shuffle`): where a table's secret
server seed comes from, and what the table's state, the lobby and the record say of it.

:func:`new_server_seed` is the one source of every game's server seed (the ``games`` row's
default, so every way of making a table gets one); the seed stays in that row, secret, until
the game ends. Only its commitment (its SHA-256) is published before the first deal; the
players' seeds are events of the table, so restarts and takeovers keep them.
"""

from __future__ import annotations

import secrets
from typing import Any

from kozel.shuffle import ALGORITHM, SEED_BYTES, commitment


def new_server_seed() -> str:
    """A new table's secret server seed: 32 bytes from the system's secure generator, in
    hex."""
    return secrets.token_hex(SEED_BYTES)


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

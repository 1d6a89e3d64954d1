"""A verifiable shuffle: the random source that deals a round from seeds fixed in advance.

The club commits to a secret *server seed* before a game's first deal (it publishes the seed's
SHA-256), each person at the table may add a seed of his own, and every round's chance — the
lot, the deal, the redeals, the lot for places, Poker's draws from the shuffled discards — is
drawn from one stream derived from the server seed, the players' seeds and the round's number.
The server seed is revealed when the game ends, so anyone can derive every deal again from the
record (``kozel verify``) and see that no deal was chosen after the seeds were fixed.

The algorithm, ``hmac-sha256-fisher-yates/1`` (docs/shuffle.md says it for other programs):

- The *context* of round ``r`` (from 1) is the ASCII text ``kozel-deal/1|r|s0|s1|…`` with each
  seat's seed in seat order, an empty string for a seat without one.
- The stream is ``B0 B1 B2 …``, ``Bi = HMAC-SHA-256(key = the server seed's 32 bytes,
  message = context + i as 8 bytes big-endian)``.
- A number below ``n`` takes the stream's next 4 bytes as a big-endian ``x``; it is
  ``x mod n`` when ``x < 2**32 - 2**32 mod n``, else those 4 bytes are dropped and it tries
  again (rejection sampling: every number equally likely).
- A shuffle of a list of ``m`` items is Fisher–Yates from the end: for ``i`` from ``m - 1``
  down to 1, swap item ``i`` with item ``j``, a number below ``i + 1``.

The engine stays pure: the stream is a :class:`random.Random` given to a game's own dealing
(:meth:`kozel.engine.game.GameMatch.deal_next`); the secret and its storage are the server's.

>>> stream = round_stream("00" * 32, ["alice-seed", None], 1)
>>> items = list(range(10))
>>> stream.shuffle(items)
>>> sorted(items) == list(range(10))
True
>>> commitment("00" * 32)
'66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925'
"""

from __future__ import annotations

import hashlib
import hmac
import random
import re
from collections.abc import MutableSequence, Sequence
from typing import Any, TypeGuard

ALGORITHM = "hmac-sha256-fisher-yates/1"
"""The name the records and states give this algorithm."""
CONTEXT = "kozel-deal/1"
SEED_BYTES = 32
"""A server seed: 32 random bytes, written as 64 lowercase hex digits."""
PLAYER_SEED = re.compile(r"[A-Za-z0-9_-]{1,64}")
"""A player's seed: 1 to 64 letters, digits, ``-`` or ``_`` (the browser sends 32 hex digits)."""
_HEX = re.compile(r"[0-9a-f]{64}")
_WORD = 1 << 32


def commitment(server_seed: str) -> str:
    """The SHA-256 of the server seed's bytes, as 64 lowercase hex digits."""
    return hashlib.sha256(bytes.fromhex(server_seed)).hexdigest()


def valid_server_seed(text: object) -> TypeGuard[str]:
    return isinstance(text, str) and _HEX.fullmatch(text) is not None


def valid_player_seed(text: object) -> TypeGuard[str]:
    return isinstance(text, str) and PLAYER_SEED.fullmatch(text) is not None


def context(round_number: int, seeds: Sequence[str | None]) -> bytes:
    """The text every block of round ``round_number``'s stream is made from."""
    return "|".join([CONTEXT, str(round_number), *("" if s is None else s for s in seeds)]).encode()


class DealStream(random.Random):
    """The stream of one round as a :class:`random.Random`: ``shuffle`` and the numbers
    below ``n`` are exactly the algorithm's; ``random()`` and ``getrandbits`` read the same
    stream (a game that drew otherwise would still be derived from the seeds, but only the
    shuffles are documented). It can be copied (``copy.deepcopy``): the copy goes on from the
    same place."""

    def __init__(self, key: bytes = b"", message: bytes = b"") -> None:
        self._key = key
        self._message = message
        self._counter = 0
        self._buffer = b""
        super().__init__()

    def seed(self, *args: Any, **kwargs: Any) -> None:
        """The stream is fixed by its key and message: nothing to seed."""

    def getstate(self) -> tuple[Any, ...]:
        return (self._key, self._message, self._counter, self._buffer)

    def setstate(self, state: tuple[Any, ...]) -> None:
        self._key, self._message, self._counter, self._buffer = state

    def __reduce__(self) -> tuple[Any, ...]:
        return (DealStream, (), self.getstate())

    def read(self, count: int) -> bytes:
        """The stream's next ``count`` bytes."""
        while len(self._buffer) < count:
            block = self._message + self._counter.to_bytes(8, "big")
            self._buffer += hmac.new(self._key, block, hashlib.sha256).digest()
            self._counter += 1
        out, self._buffer = self._buffer[:count], self._buffer[count:]
        return out

    def below(self, n: int) -> int:
        """A number from 0 to ``n - 1``, each equally likely (rejection sampling)."""
        if not 0 < n <= _WORD:
            raise ValueError(f"a number below {n} cannot be drawn")
        limit = _WORD - _WORD % n
        while True:
            x = int.from_bytes(self.read(4), "big")
            if x < limit:
                return x % n

    def shuffle(self, x: MutableSequence[Any]) -> None:
        """Fisher–Yates from the end, each swap with a number of :meth:`below`."""
        for i in range(len(x) - 1, 0, -1):
            j = self.below(i + 1)
            x[i], x[j] = x[j], x[i]

    def random(self) -> float:
        return (int.from_bytes(self.read(8), "big") >> 11) / (1 << 53)

    def getrandbits(self, k: int) -> int:
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        size = (k + 7) // 8
        return int.from_bytes(self.read(size), "big") >> (8 * size - k) if k else 0


def round_stream(server_seed: str, seeds: Sequence[str | None], round_number: int) -> DealStream:
    """The stream of round ``round_number`` (from 1) of a game with this server seed and the
    players' seeds (per seat, ``None`` for a seat without one)."""
    if not valid_server_seed(server_seed):
        raise ValueError("a server seed is 64 lowercase hex digits")
    return DealStream(bytes.fromhex(server_seed), context(round_number, seeds))


def _tiles(tiles: object) -> str:
    if isinstance(tiles, list) and all(isinstance(t, str) for t in tiles):
        return " ".join(tiles) or "nothing"
    return repr(tiles)


def deal_differences(recorded: object, hands: list[list[str]], bazaar: list[str]) -> list[str]:
    """How a record's ``deal`` differs from the hands and bazaar a stream dealt (in English,
    seat by seat); ``[]`` when it is the same deal."""
    if not isinstance(recorded, dict):
        return ["the round has no deal"]
    got = recorded.get("hands")
    if not isinstance(got, list) or len(got) != len(hands):
        return [f"the deal's hands are {got!r}; the shuffle deals {len(hands)} hands"]
    out = [
        f"seat {seat}'s hand is {_tiles(mine)} in the record; the shuffle deals {_tiles(dealt)}"
        for seat, (mine, dealt) in enumerate(zip(got, hands, strict=True))
        if mine != dealt
    ]
    if recorded.get("bazaar") != bazaar:
        out.append(
            f"the bazaar is {_tiles(recorded.get('bazaar'))} in the record; "
            f"the shuffle leaves {_tiles(bazaar)}"
        )
    return out

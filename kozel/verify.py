"""``kozel verify``: every deal of a record derived again from its verifiable shuffle.

A record dealt by a verifiable shuffle (:mod:`kozel.shuffle`) carries, in its optional
``shuffle`` header, the algorithm's name, the commitment published before the first deal, the
server seed revealed at the end and each seat's seed. The check: the server seed's SHA-256
is the commitment, and each round's stream deals exactly that round — its deal and redeals,
its lots, Poker's draws from the shuffled discards (each game's
:meth:`~kozel.engine.game.Game.check_deal`). It checks the shuffle only: ``kozel replay``
checks that the moves follow the rules.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from kozel.core import InvalidOption
from kozel.engine.record import FORMAT
from kozel.games import get_game
from kozel.shuffle import (
    ALGORITHM,
    commitment,
    round_stream,
    valid_player_seed,
    valid_server_seed,
)

TOURNAMENT = "kozel-tournament/1"


@dataclass(frozen=True)
class RoundCheck:
    """One round (a hand) derived again: ``problems`` is empty when it matches."""

    round: int
    problems: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return not self.problems


@dataclass(frozen=True)
class Verification:
    """The check of one record: ``problems`` with its header (no shuffle, a seed or a
    commitment that is not one, the server seed not matching the commitment), and each
    round's check."""

    game: str
    commitment: str | None
    problems: tuple[str, ...]
    rounds: tuple[RoundCheck, ...]

    @property
    def ok(self) -> bool:
        return not self.problems and bool(self.rounds) and all(r.ok for r in self.rounds)

    def to_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "algorithm": ALGORITHM,
            "commitment": self.commitment,
            "problems": list(self.problems),
            "rounds": [
                {"round": r.round, "ok": r.ok, "problems": list(r.problems)} for r in self.rounds
            ],
        }


def verify(record: object) -> Verification:
    """Check one ``kozel-record/1`` record's shuffle (never raises on a bad record: what is
    wrong is in the answer)."""
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        return Verification("?", None, (f"not a {FORMAT} record",), ())
    name = str(record.get("game"))
    try:
        game = get_game(name)
        opts = game.options(record.get("options") or {}, complete=True)
    except InvalidOption as error:
        return Verification(name, None, (str(error),), ())
    shuffle = record.get("shuffle")
    if not isinstance(shuffle, dict):
        reason = "the record has no shuffle: its deals were not made by a verifiable shuffle"
        return Verification(name, None, (reason,), ())
    problems: list[str] = []
    algorithm, committed = shuffle.get("algorithm"), shuffle.get("commitment")
    server_seed, seeds = shuffle.get("server_seed"), shuffle.get("seeds")
    if algorithm != ALGORITHM:
        problems.append(f"unknown algorithm {algorithm!r}: this program knows {ALGORITHM!r}")
    if not valid_server_seed(committed):
        problems.append(f"the commitment {committed!r} is not 64 lowercase hex digits")
    if not valid_server_seed(server_seed):
        problems.append(f"the server seed {server_seed!r} is not 64 lowercase hex digits")
    elif valid_server_seed(committed) and commitment(server_seed) != committed:
        problems.append(
            f"the server seed's SHA-256 is {commitment(server_seed)}, not the commitment "
            f"{committed}: it is not the seed the table committed to"
        )
    if not (
        isinstance(seeds, list)
        and len(seeds) == opts.players
        and all(seed is None or valid_player_seed(seed) for seed in seeds)
    ):
        problems.append(
            f"the players' seeds must be {opts.players} seeds or nulls (1 to 64 letters, "
            f"digits, - or _), not {seeds!r}"
        )
    rounds = record.get("rounds")
    if not isinstance(rounds, list) or not rounds:
        problems.append("the record has no rounds")
    known = committed if valid_server_seed(committed) else None
    if problems and not (valid_server_seed(server_seed) and isinstance(seeds, list)):
        return Verification(name, known, tuple(problems), ())
    checks = []
    for number, raw in enumerate(rounds if isinstance(rounds, list) else [], start=1):
        stream = round_stream(str(server_seed), list(seeds or []), number)
        try:
            if isinstance(raw, dict):
                found = game.check_deal(opts, number, raw, stream)
            else:
                found = ["the round is not an object"]
        except (KeyError, TypeError, ValueError, IndexError) as error:
            found = [f"the round cannot be read: {error}"]
        checks.append(RoundCheck(number, tuple(found)))
    return Verification(name, known, tuple(problems), tuple(checks))


def verify_lines(lines: Iterable[str]) -> Iterator[tuple[int, list[Verification]]]:
    """Each non-blank line of a JSON Lines file with its checks: one record's, or each game's
    of a ``kozel-tournament/1`` line."""
    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        try:
            data = json.loads(text)
        except ValueError as error:
            yield number, [Verification("?", None, (f"not JSON: {error}",), ())]
            continue
        if isinstance(data, dict) and data.get("format") == TOURNAMENT:
            games = data.get("games")
            yield number, [verify(game) for game in games] if isinstance(games, list) else []
        else:
            yield number, [verify(data)]

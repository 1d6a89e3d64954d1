"""The review of one seat's decisions in a game not played on a layout (``kozel analyse``):
the game's record is replayed move by move, and before each move of the seat that had a
choice the game's analyst values the legal moves from what the seat saw then.

Layout games review with their expert's playouts (:mod:`kozel.layout.review`); both are a
:class:`kozel.engine.game.Review`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from kozel.engine.game import Decision, GameMove

Analyst = Callable[[Any, GameMove], Sequence[tuple[GameMove, float]]]
"""A seat's view (its game's own) and the move played → each move worth valuing with what it
is expected to win from here on, best first (empty: the decision is not reviewed)."""
Replay = Callable[[dict[str, Any], Callable[[Any, int, int, GameMove], None]], object]
"""A game's replay with a hook that sees every move before it is played: (the match, the
round, the move's number in it, the move)."""


class RecordReview:
    """A :class:`kozel.engine.game.Review` of a record replayed through its game's rules."""

    def __init__(
        self,
        record: dict[str, Any],
        seat: int,
        replay: Replay,
        analyst: Analyst,
        unit: str,
        skipped: str = "",
    ) -> None:
        self.record = record
        self.seat = seat
        self.replay = replay
        self.analyst = analyst
        self.unit = unit
        self.skipped = skipped
        moves = 0

        def count(*_: object) -> None:
            nonlocal moves
            moves += 1

        replay(record, count)  # RecordError here, before any analysis
        self.steps = moves

    def decisions(self, on_step: Callable[[], None] | None = None) -> Iterator[Decision]:
        found: list[Decision] = []

        def before(match: Any, round_number: int, number: int, move: GameMove) -> None:
            legal = match.legal_moves()
            if match.to_move == self.seat and len(legal) > 1:
                ranked = self.analyst(match.view(self.seat), move)
                if ranked:
                    best, best_value = ranked[0]
                    played = dict(ranked).get(move, best_value)
                    loss = max(0.0, best_value - played)
                    spread = max(0.0, best_value - ranked[-1][1])
                    found.append(
                        Decision(round_number, number, move, best, loss, len(legal), spread)
                    )
            if on_step is not None:
                on_step()

        self.replay(self.record, before)
        yield from found

"""Bykovo («Быково», docs/rules.md#bykovo-game): one deal, places by counts, rated only as a
tournament.

A lone game is one round. Its winner is the first to empty his hand (an ``out``) or the
player who laid the last tile (a ``fish`` or a ``sortir``); the others place by their counts,
lowest first, equal counts by the lot drawn with the deal. Each seat's score is its count,
the winner's 0 (what the game adds to a micro-tournament score, :mod:`kozel.layout.tournament`);
the lone game earns no rating (Decision 7).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kozel.engine.options import Options
from kozel.engine.result import MatchResult
from kozel.layout.scoring.base import Cell, Scoring, Settlement
from kozel.layout.scoring.race import race_entries

if TYPE_CHECKING:
    from kozel.layout.round import Round


@dataclass(frozen=True, kw_only=True)
class BykovoOptions(Options):
    """Bykovo has no options: always 4 players, no teams."""


def bykovo_scores(counts: list[int], winner: int) -> list[int]:
    """What a game adds to each player's tournament score: his count, the winner 0.

    >>> bykovo_scores([5, 0, 17, 9], 1), bykovo_scores([5, 3, 17, 9], 1)
    ([5, 0, 17, 9], [5, 0, 17, 9])
    """
    return [0 if seat == winner else c for seat, c in enumerate(counts)]


class BykovoScoring(Scoring):
    """One deal: the winner scores 0, the others their counts; lower is better."""

    sheet_kind = "race"

    def initial(self) -> tuple[Cell, ...]:
        return tuple(0 for _ in range(self.opts.players))

    def goal(self) -> str:
        return (
            "One deal: the first to empty his hand wins (or, when the line stops, the last "
            "to lay); the others place by the pips they hold, fewest first."
        )

    def cell_dict(self, cell: Cell) -> int:
        assert isinstance(cell, int)
        return cell

    def score_of(self, cell: Cell) -> int:
        assert isinstance(cell, int)
        return cell

    def facts(
        self, rnd: Round, counts: list[int], decides: dict[str, Any] | None
    ) -> dict[str, Any]:
        """Also the game's ``winner`` (``None`` after a timeout) and its ``places``."""
        out = super().facts(rnd, counts, decides)
        assert rnd.end is not None
        timeout = rnd.end.kind == "timeout"
        out["winner"] = None if timeout else rnd.end.seat
        out["places"] = None if timeout else rnd.places()
        return out

    def settle(
        self, sheet: tuple[Cell, ...], eggs: int, rnd: Round, counts: list[int], during: list[int]
    ) -> Settlement:
        assert rnd.end is not None
        winner = rnd.end.seat
        scores = bykovo_scores(counts, winner)
        zero = [0] * len(scores)
        result = MatchResult("winners", [winner], scores, list(zero), places=rnd.places())
        return Settlement(
            race_entries(zero, zero, scores, scores), tuple(scores), scores, 0, result
        )

    def timeout(
        self, sheet: tuple[Cell, ...], eggs: int, seat: int, during: list[int]
    ) -> Settlement:
        zero = [0] * self.opts.players
        result = MatchResult("winners", [], list(zero), list(zero), seat)
        return Settlement(race_entries(zero, zero, zero, zero), tuple(zero), zero, 0, result)

"""The winner-scoring race of Draw, Block and Classic (docs/rules.md#winner-games,
docs/rules.md#winner-decisions, docs/rules.md#club).

The hand's winner (the player who went out, or after a fish the lowest count) is credited the
others' counts — after a fish minus his own where the game says so — and the first unit at or
over the target at the end of a hand wins the game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from kozel.engine.options import Options
from kozel.engine.result import MatchResult
from kozel.layout.scoring.base import Cell, Scoring, Settlement, round_half_away

if TYPE_CHECKING:
    from kozel.layout.round import Round

RACE_RATING_SCALE = 10


@dataclass(frozen=True, kw_only=True)
class RaceOptions(Options):
    """The options of a winner-scoring game: ``players``, ``teams`` and the ``target``."""

    target: int


def lowest_unit(unit_counts: list[int]) -> int | None:
    """The unit with the single lowest count (a fish's winner), ``None`` when it is shared."""
    low = min(unit_counts)
    lows = [u for u, c in enumerate(unit_counts) if c == low]
    return lows[0] if len(lows) == 1 else None


def race_rating(
    scores: list[int], winners: list[int], target: int, per_seat: list[int]
) -> list[int]:
    """Rating per seat at a normal end (docs/rules.md#club, winner-scoring games): a winner gains
    ``round_half_up(10 × (target − best other score) / target)``, at least 1.

    ``per_seat`` gives each seat's unit.

    >>> race_rating([130, 85, 40], [0], 100, [0, 1, 2])
    [2, 0, 0]
    """
    gains = []
    for unit in range(len(scores)):
        if unit not in winners:
            gains.append(0)
            continue
        best_other = max((s for u, s in enumerate(scores) if u != unit), default=0)
        gains.append(max(1, round_half_away(RACE_RATING_SCALE * (target - best_other), target)))
    return [gains[u] for u in per_seat]


def race_entries(
    before: list[int], during: list[int], credited: list[int], after: list[int]
) -> list[dict[str, Any]]:
    return [
        {"before": b, "during": d, "credited": c, "after": a}
        for b, d, c, a in zip(before, during, credited, after, strict=True)
    ]


class RaceScoring(Scoring):
    """Draw, Block and Classic: the hand's winner scores the others' counts."""

    sheet_kind = "race"
    subtract_own_in_fish: ClassVar[bool] = True
    """After a fish the winner scores the others' counts minus his own
    (docs/rules.md#winner-decisions, 3)."""

    def __init__(self, opts: Options) -> None:
        assert isinstance(opts, RaceOptions)
        super().__init__(opts)
        self.target = opts.target

    def initial(self) -> tuple[Cell, ...]:
        return tuple(0 for _ in range(self.opts.units))

    def goal(self) -> str:
        return f"The first to {self.target} points wins (checked at the end of each hand)."

    def cell_dict(self, cell: Cell) -> int:
        assert isinstance(cell, int)
        return cell

    def score_of(self, cell: Cell) -> int:
        assert isinstance(cell, int)
        return cell

    def credit_for(self, raw: int) -> int:
        """What the hand's winner is credited for the others' counts ``raw`` (the end-count
        games round and divide it)."""
        return raw

    def hand_credit(self, rnd: Round, counts: list[int]) -> tuple[int | None, int]:
        """The unit that won the hand and what it is credited (``None, 0`` after a fish
        whose lowest count is shared)."""
        end = rnd.end
        assert end is not None
        out_seat = end.seat if end.kind == "out" else None
        unit_counts = self.unit_counts(counts, out_seat)
        if out_seat is not None:
            winner: int | None = self.opts.unit_of(out_seat)
        else:
            winner = lowest_unit(unit_counts)
        if winner is None:
            return None, 0
        credit = sum(c for u, c in enumerate(unit_counts) if u != winner)
        if out_seat is None and self.subtract_own_in_fish:
            credit -= unit_counts[winner]
        return winner, credit

    def facts(
        self, rnd: Round, counts: list[int], decides: dict[str, Any] | None
    ) -> dict[str, Any]:
        """Also the unit that won the hand (``winner``: ``None`` after a fish with a shared
        lowest count or a timeout) and its ``credit`` before the game's opening rule."""
        out = super().facts(rnd, counts, decides)
        assert rnd.end is not None
        if rnd.end.kind == "timeout":
            out["winner"], out["credit"] = None, 0
        else:
            out["winner"], out["credit"] = self.hand_credit(rnd, counts)
        return out

    def settle(
        self, sheet: tuple[Cell, ...], eggs: int, rnd: Round, counts: list[int], during: list[int]
    ) -> Settlement:
        winner, credit = self.hand_credit(rnd, counts)
        before = [int(c) for c in sheet]
        credited = [0] * len(before)
        if winner is not None:
            credited[winner] = self.credit_for(credit)
        after = [b + d + c for b, d, c in zip(before, during, credited, strict=True)]
        gained = [d + c for d, c in zip(during, credited, strict=True)]
        return Settlement(
            race_entries(before, during, credited, after),
            tuple(after),
            gained,
            0,
            self.result_at_target(after),
        )

    def result_at_target(self, scores: list[int]) -> MatchResult | None:
        """At a hand's end: the units at or over the target with the highest score win."""
        over = [u for u, s in enumerate(scores) if s >= self.target]
        if not over:
            return None
        top = max(scores[u] for u in over)
        return self.won_by([u for u in over if scores[u] == top], scores)

    def won_by(self, winners: list[int], scores: list[int]) -> MatchResult:
        per_seat = [self.opts.unit_of(s) for s in range(self.opts.players)]
        return MatchResult(
            "winners", winners, scores, race_rating(scores, winners, self.target, per_seat)
        )

    def timeout(
        self, sheet: tuple[Cell, ...], eggs: int, seat: int, during: list[int]
    ) -> Settlement:
        before = [int(c) for c in sheet]
        after = [b + d for b, d in zip(before, during, strict=True)]
        zero = [0] * len(before)
        rating = [0 if s == seat else 1 for s in range(self.opts.players)]
        result = MatchResult("winners", [], after, rating, seat)
        return Settlement(
            race_entries(before, during, zero, after), tuple(after), list(during), 0, result
        )

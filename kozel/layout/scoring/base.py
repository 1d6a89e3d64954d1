"""What every scoring policy offers the match, and the rating arithmetic they share."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from kozel.core import Move, Play
from kozel.engine.options import Options
from kozel.engine.result import MatchResult
from kozel.layout.history import plays_of

if TYPE_CHECKING:
    from kozel.layout.round import Round

Cell = Any
"""One scoring unit's state on the sheet: an ``Account`` in Goat, a score in the races."""


def round_half_away(numerator: int, denominator: int) -> int:
    """``numerator / denominator`` rounded half away from zero, in exact integers.

    >>> [round_half_away(n, 10) for n in (75, 2, 19, -5, -15, 25)]
    [8, 0, 2, -1, -2, 3]
    """
    sign = -1 if (numerator < 0) != (denominator < 0) else 1
    n, d = abs(numerator), abs(denominator)
    return sign * ((2 * n + d) // (2 * d))


@dataclass(frozen=True)
class Settlement:
    """What one round did to the sheet."""

    entries: list[dict[str, Any]]
    """Per unit, the record's sheet entry."""
    sheet: tuple[Cell, ...]
    """Per unit, the sheet after the round."""
    gained: list[int]
    """Per unit, what the round added: the charge (Goat) or the points (races)."""
    eggs: int
    result: MatchResult | None
    """Set when the round ended the game."""
    decides: dict[str, Any] | None = None
    """Sea Goat: the seat whose side the round won or lost the game for, at once."""


class Scoring:
    """A game's scoring policy. Subclasses fill in the sheet, the settlement and the end."""

    sheet_kind: ClassVar[str]
    """``"goat"`` (accounts, remembered, eggs) or ``"race"`` (scores to a target)."""
    scores_during_play: ClassVar[bool] = False
    """True when lays score as they are made (:meth:`lay_points`)."""

    def __init__(self, opts: Options) -> None:
        self.opts = opts

    def initial(self) -> tuple[Cell, ...]:
        """The sheet before the first round."""
        raise NotImplementedError

    def cell_dict(self, cell: Cell) -> Any:
        """A unit's sheet cell as JSON (the ``before``/``after`` of a record entry)."""
        raise NotImplementedError

    def score_of(self, cell: Cell) -> int:
        """The number that decides the game: an account, or a race score."""
        raise NotImplementedError

    def goal(self) -> str:
        """How the game is won or lost, in a sentence."""
        raise NotImplementedError

    def lay_points(self, rnd: Round, seat: int, move: Move) -> int:
        """Points the lay just made scores for the mover's unit (the match calls it after each
        lay in games that score during play): :meth:`play_points` of the round's tiles."""
        plays = [p for _, m, _ in rnd.history for p in plays_of(m)]
        return self.play_points(plays, rnd.spinner_rule)

    def play_points(self, plays: Sequence[Play], spinner: bool) -> int:
        """Points the last turn of ``plays`` scores, ``plays`` being every tile of the round so
        far in order (the first without an arm), in a game with or without a spinner. Games
        that score during play override this; bots ask it of moves they consider."""
        return 0

    def layout_sum(self, plays: Sequence[Play], spinner: bool) -> int | None:
        """The end sum the game scores on after ``plays`` (as :meth:`play_points` takes them),
        shown at the table; ``None`` in games that do not count the ends."""
        return None

    def facts(
        self, rnd: Round, counts: list[int], decides: dict[str, Any] | None
    ) -> dict[str, Any]:
        """What a finished round's public summary says beyond the record, in numbers only:
        the seat that declared Sea Goat's ``hundred`` (-1: none) and why the round decided
        the game at once (``decided_by``; ``None``). The races add the hand's winner."""
        return {"hundred": rnd.hundred, "decided_by": None}

    def may_declare_hundred(self, sheet: Sequence[Cell], seat: int) -> bool:
        """True when ``seat`` may declare Sea Goat's hundred at its lead."""
        return False

    def asked_about_hundred(self, sheet: Sequence[Cell], hands: Sequence[int], leader: int) -> int:
        """The seat asked before ``leader`` leads whether it declares Sea Goat's hundred (the
        record holder dealt 6-6, when he is not the leader), else -1."""
        return -1

    def settle(
        self, sheet: tuple[Cell, ...], eggs: int, rnd: Round, counts: list[int], during: list[int]
    ) -> Settlement:
        """Score a finished round (out or fish)."""
        raise NotImplementedError

    def timeout(
        self, sheet: tuple[Cell, ...], eggs: int, seat: int, during: list[int]
    ) -> Settlement:
        """``seat`` ran out of time: the round is interrupted, and the game ends."""
        raise NotImplementedError

    def unit_counts(self, counts: list[int], out_seat: int | None) -> list[int]:
        """Each unit's round count; a team whose player went out counts 0."""
        opts = self.opts
        if not opts.teams:
            return list(counts)
        totals = [0] * opts.units
        for seat, c in enumerate(counts):
            totals[opts.unit_of(seat)] += c
        if out_seat is not None:
            totals[opts.unit_of(out_seat)] = 0
        return totals

    def per_seat(self, values: list[int]) -> list[int]:
        """A per-unit list spread to the seats."""
        return [values[self.opts.unit_of(s)] for s in range(self.opts.players)]

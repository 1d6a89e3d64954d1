"""The end-count games (docs/rules.md#end-count-games): points during play for the end sum,
and a bonus for the hand's winner.

A lay that makes the end sum (:func:`kozel.layout.scoring.ends.end_sum`) a multiple of 5 or 3 scores
for the mover's unit at once; a turn of several doubles scores once, after its last double.
At the end of a hand its winner (the player who went out, or the lowest count after a fish) is
credited the others' counts — minus his own after a fish where the game says so — rounded and
divided as the game says.

>>> [AllFivesScoring.lay(s) for s in (10, 13, 15, 0)]
[10, 0, 15, 0]
>>> [ThreesFivesScoring.lay(s) for s in (10, 12, 30, 7)]
[10, 12, 60, 0]
>>> TelephoneScoring.lay(20), AllThreesScoring.lay(12)
(4, 12)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from kozel.core import Play
from kozel.engine.options import Options
from kozel.layout.scoring.ends import end_sum
from kozel.layout.scoring.race import RaceOptions, RaceScoring

HandSizes = Literal["standard", "seven", "by_players"]
HAND_SIZES: tuple[HandSizes, ...] = ("standard", "seven", "by_players")


@dataclass(frozen=True, kw_only=True)
class EndCountOptions(RaceOptions):
    """The end-count games' options; each game offers some and fixes the others."""

    spinner_arms_count: bool
    bonus_divisor: int
    doubles_at_once: bool
    hand_sizes: HandSizes
    spinner: bool
    keep_last: bool
    draw_when_able: bool
    cross: bool
    """All Fives' and All Threes' cross: false makes the layout a line without a spinner."""

    def reserve_size(self) -> int:
        """Threes and Fives' ``keep_last``: 2 players never draw the last 2, 3–4 the last 1."""
        if not self.keep_last:
            return 0
        return 2 if self.players == 2 else 1


def nearest_multiple(value: int, step: int) -> int:
    """``value`` rounded to the nearest multiple of ``step``, halves away from zero.

    >>> [nearest_multiple(v, 5) for v in (3, 26, 2, 25)], nearest_multiple(26, 3)
    ([5, 25, 0, 25], 27)
    """
    return (2 * value + step) // (2 * step) * step


class EndCountScoring(RaceScoring):
    """Scoring during play for the end sum, and a bonus at the end of the hand."""

    scores_during_play = True

    def __init__(self, opts: Options) -> None:
        assert isinstance(opts, EndCountOptions)
        super().__init__(opts)
        self.end_count: EndCountOptions = opts

    @staticmethod
    def lay(total: int) -> int:
        """The points a lay scores when it leaves the end sum ``total``."""
        raise NotImplementedError

    def play_points(self, plays: Sequence[Play], spinner: bool) -> int:
        return self.lay(end_sum(plays, spinner, self.end_count.spinner_arms_count))

    def layout_sum(self, plays: Sequence[Play], spinner: bool) -> int | None:
        return end_sum(plays, spinner, self.end_count.spinner_arms_count)


class AllFivesScoring(EndCountScoring):
    """§6.1: an end sum that is a multiple of 5 scores itself; the bonus is rounded to the
    nearest 5 and divided by ``bonus_divisor`` (1: recorded in full)."""

    @staticmethod
    def lay(total: int) -> int:
        return total if total % 5 == 0 else 0

    def credit_for(self, raw: int) -> int:
        return nearest_multiple(raw, 5) // self.end_count.bonus_divisor


class TelephoneScoring(EndCountScoring):
    """§6.2: an end sum that is a multiple of 5 scores a fifth of it; the bonus is the others'
    counts divided by 5, rounded up, without subtracting the winner's own after a fish."""

    subtract_own_in_fish = False

    @staticmethod
    def lay(total: int) -> int:
        return total // 5 if total % 5 == 0 else 0

    def credit_for(self, raw: int) -> int:
        return -(-raw // 5)


class AllThreesScoring(EndCountScoring):
    """§6.3: multiples of 3 score themselves; the bonus is rounded to the nearest 3 and
    divided by 3."""

    @staticmethod
    def lay(total: int) -> int:
        return total if total % 3 == 0 else 0

    def credit_for(self, raw: int) -> int:
        return nearest_multiple(raw, 3) // 3


class ThreesFivesScoring(EndCountScoring):
    """§6.4: one point per pip of the end sum if it is a multiple of 3, and again if it is a
    multiple of 5; the winner scores the opponents' remaining pips."""

    subtract_own_in_fish = False

    @staticmethod
    def lay(total: int) -> int:
        return (total if total % 3 == 0 else 0) + (total if total % 5 == 0 else 0)

    def credit_for(self, raw: int) -> int:
        return raw

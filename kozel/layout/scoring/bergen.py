"""Bergen (docs/rules.md#bergen-game, docs/rules.md#winner-decisions): points during play for
leading a double and for double- and triple-headers, and 2 points for the hand's winner.

A lead of a double scores 2. After any other play, both ends showing the same value is a
**double-header** (2); when one of those ends is a double laid crosswise it is a
**triple-header** (3, not 3 + 2). The player who goes out scores 2. At a block (the general
fish) the only player with no double in hand scores 2; if several hold none, the lowest count
among them; if everyone holds a double, the holder of the lowest double. Blocks are judged
player by player, also in team play. The game is played to 15 points with 2 players and 10
with 3 or 4 (``target`` 0), or to any ``target``.

>>> from kozel.core import Play, parse_tile as t
>>> s = BergenScoring(BergenOptions(players=2, teams=False, target=0))
>>> s.target, s.play_points([Play(t("3-3"))], False)
(15, 2)
>>> line = [Play(t("3-3")), Play(t("3-5"), 1), Play(t("1-5"), 1), Play(t("1-3"), 1)]
>>> [s.play_points(line[: n + 1], False) for n in range(4)]
[2, 0, 0, 3]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kozel.core import DOUBLE_OF, DOUBLES_MASK, IS_DOUBLE, Layout, Play, pips_of
from kozel.engine.options import Options
from kozel.layout.history import lay
from kozel.layout.scoring.race import RaceOptions, RaceScoring

if TYPE_CHECKING:
    from kozel.layout.round import Round

BERGEN_RESERVE = 2
"""The last two tiles of the bazaar are never drawn."""
LEAD_DOUBLE, DOUBLE_HEADER, TRIPLE_HEADER, HAND_WON = 2, 2, 3, 2


@dataclass(frozen=True, kw_only=True)
class BergenOptions(RaceOptions):
    """Bergen's options: ``players``, ``teams`` and ``target`` (0: by the number of
    players)."""

    def reserve_size(self) -> int:
        return BERGEN_RESERVE

    def target_points(self) -> int:
        """The target in play: ``target``, or 15 for 2 players and 10 for 3 or 4 when it is
        0."""
        if self.target:
            return self.target
        return 15 if self.players == 2 else 10


def header_points(plays: Sequence[Play]) -> int:
    """What the last of ``plays`` (every tile of the round so far, on a line) scores."""
    if len(plays) == 1:
        return LEAD_DOUBLE if IS_DOUBLE[plays[0].tile] else 0
    layout = Layout()
    tips = [-1, -1]
    """The last tile laid on each arm (the first tile while none is)."""
    for play in plays:
        lay(layout, play, False)
        if play.arm is None:
            tips = [play.tile, play.tile]
        else:
            tips[play.arm] = play.tile
    if layout.ends[0] != layout.ends[1]:
        return 0
    return TRIPLE_HEADER if IS_DOUBLE[tips[0]] or IS_DOUBLE[tips[1]] else DOUBLE_HEADER


def block_scorers(hands: Sequence[int]) -> list[int]:
    """The seats with the best claim to a block's 2 points: the only seat with no double in
    hand; of several, those with the lowest count (more than one when it is shared); when
    every hand holds a double, the holder of the lowest double.

    >>> from kozel.layout.scoring.bergen import block_scorers
    >>> from kozel.core import mask_of, parse_tile as t
    >>> block_scorers([mask_of([t("0-0"), t("2-3")]), mask_of([t("1-4")]), mask_of([t("1-3")])])
    [2]
    """
    without = [s for s, hand in enumerate(hands) if not hand & DOUBLES_MASK]
    if without:
        low = min(pips_of(hands[s]) for s in without)
        return [s for s in without if pips_of(hands[s]) == low]
    for v in range(7):
        for seat, hand in enumerate(hands):
            if hand >> DOUBLE_OF[v] & 1:
                return [seat]
    raise ValueError("a block needs tiles in hand")


def block_winner(opts: Options, hands: Sequence[int], fisherman: int) -> int | None:
    """The seat that scores a block and leads the next hand, ``None`` when nobody scores: a
    lowest count shared by seats of different units. Partners sharing it score for their unit;
    the first of them clockwise from the fisherman (the fisherman first) leads."""
    seats = block_scorers(hands)
    if len({opts.unit_of(s) for s in seats}) > 1:
        return None
    return min(seats, key=lambda s: (s - fisherman) % opts.players)


class BergenScoring(RaceScoring):
    """Bergen: points during play for headers, 2 for the hand's winner, to 15 or 10."""

    scores_during_play = True

    def __init__(self, opts: Options) -> None:
        assert isinstance(opts, BergenOptions)
        super().__init__(opts)
        self.target = opts.target_points()

    def play_points(self, plays: Sequence[Play], spinner: bool) -> int:
        return header_points(plays)

    def hand_credit(self, rnd: Round, counts: list[int]) -> tuple[int | None, int]:
        """The out player's unit, or the block's scorer's, with 2 points (``None, 0`` when a
        shared lowest count leaves the block to nobody)."""
        end = rnd.end
        assert end is not None
        seat = end.seat if end.kind == "out" else block_winner(self.opts, rnd.hands, end.seat)
        if seat is None:
            return None, 0
        return self.opts.unit_of(seat), HAND_WON

"""Sea Goat's race (docs/rules.md#sea-goat-game, docs/rules.md#winner-decisions): one scorer,
opening at 25, instant ends.

A hand's winner is credited the losers' counts. A unit without a record records a credit only
of ``open_at`` or more; if it opens while another unit has a record, every record is written
off (the new credit too). Going out on ``0-0`` (the bald goat), on ``6-6`` with a loser
holding more than 25, or the hundred made or failed (caught with 25 or more), ends the game at
once. The record holder dealt ``6-6`` may declare the hundred in any round; when it neither
wins nor loses the game, the round is scored and then his record is written off.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kozel.core import DOUBLE_OF, Play, PlayDoubles
from kozel.engine.options import Options
from kozel.engine.result import MatchResult
from kozel.layout.scoring.base import Cell, Settlement
from kozel.layout.scoring.race import RaceOptions, RaceScoring, race_entries

if TYPE_CHECKING:
    from collections.abc import Sequence

    from kozel.layout.round import Round

HUNDRED_CAUGHT = 25
"""A declarer of the hundred caught with this count or more loses the game."""
SIX_SIX_LOSER_OVER = 25
"""Going out on 6-6 wins the game when a loser holds more than this."""


@dataclass(frozen=True, kw_only=True)
class SeaGoatOptions(RaceOptions):
    """Sea Goat's options: ``players``, ``teams``, ``target`` and ``open_at``."""

    open_at: int


def last_turn_tiles(rnd: Round) -> set[int]:
    """The tiles of the turn that ended the round."""
    _, move, _ = rnd.history[-1]
    if isinstance(move, PlayDoubles):
        return {p.tile for p in move.plays}
    return {move.tile} if isinstance(move, Play) else set()


class SeaGoatScoring(RaceScoring):
    subtract_own_in_fish = False

    def __init__(self, opts: Options) -> None:
        assert isinstance(opts, SeaGoatOptions)
        super().__init__(opts)
        self.open_at = opts.open_at

    def may_declare_hundred(self, sheet: Sequence[Cell], seat: int) -> bool:
        return int(sheet[self.opts.unit_of(seat)]) > 0

    def asked_about_hundred(self, sheet: Sequence[Cell], hands: Sequence[int], leader: int) -> int:
        """In any round the record holder who was dealt 6-6 may declare the hundred: when he
        is not the leader he is asked first."""
        for seat, hand in enumerate(hands):
            if hand >> DOUBLE_OF[6] & 1 and self.may_declare_hundred(sheet, seat):
                return -1 if seat == leader else seat
        return -1

    def settle(
        self, sheet: tuple[Cell, ...], eggs: int, rnd: Round, counts: list[int], during: list[int]
    ) -> Settlement:
        winner, credit = self.hand_credit(rnd, counts)
        before = [int(c) for c in sheet]
        credited = [0] * len(before)
        after = list(before)
        written_off = False
        if winner is not None:
            has_record = before[winner] > 0
            if has_record or credit >= self.open_at:
                credited[winner] = credit
                if not has_record and any(s > 0 for s in before):
                    written_off = True
        if written_off:
            after = [0] * len(before)
        else:
            after = [b + d + c for b, d, c in zip(before, during, credited, strict=True)]
        entries = race_entries(before, during, credited, after)
        if written_off:
            entries = [{**entry, "written_off": True} for entry in entries]
        decides = self.decides(rnd, counts)
        if rnd.hundred >= 0 and decides is None:  # failed under 25: his record goes
            unit = self.opts.unit_of(rnd.hundred)
            after[unit] = 0
            entries[unit] = {**entries[unit], "after": 0, "written_off": True}
        if decides is not None:
            result: MatchResult | None = self.decided(decides, after, rnd)
        else:
            result = self.result_at_target(after)
        gained = [d + c for d, c in zip(during, credited, strict=True)]
        return Settlement(entries, tuple(after), gained, 0, result, decides)

    def facts(
        self, rnd: Round, counts: list[int], decides: dict[str, Any] | None
    ) -> dict[str, Any]:
        """Also why the round decided the game at once: ``hundred_made``, ``hundred_failed``,
        ``bald_goat`` (out on 0-0) or ``six_six`` (out on 6-6 with a loser over 25); and
        ``hundred_lost``: the seat whose hundred, declared this round, neither won nor lost the
        game and so cost him his record (-1: none)."""
        out = super().facts(rnd, counts, decides)
        ended = rnd.end is not None and rnd.end.kind != "timeout"
        out["hundred_lost"] = rnd.hundred if ended and decides is None else -1
        if decides is not None:
            if rnd.hundred >= 0 and decides["seat"] == rnd.hundred:
                out["decided_by"] = "hundred_made" if decides["won"] else "hundred_failed"
            else:
                out["decided_by"] = (
                    "bald_goat" if DOUBLE_OF[0] in last_turn_tiles(rnd) else "six_six"
                )
        return out

    def decides(self, rnd: Round, counts: list[int]) -> dict[str, Any] | None:
        """The seat whose side this round wins or loses the game for at once, if any."""
        end = rnd.end
        assert end is not None
        declarer = rnd.hundred
        if declarer >= 0:
            if end.kind == "out" and end.seat == declarer:
                return {"seat": declarer, "won": True}
            if counts[declarer] >= HUNDRED_CAUGHT:
                return {"seat": declarer, "won": False}
        if end.kind != "out":
            return None
        tiles = last_turn_tiles(rnd)
        if DOUBLE_OF[0] in tiles:
            return {"seat": end.seat, "won": True}
        out_unit = self.opts.unit_of(end.seat)
        if DOUBLE_OF[6] in tiles and any(
            c > SIX_SIX_LOSER_OVER for s, c in enumerate(counts) if self.opts.unit_of(s) != out_unit
        ):
            return {"seat": end.seat, "won": True}
        return None

    def decided(self, decides: dict[str, Any], scores: list[int], rnd: Round) -> MatchResult:
        unit = self.opts.unit_of(decides["seat"])
        if decides["won"]:
            return self.won_by([unit], scores)
        others = [u for u in range(len(scores)) if u != unit]
        top = max(scores[u] for u in others)
        best = [u for u in others if scores[u] == top]
        end = rnd.end
        assert end is not None
        if len(best) > 1 and end.kind == "out" and self.opts.unit_of(end.seat) in best:
            best = [self.opts.unit_of(end.seat)]
        return self.won_by(best, scores)

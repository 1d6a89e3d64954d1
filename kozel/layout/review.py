"""Post-game review: each decision of one seat against the expert's analysis."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from kozel.core import DeclineHundred, Move, Play
from kozel.engine.game import Decision
from kozel.layout.bots.expert import Budget, ExpertBot
from kozel.layout.match import Match
from kozel.layout.views import SeatView, view_for

REVIEW_BUDGET = Budget(worlds=200, playouts=48)


def moves_of(match: Match) -> int:
    """How many moves a finished match has (the steps of a review, for progress bars; a
    refused hundred is one)."""
    return sum(len(result.round.history) for result in match.results)


def same_position(view: SeatView, a: Move, b: Move) -> bool:
    """Whether two moves leave the same position: one tile laid alike (closing, declaring)
    on two open arms that show the same value, in a game without a spinner that does not
    score during play (where the tile an arm ends with counts). The expert's values of the
    two differ by its sampling alone, so a review never counts the one as a loss against
    the other."""
    if not (isinstance(a, Play) and isinstance(b, Play)) or a.arm is None or b.arm is None:
        return False
    if (a.tile, a.close, a.hundred) != (b.tile, b.close, b.hundred) or view.spinner >= 0:
        return False
    if getattr(view.rules.scoring, "scores_during_play", False):
        return False
    shows = {arm.number: arm.shows for arm in view.arms if not arm.closed}
    return a.arm in shows and b.arm in shows and shows[a.arm] == shows[b.arm]


def review(
    finished: Match,
    seat: int,
    budget: Budget = REVIEW_BUDGET,
    seed: int = 0,
    on_step: Callable[[], None] | None = None,
) -> Iterator[Decision]:
    """Replay ``finished`` and analyse every decision of ``seat`` that had a choice, seeing
    only what the seat saw then."""
    analyst = ExpertBot(seed, budget)
    match = Match(finished.rules, finished.opts, finished.seed)
    for number, result in enumerate(finished.results, start=1):
        rnd = match.next_round(result.deal, result.redeals)
        made = 0  # the record's moves so far (it leaves a refused hundred out)
        for mover, move, _ in result.round.history:
            index = made + 1
            made += not isinstance(move, DeclineHundred)
            if mover == seat and len(rnd.legal_moves()) > 1:
                view = view_for(match, seat)
                ranked = analyst.analyse(view)
                best, best_value = ranked[0]
                # the move played is worth what the best move leaving its position is
                alike = [v for m, v in ranked if m == move or same_position(view, m, move)]
                if move == best or same_position(view, move, best):
                    best, alike = move, [best_value]
                loss = max(0.0, min(alike) - best_value) if alike else 0.0
                spread = max(0.0, ranked[-1][1] - best_value)
                yield Decision(number, index, move, best, loss, len(ranked), spread)
            if on_step is not None:
                on_step()
            match.push(move)
        if result.end.kind == "timeout":
            break  # the game stopped in this round


class LayoutReview:
    """A layout game's :class:`kozel.engine.game.Review`: expected losses in points of the game's
    scoring (the seat's charge, less a share of the opponents')."""

    unit = "points"
    skipped = ""

    def __init__(self, finished: Match, seat: int) -> None:
        self.finished = finished
        self.seat = seat
        self.steps = moves_of(finished)

    def decisions(self, on_step: Callable[[], None] | None = None) -> Iterator[Decision]:
        return review(self.finished, self.seat, on_step=on_step)

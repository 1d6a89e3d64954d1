"""Post-game review: each decision of one seat against the expert's analysis."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from kozel.bots.expert import Budget, ExpertBot
from kozel.core import DeclineHundred
from kozel.game import Decision
from kozel.match import Match
from kozel.views import view_for

REVIEW_BUDGET = Budget(worlds=200, playouts=48)


def moves_of(match: Match) -> int:
    """How many moves a finished match has (the steps of a review, for progress bars; a
    refused hundred is one)."""
    return sum(len(result.round.history) for result in match.results)


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
                ranked = analyst.analyse(view_for(match, seat))
                values = dict(ranked)
                best, best_value = ranked[0]
                loss = max(0.0, values[move] - best_value) if move in values else 0.0
                yield Decision(number, index, move, best, loss, len(ranked))
            if on_step is not None:
                on_step()
            match.push(move)
        if result.end.kind == "timeout":
            break  # the game stopped in this round


class LayoutReview:
    """A layout game's :class:`kozel.game.Review`: expected losses in points of the game's
    scoring (the seat's charge, less a share of the opponents')."""

    unit = "points"
    skipped = ""

    def __init__(self, finished: Match, seat: int) -> None:
        self.finished = finished
        self.seat = seat
        self.steps = moves_of(finished)

    def decisions(self, on_step: Callable[[], None] | None = None) -> Iterator[Decision]:
        return review(self.finished, self.seat, on_step=on_step)

"""Post-game review: each decision of one seat against the expert's analysis."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from kozel.bots.expert import Budget, ExpertBot
from kozel.core import Move
from kozel.match import Match
from kozel.views import view_for

REVIEW_BUDGET = Budget(worlds=200, playouts=48)


@dataclass(frozen=True)
class Decision:
    round: int
    move_number: int
    played: Move
    best: Move
    expected_loss: float
    """Expected cost of the move played less that of the best move (0 when it was best)."""
    choices: int


def moves_of(match: Match) -> int:
    """How many moves a finished match has (the steps of a review, for progress bars)."""
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
        for index, (mover, move, _) in enumerate(result.round.history, start=1):
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

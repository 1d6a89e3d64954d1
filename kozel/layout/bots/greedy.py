"""``greedy``: a fast one-move heuristic, scored from the seat's own view only.

It sheds heavy tiles and doubles early, keeps its suits varied and the ends followable, feeds
its partner and starves the next opponent (from the values each seat is known to lack: it
knocked or drew while they showed), and makes a fish only when its own hand is light. In the
games that score during play it first takes the best immediate score (going out first of
all), and never draws while a tile fits. Asked about Sea Goat's hundred, it declares it when
the rest of its hand is light (:data:`HUNDRED_BELOW`).
"""

from __future__ import annotations

import random

from kozel.core import (
    DOUBLE_OF,
    DOUBLES_MASK,
    FULL_MASK,
    HIGH,
    IS_DOUBLE,
    LOW,
    OTHER_HALF,
    PIPS,
    SUIT_MASK,
    DeclineHundred,
    Draw,
    Knock,
    Move,
    Play,
    PlayDoubles,
    pips_of,
)
from kozel.layout.bots.sampling import lacked_values
from kozel.layout.history import plays_of
from kozel.layout.views import SeatView

OUT = 1000.0
"""Going out ends the round in our favour."""
POINT = 1000.0
"""In a game that scores during play, what one point scored now is worth: more than any
difference of hand management."""
OUT_SCORING = 1_000_000.0
"""Going out in a game that scores during play, before any points scored now."""
DRAW_WHEN_ABLE = -1_000_000.0
"""A draw offered while a tile fits (Threes and Fives' ``draw_when_able``)."""
KNOCK_WHEN_ABLE = -1_000_000.0
"""A knock offered while a tile fits (Bykovo's tactical pass): the greedy bot never passes
by choice, since every tile it keeps counts against it."""
HUNDRED_BELOW = 15
"""Asked about Sea Goat's hundred (it holds the record and was dealt 6-6, and another seat
would lead), the greedy bot declares it when the rest of its hand counts less than this:
a light hand is seldom caught with 25 or more."""


class GreedyBot:
    level = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: SeatView) -> Move:
        moves = view.legal_moves
        if len(moves) == 1:
            return moves[0]
        lacks = lacked_values(view)
        scored = [(self.score(view, move, lacks), i) for i, move in enumerate(moves)]
        best = max(s for s, _ in scored)
        ties = [i for s, i in scored if s >= best - 1e-9]
        return moves[ties[int(self.rng.random() * len(ties))]]

    def score(self, view: SeatView, move: Move, lacks: list[int]) -> float:
        """The heuristic's score of ``move`` (higher is better); ``lacks``: per seat, the
        values it is known to lack. A hot path (once per legal move of every greedy decision
        and of the expert's fallback): the common case stays inline, and only a move that
        scores during play or makes a fish calls a helper."""
        if view.asking >= 0:  # the hundred or no: 1 for its choice, 0 for the other
            light = pips_of(view.hand_mask & ~(1 << DOUBLE_OF[6])) < HUNDRED_BELOW
            return float(isinstance(move, Play) == light)
        if isinstance(move, DeclineHundred):
            return 0.0
        if isinstance(move, Draw):  # offered beside plays only where drawing when able is legal
            return DRAW_WHEN_ABLE
        if isinstance(move, Knock):  # offered beside plays only where a knock is always legal
            return KNOCK_WHEN_ABLE
        plays = move.plays if isinstance(move, PlayDoubles) else (move,)
        during = bool(getattr(view.rules.scoring, "scores_during_play", False))
        points = _play_points(view, move) if during else 0.0
        hand = view.hand_mask
        ends = [a.shows if not a.closed else -1 for a in view.arms] if view.arms else []
        arm_index = {a.number: i for i, a in enumerate(view.arms)}
        laid = 0
        score = 0.0
        for play in plays:
            assert isinstance(play, Play)
            t = play.tile
            laid |= 1 << t
            score += PIPS[t] + (3.0 if IS_DOUBLE[t] else 0.0)
            if play.arm is None:
                ends = [LOW[t], HIGH[t]]
            elif play.arm in arm_index:
                i = arm_index[play.arm]
                ends[i] = -1 if play.close else OTHER_HALF[t][ends[i]]
            else:  # arms 2 and 3 opened by a spinner laid in the same turn
                ends.append(LOW[t])
        rest = hand & ~laid
        if not rest:
            return OUT_SCORING + points if during else OUT
        score += 0.7 * sum(1 for v in range(7) if rest & SUIT_MASK[v])
        open_ends = [e for e in ends if e >= 0]
        score += 0.8 * sum(1 for e in set(open_ends) if rest & SUIT_MASK[e])

        seats = len(view.hand_sizes)
        me = view.seat if view.seat is not None else 0
        nxt = (me + 1) % seats
        teams = view.opts.teams
        for e in set(open_ends):
            if lacks[nxt] >> e & 1:
                score += 1.5
            if teams and lacks[(me + 2) % seats] >> e & 1:
                score -= 1.0

        table = view.table | laid
        ignore = DOUBLES_MASK if view.opts.ignores_doubles() else 0
        live = FULL_MASK & ~table & ~ignore
        if all(not live & SUIT_MASK[e] for e in open_ends):  # this move makes a fish
            score += _fish_score(view, table, rest, me, teams)
        return score + points


def _play_points(view: SeatView, move: Move) -> float:
    """What the points ``move`` scores now are worth, in a game that scores during play."""
    laid_so_far = [p for _, m, _ in view.history for p in plays_of(m)]
    spinner = view.rules.has_spinner(view.opts)
    scoring = view.rules.scoring(view.opts)
    return POINT * scoring.play_points([*laid_so_far, *plays_of(move)], spinner)


def _fish_score(view: SeatView, table: int, rest: int, me: int, teams: bool) -> float:
    """What a move that makes a fish is worth, ``table`` the tiles laid after it and ``rest``
    our hand: a bonus when our count is likely the lowest (each opponent's hand guessed at
    the mean of the unseen tiles), else a penalty that grows with our count."""
    seats = len(view.hand_sizes)
    unseen = FULL_MASK & ~table & ~rest
    per_tile = pips_of(unseen) / max(1, unseen.bit_count())
    mine = pips_of(rest)
    others = [
        view.hand_sizes[s] * per_tile
        for s in range(seats)
        if s != me and not (teams and s == (me + 2) % seats)
    ]
    return 6.0 if mine < min(others, default=0.0) else -2.0 * mine

"""``expert``: determinized search with the compiled playout kernel.

For a decision it samples many worlds consistent with what the seat has seen
(:mod:`kozel.layout.bots.sampling`), keeps those that best explain the other seats' earlier plays
if they play like the greedy bot (:mod:`kozel.layout.bots.inference`), and in each world plays
every legal move followed by quick playouts to the end of the round (all moves meet the same
playout randomness; the other seats play the greedy heuristic, ours it with some noise, and
in team Block ours and our partner's a policy learned from the expert's own choices). A
playout's cost is what the round charges under the game's own scoring (remembered points,
the fish mode, eggs, the Yard Goat bonuses), plus a heavy penalty for becoming the Goat,
which is how the distance to the loss limit enters; in team play the unit is the team. In the
games that score during play (the end-count games, Bergen) a playout costs minus the points
each unit scores in it — the lays' points, ours and what the next players make of the ends we
leave, and the hand's bonus — and nothing more for winning the game (a bonus for the win
scored fewer points per hand on duplicate deals). The move with the lowest expected cost, own
cost less a share of the opponents', wins.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kozel.core import DOUBLES_MASK, FULL_MASK, Draw, Move, Play
from kozel.layout.bots.greedy import GreedyBot
from kozel.layout.bots.inference import past_decisions
from kozel.layout.bots.kernel import (
    GREEDY,
    LINEAR,
    POINTS_MODES,
    _kernel,
    circle_of,
    pack_model,
    pack_scoring,
    pack_state,
    supports,
    tips_of_history,
    to_kernel,
)
from kozel.layout.bots.sampling import Sampler, World, lacked_values
from kozel.layout.history import plays_of
from kozel.layout.views import SeatView

if TYPE_CHECKING:
    from kozel._kernel import DecisionTuple, ModelTuple, ScoringTuple, StateTuple

GOAT_PENALTY = 150.0
"""The cost of becoming the Goat in this round."""
WIN_DURING_PLAY = 0.0
"""What winning the game in this round is worth beyond its points, in the games that score
during play."""
OPPONENT_WEIGHT = 0.35
"""How much a point charged to an opponent is worth to us."""
PLAYOUT_POLICY = (GREEDY, 8, GREEDY, 0)
"""Kernel playout policies, each with its noise (one move in N at random; 0 for none): our
seat plays the greedy bot's heuristic with one move in eight at random, the other seats play
it exactly (a model of the opponents)."""
CANDIDATES = 16
"""Worlds sampled for each one kept: the kept ones are drawn by how well they explain the
other seats' earlier plays (0 or 1: no inference). Sixteen rather than four: in Goat the
expert is charged 0.736 of greedy's charge rather than 0.772, in team Block it makes 10.1
points a player and round more than greedy rather than 9.0 (docs/bots.md), at about twice
the thinking."""
WORLD_BATCH = 50
"""Worlds drawn (each from :data:`CANDIDATES` candidates) at a time."""
MODEL_NOISE = 0.1
"""The chance the inference allows that a greedy seat did not play a greedy-best move."""
GREEDY_PRIOR = 0.9
"""The prior that another seat plays the greedy heuristic (else any legal move)."""
TWO_UNIT_RACE_WEIGHT = 1.0
"""The opponents' weight in the winner-scoring games (Draw, Block, Classic, Sea Goat) where
two units play (partners, or two players): a point they score is a point we do not, and the
hand is decided by the difference (team Block, on duplicate deals against the expert with
0.35: +2.9 [+1.1, +4.6] points a player and round over 337 rounds, docs/bots.md)."""
# fmt: off
LEARNED_WEIGHTS: dict[str, tuple[float, ...]] = {
    "block": (0.75, 4.884, 6.106, -4.685, 7.179, -3.594, -5.648, 0.658,
              -1.976, 0.0, 3.276, -4.884, 2.786, -3.922, -5.358, 2.485),
}
# fmt: on
"""By game, in team play: the kernel's linear policy (:data:`~kozel.layout.bots.kernel.LINEAR`)
fitted to the expert's own choices (bench/imitation.py ``--game team-block --seed 3000
--games 40``), by which our seat's and our partner's later turns in the playouts are played
instead of the greedy heuristic. In team Block the expert with it scores +2.0 [+0.3, +3.7]
points a player and round more than without it, on duplicate deals (docs/bots.md); where a
game has none, both seats play the greedy heuristic."""
EXACT_FACTOR = 1.0
"""Near a round's end each sampled world is searched exactly (:func:`kozel._kernel.exact`:
every seat plays its best, not the greedy model) when that visits at most this many times
the positions its playouts would (playouts x moves x tiles left); 0: never."""


@dataclass(frozen=True)
class Tuning:
    """The expert's search settings (the module's constants by default); benchmarks compare
    variants with it."""

    opponent_weight: float = OPPONENT_WEIGHT
    two_unit_race_weight: float | None = TWO_UNIT_RACE_WEIGHT
    """The opponents' weight in the winner-scoring games where two units play; ``None``: the
    same as :attr:`opponent_weight`."""
    exact_factor: float = EXACT_FACTOR
    candidates: int = CANDIDATES
    tree: float | None = None
    """Search our seat's later decisions in a tree shared by the worlds
    (:func:`kozel._kernel.tree_search`) with this UCB exploration; ``None``: flat playouts,
    our later decisions by the playout policy."""
    tree_patience: int = 0
    """Visits of a tree node before UCB chooses its move (the playout policy before)."""
    exact_tiles: int = 0
    """With this many tiles or fewer left in the hands and the bazaar, every world is searched
    exactly whatever it costs, and a decision samples :attr:`exact_worlds` worlds; 0: never."""
    exact_worlds: int = 0
    learned: bool = True
    """In team play, our seat and our partner play the game's :data:`LEARNED_WEIGHTS` in the
    playouts, where it has some."""
    own_weights: tuple[float, ...] | None = None
    """Our seat's later turns in the playouts by the kernel's linear policy with these
    weights (one move in eight at random) in every game, instead of the learned ones or the
    greedy heuristic."""
    partner_as_own: bool = False
    """With :attr:`own_weights`, our partner's later turns in the playouts as our own."""


WORLDS_DURING_PLAY, PLAYOUTS_DURING_PLAY = 100, 32


@dataclass(frozen=True)
class Budget:
    """How hard the expert thinks: worlds sampled and playouts per move in each world, or a
    time limit (then the count of worlds grows until the time is spent)."""

    worlds: int = 200
    playouts: int = 64
    seconds: float | None = None


LEVEL_BUDGETS = {
    "expert": Budget(),
}
DURING_PLAY_BUDGET = Budget(worlds=WORLDS_DURING_PLAY, playouts=PLAYOUTS_DURING_PLAY)
"""The plain expert's budget in the games that score during play: their rounds are longer
(all 28 tiles dealt in Telephone, four arms) and every playout move weighs the points of each
legal move, so fewer samples keep a decision as quick as Goat's."""


class ExpertBot:
    level = "expert"

    def __init__(
        self, seed: int | None = None, budget: Budget | None = None, tuning: Tuning | None = None
    ) -> None:
        self.rng = random.Random(seed)
        self.budget = budget
        """``None``: the plain expert's budget for the game (:data:`DURING_PLAY_BUDGET` in
        the games that score during play)."""
        self.tuning = tuning or Tuning()
        self.exact_worlds = 0
        """Worlds searched exactly so far (the others were played out)."""
        self.worlds = 0
        """Worlds evaluated so far."""

    def choose(self, view: SeatView) -> Move:
        if len(view.legal_moves) == 1:
            return view.legal_moves[0]
        return self.analyse(view)[0][0]

    def analyse(self, view: SeatView) -> list[tuple[Move, float]]:
        """Every legal move with its expected cost (lower is better), best first."""
        moves = list(view.legal_moves)
        if not moves:
            return []
        if not supports(view.rules):
            return self._without_kernel(view)
        assert view.seat is not None
        my_unit = view.opts.unit_of(view.seat)
        units = view.opts.units
        kernel_moves = [to_kernel(m) for m in moves]
        scoring = self._scoring(view)
        pack = _world_packer(view)
        sampler = Sampler(view, self.rng)
        model = self._model(view)
        totals = [0.0] * len(moves)
        worlds = 0
        budget = self._budget(view)
        if self._searches_every_world(view):
            budget = Budget(worlds=self.tuning.exact_worlds, playouts=budget.playouts)
        deadline = time.perf_counter() + budget.seconds if budget.seconds else None
        decisions = past_decisions(view) if self.tuning.candidates > 1 else []
        weight = self._opponent_weight(view)
        node_limit = self._exact_node_limit(view, budget, len(moves))
        exact = node_limit > 0
        pending: list[World] = []
        played: list[StateTuple] = []  # worlds for the tree search, searched together
        while True:
            if not pending:  # worlds drawn in batches, no more than the budget needs
                batch = WORLD_BATCH if deadline else min(WORLD_BATCH, budget.worlds - worlds)
                pending = self._worlds(view, sampler, model, decisions, batch)
            state = pack(pending.pop())
            values = None
            if exact:  # once a world's search is too big, the rest of the decision plays out
                values, _ = _kernel.exact(state, scoring, kernel_moves, weight, node_limit)
                exact = values is not None
            if values is not None:
                self.exact_worlds += 1
                for i, value in enumerate(values):
                    totals[i] += value * budget.playouts
            elif self.tuning.tree is not None:
                played.append(state)
            else:
                costs = _kernel.evaluate(
                    state,
                    scoring,
                    kernel_moves,
                    budget.playouts,
                    GREEDY,
                    self.rng.getrandbits(64),
                    model,
                )
                _add_playout_costs(totals, costs, my_unit, units, weight)
            worlds += 1
            self.worlds += 1
            done = worlds >= budget.worlds if deadline is None else time.perf_counter() >= deadline
            if played and (done or (deadline is not None and len(played) >= WORLD_BATCH)):
                costs, _ = _kernel.tree_search(
                    played,
                    scoring,
                    kernel_moves,
                    budget.playouts,
                    self.rng.getrandbits(64),
                    model,
                    weight,
                    self.tuning.tree or 0.0,
                    self.tuning.tree_patience,
                )
                _add_playout_costs(totals, costs, my_unit, units, weight)
                played = []
            if done:
                break
        scale = 1.0 / (worlds * budget.playouts)
        return sorted(
            ((move, total * scale) for move, total in zip(moves, totals, strict=True)),
            key=lambda pair: pair[1],
        )

    def _model(self, view: SeatView) -> ModelTuple:
        """How the playouts choose the seats' moves: :data:`PLAYOUT_POLICY`, our seat's (and
        our partner's) turns by the linear policy where the tuning or the game has weights."""
        weights, partner = self.tuning.own_weights, self.tuning.partner_as_own
        if weights is None and self.tuning.learned and view.opts.teams:
            weights, partner = LEARNED_WEIGHTS.get(view.rules.id), True
        if weights is None:
            return pack_model(view, *PLAYOUT_POLICY)
        _, noise, other, other_noise = PLAYOUT_POLICY
        return pack_model(view, LINEAR, noise, other, other_noise, weights, partner)

    def _budget(self, view: SeatView) -> Budget:
        """This decision's budget: the bot's own, else the plain expert's for the game."""
        return self.budget or (
            DURING_PLAY_BUDGET if view.rules.scoring in POINTS_MODES else LEVEL_BUDGETS["expert"]
        )

    def _exact_node_limit(self, view: SeatView, budget: Budget, moves: int) -> int:
        """The most positions an exact search of a world may visit: the tuning's factor
        times what its playouts would (playouts x moves x tiles left), no limit from the
        tuning's :attr:`~Tuning.exact_tiles` down; 0: never search."""
        if self._searches_every_world(view):
            return 1 << 62
        tiles = max(1, _tiles_left(view))
        return int(self.tuning.exact_factor * budget.playouts * moves * tiles)

    def _searches_every_world(self, view: SeatView) -> bool:
        """Whether this decision searches every world exactly (:attr:`Tuning.exact_tiles`)."""
        return 0 < _tiles_left(view) <= self.tuning.exact_tiles

    def _opponent_weight(self, view: SeatView) -> float:
        """How much a point charged to an opponent is worth to us in this game: the tuning's
        own weight for a race between two units, else its opponent weight."""
        two_unit_race = view.opts.units == 2 and view.rules.sheet_kind == "race"
        two_unit_race = two_unit_race and view.rules.scoring not in POINTS_MODES
        if two_unit_race and self.tuning.two_unit_race_weight is not None:
            return self.tuning.two_unit_race_weight
        return self.tuning.opponent_weight

    def _scoring(self, view: SeatView) -> ScoringTuple:
        """The kernel's scoring for this decision. In the games that score during play the
        round's points so far are added to the sheet and a playout is worth its points alone:
        a bonus for winning the game (the game's target) made the expert play the last hand
        of a game for the win, and it scored fewer points per hand on duplicate deals
        (docs/bots.md)."""
        rules, opts = view.rules, view.opts
        if rules.scoring not in POINTS_MODES:
            return pack_scoring(rules, opts, view.sheet, view.eggs, GOAT_PENALTY)
        return pack_scoring(
            rules, opts, view.sheet, view.eggs, WIN_DURING_PLAY, points_so_far(view)
        )

    def _without_kernel(self, view: SeatView) -> list[tuple[Move, float]]:
        """A game whose scoring the playout kernel does not know is never played out with
        another game's scoring: the moves are ranked in pure Python by the greedy heuristic
        (a move's cost is minus its score), which reads only the seat's view."""
        greedy = GreedyBot()
        lacks = lacked_values(view)
        scored = [(move, -greedy.score(view, move, lacks)) for move in view.legal_moves]
        return sorted(scored, key=lambda pair: pair[1])

    def _worlds(
        self,
        view: SeatView,
        sampler: Sampler,
        model: ModelTuple,
        decisions: list[DecisionTuple],
        count: int,
    ) -> list[World]:
        """``count`` worlds, drawn from ``candidates`` (:data:`CANDIDATES`) times as many by how
        likely the other seats' earlier plays are in each under the greedy model
        (:mod:`kozel.layout.bots.inference`)."""
        if not decisions:  # (none either without inference: fewer than two candidates)
            return [sampler.sample() for _ in range(count)]
        candidates = [sampler.sample() for _ in range(count * self.tuning.candidates)]
        rules = pack_state(
            view.rules,
            view.opts,
            [0] * len(view.hand_sizes),
            [],
            0,
            0,
            [-1] * 4,
            [False] * 4,
            -1,
            -1,
            0,
            0,
            -1,
            -1,
        )
        per_seat = _kernel.explain(
            rules, model, decisions, [tuple(w.hands) for w in candidates], MODEL_NOISE
        )
        # each other seat plays greedily (prior GREEDY_PRIOR) or anyhow: a mixture per seat
        logs = [
            sum(
                _log_mix(GREEDY_PRIOR, greedy, uniform)
                for greedy, uniform in zip(seat_logs[::2], seat_logs[1::2], strict=True)
            )
            for seat_logs in per_seat
        ]
        top = max(logs)
        if top == -math.inf:
            return candidates[:count]
        weights = [math.exp(x - top) for x in logs]
        return self.rng.choices(candidates, weights, k=count)


def _world_packer(view: SeatView) -> Callable[[World], StateTuple]:
    """A function that packs a sampled world of this decision for the kernel: the world's
    hands, bazaar and reserve in the position the view shows (its arms, the round's history,
    the seat to move)."""
    me = view.seat
    assert me is not None
    tips, spinner_line = tips_of_history(view.history, view.rules.has_spinner(view.opts))
    drew = bool(view.history) and view.history[-1][0] == me
    drew = drew and isinstance(view.history[-1][1], Draw)
    dead_doubles = DOUBLES_MASK if view.opts.ignores_doubles() else 0
    lead_mask = FULL_MASK if view.asking >= 0 else 0  # asked: the leader may lead any tile
    ends = [-1, -1, -1, -1]
    closed = [False] * 4
    for arm in view.arms:
        ends[arm.number] = arm.shows
        closed[arm.number] = arm.closed
    circle = circle_of(view.history, view.leader, view.hand_sizes)

    def pack(world: World) -> StateTuple:
        return pack_state(
            view.rules,
            view.opts,
            world.hands,
            world.bazaar,
            world.reserve | dead_doubles,
            lead_mask,
            ends,
            closed,
            view.spinner,
            view.first_tile,
            view.table,
            me,
            view.first_tile,
            -1,
            False,
            view.hundred,
            drew,
            tips,
            spinner_line,
            circle,
            view.asking,
        )

    return pack


def _tiles_left(view: SeatView) -> int:
    """The tiles still in the hands and the bazaar."""
    return sum(view.hand_sizes) + view.bazaar_left


def _add_playout_costs(
    totals: list[float], costs: list[list[float]], my_unit: int, units: int, weight: float
) -> None:
    """Add one world's playout costs to each move's total: our unit's cost, less ``weight``
    times the mean of the other units'."""
    for i, per_unit in enumerate(costs):
        own = per_unit[my_unit]
        others = [c for u, c in enumerate(per_unit) if u != my_unit]
        totals[i] += own - weight * sum(others) / max(1, units - 1)


def points_so_far(view: SeatView) -> list[int]:
    """Per unit, the points the lays of this round have scored so far (from the public
    history, by the game's own scoring)."""
    opts = view.opts
    scoring = view.rules.scoring(opts)
    spinner = view.rules.has_spinner(opts)
    during = [0] * opts.units
    laid: list[Play] = []
    for seat, move, _ in view.history:
        plays = plays_of(move)
        if plays:
            laid.extend(plays)
            during[opts.unit_of(seat)] += scoring.play_points(laid, spinner)
    return during


def _log_mix(prior: float, log_a: float, log_b: float) -> float:
    """log(prior * exp(log_a) + (1 - prior) * exp(log_b))."""
    a = math.log(prior) + log_a
    b = math.log1p(-prior) + log_b
    top = max(a, b)
    if top == -math.inf:
        return top
    return top + math.log(math.exp(a - top) + math.exp(b - top))

"""How well the expert's worlds place the other hands' tiles, by candidates per world kept.

The expert samples the worlds it searches from what its seat has seen, and keeps those that
best explain the other seats' earlier plays under the greedy model, drawing each kept world
from ``candidates`` sampled ones (:mod:`kozel.layout.bots.expert`). At every decision of a
watched seat with two or more legal moves once four moves are down, this asks the expert's own
world drawing for ``--worlds`` worlds with each count of candidates and counts the tiles of the
other hands it placed in the hand that really holds them: the share placed right (the
partner's and the opponents' apart where the seat has a partner), and the milliseconds the
drawing took a position. One candidate is no inference at all.

By default the games are of Goat (four players, default options) between greedy players,
seat 0 watched. With ``--peer NAME`` they are the peer match's hands of team Block
(bench/peer_match.py): the expert's pair against the `dominoes` package's players, both
expert seats watched, ``--deals`` duplicate deals of ``--seed`` — how well the greedy model
reads players who are not greedy.

    .venv/bin/python bench/inference.py --games 6 --candidates 1,4,16,64,256
    .venv/bin/python bench/inference.py --noise 0.01 --prior 0.99
    .venv/bin/python bench/inference.py --peer probabilistic_alphabeta --deals 12 \
        --candidates 1,16

A diagnostic, not a bot's strength: docs/bots.md says what it showed.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field

import kozel.layout.bots.expert as expert
from kozel.games import GOAT
from kozel.layout.bots.expert import PLAYOUT_POLICY, ExpertBot, Tuning
from kozel.layout.bots.greedy import GreedyBot
from kozel.layout.bots.inference import past_decisions
from kozel.layout.bots.kernel import pack_model
from kozel.layout.bots.sampling import Sampler
from kozel.layout.match import Match
from kozel.layout.views import SeatView, view_for

FIRST_MOVES = 4
"""Positions are counted once more than this many moves are down."""


@dataclass
class Tally:
    """The tiles placed right and held, by count of candidates and by whose hand."""

    counts: list[int]
    worlds: int
    positions: int = 0
    placed: Counter[tuple[int, str]] = field(default_factory=Counter)
    held: Counter[tuple[int, str]] = field(default_factory=Counter)
    spent: Counter[int] = field(default_factory=Counter)

    def position(self, view: SeatView, hands: list[int]) -> None:
        """Draw worlds for ``view`` with each count and count them against the real ``hands``
        (tile masks by seat)."""
        if len(view.history) <= FIRST_MOVES:
            return
        assert view.seat is not None
        self.positions += 1
        unit = view.opts.unit_of(view.seat)
        for count in self.counts:
            bot = ExpertBot(seed=self.positions, tuning=Tuning(candidates=count))
            started = time.perf_counter()
            sampler = Sampler(view, bot.rng)
            model = pack_model(view, *PLAYOUT_POLICY)
            decisions = past_decisions(view) if count > 1 else []
            drawn = bot._worlds(view, sampler, model, decisions, self.worlds)
            self.spent[count] += time.perf_counter() - started
            for world in drawn:
                for seat, hand in enumerate(hands):
                    if seat == view.seat:
                        continue
                    whose = "partner" if view.opts.unit_of(seat) == unit else "opponents"
                    self.placed[count, whose] += (world.hands[seat] & hand).bit_count()
                    self.held[count, whose] += hand.bit_count()

    def share(self, count: int, whose: tuple[str, ...] = ("partner", "opponents")) -> float:
        placed = sum(self.placed[count, w] for w in whose)
        return placed / max(1, sum(self.held[count, w] for w in whose))

    def lines(self) -> list[dict[str, float | int]]:
        """One JSON-ready line a count of candidates."""
        out: list[dict[str, float | int]] = []
        for count in self.counts:
            line: dict[str, float | int] = {"candidates": count}
            line["placed_right"] = round(self.share(count), 4)
            if self.held[count, "partner"]:
                line["partner"] = round(self.share(count, ("partner",)), 4)
                line["opponents"] = round(self.share(count, ("opponents",)), 4)
            line["ms_a_position"] = round(1000 * self.spent[count] / max(1, self.positions), 1)
            out.append(line)
        return out


def seat_zero_choices(games: int) -> Iterator[tuple[int, SeatView, list[int]]]:
    """Games of Goat (four players, default options) between seeded greedy players: at each
    decision of seat 0 with two or more legal moves, the game's number, the seat's view and
    the real hands (tile masks by seat). The same ``games`` give the same positions."""
    opts = GOAT.options()
    for seed in range(games):
        match = Match(GOAT, opts, seed)
        bots = [GreedyBot(seed * opts.players + seat) for seat in range(opts.players)]
        while not match.over:
            rnd = match.next_round()
            while not rnd.over:
                view = view_for(match, rnd.turn)
                if rnd.turn == 0 and len(rnd.legal_moves()) > 1:
                    yield seed, view, list(rnd.hands)
                match.push(bots[rnd.turn].choose(view))


def measure(games: int, tally: Tally) -> None:
    """Games of Goat between greedy players, seat 0 watched."""
    for _, view, hands in seat_zero_choices(games):
        tally.position(view, hands)


def measure_peer(peer: str, deals: int, seed: int, tally: Tally) -> None:
    """The peer match's hands (bench/peer_match.py), every expert seat watched."""
    import peer_match

    settings = peer_match.Settings(level="expert", peer=peer, seed=seed)

    def watch(match: Match, seat: int) -> None:
        tally.position(match.view(seat), list(match.round.hands))

    for index in range(deals):
        peer_match.play_both(settings, index, watch)
        print(f"deal {index + 1}/{deals}: {tally.positions} positions", file=sys.stderr)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=6, help="games of Goat to play (default 6)")
    parser.add_argument("--candidates", default="1,4,16,64", help="counts to compare")
    parser.add_argument("--worlds", type=int, default=100, help="worlds a position (100)")
    parser.add_argument("--noise", type=float, default=expert.MODEL_NOISE, help="the model's noise")
    parser.add_argument("--prior", type=float, default=expert.GREEDY_PRIOR, help="its prior")
    parser.add_argument("--peer", help="the peer match's player instead of Goat's greedy players")
    parser.add_argument("--deals", type=int, default=12, help="with --peer: deals (default 12)")
    parser.add_argument("--seed", type=int, default=1, help="with --peer: the deals' seed (1)")
    args = parser.parse_args()
    tally = Tally([int(c) for c in args.candidates.split(",")], args.worlds)
    expert.MODEL_NOISE, expert.GREEDY_PRIOR = args.noise, args.prior
    if args.peer:
        measure_peer(args.peer, args.deals, args.seed, tally)
        played = f"the expert's seats in {args.deals} deals against {args.peer}"
    else:
        measure(args.games, tally)
        played = f"seat 0 in {args.games} games"
    print(f"{tally.positions} positions of {played}; noise {args.noise}, prior {args.prior}")
    for line in tally.lines():
        print(json.dumps(line))
    sys.stdout.flush()


if __name__ == "__main__":
    main()

"""bench/information.py: the oracle searches the real deal and nothing else."""

from __future__ import annotations

import random
import sys
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import information

from kozel.games import GOAT
from kozel.layout.bots.greedy import GreedyBot
from kozel.layout.bots.sampling import Sampler, World
from kozel.layout.match import Match
from kozel.layout.views import view_for


def test_the_oracles_worlds_are_the_real_deal() -> None:
    match = Match(GOAT, GOAT.options(), 3)
    rnd = match.next_round()
    greedy = GreedyBot()
    while rnd.turn != 0 or len(rnd.legal_moves()) < 2:
        match.push(greedy.choose(view_for(match, rnd.turn)))
    view = view_for(match, 0)
    oracle = information.Oracle(partial(World, list(rnd.hands), [], 0), seed=1)
    worlds = oracle._worlds(view, Sampler(view, random.Random(1)), (), [], 3)
    assert [w.hands for w in worlds] == [rnd.hands] * 3
    # and the sampler's worlds, which the expert searches, are not (the others' hands differ)
    sampled = Sampler(view, random.Random(1)).sample()
    assert sampled.hands[0] == rnd.hands[0] and sampled.hands != rnd.hands
    ranked = oracle.analyse(view)
    assert sorted(map(str, (move for move, _ in ranked))) == sorted(map(str, view.legal_moves))

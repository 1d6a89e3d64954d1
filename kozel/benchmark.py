"""The engine benchmark: complete random rounds through the public API, on one core."""

from __future__ import annotations

import random
import time

from kozel.core import DOUBLES_MASK, TILE_COUNT
from kozel.engine.game import Game
from kozel.engine.options import Options
from kozel.games import GOAT
from kozel.layout.deal import deal_tiles
from kozel.layout.round import Round
from kozel.layout.rules import Ruleset


def options_for(rules: Ruleset, players: int) -> Options:
    """The game's default options with ``players`` players, where the game offers a choice
    (Bykovo is always four)."""
    offered = any(spec.name == "players" for spec in rules.option_specs)
    return rules.options({"players": players} if offered else {})


def engine_rounds_per_second(
    seconds: float = 3.0, seed: int = 1, rules: Ruleset = GOAT, players: int = 4
) -> float:
    """Deal, then play uniformly random legal moves with ``legal_moves()`` and ``push()``
    until the round ends and its counts are taken; rounds completed per second."""
    opts = options_for(rules, players)
    hand_size = rules.hand_size(opts)
    rng = random.Random(seed)
    pick = rng.random
    rounds = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(100):
            deal, _redeals = deal_tiles(rng, players, hand_size, rules.redeal, rules.redeal_on_suit)
            if rules.uses_lot(opts):  # the lot's winner leads any tile
                leader = rules.lot_winner(rng.sample(range(TILE_COUNT), players))
                lead_mask = deal.masks[leader]
            else:
                leader, first = rules.first_leader(deal.masks)
                lead_mask = 1 << first
            rnd = Round(rules, opts, deal, leader, lead_mask)
            while rnd.end is None:
                moves = rnd.legal_moves()
                rnd.push(moves[int(pick() * len(moves))])
            rnd.counts()
        rounds += 100
        now = time.perf_counter()
        if now >= deadline:
            return rounds / (now - start)


def playout_rounds_per_second(
    rounds: int = 1_000_000, seed: int = 1, rules: Ruleset = GOAT, players: int = 4
) -> float:
    """Random rounds of a game (4-player Goat by default) through the compiled kernel, one
    core: each round a new deal of the game's hand size with its reserve left undrawn (all
    the leftover tiles in a game without draws), its leader leading any tile; the games that
    score during play score every lay."""
    from kozel.layout.bots.kernel import _kernel, pack_round
    from kozel.layout.match import Match

    opts = options_for(rules, players)
    dealt = players * rules.hand_size(opts)
    left = TILE_COUNT - dealt
    reserve = min(opts.reserve_size(), left) if rules.draws else left
    ignore = DOUBLES_MASK if opts.ignores_doubles() else 0
    start_position = pack_round(Match(rules, opts, seed).next_round())
    start = time.perf_counter()
    _kernel.random_rounds(start_position, rounds, seed, rules.hand_size(opts), reserve, ignore)
    return rounds / (time.perf_counter() - start)


def expert_decision_ms(
    games: int = 2, seed: int = 1, level: str = "expert", rules: Game = GOAT
) -> list[float]:
    """Milliseconds the expert takes for each decision with a choice, in games of the game's
    default options (Goat by default: 4 players) where it holds seat 0 against greedy
    players."""
    timings: list[float] = []
    expert = rules.make_bot(level, seed)
    others = rules.make_bot("greedy", seed)
    for game in range(games):
        match = rules.new_match(rules.options(), seed + game)
        while not match.over:
            if match.needs_deal:
                match.deal_next()
                continue
            turn = match.to_move
            assert turn is not None
            moves = match.legal_moves()
            if len(moves) == 1:
                match.push(moves[0])
                continue
            view = match.view(turn)
            if turn != 0:
                match.push(others.choose(view))
                continue
            start = time.perf_counter()
            move = expert.choose(view)
            timings.append((time.perf_counter() - start) * 1000)
            match.push(move)
    return timings

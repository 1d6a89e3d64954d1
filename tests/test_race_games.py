"""Worked examples and scripted deals of the winner-scoring games: Draw, Block, Classic
(docs/rules.md#winner-games), Sea Goat (§5), the Decisions they share (§8.5) and their rating (§12).

Every scripted game below is played through real rounds to its end with exact expected sheets,
and its record (docs/record.md#record-other-games) must replay clean; mutated records
are refused with a message that names the discrepancy. Each test names the rule it proves.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest

from kozel.core import DRAW, KNOCK, IllegalMove, InvalidOption, Play, PlayDoubles, mask_of
from kozel.engine.errors import RecordError
from kozel.engine.record import dumps
from kozel.games import BLOCK, CLASSIC, GAMES, SEA_GOAT, get_game, replay_layout
from kozel.layout.deal import Deal
from kozel.layout.match import Match, record_of
from kozel.layout.round import HUNDRED
from kozel.layout.rules import Ruleset
from kozel.layout.scoring.race import RaceScoring, race_rating
from tests.scripting import legal, move, t, tiles

DRAW_RULES = GAMES["draw"]

ScriptedRound = tuple[tuple[str, ...], str, str]
"""One round: the hands as dealt (seat 0 first), the bazaar in draw order, and the moves in
the short form of :mod:`tests.scripting`, plus ``6-6^`` for Sea Goat's hundred."""
Game = tuple[ScriptedRound, ...]


def deal_of(hands: tuple[str, ...], bazaar: str) -> Deal:
    return Deal(tuple(tiles(hand) for hand in hands), tiles(bazaar))


def push_script(m: Match, script: str) -> None:
    """Push every move of ``script``, asserting the seat to move and that the move is legal.
    ``seat:6-6^`` is the lead of 6-6 that declares the hundred."""
    for token in script.split():
        seat_text, _, text = token.rpartition(":")
        rnd = m.round
        assert rnd.end is None, f"{token}: the round is already over ({rnd.end})"
        assert rnd.turn == int(seat_text), f"{token}: it is seat {rnd.turn}'s turn"
        mv = Play(t(text[:-1]), None, False, True) if text.endswith("^") else move(text)
        assert mv in rnd.legal_moves(), f"{token}: not legal; legal moves are {legal(m)}"
        m.push(mv)


def play(rules: Ruleset, raw: dict[str, Any], game: Game, rounds: int | None = None) -> Match:
    """A match of ``rules`` with options ``raw`` through the first ``rounds`` rounds of
    ``game`` (all of them by default); every round must end where its script ends."""
    m = Match(rules, rules.options(raw))
    for hands, bazaar, script in game[:rounds]:
        m.next_round(deal_of(hands, bazaar))
        push_script(m, script)
        assert m.round.over, "the script stops before the round ends"
    return m


def entry(before: int, credited: int, after: int) -> dict[str, Any]:
    """A sheet entry of a winner-scoring game (nothing scored during play)."""
    return {"before": before, "during": 0, "credited": credited, "after": after}


def written_off(before: int, credited: int) -> dict[str, Any]:
    """A sheet entry of a Sea Goat round that wrote every record off."""
    return {"before": before, "during": 0, "credited": credited, "after": 0, "written_off": True}


def leaders(m: Match) -> list[int]:
    return [r.round.leader for r in m.results]


def round_trip(m: Match) -> dict[str, Any]:
    """The match's record, through JSON and ``replay``, written again identically."""
    seats = [f"p{s}" for s in range(m.opts.players)]
    record: dict[str, Any] = json.loads(dumps(record_of(m, seats)))
    again = replay_layout(record)
    assert record_of(again, seats) == record
    assert set(record["options"]) == {s.name for s in m.rules.option_specs}
    return record


# --- the scripted games (found by search, checked by hand: see each test) ----------------
SEA_OPENING_AND_WRITE_OFF: Game = (  # sea_goat, 4 players
    # round 1: out seat 3; left in hand: 0-0 0-5 | 0-6 | 2-2 2-6 | -
    (
        (
            "0-0 0-5 1-4 2-5 4-5 4-6 6-6",
            "0-1 0-4 0-6 1-6 3-3 3-5 5-6",
            "0-3 1-3 1-5 2-2 2-6 3-4 5-5",
            "0-2 1-1 1-2 2-3 2-4 3-6 4-4",
        ),
        "",
        """
        3:1-1    0:1-4@1  1:0-4@1  2:1-3@0  3:0-2@1  0:2-5@1
        1:3-3@0  2:1-5@1  3:2-3@0  0:knock  1:0-1@1  2:0-3@1
        3:2-4@0  0:4-6@0  1:5-6@0  2:3-4@1  3:4-4@1  0:4-5@1
        1:3-5@1  2:5-5@0  3:3-6@1  0:6-6@1  1:1-6@1  2:knock
        3:1-2@1
        """,
    ),
    # round 2: out seat 0; left in hand: - | 2-4 3-3 | 1-3 4-4 | 0-2 0-3
    (
        (
            "0-0 0-4 1-1 1-2 2-2 3-5 4-6",
            "0-6 2-3 2-4 2-6 3-3 5-5 5-6",
            "0-5 1-3 1-6 2-5 3-4 4-4 6-6",
            "0-1 0-2 0-3 1-4 1-5 3-6 4-5",
        ),
        "",
        """
        3:4-5    0:0-4@0  1:5-6@1  2:1-6@1  3:0-1@1  0:0-0@0
        1:0-6@0  2:0-5@1  3:3-6@0  0:3-5@0  1:5-5@1  2:2-5@1
        3:1-5@0  0:1-1@0+2-2@1 1:2-3@1  2:3-4@1  3:1-4@1  0:1-2@1
        1:2-6@1  2:6-6@1  3:knock  0:4-6@1
        """,
    ),
    # round 3: out seat 0; left in hand: - | 2-5 | 2-3 | 1-1
    (
        (
            "0-6 1-6 2-6 3-3 3-5 3-6 5-6",
            "0-0 1-2 1-4 2-5 4-4 4-6 6-6",
            "0-4 0-5 1-3 1-5 2-3 2-4 5-5",
            "0-1 0-2 0-3 1-1 2-2 3-4 4-5",
        ),
        "",
        """
        0:0-6    1:4-6@1  2:0-4@0  3:3-4@0  0:3-6@0  1:1-4@1
        2:1-5@1  3:4-5@1  0:5-6@0  1:4-4@1  2:0-5@0  3:0-1@0
        0:1-6@0  1:6-6@0  2:2-4@1  3:2-2@1  0:2-6@0  1:1-2@1
        2:1-3@1  3:0-2@0  0:3-5@1  1:0-0@0  2:5-5@1  3:0-3@0
        0:3-3@0
        """,
    ),
    # round 4: out seat 1; left in hand: 0-4 5-5 | - | 0-5 4-4 4-5 | 3-4
    (
        (
            "0-0 0-4 1-1 1-4 3-6 5-5 5-6",
            "0-2 0-3 1-2 1-5 2-4 2-5 6-6",
            "0-1 0-5 0-6 3-3 4-4 4-5 4-6",
            "1-3 1-6 2-2 2-3 2-6 3-4 3-5",
        ),
        "",
        """
        0:0-0    1:0-2@1  2:0-1@0  3:2-6@1  0:1-1@0  1:1-5@0
        2:4-6@1  3:3-5@0  0:1-4@1  1:0-3@0  2:0-6@0  3:1-3@1
        0:5-6@0  1:2-5@0  2:3-3@1  3:2-2@0  0:3-6@1  1:6-6@1
        2:knock  3:1-6@1  0:knock  1:1-2@1  2:knock  3:2-3@1
        0:knock  1:2-4@0
        """,
    ),
    # round 5: out seat 1; left in hand: 2-5 6-6 | - | 0-6 4-4 | 3-3 5-6
    (
        (
            "0-3 0-4 0-5 1-6 2-4 2-5 6-6",
            "0-0 0-1 1-2 1-5 2-2 3-5 4-6",
            "0-2 0-6 3-4 3-6 4-4 4-5 5-5",
            "1-1 1-3 1-4 2-3 2-6 3-3 5-6",
        ),
        "",
        """
        1:1-5    2:5-5@1  3:1-3@0  0:0-3@0  1:0-1@0  2:4-5@1
        3:1-1@0  0:2-4@1  1:1-2@0  2:0-2@1  3:2-3@0  0:0-5@1
        1:3-5@1  2:3-4@0  3:1-4@0  0:1-6@0  1:4-6@0  2:3-6@1
        3:2-6@1  0:0-4@0  1:0-0@0+2-2@1
        """,
    ),
)

SEA_HUNDRED_MADE: Game = (  # sea_goat, 4 players
    # round 1: out seat 3; left in hand: 0-0 4-4 | 5-5 | 1-2 2-2 | -
    (
        (
            "0-0 0-1 0-2 1-4 1-6 4-4 4-6",
            "0-3 0-4 0-5 1-5 3-4 3-6 5-5",
            "0-6 1-2 1-3 2-2 2-4 4-5 6-6",
            "1-1 2-3 2-5 2-6 3-3 3-5 5-6",
        ),
        "",
        """
        3:1-1    0:1-4@1  1:1-5@0  2:4-5@1  3:5-6@0  0:4-6@0
        1:0-4@0  2:0-6@0  3:2-5@1  0:0-2@1  1:0-3@1  2:6-6@0
        3:3-3@1  0:1-6@0  1:3-4@1  2:2-4@1  3:2-6@1  0:0-1@0
        1:0-5@0  2:knock  3:3-5@0  0:knock  1:3-6@1  2:1-3@1
        3:2-3@0
        """,
    ),
    # round 2: out seat 3; left in hand: 0-1 1-1 | 5-5 | 0-5 | -
    (
        (
            "0-1 0-4 0-6 1-1 1-3 3-3 4-4",
            "0-2 1-4 1-6 2-4 2-5 5-5 5-6",
            "0-0 0-3 0-5 2-2 2-3 3-5 4-5",
            "1-2 1-5 2-6 3-4 3-6 4-6 6-6",
        ),
        "",
        """
        3:6-6^   0:0-6@0  1:0-2@0  2:2-3@0  3:3-6@1  0:1-3@0
        1:1-6@0  2:0-3@1  3:4-6@0  0:4-4@0  1:1-4@0  2:0-0@1
        3:1-2@0  0:0-4@1  1:2-4@1  2:2-2@1  3:2-6@1  0:knock
        1:5-6@1  2:4-5@1  3:3-4@1  0:3-3@1  1:2-5@0  2:3-5@1
        3:1-5@1
        """,
    ),
)

SEA_HUNDRED_FAILED: Game = (  # sea_goat, 4 players
    # round 1: out seat 3; left in hand: 1-6 6-6 | 2-2 | 0-0 4-4 | -
    (
        (
            "0-1 0-4 1-3 1-6 2-3 3-5 6-6",
            "1-4 2-2 2-5 2-6 3-3 4-6 5-5",
            "0-0 0-2 0-3 0-6 3-4 4-4 4-5",
            "0-5 1-1 1-2 1-5 2-4 3-6 5-6",
        ),
        "",
        """
        3:1-1    0:1-3@0  1:1-4@1  2:3-4@1  3:3-6@0  0:2-3@1
        1:2-6@0  2:0-2@0  3:0-5@0  0:3-5@0  1:2-5@1  2:4-5@1
        3:2-4@1  0:knock  1:3-3@0  2:0-3@0  3:1-2@1  0:0-4@0
        1:4-6@0  2:0-6@0  3:1-5@1  0:0-1@0  1:5-5@1  2:knock
        3:5-6@1
        """,
    ),
    # round 2: out seat 0; left in hand: - | 0-1 0-4 | 1-3 3-4 | 4-4 4-5 5-6
    (
        (
            "0-6 1-1 1-5 2-2 2-6 3-6 5-5",
            "0-1 0-3 0-4 0-5 1-2 2-3 2-4",
            "0-0 0-2 1-3 1-4 2-5 3-4 3-5",
            "1-6 3-3 4-4 4-5 4-6 5-6 6-6",
        ),
        "",
        """
        3:6-6^   0:3-6@0  1:2-3@0  2:2-5@0  3:1-6@1  0:5-5@0+1-1@1
        1:0-5@0  2:0-2@0  3:knock  0:2-2@0  1:2-4@0  2:1-4@0
        3:knock  0:1-5@0  1:1-2@1  2:3-5@0  3:3-3@0  0:2-6@1
        1:0-3@0  2:0-0@0  3:4-6@1  0:0-6@0
        """,
    ),
)

SEA_HUNDRED_FAILED_IN_A_FISH: Game = (  # sea_goat, 4 players
    # round 1: out seat 1; left in hand: 0-2 0-3 | - | 0-6 2-4 4-5 | 0-0 0-5
    (
        (
            "0-2 0-3 1-1 1-2 1-3 2-3 3-6",
            "0-1 1-4 2-5 2-6 3-3 3-4 6-6",
            "0-4 0-6 2-2 2-4 3-5 4-5 5-6",
            "0-0 0-5 1-5 1-6 4-4 4-6 5-5",
        ),
        "",
        """
        0:1-1    1:0-1@0  2:0-4@0  3:4-4@0  0:1-3@1  1:3-4@0
        2:3-5@0  3:5-5@0  0:3-6@1  1:2-6@1  2:5-6@0  3:4-6@0
        0:1-2@1  1:1-4@0  2:knock  3:1-5@0  0:knock  1:2-5@0
        2:2-2@0  3:1-6@1  0:2-3@0  1:3-3@0+6-6@1
        """,
    ),
    # round 2: fish seat 0; left in hand:
    # 0-1 1-2 2-5 4-4 | 1-4 2-4 4-5 5-5 | 0-3 0-4 3-3 3-5 | 0-2 1-1 1-5 2-2
    (
        (
            "0-1 0-6 1-2 1-3 2-5 4-4 5-6",
            "1-4 2-4 2-6 3-6 4-5 5-5 6-6",
            "0-3 0-4 0-5 1-6 3-3 3-5 4-6",
            "0-0 0-2 1-1 1-5 2-2 2-3 3-4",
        ),
        "",
        """
        1:6-6^   2:4-6@1  3:3-4@1  0:1-3@1  1:2-6@0  2:1-6@1
        3:2-3@0  0:5-6@1  1:3-6@0  2:0-5@1  3:0-0@1  0:0-6@1
        """,
    ),
)

SEA_TEAM_HUNDRED_FAILED_ON_A_BALD_GOAT: Game = (  # sea_goat, teams
    # round 1: out seat 1; left in hand: 0-4 1-4 4-4 | - | 0-0 5-5 | 0-6 6-6
    (
        (
            "0-4 0-5 1-4 2-4 3-4 3-5 4-4",
            "0-1 1-1 1-3 2-2 2-3 2-6 3-3",
            "0-0 0-3 1-2 1-5 4-5 5-5 5-6",
            "0-2 0-6 1-6 2-5 3-6 4-6 6-6",
        ),
        "",
        """
        1:1-1    2:1-5@0  3:2-5@0  0:2-4@0  1:1-3@1  2:0-3@1
        3:0-2@1  0:3-4@0  1:3-3@0+2-2@1 2:1-2@1  3:1-6@1  0:3-5@0
        1:2-6@1  2:4-5@0  3:4-6@0  0:knock  1:2-3@1  2:5-6@0
        3:3-6@1  0:0-5@0  1:0-1@0
        """,
    ),
    # round 2: out seat 3; left in hand: 1-1 2-4 | 0-6 3-5 5-6 | 3-4 4-4 | -
    (
        (
            "0-2 0-3 1-1 1-3 1-4 2-4 2-5",
            "0-5 0-6 2-3 2-6 3-5 5-6 6-6",
            "0-1 1-5 1-6 3-3 3-4 4-4 4-5",
            "0-0 0-4 1-2 2-2 3-6 4-6 5-5",
        ),
        "",
        """
        1:6-6^   2:1-6@1  3:3-6@0  0:1-3@0  1:knock  2:0-1@0
        3:0-4@0  0:1-4@0  1:knock  2:1-5@1  3:5-5@1  0:2-5@1
        1:2-3@1  2:3-3@1  3:1-2@0  0:0-2@0  1:0-5@0  2:4-5@0
        3:4-6@0  0:0-3@1  1:2-6@0  2:knock  3:2-2@0+0-0@1
        """,
    ),
)

SEA_BALD_GOAT: Game = (  # sea_goat, 4 players
    # round 1: out seat 0; left in hand: - | 2-2 2-3 3-3 | 0-3 | 1-2
    (
        (
            "0-0 0-5 1-1 1-4 2-6 4-6 5-6",
            "0-1 0-2 1-3 2-2 2-3 3-3 5-5",
            "0-3 0-4 0-6 1-6 2-4 3-4 3-5",
            "1-2 1-5 2-5 3-6 4-4 4-5 6-6",
        ),
        "",
        """
        0:1-1    1:0-1@0  2:1-6@1  3:3-6@1  0:0-5@0  1:5-5@0
        2:3-5@1  3:2-5@1  0:2-6@1  1:knock  2:0-6@1  3:4-5@0
        0:4-6@0  1:0-2@1  2:2-4@1  3:6-6@0  0:1-4@1  1:1-3@1
        2:3-4@1  3:4-4@1  0:5-6@0  1:knock  2:0-4@1  3:1-5@0
        0:0-0@1
        """,
    ),
)

SEA_OUT_ON_0_0_AND_6_6: Game = (  # sea_goat, 4 players
    # round 1: out seat 3; left in hand: 4-4 5-5 | 1-6 3-3 3-6 | 0-3 1-5 5-6 | -
    (
        (
            "1-4 2-2 2-4 2-5 4-4 4-6 5-5",
            "0-5 1-2 1-3 1-6 3-3 3-4 3-6",
            "0-2 0-3 1-5 2-6 3-5 4-5 5-6",
            "0-0 0-1 0-4 0-6 1-1 2-3 6-6",
        ),
        "",
        """
        3:1-1    0:1-4@1  1:1-3@0  2:4-5@1  3:2-3@0  0:2-5@0
        1:0-5@1  2:3-5@0  3:0-6@1  0:4-6@1  1:3-4@0  2:knock
        3:0-4@1  0:2-4@0  1:1-2@0  2:0-2@1  3:0-1@0  0:2-2@1
        1:knock  2:2-6@1  3:0-0@0+6-6@1
        """,
    ),
)

SEA_SIX_SIX_LOSER_OVER_25: Game = (  # sea_goat, 4 players
    # round 1: out seat 1; left in hand: 0-1 | - | 0-0 0-3 3-5 | 3-3 5-5 5-6
    (
        (
            "0-1 0-2 1-2 1-4 2-6 3-6 4-4",
            "0-4 0-6 1-1 1-5 2-3 2-5 6-6",
            "0-0 0-3 1-6 2-2 2-4 3-5 4-6",
            "0-5 1-3 3-3 3-4 4-5 5-5 5-6",
        ),
        "",
        """
        1:1-1    2:1-6@1  3:1-3@0  0:3-6@0  1:0-6@1  2:4-6@0
        3:4-5@0  0:0-2@1  1:1-5@0  2:2-2@1  3:knock  0:1-4@0
        1:0-4@0  2:2-4@1  3:0-5@0  0:4-4@1  1:2-5@0  2:knock
        3:3-4@1  0:1-2@0  1:2-3@1  2:knock  3:knock  0:2-6@1
        1:6-6@1
        """,
    ),
)

SEA_SIX_SIX_LONE_0_0_IS_NOT_OVER_25: Game = (  # sea_goat, 4 players
    # round 1: out seat 3; left in hand: 0-3 0-6 | 0-0 | 3-3 | -
    (
        (
            "0-3 0-6 1-2 1-5 2-2 2-3 5-5",
            "0-0 0-2 0-5 1-6 2-6 3-4 4-4",
            "0-1 0-4 3-3 3-5 3-6 4-5 5-6",
            "1-1 1-3 1-4 2-4 2-5 4-6 6-6",
        ),
        "",
        """
        3:1-1    0:1-5@0  1:0-5@0  2:0-4@0  3:1-3@1  0:2-3@1
        1:4-4@0  2:4-5@0  3:2-5@0  0:2-2@0  1:0-2@1  2:0-1@1
        3:1-4@1  0:1-2@0  1:3-4@1  2:3-6@1  3:4-6@1  0:knock
        1:1-6@0  2:5-6@0  3:2-4@1  0:5-5@0  1:2-6@1  2:3-5@0
        3:6-6@1
        """,
    ),
    # round 2: out seat 3; left in hand: 3-5 4-5 | 0-3 3-3 5-5 | 1-4 4-4 6-6 | -
    (
        (
            "0-2 0-6 1-2 1-5 2-6 3-5 4-5",
            "0-3 1-3 1-6 2-3 3-3 3-4 5-5",
            "0-4 1-1 1-4 2-2 4-4 4-6 6-6",
            "0-0 0-1 0-5 2-4 2-5 3-6 5-6",
        ),
        "",
        """
        3:5-6    0:2-6@1  1:2-3@1  2:knock  3:0-5@0  0:0-6@0
        1:1-6@0  2:1-1@0  3:0-1@0  0:0-2@0  1:1-3@1  2:2-2@0
        3:2-4@0  0:1-2@1  1:3-4@0  2:knock  3:3-6@0  0:knock
        1:knock  2:4-6@0  3:2-5@1  0:1-5@1  1:knock  2:0-4@0
        3:0-0@0
        """,
    ),
)

SEA_TEAM_SIX_SIX_PARTNER_OVER_25: Game = (  # sea_goat, teams
    # round 1: out seat 1; left in hand: 2-3 5-5 | - | 2-5 3-3 5-6 | 2-2 2-4 2-6 4-6
    (
        (
            "0-0 1-4 1-6 2-3 3-5 3-6 5-5",
            "0-1 0-3 0-6 1-1 1-2 1-5 6-6",
            "0-2 0-4 0-5 2-5 3-3 3-4 5-6",
            "1-3 2-2 2-4 2-6 4-4 4-5 4-6",
        ),
        "",
        """
        1:1-1    2:knock  3:1-3@1  0:3-5@1  1:1-5@1  2:knock
        3:knock  0:1-4@0  1:1-2@1  2:0-2@1  3:4-4@0  0:0-0@1
        1:0-3@1  2:0-4@0  3:knock  0:3-6@1  1:0-6@1  2:0-5@1
        3:4-5@1  0:knock  1:0-1@0  2:3-4@1  3:knock  0:1-6@0
        1:6-6@0
        """,
    ),
    # round 2: out seat 1; left in hand: 3-3 | - | 5-5 | 0-4
    (
        (
            "0-3 0-5 1-1 1-6 2-2 2-3 3-3",
            "0-0 1-2 2-4 3-4 3-5 4-5 6-6",
            "0-1 0-6 1-3 1-5 2-5 5-5 5-6",
            "0-2 0-4 1-4 2-6 3-6 4-4 4-6",
        ),
        "",
        """
        1:4-5    2:5-6@1  3:4-6@0  0:1-6@0  1:6-6@1  2:0-6@1
        3:0-2@1  0:2-2@1  1:2-4@1  2:1-5@0  3:4-4@1  0:0-5@0
        1:3-4@1  2:0-1@0  3:3-6@1  0:1-1@0  1:1-2@0  2:2-5@0
        3:2-6@1  0:2-3@1  1:3-5@0  2:1-3@1  3:1-4@1  0:0-3@0
        1:0-0@0
        """,
    ),
)

SEA_FISH_HELD_OPEN_BY_THE_DOUBLE: Game = (  # sea_goat, 4 players
    # round 1: fish seat 1; left in hand: 0-6 1-5 1-6 | 0-5 1-2 6-6 | 0-1 0-4 2-5 | 0-0 2-2 4-4 4-5
    (
        (
            "0-6 1-4 1-5 1-6 2-3 3-6 5-6",
            "0-5 1-2 1-3 2-6 3-3 3-4 6-6",
            "0-1 0-2 0-4 1-1 2-4 2-5 3-5",
            "0-0 0-3 2-2 4-4 4-5 4-6 5-5",
        ),
        "",
        """
        2:1-1    3:knock  0:1-4@1  1:3-4@1  2:3-5@1  3:5-5@1
        0:5-6@1  1:2-6@1  2:0-2@1  3:0-3@1  0:2-3@1  1:1-3@0
        2:2-4@1  3:4-6@1  0:3-6@1  1:3-3@1
        """,
    ),
    # round 2: out seat 1; left in hand: 2-3 2-6 | - | 3-6 | 0-4 3-3
    (
        (
            "0-6 1-1 1-2 2-3 2-6 4-4 5-6",
            "0-0 0-2 0-5 1-3 1-5 2-4 3-5",
            "0-1 1-4 1-6 2-5 3-4 3-6 4-6",
            "0-3 0-4 2-2 3-3 4-5 5-5 6-6",
        ),
        "",
        """
        1:3-5    2:3-4@0  3:5-5@1  0:5-6@1  1:2-4@0  2:1-6@1
        3:2-2@0  0:1-2@1  1:0-2@1  2:2-5@0  3:4-5@0  0:4-4@0
        1:0-5@1  2:4-6@0  3:6-6@0  0:0-6@0  1:1-5@1  2:0-1@0
        3:knock  0:1-1@1  1:1-3@1  2:1-4@0  3:0-3@1  0:knock
        1:0-0@1
        """,
    ),
)

DRAW_GAME: Game = (  # draw, 4 players, target 50
    # round 1: out seat 2; left in hand: 5-5 | 2-5 3-3 | - | 0-1
    (
        (
            "0-0 0-4 3-4 5-5 5-6",
            "0-3 1-6 2-5 3-3 3-5",
            "0-2 0-6 1-5 2-2 6-6",
            "0-1 0-5 1-2 2-3 4-6",
        ),
        "2-4 2-6 1-4 1-1 4-5 4-4 3-6 1-3",
        """
        2:6-6    3:4-6@0  0:0-4@0  1:1-6@1  2:1-5@1  3:0-5@1
        0:0-0@1  1:0-3@1  2:0-6@0  3:2-3@1  0:5-6@0  1:3-5@0
        2:2-2@1  3:1-2@1  0:3-4@0  1:draw   1:2-4@0  2:0-2@0
        """,
    ),
    # round 2: fish seat 1; left in hand: 0-5 2-5 | 0-1 1-1 1-6 2-2 | 1-2 6-6 | 0-6 2-6
    (
        (
            "0-5 1-4 2-5 3-3 3-5",
            "0-3 1-1 1-6 2-2 5-6",
            "1-2 1-3 2-3 3-6 6-6",
            "0-4 0-6 2-6 3-4 4-4",
        ),
        "0-1 2-4 4-6 5-5 0-0 4-5 0-2 1-5",
        """
        2:1-3    3:3-4@1  0:1-4@0  1:draw   1:draw   1:2-4@0
        2:2-3@0  3:4-4@1  0:3-5@0  1:5-6@0  2:3-6@0  3:0-4@1
        0:3-3@0  1:0-3@1
        """,
    ),
    # round 3: fish seat 1; left in hand: 4-4 | 2-3 2-4 | 1-2 1-5 | 1-3 2-2
    (
        (
            "0-5 0-6 1-1 3-6 4-4",
            "2-3 2-4 3-3 4-5 5-6",
            "1-2 1-4 1-5 2-5 3-4",
            "1-3 2-2 2-6 4-6 6-6",
        ),
        "1-6 5-5 0-0 3-5 0-1 0-3 0-4 0-2",
        """
        0:3-6    1:5-6@1  2:2-5@1  3:2-6@1  0:0-6@1  1:3-3@0
        2:3-4@0  3:4-6@0  0:0-5@1  1:4-5@1  2:1-4@1  3:6-6@0
        0:1-1@1  1:draw   1:1-6@1
        """,
    ),
    # round 4: fish seat 3; left in hand:
    # 0-2 0-5 0-6 2-2 2-4 2-6 3-4 3-5 3-6 4-4 5-5 | 0-0 2-5 | 3-3 6-6 | 0-3 5-6
    (
        (
            "2-4 3-4 3-5 3-6 4-6",
            "0-0 0-1 1-6 2-3 2-5",
            "0-4 1-2 3-3 4-5 6-6",
            "0-3 1-1 1-4 1-5 5-6",
        ),
        "2-2 0-2 0-6 0-5 2-6 5-5 4-4 1-3",
        """
        1:0-1    2:0-4@0  3:1-4@1  0:4-6@0  1:1-6@0  2:4-5@1
        3:1-5@1  0:draw   0:draw   0:draw   0:draw   0:draw
        0:draw   0:draw   0:draw   0:1-3@0  1:2-3@0  2:1-2@0
        3:1-1@0
        """,
    ),
)

DRAW_TEAM_GAME: Game = (  # draw, teams, target 60
    # round 1: out seat 2; left in hand: 1-1 1-3 2-2 | 4-4 | - | 0-0
    (
        (
            "0-6 1-1 1-3 1-6 3-4",
            "0-1 1-4 2-5 2-6 4-4",
            "0-4 1-2 3-5 3-6 5-5",
            "0-0 0-3 1-5 2-4 5-6",
        ),
        "2-2 4-6 0-5 0-2 2-3 6-6 3-3 4-5",
        """
        2:5-5    3:5-6@1  0:0-6@1  1:0-1@1  2:3-5@0  3:0-3@0
        0:1-6@1  1:2-6@1  2:0-4@0  3:2-4@1  0:3-4@1  1:1-4@0
        2:3-6@1  3:1-5@0  0:draw   0:draw   0:4-6@1  1:2-5@0
        2:1-2@0
        """,
    ),
    # round 2: fish seat 0; left in hand: 0-6 4-4 | 3-4 3-6 5-6 6-6 | 1-3 | 3-3
    (
        (
            "0-1 0-6 2-4 2-6 4-4",
            "0-5 1-2 3-4 3-6 6-6",
            "1-1 1-3 2-2 2-3 4-6",
            "0-4 1-4 1-5 3-3 3-5",
        ),
        "5-6 0-2 2-5 0-3 1-6 0-0 5-5 4-5",
        """
        2:1-1    3:1-4@0  0:2-4@0  1:1-2@1  2:2-3@1  3:3-5@1
        0:2-6@0  1:0-5@1  2:4-6@0  3:0-4@0  0:0-1@0  1:draw
        1:draw   1:0-2@1  2:2-2@1  3:1-5@0  0:draw   0:2-5@0
        """,
    ),
    # round 3: fish seat 1; left in hand: 0-1 1-1 1-6 | 0-6 1-4 1-5 3-4 | 0-0 5-5 | 3-5
    (
        (
            "0-1 0-3 0-5 1-1 6-6",
            "0-2 1-4 1-5 3-4 4-5",
            "0-0 0-4 2-4 2-5 5-5",
            "1-3 3-5 3-6 4-6 5-6",
        ),
        "2-6 1-2 1-6 2-3 0-6 2-2 4-4 3-3",
        """
        2:0-4    3:4-6@1  0:0-5@0  1:4-5@0  2:2-4@0  3:3-6@1
        0:0-3@1  1:0-2@1  2:2-5@1  3:5-6@1  0:6-6@1  1:draw
        1:2-6@1  2:draw   2:1-2@0  3:1-3@0  0:draw   0:draw
        0:2-3@0  1:draw   1:draw   1:2-2@0
        """,
    ),
    # round 4: fish seat 3; left in hand: 0-6 4-6 | 2-4 3-5 | 3-6 | 0-5 4-4 4-5 5-6
    (
        (
            "0-6 1-2 1-6 2-2 4-6",
            "1-1 1-4 2-4 2-5 3-5",
            "0-2 1-5 3-4 3-6 6-6",
            "0-1 0-5 2-6 4-5 5-6",
        ),
        "3-3 4-4 1-3 0-3 5-5 0-4 0-0 2-3",
        """
        2:6-6    3:2-6@1  0:1-6@0  1:1-1@0  2:0-2@1  3:0-1@1
        0:1-2@1  1:1-4@0  2:3-4@0  3:draw   3:3-3@0  0:2-2@1
        1:2-5@1  2:1-5@1  3:draw   3:draw   3:1-3@0
        """,
    ),
)

BLOCK_TWO_PLAYERS: Game = (  # block, 2 players, target 30
    # round 1: fish seat 1; left in hand: 0-0 0-3 0-5 1-4 2-2 2-3 | 1-2 3-3 3-5 5-5
    (
        ("0-0 0-3 0-4 0-5 1-4 2-2 2-3", "0-6 1-2 3-3 3-5 4-6 5-5 6-6"),
        "1-3 0-2 2-4 1-1 3-6 4-4 4-5 2-5 3-4 2-6 0-1 1-5 1-6 5-6",
        """
        1:6-6    0:knock  1:0-6@0  0:0-4@0  1:4-6@0
        """,
    ),
    # round 2: fish seat 0; left in hand: 0-0 0-1 0-5 2-2 2-3 2-6 | 0-2 1-1 1-6 3-5 3-6 5-5 6-6
    (
        ("0-0 0-1 0-5 2-2 2-3 2-6 4-4", "0-2 1-1 1-6 3-5 3-6 5-5 6-6"),
        "1-4 0-6 4-6 4-5 3-3 5-6 0-4 1-3 1-2 2-5 3-4 0-3 2-4 1-5",
        """
        0:4-4
        """,
    ),
)

CLASSIC_GAME: Game = (  # classic, 4 players, target 100
    # round 1: out seat 1; left in hand: 2-3 | - | 2-2 | 0-0 1-5 3-5 6-6
    (
        (
            "0-3 1-4 2-3 3-6 4-5",
            "1-1 1-2 1-3 2-4 3-3",
            "0-1 0-6 2-2 2-5 4-4",
            "1-5 1-6 3-4 3-5 4-6",
        ),
        "6-6 0-0 0-2 0-5 0-4 5-5 2-6 5-6",
        """
        1:1-1    2:0-1@1  3:1-6@0  0:3-6@0  1:3-3@0  2:0-6@1
        3:3-4@0  0:1-4@0  1:1-2@0  2:2-5@0  3:4-6@1  0:4-5@0
        1:2-4@1  2:4-4@0  3:draw   3:draw   3:draw   3:0-2@1
        0:0-3@1  1:1-3@1
        """,
    ),
    # round 2: out seat 1; left in hand: 2-6 | - | 0-4 1-4 | 0-3 1-5
    (
        (
            "0-5 0-6 2-6 3-6 5-6",
            "1-2 2-2 3-4 3-5 5-5",
            "0-1 0-4 1-4 2-4 6-6",
            "0-0 0-3 1-3 1-5 1-6",
        ),
        "0-2 2-3 2-5 4-4 3-3 4-5 4-6 1-1",
        """
        1:2-2    2:2-4@0  3:draw   3:0-2@1  0:0-6@1  1:3-4@0
        2:6-6@1  3:1-6@1  0:3-6@0  1:1-2@1  2:draw   2:2-3@1
        3:1-3@1  0:5-6@0  1:3-5@0  2:0-1@1  3:0-0@1  0:0-5@1
        1:5-5@1
        """,
    ),
)


# --- §8.1, §8.2, §8.4, §5: hand sizes and the deal ---------------------------------------


@pytest.mark.parametrize(
    ("rules", "players", "hand", "bazaar", "drawable"),
    [
        (DRAW_RULES, 2, 7, 14, 14),
        (DRAW_RULES, 3, 5, 13, 13),
        (DRAW_RULES, 4, 5, 8, 8),
        (CLASSIC, 2, 7, 14, 14),
        (CLASSIC, 3, 5, 13, 13),
        (CLASSIC, 4, 5, 8, 8),
        (BLOCK, 2, 7, 14, 0),
        (BLOCK, 3, 7, 7, 0),
        (BLOCK, 4, 7, 0, 0),
        (SEA_GOAT, 2, 7, 14, 14),
        (SEA_GOAT, 3, 7, 7, 7),
        (SEA_GOAT, 4, 7, 0, 0),
    ],
)
def test_hand_sizes(rules: Ruleset, players: int, hand: int, bazaar: int, drawable: int) -> None:
    """§8.1: Draw (and Classic, "Draw with …") deal 7 tiles to 2 players and 5 to 3–4, the rest
    is the bazaar; §8.2/§8.4: Block deals 7 to everyone (4 players deal all 28) and the rest is
    out of play, never drawn; §5: Sea Goat deals 7 each."""
    for seed in range(5):
        rnd = Match(rules, rules.options({"players": players}), seed).next_round()
        assert [len(h) for h in rnd.deal.hands] == [hand] * players
        assert len(rnd.deal.bazaar) == bazaar
        assert rnd.drawable == drawable


def test_sea_goat_is_dealt_and_redealt_as_goat() -> None:
    """§8.5 item 8: Sea Goat is dealt and redealt as Goat (§2.1): a deal with a hand of 5
    doubles is thrown in; §8 names no redeal for Draw, Block and Classic."""
    five_doubles = deal_of(
        (
            "0-0 1-1 2-2 3-3 4-4 0-1 2-5",
            "5-5 6-6 0-2 0-3 0-4 0-5 0-6",
            "1-2 1-3 1-4 1-5 1-6 2-3 2-4",
            "2-6 3-4 3-5 3-6 4-5 4-6 5-6",
        ),
        "",
    )
    with pytest.raises(ValueError, match="thrown in"):
        Match(SEA_GOAT, SEA_GOAT.options()).next_round(five_doubles)
    Match(BLOCK, BLOCK.options()).next_round(five_doubles)  # accepted
    for seed in range(20):
        assert not Match(SEA_GOAT, SEA_GOAT.options(), seed).next_round().deal.needs_redeal()


# --- §8.1, §8.3, §8.5 item 2, §5: who leads the first hand --------------------------------


def tiles_names(ts: tuple[int, ...]) -> list[str]:
    from kozel.core import tile_str

    return [tile_str(x) for x in ts]


def hand_masks(*hands: str) -> list[int]:
    return [mask_of(tiles(h)) for h in hands]


DESCENDING = "5-6 4-6 3-6 4-5 2-6 3-5 1-6 2-5 3-4 0-6 1-5 2-4 0-5 1-4 2-3 0-4 1-3 0-3 1-2 0-2 0-1"
ASCENDING = "0-1 0-2 1-2 0-3 1-3 0-4 2-3 1-4 0-5 2-4 1-5 0-6 3-4 2-5 1-6 3-5 2-6 4-5 3-6 4-6 5-6"


@pytest.mark.parametrize(
    ("rules", "order"),
    [
        (DRAW_RULES, "6-6 5-5 4-4 3-3 2-2 1-1 0-0 " + DESCENDING),
        (BLOCK, "6-6 5-5 4-4 3-3 2-2 1-1 0-0 " + DESCENDING),
        (CLASSIC, "0-0 1-1 2-2 3-3 4-4 5-5 6-6 " + ASCENDING),
        (SEA_GOAT, "1-1 2-2 3-3 4-4 5-5 6-6 0-0 " + DESCENDING),
    ],
)
def test_first_lead_order(rules: Ruleset, order: str) -> None:
    """§8.1: Draw (and Block) lead 6-6, else the next lower double, else the highest tile 5-6,
    4-6, 3-6, 4-5, …; §8.3: Classic leads the lowest double 0-0, 1-1, …, else the lowest tile
    0-1, 0-2, 1-2, 0-3, …; §5: Sea Goat leads as Goat (1-1 … 6-6, 0-0, then descending);
    §8.5 item 2: tiles compare by pips, ties by the higher half."""
    assert " ".join(tiles_names(rules.first_lead_order)) == order


def test_first_leader_examples() -> None:
    """§8.1 / §8.3 / §8.5 item 1: the holder of the named tile leads that tile."""
    assert DRAW_RULES.first_leader(hand_masks("0-0 1-1", "6-6")) == (1, t("6-6"))
    assert DRAW_RULES.first_leader(hand_masks("0-0 4-4", "5-5")) == (1, t("5-5"))
    assert DRAW_RULES.first_leader(hand_masks("0-1 4-6", "3-6 4-5")) == (0, t("4-6"))
    assert BLOCK.first_leader(hand_masks("0-1 5-6", "0-0")) == (1, t("0-0"))
    assert CLASSIC.first_leader(hand_masks("1-1 6-6", "0-0")) == (1, t("0-0"))
    assert CLASSIC.first_leader(hand_masks("2-2 6-6", "1-1")) == (1, t("1-1"))
    assert CLASSIC.first_leader(hand_masks("0-3 5-6", "1-2 4-6")) == (1, t("1-2"))
    assert CLASSIC.first_leader(hand_masks("0-2 5-6", "0-1 4-6")) == (1, t("0-1"))
    assert SEA_GOAT.first_leader(hand_masks("0-0 6-6", "1-1")) == (1, t("1-1"))


# --- hand counts: §8.1, §8.3 with §8.5 item 9, §5 -----------------------------------------


@pytest.mark.parametrize(
    ("hand", "draw", "classic", "sea_goat"),
    [
        ("0-0", 0, 25, 25),
        ("6-6", 12, 50, 50),
        ("0-0 6-6", 12, 75, 75),
        ("0-0 1-2", 3, 28, 3),
        ("6-6 1-2", 15, 53, 15),
        ("0-0 6-6 1-2", 15, 78, 15),
        ("1-2 3-4", 10, 10, 10),
    ],
)
def test_hand_counts(hand: str, draw: int, classic: int, sea_goat: int) -> None:
    """Draw and Block count pips; §8.3 + §8.5 item 9: Classic's 0-0 counts 25 and 6-6 counts
    50 wherever held, not only alone; §5: Sea Goat's lone 0-0 counts 25, lone 6-6 50, exactly
    0-0 and 6-6 together 75, and otherwise tiles count their pips."""
    mask = mask_of(tiles(hand))
    assert DRAW_RULES.hand_count(mask, DRAW_RULES.options()) == draw
    assert BLOCK.hand_count(mask, BLOCK.options()) == draw
    assert CLASSIC.hand_count(mask, CLASSIC.options()) == classic
    assert SEA_GOAT.hand_count(mask, SEA_GOAT.options()) == sea_goat


# --- Draw: out, fish, shared fish, later leads (§8.1, §8.5 items 1, 3, 7; §12) ------------


def test_draw_game() -> None:
    """§8.1 worked through four hands (target 50).

    1. The holder of 6-6 must lead it. Seat 2 goes out and scores the others' counts:
       5-5 | 2-5 3-3 | 0-1 = 10 + 13 + 1 = 24.
    2. §8.5 item 1: the out player leads, any tile. Seat 1 fishes; the lowest count (seat 0,
       0-5 2-5 = 12) wins and scores the others' counts minus his own: 14 + 15 + 14 − 12 = 31.
    3. The fish's winner (seat 0), not the fisherman, leads. Seat 1 fishes again; seats 0 and
       3 share the lowest count 8: nobody scores (§8.5 item 3).
    4. The fisherman (seat 1) leads since the lowest count was shared. Seat 0 draws the whole
       bazaar; seat 3 fishes; seat 1 (0-0 2-5 = 7, 0-0 counts 0 in Draw) scores
       73 + 18 + 14 − 7 = 98 and reaches the target at the end of the hand.
    §12: the winner gains round_half_up(10 × (50 − 31) / 50) = round(3.8) = 4.
    """
    m = play(DRAW_RULES, {"target": 50}, DRAW_GAME, rounds=0)
    m.next_round(deal_of(*DRAW_GAME[0][:2]))
    assert m.round.turn == 2 and legal(m) == {"6-6"}
    push_script(m, DRAW_GAME[0][2])
    for hands, bazaar, script in DRAW_GAME[1:]:
        m.next_round(deal_of(hands, bazaar))
        push_script(m, script)
    r1, r2, r3, r4 = m.results
    assert leaders(m) == [2, 2, 0, 1]
    assert [r.end_dict() for r in m.results] == [
        {"kind": "out", "seat": 2},
        {"kind": "fish", "seat": 1},
        {"kind": "fish", "seat": 1},
        {"kind": "fish", "seat": 3},
    ]
    assert r1.counts == [10, 13, 0, 1]
    assert r1.entries == [entry(0, 0, 0), entry(0, 0, 0), entry(0, 24, 24), entry(0, 0, 0)]
    assert r2.counts == [12, 14, 15, 14]
    assert r2.entries == [entry(0, 31, 31), entry(0, 0, 0), entry(24, 0, 24), entry(0, 0, 0)]
    assert r3.counts == [8, 11, 9, 8]
    assert r3.entries == [entry(31, 0, 31), entry(0, 0, 0), entry(24, 0, 24), entry(0, 0, 0)]
    assert r4.counts == [73, 7, 18, 14]
    assert r4.entries == [entry(31, 0, 31), entry(0, 98, 98), entry(24, 0, 24), entry(0, 0, 0)]
    assert [r.eggs for r in m.results] == [0, 0, 0, 0]
    assert m.result is not None
    assert m.result.to_dict() == {"winners": [1], "scores": [31, 98, 24, 0], "rating": [0, 4, 0, 0]}
    round_trip(m)


def test_draw_later_round_is_led_with_any_tile() -> None:
    """§8.5 item 1: the first hand's lead rule picks only the first leader; the next hand is
    led by the previous winner with any tile of his hand."""
    m = play(DRAW_RULES, {"target": 50}, DRAW_GAME, rounds=1)
    m.next_round(deal_of(*DRAW_GAME[1][:2]))
    assert m.round.turn == 2
    assert legal(m) == set(DRAW_GAME[1][0][2].split())


def test_draw_team_game() -> None:
    """§8.4 teams in Draw (target 60): a team's count is its two hands together.

    1. 6-6 lies in the bazaar, so the holder of the next lower double, 5-5, leads it. Seat 2
       goes out: his partner's 1-1 1-3 2-2 count for nothing (§8.5 item 3); team 0 scores
       seat 1's 4-4 and seat 3's lone 0-0: 8 + 0 = 8.
    2. Seat 0 fishes: team 0 holds 14 + 4 = 18, team 1 39 + 6 = 45; the lower team total wins
       and scores 45 − 18 = 27. In the winning team seat 2 has the lower count (4 < 14), so he
       leads the next hand although his partner is the fisherman (§8.5 item 1).
    3. Seat 1 fishes: team 0 (10 + 10) scores 32 − 20 = 12. Its two seats hold 10 each: the
       first of them clockwise from the fisherman (seat 1) is seat 2, who leads next.
    4. Seat 3 fishes: team 0 (16 + 9) scores 47 − 25 = 22 and reaches 69 ≥ 60.
    §12: both seats of the winning team gain round_half_up(10 × (60 − 0) / 60) = 10.
    """
    m = play(DRAW_RULES, {"teams": True, "target": 60}, DRAW_TEAM_GAME, rounds=0)
    m.next_round(deal_of(*DRAW_TEAM_GAME[0][:2]))
    assert m.round.turn == 2 and legal(m) == {"5-5"}
    push_script(m, DRAW_TEAM_GAME[0][2])
    for hands, bazaar, script in DRAW_TEAM_GAME[1:]:
        m.next_round(deal_of(hands, bazaar))
        push_script(m, script)
    r1, r2, r3, r4 = m.results
    assert leaders(m) == [2, 2, 2, 2]
    assert [(r.end.kind, r.end.seat) for r in m.results] == [
        ("out", 2),
        ("fish", 0),
        ("fish", 1),
        ("fish", 3),
    ]
    assert r1.counts == [10, 8, 0, 0]
    assert r1.entries == [entry(0, 8, 8), entry(0, 0, 0)]
    assert r2.counts == [14, 39, 4, 6]
    assert r2.entries == [entry(8, 27, 35), entry(0, 0, 0)]
    assert r3.counts == [10, 24, 10, 8]
    assert r3.entries == [entry(35, 12, 47), entry(0, 0, 0)]
    assert r4.counts == [16, 14, 9, 33]
    assert r4.entries == [entry(47, 22, 69), entry(0, 0, 0)]
    assert m.result is not None
    assert m.result.to_dict() == {"winners": [0], "scores": [69, 0], "rating": [10, 0, 10, 0]}
    record = round_trip(m)
    assert [len(r["sheet"]) for r in record["rounds"]] == [2, 2, 2, 2]


def test_fish_winner_in_team_play_equal_counts_fisherman_first() -> None:
    """§8.5 item 1, "equal: the first of the two clockwise from the fisherman": when the
    fisherman's own team wins with equal counts, the fisherman himself comes first (Kozel's
    reading: counting starts at the fisherman)."""
    opts = DRAW_RULES.options({"teams": True})

    class Previous:
        def __init__(self, kind: str, seat: int, counts: list[int]) -> None:
            from kozel.layout.round import RoundEnd

            self.end = RoundEnd(kind, seat)  # type: ignore[arg-type]
            self.counts = counts

    def lead(kind: str, seat: int, counts: list[int]) -> int:
        return DRAW_RULES.next_leader(opts, Previous(kind, seat, counts))  # type: ignore[arg-type]

    assert lead("fish", 3, [5, 9, 5, 20]) == 0  # team 0 wins, equal: seat 0 follows seat 3
    assert lead("fish", 1, [5, 9, 5, 20]) == 2  # seat 2 follows seat 1
    assert lead("fish", 2, [5, 9, 5, 20]) == 2  # the fisherman is in the winning team
    assert lead("fish", 0, [7, 9, 5, 20]) == 2  # the lower count of the two
    assert lead("fish", 1, [7, 9, 5, 3]) == 1  # 12 and 12: shared, the fisherman leads
    assert lead("out", 3, [7, 9, 5, 0]) == 3  # the out player


# --- Block (§8.2, §8.4) -------------------------------------------------------------------


def test_block_two_players() -> None:
    """§8.2 with 2 players (target 30): 7 tiles each, the other 14 stay out of play.

    1. Seat 1 leads 6-6. Seat 0 has no 6: he knocks although 14 tiles were not dealt, and may
       not draw. After 6-6, 0-6, 0-4, 4-6 both ends show 6; 1-6 2-6 3-6 5-6 are out of play and
       do not hold the fish open. Seat 0 (22) scores 27 − 22 = 5.
    2. Seat 0, the fish's winner, leads 4-4: every other 4 is out of play, so the hand is a fish
       at once; seat 0 (23) scores 50 − 23 = 27 and reaches 32 ≥ 30.
    """
    m = play(BLOCK, {"players": 2, "target": 30}, BLOCK_TWO_PLAYERS, rounds=0)
    m.next_round(deal_of(*BLOCK_TWO_PLAYERS[0][:2]))
    push_script(m, "1:6-6")
    assert m.round.legal_moves() == [KNOCK]
    with pytest.raises(IllegalMove, match="block has no drawing: knock"):
        m.push(DRAW)
    push_script(m, BLOCK_TWO_PLAYERS[0][2].split(maxsplit=1)[1])
    rnd = m.round
    assert rnd.end is not None and (rnd.end.kind, rnd.end.seat) == ("fish", 1)
    assert rnd.layout.ends[:2] == [6, 6]
    assert {"1-6", "2-6", "3-6", "5-6"} <= set(BLOCK_TWO_PLAYERS[0][1].split())
    hands, bazaar, script = BLOCK_TWO_PLAYERS[1]
    m.next_round(deal_of(hands, bazaar))
    push_script(m, script)
    r1, r2 = m.results
    assert leaders(m) == [1, 0]
    assert (r2.end.kind, r2.end.seat) == ("fish", 0) and len(r2.round.history) == 1
    assert (r1.counts, r2.counts) == ([22, 27], [23, 50])
    assert r1.entries == [entry(0, 5, 5), entry(0, 0, 0)]
    assert r2.entries == [entry(5, 27, 32), entry(0, 0, 0)]
    assert m.result is not None
    assert m.result.to_dict() == {"winners": [0], "scores": [32, 0], "rating": [10, 0]}
    round_trip(m)


def test_block_never_draws() -> None:
    """§8.2: in Block a player who cannot play passes; the undealt tiles are never drawn (2 and
    3 players), so no random game of Block ever draws."""
    for players in (2, 3):
        opts = BLOCK.options({"players": players})
        for seed in range(10):
            m = Match(BLOCK, opts, seed)
            rnd = m.next_round()
            while not rnd.over:
                moves = rnd.legal_moves()
                assert DRAW not in moves
                m.push(moves[seed % len(moves)])


# --- Classic (§8.3, §8.5 item 9) ----------------------------------------------------------


def test_classic_game() -> None:
    """§8.3 (target 100): 0-0 lies in the bazaar, so the lowest double dealt, 1-1, leads.
    Seat 3 draws 6-6, 0-0 and 0-2 and keeps 0-0 1-5 3-5 6-6: 25 + 6 + 8 + 50 = 89 (0-0 and 6-6
    count wherever held). Seat 1 goes out and scores 5 + 4 + 89 = 98; he leads the next hand
    and goes out again for 8 + 9 + 9 = 26, reaching 124 ≥ 100."""
    m = play(CLASSIC, {"target": 100}, CLASSIC_GAME, rounds=0)
    m.next_round(deal_of(*CLASSIC_GAME[0][:2]))
    assert m.round.turn == 1 and legal(m) == {"1-1"}
    push_script(m, CLASSIC_GAME[0][2])
    m.next_round(deal_of(*CLASSIC_GAME[1][:2]))
    push_script(m, CLASSIC_GAME[1][2])
    r1, r2 = m.results
    assert leaders(m) == [1, 1]
    assert r1.counts == [5, 0, 4, 89]
    assert r1.entries == [entry(0, 0, 0), entry(0, 98, 98), entry(0, 0, 0), entry(0, 0, 0)]
    assert r2.counts == [8, 0, 9, 9]
    assert r2.entries == [entry(0, 0, 0), entry(98, 26, 124), entry(0, 0, 0), entry(0, 0, 0)]
    assert m.result is not None
    assert m.result.to_dict() == {"winners": [1], "scores": [0, 124, 0, 0], "rating": [0, 10, 0, 0]}
    round_trip(m)


def test_defaults_of_the_winner_scoring_games() -> None:
    """§8.4: the options and defaults: Draw and Block to 100, Classic to 300 (§8.3), Sea Goat to
    125 with records opening at 25 (§5); 4 players, no teams."""
    defaults = {r.id: r.options_dict(r.options()) for r in (DRAW_RULES, BLOCK, CLASSIC, SEA_GOAT)}
    assert defaults == {
        "draw": {"players": 4, "teams": False, "target": 100},
        "block": {"players": 4, "teams": False, "target": 100},
        "classic": {"players": 4, "teams": False, "target": 300},
        "sea_goat": {"players": 4, "teams": False, "target": 125, "open_at": 25},
    }


# --- target and rating (§8.5 item 7, §12) -------------------------------------------------


def test_target_at_the_end_of_a_hand() -> None:
    """§8.5 item 7: at the end of a hand a unit at or over the target wins; if several are,
    the highest score wins, and equal highest scores all win."""
    scoring = RaceScoring(DRAW_RULES.options({"target": 100}))
    assert scoring.result_at_target([99, 50, 0, 0]) is None
    won = scoring.result_at_target([100, 50, 0, 0])
    assert won is not None and won.winners == [0]
    won = scoring.result_at_target([120, 130, 100, 0])
    assert won is not None and won.winners == [1]
    won = scoring.result_at_target([130, 130, 20, 0])
    assert won is not None and won.winners == [0, 1]
    # §12: best other score 130 for each: 10 × (100 − 130) / 100 = −3, at least 1
    assert won.rating == [1, 1, 0, 0]


@pytest.mark.parametrize(
    ("scores", "winners", "target", "seats", "rating"),
    [
        ([130, 85, 40], [0], 100, [0, 1, 2], [2, 0, 0]),  # 1.5 → 2
        ([100, 25, 0, 10], [0], 100, [0, 1, 2, 3], [8, 0, 0, 0]),  # 7.5 → 8
        ([101, 95], [0], 100, [0, 1], [1, 0]),  # 0.5 → 1
        ([101, 96], [0], 100, [0, 1], [1, 0]),  # 0.4 → 0, at least 1
        ([0, 125], [0], 125, [0, 1], [1, 0]),  # negative, at least 1
        ([69, 0], [0], 60, [0, 1, 0, 1], [10, 0, 10, 0]),  # a team: both seats gain
        ([25, 66], [1], 60, [0, 1, 0, 1], [0, 6, 0, 6]),  # 5.83 → 6
    ],
)
def test_race_rating(
    scores: list[int], winners: list[int], target: int, seats: list[int], rating: list[int]
) -> None:
    """§12 (winner-scoring games): the winner gains round_half_up(10 × (target − best other
    score) / target), at least 1, where the best other score is the highest among the other
    units; the others gain nothing."""
    assert race_rating(scores, winners, target, seats) == rating


def test_timeout_in_draw() -> None:
    """§12 / §8.5 item 10: a timeout ends the game; the interrupted hand credits nothing (it
    keeps its during points, none in Draw), nobody wins, every player not eliminated gains 1."""
    m = play(DRAW_RULES, {"target": 50}, DRAW_GAME, rounds=1)
    hands, bazaar, script = DRAW_GAME[1]
    m.next_round(deal_of(hands, bazaar))
    push_script(m, " ".join(script.split()[:4]))
    seat = m.round.turn
    assert seat == 1 and m.round.history[-1][1] == DRAW  # seat 1 is drawing
    m.timeout(seat)
    last = m.results[-1]
    assert last.end_dict() == {"kind": "timeout", "seat": 1}
    assert last.entries == [entry(0, 0, 0), entry(0, 0, 0), entry(24, 0, 24), entry(0, 0, 0)]
    assert m.result is not None
    assert m.result.to_dict() == {
        "winners": [],
        "scores": [0, 0, 24, 0],
        "rating": [1, 0, 1, 1],
        "timeout": 1,
    }
    record = round_trip(m)
    assert record["rounds"][-1]["end"] == {"kind": "timeout", "seat": 1}


def test_timeout_in_sea_goat_team_play() -> None:
    """§12: after a timeout each player not eliminated gains 1, the partner of the eliminated
    player too; Sea Goat's record of 39 stays on the sheet."""
    game = SEA_TEAM_SIX_SIX_PARTNER_OVER_25
    m = play(SEA_GOAT, {"teams": True}, game, rounds=1)
    m.next_round(deal_of(*game[1][:2]))
    m.timeout(1)
    assert m.results[-1].entries == [entry(0, 0, 0), entry(39, 0, 39)]
    assert m.result is not None
    assert m.result.to_dict() == {
        "winners": [],
        "scores": [0, 39],
        "rating": [1, 0, 1, 1],
        "timeout": 1,
    }
    round_trip(m)


# --- Sea Goat (§5, §8.5 item 8) -----------------------------------------------------------


def test_sea_goat_opening_one_scorer_and_write_off() -> None:
    """§5 opening and the one scorer, §8.5 item 8.

    1. Seat 3 leads 1-1 and goes out; the losers hold 0-0 0-5 | 0-6 | 2-2 2-6 = 5 + 6 + 12
       = 23 (0-0 not alone counts 0): less than 25 for a unit without a record is written as 0.
    2. Seat 0 goes out (laying 1-1 and 2-2 together on the way) for 12 + 12 + 5 = 29 ≥ 25: his
       record opens.
    3. With a record any credit counts: seat 0 goes out again for 7 + 5 + 2 = 14 → 43.
    4. Seat 1 goes out for 14 + 22 + 7 = 43 ≥ 25 while seat 0 has a record: every record is
       written off, the new credit too; every entry says so and shows the credit.
    5. Seat 1 goes out laying 0-0 and 2-2 together: 0-0 is among the tiles of the turn that went
       out, the bald goat wins the game at once. The round is scored first: 19 + 14 + 17 = 50.
    """
    m = play(SEA_GOAT, {}, SEA_OPENING_AND_WRITE_OFF)
    r1, r2, r3, r4, r5 = m.results
    assert leaders(m) == [3, 3, 0, 0, 1]
    assert [(r.end.kind, r.end.seat) for r in m.results] == [("out", s) for s in (3, 0, 0, 1, 1)]
    assert r1.counts == [5, 6, 12, 0]
    assert r1.entries == [entry(0, 0, 0)] * 4
    assert r2.counts == [0, 12, 12, 5]
    assert r2.entries == [entry(0, 29, 29), entry(0, 0, 0), entry(0, 0, 0), entry(0, 0, 0)]
    assert r3.counts == [0, 7, 5, 2]
    assert r3.entries == [entry(29, 14, 43), entry(0, 0, 0), entry(0, 0, 0), entry(0, 0, 0)]
    assert r4.counts == [14, 0, 22, 7]
    assert r4.entries == [
        written_off(43, 0),
        written_off(0, 43),
        written_off(0, 0),
        written_off(0, 0),
    ]
    assert [r.decides for r in (r1, r2, r3, r4)] == [None] * 4
    assert r5.end_dict() == {"kind": "out", "seat": 1, "decides": {"seat": 1, "won": True}}
    assert r5.counts == [19, 0, 14, 17]
    assert r5.entries == [entry(0, 0, 0), entry(0, 50, 50), entry(0, 0, 0), entry(0, 0, 0)]
    assert m.result is not None
    assert m.result.to_dict() == {"winners": [1], "scores": [0, 50, 0, 0], "rating": [0, 10, 0, 0]}
    record = round_trip(m)
    assert record["rounds"][1]["moves"][13] == {
        "seat": 0,
        "doubles": [
            {"tile": "1-1", "arm": 0, "close": False},
            {"tile": "2-2", "arm": 1, "close": False},
        ],
    }
    assert all(e["written_off"] is True for e in record["rounds"][3]["sheet"])
    assert all("written_off" not in e for r in (0, 1, 2, 4) for e in record["rounds"][r]["sheet"])
    assert record["rounds"][4]["end"]["decides"] == {"seat": 1, "won": True}
    assert "decides" not in record["rounds"][3]["end"]


def test_sea_goat_open_at_option() -> None:
    """§8.4: ``open_at`` is the least credit that opens a record: with 20, round 1's 23 opens
    seat 3's record, and round 2's 29 for seat 0 then writes every record off."""
    m = play(SEA_GOAT, {"open_at": 20}, SEA_OPENING_AND_WRITE_OFF, rounds=2)
    r1, r2 = m.results
    assert r1.entries == [entry(0, 0, 0), entry(0, 0, 0), entry(0, 0, 0), entry(0, 23, 23)]
    assert r2.entries == [
        written_off(0, 29),
        written_off(0, 0),
        written_off(0, 0),
        written_off(23, 0),
    ]


def test_sea_goat_hundred_made() -> None:
    """§5 the hundred. Round 1: seat 3 goes out for 8 + 10 + 7 = 25, exactly the opening
    credit (0-0 beside 4-4 counts 0). Round 2: seat 3 has a record and holds 6-6, so he may
    declare the hundred with his lead; he goes out first and wins the game at once. The round
    is scored first: 3 + 10 + 5 = 18 → 43."""
    game = SEA_HUNDRED_MADE
    m = play(SEA_GOAT, {}, game, rounds=1)
    assert m.results[0].entries[3] == entry(0, 25, 25)
    m.next_round(deal_of(*game[1][:2]))
    assert m.round.turn == 3
    moves = m.round.legal_moves()
    assert HUNDRED in moves and Play(t("6-6")) in moves  # declaring is a choice
    push_script(m, game[1][2])
    r2 = m.results[-1]
    assert r2.round.hundred == 3
    assert r2.end_dict() == {"kind": "out", "seat": 3, "decides": {"seat": 3, "won": True}}
    assert r2.counts == [3, 10, 5, 0]
    assert r2.entries == [entry(0, 0, 0), entry(0, 0, 0), entry(0, 0, 0), entry(25, 18, 43)]
    assert m.result is not None
    assert m.result.to_dict() == {"winners": [3], "scores": [0, 0, 0, 43], "rating": [0, 0, 0, 10]}
    record = round_trip(m)
    assert record["rounds"][1]["moves"][0] == {"seat": 3, "play": "6-6", "hundred": True}


def test_sea_goat_hundred_failed() -> None:
    """§5 the hundred failed. Seat 3 (a record of 31) declares; seat 0 goes out first and seat
    3 is caught with 4-4 4-5 5-6 = 28 ≥ 25: seat 3 loses the game. The round is scored first:
    seat 0's 5 + 11 + 28 = 44 opens a second record, so every record is written off. Kozel's
    Decision: the winner is the other unit with the highest score after the round (all 0 here),
    ties going to the unit that went out in that round: seat 0."""
    m = play(SEA_GOAT, {}, SEA_HUNDRED_FAILED)
    r1, r2 = m.results
    assert r1.counts == [19, 4, 8, 0]  # 1-6 6-6 = 19: 6-6 not alone counts 12
    assert r1.entries[3] == entry(0, 31, 31)
    assert r2.round.hundred == 3
    assert r2.end_dict() == {"kind": "out", "seat": 0, "decides": {"seat": 3, "won": False}}
    assert r2.counts == [0, 5, 11, 28]
    assert r2.entries == [
        written_off(0, 44),
        written_off(0, 0),
        written_off(0, 0),
        written_off(31, 0),
    ]
    assert m.result is not None
    assert m.result.to_dict() == {"winners": [0], "scores": [0, 0, 0, 0], "rating": [10, 0, 0, 0]}
    round_trip(m)


def test_sea_goat_hundred_failed_in_a_fish_all_tied_win() -> None:
    """§5 the hundred failed in a fish, and §8.5 item 3 (no subtraction in Sea Goat's fish).

    Round 1: seat 1 goes out laying 3-3 and 6-6 together on both ends of the line; no loser
    holds more than 25 (21 at most), so going out on 6-6 does not win the game: he scores
    5 + 21 + 5 = 31. Round 2: seat 1 declares the hundred; after 12 tiles all of suit 6 is on
    the table and both ends show 6: seat 0 has fished. Seat 1 is caught with 30 and loses. The
    lowest count (seat 3, 14) scores the others' 19 + 30 + 21 = 70 without subtracting his own,
    which writes every record off. No unit went out, so the three tied units all win."""
    m = play(SEA_GOAT, {}, SEA_HUNDRED_FAILED_IN_A_FISH)
    r1, r2 = m.results
    assert r1.decides is None and r1.counts == [5, 0, 21, 5]
    assert r1.entries[1] == entry(0, 31, 31)
    last = r1.round.history[-1][1]
    assert isinstance(last, PlayDoubles) and {p.tile for p in last.plays} == {t("3-3"), t("6-6")}
    assert r2.end_dict() == {"kind": "fish", "seat": 0, "decides": {"seat": 1, "won": False}}
    assert r2.round.layout.ends[:2] == [6, 6]
    assert r2.counts == [19, 30, 21, 14]
    assert r2.entries == [
        written_off(0, 0),
        written_off(31, 0),
        written_off(0, 0),
        written_off(0, 70),
    ]
    assert m.result is not None
    assert m.result.to_dict() == {
        "winners": [0, 2, 3],
        "scores": [0, 0, 0, 0],
        "rating": [10, 0, 10, 10],
    }
    round_trip(m)


def test_sea_goat_team_hundred_failed_although_the_partner_went_out_on_0_0() -> None:
    """§5 the hundred in team play, §8.5 item 8 ("caught with" is the seat's own count) and
    Kozel's Decision that the hundred's failure takes precedence over an out-on-0-0 win.

    Round 1: seat 1 goes out; team 1 scores 17 + 10 = 27 (his partner's 18 counts nothing).
    Round 2: seat 1 declares; his partner seat 3 goes out laying 2-2 and 0-0 together (a bald
    goat), but seat 1 is caught with 0-6 3-5 5-6 = 25: his side loses. Team 1 still scores
    8 + 15 = 23 first (a record takes any credit): 50. Team 0 wins with 0:
    round_half_up(10 × (125 − 50) / 125) = 6 to each of its seats."""
    m = play(SEA_GOAT, {"teams": True}, SEA_TEAM_HUNDRED_FAILED_ON_A_BALD_GOAT)
    r1, r2 = m.results
    assert r1.counts == [17, 0, 10, 18]
    assert r1.entries == [entry(0, 0, 0), entry(0, 27, 27)]
    assert r2.round.hundred == 1 and r2.round.last_tile == t("0-0")
    assert r2.end_dict() == {"kind": "out", "seat": 3, "decides": {"seat": 1, "won": False}}
    assert r2.counts == [8, 25, 15, 0]
    assert r2.entries == [entry(0, 0, 0), entry(27, 23, 50)]
    assert m.result is not None
    assert m.result.to_dict() == {"winners": [0], "scores": [0, 50], "rating": [6, 0, 6, 0]}
    round_trip(m)


def test_sea_goat_bald_goat() -> None:
    """§5: going out on 0-0 («лысый козёл») wins the whole game at once, even in the first
    round and with a credit (15 + 3 + 3 = 21) too small to open a record."""
    m = play(SEA_GOAT, {}, SEA_BALD_GOAT)
    (r1,) = m.results
    assert r1.round.last_tile == t("0-0")
    assert r1.end_dict() == {"kind": "out", "seat": 0, "decides": {"seat": 0, "won": True}}
    assert r1.counts == [0, 15, 3, 3]
    assert r1.entries == [entry(0, 0, 0)] * 4
    assert m.result is not None
    assert m.result.to_dict() == {"winners": [0], "scores": [0, 0, 0, 0], "rating": [10, 0, 0, 0]}
    round_trip(m)


def test_sea_goat_out_on_0_0_and_6_6_together() -> None:
    """§5: a player holding doubles that fit both ends may lay both in one turn; going out on
    0-0 and 6-6 laid together wins the whole game. Scored first: 18 + 22 + 20 = 60."""
    game = SEA_OUT_ON_0_0_AND_6_6
    m = Match(SEA_GOAT, SEA_GOAT.options())
    m.next_round(deal_of(*game[0][:2]))
    tokens = game[0][2].split()
    push_script(m, " ".join(tokens[:-1]))
    assert m.round.layout.ends[:2] == [0, 6] and m.round.turn == 3
    assert legal(m) == {"0-0@0", "6-6@1", "0-0@0+6-6@1"}
    push_script(m, tokens[-1])
    (r1,) = m.results
    assert r1.end_dict() == {"kind": "out", "seat": 3, "decides": {"seat": 3, "won": True}}
    assert r1.counts == [18, 22, 20, 0]
    assert r1.entries == [entry(0, 0, 0), entry(0, 0, 0), entry(0, 0, 0), entry(0, 60, 60)]
    assert m.result is not None
    assert m.result.to_dict() == {"winners": [3], "scores": [0, 0, 0, 60], "rating": [0, 0, 0, 10]}
    record = round_trip(m)
    assert record["rounds"][0]["moves"][-1] == {
        "seat": 3,
        "doubles": [
            {"tile": "0-0", "arm": 0, "close": False},
            {"tile": "6-6", "arm": 1, "close": False},
        ],
    }


def test_sea_goat_out_on_6_6_with_a_loser_over_25_wins() -> None:
    """§5: going out on 6-6 wins the game when at least one loser holds more than 25 (seat 3:
    3-3 5-5 5-6 = 27). Scored first: 1 + 11 + 27 = 39."""
    m = play(SEA_GOAT, {}, SEA_SIX_SIX_LOSER_OVER_25)
    (r1,) = m.results
    assert r1.round.last_tile == t("6-6")
    assert r1.end_dict() == {"kind": "out", "seat": 1, "decides": {"seat": 1, "won": True}}
    assert r1.counts == [1, 0, 11, 27]
    assert r1.entries == [entry(0, 0, 0), entry(0, 39, 39), entry(0, 0, 0), entry(0, 0, 0)]
    assert m.result is not None
    assert m.result.to_dict() == {"winners": [1], "scores": [0, 39, 0, 0], "rating": [0, 10, 0, 0]}
    round_trip(m)


def test_sea_goat_out_on_6_6_a_lone_0_0_is_not_over_25() -> None:
    """§5: going out on 6-6 wins only if a loser holds *more* than 25; seat 1's lone 0-0 counts
    exactly 25, so round 1 is scored as usual (9 + 25 + 6 = 40, a record). Round 2 ends with
    seat 3's bald goat: 17 + 19 + 25 = 61 → 101 (1-4 4-4 6-6 = 25: 6-6 not alone)."""
    m = play(SEA_GOAT, {}, SEA_SIX_SIX_LONE_0_0_IS_NOT_OVER_25)
    r1, r2 = m.results
    assert r1.round.last_tile == t("6-6") and r1.end.seat == 3
    assert r1.decides is None and r1.end_dict() == {"kind": "out", "seat": 3}
    assert r1.counts == [9, 25, 6, 0]
    assert r1.entries == [entry(0, 0, 0), entry(0, 0, 0), entry(0, 0, 0), entry(0, 40, 40)]
    assert r2.end_dict() == {"kind": "out", "seat": 3, "decides": {"seat": 3, "won": True}}
    assert r2.counts == [17, 19, 25, 0]
    assert r2.entries[3] == entry(40, 61, 101)
    assert m.result is not None
    assert m.result.to_dict() == {
        "winners": [3],
        "scores": [0, 0, 0, 101],
        "rating": [0, 0, 0, 10],
    }
    round_trip(m)


def test_sea_goat_out_on_6_6_the_partner_is_no_loser() -> None:
    """§5 with Kozel's Decision: "a loser holds more than 25" means a seat of a unit other than
    the out player's. Seat 1 goes out on 6-6; his partner holds 2-2 2-4 2-6 4-6 = 28 but the
    losers hold 15 and 24: no instant win, team 1 scores 39. Round 2: seat 1 has a record and
    holds 6-6, so the hundred is offered; he leads 4-5 instead and wins with a bald goat."""
    game = SEA_TEAM_SIX_SIX_PARTNER_OVER_25
    m = play(SEA_GOAT, {"teams": True}, game, rounds=1)
    (r1,) = m.results
    assert r1.round.last_tile == t("6-6") and r1.decides is None
    assert r1.counts == [15, 0, 24, 28]
    assert r1.entries == [entry(0, 0, 0), entry(0, 39, 39)]
    m.next_round(deal_of(*game[1][:2]))
    assert m.round.turn == 1 and HUNDRED in m.round.legal_moves()
    push_script(m, game[1][2])
    r2 = m.results[-1]
    assert r2.round.hundred == -1
    assert r2.end_dict() == {"kind": "out", "seat": 1, "decides": {"seat": 1, "won": True}}
    assert r2.counts == [6, 0, 10, 4]
    assert r2.entries == [entry(0, 0, 0), entry(39, 16, 55)]
    assert m.result is not None
    assert m.result.to_dict() == {"winners": [1], "scores": [0, 55], "rating": [0, 10, 0, 10]}
    round_trip(m)


def test_sea_goat_fish_held_open_by_the_double_and_no_subtraction() -> None:
    """§8.5 item 8: in Sea Goat doubles hold a fish open; §8.5 item 3: Sea Goat's fish winner
    scores the others' counts without subtracting his own; §8.5 item 1: Sea Goat's next hand is
    led by the fisherman, not by the fish's winner.

    Round 1: both ends show 3 and every other tile of suit 3 is on the table, but seat 1 still
    holds 3-3: the round goes on. He lays it: a fish. Seat 2 (12) scores 19 + 20 + 21 = 60
    (48 if he subtracted). Round 2 is led by seat 1; he goes out on 0-0 for 13 + 9 + 10 = 32,
    which opens a second record and writes every record off before the bald goat wins."""
    game = SEA_FISH_HELD_OPEN_BY_THE_DOUBLE
    m = Match(SEA_GOAT, SEA_GOAT.options())
    m.next_round(deal_of(*game[0][:2]))
    tokens = game[0][2].split()
    push_script(m, " ".join(tokens[:-1]))
    rnd = m.round
    assert not rnd.over and rnd.turn == 1 and rnd.layout.ends[:2] == [3, 3]
    suit_3 = tiles("0-3 1-3 2-3 3-4 3-5 3-6")
    assert all(rnd.layout.table >> x & 1 for x in suit_3)
    assert legal(m) == {"3-3@0", "3-3@1"}
    push_script(m, tokens[-1])
    r1 = m.results[-1]
    assert r1.end_dict() == {"kind": "fish", "seat": 1}
    assert r1.counts == [19, 20, 12, 21]
    assert r1.entries == [entry(0, 0, 0), entry(0, 0, 0), entry(0, 60, 60), entry(0, 0, 0)]
    m.next_round(deal_of(*game[1][:2]))
    assert m.round.turn == 1
    push_script(m, game[1][2])
    r2 = m.results[-1]
    assert r2.end_dict() == {"kind": "out", "seat": 1, "decides": {"seat": 1, "won": True}}
    assert r2.counts == [13, 0, 9, 10]
    assert r2.entries == [
        written_off(0, 0),
        written_off(0, 32),
        written_off(60, 0),
        written_off(0, 0),
    ]
    assert m.result is not None
    assert m.result.to_dict() == {"winners": [1], "scores": [0, 0, 0, 0], "rating": [0, 10, 0, 0]}
    round_trip(m)


def test_hundred_needs_a_record() -> None:
    """§5: only a player who has a record may declare the hundred. Seat 3 went out in round 1
    with 23, written as 0: leading round 2 with 6-6 in hand he may lead it, not declare it."""
    game = SEA_OPENING_AND_WRITE_OFF
    m = play(SEA_GOAT, {}, game, rounds=1)
    hands = game[1][0]
    m.next_round(deal_of((hands[0], hands[1], hands[3], hands[2]), ""))
    assert m.round.turn == 3 and m.sheet == (0, 0, 0, 0)
    assert Play(t("6-6")) in m.round.legal_moves()
    assert HUNDRED not in m.round.legal_moves()
    with pytest.raises(IllegalMove, match="only a leader with a record who holds 6-6"):
        m.push(HUNDRED)


def test_hundred_needs_6_6_and_the_lead() -> None:
    """§5: the hundred is declared by leading 6-6 when holding it, at the leader's lead only.
    Round 3 of the opening game: seat 0 has a record but no 6-6. Round 2 of the team game:
    seat 1 has a record and 6-6; the hundred goes with no other tile, and not later on."""
    game = SEA_OPENING_AND_WRITE_OFF
    m = play(SEA_GOAT, {}, game, rounds=2)
    m.next_round(deal_of(*game[2][:2]))
    assert m.round.turn == 0 and m.sheet[0] == 29
    assert all(not getattr(mv, "hundred", False) for mv in m.round.legal_moves())
    with pytest.raises(IllegalMove):
        m.push(HUNDRED)

    team = SEA_TEAM_SIX_SIX_PARTNER_OVER_25
    m = play(SEA_GOAT, {"teams": True}, team, rounds=1)
    m.next_round(deal_of(*team[1][:2]))
    with pytest.raises(IllegalMove, match="the hundred is declared with a lead of 6-6"):
        m.push(Play(t("4-5"), None, False, True))
    tokens = team[1][2].split()
    push_script(m, " ".join(tokens[:4]))
    assert m.round.turn == 1 and "6-6@1" in legal(m)
    with pytest.raises(IllegalMove, match="the hundred is declared with the first tile"):
        m.push(Play(t("6-6"), 1, False, True))


def test_no_hundred_outside_sea_goat() -> None:
    """The hundred is Sea Goat's alone (§5)."""
    m = play(DRAW_RULES, {"target": 50}, DRAW_GAME, rounds=0)
    m.next_round(deal_of(*DRAW_GAME[0][:2]))
    with pytest.raises(IllegalMove, match="hundred"):
        m.push(HUNDRED)


# --- records: every scripted game replays; mutated records are refused ---------------------

SCRIPTED: list[tuple[str, Ruleset, dict[str, Any], Game]] = [
    ("draw", DRAW_RULES, {"target": 50}, DRAW_GAME),
    ("draw_teams", DRAW_RULES, {"teams": True, "target": 60}, DRAW_TEAM_GAME),
    ("block", BLOCK, {"players": 2, "target": 30}, BLOCK_TWO_PLAYERS),
    ("classic", CLASSIC, {"target": 100}, CLASSIC_GAME),
    ("sea_opening", SEA_GOAT, {}, SEA_OPENING_AND_WRITE_OFF),
    ("sea_hundred_made", SEA_GOAT, {}, SEA_HUNDRED_MADE),
    ("sea_hundred_failed", SEA_GOAT, {}, SEA_HUNDRED_FAILED),
    ("sea_hundred_fish", SEA_GOAT, {}, SEA_HUNDRED_FAILED_IN_A_FISH),
    ("sea_team_hundred", SEA_GOAT, {"teams": True}, SEA_TEAM_HUNDRED_FAILED_ON_A_BALD_GOAT),
    ("sea_bald_goat", SEA_GOAT, {}, SEA_BALD_GOAT),
    ("sea_0_0_6_6", SEA_GOAT, {}, SEA_OUT_ON_0_0_AND_6_6),
    ("sea_6_6_over_25", SEA_GOAT, {}, SEA_SIX_SIX_LOSER_OVER_25),
    ("sea_6_6_lone_0_0", SEA_GOAT, {}, SEA_SIX_SIX_LONE_0_0_IS_NOT_OVER_25),
    ("sea_6_6_partner", SEA_GOAT, {"teams": True}, SEA_TEAM_SIX_SIX_PARTNER_OVER_25),
    ("sea_fish", SEA_GOAT, {}, SEA_FISH_HELD_OPEN_BY_THE_DOUBLE),
]


@pytest.mark.parametrize(
    ("rules", "raw", "game"), [s[1:] for s in SCRIPTED], ids=[s[0] for s in SCRIPTED]
)
def test_scripted_game_records_replay_clean(
    rules: Ruleset, raw: dict[str, Any], game: Game
) -> None:
    """docs/record.md#record-other-games: every scripted game's record lists exactly its game's
    options, has the race sheet entries and result, and replays clean through the rules."""
    m = play(rules, raw, game)
    record = round_trip(m)
    assert record["game"] == rules.id
    assert record["options"] == rules.options_dict(rules.options(raw))
    assert set(record["result"]) == {"winners", "scores", "rating"}
    for rnd in record["rounds"]:
        assert rnd["eggs"] == 0
        assert len(rnd["sheet"]) == m.opts.units
        for e in rnd["sheet"]:
            assert set(e) <= {"before", "during", "credited", "after", "written_off"}
            if e.get("written_off"):
                assert e["after"] == 0
            else:
                assert e["after"] == e["before"] + e["during"] + e["credited"]


SCRIPTED_BY_NAME = {name: (rules, raw, game) for name, rules, raw, game in SCRIPTED}
Record = dict[str, Any]


def _set(path: str, value: object) -> Callable[[Record], None]:
    def change(record: Record) -> None:
        *parents, last = path.split(".")
        node: Any = record
        for key in parents:
            node = node[int(key)] if key.isdigit() else node[key]
        node[int(last) if last.isdigit() else last] = value

    return change


def _delete(path: str) -> Callable[[Record], None]:
    def change(record: Record) -> None:
        *parents, last = path.split(".")
        node: Any = record
        for key in parents:
            node = node[int(key)] if key.isdigit() else node[key]
        del node[last]

    return change


MUTATIONS: list[tuple[str, str, Callable[[Record], None], str]] = [
    (
        "written_off removed",
        "sea_opening",
        _delete("rounds.3.sheet.0.written_off"),
        "round 4, sheet unit 0: written_off is None but the rules give True",
    ),
    (
        "written_off forged",
        "sea_opening",
        _set("rounds.2.sheet.0.written_off", True),
        "round 3, sheet unit 0: written_off is True but the rules give None",
    ),
    (
        "written_off false",
        "sea_opening",
        _set("rounds.3.sheet.2.written_off", False),
        "round 4, sheet unit 2: written_off is False but the rules give True",
    ),
    (
        "credited below open_at",
        "sea_opening",
        _set("rounds.0.sheet.3.credited", 23),
        "round 1, sheet unit 3: credited is 23 but the rules give 0",
    ),
    (
        "credited of a write-off",
        "sea_opening",
        _set("rounds.3.sheet.1.credited", 0),
        "round 4, sheet unit 1: credited is 0 but the rules give 43",
    ),
    (
        "after kept through a write-off",
        "sea_opening",
        _set("rounds.3.sheet.0.after", 43),
        "round 4, sheet unit 0: after is 43 but the rules give 0",
    ),
    (
        "decides removed",
        "sea_opening",
        _delete("rounds.4.end.decides"),
        "round 5: end.decides is None but the rules give {'seat': 1, 'won': True}",
    ),
    (
        "decides forged",
        "sea_opening",
        _set("rounds.2.end.decides", {"seat": 0, "won": True}),
        "round 3: end.decides is {'seat': 0, 'won': True} but the rules give None",
    ),
    (
        "decides turned",
        "sea_hundred_failed",
        _set("rounds.1.end.decides.won", True),
        "round 2: end.decides is {'seat': 3, 'won': True} but the rules give "
        "{'seat': 3, 'won': False}",
    ),
    (
        "hundred on a non-lead",
        "sea_opening",
        _set("rounds.0.moves.21.hundred", True),
        "round 1, move 22: 6-6@1 hundred by seat 0 is illegal: "
        "the hundred is declared with the first tile of a round",
    ),
    (
        "hundred without 6-6",
        "sea_opening",
        _set("rounds.2.moves.0.hundred", True),
        "round 3, move 1: 0-6 hundred by seat 0 is illegal: only a leader with a record",
    ),
    (
        "hundred undeclared",
        "sea_hundred_made",
        _delete("rounds.1.moves.0.hundred"),
        "round 2: end.decides is {'seat': 3, 'won': True} but the rules give None",
    ),
    (
        "winners",
        "sea_hundred_fish",
        _set("result.winners", [3]),
        "result: winners is [3] but the rules give [0, 2, 3]",
    ),
    (
        "draw fish credit without subtraction",
        "draw",
        _set("rounds.1.sheet.0.credited", 43),
        "round 2, sheet unit 0: credited is 43 but the rules give 31",
    ),
    (
        "shared fish credited",
        "draw",
        _set("rounds.2.sheet.0.credited", 15),
        "round 3, sheet unit 0: credited is 15 but the rules give 0",
    ),
    (
        "race rating",
        "draw",
        _set("result.rating", [0, 5, 0, 0]),
        "result: rating is [0, 5, 0, 0] but the rules give [0, 4, 0, 0]",
    ),
    (
        "eggs in a race",
        "draw",
        _set("rounds.0.eggs", 3),
        "round 1: eggs is 3 but the rules give 0",
    ),
    (
        "an option of another game",
        "draw",
        _set("options.loss_limit", 101),
        "draw has no option 'loss_limit'; its options are players, teams, target",
    ),
    (
        "a missing option",
        "sea_bald_goat",
        _delete("options.open_at"),
        "sea_goat options are missing open_at",
    ),
    (
        "partner's hand credited",
        "draw_teams",
        _set("rounds.0.sheet.0.credited", 18),
        "round 1, sheet unit 0: credited is 18 but the rules give 8",
    ),
]


@pytest.mark.parametrize(
    ("name", "change", "message"), [m[1:] for m in MUTATIONS], ids=[m[0] for m in MUTATIONS]
)
def test_mutated_records_are_refused(
    name: str, change: Callable[[Record], None], message: str
) -> None:
    """docs/record.md#record-files: a record whose sheet, end, moves, options or result disagree
    with the rules is invalid; ``replay`` names the first discrepancy."""
    rules, raw, game = SCRIPTED_BY_NAME[name]
    record = round_trip(play(rules, raw, game))
    bad = copy.deepcopy(record)
    change(bad)
    with pytest.raises(RecordError) as caught:
        replay_layout(bad)
    assert message in str(caught.value), str(caught.value)


@pytest.mark.parametrize(
    ("game", "option", "value"),
    [
        ("draw", "loss_limit", 101),
        ("block", "open_at", 25),
        ("classic", "fish_mode", "everyone"),
        ("sea_goat", "lead_by", "winner"),
        ("draw", "open_at", 25),
    ],
)
def test_options_of_another_game_are_refused(game: str, option: str, value: object) -> None:
    """§8.4: each game has exactly its own options; a request naming another game's option is
    refused with a message that names this game's options."""
    rules = get_game(game)
    names = ", ".join(s.name for s in rules.option_specs)
    with pytest.raises(InvalidOption, match=f"its options are {names}"):
        rules.options({option: value})


# --- the playout kernel costs every scripted hand's end as the rules do -------------------


@pytest.mark.parametrize(
    ("name", "index"),
    [
        pytest.param(name, index, id=f"{name}-{index + 1}")
        for name, _, _, game in SCRIPTED
        for index in range(len(game))
    ],
)
def test_kernel_costs_the_scripted_hands_as_the_rules_do(name: str, index: int) -> None:
    """The compiled playout kernel, made to lay each scripted hand's last tile, ends the hand
    and costs it for every unit as the Python rules do (including Sea Goat's instant ends)."""
    from kozel.layout.bots.kernel import SplitMix
    from tests.test_kernel import compare_from

    rules, raw, game = SCRIPTED_BY_NAME[name]
    m = play(rules, raw, game, rounds=index)
    hands, bazaar, script = game[index]
    m.next_round(deal_of(hands, bazaar))
    *first, last = script.split()
    push_script(m, " ".join(first))
    text = last.split(":")[1]
    final = Play(t(text[:-1]), None, False, True) if text.endswith("^") else move(text)
    moves = m.round.legal_moves()
    pick = moves.index(final)
    seed = next(s for s in range(10_000) if SplitMix(s).next() % len(moves) == pick)
    compare_from(m, seed)
    assert m.round.history[-1][1] == final and m.round.over

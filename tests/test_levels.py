"""The club's levels (beginner, amateur, strong, expert) in every game, the beginner's
mistakes, the names stored games use, and the expert's judgement of a seat's decisions
(:mod:`kozel.judgement`). Their margins are measured by bench/levels.py, not here."""

from __future__ import annotations

import json
from typing import Any

import pytest

from kozel.core import Draw, Knock, Play, PlayDoubles
from kozel.games import ALL_GAMES, GOAT, replay_layout
from kozel.judgement import accuracy, is_mistake, judge_seat
from kozel.layout.bots import CLUB_LEVELS, FORMER, LEVELS, make_bot
from kozel.layout.bots.beginner import BeginnerBot, weight
from kozel.layout.match import Match, record_of
from kozel.layout.rules import Ruleset
from kozel.layout.views import view_for
from kozel.simulate import play_match
from tests.randomplay import DURING_MATRIX, MATRIX, play_random

SETS = [(rules, rules.options(raw)) for rules, raw in [*MATRIX, *DURING_MATRIX]]


def test_the_club_offers_four_levels_and_reads_the_old_names() -> None:
    assert CLUB_LEVELS == ("beginner", "amateur", "strong", "expert")
    assert set(CLUB_LEVELS) | {"random", "greedy"} == set(LEVELS)
    assert FORMER == {"greedy": "amateur"}
    # a stored game's seat {"bot": "greedy"} still gets its bot, the amateur's play
    assert type(make_bot("greedy", 1)) is type(make_bot("amateur", 1))
    assert make_bot("amateur").level == "amateur" and make_bot("greedy").level == "greedy"
    assert make_bot("strong").level == "strong"
    for game in ALL_GAMES.values():
        for level in (*CLUB_LEVELS, "greedy", "random"):
            assert game.make_bot(level, 1) is not None


@pytest.mark.parametrize("index", range(0, len(SETS), 3))
def test_every_club_level_plays_layout_games(index: int) -> None:
    rules, opts = SETS[index]
    bots = [make_bot(level, 10 + s) for s, level in enumerate(CLUB_LEVELS)][: opts.players]
    match = play_match(rules, opts, bots, 200 + index)
    assert match.over
    replay_layout(json.loads(json.dumps(record_of(match, ["a", "b", "c", "d"][: opts.players]))))


@pytest.mark.parametrize("game", ["poker", "trumps"])
def test_every_club_level_plays_poker_and_trumps(game: str) -> None:
    rules = ALL_GAMES[game]
    opts = rules.options({"players": 4} if game == "poker" else {})
    bots = [rules.make_bot(level, 20 + s) for s, level in enumerate(CLUB_LEVELS)]
    match = play_match(rules, opts, bots, 7)
    assert match.over


@pytest.mark.parametrize("index", range(0, len(SETS), 2))
def test_the_beginner_lays_its_heaviest_or_first_fitting_tile(index: int) -> None:
    """Never a draw or a knock while a tile fits, never a light tile for a heavier one but
    the first that fits; and over a game it does lay its heaviest most of the time."""
    rules, opts = SETS[index]
    bot = BeginnerBot(3)
    heaviest = chosen = 0

    def check(match: Match, _: object) -> None:
        nonlocal heaviest, chosen
        view = view_for(match, match.round.turn)
        if view.asking >= 0 or len(view.legal_moves) < 2:
            return
        plays = [m for m in view.legal_moves if isinstance(m, Play | PlayDoubles)]
        move = bot.choose(view)
        if not plays:
            return
        assert not isinstance(move, Draw | Knock)
        top = max(weight(m) for m in plays)
        assert move in (plays[0], next(m for m in plays if weight(m) == top))
        chosen += 1
        heaviest += weight(move) == top

    play_random(rules, opts, 40 + index, check)
    if chosen >= 20:
        assert heaviest >= chosen // 2


def test_accuracy_and_mistakes_as_defined() -> None:
    assert accuracy([]) is None
    assert accuracy([{"loss": 0.0, "spread": 0.0}]) == 100.0
    assert accuracy([{"loss": 1.0, "spread": 2.0}, {"loss": 0.0, "spread": 2.0}]) == 75.0
    assert is_mistake(4.0, 6.0, "points") and not is_mistake(2.0, 3.0, "points")
    assert not is_mistake(4.0, 10.0, "points")  # less than half of what it could lose
    assert is_mistake(2.0, 3.0, "chips")


class Lightest:
    """A deliberately bad player: lays its lightest tile that fits, keeping the heavy ones."""

    level = "lightest"

    def choose(self, view: Any) -> Any:
        moves = view.legal_moves
        return min(moves, key=lambda m: (not isinstance(m, Play | PlayDoubles), weight(m)))


def test_the_judgement_marks_a_bad_players_mistakes_and_not_the_experts_choice() -> None:
    """Seat 0 keeps its heavy tiles (lays its lightest): the expert finds large mistakes and
    an accuracy below 100; every decision names a legal move played and the expert's. Over
    three games the bad player gives away more points a decision than the amateur facing
    it (in one game either may look worse: 24 worlds a decision judge few moves surely)."""
    rules = GOAT
    assert isinstance(rules, Ruleset)
    opts = rules.options({"players": 2, "loss_limit": 60})
    losses: dict[int, list[float]] = {0: [], 1: []}
    for seed in (12, 13, 14):
        match = play_match(rules, opts, [Lightest(), make_bot("amateur", 2)], seed)
        record = json.loads(json.dumps(record_of(match, ["bad", "amateur"])))
        bad = judge_seat(record, 0, 24, 8)
        assert bad["judged"] and bad["unit"] == "points" and bad["decisions"]
        assert bad["mistakes"] >= 1
        assert bad["accuracy"] is not None and bad["accuracy"] < 100
        for d in bad["decisions"]:
            moves = record["rounds"][d["round"] - 1]["moves"]
            recorded = moves[d["move"] - 1]
            assert recorded["seat"] == 0
            assert d["played"] == {k: v for k, v in recorded.items() if k != "seat"}
            assert d["loss"] <= d["spread"] and d["mistake"] == is_mistake(
                d["loss"], d["spread"], "points"
            )
        good = judge_seat(record, 1, 24, 8)
        losses[0] += [d["loss"] for d in bad["decisions"]]
        losses[1] += [d["loss"] for d in good["decisions"]]
    bad_mean, good_mean = (sum(x) / len(x) for x in (losses[0], losses[1]))
    assert good_mean < bad_mean / 2


def held_by(record: dict[str, Any], seat: int) -> set[str]:
    """Every tile ``seat`` held in the record: dealt to it or drawn by it."""
    held: set[str] = set()
    for r in record["rounds"]:
        held |= set(r["deal"]["hands"][seat])
        for m in r["moves"]:
            if m.get("seat") == seat:
                drawn = m.get("drew", [m["draw"]] if isinstance(m.get("draw"), str) else [])
                held |= set(drawn)
    return held


@pytest.mark.parametrize("game", ["goat", "poker", "trumps"])
def test_the_judgement_values_each_decision_from_the_seats_own_view(
    game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every view the expert is handed while judging a seat is that seat's own view at the
    decision (its hand, never another's): the record's other hands never reach it."""
    from kozel.core import TILE_NAMES
    from kozel.layout.bots.expert import ExpertBot
    from kozel.poker.bots import ExpertPokerBot
    from kozel.trumps.bots import ExpertTrumpsBot

    rules = ALL_GAMES[game]
    raw = {
        "goat": {"players": 3, "loss_limit": 40},
        "poker": {"players": 3, "hands": 3},
        "trumps": {"target": 60},
    }[game]
    opts = rules.options(raw)
    bots = [rules.make_bot("amateur", 30 + s) for s in range(opts.players)]
    match = play_match(rules, opts, bots, 9)
    labels = [f"p{s}" for s in range(opts.players)]
    made = record_of(match, labels) if game == "goat" else match.record(labels)
    record = json.loads(json.dumps(made))
    seen: list[tuple[int | None, set[str]]] = []
    expert: Any = {"goat": ExpertBot, "poker": ExpertPokerBot, "trumps": ExpertTrumpsBot}[game]
    analyse = expert.analyse

    def spy(self: Any, view: Any, *rest: Any) -> Any:
        seen.append((view.seat, {TILE_NAMES[t] for t in view.hand}))
        return analyse(self, view, *rest)

    monkeypatch.setattr(expert, "analyse", spy)
    reviewed = 1
    judged = judge_seat(record, reviewed, 8, 4)
    assert judged["decisions"] and seen
    assert {seat for seat, _ in seen} == {reviewed}
    held = held_by(record, reviewed)
    assert all(hand <= held for _, hand in seen)

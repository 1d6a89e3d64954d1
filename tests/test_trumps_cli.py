"""Trumps through the command line and the terminal game."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

from rich.console import Console
from typer.testing import CliRunner

from kozel.cli import app
from kozel.games import get_game
from kozel.hands.terminal import NEXT_HAND_PROMPT
from kozel.trumps.game import TRUMPS
from kozel.trumps.match import TrumpsMatch
from kozel.trumps.moves import Bid, Lay, NameTrumps, Pass
from kozel.trumps.terminal import (
    BID_PROMPT,
    PLAY_PROMPT,
    TRUMPS_PROMPT,
    TrumpsTerminal,
    understand,
)
from kozel.trumps.views import trumps_view

runner = CliRunner()


def test_games_lists_trumps_and_its_target() -> None:
    result = runner.invoke(app, ["games"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    assert "trumps — Trumps" in result.output and "an integer 1..1000" in result.output


def test_simulate_writes_records_that_replay_and_bad_ones_are_named(tmp_path: Path) -> None:
    path = tmp_path / "trumps.jsonl"
    args = ["simulate", "trumps", "--bots", "random,greedy,expert,greedy", "--seed", "5"]
    result = runner.invoke(app, [*args, "-n", "2", "-o", "target=60", "--record", str(path)])
    assert result.exit_code == 0, result.output
    assert "mean points / round" in result.output
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 0 and "2 records replay clean" in result.output
    lines = path.read_text().splitlines()
    bad = json.loads(lines[1])
    bad["rounds"][0]["end"]["made"] = not bad["rounds"][0]["end"]["made"]
    path.write_text(lines[0] + "\n" + json.dumps(bad) + "\n")
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 1
    assert "line 2: hand 1: end is" in result.output
    result = runner.invoke(app, ["analyse", str(path), "--seat", "0"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "points in all" in result.output and "not reviewed: bids" in result.output


def test_the_review_values_trumps_and_tiles_not_bids() -> None:
    """A random player's decisions: naming trumps and laying tiles, each with the expert's
    best move and a loss that is never negative and sometimes not zero; no bid or pass."""
    match = TRUMPS.new_match(TRUMPS.options({"target": 60}), seed=11)
    bots = [TRUMPS.make_bot(level, seed) for seed, level in enumerate(["random", "expert"] * 2)]
    while not match.over:
        if match.needs_deal:
            match.deal_next()
        else:
            seat = match.to_move
            assert seat is not None
            match.push(bots[seat].choose(match.view(seat)))
    decisions = list(TRUMPS.review(match.record(list("abcd")), 0).decisions())
    assert decisions and all(isinstance(d.played, (Lay, NameTrumps)) for d in decisions)
    assert all(d.expected_loss >= 0 for d in decisions)
    assert any(d.expected_loss > 0 and d.played != d.best for d in decisions)


def typed(move: object) -> str:
    if isinstance(move, Pass):
        return "pass"
    if isinstance(move, Bid):
        return str(move.amount)
    if isinstance(move, NameTrumps):
        return str(move.value)
    assert isinstance(move, Lay)
    return str(move)


class ScriptedHuman:
    """Answers like a human: a legal move (now and then after a wrong answer or ``?``)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.terminal: TrumpsTerminal | None = None
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if prompt == NEXT_HAND_PROMPT:
            return ""
        assert self.terminal is not None
        view = trumps_view(self.terminal.match, self.terminal.seat)
        roll = self.rng.random()
        if roll < 0.05:
            return "?"
        if roll < 0.1:
            return {BID_PROMPT: "29", TRUMPS_PROMPT: "7"}.get(prompt, "9-9")
        return typed(self.rng.choice(view.legal_moves))


def test_a_scripted_human_plays_whole_games() -> None:
    game = get_game("trumps")
    for seed in range(3):
        buffer = io.StringIO()
        human = ScriptedHuman(seed)
        terminal = TrumpsTerminal(
            game,
            game.options({"target": 80}),
            "greedy",
            seed,
            seed,
            Console(file=buffer, width=200),
            human,
        )
        human.terminal = terminal
        terminal.run()
        text = buffer.getvalue()
        assert isinstance(terminal.match, TrumpsMatch) and terminal.match.over
        assert "Game over" in text and "your hand:" in text and "Hand 1 — seat 3 deals" in text
        assert "takes the trick" in text and BID_PROMPT in human.prompts
        assert PLAY_PROMPT in human.prompts


def test_wrong_answers_are_explained() -> None:
    match = TrumpsMatch(get_game("trumps").options(), seed=1)  # type: ignore[arg-type]
    match.deal_next()
    view = trumps_view(match, 0)
    assert understand("29", view) == "you may bid 30 to 42"
    assert understand("hello", view) == "type pass or a bid from 30 to 42"
    assert understand("31", view) == Bid(31)


def test_play_trumps_from_the_command_line_and_quit() -> None:
    result = runner.invoke(app, ["play", "trumps", "--seed", "1", "--bots", "random"], input="q\n")
    assert result.exit_code == 0, result.output
    assert "your hand:" in result.output and "bye" in result.output
    result = runner.invoke(app, ["play", "trumps", "--bots", "genius"])
    assert result.exit_code == 2 and "unknown bot 'genius'" in result.output

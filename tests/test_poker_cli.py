"""Domino Poker through the command line and the terminal game."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

from rich.console import Console
from typer.testing import CliRunner

from kozel.cli import app
from kozel.core import TILE_NAMES, parse_tile
from kozel.games import get_game
from kozel.hands.terminal import NEXT_HAND_PROMPT
from kozel.poker.game import POKER
from kozel.poker.match import PokerMatch, PokerOptions
from kozel.poker.moves import Bet, Call, Check, Discard, Fold, Raise
from kozel.poker.ranking import POKER_TILES
from kozel.poker.terminal import BET_PROMPT, DRAW_PROMPT, PokerTerminal
from kozel.poker.views import poker_view

runner = CliRunner()


def test_games_lists_poker_and_its_options() -> None:
    result = runner.invoke(app, ["games"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    for word in ("poker — Domino Poker", "no_limit", "an integer 1..1000", "preset no-limit"):
        assert word in result.output


def test_simulate_writes_records_that_replay_and_bad_ones_are_named(tmp_path: Path) -> None:
    path = tmp_path / "poker.jsonl"
    args = ["simulate", "poker", "--bots", "random,greedy,expert", "--seed", "5", "-n", "2"]
    result = runner.invoke(app, [*args, "-o", "hands=5", "--record", str(path)])
    assert result.exit_code == 0, result.output
    assert "chips won per hand (95% CI" in result.output and "mean chips / hand" in result.output
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 0 and "2 records replay clean (10 rounds), 0 wrong" in result.output
    lines = path.read_text().splitlines()
    bad = json.loads(lines[1])
    bad["rounds"][0]["chips_after"] = [0, 0, 0]
    path.write_text(lines[0] + "\n" + json.dumps(bad) + "\n")
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 1
    assert "line 2: hand 1: chips_after is [0, 0, 0] in the record" in result.output
    result = runner.invoke(app, ["analyse", str(path), "--game", "2"])
    assert result.exit_code == 2 and "game 2 does not replay: hand 1: chips_after" in result.output
    result = runner.invoke(app, ["analyse", str(path), "--seat", "2"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "decisions with a choice" in result.output and "chips in all" in result.output
    assert runner.invoke(app, ["analyse", str(path), "--seat", "3"]).exit_code == 2


def test_the_review_finds_a_folded_royal_flush() -> None:
    """Seat 0 holds the five doubles (no hand beats them) and folds to a bet: the review
    names the fold, a better move and a loss in chips."""
    opts = POKER.options({"players": 2, "hands": 1})
    assert isinstance(opts, PokerOptions)
    match = PokerMatch(opts, seed=3)
    royal = [parse_tile(t) for t in ["2-2", "3-3", "4-4", "5-5", "6-6"]]
    other = [parse_tile(t) for t in ["1-2", "1-3", "1-4", "1-5", "1-6"]]
    rest = [t for t in POKER_TILES if t not in royal + other]
    match.start_hand([royal, other], rest)
    while match.hand is not None and not match.hand.over:
        legal = match.legal_moves()
        if match.to_move == 1:
            move = next((m for m in legal if isinstance(m, Bet)), legal[0])
        else:
            move = next((m for m in legal if isinstance(m, Fold)), legal[0])
        match.push(move)
    assert match.over
    record = match.record(["a", "b"])
    decisions = list(POKER.review(record, 0).decisions())
    folded = [d for d in decisions if isinstance(d.played, Fold)]
    assert len(folded) == 1 and not isinstance(folded[0].best, Fold)
    assert folded[0].expected_loss > 0


def test_simulate_json_heads_up_gives_the_margin() -> None:
    result = runner.invoke(
        app,
        [
            "simulate",
            "poker",
            "-o",
            "players=2",
            "-o",
            "hands=4",
            "--bots",
            "greedy,random",
            "-n",
            "3",
            "--json",
        ],
    )
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert set(data["levels"]["greedy"]) == {"mean_chips_per_hand", "ci95"}
    assert data["margin"]["of"] == "greedy" and "ratio" not in data


def typed(move: object, rng: random.Random) -> str:
    """A move as a human types it."""
    if isinstance(move, Discard):
        return " ".join(TILE_NAMES[t] for t in move.tiles) or rng.choice(["none", ""])
    if isinstance(move, Check | Fold):
        return type(move).__name__.lower()
    assert isinstance(move, Bet | Call | Raise)
    return f"{type(move).__name__.lower()} {move.amount}"


class ScriptedHuman:
    """Answers like a human: a legal move (now and then after a wrong answer or ``?``)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.terminal: PokerTerminal | None = None
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if prompt == NEXT_HAND_PROMPT:
            return ""
        assert self.terminal is not None
        match = self.terminal.match
        view = poker_view(match, self.terminal.seat)
        roll = self.rng.random()
        if roll < 0.05:
            return "?"
        if roll < 0.1:
            return "raise 100000" if prompt == BET_PROMPT else "6-6 6-6 9-9"
        return typed(self.rng.choice(view.legal_moves), self.rng)


def test_a_scripted_human_plays_whole_sessions() -> None:
    game = get_game("poker")
    for seed, raw in enumerate(({"hands": 4}, {"hands": 3, "limit": "no_limit", "players": 4})):
        buffer = io.StringIO()
        human = ScriptedHuman(seed)
        terminal = PokerTerminal(
            game,
            game.options(raw),
            "greedy",
            seed % 2,
            seed,
            Console(file=buffer, width=200),
            human,
        )
        human.terminal = terminal
        terminal.run()
        text = buffer.getvalue()
        assert isinstance(terminal.match, PokerMatch) and terminal.match.over
        assert "Game over" in text and "your tiles:" in text and "Hand 1 — seat 0 deals" in text
        assert BET_PROMPT in human.prompts and DRAW_PROMPT in human.prompts
        assert "antes 1" in text and "pot of" in text


def test_play_poker_from_the_command_line_and_quit() -> None:
    result = runner.invoke(app, ["play", "poker", "--seed", "1", "--bots", "random"], input="q\n")
    assert result.exit_code == 0, result.output
    assert "your tiles:" in result.output and "bye" in result.output
    result = runner.invoke(app, ["play", "poker", "--bots", "genius"])
    assert result.exit_code == 2 and "unknown bot 'genius'" in result.output

"""The kozel command line: games, simulate, replay, bench."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kozel.cli import app
from kozel.games import ALL_GAMES, GAMES
from kozel.layout.bots.kernel import supports

runner = CliRunner()


def test_games_lists_options_and_presets() -> None:
    result = runner.invoke(app, ["games"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    for word in ("goat", "donkey", "fish_mode", "own_to_loser", "bazaar_reserve", "goat-125"):
        assert word in result.output
    assert ">= 51" in result.output  # a rated Goat is played to 51 at least


def _simulate(*args: str) -> dict[str, object]:
    result = runner.invoke(app, ["simulate", *args, "--json"])
    assert result.exit_code == 0, result.output
    data: dict[str, object] = json.loads(result.stdout)
    return data


def test_simulate_json_is_reproducible() -> None:
    one = _simulate("goat", "--games", "5", "--seed", "11", "--bots", "greedy,random,random,random")
    two = _simulate("goat", "--games", "5", "--seed", "11", "--bots", "greedy,random,random,random")
    for data in (one, two):
        data.pop("seconds")
        data.pop("rounds_per_second")
    assert one == two
    assert set(one) >= {"game", "options", "games", "rounds", "moves", "seats"}
    seats = one["seats"]
    assert isinstance(seats, list) and [s["bot"] for s in seats] == [
        "greedy",
        "random",
        "random",
        "random",
    ]
    assert sum(s["games_lost"] for s in seats) >= 5


def test_simulated_records_replay_clean(tmp_path: Path) -> None:
    for game, options in [
        ("goat", ["-o", "players=2", "-o", "bazaar_reserve=2"]),
        ("goat", ["--preset", "yard"]),
        ("donkey", ["-o", "players=3", "-o", "fish_mode=all_to_loser"]),
        ("donkey", ["-o", "teams=true"]),
    ]:
        path = tmp_path / f"{game}.jsonl"
        result = runner.invoke(
            app, ["simulate", game, *options, "-n", "4", "--records", str(path), "--bots", "greedy"]
        )
        assert result.exit_code == 0, result.output
        assert len(path.read_text().splitlines()) == 4
        checked = runner.invoke(app, ["replay", str(path)])
        assert checked.exit_code == 0, checked.output
        assert "4 records replay clean" in checked.output


@pytest.mark.parametrize("game", ["all_fives", "telephone", "all_threes", "threes_fives", "bergen"])
def test_the_expert_plays_the_games_that_score_during_play_to_records_that_replay(
    tmp_path: Path, game: str
) -> None:
    """The expert (on the kernel) and greedy play these games through; the records replay."""
    path = tmp_path / f"{game}.jsonl"
    bots = "expert,greedy,expert,greedy"
    result = runner.invoke(
        app, ["simulate", game, "--bots", bots, "--games", "2", "--records", str(path)]
    )
    assert result.exit_code == 0, result.output
    assert len(path.read_text().splitlines()) == 2
    checked = runner.invoke(app, ["replay", str(path)])
    assert checked.exit_code == 0, checked.output
    assert "2 records replay clean" in checked.output


def test_replay_names_bad_lines(tmp_path: Path) -> None:
    good = tmp_path / "good.jsonl"
    runner.invoke(app, ["simulate", "goat", "-n", "2", "--records", str(good)])
    lines = good.read_text().splitlines()
    record = json.loads(lines[1])
    record["rounds"][0]["counts"][0] += 1
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join([lines[0], json.dumps(record), "[oops"]) + "\n")
    result = runner.invoke(app, ["replay", str(bad)], env={"COLUMNS": "300"})
    assert result.exit_code == 1
    assert "line 2: round 1: counts is [" in result.output
    assert "line 3: not valid JSON" in result.output
    assert "1 records replay clean" in result.output and "2 wrong" in result.output
    assert "Traceback" not in result.output


def test_replay_of_a_missing_file_is_an_error_not_a_traceback(tmp_path: Path) -> None:
    result = runner.invoke(app, ["replay", str(tmp_path / "nope.jsonl")])
    assert result.exit_code == 2
    assert "cannot read" in result.output and "Traceback" not in result.output


def test_bad_options_and_bots_are_explained() -> None:
    result = runner.invoke(app, ["simulate", "goat", "-o", "fish_mode=fast"])
    assert result.exit_code == 2 and "must be one of everyone" in result.output
    result = runner.invoke(app, ["simulate", "goat", "--bots", "random,random"])
    assert result.exit_code == 2 and "--bots lists 2 bots for 4 players" in result.output
    result = runner.invoke(app, ["simulate", "goat", "--bots", "genius"])
    assert result.exit_code == 2 and "unknown bot 'genius'" in result.output
    result = runner.invoke(app, ["simulate", "pokr"])
    assert result.exit_code == 2 and "unknown game 'pokr'" in result.output


def test_bench_json() -> None:
    """Every figure is there (without the expert's games: they are a benchmark's, not a
    test's, minutes)."""
    result = runner.invoke(app, ["bench", "--json", "--seconds", "0.2", "--games", "0"])
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["engine_rounds_per_second"] > 0
    kernel_games = {game for game, rules in GAMES.items() if supports(rules)}
    assert data["kernel_rounds_per_second_by_game"].keys() == kernel_games
    assert all(rate > 0 for rate in data["kernel_rounds_per_second_by_game"].values())
    assert data["kernel_all_fives_to_goat"]["median_ratio"] > 0
    assert data["expert_decision_ms_median_by_game"].keys() == ALL_GAMES.keys()


def test_bykovo_simulates_and_its_records_replay(tmp_path: Path) -> None:
    path = tmp_path / "bykovo.jsonl"
    result = runner.invoke(
        app, ["simulate", "bykovo", "-n", "6", "--records", str(path), "--bots", "greedy"]
    )
    assert result.exit_code == 0, result.output
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 0 and "6 records replay clean" in result.output
    result = runner.invoke(app, ["games"], env={"COLUMNS": "200"})
    assert "bykovo" in result.output and "micro-tournament" in result.output


@pytest.mark.parametrize(
    "bots", ["greedy,random,greedy,random", "expert,greedy,greedy,random,random,greedy,random"]
)
def test_tournament_plays_to_the_end_and_replays(tmp_path: Path, bots: str) -> None:
    path = tmp_path / "tournament.jsonl"
    args = ["tournament", "bykovo", "--bots", bots, "--seed", "2", "--record", str(path)]
    result = runner.invoke(app, args, env={"COLUMNS": "120"})
    assert result.exit_code == 0, result.output
    assert "Bykovo micro-tournament" in result.output and "place 1" in result.output
    record = json.loads(path.read_text(encoding="utf-8"))
    assert record["format"] == "kozel-tournament/1"
    assert len(record["players"]) == len(bots.split(","))
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 0 and "1 records replay clean" in result.output
    bad = record | {"standings": record["standings"][1:]}
    path.write_text(json.dumps(bad) + "\n", encoding="utf-8")
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 1 and "standings must list all" in result.output


def test_tournament_arguments_are_checked() -> None:
    result = runner.invoke(app, ["tournament", "goat", "--bots", "greedy,greedy,greedy,greedy"])
    assert result.exit_code == 2 and "only bykovo has a micro-tournament" in result.output
    result = runner.invoke(app, ["tournament", "bykovo", "--bots", "greedy,greedy,greedy"])
    assert result.exit_code == 2 and "4 to 7 players" in result.output
    result = runner.invoke(app, ["tournament", "bykovo", "--bots", "a,b,c,d"])
    assert result.exit_code == 2 and "unknown bot 'a'" in result.output

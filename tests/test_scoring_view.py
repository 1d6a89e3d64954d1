"""What a seat sees of the scoring during play: every lay's points, each unit's points this
round, the end sum, the lot of the first leader, and the hint (the points each of the seat's
own legal lays would score) — all equal to what the engine then scores, and no hidden tile."""

from __future__ import annotations

import json
import random

from kozel.core import Play, PlayDoubles
from kozel.games import get_layout_game
from kozel.layout.history import plays_of
from kozel.layout.match import Match
from kozel.layout.round import Round
from kozel.layout.views import view_for, view_from_dict
from tests.randomplay import DURING_MATRIX, option_sets, play_random
from tests.test_views import TILE_TEXT, visible_tiles


def check_scoring(match: Match, rnd: Round) -> None:
    seat = rnd.turn
    view = view_for(match, seat, hints=True)
    data = json.loads(json.dumps(view.to_dict()))
    # each lay's points as the engine scored it; each unit's as they add up
    lays = [e for e in data["history"] if "play" in e or "doubles" in e]
    assert all("points" in e for e in lays)
    assert [e.get("points", 0) for e in data["history"]] == match.points
    assert data["during"] == match.during  # the round is not over: its points so far
    per_unit = [0] * match.opts.units
    for e in lays:
        per_unit[match.opts.unit_of(e["seat"])] += e["points"]
    assert per_unit == match.during
    laid = [p for _, m, _ in rnd.history for p in plays_of(m)]
    expected_sum = match.scoring.layout_sum(laid, rnd.spinner_rule) if laid else None
    assert data["end_sum"] == expected_sum
    # the hint: exactly the legal lays that score, each with what it then scores
    hinted = {
        json.dumps({k: v for k, v in h.items() if k != "points"}): h["points"] for h in data["hint"]
    }
    for move in rnd.legal_moves():
        if not isinstance(move, Play | PlayDoubles):
            continue
        trial = match.copy()
        trial.push(move)
        key = json.dumps(match.write_move(move))
        assert hinted.get(key, 0) == trial.points[-1], (key, hinted)
    # no other seat's tile, with or without the hint
    allowed = visible_tiles(match, rnd, seat)
    leaked = set(TILE_TEXT.findall(json.dumps(data))) - allowed
    assert not leaked, f"seat {seat} sees {sorted(leaked)}"
    spectator = view_for(match, None, hints=True).to_dict()
    assert spectator["hint"] == [] and spectator["during"] == data["during"]
    assert view_for(match, seat).to_dict()["hint"] == []
    assert view_from_dict(data, get_layout_game) == view


def test_the_scoring_a_seat_sees_is_the_engines() -> None:
    sample = random.Random(7)
    games = 0
    for rules, raw in DURING_MATRIX:
        for seed in range(5):  # 5 games of each of the 40 option sets: 200 games in all
            play_random(
                rules,
                rules.options(raw),
                seed,
                lambda m, r: check_scoring(m, r) if sample.random() < 0.3 else None,
            )
            games += 1
    assert games >= 200


def test_who_won_the_lot_is_shown_in_the_first_round_only() -> None:
    seen: list[tuple[int, object]] = []

    def look(match: Match, rnd: Round) -> None:
        view = view_for(match, 1).to_dict()
        seen.append((view["round"], view["lot"]))
        if view["round"] == 1 and match.lot:  # the lot's winner leads the first round
            assert view["lot"] == {"seat": rnd.leader, "by": match.rules.lot}
            assert match.rules.lot_winner(match.lot) == view["leader"]

    games = 0
    for rules, raw in DURING_MATRIX:
        opts = rules.options(raw)
        play_random(rules, opts, 3, look)
        if rules.uses_lot(opts):
            games += 1
            assert all(lot is not None for n, lot in seen if n == 1)
            assert all(lot is None for n, lot in seen if n > 1)
        else:
            assert all(lot is None for _, lot in seen)
        seen.clear()
    assert games >= 10


def test_the_score_so_far_is_the_sheet_once_a_round_is_over() -> None:
    """``sheet[u] + during[u]`` is each unit's score so far, also after the last round (when
    the sheet has its points already)."""
    for rules, raw in DURING_MATRIX[:8]:
        match = play_random(rules, rules.options(raw), 2)
        view = view_for(match, 0).to_dict()
        assert match.result is not None
        so_far = [s + d for s, d in zip(view["sheet"], view["during"], strict=True)]
        assert so_far == match.result.scores


def test_games_that_do_not_score_during_play_add_nothing() -> None:
    for rules, opts in option_sets()[:2]:
        match = play_random(rules, opts, 5)
        view = view_for(match, 0, hints=True).to_dict()
        assert view["during"] == [] and view["end_sum"] is None and view["hint"] == []
        assert view["lot"] is None and all("points" not in e for e in view["history"])

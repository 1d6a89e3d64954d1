"""Bykovo's micro-tournament (docs/rules.md#tournament, Decisions 8–9): seating, scores, limits,
eliminations, dynamics, standings, the record and its check."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from kozel.engine.errors import RecordError
from kozel.engine.record import dumps
from kozel.games import check_lines
from kozel.layout.bots import make_bot
from kozel.layout.tournament import (
    LIMITS,
    Tournament,
    TournamentError,
    play_tournament,
    rating_gains,
    replay_tournament,
)

NAMES = ["ann", "bob", "cid", "dan", "eve", "fay", "gus"]


def tournament(n: int, seed: int = 1, ratings: list[int | None] | None = None) -> Tournament:
    return Tournament(NAMES[:n], seed, ratings)


def test_limits_by_the_starting_field() -> None:
    assert LIMITS == {4: 100, 5: 75, 6: 60, 7: 50}
    for n, limit in LIMITS.items():
        assert tournament(n).limit == limit
    for n in (3, 8):
        with pytest.raises(TournamentError, match="4 to 7 players"):
            tournament(n) if n <= 7 else Tournament([f"p{i}" for i in range(n)])
    with pytest.raises(TournamentError, match="his own name"):
        Tournament(["a", "a", "b", "c"])


def test_rating_of_the_top_three_places() -> None:
    """Decision 9: places 1, 2, 3 gain 3, 2, 1."""
    assert rating_gains([1, 2, 3, 4, 5, 6, 7]) == [3, 2, 1, 0, 0, 0, 0]


def test_game_one_sits_out_the_rating_leaders_first_then_by_lot() -> None:
    t = tournament(6, ratings=[10, None, 30, 20, None, None])
    assert t.seating() == [0, 1, 4, 5]  # 30 (cid) and 20 (dan) sit out
    t = tournament(6, ratings=[10, None, 30, None, None, None])
    seated = t.seating()
    assert 2 not in seated and len(seated) == 4 and seated == sorted(seated)
    lots = {tuple(tournament(7, seed).seating()) for seed in range(40)}
    assert len(lots) > 5, "without ratings game 1 is seated by lot"
    assert tournament(4).seating() == [0, 1, 2, 3]


def test_next_game_seats_who_sat_out_then_the_worst_places() -> None:
    t = tournament(6)
    t.add_result([0, 1, 2, 3], [0, 10, 20, 10], [0, 1, 3, 2])
    # eve and fay sat out; the two worst of the game: cid (20), then bob or dan (10 each),
    # both with 10 points: the lot decides, and either may play
    seated = t.seating()
    assert {4, 5, 2} < set(seated) and len(set(seated) & {1, 3}) == 1
    t.check_seating([1, 2, 4, 5])
    t.check_seating([2, 3, 4, 5])
    with pytest.raises(TournamentError, match="eve sat out the last game and must play"):
        t.check_seating([1, 2, 3, 5])
    with pytest.raises(TournamentError, match="bob plays while cid, who placed worse"):
        t.check_seating([1, 3, 4, 5])


def test_equal_counts_sit_by_the_worse_tournament_score() -> None:
    t = tournament(5)
    t.add_result([0, 1, 2, 3], [0, 30, 5, 7], [0, 2, 3, 1])
    t.add_result([0, 2, 3, 4], [12, 12, 0, 3], [3, 4, 0, 2])
    # bob sat out; the seats left go to ann and cid (12 each: cid's score 5+12 beats ann's
    # 12, so cid is worse and plays first), then eve (3)
    assert t.seating() == [0, 1, 2, 4]
    assert t.worse_first_key(2) < t.worse_first_key(0) < t.worse_first_key(4)


def test_the_winner_adds_nothing_and_sitting_out_adds_nothing() -> None:
    t = tournament(5)
    t.add_result([0, 1, 2, 3], [6, 0, 8, 9], [1, 0, 2, 3])
    assert t.scores == [6, 0, 8, 9, 0]
    t.add_result([0, 2, 3, 4], [0, 20, 3, 4], [4, 0, 3, 2])  # eve wins with 4 pips left
    assert t.scores == [6, 0, 28, 12, 0]


def test_several_eliminated_at_once_place_by_score_then_dynamics() -> None:
    """Decision 8: reaching the limit (>=) eliminates; a game that leaves at most three in
    ends the tournament; the eliminated place below, later eliminations higher, the same
    game's by score, then by dynamics."""
    t = tournament(4)
    t.add_result([0, 1, 2, 3], [50, 40, 0, 10], [2, 3, 1, 0])
    assert t.scores == [50, 40, 0, 10]
    t.add_result([0, 1, 2, 3], [50, 60, 5, 0], [3, 2, 0, 1])
    # ann and bob reach 100 together; after game 0 ann (50) was behind bob (40): ann places
    # higher. cid (5) and dan (10) are still in and place above them.
    assert t.scores == [100, 100, 5, 10]
    assert t.eliminated_after == [1, 1, None, None] and t.over
    places = {s.player: s.place for s in t.standings()}
    assert places == {"cid": 1, "dan": 2, "ann": 3, "bob": 4}


def test_dynamics_goes_back_to_the_latest_game_with_different_scores() -> None:
    t = tournament(4)
    t.add_result([0, 1, 2, 3], [10, 0, 20, 30], [1, 0, 2, 3])  # ann 10 cid 20
    t.add_result([0, 1, 2, 3], [20, 0, 10, 5], [1, 3, 2, 0])  # ann 30 cid 30
    t.add_result([0, 1, 2, 3], [5, 0, 5, 5], [1, 0, 2, 3])  # ann 35 cid 35
    # equal now and after the game before; after game 0 cid (20) was behind ann (10)
    assert t.place_key(2) < t.place_key(0)


def test_a_timeout_eliminates_at_once_and_the_game_adds_nothing() -> None:
    t = tournament(5)
    t.add_result([0, 1, 2, 3], [10, 0, 20, 30], [1, 0, 2, 3])
    t.add_result([0, 1, 3, 4], [15, 15, 15, 15], [], timed_out=3)
    assert t.scores == [10, 0, 20, 30, 0]
    assert t.eliminated_after[3] == 1 and t.timed_out[3]
    # the next game: cid sat out; then the interrupted game's players by the worse score
    assert t.seating() == [0, 1, 2, 4]


def test_a_timed_out_player_places_below_everyone_still_in() -> None:
    t = tournament(4)
    t.add_result([0, 1, 2, 3], [99, 0, 20, 30], [1, 0, 2, 3])
    t.add_result([0, 1, 2, 3], [1, 2, 3, 4], [], timed_out=1)
    assert t.over
    places = {s.player: s.place for s in t.standings()}
    assert places == {"cid": 1, "dan": 2, "ann": 3, "bob": 4}


@pytest.mark.parametrize("players", [4, 5, 6, 7])
def test_each_field_size_plays_to_the_end_and_replays(players: int) -> None:
    levels = ["greedy", "random"] * 4
    bots = [make_bot(levels[i], i) for i in range(players)]
    t = play_tournament(NAMES[:players], bots, seed=players)
    assert t.over and len(t.still_in) <= 3
    standings = t.standings()
    assert sorted(s.place for s in standings) == list(range(1, players + 1))
    for s in standings:
        if s.eliminated_after is not None:
            assert s.score >= t.limit
    for g, game in enumerate(t.games):
        assert len(game.players) == 4
        assert sum(game.added) == sum(game.counts) - game.counts[game.players.index(game.places[0])]
        if g:
            assert set(t.games[g - 1].players) | set(game.players) >= {
                p for p in range(players) if (t.eliminated_after[p] or 99) >= g
            }
    record = json.loads(dumps(t.record()))
    assert record["format"] == "kozel-tournament/1" and record["limit"] == LIMITS[players]
    again = replay_tournament(record)
    assert again.scores == t.scores
    assert [r.error for r in check_lines([dumps(record)])] == [None]


def test_the_same_seed_plays_the_same_tournament() -> None:
    def once() -> dict[str, Any]:
        bots = [make_bot(level, i) for i, level in enumerate(["greedy", "random"] * 3)]
        return play_tournament(NAMES[:6], bots, seed=9).record()

    assert once() == once()


# --- tournament records that must be rejected ------------------------------------------------


def good_record() -> dict[str, Any]:
    bots = [make_bot("greedy", i) for i in range(5)]
    return json.loads(dumps(play_tournament(NAMES[:5], bots, seed=3).record()))


def test_bad_tournament_records_are_rejected() -> None:
    record = good_record()
    replay_tournament(record)

    def rejected(change: Any, message: str) -> None:
        bad = copy.deepcopy(record)
        change(bad)
        with pytest.raises(RecordError, match=message):
            replay_tournament(bad)

    rejected(lambda r: r["standings"][0].update(score=1), "standings: ann's score is 1")
    rejected(lambda r: r["standings"][0].update(eliminated_after=0), "ann's eliminated_after is 0")
    first, second = (next(s for s in record["standings"] if s["place"] == k) for k in (1, 2))

    def swap(r: dict[str, Any]) -> None:
        for s in r["standings"]:
            if s["player"] == first["player"]:
                s["place"] = 2
            elif s["player"] == second["player"]:
                s["place"] = 1

    rejected(swap, "places above")
    rejected(lambda r: r["games"].pop(), "the tournament is not over")
    rejected(lambda r: r["games"].append(r["games"][-1]), "already over")
    rejected(
        lambda r: r["games"][0]["rounds"][0]["end"].update(seat=9),
        "game 0: round 1: end.seat is 9",
    )
    rejected(lambda r: r.update(limit=100), "limit is 100 but 5 players play to 75")

    def reseat(r: dict[str, Any]) -> None:
        sat_out = next(p for p in NAMES[:5] if p not in r["games"][0]["seats"])
        r["games"][1]["seats"] = [p for p in r["games"][1]["seats"] if p != sat_out] + [
            p for p in r["games"][0]["seats"] if p not in r["games"][1]["seats"]
        ][:1]

    rejected(reseat, "game 1: ")


def test_a_timeout_in_a_real_game_is_recorded_and_replays() -> None:
    t = tournament(5, seed=4)
    seating, match = t.new_game()
    match.deal_next()
    bot = make_bot("greedy", 1)
    for _ in range(6):
        seat = match.to_move
        assert seat is not None
        match.push(bot.choose(match.view(seat)))
    loser = match.to_move
    assert loser is not None
    match.timeout(loser)
    t.add_game(seating, match)
    assert t.scores == [0] * 5 and t.eliminated_after[seating[loser]] == 0
    bots = [make_bot("greedy", i) for i in range(5)]
    while not t.over:
        seating, match = t.new_game()
        match.deal_next()
        while not match.over:
            seat = match.to_move
            assert seat is not None
            match.push(bots[seating[seat]].choose(match.view(seat)))
        t.add_game(seating, match)
    standings = {s.player: s for s in t.standings()}
    timed_out = standings[t.players[t.timed_out.index(True)]]
    assert timed_out.eliminated_after == 0
    assert timed_out.place == 5, "eliminated first, he places last"
    replay_tournament(json.loads(dumps(t.record())))

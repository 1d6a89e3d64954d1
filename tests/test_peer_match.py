"""The peer match's deterministic parts (bench/peer_match.py): the deals, the tiles between
the two engines, the three scorings and the interval; and a few quick hands through both
engines (the `dominoes` package is a dev dependency)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import peer_match
from peer_match import (
    HandEnd,
    Settings,
    deal_of,
    kozel_points,
    kozel_tile,
    leader_of,
    mean_interval,
    peer_halves,
    peer_points,
    simple_points,
    winner_pair,
)

from kozel.core import DOUBLE_OF, TILE_NAMES
from tests.scripting import tiles


def test_deals_are_the_whole_set_and_repeat_for_a_seed() -> None:
    for index in range(50):
        hands = deal_of(7, index)
        assert [len(h) for h in hands] == [7, 7, 7, 7]
        assert sorted(t for h in hands for t in h) == list(range(28))
        assert deal_of(7, index) == hands
    assert deal_of(7, 0) != deal_of(7, 1) != deal_of(8, 1)


def test_tiles_map_both_ways() -> None:
    for t in range(28):
        first, second = peer_halves(t)
        assert first <= second
        assert TILE_NAMES[t] == f"{first}-{second}"
        assert kozel_tile(first, second) == kozel_tile(second, first) == t


def test_the_holder_of_six_six_leads() -> None:
    hands = deal_of(1, 3)
    seat = leader_of(hands)
    assert DOUBLE_OF[6] in hands[seat]


def end(out: int | None, *left: str) -> HandEnd:
    return HandEnd(out, tuple(tiles(hand) for hand in left))


def test_the_three_scorings_of_an_out() -> None:
    # seat 1 went out; pair 0 (seats 0+2) holds 5 + 6 = 11, pair 1 holds 4 (seat 3)
    hand = end(1, "1-4", "", "2-4", "0-4")
    assert winner_pair(hand) == 1
    assert kozel_points(hand) == (0, 11)
    assert simple_points(hand) == (0, 11)
    assert peer_points(hand) == (0, 15)  # the whole table, the partner's 4 too


def test_the_three_scorings_of_a_block() -> None:
    # nobody out: pair 0 holds 3 + 2 = 5, pair 1 holds 6 + 6 = 12
    hand = end(None, "1-2", "1-5", "0-2", "3-3")
    assert winner_pair(hand) == 0
    assert kozel_points(hand) == (7, 0)  # the difference after a block
    assert simple_points(hand) == (12, 0)
    assert peer_points(hand) == (17, 0)


def test_a_block_on_equal_counts_scores_nothing() -> None:
    hand = end(None, "1-2", "1-5", "0-3", "0-0")
    assert winner_pair(hand) is None
    assert kozel_points(hand) == simple_points(hand) == peer_points(hand) == (0, 0)


def test_mean_interval() -> None:
    mean, low, high = mean_interval([1.0, 3.0])
    assert mean == 2.0
    assert low == pytest.approx(2.0 - 1.959964 * 1.0)  # sd sqrt(2), over sqrt(2) deals
    assert high == pytest.approx(2.0 + 1.959964 * 1.0)
    assert mean_interval([]) == (0.0, 0.0, 0.0)
    assert mean_interval([4.0]) == (4.0, 4.0, 4.0)


def test_hands_through_both_engines(tmp_path: Path) -> None:
    """Quick hands against the peer's random and greedy-like players: both engines agree on
    every move and every end, and the Kozel settlement is its Block scoring."""
    for peer in ("random", "bota_gorda"):
        settings = Settings(level="greedy", peer=peer, seed=5)
        for index in range(6):
            data = peer_match.play_deal((settings, index))
            assert "disagreement" not in data, data
            first, second = data["hands"]
            assert list(first["kozel_seats"]) == [0, 2] and list(second["kozel_seats"]) == [1, 3]
            for hand in data["hands"]:
                assert hand["moves"] >= 7
                assert hand["won"] in (0.0, 0.5, 1.0)
                if hand["out"] is not None:  # who goes out lays the last tile
                    assert hand["last"] == hand["out"]
                assert 0 <= hand["last"] < 4


def test_hands_are_grouped_by_how_they_ended() -> None:
    def hand(seats: list[int], out: int | None, last: int, kozel: float) -> dict[str, object]:
        return {"kozel_seats": seats, "out": out, "last": last, "kozel": kozel}

    deals = [
        {"hands": [hand([0, 2], 2, 2, 10.0), hand([1, 3], 2, 2, -6.0)]},
        {"hands": [hand([0, 2], None, 1, -4.0), hand([1, 3], None, 1, 8.0)]},
        {"hands": [hand([0, 2], None, 0, 2.0), {**hand([1, 3], None, 0, 0.0), "last": -1}]},
    ]
    groups = peer_match.ends(deals)
    assert {name: count for name, (count, _) in groups.items()} == {
        "out: the Kozel pair": 1,
        "out: the peer pair": 1,
        "blocked by the Kozel pair": 2,  # seat 1 of the pair 1+3, seat 0 of 0+2
        "blocked by the peer pair": 1,
        "blocked": 1,  # a file written before the last seat was recorded
    }
    assert groups["blocked by the Kozel pair"][1][0] == 5.0
    assert groups["out: the peer pair"][1][0] == -6.0


def test_a_run_resumes_from_its_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "peer.jsonl"
    args = ["--level", "greedy", "--peer", "random", "--seed", "2", "--out", str(out)]
    peer_match.main([*args, "--deals", "2"])
    lines = out.read_text().splitlines()
    assert [json.loads(line)["deal"] for line in lines] == [0, 1]
    peer_match.main([*args, "--deals", "3"])
    lines = out.read_text().splitlines()
    assert sorted(json.loads(line)["deal"] for line in lines) == [0, 1, 2]
    assert "3 duplicate deals (6 hands)" in capsys.readouterr().out
    peer_match.main([*args, "--report"])  # only summarises: nothing is played or appended
    assert len(out.read_text().splitlines()) == 3
    assert "3 duplicate deals (6 hands)" in capsys.readouterr().out
    with pytest.raises(SystemExit, match="another run"):
        peer_match.main(["--level", "random", *args[2:], "--deals", "3"])


def test_two_runs_are_compared_deal_by_deal_on_the_deals_both_played() -> None:
    def deal(number: int, kozel: tuple[float, float]) -> dict[str, object]:
        hands = [{"kozel": k, "simple": 2 * k, "peer": 0.0, "won": 1.0} for k in kozel]
        return {"deal": number, "hands": hands}

    ours = {0: deal(0, (4.0, 2.0)), 1: deal(1, (0.0, 0.0)), 2: deal(2, (6.0, 6.0))}
    theirs = {0: deal(0, (1.0, 1.0)), 1: deal(1, (-2.0, 0.0)), 3: deal(3, (9.0, 9.0))}
    result = peer_match.paired(ours, theirs)
    assert result["deals"] == 2  # deals 2 and 3 were played by one run only
    assert result["kozel"] == mean_interval([3.0 - 1.0, 0.0 - (-1.0)])
    assert result["simple"][0] == 3.0 and result["peer"][0] == result["won"][0] == 0.0


def test_a_report_against_another_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--peer", "random", "--seed", "2", "--deals", "2"]
    peer_match.main(["--level", "greedy", *args, "--out", str(tmp_path / "a.jsonl")])
    peer_match.main(["--level", "random", *args, "--out", str(tmp_path / "b.jsonl")])
    capsys.readouterr()
    versus = ["--versus", str(tmp_path / "a.jsonl")]
    peer_match.main(["--level", "random", *args, "--out", str(tmp_path / "b.jsonl"), *versus])
    assert "against greedy (samples 5/10) on the same 2 deals" in capsys.readouterr().out
    with pytest.raises(SystemExit, match="dealt seed 2, not 3"):
        peer_match.main(["--level", "random", "--peer", "random", "--seed", "3", *versus])
    mixed = tmp_path / "mixed.jsonl"
    mixed.write_text((tmp_path / "a.jsonl").read_text() + (tmp_path / "b.jsonl").read_text())
    with pytest.raises(SystemExit, match=r"mixed\.jsonl:3 holds another run.*two runs"):
        peer_match.main(["--level", "random", *args, "--versus", str(mixed)])
    with pytest.raises(SystemExit, match="no such file"):
        peer_match.main(["--level", "random", *args, "--versus", str(tmp_path / "c.jsonl")])
    (tmp_path / "empty.jsonl").write_text("\n")
    with pytest.raises(SystemExit, match=r"empty\.jsonl holds no deal"):
        peer_match.main(["--level", "random", *args, "--versus", str(tmp_path / "empty.jsonl")])


def test_the_experts_variants_play_without_becoming_club_levels() -> None:
    from kozel.core import InvalidOption
    from kozel.layout.bots import LEVELS
    from kozel.layout.bots.expert import ExpertBot

    bot = peer_match.kozel_bot("expert-c1", 3)
    assert isinstance(bot, ExpertBot) and bot.tuning.candidates == 1
    assert "expert-c1" not in LEVELS  # importing the benches changed no level of the club
    with pytest.raises(InvalidOption, match="expert-nonesuch"):
        peer_match.kozel_bot("expert-nonesuch", 3)


def test_a_watcher_sees_each_decision_of_the_kozel_seats_before_it_is_made() -> None:
    """bench/inference.py reads the real hands through ``watch``: it is called for every
    Kozel decision (two or more legal moves), at the deciding seat, before the move."""
    settings = Settings(level="greedy", peer="random", seed=5)
    seen: list[tuple[int, int]] = []

    def watch(match: peer_match.Match, seat: int) -> None:
        assert match.round.turn == seat and len(match.round.legal_moves()) > 1
        seen.append((seat, len(match.view(seat).history)))

    result = peer_match.play_hand(deal_of(5, 0), (1, 3), settings, 11, watch)
    assert len(seen) == result.ours.decisions > 0
    assert {seat for seat, _ in seen} <= {1, 3}
    assert [moves for _, moves in seen] == sorted(moves for _, moves in seen)


def test_the_inference_diagnostic_reads_the_peer_match() -> None:
    import inference

    tally = inference.Tally([1, 4], worlds=5)
    inference.measure_peer("random", 1, 5, tally)
    assert tally.positions > 0
    for line in tally.lines():
        assert 0 < float(line["partner"]) < 1 and 0 < float(line["opponents"]) < 1


def test_the_seeing_expert_searches_the_real_deal_of_its_match() -> None:
    """``expert-seeing`` is a bound, not a player: every world it searches holds the hands
    the match really holds, as the round goes on."""
    from kozel.layout.bots.sampling import Sampler

    settings = Settings(level=peer_match.SEEING, peer="random", seed=5)
    checked = 0

    def watch(match: peer_match.Match, seat: int) -> None:
        nonlocal checked
        bot = peer_match.kozel_bot(peer_match.SEEING, 1, match)
        view = match.view(seat)
        worlds = bot._worlds(view, Sampler(view, bot.rng), (), [], 3)
        assert [w.hands for w in worlds] == [list(match.round.hands)] * 3
        checked += 1

    peer_match.play_hand(deal_of(5, 1), (0, 2), settings, 12, watch)
    assert checked > 3

"""The rulebook's corrections from a second reading of the seeds (docs/rules.md#corrections), each
rule and each of the seeds' examples as a test: the traditional deal and first lead of Goat and
Donkey, Goat-125 and the penalty classic, Yard Goat's doubles without teams (§13.1); Donkey's two
doubles closed before any double (§13.2); Sea Goat's hundred in any round (§13.3); Bergen's block
(§13.4); All Fives and All Threes without a cross (§13.5). Trumps' suits (§13.6) are in
``tests/test_trumps.py``. Records written before the corrections replay as they were."""

from __future__ import annotations

import gzip
import json
import random
from typing import Any

import pytest

from kozel.core import (
    DECLINE_HUNDRED,
    DOUBLE_OF,
    IllegalMove,
    InvalidOption,
    Play,
    PlayDoubles,
    mask_of,
    tile_str,
)
from kozel.engine.errors import RecordError
from kozel.engine.record import dumps
from kozel.games import ALL_FIVES, ALL_THREES, BERGEN, DONKEY, GOAT, SEA_GOAT, replay_layout
from kozel.layout.deal import Deal
from kozel.layout.match import Match, record_of
from kozel.layout.round import Round
from kozel.layout.scoring.goat import settle
from tests.golden import GOLDEN
from tests.scripting import accts, legal, make_deal, run, shown, t, tiles

# --- §13.1 the traditional deal and first lead ---------------------------------------------


@pytest.mark.parametrize("rules", [GOAT, DONKEY], ids=lambda r: r.id)
def test_hand_sizes_by_players_deal_7_to_two_and_5_to_three_or_four(rules: Any) -> None:
    """§13.1: `hand_sizes = by_players` deals 2 players 7 tiles and 3 or 4 players 5 (a team
    game of 4 keeps an 8-tile bazaar); `seven`, the default, deals 7 to everyone."""
    for players, size in ((2, 7), (3, 5), (4, 5)):
        opts = rules.options({"players": players, "hand_sizes": "by_players"})
        assert rules.hand_size(opts) == size
        deal = Match(rules, opts, seed=players).next_round().deal
        assert [len(h) for h in deal.hands] == [size] * players
        assert len(deal.bazaar) == 28 - size * players
    team = rules.options({"teams": True, "hand_sizes": "by_players"})
    assert len(Match(rules, team, seed=1).next_round().deal.bazaar) == 8
    assert rules.hand_size(rules.options({"players": 3})) == 7


SIX_SIX = "6-6 5-5 4-4 3-3 2-2 1-1 0-0 5-6 4-6 3-6 4-5 2-6 3-5 1-6 2-5 3-4 0-6 1-5 2-4"
ZERO_ZERO = "0-0 1-1 2-2 3-3 4-4 5-5 6-6 5-6 4-6 3-6 4-5 2-6 3-5 1-6 2-5 3-4 0-6 1-5 2-4"


@pytest.mark.parametrize("rules", [GOAT, DONKEY], ids=lambda r: r.id)
@pytest.mark.parametrize(("first_lead", "order"), [("six_six", SIX_SIX), ("zero_zero", ZERO_ZERO)])
def test_first_lead_orders(rules: Any, first_lead: str, order: str) -> None:
    """§13.1: `six_six`: the holder of 6-6 leads, else 5-5 … 0-0, then the highest tile
    (§2.2's descending order); `zero_zero`: 0-0, 1-1 … 6-6, then 5-6 and down. Donkey's
    `one_one` keeps its own ascending order after the doubles (§4)."""
    opts = rules.options({"first_lead": first_lead})
    assert " ".join(tile_str(x) for x in rules.lead_order(opts)[:19]) == order
    hands = [mask_of(tiles(h)) for h in ("0-0 1-1 0-1", "6-6 0-2", "5-5 1-2", "2-3")]
    expected = (1, t("6-6")) if first_lead == "six_six" else (0, t("0-0"))
    assert rules.first_leader(hands, opts) == expected
    one_one = rules.options()
    assert rules.first_leader(hands, one_one) == (0, t("1-1"))


def test_the_first_lead_rule_applies_to_the_first_round_only() -> None:
    """§13.1: later rounds are led as §2.2 says, by the player who went out (any tile)."""
    opts = GOAT.options({"players": 2, "first_lead": "six_six"})
    m = Match(GOAT, opts, seed=3)
    rnd = m.next_round()
    holder = next(s for s, h in enumerate(rnd.deal.masks) if h >> t("6-6") & 1)
    assert rnd.leader == holder and rnd.lead_mask == 1 << t("6-6")
    rng = random.Random(3)
    while not rnd.over:
        moves = rnd.legal_moves()
        m.push(moves[rng.randrange(len(moves))])
    assert not m.over
    second = m.next_round()
    assert second.leader == GOAT.next_leader(opts, m.results[-1])
    assert second.lead_mask == second.hands[second.leader]


def test_goat_125_is_dealt_and_led_traditionally() -> None:
    """§13.1 / §3.1: Goat-125 with 3 players deals 5 tiles each and 6-6 (else the next double
    down) leads; its record lists the new options."""
    opts = GOAT.options({**GOAT.presets["goat-125"], "players": 3})
    m = Match(GOAT, opts, seed=11)
    rnd = m.next_round()
    assert [len(h) for h in rnd.deal.hands] == [5, 5, 5] and len(rnd.deal.bazaar) == 13
    held = [x for x in GOAT.lead_order(opts) if any(h >> x & 1 for h in rnd.deal.masks)]
    assert rnd.lead_mask == 1 << held[0]
    assert GOAT.options_dict(opts)["hand_sizes"] == "by_players"
    assert GOAT.options_dict(opts)["first_lead"] == "six_six"


def test_the_penalty_classic_writes_every_count_at_once() -> None:
    """§13.1, the penalty classic: `open_threshold = 0`, so nothing is remembered: every count,
    however small, is written to the account at once; 0-0 alone counts 10."""
    opts = GOAT.options(GOAT.presets["penalty-classic"])
    s = settle(opts, accts("0 0 0 0"), [0, 3, 13, 5], out_unit=0, eggs=0)
    assert shown(s.after) == "0 3 13 5" and all(a.open for a in s.after[1:])
    s = settle(opts, s.after, [2, 0, 1, 4], out_unit=1, eggs=0)
    assert shown(s.after) == "2 3 14 9"
    assert GOAT.hand_count(mask_of(tiles("0-0")), opts) == 10


def test_the_penalty_classic_ends_at_100_and_names_the_losers_as_goat() -> None:
    """§13.1: the game ends when an account reaches the limit (100, or 150 by option); the
    record's result names the losers as Goat does (the fewest points win: the club says so)."""
    for limit in (100, 150):
        opts = GOAT.options({**GOAT.presets["penalty-classic"], "loss_limit": limit})
        rng = random.Random(limit)
        m = Match(GOAT, opts, seed=limit)
        while not m.over:
            rnd = m.next_round()
            assert rnd.leader >= 0
            while not rnd.over:
                moves = rnd.legal_moves()
                m.push(moves[rng.randrange(len(moves))])
        assert m.result is not None
        accounts = m.result.scores
        assert m.result.losers and all(accounts[u] >= limit for u in m.result.losers)
        assert all(a < limit for u, a in enumerate(accounts) if u not in m.result.losers)
        record = json.loads(dumps(record_of(m, ["a", "b", "c", "d"])))
        assert replay_layout(record).result == m.result


def test_special_doubles_without_teams_charge_every_other_player() -> None:
    """§13.1 (003: "all the losers get the stated points in addition"): without teams, a
    round led with 6-6 or ended with 0-0 charges the extra to every player but the one who
    went out; the eggs still go to the single highest count."""
    opts = GOAT.options({"players": 3, "special_doubles": True})
    s = settle(opts, accts("0 0 0"), [0, 4, 9], out_unit=0, eggs=0, bonus=50)
    assert s.charged == [0, 54, 59]
    s = settle(opts, accts("0 0 0"), [0, 4, 9], out_unit=0, eggs=20, bonus=25)
    assert s.charged == [0, 29, 54] and s.eggs == 0
    tied = settle(opts, accts("0 0 0"), [0, 9, 9], out_unit=0, eggs=20, bonus=25)
    assert tied.charged == [0, 34, 34] and tied.eggs == 20
    team = GOAT.options({"teams": True, "special_doubles": True})
    assert settle(team, accts("0 0"), [0, 7], out_unit=0, eggs=0, bonus=50).charged == [0, 57]


# --- §13.2 Donkey: two doubles closed before any double -----------------------------------


def donkey_round(closer_hand: str, legacy: bool = False) -> Round:
    """A later Donkey round of 2 players: seat 0 leads 1-3 (any tile), seat 1 holds 1-1 and
    3-3 among ``closer_hand``."""
    raw: dict[str, Any] = {"players": 2}
    if legacy:  # as read from a record of before the corrections: no hand_sizes, first_lead
        written = DONKEY.options_dict(DONKEY.options(raw))
        opts = DONKEY.options(
            {k: v for k, v in written.items() if k not in ("hand_sizes", "first_lead")},
            complete=True,
        )
        assert opts.legacy
    else:
        opts = DONKEY.options(raw)
    leader = tiles("1-3 0-2 0-4 0-5 2-4 4-6 5-6")
    other = tiles(closer_hand)
    rest = tuple(x for x in range(28) if x not in leader and x not in other)
    return Round(DONKEY, opts, Deal((leader, other), rest), 0, mask_of(leader))


def test_two_doubles_closed_before_any_double_end_the_round_as_a_fish() -> None:
    """§13.2 (000: "until at least one double is laid, the next player may close two doubles
    at once. The round ends there"): the closer is the fisherman; with one closed the first
    double becomes the cross as before."""
    rnd = donkey_round("1-1 3-3 0-1 0-3 1-2 2-3 0-6")
    run(rnd, "0:1-3 1:1-1@0!+3-3@1!")
    assert rnd.end is not None and (rnd.end.kind, rnd.end.seat) == ("fish", 1)
    assert rnd.closed_both
    one = donkey_round("1-1 3-3 0-1 0-3 1-2 2-3 0-6")
    run(one, "0:1-3 1:1-1@0!+3-3@1")
    assert one.end is None and one.layout.spinner == t("1-1") and one.layout.ends == [1, 3, 1, 1]


def test_two_closed_doubles_after_a_double_do_not_end_the_round() -> None:
    """§13.2 applies only while no double is on the table: here 3-3 is the cross already."""
    leader, other = tiles("1-3 3-6 0-2 0-4 0-5 2-4 4-6"), tiles("1-1 3-3 6-6 0-1 0-3 1-2 2-3")
    rest = tuple(x for x in range(28) if x not in leader and x not in other)
    opts = DONKEY.options({"players": 2})
    rnd = Round(DONKEY, opts, Deal((leader, other), rest), 0, mask_of(leader))
    run(rnd, "0:1-3 1:3-3@1 0:3-6@2 1:1-1@0!+6-6@2!")
    assert rnd.end is None and rnd.layout.closed == [True, False, True, False]


def test_two_closed_doubles_that_empty_the_hand_are_an_out() -> None:
    """§1: a lay that empties the hand ends the round as an out, not as a fish."""
    rnd = donkey_round("1-1 3-3 0-1 0-3 1-2 2-3 0-6")
    rnd.hands[1] = mask_of(tiles("1-1 3-3"))
    run(rnd, "0:1-3 1:1-1@0!+3-3@1!")
    assert rnd.end is not None and (rnd.end.kind, rnd.end.seat) == ("out", 1)
    assert not rnd.closed_both


def test_a_legacy_donkey_game_goes_on_after_two_closed_doubles() -> None:
    """A game read from a record of before the corrections plays as it did then."""
    rnd = donkey_round("1-1 3-3 0-1 0-3 1-2 2-3 0-6", legacy=True)
    run(rnd, "0:1-3 1:1-1@0!+3-3@1!")
    assert rnd.end is None and rnd.layout.ends == [1, 3, 1, 1]


def donkey_match_with_a_closing_round() -> Match:
    """Round 1 of random moves (seeded), then a round in which the leader lays 1-3 and the next
    seat closes 1-1 and 3-3 at once."""
    opts = DONKEY.options({"players": 2})
    m = Match(DONKEY, opts, seed=8)
    rng = random.Random(8)
    rnd = m.next_round()
    while not rnd.over:
        moves = rnd.legal_moves()
        m.push(moves[rng.randrange(len(moves))])
    assert not m.over
    leader = DONKEY.next_leader(opts, m.results[-1])
    hands = ["1-3 0-2 0-4 0-5 2-4 4-6 5-6", "1-1 3-3 0-1 0-3 1-2 2-3 0-6"]
    if leader == 1:
        hands.reverse()
    bazaar = "0-0 1-4 1-5 1-6 2-2 2-5 2-6 3-4 3-5 3-6 4-4 4-5 5-5 6-6"
    m.next_round(make_deal(*hands, bazaar=bazaar))
    run(m, f"{leader}:1-3 {1 - leader}:1-1@0!+3-3@1!")
    return m


def test_the_closing_fish_is_scored_by_the_fish_mode_and_recorded() -> None:
    """§13.2: scored as a fish by `fish_mode` (Donkey's default own_to_loser: the highest count
    pays his own); the record's end is {"kind": "fish", "seat": s, "closed_both": true}."""
    m = donkey_match_with_a_closing_round()
    result = m.results[-1]
    closer = result.end.seat
    assert result.end_dict() == {"kind": "fish", "seat": closer, "closed_both": True}
    assert result.counts[closer] == 18 and result.counts[1 - closer] == 38
    assert result.charged[1 - closer] == 38 and result.charged[closer] == 0
    record = json.loads(dumps(m.record(["a", "b"])))
    assert record["rounds"][1]["end"] == {"kind": "fish", "seat": closer, "closed_both": True}
    # unfinished: finish the game to replay it
    rng = random.Random(1)
    while not m.over:
        rnd = m.next_round()
        while not rnd.over:
            moves = rnd.legal_moves()
            m.push(moves[rng.randrange(len(moves))])
    record = json.loads(dumps(m.record(["a", "b"])))
    assert record_of(replay_layout(record), ["a", "b"]) == record
    record["rounds"][1]["end"].pop("closed_both")
    with pytest.raises(RecordError, match=r"end\.closed_both"):
        replay_layout(record)


def test_a_record_that_plays_on_after_two_closed_doubles_is_refused() -> None:
    """`kozel replay` rejects what §13.2 forbids, saying why; a golden record written before the
    corrections (no hand_sizes, first_lead) that does it replays, and the same record
    claiming the new options is refused at the move after the closing."""
    lines = gzip.decompress(GOLDEN.read_bytes()).decode().splitlines()
    for line in lines:
        record = json.loads(line)
        if record["game"] != "donkey":
            continue
        for number, rnd in enumerate(record["rounds"], start=1):
            laid = [m for m in rnd["moves"] if "play" in m or "doubles" in m]
            first = laid[0]["play"]
            closing = laid[1] if len(laid) > 1 else {}
            doubles = closing.get("doubles", [])
            if (
                first[0] != first[2]
                and len(doubles) == 2
                and all(d["close"] for d in doubles)
                and rnd["moves"][-1] is not closing
            ):
                replay_layout(record)  # as it was
                record["options"].update({"hand_sizes": "seven", "first_lead": "one_one"})
                with pytest.raises(RecordError, match=rf"round {number}, move \d+: the round"):
                    replay_layout(record)
                return
    raise AssertionError("no golden Donkey record closes two doubles before any double")


# --- §13.3 Sea Goat: the hundred in any round --------------------------------------------

SEA_HANDS = ("5-6 4-5 3-4 2-3 2-2 0-2 1-5", "6-6 0-6 0-1 1-2 2-5 5-5 3-3")
SEA_BAZAAR = "0-3 0-0 0-4 0-5 1-1 1-3 1-4 1-6 2-4 2-6 3-5 3-6 4-4 4-6"


def sea_goat_round(record: int = 30) -> Match:
    """2-player Sea Goat; seat 1 has a record of ``record`` and was dealt 6-6, seat 0 holds
    the lowest double (2-2) and is the regular leader."""
    m = Match(SEA_GOAT, SEA_GOAT.options({"players": 2}))
    m.sheet = (0, record)
    m.next_round(make_deal(*SEA_HANDS, bazaar=SEA_BAZAAR))
    return m


def test_the_record_holder_dealt_6_6_is_asked_before_the_regular_leader_leads() -> None:
    """§13.3: a yes/no to that seat; declining changes nothing."""
    m = sea_goat_round()
    rnd = m.round
    assert rnd.leader == 0 and rnd.turn == 1 and rnd.asking == 1
    assert legal(m) == {"6-6 hundred", "no hundred"}
    view = m.view(1).to_dict()
    assert view["hundred_asked"] == 1 and {"hundred": False} in view["legal_moves"]
    assert m.view(0).to_dict()["legal_moves"] == []
    with pytest.raises(IllegalMove, match="asked about the hundred"):
        m.push(Play(t("6-6")))
    run(m, "1:no-hundred")
    assert rnd.turn == 0 and rnd.asking == -1 and legal(m) == {"2-2"}
    assert m.record(["a", "b"])["rounds"] == []  # the round is not over yet
    nobody = sea_goat_round(record=0)
    assert nobody.round.asking == -1 and nobody.round.turn == 0


def test_the_declarer_leads_6_6_and_play_goes_on_from_him() -> None:
    m = sea_goat_round()
    run(m, "1:hundred")
    rnd = m.round
    assert rnd.hundred == 1 and rnd.leader == 1 and rnd.first_tile == t("6-6")
    assert rnd.turn == 0 and legal(m) == {"5-6@0", "5-6@1"}


SEA_SCRIPT = """
    1:hundred 0:5-6@0 1:0-6@1 0:4-5@0 1:0-1@1 0:3-4@0 1:1-2@1 0:2-3@0
    1:2-5@1 0:2-2@0 1:5-5@1 0:0-2@0 1:draw 1:0-3@0 0:1-5@1
"""
"""Seat 1 declares and leads 6-6; seat 0 goes out with 1-5; seat 1 is left with 3-3 (6)."""


def test_a_hundred_failed_under_25_writes_the_record_off() -> None:
    """§13.3 (000: "otherwise the points are deducted"): someone else went out and the
    declarer holds less than 25: the round is scored as usual, then his record goes to 0,
    shown as `written_off` on his sheet entry; the game goes on."""
    m = sea_goat_round()
    run(m, SEA_SCRIPT)
    result = m.results[-1]
    assert result.end_dict() == {"kind": "out", "seat": 0}
    assert result.counts == [0, 6]
    assert result.entries == [
        {"before": 0, "during": 0, "credited": 0, "after": 0},
        {"before": 30, "during": 0, "credited": 0, "after": 0, "written_off": True},
    ]
    assert m.result is None and m.sheet == (0, 0)
    summary = m.round_summaries(len(m.results) - 1)[0]
    assert summary["hundred"] == 1 and summary["hundred_lost"] == 1
    assert summary["decided_by"] is None


def test_a_hundred_caught_with_25_or_more_still_loses_the_game() -> None:
    """§13.3: caught with 25 or more he loses at once, as before."""
    m = sea_goat_round()
    script = SEA_SCRIPT.split()
    run(m, " ".join(script[:-1]))
    m.round.hands[1] |= mask_of(tiles("4-6 3-6 2-6"))  # 6 + 10 + 9 + 8 = 33
    run(m, script[-1])
    result = m.results[-1]
    assert result.decides == {"seat": 1, "won": False}
    assert m.result is not None and m.result.winners == [0]


def test_a_record_writes_no_refused_hundred_and_a_hundred_from_any_seat() -> None:
    """§13.3 / the record: the lead {"seat": s, "play": "6-6", "hundred": true} also from a seat
    that was not the regular leader; a refusal is not written, and replay infers it; a hundred
    declared by a seat that may not is refused with the reason."""
    found = {"declared": 0, "declined": 0}
    for seed in range(300):
        opts = SEA_GOAT.options({"players": 3})
        m = Match(SEA_GOAT, opts, seed)
        rng = random.Random(seed)
        while not m.over:
            rnd = m.next_round()
            while not rnd.over:
                moves = rnd.legal_moves()
                m.push(moves[rng.randrange(len(moves))])
        for result in m.results:
            rnd = result.round
            if rnd.hundred >= 0 and rnd.hundred != rnd.history[0][0]:
                continue
            if any(mv is DECLINE_HUNDRED for _, mv, _ in rnd.history):
                found["declined"] += 1
            elif rnd.hundred >= 0 and result.round.history[0][0] == rnd.hundred:
                found["declared"] += 1
        record = json.loads(dumps(m.record(["a", "b", "c"])))
        assert all(
            "hundred" not in mv or mv["hundred"] is True
            for rnd in record["rounds"]
            for mv in rnd["moves"]
        )
        assert record_of(replay_layout(record), ["a", "b", "c"]) == record
        if found["declared"] and found["declined"] > 2:
            break
    assert found["declared"] and found["declined"] > 2
    # a seat without the record declaring it
    m = sea_goat_round(record=0)
    m.sheet = (30, 0)
    bad = json.loads(dumps(m.record(["a", "b"])))
    bad["rounds"] = [
        {
            "redeals": 0,
            "deal": {"hands": [h.split() for h in SEA_HANDS], "bazaar": SEA_BAZAAR.split()},
            "moves": [{"seat": 1, "play": "6-6", "hundred": True}],
            "end": {"kind": "timeout", "seat": 0},
            "counts": [0, 0],
            "sheet": [],
            "eggs": 0,
        }
    ]
    bad["result"] = {}
    with pytest.raises(RecordError, match="seat 1 may not declare the hundred"):
        replay_layout(bad)


# --- §13.4 Bergen: the block waits for the two hidden tiles -------------------------------


def test_a_bergen_record_that_blocks_with_drawable_tiles_left_is_refused() -> None:
    """§13.4: a general fish does not end a Bergen hand while drawable tiles remain; a record
    that ends it there is refused, saying the moves stop before the round ends."""
    from tests.test_end_count_games import BERGEN_LINE_FILLERS, bergen_block

    fillers, bazaar, _ = BERGEN_LINE_FILLERS["one player without"]
    m = bergen_block(fillers, bazaar)
    record = json.loads(dumps(m.record(["a", "b", "c", "d"])))
    first = record["rounds"][0]
    first["moves"] = first["moves"][:11]  # up to the fish
    with pytest.raises(RecordError, match="the moves stop before the round ends"):
        replay_layout(record)
    assert BERGEN.one_draw_a_turn


# --- §13.5 All Fives and All Threes without a cross ---------------------------------------


def cross_match(rules: Any, raw: dict[str, Any], hands: tuple[str, ...]) -> Match:
    """Two players; seat 0 wins the lot and leads."""
    opts = rules.options({"players": len(hands), **raw})
    m = Match(rules, opts)
    rest = " ".join(tile_str(x) for x in range(28) if x not in tiles(" ".join(hands)))
    lot = "0-1 6-6" if rules.lot == "lowest" else "6-6 0-1"
    m.next_round(Deal(tuple(tiles(h) for h in hands), tiles(rest)), 0, list(tiles(lot)))
    return m


def points_of(rules: Any, raw: dict[str, Any], hands: tuple[str, ...], script: str) -> list[int]:
    m = cross_match(rules, raw, hands)
    got = []
    for token in script.split():
        run(m, token)
        got.append(m.points[-1])
    return got


def test_without_a_cross_all_fives_is_a_line_and_a_double_at_an_end_counts_both_halves() -> None:
    """§13.5 and §6.1's example without the cross: 5-5 led = 10; 0-5 on it: 5 + 5 + 0 = 10
    either way; 3-5 on the other side: with the cross 13 (its free arms count), without it
    the line's ends 0 and 3: 3; then 0-2 on the 0: 15 with the cross, 5 without."""
    hands = ("5-5 3-5 1-6 1-1 1-2 1-3 4-4", "0-5 0-2 1-4 2-2 2-3 2-4 3-3")
    script = "0:5-5 1:0-5@0 0:3-5@1 1:0-2@0"
    assert points_of(ALL_FIVES, {}, hands, script) == [10, 10, 0, 15]
    assert points_of(ALL_FIVES, {"cross": False}, hands, script) == [10, 10, 0, 5]
    line = ALL_FIVES.options({"cross": False, "spinner_arms_count": False})
    assert not ALL_FIVES.has_spinner(line)
    assert points_of(ALL_FIVES, {"cross": False, "spinner_arms_count": False}, hands, script) == [
        10,
        10,
        0,
        5,
    ]


def test_without_a_cross_a_led_6_6_counts_12_and_no_arm_opens_beside_the_line() -> None:
    """§13.5: `6-6` = 12 at an end; 3-6 on it: 12 + 3 = 15 either way (a line side of the
    spinner is still free); 0-6 on the other side: with the cross its two free arms count
    6 + 6 and the ends 0 + 3: 15; without it only the line's ends 0 and 3: 3."""
    hands = ("6-6 0-6 0-2 1-1 1-4", "3-6 1-2 0-3 2-2 2-4")
    script = "0:6-6 1:3-6@1 0:0-6@0"
    assert points_of(ALL_THREES, {}, hands, script) == [12, 15, 15]
    assert points_of(ALL_THREES, {"cross": False}, hands, script) == [12, 15, 3]
    m = cross_match(ALL_THREES, {"cross": False}, hands)
    run(m, "0:6-6")
    assert {mv.arm for mv in m.round.legal_moves() if isinstance(mv, Play)} == {0, 1}


@pytest.mark.parametrize("rules", [ALL_FIVES, ALL_THREES], ids=lambda r: r.id)
def test_records_of_before_the_cross_option_replay_with_the_cross(rules: Any) -> None:
    """A record without `cross` (written before §13.5) replays with the cross, and is written
    again without it."""
    opts = rules.options({"players": 2})
    rng = random.Random(2)
    m = Match(rules, opts, seed=2)
    while not m.over:
        rnd = m.next_round()
        while not rnd.over:
            moves = rnd.legal_moves()
            m.push(moves[rng.randrange(len(moves))])
    record = json.loads(dumps(m.record(["a", "b"])))
    assert record["options"]["cross"] is True
    del record["options"]["cross"]
    again = replay_layout(record)
    assert again.opts.legacy and again.rules.has_spinner(again.opts)
    assert record_of(again, ["a", "b"]) == record


# --- options read from records -------------------------------------------------------------


def test_a_record_lacking_only_some_new_options_is_refused() -> None:
    """A record lists every option, or (written before the corrections) none of the new ones."""
    raw = GOAT.options_dict(GOAT.options())
    raw.pop("first_lead")
    with pytest.raises(InvalidOption, match="goat options are missing first_lead"):
        GOAT.options(raw, complete=True)
    raw.pop("hand_sizes")
    assert GOAT.options(raw, complete=True).legacy
    assert not GOAT.options(raw).legacy  # a request: the defaults
    assert DOUBLE_OF[6] == t("6-6")


def closes_both_before_a_double(rnd: Round) -> bool:
    """True when a round had two doubles laid at once and both closed before any double."""
    doubles_laid = False
    for _, mv, _ in rnd.history:
        plays = mv.plays if isinstance(mv, PlayDoubles) else (mv,) if isinstance(mv, Play) else ()
        if len(plays) == 2 and all(p.close for p in plays) and not doubles_laid:
            return True
        doubles_laid = doubles_laid or any(p.tile in DOUBLE_TILES for p in plays)
    return False


DOUBLE_TILES = {DOUBLE_OF[v] for v in range(7)}


def test_the_kernel_plays_legacy_donkey_as_the_engine() -> None:
    """The playout kernel knows that a legacy Donkey game (read from an old record) plays on
    after two doubles closed before any double, move by move as the engine (the current rule is
    compared in test_kernel.py)."""
    from tests.test_kernel import compare_from

    written = DONKEY.options_dict(DONKEY.options())
    old = {k: v for k, v in written.items() if k not in ("hand_sizes", "first_lead")}
    opts = DONKEY.options(old, complete=True)
    closings = 0
    for seed in range(3000):
        m = Match(DONKEY, opts, seed)
        rng = random.Random(seed)
        rnd = m.next_round()
        while not rnd.over:  # round 1 is led with a double: compare a later round
            legal_moves = rnd.legal_moves()
            m.push(legal_moves[rng.randrange(len(legal_moves))])
        if m.over:
            continue
        rnd = m.next_round()
        compare_from(m, seed)
        closings += closes_both_before_a_double(rnd)
        if closings >= 2:
            break
    assert closings >= 2

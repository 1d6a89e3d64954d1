"""The verifiable shuffle (issue #25, item 5): the stream and the shuffle are exactly the
documented algorithm (an implementation written here from docs/shuffle.md alone agrees with
the engine's), every game's deals come from it, ``kozel verify`` passes what was dealt so and
fails a record whose deal, seed or commitment was changed."""

from __future__ import annotations

import copy
import hashlib
import hmac
import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from kozel.cli import app
from kozel.core import TILE_NAMES
from kozel.games import ALL_GAMES, get_game
from kozel.shuffle import ALGORITHM, DealStream, commitment, round_stream
from kozel.verify import verify

SERVER_SEED = "5e" * 32
SEEDS = ["3f9ac0d1b2e4a6c8d0e2f4a6b8c0d2e4", None, "bobs-seed"]


# --- the algorithm as docs/shuffle.md writes it, for another program ---------------------------


class Documented:
    """The stream and the shuffle written from the documentation only."""

    def __init__(self, server_seed: str, seeds: list[str | None], round_number: int) -> None:
        text = "|".join(["kozel-deal/1", str(round_number), *(s or "" for s in seeds)])
        self.key, self.context = bytes.fromhex(server_seed), text.encode("ascii")
        self.block, self.data = 0, b""

    def next4(self) -> int:
        while len(self.data) < 4:
            message = self.context + self.block.to_bytes(8, "big")
            self.data += hmac.new(self.key, message, hashlib.sha256).digest()
            self.block += 1
        x, self.data = int.from_bytes(self.data[:4], "big"), self.data[4:]
        return x

    def below(self, n: int) -> int:
        while True:
            x = self.next4()
            if x < 2**32 - 2**32 % n:
                return x % n

    def shuffle(self, items: list[Any]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


@settings(max_examples=60, deadline=None)
@given(
    st.binary(min_size=32, max_size=32),
    st.lists(st.one_of(st.none(), st.from_regex(r"[A-Za-z0-9_-]{1,64}", fullmatch=True))),
    st.integers(1, 500),
    st.integers(0, 60),
)
def test_the_stream_is_the_documented_one(
    key: bytes, seeds: list[str | None], round_number: int, size: int
) -> None:
    ours, theirs = (
        round_stream(key.hex(), seeds, round_number),
        Documented(key.hex(), seeds, round_number),
    )
    mine, other = list(range(size)), list(range(size))
    for _ in range(3):  # a redeal shuffles the same list again, on the same stream
        ours.shuffle(mine)
        theirs.shuffle(other)
        assert mine == other
    assert [ours.below(n) for n in (1, 2, 7, 28, 2**32)] == [
        theirs.below(n) for n in (1, 2, 7, 28, 2**32)
    ]


def test_a_number_too_big_for_its_range_is_drawn_again() -> None:
    """Rejection sampling: below 3 the last 2**32 mod 3 = 1 values are dropped, so 2**32 - 1
    is skipped and the next word decides."""

    class Fixed(DealStream):
        def __init__(self, words: list[int]) -> None:
            super().__init__()
            self.words = words

        def read(self, count: int) -> bytes:
            assert count == 4
            return self.words.pop(0).to_bytes(4, "big")

    assert Fixed([2**32 - 1, 5]).below(3) == 2
    assert Fixed([2**32 - 2, 5]).below(3) == (2**32 - 2) % 3
    with pytest.raises(ValueError):
        Fixed([]).below(0)


def test_a_copied_stream_goes_on_from_the_same_place() -> None:
    stream = round_stream(SERVER_SEED, SEEDS, 4)
    stream.read(13)
    copied = copy.deepcopy(stream)
    assert stream.read(40) == copied.read(40)
    assert commitment("00" * 32) == hashlib.sha256(bytes(32)).hexdigest()


# --- whole games dealt by the shuffle, and their records verified ---------------------------------

SMALL = {
    "goat": {"players": 3},
    "donkey": {"players": 4, "teams": True},
    "draw": {"players": 2},
    "block": {"players": 3},
    "classic": {"players": 2},
    "sea_goat": {"players": 3},
    "all_fives": {"players": 2},
    "telephone": {"players": 3},
    "all_threes": {"players": 2},
    "threes_fives": {"players": 4},
    "bergen": {"players": 3},
    "bykovo": {},
    "poker": {"players": 4},  # 20 tiles, 20 dealt: every draw comes from the shuffled discards
    "trumps": {},
}


def dealt_game(game_id: str, seed: int = 7) -> dict[str, Any]:
    """A whole game between random bots, every round dealt from its stream, as the club
    writes its record."""
    game = get_game(game_id)
    opts = game.options(SMALL[game_id])
    seeds = (SEEDS * 3)[: opts.players]
    match = game.new_match(opts)
    bots = [game.make_bot("random", seed + s) for s in range(opts.players)]
    while not match.over:
        if match.needs_deal:
            match.deal_next(round_stream(SERVER_SEED, seeds, match.progress()[0] + 1))
            continue
        seat = match.to_move
        assert seat is not None
        match.push(bots[seat].choose(match.view(seat)))
    record = match.record([f"p{s}" for s in range(opts.players)])
    record["shuffle"] = {
        "algorithm": ALGORITHM,
        "commitment": commitment(SERVER_SEED),
        "server_seed": SERVER_SEED,
        "seeds": seeds,
    }
    game.replay(record)  # a record like any other
    return record


@pytest.fixture(scope="module", params=list(ALL_GAMES))
def record(request: pytest.FixtureRequest) -> dict[str, Any]:
    assert set(SMALL) == set(ALL_GAMES)
    return dealt_game(request.param)


def test_every_deal_of_every_game_is_verified(record: dict[str, Any]) -> None:
    check = verify(record)
    assert check.ok, check
    assert [r.round for r in check.rounds] == list(range(1, len(record["rounds"]) + 1))


def test_poker_draws_from_the_shuffled_discards_come_from_the_stream() -> None:
    record = dealt_game("poker")
    drawn = [m for r in record["rounds"] for m in r["moves"] if m.get("drew")]
    assert drawn and all(not r["deal"]["bazaar"] for r in record["rounds"])
    assert verify(record).ok
    # another order of the same tiles drawn from the pool is not the shuffle's
    changed = copy.deepcopy(record)
    move = next(m for r in changed["rounds"] for m in r["moves"] if len(m.get("drew", [])) > 1)
    move["drew"].reverse()
    check = verify(changed)
    assert not check.ok
    assert any("drew" in p for r in check.rounds for p in r.problems)


def swapped_deal(record: dict[str, Any]) -> dict[str, Any]:
    """The last round's deal with two tiles of two hands exchanged."""
    changed = copy.deepcopy(record)
    hands = changed["rounds"][-1]["deal"]["hands"]
    first, second = [s for s, hand in enumerate(hands) if hand][:2]
    hands[first][0], hands[second][0] = hands[second][0], hands[first][0]
    return changed


def test_a_changed_deal_seed_or_commitment_fails(record: dict[str, Any]) -> None:
    last = len(record["rounds"])
    check = verify(swapped_deal(record))
    assert not check.ok and not check.problems
    assert [r.round for r in check.rounds if not r.ok] == [last]
    assert "hand" in check.rounds[-1].problems[0]
    # another player's seed: no deal is the one the seeds give
    seeded = copy.deepcopy(record)
    seeded["shuffle"]["seeds"][0] = "not-my-seed"
    check = verify(seeded)
    assert not check.ok and not any(r.ok for r in check.rounds)
    # a commitment that the server seed does not match
    committed = copy.deepcopy(record)
    committed["shuffle"]["commitment"] = commitment("11" * 32)
    check = verify(committed)
    assert not check.ok and "not the commitment" in check.problems[0]
    # a server seed made to fit the deals' commitment: its hash does not
    revealed = copy.deepcopy(record)
    revealed["shuffle"]["server_seed"] = "11" * 32
    check = verify(revealed)
    assert not check.ok and check.problems and not any(r.ok for r in check.rounds)


def test_a_record_without_a_shuffle_has_nothing_to_verify() -> None:
    game = get_game("draw")
    match = game.new_match(game.options({"players": 2}), seed=3)
    while not match.over:
        if match.needs_deal:
            match.deal_next()
        else:
            match.push(random.Random(1).choice(match.legal_moves()))
    check = verify(match.record(["a", "b"]))
    assert not check.ok and "no shuffle" in check.problems[0]


def test_kozel_verify_says_which_deal_matches(tmp_path: Path) -> None:
    good = dealt_game("goat")
    path = tmp_path / "games.jsonl"
    path.write_text(json.dumps(good) + "\n")
    runner = CliRunner()
    done = runner.invoke(app, ["verify", str(path)])
    assert done.exit_code == 0, done.output
    assert "round 1: the deal matches" in done.output
    assert "1 records verified, 0 not" in done.output
    path.write_text(json.dumps(good) + "\n" + json.dumps(swapped_deal(good)) + "\n")
    done = runner.invoke(app, ["verify", str(path)])
    assert done.exit_code == 1
    assert f"round {len(good['rounds'])}: does not match: seat" in done.output
    assert "1 records verified, 1 not" in done.output


def test_the_lot_and_the_redeals_come_from_the_stream() -> None:
    """All Fives draws its first leader by lot; Goat throws in a hand of five doubles: both
    are the round's stream, in order, and a record that says otherwise fails."""
    record = dealt_game("all_fives")
    assert record["rounds"][0]["lot"]
    changed = copy.deepcopy(record)
    changed["rounds"][0]["lot"].reverse()
    assert not verify(changed).rounds[0].ok
    game = get_game("goat")
    opts = game.options({"players": 4})
    seeds = SEEDS[:1] * 4

    def deal(number: int) -> dict[str, Any]:
        return game.new_match(opts).deal_next(round_stream(SERVER_SEED, seeds, number))

    number = next(n for n in range(1, 400) if deal(n)["redeals"])
    data = deal(number)
    assert all(t in TILE_NAMES for hand in data["hands"] for t in hand)
    recorded = {"deal": {"hands": data["hands"], "bazaar": data["bazaar"]}, "redeals": 0}
    stream = round_stream(SERVER_SEED, seeds, number)
    assert game.check_deal(opts, number, recorded, stream) == [
        f"0 redeals in the record; the shuffle makes {data['redeals']}"
    ]
    recorded["redeals"] = data["redeals"]
    stream = round_stream(SERVER_SEED, seeds, number)
    assert game.check_deal(opts, number, recorded, stream) == []

"""Whatever a client sends as a move of Poker or Trumps, the game either refuses it with a
ValueError saying why (a malformed move, or one the rules do not allow now) or it is one of the
legal moves: no other error, and a refused move leaves the game as it was."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from kozel.games import get_game

TILE_TEXT = st.sampled_from(["0-0", "1-2", "2-3", "5-5", "6-6", "6-5", "7-1", "x", ""])
VALUE = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-5, 2**70)
    | st.floats(allow_nan=True)
    | TILE_TEXT
    | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)
KEYS = st.sampled_from(
    [
        "check",
        "bet",
        "call",
        "raise",
        "fold",
        "discard",
        "bid",
        "pass",
        "trumps",
        "play",
        "up_to",
        "seat",
        "drew",
    ]
)
MOVE = (
    st.dictionaries(KEYS, VALUE | TILE_TEXT | st.lists(TILE_TEXT, max_size=6), max_size=3) | VALUE
)


def positions(game_id: str, options: dict[str, Any]) -> list[Any]:
    """Matches at several points of a game played with legal moves."""
    game = get_game(game_id)
    match = game.new_match(game.options(options), seed=3)
    found = []
    bot = game.make_bot("random", 3)
    while not match.over and len(found) < 40:
        if match.needs_deal:
            match.deal_next()
            continue
        found.append(match.copy())
        match.push(bot.choose(match.view(match.to_move)))
    return found


POSITIONS = {
    "poker": positions("poker", {"players": 3, "hands": 3, "limit": "no_limit"}),
    "trumps": positions("trumps", {"target": 60}),
}


@settings(max_examples=300, deadline=None)
@given(game=st.sampled_from(sorted(POSITIONS)), index=st.integers(0, 39), raw=MOVE)
def test_any_move_is_refused_with_a_reason_or_is_legal(game: str, index: int, raw: object) -> None:
    match = POSITIONS[game][index % len(POSITIONS[game])].copy()
    before = json.dumps(match.view_dicts([0, None]), sort_keys=True)
    try:
        move = match.read_move(raw)
        match.push(move)
    except ValueError as refused:  # MoveError and IllegalMove are ValueErrors
        assert str(refused)
        assert json.dumps(match.view_dicts([0, None]), sort_keys=True) == before
        return
    assert move in POSITIONS[game][index % len(POSITIONS[game])].legal_moves()


def test_progress_counts_the_moves_as_the_record_does() -> None:
    """What a club table writes when a computer player takes a seat (the record's
    ``replaced``: the round, and the moves made in it before): at every turn of a game, the
    finished game's record has the move then made at exactly that place."""
    for game_id, options in (
        ("poker", {"players": 3, "hands": 3}),
        ("trumps", {"target": 60}),
        ("goat", {"players": 2, "loss_limit": 20}),
    ):
        game = get_game(game_id)
        match = game.new_match(game.options(options), seed=5)
        assert match.progress() == (0, 0)
        bot = game.make_bot("random", 5)
        made: list[tuple[int, int, int, set[str]]] = []
        while not match.over:
            if match.needs_deal:
                match.deal_next()
                continue
            move = bot.choose(match.view(match.to_move))
            made.append((*match.progress(), match.to_move, set(match.write_move(move))))
            match.push(move)
        final = match.record(["a"] * match.opts.players)
        for round_number, number, seat, kind in made:
            recorded = final["rounds"][round_number - 1]["moves"][number]
            assert recorded["seat"] == seat, (game_id, round_number, number)
            assert set(recorded) - {"seat", "drew", "points"} == kind, (game_id, recorded, kind)

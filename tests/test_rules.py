"""Options are validated with errors that name the valid values; tiles parse strictly."""

from __future__ import annotations

import pytest

from kozel.core import InvalidOption, parse_tile, tile_str
from kozel.games import DONKEY, GAMES, GOAT, get_game


def test_defaults() -> None:
    goat = GOAT.options()
    assert (goat.players, goat.fish_mode, goat.fish_ignores_double, goat.loss_limit) == (
        4,
        "everyone",
        True,
        101,
    )
    donkey = DONKEY.options()
    assert (donkey.fish_mode, donkey.fish_ignores_double) == ("own_to_loser", False)


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({"players": 5}, "option 'players' must be one of 2, 3, 4; got 5"),
        ({"players": "4"}, "option 'players' must be 2, 3, 4; got '4'"),
        ({"teams": "yes"}, "option 'teams' must be true or false; got 'yes'"),
        ({"fish_mode": "fast"}, "must be one of everyone, all_to_loser, own_to_loser"),
        ({"bazaar_reserve": 3}, "option 'bazaar_reserve' must be one of 0, 1, 2; got 3"),
        ({"loss_limit": 10_001}, "option 'loss_limit' must be an integer 1..10000; got 10001"),
        ({"open_threshold": -1}, "option 'open_threshold' must be an integer 0..1000; got -1"),
        ({"hand_sizes": "six"}, "option 'hand_sizes' must be one of seven, by_players; got 'six'"),
        (
            {"first_lead": "two_two"},
            "option 'first_lead' must be one of one_one, six_six, zero_zero; got 'two_two'",
        ),
        ({"loss_limit": True}, "option 'loss_limit' must be an integer 1..10000; got True"),
        ({"colour": 1}, "goat has no option 'colour'; its options are players, teams"),
        ({"teams": True, "players": 3}, "teams needs players = 4; got players = 3"),
        ({"lead_by": "winner_partner"}, "lead_by = winner_partner needs teams = true"),
    ],
)
def test_bad_options_are_explained(raw: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidOption) as caught:
        GOAT.options(raw)
    assert message in str(caught.value)


def test_donkey_has_no_special_doubles() -> None:
    with pytest.raises(InvalidOption, match="donkey has no option 'special_doubles'"):
        DONKEY.options({"special_doubles": False})


def test_command_line_values_are_parsed() -> None:
    opts = GOAT.parse_options(["players=2", "fish_ignores_double=no", "loss_limit=150"])
    assert (opts.players, opts.fish_ignores_double, opts.loss_limit) == (2, False, 150)
    with pytest.raises(InvalidOption, match="expected key=value"):
        GOAT.parse_options(["players"])
    with pytest.raises(InvalidOption, match=r"must be an integer 1\.\.10000; got 'many'"):
        GOAT.parse_options(["loss_limit=many"])


def test_presets() -> None:
    g125 = GOAT.parse_options([], "goat-125")
    assert (g125.bazaar_reserve, g125.open_threshold, g125.fish_mode, g125.loss_limit) == (
        1,
        25,
        "all_to_loser",
        125,
    )
    assert (g125.hand_sizes, g125.first_lead) == ("by_players", "six_six")
    yard = GOAT.parse_options([], "yard")
    assert yard.teams and yard.special_doubles and yard.lead_by == "winner_partner"
    classic = GOAT.parse_options([], "penalty-classic")
    assert (classic.hand_sizes, classic.first_lead, classic.open_threshold) == (
        "by_players",
        "zero_zero",
        0,
    )
    assert (classic.lone_zero_value, classic.fish_mode, classic.loss_limit) == (
        10,
        "everyone",
        100,
    )
    assert GOAT.parse_options(["loss_limit=150"], "penalty-classic").loss_limit == 150
    with pytest.raises(InvalidOption, match="presets: goat-125, penalty-classic, yard"):
        GOAT.parse_options([], "nope")


RATED_ALONE = [g for g in GAMES if not GAMES[g].unrated_reason]
"""The games a lone game of which may be rated (not Bykovo: only its tournament is)."""


@pytest.mark.parametrize("game", RATED_ALONE)
def test_every_offered_game_is_rated_with_its_defaults_and_presets(game: str) -> None:
    """The games a player is offered as they are (the defaults, each preset, each preset or
    default with any number of players) are rated; every rated bound is a value the option
    allows and admits its default."""
    rules = get_game(game)
    for preset in [{}, *rules.presets.values()]:
        players = rules.spec("players").choices if "players" not in preset else (None,)
        for count in players:
            raw = dict(preset) if count is None else {**preset, "players": count}
            if raw.get("players", 4) != 4 and raw.get("teams"):
                continue
            opts = rules.options(raw)
            assert rules.rated_problem(opts) == "", (game, raw)
    for spec in rules.option_specs:
        for bound in (spec.rated_minimum, spec.rated_maximum):
            if bound is not None:
                assert spec.kind == "int" and spec.check(bound) == bound
        assert spec.rated_problem(spec.default) == ""


@pytest.mark.parametrize("game", RATED_ALONE)
def test_a_tiny_game_is_not_rated(game: str) -> None:
    """The farming attempt: Goat with loss_limit = 1 (or a race to 1 point) ends in a round
    and gave its winners up to 10 rating points; every game bounds its length when rated."""
    rules = get_game(game)
    length = next(s for s in rules.option_specs if s.rated_minimum is not None)
    assert length.name in ("loss_limit", "target")
    assert length.minimum is not None
    # the least value that is not the default (Bergen's default target 0 means "by players")
    tiny = length.minimum + (length.minimum == length.default)
    opts = rules.options({length.name: tiny})
    bound = length.rated_minimum
    assert bound is not None
    assert rules.rated_problem(opts) == (
        f"a rated game needs {length.name} {length.rated_bounds()} (got {tiny})"
    )
    assert rules.rated_problem(rules.options({length.name: bound})) == ""
    assert rules.rated_problem(rules.options({length.name: bound - 1})) != ""


def test_a_lone_zero_alone_never_decides_a_rated_goat() -> None:
    least = GOAT.spec("loss_limit").rated_minimum
    most = GOAT.spec("lone_zero_value").rated_maximum
    assert least is not None and most is not None and most < least
    assert "lone_zero_value <= 50" in GOAT.rated_problem(GOAT.options({"lone_zero_value": 51}))


def test_unknown_game() -> None:
    with pytest.raises(InvalidOption, match="unknown game 'chess'; games: goat, donkey"):
        get_game("chess")


def test_tiles_are_written_low_half_first() -> None:
    assert tile_str(parse_tile("0-6")) == "0-6"
    for bad in ("6-0", "7-1", "2_5", "25", "", "1-1-1"):
        with pytest.raises(ValueError):
            parse_tile(bad)

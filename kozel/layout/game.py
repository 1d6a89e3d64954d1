"""The twelve games played on a layout (:data:`GAMES`), each a :class:`LayoutGame`.

Each game is a :class:`~kozel.layout.rules.Ruleset`: data plus a few hooks, with its own options and
its own scoring policy (:mod:`kozel.layout.scoring`); :class:`LayoutGame` puts one behind the game
protocol. A new layout game adds an entry here, never an ``if game == …`` elsewhere; the
registry of every game (:mod:`kozel.games`) lists these with Poker and Trumps.
"""

from __future__ import annotations

import random
from typing import Any

from kozel.core import DOUBLE_OF, DOUBLES_MASK, TILE_NAMES, Move
from kozel.engine.errors import unknown_game
from kozel.engine.game import Game
from kozel.engine.options import PLAYERS, TEAMS, Options, OptionSpec
from kozel.engine.record import check_game
from kozel.layout.bots import make_bot
from kozel.layout.bots.base import Bot
from kozel.layout.codec import move_to_dict
from kozel.layout.match import Match
from kozel.layout.notation import replay
from kozel.layout.review import LayoutReview
from kozel.layout.round import places_by
from kozel.layout.rules import NON_DOUBLES, Ruleset, by_pips_ascending, by_pips_descending
from kozel.layout.scoring.bergen import BergenOptions, BergenScoring, block_winner
from kozel.layout.scoring.bykovo import BykovoOptions, BykovoScoring
from kozel.layout.scoring.counts import (
    SIX_SIX,
    ZERO_ZERO,
    classic_count,
    goat_count,
    sea_goat_count,
)
from kozel.layout.scoring.end_count import (
    HAND_SIZES,
    AllFivesScoring,
    AllThreesScoring,
    EndCountOptions,
    TelephoneScoring,
    ThreesFivesScoring,
)
from kozel.layout.scoring.goat import (
    FIRST_LEADS,
    FISH_MODES,
    GOAT_HAND_SIZES,
    LEAD_BY,
    FishMode,
    GoatOptions,
    GoatScoring,
)
from kozel.layout.scoring.race import RaceOptions, RaceScoring
from kozel.layout.scoring.sea_goat import SeaGoatOptions, SeaGoatScoring
from kozel.layout.views import SeatView, view_from_dict
from kozel.shuffle import deal_differences

_DOUBLES_FROM_ONE = tuple(DOUBLE_OF[v] for v in (1, 2, 3, 4, 5, 6, 0))
_DOUBLES_FROM_SIX = tuple(DOUBLE_OF[v] for v in range(6, -1, -1))
_DOUBLES_FROM_ZERO = tuple(DOUBLE_OF[v] for v in range(7))

MAX_POINTS = 10_000
"""The largest loss limit or target a game accepts."""
MAX_COUNT = 1_000
"""The largest threshold or special count a game accepts."""


def rated_least(default: int) -> int:
    """The least losing score or target of a rated game: half the game's usual one, rounded
    up (Goat's 101 gives 51), so that a rated game takes at least about half its usual length.

    >>> rated_least(101), rated_least(100), rated_least(125)
    (51, 50, 63)
    """
    return (default + 1) // 2


LOSS_LIMIT = 101
LONE_ZERO_RATED_MAXIMUM = 50
"""A rated game's lone 0-0 counts less than its least losing score (51): one unlucky hand
alone never decides a rated game."""


class LayoutGame(Ruleset):
    """A :class:`~kozel.layout.rules.Ruleset` behind the game protocol
    (:class:`kozel.engine.game.Game`):
    its matches (:class:`~kozel.layout.match.Match`), records (:mod:`kozel.layout.notation`), views
    (:mod:`kozel.layout.views`), moves as JSON (:mod:`kozel.layout.codec`), bots and reviews
    (:mod:`kozel.layout.bots`). The rules themselves stay data and hooks that know none of these."""

    def new_match(self, opts: Options, seed: int | None = None) -> Match:
        """A new game with these options; ``seed`` makes its deals reproducible."""

        return Match(self, opts, seed)

    def replay(self, record: dict[str, Any]) -> Match:
        """Re-run a record of this game (:func:`kozel.layout.notation.replay`)."""

        check_game(record, self.id)
        return replay(record, lambda _: self)

    def review(self, record: dict[str, Any], seat: int) -> LayoutReview:
        """The review of one seat's decisions (:mod:`kozel.layout.review`)."""

        return LayoutReview(self.replay(record), seat)

    def view_from_dict(self, data: dict[str, Any]) -> SeatView:
        """:func:`kozel.layout.views.view_from_dict`."""

        return view_from_dict(data, layout_game)

    def move_to_dict(self, move: Move) -> dict[str, Any]:
        """:func:`kozel.layout.codec.move_to_dict`."""

        return move_to_dict(move)

    def check_deal(
        self, opts: Options, number: int, recorded: dict[str, Any], stream: random.Random
    ) -> list[str]:
        """The round's chance drawn again from ``stream`` (:meth:`Match.draw_chance`: the lot,
        the deal with its redeals, the lot for equal counts) against the record's round."""

        chance = Match(self, opts).draw_chance(stream, number == 1)
        names = [[TILE_NAMES[t] for t in hand] for hand in chance.deal.hands]
        out = deal_differences(
            recorded.get("deal"), names, [TILE_NAMES[t] for t in chance.deal.bazaar]
        )
        if recorded.get("redeals") != chance.redeals:
            out.append(
                f"{recorded.get('redeals')!r} redeals in the record; the shuffle makes "
                f"{chance.redeals}"
            )
        if chance.lot is not None:
            lot = [TILE_NAMES[t] for t in chance.lot]
            if recorded.get("lot") != lot:
                out.append(
                    f"the lot is {recorded.get('lot')!r} in the record; the shuffle draws {lot}"
                )
        end, counts = recorded.get("end"), recorded.get("counts")
        if chance.place_lot is not None and isinstance(end, dict) and "places" in end:
            try:
                places = places_by(end["seat"], counts, chance.place_lot)  # type: ignore[arg-type]
            except (TypeError, IndexError, KeyError):
                places = None
            if end["places"] != places:
                out.append(
                    f"the places are {end['places']!r} in the record; the shuffle's lot for "
                    f"equal counts gives {places}"
                )
        return out

    def make_bot(self, level: str, seed: int | None = None) -> Bot:
        """A bot of the layout games by level (:func:`kozel.layout.bots.make_bot`)."""

        return make_bot(level, seed)


# --- Goat and Donkey ------------------------------------------------------------------------


# a data table of Goat's and Donkey's options, one spec each: long as data, not as logic
def _goat_option_specs(
    fish_default: FishMode, ignores_default: bool, loser: str
) -> list[OptionSpec]:
    return [
        PLAYERS,
        TEAMS,
        OptionSpec(
            "fish_mode",
            "choice",
            fish_default,
            "who is charged after a fish: everyone their own count; the highest count the sum "
            "of all counts; or the highest count only his own",
            choices=FISH_MODES,
        ),
        OptionSpec(
            "fish_ignores_double",
            "bool",
            ignores_default,
            "doubles are left out when deciding whether the layout is blocked",
        ),
        OptionSpec(
            "bazaar_reserve",
            "choice",
            0,
            "tiles at the end of the bazaar that are never drawn",
            choices=(0, 1, 2),
        ),
        OptionSpec(
            "open_threshold",
            "int",
            13,
            "a single round's count that opens the account (0: every count is written at once)",
            minimum=0,
            maximum=MAX_COUNT,
        ),
        OptionSpec(
            "lone_zero_value",
            "int",
            10,
            "count of a hand left with only 0-0",
            minimum=0,
            maximum=MAX_COUNT,
            rated_maximum=LONE_ZERO_RATED_MAXIMUM,
        ),
        OptionSpec(
            "loss_limit",
            "int",
            LOSS_LIMIT,
            f"account at which a player is the {loser}",
            minimum=1,
            maximum=MAX_POINTS,
            rated_minimum=rated_least(LOSS_LIMIT),
        ),
        OptionSpec(
            "lead_by",
            "choice",
            "winner",
            "who leads later rounds: the winner, or his partner (team play)",
            choices=LEAD_BY,
            needs=(("winner_partner", "teams", True),),
        ),
        OptionSpec(
            "hand_sizes",
            "choice",
            "seven",
            "tiles dealt: seven to each player, or by_players (2 players 7, 3 or 4 players 5)",
            choices=GOAT_HAND_SIZES,
            legacy="seven",
            label="goat_hand_sizes",
        ),
        OptionSpec(
            "first_lead",
            "choice",
            "one_one",
            "who leads the first round: the holder of 1-1 (then 2-2 … 6-6, 0-0); of 6-6 (then "
            "5-5 … 0-0); or of 0-0 (then 1-1 … 6-6); without a double the highest tile",
            choices=FIRST_LEADS,
            legacy="one_one",
        ),
    ]


_GOAT_HANDS: dict[str, dict[int, int]] = {
    "seven": {2: 7, 3: 7, 4: 7},
    "by_players": {2: 7, 3: 5, 4: 5},
}


def _goat_hand_size(opts: Options) -> int:
    """Goat's and Donkey's ``hand_sizes``: 7 each, or by players (2 → 7, 3–4 → 5)."""
    assert isinstance(opts, GoatOptions)
    return _GOAT_HANDS[opts.hand_sizes][opts.players]


_OTHER_FIRST_LEADS = {
    "six_six": (*_DOUBLES_FROM_SIX, *by_pips_descending(NON_DOUBLES)),
    "zero_zero": (*_DOUBLES_FROM_ZERO, *by_pips_descending(NON_DOUBLES)),
}
"""The first leads of Goat's and Donkey's ``first_lead`` other than the game's own
(``one_one``): the doubles from 6-6 down or from 0-0 up, then the highest tile."""


def _goat_lead_mask(hand: int, opts: Options) -> int:
    """Yard Goat: the partner who leads lays a double other than 0-0 and 6-6 if he has one."""
    assert isinstance(opts, GoatOptions)
    if opts.lead_by == "winner_partner" and hand & DOUBLES_MASK & ~(ZERO_ZERO | SIX_SIX):
        return hand & DOUBLES_MASK
    return hand


def _goat_partner_leads(opts: Options) -> bool:
    assert isinstance(opts, GoatOptions)
    return opts.lead_by == "winner_partner"


GOAT = LayoutGame(
    id="goat",
    title="Goat («Козёл»)",
    summary="Loser-scoring line game: collect penalty points; the first to 101 is the Goat.",
    option_specs=(
        *_goat_option_specs("everyone", True, "Goat"),
        OptionSpec(
            "special_doubles",
            "bool",
            False,
            "Yard Goat: 6-6 and 0-0 led, held alone or laid last cost 50 and 25 (without teams "
            "every player but the one who went out pays the extra)",
        ),
    ),
    options_type=GoatOptions,
    scoring=GoatScoring,
    sheet_kind="goat",
    first_lead_order=(*_DOUBLES_FROM_ONE, *by_pips_descending(NON_DOUBLES)),
    first_lead_orders=_OTHER_FIRST_LEADS,
    hand_size_of=_goat_hand_size,
    hand_count=goat_count,
    later_lead_mask=_goat_lead_mask,
    partner_leads=_goat_partner_leads,
    presets={
        "goat-125": {
            "hand_sizes": "by_players",
            "first_lead": "six_six",
            "bazaar_reserve": 1,
            "open_threshold": 25,
            "fish_mode": "all_to_loser",
            "loss_limit": 125,
        },
        "penalty-classic": {
            "hand_sizes": "by_players",
            "first_lead": "zero_zero",
            "open_threshold": 0,
            "lone_zero_value": 10,
            "fish_mode": "everyone",
            "loss_limit": 100,
        },
        "yard": {
            "players": 4,
            "teams": True,
            "loss_limit": 101,
            "lead_by": "winner_partner",
            "fish_mode": "all_to_loser",
            "special_doubles": True,
        },
    },
)

DONKEY = LayoutGame(
    id="donkey",
    title="Donkey («Осёл»)",
    summary="Goat's scoring on a cross: the first double is a spinner; doubles may close arms. "
    "The first to 101 is the Donkey.",
    option_specs=tuple(_goat_option_specs("own_to_loser", False, "Donkey")),
    options_type=GoatOptions,
    scoring=GoatScoring,
    sheet_kind="goat",
    remembered_colour="red",
    fixed={"special_doubles": False},
    first_lead_order=(*_DOUBLES_FROM_ONE, *by_pips_ascending(NON_DOUBLES)),
    first_lead_orders=_OTHER_FIRST_LEADS,
    hand_size_of=_goat_hand_size,
    spinner=True,
    closing=True,
    multi_doubles=True,
    closing_both_is_fish=True,
    hand_count=goat_count,
    later_lead_mask=_goat_lead_mask,
    partner_leads=_goat_partner_leads,
)


# --- the winner-scoring races: Draw, Block, Classic, Sea Goat ------------------------------


def _target(default: int) -> OptionSpec:
    return OptionSpec(
        "target",
        "int",
        default,
        "points that win the game (checked at the end of a hand)",
        minimum=1,
        maximum=MAX_POINTS,
        rated_minimum=rated_least(default),
    )


_DRAW_HANDS = {2: 7, 3: 5, 4: 5}


def _race(**fields: Any) -> LayoutGame:
    """A winner-scoring game of the Draw family: players, teams and a target; no redeal;
    after a fish the hand's winner leads the next."""
    defaults: dict[str, Any] = {
        "options_type": RaceOptions,
        "scoring": RaceScoring,
        "sheet_kind": "race",
        "redeal": False,
        "fish_winner_leads": True,
    }
    return LayoutGame(**{**defaults, **fields})


DRAW = _race(
    id="draw",
    title="Draw («Традиционное домино»)",
    summary="Winner-scoring line game: go out and score the others' counts; first to 100 wins.",
    option_specs=(PLAYERS, TEAMS, _target(100)),
    first_lead_order=(*_DOUBLES_FROM_SIX, *by_pips_descending(NON_DOUBLES)),
    hand_sizes=_DRAW_HANDS,
)

BLOCK = _race(
    id="block",
    title="Block",
    summary="Draw without a bazaar: 7 tiles each, the rest out of play; who cannot play passes.",
    option_specs=(PLAYERS, TEAMS, _target(100)),
    first_lead_order=(*_DOUBLES_FROM_SIX, *by_pips_descending(NON_DOUBLES)),
    draws=False,
)

CLASSIC = _race(
    id="classic",
    title="Classic Kozel to 300",
    summary="Draw to 300 where 0-0 counts 25 and 6-6 counts 50; the lowest double leads.",
    option_specs=(PLAYERS, TEAMS, _target(300)),
    first_lead_order=(*_DOUBLES_FROM_ZERO, *by_pips_ascending(NON_DOUBLES)),
    hand_sizes=_DRAW_HANDS,
    hand_count=classic_count,
)

SEA_GOAT = LayoutGame(
    id="sea_goat",
    title="Sea Goat («Морской козёл»)",
    summary="Winner-scoring Goat: one scorer at a time, records open at 25, first to 125 wins; "
    "the bald goat and the hundred end the game at once.",
    option_specs=(
        PLAYERS,
        TEAMS,
        _target(125),
        OptionSpec(
            "open_at",
            "int",
            25,
            "the least credit that opens a record",
            minimum=1,
            maximum=MAX_COUNT,
        ),
    ),
    options_type=SeaGoatOptions,
    scoring=SeaGoatScoring,
    sheet_kind="race",
    first_lead_order=(*_DOUBLES_FROM_ONE, *by_pips_descending(NON_DOUBLES)),
    multi_doubles=True,
    hand_count=sea_goat_count,
)


# --- the games that score during play: the end-count games and Bergen -----------------------


def _cross() -> OptionSpec:
    return OptionSpec(
        "cross",
        "bool",
        True,
        "the first double is a spinner with four sides (false, «без креста»: a line with two "
        "ends, where a double counts both halves)",
        legacy=True,
    )


def _spinner_arms_count() -> OptionSpec:
    return OptionSpec(
        "spinner_arms_count",
        "bool",
        True,
        "once both line sides of the spinner are covered, its unplayed cross arms count its "
        "value (false: nothing)",
    )


_END_COUNT_FIXED: dict[str, Any] = {
    "spinner_arms_count": True,
    "bonus_divisor": 5,
    "doubles_at_once": False,
    "hand_sizes": "standard",
    "spinner": True,
    "keep_last": False,
    "draw_when_able": False,
    "cross": True,
}
"""The end-count options a game does not offer, as it plays them (§8.5 item 4)."""


def _end_count(offered: tuple[OptionSpec, ...], **fields: Any) -> LayoutGame:
    """An end-count game (§6): a race whose lays score for the end sum; each game offers some
    of :class:`EndCountOptions` and fixes the others."""
    names = {spec.name for spec in offered}
    fixed = {k: v for k, v in _END_COUNT_FIXED.items() if k not in names}
    return _race(
        options_type=EndCountOptions,
        option_specs=(PLAYERS, TEAMS, *offered),
        fixed={**fixed, **fields.pop("fixed", {})},
        **fields,
    )


_FIVE_EACH = {2: 5, 3: 5, 4: 5}
_SEVEN_EACH = {2: 7, 3: 7, 4: 7}
_THREES_FIVES_HANDS: dict[str, dict[int, int]] = {
    "standard": _DRAW_HANDS,
    "seven": _SEVEN_EACH,
    "by_players": {2: 7, 3: 6, 4: 5},
}


def _threes_fives_hand_size(opts: Options) -> int:
    assert isinstance(opts, EndCountOptions)
    return _THREES_FIVES_HANDS[opts.hand_sizes][opts.players]


ALL_FIVES = _end_count(
    (
        OptionSpec(
            "target",
            "int",
            100,
            "points that win the game (checked at the end of a hand; 250 and 500 are common)",
            minimum=1,
            maximum=MAX_POINTS,
            rated_minimum=rated_least(100),
        ),
        OptionSpec(
            "bonus_divisor",
            "choice",
            5,
            "the hand's bonus, rounded to the nearest 5, is divided by this (1: in full)",
            choices=(5, 1),
        ),
        _spinner_arms_count(),
        _cross(),
    ),
    id="all_fives",
    title="All Fives / Muggins («Пятёрочка»)",
    summary="Score the end sum whenever it is a multiple of 5; the first double is a spinner; "
    "the hand's winner scores the others' counts in fives; first to 100 wins.",
    scoring=AllFivesScoring,
    first_lead_order=(),
    lot="lowest",
    hand_sizes=_DRAW_HANDS,
    spinner=True,
    cross_option="cross",
)

TELEPHONE = _end_count(
    (
        _target(61),
        OptionSpec(
            "doubles_at_once",
            "bool",
            False,
            "up to four doubles laid in one turn, one per arm",
        ),
    ),
    id="telephone",
    title="Telephone / Houses («Телефон», «Домики»)",
    summary="A fifth of the end sum when it is a multiple of 5; the first double is the house "
    "(four sides); the hand's winner scores the others' counts in fifths; first to 61 wins.",
    scoring=TelephoneScoring,
    fixed={"spinner_arms_count": False},
    first_lead_order=(*_DOUBLES_FROM_ONE, *by_pips_descending(NON_DOUBLES)),
    hand_sizes=_SEVEN_EACH,
    spinner=True,
    multi_doubles_option="doubles_at_once",
)

ALL_THREES = _end_count(
    (_target(100), _spinner_arms_count(), _cross()),
    id="all_threes",
    title="All Threes",
    summary="Score the end sum whenever it is a multiple of 3; the first double is a spinner; "
    "the hand's winner scores the others' counts in threes; first to 100 wins.",
    scoring=AllThreesScoring,
    first_lead_order=(),
    lot="heaviest",
    hand_sizes=_FIVE_EACH,
    spinner=True,
    cross_option="cross",
)

THREES_FIVES = _end_count(
    (
        _target(251),
        OptionSpec(
            "hand_sizes",
            "choice",
            "standard",
            "tiles dealt: standard (2 players 7, 3-4 players 5), seven for all, or by_players "
            "(2 → 7, 3 → 6, 4 → 5)",
            choices=HAND_SIZES,
        ),
        OptionSpec(
            "spinner",
            "bool",
            False,
            "the highest double dealt leads and is a spinner (no lot)",
        ),
        OptionSpec(
            "keep_last",
            "bool",
            False,
            "the last tiles are never drawn: 2 with 2 players, 1 with 3 or 4",
        ),
        OptionSpec(
            "draw_when_able",
            "bool",
            False,
            "a player may draw although a tile fits",
        ),
    ),
    id="threes_fives",
    title="Threes and Fives",
    summary="An end sum that is a multiple of 3 scores itself, and again if it is a multiple "
    "of 5; the hand's winner scores the others' counts; first to 251 wins.",
    scoring=ThreesFivesScoring,
    first_lead_order=(*_DOUBLES_FROM_SIX, *by_pips_descending(NON_DOUBLES)),
    lot="heaviest",
    lot_unless="spinner",
    hand_size_of=_threes_fives_hand_size,
    spinner_option="spinner",
    draw_when_able_option="draw_when_able",
)

BERGEN = _race(
    id="bergen",
    title="Bergen",
    summary="Score 2 for leading a double or a double-header, 3 for a triple-header, 2 for "
    "the hand; draw one tile when stuck; first to 15 (2 players) or 10 wins.",
    option_specs=(
        PLAYERS,
        TEAMS,
        OptionSpec(
            "target",
            "int",
            0,
            "points that win the game (0: 15 with 2 players, 10 with 3 or 4)",
            minimum=0,
            maximum=MAX_POINTS,
            rated_minimum=rated_least(10),
        ),
    ),
    options_type=BergenOptions,
    scoring=BergenScoring,
    first_lead_order=(*_DOUBLES_FROM_ZERO, *by_pips_ascending(NON_DOUBLES)),
    hand_sizes={2: 6, 3: 6, 4: 5},
    one_draw_a_turn=True,
    fish_winner=block_winner,
)

# --- Bykovo: one deal of tactical passes, played in micro-tournaments -------------------------

BYKOVO_PASS_LIMIT = 12
"""Consecutive passes that end a Bykovo game as a sortir: three full circles of four."""

BYKOVO = LayoutGame(
    id="bykovo",
    title="Bykovo («Быково»)",
    summary="One deal for four: 0-0 leads, anyone may pass on any turn; the first to empty "
    "his hand wins and the circle is played out; places by the pips left. Rated only as a "
    "micro-tournament of 4-7 players.",
    option_specs=(),
    options_type=BykovoOptions,
    scoring=BykovoScoring,
    sheet_kind="race",
    fixed={"players": 4, "teams": False},
    first_lead_order=(DOUBLE_OF[0],),
    draws=False,
    redeal_on_suit=False,
    knock_any_time=True,
    out_plays_circle=True,
    pass_limit=BYKOVO_PASS_LIMIT,
    places_by_lot=True,
    unrated_reason="a lone Bykovo game is never rated: Bykovo is rated only as a micro-tournament",
)

GAMES: dict[str, LayoutGame] = {
    r.id: r
    for r in (
        GOAT,
        DONKEY,
        DRAW,
        BLOCK,
        CLASSIC,
        SEA_GOAT,
        ALL_FIVES,
        TELEPHONE,
        ALL_THREES,
        THREES_FIVES,
        BERGEN,
        BYKOVO,
    )
}
"""The games played on a layout by id, each one a :class:`LayoutGame` (what code that works on
layouts, e.g. ``kozel bench``, uses)."""


def layout_game(game_id: str) -> LayoutGame:
    """The layout game of an id; ``InvalidOption`` naming the layout games for any other id
    (the registry's :func:`kozel.games.get_layout_game` names every game for an unknown one)."""
    if game_id not in GAMES:
        raise unknown_game(game_id, GAMES)
    return GAMES[game_id]


def _conforms(game: LayoutGame) -> Game:
    """The layout games implement the game protocol (checked by mypy here)."""
    return game

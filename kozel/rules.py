"""Rulesets: each game is data (its options, its features) plus a registry of games.

A game request names a game and sets some of its options; :meth:`Ruleset.options` fills in
the defaults and validates everything, raising :class:`~kozel.core.InvalidOption` with the
valid values when something is wrong.

>>> GOAT.options({"players": 3}).players
3
>>> GOAT.options({"players": 5})
Traceback (most recent call last):
...
kozel.core.InvalidOption: option 'players' must be one of 2, 3, 4; got 5
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Literal

from kozel.core import (
    DOUBLE_OF,
    DOUBLES_MASK,
    HIGH,
    IS_DOUBLE,
    PIPS,
    TILE_COUNT,
    InvalidOption,
    Tile,
    pips_of,
)

OptionValue = int | bool | str
FishMode = Literal["everyone", "all_to_loser", "own_to_loser"]
FISH_MODES: tuple[FishMode, ...] = ("everyone", "all_to_loser", "own_to_loser")
LeadBy = Literal["winner", "winner_partner"]
LEAD_BY: tuple[LeadBy, ...] = ("winner", "winner_partner")

HAND_SIZE = 7


@dataclass(frozen=True)
class OptionSpec:
    """One option of a game: its name, type, default and allowed values."""

    name: str
    kind: Literal["int", "bool", "choice"]
    default: OptionValue
    help: str
    choices: tuple[OptionValue, ...] = ()
    minimum: int | None = None

    def allowed(self) -> str:
        """The allowed values in words, e.g. ``"2, 3, 4"`` or ``"an integer >= 1"``."""
        if self.kind == "bool":
            return "true, false"
        if self.choices:
            return ", ".join(_show(c) for c in self.choices)
        return "an integer" + (f" >= {self.minimum}" if self.minimum is not None else "")

    def check(self, value: object) -> OptionValue:
        """Validate a typed value (as found in a record or a JSON request)."""
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise InvalidOption(f"option {self.name!r} must be true or false; got {value!r}")
            return value
        if self.kind == "int" or all(isinstance(c, int) for c in self.choices):
            if not isinstance(value, int) or isinstance(value, bool):
                raise InvalidOption(f"option {self.name!r} must be {self.allowed()}; got {value!r}")
            if self.minimum is not None and value < self.minimum:
                raise InvalidOption(f"option {self.name!r} must be {self.allowed()}; got {value!r}")
        if self.choices and value not in self.choices:
            raise InvalidOption(
                f"option {self.name!r} must be one of {self.allowed()}; got {value!r}"
            )
        if not isinstance(value, int | str):
            raise InvalidOption(f"option {self.name!r} must be {self.allowed()}; got {value!r}")
        return value

    def parse(self, text: str) -> OptionValue:
        """Validate a value typed on the command line (``"true"``, ``"4"``, ``"everyone"``)."""
        if self.kind == "bool":
            lowered = text.strip().lower()
            if lowered in ("true", "yes", "on", "1"):
                return True
            if lowered in ("false", "no", "off", "0"):
                return False
            raise InvalidOption(f"option {self.name!r} must be true or false; got {text!r}")
        if self.kind == "int" or all(isinstance(c, int) for c in self.choices):
            try:
                number = int(text.strip())
            except ValueError:
                raise InvalidOption(
                    f"option {self.name!r} must be {self.allowed()}; got {text!r}"
                ) from None
            return self.check(number)
        return self.check(text.strip())


def _show(value: OptionValue) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


@dataclass(frozen=True)
class Options:
    """Resolved options of one game (a superset: each game lists the ones it has)."""

    players: int = 4
    teams: bool = False
    fish_mode: FishMode = "everyone"
    fish_ignores_double: bool = True
    bazaar_reserve: int = 0
    open_threshold: int = 13
    lone_zero_value: int = 10
    loss_limit: int = 101
    lead_by: LeadBy = "winner"
    special_doubles: bool = False

    @property
    def units(self) -> int:
        """Number of scoring units: two teams, or one per seat."""
        return 2 if self.teams else self.players

    def unit_of(self, seat: int) -> int:
        """The scoring unit of a seat (in team play seats 0+2 are unit 0, 1+3 unit 1)."""
        return seat % 2 if self.teams else seat

    def seats_of(self, unit: int) -> list[int]:
        return [s for s in range(self.players) if self.unit_of(s) == unit]


_OPTION_FIELDS = {f.name for f in fields(Options)}


def _goat_option_specs(fish_default: FishMode, ignores_default: bool) -> list[OptionSpec]:
    return [
        OptionSpec("players", "choice", 4, "number of players", choices=(2, 3, 4)),
        OptionSpec("teams", "bool", False, "two teams of two, partners opposite (4 players)"),
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
            "a single round's count that opens the account",
            minimum=1,
        ),
        OptionSpec("lone_zero_value", "int", 10, "count of a hand left with only 0-0", minimum=0),
        OptionSpec("loss_limit", "int", 101, "account at which a player is the Goat", minimum=1),
        OptionSpec(
            "lead_by",
            "choice",
            "winner",
            "who leads later rounds: the winner, or his partner (team play)",
            choices=LEAD_BY,
        ),
    ]


@dataclass(frozen=True)
class Ruleset:
    """A game: its options and the features of its layout and turns.

    Games differ as data: ``spinner`` (the first double opens four arms), ``closing`` (a
    double may close its arm), ``multi_doubles`` (several doubles laid in one turn) and the
    order in which tiles lead the first round.
    """

    id: str
    title: str
    summary: str
    option_specs: tuple[OptionSpec, ...]
    first_lead_order: tuple[Tile, ...]
    spinner: bool = False
    closing: bool = False
    multi_doubles: bool = False
    presets: Mapping[str, Mapping[str, OptionValue]] = field(default_factory=dict)

    @property
    def line(self) -> bool:
        """True for a plain line game: two arms, one tile a turn, no closing."""
        return not (self.spinner or self.closing or self.multi_doubles)

    def spec(self, name: str) -> OptionSpec:
        for spec in self.option_specs:
            if spec.name == name:
                return spec
        names = ", ".join(s.name for s in self.option_specs)
        raise InvalidOption(f"{self.id} has no option {name!r}; its options are {names}")

    def options(
        self, raw: Mapping[str, object] | None = None, *, complete: bool = False
    ) -> Options:
        """Resolve options: defaults filled in, every value and combination validated.

        With ``complete=True`` (reading a record) every option must be present.
        """
        raw = dict(raw or {})
        values: dict[str, OptionValue] = {}
        for name, value in raw.items():
            values[name] = self.spec(name).check(value)
        if complete:
            missing = [s.name for s in self.option_specs if s.name not in values]
            if missing:
                raise InvalidOption(f"{self.id} options are missing {', '.join(missing)}")
        resolved = {s.name: values.get(s.name, s.default) for s in self.option_specs}
        assert set(resolved) <= _OPTION_FIELDS
        opts = Options(**resolved)  # type: ignore[arg-type]
        self._check_combination(opts)
        return opts

    def parse_options(self, pairs: list[str], preset: str | None = None) -> Options:
        """Options from ``key=value`` strings (the command line), on top of a preset."""
        values: dict[str, object] = dict(self.preset(preset)) if preset else {}
        for pair in pairs:
            key, sep, text = pair.partition("=")
            if not sep:
                raise InvalidOption(f"expected key=value, got {pair!r}")
            values[key.strip()] = self.spec(key.strip()).parse(text)
        return self.options(values)

    def preset(self, name: str) -> Mapping[str, OptionValue]:
        try:
            return self.presets[name]
        except KeyError:
            known = ", ".join(self.presets) or "none"
            raise InvalidOption(f"{self.id} has no preset {name!r}; presets: {known}") from None

    def options_dict(self, opts: Options) -> dict[str, OptionValue]:
        """Exactly this game's options with their values (as a record lists them)."""
        return {s.name: getattr(opts, s.name) for s in self.option_specs}

    def _check_combination(self, opts: Options) -> None:
        if opts.teams and opts.players != 4:
            raise InvalidOption(f"teams needs players = 4; got players = {opts.players}")
        if opts.lead_by == "winner_partner" and not opts.teams:
            raise InvalidOption("lead_by = winner_partner needs teams = true")
        if opts.special_doubles and not opts.teams:
            raise InvalidOption("special_doubles needs teams = true")

    def first_leader(self, hands: Sequence[int]) -> tuple[int, Tile]:
        """The seat that leads the first round of a game, and the tile it must lead."""
        for t in self.first_lead_order:
            for seat, hand in enumerate(hands):
                if hand >> t & 1:
                    return seat, t
        raise ValueError("no hand holds any tile")

    def hand_count(self, hand: int, opts: Options) -> int:
        """The count of a hand at the end of a round (special values applied)."""
        if hand == 1 << DOUBLE_OF[0]:
            return 25 if opts.special_doubles else opts.lone_zero_value
        if hand == 1 << DOUBLE_OF[6] and opts.special_doubles:
            return 50
        return pips_of(hand)

    def lead_mask(self, hand: int, opts: Options) -> int:
        """Tiles a later round's leader may lead (Yard Goat: a double when he has one)."""
        if opts.lead_by == "winner_partner":
            edge = (1 << DOUBLE_OF[0]) | (1 << DOUBLE_OF[6])
            if hand & DOUBLES_MASK & ~edge:
                return hand & DOUBLES_MASK
        return hand


_DOUBLES_FROM_ONE = tuple(DOUBLE_OF[v] for v in (1, 2, 3, 4, 5, 6, 0))
_NON_DOUBLES = [t for t in range(TILE_COUNT) if not IS_DOUBLE[t]]

GOAT = Ruleset(
    id="goat",
    title="Goat («Козёл»)",
    summary="Loser-scoring line game: collect penalty points; the first to 101 is the Goat.",
    option_specs=(
        *_goat_option_specs("everyone", True),
        OptionSpec(
            "special_doubles",
            "bool",
            False,
            "Yard Goat: 6-6 and 0-0 led, held alone or laid last cost 50 and 25 (team play)",
        ),
    ),
    first_lead_order=(
        *_DOUBLES_FROM_ONE,
        *sorted(_NON_DOUBLES, key=lambda t: (-PIPS[t], -HIGH[t])),
    ),
    presets={
        "goat-125": {
            "bazaar_reserve": 1,
            "open_threshold": 25,
            "fish_mode": "all_to_loser",
            "loss_limit": 125,
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

DONKEY = Ruleset(
    id="donkey",
    title="Donkey («Осёл»)",
    summary="Goat's scoring on a cross: the first double is a spinner; doubles may close arms.",
    option_specs=tuple(_goat_option_specs("own_to_loser", False)),
    first_lead_order=(
        *_DOUBLES_FROM_ONE,
        *sorted(_NON_DOUBLES, key=lambda t: (PIPS[t], HIGH[t])),
    ),
    spinner=True,
    closing=True,
    multi_doubles=True,
)

GAMES: dict[str, Ruleset] = {r.id: r for r in (GOAT, DONKEY)}


def get_game(game_id: str) -> Ruleset:
    """The ruleset of a game id, or ``InvalidOption`` naming the games there are."""
    try:
        return GAMES[game_id]
    except KeyError:
        raise InvalidOption(f"unknown game {game_id!r}; games: {', '.join(GAMES)}") from None

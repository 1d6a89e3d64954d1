"""Game options: each game declares exactly its own, with types, defaults and bounds.

An :class:`OptionSpec` describes one option; a game's resolved options are an instance of its
own :class:`Options` subclass (``GoatOptions``, ``RaceOptions``, …), built only from the specs
the game declares and the values it fixes: no game inherits another game's defaults.

An option that can shorten a game also has *rated bounds*: a game is rated only when every
such option is within them (:meth:`OptionSpec.rated_problem`), so that a game decided in a
round or two cannot earn rating.

>>> spec = OptionSpec("loss_limit", "int", 101, "losing score", minimum=1, rated_minimum=51)
>>> spec.rated_problem(101), spec.rated_problem(1)
('', 'a rated game needs loss_limit >= 51 (got 1)')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from kozel.core import InvalidOption

OptionValue = int | bool | str


@dataclass(frozen=True)
class OptionSpec:
    """One option of a game: its name, type, default and allowed values."""

    name: str
    kind: Literal["int", "bool", "choice"]
    default: OptionValue
    help: str
    choices: tuple[OptionValue, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    rated_minimum: int | None = None
    """The least value a rated game may have (an option that shortens the game when lower)."""
    rated_maximum: int | None = None
    """The greatest value a rated game may have (one that shortens the game when higher)."""
    needs: tuple[tuple[OptionValue, str, OptionValue], ...] = ()
    """``(value, other, required)``: this option may be ``value`` only when option ``other``
    is ``required`` (``teams`` true needs ``players`` 4). Clients read it to offer only valid
    combinations; :meth:`Ruleset.options` enforces it."""
    label: str = ""
    """The key a client words the option by (``option.<label>``, its help and its values),
    where another game gives the same name another meaning (Goat's ``hand_sizes`` against
    Threes and Fives'); empty: the name."""
    legacy: OptionValue | None = None
    """An option added after records of the game were already written: the value a record
    (or a stored game) without it plays with, the rules as they were before the option came
    (:attr:`Options.legacy`). ``None``: every record lists the option."""

    def unmet(self, value: OptionValue, values: dict[str, OptionValue]) -> InvalidOption | None:
        """The refusal of ``value`` with the other options ``values``, or ``None``."""
        for wanted, other, required in self.needs:
            got = values[other]
            if value == wanted and got != required:
                named = self.name if wanted is True else f"{self.name} = {show_value(wanted)}"
                message = (
                    f"{named} needs {other} = {show_value(required)}; "
                    f"got {other} = {show_value(got)}"
                )
                if required is True:
                    return InvalidOption(message, "option_needs", option=self.name, needs=other)
                return InvalidOption(
                    message,
                    "option_needs_value",
                    option=self.name,
                    needs=other,
                    value=show_value(required),
                )
        return None

    def rated_bounds(self) -> str:
        """The values a rated game allows in words: ``">= 51"``, ``"<= 25"``, ``"51..500"``,
        or ``""`` when any allowed value is rated."""
        low, high = self.rated_minimum, self.rated_maximum
        if low is not None and high is not None:
            return f"{low}..{high}"
        if low is not None:  # a default below the bound is rated too (Bergen's target 0)
            below = isinstance(self.default, int) and self.default < low
            return f"{self.default} or >= {low}" if below else f">= {low}"
        return f"<= {high}" if high is not None else ""

    def rated_problem(self, value: OptionValue) -> str:
        """Why a game with this value cannot be rated, or ``""`` when it can. The default is
        always rated (Bergen's target 0, "by the number of players", lies below its bound)."""
        if not isinstance(value, int) or isinstance(value, bool) or value == self.default:
            return ""
        low, high = self.rated_minimum, self.rated_maximum
        if (low is not None and value < low) or (high is not None and value > high):
            return f"a rated game needs {self.name} {self.rated_bounds()} (got {value})"
        return ""

    def allowed(self) -> str:
        """The allowed values in words, e.g. ``"2, 3, 4"`` or ``"an integer 1..1000"``."""
        if self.kind == "bool":
            return "true, false"
        if self.choices:
            return ", ".join(show_value(c) for c in self.choices)
        if self.minimum is not None and self.maximum is not None:
            return f"an integer {self.minimum}..{self.maximum}"
        return "an integer" + (f" >= {self.minimum}" if self.minimum is not None else "")

    def check(self, value: object) -> OptionValue:
        """Validate a typed value (as found in a record or a JSON request)."""
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise InvalidOption(
                    f"option {self.name!r} must be true or false; got {value!r}",
                    "option_value",
                    option=self.name,
                )
            return value
        if self.kind == "int" or all(isinstance(c, int) for c in self.choices):
            if not isinstance(value, int) or isinstance(value, bool):
                raise self._wrong(value)
            if (self.minimum is not None and value < self.minimum) or (
                self.maximum is not None and value > self.maximum
            ):
                raise self._wrong(value)
        if self.choices and value not in self.choices:
            raise InvalidOption(
                f"option {self.name!r} must be one of {self.allowed()}; got {value!r}",
                "option_value",
                option=self.name,
            )
        if not isinstance(value, int | str):
            raise self._wrong(value)
        return value

    def _wrong(self, value: object) -> InvalidOption:
        return InvalidOption(
            f"option {self.name!r} must be {self.allowed()}; got {value!r}",
            "option_value",
            option=self.name,
        )

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


def show_value(value: OptionValue) -> str:
    """An option value as typed: ``true``/``false`` for flags."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def spec_named(game: str, specs: Sequence[OptionSpec], name: str) -> OptionSpec:
    """The spec of option ``name`` of ``game``; ``InvalidOption`` naming the game's options."""
    for spec in specs:
        if spec.name == name:
            return spec
    names = ", ".join(s.name for s in specs)
    raise InvalidOption(
        f"{game} has no option {name!r}; its options are {names}", "no_option", option=name
    )


def resolved_values(
    game: str, specs: Sequence[OptionSpec], raw: Mapping[str, object] | None, complete: bool
) -> dict[str, Any]:
    """Every option of a game: the values given (each checked), the defaults for the rest;
    with ``complete`` (reading a record) every option must be given, except that a record
    written before the game's later options existed lacks all of them: they then take their
    ``legacy`` values and the result has ``"legacy": True``."""
    given = (raw or {}).items()
    values = {name: spec_named(game, specs, name).check(value) for name, value in given}
    resolved = {s.name: values.get(s.name, s.default) for s in specs}
    if complete:
        missing = [s.name for s in specs if s.name not in values]
        later = [s for s in specs if s.legacy is not None]
        if missing and {s.name for s in later} == set(missing):
            resolved.update({s.name: s.legacy for s in later if s.legacy is not None})
            resolved["legacy"] = True
        elif missing:
            raise InvalidOption(f"{game} options are missing {', '.join(missing)}")
    return resolved


def parsed_pairs(
    game: str, specs: Sequence[OptionSpec], pairs: list[str], base: Mapping[str, OptionValue]
) -> dict[str, object]:
    """Option values from ``key=value`` strings (the command line), on top of ``base`` (a
    preset's values)."""
    values: dict[str, object] = dict(base)
    for pair in pairs:
        key, sep, text = pair.partition("=")
        if not sep:
            raise InvalidOption(f"expected key=value, got {pair!r}")
        values[key.strip()] = spec_named(game, specs, key.strip()).parse(text)
    return values


def rated_problem_of(specs: Sequence[OptionSpec], opts: object) -> str:
    """The first option outside its rated bounds, said, or ``""``."""
    for spec in specs:
        if problem := spec.rated_problem(getattr(opts, spec.name)):
            return problem
    return ""


class DeclaredOptions:
    """The option methods of a game that declares its options as specs, mixed into the
    game's class: it says how resolved values become its :class:`Options`
    (:meth:`build_options`), the rest is the same for every game."""

    id: str
    option_specs: tuple[OptionSpec, ...]
    presets: Mapping[str, Mapping[str, OptionValue]]

    def build_options(self, resolved: dict[str, Any]) -> Options:
        raise NotImplementedError

    def spec(self, name: str) -> OptionSpec:
        return spec_named(self.id, self.option_specs, name)

    def preset(self, name: str) -> Mapping[str, OptionValue]:
        try:
            return self.presets[name]
        except KeyError:
            known = ", ".join(self.presets) or "none"
            raise InvalidOption(f"{self.id} has no preset {name!r}; presets: {known}") from None

    def options(
        self, raw: Mapping[str, object] | None = None, *, complete: bool = False
    ) -> Options:
        """Resolve options: defaults filled in, every value validated; with ``complete=True``
        (reading a record) every option must be present."""
        return self.build_options(resolved_values(self.id, self.option_specs, raw, complete))

    def parse_options(self, pairs: list[str], preset: str | None = None) -> Options:
        """Options from ``key=value`` strings (the command line), on top of a preset."""
        base = self.preset(preset) if preset else {}
        return self.options(parsed_pairs(self.id, self.option_specs, pairs, base))

    def options_dict(self, opts: Options) -> dict[str, OptionValue]:
        """Exactly this game's options with their values (as a record lists them); a game
        read from a record older than some of its options lists them no more than it did."""
        return {
            s.name: getattr(opts, s.name)
            for s in self.option_specs
            if not (opts.legacy and s.legacy is not None)
        }

    def rated_problem(self, opts: Options) -> str:
        """Why a game with these options cannot be rated (an option outside its rated
        bounds), or ``""`` when it can."""
        return rated_problem_of(self.option_specs, opts)


PLAYERS = OptionSpec("players", "choice", 4, "number of players", choices=(2, 3, 4))
TEAMS = OptionSpec(
    "teams",
    "bool",
    False,
    "two teams of two, partners opposite (4 players)",
    needs=((True, "players", 4),),
)


@dataclass(frozen=True, kw_only=True)
class Options:
    """What every game's options have: the number of players and whether they play in teams.

    Each game resolves its options to its own subclass, which adds exactly its options."""

    players: int
    teams: bool
    legacy: bool = False
    """Read from a record or a stored game written before some of the game's options existed
    (it lacks them all: :attr:`OptionSpec.legacy`). Such a game is played and written as it
    was then: its options are the legacy values, its record lists none of the later options,
    and Donkey's two doubles closed at once before any double do not end its round."""

    @property
    def units(self) -> int:
        """Number of scoring units: two teams, or one per seat."""
        return 2 if self.teams else self.players

    def unit_of(self, seat: int) -> int:
        """The scoring unit of a seat (in team play seats 0+2 are unit 0, 1+3 unit 1)."""
        return seat % 2 if self.teams else seat

    def seats_of(self, unit: int) -> list[int]:
        return [s for s in range(self.players) if self.unit_of(s) == unit]

    def reserve_size(self) -> int:
        """Tiles at the end of the bazaar that are never drawn (Goat's «Без одной»)."""
        return 0

    def ignores_doubles(self) -> bool:
        """True when doubles are left out of the fish test («Рыба без дубля»)."""
        return False

"""The game protocol: what every game offers the rest of the program.

The command line, simulations, records, the terminal, the server and the bots reach a game
through these two interfaces: a :class:`Game` (its id, its options, a new match) and the
:class:`GameMatch` it starts (legal moves, moves, a timeout, copies, one seat's view, the
public summaries of finished rounds, the record, the result). The layout games
(:class:`kozel.rules.Ruleset` and :class:`kozel.match.Match`) are one implementation; games
not played on a layout implement the same protocol with their own state.

>>> from kozel.games import get_game
>>> game: Game = get_game("draw")
>>> match = game.new_match(game.options({"players": 2}), seed=1)
>>> sorted(match.deal_next())
['bazaar', 'hands', 'redeals']
>>> match.to_move in (0, 1)
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol

from kozel.core import Move
from kozel.options import Options, OptionSpec, OptionValue
from kozel.scoring.base import MatchResult

if TYPE_CHECKING:
    from kozel.views import SeatView


class GameMatch(Protocol):
    """One game in progress, from its first deal to its result."""

    seed: int | None

    @property
    def over(self) -> bool: ...

    @property
    def result(self) -> MatchResult | None: ...

    @property
    def started(self) -> bool:
        """True once the first round is dealt."""
        ...

    @property
    def to_move(self) -> int | None:
        """The seat to move, or ``None`` when a deal is due or the game is over."""
        ...

    @property
    def needs_deal(self) -> bool:
        """True before the first deal and after each finished round of a game not over."""
        ...

    def deal_next(self) -> dict[str, Any]:
        """Deal the next round from the match's own generator; return the deal as data to
        store (:meth:`apply_deal` plays it again)."""
        ...

    def apply_deal(self, data: dict[str, Any]) -> None:
        """Play a stored deal (:meth:`deal_next`'s data); ``ValueError`` if it is not one."""
        ...

    def read_move(self, raw: object) -> Move:
        """The move of the seat to move from its JSON (as clients send it); ``ValueError``
        (a ``MoveError``) saying what is wrong."""
        ...

    def write_move(self, move: Move) -> dict[str, Any]:
        """A move as JSON, without the seat."""
        ...

    def legal_moves(self) -> list[Move]: ...

    def push(self, move: Move) -> None:
        """Apply a move of the seat to move, or raise ``IllegalMove`` saying why."""
        ...

    def timeout(self, seat: int) -> None:
        """The seat to move ran out of time: the game ends."""
        ...

    def copy(self) -> GameMatch: ...

    def view(self, seat: int | None, hints: bool = False) -> SeatView:
        """What one seat (or, with ``None``, a spectator) may see; ``hints``: with the points
        each of the seat's legal lays would score (games that score during play)."""
        ...

    def view_dicts(self, seats: list[int | None], hints: bool = False) -> list[dict[str, Any]]:
        """Each seat's view as JSON-ready data, as ``[view(s, hints).to_dict() for s in
        seats]`` (a table builds them together, after every move)."""
        ...

    def round_summaries(self, start: int = 0) -> list[dict[str, Any]]:
        """Each finished round's public part from round ``start`` on (0: the first), as the
        record writes it, plus what the game says of it in numbers (e.g. a hand's winner)."""
        ...

    def record(self, seats: list[str]) -> dict[str, Any]:
        """The game's ``kozel-record/1`` record."""
        ...


class Game(Protocol):
    """A game of the club: its options and how to start a match."""

    @property
    def id(self) -> str: ...

    @property
    def title(self) -> str: ...

    @property
    def summary(self) -> str: ...

    @property
    def sheet_kind(self) -> str:
        """``"goat"`` (the loser collects points) or ``"race"`` (the winner scores)."""
        ...

    @property
    def option_specs(self) -> tuple[OptionSpec, ...]: ...

    @property
    def presets(self) -> Mapping[str, Mapping[str, OptionValue]]: ...

    def options(
        self, raw: Mapping[str, object] | None = None, *, complete: bool = False
    ) -> Options: ...

    def parse_options(self, pairs: list[str], preset: str | None = None) -> Options: ...

    def options_dict(self, opts: Options) -> dict[str, OptionValue]: ...

    def rated_problem(self, opts: Options) -> str:
        """Why a game with these options cannot be rated, or ``""`` when it can."""
        ...

    def new_match(self, opts: Options, seed: int | None = None) -> GameMatch: ...

"""The game protocol: what every game offers the rest of the program.

The command line, simulations, records, the terminal, the server and the bots reach a game
through these two interfaces: a :class:`Game` (its id, its options, a new match) and the
:class:`GameMatch` it starts (legal moves, moves, a timeout, copies, one seat's view, the
public summaries of finished rounds, the record, the result). The layout games
(:class:`kozel.layout.game.LayoutGame` and :class:`kozel.layout.match.Match`) are one
implementation;
the games played in hands (Domino Poker, :mod:`kozel.poker`; Trumps, :mod:`kozel.trumps`)
implement the same protocol on the base of :mod:`kozel.hands` with their own state, moves,
views and bots. This module imports no game. Callers treat moves as opaque values: they come from
``legal_moves()``, ``read_move()`` or a bot, and go back to ``push()`` and ``write_move()``.
A game's ``table`` says what kind of table it needs (``"layout"``, ``"poker"``, ``"tricks"``),
so a client offers only the games whose table it can draw.

>>> from kozel.games import get_game
>>> game: Game = get_game("draw")
>>> match = game.new_match(game.options({"players": 2}), seed=1)
>>> sorted(match.deal_next())
['bazaar', 'hands', 'redeals']
>>> match.to_move in (0, 1)
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from kozel.engine.options import Options, OptionSpec, OptionValue
from kozel.engine.result import MatchResult

GameMove = Any
"""A move of some game: a small frozen value of that game's own move types (layout games:
:data:`kozel.core.Move`; Poker: :data:`kozel.poker.moves.PokerMove`)."""


def kept(sent: Any, value: Any) -> Any:
    """``sent`` (a member of a view or state sent before) when it equals ``value``, else
    ``value``: a game building its views on the ones it returned last
    (:meth:`GameMatch.view_dicts`' ``previous``), or a table its states on the ones it sent,
    keeps what did not change as the object it was. A patch passes it over by identity, and
    a server, which holds the states it sent until the table's next move, holds no new copy
    of it for the garbage collector to look at (docs/benchmarks.md)."""
    return sent if sent is not None and sent == value else value


class GameView(Protocol):
    """What every game's view of one seat offers (layout games:
    :class:`kozel.layout.views.SeatView`; Poker: :class:`kozel.poker.views.PokerView`)."""

    @property
    def seat(self) -> int | None:
        """The seat seeing it, ``None`` for a spectator."""
        ...

    @property
    def to_move(self) -> int | None:
        """The seat to move, or ``None``."""
        ...

    @property
    def legal_moves(self) -> Sequence[GameMove]:
        """The seat's legal moves when it is to move (else empty)."""
        ...

    @property
    def over(self) -> bool: ...

    def to_dict(self) -> dict[str, Any]:
        """The view as JSON-ready data (what a client receives)."""
        ...


class GameBot(Protocol):
    """A computer player of some game: given its seat's view, one of the legal moves."""

    level: str

    def choose(self, view: Any) -> GameMove: ...


@dataclass(frozen=True)
class Decision:
    """One move of the reviewed seat that had a choice, against the expert's analysis."""

    round: int
    move_number: int
    """The move's number in its round (1: the round's first)."""
    played: GameMove
    best: GameMove
    expected_loss: float
    """What the move played is expected to cost against the best move (0 when it was best),
    in the review's :attr:`Review.unit`."""
    choices: int
    spread: float = 0.0
    """What the worst move valued is expected to cost against the best: the most the decision
    could lose (0 when every move is worth the same), in the same unit."""


class Review(Protocol):
    """The review of one seat's decisions in a finished game (``kozel analyse``)."""

    unit: str
    """What an expected loss is counted in (``points``, ``chips``)."""
    steps: int
    """The game's moves (a progress bar's length: ``decisions`` steps through every one)."""
    skipped: str
    """The decisions the review leaves out and why, or ``""``."""

    def decisions(self, on_step: Callable[[], None] | None = None) -> Iterator[Decision]:
        """Each decision of the seat that had a choice, in order; ``on_step`` after each move
        of the game."""
        ...


class GameMatch(Protocol):
    """One game in progress, from its first deal to its result."""

    seed: int | None

    @property
    def opts(self) -> Options: ...

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

    def deal_next(self, stream: random.Random | None = None) -> dict[str, Any]:
        """Deal the next round: every chance event of it from ``stream`` (the round's stream
        of a verifiable shuffle, :func:`kozel.shuffle.round_stream`), else from the match's own
        generator; return the deal as data to store (:meth:`apply_deal` plays it again)."""
        ...

    def apply_deal(self, data: dict[str, Any], stream: random.Random | None = None) -> None:
        """Play a stored deal (:meth:`deal_next`'s data), dealt from ``stream`` when it was
        (a game whose later chance comes from the same stream goes on with it); ``ValueError``
        if it is not one."""
        ...

    def read_move(self, raw: object) -> GameMove:
        """The move of the seat to move from its JSON (as clients send it); ``ValueError``
        (a ``MoveError``) saying what is wrong."""
        ...

    def write_move(self, move: GameMove) -> dict[str, Any]:
        """A move as JSON, without the seat."""
        ...

    def legal_moves(self) -> Sequence[GameMove]: ...

    def push(self, move: GameMove) -> None:
        """Apply a move of the seat to move, or raise ``IllegalMove`` saying why."""
        ...

    def timeout(self, seat: int) -> None:
        """The seat to move ran out of time: the game ends."""
        ...

    def copy(self) -> GameMatch: ...

    def view(self, seat: int | None, hints: bool = False) -> GameView:
        """What one seat (or, with ``None``, a spectator) may see; ``hints``: with the points
        each of the seat's legal lays would score (games that score during play)."""
        ...

    def view_dicts(
        self,
        seats: list[int | None],
        hints: bool = False,
        previous: list[dict[str, Any]] | None = None,
    ) -> list[dict[str, Any]]:
        """Each seat's view as JSON-ready data, as ``[view(s, hints).to_dict() for s in
        seats]`` (a table builds them together, after every move). ``previous``: the views
        this returned last for the same seats, which a game may build on (share what the
        events since could not change)."""
        ...

    def progress(self) -> tuple[int, int]:
        """The round being played (or, between rounds, the last one), from 1, and the moves
        made in it as its record counts them; ``(0, 0)`` before the first deal."""
        ...

    def standing(self) -> list[int]:
        """Each scoring unit's score so far, as the last finished round left it (the Goat
        family: its account; the races: its points; Poker: each seat's chips; Trumps: each
        pair's points): what a list of live games shows."""
        ...

    def shown_hands(self) -> list[list[str]]:
        """Each seat's tiles turned face up once a round is over, by seat (layout games:
        every hand left; Poker: the hands that reached the showdown, the others empty; Trumps:
        nothing is left). Never the bazaar."""
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
        """``"goat"`` (the loser collects points), ``"race"`` (the winner scores) or
        ``"chips"`` (each hand wins or loses chips)."""
        ...

    @property
    def unrated_reason(self) -> str:
        """Why no game of this kind is ever rated on its own, or ``""``."""
        ...

    @property
    def table(self) -> str:
        """The kind of table the game is played at: ``"layout"``, ``"poker"``, ``"tricks"``."""
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

    def replay(self, record: dict[str, Any]) -> GameMatch:
        """Re-run a ``kozel-record/1`` record of this game through its rules; the finished
        match, or ``RecordError`` (a ``ValueError``) at the first illegal or wrong step."""
        ...

    def review(self, record: dict[str, Any], seat: int) -> Review:
        """The review of ``seat``'s decisions in a record of this game: ``RecordError`` if
        the record does not replay."""
        ...

    def view_from_dict(self, data: dict[str, Any]) -> GameView:
        """A seat's view rebuilt from the JSON a client receives (``GameView.to_dict``), for a
        bot playing through the club's API; ``ValueError`` or ``KeyError`` on malformed data."""
        ...

    def move_to_dict(self, move: GameMove) -> dict[str, Any]:
        """A move as a client sends it (and the record writes it, without the seat)."""
        ...

    def check_deal(
        self, opts: Options, number: int, recorded: dict[str, Any], stream: random.Random
    ) -> list[str]:
        """How round ``number`` (from 1) of a record of this game, ``recorded``, differs from
        what ``stream`` (that round's stream of a verifiable shuffle) deals: every chance event
        of the round (the deal, the redeals, a lot, Poker's draws from the shuffled discards),
        each difference in English; ``[]`` when the stream deals exactly that round."""
        ...

    def make_bot(self, level: str, seed: int | None = None) -> GameBot:
        """A computer player of this game by level (``random``, ``greedy``, ``expert``…), or
        ``InvalidOption`` naming the levels there are."""
        ...

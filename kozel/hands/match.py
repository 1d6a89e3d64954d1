"""What a match of a game played in hands has alike: hands dealt one after another until the
game's result, the seat to move, moves read and written, a timeout that ends the game, the
views, the public summaries of finished hands and the record. :class:`HandsMatch` implements
:class:`kozel.engine.game.GameMatch`; each game fills in its hand, moves, views, its record of
a hand and how a recorded hand is checked (:meth:`HandsMatch.replay_hand`).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Sequence
from typing import Any, ClassVar, Generic, Protocol, Self, TypeVar

from kozel.core import IllegalMove
from kozel.engine.errors import MoveError, RecordError, is_int, want
from kozel.engine.options import DeclaredOptions, Options
from kozel.engine.record import record_frame, same
from kozel.engine.result import MatchResult
from kozel.hands.views import HandView


class Hand(Protocol):
    """What the base reads of one hand of a game."""

    @property
    def turn(self) -> int | None: ...

    @property
    def over(self) -> bool: ...

    @property
    def dealer(self) -> int: ...

    @property
    def phase(self) -> str: ...

    @property
    def moves(self) -> Sequence[dict[str, Any]]:
        """The hand's moves as the record writes them."""
        ...

    def legal_moves(self) -> list[Any]: ...


Opts = TypeVar("Opts", bound=Options)
H = TypeVar("H", bound=Hand)
M = TypeVar("M")
V = TypeVar("V", bound=HandView)

BeforeMove = Callable[[Any, int, int, Any], None]
"""Sees a recorded move before it is played: the match, the hand (1: the first), the move's
number in the hand's record, the move."""


class HandsMatch(Generic[Opts, H, M, V]):
    """A game played in hands, from the first deal to its result."""

    rules: ClassVar[DeclaredOptions]
    """The game as its options declare it: what the record's frame names (its id and
    options)."""
    score_name: ClassVar[str] = "scores"
    """What the record calls the final scores (:attr:`MatchResult.score_name`)."""
    compared: ClassVar[tuple[str, ...]]
    """The fields of a recorded hand a replay compares with the rules' after its moves."""

    def __init__(self, opts: Opts, seed: int | None = None) -> None:
        self.opts = opts
        self.seed = seed
        self.rng = random.Random(seed)
        self.hands: list[H] = []
        self._result: MatchResult | None = None
        self.timed_out: int | None = None

    # --- what each game fills in ---------------------------------------------------------

    def standing(self) -> list[int]:
        raise NotImplementedError

    def push(self, move: M) -> None:
        raise NotImplementedError

    def move_from_dict(self, raw: object) -> M:
        """A move from its JSON (``MoveError`` saying what is wrong)."""
        raise NotImplementedError

    def move_to_dict(self, move: M) -> dict[str, Any]:
        raise NotImplementedError

    def seat_view(self, seat: int | None) -> V:
        """What ``seat`` (``None``: a spectator) may see now."""
        raise NotImplementedError

    def hand_record(self, index: int) -> dict[str, Any]:
        """Hand ``index`` (0: the first) as the record writes it."""
        raise NotImplementedError

    def hand_summary(self, index: int, written: dict[str, Any]) -> dict[str, Any]:
        """What a finished hand's public summary says beyond its record (``written``)."""
        raise NotImplementedError

    def shown_hands(self) -> list[list[str]]:
        raise NotImplementedError

    def next_dealer(self) -> int:
        raise NotImplementedError

    def deal_next(self, stream: random.Random | None = None) -> dict[str, Any]:
        raise NotImplementedError

    def apply_deal(self, data: dict[str, Any], stream: random.Random | None = None) -> None:
        raise NotImplementedError

    # --- state ---------------------------------------------------------------------------

    @property
    def hand(self) -> H | None:
        return self.hands[-1] if self.hands else None

    @property
    def over(self) -> bool:
        return self._result is not None

    @property
    def result(self) -> MatchResult | None:
        return self._result

    @property
    def started(self) -> bool:
        return bool(self.hands)

    @property
    def to_move(self) -> int | None:
        hand = self.hand
        return None if self.over or hand is None else hand.turn

    @property
    def needs_deal(self) -> bool:
        hand = self.hand
        return not self.over and (hand is None or hand.over)

    def progress(self) -> tuple[int, int]:
        hand = self.hand
        return (0, 0) if hand is None else (len(self.hands), len(hand.moves))

    # --- moves ---------------------------------------------------------------------------

    def legal_moves(self) -> list[M]:
        hand = self.hand
        return [] if self.over or hand is None else hand.legal_moves()

    def read_move(self, raw: object) -> M:
        if self.to_move is None:
            raise IllegalMove("nobody is to move")
        return self.move_from_dict(raw)

    def write_move(self, move: M) -> dict[str, Any]:
        return self.move_to_dict(move)

    def timeout(self, seat: int) -> None:
        """The seat to move ran out of time: the hand is not scored and the game ends; every
        other player gains 1 (docs/rules.md#club)."""
        if self.over:
            raise IllegalMove("the game is over")
        if seat != self.to_move:
            raise IllegalMove(f"seat {seat} is not to move")
        self.timed_out = seat
        rating = [0 if s == seat else 1 for s in range(self.opts.players)]
        self._result = MatchResult(
            "winners", [], self.standing(), rating, timeout=seat, score_name=self.score_name
        )

    def copy(self) -> Self:
        return copy.deepcopy(self)

    # --- what players see, and the record ------------------------------------------------

    def view(self, seat: int | None, hints: bool = False) -> V:
        """What ``seat`` may see (``hints`` mean nothing in a game played in hands)."""
        return self.seat_view(seat)

    def view_dicts(
        self,
        seats: list[int | None],
        hints: bool = False,
        previous: list[dict[str, Any]] | None = None,
    ) -> list[dict[str, Any]]:
        return [self.seat_view(s).to_dict() for s in seats]

    def view_fields(self, seat: int | None) -> dict[str, Any]:
        """The fields every view of a dealt hand starts with, by name: the options, the seat,
        the hand's number, dealer and phase, the seat to move and ``seat``'s legal moves (none
        unless it is to move)."""
        hand = self.hand
        assert hand is not None
        legal = tuple(hand.legal_moves()) if seat is not None and self.to_move == seat else ()
        return {
            "opts": self.opts,
            "seat": seat,
            "hand_number": len(self.hands),
            "dealer": hand.dealer,
            "phase": hand.phase,
            "turn": self.to_move,
            "legal_moves": legal,
        }

    def _written(self, index: int) -> bool:
        """True when hand ``index`` is in the record: it is over, or the game ended in it."""
        return self.hands[index].over or (
            self.timed_out is not None and index == len(self.hands) - 1
        )

    def round_summaries(self, start: int = 0) -> list[dict[str, Any]]:
        out = []
        for i in range(start, len(self.hands)):
            if not self._written(i):
                continue
            rec = self.hand_record(i)
            public = {k: v for k, v in rec.items() if k not in ("deal", "moves")}
            out.append({**public, **self.hand_summary(i, rec)})
        return out

    def record(self, seats: list[str]) -> dict[str, Any]:
        """The game's record (finished or not)."""
        rounds = [
            self.hand_record(i)
            for i, hand in enumerate(self.hands)
            if hand.over or self.timed_out is not None
        ]
        record = record_frame(self.rules, self.opts, seats, self.seed, rounds)
        if self.result is not None:
            record["result"] = self.result.to_dict()
        return record

    # --- a recorded hand played again ----------------------------------------------------

    def check_before_deal(self, raw: dict[str, Any], where: str) -> None:
        """``RecordError`` unless the recorded hand starts as the rules say (its dealer)."""
        same(where, "dealer", raw.get("dealer"), self.next_dealer())

    def check_dealt(self, moves: list[Any], where: str) -> int:
        """The recorded moves the deal itself makes (Poker's antes), checked; 0 by default."""
        return 0

    def recorded_move(self, rec: dict[str, Any], at: str) -> tuple[M, Any]:
        """A recorded move and what else the record says of it (Poker: a discard's draws)."""
        return self.read_move(rec), None

    def push_recorded(self, move: M, extra: Any) -> None:
        self.push(move)

    def comparable(self, key: str, value: object) -> object:
        """A recorded or computed field as the replay compares it (as it is by default)."""
        return value

    def replay_hand(
        self, raw: dict[str, Any], where: str, last: bool, before_move: BeforeMove | None
    ) -> None:
        """Play a recorded hand again: its deal, every move through the rules, a timeout in
        the last hand; then compare its :attr:`compared` fields with the rules'.
        ``RecordError`` at the first difference."""
        self.check_before_deal(raw, where)
        deal = raw.get("deal")
        want(isinstance(deal, dict), f"{where}: deal must be an object")
        assert isinstance(deal, dict)
        try:
            self.apply_deal({"hands": deal.get("hands"), "bazaar": deal.get("bazaar")})
        except (ValueError, IllegalMove) as err:
            raise RecordError(f"{where}: {err}") from None
        hand = self.hand
        assert hand is not None
        moves = raw.get("moves")
        want(isinstance(moves, list), f"{where}: moves must be a list")
        assert isinstance(moves, list)
        dealt = self.check_dealt(moves, where)
        end = raw.get("end")
        want(isinstance(end, dict), f"{where}: end must be an object")
        assert isinstance(end, dict)
        timeout = last and end.get("kind") == "timeout"
        for n, rec in enumerate(moves[dealt:], start=dealt + 1):
            at = f"{where}, move {n}"
            want(not hand.over, f"{at}: the hand is already over")
            want(isinstance(rec, dict), f"{at}: a move must be an object")
            seat = rec.get("seat")
            want(
                is_int(seat) and seat == self.to_move,
                f"{at}: seat {seat!r} moves but seat {self.to_move} is to move",
            )
            try:
                move, extra = self.recorded_move(rec, at)
                if before_move is not None:
                    before_move(self, len(self.hands), n, move)
                self.push_recorded(move, extra)
            except IllegalMove as err:
                raise RecordError(f"{at}: {err}") from None
            except MoveError as err:
                raise RecordError(
                    f"{at}: {err}" if not str(err).startswith(at) else str(err)
                ) from None
        if timeout and not hand.over:
            seat = end.get("seat")
            want(
                seat == self.to_move,
                f"{where}: end: seat {seat!r} timed out but seat {self.to_move} was to move",
            )
            self.timeout(self.to_move)  # type: ignore[arg-type]
        want(hand.over or self.over, f"{where}: the hand is not over after its last move")
        computed = self.hand_record(len(self.hands) - 1)
        for key in self.compared:
            same(
                where, key, self.comparable(key, raw.get(key)), self.comparable(key, computed[key])
            )

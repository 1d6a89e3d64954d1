"""What the game objects of the games played in hands share: their declaration as data
(:class:`HandsRules`: what the club shows of the game and its options), a record replayed
hand by hand (:meth:`kozel.hands.match.HandsMatch.replay_hand`) in the one replay loop of
every game (:func:`kozel.engine.record.replay_rounds`), and a review of one seat from that
replay."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any, Generic, Self, TypeVar

from kozel.engine.game import GameMatch, Review
from kozel.engine.options import DeclaredOptions, Options, OptionSpec, OptionValue
from kozel.engine.record import check_game, replay_rounds
from kozel.engine.record_review import Analyst, RecordReview
from kozel.hands.match import BeforeMove, HandsMatch

MT = TypeVar("MT", bound=HandsMatch[Any, Any, Any, Any])


@dataclass(frozen=True)
class HandsRules(DeclaredOptions):
    """A game played in hands as its options declare it: what its records and views read of
    it (the game itself, a :class:`HandsGame`, is the same with its matches, views and
    bots)."""

    id: str
    title: str
    summary: str
    sheet_kind: str
    """``"chips"`` (Poker) or ``"race"`` (the pair that reaches the target wins)."""
    table: str
    """The kind of table it is played at (``"poker"``, ``"tricks"``)."""
    option_specs: tuple[OptionSpec, ...]
    options_type: Callable[..., Options]
    fixed: Mapping[str, OptionValue] = field(default_factory=dict)
    """Values of the options type the game does not offer as options."""
    unrated_reason: str = ""
    presets: Mapping[str, Mapping[str, OptionValue]] = field(default_factory=dict)

    def build_options(self, resolved: dict[str, Any]) -> Options:
        return self.options_type(**self.fixed, **resolved)


class HandsGame(HandsRules, Generic[MT]):
    """A :class:`kozel.engine.game.Game` played in hands; each game adds its match, its moves,
    views and bots."""

    @classmethod
    def of(cls, rules: HandsRules) -> Self:
        """The game that ``rules`` declare."""
        return cls(**{f.name: getattr(rules, f.name) for f in fields(rules)})

    def new_match(self, opts: Options, seed: int | None = None) -> MT:
        raise NotImplementedError

    def replay(self, record: dict[str, Any]) -> MT:
        return self.replay_watched(record)

    def replay_watched(self, record: dict[str, Any], before_move: BeforeMove | None = None) -> MT:
        """:meth:`replay`, ``before_move(match, hand, number, move)`` seeing each move the
        players made before it is played (a review)."""
        check_game(record, self.id)

        def play_hand(match: MT, raw: dict[str, Any], where: str, last: bool) -> None:
            match.replay_hand(raw, where, last, before_move)

        return replay_rounds(
            record,
            lambda _: self,
            lambda _, opts, seed: self.new_match(opts, seed),
            play_hand,
            "hand",
        )

    def record_review(
        self, record: dict[str, Any], seat: int, analyst: Analyst, unit: str, skipped: str = ""
    ) -> Review:
        """The review of ``seat``'s decisions by ``analyst``, valued in ``unit``."""
        return RecordReview(record, seat, self.replay_watched, analyst, unit, skipped)


def _conforms(match: HandsMatch[Any, Any, Any, Any]) -> GameMatch:
    """A game played in hands implements the match protocol (checked by mypy here; the
    registry's annotation checks each game)."""
    return match

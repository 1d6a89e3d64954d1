"""What the game objects of the games played in hands share: their declaration as data
(:class:`HandsRules`: what the club shows of the game and its options), a record replayed
through the one loop of :mod:`kozel.hands.record`, and a review of one seat from that
replay."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any, Generic, Self, TypeVar

from kozel.engine.game import GameMatch, Review
from kozel.engine.options import DeclaredOptions, Options, OptionSpec, OptionValue
from kozel.engine.record_review import Analyst, RecordReview
from kozel.hands.match import BeforeMove, HandsMatch
from kozel.hands.record import replay_hands

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
        """:meth:`replay`, ``before_move`` seeing each move before it is played."""
        return replay_hands(record, self, self.new_match, before_move)

    def record_review(
        self, record: dict[str, Any], seat: int, analyst: Analyst, unit: str, skipped: str = ""
    ) -> Review:
        """The review of ``seat``'s decisions by ``analyst``, valued in ``unit``."""
        return RecordReview(record, seat, self.replay_watched, analyst, unit, skipped)


def _conforms(match: HandsMatch[Any, Any, Any, Any]) -> GameMatch:
    """A game played in hands implements the match protocol (checked by mypy here; the
    registry's annotation checks each game)."""
    return match

"""Rounds make a match: deals, leads, the game's scoring policy, and the end of the game.

The :class:`Match` deals rounds, chooses who leads, lets the game's scoring policy
(:mod:`kozel.layout.scoring`) settle each round and notices the end. It knows no game's scoring.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from kozel.core import (
    TILE_COUNT,
    TILE_NAMES,
    DeclineHundred,
    IllegalMove,
    Move,
    Play,
    PlayDoubles,
    Tile,
    tiles_of,
)
from kozel.engine.errors import is_int, read_tile, want
from kozel.engine.options import Options
from kozel.engine.record import FORMAT
from kozel.engine.result import MatchResult
from kozel.layout.codec import event_to_dict, move_to_dict, parse_move
from kozel.layout.deal import Deal, deal_tiles
from kozel.layout.round import Round, RoundEnd
from kozel.layout.rules import Ruleset
from kozel.layout.scoring.base import Cell, Settlement
from kozel.layout.views import SeatView, Trail, view_dicts, view_for

__all__ = ["Match", "MatchResult", "RoundResult", "record_of", "round_sheet"]


class RoundChance(NamedTuple):
    """Every chance event of one round (:meth:`Match.draw_chance`)."""

    lot: tuple[Tile, ...] | None
    deal: Deal
    redeals: int
    place_lot: tuple[int, ...] | None


@dataclass(frozen=True)
class RoundResult:
    """A finished round as the sheet and the record keep it."""

    deal: Deal
    redeals: int
    round: Round
    end: RoundEnd
    counts: list[int]
    before: tuple[Cell, ...]
    after: tuple[Cell, ...]
    entries: list[dict[str, Any]]
    """Per scoring unit, the record's sheet entry."""
    gained: list[int]
    """Per scoring unit, what the round added: the charge (Goat) or the points (races)."""
    eggs: int
    points: list[int]
    """Per move of the round, the points it scored during play (games that score then)."""
    decides: dict[str, Any] | None = None
    places: list[int] | None = None
    """Games that list places (Bykovo): the seats by place, the winner first."""

    @property
    def charged(self) -> list[int]:
        return self.gained

    def end_dict(self) -> dict[str, Any]:
        """The record's ``end`` of this round."""
        out: dict[str, Any] = {"kind": self.end.kind, "seat": self.end.seat}
        if self.round.closed_both:
            out["closed_both"] = True
        if self.decides is not None:
            out["decides"] = dict(self.decides)
        if self.places is not None:
            out["places"] = list(self.places)
        return out


class Match:
    """A game of several rounds, played to its end.

    Usage: ``m = Match(GOAT, opts, seed=1)``; while ``not m.over``: ``m.round.legal_moves()``,
    ``m.push(move)``; when ``m.round.over`` and the match is not, ``m.next_round()``.
    ``next_round(deal)`` plays a given deal instead of dealing one (replays, tests).
    """

    def __init__(self, rules: Ruleset, opts: Options, seed: int | None = None) -> None:
        if not isinstance(opts, rules.options_type):
            raise TypeError(f"{rules.id} needs its own options, not {type(opts).__name__}")
        self.rules = rules
        self.opts = opts
        self.seed = seed
        self.rng: random.Random = random.Random(seed) if seed is not None else random.SystemRandom()
        self.scoring = rules.scoring(opts)
        self.sheet: tuple[Cell, ...] = self.scoring.initial()
        self.eggs = 0
        self.during = [0] * opts.units
        """Points each unit has scored during play this round."""
        self.points: list[int] = []
        """Points of each move of this round (games that score during play)."""
        self.results: list[RoundResult] = []
        self.result: MatchResult | None = None
        self.redeals = 0
        self.lot: tuple[Tile, ...] = ()
        """The tiles the seats drew for the first leader (games that draw a lot)."""
        self._round: Round | None = None
        self.trail: Trail | None = None
        """What the views last followed of the current round's history (its JSON, the arms,
        the tiles laid: :func:`~kozel.layout.views.trail_of`); a copy of the match shares it
        until the two histories part, and a new round starts another."""

    @property
    def round(self) -> Round:
        if self._round is None:
            raise IllegalMove("no round has been dealt yet")
        return self._round

    @property
    def started(self) -> bool:
        return self._round is not None

    @property
    def over(self) -> bool:
        return self.result is not None

    @property
    def turn(self) -> int:
        return self.round.turn

    # --- the game protocol (kozel.engine.game.GameMatch) -----------------------------------------

    @property
    def to_move(self) -> int | None:
        """The seat to move, or ``None`` when a deal is due or the game is over."""
        if self.over or self._round is None or self._round.over:
            return None
        return self._round.turn

    @property
    def needs_deal(self) -> bool:
        return not self.over and (self._round is None or self._round.over)

    def deal_next(self, stream: random.Random | None = None) -> dict[str, Any]:
        first = not self.results
        rnd = self.next_round(rng=stream)
        data: dict[str, Any] = {
            "hands": [[TILE_NAMES[t] for t in hand] for hand in rnd.deal.hands],
            "bazaar": [TILE_NAMES[t] for t in rnd.deal.bazaar],
            "redeals": self.redeals,
        }
        if first and self.lot:
            data["lot"] = [TILE_NAMES[t] for t in self.lot]
        if rnd.place_lot:
            data["place_lot"] = list(rnd.place_lot)
        return data

    def apply_deal(self, data: dict[str, Any], stream: random.Random | None = None) -> None:
        """Play a stored deal (its data has every chance event of the round: ``stream`` is
        not needed)."""
        want(isinstance(data, dict), "a deal must be an object")
        hands, bazaar = data.get("hands"), data.get("bazaar")
        redeals, lot = data.get("redeals"), data.get("lot")
        want(
            isinstance(hands, list) and all(isinstance(h, list) for h in hands),
            "a deal's hands must be a list of lists of tiles",
        )
        want(isinstance(bazaar, list), "a deal's bazaar must be a list of tiles")
        want(is_int(redeals), "a deal's redeals must be an integer >= 0")
        want(lot is None or isinstance(lot, list), "a deal's lot must be a list of tiles")
        assert isinstance(hands, list) and isinstance(bazaar, list) and isinstance(redeals, int)
        want(redeals >= 0, "a deal's redeals must be an integer >= 0")
        deal = Deal(
            tuple(tuple(read_tile(t, "deal") for t in hand) for hand in hands),
            tuple(read_tile(t, "deal") for t in bazaar),
        )
        tiles = None if lot is None else [read_tile(t, "lot") for t in lot]
        place_lot = data.get("place_lot")
        want(
            place_lot is None
            or (isinstance(place_lot, list) and all(is_int(s) for s in place_lot)),
            "a deal's place_lot must be a list of seats",
        )
        self.next_round(deal, redeals, tiles, place_lot)

    def read_move(self, raw: object) -> Move:
        seat = self.to_move
        if seat is None:
            raise IllegalMove("nobody is to move")
        want(isinstance(raw, dict), f"a move must be an object, got {raw!r}")
        assert isinstance(raw, dict)
        return parse_move({**raw, "seat": seat}, "move", self.opts.players)[1]

    def write_move(self, move: Move) -> dict[str, Any]:
        return move_to_dict(move)

    def view(self, seat: int | None, hints: bool = False) -> SeatView:
        return view_for(self, seat, hints)

    def view_dicts(
        self,
        seats: list[int | None],
        hints: bool = False,
        previous: list[dict[str, Any]] | None = None,
    ) -> list[dict[str, Any]]:
        return view_dicts(self, seats, hints, previous)

    def progress(self) -> tuple[int, int]:
        if self._round is None:
            return (0, 0)
        # as the record counts them: a refused hundred is not one of its moves
        moves = sum(type(move) is not DeclineHundred for _, move, _ in self._round.history)
        return (len(self.results) + (0 if self._round.over else 1), moves)

    def standing(self) -> list[int]:
        return [self.scoring.score_of(cell) for cell in self.sheet]

    def shown_hands(self) -> list[list[str]]:
        return [[TILE_NAMES[t] for t in tiles_of(hand)] for hand in self.round.hands]

    def round_summaries(self, start: int = 0) -> list[dict[str, Any]]:
        return [
            {
                **round_sheet(result),
                **self.scoring.facts(result.round, list(result.counts), result.decides),
            }
            for result in self.results[start:]
        ]

    def record(self, seats: list[str]) -> dict[str, Any]:
        return record_of(self, seats)

    def copy(self) -> Match:
        """An independent copy: pushing moves on it leaves this match as it is. (It shares
        the lists of finished rounds and of points, which a move replaces, never changes: a
        server's table copies its match for every move, docs/benchmarks.md.)"""
        other = Match.__new__(Match)
        other.__dict__.update(self.__dict__)
        if self._round is not None:
            other._round = self._round.copy()
        return other

    def deal(self, rng: random.Random | None = None) -> tuple[Deal, int]:
        """A fresh deal for this game from ``rng`` (default: the match's generator), and its
        redeal count."""
        rules = self.rules
        players = self.opts.players
        return deal_tiles(
            rng or self.rng, players, rules.hand_size(self.opts), rules.redeal, rules.redeal_on_suit
        )

    def draw_lot(self, rng: random.Random | None = None) -> tuple[Tile, ...]:
        """The lot for the first leader: one tile drawn by each seat from the shuffled set
        (then returned and shuffled again before the deal)."""
        tiles = list(range(TILE_COUNT))
        (rng or self.rng).shuffle(tiles)
        return tuple(tiles[: self.opts.players])

    def draw_chance(self, rng: random.Random, first: bool) -> RoundChance:
        """Every chance event of a round, drawn from ``rng`` in this order: the lot for the
        first leader (``first``: a game's first round, when the game draws one), the deal
        (again after each redeal), the lot for equal counts (games that list places)."""
        lot = self.draw_lot(rng) if first and self.rules.uses_lot(self.opts) else None
        deal, redeals = self.deal(rng)
        place_lot = None
        if self.rules.places_by_lot:
            seats = list(range(self.opts.players))
            rng.shuffle(seats)
            place_lot = tuple(seats)
        return RoundChance(lot, deal, redeals, place_lot)

    def next_round(
        self,
        deal: Deal | None = None,
        redeals: int = 0,
        lot: Sequence[Tile] | None = None,
        place_lot: Sequence[int] | None = None,
        rng: random.Random | None = None,
    ) -> Round:
        """Deal the next round (from ``rng``, else the match's generator, unless ``deal`` is
        given): every chance event of the round as :meth:`draw_chance` draws them. The first
        round of a game that chooses its first leader by lot draws the lot first, unless
        ``lot`` gives it (one distinct tile per seat, with its ``deal``). A game that lists
        places draws the lot for equal counts after the deal, unless ``place_lot`` gives it
        (every seat once; a replay takes it from the record's places)."""
        if self.over:
            raise IllegalMove("the game is over")
        if self._round is not None and not self._round.over:
            raise IllegalMove("the current round is not over")
        rules = self.rules
        source = rng or self.rng
        by_lot = not self.results and rules.uses_lot(self.opts)
        drawn = deal is None
        if drawn:
            if lot is not None or place_lot is not None:
                raise ValueError("a round's lot is given with its deal")
            chance = self.draw_chance(source, not self.results)
            lot, deal, redeals, place_lot = (
                chance.lot,
                chance.deal,
                chance.redeals,
                chance.place_lot,
            )
        if lot is not None and not by_lot:
            raise ValueError("this round has no lot: only a game's first leader is drawn by lot")
        if by_lot:
            self._take_lot(lot)
        if place_lot is not None and not rules.places_by_lot:
            raise ValueError(f"{rules.id} lists no places: a round has no place lot")
        assert deal is not None
        if not drawn:
            self._check_deal(deal)
        places_lot = self._places_lot(place_lot, source)
        self.redeals = redeals
        hands = deal.masks
        leader, lead_mask = self._first_lead(hands, by_lot)
        hundred = self.scoring.may_declare_hundred(self.sheet, leader)
        asked = self.scoring.asked_about_hundred(self.sheet, hands, leader)
        self._round = Round(rules, self.opts, deal, leader, lead_mask, hundred, places_lot, asked)
        self.during = [0] * self.opts.units
        self.points = []
        return self._round

    def _take_lot(self, lot: Sequence[Tile] | None) -> None:
        """Keep the first round's lot; raises ``ValueError`` unless it is one distinct tile
        per seat."""
        if lot is None:
            raise ValueError("the first round of this game needs its lot")
        if len(lot) != self.opts.players or len(set(lot)) != len(lot):
            raise ValueError(f"the lot must be {self.opts.players} different tiles")
        self.lot = tuple(lot)

    def _check_deal(self, deal: Deal) -> None:
        """Raises ``ValueError`` if a given deal is not a deal of this game, or one the rules
        throw in."""
        rules = self.rules
        deal.validate(self.opts.players, rules.hand_size(self.opts))
        if rules.redeal and deal.needs_redeal(rules.redeal_on_suit):
            suits = " or 6+ of a suit" if rules.redeal_on_suit else ""
            raise ValueError(f"this deal must be thrown in: a hand has 5+ doubles{suits}")

    def _places_lot(
        self, place_lot: Sequence[int] | None, source: random.Random
    ) -> tuple[int, ...]:
        """The order equal counts place in: ``place_lot`` (every seat once; else raises
        ``ValueError``), else drawn from ``source`` in a game that lists places, else
        none."""
        seats = tuple(range(self.opts.players))
        if place_lot is not None:
            if sorted(place_lot) != list(seats):
                raise ValueError(f"the place lot must list every seat once, not {place_lot}")
            return tuple(place_lot)
        if self.rules.places_by_lot:
            shuffled = list(seats)
            source.shuffle(shuffled)
            return tuple(shuffled)
        return ()

    def _first_lead(self, hands: Sequence[int], by_lot: bool) -> tuple[int, int]:
        """The round's leader and the tiles he may lead: the lot's winner any tile; in the
        first round the holder of the rules' first tile that tile; later the rules' next
        leader what they allow him."""
        rules = self.rules
        if by_lot:
            leader = rules.lot_winner(self.lot)
            return leader, hands[leader]
        if not self.results:
            leader, first = rules.first_leader(hands, self.opts)
            return leader, 1 << first
        leader = rules.next_leader(self.opts, self.results[-1])
        return leader, rules.later_lead_mask(hands[leader], self.opts)

    def legal_moves(self) -> list[Move]:
        return [] if self.over else self.round.legal_moves()

    def push(self, move: Move) -> None:
        """Apply a move of the seat to move; score the round if it ended."""
        if self.over:
            raise IllegalMove("the game is over")
        rnd = self.round
        seat = rnd.turn
        rnd.push(move)
        scoring = self.scoring
        if scoring.scores_during_play:
            gained = 0
            if isinstance(move, Play | PlayDoubles):
                gained = scoring.lay_points(rnd, seat, move)
                if gained:
                    during = self.during[:]  # new lists: a copy shares the old ones
                    during[self.opts.unit_of(seat)] += gained
                    self.during = during
            self.points = [*self.points, gained]
        if rnd.end is not None:
            counts = rnd.counts()
            self._record(
                rnd, counts, scoring.settle(self.sheet, self.eggs, rnd, counts, self.during)
            )

    def timeout(self, seat: int) -> None:
        """``seat`` let its clock run out: the round is interrupted, unscored, and the game ends."""
        if self.over:
            raise IllegalMove("the game is over")
        rnd = self.round
        rnd.interrupt(seat)
        settlement = self.scoring.timeout(self.sheet, self.eggs, seat, self.during)
        self._record(rnd, rnd.counts(), settlement)

    def _record(self, rnd: Round, counts: list[int], settlement: Settlement) -> None:
        assert rnd.end is not None
        self.results = [  # a new list: a copy shares the old one
            *self.results,
            RoundResult(
                rnd.deal,
                self.redeals,
                rnd,
                rnd.end,
                counts,
                self.sheet,
                settlement.sheet,
                settlement.entries,
                settlement.gained,
                settlement.eggs,
                list(self.points),
                settlement.decides,
                rnd.places() if self.rules.places_by_lot and rnd.end.kind != "timeout" else None,
            ),
        ]
        self.sheet = settlement.sheet
        self.eggs = settlement.eggs
        self.result = settlement.result


# --- the record -----------------------------------------------------------------------


def round_sheet(result: RoundResult) -> dict[str, Any]:
    """A finished round's public part, as in the record: how it ended, every hand's count,
    each scoring unit's sheet entry (before, charged, after) and the eggs carried on."""
    return {
        "end": result.end_dict(),
        "counts": list(result.counts),
        "sheet": [dict(entry) for entry in result.entries],
        "eggs": result.eggs,
    }


def record_of(match: Match, seats: list[str]) -> dict[str, Any]:
    """The ``kozel-record/1`` record of a match (finished or not)."""
    rounds: list[dict[str, Any]] = []
    for result in match.results:
        rnd = result.round
        moves = [
            event_to_dict(seat, move, drawn)
            for seat, move, drawn in rnd.history
            if type(move) is not DeclineHundred  # the record writes no refused hundred
        ]
        if match.scoring.scores_during_play:
            for entry, points in zip(moves, result.points, strict=True):
                if "play" in entry or "doubles" in entry:
                    entry["points"] = points
        lot = {"lot": [TILE_NAMES[t] for t in match.lot]} if match.lot and not rounds else {}
        rounds.append(
            {
                **lot,
                "redeals": result.redeals,
                "deal": {
                    "hands": [[TILE_NAMES[t] for t in hand] for hand in result.deal.hands],
                    "bazaar": [TILE_NAMES[t] for t in result.deal.bazaar],
                },
                "moves": moves,
                **round_sheet(result),
            }
        )
    record: dict[str, Any] = {
        "format": FORMAT,
        "game": match.rules.id,
        "options": match.rules.options_dict(match.opts),
        "seats": list(seats),
        "seed": match.seed,
        "rounds": rounds,
    }
    if match.result is not None:
        record["result"] = match.result.to_dict()
    return record

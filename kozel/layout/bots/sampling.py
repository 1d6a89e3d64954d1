"""Determinization: deal the tiles a seat cannot see, consistently with everything public.

A seat sees its own hand, the table, every hand's size, the bazaar's size and the history.
The unseen tiles are dealt to the other hands, the bazaar (in a random order) and the reserve,
respecting what the history proves: a seat that knocked or drew held no tile of the values
the open arms showed then (a draw proves it only where drawing is allowed solely without a
fitting tile, a knock only where knocking is: the rules say,
:meth:`~kozel.layout.rules.Ruleset.draw_proves_void` and
:meth:`~kozel.layout.rules.Ruleset.knock_proves_void`; a Bykovo pass proves nothing).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from kozel.core import FULL_MASK, SUIT_MASK, Draw, Knock, Move, Tile, tiles_of
from kozel.layout.history import open_values as history_values
from kozel.layout.history import walk
from kozel.layout.views import SeatView


def open_values(view: SeatView) -> Iterator[tuple[int, Move, int]]:
    """Walk the public history: each move with its seat and the values open before it (a
    bitmask of 0..6)."""
    for seat, move, _, layout in walk(view.history, view.rules.has_spinner(view.opts)):
        yield seat, move, history_values(layout)


def lacked_values(view: SeatView) -> list[int]:
    """For each seat, a bitmask of the values (0..6) it is known not to hold now.

    A knock adds the open values to what the seat lacks. A draw in a new turn brings tiles
    that may show earlier values, so it starts the seat's list again from the values open
    then (the tiles drawn and kept did not fit them either). Where a draw is legal although a
    tile fits (:meth:`~kozel.layout.rules.Ruleset.draw_proves_void`), a draw proves nothing and the
    seat's list starts empty again. Where a knock is legal on any turn
    (:meth:`~kozel.layout.rules.Ruleset.knock_proves_void`: Bykovo) a knock proves nothing.
    """
    players = len(view.hand_sizes)
    lacks = [0] * players
    drew_this_turn = [False] * players
    previous = -1
    proves = view.rules.draw_proves_void(view.opts)
    knock_proves = view.rules.knock_proves_void(view.opts)
    for seat, move, values in open_values(view):
        if seat != previous:
            drew_this_turn = [False] * players
            previous = seat
        if isinstance(move, Draw) and not proves:
            lacks[seat] = 0
        elif isinstance(move, Draw) and not drew_this_turn[seat]:
            lacks[seat] = values
            drew_this_turn[seat] = True
        elif isinstance(move, Draw) or (isinstance(move, Knock) and knock_proves):
            lacks[seat] |= values
    return lacks


def known_voids(view: SeatView) -> list[int]:
    """For each seat, the mask of tiles it cannot hold now (:func:`lacked_values`)."""
    masks = []
    for values in lacked_values(view):
        mask = 0
        for v in range(7):
            if values >> v & 1:
                mask |= SUIT_MASK[v]
        masks.append(mask)
    return masks


@dataclass(frozen=True)
class World:
    """One sampled deal of the unseen tiles."""

    hands: list[int]
    bazaar: list[Tile]
    """The drawable tiles still to come, in draw order."""
    reserve: int
    """Mask of the reserve (never drawn)."""


class Sampler:
    """Samples worlds for one view; reuses the constraint analysis across samples."""

    def __init__(self, view: SeatView, rng: random.Random) -> None:
        assert view.seat is not None
        self.view = view
        self.rng = rng
        self.me = view.seat
        self.unseen = tiles_of(FULL_MASK & ~view.hand_mask & ~view.table)
        self.voids = known_voids(view)
        self.voids[self.me] = 0
        self.sizes = list(view.hand_sizes)
        self.others = sorted(
            (s for s in range(len(self.sizes)) if s != self.me),
            key=lambda s: -self.voids[s].bit_count(),
        )

    def sample(self) -> World:
        """A world consistent with the proven voids (relaxed only if none can be found,
        which the rules make impossible)."""
        for _ in range(60):
            world = self._try(strict=True)
            if world is not None:
                return world
        world = self._try(strict=False)
        assert world is not None
        return world

    def _try(self, strict: bool) -> World | None:
        pool = self.unseen[:]
        self.rng.shuffle(pool)
        hands = [0] * len(self.sizes)
        hands[self.me] = self.view.hand_mask
        for seat in self.others:
            need = self.sizes[seat]
            void = self.voids[seat] if strict else 0
            kept: list[Tile] = []
            taken = 0
            for t in pool:
                if taken < need and not void >> t & 1:
                    hands[seat] |= 1 << t
                    taken += 1
                else:
                    kept.append(t)
            if taken < need:
                return None
            pool = kept
        drawable = self.view.bazaar_left
        reserve = 0
        for t in pool[drawable:]:
            reserve |= 1 << t
        return World(hands, pool[:drawable], reserve)

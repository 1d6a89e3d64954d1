"""Determinization: deal the tiles a seat cannot see, consistently with everything public.

A seat sees its own hand, the table, every hand's size, the bazaar's size and the history.
The unseen tiles are dealt to the other hands, the bazaar (in a random order) and the reserve,
respecting what the history proves: a seat that knocked or drew held no tile of the values
the open arms showed then (a draw proves it only where drawing is allowed solely without a
fitting tile, a knock only where knocking is: the rules say,
:meth:`~kozel.layout.rules.Ruleset.draw_proves_void` and
:meth:`~kozel.layout.rules.Ruleset.knock_proves_void`; a Bykovo pass proves nothing), and the
tiles that come before the first round's lead in the game's order of first leads were dealt
to no hand, so a seat that has not drawn does not hold them; and Sea Goat's record holder
asked about the hundred holds 6-6 until he lays it, while one who was not asked (and does not
lead) was not dealt it.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from kozel.core import (
    DOUBLE_OF,
    FULL_MASK,
    SUIT_MASK,
    DeclineHundred,
    Draw,
    Knock,
    Move,
    Tile,
    tiles_of,
)
from kozel.engine.dealing import VoidDeal
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
    """For each seat, the mask of tiles it cannot hold now: the values it lacks
    (:func:`lacked_values`), and while it has not drawn, the tiles the first lead proves were
    dealt to no hand (:func:`undealt_by_lead`) and Sea Goat's 6-6 when it holds a record and
    was not asked about the hundred (:func:`unasked_record_holders`)."""
    masks = []
    for values in lacked_values(view):
        mask = 0
        for v in range(7):
            if values >> v & 1:
                mask |= SUIT_MASK[v]
        masks.append(mask)
    undealt = undealt_by_lead(view)
    unasked = unasked_record_holders(view)
    if undealt or unasked:
        drew = {seat for seat, move, _ in view.history if isinstance(move, Draw)}
        for seat in range(len(masks)):
            if seat not in drew:  # its hand is what it was dealt, less what it laid
                masks[seat] |= undealt | (1 << DOUBLE_OF[6] if seat in unasked else 0)
    return masks


def unasked_record_holders(view: SeatView) -> list[int]:
    """Sea Goat: the seats that may declare the hundred (their unit holds a record) and were
    not asked about it although they do not lead: each was dealt no 6-6, since the record
    holder dealt it is asked before the leader leads."""
    if (
        view.asking >= 0
        or view.lead_why == "hundred"  # the asked record holder declared it
        or any(type(move) is DeclineHundred for _, move, _ in view.history)
    ):
        return []
    scoring = view.rules.scoring(view.opts)
    return [
        seat
        for seat in range(len(view.hand_sizes))
        if seat != view.leader and scoring.may_declare_hundred(view.sheet, seat)
    ]


def known_holdings(view: SeatView) -> list[int]:
    """For each seat, the mask of tiles it is known to hold now: Sea Goat's record holder who
    is asked about the hundred, or declined it, was dealt 6-6 and holds it until it is laid
    (none for the viewer's own seat: its hand is known)."""
    held = [0] * len(view.hand_sizes)
    six = DOUBLE_OF[6]
    if view.table >> six & 1:
        return held
    asked = view.asking
    if asked < 0:
        asked = next((s for s, move, _ in view.history if type(move) is DeclineHundred), -1)
    if asked >= 0 and asked != view.seat:
        held[asked] = 1 << six
    return held


def undealt_by_lead(view: SeatView) -> int:
    """The tiles that no hand was dealt, as the first round's lead proves: the holder of the
    first tile of the game's order of first leads that any hand holds leads it, so every tile
    before the led one in that order went to the bazaar or the reserve (a mask; 0 in a later
    round, after a lot, or while the viewer may not know the reason)."""
    tile = view.lead_tile
    if tile < 0:
        return 0
    order = view.rules.lead_order(view.opts)
    if tile not in order:
        return 0
    mask = 0
    for t in order[: order.index(tile)]:
        mask |= 1 << t
    return mask


@dataclass(frozen=True)
class World:
    """One sampled deal of the unseen tiles."""

    hands: list[int]
    bazaar: list[Tile]
    """The drawable tiles still to come, in draw order."""
    reserve: int
    """Mask of the reserve (never drawn)."""


class Sampler:
    """Samples worlds for one view, each consistent deal of the unseen tiles equally likely
    (:class:`~kozel.engine.dealing.VoidDeal`: the unseen tiles grouped by which of the other
    seats may hold them, each group split in proportion to the number of whole deals the
    split leaves); what no hand takes is the bazaar, in a random order, and the reserve."""

    def __init__(self, view: SeatView, rng: random.Random) -> None:
        assert view.seat is not None
        self.view = view
        self.rng = rng
        self.me = view.seat
        self.held = known_holdings(view)
        """Each seat's tiles it is known to hold, dealt to it before the rest."""
        held = 0
        for mask in self.held:
            held |= mask
        self.unseen = tiles_of(FULL_MASK & ~view.hand_mask & ~view.table & ~held)
        self.voids = known_voids(view)
        """Each seat's tiles it cannot hold (none for this seat: its hand is known)."""
        self.voids[self.me] = 0
        self.others = [s for s in range(len(view.hand_sizes)) if s != self.me]
        self.dealer = VoidDeal(
            self.unseen,
            [self.voids[s] for s in self.others],
            [view.hand_sizes[s] - self.held[s].bit_count() for s in self.others],
        )
        self.consistent = self.dealer.consistent
        """False only if no deal fits the voids, which the rules make impossible; the voids
        are then ignored (:meth:`sample`)."""

    def sample(self) -> World:
        """A world: a deal consistent with the proven voids, every such deal equally likely."""
        hands = self.held[:]
        hands[self.me] = self.view.hand_mask
        dealt, rest = self.dealer.deal(self.rng)
        for seat, mask in zip(self.others, dealt, strict=True):
            hands[seat] |= mask
        if self.dealer.grouped and self.view.bazaar_left:  # the groups' leftovers, drawn
            self.rng.shuffle(rest)  # in a random order
        drawable = self.view.bazaar_left
        reserve = 0
        for t in rest[drawable:]:
            reserve |= 1 << t
        return World(hands, rest[:drawable], reserve)

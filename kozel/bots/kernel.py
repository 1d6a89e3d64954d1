"""Python side of the compiled playout kernel: packing positions and moves for it.

The kernel (``kozel/_kernel.c``, built by ``pip install``) plays rounds out from a position
exactly as :class:`kozel.round.Round` does; ``tests/test_kernel.py`` proves it move by move.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kozel import _kernel
from kozel.bots.sampling import lacked_values
from kozel.core import DOUBLES_MASK, DRAW, KNOCK, Draw, Knock, Move, Play, PlayDoubles, mask_of
from kozel.match import Account
from kozel.round import Round
from kozel.rules import FISH_MODES, Options, Ruleset
from kozel.views import SeatView

if TYPE_CHECKING:
    from kozel._kernel import KernelMove, ModelTuple, ScoringTuple, StateTuple

__all__ = [
    "SplitMix",
    "_kernel",
    "from_kernel",
    "pack_model",
    "pack_round",
    "pack_scoring",
    "pack_state",
    "to_kernel",
]

_MASK64 = (1 << 64) - 1
PLAY, DOUBLES, DRAW_KIND, KNOCK_KIND = 0, 1, 2, 3
UNIFORM, HEAVY, GREEDY = 0, 1, 2
"""Playout policies: uniform; heavy tiles first (a rough greedy); the greedy bot's heuristic."""


class SplitMix:
    """splitmix64, the kernel's generator, for tests that replay its choices."""

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK64

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)


def to_kernel(move: Move) -> KernelMove:
    if isinstance(move, Play):
        return PLAY, ((move.tile, -1 if move.arm is None else move.arm, int(move.close)),)
    if isinstance(move, PlayDoubles):
        return DOUBLES, tuple(
            (p.tile, p.arm if p.arm is not None else -1, int(p.close)) for p in move.plays
        )
    if isinstance(move, Draw):
        return DRAW_KIND, ()
    assert isinstance(move, Knock)
    return KNOCK_KIND, ()


def from_kernel(move: KernelMove) -> Move:
    kind, plays = move
    if kind == DRAW_KIND:
        return DRAW
    if kind == KNOCK_KIND:
        return KNOCK
    made = tuple(Play(t, None if arm < 0 else arm, bool(close)) for t, arm, close in plays)
    return made[0] if kind == PLAY else PlayDoubles(made)


def pack_state(
    rules: Ruleset,
    players: int,
    hands: list[int],
    bazaar: list[int],
    dead: int,
    lead_mask: int,
    ends: list[int],
    closed: list[bool],
    spinner: int,
    first: int,
    table: int,
    turn: int,
    first_tile: int,
    last_tile: int,
) -> StateTuple:
    """A position for the kernel; ``bazaar`` is the drawable tiles still to come, in order,
    and ``dead`` the tiles that never hold a fish open (reserve, ignored doubles)."""
    return (
        players,
        int(rules.spinner),
        int(rules.closing),
        int(rules.multi_doubles),
        tuple(hands),
        tuple(bazaar),
        0,
        dead,
        lead_mask,
        tuple(ends),
        tuple(int(c) for c in closed),
        spinner,
        first,
        table,
        turn,
        first_tile,
        last_tile,
    )


def pack_scoring(
    opts: Options,
    sheet: tuple[Account, ...] | list[Account],
    eggs: int,
    loss_penalty: float,
) -> ScoringTuple:
    return (
        int(opts.teams),
        FISH_MODES.index(opts.fish_mode),
        opts.open_threshold,
        opts.lone_zero_value,
        int(opts.special_doubles),
        opts.loss_limit,
        eggs,
        tuple(a.account for a in sheet),
        tuple(int(a.open) for a in sheet),
        tuple(a.remembered for a in sheet),
        loss_penalty,
    )


def pack_model(
    view: SeatView, own_policy: int, own_noise: int, other_policy: int, other_noise: int
) -> ModelTuple:
    """How the kernel's playouts from ``view``'s decision choose moves: the seat of the view
    plays ``own_policy``, the others ``other_policy``; a noise of N makes one move in N
    uniform (0: none). The greedy policy needs the public facts it keeps up to date: the
    values each seat was seen to lack, and whether the seat to move has drawn this turn."""
    assert view.seat is not None
    drew = False
    for seat, move, _ in reversed(view.history):
        if seat != view.seat:
            break
        drew = drew or isinstance(move, Draw)
    return (
        view.seat,
        int(view.opts.teams),
        DOUBLES_MASK if view.opts.fish_ignores_double else 0,
        tuple(lacked_values(view)),
        int(drew),
        own_policy,
        own_noise,
        other_policy,
        other_noise,
    )


def pack_round(rnd: Round) -> StateTuple:
    """A real round's position as it stands (all hands and the bazaar known: for tests and
    for analysing finished games, never for a bot's decision)."""
    layout = rnd.layout
    reserve = mask_of(rnd.deal.bazaar[rnd.drawable :])
    return pack_state(
        rnd.rules,
        rnd.players,
        list(rnd.hands),
        list(rnd.deal.bazaar[rnd.drawn : rnd.drawable]),
        reserve | (DOUBLES_MASK if rnd.opts.fish_ignores_double else 0),
        rnd.lead_mask,
        list(layout.ends),
        list(layout.closed),
        layout.spinner,
        layout.first,
        layout.table,
        rnd.turn,
        rnd.first_tile,
        rnd.last_tile,
    )

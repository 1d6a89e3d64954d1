"""Python side of the compiled playout kernel: packing positions and moves for it.

The kernel (``kozel/_kernel.c``, built by ``pip install``) plays rounds out from a position
exactly as :class:`kozel.round.Round` does and costs them as the game's scoring policy does;
``tests/test_kernel.py`` proves it move by move and round by round. It knows the scoring
policies and hand counts listed here; :func:`supports` says whether it can play a game, and
:func:`pack_scoring` refuses any other (:class:`KernelUnsupported`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from kozel import _kernel
from kozel.bots.sampling import lacked_values
from kozel.core import DOUBLES_MASK, DRAW, KNOCK, Draw, Knock, Move, Play, PlayDoubles, mask_of
from kozel.games import classic_count, goat_count, sea_goat_count
from kozel.options import Options
from kozel.round import Round
from kozel.rules import Ruleset, plain_count
from kozel.scoring.base import Cell
from kozel.scoring.goat import FISH_MODES, Account, GoatOptions, GoatScoring
from kozel.scoring.race import RaceOptions, RaceScoring
from kozel.scoring.sea_goat import SeaGoatOptions, SeaGoatScoring
from kozel.views import SeatView

if TYPE_CHECKING:
    from kozel._kernel import KernelMove, ModelTuple, ScoringTuple, StateTuple

__all__ = [
    "KernelUnsupported",
    "SplitMix",
    "_kernel",
    "from_kernel",
    "pack_model",
    "pack_round",
    "pack_scoring",
    "pack_state",
    "supports",
    "to_kernel",
]

_MASK64 = (1 << 64) - 1
PLAY, DOUBLES, DRAW_KIND, KNOCK_KIND, HUNDRED_KIND = 0, 1, 2, 3, 4
SHEET_GOAT, SHEET_RACE = 0, 1
COUNT_MODES: dict[Callable[[int, Options], int], int] = {
    goat_count: 0,
    plain_count: 1,
    classic_count: 2,
    sea_goat_count: 3,
}
"""The hand counts the kernel knows, by the game's counting hook."""


class KernelUnsupported(ValueError):
    """The kernel does not know this game's scoring or counts (the bots then play it by a
    pure-Python path)."""


def supports(rules: Ruleset) -> bool:
    """True when the kernel can play and cost rounds of this game: it knows the game's
    scoring and counts, and its turns draw until able (no draw while a tile fits, no
    one-draw turns) and a fish goes to the lowest count."""
    return (
        rules.hand_count in COUNT_MODES
        and rules.scoring in (GoatScoring, RaceScoring, SeaGoatScoring)
        and rules.draw_when_able_option is None
        and not rules.one_draw_a_turn
        and rules.fish_winner is None
    )


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
        kind = HUNDRED_KIND if move.hundred else PLAY
        return kind, ((move.tile, -1 if move.arm is None else move.arm, int(move.close)),)
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
    made = tuple(
        Play(t, None if arm < 0 else arm, bool(close), kind == HUNDRED_KIND)
        for t, arm, close in plays
    )
    return PlayDoubles(made) if kind == DOUBLES else made[0]


def pack_state(
    rules: Ruleset,
    opts: Options,
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
    hundred_ok: bool = False,
    hundred_seat: int = -1,
) -> StateTuple:
    """A position for the kernel; ``bazaar`` is the drawable tiles still to come, in order,
    and ``dead`` the tiles that never hold a fish open (reserve, ignored doubles, the tiles
    a game without draws leaves out of play)."""
    return (
        opts.players,
        int(rules.has_spinner(opts)),
        int(rules.closing),
        int(rules.has_multi_doubles(opts)),
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
        int(hundred_ok),
        hundred_seat,
    )


def pack_scoring(
    rules: Ruleset,
    opts: Options,
    sheet: Sequence[Cell],
    eggs: int,
    loss_penalty: float,
) -> ScoringTuple:
    """The game's scoring for the kernel: the sheet as it stands, and ``loss_penalty`` (what
    becoming the Goat costs, or winning a race gains). Raises ``KernelUnsupported`` for a
    game whose scoring or counts the kernel does not know."""
    if not supports(rules):
        raise KernelUnsupported(f"the playout kernel does not know how {rules.id} scores")
    counts = COUNT_MODES[rules.hand_count]
    none = (0,) * len(sheet)
    if isinstance(opts, GoatOptions):
        accounts = [a for a in sheet if isinstance(a, Account)]
        return (
            SHEET_GOAT,
            counts,
            0,
            0,
            0,
            0,
            int(opts.teams),
            FISH_MODES.index(opts.fish_mode),
            opts.open_threshold,
            opts.lone_zero_value,
            int(opts.special_doubles),
            opts.loss_limit,
            eggs,
            tuple(a.account for a in accounts),
            tuple(int(a.open) for a in accounts),
            tuple(a.remembered for a in accounts),
            loss_penalty,
        )
    assert isinstance(opts, RaceOptions)
    sea = rules.scoring is SeaGoatScoring
    return (
        SHEET_RACE,
        counts,
        int(not sea),
        opts.open_at if isinstance(opts, SeaGoatOptions) else 0,
        int(sea),
        opts.target,
        int(opts.teams),
        0,
        1,
        0,
        0,
        0,
        0,
        tuple(int(score) for score in sheet),
        none,
        none,
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
        DOUBLES_MASK if view.opts.ignores_doubles() else 0,
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
        rnd.opts,
        list(rnd.hands),
        list(rnd.deal.bazaar[rnd.drawn : rnd.drawable]),
        reserve | (DOUBLES_MASK if rnd.opts.ignores_doubles() else 0),
        rnd.lead_mask,
        list(layout.ends),
        list(layout.closed),
        layout.spinner,
        layout.first,
        layout.table,
        rnd.turn,
        rnd.first_tile,
        rnd.last_tile,
        rnd.hundred_ok,
        rnd.hundred,
    )

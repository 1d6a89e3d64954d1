"""Python side of the compiled playout kernel: packing positions and moves for it.

The kernel (``kozel/_kernel.c``, built by ``pip install``) plays rounds out from a position
exactly as :class:`kozel.layout.round.Round` does, scores each lay as the games that score during
play do, and costs finished rounds as the game's scoring policy does; ``tests/test_kernel.py``
and ``tests/test_kernel_during_play.py`` prove it move by move, lay by lay and round by round.
It knows the scoring policies and hand counts listed here; :func:`supports` says whether it
can play a game, and :func:`pack_scoring` refuses any other (:class:`KernelUnsupported`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

from kozel import _kernel
from kozel.core import (
    DECLINE_HUNDRED,
    DOUBLES_MASK,
    DRAW,
    KNOCK,
    DeclineHundred,
    Draw,
    Knock,
    Layout,
    Move,
    Play,
    PlayDoubles,
    Tile,
    mask_of,
)
from kozel.engine.options import Options
from kozel.layout.bots.sampling import lacked_values
from kozel.layout.history import lay, plays_of
from kozel.layout.round import Round
from kozel.layout.rules import Ruleset, plain_count
from kozel.layout.scoring.base import Cell, Scoring
from kozel.layout.scoring.bergen import BergenScoring, block_winner
from kozel.layout.scoring.bykovo import BykovoOptions, BykovoScoring
from kozel.layout.scoring.counts import classic_count, goat_count, sea_goat_count
from kozel.layout.scoring.end_count import (
    AllFivesScoring,
    AllThreesScoring,
    EndCountOptions,
    TelephoneScoring,
    ThreesFivesScoring,
)
from kozel.layout.scoring.goat import FISH_MODES, Account, GoatOptions, GoatScoring
from kozel.layout.scoring.race import RaceOptions, RaceScoring
from kozel.layout.scoring.sea_goat import SeaGoatOptions, SeaGoatScoring
from kozel.layout.views import SeatView

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
PLAY, DOUBLES, DRAW_KIND, KNOCK_KIND, HUNDRED_KIND, DECLINE_KIND = 0, 1, 2, 3, 4, 5
SHEET_GOAT, SHEET_RACE, SHEET_PLACES = 0, 1, 2
COUNT_MODES: dict[Callable[[int, Options], int], int] = {
    goat_count: 0,
    plain_count: 1,
    classic_count: 2,
    sea_goat_count: 3,
}
"""The hand counts the kernel knows, by the game's counting hook."""
POINTS_MODES: dict[Callable[[Options], Scoring], int] = {
    AllFivesScoring: 1,
    TelephoneScoring: 2,
    AllThreesScoring: 3,
    ThreesFivesScoring: 4,
    BergenScoring: 5,
}
"""How the games that score during play score a lay and credit the hand's winner, in the
kernel's numbering (its ``POINTS_*`` and ``CREDIT_*``); 0 for the other games."""
RACES = (RaceScoring, SeaGoatScoring, *POINTS_MODES)
PLACES = (BykovoScoring,)
"""Scorings whose round costs each seat its count, the winner nothing (Bykovo)."""


class KernelUnsupported(ValueError):
    """The kernel does not know this game's scoring or counts (the bots then play it by a
    pure-Python path)."""


def supports(rules: Ruleset) -> bool:
    """True when the kernel can play and cost rounds of this game: it knows the game's
    scoring (exactly this class: a subclass may score otherwise) and counts, and a fish goes
    to the lowest count, or to Bergen's block rule in Bergen's scoring. Drawing until able,
    drawing when able (Threes and Fives) and one draw a turn (Bergen) it plays all."""
    if rules.fish_winner is not None and not (
        rules.fish_winner is block_winner and rules.scoring is BergenScoring
    ):
        return False
    if rules.scoring in POINTS_MODES and rules.hand_count is not plain_count:
        return False
    return rules.hand_count in COUNT_MODES and rules.scoring in (GoatScoring, *RACES, *PLACES)


def layout_tips(plays: Iterable[Play], spinner: bool) -> tuple[list[Tile], int]:
    """The last tile laid on each arm (the first tile, or the spinner, while none is; -1 for
    an arm not open) and the spinner's line sides as the kernel tracks them for the end sum
    (:func:`kozel.layout.scoring.ends.end_sum`): a bit per line arm whose tip may still be the
    spinner (both for a spinner led, the arm it was laid on otherwise)."""
    layout = Layout()
    tips = [-1, -1, -1, -1]
    line = 0
    for play in plays:
        lay(layout, play, spinner)
        t = play.tile
        if play.arm is None:
            if layout.spinner == t:
                tips, line = [t, t, t, t], 3
            else:
                tips = [t, t, -1, -1]
            continue
        tips[play.arm] = t
        if layout.spinner == t:
            tips[2] = tips[3] = t
            line = 1 << play.arm
    return tips, line


def tips_of_history(
    history: Iterable[tuple[int, Move, int]], spinner: bool
) -> tuple[list[Tile], int]:
    """:func:`layout_tips` of a round's history (or a seat's view of it)."""
    return layout_tips((p for _, m, _ in history for p in plays_of(m)), spinner)


UNIFORM, HEAVY, GREEDY, LINEAR = 0, 1, 2, 3
"""Playout policies: uniform; heavy tiles first (a rough greedy); the greedy bot's heuristic;
a linear score of a move's features (:data:`GREEDY_WEIGHTS`)."""
# fmt: off
GREEDY_WEIGHTS = (10.0, 30.0, 7.0, 8.0, 15.0, -10.0, 60.0, -20.0,
                  0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
# fmt: on
"""The linear policy's weights that score a move as the greedy policy does (in tenths of the
greedy bot's points; tests/test_kernel.py), its features being, for the mover: the pips laid,
the doubles laid, the values left in the hand, the open ends' values it holds, those the next
seat lacks, those its partner lacks, a fish with a light hand, a fish's count otherwise; then
beyond the greedy heuristic: the open ends' values the previous seat lacks, those the seat
opposite lacks (four players, no teams), the hand's tiles that fit an open end, the doubles
held, the longest suit held, the unseen tiles that fit an open end, a fish, the doubles held
without another tile of their value. Moves that go out, draws, knocks and the games that
score during play are scored as by the greedy policy."""


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
    if isinstance(move, DeclineHundred):
        return DECLINE_KIND, ()
    assert isinstance(move, Knock)
    return KNOCK_KIND, ()


def from_kernel(move: KernelMove) -> Move:
    kind, plays = move
    if kind == DRAW_KIND:
        return DRAW
    if kind == KNOCK_KIND:
        return KNOCK
    if kind == DECLINE_KIND:
        return DECLINE_HUNDRED
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
    drew: bool = False,
    tips: Sequence[Tile] = (-1, -1, -1, -1),
    spinner_line: int = 0,
    circle: Circle | None = None,
    asking: int = -1,
) -> StateTuple:
    """A position for the kernel; ``bazaar`` is the drawable tiles still to come, in order,
    and ``dead`` the tiles that never hold a fish open (reserve, ignored doubles, the tiles
    a game without draws leaves out of play); ``drew``: the seat to move has drawn this turn;
    ``tips`` and ``spinner_line`` as :func:`layout_tips` gives them (the end sum needs them);
    ``circle``: where the round stands in the passes and the last circle (Bykovo; its leader
    is also the regular leader, who leads when ``asking``, Sea Goat's record holder asked
    about the hundred, declines it).

    A hot path kept in one piece: the expert packs a position for every world it samples,
    and the body is a single tuple in the kernel's field order, which helpers would only
    scatter over several calls and tuple concatenations."""
    leader, passes, first_out, circle_left, last_layer = circle or (turn, 0, -1, 0, -1)
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
        POINTS_MODES.get(rules.scoring, 0),
        int(isinstance(opts, EndCountOptions) and opts.spinner_arms_count),
        int(rules.one_draw_a_turn),
        int(rules.may_draw_when_able(opts)),
        int(drew),
        tuple(tips),
        spinner_line,
        int(rules.knock_any_time),
        int(rules.out_plays_circle),
        rules.pass_limit,
        leader,
        passes,
        first_out,
        circle_left,
        last_layer,
        asking,
        int(rules.closing_both_is_fish and not opts.legacy),
    )


Circle = tuple[int, int, int, int, int]
"""``(leader, passes, first_out, circle_left, last_layer)``: the round's leader, the knocks
just made in a row, the first seat that emptied its hand (-1: none yet), the moves of the last
circle still to make, and the seat that laid the last tile (-1: none)."""


def circle_of(
    history: Sequence[tuple[int, Move, int]], leader: int, sizes: Sequence[int]
) -> Circle:
    """:data:`Circle` from a round's public history, its leader and the hands' sizes now
    (what a seat's view knows)."""
    players = len(sizes)
    held = list(sizes)
    for seat, move, _ in history:  # back to the sizes as dealt
        held[seat] += len(plays_of(move)) - isinstance(move, Draw)
    passes, first_out, circle_left, last_layer = 0, -1, 0, -1
    for seat, move, _ in history:
        plays = plays_of(move)
        if first_out >= 0:
            circle_left -= 1
        if plays:
            passes, last_layer = 0, seat
            held[seat] -= len(plays)
            if first_out < 0 and not held[seat]:
                first_out = seat
                circle_left = (leader - 1 - seat) % players
        elif isinstance(move, Draw):
            held[seat] += 1
        else:
            passes += 1
    return leader, passes, first_out, circle_left, last_layer


def pack_scoring(
    rules: Ruleset,
    opts: Options,
    sheet: Sequence[Cell],
    eggs: int,
    loss_penalty: float,
    during: Sequence[int] = (),
) -> ScoringTuple:
    """The game's scoring for the kernel: the sheet as it stands, and ``loss_penalty`` (what
    becoming the Goat costs, or winning a race gains); ``during``: per unit, the points
    scored so far in the round (games that score during play), which the kernel's costs
    then start from. Raises ``KernelUnsupported`` for a game whose scoring or counts the
    kernel does not know."""
    if not supports(rules):
        raise KernelUnsupported(f"the playout kernel does not know how {rules.id} scores")
    counts = COUNT_MODES[rules.hand_count]
    if isinstance(opts, BykovoOptions):
        return _places_scoring(counts, len(sheet), loss_penalty)
    if isinstance(opts, GoatOptions):
        return _goat_scoring(opts, counts, sheet, eggs, loss_penalty)
    assert isinstance(opts, RaceOptions)
    return _race_scoring(rules, opts, counts, sheet, loss_penalty, during)


def _places_scoring(counts: int, units: int, loss_penalty: float) -> ScoringTuple:
    """The kernel's scoring of a game that lists places (Bykovo): no sheet to carry."""
    none = (0,) * units
    return (
        SHEET_PLACES,
        counts,
        0,
        0,
        0,
        0,
        0,
        0,
        1,
        0,
        0,
        0,
        0,
        none,
        none,
        none,
        loss_penalty,
        0,
        1,
    )


def _goat_scoring(
    opts: GoatOptions, counts: int, sheet: Sequence[Cell], eggs: int, loss_penalty: float
) -> ScoringTuple:
    """The kernel's scoring of Goat and Donkey: the accounts, open or not, and the eggs."""
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
        0,
        1,
    )


def _race_scoring(
    rules: Ruleset,
    opts: RaceOptions,
    counts: int,
    sheet: Sequence[Cell],
    loss_penalty: float,
    during: Sequence[int],
) -> ScoringTuple:
    """The kernel's scoring of a race to a target: each unit's score, with the points of
    the round so far (``during``) added."""
    sea = rules.scoring is SeaGoatScoring
    scoring = rules.scoring(opts)
    assert isinstance(scoring, RaceScoring)
    scores = [int(score) for score in sheet]
    for unit, points in enumerate(during):
        scores[unit] += points
    none = (0,) * len(sheet)
    return (
        SHEET_RACE,
        counts,
        int(not sea and scoring.subtract_own_in_fish),
        opts.open_at if isinstance(opts, SeaGoatOptions) else 0,
        int(sea),
        scoring.target,
        int(opts.teams),
        0,
        1,
        0,
        0,
        0,
        0,
        tuple(scores),
        none,
        none,
        loss_penalty,
        POINTS_MODES.get(rules.scoring, 0),
        opts.bonus_divisor if isinstance(opts, EndCountOptions) else 1,
    )


def pack_model(
    view: SeatView,
    own_policy: int,
    own_noise: int,
    other_policy: int,
    other_noise: int,
    weights: tuple[float, ...] | None = None,
    partner_as_own: bool = False,
) -> ModelTuple:
    """How the kernel's playouts from ``view``'s decision choose moves: the seat of the view
    plays ``own_policy``, the others ``other_policy``; a noise of N makes one move in N
    uniform (0: none); ``weights`` are the linear policy's (:data:`LINEAR`), and with
    ``partner_as_own`` the partner of the view's seat, in team play, plays as that seat does.
    The greedy policy needs the public facts it keeps up to date: the values each seat was
    seen to lack, and whether the seat to move has drawn this turn."""
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
        weights,
        int(partner_as_own),
    )


def pack_round(rnd: Round) -> StateTuple:
    """A real round's position as it stands (all hands and the bazaar known: for tests and
    for analysing finished games, never for a bot's decision)."""
    layout = rnd.layout
    reserve = mask_of(rnd.deal.bazaar[rnd.drawable :])
    history = rnd.history
    drew = bool(history) and history[-1][0] == rnd.turn and isinstance(history[-1][1], Draw)
    tips, line = tips_of_history(history, rnd.spinner_rule)
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
        drew,
        tips,
        line,
        (rnd.leader, rnd.passes, rnd.first_out, rnd.circle_left, rnd.last_layer()),
        rnd.asking,
    )

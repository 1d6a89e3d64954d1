"""A layout game's rules: data (deal, layout, turns, options) plus the few hooks data cannot
express. Every game played on a layout is a :class:`Ruleset`; the games themselves are
defined in :mod:`kozel.layout.game`, each a :class:`~kozel.layout.game.LayoutGame` (the rules behind
the game protocol).

A game request names a game and sets some of its options; :meth:`Ruleset.options` fills in
the defaults and validates everything, raising :class:`~kozel.core.InvalidOption` with the
valid values when something is wrong.

>>> from kozel.games import GOAT
>>> GOAT.options({"players": 3}).players
3
>>> GOAT.options({"players": 5})
Traceback (most recent call last):
...
kozel.core.InvalidOption: option 'players' must be one of 2, 3, 4; got 5
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any, Literal

from kozel.core import HIGH, IS_DOUBLE, PIPS, TILE_COUNT, Tile, pips_of
from kozel.engine.options import DeclaredOptions, Options, OptionSpec, OptionValue
from kozel.layout.scoring.base import Scoring

if TYPE_CHECKING:
    from kozel.layout.match import RoundResult

HAND_SIZE = 7


def plain_count(hand: int, opts: Options) -> int:
    """A hand's count in pips, with no special values."""
    return pips_of(hand)


def whole_hand(hand: int, opts: Options) -> int:
    """Any tile may lead a later round."""
    return hand


def never(opts: Options) -> bool:
    return False


def by_pips_descending(tiles: Sequence[Tile]) -> tuple[Tile, ...]:
    """Heaviest first: by pips, ties by the higher high half (``5-6, 4-6, 3-6, 4-5, …``)."""
    return tuple(sorted(tiles, key=lambda t: (-PIPS[t], -HIGH[t])))


def by_pips_ascending(tiles: Sequence[Tile]) -> tuple[Tile, ...]:
    """Lightest first: by pips, ties by the lower high half (``0-1, 0-2, 1-2, 0-3, …``)."""
    return tuple(sorted(tiles, key=lambda t: (PIPS[t], HIGH[t])))


NON_DOUBLES: tuple[Tile, ...] = tuple(t for t in range(TILE_COUNT) if not IS_DOUBLE[t])


@dataclass(frozen=True)
class Ruleset(DeclaredOptions):
    """A game played on a layout: its options and the features of its deal, layout and turns.

    Games differ as data: hand sizes, whether the leftover tiles may be drawn, redeals,
    ``spinner`` (the first double opens four arms), ``closing`` (a double may close its arm),
    ``multi_doubles`` (several doubles laid in one turn), the order in which tiles lead the
    first round, and who leads later ones. Scoring is the game's policy (``scoring``).
    """

    id: str
    title: str
    summary: str
    option_specs: tuple[OptionSpec, ...]
    options_type: type[Options]
    scoring: Callable[[Options], Scoring]
    sheet_kind: str
    """``"goat"`` (accounts, remembered, eggs: the loser is the Goat) or ``"race"``."""
    first_lead_order: tuple[Tile, ...]
    """The order in which tiles lead a game's first round: the holder of the first tile in
    it that some hand holds leads that tile."""
    fixed: Mapping[str, OptionValue] = field(default_factory=dict)
    remembered_colour: str = "yellow"
    """How the score sheet shows remembered points (``"goat"`` sheets): Goat's are a yellow
    ``+``, Donkey's are written in red (its seed), open accounts then in the usual ink."""
    """Values of the options type this game does not offer as options."""
    hand_sizes: Mapping[int, int] = field(default_factory=lambda: {2: 7, 3: 7, 4: 7})
    """Tiles dealt to each player, by the number of players."""
    hand_size_of: Callable[[Options], int] | None = None
    """Hand sizes that depend on more than the number of players (the ``hand_sizes`` option
    of Threes and Fives, Goat and Donkey)."""
    first_lead_orders: Mapping[str, tuple[Tile, ...]] = field(default_factory=dict)
    """With a ``first_lead`` option (Goat, Donkey): the order of each of its values other
    than the game's own (``first_lead_order``)."""
    draws: bool = True
    """False: the tiles left after the deal stay out of play (Block)."""
    redeal: bool = True
    """Throw in a deal with a hand of 5+ doubles or 6+ tiles of one suit."""
    redeal_on_suit: bool = True
    """With ``redeal``: 6+ tiles of one suit throw a deal in too (Bykovo: only 5+ doubles)."""
    knock_any_time: bool = False
    """A knock (pass) is legal on any turn after the lead, also when a tile fits (Bykovo's
    tactical pass); then a knock proves nothing about the hand (:meth:`knock_proves_void`)."""
    out_plays_circle: bool = False
    """The first player to empty his hand wins, and the circle of turns is played out up to
    the seat before the leader (a play or a pass each); the round then ends as his ``out``
    (Bykovo). Otherwise a round ends at once when a hand empties."""
    pass_limit: int = 0
    """This many consecutive knocks end the round as a ``sortir``, won by the player who laid
    the last tile (Bykovo: 12, three circles of four); 0: never."""
    places_by_lot: bool = False
    """The round's end lists the places (the winner, then counts ascending), equal counts
    by a lot drawn with the deal (Bykovo)."""
    unrated_reason: str = ""
    """Why a lone game is never rated, whatever its options (Bykovo: only its tournament)."""
    spinner: bool = False
    closing: bool = False
    multi_doubles: bool = False
    spinner_option: str | None = None
    """The flag option that gives the game a spinner (Threes and Fives' ``spinner``)."""
    cross_option: str | None = None
    """The flag option that, false, takes the game's spinner away: the layout is a line with
    two ends (All Fives' and All Threes' ``cross``)."""
    closing_both_is_fish: bool = False
    """While no double is on the table, two doubles laid at once and both closed end the round
    as a fish, their layer the fisherman (Donkey; not in a game read as legacy)."""
    multi_doubles_option: str | None = None
    """The flag option that lets doubles go several at once (Telephone's ``doubles_at_once``)."""
    lot: Literal["", "lowest", "heaviest"] = ""
    """The first leader is chosen by lot: each seat draws a tile, the lowest (or heaviest)
    leads the first round with any tile (the lot is in the record)."""
    lot_unless: str | None = None
    """A flag option that replaces the lot by ``first_lead_order`` (Threes and Fives'
    ``spinner``: the holder of the highest double dealt leads it)."""
    fish_winner_leads: bool = False
    """After a fish the hand's winner leads the next (the races); else the fisherman."""
    fish_winner: Callable[[Options, Sequence[int], int], int | None] | None = None
    """The seat that wins a fish, from the hands left and the fisherman (``None``: nobody);
    by default the lowest count (Bergen: the block's scorer)."""
    draw_when_able_option: str | None = None
    """The flag option that makes a draw legal although a tile fits (Threes and Fives'
    ``draw_when_able``)."""
    one_draw_a_turn: bool = False
    """A player who cannot play draws one tile at most, lays it if it fits, else knocks
    (Bergen)."""
    hand_count: Callable[[int, Options], int] = plain_count
    """The count of a hand at the end of a round (special values applied)."""
    later_lead_mask: Callable[[int, Options], int] = whole_hand
    """Tiles a later round's leader may lead (Yard Goat: a double when he has one)."""
    partner_leads: Callable[[Options], bool] = never
    """True when the partner of a round's out player leads the next (Yard Goat)."""
    presets: Mapping[str, Mapping[str, OptionValue]] = field(default_factory=dict)
    table: str = "layout"
    """Every game of this kind is played on a layout (the ``Game`` protocol's table kind)."""

    def __post_init__(self) -> None:
        names = {s.name for s in self.option_specs} | set(self.fixed)
        wanted = {f.name for f in fields(self.options_type)} - {"legacy"}
        if names != wanted:
            raise TypeError(f"{self.id}: options {sorted(names)} do not fill {sorted(wanted)}")

    def has_spinner(self, opts: Options) -> bool:
        """True when the first double laid is a spinner with these options."""
        if self.cross_option and not getattr(opts, self.cross_option):
            return False
        return self.spinner or bool(self.spinner_option and getattr(opts, self.spinner_option))

    def has_multi_doubles(self, opts: Options) -> bool:
        """True when several doubles may be laid in one turn with these options."""
        return self.multi_doubles or bool(
            self.multi_doubles_option and getattr(opts, self.multi_doubles_option)
        )

    def may_draw_when_able(self, opts: Options) -> bool:
        """True when a draw is legal although a tile in hand fits, with these options."""
        return bool(self.draw_when_able_option and getattr(opts, self.draw_when_able_option))

    def knock_proves_void(self, opts: Options) -> bool:
        """True when a knock proves that the knocker held no tile fitting an open end (false
        where a knock is legal on any turn: a Bykovo pass proves nothing)."""
        return not self.knock_any_time

    def draw_proves_void(self, opts: Options) -> bool:
        """True when a draw proves that the drawer held no tile fitting an open end (false
        where a draw is legal although a tile fits)."""
        return not self.may_draw_when_able(opts)

    # --- options ------------------------------------------------------------------------------

    def build_options(self, resolved: dict[str, Any]) -> Options:
        """The resolved values with the game's fixed ones, every combination checked
        (:meth:`OptionSpec.unmet`)."""
        resolved.update(self.fixed)
        for spec in self.option_specs:
            if refusal := spec.unmet(resolved[spec.name], resolved):
                raise refusal
        return self.options_type(**resolved)

    def rated_problem(self, opts: Options) -> str:
        """Why a game with these options cannot be rated (an option outside its rated bounds,
        e.g. a Goat to 1 point), or ``""`` when it can. Who sits at the table is the club's
        matter: only games of people are rated.

        >>> from kozel.games import GOAT
        >>> GOAT.rated_problem(GOAT.options()), GOAT.rated_problem(GOAT.options({"loss_limit": 1}))
        ('', 'a rated game needs loss_limit >= 51 (got 1)')
        """
        return self.unrated_reason or super().rated_problem(opts)

    # --- matches, deals and leads -------------------------------------------------------------

    def hand_size(self, opts: Options) -> int:
        """Tiles dealt to each player with these options."""
        if self.hand_size_of is not None:
            return self.hand_size_of(opts)
        return self.hand_sizes[opts.players]

    def uses_lot(self, opts: Options) -> bool:
        """True when these options choose the first leader by lot."""
        return bool(self.lot) and not (self.lot_unless and getattr(opts, self.lot_unless))

    def lot_winner(self, lot: Sequence[Tile]) -> int:
        """The seat whose tile wins the lot: the lowest or the heaviest (by pips, ties by the
        higher half)."""
        keys = [(PIPS[t], HIGH[t]) for t in lot]
        best = min(keys) if self.lot == "lowest" else max(keys)
        return keys.index(best)

    def lead_order(self, opts: Options | None = None) -> tuple[Tile, ...]:
        """The order in which tiles lead the first round with these options."""
        chosen = getattr(opts, "first_lead", None)
        if chosen is not None and chosen in self.first_lead_orders:
            return self.first_lead_orders[chosen]
        return self.first_lead_order

    def first_leader(self, hands: Sequence[int], opts: Options | None = None) -> tuple[int, Tile]:
        """The seat that leads the first round of a game, and the tile it must lead."""
        for t in self.lead_order(opts):
            for seat, hand in enumerate(hands):
                if hand >> t & 1:
                    return seat, t
        raise ValueError("no hand holds any tile")

    def next_leader(self, opts: Options, previous: RoundResult) -> int:
        """Who leads the round after ``previous``: the player who went out (or his partner
        in Yard Goat); after a fish the fisherman, or in the races the fish's winner (in team
        play the partner with the lower count, equal: the first clockwise from the
        fisherman), and the fisherman when the lowest count is shared; a game with its own
        ``fish_winner`` (Bergen) asks it."""
        end = previous.end
        if end.kind == "out":
            return (end.seat + 2) % opts.players if self.partner_leads(opts) else end.seat
        if not self.fish_winner_leads:
            return end.seat
        counts = previous.counts
        if self.fish_winner is not None:
            winner = self.fish_winner(opts, previous.round.hands, end.seat)
            return end.seat if winner is None else winner
        units = [sum(counts[s] for s in opts.seats_of(u)) for u in range(opts.units)]
        low = min(units)
        if units.count(low) > 1:
            return end.seat
        seats = opts.seats_of(units.index(low))
        order = sorted(seats, key=lambda s: (counts[s], (s - end.seat) % opts.players))
        return order[0]

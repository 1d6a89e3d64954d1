"""One round: the deal, the turns, and how it ends (out, fish, or a timeout).

:class:`Round` is a mutable state with ``legal_moves()`` and ``push(move)``. Moves are
generated from the rules and ``push`` checks every move it is given, raising
:class:`~kozel.core.IllegalMove` with the reason. The round knows nothing about scoring: that
is :mod:`kozel.layout.match`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations, product
from typing import Literal, NamedTuple

from kozel.core import (
    DECLINE_HUNDRED,
    DOUBLE_OF,
    DOUBLES_MASK,
    DRAW,
    IS_DOUBLE,
    KNOCK,
    LEAD,
    MAX_ARMS,
    OTHER_HALF,
    PLAY,
    PLAY_CLOSE,
    SUIT_MASK,
    TILE_COUNT,
    TILE_NAMES,
    DeclineHundred,
    Draw,
    IllegalMove,
    Knock,
    Layout,
    Move,
    Play,
    PlayDoubles,
    Tile,
    mask_of,
    tiles_of,
)
from kozel.engine.options import Options
from kozel.layout.deal import Deal
from kozel.layout.rules import Ruleset

EndKind = Literal["out", "fish", "sortir", "timeout"]


class RoundEnd(NamedTuple):
    """How a round ended: ``kind`` and the seat that went out, fished or timed out (after a
    ``sortir``, Bykovo's end by passes, the seat that laid the last tile)."""

    kind: EndKind
    seat: int


Event = tuple[int, Move, Tile]
"""One action of a round's history: ``(seat, move, drawn)``; ``drawn`` is the tile a
:class:`~kozel.core.Draw` took, ``-1`` for other moves."""


def places_by(winner: int, counts: Sequence[int], lot: Iterable[int]) -> list[int]:
    """The seats by place: the winner first, then by count ascending, equal counts in the
    order of ``lot`` (every seat once).

    >>> places_by(2, [10, 4, 0, 10], [3, 0, 1, 2])
    [2, 1, 3, 0]
    """
    return [winner, *sorted((s for s in lot if s != winner), key=lambda s: counts[s])]


def _plays_of_subsets(closing: bool) -> tuple[dict[int, tuple[Play, ...]], ...]:
    """For each arm, every subset of every suit -> the plays of those tiles on that arm
    (a double twice when it may close the arm); ``legal_moves`` looks its answer up here."""
    tables: list[dict[int, tuple[Play, ...]]] = []
    for k in range(MAX_ARMS):
        table: dict[int, tuple[Play, ...]] = {}
        for suit in SUIT_MASK:
            members = tiles_of(suit)
            for pick in range(1 << len(members)):
                chosen = [t for i, t in enumerate(members) if pick >> i & 1]
                plays: list[Play] = []
                for t in chosen:
                    plays.append(PLAY[t][k])
                    if closing and IS_DOUBLE[t]:
                        plays.append(PLAY_CLOSE[t][k])
                table[mask_of(chosen)] = tuple(plays)
        tables.append(table)
    return tuple(tables)


_PLAYS_OF, _CLOSING_PLAYS_OF = _plays_of_subsets(False), _plays_of_subsets(True)
HUNDRED = Play(DOUBLE_OF[6], None, False, True)
"""Sea Goat's lead of 6-6 that declares the hundred."""
_LINE_ARMS, _CROSS_ARMS = range(2), range(MAX_ARMS)


class Round:
    """The state of one round, from the first tile to its end."""

    __slots__ = (
        "_arms",
        "_dead",
        "_line",
        "_no_fit_at",
        "asking",
        "bazaar_blocks",
        "circle_left",
        "closed_both",
        "deal",
        "draw_when_able",
        "drawable",
        "drawn",
        "end",
        "first_out",
        "first_tile",
        "hands",
        "history",
        "hundred",
        "hundred_ok",
        "knock_any",
        "last_tile",
        "layout",
        "lead_mask",
        "leader",
        "multi_doubles",
        "one_draw",
        "opts",
        "place_lot",
        "players",
        "rules",
        "spinner_rule",
        "turn",
    )

    def __init__(
        self,
        rules: Ruleset,
        opts: Options,
        deal: Deal,
        leader: int,
        lead_mask: int,
        hundred_ok: bool = False,
        place_lot: tuple[int, ...] = (),
        asking: int = -1,
    ) -> None:
        self.rules = rules
        self.opts = opts
        self.players = opts.players
        self._take_deal(deal)
        self._read_rules()
        self._no_fit_at = -1
        self.layout = Layout()
        self.leader = leader
        self.turn = leader
        self.lead_mask = lead_mask & self.hands[leader]
        self.history: list[Event] = []
        self.hundred_ok = hundred_ok and bool(self.lead_mask >> DOUBLE_OF[6] & 1)
        """The leader may declare Sea Goat's hundred with his lead of 6-6."""
        self.hundred = -1
        """The seat that declared the hundred this round, or -1."""
        self.asking = asking
        """Sea Goat: the record holder dealt 6-6 who is asked, before the regular leader
        leads, whether he declares the hundred (his move: ``HUNDRED`` or ``DECLINE_HUNDRED``),
        else -1 (the match says whom to ask). A leader who may declare it does so with his
        lead (``hundred_ok``)."""
        if self.asking >= 0:
            self.turn = self.asking
        self.closed_both = False
        """The round ended when two doubles were laid at once and both closed while no
        double was on the table (Donkey): a fish."""
        self.end: RoundEnd | None = None
        self.first_out = -1
        """With the rules' ``out_plays_circle``: the first seat that emptied its hand while
        the circle is played out, else -1."""
        self.circle_left = 0
        """After the first out: the moves of the circle still to make."""
        self.place_lot = place_lot
        """Games that list places: every seat once, the order equal counts place in."""
        self.first_tile: Tile = -1
        self.last_tile: Tile = -1

    def _take_deal(self, deal: Deal) -> None:
        """Set the hands and the bazaar from ``deal``: the tiles that may be drawn, and the
        ones that never hold a fish open."""
        rules, opts = self.rules, self.opts
        self.deal = deal
        self.hands: list[int] = list(deal.masks)
        left = len(deal.bazaar)
        reserve = min(opts.reserve_size(), left) if rules.draws else left
        self.drawable = left - reserve
        self.drawn = 0
        self._dead = DOUBLES_MASK if opts.ignores_doubles() else 0
        """Tiles that never hold a fish open: the reserve, and doubles when they are ignored."""
        if reserve:
            self._dead |= mask_of(deal.bazaar[self.drawable :])

    def _read_rules(self) -> None:
        """Keep the rules' answers for these options that the moves consult at every turn."""
        rules, opts = self.rules, self.opts
        self.spinner_rule = rules.has_spinner(opts)
        """The first double laid is a spinner (arms 2 and 3)."""
        self.multi_doubles = rules.has_multi_doubles(opts)
        """Several doubles may be laid in one turn."""
        self.draw_when_able = rules.may_draw_when_able(opts)
        """A draw is legal although a tile fits (Threes and Fives' ``draw_when_able``)."""
        self.knock_any = rules.knock_any_time
        """A knock is legal on any turn after the lead (Bykovo)."""
        self.one_draw = rules.one_draw_a_turn
        """A player who cannot play draws one tile at most, then lays it or knocks (Bergen)."""
        self._line = not (self.spinner_rule or self.multi_doubles or rules.closing)
        self._arms = _CROSS_ARMS if self.spinner_rule else _LINE_ARMS
        self.bazaar_blocks = rules.one_draw_a_turn
        """A general fish ends the round only once no drawable tile is left: until then each
        player unable to play draws one tile a turn (Bergen)."""

    # --- reading the state ----------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.end is not None

    @property
    def bazaar_left(self) -> int:
        """Tiles that can still be drawn (the reserve not included)."""
        return self.drawable - self.drawn

    @property
    def reserve(self) -> int:
        return len(self.deal.bazaar) - self.drawable

    def fitting(self, hand: int) -> int:
        """The tiles of ``hand`` that fit some open arm (all of them before the first tile)."""
        layout = self.layout
        if layout.first < 0:
            return hand & self.lead_mask
        ends, closed = layout.ends, layout.closed
        suits = 0
        for k in self._arms:
            e = ends[k]
            if e >= 0 and not closed[k]:
                suits |= SUIT_MASK[e]
        return hand & suits

    def counts(self) -> list[int]:
        """Each seat's hand count now (special values applied)."""
        return [self.rules.hand_count(h, self.opts) for h in self.hands]

    def legal_moves(self) -> list[Move]:
        """Every legal move of the seat to move (empty once the round is over)."""
        if self.end is not None:
            return []
        if self.asking >= 0:
            return [HUNDRED, DECLINE_HUNDRED]
        hand = self.hands[self.turn]
        layout = self.layout
        if layout.first < 0:
            leads: list[Move] = [LEAD[t] for t in tiles_of(self.lead_mask)]
            if self.hundred_ok:
                leads.append(HUNDRED)
            return leads
        ends = layout.ends
        if self._line:  # the hot path of the line games: two arms, one tile a turn
            moves: list[Move] = [
                *_PLAYS_OF[0][hand & SUIT_MASK[ends[0]]],
                *_PLAYS_OF[1][hand & SUIT_MASK[ends[1]]],
            ]
        else:
            table = _CLOSING_PLAYS_OF if self.rules.closing else _PLAYS_OF
            closed = layout.closed
            moves = []
            for k in self._arms:
                e = ends[k]
                if e >= 0 and not closed[k]:
                    moves += table[k][hand & SUIT_MASK[e]]
            doubles = hand & DOUBLES_MASK
            if moves and self.multi_doubles and doubles & (doubles - 1):  # two or more
                moves.extend(self._double_sets(hand))
        if moves:
            if self.draw_when_able and self.drawn < self.drawable:
                moves.append(DRAW)
            if self.knock_any:
                moves.append(KNOCK)
            return moves
        # Remember that nothing fits in this position (the history grows with every move), so
        # that pushing the draw or knock just offered skips checking it again.
        self._no_fit_at = len(self.history)
        return [DRAW] if self.may_draw() else [KNOCK]

    def may_draw(self) -> bool:
        """True when the bazaar has a drawable tile for the seat to move and the rules let it
        draw once more this turn (Bergen draws one tile a turn)."""
        return self.drawn < self.drawable and not (self.one_draw and self._drew_this_turn())

    def _drew_this_turn(self) -> bool:
        history = self.history
        return bool(history) and history[-1][0] == self.turn and type(history[-1][1]) is Draw

    def _double_sets(self, hand: int) -> list[Move]:
        """Every way to lay two or more doubles at once, one per arm.

        Once a spinner is down the order of the doubles changes nothing, so each set is
        listed once, arms ascending (``push`` accepts any order that is legal as laid).
        Before it, the first double laid becomes the spinner: the line has two arms, so a
        pair is listed in both orders."""
        layout = self.layout
        both_orders = self.spinner_rule and layout.spinner < 0
        close_choices = (False, True) if self.rules.closing else (False,)
        options = []
        for k in self._arms:
            e = layout.ends[k]
            if e >= 0 and not layout.closed[k] and hand >> DOUBLE_OF[e] & 1:
                options.append((k, DOUBLE_OF[e]))
        sets: list[Move] = []
        for size in range(2, len(options) + 1):
            for chosen in combinations(options, size):
                if len({t for _, t in chosen}) < size:
                    continue
                for closes in product(close_choices, repeat=size):
                    plays = tuple(Play(t, k, c) for (k, t), c in zip(chosen, closes, strict=True))
                    sets.append(PlayDoubles(plays))
                    if both_orders:
                        sets.append(PlayDoubles(plays[::-1]))
        return sets

    # --- changing the state ---------------------------------------------------------------

    def push(self, move: Move) -> None:
        """Apply ``move`` for the seat to move, or raise ``IllegalMove`` saying why."""
        if self.end is not None:
            raise IllegalMove("the round is over")
        if self.asking >= 0:
            self._answer(move)
            return
        seat = self.turn
        if type(move) is Play:
            t, arm = move.tile, move.arm
            layout = self.layout
            ends = layout.ends
            hand = self.hands[seat]
            # The common case, a plain tile from the hand that fits an open arm, is checked
            # and laid inline: this is the engine's hot path. (Before the first tile every
            # end is -1, so a first tile always takes the full check below.)
            if (
                type(arm) is int
                and 0 <= arm < MAX_ARMS
                and 0 <= t < TILE_COUNT
                and hand >> t & 1
                and not move.close
                and not move.hundred
                and (end := ends[arm]) >= 0
                and (shown := OTHER_HALF[t][end]) >= 0
                and not layout.closed[arm]
            ):
                bit = 1 << t
                hand ^= bit
                self.hands[seat] = hand
                ends[arm] = shown
                table = layout.table = layout.table | bit
                if not self._line and layout.spinner < 0 and IS_DOUBLE[t] and self.spinner_rule:
                    layout.spinner = t
                    ends[2] = ends[3] = shown
                self.last_tile = t
                self.history.append((seat, move, -1))
                if not hand:
                    if self.rules.out_plays_circle:
                        self._play_out_circle(seat)
                    else:
                        self.end = RoundEnd("out", seat)
                elif self.first_out >= 0:
                    self._play_out_circle(seat)
                elif (
                    not SUIT_MASK[shown] & ~(table | self._dead)
                    and self.blocked()
                    and not (self.bazaar_blocks and self.drawn < self.drawable)
                ):
                    self.end = RoundEnd("fish", seat)
                else:
                    self.turn = (seat + 1) % self.players
            else:
                self._check_play(move, self.hands[seat], ends, layout.closed)
                self._lay(move)
                self._after_lay(move)
            return
        kind = type(move)
        if kind is Knock:
            self._knock(seat, move)
        elif kind is Draw:
            self._draw(seat, move)
        elif kind is PlayDoubles:
            assert isinstance(move, PlayDoubles)
            self._play_doubles(seat, move)
        elif kind is DeclineHundred:
            raise IllegalMove("nobody is asked about the hundred now", "not_asked")
        else:
            raise IllegalMove(f"{move!r} is not a move")

    def _knock(self, seat: int, move: Move) -> None:
        """``seat`` passes: only with nothing to lay (or where knocking is free) and nothing
        left to draw."""
        if self.layout.first < 0:
            lead = " or ".join(TILE_NAMES[t] for t in tiles_of(self.lead_mask))
            raise IllegalMove(
                f"the lead is never a pass: seat {seat} leads {lead}", "must_lead", tile=lead
            )
        if not self.rules.knock_any_time and self._no_fit_at != len(self.history):
            self._check_no_fit("knock")
        if self.may_draw():
            raise IllegalMove(
                f"you cannot knock: {self.bazaar_left} tiles are left in the bazaar, draw",
                "must_draw",
            )
        self.history.append((seat, move, -1))
        if self.first_out >= 0:
            self._play_out_circle(seat)
        elif self.rules.pass_limit and self.passes == self.rules.pass_limit:
            self.end = RoundEnd("sortir", self.last_layer())
        else:
            self.turn = (seat + 1) % self.players

    def _draw(self, seat: int, move: Move) -> None:
        """``seat`` takes the bazaar's next tile."""
        if self.one_draw and self._drew_this_turn():
            raise IllegalMove(
                f"{self.rules.id} draws one tile a turn: lay it if it fits, else knock",
                "one_draw",
            )
        if self._no_fit_at != len(self.history) and not self.draw_when_able:
            self._check_no_fit("draw")
        if self.drawn >= self.drawable:
            if not self.rules.draws:
                raise IllegalMove(f"{self.rules.id} has no drawing: knock", "no_drawing")
            raise IllegalMove("the bazaar is empty: nothing left to draw", "bazaar_empty")
        drawn = self.deal.bazaar[self.drawn]
        self.drawn += 1
        self.hands[seat] |= 1 << drawn
        self.history.append((seat, move, drawn))
        if self.bazaar_blocks and self.drawn == self.drawable and self.blocked():
            self.end = RoundEnd("fish", self.last_layer())

    def _play_doubles(self, seat: int, move: PlayDoubles) -> None:
        """``seat`` lays several doubles at once, where the game allows it."""
        self._check_doubles(move)
        closes_both = (
            self.rules.closing_both_is_fish
            and not self.opts.legacy
            and len(move.plays) == 2
            and all(p.close for p in move.plays)
            and not self.layout.table & DOUBLES_MASK
        )
        for play in move.plays:
            self._lay(play)
        self.closed_both = closes_both and bool(self.hands[seat])
        self._after_lay(move)

    def _answer(self, move: Move) -> None:
        """The asked record holder's answer: the hundred (he leads 6-6 and the round goes on
        from him) or no (the regular leader leads)."""
        seat = self.asking
        if type(move) is DeclineHundred:
            self.asking = -1
            self.turn = self.leader
            self.history.append((seat, move, -1))  # a record leaves it out
            return
        if not (type(move) is Play and move.hundred and move.tile == DOUBLE_OF[6]):
            raise IllegalMove(
                f"seat {seat} is asked about the hundred: declare it with 6-6, or decline",
                "answer_hundred",
            )
        if move.arm is not None or move.close:
            raise IllegalMove("the first tile of a round is laid without an arm")
        self.asking = -1
        self.leader = seat
        self.lead_mask = 1 << DOUBLE_OF[6]
        self._lay(move)
        self._after_lay(move)

    def declines(self, seat: int, move: Move) -> bool:
        """True when ``seat`` making ``move`` now means that the asked record holder declined
        the hundred: a record writes no refusal, only the regular leader's lead."""
        return self.asking >= 0 and not (
            seat == self.asking and type(move) is Play and move.hundred
        )

    def interrupt(self, seat: int) -> None:
        """End the round because ``seat``, the seat to move, ran out of time."""
        if self.end is not None:
            raise IllegalMove("the round is over")
        if seat != self.turn:
            raise IllegalMove(f"only the seat to move can time out; it is seat {self.turn}")
        self.end = RoundEnd("timeout", seat)

    def _lay(self, play: Play) -> None:
        t = play.tile
        self.hands[self.turn] ^= 1 << t
        layout = self.layout
        if layout.first < 0:
            layout.lead(t, self.spinner_rule)
            self.first_tile = t
            if play.hundred:
                self.hundred = self.turn
        else:
            assert play.arm is not None
            layout.attach(t, play.arm, play.close, self.spinner_rule)
        self.last_tile = t

    def _after_lay(self, move: Move) -> None:
        seat = self.turn
        self.history.append((seat, move, -1))
        if self.first_out >= 0 or (not self.hands[seat] and self.rules.out_plays_circle):
            self._play_out_circle(seat)
        elif not self.hands[seat]:
            self.end = RoundEnd("out", seat)
        elif self.closed_both or (
            self.blocked() and not (self.bazaar_blocks and self.drawn < self.drawable)
        ):
            self.end = RoundEnd("fish", seat)
        else:
            self.turn = (seat + 1) % self.players

    def _play_out_circle(self, seat: int) -> None:
        """After ``seat``'s move in a game whose out plays the circle out: the first hand to
        empty starts the rest of the circle (every seat after it up to the one before the
        leader moves once more, even on a blocked line); the last of them ends the round as
        the first one's out."""
        if self.first_out < 0:
            self.first_out = seat
            self.circle_left = (self.leader - 1 - seat) % self.players
        else:
            self.circle_left -= 1
        if self.circle_left == 0:
            self.end = RoundEnd("out", self.first_out)
        else:
            self.turn = (seat + 1) % self.players

    @property
    def passes(self) -> int:
        """The knocks just made in a row (a lay ends the series): counted back from the end of
        the history, so that a lay, the engine's hot path, costs nothing more."""
        count = 0
        for _, move, _ in reversed(self.history):
            if type(move) is not Knock:
                break
            count += 1
        return count

    def last_layer(self) -> int:
        """The seat that laid the last tile, or -1 before the first."""
        for seat, move, _ in reversed(self.history):
            if type(move) is Play or type(move) is PlayDoubles:
                return seat
        return -1

    def places(self) -> list[int]:
        """The seats by place at the round's end: the winner (the end's seat) first, then by
        count ascending, equal counts in the order of the round's ``place_lot``."""
        assert self.end is not None
        return places_by(self.end.seat, self.counts(), self.place_lot or range(self.players))

    def blocked(self) -> bool:
        """True when no tile that can still come into play fits an open arm (a fish)."""
        layout = self.layout
        live = ~(layout.table | self._dead)
        ends, closed = layout.ends, layout.closed
        for k in self._arms:
            e = ends[k]
            if e >= 0 and not closed[k] and live & SUIT_MASK[e]:
                return False
        return True

    # --- checks with reasons --------------------------------------------------------------

    def _check_play(self, play: Play, hand: int, ends: list[int], closed: list[bool]) -> None:
        t = play.tile
        if not (isinstance(t, int) and 0 <= t < TILE_COUNT):
            raise IllegalMove(f"{t!r} is not a tile")
        name = TILE_NAMES[t]
        if not hand >> t & 1:
            raise IllegalMove(f"seat {self.turn} does not hold {name}", "not_held", tile=name)
        if self.layout.first < 0:
            if play.arm is not None:
                raise IllegalMove("the first tile of a round is laid without an arm")
            if play.close:
                raise IllegalMove("the first tile of a round is never closed")
            if play.hundred and not self.hundred_ok:
                raise IllegalMove(
                    "only a leader with a record who holds 6-6 may declare the hundred"
                )
            if play.hundred and t != DOUBLE_OF[6]:
                raise IllegalMove("the hundred is declared with a lead of 6-6")
            if not self.lead_mask >> t & 1:
                allowed = [TILE_NAMES[x] for x in tiles_of(self.lead_mask)]
                raise IllegalMove(
                    f"{name} may not lead this round; lead {' or '.join(allowed)}",
                    "wrong_lead",
                    tile=name,
                    allowed=", ".join(allowed),
                )
            return
        arm = play.arm
        if play.hundred:
            raise IllegalMove("the hundred is declared with the first tile of a round")
        if arm is None:
            raise IllegalMove(f"{name} needs an arm: the layout is already started")
        if not (type(arm) is int and arm in self._arms and ends[arm] >= 0):
            open_arms = ", ".join(str(k) for k in self._arms if ends[k] >= 0)
            raise IllegalMove(f"there is no open arm {arm}; arms are {open_arms}")
        if closed[arm]:
            raise IllegalMove(f"arm {arm} is closed", "arm_closed")
        if OTHER_HALF[t][ends[arm]] < 0:
            raise IllegalMove(
                f"{name} does not fit arm {arm}, which shows {ends[arm]}",
                "does_not_fit",
                tile=name,
                end=ends[arm],
            )
        if play.close:
            if not self.rules.closing:
                raise IllegalMove(f"{self.rules.id} has no closing of arms")
            if not IS_DOUBLE[t]:
                raise IllegalMove(
                    f"only a double can close an arm; {name} is not a double",
                    "close_with_double",
                    tile=name,
                )

    def _check_no_fit(self, action: str) -> None:
        fit = self.fitting(self.hands[self.turn])
        if fit:
            tiles = [TILE_NAMES[t] for t in tiles_of(fit)]
            names, verb = ", ".join(tiles), "fits" if len(tiles) == 1 else "fit"
            raise IllegalMove(
                f"you cannot {action}: {names} {verb}, so you must play", "must_play", tiles=names
            )

    def _check_doubles(self, move: PlayDoubles) -> None:
        if not self.multi_doubles:
            raise IllegalMove(f"{self.rules.id} allows one tile per turn")
        plays = move.plays
        if not 2 <= len(plays) <= MAX_ARMS:
            raise IllegalMove(f"several doubles means 2 to 4 doubles, not {len(plays)}")
        if self.layout.first < 0:
            raise IllegalMove("the first tile of a round is a single tile")
        hand = self.hands[self.turn]
        scratch = self.layout.copy()
        arms: set[int | None] = set()
        for play in plays:
            t = play.tile
            if not (isinstance(t, int) and 0 <= t < TILE_COUNT and IS_DOUBLE[t]):
                name = TILE_NAMES[t] if isinstance(t, int) and 0 <= t < TILE_COUNT else repr(t)
                raise IllegalMove(f"{name} is not a double: only doubles go several at once")
            if play.arm in arms:
                raise IllegalMove(f"two doubles on arm {play.arm}: one double per arm")
            arms.add(play.arm)
            self._check_play(play, hand, scratch.ends, scratch.closed)
            hand &= ~(1 << play.tile)
            assert play.arm is not None
            scratch.attach(play.tile, play.arm, play.close, self.spinner_rule)

    # --- copies ---------------------------------------------------------------------------

    def copy(self) -> Round:
        """An independent copy (for search)."""
        other = Round.__new__(Round)
        for name in Round.__slots__:
            setattr(other, name, getattr(self, name))
        other.hands = self.hands[:]
        other.layout = self.layout.copy()
        other.history = self.history[:]
        return other

"""What one seat (or a spectator) may see of a game: the only way bots and clients see it.

A :class:`SeatView` holds the seat's own hand, the other seats' tile counts, the bazaar's size,
the layout (each laid tile with its half that faces out along its arm), the public history
(another seat's draws show as a draw without the tile), the score sheet, each seat's scoring
unit, pending eggs and whose turn it is; in the games that score during play also the
points of each lay, each unit's points this round, the end sum (games that count the ends),
who won the lot for the first lead and, when asked for, the hint: the points each of the
seat's own legal lays would score. It never holds another hand's tile or the bazaar order;
``tests/test_views.py`` proves that over thousands of random games.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kozel.core import (
    DOUBLE_OF,
    HIGH,
    IS_DOUBLE,
    PIPS,
    TILE_COUNT,
    TILE_NAMES,
    Layout,
    Move,
    Play,
    PlayDoubles,
    Tile,
    tiles_of,
)
from kozel.engine.game import kept
from kozel.engine.options import Options
from kozel.layout.codec import event_to_dict, move_to_dict
from kozel.layout.history import lay, plays_of
from kozel.layout.round import Round
from kozel.layout.rules import Ruleset
from kozel.layout.scoring.base import Cell
from kozel.layout.scoring.goat import Account

if TYPE_CHECKING:
    from kozel.layout.match import Match

__all__ = [
    "LEAD_REASONS",
    "ArmView",
    "LastRound",
    "SeatView",
    "event_to_dict",
    "first_lead_order",
    "lead_reason",
    "move_to_dict",
    "view_dicts",
    "view_for",
]

PublicEvent = tuple[int, Move, Tile]
"""``(seat, move, drawn)`` where ``drawn`` is the tile only for the viewer's own draws, else -1."""


@dataclass(frozen=True)
class ArmView:
    number: int
    shows: int
    closed: bool
    tiles: tuple[Tile, ...]
    """Tiles laid on this arm, from the first tile outwards."""
    outer: tuple[int, ...] = ()
    """Per tile of ``tiles``, its half that faces out along the arm (the value the arm showed
    once it was laid; the other half touches the tile before it). A client draws and words
    the chain from this and works out no rule of its own."""


@dataclass(frozen=True)
class LastRound:
    """How the previous round ended: public once it is over (counts, not tiles)."""

    kind: str
    seat: int
    counts: tuple[int, ...]
    charged: tuple[int, ...]
    """Per unit, what the round added: the charge (Goat) or the points (races)."""


@dataclass(frozen=True)
class SeatView:
    """One seat's view of a game (``seat`` is ``None`` for a spectator)."""

    rules: Ruleset
    opts: Options
    seat: int | None
    hand: tuple[Tile, ...]
    hand_sizes: tuple[int, ...]
    bazaar_left: int
    reserve: int
    first_tile: Tile
    spinner: Tile
    arms: tuple[ArmView, ...]
    table: int
    """Bitmask of the tiles on the table."""
    history: tuple[PublicEvent, ...]
    leader: int
    turn: int | None
    round_number: int
    sheet: tuple[Cell, ...]
    """Per scoring unit: an ``Account`` in Goat, a score in the races."""
    eggs: int
    legal_moves: tuple[Move, ...]
    last_round: LastRound | None
    over: bool
    hundred: int = -1
    """The seat that declared Sea Goat's hundred this round, or -1."""
    points: tuple[int, ...] = ()
    """Per history event, the points it scored (games that score during play; else empty)."""
    during: tuple[int, ...] = ()
    """Per scoring unit, the points scored during play this round (else empty)."""
    end_sum: int | None = None
    """The end sum of the layout (games that score on it; else ``None``)."""
    hint: tuple[tuple[Move, int], ...] = ()
    """The seat's own legal lays that would score, with their points (only when asked for)."""
    lot_seat: int = -1
    """The first round of a game that drew lots for its first leader: the seat that won the
    lot (the tiles drawn are in the record only: a message names no tile but the seat's own
    and the table's), else -1."""
    lot_by: str = ""
    """How the lot is won: ``"lowest"`` or ``"heaviest"`` tile (with ``lot_seat``)."""
    asking: int = -1
    """Sea Goat: the seat (the record holder, dealt 6-6) asked before the regular leader
    leads whether it declares the hundred; its legal moves are the hundred and no. -1: none."""
    lead_seat: int = -1
    """The seat that leads this round, when the viewer may know why (see ``lead_why``)."""
    lead_why: str = ""
    """Why ``lead_seat`` leads (:func:`lead_reason`), or ``""`` while the first round's reason
    would name a tile the viewer may not know yet."""
    lead_tile: Tile = -1
    """The tile the first round had to be led with, when the reason names it."""
    units: tuple[int, ...] = ()
    """Per seat, its scoring unit (:meth:`Options.unit_of`: in team play seats 0 and 2 are
    unit 0, seats 1 and 3 unit 1; else each seat is its own)."""

    @property
    def to_move(self) -> int | None:
        """The seat to move (the game protocol's name for ``turn``)."""
        return self.turn

    @property
    def hand_mask(self) -> int:
        mask = 0
        for t in self.hand:
            mask |= 1 << t
        return mask

    def to_dict(self, history: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        """Plain JSON-ready data (what a client receives); ``history``: the history's JSON
        when the caller holds it already (:class:`Trail`)."""
        return {
            "game": self.rules.id,
            "options": self.rules.options_dict(self.opts),
            "seat": self.seat,
            "hand": [TILE_NAMES[t] for t in self.hand],
            "hand_sizes": list(self.hand_sizes),
            "bazaar_left": self.bazaar_left,
            "reserve": self.reserve,
            "layout": _layout_json(self.first_tile, self.spinner, self.arms),
            "history": self._history_dicts() if history is None else history,
            "leader": self.leader,
            "turn": self.turn,
            "round": self.round_number,
            "sheet": [a.to_dict() if isinstance(a, Account) else a for a in self.sheet],
            "eggs": self.eggs,
            "legal_moves": [move_to_dict(m) for m in self.legal_moves],
            "hundred": self.hundred,
            "last_round": None
            if self.last_round is None
            else {
                "end": {"kind": self.last_round.kind, "seat": self.last_round.seat},
                "counts": list(self.last_round.counts),
                "charged": list(self.last_round.charged),
            },
            "over": self.over,
            "during": list(self.during),
            "end_sum": self.end_sum,
            "hint": [{**move_to_dict(move), "points": n} for move, n in self.hint],
            "lot": None if self.lot_seat < 0 else {"seat": self.lot_seat, "by": self.lot_by},
            "hundred_asked": self.asking,
            "lead": _lead_json(self.lead_seat, self.lead_why, self.lead_tile),
            "units": list(self.units),
        }

    def _history_dicts(self) -> list[dict[str, Any]]:
        """The history as JSON; in the games that score during play every lay carries its
        ``points``, as in the record."""
        out = []
        for k, (seat, move, drawn) in enumerate(self.history):
            event = event_to_dict(seat, move, drawn)
            if self.points and isinstance(move, Play | PlayDoubles):
                event["points"] = self.points[k]
            out.append(event)
        return out


def view_from_dict(data: dict[str, Any], rules_of: Callable[[str], Ruleset]) -> SeatView:
    """Rebuild a view from :meth:`SeatView.to_dict` (what a client receives), e.g. to let a
    Kozel bot play for a remote client; ``rules_of`` gives the rules of the game it names.
    Raises ``ValueError`` on malformed data."""
    from kozel.core import parse_tile

    rules = rules_of(data["game"])
    opts = rules.options(data["options"], complete=True)
    layout = data["layout"]
    first, arms, table = _layout_from_dict(layout)
    history, points = _history_from_dict(data["history"], opts.players)
    scores = rules.scoring(opts).scores_during_play
    hint, legal = _offered_from_dict(data, opts.players)
    lead = data.get("lead")
    return SeatView(
        rules=rules,
        opts=opts,
        seat=data["seat"],
        hand=tuple(parse_tile(t) for t in data["hand"]),
        hand_sizes=tuple(data["hand_sizes"]),
        bazaar_left=data["bazaar_left"],
        reserve=data["reserve"],
        first_tile=first,
        spinner=parse_tile(layout["spinner"]) if layout["spinner"] else -1,
        arms=arms,
        table=table,
        history=history,
        leader=data["leader"],
        turn=data["turn"],
        round_number=data["round"],
        sheet=tuple(
            Account(a["account"], a["open"], a["remembered"]) if isinstance(a, dict) else int(a)
            for a in data["sheet"]
        ),
        eggs=data["eggs"],
        legal_moves=legal,
        last_round=_last_round_from_dict(data.get("last_round")),
        over=data["over"],
        hundred=data.get("hundred", -1),
        points=points if scores else (),
        during=tuple(data.get("during", ())),
        end_sum=data.get("end_sum"),
        hint=hint,
        lot_seat=-1 if data.get("lot") is None else data["lot"]["seat"],
        lot_by="" if data.get("lot") is None else data["lot"]["by"],
        asking=data.get("hundred_asked", -1),
        lead_seat=-1 if lead is None else lead["seat"],
        lead_why="" if lead is None else lead["why"],
        lead_tile=-1 if lead is None or lead["tile"] is None else parse_tile(lead["tile"]),
        units=tuple(data.get("units", ())),
    )


def _layout_from_dict(layout: dict[str, Any]) -> tuple[Tile, tuple[ArmView, ...], int]:
    """The first tile, the arms and the mask of the tiles on the table of a view's
    ``layout`` object."""
    from kozel.core import parse_tile

    first = parse_tile(layout["first"]) if layout["first"] else -1
    arms = tuple(
        ArmView(
            a["arm"],
            a["shows"],
            a["closed"],
            tuple(parse_tile(t) for t in a["tiles"]),
            tuple(a.get("outer", ())),
        )
        for a in layout["arms"]
    )
    table = 0 if first < 0 else 1 << first
    for arm in arms:
        for t in arm.tiles:
            table |= 1 << t
    return first, arms, table


def _history_from_dict(
    events: list[dict[str, Any]], players: int
) -> tuple[tuple[PublicEvent, ...], tuple[int, ...]]:
    """A view's history: the events, and each event's points (0 where it names none)."""
    from kozel.layout.codec import parse_move

    history = []
    points = []
    for event in events:
        seat, move, drawn = parse_move(event, "history", players)
        history.append((seat, move, drawn))
        points.append(event.get("points", 0))
    return tuple(history), tuple(points)


def _offered_from_dict(
    data: dict[str, Any], players: int
) -> tuple[tuple[tuple[Move, int], ...], tuple[Move, ...]]:
    """A view's hint (each move with its points) and legal moves, for its seat."""
    from kozel.layout.codec import parse_move

    hint = tuple(
        (parse_move({**m, "seat": data["seat"] or 0}, "hint", players)[1], m["points"])
        for m in data.get("hint", [])
    )
    seat = data["seat"]
    legal = tuple(
        parse_move({**m, "seat": seat or 0}, "legal", players)[1] for m in data["legal_moves"]
    )
    return hint, legal


def _last_round_from_dict(last: dict[str, Any] | None) -> LastRound | None:
    """How the last round ended, from a view's ``last_round`` object (``None``: none yet)."""
    if last is None:
        return None
    return LastRound(
        last["end"]["kind"],
        last["end"]["seat"],
        tuple(last["counts"]),
        tuple(last["charged"]),
    )


class Trail:
    """What a round's public view builds from its history, grown as the history grows: the
    tiles laid on each arm and the half of each that faces out along its arm (what the arm
    showed once it was laid, by the engine's own :func:`~kozel.layout.history.lay`), every
    tile laid, each event as the spectators see it in JSON, and each seat's own draws (their
    indices and their JSON with the tile). The match keeps one (:func:`trail_of`), so a
    view costs what the moves since the last one added, not the whole round again; the JSON
    events are shared between builds: read them, never change them."""

    __slots__ = ("chains", "count", "deal", "events", "laid", "last", "layout", "outer", "own")

    def __init__(self, rnd: Round) -> None:
        self.deal = rnd.deal
        """The round's deal, which the round's copies share (a table pushes each move on a
        copy of its match, and builds the views from the copy)."""
        self.count = 0
        """History events followed so far."""
        self.last: tuple[int, Move, Tile] | None = None
        """The last of them (a history that changed other than by growing is not followed)."""
        self.layout = Layout()
        self.chains: list[list[Tile]] = [[], [], [], []]
        self.outer: list[list[int]] = [[], [], [], []]
        self.laid: list[Play] = []
        self.events: list[dict[str, Any]] = []
        self.own: dict[int, dict[int, dict[str, Any]]] = {}
        """Per seat, its draws: the history index and the event's JSON with the tile."""

    def follows(self, rnd: Round) -> bool:
        """Whether this trail is of ``rnd`` (or of a round it is a copy of, or one copied
        from it) and ``rnd``'s history holds the events followed (its history only grows)."""
        count = self.count
        return (
            self.deal is rnd.deal
            and len(rnd.history) >= count
            and (count == 0 or rnd.history[count - 1] is self.last)
        )

    def follow(self, rnd: Round, points: Sequence[int]) -> None:
        """Take in the events added to ``rnd``'s history since the last call; ``points``: per
        event, the points it scored (the games that score during play; else empty)."""
        history = rnd.history
        for k in range(self.count, len(history)):
            seat, move, drawn = event = history[k]
            plays = plays_of(move)
            for play in plays:
                lay(self.layout, play, rnd.spinner_rule)
                if play.arm is not None:
                    self.chains[play.arm].append(play.tile)
                    self.outer[play.arm].append(self.layout.ends[play.arm])
            self.laid.extend(plays)
            public = event_to_dict(seat, move, -1)
            if points and plays:
                public["points"] = points[k]
            self.events.append(public)
            if drawn >= 0:
                self.own.setdefault(seat, {})[k] = event_to_dict(seat, move, drawn)
            self.last = event
        self.count = len(history)


def _arm_views(rnd: Round, trail: Trail) -> tuple[ArmView, ...]:
    """The round's open arms, with the tiles the trail laid on each."""
    layout = rnd.layout
    return tuple(
        ArmView(k, shows, layout.closed[k], tuple(trail.chains[k]), tuple(trail.outer[k]))
        for k, shows in enumerate(layout.ends)
        if shows >= 0
    )


def _layout_json(first: Tile, spinner: Tile, arms: Sequence[ArmView]) -> dict[str, Any]:
    """A view's ``layout`` in JSON."""
    return {
        "first": TILE_NAMES[first] if first >= 0 else None,
        "spinner": TILE_NAMES[spinner] if spinner >= 0 else None,
        "arms": [
            {
                "arm": a.number,
                "shows": a.shows,
                "closed": a.closed,
                "tiles": [TILE_NAMES[t] for t in a.tiles],
                "outer": list(a.outer),
            }
            for a in arms
        ],
    }


def trail_of(match: Match) -> Trail:
    """The match's :class:`Trail` of its current round, caught up with its history."""
    rnd = match.round
    trail: Trail | None = match.trail
    if trail is None or not trail.follows(rnd):
        trail = match.trail = Trail(rnd)
    trail.follow(rnd, match.points if match.scoring.scores_during_play else ())
    return trail


def view_for(
    match: Match, seat: int | None, hints: bool = False, trail: Trail | None = None
) -> SeatView:
    """What ``seat`` may see now; ``seat=None`` is a spectator (no hand at all). With ``hints``
    (a table that allows them) the seat to move also gets the points each of its legal lays
    would score, in the games that score during play. ``trail``: the round's, caught up
    (default: :func:`trail_of`)."""
    rnd = match.round
    layout = rnd.layout
    if trail is None:
        trail = trail_of(match)
    arms = _arm_views(rnd, trail)
    history = tuple((s, move, drawn if s == seat else -1) for s, move, drawn in rnd.history)
    own_turn = seat is not None and not match.over and not rnd.over and rnd.turn == seat
    legal = tuple(rnd.legal_moves()) if own_turn else ()
    scoring = match.scoring
    laid = trail.laid
    scores = scoring.scores_during_play
    hint = _hints(match, legal, laid) if hints else []
    last = None
    if match.results:
        result = match.results[-1]
        last = LastRound(
            result.end.kind, result.end.seat, tuple(result.counts), tuple(result.gained)
        )
    return SeatView(
        rules=match.rules,
        opts=match.opts,
        seat=seat,
        hand=tuple(tiles_of(rnd.hands[seat])) if seat is not None else (),
        hand_sizes=tuple(h.bit_count() for h in rnd.hands),
        bazaar_left=rnd.bazaar_left,
        reserve=rnd.reserve,
        first_tile=layout.first,
        spinner=layout.spinner,
        arms=arms,
        table=layout.table,
        history=history,
        leader=rnd.leader,
        turn=None if rnd.over else rnd.turn,
        round_number=len(match.results) + (0 if rnd.over else 1),
        sheet=tuple(match.sheet),
        eggs=match.eggs,
        legal_moves=legal,
        last_round=last,
        over=match.over,
        hundred=rnd.hundred,
        points=tuple(match.points) if scores else (),
        # once the round is over its points are on the sheet
        during=(tuple(0 for _ in match.during) if rnd.over else tuple(match.during))
        if scores
        else (),
        end_sum=scoring.layout_sum(laid, rnd.spinner_rule) if laid else None,
        hint=tuple(hint),
        lot_seat=match.rules.lot_winner(match.lot) if match.lot and not match.results else -1,
        lot_by=match.rules.lot if match.lot and not match.results else "",
        asking=-1 if rnd.over else rnd.asking,
        units=tuple(match.opts.unit_of(s) for s in range(match.opts.players)),
        **_lead_fields(match, seat),
    )


LEAD_REASONS = (
    *("lot_lowest", "lot_heaviest", "first_tile", "lowest_double", "highest_double"),
    *("next_double", "highest_tile", "lowest_tile", "next_tile", "went_out"),
    *("partner_went_out", "fisherman", "fish_winner", "laid_last", "previous"),
)
"""Every reason :func:`lead_reason` gives (a client words each)."""


def lead_reason(match: Match) -> tuple[str, Tile]:
    """Why the round's leader leads, in the engine's words, and the tile the first round had
    to be led with (else -1):

    - the first round of a game that draws lots: ``lot_lowest`` or ``lot_heaviest``;
    - the first round of a game with an order of first leads (``Ruleset.first_lead_order``):
      ``first_tile`` (the order's first, e.g. ``1-1``, was dealt to him), ``lowest_double``
      or ``highest_double`` (no hand holds a lower or a higher double: those come before it
      in the order), ``next_double`` (the first double of the order a hand holds, when that
      says no more), ``highest_tile`` or ``lowest_tile`` (no hand holds a double, nor a
      heavier or a lighter tile), ``next_tile``;
    - a later round, from how the last one ended: ``went_out``, ``partner_went_out`` (Yard
      Goat), ``fisherman`` (the fish's maker), ``fish_winner`` (the fish's winner, the races),
      ``laid_last`` (Bykovo's sortir), ``previous`` (any other end); or ``hundred``: Sea
      Goat's record holder, not the regular leader, declared the hundred and led 6-6.

    The reasons say only what the lead itself shows the table: "no hand holds a lower
    double" is what a lead of ``3-3`` by the order ``0-0, 1-1, …`` tells everyone."""
    rnd = match.round
    rules = match.rules
    before = len(match.results) - (1 if rnd.over else 0)  # the rounds finished before this one
    if before:
        end = match.results[before - 1].end
        regular = match.rules.next_leader(match.opts, match.results[before - 1])
        if rnd.hundred >= 0 and rnd.leader == rnd.hundred != regular:
            return "hundred", -1  # Sea Goat: the record holder declared it and led 6-6
        same = rnd.leader == end.seat
        why = {
            "out": "went_out" if same else "partner_went_out",
            "fish": "fisherman" if same else "fish_winner",
            "sortir": "laid_last",
        }.get(end.kind, "previous")
        return why, -1
    if match.lot:
        return f"lot_{rules.lot}", -1
    tile = rnd.lead_mask.bit_length() - 1
    order = first_lead_order(match)
    if rnd.lead_mask.bit_count() != 1 or tile not in order:
        return "previous", -1
    earlier = set(order[: order.index(tile)])
    if not earlier:
        return "first_tile", tile
    key = (PIPS[tile], HIGH[tile])
    if IS_DOUBLE[tile]:
        doubles = [d for d in DOUBLE_OF if d != tile]
        if all(d in earlier for d in doubles if PIPS[d] < PIPS[tile]):
            return "lowest_double", tile
        if all(d in earlier for d in doubles if PIPS[d] > PIPS[tile]):
            return "highest_double", tile
        return "next_double", tile
    others = [t for t in range(TILE_COUNT) if t != tile]
    if not all(d in earlier for d in DOUBLE_OF):
        return "next_tile", tile
    singles = [t for t in others if not IS_DOUBLE[t]]
    if all(t in earlier for t in singles if (PIPS[t], HIGH[t]) > key):
        return "highest_tile", tile
    if all(t in earlier for t in singles if (PIPS[t], HIGH[t]) < key):
        return "lowest_tile", tile
    return "next_tile", tile


def first_lead_order(match: Match) -> tuple[Tile, ...]:
    """The order in which tiles lead this game's first round (its holder of the first tile of
    it that any hand holds leads that tile), with the game's options (Goat's ``first_lead``)."""
    return match.rules.lead_order(match.opts)


def _lead_fields(match: Match, seat: int | None) -> dict[str, Any]:
    """The view's ``lead_*`` fields for ``seat``: a first round's reason names the tile the
    leader had to lead, so only the leader sees it before that tile is on the table."""
    rnd = match.round
    why, tile = lead_reason(match)
    if tile >= 0 and seat != rnd.leader and not rnd.layout.table >> tile & 1:
        return {}
    return {"lead_seat": rnd.leader, "lead_why": why, "lead_tile": tile}


def _lead_json(
    lead_seat: int = -1, lead_why: str = "", lead_tile: Tile = -1
) -> dict[str, Any] | None:
    """A view's ``lead`` in JSON: ``None`` while the viewer may not know why."""
    if not lead_why:
        return None
    tile = TILE_NAMES[lead_tile] if lead_tile >= 0 else None
    return {"seat": lead_seat, "why": lead_why, "tile": tile}


def _hints(match: Match, legal: Sequence[Move], laid: list[Play]) -> list[tuple[Move, int]]:
    """The points each legal lay would score (games that score during play; else none)."""
    scoring = match.scoring
    if not scoring.scores_during_play:
        return []
    hint = []
    for move in legal:
        if plays_of(move):
            n = scoring.play_points([*laid, *plays_of(move)], match.round.spinner_rule)
            if n:
                hint.append((move, n))
    return hint


def _moving_members(match: Match, trail: Trail) -> dict[str, Any]:
    """The members of the spectator's view (:meth:`SeatView.to_dict`) that a move can change
    while its round goes on (Sea Goat's hundred changes even the leader); the others (the
    game, its options, the sheet, the eggs, the round's number, the last round, the lot,
    the units) change only when a round ends or begins."""
    rnd = match.round
    layout = rnd.layout
    scores = match.scoring.scores_during_play
    laid = trail.laid
    return {
        "hand_sizes": [h.bit_count() for h in rnd.hands],
        "bazaar_left": rnd.bazaar_left,
        "layout": _layout_json(layout.first, layout.spinner, _arm_views(rnd, trail)),
        "history": trail.events[:],
        "leader": rnd.leader,
        "turn": rnd.turn,
        "hundred": rnd.hundred,
        "during": list(match.during) if scores else [],
        "end_sum": match.scoring.layout_sum(laid, rnd.spinner_rule) if laid else None,
        "hundred_asked": rnd.asking,
        "lead": _lead_json(**_lead_fields(match, None)),
    }


def _kept_layout(sent: dict[str, Any], layout: dict[str, Any]) -> dict[str, Any]:
    """:func:`~kozel.engine.game.kept` for a layout, arm by arm: a move lays on one arm."""
    if layout is sent:
        return layout
    arms = {arm["arm"]: arm for arm in sent["arms"]}
    layout["arms"] = [kept(arms.get(arm["arm"]), arm) for arm in layout["arms"]]
    return layout


def view_dicts(
    match: Match,
    seats: Sequence[int | None],
    hints: bool = False,
    previous: Sequence[dict[str, Any]] | None = None,
) -> list[dict[str, Any]]:
    """``[view_for(match, seat, hints).to_dict() for seat in seats]``, built for a table's
    every seat at once: the spectator's view once, then what only one seat may see on top of
    it (its hand, the tiles it drew, its legal moves and hint). The dicts share their other
    values: read them, do not change them. ``previous``: the views this call last returned
    for the same ``seats`` (the spectator last); while the round they show goes on, only
    what a move can change is built again (:func:`_moving_members`) and the rest is shared
    with them. ``tests/test_views.py`` checks that all ways agree."""
    rnd = match.round
    followed = match.trail
    trail = trail_of(match)  # the same trail when it followed this round's history
    old = previous[-1] if previous and seats and seats[-1] is None else None
    if (
        old is not None
        and trail is followed
        and not rnd.over
        and not match.over
        and old["round"] == len(match.results) + 1
        and not old["over"]
    ):
        moving = _moving_members(match, trail)
        public = {**old, **{key: kept(old.get(key), value) for key, value in moving.items()}}
        public["layout"] = _kept_layout(old["layout"], public["layout"])
    else:
        public = view_for(match, None, trail=trail).to_dict(history=trail.events[:])
    to_move = None if match.over or rnd.over else rnd.turn
    views = []
    for index, seat in enumerate(seats):
        view = dict(public)
        views.append(view)
        if seat is None:
            continue
        sent = previous[index] if old is not None and previous is not None else {}
        view["seat"] = seat
        view["hand"] = kept(sent.get("hand"), [TILE_NAMES[t] for t in tiles_of(rnd.hands[seat])])
        own_draws = trail.own.get(seat)
        if own_draws:
            history = trail.events[:]
            for i, event in own_draws.items():
                history[i] = event
            view["history"] = kept(sent.get("history"), history)
        if seat == rnd.leader and public["lead"] is None:
            view["lead"] = _lead_json(**_lead_fields(match, seat))
        if seat == to_move:
            legal = rnd.legal_moves()
            view["legal_moves"] = [move_to_dict(m) for m in legal]
            if hints:
                view["hint"] = [
                    {**move_to_dict(move), "points": n}
                    for move, n in _hints(match, legal, trail.laid)
                ]
    return views

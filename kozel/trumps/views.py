"""What one seat (or a spectator) may see of a Trumps game.

A seat sees its own hand, every bid, the trumps, the trick on the table, the tricks already played
this hand (all their tiles were shown), the suit led on the trick on the table, each pair's tricks
and points taken, the scores and each seat's pair. It never holds another player's tiles
(``tests/test_trumps.py`` checks this over many random games).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kozel.core import HIGH, TILE_NAMES, Tile, parse_tile
from kozel.hands.views import HandViewFields, head_from_dict, view_head
from kozel.trumps.hand import SEATS, pair_of
from kozel.trumps.moves import TrumpsMove, move_from_dict, move_to_dict
from kozel.trumps.options import TRUMPS_RULES, TrumpsOptions
from kozel.trumps.tiles import COUNTERS, TRUMP_SUIT, led_suit

if TYPE_CHECKING:
    from kozel.trumps.match import TrumpsMatch

UNITS = tuple(pair_of(s) for s in range(SEATS))
"""Per seat, its pair (scoring unit): seats 0 and 2 are pair 0."""


@dataclass(frozen=True)
class TrumpsView(HandViewFields[TrumpsOptions]):
    """One seat's view (``seat`` is ``None`` for a spectator); its ``phase`` is ``"deal"``,
    ``"bid"``, ``"naming"`` (the trumps), ``"play"`` or ``"over"`` (the hand)."""

    bids: tuple[tuple[int, int | None], ...]
    """``(seat, bid)`` in order, ``None`` for a pass."""
    bidder: int | None
    bid: int
    trumps: int | None
    trick: tuple[tuple[int, Tile], ...]
    """The trick on the table, ``(seat, tile)``, led first."""
    played: tuple[tuple[tuple[int, Tile], ...], ...]
    """This hand's finished tricks, each ``(seat, tile)`` led first."""
    tricks_won: tuple[int, int]
    taken: tuple[int, int]
    scores: tuple[int, int]
    legal_moves: tuple[TrumpsMove, ...]
    over: bool
    hand_sizes: tuple[int, ...] = ()
    """Every seat's number of tiles."""
    last_trick: tuple[int, int] | None = None
    """This hand's last finished trick: (its winner, the points it took)."""
    led: int | None = None
    """The suit led on the trick on the table, as the engine enforces it
    (:meth:`TrumpsHand.led`): :data:`TRUMP_SUIT` when a trump was led, else the number of the
    led tile's higher half; ``None`` while no tile lies there."""
    units: tuple[int, ...] = UNITS
    """Per seat, its pair."""

    def to_dict(self) -> dict[str, Any]:
        return {
            **view_head("trumps", self),
            "hand_sizes": list(self.hand_sizes),
            "bids": [{"seat": s, "bid": b} for s, b in self.bids],
            "bidder": self.bidder,
            "bid": self.bid,
            "trumps": self.trumps,
            "trick": [{"seat": s, "tile": TILE_NAMES[t]} for s, t in self.trick],
            "played": [[{"seat": s, "tile": TILE_NAMES[t]} for s, t in tr] for tr in self.played],
            "tricks_won": list(self.tricks_won),
            "taken": list(self.taken),
            "scores": list(self.scores),
            "target": self.opts.target,
            "legal_moves": [move_to_dict(m) for m in self.legal_moves],
            "over": self.over,
            "last_trick": (
                None
                if self.last_trick is None
                else {"winner": self.last_trick[0], "points": self.last_trick[1]}
            ),
            # the counting tiles of this hand only (a message names no tile it need not)
            "counters": {TILE_NAMES[t]: COUNTERS[t] for t in self.hand if t in COUNTERS},
            "led": led_dict(self.led, self.trumps),
            "suits": [suit_dict(t, self.trumps) for t in self.hand],
            "units": list(self.units),
        }


def suit_dict(t: Tile, trumps: int | None) -> dict[str, Any]:
    """The suit tile ``t`` belongs to, as :func:`led_dict` words a suit: trumps (when they
    are named and it holds their number), else the suit of its higher half, the one it leads
    and follows (:func:`~kozel.trumps.tiles.led_suit`)."""
    return led_dict(led_suit(t, trumps) if trumps is not None else HIGH[t], trumps) or {}


def led_dict(led: int | None, trumps: int | None) -> dict[str, Any] | None:
    """The led suit as a client reads it: ``{"suit": n, "trumps": bool}``, ``n`` the number
    to follow (the trump number when a trump was led), or ``None``."""
    if led is None:
        return None
    if led == TRUMP_SUIT:
        return {"suit": trumps, "trumps": True}
    return {"suit": led, "trumps": False}


def trumps_view(match: TrumpsMatch, seat: int | None) -> TrumpsView:
    """What ``seat`` (``None``: a spectator) may see of ``match`` now."""
    hand = match.hand
    scores = (match.scores[0], match.scores[1])
    if hand is None:
        return TrumpsView(
            match.opts, seat, 0, match.next_dealer(), "deal", None, (), (), None, 0, None,
            (), (), (0, 0), (0, 0), scores, (), match.over,
        )  # fmt: skip
    played = tuple(
        tuple(((t["leader"] + i) % 4, tile) for i, tile in enumerate(t["tiles"]))
        for t in hand.tricks
    )
    return TrumpsView(
        **match.view_fields(seat),
        hand=tuple(sorted(hand.hands[seat])) if seat is not None else (),
        bids=tuple(hand.bids),
        bidder=hand.bidder,
        bid=hand.bid,
        trumps=hand.trumps,
        trick=tuple(hand.trick),
        played=played,
        tricks_won=(hand.tricks_won[0], hand.tricks_won[1]),
        taken=(hand.taken[0], hand.taken[1]),
        scores=scores,
        over=match.over,
        hand_sizes=tuple(len(tiles) for tiles in hand.hands),
        last_trick=(hand.tricks[-1]["winner"], hand.tricks[-1]["points"]) if hand.tricks else None,
        led=hand.led(),
    )


def trumps_view_from_dict(data: dict[str, Any]) -> TrumpsView:
    """Rebuild a view from :meth:`TrumpsView.to_dict` (what a client receives), e.g. to let a
    Kozel bot play for a remote client. Raises ``ValueError`` (or ``KeyError``) on malformed
    data."""
    opts = TRUMPS_RULES.options({"target": data["options"]["target"]})
    assert isinstance(opts, TrumpsOptions)

    def laid(entries: list[dict[str, Any]]) -> tuple[tuple[int, Tile], ...]:
        return tuple((e["seat"], parse_tile(e["tile"])) for e in entries)

    return TrumpsView(
        opts=opts,
        **head_from_dict(data),
        bids=tuple((b["seat"], b["bid"]) for b in data["bids"]),
        bidder=data["bidder"],
        bid=data["bid"],
        trumps=data["trumps"],
        trick=laid(data["trick"]),
        played=tuple(laid(t) for t in data["played"]),
        tricks_won=(data["tricks_won"][0], data["tricks_won"][1]),
        taken=(data["taken"][0], data["taken"][1]),
        scores=(data["scores"][0], data["scores"][1]),
        legal_moves=tuple(move_from_dict(m, "legal move") for m in data["legal_moves"]),
        over=data["over"],
        hand_sizes=tuple(data["hand_sizes"]),
        last_trick=(
            None
            if data["last_trick"] is None
            else (data["last_trick"]["winner"], data["last_trick"]["points"])
        ),
        led=None
        if data.get("led") is None
        else (TRUMP_SUIT if data["led"]["trumps"] else data["led"]["suit"]),
        units=tuple(data.get("units", UNITS)),
    )
